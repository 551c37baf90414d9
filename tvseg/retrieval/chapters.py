r"""Video chaptering's metrics (VidChapters-7M): detection P/R/F over tIoU thresholds, navigation P/R.

VidChapters-7M (Yang et al., NeurIPS 2023 Datasets and Benchmarks) scores a predicted chaptering of
a video with the dense-video-captioning localisation metrics of its ``dvc_eval`` package
(``dvc_eval/eval_dvc.py`` in https://github.com/antoyang/VidChapters, class ``ANETcaptions``:
``iou``, ``evaluate_detection``, ``evaluate_navigation``, ``evaluate``, and the function
``eval_dvc``; read at commit ``fa3900c6``). This module computes them **as that code does**, on
times in integer microseconds (:mod:`tvseg.exact`) instead of floats.

Per video (here: per show) with reference chapters :math:`R_1..R_n` and predicted chapters
:math:`H_1..H_m` (the segments of each side, as evaluated: cropped to the show's evaluated region):

**Temporal IoU** (``iou``): :math:`tIoU(H, R) = |H \cap R| / (\max(e_H, e_R) - \min(s_H, s_R))`.
The code's union is ``min(max end - min start, len H + len R)``, which is
``max end - min start`` whenever the two overlap; it divides by ``union + 1e-8``.

**Detection at threshold** :math:`t` (``evaluate_detection``): *not one-to-one*. A prediction counts
when **any** reference has :math:`tIoU > t` with it (strictly: the code's test is ``iou > tiou``), and a
reference counts when any prediction does:

.. math::

    P_t = \frac{\#\{j : \exists i,\ tIoU(H_j, R_i) > t\}}{\max(m, 1)}, \qquad
    R_t = \frac{\#\{i : \exists j,\ tIoU(H_j, R_i) > t\}}{n}.

One prediction over two references (both above :math:`t`) counts once in :math:`P_t`'s numerator and
makes both references count in :math:`R_t`'s. The thresholds are :data:`TIOU_THRESHOLDS`
(0.3, 0.5, 0.7, 0.9; ``eval_dvc``'s default and Vid2Seq's call in ``dvc.py``). tvseg decides
:math:`tIoU > t` exactly, as :math:`|H \cap R|\, q > p\, (\max e - \min s)` in integer microseconds with
:math:`t = p/q` (:func:`tvseg.exact.above`): an IoU of exactly 0.5 is not above 0.5 (nor is it in the
code, whose ``+ 1e-8`` lowers it). The code can differ from the exact decision only for an IoU above
the threshold by less than about :math:`10^{-8}` divided by the union in seconds, or within a
float's rounding of it.

**Navigation at distance** :math:`d` (``evaluate_navigation``): the same counting on chapter
**starts**, a pair counting when :math:`|s_{H_j} - s_{R_i}| < d` (strictly less: the code's test is
``abs(pred_start - ref_start) < tiou``; a start exactly :math:`d` seconds away does not count). Every
chapter's start counts, the first one included (in VidChapters it is 0:00, so a prediction starting at
0 always finds the first reference start). :math:`d` in :data:`NAV_DISTANCES` (1, 3, 5, 10, 30, 60 s,
the code's default ``distances``). Decided in integer microseconds, so on decimal times a start
exactly :math:`d` away never counts, where the code's float subtraction may count it
(``4.1 - 1.1`` is ``2.9999999999999996 < 3``).

**Averaging** (``evaluate_detection`` / ``eval_dvc``): for each threshold, :math:`P_t` and
:math:`R_t` are averaged over the videos, :math:`F_t = 2 \bar P_t \bar R_t / (\bar P_t + \bar R_t)`
(0 when both are 0) is computed from those averages, and the reported ``Precision``, ``Recall`` and
``F1`` are the means over the four thresholds of :math:`\bar P_t`, :math:`\bar R_t` and :math:`F_t`.
So the F reported is **the mean over thresholds of the F of the video-averaged P and R**, not the F
of the threshold-and-video-averaged P and R (the issue's wording); tvseg follows the code.
Navigation P and R at each :math:`d` are averaged over videos the same way. Consequently:

- per show, ``vc_detection_f1`` is :math:`\frac14 \sum_t F(P_t, R_t)` of that show;
- the **corpus** value is VidChapters' value: a mean over shows (**not** pooled like tvseg's other
  corpus metrics, which sum counts over shows);
- the **macro** value is the mean of the per-show values, as for every metric: for P and R it
  equals the corpus value; for F it differs (a mean of per-show F against an F of means).

The mean over shows is kept additive (so that the corpus, group and bootstrap reductions of
:mod:`tvseg.retrieval.reductions` apply unchanged): the components per show are the show's rates
themselves and ``chapter_n_shows`` (1 for a scored show), and a rate of the corpus is
``sum(rate) / sum(chapter_n_shows)``.

**Shows without a prediction.** The code gives a video whose prediction list is empty
:math:`P_t = 0` (its denominator is ``max(m, 1)``) and :math:`R_t = 0`; tvseg does the same (a
departure from tvseg's 0/0 policy, :mod:`tvseg.rates`, to reproduce VidChapters' averages: such a
show pulls the means down instead of being left out). A video missing from the submission file is
skipped by the code; in tvseg a reference show without a hypothesis is scored as an empty
hypothesis (:func:`tvseg.evaluate` warns), as in VidChapters' own pipeline (``dvc.py`` gives every
video an entry, empty when nothing was predicted). **Shows without a reference chapter** (the code
would divide by zero) are left out: their values are NaN and they do not enter the means.

Not reproduced: the code keeps at most the first 1000 predictions of a video (``max_proposals``), and
takes the best over several ground-truth files; tvseg has one reference and no cap.

**One-to-one variant** (``detection_*_1to1``, tvseg's, not VidChapters'): at each threshold, the
pairs with :math:`tIoU > t` are matched one to one, a maximum matching (most pairs), and

.. math:: P^{1:1}_t = |M_t| / \max(m, 1), \qquad R^{1:1}_t = |M_t| / n,

averaged over thresholds and shows exactly as above. For :math:`t \ge 1/2` it equals the
VidChapters counts (a chapter can have :math:`tIoU > 1/2` with at most one disjoint chapter of the
other side); at 0.3 a prediction spanning two references counts once in both. Within a show both sides
are sorted and disjoint, so the graph of overlapping pairs has no crossing pairs (:math:`i < i'` and
:math:`j > j'` cannot both overlap); in the order of (reference, hypothesis) the lexicographically
first pair belongs to some maximum matching (an exchange argument), so the greedy scan in that order
is a maximum matching, computed here for all shows at once.

**Temporally matched titles** (chunkseg 0.4.0, ``chunkseg/titles.py``, function
``_match_titles_by_time``, called by ``compute_title_scores`` for its ``tm_*`` scores):
:func:`titled_chapters` and :func:`match_in_time` reproduce chunkseg's pairing of reference and
predicted chapter titles. A chapter is a titled segment: chunkseg gets ``(title, start)`` pairs and
ends each chapter at the **next title's start** (the last at the show's ``duration``), so an untitled
segment belongs to the titled chapter before it. A reference chapter :math:`(s, e)` and a predicted
one :math:`(\hat s, \hat e)` can be paired when :math:`|\hat s - s| \le \tau` **and**
:math:`|\hat e - e| \le \tau` (both boundaries, inclusive; :math:`\tau` = 5 s, chunkseg's default).
The matching is chunkseg's **greedy one-to-one** scan, not a maximum matching: the reference chapters in
time order, each taking the not yet taken prediction with the smallest :math:`|\hat s - s| + |\hat e - e|`
(on a tie, the earliest prediction: the code's test is a strict ``<`` in list order); a reference
chapter with no candidate left stays unmatched, and an earlier one may take the only candidate of a
later one. Computed for all shows at once: round :math:`k` pairs the :math:`k`-th reference chapter of
every show. Decided in integer microseconds (:mod:`tvseg.exact`): on decimal times the code's float
subtraction may put a distance of exactly :math:`\tau` on either side of it, and break a tie of
:math:`|\hat s - s| + |\hat e - e|` that is exact in decimals; on times that floats hold exactly
(multiples of 1/2, 1/4 s...) the two agree.
"""

