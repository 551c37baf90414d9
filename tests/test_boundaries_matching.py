"""The boundary matching kernel (``tvseg.retrieval.matching.match_boundaries``: the pairs at the
settings' tolerance, the counts at every tolerance of the sweep) against outside oracles: a search over
all matchings (largest, then cheapest), mir_eval's bipartite maximum matching show by show, the full
(a+1) x (b+1) dynamic programme written here (which of the cheapest maximum matchings), and cases worked
by hand."""

import itertools
import warnings

import mir_eval
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Segment, Timeline

from tvseg.errors import TvsegWarning
from tvseg.retrieval import matching
from tvseg.retrieval.boundaries import boundaries
from tvseg.retrieval.matching import match_boundaries
from tvseg.retrieval.sweeps import TOLERANCES

# --- oracles -----------------------------------------------------------------------------------------


def every_matching(ref, hyp):
    """(size, largest distance, total distance) of every one-to-one matching, whatever the tolerance."""
    out = [(0, 0, 0)]
    for k in range(1, min(len(ref), len(hyp)) + 1):
        for rs in itertools.combinations(range(len(ref)), k):
            for hs in itertools.permutations(range(len(hyp)), k):
                d = [abs(ref[a] - hyp[b]) for a, b in zip(rs, hs)]
                out.append((k, max(d), sum(d)))
    return out


def best(matchings, tol):
    """(size, total distance) of the largest, then cheapest, matching within ``tol``."""
    size, cost = max((k, -total) for k, largest, total in matchings if largest <= tol)
    return size, -cost


def full_table(a, b, tol):
    """The whole (a+1) x (b+1) table of (pairs, -distance) and its backtrack (up if equal, else left,
    else the pair): which of the cheapest maximum matchings the kernel must give."""
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


def mir_eval_counts(args, tol, n_shows):
    """mir_eval's maximum matching size, show by show (times exact in binary, so its float test is exact)."""
    r_show, r, h_show, h = args
    return [len(mir_eval.util.match_events(r[r_show == s], h[h_show == s], tol)) for s in range(n_shows)]


def one_show(ref, hyp, scale=1.0):
    ref, hyp = np.asarray(ref, float) / scale, np.asarray(hyp, float) / scale
    return np.zeros(len(ref), np.int64), ref, np.zeros(len(hyp), np.int64), hyp


def pairs_of(m):
    return list(zip(m.pairs[0].tolist(), m.pairs[1].tolist()))


def check_matching(args, tol, pairs):
    """One to one, within the tolerance (in microseconds), within a show."""
    r_show, r, h_show, h = args
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    for i, j in pairs:
        assert r_show[i] == h_show[j] and round(abs(r[i] - h[j]) * 1e6) <= round(tol * 1e6)


def random_corpus(rng, n_shows, grid):
    """Sorted ``(show, time)`` boundaries of both sides, several shows, times on a grid (ties included)."""
    sides = []
    for _ in range(2):
        show, time = [], []
        for s in range(n_shows):
            t = np.unique(np.round(rng.uniform(0, 200, rng.integers(0, 40)) / grid) * grid)
            show += [s] * len(t)
            time += t.tolist()
        sides += [np.array(show, np.int64), np.array(time)]
    return tuple(sides)


# --- against every matching, and the full table ------------------------------------------------------

# times in tenths of a second: distances equal to the tolerance happen often, and must count
tenths = st.lists(st.integers(0, 300), max_size=6, unique=True).map(sorted)
tolerances = st.integers(0, 120)


@settings(max_examples=400, deadline=None)
@given(tenths, tenths, st.lists(tolerances, min_size=1, max_size=4))
def test_every_matching_tried_at_every_tolerance(ref, hyp, tols):
    # the pairs at the first tolerance are a largest, then cheapest, matching; the counts at each
    # tolerance (the first and the sweep's) are the largest matching's size there
    args = one_show(ref, hyp, scale=10)
    m = match_boundaries(*args, tolerance=tols[0] / 10, sweep=[t / 10 for t in tols[1:]], n_shows=1)
    pairs = pairs_of(m)
    check_matching(args, tols[0] / 10, pairs)
    matchings = every_matching(ref, hyp)
    size, cost = best(matchings, tols[0])
    assert len(pairs) == size
    assert sum(abs(ref[i] - hyp[j]) for i, j in pairs) == cost
    assert {t: c.tolist() for t, c in m.matched.items()} == {t / 10: [best(matchings, t)[0]] for t in tols}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 2000), max_size=60, unique=True).map(sorted),
    st.lists(st.integers(0, 2000), max_size=60, unique=True).map(sorted),
    st.integers(0, 400),
)
def test_the_pairs_are_the_full_tables(ref, hyp, tol):
    # among the cheapest maximum matchings, the one the full table's backtrack picks
    assert pairs_of(match_boundaries(*one_show(ref, hyp, scale=10), tolerance=tol / 10)) == full_table(ref, hyp, tol)


