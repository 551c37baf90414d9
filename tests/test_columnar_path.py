"""The corpus path from columns (issue 13) gives what the path through Annotations gives.

``tvseg.evaluate`` gathers its arrays straight from the columns ``read_segments`` and ``read_units``
return (``SegmentColumns.segments_of``); any other mapping goes through one Annotation per show. On random corpora written as files, both give the same JSON, value for value
(every number is computed from the same arrays, so equality is exact), and the same warnings.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from pyannote.core import Annotation, Segment

import tvseg
from tvseg.columns import Columns, from_segmentations
from tvseg.pyannote_objects import SEGMENT_PRECISION
from tvseg.retrieval.region import build_region, crop


def _rttm(path, shows: dict) -> None:
    lines = []
    for show, bounds in shows.items():
        for a, b in zip(bounds[:-1], bounds[1:]):
            lines.append(f"SEGMENT {show} 1 {a / 1000:.3f} {(b - a) / 1000:.3f} <NA> <NA> t{a} <NA> <NA>\n")
    path.write_text("".join(lines))


def _corpus(rng, n_shows):
    """Reference and two systems (milliseconds): systems move, drop and add boundaries, miss some shows,
    run past the reference's end, and one has a show the reference lacks."""
    ref, sys_a, sys_b, units = {}, {}, {}, []
    for k in range(n_shows):
        show = f"show{k:03d}"
        length = int(rng.integers(60_000, 900_000))
        inner = np.sort(
            rng.choice(np.arange(5_000, length - 5_000, 1_000), size=int(rng.integers(1, 12)), replace=False)
        )
        ref[show] = [0, *inner.tolist(), length]
        for system, shift in ((sys_a, 3_000), (sys_b, 20_000)):
            if rng.random() < 0.1:
                continue  # no hypothesis for this show
            moved = np.unique(np.clip(inner + rng.integers(-shift, shift + 1, len(inner)), 1, length - 1))
            end = length + (int(rng.integers(1, 30_000)) if rng.random() < 0.3 else 0)
            system[show] = [0, *moved.tolist(), end]
        t = 0
        while t < length - 1_000:
            d = int(rng.integers(1_000, 6_000))
            units.append((show, t / 1000, min(t + d, length) / 1000))
            t += d + (int(rng.integers(200, 1_000)) if rng.random() < 0.2 else 0)
    sys_b["extra_show"] = [0, 10_000, 20_000]
    return ref, sys_a, sys_b, units


def _write(tmp_path, rng, n_shows):
    ref, sys_a, sys_b, units = _corpus(rng, n_shows)
    (tmp_path / "ref").mkdir()
    for show, bounds in ref.items():
        _rttm(tmp_path / "ref" / f"{show}.rttm", {show: bounds})
    _rttm(tmp_path / "a.rttm", sys_a)
    _rttm(tmp_path / "b.rttm", sys_b)
    pd.DataFrame(units, columns=["show", "start", "end"]).to_csv(tmp_path / "units.csv", index=False)


def _run(reference, hypotheses, units):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tvseg.evaluate(reference, hypotheses, units=units, settings=tvseg.Settings(bootstrap=50))
    return result.to_json(), sorted(str(w.message) for w in caught)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_columnar_path_equals_the_annotation_path(tmp_path, seed):
    _write(tmp_path, np.random.default_rng(seed), 25)
    ref = tvseg.read_segments(tmp_path / "ref")
    systems = {"a": tvseg.read_segments(tmp_path / "a.rttm"), "b": tvseg.read_segments(tmp_path / "b.rttm")}
    units = tvseg.read_units(tmp_path / "units.csv")
    assert all(isinstance(c, Columns) for c in (ref, *systems.values(), units))
    fast = _run(ref, systems, units)
    # the same inputs as plain dicts of Annotations and DataFrames: the path through pyannote objects
    slow = _run(
        {s: ref[s] for s in ref}, {n: {s: h[s] for s in h} for n, h in systems.items()}, {s: units[s] for s in units}
    )
    assert fast[0] == slow[0]
    # the same warnings; columns also know the file of a show the reference lacks (plain dicts do not)
    named = f" (from {tmp_path / 'b.rttm'})"
    assert f"b: show(s) not in the reference, left out: extra_show{named}" in fast[1]
    assert [m.replace(named, "") for m in fast[1]] == slow[1]
    assert any("cropped to the reference's extent" in m for m in fast[1])  # the crop was exercised


def test_cropping_on_arrays_is_pyannotes_crop_in_intersection_mode():
    # random segments (some touching or crossing the region's edges, some a hair past them) cropped
    # by Annotation.crop(Segment(region), mode="intersection") show by show, and on the arrays
    rng = np.random.default_rng(4)
    for _ in range(300):
        n = int(rng.integers(1, 6))
        anns, regions = [], []
        for k in range(n):
            bounds = np.unique(np.round(np.cumsum(rng.uniform(0.0000004, 20, int(rng.integers(1, 8)) + 1)), 7))
            r0 = float(bounds[0] + rng.choice([0.0, 0.0000005, 3.0, -1.0]))
            r1 = float(bounds[-1] - rng.choice([0.0, 0.0000005, 3.0, -1.0]))
            ann = Annotation(uri=f"s{k}")
            for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
                if b - a > SEGMENT_PRECISION:
                    ann[Segment(float(a), float(b)), i] = f"t{i}"
            anns.append(ann)
            regions.append((r0, max(r1, r0 + 1.0)))
        segments = from_segmentations(anns, names=[a.uri for a in anns])
        cropped, _ = crop(segments, build_region([[r] for r in regions]))
        expected = [a.crop(Segment(r0, r1), mode="intersection") for a, (r0, r1) in zip(anns, regions)]
        got = [
            (int(s), float(a), float(b), lab)
            for s, a, b, lab in zip(cropped.show, cropped.start, cropped.end, cropped.label)
        ]
        want = [
            (k, seg.start, seg.end, lab)
            for k, e in enumerate(expected)
            for seg, _, lab in e.itertracks(yield_label=True)
        ]
        assert got == want