from __future__ import annotations

import numpy as np

from tvseg.columns import Segments, count_before, from_segmentations
from tvseg.exact import above, ratio, tick
from tvseg.metrics import NAV_DISTANCES, TIOU_THRESHOLDS, compute, threshold_tag

__all__ = [
    "TIOU_THRESHOLDS",
    "NAV_DISTANCES",
    "DETECTION_KEYS",
    "ONE_TO_ONE_KEYS",
    "NAVIGATION_KEYS",
    "overlapping_pairs",
    "runs",
    "one_to_one",
    "nearest_start_distance",
    "chapter_components",
    "chapter_counts",
    "chapters",
    "titled_chapters",
    "match_in_time",
]


DETECTION_KEYS = ("vc_detection_precision", "vc_detection_recall", "vc_detection_f1")
ONE_TO_ONE_KEYS = ("detection_precision_1to1", "detection_recall_1to1", "detection_f1_1to1")
NAVIGATION_KEYS = tuple(k for d in NAV_DISTANCES for k in (f"nav_precision_{d}s", f"nav_recall_{d}s"))


def overlapping_pairs(reference: Segments, hypothesis: Segments, *, union: bool = True):
    """Every pair of a reference and a hypothesis segment of the same show that overlap (positive
    intersection), sorted by reference then hypothesis index.

    Returns
    -------
    pair_ref, pair_hyp : ndarray of int64
        Indices into ``reference`` and ``hypothesis``.
    intersection, union : ndarray of int64
        :math:`\\min(e) - \\max(s)` and :math:`\\max(e) - \\min(s)` in microseconds (``union`` is None when
        ``union=False``).

    The reference is sorted and disjoint, so the reference segments overlapping hypothesis segment ``j``
    are a contiguous run (those not ending at or before its start, and starting before its end): two
    lexicographic searches, no all-pairs matrix; found by hypothesis, the pairs are sorted by reference
    already unless the hypothesis segments overlap one another (ActivityNet-style predictions: every
    overlapping pair is found, then sorted).
    """
    rs, re_ = reference.start_ticks, reference.end_ticks
    hs, he = hypothesis.start_ticks, hypothesis.end_ticks
    if reference.n_shows == 1 and np.count_nonzero(rs[1:] < rs[:-1]) == 0 and np.count_nonzero(re_[1:] < re_[:-1]) == 0:
        # one show whose starts and ends are both in order: the counts are binary searches
        lo = re_.searchsorted(hs, side="right")
        hi = rs.searchsorted(he, side="left")
    else:
        lo = count_before(reference.show, re_, hypothesis.show, hs, inclusive=True)
        hi = count_before(reference.show, rs, hypothesis.show, he, inclusive=False)
    pair_hyp, pair_ref = runs(lo, hi)
    if len(pair_ref) > 1 and np.count_nonzero(pair_ref[1:] < pair_ref[:-1]):  # overlapping hypothesis segments
        order = np.lexsort((pair_hyp, pair_ref))
        pair_ref, pair_hyp = pair_ref[order], pair_hyp[order]
    intersection = np.minimum(re_[pair_ref], he[pair_hyp]) - np.maximum(rs[pair_ref], hs[pair_hyp])
    if not union:
        return pair_ref, pair_hyp, intersection, None
    spans = np.maximum(re_[pair_ref], he[pair_hyp]) - np.minimum(rs[pair_ref], hs[pair_hyp])
    return pair_ref, pair_hyp, intersection, spans


