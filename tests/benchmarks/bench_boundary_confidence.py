"""Benchmark: the boundary curve over score thresholds (tvseg.retrieval.confidence).

    python tests/benchmarks/bench_boundary_confidence.py [--shows 100 500] [--repeat 2]

Each show lasts an hour; the reference has a boundary every 120 s (moved by up to 30 s). Two hypotheses,
each boundary with a random score:

- **sparse**: one boundary near each reference boundary (within 0 to 15 s, so some are out of the 10 s
  tolerance) and one false alarm per reference boundary: most clusters can be matched whole, and the
  greedy pass is numpy only;
- **dense**: a candidate boundary every 5 s (720 per show, as a segmenter that scores every sentence):
  the few near each reference boundary form a cluster that cannot be matched whole, solved by its own
  segment trees;
- **chain** (the worst case): reference boundaries at random, 5 s apart on average, hypothesis boundaries
  twice as many: each show is one cluster of 1,440 hypothesis boundaries through the segment trees.

Timed: ``precision_recall`` (the greedy pass and the curve) at a 10 s tolerance, best of ``--repeat``; and,
as a check on the small sizes, the counts against ``match_boundaries`` redone at 20 thresholds.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tvseg.retrieval.confidence import precision_recall
from tvseg.retrieval.matching import match_boundaries

TOLERANCE = 10.0


def corpus(shows: int, kind: str, seed: int = 0):
    rng = np.random.default_rng(seed)
    r_show, r_time, h_show, h_time = [], [], [], []
    for s in range(shows):
        ref = np.sort(np.arange(120.0, 3600.0, 120.0) + rng.uniform(-30, 30, 29))
        ref = np.unique(np.round(ref, 3))
        if kind == "chain":
            ref = np.unique(np.round(rng.uniform(0, 3600, 720), 3))
            hyp = rng.uniform(0, 3600, 1440)
        if kind == "sparse":
            hyp = np.concatenate([ref + rng.uniform(-15, 15, len(ref)), rng.uniform(0, 3600, len(ref))])
        elif kind == "dense":
            hyp = np.arange(5.0, 3600.0, 5.0) + rng.uniform(-1, 1, 719)
        hyp = np.unique(np.round(hyp, 3))
        hyp = hyp[(hyp > 0) & (hyp < 3600)]
        r_show.append(np.full(len(ref), s))
        r_time.append(ref)
        h_show.append(np.full(len(hyp), s))
        h_time.append(hyp)
    h = np.concatenate(h_time)
    return (
        np.concatenate(r_show),
        np.concatenate(r_time),
        np.concatenate(h_show),
        h,
        rng.uniform(size=len(h)).round(3),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shows", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"{'kind':<7} {'shows':>6} {'hyp. boundaries':>16} {'thresholds':>11} {'seconds':>8} {'us/boundary':>12}")
    for kind in ("sparse", "dense", "chain"):
        for shows in args.shows:
            r_show, r_time, h_show, h_time, score = corpus(shows, kind)
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                c = precision_recall(r_show, r_time, h_show, h_time, score, tolerance=TOLERANCE)
                best = min(best, time.perf_counter() - t0)
            n = len(h_time)
            print(f"{kind:<7} {shows:>6} {n:>16} {len(c.thresholds):>11} {best:>8.2f} {1e6 * best / n:>12.1f}")
            if shows == min(args.shows):  # the counts against the matching redone at some thresholds
                for k in np.linspace(0, len(c.thresholds) - 1, 20).astype(int).tolist():
                    kept = score >= c.thresholds[k]
                    m = match_boundaries(r_show, r_time, h_show[kept], h_time[kept], tolerance=TOLERANCE)
                    assert len(m.pairs[0]) == c.n_matched[k], (kind, k)


if __name__ == "__main__":
    main()
