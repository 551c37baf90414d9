"""Benchmark: ``tvseg.pk`` and ``tvseg.windowdiff`` one call at a time against nltk's ``pk`` and ``windowdiff``
on the same pairs, side by side in one process (issue 41: per call, no slower than nltk's functions).

    python tests/benchmarks/bench_pk_per_call.py [--shows 300] [--repeat 5] [--runs 3] [--seed 0]

Each show has ``N`` units, 200 to 600 (the breath groups of a 10 to 30 minute show: the corpus of
``bench_end_to_end.py`` has 330 a show), a reference of 8 to 25 segments, and a hypothesis that moves each
reference boundary by up to 5 units, drops a fifth of them and inserts a few. nltk takes a show as its
users write it, a string of one character per gap between units, ``"1"`` where a segment starts; tvseg
takes the segments' masses (units per segment) with ``convention="nltk"``. Both are given nltk's default
``k`` for the show (``round(len / (2 * boundaries))``, which ``pk`` computes and ``windowdiff`` needs given),
and every pair's values are checked equal before timing.

Times are per call (per show): the best of ``--repeat`` passes over all shows, in this process's CPU time
with the garbage collector off while timing (:func:`bench_per_show_api.per_call`), the four functions timed in
turns after one call each.
``--runs N`` measures N times and prints the median of the runs and their range.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_per_show_api import per_call  # noqa: E402 (this folder, added above: ms per call, the best of passes)


def shows(n_shows: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """``(reference masses, hypothesis masses)`` per show (see the module docstring)."""
    rng = np.random.default_rng(seed)
    pairs = []
    for _ in range(n_shows):
        n = int(rng.integers(200, 601))
        segments = int(rng.integers(8, 26))
        starts = np.sort(rng.choice(np.arange(1, n), size=segments - 1, replace=False))
        moved = starts + rng.integers(-5, 6, size=len(starts))
        kept = moved[rng.random(len(moved)) >= 0.2]
        inserted = rng.integers(1, n, size=int(rng.integers(0, 4)))
        hypothesis = np.unique(np.clip(np.concatenate([kept, inserted]), 1, n - 1))
        pairs.append((_masses(starts, n), _masses(hypothesis, n)))
    return pairs


def _masses(starts, n: int) -> list[int]:
    edges = [0, *sorted(int(s) for s in starts), n]
    return [b - a for a, b in zip(edges, edges[1:])]


def nltk_string(masses: list[int]) -> str:
    """One character per gap between units, ``"1"`` where a segment starts."""
    gaps = ["0"] * (sum(masses) - 1)
    at = 0
    for mass in masses[:-1]:
        at += mass
        gaps[at - 1] = "1"
    return "".join(gaps)


def nltk_k(reference: str) -> int:
    """nltk ``pk``'s default window for a reference string."""
    return int(round(len(reference) / (reference.count("1") * 2.0)))


def measure(repeat: int, pairs) -> dict[str, float]:
    from nltk.metrics.segmentation import pk, windowdiff

    import tvseg

    strings = [(nltk_string(r), nltk_string(h)) for r, h in pairs]
    ks = [nltk_k(r) for r, _ in strings]
    candidates = {
        "nltk pk": (lambda r, h, k: pk(r, h, k=k), [(r, h, k) for (r, h), k in zip(strings, ks)]),
        "tvseg.pk": (
            lambda r, h, k: tvseg.pk(r, h, k=k, convention="nltk"),
            [(r, h, k) for (r, h), k in zip(pairs, ks)],
        ),
        "nltk windowdiff": (lambda r, h, k: windowdiff(r, h, k), [(r, h, k) for (r, h), k in zip(strings, ks)]),
        "tvseg.windowdiff": (
            lambda r, h, k: tvseg.windowdiff(r, h, k=k, convention="nltk"),
            [(r, h, k) for (r, h), k in zip(pairs, ks)],
        ),
    }
    for fn, items in candidates.values():
        fn(*items[0])
    return {name: per_call(repeat, fn, items) for name, (fn, items) in candidates.items()}


def check(pairs) -> None:
    """Every pair's Pk and WindowDiff equal in both tools (1e-12)."""
    from nltk.metrics.segmentation import pk, windowdiff

    import tvseg

    for r, h in pairs:
        rs, hs = nltk_string(r), nltk_string(h)
        k = nltk_k(rs)
        assert abs(tvseg.pk(r, h, k=k, convention="nltk") - pk(rs, hs, k=k)) <= 1e-12, (r, h)
        assert abs(tvseg.windowdiff(r, h, k=k, convention="nltk") - windowdiff(rs, hs, k)) <= 1e-12, (r, h)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shows", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    pairs = shows(args.shows, args.seed)
    check(pairs)
    print(f"{len(pairs)} shows of 200-600 units, values equal in both tools; ms per call, {args.runs} runs")
    runs = [measure(args.repeat, pairs) for _ in range(args.runs)]
    for name in runs[0]:
        values = [run[name] for run in runs]
        print(f"{name:18s} median {statistics.median(values):.4f} ms (runs {min(values):.4f}-{max(values):.4f})")
    for metric in ("pk", "windowdiff"):
        ratios = [run[f"tvseg.{metric}"] / run[f"nltk {metric}"] for run in runs]
        print(
            f"tvseg.{metric} / nltk's: {statistics.median(ratios):.2f} (runs {min(ratios):.2f}-{max(ratios):.2f};"
            " issue 41: at most 1.0)"
        )


if __name__ == "__main__":
    main()
