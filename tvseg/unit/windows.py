r"""Window metrics of text segmentation: Pk, P'k, WindowDiff and WinPR, in several conventions.

A segmentation of ``N`` units is given as masses (segment sizes, see :mod:`tvseg.unit.masses`). The
``N - 1`` gaps between adjacent units are numbered ``1 .. N-1`` (gap ``g`` follows unit ``g``); a
boundary sits in a gap. A *window* is a run of ``w`` consecutive gaps starting at gap ``s``; for each
window, :math:`r_s` and :math:`h_s` count the reference and hypothesis boundaries it holds. Every metric
here is a sum over windows of a function of :math:`(r_s, h_s)`:

=========================  ===========================================================
Pk miss / false alarm       :math:`r_s > 0 = h_s` / :math:`r_s = 0 < h_s`
WindowDiff error            :math:`r_s \neq h_s` (weighted: :math:`|r_s - h_s|`)
WinPR TP, FP, FN            :math:`\min(r_s, h_s)`, :math:`(h_s - r_s)^+`, :math:`(r_s - h_s)^+`
=========================  ===========================================================

How wide a window is, where the windows start and what divides the sum is the *convention*
(``docs/conventions.md`` has the table):

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

All sums are computed from the boundary positions, not by visiting every window: WindowDiff and
WinPR by a sweep over the points where :math:`r_s` or :math:`h_s` changes (``4 B`` points for ``B``
boundaries), Pk as lengths of unions of windows (those holding a reference boundary, a hypothesis
boundary, either). A call costs :math:`O(B \log B)` after the :math:`O(N_\text{segments})` input
check. The batch forms score many hypotheses of one reference from all their boundary positions at
once (:func:`window_batch`), :math:`O(H B \log B)` after one scan of the ``(H, N-1)`` indicators.

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

import dataclasses
import math
import struct
import warnings
from typing import NamedTuple

import numpy as np

from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.settings import CONVENTIONS
from tvseg.unit.masses import as_masses, boundary_positions

__all__ = [
    "pk", "windowdiff", "winpr", "pk_batch", "windowdiff_batch", "window_batch", "pk_components",
    "windowdiff_components", "default_k", "WinPR", "PkComponents", "WindowDiffComponents", "WindowBatch",
]


class PkComponents(NamedTuple):
    """Additive counts of Pk: windows where only the reference (miss) or only the hypothesis (false
    alarm) separates the probe's ends, and the divisor (number of windows)."""

    miss: object
    false_alarm: object
    windows: object


class WindowDiffComponents(NamedTuple):
    """Additive counts of WindowDiff: windows in error (weighted: sum of differences) and the divisor."""

    errors: object
    windows: object


# --------------------------------------------------------------------------------------------
# inputs


def _masses(x, name):
    """``as_masses`` with a fast path for a list, tuple or array of positive integers.

    A list holding a boolean converts to an integer array with a 0 or a 1 in it: a 0 is refused
    by the full check, and only the entries equal to 1 need a look at their Python type.
    """
    if isinstance(x, np.ndarray):
        arr = x
    elif isinstance(x, (list, tuple)):
        try:
            arr = np.array(x)
        except (ValueError, TypeError):
            return as_masses(x, name=name)
    else:
        return as_masses(x, name=name)
    if arr.ndim == 1 and arr.size and arr.dtype.kind in "iu" and arr.min() >= 1:
        if arr is not x and any(type(x[i]) is bool for i in np.flatnonzero(arr == 1).tolist()):
            return as_masses(x, name=name)
        return arr.astype(np.int64, copy=False)
    return as_masses(x, name=name)


def _fast_pair(reference, hypothesis):
    """Both lists (or tuples) of masses as int64 arrays, or None to take the careful path.

    ``struct`` packs the Python ints straight into one numpy buffer and refuses anything that is
    not an integer (a float, a string, an int beyond int64); a boolean packs as 0 or 1, so a 0 (or
    less) sends both to the careful path, and so does a 1 that is a boolean.
    """
    if type(reference) not in (list, tuple) or type(hypothesis) not in (list, tuple):
        return None
    na, nb = len(reference), len(hypothesis)
    if not na or not nb:
        return None
    buf = np.empty(na + nb, np.int64)
    try:
        struct.pack_into(f"={na + nb}q", buf, 0, *reference, *hypothesis)
    except (struct.error, TypeError, ValueError, OverflowError):
        return None
    least = buf.min()
    if least < 1:
        return None
    if least == 1:
        for i in (buf == 1).nonzero()[0].tolist():
            if type(reference[i] if i < na else hypothesis[i - na]) is bool:
                return None
    return buf, na


