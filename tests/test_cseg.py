"""NIST TDT's segmentation cost C_seg (tvseg.cseg), and the per-show and pooled unit metrics cseg,
cseg_norm, ghd and b of tvseg.evaluate, against hand counts, a brute-force count, nltk and segeval."""

import math
import warnings
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
import segeval
from hypothesis import assume, given
from hypothesis import strategies as st
from nltk.metrics.segmentation import ghd as nltk_ghd
from pyannote.core import Annotation, Segment

import tvseg
from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.settings import Settings
from tvseg.unit.masses import boundary_positions, check_pair
from tvseg.unit.windows import cseg_geometry, pk, window_counts


def cseg_counts(ref, hyp, k=None):
    """The window kernel's C_seg counts of one pair: miss, ref probes, false alarms, non-ref probes."""
    pairs = check_pair(ref, hyp)
    c = window_counts(pairs, cseg_geometry(pairs, k), sweep=False)
    return int(c.miss[0]), int(c.in_reference[0]), int(c.false_alarm[0]), int(c.windows[0] - c.in_reference[0])


def test_worked_example_counted_by_hand():
    # reference (4, 6): 10 units, boundary in gap 4; hypothesis (6, 4): boundary in gap 6.
    # k = round_half_up(10 / (2 * 2)) = round_half_up(2.5) = 3 (Pk's paper default).
    # Probe i joins unit i and unit i + 3, i = 1 .. 7; a segmentation separates it when it has a
    # boundary in one of the gaps i, i + 1, i + 2.
    #   probe i      1  2  3  4  5  6  7
    #   reference    -  x  x  x  -  -  -     (gap 4 in 2..4, 3..5, 4..6)
    #   hypothesis   -  -  -  x  x  x  -     (gap 6 in 4..6, 5..7, 6..8)
    # the reference separates 3 probes (2, 3, 4), the hypothesis misses 2 of them (2, 3): P_miss = 2/3;
    # the reference does not separate 4 probes (1, 5, 6, 7), the hypothesis separates 2 (5, 6): P_fa = 1/2.
    # C_seg = 1.0 * 2/3 * 0.3 + 0.3 * 1/2 * 0.7 = 0.2 + 0.105 = 0.305
    # normalised: 0.305 / min(1.0 * 0.3, 0.3 * 0.7) = 0.305 / 0.21 = 1.45238...
    # (Pk counts the same 2 misses and 2 false alarms but divides both by the 7 probes: 4/7.)
    assert cseg_counts((4, 6), (6, 4)) == brute_force((4, 6), (6, 4), 3) == (2, 3, 2, 4)
    assert tvseg.cseg((4, 6), (6, 4), normalized=False) == pytest.approx(0.305, abs=1e-15)
    assert tvseg.cseg((4, 6), (6, 4)) == pytest.approx(0.305 / 0.21, abs=1e-15)
    assert pk((4, 6), (6, 4)) == pytest.approx(4 / 7)
    # an explicit k: k = 1 probes adjacent units, so only the boundary gaps themselves count:
    # the reference separates probe 4 (missed), the hypothesis separates probe 6 (a false alarm of 8)
    assert cseg_counts((4, 6), (6, 4), k=1) == brute_force((4, 6), (6, 4), 1) == (1, 1, 1, 8)
    assert tvseg.cseg((4, 6), (6, 4), k=1, normalized=False) == pytest.approx(0.3 + 0.3 * 0.7 / 8)


def test_trivial_segmentations_normalise_to_one_for_the_better():
    reference = (3, 9, 5, 7, 4, 12)
    n = sum(reference)
    none, everywhere = (n,), (1,) * n
    # no boundary: P_miss = 1, P_fa = 0, cost C_miss P_seg; a boundary everywhere: P_miss = 0, P_fa = 1,
    # cost C_fa (1 - P_seg). TDT's defaults: 0.3 and 0.21, so "everywhere" is the better one.
    assert tvseg.cseg(reference, none, normalized=False) == pytest.approx(0.3)
    assert tvseg.cseg(reference, everywhere, normalized=False) == pytest.approx(0.21)
    assert tvseg.cseg(reference, everywhere) == 1.0
    assert tvseg.cseg(reference, none) == pytest.approx(0.3 / 0.21)  # 1.4286, the larger
    # with equal costs the prior decides: no boundary costs 0.3, everywhere 0.7
    assert tvseg.cseg(reference, none, c_fa=1.0) == 1.0
    assert tvseg.cseg(reference, everywhere, c_fa=1.0) == pytest.approx(0.7 / 0.3)
    for k in (1, 2, 5, 11):
        assert tvseg.cseg(reference, everywhere, k=k) == 1.0
        assert tvseg.cseg(reference, none, k=k) == pytest.approx(10 / 7)


