"""Benchmark: the per-show API (``tvseg.boundaries``, ``tvseg.coverage``) one call at a time, against
mir_eval and pyannote.metrics on the same shows, side by side in one process.

    python tests/benchmarks/bench_per_show_api.py [--shows 300] [--repeat 5] [--runs 5] [--gc]

Two kinds of show: news-like shows of 8 to 25 topic segments, and long shows of 100 segments; each
with a hypothesis that moves every boundary by a few seconds (some exactly onto the tolerance),
drops some and inserts others.

From ``(n, 2)`` float arrays: ``tvseg.boundaries(ref, hyp, tolerance=10)`` and
``tvseg.coverage(ref, hyp)`` each against ``mir_eval.segment.detection(ref, hyp, window=10,
trim=False)``, the hand-written boundary scorer people use (its interval arrays are its native
input). From pyannote Annotations, the per-show scoring people write with pyannote.metrics, one call
each: ``SegmentationPrecision`` and ``SegmentationRecall`` (tolerance 10 s) against
``tvseg.boundaries``, ``SegmentationPurity`` and ``SegmentationCoverage`` against ``tvseg.coverage``,
and all four against both. Issue 40's targets are printed with the ratios: tvseg's time over
mir_eval's at most 1.0, pyannote.metrics' time over tvseg's at least 20.

Times are per call (per show), the best of ``--repeat`` passes over all shows, in this process's CPU
time with the garbage collector off while timing (``--gc`` leaves it on); each tool is called once
before it is timed, and the tools of a comparison are timed in turns, the two kinds of show too.
``--runs N`` measures N times and adds each column's best and median. Before timing, tvseg's matched
counts are checked against mir_eval's (with ``trim=True``, whose boundaries are tvseg's: the show's
edges left out; and a window of 10 s + 1e-9, so that its float distances decide as tvseg's exact
ones on two-decimal times).

Measured again on 2026-12-07 15:15 (load 1.0, ``--runs 3``, medians): 8-25 segments: mir_eval 0.094 ms,
``tvseg.boundaries`` 0.063 ms (0.66), ``tvseg.coverage`` 0.050 ms (0.52); 100 segments: mir_eval 0.205 ms,
``tvseg.boundaries`` 0.182 ms (0.85), ``tvseg.coverage`` 0.134 ms (0.64). The session's start (01287d4) the same
hour: 100 segments ``tvseg.boundaries`` 1.04 (pairs given in order sorted again, one show's arrays concatenated).

Measured on 2026-12-07 (issue 40, the per-show speed piece) on the shared 2-core VM, load averages 6.8
before and 5.3 after (``uptime``: 6 helpers at work), ``--runs 5``: median of the five runs (best in
parentheses), ms per call and ratios:

=====================  ========  ================  ==============  ====================  =====================
shows                  mir_eval  tvseg.boundaries  tvseg.coverage  boundaries; coverage  pyannote.metrics over
                                                                   over mir_eval         tvseg: P+R; purity+
                                                                                         coverage; all four
=====================  ========  ================  ==============  ====================  =====================
8-25 segments (300)    0.064     0.043 (0.042)     0.035 (0.034)   0.67 (0.66); 0.55     4.9 (5.6); 88 (91);
                                                                   (0.53)                42.5 (43.5)
100 segments (75)      0.182     0.081 (0.079)     0.118 (0.112)   0.45 (0.43); 0.67     22 (26); 164 (174);
                                                                   (0.61)                97 (101)
=====================  ========  ================  ==============  ====================  =====================

From Annotations, news-like shows: pyannote's precision and recall 0.307 ms, purity and coverage 4.55 ms;
``tvseg.boundaries`` 0.062 ms, ``tvseg.coverage`` 0.052 ms. So pyannote.metrics' precision and recall
take 4.9 times ``tvseg.boundaries``' time, short of the issue's 20: that needs about 15 us a call, less
than reading and checking the two Annotations takes (about 20 us: their segments and labels are Python
objects), let alone the matching. Before this piece (the third piece's figures, load 3.4 to 4.0):
boundaries 0.060 ms and coverage 0.089 ms against mir_eval's 0.063 ms (0.97 and 1.43), 0.44 and 0.75 on
100-segment shows; pyannote.metrics over tvseg 3.5, 36 and 22 times.

Where a news-like call goes now (CPU time, best of 9 passes, against mir_eval's 64 us): ``tvseg.coverage``
32 us, of which reading and checking both sides once (``tvseg.retrieval.coverage.small_show``) 10 us, the
merge of both sides, the exact verdicts and the sums (``small_components``) 16 us, the rates and the
result 6 us; ``tvseg.boundaries`` 40 us, of which the same reading 10 us, the boundaries and their
matching (``tvseg.retrieval.boundaries.small_pairs`` 8 us) 22 us. A show of few segments given in
order (up to 128 segments a side for ``tvseg.coverage``, 32 for ``tvseg.boundaries``, where Python's
loops cost less than numpy's calls) is scored in Python integers by the corpus kernels' rules (the
boundary clusters by the matching kernel's own dynamic programme); ``tests/test_per_show_small_path.py``
checks their components and pairs equal the kernels' on random shows. Any other show, such as the
100-segment ones of ``tvseg.boundaries``, runs the corpus kernels on a corpus of one show.
"""

