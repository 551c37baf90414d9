r"""One show at a time: the fast path of the per-show API (:func:`tvseg.boundaries`, :func:`tvseg.coverage`).

The corpus kernels (:func:`tvseg.retrieval.coverage.match`, :func:`tvseg.retrieval.boundaries.extract`,
:func:`tvseg.retrieval.matching.match_points`) score every show of a corpus in a few dozen numpy
operations; on one show of a few dozen segments that fixed cost is all of a call's time. Here the
same rules are applied to one show's segments held as Python lists (read and checked with a few
vectorised operations, then one pass of each step): what is decided, and how ties are broken, is
the corpus path's, and ``tests/test_one_show.py`` checks on random shows with decimal times (many
exactly on a threshold) that :func:`tvseg.boundaries` and :func:`tvseg.coverage` give the counts,
pairs and durations of :func:`tvseg.retrieval.corpus.score_shows` bit for bit:

- times are decided in integer microseconds, ``round(t * 1e6)`` (:func:`tvseg.exact.tick`), and a
  coverage against gamma :math:`= p/q` as :math:`2\,|R \cap H|\, q > p\,(d(R) + d(H))` in Python
  integers (:func:`tvseg.exact.above`);
- the overlapping candidates, best partners and their tie rule are those of
  :func:`tvseg.retrieval.coverage.match`; the boundaries those of
  :func:`tvseg.retrieval.boundaries.extract`; the boundary matching is
  :func:`tvseg.retrieval.matching.match_points`' cluster rules, with its banded dynamic programme
  (:func:`tvseg.retrieval.matching._match_cluster`) for clusters of several boundaries of each side;
- durations are summed one after the other, in time order, as the corpus path's ``numpy.bincount``.

Input that is not plainly valid (not sorted, overlapping, empty, non-finite, beyond
:data:`tvseg.exact.MAX_SECONDS`, a segment with several tracks, a type other than an array, a
sequence, an Annotation or a Timeline) goes to the careful path,
:func:`tvseg.retrieval.segments.from_segmentation`, which sorts it or raises the one error message.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from operator import attrgetter
from typing import Any, NamedTuple, TypeAlias

import numpy as np
from numpy.typing import NDArray

from tvseg.exact import MAX_SECONDS, TICKS_PER_SECOND, ratio, ticks
from tvseg.pyannote_objects import is_annotation, is_timeline
from tvseg.retrieval.matching import BAND_LIMIT, _match_cluster, match_points
from tvseg.retrieval.segments import Segmentation, from_segmentation

__all__ = ["Show", "ShowCoverage", "read_show", "show_boundaries", "match_show", "show_coverage", "gamma_fraction"]


_START_END = attrgetter("start", "end")

Seconds: TypeAlias = "list[float]"
Ticks: TypeAlias = "list[int]"
Pairs: TypeAlias = "tuple[list[int], list[int]]"


class Show(NamedTuple):
    """One side of one show, checked and sorted: times in seconds and in integer microseconds."""

    start: Seconds
    end: Seconds
    start_ticks: Ticks
    end_ticks: Ticks
    labels: list[Any] | None
    """One label per segment; None when there are none (arrays, Timelines)."""
    times: Seconds
    """Start, end, start, end... (seconds), and the same in ticks:"""
    ticks: Ticks

    def arrays(self) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.object_]]:
        """``(start, end, label)`` arrays, as :func:`tvseg.retrieval.segments.from_segmentation` gives."""
        label = np.empty(len(self.start), dtype=object)
        if self.labels is not None:
            label[:] = self.labels
        return np.array(self.start, dtype=float), np.array(self.end, dtype=float), label


def _careful(segmentation: Segmentation, what: str) -> Show:
    start, end, label = from_segmentation(segmentation, what=what)
    flat = np.column_stack([start, end]).ravel()
    tk: Ticks = ticks(flat).tolist()
    times: Seconds = flat.tolist()
    return Show(times[0::2], times[1::2], tk[0::2], tk[1::2], label.tolist(), times, tk)


def _flat(segments: Iterable[Any]) -> NDArray[np.float64] | None:
    """Start, end, start, end... of pyannote Segments as a float array (None: not numbers)."""
    try:
        return np.array(list(chain.from_iterable(map(_START_END, segments))), dtype=float)
    except (TypeError, ValueError):
        return None


def read_show(segmentation: Segmentation, *, what: str) -> Show:
    """One side of one show (an ``(n, 2)`` array, a sequence of ``(start, end)`` pairs, an
    Annotation, a Timeline or None), checked as :func:`tvseg.retrieval.segments.check` does.

    Raises
    ------
    InputError
        As :func:`tvseg.retrieval.segments.from_segmentation`, with the same message.
    """
    labels = None
    if is_annotation(segmentation):
        tracks = getattr(segmentation, "_tracks", None)
        if not isinstance(tracks, dict):
            return _careful(segmentation, what)
        try:  # one label per segment; a segment with several tracks takes the careful path
            labels = [lab for (lab,) in map(dict.values, dict.values(tracks))]
        except (TypeError, ValueError):
            return _careful(segmentation, what)
        # insertion order, read by C-level iterators: checked sorted below, else the careful path
        flat = _flat(dict.keys(tracks))
    elif is_timeline(segmentation):
        flat = _flat(segmentation)
    elif isinstance(segmentation, (np.ndarray, list, tuple)):
        try:
            array = np.asarray(segmentation, dtype=float)
        except (TypeError, ValueError):
            return _careful(segmentation, what)
        if array.ndim != 2 or array.shape[1] != 2:
            return _careful(segmentation, what)
        flat = array.ravel()
    else:
        return _careful(segmentation, what)
    if flat is None or flat.size == 0:
        return _careful(segmentation, what)
    # plainly valid: each segment at least a microsecond long (so start < end), each start at or
    # after the previous end (so sorted and disjoint), the first and last time within MAX_SECONDS
    # (so all are: the times are a chain; NaN fails every comparison)
    times: Seconds = flat.tolist()
    rounded_ticks = np.rint(flat * TICKS_PER_SECOND)
    rounded = rounded_ticks.tolist()
    if not (
        -MAX_SECONDS <= times[0]
        and times[-1] <= MAX_SECONDS
        and all(map(float.__lt__, rounded[0::2], rounded[1::2]))
        and all(map(float.__le__, times[1:-1:2], times[2::2]))
    ):
        return _careful(segmentation, what)
    tk: Ticks = rounded_ticks.astype(np.int64).tolist()
    return Show(times[0::2], times[1::2], tk[0::2], tk[1::2], labels, times, tk)


def show_boundaries(show: Show, lo: int | None, hi: int | None) -> tuple[Seconds, Ticks]:
    """``(times, ticks)`` of one side's boundaries inside the region ``(lo, hi)`` (ticks; None: no
    region, no boundary), by :func:`tvseg.retrieval.boundaries.extract`'s rule: the starts and ends
    strictly between ``lo`` and ``hi``, in time order, a start on the previous end counted once."""
    if lo is None or hi is None:  # no region (both are None then)
        return [], []
    n = len(show.start)
    # starts (strictly increasing) after lo are a suffix from a, ends before hi a prefix up to b
    a, b = bisect_right(show.start_ticks, lo), bisect_left(show.end_ticks, hi)
    ends, both, starts = slice(1, 2 * min(a, b), 2), slice(2 * a, 2 * max(a, b)), slice(2 * max(a, b), 2 * n, 2)
    times = show.times[ends] + show.times[both] + show.times[starts]  # ends alone, both, starts alone
    ticks_ = show.ticks[ends] + show.ticks[both] + show.ticks[starts]
    # equal ticks are neighbours (the ticks never decrease): keep each one's first time
    first = dict(zip(reversed(ticks_), reversed(times)))
    kept_times, kept_ticks = list(first.values())[::-1], list(first)[::-1]
    # strictly inside the region: an end before its start or a start after its end is no boundary
    i, j = bisect_right(kept_ticks, lo), bisect_left(kept_ticks, hi)
    return kept_times[i:j], kept_ticks[i:j]


def match_show(r: Ticks, h: Ticks, tolerance: int) -> Pairs:
    """Indices ``(i, j)`` of the matched pairs of one show's boundaries ``r``, ``h`` (sorted ticks)
    within ``tolerance`` ticks, in reference order: the pairs of
    :func:`tvseg.retrieval.matching.match_points`, by its rules."""
    n_r = len(r)
    n = n_r + len(h)
    if n == 0:
        return [], []
    merged = np.array(r + h, dtype=np.int64)
    order = np.argsort(merged, kind="stable")  # by time, a reference first on equal times
    merged = merged[order]
    tolerance = min(tolerance, int(merged[-1] - merged[0]))
    # clusters: runs of boundaries each within the tolerance of the previous one
    cuts = (np.flatnonzero(merged[1:] - merged[:-1] > tolerance) + 1).tolist()
    cuts.append(n)
    times, ids = merged.tolist(), order.tolist()
    out_i, out_j = [], []
    start = 0
    for stop in cuts:
        if stop - start == 2:  # one reference and one hypothesis boundary: a pair
            x, y = ids[start], ids[start + 1]
            if x < n_r <= y:
                out_i.append(x)
                out_j.append(y - n_r)
            elif y < n_r <= x:
                out_i.append(y)
                out_j.append(x - n_r)
        elif stop - start > 2:
            pairs = _cluster(r, h, times[start:stop], ids[start:stop], n_r, tolerance)
            if pairs is None:  # past BAND_LIMIT: the corpus path's greedy matching, and its warning
                i, j = match_points(
                    np.zeros(n_r, np.int64),
                    np.array(r) / TICKS_PER_SECOND,
                    np.zeros(len(h), np.int64),
                    np.array(h) / TICKS_PER_SECOND,
                    tolerance / TICKS_PER_SECOND,
                )
                return i.tolist(), j.tolist()
            out_i.extend(pairs[0])
            out_j.extend(pairs[1])
        start = stop
    return out_i, out_j


def _cluster(
    r: Ticks, h: Ticks, times: tuple[int, ...], ids: tuple[int, ...], n_r: int, tolerance: int
) -> Pairs | None:
    """``(i, j)`` lists of one cluster of three boundaries or more (None past :data:`BAND_LIMIT`)."""
    refs = [x for x in ids if x < n_r]
    n_ref, n_hyp = len(refs), len(ids) - len(refs)
    if n_ref == 0 or n_hyp == 0:
        return [], []
    if n_ref == 1 or n_hyp == 1:  # the lone boundary pairs with its nearest neighbour (left on a tie)
        lone_is_ref = n_ref == 1
        p = next(q for q, x in enumerate(ids) if (x < n_r) == lone_is_ref)
        d_left = times[p] - times[p - 1] if p > 0 else None
        d_right = times[p + 1] - times[p] if p + 1 < len(ids) else None
        if d_right is None or (d_left is not None and d_left <= d_right):
            other, d = ids[p - 1], d_left
        else:
            other, d = ids[p + 1], d_right
        assert d is not None  # a cluster has a reference and a hypothesis: two boundaries or more
        if d > tolerance:
            return [], []
        return ([ids[p]], [other - n_r]) if lone_is_ref else ([other], [ids[p] - n_r])
    # a cluster's members are contiguous in each side's order: references f.., hypotheses g..
    f = refs[0]
    g = next(x for x in ids if x >= n_r) - n_r
    a, b = r[f : f + n_ref], h[g : g + n_hyp]
    lo = [bisect_left(b, x - tolerance) for x in a]
    hi = [bisect_right(b, x + tolerance) for x in a]
    if sum(hi) - sum(lo) > BAND_LIMIT:
        return None
    pairs = _match_cluster(a, b, lo, hi, tolerance)
    return [f + i for i, _ in pairs], [g + j for _, j in pairs]


@lru_cache(maxsize=64)
def gamma_fraction(gamma: float) -> Fraction:
    """:func:`tvseg.exact.ratio` of a gamma, kept for the next call."""
    return ratio(gamma)


class ShowCoverage(NamedTuple):
    """Per side: the correct segments' count and durations (s), summed in time order."""

    n_correct_reference: int
    n_correct_hypothesis: int
    duration_reference: float
    duration_hypothesis: float
    duration_correct_reference: float
    duration_correct_hypothesis: float


