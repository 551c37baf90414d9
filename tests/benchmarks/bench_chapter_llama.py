"""Chapter-Llama's components and the grounding components on growing corpora (issue 28).

    python tests/benchmarks/bench_chapter_llama.py [--sizes 10000 100000 400000] [--repeat 3]

For each size (segments per side), a corpus of shows of 100 chapters each (random whole-second starts in a
3,600 s show, both sides drawn alike, titles from a small vocabulary so that the hypothesis is a grounding
submission and the grounding path runs whole) is scored by
:func:`tvseg.retrieval.chapter_llama.chapter_llama_components` and
:func:`tvseg.retrieval.grounding.grounding_components`; the best of ``--repeat`` wall times is printed, with
the time per segment (flat when the work is linear; the greedy average-tIoU pass is a sort and one loop
over the overlapping pairs).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tvseg.columns import Segments
from tvseg.retrieval.chapter_llama import chapter_llama_components
from tvseg.retrieval.grounding import grounding_components

PER_SHOW = 100
DURATION = 3600


def corpus(rng: np.random.Generator, n_shows: int) -> Segments:
    cuts = np.sort(rng.random((n_shows, DURATION - 1)).argsort(axis=1)[:, : PER_SHOW - 1] + 1, axis=1)
    start = np.concatenate((np.zeros((n_shows, 1)), cuts), axis=1).astype(float)
    end = np.concatenate((cuts, np.full((n_shows, 1), DURATION)), axis=1).astype(float)
    label = np.array([f"title {k % 7}" for k in range(n_shows * PER_SHOW)], dtype=object)
    show = np.repeat(np.arange(n_shows, dtype=np.int64), PER_SHOW)
    return Segments(show=show, start=start.ravel(), end=end.ravel(), label=label, n_shows=n_shows)


def best(repeat: int, function, *args) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 400_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(28)
    print(f"{'segments':>10} {'chapter_llama s':>16} {'us/segment':>11} {'grounding s':>12} {'us/segment':>11}")
    for size in args.sizes:
        n_shows = max(size // PER_SHOW, 1)
        reference, hypothesis = corpus(rng, n_shows), corpus(rng, n_shows)
        origin, end = np.zeros(n_shows), np.full(n_shows, float(DURATION))
        t_cl = best(args.repeat, chapter_llama_components, reference, hypothesis, n_shows, origin, end)
        t_g = best(args.repeat, grounding_components, reference, hypothesis, n_shows)
        n = n_shows * PER_SHOW
        print(f"{n:>10} {t_cl:>16.3f} {t_cl / n * 1e6:>11.2f} {t_g:>12.3f} {t_g / n * 1e6:>11.2f}")


if __name__ == "__main__":
    main()
