"""Long shows: GHD on a band (tvseg.unit.alignment) and UEM cropping on arrays (tvseg.readers.uem), checked
against independent oracles: nltk's own ``ghd``, and a plain per-segment loop in exact fractions."""

from fractions import Fraction

import numpy as np
import pytest
from nltk.metrics.segmentation import ghd as nltk_ghd
from pyannote.core import Segment, Timeline

from tvseg.columns import crop_spans
from tvseg.readers.uem import crop_show, regions_of, uem_regions
from tvseg.unit.ghd import ghd_counts
from tvseg.unit.masses import BoundaryPairs

COSTS = [(2.0, 2.0, 1.0), (1.0, 1.0, 0.5), (1.0, 3.0, 0.25), (0.5, 0.0, 2.0), (3.0, 1.0, 1.0)]


def _string(positions, n):
    chars = ["0"] * (n - 1)
    for p in positions:
        chars[p - 1] = "1"
    return "".join(chars)


@pytest.mark.parametrize("costs", COSTS)
@pytest.mark.parametrize("density", [0.05, 0.3, 0.9])
def test_ghd_of_many_pairs_equals_nltk(costs, density):
    rng = np.random.default_rng(int(density * 100) + int(costs[2] * 8))
    refs, hyps, ns = [], [], []
    for _ in range(40):
        n = int(rng.integers(2, 160))
        refs.append(np.flatnonzero(rng.random(n - 1) < density) + 1)
        hyps.append(np.flatnonzero(rng.random(n - 1) < rng.uniform(0, 1)) + 1)
        ns.append(n)
    ro = np.concatenate(([0], np.cumsum([len(r) for r in refs]))).astype(np.int64)
    ho = np.concatenate(([0], np.cumsum([len(h) for h in hyps]))).astype(np.int64)
    pairs = BoundaryPairs(
        np.array(ns), np.concatenate(refs).astype(np.int64), ro, np.concatenate(hyps).astype(np.int64), ho
    )
    got = ghd_counts(pairs, *costs)
    want = [nltk_ghd(_string(r, n), _string(h, n), *costs) for r, h, n in zip(refs, hyps, ns)]
    assert got.tolist() == want  # the same floats, not merely close


def test_ghd_of_one_long_pair_with_no_gap_equals_nltk():
    # every position a boundary on one side or the other: the alignment is one piece, the band runs its rows
    rng = np.random.default_rng(5)
    n = 3000
    ref = np.flatnonzero(rng.random(n - 1) < 0.5) + 1
    hyp = np.setdiff1d(np.arange(1, n), ref)
    hyp = np.sort(np.concatenate([hyp[::2], ref[::3]]))
    pairs = BoundaryPairs.one(n, ref.astype(np.int64), hyp.astype(np.int64))
    assert ghd_counts(pairs)[0] == nltk_ghd(_string(ref, n), _string(hyp, n))


def test_ghd_by_hand():
    # nltk's docstring example: "1100100000" against "1100010000" (1, 1, 0.5): one shift of 1, 0.5
    pairs = BoundaryPairs.one(11, np.array([1, 2, 5]), np.array([1, 2, 6]))
    assert ghd_counts(pairs, 1.0, 1.0, 0.5)[0] == 0.5
    # boundaries 10 apart with the defaults: a shift would cost 10, a deletion and an insertion 2 + 2
    pairs = BoundaryPairs.one(30, np.array([5]), np.array([15]))
    assert ghd_counts(pairs)[0] == 4.0


def _oracle(segments, regions):
    """A plain loop in fractions: each segment's parts inside the merged regions (a part counts when longer
    than 1 microsecond, pyannote's emptiness), the cropped segment from the first part's start to the
    last part's end, the number of parts and their total length in microseconds."""
    merged = []
    for a, b in sorted(regions):
        if merged and Fraction(a) - merged[-1][1] <= Fraction(1, 10**6):
            merged[-1][1] = max(merged[-1][1], Fraction(b))
        else:
            merged.append([Fraction(a), Fraction(b)])
    out = []
    for s, e in segments:
        s, e = Fraction(s), Fraction(e)
        parts = [(max(s, a), min(e, b)) for a, b in merged if min(e, b) - max(s, a) > Fraction(1, 10**6)]
        if not parts:
            out.append(None)
        else:
            inside = sum(b - a for a, b in parts) * 10**6
            out.append((parts[0][0], parts[-1][1], len(parts), inside))
    return out


def _grid_times(rng, size, top):
    return np.round(rng.integers(0, top * 4, size) / 4, 2)  # quarter seconds: exact in binary


