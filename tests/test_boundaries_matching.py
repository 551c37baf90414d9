"""Boundary matching at scale: the banded DP, the greedy count for tolerance sweeps, the fallback past
the band limit, against brute force, mir_eval and the full-table DP."""

import itertools
import warnings
from unittest import mock

import mir_eval
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Segment, Timeline

from tvseg.errors import TvsegWarning
from tvseg.retrieval import matching
from tvseg.retrieval.boundaries import boundaries, count_matched, greedy_partners, match_points

# --- oracles -----------------------------------------------------------------------------------------


def brute(ref, hyp, tol):
    """(size, total distance) of the largest, then cheapest, matching; every matching tried."""
    best = (0, 0)
    for k in range(1, min(len(ref), len(hyp)) + 1):
        for rs in itertools.combinations(range(len(ref)), k):
            for hs in itertools.permutations(range(len(hyp)), k):
                d = [abs(ref[a] - hyp[b]) for a, b in zip(rs, hs)]
                if max(d) <= tol and (k > best[0] or sum(d) < best[1]):
                    best = (k, sum(d))
    return best


def full_table(a, b, tol):
    """The (a+1) x (b+1) dynamic programme and backtrack that the banded one replaces."""
    f = [[(0, 0)] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            best = max(f[i - 1][j], f[i][j - 1])
            d = abs(a[i - 1] - b[j - 1])
            if d <= tol and (f[i - 1][j - 1][0] + 1, f[i - 1][j - 1][1] - d) > best:
                best = (f[i - 1][j - 1][0] + 1, f[i - 1][j - 1][1] - d)
            f[i][j] = best
    pairs, i, j = [], len(a), len(b)
    while i and j:
        if f[i][j] == f[i - 1][j]:
            i -= 1
        elif f[i][j] == f[i][j - 1]:
            j -= 1
        else:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
    return pairs[::-1]


def two_pointers(ref, hyp, tol):
    """The greedy scan as a plain loop: each reference takes the earliest hypothesis left in reach."""
    p, out = 0, []
    for r in ref:
        while p < len(hyp) and hyp[p] < r - tol:
            p += 1
        if p < len(hyp) and hyp[p] <= r + tol:
            out.append(p)
            p += 1
        else:
            out.append(-1)
    return out


def one_show(ref, hyp, scale=1.0):
    ref, hyp = np.asarray(ref, float) / scale, np.asarray(hyp, float) / scale
    return np.zeros(len(ref), np.int64), ref, np.zeros(len(hyp), np.int64), hyp


def pairs_of(args, tol):
    i, j = match_points(*args, tol)
    return list(zip(i.tolist(), j.tolist()))


def check_matching(args, tol, pairs):
    r_show, r, h_show, h = args
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    for i, j in pairs:
        assert r_show[i] == h_show[j] and round(abs(r[i] - h[j]) * 1e6) <= round(tol * 1e6)


# times in tenths of a second: distances equal to the tolerance happen often, and must count
tenths = st.lists(st.integers(0, 300), max_size=6, unique=True).map(sorted)
tolerances = st.integers(0, 120)


@settings(max_examples=400)
@given(tenths, tenths, tolerances)
def test_brute_force_on_a_decimal_grid(ref, hyp, tol):
    args = one_show(ref, hyp, scale=10)
    pairs = pairs_of(args, tol / 10)
    check_matching(args, tol / 10, pairs)
    size, cost = brute(ref, hyp, tol)
    assert len(pairs) == size
    assert sum(abs(ref[i] - hyp[j]) for i, j in pairs) == cost
    assert count_matched(*args, tol / 10).sum() == size


@settings(max_examples=200)
@given(tenths, tenths, tolerances, st.sampled_from([1, 3, 10**6]))
def test_banded_rows_equal_the_full_table(ref, hyp, tol, wide):
    # the same pairs as the full table, whether rows go through numpy (wide=1) or the loop
    lo = np.searchsorted(hyp, np.subtract(ref, tol), side="left").tolist() if ref else []
    hi = np.searchsorted(hyp, np.add(ref, tol), side="right").tolist() if ref else []
    expected = full_table(ref, hyp, tol)
    assert matching._match_cluster(ref, hyp, lo, hi, tol, wide=wide) == expected
    with mock.patch.object(matching, "_INT64_SAFE", 0):  # Python integers in the numpy rows
        assert matching._match_cluster(ref, hyp, lo, hi, tol, wide=wide) == expected


@settings(max_examples=200)
@given(
    st.lists(st.integers(0, 2000), max_size=60, unique=True).map(sorted),
    st.lists(st.integers(0, 2000), max_size=60, unique=True).map(sorted),
    st.integers(0, 400),
)
def test_greedy_is_the_two_pointer_scan_and_as_large_as_the_dp(ref, hyp, tol):
    args = one_show(ref, hyp, scale=10)
    partner = greedy_partners(*args, tol / 10)
    assert partner.tolist() == two_pointers(ref, hyp, tol)
    pairs = [(i, j) for i, j in enumerate(partner.tolist()) if j >= 0]
    check_matching(args, tol / 10, pairs)
    assert len(pairs) == len(pairs_of(args, tol / 10)) == count_matched(*args, tol / 10).sum()


def random_corpus(rng, n_shows, grid):
    """Sorted ``(show, time)`` boundaries of both sides, several shows, times on a decimal grid."""
    sides = []
    for _ in range(2):
        show, time = [], []
        for s in range(n_shows):
            t = np.unique(np.round(rng.uniform(0, 200, rng.integers(0, 40)) / grid) * grid)
            show += [s] * len(t)
            time += t.tolist()
        sides += [np.array(show, np.int64), np.array(time)]
    return tuple(sides)


def test_count_matched_equals_match_points_per_show():
    rng = np.random.default_rng(3)
    for _ in range(300):
        n_shows = int(rng.integers(1, 5))
        args = random_corpus(rng, n_shows, grid=float(rng.choice([0.1, 0.5, 1.0])))
        for tol in (0.0, 0.1, 0.5, 2.0, 5.0, 10.0, 30.0, 1e9):
            i, _ = match_points(*args, tol)
            expected = np.bincount(args[0][i], minlength=n_shows)
            assert count_matched(*args, tol, n_shows=n_shows).tolist() == expected.tolist(), (args, tol)


def test_count_matched_equals_mir_eval():
    rng = np.random.default_rng(11)
    for _ in range(500):
        args = random_corpus(rng, 1, grid=0.5)
        tol = float(rng.choice([0.5, 2.0, 5.0, 10.0, 15.0, 30.0]))
        assert count_matched(*args, tol).sum() == len(mir_eval.util.match_events(args[1], args[3], tol))


def test_shows_with_sparse_numbers_are_kept_apart():
    # show numbers too far apart for one int64 axis are matched show by show, with the same result;
    # show 0: ref 10, 20 and hyp 12; show 5 (or 2^61): ref 11 and hyp 9, 30
    r, h = np.array([10.0, 20.0, 11.0]), np.array([12.0, 9.0, 30.0])
    for far in (5, 2**61):
        r_show, h_show = np.array([0, 0, far]), np.array([0, far, far])
        assert greedy_partners(r_show, r, h_show, h, 5.0).tolist() == [0, -1, 1]
        i, j = match_points(r_show, r, h_show, h, 5.0)
        assert list(zip(i.tolist(), j.tolist())) == [(0, 0), (2, 1)]
    assert count_matched(np.array([0, 0, 5]), r, np.array([0, 5, 5]), h, 5.0, n_shows=6).tolist() == [1, 0, 0, 0, 0, 1]


def test_a_huge_tolerance_does_not_overflow():
    args = one_show([10, 20, 30], [1e6, 2e6])
    assert len(pairs_of(args, 1e300)) == 2 and count_matched(*args, 1e300).sum() == 2


def test_past_the_band_limit_greedy_pairs_and_a_warning():
    rng = np.random.default_rng(5)
    warned = 0
    for _ in range(50):
        args = random_corpus(rng, 2, grid=0.5)
        tol = float(rng.choice([2.0, 10.0, 30.0]))
        exact = pairs_of(args, tol)
        with mock.patch.object(matching, "BAND_LIMIT", 3), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            pairs = pairs_of(args, tol)
        check_matching(args, tol, pairs)
        assert len(pairs) == len(exact)
        messages = [str(w.message) for w in caught if issubclass(w.category, TvsegWarning)]
        assert len(messages) <= 1
        if messages:
            warned += 1
            assert "boundaries" in messages[0] and "smallest total distance" in messages[0]
    assert warned > 10


def test_ten_thousand_segments_at_a_tolerance_of_1e9():
    # every pair is within the tolerance: a band of 10^8 cells, matched greedily with a warning
    rng = np.random.default_rng(0)
    cuts = np.arange(0, 10_001) * 5.0
    moved = np.unique(np.round(cuts[1:-1] + rng.uniform(0, 8, len(cuts) - 2), 2))
    reference = Timeline([Segment(s, e) for s, e in zip(cuts[:-1], cuts[1:])])
    hyp_cuts = [0.0, *moved[moved < cuts[-1]][:9000].tolist(), cuts[-1]]
    hypothesis = Timeline([Segment(s, e) for s, e in zip(hyp_cuts[:-1], hyp_cuts[1:])])
    with pytest.warns(TvsegWarning, match="18999 boundaries"):
        result = boundaries(reference, hypothesis, tolerance=1e9)
    assert (result.n_reference, result.n_hypothesis, result.n_matched) == (9999, 9000, 9000)
    args = one_show(result.reference_boundaries, result.hypothesis_boundaries)
    assert count_matched(*args, 1e9).tolist() == [9000]
