"""Laws the window metrics obey (hypothesis), the batch form against the single-pair form, and the
degenerate cases."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.unit.batch import WindowBatch, window_batch, windowdiff_batch
from tvseg.unit.masses import as_masses, to_indicator
from tvseg.unit.windows import default_k, pk, pk_components, windowdiff, windowdiff_components
from tvseg.unit.winpr import winpr

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


@settings(max_examples=60, deadline=None)
@given(
    pair(max_units=60),
    st.sampled_from(CONVENTIONS),
    st.one_of(st.none(), st.integers(1, 8)),
    st.integers(1, 5),
    st.data(),
)
def test_batch_equals_single(p, convention, k, h, data):
    ref, _ = p
    n = sum(ref)
    if k is not None and k >= n:
        k = None
    hyps = [data.draw(pair(n, n))[0] for _ in range(h)]
    ind = np.array([to_indicator(as_masses(x)) for x in hyps]).reshape(h, n - 1)
    lam = convention in ("paper", "segeval", "segeval1") and data.draw(st.booleans())
    wt = convention in ("paper", "nltk") and data.draw(st.booleans())
    for form in (ind, hyps):
        batch = window_batch(ref, form, k=k, convention=convention, lamprier=lam, weighted=wt)
        got = quiet(batch.pk, false_alarm_weight=2.0)
        want = [quiet(pk, ref, x, k=k, convention=convention, false_alarm_weight=2.0) for x in hyps]
        np.testing.assert_allclose(got, want)
        want = [quiet(windowdiff, ref, x, k=k, convention=convention, lamprier=lam, weighted=wt) for x in hyps]
        np.testing.assert_allclose(quiet(batch.windowdiff), want)
        got = quiet(windowdiff_batch, ref, form, k=k, convention=convention, lamprier=lam, weighted=wt)
        np.testing.assert_allclose(got, want)
        for i, x in enumerate(hyps):
            want_pk = pk_components(ref, x, k=k, convention=convention)
            assert (int(batch.miss[i]), int(batch.false_alarm[i]), int(batch.windows[i])) == tuple(want_pk)
            want_wd = windowdiff_components(ref, x, k=k, convention=convention, lamprier=lam, weighted=wt)
            assert (int(batch.errors[i]), int(batch.wd_windows[i])) == tuple(want_wd)


@settings(max_examples=80, deadline=None)
@given(
    pair(min_units=1, max_units=60),
    st.sampled_from(CONVENTIONS),
    st.one_of(st.none(), st.integers(0, 64)),
    st.integers(1, 5),
    st.data(),
)
def test_window_batch_equals_single_pair_components(p, convention, k, h, data):
    # k may exceed N (no window) and be 0 or 1 (windows of no gap under nltk and segeval1)
    ref, _ = p
    n = sum(ref)
    if k is not None and k < (1 if convention in ("paper", "segeval1") else 0):
        k = None
    hyps = [data.draw(pair(n, n))[0] if n > 1 else (1,) for _ in range(h)]
    hyps[0] = ref if data.draw(st.booleans()) else hyps[0]
    ind = np.array([to_indicator(as_masses(x)) for x in hyps]).reshape(h, n - 1)
    for form in (ind, hyps):
        got = window_batch(ref, form, k=k, convention=convention)
        for i, x in enumerate(hyps):
            want_pk = pk_components(ref, x, k=k, convention=convention)
            want_wd = windowdiff_components(ref, x, k=k, convention=convention)
            assert (int(got.miss[i]), int(got.false_alarm[i]), int(got.windows[i])) == tuple(want_pk)
            assert int(got.errors[i]) == want_wd.errors


def test_window_batch_on_long_rows_equals_a_literal_window_count():
    # rows much longer than k, with many boundaries, none, all gaps, and the reference itself;
    # counted literally: for each window start s = 1 .. N-k, the boundaries in gaps s .. s+k-1
    rng = np.random.default_rng(3)
    ref = rng.integers(1, 30, size=40)
    n = int(ref.sum())
    r = to_indicator(ref)
    ind = rng.random((6, n - 1)) < np.array([[0.02], [0.1], [0.4], [0.0], [1.0], [0.0]])
    ind[5] = r
    k = 7
    got = window_batch(ref, ind, k=k)
    for i, row in enumerate(ind):
        rs = np.array([r[s - 1 : s - 1 + k].sum() for s in range(1, n - k + 1)])
        hs = np.array([row[s - 1 : s - 1 + k].sum() for s in range(1, n - k + 1)])
        assert got.miss[i] == np.sum((rs > 0) & (hs == 0))
        assert got.false_alarm[i] == np.sum((rs == 0) & (hs > 0))
        assert got.errors[i] == np.sum(rs != hs)
        assert got.windows[i] == n - k
    assert got.miss[5] == got.false_alarm[5] == got.errors[5] == 0


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
        window_batch((2, 3), np.zeros((2, 3), bool))
    with pytest.raises(InputError):
        windowdiff_batch((2, 3), np.zeros((2, 4), int))
    with pytest.raises(UsageError):
        window_batch((2, 3), np.zeros((2, 4), bool), lamprier=True, convention="nltk")


def test_results_are_frozen_dataclasses_that_still_unpack():
    import dataclasses

    c = pk_components((2, 3), (5,), k=2)
    miss, false_alarm, windows = c
    assert (miss, false_alarm, windows) == (c.miss, c.false_alarm, c.windows) == (2, 0, 3)
    errors, wd_windows = windowdiff_components((2, 3), (5,), k=2)
    assert (errors, wd_windows) == (2, 3)
    m = winpr((2, 3), (1, 4), k=2)
    batch = window_batch((2, 3), [(5,), (2, 3)], k=2)
    assert isinstance(batch, WindowBatch)
    for result in (c, m, batch):
        assert dataclasses.is_dataclass(result)
        with pytest.raises(dataclasses.FrozenInstanceError):
            result.k = 3
    assert (m.precision, m.recall, m.f1) == (
        m.tp / (m.tp + m.fp),
        m.tp / (m.tp + m.fn),
        2 * m.tp / (2 * m.tp + m.fp + m.fn),
    )


def test_old_import_paths_still_resolve():
    import tvseg
    from tvseg.unit import batch, windows
    from tvseg.unit import winpr as winpr_module

    assert windows.winpr is winpr_module.winpr and windows.window_batch is batch.window_batch
    assert windows.windowdiff_batch is batch.windowdiff_batch and tvseg.winpr is winpr_module.winpr
