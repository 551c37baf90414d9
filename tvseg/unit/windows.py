r"""The window metrics: Pk, P'k, WindowDiff, WinPR and NIST TDT's C_seg, from one kernel over many pairs.

A segmentation of ``N`` units is given as masses (segment sizes, :mod:`tvseg.unit.masses`); a window
is a run of ``w`` consecutive gaps starting at gap ``s``, and where the windows lie is the convention's
:func:`~tvseg.unit.conventions.geometry`. For each window, :math:`r_s` and :math:`h_s` count the
reference and hypothesis boundaries it holds. Every metric here is a sum over windows of a function
of :math:`(r_s, h_s)`:

=============================  ==================================================================
Pk miss / false alarm           :math:`r_s > 0 = h_s` / :math:`r_s = 0 < h_s` (C_seg's the same)
C_seg's probes the ref. cuts    :math:`r_s > 0`
WindowDiff error                :math:`r_s \neq h_s` (weighted: :math:`|r_s - h_s|`)
WinPR's TP                      :math:`\min(r_s, h_s) = (r_s + h_s - |r_s - h_s|) / 2`
=============================  ==================================================================

:func:`window_counts` is the one kernel: it takes many pairs at once (:class:`~tvseg.unit.masses.BoundaryPairs`:
a corpus of shows, a simulation's hypotheses against their reference, or the one pair of :func:`winpr` and
:func:`cseg`) and never visits every window (:func:`pk` and :func:`windowdiff` take the same two steps for their
one pair as loops over its few boundaries, whose cost a call's thirty array operations outweighed; tests hold
them equal to the kernel):

* the windows holding a boundary of a set of sorted positions :math:`p_1 \le p_2 \le \dots` are a
  union of intervals :math:`[p_i - w + 1, p_i]` of one length, whose size is
  :math:`\sum_i \min(w, p_i - p_{i-1})` (the first one counting ``w``), less what lies before the
  first window start ``lo`` and after the last ``hi``. Over the reference's positions, the
  hypothesis's, and both merged, this gives the windows with :math:`r_s > 0`, :math:`h_s > 0` and
  either: a miss is in the third set and not the second, a false alarm in the third and not the first;
* :math:`d_s = r_s - h_s` changes only where a position of one side is not one of the other (a
  boundary both place enters and leaves the same windows on both sides): a sweep over those positions
  (``2 D`` events for ``D`` such positions) gives the runs of constant :math:`d_s`, hence the windows
  with :math:`d_s \neq 0` and :math:`\sum |d_s|`.

A pair costs :math:`O(B)` after the :math:`O(B \log B)` merge of its ``B`` boundaries, whatever ``N``
and ``w``; the pairs are told apart by their place in the keys (:class:`~tvseg.unit.masses.BoundaryPairs`),
so one sort serves them all.

References
----------
.. [1] L. Pevzner and M. A. Hearst (2002). A critique and improvement of an evaluation metric for
   text segmentation. Computational Linguistics 28(1):19-36.
.. [2] D. Beeferman, A. Berger and J. Lafferty (1999). Statistical models for text segmentation.
   Machine Learning 34:177-210.
.. [3] S. Lamprier, T. Amghar, B. Levrat and F. Saubion (2007). On evaluation methodologies for
   text segmentation algorithms. ICTAI.
.. [4] M. Scaiano and D. Inkpen (2012). Getting more from segmentation evaluation. NAACL-HLT.
.. [5] G. Doddington (1998). The Topic Detection and Tracking Phase 2 (TDT2) evaluation plan.
   DARPA Broadcast News Transcription and Understanding Workshop.
.. [6] NIST, TDT3eval 2.6 (2004), ``TDT3seg.pl`` user manual and revision history.
.. [7] A. Rosenberg and J. Hirschberg (2006). Story segmentation of broadcast news in English,
   Mandarin and Arabic. HLT-NAACL, 125-128.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from tvseg.errors import InputError, UndefinedValueWarning, user_stacklevel
from tvseg.rates import detection_cost, rate
from tvseg.unit.conventions import (
    Geometry,
    check_convention,
    check_cost,
    check_k,
    convention_k,
    geometry,
    no_window_value,
    winpr_geometry,
    winpr_k,
)
from tvseg.unit.masses import BoundaryPairs, Masses, as_masses, check_pair

__all__ = [
    "WindowCounts",
    "window_counts",
    "winpr_counts",
    "cseg_geometry",
    "pk",
    "windowdiff",
    "winpr",
    "WinPR",
    "cseg",
    "default_k",
]


class WindowCounts(NamedTuple):
    r"""Window counts of every pair (int64 arrays, one value per pair; None where not asked for).

    Attributes
    ----------
    windows : numpy.ndarray
        Window starts ``lo .. hi`` (0 when none fits; then every count is 0).
    miss, false_alarm, in_reference : numpy.ndarray or None
        Windows with :math:`r_s > 0 = h_s`, with :math:`r_s = 0 < h_s`, and with :math:`r_s > 0`.
    errors, differences : numpy.ndarray or None
        Windows with :math:`r_s \neq h_s`, and :math:`\sum_s |r_s - h_s|`.
    """

    windows: np.ndarray
    miss: np.ndarray | None = None
    false_alarm: np.ndarray | None = None
    in_reference: np.ndarray | None = None
    errors: np.ndarray | None = None
    differences: np.ndarray | None = None


def window_counts(
    pairs: BoundaryPairs, g: Geometry, *, probes: bool = True, sweep: bool = True, summed: bool = True
) -> WindowCounts:
    """Counts of the windows of ``g`` (one geometry per pair, :func:`tvseg.unit.conventions.geometry`)
    over every pair (module docstring): ``probes`` the Pk and C_seg counts, ``sweep`` WindowDiff's
    errors and, with ``summed``, :math:`\\sum |r_s - h_s|`."""
    g = _per_pair(g, pairs.size)
    windows = np.zeros(pairs.size, np.int64) + g.windows
    live = windows > 0
    miss = false_alarm = in_r = errors = differences = None
    if probes:
        in_r, in_h, in_any = _covered(pairs, g, live)
        miss, false_alarm = in_any - in_h, in_any - in_r
    if sweep:
        errors, differences = _sweep(pairs, g, live, summed)
    return WindowCounts(windows, miss, false_alarm, in_r, errors, differences)


def _per_pair(g: Geometry, size: int) -> Geometry:
    """``g`` with each field an int when every pair has the same value, else an array of ``size``."""
    if all(type(v) is int for v in (g.width, g.lo, g.hi)):
        return g
    fields = []
    for value in (g.k, g.width, g.lo, g.hi, g.divisor):
        if isinstance(value, np.ndarray):
            flat = np.ravel(value)
            value = int(flat[0]) if flat.size and (flat == flat[0]).all() else np.broadcast_to(flat, (size,))
        fields.append(value if isinstance(value, np.ndarray) else int(value))
    return Geometry(*fields)


def _uniform(g: Geometry) -> bool:
    """Whether every pair has the same windows (the fields are ints, :func:`_per_pair`)."""
    return not (isinstance(g.width, np.ndarray) or isinstance(g.lo, np.ndarray) or isinstance(g.hi, np.ndarray))


def _covered(pairs: BoundaryPairs, g: Geometry, live: Any) -> tuple[Any, ...]:
    r"""Windows holding a boundary of the reference, of the hypothesis, and of either, per pair.

    One pass over three runs of positions per pair, the reference's, the hypothesis's and both merged:
    for sorted positions the windows holding :math:`p_i` are :math:`[\max(p_i - w + 1, lo), \min(p_i, hi)]`,
    both ends non-decreasing in ``i``, so :math:`p_i` adds
    :math:`\min(p_i, hi) - \max(p_i - w, e_{i-1})` windows to the union, :math:`e_{i-1}` the end of the
    previous one (``lo - 1`` for the first of a run): never negative, as :math:`p_i \le N - 1 \le hi + w - 1`
    wherever a window fits.
    """
    size = pairs.size
    nr, nh = pairs.reference.size, pairs.hypothesis.size
    reference_offsets = pairs.reference_offsets
    shared = pairs.shared_reference and _uniform(g)
    if shared:  # one reference for every pair, the same windows: its run once
        reference_offsets = np.minimum(reference_offsets, reference_offsets[1])
        nr = int(reference_offsets[1])
    p = np.concatenate((pairs.reference[:nr], pairs.hypothesis, pairs.merged))  # the merge's positions last
    p[nr + nh :] >>= 1
    p[nr + nh :] &= (1 << pairs.bits) - 1
    offsets = np.concatenate((reference_offsets, nr + pairs.hypothesis_offsets[1:], nr + nh + pairs.merged_offsets[1:]))
    counts = np.diff(offsets)
    full = counts > 0
    starts = offsets[:-1][full]
    width, hi, lo = g.width, g.hi, g.lo
    if not _uniform(g):  # each element's pair's fields; the first of each run's
        width, hi = (np.repeat(np.tile(np.broadcast_to(v, (size,)), 3), counts) for v in (g.width, g.hi))
        lo = np.broadcast_to(g.lo, (size,))[np.flatnonzero(full) % size]
    added = p - width  # the window before the first holding p
    first = np.maximum(added[starts], lo - 1)  # a run's first: nothing before it but lo - 1
    np.minimum(p, hi, out=p)  # the last window holding p
    np.maximum(added[1:], p[:-1], out=added[1:])
    added[starts] = first
    np.subtract(p, added, out=added)  # the windows p adds to the union of its run
    total = np.zeros(3 * size, np.int64)
    if added.size:
        total[full] = np.add.reduceat(added, starts)
    if shared:
        total[:size] = total[0]
    total *= np.tile(live, 3)
    return total[:size], total[size : 2 * size], total[2 * size :]


def _sweep(pairs: BoundaryPairs, g: Geometry, live: Any, summed: bool) -> tuple[Any, Any]:
    r"""WindowDiff's windows in error and (``summed``) :math:`\sum_s |d_s|` per pair, :math:`d_s = r_s - h_s`.

    A reference boundary at gap ``p`` adds 1 to :math:`d_s` from ``s = p - w + 1`` and takes it back
    from ``s = p + 1`` (both clipped to ``lo .. hi + 1``); a hypothesis boundary the opposite, so a
    position both sides have changes nothing: only the positions where they differ are swept
    (:attr:`BoundaryPairs.differences`). Each event is one key ``(pair << bits) + start - lo``, shifted
    left by 2 with the value 2 for -1; the events entering are sorted by side, and so are those leaving,
    so a stable sort merges them, and a cumulative sum of the signs gives :math:`d_s` on the run up to
    the next key. The order of equal keys does not matter (the run between them is empty), and a pair's
    events sum to 0, so the run between two pairs counts nothing.
    """
    size = pairs.size
    keys = pairs.differences
    count = keys.size
    if count == 0:
        zero = np.zeros(size, np.int64)
        return zero, zero.copy()
    events = np.empty(2 * count, np.int64)
    np.right_shift(keys, 1, out=events[:count])
    events[:count] &= (1 << pairs.bits) - 1
    pair = pairs.pair(keys)
    events[count:] = events[:count]
    side = keys & 1
    side <<= 1  # 2 for the hypothesis: it enters with -1
    if _uniform(g):
        lo, width, top = g.lo, g.width, max(g.hi + 1, g.lo) - g.lo
        bits = (top + 1).bit_length()
    else:
        lo, width, top = (np.broadcast_to(v, (size,))[pair] for v in (g.lo, g.width, np.maximum(g.hi + 1, g.lo) - g.lo))
        bits = (int(np.max(top)) + 1).bit_length()
    # each pair's starts counted from its lo, clipped to 0 .. top, then the pair in the high bits
    events[:count] += 1 - width - lo
    events[count:] += 1 - lo
    np.maximum(events, 0, out=events)
    np.minimum(events[:count], top, out=events[:count])
    np.minimum(events[count:], top, out=events[count:])
    pair <<= bits
    events[:count] += pair
    events[count:] += pair
    events <<= 2
    events[:count] |= side
    np.subtract(2, side, out=side)
    events[count:] |= side
    events.sort(kind="stable")
    at = events >> 2
    events &= 2
    np.subtract(1, events, out=events)
    d = np.cumsum(events, out=events)[:-1]
    run = np.diff(at)
    cut = np.searchsorted(at[:-1], np.arange(size + 1, dtype=np.int64) << bits)
    total = _run_sums(run * np.abs(d), cut) * live if summed else None
    run[d == 0] = 0
    return _run_sums(run, cut) * live, total


def _run_sums(values: NDArray[np.int64], cut: NDArray[np.intp]) -> NDArray[np.int64]:
    """Sums of ``values`` over ``cut[i] .. cut[i + 1]`` (overwrites ``values`` by their running sum)."""
    np.cumsum(values, out=values)
    before = np.zeros(cut.size, np.int64)
    some = cut > 0
    before[some] = values[cut[some] - 1]
    return np.diff(before)


def winpr_counts(pairs: BoundaryPairs, g: Geometry) -> tuple[NDArray[np.int64], ...]:
    r"""WinPR's confusion matrix ``(tp, tn, fp, fn)`` of every pair on the windows of ``g``
    (:func:`tvseg.unit.conventions.winpr_geometry`), where every boundary lies in exactly ``k`` windows:
    :math:`\sum_s r_s = k |R|`, :math:`\sum_s h_s = k |H|`, so
    :math:`TP = \sum_s \min(r_s, h_s) = (k|R| + k|H| - \sum_s |r_s - h_s|) / 2`,
    :math:`FP = k|H| - TP`, :math:`FN = k|R| - TP`, :math:`TN = k (N - 1) - TP - FP - FN`."""
    c = window_counts(pairs, g, probes=False)
    assert c.differences is not None  # swept
    in_r = g.k * np.diff(pairs.reference_offsets)
    in_h = g.k * np.diff(pairs.hypothesis_offsets)
    tp = (in_r + in_h - c.differences) // 2
    fp, fn = in_h - tp, in_r - tp
    return tp, g.k * (pairs.n - 1) - tp - fp - fn, fp, fn


def cseg_geometry(pairs: BoundaryPairs, k: int | None) -> Geometry:
    """C_seg's probes (:func:`cseg`): Pk's under ``"paper"``, ``k`` (>= 1) or the paper's default."""
    return geometry(pairs.n, pairs.reference_segments(), k, "paper", metric="pk")


