r"""Bidirectional coverage matching, CovN and CovD (Bouchekif et al., sections 3.1 to 3.3).

For a reference segment :math:`R_i`, its partner is the hypothesis segment :math:`H_j` that covers
most of it (largest overlap); for a hypothesis segment, the reference segment that covers most of it.
The one-way coverages are :math:`Cov_{R_i \to H_j} = |R_i \cap H_j| / d(R_i)` and
:math:`Cov_{H_j \to R_i} = |R_i \cap H_j| / d(H_j)`, and the bidirectional coverage is their
harmonic mean (equation 1), which simplifies to the Dice coefficient of the two intervals:

.. math::

    Cov_{R_i \leftrightarrow H_j}
    = \frac{2\, Cov_{R_i \to H_j}\, Cov_{H_j \to R_i}}{Cov_{R_i \to H_j} + Cov_{H_j \to R_i}}
    = \frac{2\, |R_i \cap H_j|}{d(R_i) + d(H_j)}.

A segment is correct when its coverage is **strictly greater** than :math:`\gamma` (the paper's
:math:`\varphi_\gamma`); a segment that overlaps no partner has coverage 0. The decision is made
exactly, without a division, on times in integer microseconds and gamma as the fraction of the
decimal written (:mod:`tvseg.exact`): :math:`2\,|R_i \cap H_j|\, q > p\,(d(R_i) + d(H_j))`
for :math:`\gamma = p/q`, so reference [0.01, 3.41] against hypothesis [0.01, 4.61], whose coverage
is 6.8 / 8 = 0.85 exactly, is not correct at gamma 0.85. Then

.. math::

    R_N = \frac{1}{N_R}\sum_i \varphi_\gamma(R_i), \quad
    P_N = \frac{1}{N_H}\sum_j \varphi_\gamma(H_j), \quad
    R_D = \frac{\sum_i d(R_i)\varphi_\gamma(R_i)}{\sum_i d(R_i)}, \quad
    P_D = \frac{\sum_j d(H_j)\varphi_\gamma(H_j)}{\sum_j d(H_j)},

and CovN, CovD are the harmonic means of :math:`(R_N, P_N)` and :math:`(R_D, P_D)`.

Ties (two partners with the same overlap) go to the partner with the larger bidirectional coverage
(the shorter one), then to the earlier one. For :math:`\gamma \ge 2/3` the correct pairs are mutual
best partners, so ``n_correct_reference == n_correct_hypothesis`` (as in the paper's section 5.3,
where 583 correct segments give both :math:`R_N = 583/997` and :math:`P_N = 583/1056`).

Cost: both sides are sorted and disjoint, so the overlapping pairs are found by two lexicographic
searches and number at most :math:`N_R + N_H - 1`; no all-pairs matrix is built. One show of a few
segments, as :func:`tvseg.coverage` scores it, costs more in numpy calls (a microsecond each) than in
arithmetic: :func:`tvseg.coverage` scores a show of at most :data:`SMALL_SHOW` segments a side in Python
integers (:func:`small_components`, the same pairs, tie rule, verdicts and sums; the tests check its
components equal the corpus kernel's).

References
----------
A. Bouchekif, D. Charlet, G. Damnati, N. Camelin, Y. Estève. Evaluating automatic topic segmentation
as a segment retrieval task. Interspeech 2015.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tvseg.columns import Segmentation, Segments, _labelled
from tvseg.errors import UsageError
from tvseg.exact import _INT64_SAFE, MAX_SECONDS, TICKS_PER_SECOND, above, ratio, ticks
from tvseg.pyannote_objects import is_annotation
from tvseg.retrieval.chapters import overlapping_pairs

__all__ = ["Matching", "Partners", "match", "check_gamma", "correct", "SmallShow", "small_show", "small_components"]


@dataclass(frozen=True, eq=False)
class Partners:
    """The best partner of every segment of one side (index into the other side, -1 for none).

    ``overlap_ticks`` is the overlap with it and ``span_ticks`` the segment's own duration plus the
    partner's (0 without a partner), in integer microseconds: the bidirectional coverage is
    ``2 * overlap_ticks / span_ticks``, decided exactly by :meth:`correct`.
    """

    partner: np.ndarray
    overlap_ticks: np.ndarray
    span_ticks: np.ndarray

    @property
    def overlap(self) -> np.ndarray:
        """The overlap in seconds."""
        seconds: np.ndarray = self.overlap_ticks / TICKS_PER_SECOND
        return seconds

    @property
    def coverage(self) -> np.ndarray:
        """The bidirectional coverage with the best partner as floats (0 without one)."""
        out = np.zeros(len(self.span_ticks))
        has = self.span_ticks > 0
        out[has] = 2.0 * self.overlap_ticks[has] / self.span_ticks[has]
        return out

    def correct(self, gamma: float) -> np.ndarray:
        """Which segments are correct at ``gamma`` (coverage strictly above it), decided exactly
        (:func:`tvseg.exact.above`)."""
        # 0 <= 2 |R n H| <= d(R) + d(H): the spans bound both sides; they are scanned only when
        # the bound on every span could overflow int64 with this gamma's fraction
        largest = _LARGEST_SPAN
        threshold = ratio(gamma)
        if largest * max(threshold.numerator, threshold.denominator) >= _INT64_SAFE:
            largest = int(np.maximum.reduce(self.span_ticks, initial=0))
        verdict: np.ndarray = above(2 * self.overlap_ticks, self.span_ticks, threshold, largest=largest)
        return verdict


@dataclass(frozen=True, eq=False)
class Matching:
    """Best partners of every segment of both sides: ``reference`` (partners in the hypothesis) and
    ``hypothesis`` (partners in the reference)."""

    reference: Partners
    hypothesis: Partners

    @property
    def reference_partner(self) -> np.ndarray:
        return self.reference.partner

    @property
    def hypothesis_partner(self) -> np.ndarray:
        return self.hypothesis.partner


_LARGEST_SPAN = 4 * int(MAX_SECONDS) * TICKS_PER_SECOND
"""A bound on the span of two segments in ticks (every time is within ``[-MAX_SECONDS, MAX_SECONDS]``)."""

_SMALL = 256
"""Pairs up to which :func:`_best` sorts them rather than reading them as runs."""
_INT64_MAX = np.iinfo(np.int64).max


def _best(
    group: np.ndarray, overlap: np.ndarray, partner_duration: np.ndarray, partner: np.ndarray, duration: np.ndarray
) -> Partners:
    """Per group (one of the ``len(duration)`` segments of a side, of these ``duration``), the pair
    with the largest overlap (then the shortest partner, then the first); overlaps and durations in
    integer microseconds, so ties are exact."""
    n = len(duration)
    if len(group) == 0:
        return Partners(np.full(n, -1, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))
    step = np.diff(group) if len(group) > _SMALL else None
    if step is not None and (step >= 0).all() and (np.diff(partner)[step == 0] > 0).all():
        # groups are contiguous runs, partners increasing within a run (as match() builds them):
        # per run, the largest overlap, then among those the shortest partner, then the first
        starts = np.flatnonzero(np.concatenate(([True], step != 0)))
        run = np.diff(np.append(starts, len(group)))
        best = overlap == np.repeat(np.maximum.reduceat(overlap, starts), run)
        shortest = np.where(best, partner_duration, _INT64_MAX)
        best &= shortest == np.repeat(np.minimum.reduceat(shortest, starts), run)
        chosen = np.flatnonzero(best)
        first = np.ones(len(chosen), dtype=bool)
        first[1:] = group[chosen[1:]] != group[chosen[:-1]]
        chosen = chosen[first]
    else:  # (few pairs, as one show has: one sort costs less than the runs' dozen array operations)
        order = np.lexsort((partner, partner_duration, -overlap, group))
        g = group[order]
        first = np.empty(len(g), dtype=bool)
        first[0] = True
        np.not_equal(g[1:], g[:-1], out=first[1:])
        chosen = order[first]
    if len(chosen) == n:  # every segment has a partner (chosen in group order): no scatter
        return Partners(partner[chosen], overlap[chosen], duration + partner_duration[chosen])
    owner = group[chosen]
    best_partner = np.full(n, -1, dtype=np.int64)
    best_overlap = np.zeros(n, dtype=np.int64)
    span = np.zeros(n, dtype=np.int64)
    best_partner[owner] = partner[chosen]
    best_overlap[owner] = overlap[chosen]
    span[owner] = duration[owner] + partner_duration[chosen]
    return Partners(best_partner, best_overlap, span)


def match(reference: Segments, hypothesis: Segments) -> Matching:
    """Best partners and bidirectional coverages of every segment of a corpus (both sides sorted).

    The overlapping pairs are :func:`tvseg.retrieval.chapters.overlapping_pairs`' (two lexicographic
    searches), sorted by reference and by hypothesis alike.
    """
    pair_ref, pair_hyp, overlap, _ = overlapping_pairs(reference, hypothesis, union=False)
    region = reference.region
    if region is not None:  # |R n H n U|; a pair that meets only in a gap is no pair
        low = np.maximum(reference.start_ticks[pair_ref], hypothesis.start_ticks[pair_hyp])
        overlap = region.measure(reference.show[pair_ref], low, low + overlap)
        meet = overlap > 0
        pair_ref, pair_hyp, overlap = pair_ref[meet], pair_hyp[meet], overlap[meet]
    d_ref, d_hyp = reference.duration_ticks, hypothesis.duration_ticks
    return Matching(
        _best(pair_ref, overlap, d_hyp[pair_hyp], pair_hyp, d_ref),
        _best(pair_hyp, overlap, d_ref[pair_ref], pair_ref, d_hyp),
    )


def correct(matching: Matching, gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """Which reference and hypothesis segments are correct at ``gamma`` (:meth:`Partners.correct`)."""
    return matching.reference.correct(gamma), matching.hypothesis.correct(gamma)


def check_gamma(gamma: object) -> float:
    if isinstance(gamma, bool) or not isinstance(gamma, (int, float)) or not 0.0 <= gamma <= 1.0:
        raise UsageError(f"gamma must be a number in [0, 1], got {gamma!r}")
    return float(gamma)


SMALL_SHOW = 128
"""Segments per side up to which :func:`tvseg.coverage` scores a show in Python integers
(:func:`small_components`): up to about 120, its loops cost less than the corpus kernel's numpy calls."""


