r"""Chapter grounding (VidChapters-7M's third task): given a chapter's title, find the chapter.

VidChapters-7M (Yang et al., NeurIPS 2023 Datasets and Benchmarks, section 4.3) reports, for a model that
gets each reference chapter's title and returns one segment for it, **R@1** at tIoU 0.3, 0.5, 0.7 and 0.9
and R@1 **within 1, 3, 5 and 10 s** of the chapter's start. Their code (https://github.com/antoyang/VidChapters,
read at commit ``fa3900c6``): ``compute_mr_r1`` in ``moment_detr/standalone_eval/eval.py`` (the evaluation of
its trained model, Moment-DETR), with ``compute_temporal_iou_batch_paired`` of
``moment_detr/standalone_eval/utils.py``:

- a query's prediction is its first window; its tIoU with the query's window is
  ``intersection / (max(ends) - min(starts))`` (0 when that is 0), and R@1 at :math:`t` is the share of
  queries with :math:`tIoU \ge t` (``pred_gt_iou >= thd``, the thresholds written with two decimals);
- R@1 within :math:`d` seconds is the share of queries whose predicted start is at most :math:`d` from the
  chapter's start (``np.abs(pred_start - gt_start) <= dist``, ``dists=[1, 3, 5, 10]``);
- the shares are over all queries of the split (``np.mean`` over queries): pooled, not averaged by video.

Here the **corpus** value is that pooled share (the hits of all shows over their queries), a show's value
its own share, the macro value the mean of the shows' shares. tvseg decides :math:`tIoU \ge t` exactly
(:math:`|H \cap R|\, q \ge p\, (\max e - \min s)` in integer microseconds, :mod:`tvseg.exact`) and the
distance in integer microseconds; on times that floats hold exactly the code's float test agrees (a
ratio equal to the threshold divides to the threshold's float), on decimal times its subtraction may
put a distance of exactly :math:`d` on either side.

VidChapters' zero-shot baselines (``zs_vcgr.py``, ``evaluate_detection`` and ``evaluate_navigation``) test
``iou > tiou`` with ``+ 1e-8`` in the union and ``abs(pred[0] - gt[0]) < dist``: strict, where
``compute_mr_r1`` is not. The two differ only at a tIoU equal to a threshold or a start exactly
:math:`d` seconds away (frequent on whole seconds: a start 3 s off counts within 3 s here, not there).

**Input: one segment per reference title.** The queries are a show's reference segments that carry a
title (:func:`tvseg.retrieval.titles.has_title`). A system is scored for grounding when it has a segment
and, in every show where it has segments, its segments' titles are exactly the titles of that show's
queries (the same strings, each as many times): e.g. ActivityNet-style predictions
(``{"results": {video: [{"timestamp": [s, e], "sentence": title}, ...]}}``, one entry per reference chapter,
its ``sentence`` the reference chapter's title), the segments free to overlap. The :math:`k`-th query
titled :math:`T` in time order is answered by the :math:`k`-th segment titled :math:`T` in the order of
(start, end). A show without any segment of the system answers none of its queries (each a miss; the code
fails on a missing query). Any other system (a chaptering with its own titles) gets no grounding values.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from tvseg.columns import Segments
from tvseg.exact import ratio, tick
from tvseg.metrics import threshold_tag
from tvseg.retrieval.titles import has_title

__all__ = [
    "GROUNDING_IOU_THRESHOLDS",
    "GROUNDING_DISTANCES",
    "GROUNDING_KEYS",
    "GROUNDING_COMPONENTS",
    "grounding_pairs",
    "grounding_components",
]

GROUNDING_IOU_THRESHOLDS = (0.3, 0.5, 0.7, 0.9)
"""The tIoU thresholds of VidChapters' grounding table (``compute_mr_r1`` computes 0.3 to 0.95)."""
GROUNDING_DISTANCES = (1, 3, 5, 10)
"""Seconds: ``compute_mr_r1(dists=[1, 3, 5, 10])``."""
GROUNDING_KEYS = (
    *(f"grounding_r1_iou_{threshold_tag(t)}" for t in GROUNDING_IOU_THRESHOLDS),
    *(f"grounding_r1_{d}s" for d in GROUNDING_DISTANCES),
)
"""The registry keys: R@1 at each threshold, then within each distance."""
GROUNDING_COMPONENTS = (
    "grounding_n_queries",
    *(f"grounding_hits_iou_{threshold_tag(t)}" for t in GROUNDING_IOU_THRESHOLDS),
    *(f"grounding_hits_{d}s" for d in GROUNDING_DISTANCES),
)
"""Per show: its queries and, for each key, the queries answered within it."""


