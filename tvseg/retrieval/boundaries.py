r"""Boundary precision, recall and F-measure with a tolerance in seconds (Bouchekif et al., section 2).

**Boundaries.** The boundaries of a segmentation are its segments' starts and ends that lie strictly
inside the show's evaluated region: the region's own edges are not boundaries. The region is the
show's UEM extent when one is given, else **the reference's own extent** (its first start to its last
end), so the reference's boundary set, and every recall denominator, is a property of the reference
alone: Bouchekif et al. count, for a contiguous reference, its segments minus one. A hypothesis that
runs past the reference does not turn the reference's first start or last end into a boundary
(:func:`tvseg.evaluate` crops such a hypothesis to the region, as a UEM would, and says so). The end
of a segment and the start of the next are **one** boundary when they coincide; when a gap separates
them, the end before the gap and the start after it are two boundaries (pyannote.metrics keeps only
segment ends, and so drops the start of a segment that follows a gap).

**Matching.** A reference boundary :math:`r` and a hypothesis boundary :math:`h` may be paired when
:math:`|r - h| \le \tau` (inclusive), decided on times and tolerance in integer microseconds
(:mod:`tvseg.retrieval.exact`): boundaries at 6.1 s and 16.1 s are paired at a tolerance of 10 s. The pairing is one-to-one, has the largest number of pairs (a
maximum matching, as ``mir_eval.util.match_events``), and among maximum matchings the smallest total
distance :math:`\sum |r - h|`. Then

.. math::

    P = \frac{n_{matched}}{n_{hypothesis}}, \quad R = \frac{n_{matched}}{n_{reference}}, \quad
    F = \frac{2PR}{P + R}

(0/0 gives NaN, see :mod:`tvseg.retrieval.rates`).

**Why the algorithm is exact.** (1) *Uncrossing*: if :math:`r_1 < r_2` are paired with
:math:`h_2 < h_1` (crossed), pairing :math:`r_1` with :math:`h_2` and :math:`r_2` with :math:`h_1`
keeps both pairs within the tolerance (e.g. if :math:`h_2 \ge r_1` then
:math:`h_2 - r_1 < h_1 - r_1 \le \tau`, else :math:`r_1 - h_2 < r_2 - h_2 \le \tau`; the other pair
likewise) and does not increase the total distance (on a line, :math:`|r_1-h_2| + |r_2-h_1| \le
|r_1-h_1| + |r_2-h_2|` whenever the pairs cross). So some optimal matching (largest, then cheapest)
is order-preserving. (2) *Clusters*: sort all boundaries of a show; where two consecutive ones are
more than :math:`\tau` apart, no pair can straddle the gap, so the clusters between such gaps are
solved independently. (3) A cluster with one boundary of each side is one pair; a cluster with one
boundary of a side pairs it with its nearest neighbour (which is of the other side) when within the
tolerance; any other cluster is solved by dynamic programming over the two sorted sequences, maximising (pairs, -distance)
lexicographically over order-preserving matchings, :math:`O(a \cdot b)` for a cluster with
:math:`a` reference and :math:`b` hypothesis boundaries. The sort is :math:`O(N \log N)` and
clusters are small in practice (the tests compare against a brute-force search over all
matchings and against mir_eval's bipartite maximum matching).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from pyannote.core import Annotation, Segment, Timeline

from tvseg.errors import TvsegWarning, UsageError
from tvseg.retrieval.exact import tick, ticks
from tvseg.retrieval.rates import f_measure, rate
from tvseg.retrieval.segments import Segments, from_segmentation, lex_order, stack

__all__ = ["boundaries", "BoundaryResult", "extract", "regions", "match_points", "check_tolerance"]


def check_tolerance(tolerance) -> float:
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not (
            np.isfinite(tolerance) and tolerance >= 0):
        raise UsageError(f"tolerance must be a finite number of seconds >= 0, got {tolerance!r}")
    return float(tolerance)


def regions(reference: Segments, uem_start=None, uem_end=None):
    """Per show ``(start, end)`` of its evaluated region: the UEM where given (not NaN), else the
    reference's extent (first start, last end).

    A show with no reference segment and no UEM gets ``(nan, nan)``: it has no region, and so no
    boundary on either side.
    """
    n = reference.n_shows
    start = np.full(n, np.nan)
    end = np.full(n, np.nan)
    if len(reference):
        off = reference.offsets()
        has = off[1:] > off[:-1]
        start[has] = reference.start[off[:-1][has]]
        end[has] = reference.end[off[1:][has] - 1]
    if uem_start is not None:
        given = ~np.isnan(uem_start)
        start[given] = np.asarray(uem_start)[given]
        end[given] = np.asarray(uem_end)[given]
    return start, end


def extract(segments: Segments, region_start: np.ndarray, region_end: np.ndarray):
    """``(show, time)`` of a corpus's boundaries, sorted: segment starts and ends strictly inside
    their show's region (compared in microseconds), a start equal to the previous end counted once."""
    n = len(segments)
    show = np.repeat(segments.show, 2)
    time = np.empty(2 * n)
    time[0::2] = segments.start
    time[1::2] = segments.end
    t = np.empty(2 * n, dtype=np.int64)
    t[0::2] = segments.start_ticks
    t[1::2] = segments.end_ticks
    defined = ~np.isnan(region_start)
    lo = np.where(defined, ticks(np.where(defined, region_start, 0.0)), np.iinfo(np.int64).max)
    hi = np.where(defined, ticks(np.where(defined, region_end, 0.0)), np.iinfo(np.int64).min)
    keep = np.empty(2 * n, dtype=bool)
    keep[0::2] = t[0::2] > lo[segments.show]
    keep[1::2] = t[1::2] < hi[segments.show]
    show, time, t = show[keep], time[keep], t[keep]
    if len(time) > 1:
        fresh = np.ones(len(time), dtype=bool)
        fresh[1:] = (t[1:] != t[:-1]) | (show[1:] != show[:-1])
        show, time = show[fresh], time[fresh]
    return show, time