# ------------------------------------------------------------------------------------------------
# One pair


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
    return int(convention_k(int(ref.sum()), int(ref.size), convention))


def _no_window(g: Geometry, convention: str, metric: str, equal: bool = False) -> float:
    """What the convention returns for one pair where no window fits
    (:func:`tvseg.unit.conventions.no_window_value`), NaN with a :class:`~tvseg.errors.TvsegWarning`
    when it returns none."""
    value = float(no_window_value(convention, metric, np.array([g.divisor]), equal)[0])
    if math.isnan(value):
        warnings.warn(
            f"{metric}: no window of k={g.k} fits in the text (NaN)",
            UndefinedValueWarning,
            stacklevel=user_stacklevel(),
        )
    return value


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
    pairs = check_pair(reference, hypothesis)
    g = geometry(pairs.n, pairs.reference_segments(), k, convention, metric="pk")
    if g.divisor <= 0:
        return _no_window(g, convention, "pk")
    miss, false_alarm = _probes_of_one(pairs.reference.tolist(), pairs.hypothesis.tolist(), g)
    return float(miss + false_alarm_weight * false_alarm) / int(g.divisor)


def _sweep_of_one(reference: list[int], hypothesis: list[int], g: Geometry, weighted: bool) -> int:
    """WindowDiff's windows in error (``weighted``: :math:`\\sum_s |r_s - h_s|`) of one pair, the counts
    :func:`window_counts` gives: each boundary at gap ``p`` is in the windows ``p - width + 1 .. p`` (clipped to
    ``lo .. hi``), +1 to :math:`d_s` for the reference's, -1 for the hypothesis's; the changes of :math:`d_s`
    visited in order."""
    width, lo, hi = int(g.width), int(g.lo), int(g.hi)
    changes: dict[int, int] = {}
    for sign, positions in ((1, reference), (-1, hypothesis)):
        for p in positions:
            first, after = max(p - width + 1, lo), min(p, hi) + 1
            if first < after:
                changes[first] = changes.get(first, 0) + sign
                changes[after] = changes.get(after, 0) - sign
    total = d = previous = 0
    for s in sorted(changes):
        if d:
            total += (s - previous) * (abs(d) if weighted else 1)
        d += changes[s]
        previous = s
    return total