def brute_force(reference, hypothesis, k):
    n = sum(reference)
    ref = set(boundary_positions(np.array(reference)).tolist())
    hyp = set(boundary_positions(np.array(hypothesis)).tolist())
    miss = ref_probes = fa = nonref = 0
    for i in range(1, n - k + 1):
        r = any(g in ref for g in range(i, i + k))
        h = any(g in hyp for g in range(i, i + k))
        ref_probes += r
        nonref += not r
        miss += r and not h
        fa += h and not r
    return miss, ref_probes, fa, nonref


masses = st.lists(st.integers(1, 9), min_size=1, max_size=20)
costs = st.floats(0.0, 5.0)


@st.composite
def pairs(draw):
    ref = draw(masses)
    n = sum(ref)
    gaps = draw(st.lists(st.booleans(), min_size=n - 1, max_size=n - 1))
    edges = [0] + [g + 1 for g, cut in enumerate(gaps) if cut] + [n]
    return ref, [b - a for a, b in zip(edges, edges[1:])]


@given(pairs(), st.one_of(st.none(), st.integers(1, 12)))
def test_counts_equal_a_brute_force_count_and_pk(pair, k):
    ref, hyp = pair
    kk = max(1, math.floor(sum(ref) / (2 * len(ref)) + 0.5)) if k is None else k  # Pk's paper default
    miss, ref_probes, fa, nonref = brute_force(ref, hyp, kk)
    assert cseg_counts(ref, hyp, k=k) == (miss, ref_probes, fa, nonref)
    if ref_probes + nonref:  # Pk counts the same probes, divided by all of them
        assert pk(ref, hyp, k=kk) == pytest.approx((miss + fa) / (ref_probes + nonref), abs=1e-15)


@given(pairs(), costs, costs, st.floats(0.0, 1.0), st.one_of(st.none(), st.integers(1, 12)))
def test_unnormalised_cost_is_bounded_and_zero_for_identical(pair, c_miss, c_fa, p_seg, k):
    ref, hyp = pair
    _, ref_probes, _, nonref = cseg_counts(ref, hyp, k=k)
    assume(ref_probes > 0 and nonref > 0)
    value = tvseg.cseg(ref, hyp, k=k, c_miss=c_miss, c_fa=c_fa, p_seg=p_seg, normalized=False)
    assert 0.0 <= value <= max(c_miss, c_fa) + 1e-12
    assert tvseg.cseg(ref, ref, k=k, c_miss=c_miss, c_fa=c_fa, p_seg=p_seg, normalized=False) == 0.0
    if min(c_miss * p_seg, c_fa * (1 - p_seg)) > 0:
        assert tvseg.cseg(ref, ref, k=k, c_miss=c_miss, c_fa=c_fa, p_seg=p_seg) == 0.0


def test_zero_over_zero_is_nan_with_a_warning():
    with pytest.warns(TvsegWarning, match="P_miss"):
        assert math.isnan(tvseg.cseg((10,), (10,)))  # the reference separates no probe
    with pytest.warns(TvsegWarning, match="P_fa"):
        assert math.isnan(tvseg.cseg((1, 1, 1), (3,), k=2))  # it separates every probe
    with pytest.warns(TvsegWarning):
        assert math.isnan(tvseg.cseg((2, 3), (5,), k=5))  # no probe fits


def test_input_checks():
    with pytest.raises(InputError):
        tvseg.cseg((3, 4), (3, 3))
    with pytest.raises(UsageError):
        tvseg.cseg((3, 4), (4, 3), k=0)
    for name, bad in (("c_miss", -1.0), ("c_fa", math.nan), ("p_seg", 1.5), ("p_seg", True)):
        with pytest.raises(InputError):
            tvseg.cseg((3, 4), (4, 3), **{name: bad})
    with pytest.raises(InputError, match="normalized=False"):
        tvseg.cseg((3, 4), (4, 3), p_seg=0.0)
    assert tvseg.cseg((3, 4), (4, 3), k=2, p_seg=0.0, normalized=False) == pytest.approx(0.3 * 1 / 3)
    assert isinstance(InputError("x"), ValueError) and isinstance(UsageError("x"), ValueError)


