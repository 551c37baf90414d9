"""The 0/0 policy of tvseg.rates, by hand, and its scalar and array paths agreeing."""

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tvseg.rates import f_measure, rate


def test_rate_by_hand():
    assert rate(3, 4) == 0.75
    assert math.isnan(rate(0, 0)) and math.isnan(rate(2, 0))  # no denominator: NaN, never 1
    assert rate(0, 5) == 0.0
    assert rate(np.int64(1), np.float64(8.0)) == 0.125
    out = rate(np.array([3, 0, 1]), np.array([4, 0, 2]))
    assert out[0] == 0.75 and math.isnan(out[1]) and out[2] == 0.5


def test_f_measure_by_hand():
    assert f_measure(0.5, 0.5) == 0.5
    assert f_measure(1 / 3, 1.0) == 0.5  # 2 (1/3)(1) / (4/3) = 1/2
    assert f_measure(0.0, float("nan")) == 0.0  # either factor 0: F = 0
    assert f_measure(float("nan"), 0.0) == 0.0
    assert math.isnan(f_measure(float("nan"), 0.5))
    assert f_measure(0.0, 0.0) == 0.0


values = st.one_of(st.just(0.0), st.just(float("nan")), st.floats(0.0, 1.0))
counts = st.integers(0, 50)


@given(st.lists(st.tuples(counts, counts), min_size=1, max_size=8))
def test_rate_scalar_equals_array(pairs):
    num = np.array([a for a, _ in pairs])
    den = np.array([b for _, b in pairs])
    array = rate(num, den)
    scalar = [rate(int(a), int(b)) for a, b in pairs]
    np.testing.assert_array_equal(array, np.array(scalar))


@given(st.lists(st.tuples(values, values), min_size=1, max_size=8))
def test_f_measure_scalar_equals_array(pairs):
    p = np.array([a for a, _ in pairs])
    r = np.array([b for _, b in pairs])
    array = f_measure(p, r)
    scalar = [f_measure(a, b) for a, b in pairs]
    np.testing.assert_allclose(array, np.array(scalar), rtol=1e-15, atol=0)
