"""Boundary distances and hit rates (issue 44): tvseg.retrieval.distances.

The median deviations and the hit rates are compared with mir_eval 0.8's ``segment.deviation`` and
``segment.detection`` (``trim=True``: mir_eval's edges of the track are tvseg's edges of the evaluated region,
which are never boundaries) on hundreds of random shows; the Hausdorff distance with its definition computed in
Fractions on hand-written cases.
"""

from __future__ import annotations

import warnings
from fractions import Fraction as Fr

import mir_eval
import numpy as np
import pytest

import tvseg
from tvseg.errors import UndefinedValueWarning

DISTANCES = ("median_deviation_ref_to_hyp", "median_deviation_hyp_to_ref", "hausdorff")


def _evaluate(reference, hypothesis):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tvseg.evaluate(reference, {"sys": hypothesis}, settings=tvseg.Settings(bootstrap=0)).systems["sys"]


def _segmentation(length_ms: int, cuts_ms) -> list[tuple[float, float]]:
    edges = [0, *sorted(cuts_ms), length_ms]
    return [(a / 1000, b / 1000) for a, b in zip(edges, edges[1:])]


def _random_corpus(seed: int, n_shows: int):
    """Shows on a millisecond grid (mir_eval rounds times to 5 decimals: the grid leaves them as they are), both
    sides spanning the same extent with at least one boundary each; no pair of boundaries exactly 0.5 s or 3 s
    apart (mir_eval decides ``|r - h| <= window`` in floats, tvseg in microseconds: see
    test_a_pair_exactly_at_the_window_is_a_hit)."""
    rng = np.random.default_rng(seed)
    reference, hypothesis = {}, {}
    while len(reference) < n_shows:
        length = int(rng.integers(5_000, 600_000))
        r = rng.choice(np.arange(1, length), size=int(rng.integers(1, 15)), replace=False)
        if rng.random() < 0.5:  # near the reference's boundaries, so that the small windows see hits
            h = np.clip(r + rng.integers(-4_000, 4_000, len(r)), 1, length - 1)
            h = np.unique(np.concatenate([h, rng.integers(1, length, int(rng.integers(0, 4)))]))
        else:
            h = rng.choice(np.arange(1, length), size=int(rng.integers(1, 15)), replace=False)
        gaps = np.abs(np.subtract.outer(np.unique(r), np.unique(h)))
        if np.isin(gaps, (500, 3_000)).any():
            continue
        show = f"show{len(reference):03d}"
        reference[show] = _segmentation(length, np.unique(r).tolist())
        hypothesis[show] = _segmentation(length, np.unique(h).tolist())
    return reference, hypothesis


@pytest.mark.parametrize("seed", [1, 2])
def test_median_deviations_and_hit_rates_equal_mir_eval_on_random_shows(seed):
    reference, hypothesis = _random_corpus(seed, 250)
    result = _evaluate(reference, hypothesis)
    theirs = {}
    for show in reference:
        ref, hyp = np.array(reference[show]), np.array(hypothesis[show])
        r2h, h2r = mir_eval.segment.deviation(ref, hyp, trim=True)
        row = {"median_deviation_ref_to_hyp": r2h, "median_deviation_hyp_to_ref": h2r}
        for tag, window in (("0_5s", 0.5), ("3s", 3.0)):
            p, r, f = mir_eval.segment.detection(ref, hyp, window=window, trim=True)
            row |= {f"hit_precision_{tag}": p, f"hit_recall_{tag}": r, f"hit_f1_{tag}": f}
        theirs[show] = row
    ours = result.shows
    for show, row in theirs.items():
        for key, value in row.items():
            assert ours.loc[show, key] == value, (show, key)  # bit for bit: the same subtractions and median
    hits = ours["hit_precision_0_5s"].to_numpy()
    assert 0 < np.count_nonzero(hits) < len(hits)  # the small window both finds and misses pairs
    # corpus: the deviations are means over shows (each defined here), the hit rates pooled counts
    for key in ("median_deviation_ref_to_hyp", "median_deviation_hyp_to_ref"):
        assert result.corpus[key] == pytest.approx(np.mean([row[key] for row in theirs.values()]), rel=1e-12)
    comp = result.scores.components.sum()
    for tag in ("0_5s", "3s"):
        assert result.corpus[f"hit_recall_{tag}"] == comp[f"hit_n_matched_{tag}"] / comp["boundary_n_reference"]
        assert result.corpus[f"hit_precision_{tag}"] == comp[f"hit_n_matched_{tag}"] / comp["boundary_n_hypothesis"]


