"""Laws the window metrics obey (hypothesis), the window kernel over many pairs against a literal count
of every window, and the degenerate cases."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.unit.conventions import geometry
from tvseg.unit.masses import BoundaryPairs, as_masses, to_indicator
from tvseg.unit.windows import (
    WindowCounts,
    _probes_of_one,
    _sweep_of_one,
    default_k,
    pk,
    window_counts,
    windowdiff,
    winpr,
)

CONVENTIONS = ("paper", "segeval1", "segeval", "nltk")


@st.composite
def pair(draw, min_units=2, max_units=80):
    n = draw(st.integers(min_units, max_units))

    def cut():
        gaps = draw(st.lists(st.booleans(), min_size=n - 1, max_size=n - 1))
        edges = [0] + [i + 1 for i, g in enumerate(gaps) if g] + [n]
        return tuple(b - a for a, b in zip(edges, edges[1:]))

    return cut(), cut()


def quiet(f, *a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        return f(*a, **kw)


@settings(max_examples=150, deadline=None)
@given(pair(), st.sampled_from(CONVENTIONS), st.one_of(st.none(), st.integers(1, 10)))
def test_identity_scores_zero_and_values_are_bounded(p, convention, k):
    ref, hyp = p
    n = sum(ref)
    if k is not None and k >= n:
        k = None
    same = quiet(pk, ref, ref, k=k, convention=convention)
    assert same == 0 or math.isnan(same)
    same = quiet(windowdiff, ref, ref, k=k, convention=convention)
    assert same == 0 or math.isnan(same)
    for v in (quiet(pk, ref, hyp, k=k, convention=convention), quiet(windowdiff, ref, hyp, k=k, convention=convention)):
        assert math.isnan(v) or 0 <= v <= 1
    if convention == "paper":
        # the paper's windows always fit for the default k when N >= 2
        assert not math.isnan(pk(ref, hyp))
        assert 0 <= windowdiff(ref, hyp, lamprier=True) <= 1


@settings(max_examples=150, deadline=None)
@given(pair(), st.one_of(st.none(), st.integers(1, 12)))
def test_winpr_total_and_consistency(p, k):
    ref, hyp = p
    n = sum(ref)
    m = winpr(ref, hyp, k=k)
    kk = default_k(ref) + 1 if k is None else k  # WinPR's window: one position more than Pk's k
    assert m.k == kk
    assert m.total == kk * (n - 1)
    assert min(m.tp, m.tn, m.fp, m.fn) >= 0
    # each boundary is counted k times: TP + FN = k |ref boundaries|, TP + FP = k |hyp boundaries|
    assert m.tp + m.fn == kk * (len(ref) - 1)
    assert m.tp + m.fp == kk * (len(hyp) - 1)
    assert m.normalized().total == pytest.approx(n - 1)
    assert m.near_miss().total == pytest.approx(0)
    same = winpr(ref, ref, k=k)
    assert same.fp == same.fn == 0


def literal(ref, row, g):
    """Every window of ``g`` visited: ``(miss, false alarm, errors, sum |r - h|)`` of the boundary
    indicators ``ref`` and ``row`` over the gaps (phantom gaps hold no boundary)."""
    n = ref.size + 1

    def count(ind, s):
        return sum(int(ind[gap - 1]) for gap in range(s, s + g.width) if 1 <= gap <= n - 1)

    pairs = [(count(ref, s), count(row, s)) for s in range(g.lo, g.hi + 1)]
    return (
        sum(r > 0 and h == 0 for r, h in pairs),
        sum(r == 0 and h > 0 for r, h in pairs),
        sum(r != h for r, h in pairs),
        sum(abs(r - h) for r, h in pairs),
    )


def kernel_equals_literal(ref, hyps, k, convention, **options):
    """The kernel over every (ref, hypothesis) pair at once, given as indicator rows and as masses,
    against the literal count of each pair's windows (``options``: those of the geometry)."""
    n = sum(ref)
    ind = np.array([to_indicator(as_masses(x)) for x in hyps], dtype=bool).reshape(len(hyps), n - 1)
    r = to_indicator(as_masses(ref))
    g = geometry(n, len(ref), k, convention, **options)
    for form, merged in ((ind, False), (hyps, False), (hyps, True)):
        pairs = BoundaryPairs.against(ref, form)
        if merged:  # the sides merged beforehand: WindowDiff sweeps their differences only
            assert pairs.merged.size == sum(map(len, hyps)) + len(hyps) * (len(ref) - 2)
        got = window_counts(pairs, g)
        for i, row in enumerate(ind):
            want = literal(r, row, g) if g.hi >= g.lo else (0, 0, 0, 0)
            assert (got.miss[i], got.false_alarm[i], got.errors[i], got.differences[i]) == want, (ref, hyps[i], g)
            assert got.windows[i] == max(g.hi - g.lo + 1, 0)