def _match_cluster(a: list, b: list, tolerance: int) -> list[tuple[int, int]]:
    """Largest, then cheapest, order-preserving matching of sorted ``a`` and ``b`` (DP, integers)."""
    n, m = len(a), len(b)
    f = [[(0, 0)] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        ai, prev, row = a[i - 1], f[i - 1], f[i]
        for j in range(1, m + 1):
            best = prev[j] if prev[j] >= row[j - 1] else row[j - 1]
            d = abs(ai - b[j - 1])
            if d <= tolerance:
                count, neg_cost = prev[j - 1]
                candidate = (count + 1, neg_cost - d)
                if candidate > best:
                    best = candidate
            row[j] = best
    pairs = []
    i, j = n, m
    while i > 0 and j > 0:
        if f[i][j] == f[i - 1][j]:
            i -= 1
        elif f[i][j] == f[i][j - 1]:
            j -= 1
        else:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
    return pairs[::-1]


def match_points(ref_show: np.ndarray, ref_time: np.ndarray, hyp_show: np.ndarray, hyp_time: np.ndarray,
                 tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` of the matched pairs ``(ref_time[i], hyp_time[j])``, shows kept apart.

    Both inputs sorted by ``(show, time)`` (seconds). Times and tolerance are compared in integer
    microseconds. See the module docstring for the algorithm.
    """
    n_r = len(ref_time)
    show = np.concatenate([ref_show, hyp_show])
    time = ticks(np.concatenate([ref_time, hyp_time]))
    tolerance = tick(tolerance)
    is_hyp = np.arange(len(time)) >= n_r
    order = lex_order(show, time)  # stable: on equal times the reference boundary comes first
    if len(order) == 0:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    s, t, h = show[order], time[order], is_hyp[order]
    new = np.ones(len(t), dtype=bool)
    new[1:] = (s[1:] != s[:-1]) | ((t[1:] - t[:-1]) > tolerance)
    cluster = np.cumsum(new) - 1
    n_hyp = np.bincount(cluster, weights=h).astype(np.int64)
    n_all = np.bincount(cluster).astype(np.int64)
    n_ref = n_all - n_hyp
    first = np.flatnonzero(new)
    # one reference and one hypothesis boundary: consecutive, so within the tolerance
    simple = np.flatnonzero((n_ref == 1) & (n_hyp == 1))
    a, b = order[first[simple]], order[first[simple] + 1]
    out_r = [np.where(a < n_r, a, b)]
    out_h = [np.where(a < n_r, b, a) - n_r]
    # one boundary of a side among several of the other: its nearest neighbour in the sorted
    # cluster (necessarily of the other side) is its partner, when within the tolerance
    lone_cluster = (n_all > 2) & ((n_ref == 1) | (n_hyp == 1))
    lone_ref_side = n_ref == 1
    pos = np.flatnonzero(lone_cluster[cluster] & (h != lone_ref_side[cluster]))
    if len(pos):
        c = cluster[pos]
        last = first[c] + n_all[c] - 1
        left = np.where(pos > first[c], pos - 1, pos)
        right = np.where(pos < last, pos + 1, pos)
        far = np.iinfo(np.int64).max
        d_left = np.where(pos > first[c], t[pos] - t[left], far)
        d_right = np.where(pos < last, t[right] - t[pos], far)
        nearest = np.where(d_left <= d_right, left, right)
        ok = np.minimum(d_left, d_right) <= tolerance
        a, b = order[pos[ok]], order[nearest[ok]]
        out_r.append(np.where(a < n_r, a, b))
        out_h.append(np.where(a < n_r, b, a) - n_r)
    several = np.flatnonzero((n_ref >= 2) & (n_hyp >= 2))
    if len(several):
        # members of a cluster in time order; within a side that is index order (the inputs are
        # sorted), so each side's list is sorted by time as _match_cluster needs
        order_l, t_l = order.tolist(), t.tolist()
        pair_r, pair_h = [], []
        for lo, size in zip(first[several].tolist(), n_all[several].tolist()):
            members = range(lo, lo + size)
            refs = [order_l[k] for k in members if order_l[k] < n_r]
            hyps = [order_l[k] - n_r for k in members if order_l[k] >= n_r]
            a = [t_l[k] for k in members if order_l[k] < n_r]
            b = [t_l[k] for k in members if order_l[k] >= n_r]
            for pi, pj in _match_cluster(a, b, tolerance):
                pair_r.append(refs[pi])
                pair_h.append(hyps[pj])
        out_r.append(np.array(pair_r, dtype=np.int64))
        out_h.append(np.array(pair_h, dtype=np.int64))
    i = np.concatenate(out_r).astype(np.int64)
    j = np.concatenate(out_h).astype(np.int64)
    keep = np.argsort(i, kind="stable")
    return i[keep], j[keep]


@dataclass(frozen=True, eq=False)
class BoundaryResult:
    """Boundary P/R/F of one show.

    Attributes
    ----------
    precision, recall, f1 : float
        Rates (fractions; NaN for 0/0).
    n_reference, n_hypothesis, n_matched : int
        Boundary counts and the size of the matching.
    pairs : list of (float, float)
        The matched ``(reference, hypothesis)`` boundary times, in time order.
    reference_boundaries, hypothesis_boundaries : ndarray
        All boundary times of each side.
    tolerance : float
    extent : pyannote.core.Segment or None
        The evaluated region used (None when the reference is empty and no extent was given).
    """

    precision: float
    recall: float
    f1: float
    n_reference: int
    n_hypothesis: int
    n_matched: int
    pairs: list
    reference_boundaries: np.ndarray
    hypothesis_boundaries: np.ndarray
    tolerance: float
    extent: Segment | None


def boundaries(reference: Annotation | Timeline, hypothesis: Annotation | Timeline, *,
               tolerance: float = 10.0, extent: Segment | None = None) -> BoundaryResult:
    r"""Boundary precision, recall and F of one show, with a maximum one-to-one matching.

    Parameters
    ----------
    reference, hypothesis : pyannote.core.Annotation or Timeline
        Topic segments of one show (disjoint within each side).
    tolerance : float, default 10.0
        Largest distance in seconds (inclusive) between a reference and a hypothesis boundary that
        may be paired.
    extent : pyannote.core.Segment, optional
        The show's evaluated region (its UEM). Default: the reference's extent, so that the
        reference's boundaries do not depend on the hypothesis.

    Returns
    -------
    BoundaryResult

    Notes
    -----
    .. math::

        P = \frac{n_{matched}}{n_{hypothesis}}, \quad R = \frac{n_{matched}}{n_{reference}}, \quad
        F = \frac{2PR}{P + R}

    with :math:`n_{matched}` the size of a maximum matching of pairs within the tolerance; among
    maximum matchings, ``pairs`` is one with the smallest total distance. See the module docstring
    for what counts as a boundary and why the matching is exact.

    Examples
    --------
    >>> from pyannote.core import Timeline, Segment
    >>> ref = Timeline([Segment(0, 10), Segment(10, 20), Segment(20, 30)])
    >>> hyp = Timeline([Segment(0, 14), Segment(14, 30)])
    >>> r = boundaries(ref, hyp, tolerance=5)
    >>> r.n_matched, r.recall, r.precision, r.pairs
    (1, 0.5, 1.0, [(10.0, 14.0)])
    """
    tolerance = check_tolerance(tolerance)
    ref = stack([from_segmentation(reference, what="reference")])
    hyp = stack([from_segmentation(hypothesis, what="hypothesis")])
    if extent is not None:
        e_start, e_end = regions(ref, np.array([extent.start]), np.array([extent.end]))
    else:
        e_start, e_end = regions(ref)
    r_show, r_time = extract(ref, e_start, e_end)
    h_show, h_time = extract(hyp, e_start, e_end)
    i, j = match_points(r_show, r_time, h_show, h_time, tolerance)
    n_r, n_h, n_m = len(r_time), len(h_time), len(i)
    for n, side in ((n_r, "reference"), (n_h, "hypothesis")):
        if n == 0:
            warnings.warn(f"the {side} has no boundary inside the show: its boundary rate is NaN (0/0)",
                          TvsegWarning, stacklevel=2)
    p, r = rate(n_m, n_h), rate(n_m, n_r)
    shown_extent = None if np.isnan(e_start[0]) else Segment(float(e_start[0]), float(e_end[0]))
    return BoundaryResult(precision=p, recall=r, f1=f_measure(p, r), n_reference=n_r, n_hypothesis=n_h,
                          n_matched=n_m, pairs=[(float(a), float(b)) for a, b in zip(r_time[i], h_time[j])],
                          reference_boundaries=r_time, hypothesis_boundaries=h_time, tolerance=tolerance,
                          extent=shown_extent)