@dataclass(frozen=True, eq=False)
class SmallShow:
    """One show read for the per-show functions' Python path (:func:`small_show`).

    Attributes
    ----------
    reference, hypothesis : list of [int, int]
        Each side's ``[start, end]`` in ticks.
    bounds, in_ticks : ndarray
        Both sides' ``(start, end)`` rows, the reference's first, in seconds and in ticks.
    labels : tuple
        Each side's labels (None for pairs), for :meth:`segments`.
    """

    reference: list[list[int]]
    hypothesis: list[list[int]]
    bounds: np.ndarray
    in_ticks: np.ndarray
    labels: tuple[Any, Any]

    def segments(self) -> tuple[Segments, Segments, Matching]:
        """Both sides as :class:`~tvseg.columns.Segments` (as the corpus path reads them) and their
        matching, for the match table."""
        n = len(self.reference)
        sides = []
        for bounds, labels in ((self.bounds[:n], self.labels[0]), (self.bounds[n:], self.labels[1])):
            label = np.empty(len(bounds), dtype=object)
            if labels is not None:
                label[:] = labels
            show = np.zeros(len(bounds), dtype=np.int64)
            sides.append(Segments(show=show, start=bounds[:, 0], end=bounds[:, 1], label=label, n_shows=1))
        return sides[0], sides[1], match(sides[0], sides[1])


