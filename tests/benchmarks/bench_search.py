"""Benchmark: ``tvseg search`` on many queries and runs, against MediaEval's ``sh_eval`` when given (issue 45).

    python tests/benchmarks/bench_search.py [--queries 1000] [--runs 10] [--depth 100] [--seed 45]
        [--keep DIR] [--sh-eval DIR]

**The corpus** (deterministic, written to a temporary folder or ``--keep DIR``): ``--queries`` queries judged
over 200 videos of an hour, each with 2 to 8 videos judged, 1 to 6 segments of 5 s to 4 min a video (70 %
relevant, the rest judged not relevant), times in minutes.seconds; ``--runs`` linking runs of ``--depth``
results a query, each result near a judged segment (probability 0.4) or anywhere, lengths of 0 s to 5 min.

**What is timed**, each a process of its own as a user runs it (imports, reading and writing included): the
command ``python -m tvseg search --qrels qrels.txt --run r1=run_1.txt ... --json out.json --trec trec/``
(every run scored, its JSON and sh_eval's text written), its CPU time (user + system of the child), peak
resident memory and wall time; with ``--sh-eval DIR`` (a folder holding a Python 3 conversion of sh_eval's
``sh_eval.py`` and its modules, see ``tests/data/sh_eval/README.md``), ``sh_eval.py`` once per run, summed,
and each run's output checked equal to tvseg's ``--trec`` file (its ``runid`` line aside).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _ms(seconds: int) -> str:
    return f"{seconds // 60}.{seconds % 60:02d}"


def generate(folder: Path, *, queries: int, runs: int, depth: int, seed: int) -> None:
    rng = random.Random(seed)
    videos = [f"v{k:04d}" for k in range(200)]
    judged: dict[str, list[tuple[str, int, int]]] = {}
    lines = []
    for q in range(queries):
        query = f"q{q:05d}"
        spans = []
        for video in rng.sample(videos, rng.randint(2, 8)):
            t = rng.randint(0, 3000)
            for _ in range(rng.randint(1, 6)):
                length = rng.randint(5, 240)
                spans.append((video, t, t + length))
                lines.append(f"{query} Q0 {video} {_ms(t)} {_ms(t + length)} {int(rng.random() < 0.7)}")
                t += length + rng.randint(-30, 300)
                t = max(t, 0)
        judged[query] = spans
    (folder / "qrels.txt").write_text("\n".join(lines) + "\n")
    for r in range(1, runs + 1):
        lines = []
        for query, spans in judged.items():
            for rank in range(1, depth + 1):
                if rng.random() < 0.4:
                    video, s, _ = rng.choice(spans)
                    start = max(0, s + rng.randint(-60, 60))
                else:
                    video, start = rng.choice(videos), rng.randint(0, 3500)
                end = start + rng.choice((0, 10, 30, 60, 120, 300))
                lines.append(f"{query} Q0 {video} {_ms(start)} {_ms(end)} {rank} {1 - rank / 1000:.3f} run{r}")
        (folder / f"run_{r}.txt").write_text("\n".join(lines) + "\n")


def timed(argv: list[str], folder: Path, stdout=subprocess.DEVNULL) -> dict:
    t0 = time.perf_counter()
    child = subprocess.Popen(argv, cwd=folder, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(argv)}: exit {status}\n{child.stderr.read().decode()}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024, "wall": wall}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--seed", type=int, default=45)
    parser.add_argument("--keep", type=Path, help="write the corpus and outputs to DIR and keep them")
    parser.add_argument("--sh-eval", type=Path, help="a folder holding a Python 3 conversion of sh_eval.py")
    args = parser.parse_args(argv)
    tmp = None if args.keep else tempfile.TemporaryDirectory(prefix="tvseg-search-")
    folder = args.keep or Path(tmp.name)
    folder.mkdir(parents=True, exist_ok=True)
    try:
        t0 = time.perf_counter()
        generate(folder, queries=args.queries, runs=args.runs, depth=args.depth, seed=args.seed)
        print(
            f"corpus: {args.queries} queries, {args.runs} runs of {args.depth} results a query "
            f"({args.queries * args.runs * args.depth:,} lines), written in {time.perf_counter() - t0:.1f} s",
            flush=True,
        )
        command = [sys.executable, "-m", "tvseg", "search", "--qrels", "qrels.txt"]
        command += [a for r in range(1, args.runs + 1) for a in ("--run", f"run_{r}.txt=run_{r}.txt")]
        command += ["--json", "out.json", "--trec", "trec"]
        load = os.getloadavg()[0]
        ours = timed(command, folder)
        print(
            f"tvseg search: {ours['cpu']:.2f} s CPU, wall {ours['wall']:.2f} s, peak {ours['peak_mb']:.0f} MB "
            f"(load {load:.1f}, {os.cpu_count()} cores)"
        )
        if args.sh_eval:
            total = {"cpu": 0.0, "wall": 0.0, "peak_mb": 0.0}
            for r in range(1, args.runs + 1):
                with open(folder / f"sh_eval_{r}.out", "w") as out:
                    one = timed(
                        [sys.executable, str(args.sh_eval / "sh_eval.py"), "qrels.txt", f"run_{r}.txt"], folder, out
                    )
                total = {k: total[k] + one[k] if k != "peak_mb" else max(total[k], one[k]) for k in total}
                theirs = (folder / f"sh_eval_{r}.out").read_text().splitlines()[1:]
                mine = (folder / "trec" / f"run_{r}.txt.txt").read_text().splitlines()[1:]
                if theirs != mine:
                    raise SystemExit(f"run {r}: sh_eval's output differs from tvseg's")
            print(
                f"sh_eval, one process a run: {total['cpu']:.2f} s CPU, wall {total['wall']:.2f} s, peak "
                f"{total['peak_mb']:.0f} MB; outputs equal; sh_eval / tvseg CPU {total['cpu'] / ours['cpu']:.2f}x"
            )
    finally:
        if tmp is not None:
            tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
