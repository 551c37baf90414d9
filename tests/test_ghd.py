"""tvseg.ghd equals nltk's generalized Hamming distance (nltk 3.10.4, ``nltk.metrics.segmentation.ghd``).

nltk takes a string with one character per gap between adjacent units, the contract's mapping of
masses: ``(a, b, c)`` -> ``"0"*(a-1) + "1" + "0"*(b-1) + "1" + "0"*(c-1)``. tvseg runs the same
recursion (row by row where every sum is exact, else anti-diagonal by anti-diagonal in nltk's own order),
so the values are equal, not merely close.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.metrics import segmentation as nltk_seg

import tvseg
from tvseg.errors import InputError
from tvseg.unit.masses import from_indicator

PAIRS = 1000


def nltk_string(masses):
    return "1".join("0" * (m - 1) for m in masses)


def random_pair(rng):
    n = int(rng.integers(1, 120))

    def cut():
        gaps = rng.random(n - 1) < rng.random() * 0.6
        edges = np.concatenate(([0], np.flatnonzero(gaps) + 1, [n]))
        return np.diff(edges).tolist()

    return cut(), cut()


def test_equals_nltk_with_its_defaults_on_1000_random_pairs():
    rng = np.random.default_rng(14)
    nonzero = 0
    for _ in range(PAIRS):
        ref, hyp = random_pair(rng)
        expected = nltk_seg.ghd(nltk_string(ref), nltk_string(hyp))  # ins 2, del 2, shift 1, boundary "1"
        got = tvseg.ghd(ref, hyp)
        assert got == expected, (ref, hyp, got, expected)
        nonzero += expected > 0
    assert nonzero > PAIRS // 2


def test_equals_nltk_with_other_costs():
    rng = np.random.default_rng(15)
    for _ in range(300):
        ref, hyp = random_pair(rng)
        ins, dele, shift = (float(x) for x in rng.random(3) * 3)
        expected = nltk_seg.ghd(nltk_string(ref), nltk_string(hyp), ins, dele, shift)
        assert tvseg.ghd(ref, hyp, ins_cost=ins, del_cost=dele, shift_cost_coeff=shift) == expected


def test_nltk_docstring_examples_in_masses():
    # nltk's own examples (from Kulyukin's C++ implementation); '1100100000' is masses (1, 1, 3, 6)
    for ref, hyp, costs, value in [
        ("1100100000", "1100010000", (1.0, 1.0, 0.5), 0.5),
        ("1100100000", "1100000001", (1.0, 1.0, 0.5), 2.0),
        ("011", "110", (1.0, 1.0, 0.5), 1.0),
        ("1", "0", (1.0, 1.0, 0.5), 1.0),
        ("111", "000", (1.0, 1.0, 0.5), 3.0),
        ("000", "111", (1.0, 2.0, 0.5), 6.0),
    ]:
        a = from_indicator([c == "1" for c in ref]).tolist()
        b = from_indicator([c == "1" for c in hyp]).tolist()
        assert nltk_string(a) == ref and nltk_string(b) == hyp
        ins, dele, shift = costs
        assert tvseg.ghd(a, b, ins_cost=ins, del_cost=dele, shift_cost_coeff=shift) == value


def test_a_shift_costs_its_distance():
    # reference cut after unit 3 of 10, hypothesis after unit 5: one shift of 2 positions, cost 2
    # (less than deleting and inserting, 4); evaluate divides it by the 9 potential boundaries
    # (tests/test_cseg.py)
    assert tvseg.ghd((3, 7), (5, 5)) == 2.0
    assert tvseg.ghd((10,), (10,)) == 0.0 and tvseg.ghd((1,), (1,)) == 0.0


def test_long_inputs_beyond_nltk_limit():
    # reference boundaries at 7j (j = 1 .. m-1), hypothesis boundaries at 7j + 3 (j = 0 .. m-1): the best
    # transformation shifts each 7j + 3 onto 7j (cost 3 each) and deletes the boundary at 3 (cost 2),
    # 3m - 1 in all. nltk agrees below its 10,000-character limit; tvseg goes on past it.
    def pair(m):
        return [7] * m, [3] + [7] * (m - 1) + [4]

    for m in (10, 1000):
        ref, hyp = pair(m)
        assert tvseg.ghd(ref, hyp) == nltk_seg.ghd(nltk_string(ref), nltk_string(hyp)) == 3 * m - 1
    ref, hyp = pair(3000)  # 20,999 characters in nltk's form
    assert tvseg.ghd(ref, hyp) == 3 * 3000 - 1


def test_input_checks():
    with pytest.raises(InputError):
        tvseg.ghd((3, 4), (3, 3))
    with pytest.raises(InputError):
        tvseg.ghd((3, 0), (3,))
    for bad in (-1.0, math.nan, math.inf, True, "2"):
        with pytest.raises(InputError):
            tvseg.ghd((3, 4), (4, 3), ins_cost=bad)
    with pytest.raises(ValueError):
        tvseg.ghd((3, 4), (4, 3), shift_cost_coeff=-0.5)


masses = st.lists(st.integers(1, 8), min_size=1, max_size=25)


@given(masses, st.data())
def test_identical_is_zero_and_costs_are_symmetric(ref, data):
    assert tvseg.ghd(ref, ref) == 0.0
    hyp = data.draw(st.permutations(ref))
    # with ins_cost == del_cost the distance does not depend on which side is the reference
    assert tvseg.ghd(ref, hyp) == tvseg.ghd(hyp, ref)
    assert tvseg.ghd(ref, hyp) == nltk_seg.ghd(nltk_string(ref), nltk_string(hyp))
