r"""Conventions of the window metrics: their names, the default ``k``, and the window geometry.

A text of ``N`` units has ``N - 1`` gaps between adjacent units, numbered ``1 .. N-1`` (gap ``g``
follows unit ``g``); a boundary sits in a gap. A *window* is a run of ``w`` consecutive gaps starting
at gap ``s``. How wide a window is, where the windows start and what divides the sum over them is the
*convention* (``docs/conventions.md`` has the table):

``"paper"``
    Pevzner & Hearst (2002): :math:`\frac{1}{N-k}\sum_{i=1}^{N-k}`, the probe joins sentence ``i`` and
    sentence ``i + k`` and so spans the ``k`` gaps ``i .. i+k-1``; ``N - k`` windows. ``k`` defaults to
    half the mean reference segment size, :math:`N / (2\,|\text{segments}|)`, rounded half up, at least 1.
``"segeval1"``
    The 2012 reference implementation behind Fournier & Inkpen's numbers (segeval 1.1): ``k`` is half
    the mean reference segment size rounded half up, at least 2. Its Pk probes unit ``i`` against unit
    ``i + k`` (windows of ``k`` gaps, ``N - k`` of them, as the paper); its WindowDiff slides windows of
    ``k`` units, which hold ``k - 1`` gaps, ``N + 1 - k`` of them; with ``lamprier=True``
    :math:`p = \max(1, k - 1)` phantom units pad both ends of both segmentations, ``N + 1 - k + 2p``
    windows.
``"segeval"``
    segeval 2.0.11: ``k`` half the mean reference mass rounded half to even, at least 2; windows of
    ``k`` gaps, ``N - k`` of them; with ``lamprier=True`` ``k`` phantom units at each end and ``N + k + 1``
    as the divisor (segeval divides by one more than the windows it counts).
``"nltk"``
    ``nltk.metrics.segmentation``: the masses stand for a string of ``N - 1`` characters, one per gap;
    ``k`` defaults to :math:`\mathrm{round}((N-1) / (2 \max(|\text{boundaries}|, 1)))` (half to even,
    may be 0); windows of ``k`` characters, ``N - k`` of them.
``"chunkseg"``
    chunkseg 0.4.0, which scores time segmentations cut into fixed chunks through segeval 2.0.11: on
    masses, ``"segeval"``'s ``k`` and windows (:func:`base_convention`), except that WindowDiff where
    no window fits (``k = N``, segeval divides 0 by 0) is what chunkseg substitutes, 1 when the two
    segmentations are equal, else 0. The chunk grid is :func:`tvseg.unit.projection.chunk_masses`.

Every function takes one pair (ints) or many (arrays, one value per pair: a corpus of shows).

References
----------
.. [1] L. Pevzner and M. A. Hearst (2002). A critique and improvement of an evaluation metric for
   text segmentation. Computational Linguistics 28(1):19-36.
.. [2] M. Scaiano and D. Inkpen (2012). Getting more from segmentation evaluation. NAACL-HLT.
.. [3] C. Fournier and D. Inkpen (2012). Segmentation similarity and agreement. NAACL-HLT.
.. [4] S. Lamprier, T. Amghar, B. Levrat and F. Saubion (2007). On evaluation methodologies for
   text segmentation algorithms. ICTAI.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tvseg.errors import InputError, UsageError

if TYPE_CHECKING:  # numpy is imported where an array is made: tvseg's command line parser needs CONVENTIONS only
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "check_cost",
    "CONVENTIONS",
    "Geometry",
    "base_convention",
    "check_convention",
    "check_k",
    "convention_k",
    "geometry",
    "no_window_value",
    "winpr_geometry",
    "winpr_k",
]

CONVENTIONS = ("paper", "segeval1", "segeval", "nltk", "chunkseg")
"""The conventions of Pk and WindowDiff (module docstring)."""


def base_convention(convention: str) -> str:
    """The convention whose windows ``convention`` counts: ``"segeval"`` for ``"chunkseg"`` (chunkseg
    calls segeval), else ``convention`` itself."""
    return "segeval" if convention == "chunkseg" else convention


def check_convention(convention: object) -> None:
    """A :class:`~tvseg.errors.UsageError` unless ``convention`` is one of :data:`CONVENTIONS`."""
    if convention not in CONVENTIONS:
        raise UsageError(f"convention must be one of {', '.join(CONVENTIONS)}, got {convention!r}")


def check_k(k: object, least: int) -> None:
    """A :class:`~tvseg.errors.UsageError` unless ``k`` is None or an integer (not a bool) ``>= least``."""
    if k is not None and (isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < least):
        raise UsageError(f"k must be an integer >= {least}, got {k!r}")


def check_cost(value: object, name: str) -> float:
    """``value`` as a float; an :class:`~tvseg.errors.InputError` unless it is a finite real number ``>= 0``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < 0:
        raise InputError(f"{name} must be a finite number >= 0", value=value)
    return float(value)


def _round_half_up(num: Any, den: Any) -> Any:
    return (2 * num + den) // (2 * den)


def _round_half_even(num: Any, den: Any) -> Any:
    q, r = divmod(num, den)
    return q + ((2 * r > den) | ((2 * r == den) & (q % 2 == 1)))