def _pair_positions(reference, hypothesis):
    """``(N, reference segments, reference positions, hypothesis positions)`` of a checked pair."""
    fast = _fast_pair(reference, hypothesis)
    if fast is None:
        a, b = _pair(reference, hypothesis)
        return int(a.sum()), int(a.size), _positions(a), _positions(b)
    buf, na = fast
    ends = np.cumsum(buf)           # one cumulative sum for both sides
    ta = int(ends[na - 1])
    tb = int(ends[-1]) - ta
    if ta != tb:
        raise InputError(f"reference and hypothesis cover different numbers of units ({ta} and {tb})")
    return ta, na, ends[:na - 1], ends[na:-1] - ta


def _pair(reference, hypothesis):
    fast = _fast_pair(reference, hypothesis)
    if fast is not None:
        buf, na = fast
        a, b = buf[:na], buf[na:]
    else:
        a = _masses(reference, "reference")
        b = _masses(hypothesis, "hypothesis")
    ta, tb = int(a.sum()), int(b.sum())
    if ta != tb:
        raise InputError(f"reference and hypothesis cover different numbers of units ({ta} and {tb})")
    return a, b


def _check_convention(convention):
    if convention not in CONVENTIONS:
        raise UsageError(f"convention must be one of {', '.join(CONVENTIONS)}, got {convention!r}")


def _check_k(k, least):
    if k is None:
        return
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < least:
        raise UsageError(f"k must be an integer >= {least}, got {k!r}")


# --------------------------------------------------------------------------------------------
# k and the window geometry


def _round_half_up(num: int, den: int) -> int:
    return (2 * num + den) // (2 * den)


def _round_half_even(num: int, den: int) -> int:
    q, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and q % 2 == 1):
        q += 1
    return q