@settings(max_examples=60, deadline=None)
@given(
    pair(max_units=60),
    st.sampled_from(CONVENTIONS),
    st.one_of(st.none(), st.integers(1, 8)),
    st.integers(1, 5),
    st.data(),
)
def test_kernel_equals_a_literal_count(p, convention, k, h, data):
    ref, _ = p
    n = sum(ref)
    if k is not None and k >= n:
        k = None
    hyps = [data.draw(pair(n, n))[0] for _ in range(h)]
    lam = convention in ("paper", "segeval", "segeval1") and data.draw(st.booleans())
    wt = convention in ("paper", "nltk") and data.draw(st.booleans())
    for metric in ("pk", "windowdiff"):
        kernel_equals_literal(ref, hyps, k, convention, lamprier=lam, weighted=wt, metric=metric)


@settings(max_examples=80, deadline=None)
@given(
    pair(min_units=1, max_units=60),
    st.sampled_from(CONVENTIONS),
    st.one_of(st.none(), st.integers(0, 64)),
    st.integers(1, 5),
    st.data(),
)
def test_kernel_when_k_is_large_small_or_none_fits(p, convention, k, h, data):
    # k may exceed N (no window) and be 0 or 1 (windows of no gap under nltk and segeval1)
    ref, _ = p
    n = sum(ref)
    if k is not None and k < (1 if convention in ("paper", "segeval1") else 0):
        k = None
    hyps = [data.draw(pair(n, n))[0] if n > 1 else (1,) for _ in range(h)]
    hyps[0] = ref if data.draw(st.booleans()) else hyps[0]
    for metric in ("pk", "windowdiff"):
        kernel_equals_literal(ref, hyps, k, convention, metric=metric)


def test_kernel_on_long_rows_equals_a_literal_window_count():
    # rows much longer than k, with many boundaries, none, all gaps, and the reference itself;
    # counted literally: for each window start s = 1 .. N-k, the boundaries in gaps s .. s+k-1
    rng = np.random.default_rng(3)
    ref = rng.integers(1, 30, size=40)
    n = int(ref.sum())
    r = to_indicator(ref)
    ind = rng.random((6, n - 1)) < np.array([[0.02], [0.1], [0.4], [0.0], [1.0], [0.0]])
    ind[5] = r
    k = 7
    got = window_counts(BoundaryPairs.against(ref, ind), geometry(n, ref.size, k, "paper"))
    for i, row in enumerate(ind):
        rs = np.array([r[s - 1 : s - 1 + k].sum() for s in range(1, n - k + 1)])
        hs = np.array([row[s - 1 : s - 1 + k].sum() for s in range(1, n - k + 1)])
        assert got.miss[i] == np.sum((rs > 0) & (hs == 0))
        assert got.false_alarm[i] == np.sum((rs == 0) & (hs > 0))
        assert got.errors[i] == np.sum(rs != hs)
        assert got.windows[i] == n - k
    assert got.miss[5] == got.false_alarm[5] == got.errors[5] == 0


def test_kernel_on_a_corpus_of_pairs_of_different_sizes_and_windows():
    # pairs that share nothing (different N, different k): each counted as if alone
    rng = np.random.default_rng(9)
    refs, hyps = [], []

    def cut(n):
        return np.diff(np.concatenate(([0], np.flatnonzero(rng.random(n - 1) < 0.3) + 1, [n])))

    for _ in range(30):
        n = int(rng.integers(1, 50))
        refs.append(cut(n))
        hyps.append(cut(n))
    positions = [np.cumsum(m)[:-1] for m in refs], [np.cumsum(m)[:-1] for m in hyps]
    offsets = [np.concatenate(([0], np.cumsum([p.size for p in side]))) for side in positions]
    n = np.array([int(m.sum()) for m in refs])
    pairs = BoundaryPairs(n, np.concatenate(positions[0]), offsets[0], np.concatenate(positions[1]), offsets[1])
    segments = np.array([m.size for m in refs])
    for convention in ("paper", "segeval1", "nltk"):
        for metric in ("pk", "windowdiff"):
            g = geometry(n, segments, None, convention, metric=metric)
            got = window_counts(pairs, g)
            for i, (ref, hyp) in enumerate(zip(refs, hyps)):
                gi = geometry(int(n[i]), int(segments[i]), None, convention, metric=metric)
                want = literal(to_indicator(ref), to_indicator(hyp), gi) if gi.hi >= gi.lo else (0, 0, 0, 0)
                assert (got.miss[i], got.false_alarm[i], got.errors[i], got.differences[i]) == want


