r"""Boundary confidences: boundary detection over thresholds on the hypothesis's scores.

A hypothesis may give each segment a score (an RTTM confidence, a CSV or JSON ``score``): the score of
the **boundary at the segment's start**. The first segment's start is the show's start, not a
boundary, so its score is not used (unless the segment starts inside the evaluated region). A boundary
that is only a segment's end (a gap follows it, or no segment does) takes the score of the next
segment's start in the show, the story change it belongs to; with no next segment, or no score, it is
kept at every threshold (score :math:`+\infty`). The scores are those of the segments as given, before
any crop: the next segment is the next one in the file even when it lies outside the UEM, whether the
UEM crops the segments as they are read (``read_segments(uem=)``, ``tvseg evaluate --uem``) or
:func:`tvseg.evaluate` crops them (``uem=``); a segment whose start a UEM's gap cut keeps its own score.

**The curve.** At a threshold :math:`t` the hypothesis boundaries with score :math:`\ge t` are kept;
:math:`n_{kept}(t)` is their number and :math:`n_{matched}(t)` the size of a maximum matching of the
kept boundaries to the reference's within the settings' tolerance (the matching of
:mod:`tvseg.retrieval.boundaries`: same show, :math:`|r - h| \le \tau` decided in integer
microseconds). Pooled over shows, with :math:`n_{ref}` the reference boundaries,

.. math::

    P(t) = \frac{n_{matched}(t)}{n_{kept}(t)}, \quad R(t) = \frac{n_{matched}(t)}{n_{ref}}, \quad
    F(t) = \frac{2 P R}{P + R} = \frac{2\, n_{matched}(t)}{n_{kept}(t) + n_{ref}}

at every distinct finite score :math:`t`, in decreasing order (0/0: NaN, :mod:`tvseg.rates`).

**Average precision**, as scikit-learn defines it (``average_precision_score``): over the thresholds
:math:`t_1 > t_2 > \dots`, :math:`AP = \sum_n (R_n - R_{n-1}) P_n` with :math:`R_0 = 0` (a step-wise
sum, no interpolation). Its recall's denominator is the reference's boundaries, so a reference boundary
that no hypothesis boundary can match lowers AP.

**Best-threshold F**: the largest :math:`F(t)` and its threshold (the highest threshold reaching it).

**How the matchings of every threshold are found at once.** Since the kept sets grow as the threshold
falls, the sets of hypothesis boundaries that can all be matched at once are the independent sets of a
matroid (a transversal matroid), and :math:`n_{matched}(t)` is the rank of the boundaries kept at
:math:`t`. The greedy algorithm gives every rank of a nested family in one pass: take the boundaries
by decreasing score and *accept* one when it can be matched together with those already accepted;
then :math:`n_{matched}(t)` is the number of accepted boundaries of score :math:`\ge t` (ties in any
order). The test is Hall's condition, which on a line is a condition on runs: hypothesis boundary
:math:`j` (in ``(show, time)`` order) may match the reference boundaries :math:`[a_j, b_j)`, both bounds
nondecreasing in :math:`j`, and a set :math:`S` can be matched whole if and only if
:math:`|S \cap [i, j]| \le b_j - a_i` for all :math:`i \le j` in :math:`S` (necessary: the run's
neighbours lie in :math:`[a_i, b_j)`; sufficient: where the earliest-free-reference scan fails at
:math:`j`, the run since it last restarted at :math:`i` breaks the inequality). With :math:`C` the
prefix count of the accepted set :math:`A`, :math:`j \notin A` is accepted iff

.. math::

    \min_{k \in A \cup \{j\},\, k \ge j} (b_k - C_k) + \min_{i \in A \cup \{j\},\, i \le j} (C_{i-1} - a_i) \ge 1,

kept in two segment trees with range additions (:math:`O(\log N)` per boundary). Only the clusters of
boundaries that cannot all be matched at once need the trees: a cluster (a run of boundaries whose
windows overlap) that passes the condition whole is accepted whole, found for all clusters at once with
numpy. So :func:`accepted` is :math:`O(N \log N)` for :math:`N` boundaries. Being per boundary, the
acceptances of a corpus's shards are joined by concatenation (:func:`curve`).

**DET curve** (NIST TDT): with units or frames, C_seg's probes (:func:`tvseg.unit.windows.cseg`) and,
at each threshold, the hypothesis kept at that threshold: a probe is separated by the hypothesis when a
kept boundary lies in one of its gaps, that is when the highest score of the boundaries in its gaps is
:math:`\ge t`. :math:`P_{miss}(t)` is the share of the probes the reference separates that the
hypothesis does not, :math:`P_{FA}(t)` the share of the others that it does (:func:`det_curve`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from tvseg.columns import count_before
from tvseg.exact import tick, ticks
from tvseg.rates import rate
from tvseg.retrieval.matching import _clip, _search, _span

__all__ = [
    "BoundaryCurve",
    "DetCurve",
    "ShardConfidence",
    "SystemConfidence",
    "boundary_scores",
    "start_scores",
    "accepted",
    "curve",
    "join_shard_confidence",
    "precision_recall",
    "det_curve",
    "join_confidence",
    "shard_confidence",
]


@dataclass(frozen=True, eq=False)
class BoundaryCurve:
    """Boundary detection at each threshold (module docstring for the definitions).

    Attributes
    ----------
    thresholds : ndarray of float
        The distinct finite scores, decreasing.
    n_kept, n_matched : ndarray of int64
        Hypothesis boundaries kept (score >= threshold) and the size of a maximum matching of them.
    n_reference : int
        Reference boundaries (pooled over shows).
    precision, recall, f1 : ndarray of float
        At each threshold (NaN for 0/0).
    average_precision : float
        :math:`\\sum_n (R_n - R_{n-1}) P_n`, :math:`R_0 = 0` (NaN without a threshold or a reference boundary).
    best_f1, best_threshold : float
        The largest F and the highest threshold that reaches it (NaN without a threshold).
    """

    thresholds: NDArray[np.float64]
    n_kept: NDArray[np.int64]
    n_matched: NDArray[np.int64]
    n_reference: int
    precision: NDArray[np.float64]
    recall: NDArray[np.float64]
    f1: NDArray[np.float64]
    average_precision: float
    best_f1: float
    best_threshold: float

    def as_json(self) -> dict[str, Any]:
        """The JSON's keys: ``boundary_curve``, ``average_precision``, ``best_threshold_f1``."""
        return {
            "boundary_curve": {
                "thresholds": self.thresholds.tolist(),
                "precision": self.precision.tolist(),
                "recall": self.recall.tolist(),
                "f1": self.f1.tolist(),
            },
            "average_precision": self.average_precision,
            "best_threshold_f1": {"f1": self.best_f1, "threshold": self.best_threshold},
        }