def runs(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``(k, j)`` with ``lo[k] <= j < hi[k]`` (none where ``hi[k] <= lo[k]``), by ``k`` then ``j``:
    each ``k``'s partners are the contiguous run ``lo[k]:hi[k]`` that two lexicographic searches found."""
    counts = np.maximum(hi - lo, 0)
    ends = counts.cumsum()
    owner = np.arange(len(lo), dtype=np.int64).repeat(counts)
    # the i-th pair is the (i - first[k])-th partner of its k, lo[k] + i - first[k]
    partner = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64) + (lo - (ends - counts))[owner]
    return owner, partner


def one_to_one(pair_ref: np.ndarray, pair_hyp: np.ndarray) -> np.ndarray:
    """A maximum one-to-one matching among non-crossing pairs (sorted by reference, then hypothesis).

    Returns a boolean mask of the pairs kept. The pairs must come from sorted, disjoint segments of
    each side (:func:`overlapping_pairs`, possibly filtered): then the hypothesis index never
    decreases along the list, and consecutive pairs that share a segment form chains.

    The greedy scan keeps a pair when it shares no segment with the last pair kept; after a kept pair
    ``a``, the following pairs share its segment as long as the steps between consecutive pairs keep
    sharing the same side, and the first pair after the side shared changes is the next one kept (a
    step that shares nothing starts a new chain, whose first pair is kept). Each round advances every
    chain by one kept pair, vectorised over the corpus; the rounds number the most pairs kept in one
    chain.
    """
    pair_ref = np.asarray(pair_ref, dtype=np.int64)
    pair_hyp = np.asarray(pair_hyp, dtype=np.int64)
    n = len(pair_ref)
    kept = np.zeros(n, dtype=bool)
    if n == 0:
        return kept
    # step k links pair k and pair k + 1: 0 same reference, 1 same hypothesis, 2 neither (new chain)
    step = np.full(n - 1, 2, dtype=np.int8)
    step[pair_hyp[1:] == pair_hyp[:-1]] = 1
    step[pair_ref[1:] == pair_ref[:-1]] = 0
    following = np.full(n, -1, dtype=np.int64)
    if n > 1:
        # first step at or after k of another kind than step k (n - 1: none)
        change = np.flatnonzero(np.concatenate(([True], step[1:] != step[:-1])))
        block = np.cumsum(np.concatenate(([True], step[1:] != step[:-1]))) - 1
        boundary = np.append(change, n - 1)[block + 1]
        ok = (step != 2) & (boundary < n - 1)
        ok[ok] = step[boundary[ok]] != 2
        following[:-1][ok] = boundary[ok] + 1
    current = np.flatnonzero(np.concatenate(([True], step == 2)))
    while len(current):
        kept[current] = True
        current = following[current]
        current = current[current >= 0]
    return kept


