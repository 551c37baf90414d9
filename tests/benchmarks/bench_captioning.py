"""VidChapters' captioning metrics of titles (tvseg.retrieval.captioning) on growing corpora (issues 28, 44).

    python tests/benchmarks/bench_captioning.py [--shows 10 100 1000] [--per-show 10] [--java both|with|without]

Needs ``tvseg[captioning]``, and Java for the runs with it. The scorecard (METEOR, CIDEr-D, BLEU-1..4,
ROUGE-L, SODA_c) is timed twice by default: without Java (``java`` hidden from tvseg, as on a machine without
it: the titles tokenised by :mod:`tvseg.retrieval.ptb`, METEOR by :mod:`tvseg.retrieval.meteor`, whose data
are loaded first and timed on their own), then with Java (the PTB tokenizer's and METEOR's jars; METEOR's Java
process is started first and timed on its own: it loads its paraphrase table once per run). For each size, a
corpus of shows of ``--per-show`` chapters on each side (random whole-second cuts in a 600 s show, titles of 1
to 5 words from a small vocabulary) is scored by :func:`tvseg.retrieval.captioning.captioning_components`, and
the wall time is printed with the time per show (flat when the work is linear in the shows: per show, four
tIoU thresholds of pycocoevalcap scorers and one batch of METEOR segments for SODA_c), and the CPU time of
this process (the jar's own CPU is not in it).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tvseg.columns import Segments
from tvseg.retrieval import captioning

DURATION = 600
WORDS = np.array(["news", "weather", "sports", "report", "results", "election", "cooking", "pasta", "final", "recap"])


def corpus(rng: np.random.Generator, n_shows: int, per_show: int) -> Segments:
    cuts = np.sort(rng.random((n_shows, DURATION - 1)).argsort(axis=1)[:, : per_show - 1] + 1, axis=1)
    start = np.concatenate((np.zeros((n_shows, 1)), cuts), axis=1).astype(float)
    end = np.concatenate((cuts, np.full((n_shows, 1), DURATION)), axis=1).astype(float)
    label = np.array(
        [" ".join(rng.choice(WORDS, size=rng.integers(1, 6))) for _ in range(n_shows * per_show)], dtype=object
    )
    show = np.repeat(np.arange(n_shows, dtype=np.int64), per_show)
    return Segments(show=show, start=start.ravel(), end=end.ravel(), label=label, n_shows=n_shows)


def run(args: argparse.Namespace, *, java: bool) -> None:
    which = captioning.shutil.which
    if not java:
        captioning.shutil.which = lambda name: None  # type: ignore[assignment]  # as on a machine without Java
    try:
        missing = captioning.captioning_missing()
        if missing is not None:
            print(f"{'with' if java else 'without'} Java: not run, {missing}")
            return
        print(f"{'with' if java else 'without'} Java:")
        t = time.perf_counter()
        if java:
            captioning.Scorers().meteor_segments(["a"], ["a"])
            print(f"  METEOR's jar started (paraphrase table loaded): {time.perf_counter() - t:.1f} s")
        else:
            from tvseg.retrieval import meteor

            meteor._data().paraphrases()
            print(f"  METEOR's data read from the jar (paraphrase table loaded): {time.perf_counter() - t:.1f} s")
        rng = np.random.default_rng(0)
        for n in args.shows:
            reference, hypothesis = corpus(rng, n, args.per_show), corpus(rng, n, args.per_show)
            t, cpu = time.perf_counter(), time.process_time()
            comp = captioning.captioning_components(reference, hypothesis, n)
            elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
            assert "dvc_meteor_sum" in comp and "soda_c_sum" in comp
            print(
                f"  {n:6d} shows x {args.per_show} chapters: {elapsed:8.2f} s, CPU {cpu:6.2f} s "
                f"({1000 * elapsed / n:.1f} ms per show)"
            )
    finally:
        captioning.shutil.which = which  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shows", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--per-show", type=int, default=10)
    parser.add_argument("--java", choices=("both", "with", "without"), default="both")
    parser.add_argument("--without-java", action="store_true", help="the same as --java without")
    args = parser.parse_args()
    if args.without_java:
        args.java = "without"
    if args.java in ("both", "without"):
        run(args, java=False)
    if args.java in ("both", "with"):
        run(args, java=True)


if __name__ == "__main__":
    main()
