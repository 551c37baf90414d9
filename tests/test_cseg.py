"""NIST TDT's segmentation cost C_seg (tvseg.cseg), and the pooled unit metrics cseg, cseg_norm, ghd, b."""

import math
import warnings
from decimal import Decimal

import numpy as np
import pytest
import segeval
from hypothesis import assume, given
from hypothesis import strategies as st

import tvseg
from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.unit.cseg import cseg_components, segmentation_cost
from tvseg.unit.masses import boundary_positions
from tvseg.unit.scores import unit_metrics
from tvseg.unit.similarity import pair_counts
from tvseg.unit.windows import pk, pk_components


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
    c = cseg_components((4, 6), (6, 4))
    assert tuple(c) == (2, 3, 2, 4, 3)
    assert tvseg.cseg((4, 6), (6, 4), normalized=False) == pytest.approx(0.305, abs=1e-15)
    assert tvseg.cseg((4, 6), (6, 4)) == pytest.approx(0.305 / 0.21, abs=1e-15)
    assert pk((4, 6), (6, 4)) == pytest.approx(4 / 7)
    # an explicit k: k = 1 probes adjacent units, so only the boundary gaps themselves count:
    # the reference separates probe 4 (missed), the hypothesis separates probe 6 (a false alarm of 8)
    assert tuple(cseg_components((4, 6), (6, 4), k=1)) == (1, 1, 1, 8, 1)
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
    c = cseg_components(ref, hyp, k=k)
    assert (c.miss, c.ref_probes, c.false_alarm, c.nonref_probes) == brute_force(ref, hyp, c.k)
    p = pk_components(ref, hyp, k=c.k)
    assert (p.miss, p.false_alarm, p.windows) == (c.miss, c.false_alarm, c.ref_probes + c.nonref_probes)


@given(pairs(), costs, costs, st.floats(0.0, 1.0), st.one_of(st.none(), st.integers(1, 12)))
def test_unnormalised_cost_is_bounded_and_zero_for_identical(pair, c_miss, c_fa, p_seg, k):
    ref, hyp = pair
    c = cseg_components(ref, hyp, k=k)
    assume(c.ref_probes > 0 and c.nonref_probes > 0)
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


# the pooled metrics of tvseg evaluate (tvseg.unit.scores)

SHOWS = {"a": ((4, 6), (6, 4)), "b": ((5, 5, 10), (5, 2, 3, 10)), "c": ((3, 9, 8), (12, 8)), "d": ((7,), (2, 5))}


def components(ref, hyp):
    # the counts unit_components adds for cseg, ghd and b (k: the paper's default per show)
    c = cseg_components(ref, hyp)
    penalty, denominator = pair_counts(
        boundary_positions(np.array(ref)),
        boundary_positions(np.array(hyp)),
        sum(ref) - 1,
        metric="B",
        convention="segeval",
        n=2,
    )
    out = {
        "pk_miss": 0,
        "pk_false_alarm": 0,
        "pk_windows": 1,
        "wd_errors": 0,
        "wd_windows": 1,
        "winpr_tp": 1,
        "winpr_tn": 0,
        "winpr_fp": 0,
        "winpr_fn": 0,
        "cseg_miss": c.miss,
        "cseg_ref_probes": c.ref_probes,
        "cseg_fa": c.false_alarm,
        "cseg_nonref_probes": c.nonref_probes,
        "ghd_sum": tvseg.ghd(ref, hyp),
        "ghd_positions": sum(ref) - 1,
        "b_penalty": penalty,
        "b_denominator": denominator,
    }
    return out


def test_per_show_metrics_equal_the_functions():
    for ref, hyp in SHOWS.values():
        if ref == (7,):
            continue  # no reference boundary: P_miss is 0/0
        m = unit_metrics(components(ref, hyp))
        assert m["cseg"] == pytest.approx(tvseg.cseg(ref, hyp, normalized=False), abs=1e-15)
        assert m["cseg_norm"] == pytest.approx(tvseg.cseg(ref, hyp), abs=1e-15)
        assert m["ghd"] == tvseg.ghd(ref, hyp) / (sum(ref) - 1)
        assert m["b"] == pytest.approx(tvseg.boundary_similarity(ref, hyp), abs=1e-15)
        assert m["b"] == pytest.approx(float(segeval.boundary_similarity(ref, hyp)), abs=1e-12)


def test_corpus_pools_counts_and_b_as_segeval_pools_a_dataset():
    total = None
    for ref, hyp in SHOWS.values():
        c = components(ref, hyp)
        total = c if total is None else {key: total[key] + c[key] for key in c}
    m = unit_metrics(total)
    p_miss = total["cseg_miss"] / total["cseg_ref_probes"]
    p_fa = total["cseg_fa"] / total["cseg_nonref_probes"]
    assert m["cseg"] == pytest.approx(p_miss * 0.3 + 0.3 * p_fa * 0.7)
    assert m["cseg_norm"] == pytest.approx(segmentation_cost(p_miss, p_fa))
    assert m["ghd"] == pytest.approx(
        sum(tvseg.ghd(r, h) for r, h in SHOWS.values()) / sum(sum(r) - 1 for r, _ in SHOWS.values())
    )
    # segeval 2.0.11 pools B over a dataset as sum(numerators) / sum(denominators)
    dataset = segeval.Dataset({show: {"ref": list(r), "hyp": list(h)} for show, (r, h) in SHOWS.items()})
    pooled = segeval.actual_agreement_linear(dataset)
    assert isinstance(pooled, Decimal)
    assert m["b"] == pytest.approx(float(pooled), abs=1e-12)
    mean_b = np.mean([tvseg.boundary_similarity(r, h) for r, h in SHOWS.values()])
    assert abs(m["b"] - mean_b) > 1e-3  # pooled, not the mean of the shows (that is the macro value)


def test_b_without_any_boundary_is_nan_with_a_warning():
    c = components((7,), (7,))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = unit_metrics(c)
    assert math.isnan(m["b"]) and math.isnan(m["cseg"])
    assert any("b is 0/0" in str(w.message) for w in caught)
    assert tvseg.boundary_similarity((7,), (7,)) == 1.0  # segeval's choice for a single pair