def default_k(reference, *, convention: str = "paper") -> int:
    """The window size a convention uses when ``k`` is not given.

    Parameters
    ----------
    reference : sequence of int
        Reference masses (``N`` units in ``S`` segments).
    convention : {"paper", "segeval1", "segeval", "nltk"}

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
    _check_convention(convention)
    ref = _masses(reference, "reference")
    return _default_k(int(ref.sum()), int(ref.size), convention)


def _default_k(n: int, segments: int, convention: str) -> int:
    if convention == "paper":
        return max(1, _round_half_up(n, 2 * segments))
    if convention == "segeval1":
        return max(2, _round_half_up(n, 2 * segments))
    if convention == "segeval":
        return max(2, _round_half_even(n, 2 * segments))
    return _round_half_even(n - 1, 2 * max(segments - 1, 1))


@dataclasses.dataclass(frozen=True)
class _Geometry:
    k: int
    width: int      # gaps per window
    lo: int         # first window start (a gap number; may be < 1 with phantom gaps)
    hi: int         # last window start
    divisor: int    # what the sum is divided by (a tool's count, possibly <= 0)

    @property
    def windows(self) -> int:
        return max(self.hi - self.lo + 1, 0)


def _geometry(n, segments, k, convention, *, lamprier=False, weighted=False, metric="windowdiff") -> _Geometry:
    """Window geometry of ``metric`` ("pk" or "windowdiff") under ``convention`` (module docstring)."""
    _check_convention(convention)
    if lamprier and convention == "nltk":
        raise UsageError(f"convention {convention!r} has no Lamprier et al. correction")
    if weighted and convention in ("segeval", "segeval1"):
        raise UsageError(f"convention {convention!r} has no weighted WindowDiff")
    _check_k(k, 1 if convention in ("paper", "segeval1") else 0)
    k = _default_k(n, segments, convention) if k is None else int(k)
    if convention == "paper":
        if lamprier:
            # k - 1 phantom gaps without boundaries at each end: every real gap is in k windows
            return _Geometry(k, k, 2 - k, n - 1, n + k - 2)
        return _Geometry(k, k, 1, n - k, n - k)
    if convention == "segeval1" and metric == "windowdiff":
        if lamprier:
            # p phantom units at each end: padded gaps 1-p .. N-1+p, windows of k units
            phantom = max(1, k - 1)
            return _Geometry(k, k - 1, 1 - phantom, n + phantom + 1 - k, n + 2 * phantom + 1 - k)
        return _Geometry(k, k - 1, 1, n + 1 - k, n + 1 - k)
    if convention == "segeval" and lamprier:
        phantom = max(k, 1)
        return _Geometry(k, k, 1 - phantom, n + phantom - k, n + 2 * phantom - k + 1)
    return _Geometry(k, k, 1, n - k, n - k)


# --------------------------------------------------------------------------------------------
# the sweep


def _pieces(pr: np.ndarray, ph: np.ndarray, g: _Geometry):
    """Split the window starts ``lo .. hi`` into runs on which ``(r_s, h_s)`` is constant.

    A boundary at gap ``p`` is in the windows starting at ``p - w + 1 .. p``. Returns the run
    lengths and the counts ``r``, ``h`` on each run (int64 arrays of equal length).
    """
    lo, hi, w = g.lo, g.hi, g.width
    if hi < lo:
        z = np.zeros(0, np.int64)
        return z, z, z
    if w == 0:
        return np.array([hi - lo + 1]), np.zeros(1, np.int64), np.zeros(1, np.int64)
    # one sort of the change points, each tagged in its two low bits with what changes there:
    # 0 reference +1, 1 reference -1, 2 hypothesis +1, 3 hypothesis -1
    top = hi + 1
    nr, nh = pr.size, ph.size
    keys = np.concatenate((pr, pr, ph, ph))
    keys += np.repeat(np.array([1 - w, 1, 1 - w, 1]), (nr, nr, nh, nh))
    np.clip(keys, lo, top, out=keys)
    keys <<= 2
    keys |= np.repeat(_TAGS, (nr, nr, nh, nh))
    keys.sort()
    tag = keys & 3
    pts = np.empty(keys.size + 2, np.int64)
    pts[0] = lo
    pts[1:-1] = keys >> 2
    pts[-1] = top
    r = np.empty(keys.size + 1, np.int64)
    r[0] = 0
    np.cumsum(_DR[tag], out=r[1:])
    h = np.empty(keys.size + 1, np.int64)
    h[0] = 0
    np.cumsum(_DH[tag], out=h[1:])
    return np.diff(pts), r, h


_TAGS = np.arange(4, dtype=np.int64)
_DR = np.array([1, -1, 0, 0], np.int64)
_DH = np.array([0, 0, 1, -1], np.int64)


def _positions(masses):
    return boundary_positions(masses)


# --------------------------------------------------------------------------------------------
# Pk


def pk_components(reference, hypothesis, *, k=None, convention="paper") -> PkComponents:
    """Pk's additive counts for one pair (ints): misses, false alarms and windows.

    See :func:`pk` for the parameters. ``windows`` is the number of windows actually counted
    (never negative), so that counts of several shows can be summed and divided once.
    """
    n, segments, pr, ph = _pair_positions(reference, hypothesis)
    g = _geometry(n, segments, k, convention, metric="pk")
    return _pk_counts(pr, ph, g)


def _pk_counts(pr: np.ndarray, ph: np.ndarray, g: _Geometry) -> PkComponents:
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


def pk(reference, hypothesis, *, k=None, false_alarm_weight=1.0, convention="paper") -> float:
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
    convention : {"paper", "segeval1", "segeval", "nltk"}
        See the module docstring and ``docs/conventions.md``.

    Returns
    -------
    float
        In [0, 1] for ``false_alarm_weight <= 1``. When no window fits (``k >= N``): NaN with a
        :class:`~tvseg.errors.TvsegWarning` under ``"paper"`` and ``"segeval1"``; under the tools'
        conventions what the tool returns (segeval: 0; nltk: 0 for ``k > N``, NaN with a warning for
        ``k = N`` where nltk divides by zero).
    """
    n, segments, pr, ph = _pair_positions(reference, hypothesis)
    g = _geometry(n, segments, k, convention, metric="pk")
    c = _pk_counts(pr, ph, g)
    return _ratio(c.miss + false_alarm_weight * c.false_alarm, g, convention, "pk")