def _best_partners(ref: Show, hyp: Show, d_r: Ticks, d_h: Ticks) -> tuple[Ticks, Ticks, Ticks, Ticks]:
    """Overlap with its best partner and that partner's duration, in ticks, of every segment of each
    side (0 and 0 without a partner), by :func:`tvseg.retrieval.coverage.match`'s rule: the largest
    overlap, then the shortest partner, then the first. ``R`` and ``H`` overlap when
    ``H.end > R.start and H.start < R.end`` (seconds, as the corpus path's searches). Both sides are
    sorted and disjoint: one sweep, leaving the segment that ends first (both when they end
    together), meets every such pair, a segment's candidates one after the other in time order."""
    r_overlap, r_other, h_overlap, h_other = [], [], [], []
    r_best = r_dur = h_best = h_dur = 0  # a partner's duration is never 0: 0 means none yet
    if d_r and d_h:
        r_items = zip(ref.start, ref.end, ref.start_ticks, ref.end_ticks, d_r)
        h_items = zip(hyp.start, hyp.end, hyp.start_ticks, hyp.end_ticks, d_h)
        rs, re, ra, rb, rd = next(r_items)
        hs, he, ha, hb, hd = next(h_items)
        while True:
            if he > rs and hs < re:
                ov = (rb if rb < hb else hb) - (ra if ra > ha else ha)
                if r_dur == 0 or ov > r_best or (ov == r_best and hd < r_dur):
                    r_best, r_dur = ov, hd
                if h_dur == 0 or ov > h_best or (ov == h_best and rd < h_dur):
                    h_best, h_dur = ov, rd
            leave_h = he <= re
            if re <= he:
                r_overlap.append(r_best)
                r_other.append(r_dur)
                r_best = r_dur = 0
                following = next(r_items, None)
                if following is None:
                    if leave_h:
                        h_overlap.append(h_best)
                        h_other.append(h_dur)
                        h_best = h_dur = 0
                    break
                rs, re, ra, rb, rd = following
            if leave_h:
                h_overlap.append(h_best)
                h_other.append(h_dur)
                h_best = h_dur = 0
                following = next(h_items, None)
                if following is None:
                    break
                hs, he, ha, hb, hd = following
    # the segment in hand when the sweep stopped (0 if it had no partner yet), then those never reached
    for overlap, other, best, dur, n in (
        (r_overlap, r_other, r_best, r_dur, len(d_r)),
        (h_overlap, h_other, h_best, h_dur, len(d_h)),
    ):
        if len(overlap) < n:
            overlap.append(best)
            other.append(dur)
            overlap.extend([0] * (n - len(overlap)))
            other.extend([0] * (n - len(other)))
    return r_overlap, r_other, h_overlap, h_other


