"""Benchmark: the peak memory of ``tvseg evaluate --html DIR --json F`` against ``--json F`` alone (issue 40).

    python tests/benchmarks/bench_report_memory.py [--shows 20000] [--keep DIR] [--jobs N] [--bootstrap 1000]
        [--only json|html]

The corpus is bench_end_to_end.py's (:func:`bench_end_to_end.corpus`: a reference folder of one RTTM file
per show, two systems in one RTTM file each, breath-group units in one CSV file; ``--keep DIR`` reuses one
written before with the same ``--shows``). Each command runs in a process of its own, one after the other;
printed for each: the peak resident memory of the largest process of the run (``ru_maxrss`` of the
children, the command and the processes it forks to write the show pages), the CPU time (user + system
of the command and its processes) and the wall time; then the ratio of the peaks. ``--shows 200000`` is
the corpus of the issue's second target (``--html`` under 1.5 GB); ``--only html`` skips the JSON run.

The two runs' ``scores.json`` (the report's ``data/scores.json`` and the ``--json`` file) are checked equal
apart from the run id.

Measured 2026-12-06 on 2 shared CPUs (other jobs running), one process (no ``--jobs``), bootstrap 1000:
see the CHANGELOG's entry of issue 40 for the figures before and after the report was streamed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_end_to_end import corpus  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _measured(argv: list[str]) -> dict:
    """Peak RSS (MB), CPU and wall seconds of ``argv`` run in a child process (measured in a grandchild of
    this script, so that ``RUSAGE_CHILDREN`` counts that run alone)."""
    probe = (
        "import resource, subprocess, sys, time, json\n"
        "t0 = time.perf_counter()\n"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
        "wall = time.perf_counter() - t0\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(json.dumps({'peak_mb': u.ru_maxrss / 1024, 'cpu': u.ru_utime + u.ru_stime, 'wall': wall}))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe, *argv], check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _argv(folder: Path, out: Path, bootstrap: int, extra: list[str]) -> list[str]:
    return [
        sys.executable,
        "-m",
        "tvseg",
        "evaluate",
        "--reference",
        str(folder / "ref"),
        "--hypothesis",
        f"a={folder / 'a.rttm'}",
        "--hypothesis",
        f"b={folder / 'b.rttm'}",
        "--units",
        str(folder / "units.csv"),
        "--bootstrap",
        str(bootstrap),
        "--json",
        str(out),
        "--quiet",
        *extra,
    ]


def _without_run_id(path: Path) -> dict:
    data = json.loads(path.read_text())
    data.pop("run_id", None)
    return data


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=20000)
    parser.add_argument("--keep", metavar="DIR", help="the corpus folder (written when new, reused when it matches)")
    parser.add_argument("--jobs", type=int, default=None, help="--jobs of the command (default: none given)")
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--only", choices=("json", "html"), help="run one of the two commands")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)
    folder, counts, generated, tmp = corpus(args.keep, args.shows, args.seed)
    if generated is not None:
        print(f"corpus of {args.shows} shows written in {generated:.1f} s: {counts}")
    extra = [] if args.jobs is None else ["--jobs", str(args.jobs)]
    rows = {}
    with tempfile.TemporaryDirectory(prefix="tvseg-report-memory-") as out:
        out_dir = Path(out)
        if args.only != "html":
            rows["--json"] = _measured(_argv(folder, out_dir / "a.json", args.bootstrap, extra))
        if args.only != "json":
            report = out_dir / "report"
            rows["--html --json"] = _measured(
                _argv(folder, out_dir / "b.json", args.bootstrap, [*extra, "--html", str(report)])
            )
            pages = sum(1 for _ in (report / "shows").iterdir())
            print(f"report: {pages} show pages")
            if args.only is None:
                same = _without_run_id(out_dir / "a.json") == _without_run_id(report / "data" / "scores.json")
                print(f"--json's file and the report's data/scores.json equal (run id aside): {same}")
                if not same:
                    return 1
    print(f"{args.shows} shows x 2 systems, units, bootstrap {args.bootstrap}, jobs {args.jobs or 'not given'}")
    print(f"{'command':<16} {'peak RSS':>10} {'CPU':>9} {'wall':>9}")
    for name, row in rows.items():
        print(f"{name:<16} {row['peak_mb']:>7.0f} MB {row['cpu']:>7.1f} s {row['wall']:>7.1f} s")
    if len(rows) == 2:
        print(f"peak ratio --html / --json: {rows['--html --json']['peak_mb'] / rows['--json']['peak_mb']:.2f}")
    del tmp
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