@dataclass(frozen=True, eq=False)
class DetCurve:
    """NIST TDT's DET curve of C_seg's probes: ``p_miss`` and ``p_fa`` at each of ``thresholds``
    (decreasing); ``n_separated`` and ``n_joined`` probes the reference separates and does not."""

    thresholds: NDArray[np.float64]
    p_miss: NDArray[np.float64]
    p_fa: NDArray[np.float64]
    n_separated: int
    n_joined: int

    def as_json(self) -> dict[str, Any]:
        return {"thresholds": self.thresholds.tolist(), "p_miss": self.p_miss.tolist(), "p_fa": self.p_fa.tolist()}


def boundary_scores(
    seg_show: ArrayLike,
    seg_start: ArrayLike,
    seg_end: ArrayLike,
    seg_score: ArrayLike,
    b_show: ArrayLike,
    b_time: ArrayLike,
    *,
    end_score: ArrayLike | None = None,
) -> NDArray[np.float64]:
    """The score of each boundary ``(b_show, b_time)`` from the scores of the segments it was taken from.

    Parameters
    ----------
    seg_show, seg_start, seg_end, seg_score : array
        The hypothesis's segments sorted by ``(show, start)``, disjoint within a show, and their
        scores (NaN: none).
    b_show, b_time : array
        Boundaries, each a segment's start or end (compared in microseconds).
    end_score : array, optional
        The score of the boundary at each segment's end where no segment starts (NaN: none): the score of
        the segment after it in its show as read, before a crop to a UEM left it out
        (:meth:`tvseg.columns.SegmentColumns.end_scores`). Default: the next segment's score in the show.

    Returns
    -------
    ndarray of float
        The score of the segment starting at the boundary; for an end where no segment starts, the end
        score of the segment ending there; ``+inf`` where there is none, or it is NaN (kept at every
        threshold).
    """
    seg_show = np.asarray(seg_show, dtype=np.int64)
    start_t = ticks(np.asarray(seg_start, dtype=float))
    score = np.asarray(seg_score, dtype=float)
    b_show = np.asarray(b_show, dtype=np.int64)
    b_t = ticks(np.asarray(b_time, dtype=float))
    n = len(start_t)
    if len(b_t) == 0 or n == 0:
        return np.full(len(b_t), np.inf)
    if end_score is None:
        following = np.append(score[1:], np.nan)
        following[np.append(seg_show[1:] != seg_show[:-1], True)] = np.nan
    else:
        following = np.asarray(end_score, dtype=float)
    # the last segment starting at or before the boundary: it starts there, or it is the one ending there
    last = count_before(seg_show, start_t.astype(float), b_show, b_t.astype(float), inclusive=True) - 1
    safe = np.clip(last, 0, n - 1)
    found = (last >= 0) & (seg_show[safe] == b_show)
    starts_here = found & (start_t[safe] == b_t)
    out = np.where(starts_here, score[safe], np.where(found, following[safe], np.inf))
    return np.where(np.isnan(out), np.inf, out)


