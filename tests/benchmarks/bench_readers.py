"""Speed of the readers, as ratios against the tools people use, in one process, best of repeats.

- RTTM: ``tvseg.read_segments`` (the columns, every line validated) vs ``pyannote.database.util.load_rttm``
  (Annotations).
- WebVTT: ``tvseg.read_segments`` vs ``webvtt.read`` alone (tvseg parses every cue block and checks every
  timing line).
- CSV: ``tvseg.read_segments`` vs the loader people write by hand: ``pandas.read_csv`` then one
  Annotation per show (tvseg validates every cell and knows each row's line).
- Growth: each reader on n and 4n segments; a linear reader takes about 4 times as long.

Run: ``python tests/benchmarks/bench_readers.py [--segments N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import pandas as pd
import webvtt
from pyannote.core import Annotation, Segment
from pyannote.database.util import load_rttm

from tvseg import read_segments


def best_of(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def write_files(folder: Path, n: int, shows: int = 20) -> dict[str, Path]:
    per_show = n // shows
    rttm, csv = [], ["show,start,end,label"]
    vtt = ["WEBVTT", ""]
    for s in range(shows):
        for i in range(per_show):
            start_ms, end_ms = i * 4000 + 500, i * 4000 + 3500
            rttm.append(f"SEGMENT show{s:03d} 1 {start_ms / 1000:.3f} 3.000 <NA> <NA> topic_{i % 17} <NA> <NA>")
            csv.append(f"show{s:03d},{start_ms / 1000:.3f},{end_ms / 1000:.3f},topic {i % 17}")
            if s == 0:
                vtt += [f"{_ts(start_ms)} --> {_ts(end_ms)}", f"Topic {i % 17}", ""]
    vtt_n = ["WEBVTT", ""]
    for i in range(n):  # the VTT file holds all n cues for one show
        start_ms, end_ms = i * 4000 + 500, i * 4000 + 3500
        vtt_n += [f"{_ts(start_ms)} --> {_ts(end_ms)}", f"Topic {i % 17}", ""]
    paths = {"rttm": folder / f"seg{n}.rttm", "csv": folder / f"seg{n}.csv", "vtt": folder / f"seg{n}.vtt"}
    paths["rttm"].write_text("\n".join(rttm) + "\n", encoding="utf-8")
    paths["csv"].write_text("\n".join(csv) + "\n", encoding="utf-8")
    paths["vtt"].write_text("\n".join(vtt_n) + "\n", encoding="utf-8")
    return paths


def csv_by_hand(path: Path) -> dict[str, Annotation]:
    table = pd.read_csv(path, dtype={"show": str, "label": str})
    result = {}
    for show, rows in table.groupby("show"):
        annotation = Annotation(uri=show)
        for track, (start, end, label) in enumerate(zip(rows["start"], rows["end"], rows["label"])):
            annotation[Segment(start, end), track] = label
        result[show] = annotation
    return result


def _ts(ms: int) -> str:
    s, m = divmod(ms, 1000)
    mi, s = divmod(s, 60)
    h, mi = divmod(mi, 60)
    return f"{h:02d}:{mi:02d}:{s:02d}.{m:03d}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--segments", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n = args.segments
    with tempfile.TemporaryDirectory() as tmp:
        small = write_files(Path(tmp), n)
        large = write_files(Path(tmp), 4 * n)
        rows = []
        ours = best_of(lambda: read_segments(small["rttm"], types={"SEGMENT"}), args.repeat)
        theirs = best_of(lambda: load_rttm(str(small["rttm"]), keep_type="SEGMENT"), args.repeat)
        rows.append(("RTTM vs pyannote.database load_rttm", ours, theirs))
        ours = best_of(lambda: read_segments(small["vtt"]), args.repeat)
        theirs = best_of(lambda: webvtt.read(str(small["vtt"])), args.repeat)
        rows.append(("WebVTT vs webvtt.read (parse only)", ours, theirs))
        ours = best_of(lambda: read_segments(small["csv"]), args.repeat)
        theirs = best_of(lambda: csv_by_hand(small["csv"]), args.repeat)
        rows.append(("CSV vs pandas.read_csv + Annotations", ours, theirs))
        print(f"{n} segments, best of {args.repeat}")
        for name, ours, theirs in rows:
            print(
                f"  {name:40s} tvseg {ours * 1000:8.1f} ms   tool {theirs * 1000:8.1f} ms   ratio {ours / theirs:5.2f}"
            )
        print(f"growth from {n} to {4 * n} segments (linear: about 4)")
        for kind in ("rttm", "vtt", "csv"):
            t1 = best_of(lambda kind=kind: read_segments(small[kind]), args.repeat)
            t4 = best_of(lambda kind=kind: read_segments(large[kind]), max(1, args.repeat // 2))
            print(f"  {kind:5s} {t1 * 1000:8.1f} ms -> {t4 * 1000:8.1f} ms   x{t4 / t1:4.2f}")


if __name__ == "__main__":
    main()