def _ratio(num, g: _Geometry, convention, metric):
    if g.divisor > 0:
        return float(num) / g.divisor
    # no window fits
    if convention == "segeval" and (metric == "pk" or g.divisor < 0):
        return 0.0
    if convention == "nltk" and metric == "pk" and g.divisor < 0:
        return 0.0
    warnings.warn(f"{metric}: no window of k={g.k} fits in the text (NaN)", TvsegWarning, stacklevel=3)
    return math.nan


# --------------------------------------------------------------------------------------------
# WindowDiff


def windowdiff_components(reference, hypothesis, *, k=None, lamprier=False, weighted=False,
                          convention="paper") -> WindowDiffComponents:
    """WindowDiff's additive counts for one pair: windows in error (weighted: summed differences)
    and the divisor of the convention (never negative). See :func:`windowdiff`."""
    n, segments, pr, ph = _pair_positions(reference, hypothesis)
    g = _geometry(n, segments, k, convention, lamprier=lamprier, weighted=weighted)
    return WindowDiffComponents(_wd_errors(pr, ph, g, weighted), max(g.divisor, 0))


def _wd_errors(pr: np.ndarray, ph: np.ndarray, g: _Geometry, weighted: bool) -> int:
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
    keys[:nr] += 4 * (1 - g.width)              # reference enters: +1
    keys[nr:2 * nr] += 4 + 2                    # reference leaves: -1
    keys[2 * nr:2 * nr + nh] += 4 * (1 - g.width) + 2   # hypothesis enters: -1
    keys[2 * nr + nh:] += 4                     # hypothesis leaves: +1
    keys.sort(kind="stable")                    # four sorted runs: merged
    at = keys >> 2
    np.maximum(at, g.lo, out=at)                # events before the first window act on it
    np.minimum(at, g.hi + 1, out=at)
    keys &= 2
    np.subtract(1, keys, out=keys)
    d = np.cumsum(keys)[:-1]                    # d on the run from at[j] to at[j + 1]
    run = np.diff(at)
    if weighted:
        return int(np.dot(run, np.abs(d)))
    return int(np.dot(run, d != 0))


def windowdiff(reference, hypothesis, *, k=None, lamprier=False, weighted=False,
               convention="paper") -> float:
    r"""WindowDiff (Pevzner & Hearst 2002, section 3), from masses.

    .. math::

        \mathrm{WD} = \frac{1}{N - k} \sum_{i=1}^{N-k} \big[\, b(\mathit{ref}_i, \mathit{ref}_{i+k})
        \neq b(\mathit{hyp}_i, \mathit{hyp}_{i+k}) \,\big]

    where :math:`b(i, j)` counts the boundaries between units ``i`` and ``j`` (the gaps
    ``i .. j-1``). Other conventions change the window and the divisor (module docstring).

    Parameters
    ----------
    reference, hypothesis : sequence of int
        Masses with the same total ``N``.
    k : int, optional
        Window size; None is the convention's default (:func:`default_k`).
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
    convention : {"paper", "segeval1", "segeval", "nltk"}

    Returns
    -------
    float
        In [0, 1] unless ``weighted``. When no window fits: NaN with a
        :class:`~tvseg.errors.TvsegWarning`, except where a tool returns a value (segeval returns
        0 when ``k > N``).
    """
    n, segments, pr, ph = _pair_positions(reference, hypothesis)
    g = _geometry(n, segments, k, convention, lamprier=lamprier, weighted=weighted)
    return _ratio(_wd_errors(pr, ph, g, weighted), g, convention, "windowdiff")


# --------------------------------------------------------------------------------------------
# batch forms


def _batch_inputs(reference, hypotheses):
    ref = _masses(reference, "reference")
    n = int(ref.sum())
    if isinstance(hypotheses, np.ndarray) and hypotheses.ndim == 2:
        if hypotheses.dtype != bool:
            raise InputError("hypotheses must be a boolean indicator array of shape (H, N-1)",
                             value=str(hypotheses.dtype))
        if hypotheses.shape[1] != n - 1:
            raise InputError(f"hypotheses must have N-1 = {n - 1} columns", value=hypotheses.shape[1])
        ind = hypotheses
    else:
        rows = []
        for i, h in enumerate(hypotheses):
            m = _masses(h, f"hypotheses[{i}]")
            if int(m.sum()) != n:
                raise InputError(f"hypotheses[{i}] covers {int(m.sum())} units, the reference {n}")
            row = np.zeros(n - 1, bool)
            row[boundary_positions(m) - 1] = True
            rows.append(row)
        ind = np.array(rows, dtype=bool).reshape(len(rows), n - 1)
    return ref, n, ind


