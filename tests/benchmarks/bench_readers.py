"""Speed of the readers, as ratios against the tools people use, in one process, best of repeats.

- RTTM: ``tvseg.read_segments`` (the columns, every line validated) vs ``pyannote.database.util.load_rttm``
  (Annotations).
- WebVTT: ``tvseg.read_segments`` vs ``webvtt.read`` alone (tvseg parses every cue block and checks every
  timing line).
- CSV: ``tvseg.read_segments`` vs the loader people write by hand: ``pandas.read_csv`` then one
  Annotation per show (tvseg validates every cell and knows each row's line).
- JSON segmentation (``{show: [{"start", "end", "title"}]}``): ``tvseg.read_segments`` vs ``json.load`` then one
  Annotation per show (tvseg reads every number from its digits, refuses a key given twice and knows each
  segment's line).
- VidChapters-7M annotations (``{video: {"duration", "chapters": [{"label", "time"}]}}``, 10 chapters a
  video): ``tvseg.read_segments`` vs ``json.load`` alone (parse only: what ``dvc_eval`` does first).
- Growth: each reader on n and 4n segments; a linear reader takes about 4 times as long.
- Units table (``--units-shows N``): ``tvseg.read_units`` on a breath-group table (``show,start,end``,
  about 330 units a show) vs ``pandas.read_csv(path, dtype={"show": str})`` then the columns (shows
  factorised, start and end as arrays): time (best of repeats) and peak resident memory, each measured
  in a fresh process.

Run: ``python tests/benchmarks/bench_readers.py [--segments N] [--repeat R] [--units-shows N] [--units-file F]``.

Measured 2026-12-08 01:01 (``--units-shows 0``, load about 1): 20,000 segments, RTTM 17.3 ms against
``load_rttm``'s 873 ms; WebVTT 137 ms against 461 ms; CSV 6.6 ms against 82 ms; JSON 136 ms against 68 ms (2.0x:
tvseg checks every value, reads numbers from their digits, refuses a key given twice and keeps each line);
VidChapters 97 ms against ``json.load``'s 12.5 ms (7.7x); each reader x4.0-x5.5 from 20,000 to 80,000 segments.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import webvtt
from pyannote.core import Annotation, Segment
from pyannote.database.util import load_rttm

from tvseg import read_segments

FORMATS = {"vidchapters": "vidchapters"}  # the files whose format is given (the others: found by their names)


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
    paths["json"], paths["vidchapters"] = folder / f"seg{n}.json", folder / f"chapters{n}.json"
    segments = {
        f"show{s:03d}": [
            {"start": (i * 4000 + 500) / 1000, "end": (i * 4000 + 3500) / 1000, "title": f"Topic {i % 17}"}
            for i in range(per_show)
        ]
        for s in range(shows)
    }
    paths["json"].write_text(json.dumps(segments, indent=1), encoding="utf-8")
    chapters = {
        f"video{v:06d}": {
            "duration": 1000.0,
            "chapters": [{"label": f"Chapter {i}", "time": i * 90.5} for i in range(10)],
        }
        for v in range(n // 10)
    }
    paths["vidchapters"].write_text(json.dumps(chapters), encoding="utf-8")
    paths["rttm"].write_text("\n".join(rttm) + "\n", encoding="utf-8")
    paths["csv"].write_text("\n".join(csv) + "\n", encoding="utf-8")
    paths["vtt"].write_text("\n".join(vtt_n) + "\n", encoding="utf-8")
    return paths


def json_by_hand(path: Path) -> dict[str, Annotation]:
    """A JSON segmentation as people load it: ``json.load``, then one Annotation per show."""
    out = {}
    for show, segments in json.loads(path.read_text(encoding="utf-8")).items():
        annotation = Annotation(uri=show)
        for segment in segments:
            annotation[Segment(segment["start"], segment["end"])] = segment["title"]
        out[show] = annotation
    return out


def csv_by_hand(path: Path) -> dict[str, Annotation]:
    table = pd.read_csv(path, dtype={"show": str, "label": str})
    result = {}
    for show, rows in table.groupby("show"):
        annotation = Annotation(uri=show)
        for track, (start, end, label) in enumerate(zip(rows["start"], rows["end"], rows["label"])):
            annotation[Segment(start, end), track] = label
        result[show] = annotation
    return result


_UNITS_MEASURE = """
import resource, sys, time
import numpy as np, pandas as pd
from tvseg import read_units  # imported before the clock starts, as pandas is
which, path = sys.argv[1], sys.argv[2]
start = time.perf_counter()
if which == "tvseg":
    read_units(path)