def start_scores(
    seg_show: ArrayLike, seg_start: ArrayLike, seg_score: ArrayLike, b_show: ArrayLike, b_time: ArrayLike
) -> NDArray[np.float64]:
    """The score of the segment each cropped segment's start ``(b_show, b_time)`` lies in (the last one of the
    show starting at or before it): a segment whose start a UEM's gap cut keeps its own score, the
    confidence of its story change (``+inf`` where there is none, or it is NaN).

    ``seg_show, seg_start, seg_score``: the segments as given, sorted by ``(show, start)``, disjoint within
    a show (:func:`boundary_scores`)."""
    # with each segment's own score as its end score, a point after its start takes that score
    return boundary_scores(seg_show, seg_start, seg_start, seg_score, b_show, b_time, end_score=seg_score)


class _Tree:
    """Range addition and range minimum over ``values`` (a segment tree with lazy additions)."""

    def __init__(self, values: list[int]) -> None:
        n = self.n = 1 << max(0, len(values) - 1).bit_length()  # a power of two
        self.h = n.bit_length()
        self.t: list[float] = [0] * n + list(values) + [float("inf")] * (n - len(values))
        self.d = [0] * n
        for p in range(n - 1, 0, -1):
            self.t[p] = min(self.t[2 * p], self.t[2 * p + 1])

    def _apply(self, p: int, value: int) -> None:
        self.t[p] += value
        if p < self.n:
            self.d[p] += value

    def _build(self, p: int) -> None:
        t, d = self.t, self.d
        while p > 1:
            p >>= 1
            t[p] = min(t[2 * p], t[2 * p + 1]) + d[p]

    def _push(self, p: int) -> None:
        d, n = self.d, self.n
        for s in range(self.h, 0, -1):
            i = p >> s
            if 0 < i < n and d[i]:
                self._apply(2 * i, d[i])
                self._apply(2 * i + 1, d[i])
                d[i] = 0

    def add(self, lo: int, hi: int, value: int) -> None:
        """Add ``value`` on ``[lo, hi)``."""
        if lo >= hi:
            return
        lo += self.n
        hi += self.n
        l0, r0 = lo, hi
        while lo < hi:
            if lo & 1:
                self._apply(lo, value)
                lo += 1
            if hi & 1:
                hi -= 1
                self._apply(hi, value)
            lo >>= 1
            hi >>= 1
        self._build(l0)
        self._build(r0 - 1)

    def min(self, lo: int, hi: int) -> float:
        """The minimum on ``[lo, hi)`` (``inf`` when empty)."""
        if lo >= hi:
            return float("inf")
        lo += self.n
        hi += self.n
        self._push(lo)
        self._push(hi - 1)
        best: float = float("inf")
        t = self.t
        while lo < hi:
            if lo & 1:
                best = min(best, t[lo])
                lo += 1
            if hi & 1:
                hi -= 1
                best = min(best, t[hi])
            lo >>= 1
            hi >>= 1
        return best