class WindowBatch(NamedTuple):
    """Pk's and WindowDiff's counts for many hypotheses (arrays of shape ``(H,)``): misses, false
    alarms, WindowDiff errors, and the numbers of windows of Pk (``windows``) and of WindowDiff
    (``wd_windows``; the same but under ``"segeval1"``, whose WindowDiff windows hold one gap less)."""

    miss: np.ndarray
    false_alarm: np.ndarray
    errors: np.ndarray
    windows: np.ndarray
    wd_windows: np.ndarray


def window_batch(reference, hypotheses, *, k=None, convention="paper") -> WindowBatch:
    r"""Pk's misses and false alarms and WindowDiff's errors of many hypotheses, in one pass.

    For each hypothesis :math:`h` and each window start :math:`s` (the convention's geometry,
    module docstring), with :math:`r_s`, :math:`h_s` the boundaries the window holds:

    .. math::

        \text{miss} = \#\{s : r_s > 0 = h_s\}, \quad
        \text{false alarm} = \#\{s : r_s = 0 < h_s\}, \quad
        \text{errors} = \#\{s : r_s \neq h_s\}

    so that :math:`P_k = (\text{miss} + \text{false alarm}) / \text{windows}`, Pevzner & Hearst's
    :math:`P'_k = (\text{miss} + 2\,\text{false alarm}) / \text{windows}` and
    :math:`\mathrm{WD} = \text{errors} / \text{windows}` (Pevzner & Hearst 2002, sections 3-4).

    Computed from the boundary positions of all hypotheses at once, :math:`O(H B \log B)` for
    ``B`` boundaries per hypothesis, not :math:`O(H N)`: misses from the runs of window starts
    between consecutive hypothesis boundaries (where :math:`h_s = 0`) and a prefix count of the
    windows holding a reference boundary; errors by a sweep over the windows where the boundaries
    on which the hypothesis and the reference disagree enter and leave.

    Parameters
    ----------
    reference : sequence of int
        Reference masses (``N`` units).
    hypotheses : numpy.ndarray of bool, shape (H, N-1), or a list of masses
        Boundary indicators over the ``N - 1`` gaps (as :func:`tvseg.unit.masses.to_indicator`).
    k : int, optional
        Window size; None is the convention's default (:func:`default_k`).
    convention : {"paper", "segeval1", "segeval", "nltk"}

    Returns
    -------
    WindowBatch
        Integer arrays ``miss``, ``false_alarm``, ``errors``, ``windows`` and ``wd_windows``; row ``i``
        equals :func:`pk_components` and :func:`windowdiff_components` of hypothesis ``i``.
    """
    ref, n, ind = _batch_inputs(reference, hypotheses)
    g_pk = _geometry(n, int(ref.size), k, convention, metric="pk")
    g_wd = _geometry(n, int(ref.size), k, convention)
    rows = _HypothesisBoundaries(ind)
    pr = boundary_positions(ref)
    miss, fa = _pk_batch_counts(pr, rows, g_pk)
    errors = _wd_batch_errors(pr, ind, rows, g_wd, weighted=False)
    return WindowBatch(miss, fa, errors, np.full(rows.h, g_pk.windows, np.int64),
                       np.full(rows.h, g_wd.windows, np.int64))


class _HypothesisBoundaries:
    """The boundary positions of indicator rows, row after row: ``position`` (gap numbers, sorted
    within each row), the ``row`` of each, and where each row ends in them (``ends``)."""

    def __init__(self, ind: np.ndarray):
        self.h, gaps = ind.shape
        flat = np.flatnonzero(ind)
        if gaps:
            self.ends = np.searchsorted(flat, gaps * np.arange(1, self.h + 1))
            self.counts = np.diff(self.ends, prepend=0)
            self.row = np.repeat(np.arange(self.h), self.counts)
            self.position = flat - gaps * self.row + 1
        else:
            self.ends = self.counts = np.zeros(self.h, np.int64)
            self.row = self.position = flat


