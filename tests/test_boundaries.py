"""Boundary P/R/F: what a boundary is, and the matching against brute force, mir_eval and pyannote."""

import itertools
import warnings

import mir_eval
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Segment, Timeline
from pyannote.metrics.segmentation import SegmentationPrecision, SegmentationRecall

from tvseg.errors import TvsegWarning, UsageError
from tvseg.retrieval.boundaries import boundaries, match_boundaries


def timeline(*bounds):
    return Timeline([Segment(s, e) for s, e in bounds])


def contiguous(cuts):
    return timeline(*zip(cuts[:-1], cuts[1:]))


def match(ref, hyp, tol):
    ref, hyp = np.asarray(ref, float), np.asarray(hyp, float)
    i, j = match_boundaries(np.zeros(len(ref), np.int64), ref, np.zeros(len(hyp), np.int64), hyp, tolerance=tol).pairs
    return list(zip(i.tolist(), j.tolist()))


# --- what counts as a boundary --------------------------------------------------------------------


def test_show_edges_are_not_boundaries_and_a_shared_cut_is_one():
    # ref  |0----10|10----20|20----30|   inner boundaries 10, 20 (0 and 30 are the show's edges)
    # hyp  |0-----------20|20------30|   inner boundary 20
    r = boundaries(contiguous([0, 10, 20, 30]), contiguous([0, 20, 30]), tolerance=0)
    assert r.reference_boundaries.tolist() == [10, 20] and r.hypothesis_boundaries.tolist() == [20]
    assert (r.n_matched, r.recall, r.precision) == (1, 0.5, 1.0)


def test_a_gap_makes_two_boundaries():
    # ref  |0--10|   gap   |25--40|      boundaries 10 (end before the gap) and 25 (start after it)
    # hyp  |0-----------20|20-----40|    boundary 20
    # tolerance 5: 20 is 10 from 10 and 5 from 25 (inclusive) -> matched with 25. R = 1/2, P = 1/1.
    r = boundaries(timeline((0, 10), (25, 40)), contiguous([0, 20, 40]), tolerance=5)
    assert r.reference_boundaries.tolist() == [10, 25]
    assert r.pairs == [(25.0, 20.0)]
    assert (r.recall, r.precision) == (0.5, 1.0)
    assert r.f1 == pytest.approx(2 * 0.5 / 1.5)


def test_the_region_is_the_reference_extent_or_the_uem():
    # ref [5, 50) [50, 100); hyp [0, 50) [50, 90). Without a UEM the evaluated region is the
    # reference's own extent [5, 100): its edges 5 and 100 are not boundaries, so the reference has
    # one boundary (50), whatever the hypothesis. The hypothesis's 0 lies outside the region and its
    # end 90 inside it: hypothesis boundaries 50 and 90.
    r = boundaries(timeline((5, 50), (50, 100)), timeline((0, 50), (50, 90)), tolerance=1)
    assert r.extent == Segment(5, 100)
    assert r.reference_boundaries.tolist() == [50]
    assert r.hypothesis_boundaries.tolist() == [50, 90]
    # with a UEM [5, 90) as the show's edges, only 50 is left on both sides
    r = boundaries(timeline((5, 50), (50, 100)), timeline((0, 50), (50, 90)), tolerance=1, extent=Segment(5, 90))
    assert r.reference_boundaries.tolist() == [50] and r.hypothesis_boundaries.tolist() == [50]
    assert r.f1 == 1.0


def test_a_hypothesis_running_past_the_reference_adds_no_reference_boundary():
    # Issue 10: reference (0,100)(100,200), hypothesis (0,100)(100,202). Bouchekif et al. count
    # segments - 1 = 1 reference boundary (100), found by the hypothesis: recall 1/1 = 1.0.
    r = boundaries(contiguous([0, 100, 200]), contiguous([0, 100, 202]), tolerance=10)
    assert (r.n_reference, r.n_hypothesis, r.n_matched) == (1, 1, 1)
    assert r.recall == 1.0 and r.precision == 1.0


def test_tolerance_is_inclusive():
    ref, hyp = contiguous([0, 50, 100]), contiguous([0, 60, 100])
    assert boundaries(ref, hyp, tolerance=10).n_matched == 1
    assert boundaries(ref, hyp, tolerance=9.999).n_matched == 0


def test_no_boundaries_warns_nan():
    with pytest.warns(TvsegWarning):
        r = boundaries(contiguous([0, 100]), contiguous([0, 50, 100]))
    assert np.isnan(r.recall) and r.precision == 0.0 and r.f1 == 0.0
    with pytest.raises(UsageError):
        boundaries(contiguous([0, 100]), contiguous([0, 100]), tolerance=-1)


def test_maximum_not_greedy_on_a_drawn_case():
    # ref boundaries 10, 18; hyp 15, 23; tolerance 6.
    #   10 ---5--- 15 ---3--- 18 ---5--- 23
    # Greedy nearest-first takes (18, 15) at distance 3, and then 10 has no partner left (23 is 13
    # away): 1 pair. The maximum matching is (10, 15), (18, 23): 2 pairs.
    assert match([10, 18], [15, 23], 6) == [(0, 0), (1, 1)]
    ref, hyp = contiguous([0, 10, 18, 40]), contiguous([0, 15, 23, 40])
    ours = boundaries(ref, hyp, tolerance=6)
    theirs = SegmentationRecall(tolerance=6)(ref.to_annotation(), hyp.to_annotation())
    assert ours.recall == 1.0 and theirs == 0.5


