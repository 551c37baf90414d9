"""Benchmark: ``tvseg evaluate`` in one process, with ``--jobs 2`` and with ``--dask local --jobs 2``: the CPU
each costs and the wall time each saves (issue 41).

    python tests/benchmarks/bench_jobs.py [--shows 20000] [--seed 13] [--repeat 3] [--keep DIR] [--jobs 2]
        [--no-dask] [--text DOCUMENTS]

The corpus is :mod:`bench_end_to_end`'s (``--keep DIR`` reuses one kept by it, :mod:`bench_scale`,
:mod:`bench_report_memory` or :mod:`bench_floor` with the same ``--shows`` and ``--seed``). The command, as a
user runs it in the corpus folder::

    python -m tvseg evaluate --reference ref --hypothesis a=a.rttm --hypothesis b=b.rttm --units units.csv
        --bootstrap 1000 --json OUT --quiet

is run as a child process with ``--jobs 1``, ``--jobs J`` and ``--dask local --jobs J``, the three in turns
``--repeat`` times (a busy moment slows each of a turn). Each run's CPU time is the user + system time of the
child and of the processes it waited for (``os.wait4``'s ``struct rusage``: its pool's processes, or Dask's
nanny and worker processes), its wall time and peak resident set (the largest of those processes). Printed per
turn and as medians: each mode's CPU over the same turn's one process (issue 41: at most 1.10 for ``--jobs 2``,
1.20 for ``--dask local``) and the one process's wall time over each mode's (at least 1.6 for ``--jobs 2`` on a
machine with two free cores), with the load average before and after. Every run's JSON equals the first's, run
id aside.

``--text DOCUMENTS`` times a text corpus instead: Choi's format, ``DOCUMENTS`` documents of 3 to 40 sentences in
up to 6 segments, a hypothesis of the same documents cut otherwise (``random.Random(seed)``), scored by
``python -m tvseg evaluate --reference ref --hypothesis s=hyp --format choi --bootstrap 1000 --quiet`` in the
same three modes (its documents sent to the shards in parts).

Measured: see the README's speed table (the rows of ``--jobs`` and ``--dask``) and the CHANGELOG.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))

import bench_end_to_end as e2e  # noqa: E402 (this folder, added above)

COMMAND = ["-m", "tvseg", "evaluate", "--reference", "ref", "--hypothesis", "a=a.rttm", "--hypothesis", "b=b.rttm"]
COMMAND += ["--units", "units.csv", "--bootstrap", "1000", "--quiet"]


def timed(argv: list[str], folder: Path) -> dict:
    """Run ``python ARGV`` in ``folder``: CPU seconds of it and of the processes it waited for, its wall
    seconds and the peak resident set (MB) of the largest of them."""
    env = {**os.environ, "TVSEG_NO_PROGRESS": "1"}
    with open(folder / "jobs.stderr", "w") as stderr:
        t0 = time.perf_counter()
        child = subprocess.Popen([sys.executable, *argv], cwd=folder, stdout=subprocess.DEVNULL, stderr=stderr, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"python {' '.join(argv)}: exit {status}\n{(folder / 'jobs.stderr').read_text()}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024, "wall": wall}


_DIGEST = (
    "import hashlib, json, sys\n"
    "document = json.load(open(sys.argv[1]))\n"
    "document.pop('run_id', None)\n"
    "print(hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest())\n"
)


def _digest(path: Path) -> str:
    """A digest of the JSON's values, run id aside, made in a process of its own: this one stays small, so that
    the peak of the next child (which starts as a copy of it) is the command's own."""
    return subprocess.run([sys.executable, "-c", _DIGEST, str(path)], check=True, capture_output=True, text=True).stdout