def test_sweep_equals_brute_force_windows():
    # an independent, literal count: for each window start s, count boundaries in gaps s..s+w-1
    rng = np.random.default_rng(0)
    for _ in range(300):
        n = int(rng.integers(2, 40))
        r = rng.random(n - 1) < 0.3
        h = rng.random(n - 1) < 0.3
        ref = tuple(np.diff(np.concatenate(([0], np.flatnonzero(r) + 1, [n]))))
        hyp = tuple(np.diff(np.concatenate(([0], np.flatnonzero(h) + 1, [n]))))
        k = int(rng.integers(1, n + 1))

        def count(ind, s, w, n=n):
            return sum(ind[g - 1] for g in range(s, s + w) if 1 <= g <= n - 1)

        starts = range(1, n - k + 1)
        miss = sum(count(r, s, k) > 0 and count(h, s, k) == 0 for s in starts)
        fa = sum(count(r, s, k) == 0 and count(h, s, k) > 0 for s in starts)
        err = sum(count(r, s, k) != count(h, s, k) for s in starts)
        wdiff = sum(abs(count(r, s, k) - count(h, s, k)) for s in starts)
        lam = sum(count(r, s, k) != count(h, s, k) for s in range(2 - k, n))
        if k < n:
            assert pk(ref, hyp, k=k, false_alarm_weight=3.0) == pytest.approx((miss + 3 * fa) / (n - k))
            assert windowdiff(ref, hyp, k=k) == pytest.approx(err / (n - k))
            assert windowdiff(ref, hyp, k=k, weighted=True) == pytest.approx(wdiff / (n - k))
        assert windowdiff(ref, hyp, k=k, lamprier=True) == pytest.approx(lam / (n + k - 2))
        tp = sum(min(count(r, s, k), count(h, s, k)) for s in range(2 - k, n))
        assert winpr(ref, hyp, k=k).tp == tp


def test_default_k_roundings():
    # paper: 25 units / (2 * 2 segments) = 6.25 -> 6; 10 / 4 = 2.5 -> 3 (half up); floor at 1
    assert default_k((12, 13)) == 6
    assert default_k((5, 5)) == 3
    assert default_k((1, 1, 1, 1)) == 1
    assert default_k((5, 5), convention="segeval1") == 3
    assert default_k((5, 5), convention="segeval") == 2  # half to even, at least 2
    assert default_k((7, 7), convention="segeval") == 4  # 3.5 -> 4 (even)
    # nltk: round((N-1) / (2 * boundaries)): (5, 5): 9 / 2 = 4.5 -> 4
    assert default_k((5, 5), convention="nltk") == 4
    assert default_k((1, 1), convention="nltk") == 0


def test_degenerate_cases():
    # a single unit: no gap, no window of the paper fits -> NaN with a warning
    with pytest.warns(TvsegWarning):
        assert math.isnan(pk((1,), (1,)))
    with pytest.warns(TvsegWarning):
        assert math.isnan(windowdiff((1,), (1,)))
    # nltk: one unit is the empty string, default k = 0 and one empty window: 0 (nltk returns 0.0)
    assert pk((1,), (1,), convention="nltk") == 0.0
    # k >= N under the paper -> NaN; segeval returns 0 for Pk with k >= N
    with pytest.warns(TvsegWarning):
        assert math.isnan(pk((2, 3), (5,), k=5))
    assert pk((2, 3), (5,), k=5, convention="segeval") == 0.0
    assert pk((2, 3), (5,), k=9, convention="nltk") == 0.0  # nltk: 0 / negative
    with pytest.warns(TvsegWarning):
        assert math.isnan(pk((2, 3), (5,), k=5, convention="nltk"))  # nltk: ZeroDivisionError
    assert windowdiff((2, 3), (5,), k=9, convention="segeval") == 0.0
    # k = N - 1 under the paper: one window spanning the whole text
    assert windowdiff((2, 3), (5,), k=4) == 1.0
    # WinPR with no boundary anywhere: precision, recall, F1 are 0/0, NaN, computed once without a
    # warning (neither when the matrix is made nor on each access)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = winpr((5,), (5,))
        # a window of round_half_up(2.5) = 3 units holds k = 4 positions: 4 * 4 gaps
        assert (m.tp, m.tn, m.fp, m.fn) == (0, 16, 0, 0)
        assert math.isnan(m.f1) and math.isnan(m.precision) and math.isnan(m.recall)
        assert math.isnan(m.normalized().f1)


