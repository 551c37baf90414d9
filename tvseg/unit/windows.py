r"""Pk, P'k and WindowDiff of one reference and one hypothesis, in the conventions of
:mod:`tvseg.unit.conventions`.

A segmentation of ``N`` units is given as masses (segment sizes, see :mod:`tvseg.unit.masses`); a
window is a run of ``w`` consecutive gaps starting at gap ``s`` (where the windows lie is the
convention's :func:`~tvseg.unit.conventions.geometry`). For each window, :math:`r_s` and :math:`h_s`
count the reference and hypothesis boundaries it holds. Each metric is a sum over windows of a function
of :math:`(r_s, h_s)`:

=========================  ===========================================================
Pk miss / false alarm       :math:`r_s > 0 = h_s` / :math:`r_s = 0 < h_s`
WindowDiff error            :math:`r_s \neq h_s` (weighted: :math:`|r_s - h_s|`)
=========================  ===========================================================

All sums are computed from the boundary positions, not by visiting every window: WindowDiff by a
sweep over the points where :math:`r_s - h_s` changes (``4 B`` points for ``B`` boundaries), Pk as
lengths of unions of windows (those holding a reference boundary, a hypothesis boundary, either). A
call costs :math:`O(B \log B)` after the :math:`O(N_\text{segments})` input check. WinPR is in
:mod:`tvseg.unit.winpr`; many hypotheses of one reference at once in :mod:`tvseg.unit.batch`.

References
----------
.. [1] L. Pevzner and M. A. Hearst (2002). A critique and improvement of an evaluation metric for
   text segmentation. Computational Linguistics 28(1):19-36.
.. [2] D. Beeferman, A. Berger and J. Lafferty (1999). Statistical models for text segmentation.
   Machine Learning 34:177-210.
.. [3] S. Lamprier, T. Amghar, B. Levrat and F. Saubion (2007). On evaluation methodologies for
   text segmentation algorithms. ICTAI.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import astuple, dataclass
from typing import Any

import numpy as np

from tvseg.unit.conventions import Geometry, check_convention, convention_k, geometry, ratio
from tvseg.unit.masses import Masses, as_masses, pair_positions

__all__ = [
    "pk",
    "windowdiff",
    "pk_components",
    "windowdiff_components",
    "default_k",
    "PkComponents",
    "WindowDiffComponents",
]


@dataclass(frozen=True)
class PkComponents:
    """Additive counts of Pk: windows where only the reference (miss) or only the hypothesis (false
    alarm) separates the probe's ends, and the divisor (number of windows). Unpacks as
    ``miss, false_alarm, windows``."""

    miss: int
    false_alarm: int
    windows: int

    def __iter__(self) -> Iterator[Any]:
        return iter(astuple(self))


@dataclass(frozen=True)
class WindowDiffComponents:
    """Additive counts of WindowDiff: windows in error (weighted: sum of differences) and the divisor.
    Unpacks as ``errors, windows``."""

    errors: int
    windows: int

    def __iter__(self) -> Iterator[Any]:
        return iter(astuple(self))


def default_k(reference: Masses, *, convention: str = "paper") -> int:
    """The window size a convention uses when ``k`` is not given.

    Parameters
    ----------
    reference : sequence of int
        Reference masses (``N`` units in ``S`` segments).
    convention : {"paper", "segeval1", "segeval", "nltk", "chunkseg"}

    Returns
    -------
    int
        ``"paper"``: :math:`\\max(1, \\lfloor N/(2S) + 1/2 \\rfloor)` (half the mean segment size,
        Pevzner & Hearst 2002 and Scaiano & Inkpen 2012 eq. 1, rounded half up: the papers give no
        rounding, and half up is the rounding of the 2012 reference implementation, so that the two
        conventions differ only where the papers' texts differ);
        ``"segeval1"``: :math:`\\max(2, \\text{round-half-up}(N/(2S)))`;
        ``"segeval"``: :math:`\\max(2, \\text{round-half-even}(N/(2S)))`;
        ``"nltk"``: :math:`\\text{round-half-even}((N-1) / (2\\max(S-1, 1)))`.
    """
    check_convention(convention)
    ref = as_masses(reference, name="reference")
    return convention_k(int(ref.sum()), int(ref.size), convention)


def pk_components(
    reference: Masses, hypothesis: Masses, *, k: int | None = None, convention: str = "paper"
) -> PkComponents:
    """Pk's additive counts for one pair (ints): misses, false alarms and windows.

    See :func:`pk` for the parameters. ``windows`` is the number of windows actually counted
    (never negative), so that counts of several shows can be summed and divided once.
    """
    n, segments, pr, ph = pair_positions(reference, hypothesis)
    g = geometry(n, segments, k, convention, metric="pk")
    return _pk_counts(pr, ph, g)


def _pk_counts(pr: np.ndarray, ph: np.ndarray, g: Geometry) -> PkComponents:
    r"""Pk's counts from the boundary positions, as lengths of unions of windows.

    With :math:`A` the windows holding a reference boundary and :math:`B` those holding a
    hypothesis boundary, :math:`\text{miss} = |A \setminus B| = |A \cup B| - |B|` and
    :math:`\text{false alarm} = |A \cup B| - |A|`. A boundary at gap ``p`` is in the windows
    ``[p - w + 1, p]`` (clipped to ``lo .. hi``); for sorted positions both ends of these intervals
    increase, so interval ``i`` adds :math:`(e_i - \max(s_i, e_{i-1} + 1) + 1)^+` to the union.
    :math:`A \cup B` is the union over both sides' positions merged in order.
    """
    nr, nh = pr.size, ph.size
    both = nr + nh
    if both == 0 or g.hi < g.lo:
        return PkComponents(0, 0, g.windows)
    # three runs, each sorted: reference, hypothesis, both merged (a stable sort merges two runs)
    p = np.concatenate((pr, ph, pr, ph))
    p[both:].sort(kind="stable")
    end = np.minimum(p, g.hi)
    if g.lo > 1:  # (Pk's windows start at gap 1, before every boundary)
        np.maximum(end, g.lo - 1, out=end)
    # interval i adds end[i] - max(p[i] - w, end[i - 1]): the windows after both the previous
    # interval and the last window start without boundary p[i]
    added = p - g.width
    before = np.empty_like(end)
    before[1:] = end[:-1]
    before[0] = before[nr] = before[both] = g.lo - 1
    np.maximum(added, before, out=added)
    np.subtract(end, added, out=added)
    if p[-1] > g.hi + g.width:  # an interval entirely after the last window (not with Pk's windows)
        np.maximum(added, 0, out=added)
    in_r = int(added[:nr].sum())
    in_h = int(added[nr:both].sum())
    in_any = int(added[both:].sum())
    return PkComponents(in_any - in_h, in_any - in_r, g.windows)


def pk(
    reference: Masses,
    hypothesis: Masses,
    *,
    k: int | None = None,
    false_alarm_weight: float = 1.0,
    convention: str = "paper",
) -> float:
    r"""Pk (Beeferman et al. 1999) and P'k (Pevzner & Hearst 2002), from masses.

    .. math::

        P_k = \frac{\text{miss} + w_{FA}\,\text{false alarm}}{\text{windows}}, \qquad
        \text{miss} = \#\{s : r_s > 0 = h_s\}, \quad
        \text{false alarm} = \#\{s : r_s = 0 < h_s\}

    A window is a probe whose two ends are ``k`` units apart (in every convention); it
    errs when the reference and the hypothesis disagree on whether its ends are in the same
    segment. ``false_alarm_weight=2.0`` doubles the false-positive penalty: Pevzner & Hearst's P'k
    (section 4), which is no longer bounded by 1.

    Parameters
    ----------
    reference, hypothesis : sequence of int
        Masses with the same total ``N``.
    k : int, optional
        Window size; None is the convention's default (:func:`default_k`).
    false_alarm_weight : float
        Weight of a false-alarm window (1 for Pk, 2 for P'k).
    convention : {"paper", "segeval1", "segeval", "nltk", "chunkseg"}
        See :mod:`tvseg.unit.conventions` and ``docs/conventions.md``.

    Returns
    -------
    float
        In [0, 1] for ``false_alarm_weight <= 1``. When no window fits (``k >= N``): NaN with a
        :class:`~tvseg.errors.TvsegWarning` under ``"paper"`` and ``"segeval1"``; under the tools'
        conventions what the tool returns (segeval: 0; nltk: 0 for ``k > N``, NaN with a warning for
        ``k = N`` where nltk divides by zero).
    """
    n, segments, pr, ph = pair_positions(reference, hypothesis)
    g = geometry(n, segments, k, convention, metric="pk")
    c = _pk_counts(pr, ph, g)
    return ratio(c.miss + false_alarm_weight * c.false_alarm, g, convention, "pk")


def windowdiff_components(
    reference: Masses,
    hypothesis: Masses,
    *,
    k: int | None = None,
    lamprier: bool = False,
    weighted: bool = False,
    convention: str = "paper",
) -> WindowDiffComponents:
    """WindowDiff's additive counts for one pair: windows in error (weighted: summed differences)
    and the divisor of the convention (never negative). See :func:`windowdiff`."""
    n, segments, pr, ph = pair_positions(reference, hypothesis)
    g = geometry(n, segments, k, convention, lamprier=lamprier, weighted=weighted)
    return WindowDiffComponents(_wd_errors(pr, ph, g, weighted), max(g.divisor, 0))


def _wd_errors(pr: np.ndarray, ph: np.ndarray, g: Geometry, weighted: bool) -> int:
    """WindowDiff's errors from the boundary positions: a sweep over the window starts where
    :math:`d_s = r_s - h_s` changes.

    A reference boundary at gap ``p`` adds 1 to :math:`d_s` from ``s = p - w + 1`` and takes it
    back from ``s = p + 1``; a hypothesis boundary the opposite. Each event is one key
    ``4 * start + 1 - sign``; sorted, the keys give the starts of the runs of
    constant :math:`d_s` and, by a cumulative sum of the signs, the value on each run. The order
    of equal starts does not matter: the run between them is empty.
    """
    nr, nh = pr.size, ph.size
    if g.hi < g.lo or nr + nh == 0:
        return 0
    keys = np.concatenate((pr, pr, ph, ph))
    keys <<= 2
    keys[:nr] += 4 * (1 - g.width)  # reference enters: +1
    keys[nr : 2 * nr] += 4 + 2  # reference leaves: -1
    keys[2 * nr : 2 * nr + nh] += 4 * (1 - g.width) + 2  # hypothesis enters: -1
    keys[2 * nr + nh :] += 4  # hypothesis leaves: +1
    keys.sort(kind="stable")  # four sorted runs: merged
    at = keys >> 2
    np.maximum(at, g.lo, out=at)  # events before the first window act on it
    np.minimum(at, g.hi + 1, out=at)
    keys &= 2
    np.subtract(1, keys, out=keys)
    d = np.cumsum(keys)[:-1]  # d on the run from at[j] to at[j + 1]
    run = np.diff(at)
    if weighted:
        return int(np.dot(run, np.abs(d)))
    return int(np.dot(run, d != 0))


def windowdiff(
    reference: Masses,
    hypothesis: Masses,
    *,
    k: int | None = None,
    lamprier: bool = False,
    weighted: bool = False,
    convention: str = "paper",
) -> float:
    r"""WindowDiff (Pevzner & Hearst 2002, section 3), from masses.

    .. math::

        \mathrm{WD} = \frac{1}{N - k} \sum_{i=1}^{N-k} \big[\, b(\mathit{ref}_i, \mathit{ref}_{i+k})
        \neq b(\mathit{hyp}_i, \mathit{hyp}_{i+k}) \,\big]

    where :math:`b(i, j)` counts the boundaries between units ``i`` and ``j`` (the gaps
    ``i .. j-1``). Other conventions change the window and the divisor (:mod:`tvseg.unit.conventions`).

    Parameters
    ----------
    reference, hypothesis, k
        As for :func:`pk`: masses with the same total ``N``, and the window size (None: the
        convention's default).
    lamprier : bool
        The edge correction of Lamprier et al. (2007) as Scaiano & Inkpen (2012, section 2)
        describe it: ``k - 1`` phantom positions without boundaries at each end, so every gap is in
        exactly ``k`` windows; ``N + k - 2`` windows. Under ``"segeval"``: segeval's own version
        (``k`` phantom units, divisor ``N + k + 1``); under ``"segeval1"``: the 2012 code's
        (:math:`p = \max(1, k - 1)` phantom units at each end, windows of ``k`` units, divisor
        ``N + 1 - k + 2p``). Not available under ``"nltk"``.
    weighted : bool
        Sum :math:`|r_s - h_s|` instead of counting windows where they differ: the weighted
        variant Pevzner & Hearst mention in section 3 (and nltk's ``weighted=True``). Not bounded by 1.
    convention : {"paper", "segeval1", "segeval", "nltk", "chunkseg"}

    Returns
    -------
    float
        In [0, 1] unless ``weighted``. When no window fits: NaN with a
        :class:`~tvseg.errors.TvsegWarning`, except where a tool returns a value (segeval returns
        0 when ``k > N``; chunkseg, for ``k = N``, 1 when the segmentations are equal, else 0).
    """
    n, segments, pr, ph = pair_positions(reference, hypothesis)
    g = geometry(n, segments, k, convention, lamprier=lamprier, weighted=weighted)
    if convention == "chunkseg" and g.divisor == 0:
        # segeval divides 0 by 0 and chunkseg substitutes 1 for equal segmentations, else 0
        return float(np.array_equal(pr, ph))
    return ratio(_wd_errors(pr, ph, g, weighted), g, convention, "windowdiff")


# names that lived here before the split (issue 12); resolved on first use, without a warning
_MOVED = {
    "winpr": "tvseg.unit.winpr",
    "WinPR": "tvseg.unit.winpr",
    "window_batch": "tvseg.unit.batch",
    "windowdiff_batch": "tvseg.unit.batch",
    "WindowBatch": "tvseg.unit.batch",
}


def __getattr__(name: str) -> Any:
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