def test_ties_prefer_smaller_total_distance():
    # ref 10, 20; hyp 12, 21; tolerance 10: every pairing is feasible; (10,12),(20,21) costs 3,
    # (10,21),(20,12) costs 19. Also one hypothesis between two references: 15 -> 10 and 20 are both
    # 5 away (either is fine), 16 -> 20 is nearer.
    assert match([10, 20], [12, 21], 10) == [(0, 0), (1, 1)]
    assert match([10, 20], [16], 10) == [(1, 0)]


# --- against brute force ----------------------------------------------------------------------------


def brute(ref, hyp, tol):
    """(size, total distance) of the best matching: largest, then cheapest; all matchings tried."""
    best = (0, 0.0)
    n, m = len(ref), len(hyp)
    for k in range(1, min(n, m) + 1):
        for rs in itertools.combinations(range(n), k):
            for hs in itertools.permutations(range(m), k):
                d = [abs(ref[a] - hyp[b]) for a, b in zip(rs, hs)]
                if max(d) <= tol:
                    cost = sum(d)
                    if k > best[0] or (k == best[0] and cost < best[1]):
                        best = (k, cost)
    return best


times = st.lists(st.integers(0, 40), max_size=5, unique=True).map(sorted)


@settings(max_examples=300, deadline=None)
@given(times, times, st.integers(0, 12))
def test_brute_force_cardinality_and_cost(ref, hyp, tol):
    pairs = match(ref, hyp, tol)
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    assert all(abs(ref[i] - hyp[j]) <= tol for i, j in pairs)
    size, cost = brute(ref, hyp, tol)
    assert len(pairs) == size
    assert sum(abs(ref[i] - hyp[j]) for i, j in pairs) == pytest.approx(cost)


# --- against mir_eval (maximum matching) and pyannote.metrics (greedy) ---------------------------------


def random_case(rng):
    """Two contiguous segmentations of the same show [0, T), cut times on a 0.5 s grid."""
    T = float(rng.integers(60, 600))
    n_r, n_h = rng.integers(1, 25, size=2)
    grid = np.arange(0.5, T, 0.5)
    ref = np.sort(rng.choice(grid, size=min(n_r, len(grid)), replace=False))
    if rng.random() < 0.5:  # a hypothesis near the reference, as real systems are
        hyp = np.unique(np.clip(np.round((ref + rng.normal(0, 8, len(ref))) * 2) / 2, 0.5, T - 0.5))
        hyp = np.union1d(hyp, rng.choice(grid, size=rng.integers(0, 4), replace=False))
    else:
        hyp = np.sort(rng.choice(grid, size=min(n_h, len(grid)), replace=False))
    tol = float(rng.choice([0.5, 2.0, 5.0, 10.0, 15.0, 30.0]))
    return T, ref, hyp, tol


def test_equals_mir_eval_maximum_matching_on_1000_random_cases():
    rng = np.random.default_rng(20150906)
    for _ in range(1000):
        T, ref, hyp, tol = random_case(rng)
        ours = boundaries(contiguous([0.0, *ref, T]), contiguous([0.0, *hyp, T]), tolerance=tol)
        theirs = len(mir_eval.util.match_events(ref, hyp, tol))
        assert (ours.n_reference, ours.n_hypothesis) == (len(ref), len(hyp))
        assert ours.n_matched == theirs, (ref, hyp, tol)
        assert ours.precision == theirs / len(hyp) and ours.recall == theirs / len(ref)


def test_never_below_pyannote_greedy_and_sometimes_above():
    rng = np.random.default_rng(7)
    above = 0
    precision, recall = SegmentationPrecision, SegmentationRecall
    for _ in range(300):
        T, ref, hyp, tol = random_case(rng)
        r_ann = contiguous([0.0, *ref, T]).to_annotation()
        h_ann = contiguous([0.0, *hyp, T]).to_annotation()
        ours = boundaries(r_ann, h_ann, tolerance=tol)
        p = precision(tolerance=tol)(r_ann, h_ann)
        r = recall(tolerance=tol)(r_ann, h_ann)
        assert ours.precision >= p - 1e-12 and ours.recall >= r - 1e-12
        above += ours.precision > p + 1e-12
    assert above > 0


def test_shows_are_kept_apart():
    # show 0: ref 10, hyp 12; show 1: ref 11. A tolerance of 5 must not pair show 1's 11 with 12.
    m = match_boundaries(np.array([0, 1]), np.array([10.0, 11.0]), np.array([0]), np.array([12.0]), tolerance=5.0)
    assert list(zip(*m.pairs)) == [(0, 0)] and m.matched[5.0].tolist() == [1, 0]


@settings(max_examples=100, deadline=None)
@given(times, times, st.integers(0, 12))
def test_swapping_sides_swaps_precision_and_recall(ref, hyp, tol):
    r_tl, h_tl = contiguous([-1, *ref, 50]), contiguous([-1, *hyp, 50])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        a = boundaries(r_tl, h_tl, tolerance=tol)
        b = boundaries(h_tl, r_tl, tolerance=tol)
    assert a.n_matched == b.n_matched
    assert (a.n_reference, a.n_hypothesis) == (b.n_hypothesis, b.n_reference)


def test_boundaries_outside_the_region_are_not_boundaries():
    # the region is the reference's extent [10, 100]; of the hypothesis's cuts 5, 50, 120 only 50 lies
    # strictly inside it: 5 (an end before the region) and 120 (a start after it) are not counted
    import numpy as np

    import tvseg

    reference = [(10, 50), (50, 100)]
    hypothesis = [(0, 5), (5, 50), (50, 120), (120, 130)]
    for ref, hyp in ((reference, hypothesis), (np.array(reference, float), np.array(hypothesis, float))):
        result = tvseg.boundaries(ref, hyp, tolerance=10)
        assert list(result.hypothesis_boundaries) == [50.0]
        assert (result.n_reference, result.n_hypothesis, result.n_matched) == (1, 1, 1)
        assert result.precision == 1.0