else:
    table = pd.read_csv(path, dtype={"show": str})
    codes, names = pd.factorize(table["show"])
    columns = (codes, table["start"].to_numpy(np.float64), table["end"].to_numpy(np.float64))
elapsed = time.perf_counter() - start
print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def write_units(path: Path, shows: int, per_show: int = 330) -> None:
    """A breath-group table: ``per_show`` units of 2 to 8 seconds a show, times in milliseconds."""
    with path.open("w", encoding="utf-8") as handle:
        handle.write("show,start,end\n")
        for s in range(shows):
            t = 0
            lines = []
            for i in range(per_show):
                length = 2000 + (i * 7919 + s * 104729) % 6000
                lines.append(f"show{s:05d},{t / 1000:.3f},{(t + length) / 1000:.3f}\n")
                t += length
            handle.write("".join(lines))


def measure_units(path: Path, repeat: int) -> dict[str, tuple[float, float]]:
    """``{"tvseg": (seconds, MB), "pandas": ...}``: best time and largest peak RSS over fresh processes."""
    found = {}
    for which in ("tvseg", "pandas"):
        runs = []
        for _ in range(repeat):
            out = subprocess.run(
                [sys.executable, "-c", _UNITS_MEASURE, which, str(path)], capture_output=True, text=True, check=True
            ).stdout.split()
            runs.append((float(out[0]), float(out[1])))
        found[which] = (min(t for t, _ in runs), max(m for _, m in runs))
    return found


def _ts(ms: int) -> str:
    s, m = divmod(ms, 1000)
    mi, s = divmod(s, 60)
    h, mi = divmod(mi, 60)
    return f"{h:02d}:{mi:02d}:{s:02d}.{m:03d}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--segments", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--units-shows", type=int, default=2_000, help="shows in the units table (0: skip it)")
    parser.add_argument("--units-file", type=Path, help="a units table to read instead of writing one")
    args = parser.parse_args()
    n = args.segments
    if args.units_file is not None or args.units_shows:
        with tempfile.TemporaryDirectory() as tmp:
            path = args.units_file
            if path is None:
                path = Path(tmp) / "units.csv"
                write_units(path, args.units_shows)
            found = measure_units(path, max(1, min(args.repeat, 3)))
            (ours, our_mb), (theirs, their_mb) = found["tvseg"], found["pandas"]
            print(
                f"units table {path.name} ({path.stat().st_size / 1e6:.0f} MB), best of {max(1, min(args.repeat, 3))}"
            )
            print(
                f"  read_units vs pandas.read_csv + columns  tvseg {ours:6.2f} s {our_mb:6.0f} MB   "
                f"pandas {theirs:6.2f} s {their_mb:6.0f} MB   ratio {ours / theirs:4.2f} time, {our_mb / their_mb:4.2f} memory"
            )
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
        ours = best_of(lambda: read_segments(small["json"]), args.repeat)
        theirs = best_of(lambda: json_by_hand(small["json"]), args.repeat)
        rows.append(("JSON vs json.load + Annotations", ours, theirs))
        ours = best_of(lambda: read_segments(small["vidchapters"], format="vidchapters"), args.repeat)
        theirs = best_of(lambda: json.loads(small["vidchapters"].read_text(encoding="utf-8")), args.repeat)
        rows.append(("VidChapters vs json.load (parse only)", ours, theirs))
        print(f"{n} segments, best of {args.repeat}")
        for name, ours, theirs in rows:
            print(
                f"  {name:40s} tvseg {ours * 1000:8.1f} ms   tool {theirs * 1000:8.1f} ms   ratio {ours / theirs:5.2f}"
            )
        print(f"growth from {n} to {4 * n} segments (linear: about 4)")
        for kind in ("rttm", "vtt", "csv", "json", "vidchapters"):
            t1 = best_of(lambda kind=kind: read_segments(small[kind], format=FORMATS.get(kind)), args.repeat)
            t4 = best_of(
                lambda kind=kind: read_segments(large[kind], format=FORMATS.get(kind)), max(1, args.repeat // 2)
            )
            print(f"  {kind:5s} {t1 * 1000:8.1f} ms -> {t4 * 1000:8.1f} ms   x{t4 / t1:4.2f}")


if __name__ == "__main__":
    main()