def nearest_start_distance(
    show_a: np.ndarray, start_a: np.ndarray, show_b: np.ndarray, start_b: np.ndarray
) -> np.ndarray:
    """For each start of side a, the distance (microseconds) to the nearest start of side b in the
    same show; the ``int64`` maximum when that show has no b start. Both sides sorted by (show, start)."""
    n_b = len(start_b)
    out = np.full(len(start_a), np.iinfo(np.int64).max, dtype=np.int64)
    if n_b == 0 or len(start_a) == 0:
        return out
    k = count_before(show_b, start_b, show_a, start_a, inclusive=True)  # b starts at or before each a
    before = np.maximum(k - 1, 0)
    after = np.minimum(k, n_b - 1)
    has_before = (k > 0) & (show_b[before] == show_a)
    has_after = (k < n_b) & (show_b[after] == show_a)
    out[has_before] = start_a[has_before] - start_b[before[has_before]]
    out[has_after] = np.minimum(out[has_after], start_b[after[has_after]] - start_a[has_after])
    return out


def chapter_counts(reference: Segments, hypothesis: Segments, n_shows: int) -> dict:
    """``chapter_count_error_sum`` per show: :math:`|n_{hyp} - n_{ref}|` (0 for a show without a
    reference segment)."""
    n_ref = np.bincount(reference.show, minlength=n_shows)
    n_hyp = np.bincount(hypothesis.show, minlength=n_shows)
    return {"chapter_count_error_sum": np.where(n_ref > 0, np.abs(n_hyp - n_ref), 0).astype(float)}


def chapter_components(reference: Segments, hypothesis: Segments, n_shows: int) -> dict:
    """Per-show components of the chaptering metrics (arrays of length ``n_shows``).

    ``chapter_n_shows`` is 1 for a show with a reference segment, else 0; for every threshold
    ``t`` (two digits: ``30``...) ``vc_precision_t``, ``vc_recall_t`` (VidChapters' counting) and
    ``vc11_precision_t``, ``vc11_recall_t`` (one to one), and for every distance ``d``
    ``nav_precision_d``, ``nav_recall_d``: the show's rates (0 where it has no reference segment), so
    that their sums over shows divided by the sum of ``chapter_n_shows`` are VidChapters' means.
    """
    n_ref = np.bincount(reference.show, minlength=n_shows).astype(float)
    n_hyp = np.bincount(hypothesis.show, minlength=n_shows).astype(float)
    scored = n_ref > 0
    ref_den = np.where(scored, n_ref, 1.0)
    hyp_den = np.maximum(n_hyp, 1.0)  # VidChapters: max(len(predictions), 1)
    comp = {"chapter_n_shows": scored.astype(float)}

    def rates(key, covered_ref, covered_hyp):
        r = np.bincount(reference.show, weights=covered_ref.astype(float), minlength=n_shows) / ref_den
        p = np.bincount(hypothesis.show, weights=covered_hyp.astype(float), minlength=n_shows) / hyp_den
        comp[key.format(side="precision")] = np.where(scored, p, 0.0)
        comp[key.format(side="recall")] = np.where(scored, r, 0.0)

    def marks(n, indices):
        out = np.zeros(n, dtype=bool)
        out[indices] = True
        return out

    pair_ref, pair_hyp, inter, union = overlapping_pairs(reference, hypothesis)
    for t in TIOU_THRESHOLDS:
        ok = above(inter, union, ratio(t))  # tIoU > t, exactly
        pr, ph = pair_ref[ok], pair_hyp[ok]
        rates("vc_{side}_" + threshold_tag(t), marks(len(reference), pr), marks(len(hypothesis), ph))
        kept = one_to_one(pr, ph)
        rates("vc11_{side}_" + threshold_tag(t), marks(len(reference), pr[kept]), marks(len(hypothesis), ph[kept]))

    rs, hs = reference.start_ticks, hypothesis.start_ticks
    d_ref = nearest_start_distance(reference.show, rs, hypothesis.show, hs)
    d_hyp = nearest_start_distance(hypothesis.show, hs, reference.show, rs)
    for d in NAV_DISTANCES:
        limit = tick(d)
        rates(f"nav_{{side}}_{d}", d_ref < limit, d_hyp < limit)  # VidChapters: |pred - ref| < d, strictly
    return comp


