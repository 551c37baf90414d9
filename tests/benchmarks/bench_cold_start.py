"""Cold start: the time of short ``tvseg`` commands, each a fresh process (issue 25, item 4; issue 41).

    python tests/benchmarks/bench_cold_start.py [--repeat 10] [--module]

Each command runs ``--repeat`` times in a process of its own (``subprocess.run``, timed with
``time.perf_counter`` around it, its user + system CPU time from ``os.wait4``) and the best run of each
is printed, with the modules it imported among numpy, pandas, pyannote.core, matplotlib, jinja2 and nltk
(a separate run under ``python -X importtime``). The commands: ``tvseg --version``, ``tvseg --help``,
``tvseg evaluate --help``, ``tvseg validate FILE`` on the demo corpus's files (an RTTM, a UEM, a units
table, WebVTT and SRT captions) and ``tvseg evaluate --chunkseg FILE --preset chunkseg --no-html`` on a
small corpus of 10 shows with titles (stemmed). ``python -c pass`` is the floor: the interpreter's own
start. The commands run with their modules' bytecode cached, as an installed tvseg has it
(``PYTHONDONTWRITEBYTECODE`` is left out of their environment). The CPU time depends less on the machine's load than the wall time (the load average is printed).
Issue 41's targets, on a quiet machine: ``--version`` under 0.1 s, ``validate`` of a small file under 0.3 s
(a best wall time over its target is marked ``!``).

The ``tvseg`` console script next to the interpreter is run when it exists (``--module``: always
``python -m tvseg``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "tvseg" / "data_samples"
HEAVY = ("numpy", "pandas", "pyannote.core", "matplotlib", "jinja2", "nltk")
TARGETS = {"--version": 0.1, "validate": 0.3}
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def chunkseg_corpus(folder: Path) -> Path:
    """10 shows in chunkseg's JSONL, each with reference and hypothesis titles (English, to stem)."""
    row = (
        '{"show": "news%d", "reference": [11.0, 23.0, 34.0], "hypothesis": [24.2, 33.94], "duration": 50.0, '
        '"reference_titles": [["Opening headlines", 0], ["Wrapping texts", 11.0], ["Adding backgrounds", 23.0], '
        '["Clipping backgrounds", 34.0]], "hyp_titles": [["Introductions", 0], ["Setting a background", 24.2], '
        '["Clipped backgrounds", 33.94]]}\n'
    )
    path = folder / "chunkseg.jsonl"
    path.write_text("".join(row % k for k in range(10)), encoding="utf-8")
    return path


def commands(folder: Path) -> list[tuple[str, list[str]]]:
    return [
        ("--version", ["--version"]),
        ("--help", ["--help"]),
        ("evaluate --help", ["evaluate", "--help"]),
        ("validate RTTM", ["validate", str(DEMO / "reference" / "reference.rttm")]),
        ("validate UEM", ["validate", str(DEMO / "corpus.uem")]),
        ("validate units CSV", ["validate", str(DEMO / "units" / "breath_groups.csv")]),
        ("validate WebVTT", ["validate", str(next((DEMO / "reference" / "chapters").glob("*.vtt")))]),
        ("validate SRT", ["validate", str(next((DEMO / "units" / "captions").glob("*.srt")))]),
        (
            "chunkseg, stemmed",
            ["evaluate", "--chunkseg", str(chunkseg_corpus(folder)), "--preset", "chunkseg", "--no-html"],
        ),
    ]


def best_of(argv: list[str], repeat: int) -> tuple[float, float]:
    """The best wall time and the best user + system CPU time of ``repeat`` runs of ``argv``."""
    walls, cpus = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        _, status, usage = os.wait4(process.pid, 0)
        walls.append(time.perf_counter() - started)
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            raise subprocess.CalledProcessError(process.returncode, argv)
        cpus.append(usage.ru_utime + usage.ru_stime)
    return min(walls), min(cpus)


def heavy_modules(args: list[str]) -> list[str]:
    """The modules of :data:`HEAVY` that ``python -m tvseg ARGS`` imports (``-X importtime``'s report)."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tvseg", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
        env=ENV,
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
    print(f"{'command':<22} {'wall s':>7} {'CPU s':>6}  target  heavy modules imported")
    floor, floor_cpu = best_of([sys.executable, "-c", "pass"], args.repeat)
    print(f"{'python -c pass':<22} {floor:7.3f} {floor_cpu:6.3f}")
    with tempfile.TemporaryDirectory() as folder:
        for name, command in commands(Path(folder)):
            best, cpu = best_of(tvseg + command, args.repeat)
            target = next((t for key, t in TARGETS.items() if name.startswith(key)), None)
            verdict = "" if target is None else f"< {target:.2f}" if best < target else f"> {target:.2f}!"
            print(f"{name:<22} {best:7.3f} {cpu:6.3f}  {verdict:<6}  {', '.join(heavy_modules(command)) or '-'}")
    print(f"load after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
