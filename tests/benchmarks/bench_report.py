"""Time and memory to write the HTML report of a large corpus, with 1 and more processes (issue 13).

Two inputs:

- by default a synthetic model, :func:`report_fixture.synthetic_report` (tests/report_fixture.py),
  of ``--shows`` shows x 3 systems (6-15 reference segments per show, each system perturbing them),
  so only the rendering is timed;
- with ``--corpus DIR``, the evaluation result of a corpus of ``bench_end_to_end.py`` (``ref/``,
  ``a.rttm``, ``b.rttm``, ``units.csv``, as ``--keep DIR`` leaves it; 1,000 bootstrap resamples),
  evaluated once (timed apart), as ``tvseg evaluate --html`` writes it.

For each ``--jobs`` value, ``write_report`` writes the whole report (the corpus page, one page per
show with its SVG timeline and match tables, ``scores.json``, the per-show CSVs) into a new folder,
in a child process of its own (forked after the input is built, so each run starts from the same
memory): wall time, CPU time of the child and of its pool, and the peak resident memory of the
child before and during the write (``VmHWM`` of ``/proc/self/status``, Linux) with the pool's
largest process. The folders written with each ``--jobs`` are checked identical byte for byte.

Run: ``python tests/benchmarks/bench_report.py [--shows N] [--corpus DIR] [--jobs 1,2] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import filecmp
import multiprocessing
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tvseg.report import write_report

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/, for report_fixture
from report_fixture import synthetic_report  # noqa: E402


def _hwm_mb() -> float:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(source, out: Path, jobs: int, queue) -> None:
    before = _hwm_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    write_report(source, out, progress=False, jobs=jobs, date="2000-01-01")
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    queue.put(
        {
            "wall": time.perf_counter() - t0,
            "cpu": time.process_time() - c0,
            "pool_cpu": children.ru_utime + children.ru_stime,
            "rss_before": before,
            "rss_peak": _hwm_mb(),
            "pool_rss": children.ru_maxrss / 1024,
        }
    )


def measure(source, out: Path, jobs: int) -> dict:
    """One write in a forked child: its wall and CPU times and peak memory."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_child, args=(source, out, jobs, queue))
    process.start()
    found = queue.get()
    process.join()
    if process.exitcode != 0:
        raise SystemExit(f"the report writer failed (exit {process.exitcode})")
    return found


def same_folders(a: Path, b: Path) -> bool:
    files_a = sorted(str(p.relative_to(a)) for p in a.rglob("*") if p.is_file())
    files_b = sorted(str(p.relative_to(b)) for p in b.rglob("*") if p.is_file())
    if files_a != files_b:
        return False
    return all(filecmp.cmp(a / f, b / f, shallow=False) for f in files_a)


def evaluated(folder: Path):
    import tvseg

    reference = tvseg.read_segments(str(folder / "ref"))
    systems = {name: tvseg.read_segments(str(folder / f"{name}.rttm")) for name in ("a", "b")}
    return tvseg.evaluate(
        reference, systems, units=tvseg.read_units(str(folder / "units.csv")), settings=tvseg.Settings(bootstrap=1000)
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=2000, help="shows of the synthetic model (default 2000)")
    parser.add_argument("--corpus", metavar="DIR", help="a corpus of bench_end_to_end.py (--keep DIR) to evaluate")
    parser.add_argument("--jobs", default="1,2", help="comma-separated numbers of processes (default 1,2)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    if not hasattr(os, "fork"):
        raise SystemExit("this benchmark forks: it needs a system with fork")
    jobs = [int(j) for j in args.jobs.split(",")]

    t0 = time.perf_counter()
    if args.corpus:
        source = evaluated(Path(args.corpus))
        what = f"evaluation result of {args.corpus}: {len(source.shows)} shows x {len(source.systems)} systems"
    else:
        source = synthetic_report(args.shows, ("baseline", "speech", "diachronic"))
        what = f"synthetic model: {len(source.shows)} shows x 3 systems"
    print(f"{what} (built in {time.perf_counter() - t0:.2f} s)")

    with tempfile.TemporaryDirectory() as tmp:
        folders = {}
        for n in jobs:
            runs = []
            for r in range(args.repeat):
                out = Path(tmp) / f"jobs{n}-{r}"
                runs.append(measure(source, out, n))
                folders.setdefault(n, out)
            best = min(runs, key=lambda m: m["wall"])
            print(
                f"jobs={n}: wall {best['wall']:.2f} s (median {statistics.median(m['wall'] for m in runs):.2f} s "
                f"over {len(runs)}), CPU {best['cpu']:.2f} s here + {best['pool_cpu']:.2f} s in the pool; "
                f"peak RSS {best['rss_before']:.0f} MB before -> {best['rss_peak']:.0f} MB "
                f"(+{best['rss_peak'] - best['rss_before']:.0f} MB), pool's largest process "
                f"{best['pool_rss']:.0f} MB"
            )
        first = folders[jobs[0]]
        n_files = sum(1 for p in first.rglob("*") if p.is_file())
        size = sum(p.stat().st_size for p in first.rglob("*") if p.is_file())
        identical = all(same_folders(first, folder) for folder in folders.values())
        print(f"{n_files} files, {size / 1e6:.1f} MB; identical bytes for jobs {args.jobs}: {identical}")
        if not identical:
            sys.exit(1)


if __name__ == "__main__":
    main()