def _pk_batch_counts(pr: np.ndarray, hyp: _HypothesisBoundaries, g: _Geometry):
    r"""Misses and false alarms of every row.

    Window starts are indexed ``j = s - lo`` in ``0 .. W-1``. ``held[j]`` counts the windows
    before ``j`` that hold a reference boundary. Between consecutive hypothesis boundaries
    :math:`q < q'` of a row (and before the first, after the last) the windows starting in
    ``q + 1 .. q' - w`` hold none: summed, these runs give the windows with :math:`h_s = 0`
    (``Z``) and, through ``held``, the misses ``M`` among them. Then
    :math:`\text{false alarm} = (W - Z) - (A - M)` with ``A`` the windows holding a reference boundary.
    """
    h, w, lo, hi = hyp.h, g.width, g.lo, g.hi
    n_windows = g.windows
    if n_windows == 0 or w == 0:
        zero = np.zeros(h, np.int64)
        return zero, zero.copy()
    enter = np.clip(pr - w + 1, lo, hi + 1) - lo
    leave = np.clip(pr + 1, lo, hi + 1) - lo
    inside = np.cumsum(np.bincount(enter, minlength=n_windows + 1)
                       - np.bincount(leave, minlength=n_windows + 1))[:n_windows]
    held = np.zeros(n_windows + 1, np.int64)
    np.cumsum(inside > 0, out=held[1:])
    # each row's positions between two sentinels: lo - 1 before, hi + w after
    two = 2 * np.arange(h)
    seq = np.empty(hyp.position.size + 2 * h, np.int64)
    seq[np.arange(hyp.position.size) + np.repeat(two + 1, hyp.counts)] = hyp.position
    first = hyp.ends - hyp.counts + two
    last = hyp.ends + two + 1
    seq[first] = lo - 1
    seq[last] = hi + w
    # run between seq[t] and seq[t + 1] (the pair across two rows is empty: a = W, b <= a)
    a = np.clip(seq[:-1] + 1, lo, hi + 1) - lo
    b = np.clip(seq[1:] - w + 1, lo, hi + 1) - lo
    np.maximum(b, a, out=b)
    empty = np.zeros(seq.size, np.int64)
    np.cumsum(b - a, out=empty[1:])
    missed = np.zeros(seq.size, np.int64)
    np.cumsum(held[b] - held[a], out=missed[1:])
    z = empty[last] - empty[first]
    miss = missed[last] - missed[first]
    return miss, (n_windows - z) - (int(held[-1]) - miss)


def _wd_batch_errors(pr: np.ndarray, ind: np.ndarray, hyp: _HypothesisBoundaries, g: _Geometry,
                     weighted: bool) -> np.ndarray:
    r"""WindowDiff's errors of every row: a sweep over :math:`d_s = h_s - r_s`.

    Only the gaps where a row and the reference disagree change :math:`d_s`: a hypothesis
    boundary the reference lacks adds 1 to the windows ``p - w + 1 .. p``, a reference boundary
    the row lacks takes 1 away. Each such event is a key ``2 (row (W + 1) + j) + bit`` (``j`` the
    window index, clipped to ``0 .. W``; ``bit`` 1 for -1); the four kinds of events are each
    sorted already, so a stable sort merges them. Every row's events sum to 0, so the run between
    two rows has :math:`d = 0` and counts nothing.
    """
    h, w, lo, hi = hyp.h, g.width, g.lo, g.hi
    n_windows = g.windows
    if n_windows == 0 or w == 0 or hyp.row.size + pr.size == 0:
        return np.zeros(h, np.int64)
    stride = n_windows + 1
    on_ref = np.zeros(ind.shape[1] + 1, bool)
    on_ref[pr] = True
    extra = ~on_ref[hyp.position]                  # hypothesis boundaries the reference lacks
    fp_row, fp_at = hyp.row[extra], hyp.position[extra]
    fn_row, fn_j = np.nonzero(~ind[:, pr - 1])     # reference boundaries a row lacks
    fn_at = pr[fn_j]

    def key(row, at, shift, bit):
        j = np.clip(at + shift, lo, hi + 1) - lo
        return ((row * stride + j) << 1) | bit

    events = np.concatenate((key(fp_row, fp_at, 1 - w, 0), key(fp_row, fp_at, 1, 1),
                             key(fn_row, fn_at, 1 - w, 1), key(fn_row, fn_at, 1, 0)))
    if events.size == 0:
        return np.zeros(h, np.int64)
    events.sort(kind="stable")
    d = np.cumsum(1 - 2 * (events & 1))
    events >>= 1
    run = np.diff(events)
    d = d[:-1]
    counted = np.zeros(events.size + 1, np.int64)    # counted[t]: errors of the runs before event t
    np.cumsum(run * np.abs(d) if weighted else run * (d != 0), out=counted[1:-1])
    counted[-1] = counted[-2]
    bounds = np.searchsorted(events, stride * np.arange(h + 1))
    return counted[bounds[1:]] - counted[bounds[:-1]]


