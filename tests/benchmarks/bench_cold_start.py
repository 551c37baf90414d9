"""Cold start: the wall time of short ``tvseg`` commands, each a fresh process (issue 25, item 4).

    python tests/benchmarks/bench_cold_start.py [--repeat 10] [--module]

Each command runs ``--repeat`` times in a process of its own (``subprocess.run``, timed with
``time.perf_counter`` around it) and the best run is printed, with the modules it imported among numpy,
pandas, pyannote.core and matplotlib (a separate run under ``python -X importtime``). The commands:
``tvseg --version``, ``tvseg --help``, ``tvseg evaluate --help`` and ``tvseg validate FILE`` on the demo
corpus's files (an RTTM, a UEM, a units table, WebVTT and SRT captions). ``python -c pass`` is the floor:
the interpreter's own start. The issue's targets: ``--version`` under 0.15 s, ``validate`` under 0.5 s
(a time over its target is marked ``!``; on a busy machine, validate's pandas import alone may pass it).

The ``tvseg`` console script next to the interpreter is run when it exists (``--module``: always
``python -m tvseg``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "tvseg" / "data_samples"
HEAVY = ("numpy", "pandas", "pyannote.core", "matplotlib")
TARGETS = {"--version": 0.15, "validate": 0.5}


def commands() -> list[tuple[str, list[str]]]:
    return [
        ("--version", ["--version"]),
        ("--help", ["--help"]),
        ("evaluate --help", ["evaluate", "--help"]),
        ("validate RTTM", ["validate", str(DEMO / "reference" / "reference.rttm")]),
        ("validate UEM", ["validate", str(DEMO / "corpus.uem")]),
        ("validate units CSV", ["validate", str(DEMO / "units" / "breath_groups.csv")]),
        ("validate WebVTT", ["validate", str(next((DEMO / "reference" / "chapters").glob("*.vtt")))]),
        ("validate SRT", ["validate", str(next((DEMO / "units" / "captions").glob("*.srt")))]),
    ]


def best_of(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - started)
    return min(times)


def heavy_modules(args: list[str]) -> list[str]:
    """The modules of :data:`HEAVY` that ``python -m tvseg ARGS`` imports (``-X importtime``'s report)."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tvseg", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}
    return [name for name in HEAVY if name in imported]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="runs of each command; the best is printed")
    parser.add_argument("--module", action="store_true", help="run python -m tvseg, not the console script")
    args = parser.parse_args(argv)
    script = Path(sys.executable).with_name("tvseg")
    tvseg = [sys.executable, "-m", "tvseg"] if args.module or not script.exists() else [str(script)]
    print(f"{' '.join(tvseg)}, best of {args.repeat}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"{'command':<22} {'best s':>7}  target  heavy modules imported")
    floor = best_of([sys.executable, "-c", "pass"], args.repeat)
    print(f"{'python -c pass':<22} {floor:7.3f}")
    for name, command in commands():
        best = best_of(tvseg + command, args.repeat)
        target = next((t for key, t in TARGETS.items() if name.startswith(key)), None)
        verdict = "" if target is None else f"< {target:.2f}" if best < target else f"> {target:.2f}!"
        print(f"{name:<22} {best:7.3f}  {verdict:<6}  {', '.join(heavy_modules(command)) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