def test_bad_options_and_inputs():
    with pytest.raises(UsageError):
        pk((2, 3), (5,), convention="fancy")
    with pytest.raises(UsageError):
        pk((2, 3), (5,), k=0)
    with pytest.raises(UsageError):
        windowdiff((2, 3), (5,), lamprier=True, convention="nltk")
    with pytest.raises(UsageError):
        windowdiff((2, 3), (5,), weighted=True, convention="segeval")
    with pytest.raises(InputError, match="different numbers of units"):
        pk((2, 3), (4,))
    with pytest.raises(InputError):
        pk((2, True, 3), (6,))
    with pytest.raises(InputError):
        windowdiff((2, 0), (2,))
    with pytest.raises(InputError):
        BoundaryPairs.against((2, 3), np.zeros((2, 3), bool))
    with pytest.raises(InputError):
        BoundaryPairs.against((2, 3), np.zeros((2, 4), int))
    with pytest.raises(InputError):
        BoundaryPairs.against((2, 3), [(5,), (2, 2)])


def test_results_cannot_be_changed():
    import dataclasses

    m = winpr((2, 3), (1, 4), k=2)
    c = window_counts(BoundaryPairs.against((2, 3), [(5,), (2, 3)]), geometry(5, 2, 2, "paper"))
    assert isinstance(c, WindowCounts) and c.miss.tolist() == [2, 0] and c.windows.tolist() == [3, 3]
    with pytest.raises(AttributeError):
        c.miss = None
    assert dataclasses.is_dataclass(m)
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.k = 3
    assert (m.precision, m.recall, m.f1) == (
        m.tp / (m.tp + m.fp),
        m.tp / (m.tp + m.fn),
        2 * m.tp / (2 * m.tp + m.fp + m.fn),
    )


@settings(max_examples=300, deadline=None)
@given(pair(), st.sampled_from((*CONVENTIONS, "chunkseg")), st.one_of(st.none(), st.integers(1, 10)))
def test_pk_of_one_pair_counts_as_the_kernel_and_every_window(p, convention, k):
    # tvseg.pk counts one pair's windows in a loop over its boundaries (_probes_of_one): the misses and false
    # alarms of the kernel over many pairs (window_counts) and of a literal visit of every window
    ref, hyp = p  # k may be N or more: no window fits
    n = sum(ref)
    g = geometry(n, len(ref), k, convention, metric="pk")
    got = _probes_of_one(np.cumsum(ref)[:-1].tolist(), np.cumsum(hyp)[:-1].tolist(), g)
    kernel = window_counts(BoundaryPairs.against(ref, [hyp]), g, sweep=False)
    r, h = to_indicator(as_masses(ref)), to_indicator(as_masses(hyp))
    want = literal(r, h, g)[:2] if g.hi >= g.lo else (0, 0)
    assert got == (int(kernel.miss[0]), int(kernel.false_alarm[0])) == want
    if g.divisor > 0:
        assert quiet(pk, ref, hyp, k=k, convention=convention, false_alarm_weight=2.0) == (want[0] + 2 * want[1]) / int(
            g.divisor
        )


@settings(max_examples=300, deadline=None)
@given(pair(), st.sampled_from((*CONVENTIONS, "chunkseg")), st.one_of(st.none(), st.integers(1, 10)), st.data())
def test_windowdiff_of_one_pair_counts_as_the_kernel_and_every_window(p, convention, k, data):
    # tvseg.windowdiff sweeps one pair's boundaries in a loop (_sweep_of_one): the windows in error and the sum of
    # |r_s - h_s| of the kernel over many pairs and of a literal visit of every window, Lamprier et al.'s
    # phantom gaps and the weighted variant included
    ref, hyp = p  # k may be N or more: no window fits
    n = sum(ref)
    lam = convention in ("paper", "segeval", "segeval1") and data.draw(st.booleans())
    wt = convention in ("paper", "nltk") and data.draw(st.booleans())
    g = geometry(n, len(ref), k, convention, lamprier=lam, weighted=wt)
    positions = np.cumsum(ref)[:-1].tolist(), np.cumsum(hyp)[:-1].tolist()
    got = _sweep_of_one(*positions, g, False), _sweep_of_one(*positions, g, True)
    kernel = window_counts(BoundaryPairs.against(ref, [hyp]), g, probes=False)
    r, h = to_indicator(as_masses(ref)), to_indicator(as_masses(hyp))
    want = literal(r, h, g)[2:] if g.hi >= g.lo else (0, 0)
    assert got == (int(kernel.errors[0]), int(kernel.differences[0])) == want
    if g.divisor > 0:
        value = quiet(windowdiff, ref, hyp, k=k, convention=convention, lamprier=lam, weighted=wt)
        assert value == want[1 if wt else 0] / int(g.divisor)