def test_a_pair_exactly_at_the_window_is_a_hit():
    # 1.07 and 0.57 are 0.5 s apart in microseconds (tvseg: a hit); mir_eval asks whether 1.07 lies in
    # [0.57 - 0.5, 0.57 + 0.5] in floats, and 0.57 + 0.5 is 1.0699999999999998 (a miss)
    reference, hypothesis = {"s": [(0.0, 1.07), (1.07, 20.0)]}, {"s": [(0.0, 0.57), (0.57, 20.0)]}
    result = _evaluate(reference, hypothesis)
    assert result.corpus["hit_f1_0_5s"] == 1.0
    assert (
        mir_eval.segment.detection(np.array(reference["s"]), np.array(hypothesis["s"]), window=0.5, trim=True)[2] == 0
    )


def _hausdorff(r: list[Fr], h: list[Fr]) -> Fr:
    """The definition: the largest distance from a point of one set to the nearest point of the other."""
    return max(max(min(abs(x - y) for y in h) for x in r), max(min(abs(x - y) for x in r) for y in h))


def _spans(times: list[Fr], end: Fr) -> list[tuple[float, float]]:
    edges = [Fr(0), *times, end]
    return [(float(a), float(b)) for a, b in zip(edges, edges[1:])]


# hand-written cases (reference boundaries, hypothesis boundaries, the Hausdorff distance worked out by hand);
# times in eighths of a second, exact in floats, so that the float computation can be compared with Fractions
HAUSDORFF_CASES = [
    # 10 is 2 from 12, 30 is 18 from 12: 18; 12 is 2 from 10
    ([Fr(10), Fr(30)], [Fr(12)], Fr(18)),
    # the same sets: 0
    ([Fr(5), Fr(17, 2)], [Fr(5), Fr(17, 2)], Fr(0)),
    # 20 is 1/8 from 161/8; the hypothesis's 45 is 25 from the reference's only boundary, 20: 25
    ([Fr(20)], [Fr(161, 8), Fr(45)], Fr(25)),
    # reference 1, 2, 3 against 2 3/8: 1 is 11/8 away (the largest); 2 3/8 is 3/8 from 2
    ([Fr(1), Fr(2), Fr(3)], [Fr(19, 8)], Fr(11, 8)),
    # one-to-many the other way: the hypothesis's 40 is 10 from the reference's 30
    ([Fr(10), Fr(30)], [Fr(9), Fr(11), Fr(29), Fr(40)], Fr(10)),
]


def test_hausdorff_equals_its_definition_in_fractions():
    end = Fr(50)
    reference = {f"s{k}": _spans(r, end) for k, (r, _, _) in enumerate(HAUSDORFF_CASES)}
    hypothesis = {f"s{k}": _spans(h, end) for k, (_, h, _) in enumerate(HAUSDORFF_CASES)}
    result = _evaluate(reference, hypothesis)
    for k, (r, h, by_hand) in enumerate(HAUSDORFF_CASES):
        assert _hausdorff(r, h) == by_hand
        assert Fr(result.shows.loc[f"s{k}", "hausdorff"]) == by_hand
    # the corpus value: the mean over the shows (18 + 0 + 25 + 11/8 + 10) / 5 = (435/8) / 5 = 87/8
    assert Fr(result.corpus["hausdorff"]) == Fr(87, 8)


