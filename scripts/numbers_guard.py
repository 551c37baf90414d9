"""The numbers guard: a restructuring changes no number.

Runs a fixed set of evaluations with the installed tvseg and writes each one's JSON into a folder; with
``--compare OLD NEW`` it compares two such folders value for value and prints every difference.

    python scripts/numbers_guard.py OUT_DIR            # run every case with this checkout's tvseg
    python scripts/numbers_guard.py --compare OLD NEW  # 0 when equal, 1 with the differences listed

The cases: the demo corpus; a random broadcast corpus (RTTM reference with titles, two RTTM systems,
breath-group units); the same corpus with a gapped UEM and a CSV system carrying scores and titles; a random
Choi corpus under the paper, segeval and nltk conventions. Run-specific fields (the time a run took, the
version, paths) are left out of the comparison; they are listed in ``VOLATILE``. Keys only the new results
hold (``ADDED``: the components of issue 40, the values by duration of issue 44) are not differences.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import tempfile
from pathlib import Path

VOLATILE = {
    "run_id",
    "seconds",
    "elapsed",
    "version",
    "tvseg_version",
    "created",
    "date",
    "command",
    "argv",
    "path",
    "paths",
}
ADDED = {"components", "by_duration"}
"""Keys a newer result adds (issue 40: what the values are made of, ``tvseg.carried``; issue 44: the values by
show duration): compared when both results hold them, not a difference when only the new one does."""


def _ms(value: int) -> str:
    return f"{value // 1000}.{value % 1000:03d}"


def broadcast(folder: Path, n_shows: int, seed: int) -> None:
    """RTTM reference with titles, systems a and b (RTTM), units.csv, a gapped UEM and a scored CSV system c."""
    rng = random.Random(seed)
    (folder / "ref").mkdir(parents=True)
    a, b, units, uem = [], [], ["show,start,end"], []
    c = ["show,start,end,label,score"]
    for k in range(n_shows):
        show = f"show{k:03d}"
        length = rng.randint(300_000, 900_000)
        cuts = sorted(rng.sample(range(5_000, length - 5_000), rng.randint(3, 12)))
        bounds = [0, *cuts, length]
        ref = "".join(
            f"SEGMENT {show} 1 {_ms(x)} {_ms(y - x)} <NA> <NA> story{i} <NA> <NA>\n"
            for i, (x, y) in enumerate(zip(bounds, bounds[1:]))
        )
        (folder / "ref" / f"{show}.rttm").write_text(ref)
        for out, shift in ((a, 3000), (b, 20000)):
            hyp = sorted(
                {min(length - 1000, max(1000, x + rng.randint(-shift, shift))) for x in cuts if rng.random() > 0.2}
            )
            hb = [0, *hyp, length]
            out.append(
                "".join(
                    f"SEGMENT {show} 1 {_ms(x)} {_ms(y - x)} <NA> <NA> <NA> <NA> <NA>\n" for x, y in zip(hb, hb[1:])
                )
            )
        hyp = sorted({min(length - 1000, max(1000, x + rng.randint(-8000, 8000))) for x in cuts})
        hb = [0, *hyp, length + rng.choice([0, 20_000])]
        for i, (x, y) in enumerate(zip(hb, hb[1:])):
            c.append(f"{show},{_ms(x)},{_ms(y)},story{i if rng.random() < 0.7 else i + 1},{rng.randint(0, 100) / 100}")
        t = 0
        while t < length:
            d = rng.randint(1000, 6000)
            if t + d > length:
                break
            units.append(f"{show},{_ms(t)},{_ms(t + d)}")
            t += d + (rng.randint(200, 1000) if rng.random() < 0.2 else 0)
        gap = rng.randint(length // 3, length // 2)
        uem += [f"{show} 1 0.000 {_ms(gap)}", f"{show} 1 {_ms(gap + 30_000)} {_ms(length)}"]
    (folder / "a.rttm").write_text("".join(a))
    (folder / "b.rttm").write_text("".join(b))
    (folder / "c.csv").write_text("\n".join(c) + "\n")
    (folder / "units.csv").write_text("\n".join(units) + "\n")
    (folder / "shows.uem").write_text("\n".join(uem) + "\n")


def choi(folder: Path, n_docs: int, seed: int) -> None:
    rng = random.Random(seed)
    for side in ("ref", "hyp"):
        (folder / side).mkdir(parents=True)
    for d in range(n_docs):
        total = rng.randint(3, 40)
        for side in ("ref", "hyp"):
            cuts = sorted(rng.sample(range(1, total), rng.randint(0, min(5, total - 1))))
            edges = [0, *cuts, total]
            lines = ["=========="]
            for s, (x, y) in enumerate(zip(edges, edges[1:])):
                lines += [f"Sentence {j} of segment {s} in document {d} ." for j in range(y - x)]
                lines.append("==========")
            (folder / side / f"doc{d}.ref").write_text("\n".join(lines) + "\n")


CASES = {
    "demo": "evaluate --demo --no-html --bootstrap 200",
    "broadcast": "evaluate --reference ref --hypothesis a=a.rttm --hypothesis b=b.rttm --units units.csv --bootstrap 200",
    "broadcast_uem_scores": "evaluate --reference ref --hypothesis a=a.rttm --hypothesis c=c.csv --uem shows.uem"
    " --units units.csv --bootstrap 200 --no-time-base-check",
    "choi_paper": "evaluate --reference ref --hypothesis s=hyp --format choi --bootstrap 0",
    "choi_segeval": "evaluate --reference ref --hypothesis s=hyp --format choi --preset segeval --bootstrap 0",
    "choi_nltk": "evaluate --reference ref --hypothesis s=hyp --format choi --preset nltk --bootstrap 0",
}


def run(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tvseg-guard-") as tmp:
        bc, tc = Path(tmp) / "broadcast", Path(tmp) / "choi"
        broadcast(bc, 40, 7)
        choi(tc, 150, 11)
        for name, argv in CASES.items():
            cwd = tc if name.startswith("choi") else bc if name.startswith("broadcast") else Path(tmp)
            target = out / f"{name}.json"
            done = subprocess.run(
                [sys.executable, "-m", "tvseg", *argv.split(), "--json", str(target.resolve())],
                cwd=cwd,
                capture_output=True,
                text=True,
            )
            print(f"{name}: exit {done.returncode}")
            if done.returncode != 0:
                print(done.stderr[-2000:])
    return 0


def differences(old, new, where: str = "") -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        found = []
        for key in sorted(set(old) | set(new)):
            if key in VOLATILE or (key in ADDED and key not in old):
                continue
            if key not in old or key not in new:
                found.append(f"{where}/{key}: only in {'new' if key not in old else 'old'}")
            else:
                found += differences(old[key], new[key], f"{where}/{key}")
        return found
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [f"{where}: length {len(old)} -> {len(new)}"]
        return [d for i, (x, y) in enumerate(zip(old, new)) for d in differences(x, y, f"{where}[{i}]")]
    if isinstance(old, float) and isinstance(new, float) and math.isnan(old) and math.isnan(new):
        return []
    return [] if old == new and type(old) is type(new) else [f"{where}: {old!r} -> {new!r}"]


def compare(old_dir: Path, new_dir: Path) -> int:
    total = 0
    for name in CASES:
        old, new = old_dir / f"{name}.json", new_dir / f"{name}.json"
        if not old.is_file() or not new.is_file():
            print(f"{name}: missing in {'old' if not old.is_file() else 'new'}")
            total += 1
            continue
        found = differences(json.loads(old.read_text()), json.loads(new.read_text()))
        print(f"{name}: {len(found)} differences")
        for line in found[:40]:
            print("  " + line)
        total += len(found)
    return 1 if total else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("OLD", "NEW"))
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("give OUT_DIR or --compare OLD NEW")
    return run(args.out)


if __name__ == "__main__":
    sys.exit(main())
