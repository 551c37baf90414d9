"""Benchmark: the per-show API (``tvseg.boundaries``, ``tvseg.coverage``) one call at a time, against
mir_eval and pyannote.metrics on the same shows, side by side in one process.

    python tests/benchmarks/bench_per_show_api.py [--shows 300] [--repeat 5]

Two kinds of show: news-like shows of 8 to 25 topic segments, and long shows of 100 segments; each
with a hypothesis that moves every boundary by a few seconds (some exactly onto the tolerance),
drops some and inserts others.

From ``(n, 2)`` float arrays: ``tvseg.boundaries(ref, hyp, tolerance=10)`` and
``tvseg.coverage(ref, hyp)`` each against ``mir_eval.segment.detection(ref, hyp, window=10,
trim=False)``, the hand-written boundary scorer people use (its interval arrays are its native
input). From pyannote Annotations: the per-show scoring people write with pyannote.metrics
(``SegmentationPurity``, ``SegmentationCoverage``, ``SegmentationPrecision`` and
``SegmentationRecall`` at tolerance 10 s, one call each) against ``tvseg.coverage`` plus
``tvseg.boundaries`` (tolerance 10 s) on the same Annotations. Times are per call (per show), the
best of ``--repeat`` passes over all shows; the tools are timed in alternation so that a busy
machine slows them alike. Before timing, tvseg's matched counts are checked against mir_eval's
(with ``trim=True``, whose boundaries are tvseg's: the show's edges left out; and a window of
10 s + 1e-9, so that its float distances decide as tvseg's exact ones on two-decimal times).

Measured on 2026-12-06 (issue 40) on a shared 2-core VM (load 1.7 to 1.9), ``--repeat 5``, ms per call; before
issue 40, the same day and machine, in parentheses:

======================  ==========  ================  ==============  =======================  ==============
shows                   mir_eval    tvseg.boundaries  tvseg.coverage  pyannote.metrics x4      tvseg both
                                                                      (Annotations)            (Annotations)
======================  ==========  ================  ==============  =======================  ==============
8-25 segments (300)     0.101       0.189 (0.440)     0.224 (0.551)   6.19 (6.67)              0.481 (1.036)
100 segments (75)       0.238       0.214 (0.495)     0.270 (0.648)   41.7 (45.2)              0.636 (1.232)
======================  ==========  ================  ==============  =======================  ==============

Ratios mir_eval / tvseg: 0.53x and 0.45x on news-like shows (before 0.23x, 0.19x), 1.11x and 0.88x on
100-segment shows (before 0.51x, 0.39x); pyannote.metrics / tvseg from Annotations: 12.9x and 65.6x (before
6.4x, 36.6x). What a call still costs is over a hundred small numpy operations (about 1 us each here): reading
and checking both sides, the boundary extraction, the window search, the greedy scan and, for a show with a
cluster of several candidate pairs (80 of the 300 news-like shows), the cheapest-matching programme's set-up;
for coverage, the overlapping pairs, both sides' best partners, the exact verdicts and the per-show sums of
the corpus kernel. The per-show functions run the corpus kernels on a corpus of one show, so none of them
is a second implementation.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from pyannote.core import Annotation, Segment


def shows(n_shows: int, n_segments: tuple[int, int], seed: int = 0):
    """``(reference, hypothesis)`` interval arrays of ``n_shows`` shows with ``n_segments`` (low,
    high) reference segments; times in seconds with two decimals."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_shows):
        n = int(rng.integers(n_segments[0], n_segments[1] + 1))
        durations = rng.uniform(20, 240, n)
        cuts = np.round(np.cumsum(durations), 2)
        length = float(cuts[-1])
        inner = cuts[:-1]
        keep = inner[rng.random(len(inner)) > 0.15]
        moved = keep + np.where(rng.random(len(keep)) < 0.1, 10.0, rng.normal(0, 6, len(keep)))
        inserted = rng.uniform(10, length - 10, rng.poisson(2))
        hyp_cuts = np.unique(np.round(np.clip(np.concatenate([moved, inserted]), 1, length - 1), 2))
        out.append((_intervals(inner, length), _intervals(hyp_cuts, length)))
    return out