@pytest.mark.parametrize("span", [2_000, 10**9])
def test_wide_rows_and_large_packed_values_are_the_full_tables(span):
    # 70 boundaries a side within the tolerance of each other: rows of 48 cells or more go through numpy;
    # times up to 10^9 s make (pairs x weight) pass 2^62 (70 x 10^15 us x 71), so Python integers are used
    rng = np.random.default_rng(span)
    for _ in range(3):
        ref = np.unique(rng.integers(0, span, 70)).tolist()
        hyp = np.unique(rng.integers(0, span, 70)).tolist()
        m = match_boundaries(*one_show(ref, hyp), tolerance=float(2 * span), sweep=[span / 4])
        assert pairs_of(m) == full_table(ref, hyp, 2 * span)
        assert m.matched[2.0 * span].tolist() == [min(len(ref), len(hyp))]


@pytest.mark.parametrize("few", [0, 10**9])
def test_the_clusters_sliced_one_by_one_or_gathered_give_the_full_tables(monkeypatch, few):
    # the cheapest-matching step takes its clusters one by one up to _FEW_CLUSTERS of them, all at once
    # beyond: either way, each show's pairs are those of its full table
    monkeypatch.setattr(matching, "_FEW_CLUSTERS", few)
    rng = np.random.default_rng(8)
    for _ in range(20):
        n_shows = int(rng.integers(1, 8))
        r_show, r, h_show, h = random_corpus(rng, n_shows, grid=1.0)
        m = match_boundaries(r_show, r, h_show, h, tolerance=3.0, n_shows=n_shows)
        for s in range(n_shows):
            ref, hyp = r[r_show == s].astype(int).tolist(), h[h_show == s].astype(int).tolist()
            r0, h0 = int(np.searchsorted(r_show, s)), int(np.searchsorted(h_show, s))
            mine = [(i - r0, j - h0) for i, j in pairs_of(m) if r_show[i] == s]
            assert mine == full_table(ref, hyp, 3)


# --- against mir_eval, show by show -------------------------------------------------------------------


def test_counts_per_show_at_every_tolerance_equal_mir_eval():
    rng = np.random.default_rng(3)
    choices = [0.0, 0.5, 2.0, 5.0, 10.0, 15.0, 30.0, 1e9]  # 1e9: every pair of a show is a candidate
    for _ in range(300):
        n_shows = int(rng.integers(1, 5))
        args = random_corpus(rng, n_shows, grid=float(rng.choice([0.25, 0.5, 1.0])))
        tols = [float(t) for t in rng.choice(choices, size=int(rng.integers(1, 6)), replace=False)]
        m = match_boundaries(*args, tolerance=tols[0], sweep=tols[1:], n_shows=n_shows)
        assert list(m.matched) == tols
        for tol in tols:
            assert m.matched[tol].dtype == np.int64
            assert m.matched[tol].tolist() == mir_eval_counts(args, tol, n_shows), (args, tol)
        check_matching(args, tols[0], pairs_of(m))
        assert len(m.pairs[0]) == sum(mir_eval_counts(args, tols[0], n_shows))


def test_the_sweep_of_evaluate_equals_mir_eval():
    rng = np.random.default_rng(21)
    for _ in range(100):
        args = random_corpus(rng, 2, grid=0.5)
        m = match_boundaries(*args, tolerance=10.0, sweep=TOLERANCES, n_shows=2)
        assert list(m.matched) == [10.0, *(t for t in TOLERANCES.tolist() if t != 10.0)]
        for tol, count in m.matched.items():
            assert count.tolist() == mir_eval_counts(args, tol, 2)


# --- cases worked by hand ------------------------------------------------------------------------------


def test_decimal_distances_at_the_tolerance_are_inside():
    # |16.1 - 6.1| = 10 exactly as written, though 16.1 - 6.1 = 10.000000000000002 in floats; 0.3 - 0.1 at 0.2
    shows = np.array([0, 1])
    m = match_boundaries(shows, np.array([6.1, 0.1]), shows, np.array([16.1, 0.3]), tolerance=10, sweep=[0.2, 9.9])
    assert {t: c.tolist() for t, c in m.matched.items()} == {10.0: [1, 1], 0.2: [0, 1], 9.9: [0, 1]}
    assert pairs_of(m) == [(0, 0), (1, 1)]


