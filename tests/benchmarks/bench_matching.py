"""Benchmark: boundary matching on one long show, before and after the banded DP and the greedy count.

    python tests/benchmarks/bench_matching.py [--sizes 1000 2000 4000 10000] [--before-max 2000]
                                              [--before-rev fe666cb] [--repeat 3]

One show of ``n`` five-second reference segments; the hypothesis moves each reference boundary by a
random 0 to 8 s (its boundaries sorted, duplicates dropped), so at the tolerances of a sweep every
boundary chains into one cluster. Timed, for each size:

- **sweep**: the matched count at the 31 tolerances 0, 1, ..., 30 s, as ``score_shows`` needs it:
  ``count_matched`` (after), ``match_points`` once per tolerance (``match_points x31``: what
  ``score_shows`` calls today, with the new ``match_points``; and *before*, the version of
  ``--before-rev``);
- **pairs**: ``match_points`` at the settings' tolerance, 10 s.

Each measurement runs in a fresh process: the time is the best of ``--repeat`` runs (one for the
*before* version, whose runs are long), the memory the growth of the process's peak resident size
(``ru_maxrss``) during the runs, so an ``(n+1)^2`` table shows and nothing slows the code the way
``tracemalloc`` does. The *before* version is the file at ``--before-rev`` loaded from git; sizes
above ``--before-max`` are skipped for it (its sweep took 191 s at 4,000 segments and its table
would need gigabytes at 10,000).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
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
    """``tvseg.retrieval.boundaries`` as it was at ``rev``: the whole package of that commit, extracted
    with ``git archive`` into a temporary folder and imported from there (this runs in a child process
    of its own, which imports no other tvseg)."""
    folder = Path(tempfile.mkdtemp())
    archive = subprocess.run(["git", "archive", rev, "tvseg"], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    sys.path.insert(0, str(folder))
    for name in [m for m in sys.modules if m == "tvseg" or m.startswith("tvseg.")]:
        del sys.modules[name]
    return importlib.import_module("tvseg.retrieval.boundaries")


def child(version: str, call: str, n: int, repeat: int, rev: str) -> dict:
    """One measurement, in this process: best time of ``repeat`` runs, peak RSS growth, result."""
    if version == "before":
        module = load_before(rev)
    else:
        from tvseg.retrieval import boundaries as module
    args = one_show(n)
    if call == "count_matched":

        def run():
            return [int(module.count_matched(*args, t).sum()) for t in TOLERANCES]
    elif call == "match_points x31":

        def run():
            return [len(module.match_points(*args, t)[0]) for t in TOLERANCES]
    else:

        def run():
            i, j = module.match_points(*args, SETTINGS_TOLERANCE)
            return [len(i), round(float(np.abs(args[1][i] - args[3][j]).sum()), 2)]

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


def measure(version: str, call: str, n: int, repeat: int, rev: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", version, call, str(n), "--repeat", str(repeat), "--before-rev", rev],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if out.returncode:
        return {
            "seconds": float("nan"),
            "peak_mb": float("nan"),
            "result": None,
            "error": out.stderr.strip().splitlines()[-1:],
        }
    return json.loads(out.stdout)


ROWS = [  # (task, version, call); results of one task must agree across versions
    ("sweep", "after", "count_matched"),
    ("sweep", "after", "match_points x31"),
    ("sweep", "before", "match_points x31"),
    ("pairs", "after", "match_points 10 s"),
    ("pairs", "before", "match_points 10 s"),
]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 10000])
    parser.add_argument("--before-max", type=int, default=2000)
    parser.add_argument("--before-rev", default="fe666cb")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=3, metavar=("VERSION", "CALL", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        version, call, n = args.child
        print(json.dumps(child(version, call, int(n), args.repeat, args.before_rev)))
        return 0
    print(
        f"one show of n five-second segments; before = {args.before_rev}; "
        f"sweep = 31 tolerances 0..30 s; pairs = tolerance 10 s"
    )
    print(f"{'segments':>8}  {'task':<6} {'version':<7} {'call':<18} {'time s':>9} {'peak MB':>8}  check")
    failed = False
    for n in args.sizes:
        first = {}
        for task, version, call in ROWS:
            head = f"{n:>8}  {task:<6} {version:<7} {call:<18}"
            if version == "before" and n > args.before_max:
                print(f"{head} {'skipped':>9}", flush=True)
                continue
            m = measure(version, call, n, 1 if version == "before" else args.repeat, args.before_rev)
            check = ""
            if m.get("error"):
                check = f"error: {m['error']}"
            elif task in first:
                check = "same result" if m["result"] == first[task] else f"DIFFERENT {m['result']}"
                failed |= check.startswith("DIFFERENT")
            else:
                first[task] = m["result"]
            print(f"{head} {m['seconds']:>9.3f} {m['peak_mb']:>8.1f}  {check}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