def _occurrences(show: np.ndarray, title: np.ndarray) -> np.ndarray:
    """For each row, how many rows before it have the same (show, title): its rank among them."""
    frame = pd.DataFrame({"show": show, "title": title})
    return frame.groupby(["show", "title"], sort=False).cumcount().to_numpy()


def grounding_pairs(reference: Segments, hypothesis: Segments) -> tuple[np.ndarray, np.ndarray] | None:
    """The queries and their answers, or None when ``hypothesis`` is not a grounding submission.

    Returns
    -------
    queries : ndarray of int64
        Indices into ``reference`` of the titled segments (every query).
    answer : ndarray of int64
        For each query, the index into ``hypothesis`` of its answer, -1 where its show has no segment.
    """
    if len(hypothesis) == 0 or not all(map(has_title, hypothesis.label)):
        return None
    titled = np.fromiter(map(has_title, reference.label), dtype=bool, count=len(reference))
    queries = np.flatnonzero(titled)
    q_show, q_title = reference.show[queries], reference.label[queries].astype(str)
    h_show, h_title = hypothesis.show, hypothesis.label.astype(str)
    n_answers = np.bincount(h_show, minlength=reference.n_shows)
    answered = n_answers > 0
    if (n_answers[answered] != np.bincount(q_show, minlength=reference.n_shows)[answered]).any():
        return None  # a show with more or fewer segments than titles: no title-by-title comparison needed
    asked = Counter(zip(q_show[answered[q_show]].tolist(), q_title[answered[q_show]].tolist()))
    if asked != Counter(zip(h_show.tolist(), h_title.tolist())):
        return None
    h_order = np.lexsort((hypothesis.end, hypothesis.start, h_show))
    h_rank = np.empty(len(h_order), dtype=np.int64)
    h_rank[h_order] = _occurrences(h_show[h_order], h_title[h_order])
    q_rank = _occurrences(q_show, q_title)
    index = {key: j for j, key in enumerate(zip(h_show.tolist(), h_title.tolist(), h_rank.tolist()))}
    answer = np.array(
        [index.get(key, -1) for key in zip(q_show.tolist(), q_title.tolist(), q_rank.tolist())], dtype=np.int64
    )
    return queries.astype(np.int64), answer


def grounding_components(reference: Segments, hypothesis: Segments, n_shows: int) -> dict[str, np.ndarray]:
    """Per-show components :data:`GROUNDING_COMPONENTS` (none when ``hypothesis`` is not a grounding
    submission, :func:`grounding_pairs`)."""
    found = grounding_pairs(reference, hypothesis)
    if found is None:
        return {}
    queries, answer = found
    show = reference.show[queries]
    has = answer >= 0
    a = np.where(has, answer, 0)
    rs, re_ = reference.start_ticks[queries], reference.end_ticks[queries]
    hs, he = hypothesis.start_ticks[a], hypothesis.end_ticks[a]
    intersection = np.maximum(np.minimum(re_, he) - np.maximum(rs, hs), 0)
    union = np.maximum(re_, he) - np.minimum(rs, hs)  # compute_temporal_iou_batch_paired's union
    comp = {"grounding_n_queries": np.bincount(show, minlength=n_shows).astype(float)}
    for t in GROUNDING_IOU_THRESHOLDS:
        p, q = ratio(t).numerator, ratio(t).denominator
        hit = has & (intersection * q >= p * union)  # pred_gt_iou >= thd; times < 2**51 us: no overflow
        comp[f"grounding_hits_iou_{threshold_tag(t)}"] = np.bincount(show[hit], minlength=n_shows).astype(float)
    for d in GROUNDING_DISTANCES:
        hit = has & (np.abs(hs - rs) <= tick(d))  # np.abs(pred_start - gt_start) <= dist
        comp[f"grounding_hits_{d}s"] = np.bincount(show[hit], minlength=n_shows).astype(float)
    return comp