def test_shows_far_apart_on_the_clock_are_kept_apart():
    # show 0: ref 10, 20 and hyp 12 -> (10, 12); show s, on a Unix-time clock (T = 1.7e9 s): ref T + 11
    # and hyp T + 9, T + 30 -> (T + 11, T + 9); at 5 s. With s = 3000 the shows do not fit side by side
    # on one int64 axis of microseconds (3001 x 1.7e15 > 2^62) and are searched show by show
    t = 1.7e9
    r, h = np.array([10.0, 20.0, t + 11]), np.array([12.0, t + 9, t + 30])
    for s in (5, 3000):
        m = match_boundaries(np.array([0, 0, s]), r, np.array([0, s, s]), h, tolerance=5.0, sweep=[1.0])
        assert pairs_of(m) == [(0, 0), (2, 1)]
        assert m.matched[5.0][[0, s]].tolist() == [1, 1] and m.matched[1.0].sum() == 0


def test_a_huge_tolerance_does_not_overflow():
    # references 10, 20, 30 and hypotheses 1e6, 2e6: every pair is within 1e300 s, two pairs at most;
    # the distance (1e6 + 2e6) - (r_a + r_b) is smallest with the two latest references, 20 and 30
    m = match_boundaries(*one_show([10, 20, 30], [1e6, 2e6]), tolerance=1e300, sweep=[1e250])
    assert pairs_of(m) == [(1, 0), (2, 1)]
    assert m.matched[1e300].tolist() == m.matched[1e250].tolist() == [2]


@pytest.mark.parametrize("empty", ["reference", "hypothesis", "both"])
def test_a_side_without_boundaries_matches_nothing(empty):
    full = (np.array([0, 0]), np.array([10.0, 20.0]))
    none = (np.array([], np.int64), np.array([]))
    ref = none if empty in ("reference", "both") else full
    hyp = none if empty in ("hypothesis", "both") else full
    m = match_boundaries(*ref, *hyp, tolerance=5, sweep=[0, 30], n_shows=1)
    assert {t: c.tolist() for t, c in m.matched.items()} == {5.0: [0], 0.0: [0], 30.0: [0]}
    assert pairs_of(m) == []


def test_each_tolerance_counted_once_the_settings_first():
    m = match_boundaries(*one_show([10], [12]), tolerance=10, sweep=[0, 10, 5, 0])
    assert {t: c.tolist() for t, c in m.matched.items()} == {10.0: [1], 0.0: [0], 5.0: [1]}


# --- past the band limit -------------------------------------------------------------------------------


def test_past_the_band_limit_still_a_maximum_matching_with_a_warning(monkeypatch):
    monkeypatch.setattr(matching, "BAND_LIMIT", 3)
    rng = np.random.default_rng(5)
    warned = 0
    for _ in range(50):
        args = random_corpus(rng, 2, grid=0.5)
        tol = float(rng.choice([2.0, 10.0, 30.0]))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m = match_boundaries(*args, tolerance=tol, n_shows=2)
        check_matching(args, tol, pairs_of(m))
        assert len(m.pairs[0]) == sum(mir_eval_counts(args, tol, 2))
        messages = [str(w.message) for w in caught if issubclass(w.category, TvsegWarning)]
        assert len(messages) <= 1
        if messages:
            warned += 1
            assert "boundaries" in messages[0] and "smallest total distance" in messages[0]
    assert warned > 10


def test_ten_thousand_segments_at_a_tolerance_of_1e9():
    # every pair is within the tolerance: one cluster of 9999 x 9000 = about 9 x 10^7 candidate pairs,
    # matched greedily with a warning naming its 9999 + 9000 boundaries; a maximum matching pairs all
    # 9000 hypothesis boundaries
    rng = np.random.default_rng(0)
    cuts = np.arange(0, 10_001) * 5.0
    moved = np.unique(np.round(cuts[1:-1] + rng.uniform(0, 8, len(cuts) - 2), 2))
    reference = Timeline([Segment(s, e) for s, e in zip(cuts[:-1], cuts[1:])])
    hyp_cuts = [0.0, *moved[moved < cuts[-1]][:9000].tolist(), cuts[-1]]
    hypothesis = Timeline([Segment(s, e) for s, e in zip(hyp_cuts[:-1], hyp_cuts[1:])])
    with pytest.warns(TvsegWarning, match="18999 boundaries"):
        result = boundaries(reference, hypothesis, tolerance=1e9)
    assert (result.n_reference, result.n_hypothesis, result.n_matched) == (9999, 9000, 9000)
