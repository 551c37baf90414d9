"""Benchmark: how the whole ``tvseg evaluate`` command scales with the corpus, 500 to 200,000 shows (issue 25).

    python tests/benchmarks/bench_scaling.py [--shows 500,2000,20000,200000] [--keep-root DIR]
        [--corpus N=DIR ...] [--jobs J] [--repeat R] [--bootstrap 1000] [--extra "ARGS"] [--seed 13]
        [--out FILE] [--generate-only]

The corpus of each size is bench_end_to_end.py's (:func:`bench_end_to_end.corpus`: a reference folder of
one RTTM file per show, systems a and b in one RTTM file each, breath-group units in one CSV file; show
``k`` is drawn from its own generator, so the first shows of a large corpus are the shows of a small one).
It is written to a temporary folder (removed after its size's runs), or kept in ``--keep-root DIR`` as
``DIR/shows-N`` and reused by a later run when it matches (same shows, seed and generator), or taken from
``--corpus N=DIR``, a folder written before by either script with ``--keep`` (checked the same way).
``--generate-only`` writes the corpora and times nothing.

**What is timed**: for each size, ``--repeat`` times (default 3, 1 from 100,000 shows), the command as a
user runs it, in a process of its own (imports, reading, scoring, bootstrap, JSON)::

    python -m tvseg evaluate --reference ref --hypothesis a=a.rttm --hypothesis b=b.rttm \\
        --units units.csv --bootstrap 1000 --json OUT [--jobs J] [ARGS]

with the corpus folder as working directory, ``OUT`` in a temporary folder (removed after),
``TVSEG_NO_PROGRESS=1`` and ``PYTHONPATH`` set to this repository's root (the tvseg imported is the one
next to this script; its path is printed). Wall time with ``time.perf_counter``; peak resident memory of
the child from the ``struct rusage`` that ``os.wait4`` returns for it (``ru_maxrss``: KB on Linux, bytes
on macOS; with ``--jobs`` the largest of the command's process and the workers it waited for, not their
sum). The command's stderr goes to a file, so it draws no progress bar whether or not
``TVSEG_NO_PROGRESS`` is read. The table gives, per size: the best run's seconds (and the range over
runs), milliseconds per show, the largest peak over runs in MB, KB per show, the ratio of ms per
show to that of the 20,000-show row (when it is measured): 1.0 all down the column is linear time; then
the CPU time of the best run by CPU (user and system time of the child and of the processes it waited
for, from the same ``struct rusage``) per show, and its ratio to the 20,000-show row's, which a busy
machine disturbs less than the wall time.
``--out FILE`` writes the figures (every run) as JSON.

Measured on 2026-11-27, 2 CPUs (load 1.0-1.1 during the runs), one process, bootstrap 1000, after issue 25's
streamed evaluation (``--corpus 20000=DIR --corpus 200000=DIR``, corpora of ``bench_end_to_end.py --keep``):

============  =====================  ==========  =======  =========  ===============
shows         seconds, best (range)  ms / show   peak MB  KB / show  ms/show / 20k
============  =====================  ==========  =======  =========  ===============
500           0.89 (0.89-1.01)       1.779       108      220.4      4.01
2,000         1.73 (1.73-2.02)       0.866       184      94.2       1.95
20,000        8.88 (8.88-10.24)      0.444       307      15.7       1.00
200,000       143.89 (1 run)         0.719       1335     6.8        1.62
============  =====================  ==========  =======  =========  ===============

Three other runs at 200,000 shows the same day: 119.9 s (1.36 GB), 122.5 s (1.28 GB), 126.6 s. The
200,000-show files are not sorted by show (``show100000`` comes after ``show99999``): each was read once
first to find its shows' runs of lines (13 s for the 1.8 GB units table); since issue 41 their two runs sorted
by show are found from samples of their lines (:func:`tvseg.readers.parts.sorted_runs`, 0.2 s). Before issue
25 (one process reading every input whole), 20,000 shows took 10.8 s and 993 MB.

2026-12-07, issue 41, ``/usr/bin/time`` on the command above (CPU = user + system, load 1.4-2.9): 20,000 shows
12.2 s of CPU (0.61 ms a show), 325 MB; 200,000 shows 128.6 s (0.64 ms a show, 1.06x), peak 1,135,100 KB;
before, on main 92279cb (load 3-4): 11.8-13.0 s and 164.4 s (0.82 ms, 1.3-1.4x), peak 1,339,588 KB.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_end_to_end import command_argv, corpus  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BASE_SHOWS = 20_000  # the row the last column compares with
LARGE = 100_000  # from this size on, one run by default


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--shows {text!r}: give whole numbers separated by commas") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"--shows {text!r}: give positive numbers of shows")
    return sorted(set(sizes))


def _pair(text: str) -> tuple[int, str]:
    shows, sep, folder = text.partition("=")
    if not sep or not shows.strip().replace("_", "").isdigit() or not folder:
        raise argparse.ArgumentTypeError(f"--corpus {text!r}: give N=DIR, e.g. 20000=corpus-20k")
    return int(shows.replace("_", "")), folder


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env["TVSEG_NO_PROGRESS"] = "1"
    return env


def _imported_tvseg(env: dict[str, str]) -> str:
    """The ``tvseg`` package the children import (checked to be this repository's)."""
    path = subprocess.run(
        [sys.executable, "-c", "import tvseg; print(tvseg.__file__)"],
        env=env,
        cwd=tempfile.gettempdir(),
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if Path(path).resolve().parent != ROOT / "tvseg":
        raise SystemExit(f"the children import tvseg from {path}, not from {ROOT / 'tvseg'}")
    return path


def _command(bootstrap: int, out: Path, jobs: int | None, extra: list[str]) -> list[str]:
    argv = command_argv(bootstrap, str(out))
    if jobs is not None:
        argv += ["--jobs", str(jobs)]
    return argv + extra


def run_once(folder: Path, *, bootstrap: int, jobs: int | None, extra: list[str], env: dict[str, str]) -> dict:
    """One run of the command on the corpus in ``folder``: wall seconds and the child's peak memory in KB."""
    with tempfile.TemporaryDirectory(prefix="tvseg-scaling-") as tmp:
        out = Path(tmp) / "out.json"
        argv = _command(bootstrap, out, jobs, extra)
        with open(Path(tmp) / "stdout", "w") as stdout, open(Path(tmp) / "stderr", "w") as stderr:
            t0 = time.perf_counter()
            child = subprocess.Popen(argv, cwd=folder, env=env, stdout=stdout, stderr=stderr)
            _, status, usage = os.wait4(child.pid, 0)
            seconds = time.perf_counter() - t0
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode:
            raise SystemExit(
                f"{shlex.join(argv[1:])} (in {folder}): exit {child.returncode}\n{(Path(tmp) / 'stderr').read_text()}"
            )
        if not out.is_file() or out.stat().st_size == 0:
            raise SystemExit(f"{shlex.join(argv[1:])} (in {folder}): wrote no JSON")
    peak_kb = usage.ru_maxrss / 1024 if sys.platform == "darwin" else usage.ru_maxrss
    return {"seconds": seconds, "peak_kb": peak_kb, "cpu_seconds": usage.ru_utime + usage.ru_stime}


def _folder_for(shows: int, args) -> Path | None:
    if shows in args.corpus:
        return Path(args.corpus[shows])
    if args.keep_root:
        return Path(args.keep_root) / f"shows-{shows}"
    return None


def _row(shows: int, counts: dict, runs: list[dict]) -> dict:
    best = min(r["seconds"] for r in runs)
    peak_kb = max(r["peak_kb"] for r in runs)
    return {
        "shows": shows,
        "counts": counts,
        "runs": runs,
        "seconds": best,
        "seconds_max": max(r["seconds"] for r in runs),
        "ms_per_show": best * 1000 / shows,
        "cpu_ms_per_show": min(r["cpu_seconds"] for r in runs) * 1000 / shows,
        "peak_mb": peak_kb / 1024,
        "kb_per_show": peak_kb / shows,
    }


def _print_table(rows: list[dict]) -> None:
    base = next((r for r in rows if r["shows"] == BASE_SHOWS), None)
    k = f"{BASE_SHOWS // 1000}k"
    header = [
        "shows",
        "seconds, best (range)",
        "ms / show",
        "peak MB",
        "KB / show",
        f"ms/show / {k}",
        "CPU ms / show",
        f"CPU / {k}",
    ]
    lines = []
    for r in rows:
        spread = f" ({r['seconds']:.2f}-{r['seconds_max']:.2f})" if len(r["runs"]) > 1 else " (1 run)"
        lines.append(
            [
                f"{r['shows']:,}",
                f"{r['seconds']:.2f}{spread}",
                f"{r['ms_per_show']:.3f}",
                f"{r['peak_mb']:.0f}",
                f"{r['kb_per_show']:.1f}",
                f"{r['ms_per_show'] / base['ms_per_show']:.2f}" if base else "-",
                f"{r['cpu_ms_per_show']:.3f}",
                f"{r['cpu_ms_per_show'] / base['cpu_ms_per_show']:.2f}" if base else "-",
            ]
        )
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header)]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for line in lines:
        print("  ".join(cell.rjust(w) for cell, w in zip(line, widths)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=_sizes, default=_sizes("500,2000,20000,200000"), help="comma list of sizes")
    parser.add_argument("--keep-root", metavar="DIR", help="keep each corpus in DIR/shows-N (reused when it matches)")
    parser.add_argument(
        "--corpus",
        metavar="N=DIR",
        type=_pair,
        action="append",
        default=[],
        help="the corpus of N shows is in DIR (written before with --keep; repeatable)",
    )
    parser.add_argument("--jobs", type=int, help="add --jobs J to the command")
    parser.add_argument("--repeat", type=int, help=f"runs per size (default 3, 1 from {LARGE:,} shows)")
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--extra", default="", metavar="ARGS", help="more options for the command (one string)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--out", metavar="FILE", help="write the figures as JSON to FILE")
    parser.add_argument("--generate-only", action="store_true", help="write the corpora, time nothing")
    args = parser.parse_args(argv)
    args.corpus = dict(args.corpus)
    unknown = sorted(set(args.corpus) - set(args.shows))
    if unknown:
        parser.error(f"--corpus {unknown[0]}=...: {unknown[0]} is not among --shows")
    if args.generate_only and not (args.keep_root or args.corpus):
        parser.error("--generate-only needs --keep-root or --corpus (a temporary corpus would be removed at once)")
    extra = shlex.split(args.extra)
    env = _environment()
    imported = None if args.generate_only else _imported_tvseg(env)
    if imported:
        print(
            f"tvseg from {imported}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; bootstrap "
            f"{args.bootstrap}"
            + (f", --jobs {args.jobs}" if args.jobs is not None else "")
            + f"; python {platform.python_version()}",
            flush=True,
        )
    rows = []
    for shows in args.shows:
        folder, counts, generated, tmp = corpus(_folder_for(shows, args), shows, args.seed)
        made = f"generated in {generated:.1f} s" if generated is not None else "reused"
        print(
            f"{shows:,} shows: {counts['reference']:,} reference segments, {counts['units']:,} units; corpus {made}"
            + ("" if tmp is not None else f" ({folder})"),
            flush=True,
        )
        if args.generate_only:
            continue
        repeat = args.repeat or (1 if shows >= LARGE else 3)
        runs = []
        try:
            for _ in range(repeat):
                runs.append(run_once(folder, bootstrap=args.bootstrap, jobs=args.jobs, extra=extra, env=env))
                run = runs[-1]
                print(
                    f"    {run['seconds']:.2f} s, CPU {run['cpu_seconds']:.2f} s, peak {run['peak_kb'] / 1024:.0f} MB",
                    flush=True,
                )
        finally:
            if tmp is not None:
                tmp.cleanup()
        rows.append({**_row(shows, counts, runs), "corpus_seconds": generated})
    if args.generate_only:
        return 0
    print()
    _print_table(rows)
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if args.out:
        document = {
            "command": shlex.join(_command(args.bootstrap, Path("OUT"), args.jobs, extra)[1:]),
            "bootstrap": args.bootstrap,
            "jobs": args.jobs,
            "seed": args.seed,
            "cpus": os.cpu_count(),
            "load_end": list(load),
            "python": platform.python_version(),
            "rows": rows,
        }
        Path(args.out).write_text(json.dumps(document, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
