"""Run every benchmark of tvseg, one after the other: ``python tests/benchmarks/run_all.py``.

Each ``bench_*.py`` script measures tvseg and the tool people use on the same input in one process
and prints its own table of times and ratios (the README's speed table comes from this output).
They run here as separate processes, so that one benchmark's memory and caches do not affect the
next. ``--only NAME`` (repeatable) runs the named ones, e.g. ``--only retrieval``.
Not part of the test run: timings on a shared machine are noisy; read medians over a few runs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv=None) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    names = [s.stem.removeprefix("bench_") for s in scripts]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=names, help="run only this benchmark (repeatable)")
    args = parser.parse_args(argv)
    failed = []
    for script, name in zip(scripts, names):
        if args.only and name not in args.only:
            continue
        print(f"=== {name} ({script.name})", flush=True)
        started = time.perf_counter()
        code = subprocess.call([sys.executable, str(script)])
        print(f"--- {name}: {time.perf_counter() - started:.0f} s{'' if code == 0 else f', exit {code}'}\n", flush=True)
        if code:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