def pk_batch(reference, hypotheses, *, k=None, false_alarm_weight=1.0, convention="paper",
             components=False):
    """Pk of many hypotheses against one reference, from the boundary positions (see :func:`window_batch`).

    Parameters
    ----------
    reference : sequence of int
        Reference masses (``N`` units).
    hypotheses : numpy.ndarray of bool, shape (H, N-1), or a list of masses
        Boundary indicators over the ``N - 1`` gaps (as :func:`tvseg.unit.masses.to_indicator`).
    k, false_alarm_weight, convention
        As in :func:`pk`.
    components : bool
        Return :class:`PkComponents` of arrays ``(miss, false_alarm, windows)`` instead of the values.

    Returns
    -------
    numpy.ndarray of float, shape (H,), equal to ``[pk(reference, h, ...) for h in hypotheses]``.
    """
    ref, n, ind = _batch_inputs(reference, hypotheses)
    g = _geometry(n, int(ref.size), k, convention, metric="pk")
    miss, fa = _pk_batch_counts(boundary_positions(ref), _HypothesisBoundaries(ind), g)
    if components:
        return PkComponents(miss, fa, np.full(ind.shape[0], g.windows))
    return _ratio_array(miss + false_alarm_weight * fa, g, convention, "pk", ind.shape[0])


def windowdiff_batch(reference, hypotheses, *, k=None, lamprier=False, weighted=False,
                     convention="paper", components=False):
    """WindowDiff of many hypotheses against one reference, from the boundary positions (see :func:`window_batch`).

    Parameters as in :func:`pk_batch` and :func:`windowdiff`; with ``components=True`` returns
    :class:`WindowDiffComponents` of arrays ``(errors, windows)``.
    """
    ref, n, ind = _batch_inputs(reference, hypotheses)
    g = _geometry(n, int(ref.size), k, convention, lamprier=lamprier, weighted=weighted)
    errors = _wd_batch_errors(boundary_positions(ref), ind, _HypothesisBoundaries(ind), g, weighted)
    if components:
        return WindowDiffComponents(errors, np.full(ind.shape[0], max(g.divisor, 0)))
    return _ratio_array(errors, g, convention, "windowdiff", ind.shape[0])


def _ratio_array(num, g, convention, metric, h):
    if g.divisor > 0:
        return np.asarray(num, float) / g.divisor
    return np.full(h, _ratio(0, g, convention, metric))


# --------------------------------------------------------------------------------------------
# WinPR