def small_show(reference: Segmentation, hypothesis: Segmentation, *, limit: int | None = None) -> SmallShow | None:
    """Both sides of one show in ticks when the Python path (:func:`small_components`,
    :func:`tvseg.retrieval.boundaries.small_pairs`) can score them as they are given, else None (the
    corpus path then reads them: to sort, to crop, or to say what is wrong).

    They can when each side is an ``(n, 2)`` array, a sequence of pairs or an Annotation (one label a
    segment) of 1 to ``limit`` (default :data:`SMALL_SHOW`) segments given in order, disjoint, within
    :data:`~tvseg.exact.MAX_SECONDS`, each at least a microsecond long (the checks of
    :func:`tvseg.columns.check`, which then pass), and the hypothesis lies within the reference's extent
    (the evaluated region, so nothing is cropped).
    """
    if limit is None:
        limit = SMALL_SHOW
    arrays = []
    labels = []
    for side in (reference, hypothesis):
        if isinstance(side, (np.ndarray, list, tuple)):
            try:
                bounds = np.array(side, dtype=float)
            except (TypeError, ValueError):
                return None
            label = None
        elif is_annotation(side):
            read = _labelled(side, inserted=True)
            if read is None:
                return None
            segments, label = read
            if not 0 < len(segments) <= limit:
                return None
            # (two lists read faster than one of pairs)
            bounds = np.array([[s.start for s in segments], [s.end for s in segments]], dtype=float).T
        else:
            return None
        if bounds.ndim != 2 or bounds.shape[1] != 2 or not 0 < len(bounds) <= limit:
            return None
        arrays.append(bounds)
        labels.append(label)
    both = np.concatenate(arrays)
    times = both.ravel()
    middle = 2 * len(arrays[0])
    # each side's starts and ends in one nondecreasing sequence (NaN is in no order): in order and
    # disjoint, every time between its side's first start and last end
    ordered = times[1:] >= times[:-1]
    ordered[middle - 1] = True  # (from the reference's last end to the hypothesis's first start)
    if np.count_nonzero(ordered) < len(ordered):
        return None
    if not (-MAX_SECONDS <= times[0] and times[middle - 1] <= MAX_SECONDS):
        return None
    if not (-MAX_SECONDS <= times[middle] and times[-1] <= MAX_SECONDS):
        return None
    in_ticks = ticks(both)
    if np.count_nonzero(in_ticks[:, 1] <= in_ticks[:, 0]):  # shorter than a microsecond
        return None
    pairs = in_ticks.tolist()
    ref, hyp = pairs[: middle // 2], pairs[middle // 2 :]
    if hyp[0][0] < ref[0][0] or hyp[-1][1] > ref[-1][1]:  # past the reference's extent: to crop
        return None
    return SmallShow(ref, hyp, both, in_ticks, (labels[0], labels[1]))


def small_components(reference: list[list[int]], hypothesis: list[list[int]], gamma: float) -> dict[str, float]:
    """:func:`tvseg.retrieval.corpus.coverage_components` of one show (no length class) in Python
    integers: both sides' ``[start, end]`` in ticks, sorted, disjoint, non-empty, the hypothesis
    within the reference's extent (:func:`small_show`).

    The overlapping pairs are met in one merge of both sides (the side whose segment ends first moves
    on), each side's partners in increasing order, so a strictly larger overlap, or an equal one with a
    strictly shorter partner, replaces the best partner: the tie rule of :func:`match`. The verdicts are
    :meth:`Partners.correct`'s, ``2 |R n H| q > p (d(R) + d(H))``; the durations are summed one by one
    from the first, as the corpus kernel sums one show.
    """
    n, m = len(reference), len(hypothesis)
    best_r, partner_r = [0] * n, [0] * n  # overlap with the best partner, the partner's duration
    best_h, partner_h = [0] * m, [0] * m
    i = j = 0
    while i < n and j < m:
        rs, re_ = reference[i]
        hs, he = hypothesis[j]
        overlap = (re_ if re_ < he else he) - (rs if rs > hs else hs)
        if overlap > 0:
            d_r, d_h = re_ - rs, he - hs
            if overlap > best_r[i] or (overlap == best_r[i] and d_h < partner_r[i]):
                best_r[i], partner_r[i] = overlap, d_h
            if overlap > best_h[j] or (overlap == best_h[j] and d_r < partner_h[j]):
                best_h[j], partner_h[j] = overlap, d_r
        if re_ <= he:
            i += 1
        if he <= re_:
            j += 1
    threshold = ratio(gamma)
    p, q = threshold.numerator, threshold.denominator
    out: dict[str, float] = {"n_reference": float(n), "n_hypothesis": float(m)}
    sums = []
    for side, best, partner in ((reference, best_r, partner_r), (hypothesis, best_h, partner_h)):
        n_correct = 0
        duration = correct_duration = 0.0
        for (start, end), overlap, other in zip(side, best, partner):
            seconds = (end - start) / TICKS_PER_SECOND
            duration += seconds
            # a segment without a partner has overlap 0 and is not correct (2 * 0 * q > p * d is false)
            if 2 * overlap * q > p * (end - start + other):
                n_correct += 1
                correct_duration += seconds
        sums.append((float(n_correct), duration, correct_duration))
    (out["n_correct_reference"], out["duration_reference"], out["duration_correct_reference"]) = sums[0]
    (out["n_correct_hypothesis"], out["duration_hypothesis"], out["duration_correct_hypothesis"]) = sums[1]
    return out
