"""Benchmark: Pk and WindowDiff per call from masses, tvseg against nltk 3.10.4 and segeval 2.0.11.

One pair of 25,000-unit segmentations (1,000 segments each, mean 25 units). Each tool gets its own
input format ready-made (nltk its strings, segeval and tvseg lists of masses), so the conversion to
nltk's strings is not charged to nltk. Best of repeated runs in one process (timeit's advice).

    python tests/benchmarks/bench_unit_windows.py
"""

import timeit

import numpy as np
import segeval
from nltk.metrics import segmentation as nltk_seg

from tvseg.unit.windows import pk, windowdiff


def masses(rng, segments=1000, n=25_000):
    cuts = np.sort(rng.choice(np.arange(1, n), segments - 1, replace=False))
    return np.diff(np.concatenate(([0], cuts, [n]))).tolist()


def best(f, number, repeat=7):
    return min(timeit.repeat(f, number=number, repeat=repeat)) / number


def main():
    rng = np.random.default_rng(0)
    ref, hyp = masses(rng), masses(rng)
    a, b = ("1".join("0" * (m - 1) for m in x) for x in (ref, hyp))
    k = 12  # half the mean segment size (25 / 2 rounded down), the same for every tool
    assert abs(windowdiff(ref, hyp, k=k, convention="nltk") - nltk_seg.windowdiff(a, b, k)) < 1e-12
    assert abs(pk(ref, hyp, k=k, convention="nltk") - nltk_seg.pk(a, b, k)) < 1e-12
    assert (
        abs(windowdiff(ref, hyp, k=k, convention="segeval") - float(segeval.window_diff(hyp, ref, window_size=k)))
        < 1e-12
    )
    rows = [
        (
            "windowdiff",
            lambda: windowdiff(ref, hyp, k=k),
            lambda: nltk_seg.windowdiff(a, b, k),
            lambda: segeval.window_diff(hyp, ref, window_size=k),
        ),
        ("pk", lambda: pk(ref, hyp, k=k), lambda: nltk_seg.pk(a, b, k), lambda: segeval.pk(hyp, ref, window_size=k)),
    ]
    print(f"{'metric':<11}{'tvseg':>11}{'nltk':>11}{'segeval':>12}{'x nltk':>9}{'x segeval':>11}")
    for name, ours, theirs_nltk, theirs_segeval in rows:
        t = best(ours, 2000)
        tn = best(theirs_nltk, 5)
        ts = best(theirs_segeval, 1, repeat=3)
        print(f"{name:<11}{t * 1e3:>9.3f}ms{tn * 1e3:>9.2f}ms{ts * 1e3:>10.1f}ms{tn / t:>8.0f}x{ts / t:>10.0f}x")


if __name__ == "__main__":
    main()
