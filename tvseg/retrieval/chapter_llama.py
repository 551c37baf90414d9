r"""Chapter-Llama's numbers: F1 over tIoU 0.50:0.05:0.95, average tIoU, chapter-count error.

Chapter-Llama (Ventura et al., CVPR 2025) scores a video's predicted chapters with the code of its
repository's ``tools/results/`` (https://github.com/lucas-ventura/chapter-llama, read at commit
``d19a77ef``): ``print_exp_metrics`` (``tools/results/utils_print.py``) calls
``MetricsExperiment.compute_metrics_overlap`` (``tools/results/metrics.py``), which hands the videos'
segments to the class ``OverlapMetrics`` of ``tools/results/metrics_overlap.py``:
``compute_avg_thresholds`` (F1), ``compute_avg_optimal`` with ``compute_vid_avg_optimal`` and
``vid_overlap_optimal_assignment`` (average tIoU), ``evaluate_chapter_count`` (MAE and the shares
under / equal / over), all on ``iou``, ``get_vid_overlaps`` and ``vid_overlap_threshold_assignment``.
This module computes them **as that code does**, in the same floating-point operations.

**Chapters.** Chapter-Llama's chapters are start times: each chapter ends where the next one starts,
the last one at the video's duration (``Chapters.get_chapters(segments=True)`` for the reference,
``Chapters.get_pred_segments`` for a prediction, ``src/data/chapters.py``), and ``OverlapMetrics``
adds a chapter from 0 to the first start when the first start is not 0. tvseg does the same on each
side's segments: a show's chapters are its segments' starts, each chapter ending at the next start
(a gap after a segment belongs to it), the last at the end of the show's evaluated region, with a
chapter from the region's start (Chapter-Llama's 0) to the first start when the first segment starts
later. When the segments tile the region (VidChapters' annotations read by tvseg), the chapters are
the segments. Times are the segments' seconds (floats, as Chapter-Llama's ``hms_to_sec`` gives them).

**tIoU** (``iou``): ``intersection / (union + 1e-8)`` with ``intersection = max(0, min(e) - max(s))``
and ``union = min(max(e) - min(s), e_1 - s_1 + e_2 - s_2)`` (reference first), in floats.
``get_vid_overlaps`` keeps the pairs of a reference and a predicted chapter whose tIoU is above 0.

**F1** (``compute_avg_thresholds``): for each threshold :math:`t` of ``np.arange(0.5, 0.95 + 0.05,
0.05)`` (:data:`CL_TIOU_THRESHOLDS`: ten floats, 0.5 to 0.9500000000000004), the pairs with
:math:`tIoU \ge t` (``vid_overlap_threshold_assignment``: ``overlap >= threshold``; not one to one);
per video :math:`P_t` = predicted chapters in some such pair / ``max(#predicted, 1)``, :math:`R_t` =
reference chapters in some such pair / #reference, :math:`F_t = 2 (P_t R_t) / (P_t + R_t)` (0 when
both are 0; ``PRFMetric.update``); each :math:`F_t` averaged over the videos, then those averages over
the thresholds. The same as the mean over videos of each video's mean over thresholds: the component
per show ``cl_f1_sum`` is that mean, ``cl_f1`` its mean over shows. Because of the ``+ 1e-8``, a tIoU of
exactly 0.5 falls below the threshold 0.5.

**Average tIoU** (``compute_avg_optimal``): per video, the pairs with tIoU above 0 sorted by tIoU,
highest first (ties in the order of (reference, prediction): Python's stable sort), taken greedily
one to one (``vid_overlap_optimal_assignment``), and the mean tIoU of the pairs taken; then the mean
over videos. (Greedy, not a maximum-weight matching; the mean is over the pairs taken, not over the
reference chapters.)

**Chapter count** (``evaluate_chapter_count``): per video :math:`e = n_{ref} - n_{pred}` on the chapters
above (the added first chapter included); ``chapter_count_mae`` is the mean of :math:`|e|`,
``chapter_count_under`` the share of videos with :math:`e > 0` (fewer chapters predicted: Chapter-Llama's
"under"), ``chapter_count_equal`` with :math:`e = 0`, ``chapter_count_over`` with :math:`e < 0`. It equals
tvseg's ``chapter_count_error`` (the segments counted as they are) except where a side's first segment
starts after the region's start, which Chapter-Llama's rule counts as one more chapter.

**Averaging.** Every corpus value is the mean over shows (videos) with a reference segment, as
Chapter-Llama averages over videos: components per show summed and divided by ``chapter_n_shows``
(:mod:`tvseg.retrieval.chapters`).

**Differences from the code**, all outside the values it produces:

- Chapter-Llama reports percentages rounded to two decimals (``round(..., 2)``); tvseg gives fractions,
  unrounded. It accumulates the per-video P, R, F in ``float32`` torch tensors (``PRFMetric``); tvseg in
  ``float64`` (the two agree to about 1e-6 relative, under that rounding).
- A show without a predicted chapter: the code fails on it (``vid2preds[vid_id][0][0]``); tvseg gives it
  F1 0 and average tIoU 0 (nothing matched), and counts its error :math:`n_{ref}` (under), as
  VidChapters' metrics count an empty prediction (:mod:`tvseg.retrieval.chapters`).
- A show without a reference segment (the code would divide by zero) is left out (NaN).
- Overlapping predictions (:data:`tvseg.metrics.DISJOINT`) are not chapters: not scored here.
"""