def _probes_of_one(reference: list[int], hypothesis: list[int], g: Geometry) -> tuple[int, int]:
    """Pk's misses and false alarms of one pair (sorted boundary positions, ``g``'s fields ints): the counts
    :func:`window_counts` gives, each run of :func:`_covered` added up in a loop over its few positions."""
    width, lo, hi = int(g.width), int(g.lo), int(g.hi)
    if hi < lo:  # no window
        return 0, 0

    def covered(positions: list[int]) -> int:
        total, previous = 0, lo - 1
        for p in positions:
            end = min(p, hi)
            total += end - max(p - width, previous)
            previous = end
        return total

    in_r, in_h, in_any = covered(reference), covered(hypothesis), covered(sorted(reference + hypothesis))
    return in_any - in_h, in_any - in_r


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
    pairs = check_pair(reference, hypothesis)
    g = geometry(pairs.n, pairs.reference_segments(), k, convention, lamprier=lamprier, weighted=weighted)
    if g.divisor <= 0:
        return _no_window(g, convention, "windowdiff", bool(pairs.differences.size == 0))
    return float(_sweep_of_one(pairs.reference.tolist(), pairs.hypothesis.tolist(), g, weighted)) / int(g.divisor)


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
    precision, recall, f1 : float
        :math:`TP / (TP + FP)`, :math:`TP / (TP + FN)`, :math:`2TP / (2TP + FP + FN)`, computed once
        when the matrix is made. NaN for 0/0 (no hypothesis boundary, no reference boundary, neither),
        without a warning: the corpus scores of :mod:`tvseg.unit.reduction` warn on their pooled 0/0.

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
    masses: tuple[Any, ...] = dataclasses.field(default=(), repr=False, compare=False)
    precision: float = dataclasses.field(init=False, compare=False)
    recall: float = dataclasses.field(init=False, compare=False)
    f1: float = dataclasses.field(init=False, compare=False)

    def __post_init__(self) -> None:
        tp, fp, fn = self.tp, self.fp, self.fn
        object.__setattr__(self, "precision", rate(tp, tp + fp))
        object.__setattr__(self, "recall", rate(tp, tp + fn))
        object.__setattr__(self, "f1", rate(2 * tp, 2 * tp + fp + fn))

    @property
    def total(self) -> float:
        """``tp + tn + fp + fn``: ``k (N - 1)``, or ``N - 1`` once normalized."""
        return self.tp + self.tn + self.fp + self.fn

    def normalized(self) -> WinPR:
        """The matrix divided by ``k`` (Scaiano & Inkpen's normalized WinPR)."""
        k = self.k
        return dataclasses.replace(self, tp=self.tp / k, tn=self.tn / k, fp=self.fp / k, fn=self.fn / k)

    def near_miss(self) -> WinPR:
        """Contribution of near misses: this normalized matrix minus the ``k = 1`` matrix (which
        counts exact matches only), as Scaiano & Inkpen section 3.1 propose. Its four cells sum to 0."""
        strict = winpr(*self.masses, k=1)
        me = self.normalized()
        return dataclasses.replace(
            me, tp=me.tp - strict.tp, tn=me.tn - strict.tn, fp=me.fp - strict.fp, fn=me.fn - strict.fn
        )