def test_a_gap_gives_two_boundaries_and_a_uem_edge_none():
    # reference 0-10, 12-30: boundaries 10 and 12; hypothesis 0-11, 11-30: 11. Each is 1 from the other side:
    # deviations 1 and 1, Hausdorff 1
    result = _evaluate({"s": [(0.0, 10.0), (12.0, 30.0)]}, {"s": [(0.0, 11.0), (11.0, 30.0)]})
    assert [result.corpus[k] for k in DISTANCES] == [1.0, 1.0, 1.0]


def test_empty_and_one_sided_shows():
    reference = {"none": [(0.0, 60.0)], "ref_only": [(0.0, 20.0), (20.0, 60.0)], "both": [(0.0, 30.0), (30.0, 60.0)]}
    hypothesis = {"none": [(0.0, 60.0)], "ref_only": [(0.0, 60.0)], "both": [(0.0, 34.0), (34.0, 60.0)]}
    with pytest.warns(UndefinedValueWarning) as caught:
        result = tvseg.evaluate(reference, {"sys": hypothesis}, settings=tvseg.Settings(bootstrap=0)).systems["sys"]
    rows = result.shows
    # neither side has a boundary: Hausdorff 0 (skchange's), no median deviation (mir_eval's NaN)
    assert rows.loc["none", "hausdorff"] == 0.0
    assert np.isnan(rows.loc["none", "median_deviation_ref_to_hyp"]) and np.isnan(
        rows.loc["none", "median_deviation_hyp_to_ref"]
    )
    # one side only: everything undefined (skchange's Hausdorff is infinite), named in a warning
    assert rows.loc["ref_only", list(DISTANCES)].isna().all()
    messages = " ".join(str(w.message) for w in caught)
    assert "the Hausdorff distance is infinite there" in messages and "hausdorff (1 show: ref_only)" in messages
    assert "median_deviation_ref_to_hyp, median_deviation_hyp_to_ref (2 shows: none, ref_only)" in messages
    # the corpus: the mean over the shows where each is defined: deviations "both" alone (4 s);
    # Hausdorff over "none" and "both": (0 + 4) / 2
    assert result.corpus["median_deviation_ref_to_hyp"] == 4.0 and result.corpus["hausdorff"] == 2.0
    # hit rates pooled: 1 reference boundary of "ref_only" and 1 of "both", 1 hypothesis boundary (34), none
    # within 3 s: 0 matched; the 0.5 s and 3 s hit recall 0 / 2
    assert result.corpus["hit_recall_3s"] == 0.0 and result.corpus["hit_precision_3s"] == 0.0


def test_overlapping_predictions_get_no_distance():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(
            {"s": [(0.0, 40.0), (40.0, 100.0)]},
            {"sys": {"s": [(0.0, 50.0), (30.0, 100.0)]}},
            settings=tvseg.Settings(bootstrap=0),
        ).systems["sys"]
    assert not set(result.corpus) & {*DISTANCES, "hit_f1_0_5s"}


def test_a_hypothesis_starting_late_keeps_its_start_as_a_boundary():
    # reference 0-10-20; hypothesis 2-10-20. tvseg's region is the reference's extent, 0-20: the hypothesis's start,
    # 2, is strictly inside it, so a boundary (hypothesis boundaries 2 and 10; reference 10). mir_eval's trim=True
    # drops each side's own first and last edge (the hypothesis's 2 and 20): it sees 10 against 10.
    reference, hypothesis = {"s": [(0.0, 10.0), (10.0, 20.0)]}, {"s": [(2.0, 10.0), (10.0, 20.0)]}
    result = _evaluate(reference, hypothesis)
    # hypothesis to reference: 2 is 8 from 10, 10 is 0: median 4; Hausdorff 8; hit precision at 3 s 1/2
    assert result.corpus["median_deviation_hyp_to_ref"] == 4.0 and result.corpus["hausdorff"] == 8.0
    assert result.corpus["hit_precision_3s"] == 0.5
    ref, hyp = np.array(reference["s"]), np.array(hypothesis["s"])
    assert mir_eval.segment.deviation(ref, hyp, trim=True) == (0.0, 0.0)
    assert mir_eval.segment.detection(ref, hyp, window=3, trim=True)[0] == 1.0
