"""Benchmark: the whole ``tvseg evaluate`` command against segeval, nltk and chunkseg on one corpus (issue 41).

    python tests/benchmarks/bench_peers.py [--shows 2000] [--seed 13] [--repeat 3] [--keep DIR]
        [--peers segeval,nltk,chunkseg]

The corpus is :mod:`bench_end_to_end`'s (2,000 shows of 10 to 30 minutes, 8 to 25 topic segments, system
``a``, breath-group units; ``--keep DIR`` reuses one kept by that script or :mod:`bench_floor`). Each tool
runs as its users run it, in a process of its own (imports, reading the files and start-up included), the
processes in turns ``--repeat`` times so that a busy moment slows each; the figure is each process's CPU
time (user + system, ``os.wait4``'s ``struct rusage``), its median over the turns, with the peak resident
set and the wall time beside it.

- **segeval 2.0.11**: a script reads the reference folder, ``a.rttm`` and ``units.csv`` with pandas, turns each
  show into segment masses in units (each unit in the segment holding its midpoint: tvseg's rule) and calls
  ``segeval.pk``, ``segeval.window_diff``, ``segeval.boundary_similarity`` and
  ``segeval.segmentation_similarity`` on every show (hypothesis first, as segeval takes them). Against it:
  ``tvseg evaluate --reference ref --hypothesis a=a.rttm --units units.csv --preset segeval --bootstrap 0
  --json out.json``, which computes those four and every other metric of the registry. The per-show
  values of both are checked equal (1e-9) before the times are printed.
- **nltk 3.10.4**: the same reading, each show as nltk's boundary string (one character per gap between
  units, ``"1"`` where a segment starts) and ``nltk.metrics.segmentation.pk`` and ``windowdiff`` (with
  ``pk``'s default ``k``) on every show. Against it: the command with ``--preset nltk``; values checked equal.
- **chunkseg 0.4.0**: ``chunkseg.evaluate_batch`` on a JSONL of the corpus's shows (boundary times in
  seconds, their durations; written once, outside the timing) with its default 100 bootstrap resamples,
  as its users call it. Against it: ``tvseg evaluate --chunkseg FILE --preset chunkseg --json out.json``
  with tvseg's default 1,000 resamples; chunkseg's means checked equal to tvseg's ``macro`` values.

Issue 41's targets: at least 30x segeval, 3x nltk (for Pk and WindowDiff), 5x chunkseg; the ratio is the
peer's median CPU over tvseg's.

Two more processes run in every turn, as bounds on any ratio (``--no-bounds`` leaves them out): **the floor**,
:mod:`bench_end_to_end`'s plain numpy script (imports numpy and pandas, reads the reference folder, ``a.rttm``
and ``units.csv``, computes CovN/CovD, boundary P/R/F, Pk and WindowDiff of system a: the work of the segeval
and nltk commands' corpus, fewer metrics than either command computes), and **the imports alone** (``python -c
"import numpy, pandas"``, the runtime dependencies every one of these commands and the peers' scripts load).
Each peer's median CPU over theirs is printed: the most that a Python program doing that work (the floor), or
anything at all with those imports, could reach against the peer on this machine.

Measured 2026-12-08 00:03 (``--repeat 3``, load 0.22 at the start, 0.74 at the end; medians of CPU): segeval
8.43 s against tvseg 1.20 s, **7.0x** (turns 5.3-8.2); nltk 3.84 s against 1.05 s, **3.7x** (2.9-3.8); chunkseg
5.48 s against 1.05 s, **5.2x** (5.1-5.5). The floor 1.22 s: segeval over it 6.9x, nltk 3.2x, chunkseg 4.5x; the
imports alone 0.66 s: segeval over them **12.7x**. So issue 41's 30x against segeval is beyond any Python
process that imports numpy and pandas (the floor's and the peers' scripts' imports, and tvseg's runtime
dependencies) on this machine: it would need the whole command in 0.28 s of CPU, where the imports take 0.66 s.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))

import bench_end_to_end as e2e  # noqa: E402 (this folder, added above)

PEERS = ("segeval", "nltk", "chunkseg")
COMMON = ["-m", "tvseg", "evaluate", "--reference", "ref", "--hypothesis", "a=a.rttm", "--units", "units.csv"]
COMMANDS = {
    "segeval": [*COMMON, "--preset", "segeval", "--bootstrap", "0", "--json", "tvseg-segeval.json"],
    "nltk": [*COMMON, "--preset", "nltk", "--bootstrap", "0", "--json", "tvseg-nltk.json"],
    "chunkseg": ["-m", "tvseg", "evaluate", "--chunkseg", "chunkseg.jsonl", "--preset", "chunkseg"]
    + ["--json", "tvseg-chunkseg.json"],
}
SEGEVAL_KEYS = {"pk": "pk", "windowdiff": "window_diff", "b": "boundary_similarity", "s": "segmentation_similarity"}
CHUNKSEG_KEYS = {"pk": "pk", "windowdiff": "window_diff", "b": "boundary_similarity", "ghd": "ghd"}


# ------------------------------------------------------------------------------------- the peers' scripts


def _masses(folder: Path) -> dict[str, tuple[list[int], list[int]]]:
    """Per show, the (reference, hypothesis a) segment masses in units: each unit in the segment holding
    its midpoint (the last segment starting at or before it), segments holding no unit left out."""
    import numpy as np
    import pandas as pd

    def rttm(text: str) -> pd.DataFrame:
        rows = [line.split() for line in text.splitlines() if line.strip()]
        return pd.DataFrame({"show": [r[1] for r in rows], "start": [float(r[3]) for r in rows]})

    ref = rttm("".join(p.read_text() for p in sorted((folder / "ref").glob("*.rttm"))))
    hyp = rttm((folder / "a.rttm").read_text())
    units = pd.read_csv(folder / "units.csv")
    starts = {
        name: {show: np.sort(g["start"].to_numpy()) for show, g in frame.groupby("show")}
        for name, frame in (("ref", ref), ("hyp", hyp))
    }
    out = {}
    for show, g in units.groupby("show", sort=True):
        mid = ((g["start"] + g["end"]) / 2).to_numpy()
        pair = []
        for name in ("ref", "hyp"):
            label = np.maximum(np.searchsorted(starts[name][show], mid, side="right") - 1, 0)
            change = np.flatnonzero(np.diff(label)) + 1
            edges = np.concatenate(([0], change, [len(label)]))
            pair.append(np.diff(edges).tolist())
        out[show] = (pair[0], pair[1])
    return out


def segeval_child(folder: Path, out: str) -> None:
    import segeval

    values = {}
    for show, (ref, hyp) in _masses(folder).items():
        values[show] = {
            "pk": float(segeval.pk(hyp, ref)),
            "windowdiff": float(segeval.window_diff(hyp, ref)),
            "b": float(segeval.boundary_similarity(hyp, ref)),
            "s": float(segeval.segmentation_similarity(hyp, ref)),
        }
    Path(out).write_text(json.dumps(values))


def nltk_child(folder: Path, out: str) -> None:
    from nltk.metrics.segmentation import pk, windowdiff

    def string(masses: list[int]) -> str:
        return "".join("1" + "0" * (m - 1) for m in masses)[1:] if masses else ""

    values = {}
    for show, (ref, hyp) in _masses(folder).items():
        r, h = string(ref), string(hyp)  # one character per gap between units: N - 1 of them
        k = int(round(len(r) / (max(r.count("1"), 1) * 2.0)))
        values[show] = {"pk": float(pk(r, h)), "windowdiff": float(windowdiff(r, h, k))}
    Path(out).write_text(json.dumps(values))


def chunkseg_child(folder: Path, out: str) -> None:
    import chunkseg

    samples = [json.loads(line) for line in (folder / "chunkseg.jsonl").read_text().splitlines()]
    batch = chunkseg.evaluate_batch([{k: s[k] for k in ("hypothesis", "reference", "duration")} for s in samples])
    Path(out).write_text(json.dumps({k: batch[k]["mean"] for k in CHUNKSEG_KEYS.values() if k in batch}))


CHILDREN = {"segeval": segeval_child, "nltk": nltk_child, "chunkseg": chunkseg_child}


def write_chunkseg_jsonl(folder: Path) -> None:
    """The corpus's shows as chunkseg's samples: boundary times (segment starts but the first), durations."""
    path = folder / "chunkseg.jsonl"
    if path.is_file():
        return

    def starts(text: str) -> dict[str, list[tuple[float, float]]]:
        out: dict[str, list[tuple[float, float]]] = {}
        for line in text.splitlines():
            f = line.split()
            out.setdefault(f[1], []).append((float(f[3]), float(f[3]) + float(f[4])))
        return out

    ref = starts("".join(p.read_text() for p in sorted((folder / "ref").glob("*.rttm"))))
    hyp = starts((folder / "a.rttm").read_text())
    lines = []
    for show in sorted(ref):
        segments = sorted(ref[show])
        lines.append(
            json.dumps(
                {
                    "show": show,
                    "reference": [s for s, _ in segments[1:]],
                    "hypothesis": [s for s, _ in sorted(hyp[show])[1:]],
                    "duration": segments[-1][1],
                }
            )
        )
    path.write_text("\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------- measuring


def timed(argv: list[str], folder: Path) -> dict:
    """Run ``python ARGV`` in ``folder``; its CPU seconds, peak RSS (MB) and wall seconds."""
    with open(folder / "peer.stderr", "w") as stderr:
        t0 = time.perf_counter()
        child = subprocess.Popen([sys.executable, *argv], cwd=folder, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"python {' '.join(argv)}: exit {status}\n{(folder / 'peer.stderr').read_text()}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024, "wall": wall}


def check(peer: str, folder: Path, peer_json: str) -> float:
    """The largest difference between the peer's numbers and tvseg's (SystemExit above 1e-9)."""
    theirs = json.loads(Path(peer_json).read_text())
    ours = json.loads((folder / COMMANDS[peer][-1]).read_text())
    system = next(iter(ours["systems"].values()))
    worst = 0.0
    if peer == "chunkseg":
        pairs = [(theirs[their_key], system["macro"].get(key)) for key, their_key in CHUNKSEG_KEYS.items()]
    else:
        pairs = [(v, system["shows"][show].get(key)) for show, row in theirs.items() for key, v in row.items()]
    for a, b in pairs:
        if b is None or not math.isclose(a, b, rel_tol=0, abs_tol=1e-9):
            raise SystemExit(f"{peer}: {a} against tvseg's {b}")
        worst = max(worst, abs(a - b))
    return worst


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--repeat", type=int, default=3, help="turns of each process (the median is taken)")
    parser.add_argument("--keep", metavar="DIR", help="write the corpus to DIR and keep it (reused when it matches)")
    parser.add_argument("--peers", default=",".join(PEERS), help="comma-separated, among " + ", ".join(PEERS))
    parser.add_argument("--no-bounds", action="store_true", help="leave out the floor and the imports alone")
    parser.add_argument("--_child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._child:
        peer, folder, out = args._child
        CHILDREN[peer](Path(folder), out)
        return 0
    peers = [p for p in args.peers.split(",") if p]
    if unknown := set(peers) - set(PEERS):
        parser.error(f"unknown peers: {sorted(unknown)}")
    folder, counts, _, tmp = e2e.corpus(args.keep, args.shows, args.seed)
    try:
        write_chunkseg_jsonl(folder)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(HERE.parents[2] / "tvseg")], check=True)
        print(f"corpus: {args.shows} shows (seed {args.seed}), {counts['units']} units, system a", flush=True)
        load = [os.getloadavg()[0]]
        runs: dict[str, dict[str, list[dict]]] = {p: {"tvseg": [], "peer": []} for p in peers}
        outs = {p: str(folder / f"peer-{p}.json") for p in peers}
        bounds = (
            {}
            if args.no_bounds
            else {
                "floor": [
                    str(HERE.parent / "bench_end_to_end.py"),
                    "--_child",
                    "numpy",
                    str(folder),
                    "floor-peers.json",
                ],
                "imports": ["-c", "import numpy, pandas"],
            }
        )
        bound_runs: dict[str, list[dict]] = {name: [] for name in bounds}
        for turn in range(max(1, args.repeat)):
            for name, bound_argv in bounds.items():
                bound_runs[name].append(timed(bound_argv, folder))
                print(f"turn {turn + 1} {name}: {bound_runs[name][-1]['cpu']:.2f} s CPU", flush=True)
            for peer in peers:
                runs[peer]["tvseg"].append(timed(COMMANDS[peer], folder))
                runs[peer]["peer"].append(timed([str(HERE), "--_child", peer, str(folder), outs[peer]], folder))
                t, p = runs[peer]["tvseg"][-1], runs[peer]["peer"][-1]
                print(f"turn {turn + 1} {peer}: tvseg {t['cpu']:.2f} s CPU, {peer} {p['cpu']:.2f} s CPU", flush=True)
        load.append(os.getloadavg()[0])
        print(f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} at the start, {load[1]:.2f} at the end")
        for peer in peers:
            worst = check(peer, folder, outs[peer])
            t, p = runs[peer]["tvseg"], runs[peer]["peer"]
            median = {name: statistics.median(r["cpu"] for r in rs) for name, rs in (("t", t), ("p", p))}
            per_turn = [b["cpu"] / a["cpu"] for a, b in zip(t, p)]
            print(
                f"{peer}: numbers equal (largest difference {worst:.1e}); tvseg `python {' '.join(COMMANDS[peer])}` "
                f"CPU median {median['t']:.2f} s (peak {max(r['peak_mb'] for r in t):.0f} MB, wall "
                f"{statistics.median(r['wall'] for r in t):.2f} s); {peer} {median['p']:.2f} s (peak "
                f"{max(r['peak_mb'] for r in p):.0f} MB, wall {statistics.median(r['wall'] for r in p):.2f} s); "
                f"{peer} / tvseg {median['p'] / median['t']:.1f}x (per turn {min(per_turn):.1f}-{max(per_turn):.1f})"
            )
            for name, rs in bound_runs.items():
                cpu = statistics.median(r["cpu"] for r in rs)
                what = "the floor (plain numpy script)" if name == "floor" else "the imports alone (numpy, pandas)"
                print(f"    {peer} / {what}: {median['p'] / cpu:.1f}x ({what.split(' (')[0]} {cpu:.2f} s CPU)")
    finally:
        if tmp is not None:
            tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