def choi_corpus(folder: Path, documents: int, seed: int) -> Path:
    """Write (or reuse) ``folder/ref`` and ``folder/hyp``: ``documents`` Choi files each."""
    import random

    if (folder / "hyp").is_dir() and len(list((folder / "hyp").iterdir())) == documents:
        return folder
    rng = random.Random(seed)
    for side in ("ref", "hyp"):
        (folder / side).mkdir(parents=True, exist_ok=True)
    for d in range(documents):
        total = rng.randint(3, 40)
        for side in ("ref", "hyp"):
            cuts = sorted(rng.sample(range(1, total), rng.randint(0, min(5, total - 1))))
            lines = ["=========="]
            for s, (x, y) in enumerate(zip([0, *cuts], [*cuts, total])):
                lines += [f"Sentence {j} of segment {s} in document {d} ." for j in range(y - x)]
                lines.append("==========")
            (folder / side / f"doc{d}.ref").write_text("\n".join(lines) + "\n")
    return folder


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--repeat", type=int, default=3, help="turns of the three modes (medians are taken)")
    parser.add_argument("--keep", metavar="DIR", help="write the corpus to DIR and keep it (reused when it matches)")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the parallel modes (default 2)")
    parser.add_argument("--no-dask", action="store_true", help="leave out --dask local")
    parser.add_argument("--text", type=int, metavar="DOCUMENTS", help="a Choi corpus of DOCUMENTS documents instead")
    args = parser.parse_args(argv)
    command = COMMAND
    if args.text:
        import tempfile

        tmp = None if args.keep else tempfile.TemporaryDirectory()
        folder = choi_corpus(Path(args.keep or tmp.name), args.text, args.seed)
        command = ["-m", "tvseg", "evaluate", "--reference", "ref", "--hypothesis", "s=hyp", "--format", "choi"]
        command += ["--bootstrap", "1000", "--quiet"]
        counts = {"units": "their sentences as"}
    else:
        folder, counts, _, tmp = e2e.corpus(args.keep, args.shows, args.seed)
    modes = {"one process": ["--jobs", "1"], f"--jobs {args.jobs}": ["--jobs", str(args.jobs)]}
    if not args.no_dask:
        modes[f"--dask local --jobs {args.jobs}"] = ["--dask", "local", "--jobs", str(args.jobs)]
    try:
        what = f"{args.text} documents (Choi), system s" if args.text else f"{args.shows} shows, systems a and b"
        print(f"corpus: {what} (seed {args.seed}), {counts['units']} units", flush=True)
        start_load = os.getloadavg()
        runs: dict[str, list[dict]] = {name: [] for name in modes}
        first = None
        for turn in range(max(1, args.repeat)):
            for name, extra in modes.items():
                out = folder / f"jobs-{len(runs[name])}-{extra[-1]}-{extra[0].strip('-')}.json"
                runs[name].append(timed([*command, *extra, "--json", out.name], folder))
                document = _digest(out)
                out.unlink()
                if first is None:
                    first = document
                elif document != first:
                    raise SystemExit(f"{name}, turn {turn + 1}: the JSON differs from the first run's")
                r = runs[name][-1]
                print(f"turn {turn + 1} {name}: {r['cpu']:.2f} s CPU, {r['wall']:.2f} s wall, {r['peak_mb']:.0f} MB")
        end_load = os.getloadavg()
    finally:
        if tmp is not None:
            tmp.cleanup()
    one = runs["one process"]
    print(
        f"machine: {os.cpu_count()} cores, load average {start_load[0]:.2f} at the start, {end_load[0]:.2f} at the end"
    )
    print(f"command: python {' '.join(command)} [MODE] --json OUT; every JSON equal to the first, run id aside")
    for name, rs in runs.items():
        cpu = [r["cpu"] / o["cpu"] for r, o in zip(rs, one)]
        speed = [o["wall"] / r["wall"] for r, o in zip(rs, one)]
        print(
            f"{name:>26}: CPU median {statistics.median(r['cpu'] for r in rs):.2f} s, wall median "
            f"{statistics.median(r['wall'] for r in rs):.2f} s, peak {max(r['peak_mb'] for r in rs):.0f} MB"
            + (
                ""
                if rs is one
                else f"; CPU / one process {statistics.median(cpu):.3f} (turns {min(cpu):.3f}-{max(cpu):.3f}), "
                f"faster {statistics.median(speed):.2f}x (turns {min(speed):.2f}-{max(speed):.2f})"
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