def _intervals(cuts, length):
    bounds = np.concatenate([[0.0], cuts, [length]])
    return np.column_stack([bounds[:-1], bounds[1:]])


def annotation(intervals, prefix):
    ann = Annotation()
    for i, (a, b) in enumerate(intervals.tolist()):
        ann[Segment(a, b)] = f"{prefix}{i}"
    return ann


def per_call(repeat, fn, items):
    """Best of ``repeat`` passes, in ms per item."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for args in items:
            fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best * 1e3 / len(items)


def alternate(repeat, candidates, items):
    """Per-call ms of each ``(name, fn)``, timed in turns (each the best of its turns)."""
    best = {name: float("inf") for name, _ in candidates}
    for _ in range(repeat):
        for name, fn in candidates:
            best[name] = min(best[name], per_call(1, fn, items))
    return best


def check_against_mir_eval(pairs):
    import mir_eval

    import tvseg

    for ref, hyp in pairs:
        mine = tvseg.boundaries(ref, hyp, tolerance=10)
        # times have two decimals: a window a hair wider than 10 s makes mir_eval's float distances
        # decide as tvseg's exact ones (135.11 - 125.11 is 10.000000000000014 in floats)
        precision, _, _ = mir_eval.segment.detection(ref, hyp, window=10 + 1e-9, trim=True)
        assert mine.n_hypothesis == len(hyp) - 1
        assert round(precision * mine.n_hypothesis) == mine.n_matched, (mine, precision)


def main(argv=None):
    import mir_eval
    from pyannote.metrics.segmentation import (
        SegmentationCoverage,
        SegmentationPrecision,
        SegmentationPurity,
        SegmentationRecall,
    )

    import tvseg

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    metrics = [
        SegmentationPurity(),
        SegmentationCoverage(),
        SegmentationPrecision(tolerance=10.0),
        SegmentationRecall(tolerance=10.0),
    ]

    def detection(ref, hyp):
        return mir_eval.segment.detection(ref, hyp, window=10, trim=False)

    def boundaries(ref, hyp):
        return tvseg.boundaries(ref, hyp, tolerance=10)

    def coverage(ref, hyp):
        return tvseg.coverage(ref, hyp)

    def tvseg_both(ref, hyp):
        return tvseg.coverage(ref, hyp), tvseg.boundaries(ref, hyp, tolerance=10)

    def pyannote_four(ref, hyp):
        return [metric(ref, hyp) for metric in metrics]

    print("per call, ms (best of --repeat passes; tools timed in turns)")
    print(
        "| shows | mir_eval detection | tvseg.boundaries | tvseg.coverage | ratios (mir_eval / tvseg) "
        "| pyannote.metrics x4 (Annotations) | tvseg coverage + boundaries (Annotations) | ratio |"
    )
    for label, sizes, n_shows in (
        ("8-25 segments", (8, 25), args.shows),
        ("100 segments", (100, 100), max(1, args.shows // 4)),
    ):
        arrays = shows(n_shows, sizes)
        check_against_mir_eval(arrays)
        anns = [(annotation(r, "R"), annotation(h, "H")) for r, h in arrays]
        t = alternate(
            args.repeat, [("mir_eval", detection), ("boundaries", boundaries), ("coverage", coverage)], arrays
        )
        u = alternate(max(1, args.repeat // 2), [("pyannote", pyannote_four), ("tvseg", tvseg_both)], anns)
        print(
            f"| {label} ({n_shows} shows) | {t['mir_eval']:.3f} | {t['boundaries']:.3f} | {t['coverage']:.3f} "
            f"| {t['mir_eval'] / t['boundaries']:.2f}x; {t['mir_eval'] / t['coverage']:.2f}x "
            f"| {u['pyannote']:.3f} | {u['tvseg']:.3f} | {u['pyannote'] / u['tvseg']:.1f}x |",
            flush=True,
        )


if __name__ == "__main__":
    main()