from __future__ import annotations

import numpy as np

from tvseg.columns import Segments
from tvseg.exact import ticks
from tvseg.retrieval.chapters import overlapping_pairs

__all__ = [
    "CL_TIOU_THRESHOLDS",
    "CHAPTER_LLAMA_KEYS",
    "chapter_llama_chapters",
    "chapter_llama_iou",
    "chapter_llama_components",
]

_STEP = 0.05
CL_TIOU_THRESHOLDS: tuple[float, ...] = tuple(np.arange(0.5, 0.95 + _STEP, _STEP).tolist())
"""Chapter-Llama's thresholds, the floats ``np.arange(0.5, 0.95 + 0.05, 0.05)`` of
``OverlapMetrics.compute_avg_thresholds`` (0.5, 0.55, 0.6000000000000001, ..., 0.9500000000000004)."""

CHAPTER_LLAMA_KEYS = (
    "cl_f1",
    "cl_avg_tiou",
    "chapter_count_mae",
    "chapter_count_under",
    "chapter_count_equal",
    "chapter_count_over",
)
"""The registry keys of this module's metrics."""

_EPS = 1e-8  # iou()'s "to avoid zero division"


def chapter_llama_chapters(side: Segments, origin: np.ndarray, end: np.ndarray) -> Segments:
    """Chapter-Llama's chapters of one side (module docstring): every segment's start, each chapter ending
    at the next start of its show, the last at ``end[show]``; a chapter from ``origin[show]`` to the first
    start where the first segment starts after it.

    Parameters
    ----------
    side : Segments
        Sorted by (show, start), disjoint within a show.
    origin, end : ndarray of float
        Per show, the evaluated region's start and end in seconds.
    """
    show, start = side.show, np.asarray(side.start, dtype=float)
    n = len(show)
    first = np.ones(n, dtype=bool)
    first[1:] = show[1:] != show[:-1]
    # a show without a region (NaN: no reference, no UEM) adds no chapter and ends at its last segment's end
    has_origin = np.isfinite(origin)
    origin = np.where(has_origin, origin, 0.0)
    region_end = np.asarray(end, dtype=float).copy()
    last_end = np.zeros(side.n_shows)
    np.maximum.at(last_end, show, np.asarray(side.end, dtype=float))  # disjoint: the last segment's end
    region_end[~np.isfinite(region_end)] = last_end[~np.isfinite(region_end)]
    added = first & has_origin[show] & (side.start_ticks > ticks(origin[show]))
    # the added chapters go before their show's first start: insert at those positions
    at = np.flatnonzero(added)
    new_show = np.insert(show, at, show[at])
    new_start = np.insert(start, at, origin[show[at]])
    new_end = np.empty(len(new_start))
    same = new_show[1:] == new_show[:-1]
    new_end[:-1] = np.where(same, new_start[1:], region_end[new_show[:-1]])
    if len(new_end):
        new_end[-1] = region_end[new_show[-1]]
    label = np.full(len(new_start), None, dtype=object)
    return Segments(show=new_show, start=new_start, end=new_end, label=label, n_shows=side.n_shows)


