"""Benchmark (issue 24): VidChapters-7M annotations and overlapping ActivityNet-style predictions, read and
scored by ``tvseg.evaluate``, checked against ``dvc_eval``'s definitions on the first videos.

    python tests/benchmarks/bench_video_chapters.py [--videos 10000] [--seed 24] [--repeat 3] [--check 200]

The corpus is generated as ``tests/test_video_chapters.py`` generates it (videos of 30-200 s, 1-7 chapters,
1-10 predictions that overlap, times in half seconds), written to two JSON files in a temporary folder.
Timed, best of ``--repeat``: reading both files (``tvseg.read_segments``, the shape recognised) and
``tvseg.evaluate`` (bootstrap off, as it is not what this measures). Before the times, the per-video
detection and navigation values of the first ``--check`` videos are compared with the test's
re-implementation of ``dvc_eval`` (a loop over every pair: slow).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/
from test_video_chapters import _generated, dvc_eval_scores  # noqa: E402

import tvseg  # noqa: E402
from tvseg.settings import Settings  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--videos", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", type=int, default=200)
    args = parser.parse_args()
    raw, processed, prediction = _generated(args.seed, n_videos=args.videos)
    with tempfile.TemporaryDirectory() as folder:
        ann, pred = Path(folder) / "ann.json", Path(folder) / "pred.json"
        ann.write_text(json.dumps(raw))
        pred.write_text(json.dumps(prediction))
        reading, scoring = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            reference, hypothesis = tvseg.read_segments(ann), tvseg.read_segments(pred)
            reading.append(time.perf_counter() - start)
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = tvseg.evaluate(reference, {"dense": hypothesis}, settings=Settings(bootstrap=0))
            scoring.append(time.perf_counter() - start)
    shows = result.systems["dense"].shows
    checked = sorted(processed)[: args.check]
    per_video, _ = dvc_eval_scores({v: processed[v] for v in checked}, prediction["results"])
    worst = max(abs(shows.loc[v, key] - value) for v, expected in per_video.items() for key, value in expected.items())
    print(f"{args.videos} videos, {sum(len(p) for p in prediction['results'].values())} predictions")
    print(f"checked against dvc_eval's definitions on {len(checked)} videos: largest difference {worst:.1e}")
    print(f"reading both files: best {min(reading):.3f} s; evaluate: best {min(scoring):.3f} s")
    if worst > 1e-12:
        raise SystemExit("values differ from dvc_eval's definitions")


if __name__ == "__main__":
    main()