def _correct(overlap: Ticks, own: Ticks, other: Ticks, p: int, q: int) -> tuple[int, float, float]:
    """Count and durations (s, added one after the other in time order, as ``numpy.bincount`` in the
    corpus path) of one side's segments whose coverage ``2 overlap / (own + other)`` is strictly
    above ``p / q`` (:func:`tvseg.exact.above`, in Python integers; ``other`` 0: no partner)."""
    n_ok, total, total_ok = 0, 0.0, 0.0
    for ov, d, e in zip(overlap, own, other):
        seconds = d / TICKS_PER_SECOND
        total += seconds
        if e > 0 and 2 * ov * q > p * (d + e):
            n_ok += 1
            total_ok += seconds
    return n_ok, total, total_ok


def show_coverage(ref: Show, hyp: Show, gamma: float) -> ShowCoverage:
    """Correct segments of one show at ``gamma`` (coverage strictly above it, decided exactly)."""
    g = gamma_fraction(gamma)
    d_r = [b - a for a, b in zip(ref.start_ticks, ref.end_ticks)]
    d_h = [b - a for a, b in zip(hyp.start_ticks, hyp.end_ticks)]
    r_overlap, r_other, h_overlap, h_other = _best_partners(ref, hyp, d_r, d_h)
    c_r, t_r, ok_r = _correct(r_overlap, d_r, r_other, g.numerator, g.denominator)
    c_h, t_h, ok_h = _correct(h_overlap, d_h, h_other, g.numerator, g.denominator)
    return ShowCoverage(c_r, c_h, t_r, t_h, ok_r, ok_h)