from __future__ import annotations

import argparse
import gc
import statistics
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


COLLECT = False
"""Leave the garbage collector on while timing (``--gc``)."""


def per_call(repeat, fn, items):
    """Best of ``repeat`` passes, in ms per item: this process's CPU time (``time.process_time``), so
    that the other processes of a shared machine do not count (its wall time would count the time it
    waits for a core); the garbage collector off while timing, as timeit has it (a collection of what
    another tool left would fall on whichever call triggers it)."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        if not COLLECT:
            gc.disable()
        try:
            t0 = time.process_time()
            for args in items:
                fn(*args)
            best = min(best, time.process_time() - t0)
        finally:
            gc.enable()
    return best * 1e3 / len(items)


def alternate(repeat, candidates, items):
    """Per-call ms of each ``(name, fn)``, timed in turns (each the best of its turns)."""
    best = {name: float("inf") for name, _ in candidates}
    for _, fn in candidates:  # a first call, which may import modules, left out
        fn(*items[0])
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


def load() -> str:
    """The machine's load averages (1, 5 and 15 minutes), when the system gives them."""
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


COLUMNS = (
    ("mir_eval", "mir_eval detection ms", "{:.3f}"),
    ("boundaries", "tvseg.boundaries ms", "{:.3f}"),
    ("coverage", "tvseg.coverage ms", "{:.3f}"),
    ("b_vs_mir", "boundaries / mir_eval time (<= 1.0)", "{:.2f}"),
    ("c_vs_mir", "coverage / mir_eval time (<= 1.0)", "{:.2f}"),
    ("pyannote_pr", "pyannote P+R ms (Annotations)", "{:.3f}"),
    ("pyannote_cov", "pyannote purity+coverage ms (Annotations)", "{:.3f}"),
    ("b_ann", "tvseg.boundaries ms (Annotations)", "{:.3f}"),
    ("c_ann", "tvseg.coverage ms (Annotations)", "{:.3f}"),
    ("pr_speedup", "pyannote P+R / tvseg.boundaries (>= 20)", "{:.1f}"),
    ("cov_speedup", "pyannote purity+coverage / tvseg.coverage (>= 20)", "{:.1f}"),
    ("all_speedup", "pyannote x4 / tvseg both (>= 20)", "{:.1f}"),
)
"""The figures of a row: key, heading (with the issue's target where it has one) and format."""


