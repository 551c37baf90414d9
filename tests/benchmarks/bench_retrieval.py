"""Benchmark: tvseg's segment retrieval scoring against pyannote.metrics and mir_eval on a synthetic corpus.

    python tests/benchmarks/bench_retrieval.py [--shows 10000] [--pyannote-shows 1000] [--repeat 3]

tvseg scores CovN/CovD and boundary P/R/F at 3 tolerances (5, 10, 15 s) on every show, from the
pyannote Annotations (conversion included), pooled over the corpus. pyannote.metrics computes
SegmentationPrecision, SegmentationRecall (tolerance 10 s), SegmentationPurity and
SegmentationCoverage on the same Annotations. To keep the run short pyannote.metrics is timed on
the first ``--pyannote-shows`` shows and its time extrapolated linearly to the whole corpus (its
cost per show does not depend on the number of shows).

Boundary P/R/F alone is also timed against ``mir_eval.segment.detection`` (trim=True: the show's
edges are not boundaries; the same maximum matching within an inclusive window) at the same three
tolerances, show by show; mir_eval gets its native input (interval arrays, built before timing),
tvseg the pyannote Annotations, once with its corpus-wide sweep and once with ``tvseg.boundaries``
called show by show. The matched counts are checked equal before anything is timed. Times are the
best of ``--repeat`` runs in one process.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from pyannote.core import Annotation, Segment


def synthetic_corpus(n_shows: int, seed: int = 0):
    """Shows of 10 to 30 minutes, topic segments of 10 s to 4 min (about one in four short), and a
    hypothesis that moves each boundary by a few seconds, drops some and inserts others."""
    rng = np.random.default_rng(seed)
    reference, hypothesis = {}, {}
    for k in range(n_shows):
        length = rng.uniform(600, 1800)
        durations = np.where(rng.random(60) < 0.25, rng.uniform(10, 30, 60), rng.uniform(30, 240, 60))
        cuts = np.cumsum(durations)
        cuts = cuts[cuts < length - 10]
        keep = cuts[rng.random(len(cuts)) > 0.15]
        moved = keep + rng.normal(0, 6, len(keep))
        inserted = rng.uniform(10, length - 10, rng.poisson(2))
        hyp_cuts = np.unique(np.round(np.clip(np.concatenate([moved, inserted]), 1, length - 1), 2))
        show = f"show{k:05d}"
        reference[show] = _annotation(np.round(cuts, 2), round(length, 2), "R")
        hypothesis[show] = _annotation(hyp_cuts, round(length, 2), "H")
    return reference, hypothesis


def _annotation(cuts, length, prefix):
    ann = Annotation()
    bounds = [0.0, *cuts.tolist(), length]
    for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
        ann[Segment(a, b)] = f"{prefix}{i}"
    return ann


def run_tvseg(reference, hypothesis):
    from tvseg.columns import from_segmentations
    from tvseg.retrieval.corpus import score_shows
    from tvseg.retrieval.reductions import corpus_metrics

    shows = list(reference)
    ref = from_segmentations((reference[s] for s in shows), names=shows, side="reference")
    hyp = from_segmentations((hypothesis[s] for s in shows), names=shows, side="hypothesis")
    scores = score_shows(
        ref, hyp, shows=shows, gamma=0.85, long_threshold=30.0, tolerance=10.0, tolerances=(5.0, 15.0), titles=False
    )
    return corpus_metrics(scores.components), scores.boundary_matched.sum()


def run_pyannote(reference, hypothesis, shows):
    from pyannote.metrics.segmentation import (
        SegmentationCoverage,
        SegmentationPrecision,
        SegmentationPurity,
        SegmentationRecall,
    )

    metrics = [
        SegmentationPrecision(tolerance=10.0),
        SegmentationRecall(tolerance=10.0),
        SegmentationPurity(),
        SegmentationCoverage(),
    ]
    for show in shows:
        for metric in metrics:
            metric(reference[show], hypothesis[show])
    return [abs(m) for m in metrics]


TOLERANCES = (5.0, 10.0, 15.0)


def intervals(annotation):
    return np.array([[seg.start, seg.end] for seg in annotation.itersegments()])


def run_mir_eval(ref_intervals, hyp_intervals):
    import mir_eval

    return [
        [mir_eval.segment.detection(r, h, window=t, trim=True) for t in TOLERANCES]
        for r, h in zip(ref_intervals, hyp_intervals)
    ]


def run_tvseg_boundaries_corpus(reference, hypothesis):
    """Boundary matching only, every show at once: tvseg's corpus path (extraction + sorted sweep)."""
    from tvseg.columns import from_segmentations
    from tvseg.retrieval.boundaries import extract, regions
    from tvseg.retrieval.matching import match_boundaries

    shows = list(reference)
    ref = from_segmentations((reference[s] for s in shows), names=shows, side="reference")
    hyp = from_segmentations((hypothesis[s] for s in shows), names=shows, side="hypothesis")
    start, end = regions(ref)
    ref_show, ref_time = extract(ref, start, end)
    hyp_show, hyp_time = extract(hyp, start, end)
    return [match_boundaries(ref_show, ref_time, hyp_show, hyp_time, tolerance=t).pairs for t in TOLERANCES]


