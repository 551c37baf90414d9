"""``tvseg validate`` of a units table against ``tvseg evaluate`` reading it (issue 30): time and peak memory.

validate reads a file with the readers evaluate uses and adds only its report, so validating a units
table must cost no more than evaluate reading it. On a units table of ``--shows`` shows of ``--units``
breath groups each (``show,start,end,text,speaker,topic``; 3,000 x 333, about 1M rows, by default), each
command runs in its own process, timed with the wall clock around it and its peak resident memory taken
from the ``struct rusage`` that ``os.wait4`` returns for it (``ru_maxrss``):

- ``tvseg validate units.csv``;
- ``tvseg evaluate --units units.csv`` with a two-segment reference per show, the same file as the
  system, ``--bootstrap 0`` and no report: the whole command, reading, checks and scoring;
- ``read_units(units.csv)`` alone in ``python -c``: the reading that evaluate does for ``--units``.

Best of ``--repeat`` runs for the time, the largest peak over them. Run:
``python tests/benchmarks/bench_validate.py [--shows 3000] [--units 333] [--repeat 3] [--keep DIR]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def write_corpus(folder: Path, shows: int, units: int) -> tuple[Path, Path]:
    """A units table and a reference RTTM covering each show's units (two segments per show)."""
    import numpy as np

    rng = np.random.default_rng(0)
    table = folder / "units.csv"
    with table.open("w", encoding="utf-8") as out:
        out.write("show,start,end,text,speaker,topic\n")
        ends = []
        for s in range(shows):
            # milliseconds: units of 1-6 s with 0.2 s gaps, topics of 40 units
            length = rng.integers(1000, 6000, size=units)
            start = np.concatenate(([0], np.cumsum(length + 200)[:-1]))
            end = start + length
            out.write(
                "".join(
                    f"show{s:05d},{a / 1000:.3f},{b / 1000:.3f},words {i},spk{i % 3},topic{i // 40}\n"
                    for i, (a, b) in enumerate(zip(start.tolist(), end.tolist()))
                )
            )
            ends.append(int(end[-1]))
    reference = folder / "reference.rttm"
    reference.write_text(
        "".join(
            f"SEGMENT show{s:05d} 1 0.000 {end / 2000:.3f} <NA> <NA> a <NA> <NA>\n"
            f"SEGMENT show{s:05d} 1 {end / 2000:.3f} {end / 1000 - end / 2000:.3f} <NA> <NA> b <NA> <NA>\n"
            for s, end in enumerate(ends)
        ),
        encoding="utf-8",
    )
    return table, reference


def measure(argv: list[str]) -> tuple[float, float]:
    """Wall time (s) and peak resident memory (MB) of one child process running ``argv``."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    assert child.stderr is not None
    err = child.stderr.read().decode("utf-8", "replace")
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {child.returncode}:\n{err}")
    return elapsed, usage.ru_maxrss / 1024  # Linux: ru_maxrss in KB


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shows", type=int, default=3000)
    parser.add_argument("--units", type=int, default=333, help="units per show")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="write the corpus here and keep it")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        table, reference = write_corpus(folder, args.shows, args.units)
        python = [sys.executable]
        commands = {
            "tvseg validate units.csv": [*python, "-m", "tvseg", "validate", str(table)],
            "tvseg evaluate --units units.csv": [
                *python,
                "-m",
                "tvseg",
                "evaluate",
                "--reference",
                str(reference),
                "--hypothesis",
                f"a={reference}",
                "--units",
                str(table),
                "--bootstrap",
                "0",
            ],
            "read_units(units.csv) alone": [
                *python,
                "-c",
                f"import tvseg; tvseg.read_units({str(table)!r})",
            ],
        }
        rows = args.shows * args.units
        print(f"units table: {args.shows:,} shows, {rows:,} rows, {table.stat().st_size / 1e6:.0f} MB")
        results = {name: [] for name in commands}
        for _ in range(args.repeat):  # in turns, so that a busy moment of the machine spreads over all
            for name, command in commands.items():
                results[name].append(measure(command))
        print(f"{'command':<36} {'time (best of ' + str(args.repeat) + ')':>20} {'peak memory':>14}")
        best = {}
        for name, runs in results.items():
            best[name] = (min(t for t, _ in runs), max(m for _, m in runs))
            times = ", ".join(f"{t:.2f}" for t, _ in runs)
            print(f"{name:<36} {best[name][0]:>9.2f} s ({times}) {best[name][1]:>9.0f} MB")
        validate, evaluate = best["tvseg validate units.csv"], best["tvseg evaluate --units units.csv"]
        print(
            f"validate / evaluate: time {validate[0] / evaluate[0]:.2f}x, peak memory {validate[1] / evaluate[1]:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