def measure(repeat, arrays, anns):
    """One row of figures (:data:`COLUMNS`) on these shows: each group of tools timed in turns."""
    import mir_eval
    from pyannote.metrics.segmentation import (
        SegmentationCoverage,
        SegmentationPrecision,
        SegmentationPurity,
        SegmentationRecall,
    )

    import tvseg

    boundary_metrics = [SegmentationPrecision(tolerance=10.0), SegmentationRecall(tolerance=10.0)]
    coverage_metrics = [SegmentationPurity(), SegmentationCoverage()]

    def detection(ref, hyp):
        return mir_eval.segment.detection(ref, hyp, window=10, trim=False)

    def boundaries(ref, hyp):
        return tvseg.boundaries(ref, hyp, tolerance=10)

    def coverage(ref, hyp):
        return tvseg.coverage(ref, hyp)

    def pyannote_pr(ref, hyp):
        return [metric(ref, hyp) for metric in boundary_metrics]

    def pyannote_cov(ref, hyp):
        return [metric(ref, hyp) for metric in coverage_metrics]

    t = alternate(repeat, [("mir_eval", detection), ("boundaries", boundaries), ("coverage", coverage)], arrays)
    u = alternate(
        max(1, repeat // 2),
        [("pyannote_pr", pyannote_pr), ("b_ann", boundaries), ("pyannote_cov", pyannote_cov), ("c_ann", coverage)],
        anns,
    )
    return {
        **t,
        **u,
        "b_vs_mir": t["boundaries"] / t["mir_eval"],
        "c_vs_mir": t["coverage"] / t["mir_eval"],
        "pr_speedup": u["pyannote_pr"] / u["b_ann"],
        "cov_speedup": u["pyannote_cov"] / u["c_ann"],
        "all_speedup": (u["pyannote_pr"] + u["pyannote_cov"]) / (u["b_ann"] + u["c_ann"]),
    }


def row(label, figures):
    return "| " + " | ".join([label, *(fmt.format(figures[key]) for key, _, fmt in COLUMNS)]) + " |"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--runs", type=int, default=1, help="measure this many times; then the best and the median")
    parser.add_argument("--gc", action="store_true", help="leave the garbage collector on while timing")
    args = parser.parse_args(argv)
    global COLLECT
    COLLECT = args.gc
    warnings.simplefilter("ignore")
    kinds = []
    for label, sizes, n_shows in (
        ("8-25 segments", (8, 25), args.shows),
        ("100 segments", (100, 100), max(1, args.shows // 4)),
    ):
        arrays = shows(n_shows, sizes)
        check_against_mir_eval(arrays)
        anns = [(annotation(r, "R"), annotation(h, "H")) for r, h in arrays]
        kinds.append((f"{label} ({n_shows} shows)", arrays, anns))
    print(f"load averages before: {load()}")
    print("per call, ms (best of --repeat passes; tools timed in turns); ratios: tvseg's time over mir_eval's, ")
    print("pyannote.metrics' time over tvseg's (from the same Annotations); the issue's targets in parentheses")
    print("| shows | " + " | ".join(heading for _, heading, _ in COLUMNS) + " |")
    results: dict[str, list[dict]] = {label: [] for label, _, _ in kinds}
    for run in range(args.runs):
        for label, arrays, anns in kinds:  # the two kinds in turns
            figures = measure(args.repeat, arrays, anns)
            results[label].append(figures)
            print(row(f"{label}, run {run + 1}", figures), flush=True)
    if args.runs > 1:
        for label, runs in results.items():
            for name, pick in (("best", min), ("median", statistics.median)):
                better_high = {"pr_speedup", "cov_speedup", "all_speedup"}
                figures = {
                    key: (max if key in better_high and pick is min else pick)([r[key] for r in runs])
                    for key, _, _ in COLUMNS
                }
                print(row(f"{label}, {name} of {args.runs}", figures))
    print(f"load averages after: {load()}")


if __name__ == "__main__":
    main()