def chapter_llama_iou(ref_start, ref_end, hyp_start, hyp_end) -> np.ndarray:
    """``iou(ref, pred)`` of ``metrics_overlap.py``, elementwise, in the code's float operations."""
    s_1, e_1, s_2, e_2 = (np.asarray(a, dtype=float) for a in (ref_start, ref_end, hyp_start, hyp_end))
    intersection = np.maximum(0.0, np.minimum(e_1, e_2) - np.maximum(s_1, s_2))
    union = np.minimum(np.maximum(e_1, e_2) - np.minimum(s_1, s_2), e_1 - s_1 + e_2 - s_2)
    result: np.ndarray = intersection / (union + _EPS)
    return result


def _greedy_mean(show: np.ndarray, pair_ref, pair_hyp, iou, n_shows: int) -> tuple[np.ndarray, np.ndarray]:
    """Per show, the sum and the number of the tIoUs of ``vid_overlap_optimal_assignment``'s pairs:
    highest tIoU first, ties by (reference, prediction), a pair taken when neither side is taken yet.

    The pairs in that order are a strict order, so the greedy choice is made in rounds on the arrays: a pair
    that comes first among the pairs left of its reference and among those of its prediction is taken by the
    greedy scan (every pair before it that it could clash with is gone), and the pairs that share a side with
    one taken are dropped. A round takes at least the first pair left; after :data:`_ROUNDS` rounds, or a round
    that left 7/8 of the pairs (chains of pairs each taken before the next), the pairs left are scanned one by
    one."""
    order = np.lexsort((pair_hyp, pair_ref, -iou))
    chosen = np.zeros(len(iou), dtype=bool)
    left = order  # the pairs neither of whose sides is taken, in the greedy order
    refs = np.zeros(int(pair_ref.max()) + 1 if len(pair_ref) else 0, dtype=bool)
    hyps = np.zeros(int(pair_hyp.max()) + 1 if len(pair_hyp) else 0, dtype=bool)
    first_ref = np.empty(len(refs), dtype=np.int64)
    first_hyp = np.empty(len(hyps), dtype=np.int64)
    for _ in range(_ROUNDS):
        if not len(left):
            break
        r, h = pair_ref[left], pair_hyp[left]
        position = np.arange(len(left))
        first_ref.fill(len(left))
        first_hyp.fill(len(left))
        np.minimum.at(first_ref, r, position)
        np.minimum.at(first_hyp, h, position)
        taken = (first_ref[r] == position) & (first_hyp[h] == position)
        chosen[left[taken]] = True
        refs[r[taken]] = True
        hyps[h[taken]] = True
        before = len(left)
        left = left[~(refs[r] | hyps[h])]
        if 8 * (before - len(left)) < before:  # long chains: the scan below is quicker
            break
    taken_ref: set[int] = set()
    taken_hyp: set[int] = set()
    for k, r, h in zip(left.tolist(), pair_ref[left].tolist(), pair_hyp[left].tolist()):
        if r not in taken_ref and h not in taken_hyp:
            taken_ref.add(r)
            taken_hyp.add(h)
            chosen[k] = True
    total = np.bincount(show[chosen], weights=iou[chosen], minlength=n_shows)
    count = np.bincount(show[chosen], minlength=n_shows).astype(float)
    return total, count


