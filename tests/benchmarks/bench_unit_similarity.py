"""Speed of S and B against segeval 2.0.11, per call from masses.

One pair of 25,000-unit segmentations of 1,000 segments each (mean 25 units), as in issue 4. Best of
repeated runs in one process (timeit's advice: the minimum is the least disturbed by other work).

    python tests/benchmarks/bench_unit_similarity.py [--repeat 7]

Targets: S and B at least 50x faster than segeval's (about 2.5 ms per call or less).
"""

from __future__ import annotations

import argparse
import timeit

import numpy as np


def segmentation(rng, total=25_000, segments=1_000):
    cuts = np.sort(rng.choice(np.arange(1, total), segments - 1, replace=False))
    return np.diff(np.concatenate(([0], cuts, [total]))).tolist()


def best(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import segeval

    from tvseg.unit.similarity import boundary_similarity, segmentation_similarity

    rng = np.random.default_rng(args.seed)
    a, b = segmentation(rng), segmentation(rng)
    a_t, b_t = tuple(a), tuple(b)
    # the two compute the same thing first (segeval's S weighs a 2-wise transposition 0.5: weights (1, 0.5))
    assert abs(boundary_similarity(a, b) - float(segeval.boundary_similarity(a_t, b_t))) < 1e-12
    assert (
        abs(segmentation_similarity(a, b, weights=(1.0, 0.5)) - float(segeval.segmentation_similarity(a_t, b_t)))
        < 1e-12
    )

    rows = [
        ("S", lambda: segmentation_similarity(a, b), lambda: segeval.segmentation_similarity(a_t, b_t)),
        ("B", lambda: boundary_similarity(a, b), lambda: segeval.boundary_similarity(a_t, b_t)),
        ("S n=5", lambda: segmentation_similarity(a, b, n=5), lambda: segeval.segmentation_similarity(a_t, b_t, n_t=5)),
        ("B n=5", lambda: boundary_similarity(a, b, n=5), lambda: segeval.boundary_similarity(a_t, b_t, n_t=5)),
    ]
    print(f"one pair, 25,000 units, 1,000 segments each; best of {args.repeat} runs")
    print(f"{'metric':<8} {'tvseg (ms)':>11} {'segeval (ms)':>13} {'ratio':>8}")
    for name, ours, theirs in rows:
        t_ours = best(ours, number=50, repeat=args.repeat)
        t_theirs = best(theirs, number=1, repeat=max(3, args.repeat // 2))
        print(f"{name:<8} {t_ours * 1e3:>11.3f} {t_theirs * 1e3:>13.1f} {t_theirs / t_ours:>7.0f}x")


if __name__ == "__main__":
    main()