def _windows(ref_show, ref_time, hyp_show, hyp_time, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """Each hypothesis boundary's window ``[a, b)`` of reference boundaries within the tolerance (the
    decision of :func:`tvseg.retrieval.matching.match_boundaries`, in microseconds)."""
    r, h = ticks(np.asarray(ref_time, dtype=float)), ticks(np.asarray(hyp_time, dtype=float))
    ref_show, hyp_show = np.asarray(ref_show), np.asarray(hyp_show)
    span = _span(r, h)
    tau = _clip(tick(float(tolerance)), span)
    n_shows = int(max(ref_show.max(initial=-1), hyp_show.max(initial=-1))) + 1
    a, b = _search(hyp_show, h, ref_show, r, tau, span, n_shows)
    return np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)


def accepted(
    ref_show: ArrayLike,
    ref_time: ArrayLike,
    hyp_show: ArrayLike,
    hyp_time: ArrayLike,
    hyp_score: ArrayLike,
    *,
    tolerance: float,
) -> NDArray[np.bool_]:
    """Which hypothesis boundaries the greedy pass by decreasing score accepts (module docstring): the
    number of accepted boundaries of score >= t is the size of a maximum matching of those kept at t.

    Parameters
    ----------
    ref_show, ref_time, hyp_show, hyp_time : array
        Boundaries of each side sorted by ``(show, time)`` (times in seconds).
    hyp_score : array of float
        Each hypothesis boundary's score (``+inf``: kept at every threshold; no NaN).
    tolerance : float
        Seconds, inclusive.

    Returns
    -------
    ndarray of bool
        One flag per hypothesis boundary.
    """
    score = np.asarray(hyp_score, dtype=float)
    n = len(score)
    out = np.zeros(n, dtype=bool)
    if n == 0 or len(np.asarray(ref_time)) == 0:
        return out
    a, b = _windows(ref_show, ref_time, hyp_show, hyp_time, tolerance)
    live = np.flatnonzero(b > a)  # a boundary with no reference within the tolerance is never matched
    if not len(live):
        return out
    a, b = a[live], b[live]
    # clusters: a new one where a window starts at or past the end of the previous one
    fresh = np.ones(len(live), dtype=bool)
    fresh[1:] = a[1:] >= b[:-1]
    cluster = np.cumsum(fresh) - 1
    first = np.flatnonzero(fresh)
    # the whole cluster is matchable iff (j - i + 1) <= b_j - a_i for all i <= j in it:
    # (b_j - j) + (i - 1 - a_i) >= 0, the second term's running minimum taken within the cluster
    k = np.arange(len(live), dtype=np.int64)
    y = k - 1 - a
    span = 2 * int(np.abs(y).max()) + 1
    shifted = y - cluster * span  # earlier clusters never give the running minimum of a later one
    running = np.minimum.accumulate(shifted) + cluster * span
    ok = (b - k) + running >= 0
    bad_cluster = np.zeros(len(first), dtype=bool)
    np.logical_or.at(bad_cluster, cluster, ~ok)
    whole = ~bad_cluster[cluster]
    out[live[whole]] = True
    # each cluster that cannot be matched whole by its own trees (clusters share no reference boundary)
    bounds = np.append(first, len(live)).tolist()
    for c in np.flatnonzero(bad_cluster).tolist():
        lo, hi = bounds[c], bounds[c + 1]
        out[live[lo:hi]] = _greedy((a[lo:hi] - a[lo]).tolist(), (b[lo:hi] - a[lo]).tolist(), score[live[lo:hi]])
    return out