def winpr(reference: Masses, hypothesis: Masses, *, k: int | None = None) -> WinPR:
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
    "window of 3 units" holds 4 positions (their edges are inclusive), i.e. ``k = 4`` here, and their
    window size is half the mean segment size in units (equation 1): so the default ``k`` is that half
    plus one position, and with it their Table 2 is reproduced (``tests/test_windows_papers.py``).
    Counted by :func:`winpr_counts`.

    Parameters
    ----------
    reference, hypothesis : sequence of int
        Masses with the same total ``N``.
    k : int, optional
        Gap positions per window; default Scaiano & Inkpen's window of half the mean reference
        segment size in units (rounded half up, at least 1, as ``convention="paper"``'s ``k``) plus
        one position (:func:`tvseg.unit.conventions.winpr_k`): one more than Pk's default ``k``.

    Returns
    -------
    WinPR
    """
    check_k(k, 1)
    pairs = check_pair(reference, hypothesis)
    n = pairs.n
    k = int(winpr_k(n, pairs.reference_segments())) if k is None else int(k)
    tp, tn, fp, fn = (int(v[0]) for v in winpr_counts(pairs, winpr_geometry(pairs.n, k)))
    masses = (as_masses(reference, name="reference"), as_masses(hypothesis, name="hypothesis"))
    return WinPR(tp=tp, tn=tn, fp=fp, fn=fn, k=k, n=n, masses=masses)


def cseg(
    reference: Masses,
    hypothesis: Masses,
    *,
    k: int | None = None,
    c_miss: float = 1.0,
    c_fa: float = 0.3,
    p_seg: float = 0.3,
    normalized: bool = True,
) -> float:
    r"""NIST TDT's story segmentation cost :math:`C_{seg}`, normalised by default.

    The Topic Detection and Tracking evaluations (TDT2 1998 to TDT 2004; Doddington's TDT2 evaluation
    plan, NIST's ``TDT3seg.pl`` scorer) scored story segmentation with a detection cost built on
    Beeferman et al.'s probes: two points a fixed distance ``k`` apart, and whether a segmentation puts
    them in different segments (it *separates* them). Conditioned on the reference, as every TDT
    detection error rate is:

    .. math::

        P_{miss} = \frac{\#\{\text{probes the reference separates and the hypothesis does not}\}}
                        {\#\{\text{probes the reference separates}\}}, \qquad
        P_{FA} = \frac{\#\{\text{probes the hypothesis separates and the reference does not}\}}
                      {\#\{\text{probes the reference does not separate}\}}

    .. math::

        C_{seg} = C_{miss}\,P_{miss}\,P_{seg} + C_{FA}\,P_{FA}\,(1 - P_{seg}), \qquad
        (C_{seg})_{norm} = \frac{C_{seg}}{\min\bigl(C_{miss}\,P_{seg},\; C_{FA}\,(1 - P_{seg})\bigr)}

    Unlike Pk, which divides misses and false alarms by all probes, each rate here has its own
    denominator. The normalisation divides by the cost of the better of the two trivial segmentations:
    no boundary at all has :math:`P_{miss} = 1, P_{FA} = 0` (cost :math:`C_{miss} P_{seg}`), a boundary
    at every gap has :math:`P_{miss} = 0, P_{FA} = 1` (cost :math:`C_{FA} (1 - P_{seg})`); the better one
    scores 1 and a system worth keeping scores below 1. With the defaults the two cost 0.3 and 0.21: a
    boundary everywhere scores 1, no boundary 0.3 / 0.21 = 1.4286.

    Defaults and sources:

    * ``c_miss=1.0, c_fa=0.3``: the defaults of NIST's ``TDT3seg.pl`` (its user manual, option ``-C``,
      TDT3eval 2.6 package).
    * ``p_seg=0.3``: the prior of the TDT evaluation plans, as reported by Rosenberg & Hirschberg
      (HLT-NAACL 2006), "Cseg (Pseg = 0.3) (Doddington, 1998)".
    * Probes: probe ``i`` joins unit ``i`` and unit ``i + k``, ``i = 1 .. N - k`` (Pk's probes as Pevzner &
      Hearst write them, the ``"paper"`` convention of :mod:`tvseg.unit.conventions`); a segmentation
      separates it when it has a boundary in one of the gaps ``i .. i + k - 1``.
    * ``k``: the TDT evaluation plans fix the probe distance in words (characters for Mandarin), not as
      a fraction of the mean story. What could be checked (2026-11): NIST's TDT3eval revision history
      (version 1.0, May 1999) says ``TDT3seg.pl``'s "default evaluation frame size" became 75 when the
      source language is Mandarin, so the scorer has a fixed default frame; the English value and the
      time-based distance of the audio condition could not be read in the sources available here. The
      figures commonly quoted for TDT2/TDT3 are **50 words** for text and **15 seconds** for audio; they
      are *not verified* here. tvseg's units are breath groups, cues or frames, not words, so no fixed
      distance in words applies: ``k=None`` is Pk's paper default, half the mean reference segment size
      in units (:func:`default_k`, ``"paper"``), Beeferman et al.'s choice for Pk, so that
      :math:`C_{seg}` and Pk count the same probes (Rosenberg & Hirschberg likewise report
      :math:`C_{seg}`, Pk and WindowDiff with one ``k``, ``k = 5``, for all three). Give ``k=50`` on word
      units to follow the commonly quoted TDT setting.
    * 0/0: a rate whose denominator is 0 (a reference that separates no probe, or every probe; no probe
      at all when ``k >= N``) is NaN with a :class:`~tvseg.errors.TvsegWarning` (``docs/conventions.md``).

    Parameters
    ----------
    reference, hypothesis : sequence of int
        Masses with the same total ``N``.
    k : int, optional
        Probe distance in units; None is Pk's paper default (half the mean reference segment size,
        rounded half up). TDT fixed it in words; pass it when the units are words.
    c_miss, c_fa : float
        Costs of a miss and of a false alarm (``TDT3seg.pl``'s defaults 1.0 and 0.3).
    p_seg : float
        Prior probability that a probe crosses a story boundary (0.3, TDT's).
    normalized : bool
        Divide by the cost of the better trivial segmentation (no boundary, or a boundary at every gap).

    Returns
    -------
    float
        In ``[0, c_miss * p_seg + c_fa * (1 - p_seg)]``, so in ``[0, max(c_miss, c_fa)]``, when not
        normalised; 0 for a hypothesis equal to the reference. NaN with a
        :class:`~tvseg.errors.TvsegWarning` when a rate is 0/0 (no probe the reference separates, or
        none it does not separate, or ``k >= N``).

    Raises
    ------
    InputError
        Invalid masses or costs (negative, not finite, ``p_seg`` outside [0, 1], a normalisation by 0).
    UsageError
        ``k`` not an integer >= 1.

    Examples
    --------
    >>> cseg((5, 5), (5, 5))
    0.0
    >>> round(cseg((5, 5), (10,)), 4)          # no boundary: misses every separated probe
    1.4286
    >>> cseg((5, 5), (1,) * 10)                 # a boundary at every gap: the better trivial one
    1.0
    """
    c_miss, c_fa, p_seg = (check_cost(v, name) for v, name in ((c_miss, "c_miss"), (c_fa, "c_fa"), (p_seg, "p_seg")))
    if p_seg > 1:
        raise InputError("p_seg must be a probability in [0, 1]", value=p_seg)
    if normalized and min(c_miss * p_seg, c_fa * (1 - p_seg)) <= 0:
        raise InputError(
            "the normalised C_seg divides by min(c_miss * p_seg, c_fa * (1 - p_seg)), which is 0 "
            "here: use normalized=False"
        )
    check_k(k, 1)
    pairs = check_pair(reference, hypothesis)
    g = cseg_geometry(pairs, k)
    c = window_counts(pairs, g, sweep=False)
    assert c.miss is not None and c.in_reference is not None and c.false_alarm is not None  # probes counted
    p_miss = rate(int(c.miss[0]), int(c.in_reference[0]))
    p_fa = rate(int(c.false_alarm[0]), int(c.windows[0] - c.in_reference[0]))
    if math.isnan(p_miss) or math.isnan(p_fa):
        which = "P_miss" if math.isnan(p_miss) else "P_fa"
        warnings.warn(
            f"cseg: {which} is 0/0 with k={int(np.ravel(g.k)[0])} (NaN)",
            UndefinedValueWarning,
            stacklevel=user_stacklevel(),
        )
        return math.nan
    cost: float = detection_cost(p_miss, p_fa, c_miss=c_miss, c_fa=c_fa, p_seg=p_seg, normalized=normalized)
    return cost
