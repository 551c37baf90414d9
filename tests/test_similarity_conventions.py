"""S under ``convention="segeval1"`` (the 2012 reference implementation) and ``convention="segeval"``
(segeval 2.0.11).

Expected values: hand computations written out below (with ``fractions.Fraction``), and segeval
2.0.11's ``segmentation_similarity`` on random pairs.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tvseg
from tvseg.errors import InputError
from tvseg.unit.masses import check_pair
from tvseg.unit.similarity import WindowTransposition, pair_counts, segeval1_edits, segmentation_similarity

segeval = pytest.importorskip("segeval")


def te(span, b):
    # Fournier & Inkpen 2012, equation 3: te(n, b) = b - (1/b)^(n - 2)
    return b - Fraction(1, b) ** (span - 2)


def test_issue_worked_case_n5():
    # a = (1,3,1,2,2,2,1,2,1,1), b = (1,3,1,4,3,1,1,1,1): N = 16, 15 PBs
    #   boundaries a: 1 4 5 7 9 11 12 14 15       b: 1 4 5 9 12 13 14 15
    #   set errors (one side only): 7 (a), 11 (a), 13 (b)
    # 2012 procedure, widths 2 .. 5:
    #   width 2: no window of PBs where b's window is a's reversed and differs
    #            (11-12: a "||" b "-|"; 12-13: a "|-" b "||")
    #   width 3: PBs 11-13: a "||-", b "-||" = a reversed, b ends with a boundary: a transposition
    #            moving the 2 boundaries of a in it; te(3, 2 * 2) = 4 - 1/4 = 3.75
    #   widths 4, 5: nothing that overlaps none or outweighs it (e.g. 6-9: a "-|-|" b "---|")
    #   set errors 11 and 13 lie inside 11..13 and are dropped; 7 is left: one substitution
    # penalty = 1 + 3.75 = 4.75, S = (15 - 4.75) / 15 = 41/60 = 0.68333...
    a, b = (1, 3, 1, 2, 2, 2, 1, 2, 1, 1), (1, 3, 1, 4, 3, 1, 1, 1, 1)
    penalty = 1 + te(3, 4)
    assert penalty == Fraction(19, 4)
    want = (15 - penalty) / 15
    assert want == Fraction(41, 60)
    assert segmentation_similarity(a, b, n=5, convention="segeval1") == pytest.approx(float(want), abs=1e-15)
    assert round(segmentation_similarity(a, b, n=5, convention="segeval1"), 5) == 0.68333
    left, kept = segeval1_edits(np.array([1, 4, 5, 7, 9, 11, 12, 14, 15]), np.array([1, 4, 5, 9, 12, 13, 14, 15]), n=5)
    assert (left, kept) == (1, (WindowTransposition(11, 13, 2),))
    assert kept[0].error() == 3.75
    # the paper: 7 a full miss, 11 <-> 13 one transposition of span 3, te(3, 2) = 1.5:
    # S = (15 - 2.5) / 15 = 5/6
    assert segmentation_similarity(a, b, n=5) == pytest.approx(5 / 6)
    assert [float(x[0]) for x in pair_counts(check_pair(a, b), n=5, convention="segeval1")] == [4.75, 15.0]


def test_a_wider_window_replaces_a_lighter_one_and_s_can_be_negative():
    # a = (2, 1, 2): boundaries 2, 3; b = (1, 2, 1, 1): boundaries 1, 3, 4; 4 PBs
    #   set errors: 1 (b), 2 (a), 4 (b)
    # n = 2: PBs 1-2: a "-|", b "|-": transposition of weight 1, te(2, 2) = 1; 4 left
    #        S = (4 - 2) / 4 = 1/2 (the paper's too)
    # n = 3: PBs 2-4: a "||-", b "-||" = a reversed: weight 2 > 1, the weight of 1-2 which it
    #        overlaps (PB 2): it replaces it. Set errors 2 and 4 dropped, 1 left:
    #        penalty 1 + te(3, 4) = 4.75 > 4 PBs, S = (4 - 4.75) / 4 = -3/16
    a, b = (2, 1, 2), (1, 2, 1, 1)
    assert segmentation_similarity(a, b, n=2, convention="segeval1") == 0.5
    assert segmentation_similarity(a, b, n=3, convention="segeval1") == pytest.approx(-3 / 16)
    assert segmentation_similarity(b, a, n=3, convention="segeval1") == pytest.approx(-3 / 16)
    # the paper keeps 1 <-> 2 (cost 1) and a full miss at 4: S = 1/2
    assert segmentation_similarity(a, b, n=3) == 0.5


def test_a_wider_window_of_equal_weight_does_not_replace():
    # a = (3, 2, 5): boundaries 3, 5; b = (4, 2, 4): boundaries 4, 6; 9 PBs
    #   width 2: 3-4 (a "|-", b "-|") kept; 4-5 overlaps it with the same weight: not kept; 5-6 kept
    #   width 4: 3-6, a "|-|-", b "-|-|" = a reversed, weight 2, overlaps 3-4 and 5-6 (2 together):
    #            not larger, not kept
    #   S = (9 - 2 te(2, 2)) / 9 = 7/9
    left, kept = segeval1_edits(np.array([3, 5]), np.array([4, 6]), n=4)
    assert (left, kept) == (0, (WindowTransposition(3, 4, 1), WindowTransposition(5, 6, 1)))
    assert segmentation_similarity((3, 2, 5), (4, 2, 4), n=4, convention="segeval1") == pytest.approx(7 / 9)


def test_segeval_convention_equals_segeval_2():
    # segeval 2.0.11's S: its transpositions, each weighed |span - 1| / n_t
    rng = np.random.default_rng(21)
    for _ in range(400):
        n = int(rng.integers(2, 50))
        a, b = (_masses(rng.random(n - 1) < rng.random() * 0.5) for _ in range(2))
        if len(a) == len(b) == 1:
            continue  # segeval fails: max() of no boundary type
        nt = int(rng.integers(2, 7))
        want = float(segeval.segmentation_similarity(list(a), list(b), n_t=nt))
        assert segmentation_similarity(a, b, n=nt, convention="segeval") == pytest.approx(want, abs=1e-12), (a, b, nt)
    # by hand: (6, 8) against (8, 6), n = 3: one transposition 6 <-> 8, weight |8 - 6| / 3 = 2/3
    assert segmentation_similarity((6, 8), (8, 6), n=3, convention="segeval") == pytest.approx(1 - (2 / 3) / 13)


def _masses(gaps):
    n = len(gaps) + 1
    return tuple(int(x) for x in np.diff(np.concatenate(([0], np.flatnonzero(gaps) + 1, [n]))))


@st.composite
def pair(draw, max_units=40):
    n = draw(st.integers(1, max_units))
    density = draw(st.floats(0, 1))
    cut = lambda: _masses(np.array(draw(st.lists(st.floats(0, 1), min_size=n - 1, max_size=n - 1))) < density)
    return cut(), cut()


@settings(max_examples=300, deadline=None)
@given(pair(), st.sampled_from([(1.0, 1.0), (0.5, 1.0), (1.0, 0.5), (0.3, 0.6)]), st.booleans())
def test_segeval1_with_n_2_is_the_paper(p, weights, scale):
    # width 2 only: both take the leftmost maximal set of adjacent opposite differences, which the
    # paper's minimum also takes while a transposition costs at most two full misses (w_trp <= 2 w_sub)
    a, b = p
    assert segmentation_similarity(
        a, b, n=2, weights=weights, scale_transpositions=scale, convention="segeval1"
    ) == pytest.approx(segmentation_similarity(a, b, n=2, weights=weights, scale_transpositions=scale), abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(pair(), st.integers(1, 8))
def test_segeval1_is_symmetric_and_one_on_identity(p, n):
    # the 2012 test "b's window starts or ends with a boundary, reversed(a) == b" is symmetric:
    # with b = reversed(a), b's first PB is a's last; so is the weight (a and b hold as many)
    a, b = p
    s = segmentation_similarity(a, b, n=n, convention="segeval1")
    assert s == pytest.approx(segmentation_similarity(b, a, n=n, convention="segeval1"), abs=1e-12)
    assert s <= 1
    assert segmentation_similarity(a, a, n=n, convention="segeval1") == 1.0


@settings(max_examples=200, deadline=None)
@given(pair(), st.integers(1, 8))
def test_segeval1_never_costs_less_than_the_paper_minimum(p, n):
    # the paper's transpositions are chosen to minimise d; the 2012 windows are one more choice
    # (a window moving c boundaries costs te(span, 2c) >= c te(span, 2)), so they cost as much or more
    a, b = p
    assert segmentation_similarity(a, b, n=n, convention="segeval1") <= segmentation_similarity(a, b, n=n) + 1e-12


def test_bad_conventions():
    with pytest.raises(InputError, match="no convention"):
        segmentation_similarity((2, 3), (1, 4), convention="nltk")
    with pytest.raises(ValueError):
        segmentation_similarity((2, 3), (1, 4), convention="segeval2")
    with pytest.raises(InputError, match="several boundary types"):
        segmentation_similarity([{1}, set()], [set(), {2}], boundary_types={1, 2}, convention="segeval1")
    assert tvseg.segmentation_similarity((2, 3), (1, 4), convention="segeval1") == pytest.approx(3 / 4)