def _greedy(a: list[int], b: list[int], score: NDArray[np.float64]) -> NDArray[np.bool_]:
    """The matroid greedy on boundaries ``0..m-1`` (sorted by time, windows ``[a_j, b_j)``), by
    decreasing score: two segment trees hold :math:`b_k - C_k` and :math:`C_{k-1} - a_k`, a boundary not
    accepted yet carrying ``big`` more (so it never gives a minimum); a Fenwick tree counts :math:`C`."""
    m = len(a)
    big = 4 * (m + max(b) + 2)
    x = _Tree([bk + big for bk in b])  # b_k - C_k (+ big until accepted)
    y = _Tree([-ak + big for ak in a])  # C_{k-1} - a_k (+ big until accepted)
    fenwick = [0] * (m + 1)  # accepted boundaries, prefix sums
    out = np.zeros(m, dtype=bool)
    for j in np.argsort(-score, kind="stable").tolist():
        before, i = 0, j  # C_{j-1}: accepted boundaries before j
        while i > 0:
            before += fenwick[i]
            i &= i - 1
        if min(x.min(j + 1, m), b[j] - before) + min(y.min(0, j), before - a[j]) >= 1:
            out[j] = True
            x.add(j, j + 1, -big)
            y.add(j, j + 1, -big)
            x.add(j, m, -1)
            y.add(j + 1, m, 1)
            i = j + 1
            while i <= m:
                fenwick[i] += 1
                i += i & -i
    return out


def curve(score: ArrayLike, accepted_flags: ArrayLike, n_reference: int) -> BoundaryCurve:
    """The curve, average precision and best F from each hypothesis boundary's score and acceptance
    (:func:`accepted`; the boundaries of several shards concatenated) and the reference's boundary count."""
    score = np.asarray(score, dtype=float)
    flags = np.asarray(accepted_flags, dtype=bool)
    order = np.argsort(-score, kind="stable")
    s = score[order]
    kept = np.arange(1, len(s) + 1, dtype=np.int64)
    matched = np.cumsum(flags[order], dtype=np.int64)
    # each threshold's counts are those after the last boundary with that score
    last = np.ones(len(s), dtype=bool)
    last[:-1] = s[:-1] != s[1:]
    last &= np.isfinite(s)
    thresholds, n_kept, n_matched = s[last], kept[last], matched[last]
    precision = rate(n_matched, n_kept)
    recall = rate(n_matched, np.full(len(n_matched), n_reference))
    f1 = rate(2 * n_matched, n_kept + n_reference)
    if len(thresholds) and n_reference:
        gained = np.diff(np.concatenate(([0.0], recall)))
        average_precision = float(np.sum(gained * precision))
    else:
        average_precision = float("nan")
    if len(thresholds) and not np.isnan(f1).all():
        best = int(np.nanargmax(f1))
        best_f1, best_threshold = float(f1[best]), float(thresholds[best])
    else:
        best_f1 = best_threshold = float("nan")
    return BoundaryCurve(
        thresholds=thresholds,
        n_kept=n_kept,
        n_matched=n_matched,
        n_reference=int(n_reference),
        precision=np.asarray(precision, dtype=float),
        recall=np.asarray(recall, dtype=float),
        f1=np.asarray(f1, dtype=float),
        average_precision=average_precision,
        best_f1=best_f1,
        best_threshold=best_threshold,
    )