def _covered(show: np.ndarray, pair_side: np.ndarray, iou: np.ndarray, n: int, n_shows: int) -> np.ndarray:
    """``(n_shows, len(CL_TIOU_THRESHOLDS))``: per show and threshold ``t``, how many of the side's ``n``
    segments have a pair with ``iou >= t`` (``vid_overlap_threshold_assignment``: overlap >= threshold), i.e.
    whose best tIoU is at least ``t``: each segment's best tIoU placed once among the thresholds."""
    best = np.zeros(n)
    np.maximum.at(best, pair_side, iou)
    width = len(CL_TIOU_THRESHOLDS) + 1
    passed = np.searchsorted(np.asarray(CL_TIOU_THRESHOLDS), best, side="right")  # thresholds <= best
    table = np.bincount(show * width + passed, minlength=n_shows * width).reshape(n_shows, width)
    return table[:, ::-1].cumsum(axis=1)[:, ::-1][:, 1:]  # column k: passed > k


_ROUNDS = 16
"""Rounds of :func:`_greedy_mean` on the arrays before the pairs left are scanned one by one."""


def chapter_llama_components(
    reference: Segments, hypothesis: Segments, n_shows: int, origin: np.ndarray, end: np.ndarray
) -> dict[str, np.ndarray]:
    """Per-show components of Chapter-Llama's metrics (arrays of length ``n_shows``; 0 for a show without a
    reference segment, which ``chapter_n_shows`` leaves out).

    ``cl_f1_sum`` (the show's mean over :data:`CL_TIOU_THRESHOLDS` of its F1), ``cl_avg_tiou_sum`` (the mean
    tIoU of its greedy one-to-one pairs), ``cl_count_abs_error`` (:math:`|n_{ref} - n_{pred}|` in chapters),
    ``cl_count_under``, ``cl_count_equal``, ``cl_count_over`` (1 for the show's case, else 0).
    ``origin`` and ``end``: each show's evaluated region in seconds.
    """
    ref = chapter_llama_chapters(reference, origin, end)
    hyp = chapter_llama_chapters(hypothesis, origin, end)
    n_ref = np.bincount(ref.show, minlength=n_shows).astype(float)
    n_hyp = np.bincount(hyp.show, minlength=n_shows).astype(float)
    scored = np.bincount(reference.show, minlength=n_shows) > 0
    pair_ref, pair_hyp, _, _ = overlapping_pairs(ref, hyp, union=False)
    iou = chapter_llama_iou(ref.start[pair_ref], ref.end[pair_ref], hyp.start[pair_hyp], hyp.end[pair_hyp])
    positive = iou > 0  # get_vid_overlaps: "if iou_ij > 0"
    pair_ref, pair_hyp, iou = pair_ref[positive], pair_hyp[positive], iou[positive]
    pair_show = ref.show[pair_ref]
    ref_den = np.where(n_ref > 0, n_ref, 1.0)
    hyp_den = np.maximum(n_hyp, 1.0)  # max(len(vid_preds), 1)
    covered_ref = _covered(ref.show, pair_ref, iou, len(ref), n_shows)
    covered_hyp = _covered(hyp.show, pair_hyp, iou, len(hyp), n_shows)
    f1_total = np.zeros(n_shows)
    for k in range(len(CL_TIOU_THRESHOLDS)):
        p = covered_hyp[:, k] / hyp_den
        r = covered_ref[:, k] / ref_den
        both = p + r
        f1_total += np.where(both > 0, 2 * (p * r) / np.where(both > 0, both, 1.0), 0.0)
    total, count = _greedy_mean(pair_show, pair_ref, pair_hyp, iou, n_shows)
    error = n_ref - n_hyp
    zero = np.zeros(n_shows)
    return {
        "cl_f1_sum": np.where(scored, f1_total / len(CL_TIOU_THRESHOLDS), zero),
        "cl_avg_tiou_sum": np.where(scored & (count > 0), total / np.maximum(count, 1.0), zero),
        "cl_count_abs_error": np.where(scored, np.abs(error), zero),
        "cl_count_under": (scored & (error > 0)).astype(float),
        "cl_count_equal": (scored & (error == 0)).astype(float),
        "cl_count_over": (scored & (error < 0)).astype(float),
    }