def convention_k(n: Any, segments: Any, convention: str) -> Any:
    r"""The default ``k`` of a reference of ``n`` units in ``segments`` segments, in exact integer
    arithmetic; ``n`` and ``segments`` are ints or arrays (one value per pair):

    .. math::

        \text{paper: } \max(1, \lfloor N/(2S) \rceil_{\uparrow}), \quad
        \text{segeval1: } \max(2, \lfloor N/(2S) \rceil_{\uparrow}), \quad
        \text{segeval: } \max(2, \lfloor N/(2S) \rceil_{even}), \quad
        \text{nltk: } \lfloor (N-1)/(2\max(S-1, 1)) \rceil_{even}

    (:func:`tvseg.unit.windows.default_k` says why).
    """
    import numpy as np

    convention = base_convention(convention)
    most = max if isinstance(n, int) and isinstance(segments, int) else np.maximum  # ints stay ints
    if convention == "paper":
        return most(1, _round_half_up(n, 2 * segments))
    if convention == "segeval1":
        return most(2, _round_half_up(n, 2 * segments))
    if convention == "segeval":
        return most(2, _round_half_even(n, 2 * segments))
    return _round_half_even(n - 1, 2 * most(segments - 1, 1))


@dataclass(frozen=True)
class Geometry:
    """Where the windows of one metric lie, per pair (ints, or arrays with one value per pair): ``k``,
    gaps per window (``width``), the first and last window start (gap numbers; ``lo`` may be < 1 with
    phantom gaps) and the divisor of the sum (a tool's count, possibly <= 0)."""

    k: Any
    width: Any
    lo: Any
    hi: Any
    divisor: Any

    @property
    def windows(self) -> Any:
        """The number of window starts ``lo .. hi`` (never negative)."""
        import numpy as np

        return np.maximum(self.hi - self.lo + 1, 0)


def geometry(
    n: Any,
    segments: Any,
    k: int | None,
    convention: str,
    *,
    lamprier: bool = False,
    weighted: bool = False,
    metric: str = "windowdiff",
) -> Geometry:
    """Window geometry of ``metric`` ("pk" or "windowdiff") under ``convention`` (module docstring),
    after checking the options; ``n`` and ``segments`` (the reference's) are ints or arrays."""
    import numpy as np

    check_convention(convention)
    if lamprier and convention == "nltk":
        raise UsageError(f"convention {convention!r} has no Lamprier et al. correction")
    if weighted and convention in ("segeval", "segeval1", "chunkseg"):
        raise UsageError(f"convention {convention!r} has no weighted WindowDiff")
    check_k(k, 1 if convention in ("paper", "segeval1") else 0)
    convention = base_convention(convention)
    k = convention_k(n, segments, convention) if k is None else int(k)
    if convention == "paper":
        if lamprier:
            # k - 1 phantom gaps without boundaries at each end: every real gap is in k windows
            return winpr_geometry(n, k)
        return Geometry(k, k, 1, n - k, n - k)
    if convention == "segeval1" and metric == "windowdiff":
        if lamprier:
            # p phantom units at each end: padded gaps 1-p .. N-1+p, windows of k units
            phantom = np.maximum(1, k - 1) if isinstance(k, np.ndarray) else max(1, k - 1)
            return Geometry(k, k - 1, 1 - phantom, n + phantom + 1 - k, n + 2 * phantom + 1 - k)
        return Geometry(k, k - 1, 1, n + 1 - k, n + 1 - k)
    if convention == "segeval" and lamprier:
        phantom = np.maximum(k, 1) if isinstance(k, np.ndarray) else max(k, 1)
        return Geometry(k, k, 1 - phantom, n + phantom - k, n + 2 * phantom - k + 1)
    return Geometry(k, k, 1, n - k, n - k)


def winpr_k(n: Any, segments: Any) -> Any:
    """WinPR's default ``k`` (gap positions per window) for a reference of ``n`` units in ``segments``
    segments: Scaiano & Inkpen's window of :math:`N / 2S` units (their equation 1, rounded half up as
    ``"paper"``), which holds one position more than it has units, its edges being inclusive ("each window
    contains 3 content units, thus we consider 4 potential boundary positions"): ``convention_k + 1``."""
    return convention_k(n, segments, "paper") + 1


def winpr_geometry(n: Any, k: Any) -> Geometry:
    """Windows of ``k`` gaps with ``k - 1`` phantom gaps at each end (Lamprier et al. as Scaiano &
    Inkpen describe it): starts ``2-k .. N-1``, every real gap in exactly ``k`` windows."""
    return Geometry(k, k, 2 - k, n - 1, n + k - 2)


def no_window_value(convention: str, metric: str, divisor: Any, equal: Any) -> NDArray[np.float64]:
    """What ``convention`` returns for ``metric`` ("pk" or "windowdiff") where no window fits
    (``divisor <= 0``; ints or arrays, ``equal`` whether the two segmentations are equal): 0 where the
    tool returns 0 (segeval's Pk; segeval's WindowDiff for ``k > N``; nltk's Pk for ``k > N``), for
    ``"chunkseg"``'s WindowDiff with ``k = N`` (segeval divides 0 by 0) what chunkseg substitutes, 1 for
    equal segmentations, else 0; NaN where the convention gives no number."""
    import numpy as np

    out = np.full(np.shape(divisor), np.nan)
    base = base_convention(convention)
    if base == "segeval":
        out[(divisor < 0) | (metric == "pk")] = 0.0
    elif base == "nltk" and metric == "pk":
        out[divisor < 0] = 0.0
    if convention == "chunkseg" and metric == "windowdiff":
        zero = np.asarray(divisor) == 0
        out[zero] = np.asarray(equal, float)[zero] if np.ndim(equal) else float(equal)
    return out