def precision_recall(
    ref_show: ArrayLike,
    ref_time: ArrayLike,
    hyp_show: ArrayLike,
    hyp_time: ArrayLike,
    hyp_score: ArrayLike,
    *,
    tolerance: float,
) -> BoundaryCurve:
    """The boundary curve of a corpus's boundaries (sorted by ``(show, time)``; scores ``+inf`` for a
    boundary kept at every threshold): :func:`accepted` then :func:`curve`.

    Examples
    --------
    References at 10 and 30 s, hypotheses at 12 s (score 0.9), 20 s (0.5) and 31 s (0.2), tolerance 3 s:
    at 0.9, 1 kept, 1 matched; at 0.5, 2 kept, 1 matched; at 0.2, 3 kept, 2 matched.

    >>> c = precision_recall([0, 0], [10.0, 30.0], [0, 0, 0], [12.0, 20.0, 31.0], [0.9, 0.5, 0.2], tolerance=3)
    >>> c.precision.tolist(), c.recall.tolist(), round(c.average_precision, 4)
    ([1.0, 0.5, 0.6666666666666666], [0.5, 0.5, 1.0], 0.8333)
    """
    flags = accepted(ref_show, ref_time, hyp_show, hyp_time, hyp_score, tolerance=tolerance)
    return curve(hyp_score, flags, len(np.asarray(ref_time)))