# the per-show and pooled metrics of tvseg evaluate

SHOWS = {"a": ((4, 6), (6, 4)), "b": ((5, 5, 10), (5, 2, 3, 10)), "c": ((3, 9, 8), (12, 8)), "d": ((7,), (2, 5))}


def annotation(masses):
    """Segments of whole seconds: unit ``i`` (the second ``[i, i + 1)``) in the segment its masses say."""
    a, edges = Annotation(), np.concatenate(([0], np.cumsum(masses)))
    for i, (start, end) in enumerate(zip(edges[:-1], edges[1:])):
        a[Segment(float(start), float(end))] = f"t{i}"
    return a


def evaluate(shows):
    """tvseg.evaluate on units of one second: the per-show table and the corpus values."""
    units = {
        s: pd.DataFrame({"start": np.arange(sum(r), dtype=float), "end": np.arange(sum(r)) + 1.0})
        for s, (r, _) in shows.items()
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        result = tvseg.evaluate(
            {s: annotation(r) for s, (r, _) in shows.items()},
            {"sys": {s: annotation(h) for s, (_, h) in shows.items()}},
            units=units,
            settings=Settings(bootstrap=0),
        )
    return result.systems["sys"].shows, result.systems["sys"].corpus


def nltk_string(masses):
    return "1".join("0" * (m - 1) for m in masses)


def cost(miss, ref_probes, fa, nonref):
    """C_seg = C_miss P_miss P_seg + C_fa P_fa (1 - P_seg), TDT's costs."""
    return 1.0 * (miss / ref_probes) * 0.3 + 0.3 * (fa / nonref) * (1 - 0.3)


def test_per_show_metrics_equal_hand_counts_nltk_and_segeval():
    per_show, _ = evaluate(SHOWS)
    for show, (ref, hyp) in SHOWS.items():
        m = per_show.loc[show]
        counts = brute_force(ref, hyp, max(1, math.floor(sum(ref) / (2 * len(ref)) + 0.5)))
        if ref != (7,):  # no reference boundary: P_miss is 0/0
            assert m["cseg"] == pytest.approx(cost(*counts), abs=1e-15)
            assert m["cseg_norm"] == pytest.approx(cost(*counts) / 0.21, abs=1e-14)
        assert m["ghd"] == nltk_ghd(nltk_string(ref), nltk_string(hyp)) / (sum(ref) - 1)
        assert m["b"] == pytest.approx(float(segeval.boundary_similarity(ref, hyp)), abs=1e-12)


def test_corpus_pools_counts_and_b_as_segeval_pools_a_dataset():
    per_show, corpus = evaluate(SHOWS)
    totals = np.sum(
        [brute_force(r, h, max(1, math.floor(sum(r) / (2 * len(r)) + 0.5))) for r, h in SHOWS.values()], axis=0
    )
    assert corpus["cseg"] == pytest.approx(cost(*totals))
    assert corpus["cseg_norm"] == pytest.approx(cost(*totals) / min(0.3, 0.21))
    assert corpus["ghd"] == pytest.approx(
        sum(nltk_ghd(nltk_string(r), nltk_string(h)) for r, h in SHOWS.values())
        / sum(sum(r) - 1 for r, _ in SHOWS.values())
    )
    # segeval 2.0.11 pools B over a dataset as sum(numerators) / sum(denominators)
    dataset = segeval.Dataset({show: {"ref": list(r), "hyp": list(h)} for show, (r, h) in SHOWS.items()})
    pooled = segeval.actual_agreement_linear(dataset)
    assert isinstance(pooled, Decimal)
    assert corpus["b"] == pytest.approx(float(pooled), abs=1e-12)
    assert abs(corpus["b"] - per_show["b"].mean()) > 1e-3  # pooled, not the mean of the shows (the macro value)


def test_b_without_any_boundary_is_nan_with_a_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tvseg.evaluate(
            {"d": annotation((7,))},
            {"sys": {"d": annotation((7,))}},
            units={"d": pd.DataFrame({"start": np.arange(7.0), "end": np.arange(7.0) + 1})},
            settings=Settings(bootstrap=0),
        )
    assert any("no boundary on either side (B)" in str(w.message) for w in caught)
    assert math.isnan(evaluate({"d": ((7,), (7,))})[0].loc["d", "b"])
    assert tvseg.boundary_similarity((7,), (7,)) == 1.0  # segeval's choice for a single pair
