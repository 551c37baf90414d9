"""Benchmark: one long show, the whole ``tvseg evaluate`` command as a user runs it (issues 30, 41).

    python tests/benchmarks/bench_long_show.py [--segments 100000,200000,400000,800000]
        [--regions 125000,250000,500000,1000000] [--repeat 1] [--keep DIR] [--untitled]
        [--titles few|distinct] [--rouge-only]

Two series, each size twice the one before, each run a process of its own (imports, reading, scoring,
JSON), timed from outside, its CPU time (user + system) and peak memory the process's ``ru_utime +
ru_stime`` and ``ru_maxrss``:

1. ``--frame 1`` on one show of N reference segments and about N hypothesis segments (1 to 3 s each,
   random labels, so that an 800,000-segment show stays under the 2,000,000 frames a show may have):
   frame conversion, unit metrics on N boundaries (GHD included), time metrics;
2. ``--uem`` with N regions in one show (1 to 4 s each, gaps of 0 to 2 s, some regions touching) and
   a reference and hypothesis of segments spanning about 3 regions each: reading the UEM, cropping both
   sides to it, the gapped region of every time metric.

Labels are titles unless ``--untitled`` (then no title metric is computed): ``--titles few`` (the
default) draws each from ``T0`` .. ``T49``, ``--titles distinct`` titles segment i ``S(i + 0..2)`` (a
title at most 3 times a side). The whole-list title ROUGE-L of the show is a longest common subsequence
of its N titles against the hypothesis's: with 50 titles, N^2/50 matching pairs, bit-parallel (N^2/30
digit operations), the one step that is not linear; with distinct titles about N pairs, Hunt-Szymanski,
near-linear. ``--rouge-only`` times that step alone (``rouge_l_list``, in this process) on series 1's
titles. Issue 41, CPU s of that step at 200,000 / 400,000 segments (load 5-6), before -> after: few titles
2.8 / 11.2-11.8 -> 1.8 / 6.7-7.4 (still 3.7-4.0x per doubling); distinct 4.4 / 17-19 -> 0.7-0.85 / 1.45-1.65.

Printed: the time, CPU time and peak memory of each size and the ratio of each to the size before it
(linear: 2x; issue 30 asks at most 2.5x). Before issue 30: 40,000 segments 8.1 s, 80,000 29.4 s (GHD's
quadratic programme); 8,000 regions 8.0 s, 16,000 28.1 s (a copy of the region list per segment).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

UNTITLED = False  # --untitled: every label <NA>, no title metric
DISTINCT = False  # --titles distinct: segment i titled S(i + 0..2), a title used at most 3 times a side


def write_segments(path: Path, start: np.ndarray, end: np.ndarray, rng) -> None:
    if DISTINCT:
        codes = (np.arange(start.size) + rng.integers(0, 3, start.size)).tolist()
        labels = [f"S{k}" for k in codes]
    else:
        labels = ["<NA>" if UNTITLED else f"T{k}" for k in rng.integers(0, 50, start.size).tolist()]
    lines = [f"SPEAKER show 1 {a:.3f} {b - a:.3f} <NA> <NA> {k} <NA> <NA>\n" for a, b, k in zip(start, end, labels)]
    path.write_text("".join(lines))


def frame_inputs(folder: Path, n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    paths = []
    for side in ("ref", "hyp"):
        length = rng.integers(1, 4, n).astype(float)  # whole seconds: 1 to 3
        end = np.cumsum(length)
        start = end - length
        path = folder / f"{side}_{n}.rttm"
        write_segments(path, start, end, rng)
        paths.append(str(path))
    return ["--reference", paths[0], "--hypothesis", f"a={paths[1]}", "--frame", "1"]


def uem_inputs(folder: Path, n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    length = rng.integers(1, 5, n).astype(float)
    gap = rng.integers(0, 3, n).astype(float)  # 0: the region touches the one before
    start = np.cumsum(length + gap) - length
    end = start + length
    uem = folder / f"regions_{n}.uem"
    uem.write_text("".join(f"show 1 {a:.3f} {b:.3f}\n" for a, b in zip(start, end)))
    paths = []
    for side in ("ref", "hyp"):
        cut = np.unique(rng.uniform(0, end[-1], n // 3).round(3))
        edges = np.concatenate(([0.0], cut, [end[-1]]))
        path = folder / f"uem_{side}_{n}.rttm"
        write_segments(path, edges[:-1], edges[1:], rng)
        paths.append(str(path))
    return ["--reference", paths[0], "--hypothesis", f"a={paths[1]}", "--uem", str(uem)]


def run(arguments: list[str], folder: Path) -> tuple[float, float, float]:
    """Wall time (s), peak memory (MB) and CPU time (s, user + system) of one ``python -m tvseg evaluate``
    process."""
    command = [sys.executable, "-m", "tvseg", "evaluate", *arguments, "--no-html", "--json", str(folder / "out.json")]
    with open(folder / "stderr.txt", "w+b") as stderr:
        begin = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - begin
        if status != 0:
            stderr.seek(0)
            raise SystemExit(f"tvseg evaluate failed ({status}):\n{stderr.read().decode()[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def series(name: str, sizes: list[int], make, folder: Path, repeat: int) -> None:
    print(f"\n{name}")
    header = (
        f"{'size':>10}  {'time (s)':>9}  {'ratio':>6}  {'CPU (s)':>8}  {'ratio':>6}  {'peak (MB)':>9}  {'ratio':>6}"
    )
    print(header, flush=True)
    before = None
    for n in sizes:
        arguments = make(folder, n, seed=n)
        runs = [run(arguments, folder) for _ in range(repeat)]
        best = min(r[0] for r in runs)
        cpu = min(r[2] for r in runs)
        peak = max(r[1] for r in runs)
        ratio_t = f"{best / before[0]:.2f}x" if before else "-"
        ratio_c = f"{cpu / before[1]:.2f}x" if before else "-"
        ratio_m = f"{peak / before[2]:.2f}x" if before else "-"
        print(
            f"{n:>10,}  {best:>9.2f}  {ratio_t:>6}  {cpu:>8.2f}  {ratio_c:>6}  {peak:>9.0f}  {ratio_m:>6}", flush=True
        )
        before = (best, cpu, peak)


def title_list_rouge(sizes: list[int], folder: Path, repeat: int) -> None:
    """CPU time of the whole-list title ROUGE-L alone (``rouge_l_list``), in this process, on the titles
    of series 1's inputs."""
    from tvseg.retrieval.rouge import rouge_l_list

    print("\none show: the whole-list title ROUGE-L alone")
    print(f"{'size':>10}  {'CPU (s)':>8}  {'ratio':>6}  {'F':>8}", flush=True)
    before = None
    for n in sizes:
        arguments = frame_inputs(folder, n, seed=n)
        reference, hypothesis = (
            [line.split()[7] for line in Path(path.removeprefix("a=")).read_text().splitlines()]
            for path in (arguments[1], arguments[3])
        )
        times = []
        for _ in range(repeat):
            begin = time.process_time()
            score = rouge_l_list(reference, hypothesis)
            times.append(time.process_time() - begin)
        cpu = min(times)
        ratio = f"{cpu / before:.2f}x" if before else "-"
        print(f"{n:>10,}  {cpu:>8.2f}  {ratio:>6}  {score.fmeasure:>8.5f}", flush=True)
        before = cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", default="100000,200000,400000,800000")
    parser.add_argument("--regions", default="125000,250000,500000,1000000")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--keep", metavar="DIR", help="write the inputs there (default: a temporary folder)")
    parser.add_argument("--untitled", action="store_true", help="segments without titles (no title metric)")
    parser.add_argument(
        "--rouge-only", action="store_true", help="time only the whole-list title ROUGE-L of series 1's titles"
    )
    parser.add_argument(
        "--titles",
        choices=["few", "distinct"],
        default="few",
        help="few: 50 titles drawn at random (default); distinct: segment i titled S(i + 0..2)",
    )
    args = parser.parse_args()
    global UNTITLED, DISTINCT
    UNTITLED = args.untitled
    DISTINCT = args.titles == "distinct"
    sizes = [int(x) for x in args.segments.split(",") if x]
    regions = [int(x) for x in args.regions.split(",") if x]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        if args.rouge_only:
            title_list_rouge(sizes, folder, args.repeat)
            return
        if sizes:
            series("one show, --frame 1: reference segments", sizes, frame_inputs, folder, args.repeat)
        if regions:
            series("one show, --uem: regions", regions, uem_inputs, folder, args.repeat)


if __name__ == "__main__":
    main()