def run_tvseg_boundaries_per_show(reference, hypothesis):
    from tvseg.retrieval.boundaries import boundaries

    return [[boundaries(reference[s], hypothesis[s], tolerance=t) for t in TOLERANCES] for s in reference]


def best_of(repeat, fn, *args):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn(*args)
        times.append(time.perf_counter() - t0)
    return min(times), out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=10000)
    parser.add_argument("--pyannote-shows", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    reference, hypothesis = synthetic_corpus(args.shows)
    n_segments = sum(len(a) for a in reference.values()) + sum(len(a) for a in hypothesis.values())
    print(f"corpus: {args.shows} shows, {n_segments} segments (reference + hypothesis)")

    t_tvseg, (corpus, matched) = best_of(args.repeat, run_tvseg, reference, hypothesis)
    print(
        f"tvseg: CovN/CovD + boundary P/R/F at 5, 10, 15 s on {args.shows} shows: {t_tvseg:.3f} s "
        f"(best of {args.repeat}); CovN {corpus['cov_n']:.4f}, CovD {corpus['cov_d']:.4f}, "
        f"boundary F@10 {corpus['boundary_f1']:.4f}"
    )

    subset = list(reference)[: args.pyannote_shows]
    t_sub, values = best_of(max(1, min(args.repeat, 2)), run_pyannote, reference, hypothesis, subset)
    t_pyannote = t_sub * args.shows / len(subset)
    print(
        f"pyannote.metrics: precision, recall (10 s), purity, coverage on {len(subset)} shows: {t_sub:.2f} s "
        f"-> {t_pyannote:.1f} s extrapolated to {args.shows} shows"
    )
    print(
        f"ratio: tvseg is {t_pyannote / t_tvseg:.0f}x faster (target >= 50x; tvseg target < 3 s: "
        f"{'met' if t_tvseg < 3 else 'NOT met'})"
    )

    benchmark_mir_eval(reference, hypothesis, subset, args)
    benchmark_one_call(reference, hypothesis, subset, args)


def benchmark_one_call(reference, hypothesis, subset, args):
    """``tvseg.coverage`` one show at a time (rates, match table left unbuilt) against pyannote.metrics'
    SegmentationCoverage, the closest one-call measure (its purity is the same computation reversed)."""
    from pyannote.metrics.segmentation import SegmentationCoverage

    import tvseg

    metric = SegmentationCoverage()

    def ours():
        for show in subset:
            tvseg.coverage(reference[show], hypothesis[show])

    def theirs():
        for show in subset:
            metric(reference[show], hypothesis[show])

    t_ours, _ = best_of(args.repeat, ours)
    t_theirs, _ = best_of(max(1, min(args.repeat, 2)), theirs)
    per = 1e3 / len(subset)
    print(
        f"one show per call on {len(subset)} shows: tvseg.coverage {t_ours * per:.3f} ms, "
        f"pyannote.metrics SegmentationCoverage {t_theirs * per:.3f} ms -> {t_theirs / t_ours:.1f}x"
    )


def benchmark_mir_eval(reference, hypothesis, subset, args):
    ref_intervals = [intervals(reference[s]) for s in subset]
    hyp_intervals = [intervals(hypothesis[s]) for s in subset]
    small_ref = {s: reference[s] for s in subset}
    small_hyp = {s: hypothesis[s] for s in subset}
    # same matched counts as mir_eval on every show and tolerance (precision x number of hypothesis
    # boundaries = matched), before timing anything
    theirs = run_mir_eval(ref_intervals, hyp_intervals)
    ours = run_tvseg_boundaries_per_show(small_ref, small_hyp)
    for mine, their, h in zip(ours, theirs, hyp_intervals):
        for result, (precision, _, _) in zip(mine, their):
            assert result.n_hypothesis == len(h) - 1
            assert round(precision * result.n_hypothesis) == result.n_matched, (result, precision)
    t_mir, _ = best_of(max(1, min(args.repeat, 2)), run_mir_eval, ref_intervals, hyp_intervals)
    t_mir_all = t_mir * args.shows / len(subset)
    t_corpus, _ = best_of(args.repeat, run_tvseg_boundaries_corpus, reference, hypothesis)
    t_per_show, _ = best_of(max(1, min(args.repeat, 2)), run_tvseg_boundaries_per_show, small_ref, small_hyp)
    print(
        f"mir_eval.segment.detection (trim=True) at 5, 10, 15 s on {len(subset)} shows: {t_mir:.2f} s "
        f"-> {t_mir_all:.1f} s extrapolated to {args.shows} shows (interval arrays built beforehand)"
    )
    print(
        f"tvseg boundary P/R/F at 5, 10, 15 s, corpus sweep on {args.shows} shows: {t_corpus:.3f} s "
        f"-> {t_mir_all / t_corpus:.0f}x mir_eval"
    )
    print(
        f"tvseg.boundaries() show by show on {len(subset)} shows: {t_per_show:.2f} s "
        f"-> {t_mir / t_per_show:.1f}x mir_eval"
    )


if __name__ == "__main__":
    main()
