"""Benchmark: tvseg's segment retrieval scoring against pyannote.metrics on a synthetic corpus.

    python tests/benchmarks/bench_retrieval.py [--shows 10000] [--pyannote-shows 1000] [--repeat 3]

tvseg scores CovN/CovD and boundary P/R/F at 3 tolerances (5, 10, 15 s) on every show, from the
pyannote Annotations (conversion included), pooled over the corpus. pyannote.metrics computes
SegmentationPrecision, SegmentationRecall (tolerance 10 s), SegmentationPurity and
SegmentationCoverage on the same Annotations. To keep the run short pyannote.metrics is timed on
the first ``--pyannote-shows`` shows and its time extrapolated linearly to the whole corpus (its
cost per show does not depend on the number of shows). Times are the best of ``--repeat`` runs in
one process.
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
    from tvseg.retrieval.corpus import corpus_metrics, score_shows
    from tvseg.retrieval.segments import from_segmentations

    shows = list(reference)
    ref = from_segmentations((reference[s] for s in shows), names=shows, side="reference")
    hyp = from_segmentations((hypothesis[s] for s in shows), names=shows, side="hypothesis")
    scores = score_shows(ref, hyp, shows=shows, gamma=0.85, long_threshold=30.0, tolerance=10.0,
                         tolerances=(5.0, 15.0), titles=False)
    return corpus_metrics(scores.components), scores.boundary_matched.sum()


def run_pyannote(reference, hypothesis, shows):
    from pyannote.metrics.segmentation import (SegmentationCoverage, SegmentationPrecision,
                                               SegmentationPurity, SegmentationRecall)

    metrics = [SegmentationPrecision(tolerance=10.0), SegmentationRecall(tolerance=10.0),
               SegmentationPurity(), SegmentationCoverage()]
    for show in shows:
        for metric in metrics:
            metric(reference[show], hypothesis[show])
    return [abs(m) for m in metrics]


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
    print(f"tvseg: CovN/CovD + boundary P/R/F at 5, 10, 15 s on {args.shows} shows: {t_tvseg:.3f} s "
          f"(best of {args.repeat}); CovN {corpus['cov_n']:.4f}, CovD {corpus['cov_d']:.4f}, "
          f"boundary F@10 {corpus['boundary_f1']:.4f}")

    subset = list(reference)[:args.pyannote_shows]
    t_sub, values = best_of(max(1, min(args.repeat, 2)), run_pyannote, reference, hypothesis, subset)
    t_pyannote = t_sub * args.shows / len(subset)
    print(f"pyannote.metrics: precision, recall (10 s), purity, coverage on {len(subset)} shows: {t_sub:.2f} s "
          f"-> {t_pyannote:.1f} s extrapolated to {args.shows} shows")
    print(f"ratio: tvseg is {t_pyannote / t_tvseg:.0f}x faster (target >= 50x; tvseg target < 3 s: "
          f"{'met' if t_tvseg < 3 else 'NOT met'})")


if __name__ == "__main__":
    main()