@dataclasses.dataclass(frozen=True)
class WinPR:
    r"""WinPR confusion matrix (Scaiano & Inkpen 2012, equations 4-7).

    Attributes
    ----------
    tp, tn, fp, fn : int (float in :meth:`normalized` and :meth:`near_miss`)
        The confusion matrix.
    k : int
        Window size: the number of gap positions a window holds.
    n : int
        Number of units ``N``.
    masses : (ndarray, ndarray)
        The reference and hypothesis scored (for :meth:`near_miss`).

    Notes
    -----
    ``tp + tn + fp + fn = k (N - 1)``: every one of the ``N - 1`` gaps is counted ``k`` times
    (:attr:`total`); divided by ``k`` (:meth:`normalized`) the matrix counts gaps.
    """

    tp: float
    tn: float
    fp: float
    fn: float
    k: int
    n: int
    masses: tuple = dataclasses.field(default=(), repr=False, compare=False)

    @property
    def total(self) -> float:
        """``tp + tn + fp + fn``: ``k (N - 1)``, or ``N - 1`` once normalized."""
        return self.tp + self.tn + self.fp + self.fn

    @property
    def precision(self) -> float:
        r""":math:`TP / (TP + FP)`; NaN with a TvsegWarning when the hypothesis has no boundary."""
        return _rate(self.tp, self.tp + self.fp, "WinPR precision")

    @property
    def recall(self) -> float:
        r""":math:`TP / (TP + FN)`; NaN with a TvsegWarning when the reference has no boundary."""
        return _rate(self.tp, self.tp + self.fn, "WinPR recall")

    @property
    def f1(self) -> float:
        r""":math:`2TP / (2TP + FP + FN)`; NaN with a TvsegWarning when neither has a boundary."""
        return _rate(2 * self.tp, 2 * self.tp + self.fp + self.fn, "WinPR F1")

    def normalized(self) -> "WinPR":
        """The matrix divided by ``k`` (Scaiano & Inkpen's normalized WinPR)."""
        k = self.k
        return dataclasses.replace(self, tp=self.tp / k, tn=self.tn / k, fp=self.fp / k, fn=self.fn / k)

    def near_miss(self) -> "WinPR":
        """Contribution of near misses: this normalized matrix minus the ``k = 1`` matrix (which
        counts exact matches only), as Scaiano & Inkpen section 3.1 propose. Its four cells sum to 0."""
        strict = winpr(*self.masses, k=1)
        me = self.normalized()
        return dataclasses.replace(me, tp=me.tp - strict.tp, tn=me.tn - strict.tn,
                                   fp=me.fp - strict.fp, fn=me.fn - strict.fn)


def _rate(num, den, what):
    if den == 0:
        warnings.warn(f"{what} is 0/0 (NaN)", TvsegWarning, stacklevel=3)
        return math.nan
    return num / den


def winpr(reference, hypothesis, *, k=None) -> WinPR:
    r"""WinPR (Scaiano & Inkpen 2012): a confusion matrix counted over windows, with the Lamprier
    et al. correction.

    .. math::

        TP = \sum_{i=1-k}^{N} \min(R_i, C_i), \quad
        TN = -k(k-1) + \sum_{i=1-k}^{N} (k - \max(R_i, C_i)),

        FP = \sum_{i=1-k}^{N} \max(0, C_i - R_i), \quad
        FN = \sum_{i=1-k}^{N} \max(0, R_i - C_i)

    Reading (the paper's indices are not consistent with its own Table 2): a window holds ``k``
    gap positions, and ``k - 1`` phantom positions without boundaries pad each end, so the
    windows start at gaps ``2-k .. N-1`` (``N + k - 2`` windows), every real gap is in exactly
    ``k`` windows and the phantoms add ``k (k-1)`` to :math:`\sum (k - \max)`, which the
    :math:`-k(k-1)` term removes. Hence :math:`TP + TN + FP + FN = k (N - 1)`. Scaiano & Inkpen's
    "window of 3 units" holds 4 positions (their edges are inclusive), i.e. ``k = 4`` here; with it
    their Table 2 is reproduced (``tests/test_windows_papers.py``).

    Parameters
    ----------
    reference, hypothesis : sequence of int
        Masses with the same total ``N``.
    k : int, optional
        Gap positions per window; default as ``convention="paper"`` (half the mean reference
        segment size, rounded half up, at least 1).

    Returns
    -------
    WinPR
    """
    ref, hyp = _pair(reference, hypothesis)
    n = int(ref.sum())
    _check_k(k, 1)
    k = _default_k(n, int(ref.size), "paper") if k is None else int(k)
    g = _Geometry(k, k, 2 - k, n - 1, n + k - 2)
    lengths, r, h = _pieces(_positions(ref), _positions(hyp), g)
    tp = int((lengths * np.minimum(r, h)).sum())
    sr = k * (ref.size - 1)       # each boundary is in exactly k windows
    sh = k * (hyp.size - 1)
    fp, fn = sh - tp, sr - tp
    tn = k * (n - 1) - tp - fp - fn
    return WinPR(tp=tp, tn=tn, fp=fp, fn=fn, k=k, n=n, masses=(ref, hyp))
