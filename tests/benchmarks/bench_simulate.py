"""Benchmark: the full Pevzner & Hearst reproduction (Tables 1-3) against nltk and segeval.

Run:  python tests/benchmarks/bench_simulate.py [--repeat 3] [--sample 10]

1. Times ``tvseg.simulate.pevzner_hearst.run()`` (43 experiments x 10 trials x 100 hypotheses of
   1,000 segments, Pk, P'k and WindowDiff) in one process, and with ``jobs=2``; best and median of
   ``--repeat`` runs.
2. Times nltk's and segeval's ``pk`` and ``windowdiff`` on a sample of hypotheses of one cell
   (Table 1, FN, p = 0.5, (20, 30)); the time of the full cell (1,000 hypotheses) and of the full
   study (43 cells) is EXTRAPOLATED from that sample, linearly in the number of hypotheses. Neither
   tool has P'k, so the extrapolation counts one ``pk`` and one ``windowdiff`` call per hypothesis
   (a lower bound: P'k would need a third pass).
3. Prints the ratios (tool's extrapolated time / ours, in one process).

Not a test: timings on a shared machine are noisy; run it a few times and read the medians.
"""

from __future__ import annotations

import argparse
import statistics
import time


def _time(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of the full study (default 3)")
    parser.add_argument("--sample", type=int, default=10, help="hypotheses timed per tool (default 10)")
    args = parser.parse_args()

    import segeval
    from nltk.metrics.segmentation import pk as nltk_pk
    from nltk.metrics.segmentation import windowdiff as nltk_windowdiff

    from tvseg.simulate import pevzner_hearst as ph
    from tvseg.simulate.generators import hypotheses, reference_masses
    from tvseg.simulate.study import experiment_rng, run_experiment, window_size
    from tvseg.unit.masses import from_indicator, to_indicator

    n_cells = len(ph.experiments())
    per_cell = 10 * 100

    best1, median1 = _time(lambda: ph.run(jobs=1), args.repeat)
    best2, median2 = _time(lambda: ph.run(jobs=2), args.repeat)
    print(f"tvseg, full study ({n_cells} experiments x 10 trials x 100 hypotheses, Pk + P'k + WD):")
    print(f"  jobs=1: best {best1:.2f} s, median {median1:.2f} s of {args.repeat}")
    print(f"  jobs=2: best {best2:.2f} s, median {median2:.2f} s of {args.repeat}")

    rng = experiment_rng(0, "bench", "1", "FN", 0.5, (20, 30))
    masses = reference_masses(rng, 1000, (20, 30))
    k = window_size((20, 29))  # sizes 20..29: mean 24.5, k = 12
    hyps = hypotheses(rng, masses, "FN", 0.5, args.sample)
    ref_string = "".join("1" if b else "0" for b in to_indicator(masses))
    hyp_strings = ["".join("1" if b else "0" for b in row) for row in hyps]
    hyp_masses = [tuple(int(x) for x in from_indicator(row)) for row in hyps]
    ref_masses = tuple(int(x) for x in masses)

    def run_nltk():
        for h in hyp_strings:
            nltk_pk(ref_string, h, k)
            nltk_windowdiff(ref_string, h, k)

    def run_segeval():
        for h in hyp_masses:
            segeval.pk(h, ref_masses, window_size=k)
            segeval.window_diff(h, ref_masses, window_size=k)

    ours_cell_best, ours_cell_median = _time(
        lambda: run_experiment(
            "pevzner-hearst", ("1", "FN", 0.5, (20, 30)), trials=10, n_hypotheses=100, seed=0, metrics=ph.window_metrics
        ),
        args.repeat,
    )
    print(f"tvseg, one cell (Table 1 FN (20, 30), 1,000 hypotheses): best {ours_cell_best:.3f} s")

    for name, fn in (("nltk", run_nltk), ("segeval", run_segeval)):
        best, median = _time(fn, max(1, min(args.repeat, 2)))
        per_hyp = best / args.sample
        cell = per_hyp * per_cell
        study = cell * n_cells
        print(f"{name}: {args.sample} hypotheses measured, {per_hyp * 1e3:.1f} ms per hypothesis (pk + windowdiff)")
        print(f"  EXTRAPOLATED: one cell {cell:.0f} s, full study {study:.0f} s ({study / 60:.1f} min)")
        print(f"  ratio {name} / tvseg: cell {cell / ours_cell_best:.0f}x, full study {study / best1:.0f}x (jobs=1)")


if __name__ == "__main__":
    main()