def det_curve(
    separated: ArrayLike,
    probe_max: ArrayLike,
    *,
    weights: ArrayLike | None = None,
    thresholds: ArrayLike | None = None,
) -> DetCurve:
    """The DET curve from C_seg's probes: whether the reference separates each one, and the highest score
    of the hypothesis boundaries in its gaps (``-inf``: none).

    At threshold ``t`` the hypothesis separates the probes with ``probe_max >= t``: ``P_miss(t)`` is
    the share of the reference's separated probes with ``probe_max < t``, ``P_fa(t)`` the share of the
    others with ``probe_max >= t`` (NaN for 0/0). ``weights``: how many probes each entry stands for
    (a run of probes, :func:`tvseg.unit.probes.probe_counts`; default 1). ``thresholds``: default the distinct finite values
    of ``probe_max``, decreasing.
    """
    sep = np.asarray(separated, dtype=bool)
    top = np.asarray(probe_max, dtype=float)
    w = np.ones(len(top), dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    if thresholds is None:
        finite = top[np.isfinite(top)]
        thresholds = np.unique(finite)[::-1]
    t = np.asarray(thresholds, dtype=float)

    def at_least(mask: NDArray[np.bool_]) -> tuple[NDArray[np.int64], int]:
        """Probes of ``mask`` with probe_max >= each threshold, and their number."""
        order = np.argsort(top[mask], kind="stable")
        values, counts = top[mask][order], w[mask][order]
        before = np.concatenate(([0], np.cumsum(counts)))
        total = int(before[-1])
        return total - before[np.searchsorted(values, t, side="left")], total

    hit_on, n_on = at_least(sep)
    hit_off, n_off = at_least(~sep)
    return DetCurve(
        thresholds=t,
        p_miss=np.asarray(rate(n_on - hit_on, np.full(len(t), n_on)), dtype=float),
        p_fa=np.asarray(rate(hit_off, np.full(len(t), n_off)), dtype=float),
        n_separated=n_on,
        n_joined=n_off,
    )


@dataclass(frozen=True, eq=False)
class ShardConfidence:
    """What the curves need of one shard of shows (joined by concatenation: :func:`join_confidence`).

    Attributes
    ----------
    score, accepted : ndarray
        Each hypothesis boundary's score and whether :func:`accepted` accepts it.
    n_reference : int
        Reference boundaries of the shard.
    probes : tuple of ndarray or None
        C_seg's probes (with units or frames) in runs, :func:`probe_counts`: whether the reference
        separates them, the highest score of the hypothesis boundaries in their gaps (``-inf``: none), and
        how many probes each run holds (:func:`tvseg.unit.probes.probe_counts`). None without units.
    """

    score: NDArray[np.float64]
    accepted: NDArray[np.bool_]
    n_reference: int
    probes: tuple[NDArray[np.bool_], NDArray[np.float64], NDArray[np.int64]] | None = None


@dataclass(frozen=True, eq=False)
class SystemConfidence:
    """A scored system's boundary curve and, with units or frames, its DET curve (``det`` None: ``note`` says why)."""

    curve: BoundaryCurve
    det: DetCurve | None
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        """The keys a scored system adds to the JSON: ``boundary_curve``, ``average_precision``,
        ``best_threshold_f1`` and, with units or frames, ``det_curve``."""
        out = self.curve.as_json()
        if self.det is not None:
            out["det_curve"] = self.det.as_json()
        return out

    def line(self, name: str) -> str:
        """One line of the summary."""
        c = self.curve
        best = "-" if math.isnan(c.best_f1) else f"{100 * c.best_f1:.1f} at score >= {c.best_threshold:g}"
        ap = "-" if math.isnan(c.average_precision) else f"{100 * c.average_precision:.1f}"
        text = f"{name}: boundary AP {ap}, best F {best} ({len(c.thresholds)} thresholds)"
        return text + (f"; {self.note}" if self.note else "")


def join_shard_confidence(parts: list[ShardConfidence | None]) -> ShardConfidence | None:
    """The shards' data joined as one shard's (None when a shard has none; ``probes`` None when a shard
    has none), from which :func:`join_confidence` gives the same curves."""
    if not parts or any(part is None for part in parts):
        return None
    shards = [part for part in parts if part is not None]
    runs = [part.probes for part in shards if part.probes is not None]
    return ShardConfidence(
        np.concatenate([part.score for part in shards]),
        np.concatenate([part.accepted for part in shards]),
        sum(part.n_reference for part in shards),
        None if len(runs) < len(shards) else tuple(np.concatenate([run[k] for run in runs]) for k in range(3)),  # type: ignore[arg-type]
    )


def join_confidence(parts: list[ShardConfidence | None]) -> SystemConfidence | None:
    """A system's curves from its shards' (None: the system has no scores)."""
    joined = join_shard_confidence(parts)
    if joined is None:
        return None
    c = curve(joined.score, joined.accepted, joined.n_reference)
    if joined.probes is None:
        return SystemConfidence(c, None, "no DET curve: C_seg's probes need units or frames")
    separated, top, counts = joined.probes
    return SystemConfidence(c, det_curve(separated, top, weights=counts, thresholds=c.thresholds))


def shard_confidence(p: Any, name: str, scores: Any, *, probe_runs: Any = None) -> ShardConfidence | None:
    """What the curves need of system ``name`` on the shows of ``p`` (:class:`tvseg.preparation.Prepared`),
    scored as ``scores`` (:class:`tvseg.retrieval.corpus.ShowScores`); None when its hypothesis has no score.

    ``probe_runs(p, hypothesis, start_scores)`` gives C_seg's probes in runs (:func:`tvseg.unit.probes.cseg_probe_runs`,
    passed in by the caller: the unit layer is beside this one); None: no DET curve."""
    given = getattr(p, "scores", {}).get(name)
    if given is None:
        return None
    seg_show, seg_start, seg_end, seg_score, end_score = given
    r_show, r_time, h_show, h_time = scores.boundaries
    b_score = boundary_scores(seg_show, seg_start, seg_end, seg_score, h_show, h_time, end_score=end_score)
    flags = accepted(r_show, r_time, h_show, h_time, b_score, tolerance=p.settings.tolerance)
    probes = None
    with_units = p.units is not None or p.settings.units == "frames"
    if probe_runs is not None and with_units and p.settings.convention != "chunkseg":
        hyp = p.systems[name]
        start_score = start_scores(seg_show, seg_start, seg_score, hyp.show, hyp.start)
        probes = probe_runs(p, hyp, start_score)
    return ShardConfidence(b_score, flags, len(r_time), probes)
