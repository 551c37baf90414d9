r"""C_seg's probes counted in runs over thresholds: what the DET curve of boundary confidences needs of the
units (:func:`tvseg.retrieval.confidence.det_curve`).

A probe (a window of C_seg, :func:`tvseg.unit.windows.cseg`) is separated by the hypothesis kept at threshold
``t`` when a boundary scored ``>= t`` lies in one of its gaps, that is when the highest score of the
hypothesis boundaries in its gaps is ``>= t``. :func:`probe_counts` gives, for runs of consecutive probes,
whether the reference separates them and that highest score; :func:`cseg_probe_runs` projects a prepared
corpus onto its units (as :func:`tvseg.unit.corpus.corpus_unit_scores` does) and counts them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from tvseg.unit.masses import BoundaryPairs
from tvseg.unit.projection import frames_in, segment_units, unit_keys, unit_positions
from tvseg.unit.windows import cseg_geometry

__all__ = ["probe_counts", "cseg_probe_runs"]


def _range_max(values: NDArray[np.float64], a: NDArray[np.int64], b: NDArray[np.int64]) -> NDArray[np.float64]:
    """``max(values[a:b])`` for each query (``-inf`` when empty), by a sparse table: ``O(n log n + q)``."""
    out = np.full(len(a), -np.inf)
    length = b - a
    filled = np.flatnonzero(length > 0)
    if not len(filled) or not len(values):
        return out
    level = np.floor(np.log2(length[filled])).astype(np.int64)
    table = [values]
    for j in range(1, int(level.max()) + 1):
        half = 1 << (j - 1)
        previous = table[-1]
        table.append(np.maximum(previous[:-half], previous[half:]))
    for j in np.unique(level).tolist():
        q = filled[level == j]
        out[q] = np.maximum(table[j][a[q]], table[j][b[q] - (1 << j)])
    return out


def probe_counts(
    n: ArrayLike,
    reference: list[NDArray[np.int64]],
    hypothesis: list[NDArray[np.int64]],
    scores: list[NDArray[np.float64]],
    *,
    lo: ArrayLike,
    hi: ArrayLike,
    width: ArrayLike,
) -> tuple[NDArray[np.bool_], NDArray[np.float64], NDArray[np.int64]]:
    """C_seg's probes of many texts in runs: ``(separated, probe_max, count)`` per run of consecutive
    probes (window starts) with the same reference verdict and the same highest hypothesis score.

    Text ``i`` has reference boundary positions ``reference[i]`` and hypothesis ones ``hypothesis[i]``
    (sorted, distinct) with ``scores[i]``; its probes are the window starts ``lo[i] .. hi[i]``, window
    ``s`` holding the positions ``s .. s + width[i] - 1`` (:class:`tvseg.unit.conventions.Geometry`). Both
    verdicts change only where a window gains or loses a boundary, at ``p - width + 1`` and ``p + 1``:
    ``O(B log B)`` for ``B`` boundaries, whatever the number of probes.
    """
    sep_runs, max_runs, count_runs = [], [], []
    lo_, hi_, w_ = (np.broadcast_to(np.asarray(x, dtype=np.int64), (len(reference),)) for x in (lo, hi, width))
    for r, h, s, a, b, w in zip(reference, hypothesis, scores, lo_.tolist(), hi_.tolist(), w_.tolist()):
        if b < a:
            continue
        events = np.concatenate(([a, b + 1], r - w + 1, r + 1, h - w + 1, h + 1))
        starts = np.unique(events[(events >= a) & (events <= b + 1)])
        run_start, length = starts[:-1], np.diff(starts)
        last = run_start + w - 1
        separated = np.searchsorted(r, last, side="right") > np.searchsorted(r, run_start, side="left")
        top = _range_max(
            np.asarray(s, dtype=float),
            np.searchsorted(h, run_start, side="left"),
            np.searchsorted(h, last, side="right"),
        )
        sep_runs.append(separated)
        max_runs.append(top)
        count_runs.append(length)
    if not sep_runs:
        return np.zeros(0, dtype=bool), np.zeros(0), np.zeros(0, dtype=np.int64)
    return np.concatenate(sep_runs), np.concatenate(max_runs), np.concatenate(count_runs).astype(np.int64)


def cseg_probe_runs(p: Any, hyp: Any, segment_score: NDArray[np.float64]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """C_seg's probes of a prepared corpus (``p``: :class:`tvseg.preparation.Prepared`, with units or
    frames) in runs (:func:`probe_counts`), ``hyp`` its cropped hypothesis and ``segment_score`` the
    score of each of its segments' starts. The projection is :func:`tvseg.unit.corpus.corpus_unit_scores`'s:
    segment ``j`` of a show starts at unit :math:`c_j` (the units whose midpoint is before its start
    belong to the segments before), a boundary where a later segment has :math:`1 \\le c_j < N`."""
    settings, ref, n_shows = p.settings, p.reference_segments, len(p.shows)
    if p.units is None:
        _, u_show, u_start, u_end = frames_in(p.region_start, p.region_end, settings.frame, ref.region)
    else:
        u_show, u_start, u_end = (np.asarray(x) for x in p.units)
    mid = (np.asarray(u_start, dtype=float) + np.asarray(u_end, dtype=float)) / 2
    count, first, key = unit_keys(np.asarray(u_show, dtype=np.int64), mid, n_shows)
    scored = np.flatnonzero(count)
    pr, r_off = unit_positions(ref, key, first, scored, count)
    ph, h_off = unit_positions(hyp, key, first, scored, count)
    g = cseg_geometry(BoundaryPairs(count[scored], pr, r_off, ph, h_off), settings.k)
    # each hypothesis segment's position, and the highest score of the later segments at each position
    keep, s_show, c, later = segment_units(hyp, key, first, count)
    inside = later & (c >= 1) & (c < count[s_show])
    b_show, b_pos, b_score = s_show[inside], c[inside], segment_score[keep][inside]
    order = np.lexsort((-b_score, b_pos, b_show))
    b_show, b_pos, b_score = b_show[order], b_pos[order], b_score[order]
    firsts = np.ones(len(b_pos), dtype=bool)
    firsts[1:] = (b_show[1:] != b_show[:-1]) | (b_pos[1:] != b_pos[:-1])
    b_show, b_pos, b_score = b_show[firsts], b_pos[firsts], b_score[firsts]
    cut = np.searchsorted(b_show, scored, side="left").tolist() + [len(b_show)]
    return probe_counts(
        count[scored],
        [pr[r_off[i] : r_off[i + 1]] for i in range(len(scored))],
        [b_pos[cut[i] : cut[i + 1]] for i in range(len(scored))],
        [b_score[cut[i] : cut[i + 1]] for i in range(len(scored))],
        lo=g.lo,
        hi=g.hi,
        width=g.width,
    )
