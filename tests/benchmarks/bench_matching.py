"""Benchmark: the boundary matching kernel on one long show, against the code before it (issue 23).

    python tests/benchmarks/bench_matching.py [--sizes 1000 2000 4000 10000] [--before-rev 637b1a3] [--repeat 3]

One show of ``n`` five-second reference segments; the hypothesis moves each reference boundary by a
random 0 to 8 s (its boundaries sorted, duplicates dropped), so at the tolerances of a sweep every
boundary chains into one cluster. Timed, for each size:

- **evaluate**: what ``score_shows`` needs of the matching, the pairs at the settings' tolerance (10 s)
  and the matched count at each of the 31 tolerances 0, 1, ..., 30 s: *after*, one
  ``match_boundaries(..., tolerance=10, sweep=0..30)``; *before* (``--before-rev``), ``match_points`` at
  10 s and ``counts_at_tolerances`` at the other 30;
- **pairs**: the pairs at 10 s alone, the work of ``tvseg.boundaries``: ``match_boundaries(...,
  tolerance=10)`` after, ``match_points`` before.

Each measurement runs in a fresh process: the time is the best of ``--repeat`` runs, the memory the
growth of the process's peak resident size (``ru_maxrss``) during the runs. The *before* version is
the package at ``--before-rev`` extracted with ``git archive`` and imported in its child process. The
results of a task (counts at each tolerance, number of pairs and their total distance) are checked
equal across versions.
"""

from __future__ import annotations

import argparse
import importlib
import json
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
TOLERANCES = [float(t) for t in range(31)]
SETTINGS_TOLERANCE = 10.0


def one_show(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    ref = np.arange(1, n) * 5.0
    hyp = np.unique(np.round(ref + rng.uniform(0, 8, len(ref)), 2))
    return np.zeros(len(ref), np.int64), ref, np.zeros(len(hyp), np.int64), hyp


def load_before(rev: str):
    """The package as it was at ``rev``, extracted with ``git archive`` into a temporary folder and
    imported from there (in a child process of its own, which imports no other tvseg)."""
    folder = Path(tempfile.mkdtemp())
    archive = subprocess.run(["git", "archive", rev, "tvseg"], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    sys.path.insert(0, str(folder))
    for name in [m for m in sys.modules if m == "tvseg" or m.startswith("tvseg.")]:
        del sys.modules[name]
    return importlib.import_module("tvseg.retrieval.matching"), importlib.import_module("tvseg.retrieval.sweep_counts")


def child(version: str, task: str, n: int, repeat: int, rev: str) -> dict:
    """One measurement, in this process: best time of ``repeat`` runs, peak RSS growth, result."""
    args = one_show(n)
    sweep = TOLERANCES if task == "evaluate" else []

    def summary(pairs, counts):
        i, j = pairs
        distance = round(float(np.abs(args[1][i] - args[3][j]).sum()), 2)
        return [[int(counts[t].sum()) for t in sweep], len(i), distance]

    if version == "before":
        matching, sweep_counts = load_before(rev)

        def run():
            pairs = matching.match_points(*args, SETTINGS_TOLERANCE)
            rest = [t for t in sweep if t != SETTINGS_TOLERANCE]
            counts = sweep_counts.counts_at_tolerances(*args, rest, n_shows=1)
            counts[SETTINGS_TOLERANCE] = np.array([len(pairs[0])])
            return summary(pairs, counts)
    else:
        from tvseg.retrieval.matching import match_boundaries

        def run():
            m = match_boundaries(*args, tolerance=SETTINGS_TOLERANCE, sweep=sweep, n_shows=1)
            return summary(m.pairs, m.matched)

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    best, result = float("inf"), None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(repeat):
            started = time.perf_counter()
            result = run()
            best = min(best, time.perf_counter() - started)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": best, "peak_mb": (peak - base) / 1024, "result": result}


def measure(version: str, task: str, n: int, repeat: int, rev: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", version, task, str(n), "--repeat", str(repeat), "--before-rev", rev],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if out.returncode:
        return {"seconds": float("nan"), "peak_mb": float("nan"), "error": out.stderr.strip().splitlines()[-1:]}
    return json.loads(out.stdout)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 10000])
    parser.add_argument("--before-rev", default="637b1a3")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=3, metavar=("VERSION", "TASK", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        version, task, n = args.child
        print(json.dumps(child(version, task, int(n), args.repeat, args.before_rev)))
        return 0
    print(
        f"one show of n five-second segments; before = {args.before_rev}; evaluate = pairs at 10 s + "
        f"counts at the 31 tolerances 0..30 s; pairs = pairs at 10 s"
    )
    print(f"{'segments':>8}  {'task':<8} {'version':<7} {'time s':>9} {'peak MB':>8}  check")
    failed = False
    for n in args.sizes:
        for task in ("evaluate", "pairs"):
            first = None
            for version in ("before", "after"):
                m = measure(version, task, n, args.repeat, args.before_rev)
                if m.get("error"):
                    check = f"error: {m['error']}"
                elif first is None:
                    first, check = m["result"], ""
                else:
                    check = "same result" if m["result"] == first else f"DIFFERENT {m['result']}"
                    failed |= check.startswith("DIFFERENT")
                print(f"{n:>8}  {task:<8} {version:<7} {m['seconds']:>9.3f} {m['peak_mb']:>8.1f}  {check}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
