"""Benchmark (issue 13): the unit-domain metrics of a whole corpus at once (``tvseg.unit.corpus``), checked
against the brute-force oracle of ``tests/unit_reference.py`` on the first shows.

    python tests/benchmarks/bench_unit_corpus.py [--shows 2000] [--seed 13] [--keep DIR] [--repeat 5]
        [--frame SECONDS] [--convention paper|segeval1|segeval|nltk|chunkseg]

The corpus is ``bench_end_to_end.py``'s (deterministic: shows of 10-30 min, 8-25 topic segments, two
systems a and b, breath-group units of 1-6 s in one CSV), generated in a temporary folder or reused from
``--keep DIR``. Both systems are scored with units (``Settings(units="file")``: Pk, P'k, WindowDiff,
WinPR, S, C_seg, GHD, B); the first ``--check`` shows' metrics are checked against the oracle (a loop
over every window, segeval, nltk: slow) before the times are printed. Timed:
:func:`tvseg.unit.corpus.corpus_unit_scores` (best of ``--repeat``) for both systems; the flat unit
arrays are built once from ``tvseg.read_units``'s frames, outside the timing (a columnar reader gives them
directly), and that time is printed too. ``--frame`` scores on frames of that length instead of the
units (``Settings(units="frames")``), ``--convention`` picks the convention (``chunkseg`` needs ``--frame``).

Target: under 0.4 s for both systems on 2,000 shows.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from pyannote.core import Annotation, Segment

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/unit_reference.py
from bench_end_to_end import corpus  # noqa: E402
from unit_reference import unit_scores  # noqa: E402

import tvseg  # noqa: E402
from tvseg.columns import from_segmentations  # noqa: E402
from tvseg.retrieval.boundaries import regions  # noqa: E402
from tvseg.settings import Settings  # noqa: E402
from tvseg.unit.corpus import corpus_unit_scores  # noqa: E402
from tvseg.unit.projection import edge_ticks  # noqa: E402
from tvseg.unit.reduction import reduce_unit_parts  # noqa: E402


def flat_units(shows, units):
    """``(show index, start, end)`` of every unit, shows in order."""
    index = {s: k for k, s in enumerate(shows)}
    parts = [(index[s], t) for s, t in units.items() if s in index]
    parts.sort(key=lambda p: p[0])
    show = np.concatenate([np.full(len(t), k, np.int64) for k, t in parts])
    start = np.concatenate([t["start"].to_numpy(float) for _, t in parts])
    end = np.concatenate([t["end"].to_numpy(float) for _, t in parts])
    return show, start, end


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shows", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--keep", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--frame", type=float, default=None)
    parser.add_argument("--convention", default="paper")
    parser.add_argument("--check", type=int, default=40, help="shows checked against the oracle")
    args = parser.parse_args(argv)
    folder, counts, _, tmp = corpus(args.keep, args.shows, args.seed)
    ref_read = tvseg.read_segments(folder / "ref")
    shows = sorted(ref_read)
    ref_anns = [ref_read[s] for s in shows]
    ref = from_segmentations(ref_anns, names=shows, side="reference")
    r_start, r_end = regions(ref)
    units = tvseg.read_units(folder / "units.csv")
    t0 = time.perf_counter()
    u_show, u_start, u_end = flat_units(shows, units)
    flat_seconds = time.perf_counter() - t0
    systems = {}
    for name in ("a", "b"):
        read = tvseg.read_segments(folder / f"{name}.rttm")
        anns = [read.get(s) for s in shows]
        systems[name] = (anns, from_segmentations(anns, names=shows, side=f"{name} hypothesis"))
    settings = Settings(units="file" if args.frame is None else "frames", frame=args.frame, convention=args.convention)
    if args.frame is not None:
        units = u_show = u_start = u_end = None
    warnings.simplefilter("ignore")

    def batch():
        return {
            name: reduce_unit_parts(
                [
                    corpus_unit_scores(
                        ref,
                        hyp,
                        unit_show=u_show,
                        unit_start=u_start,
                        unit_end=u_end,
                        shows=shows,
                        settings=settings,
                        region_start=r_start,
                        region_end=r_end,
                        region_ticks=edge_ticks(r_start, r_end),
                        name=name,
                    )
                ],
                [0],
                list(shows),
            )
            for name, (_, hyp) in systems.items()
        }

    best, result = np.inf, None
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        result = batch()
        best = min(best, time.perf_counter() - t0)
    checked = shows[: args.check]
    spans = {s: Segment(float(a), float(b)) for s, a, b in zip(shows, r_start, r_end) if not np.isnan(a)}
    for name, (anns, _) in systems.items():
        refs = dict(zip(shows, ref_anns))
        hyps = {s: a if a is not None else Annotation() for s, a in zip(shows, anns)}
        want, _, _ = unit_scores(checked, refs, hyps, units or {}, settings, spans)
        got = result[name][0].loc[checked, want.columns]
        np.testing.assert_allclose(got.to_numpy(float), want.to_numpy(float), rtol=0, atol=1e-12)
    what = f"{len(u_show):,} units" if u_show is not None else f"frames of {args.frame:g} s"
    print(
        f"{len(shows):,} shows, {what}, convention {args.convention}, two systems; the first {len(checked)} equal the oracle"
    )
    print(f"corpus_unit_scores (best of {args.repeat})   {best:8.3f} s")
    print(f"flat unit arrays from the frames   {flat_seconds:8.3f} s   (not timed above)")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
