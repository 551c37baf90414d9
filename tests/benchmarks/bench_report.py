"""Time to write the HTML report of 2,000 shows scored for 3 systems (target: under 20 s on 2 cores).

The model comes from :func:`report_fixture.synthetic_report` (tests/report_fixture.py) (6-15 reference segments per
show, each system perturbing them), so only the rendering is timed: the corpus page, one page per
show with its SVG timeline and match tables, ``scores.json`` and the per-show CSVs, written to a
temporary folder and moved into place. Building the model is timed apart. Also prints the time for
n/4 shows (a linear renderer takes about a quarter as long).

Run: ``python tests/benchmarks/bench_report.py [--shows N] [--repeat R]``.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from tvseg.report import write_report
from report_fixture import synthetic_report


def timed(function, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        function()
        times.append(time.perf_counter() - t0)
    return times


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    systems = ("baseline", "speech", "diachronic")

    t0 = time.perf_counter()
    report = synthetic_report(args.shows, systems)
    build = time.perf_counter() - t0
    small = synthetic_report(max(args.shows // 4, 1), systems)
    n_segments = sum(len(s.reference) for s in report.shows)

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report"
        full = timed(lambda: write_report(report, out, progress=False), args.repeat)
        quarter = timed(lambda: write_report(small, out, progress=False), args.repeat)
        n_files = sum(1 for p in out.rglob("*") if p.is_file())
        size = sum(p.stat().st_size for p in (Path(tmp) / "report").rglob("*") if p.is_file())
    print(f"model: {args.shows} shows x {len(systems)} systems, {n_segments} reference segments "
          f"(built in {build:.2f} s)")
    print(f"write_report {args.shows} shows: best {min(full):.2f} s, median {statistics.median(full):.2f} s "
          f"over {args.repeat} runs (target < 20 s)")
    print(f"write_report {len(small.shows)} shows: best {min(quarter):.2f} s "
          f"(ratio full/quarter {min(full) / min(quarter):.2f}; linear: about 4)")
    print(f"last folder ({len(small.shows)} shows): {n_files} files, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