def chapters(reference, hypothesis) -> dict:
    """The chaptering metrics of one show: ``{key: float}``.

    ``reference`` and ``hypothesis`` as :func:`tvseg.coverage` takes them (pyannote ``Annotation`` or
    ``Timeline``, a sequence of ``(start, end)`` pairs, an ``(n, 2)`` array).
    """
    ref, hyp = from_segmentations([reference], side="reference"), from_segmentations([hypothesis], side="hypothesis")
    values = compute(chapter_components(ref, hyp, 1))
    return {k: float(np.atleast_1d(values[k])[0]) for k in (*DETECTION_KEYS, *ONE_TO_ONE_KEYS, *NAVIGATION_KEYS)}


def titled_chapters(side: Segments, titled: np.ndarray, show_end: np.ndarray):
    """chunkseg's chapters of one side: its titled segments, each ending where the next titled segment
    of its show starts, the last one at ``show_end`` of its show (microseconds; chunkseg's ``duration``).

    Returns ``(index, show, start, end)``: the indices of the titled segments into ``side`` and the
    chapters' shows and times in microseconds, sorted by (show, start) as ``side`` is.
    """
    index = np.flatnonzero(np.asarray(titled, dtype=bool))
    show, start = side.show[index], side.start_ticks[index]
    end = np.asarray(show_end, dtype=np.int64)[show]
    same = show[1:] == show[:-1]
    end[:-1][same] = start[1:][same]
    return index, show, start, end


def match_in_time(reference, hypothesis, tolerance: float):
    """chunkseg's greedy one-to-one matching of chapters on both start and end (module docstring).

    ``reference`` and ``hypothesis`` are ``(show, start, end)`` arrays of chapters sorted by (show,
    start), times in microseconds (:func:`titled_chapters`). Returns ``(ref, hyp)``: the indices of the
    matched chapters, sorted by reference chapter.
    """
    r_show, r_start, r_end = (np.asarray(a, dtype=np.int64) for a in reference)
    h_show, h_start, h_end = (np.asarray(a, dtype=np.int64) for a in hypothesis)
    tol = tick(tolerance)
    # candidates by start: a contiguous run of each show's predictions, then the test on the end
    lo = count_before(h_show, h_start, r_show, r_start - tol, inclusive=False)
    hi = count_before(h_show, h_start, r_show, r_start + tol, inclusive=True)
    pair_ref, pair_hyp = runs(lo, hi)
    d_end = np.abs(h_end[pair_hyp] - r_end[pair_ref])
    keep = d_end <= tol
    pair_ref, pair_hyp = pair_ref[keep], pair_hyp[keep]
    cost = np.abs(h_start[pair_hyp] - r_start[pair_ref]) + d_end[keep]
    # the rank of each reference chapter in its show: round k pairs every show's k-th chapter
    show_first = np.searchsorted(r_show, r_show, side="left")
    rank = np.arange(len(r_show), dtype=np.int64) - show_first
    order = np.lexsort((pair_hyp, cost, pair_ref, rank[pair_ref]))
    pair_ref, pair_hyp = pair_ref[order], pair_hyp[order]
    pair_rank = rank[pair_ref]
    edges = np.searchsorted(pair_rank, np.arange(int(rank.max(initial=-1)) + 2), side="left")
    taken = np.zeros(len(h_show), dtype=bool)
    out_ref, out_hyp = [], []
    for a, b in zip(edges[:-1], edges[1:]):
        free = ~taken[pair_hyp[a:b]]
        refs, hyps = pair_ref[a:b][free], pair_hyp[a:b][free]
        refs, best = np.unique(refs, return_index=True)  # sorted by cost then prediction: the first is taken
        taken[hyps[best]] = True
        out_ref.append(refs)
        out_hyp.append(hyps[best])
    ref = np.concatenate(out_ref) if out_ref else np.empty(0, dtype=np.int64)
    hyp = np.concatenate(out_hyp) if out_hyp else np.empty(0, dtype=np.int64)
    order = np.argsort(ref, kind="stable")
    return ref[order], hyp[order]