def test_crop_spans_against_a_loop_in_fractions():
    rng = np.random.default_rng(3)
    for _ in range(300):
        edges = np.unique(_grid_times(rng, int(rng.integers(1, 12)) * 2, 40))
        if edges.size < 2:
            continue
        edges = edges[: edges.size // 2 * 2].reshape(-1, 2)
        regions = [tuple(e) for e in edges.tolist()]
        # sometimes touching regions, which merge
        if rng.random() < 0.3 and len(regions) > 1:
            regions[1] = (regions[0][1], max(regions[1][1], regions[0][1] + 0.25))
            regions = sorted(set(regions))
            regions = [r for k, r in enumerate(regions) if k == 0 or r[0] >= regions[k - 1][1]]
        starts = np.sort(_grid_times(rng, int(rng.integers(1, 15)), 45))
        segments = [(float(a), float(a) + float(rng.integers(1, 60)) / 4) for a in starts]
        timeline = Timeline([Segment(a, b) for a, b in regions])
        r_start, r_end = uem_regions(timeline)
        want = _oracle(segments, regions)
        crop = crop_spans([s for s, _ in segments], [e for _, e in segments], r_start, r_end)
        for k, w in enumerate(want):
            if w is None:
                assert not crop.kept[k]
                assert crop.parts[k] == 0
            else:
                assert crop.kept[k]
                assert (Fraction(crop.start[k]), Fraction(crop.end[k]), int(crop.parts[k])) == w[:3]
                assert crop.inside[k] == w[3]


def test_uem_regions_merge_as_pyannote_support():
    rng = np.random.default_rng(11)
    for _ in range(200):
        a = _grid_times(rng, 12, 30)
        b = a + rng.integers(1, 30, 12) / 4
        timeline = Timeline([Segment(float(x), float(y)) for x, y in zip(a, b)])
        start, end = uem_regions(timeline)
        assert list(zip(start.tolist(), end.tolist())) == [(s.start, s.end) for s in timeline.support()]


def test_crop_by_hand():
    # regions 0-40 and 60-100 (a gap 40-60), 100-120 touching the second (merged: 60-120)
    timeline = Timeline([Segment(0, 40), Segment(60, 100), Segment(100, 120)])
    start, end = uem_regions(timeline)
    assert start.tolist() == [0.0, 60.0] and end.tolist() == [40.0, 120.0]
    segments = [
        (-10.0, 5.0),  # starts before the UEM: cut to 0-5, one part of 5 s
        (30.0, 70.0),  # spans the gap: kept whole as 30-70, parts 30-40 and 60-70, 20 s inside
        (45.0, 55.0),  # wholly in the gap: left out
        (110.0, 130.0),  # ends after the UEM: 110-120, 10 s
        (130.0, 140.0),  # after the UEM: left out
        (40.0, 60.0),  # the gap exactly: its parts 40-40 and 60-60 are empty, left out
        (39.9999995, 61.0),  # its part in the first region is 0.5 microseconds, empty: 60-61, one part
    ]
    crop = crop_spans([s for s, _ in segments], [e for _, e in segments], start, end)
    assert crop.kept.tolist() == [True, True, False, True, False, False, True]
    assert crop.start[crop.kept].tolist() == [0.0, 30.0, 110.0, 60.0]
    assert crop.end[crop.kept].tolist() == [5.0, 70.0, 120.0, 61.0]
    assert crop.parts.tolist() == [1, 2, 0, 1, 0, 0, 1]
    assert crop.inside.tolist() == [5_000_000, 20_000_000, 0, 10_000_000, 0, 0, 1_000_000]


def test_crop_show_counts_and_keeps_segments():
    # the segments -10-5 (A), 30-70 (B) and 45-55 (C) against the regions 0-40 and 60-100: A loses -10-0,
    # B spans the gap (kept whole), C lies wholly in the gap (left out, with a warning naming it)
    uem = {"s": Timeline([Segment(0, 40), Segment(60, 100)])}
    start, end, labels = np.array([-10.0, 30.0, 45.0]), np.array([5.0, 70.0, 55.0]), ["A", "B", "C"]
    with pytest.warns(Warning, match="45.000-55.000"):
        crop = crop_show("s", start, end, labels, regions_of(uem, "s"), path="s.rttm", lines=[1, 2, 3])
    kept = np.flatnonzero(crop.kept).tolist()
    assert [(crop.start[k], crop.end[k], labels[k]) for k in kept] == [(0.0, 5.0, "A"), (30.0, 70.0, "B")]


def test_many_regions_crop_in_one_call():
    # 200,000 regions of 1 s every 2 s, one segment across all of them: 200,000 parts, 200,000 s inside
    n = 200_000
    starts = 2.0 * np.arange(n)
    crop = crop_spans([0.5], [2.0 * n], starts, starts + 1)
    assert crop.parts.tolist() == [n]
    assert crop.start.tolist() == [0.5] and crop.end.tolist() == [2.0 * n - 1]
    assert crop.inside.tolist() == [(n - 0.5) * 1_000_000]
