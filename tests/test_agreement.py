"""S-based agreement coefficients (Fournier & Inkpen 2012, section 3.5) and the system comparison (3.4).

Expected values: the paper's Table 2 (The Moonstone chapters whose codings segeval 2.0.11 bundles),
hand computations written out below, and segeval 2.0.11's coefficients where its definitions coincide.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import tvseg
from tvseg.errors import InputError
from tvseg.unit.agreement import agreement, agreement_with_system

segeval = pytest.importorskip("segeval")
from segeval.data import Dataset  # noqa: E402
from segeval.data.samples import HEARST_1997_STARGAZER, KAZANTSEVA2012_G2, KAZANTSEVA2012_G5  # noqa: E402

# Fournier & Inkpen 2012, Table 2: chapter -> (pi*_S, kappa*_S, B_S, 1-WD mean, 1-WD sd, |c|, |b|, m)
TABLE_2 = {
    "ch1": (0.7452, 0.7463, 0.0039, 0.6641, 0.1307, 4, 13, 13),
    "ch2": (0.8839, 0.8840, 0.0009, 0.7619, 0.1743, 6, 20, 15),
    "ch3": (0.8338, 0.8340, 0.0013, 0.6732, 0.1559, 4, 23, 38),
    "ch4": (0.8414, 0.8417, 0.0019, 0.6019, 0.2245, 4, 25, 46),
    "ch5": (0.8773, 0.8774, 0.0003, 0.6965, 0.1106, 6, 34, 42),
    "ch8": (0.8495, 0.8496, 0.0006, 0.7505, 0.0911, 6, 48, 39),
    "ch10": (0.9077, 0.9078, 0.0002, 0.7729, 0.0770, 6, 56, 83),
    "ch11": (0.8130, 0.8135, 0.0022, 0.6189, 0.1294, 4, 73, 111),
}


def _chapter(name):
    group = KAZANTSEVA2012_G5 if name in KAZANTSEVA2012_G5 else KAZANTSEVA2012_G2
    return {name: {coder: tuple(masses) for coder, masses in group[name].items()}}


@pytest.mark.parametrize("chapter", sorted(TABLE_2))
def test_table_2_coefficients(chapter):
    pi_s, kappa_s, bias_s, _, _, n_coders, n_b, mass = TABLE_2[chapter]
    data = _chapter(chapter)
    codings = data[chapter]
    # the bundled data is the table's: coders, segments ("|b|") and mass per chapter
    assert len(codings) == n_coders
    assert sum(len(m) for m in codings.values()) == n_b
    assert {sum(m) for m in codings.values()} == {mass}
    result = agreement(data)
    assert round(result.pi_star, 4) == pi_s
    assert round(result.kappa_star, 4) == kappa_s
    assert round(result.bias, 4) == bias_s
    assert result.pi is None and result.kappa is None  # more than two coders


@pytest.mark.parametrize("chapter", sorted(TABLE_2))
def test_table_2_pairwise_one_minus_windowdiff(chapter):
    windows = pytest.importorskip("tvseg.unit.windows")
    *_, wd_mean, wd_sd, _, _, _ = TABLE_2[chapter]
    codings = _chapter(chapter)[chapter]
    # footnote 9: "permuted, and with window size recalculated for each pair": every ordered pair
    values = [
        1 - windows.windowdiff(codings[r], codings[h], convention="segeval1")
        for r, h in itertools.permutations(sorted(codings), 2)
    ]
    assert round(float(np.mean(values)), 4) == wd_mean
    assert round(float(np.std(values)), 4) == wd_sd  # population standard deviation


def test_table_2_is_not_reproduced_when_counting_internal_boundaries():
    # the reading matters: with |boundaries| = internal boundaries, chapter 1 gives pi* = 0.7553, not 0.7452
    # (by hand: A_a = 1 - 17/72; P = 9/48; A_e = 0.03515625; (A_a - A_e) / (1 - A_e) = 0.75529)
    result = agreement(_chapter("ch1"), chance_count="boundaries")
    assert result.pi_star == pytest.approx(((1 - 17 / 72) - (9 / 48) ** 2) / (1 - (9 / 48) ** 2))
    assert round(result.pi_star, 4) == 0.7553
    assert round(result.bias, 4) == 0.0039  # the bias does not depend on the reading


def test_chapter_1_by_hand():
    # ch1, 13 units (12 PBs), boundary positions per coder:
    #   an4 (2,8,2,1): 2 10 12    an1 (11,2): 11    an2 (2,1,7,2,1): 2 3 10 12    an3 (9,4): 9
    # pairwise edit distances (n = 2, transposition = 1 PB):
    #   an4-an1: 10<->11 transposition, 2 and 12 full misses          d = 3
    #   an4-an2: 3 full miss                                             d = 1
    #   an4-an3: 9<->10 transposition, 2 and 12 full misses            d = 3
    #   an1-an2: 10<->11 transposition, 2, 3 and 12 full misses         d = 4
    #   an1-an3: 9 and 11 are 2 PBs apart: two full misses             d = 2
    #   an2-an3: 9<->10 transposition, 2, 3 and 12 full misses          d = 4
    # A_a = 1 - 17 / (6 * 12) = 55/72
    # segments per coder 4, 2, 5, 2: P = 13 / (4 * 12), A_e(pi*) = P^2
    # A_e(kappa*) = mean of the 6 products (4*2 + 4*5 + 4*2 + 2*5 + 2*2 + 5*2) / 144 / 6 = 60 / 864
    result = agreement(_chapter("ch1"))
    a_a, a_pi, a_kappa = 55 / 72, (13 / 48) ** 2, 60 / 864
    assert result.actual == pytest.approx(a_a)
    assert result.penalty == 17.0 and result.potential_boundaries == 72
    assert result.expected_pi == pytest.approx(a_pi)
    assert result.expected_kappa == pytest.approx(a_kappa)
    assert result.pi_star == pytest.approx((a_a - a_pi) / (1 - a_pi))
    assert result.kappa_star == pytest.approx((a_a - a_kappa) / (1 - a_kappa))
    assert result.bias == pytest.approx(a_pi - a_kappa)
    assert result.pairwise[("an4", "an1")] == pytest.approx(9 / 12)
    assert result.p_boundary_by_coder["an2"] == pytest.approx(5 / 12)


def test_two_coders_scott_and_cohen_by_hand():
    # one item of 10 units (9 PBs): c1 = 3 3 4 (boundaries 3, 6), c2 = 10 (none): 2 full misses
    # A_a = 1 - 2/9 = 7/9; segments: c1 3, c2 1 -> P_e(seg|c1) = 3/9, P_e(seg|c2) = 1/9
    # Scott:  P = 4/18, A_e = 4/81, pi = (63/81 - 4/81) / (77/81) = 59/77
    # Cohen:  A_e = 3/81, kappa = (63/81 - 3/81) / (78/81) = 60/78
    result = agreement({"item": {"c1": (3, 3, 4), "c2": (10,)}})
    assert result.pi == pytest.approx(59 / 77) and result.pi_star == result.pi
    assert result.kappa == pytest.approx(60 / 78) and result.kappa_star == result.kappa
    assert result.bias == pytest.approx(1 / 81)


def test_items_are_pooled_by_potential_boundaries():
    # item x: 5 units (4 PBs), a = 2 3, b = 3 2 -> one transposition, d = 1
    # item y: 11 units (10 PBs), a = 11, b = 5 6 -> one full miss, d = 1
    # A_a = 1 - (1 + 1) / (4 + 10) = 6/7 (not the mean of 3/4 and 9/10)
    # segments: a 2 + 1 = 3, b 2 + 2 = 4 over 14 PBs -> P = 7/28, A_e(pi) = 1/16
    result = agreement({"x": {"a": (2, 3), "b": (3, 2)}, "y": {"a": (11,), "b": (5, 6)}})
    assert result.actual == pytest.approx(6 / 7)
    assert result.expected_pi == pytest.approx(1 / 16)
    assert result.expected_kappa == pytest.approx((3 / 14) * (4 / 14))
    # the order of items and of coders does not matter
    again = agreement({"y": {"b": (5, 6), "a": (11,)}, "x": {"b": (3, 2), "a": (2, 3)}})
    assert again.pi_star == pytest.approx(result.pi_star) and again.kappa_star == pytest.approx(result.kappa_star)


def test_against_segeval_2_where_the_definitions_coincide():
    # segeval 2.0.11 with fnc_compare=segmentation_similarity: its S weighs a 2-wise transposition 0.5
    # and counts internal boundaries; its kappa* pools per coder (equal to ours on many items), its pi*
    # averages per-item proportions (equal to ours on one item).
    from segeval.similarity.segmentation import segmentation_similarity as segeval_s

    options = dict(weights=(1.0, 0.5), chance_count="boundaries")
    for group in (KAZANTSEVA2012_G5, KAZANTSEVA2012_G2):
        data = {item: dict(codings) for item, codings in group.items()}
        ours = agreement(data, **options)
        assert ours.kappa_star == pytest.approx(float(segeval.fleiss_kappa_linear(group, fnc_compare=segeval_s)))
        for item in group:
            one = agreement({item: dict(group[item])}, **options)
            single = Dataset({item: group[item]})
            assert one.pi_star == pytest.approx(float(segeval.fleiss_pi_linear(single, fnc_compare=segeval_s)))
            assert one.kappa_star == pytest.approx(float(segeval.fleiss_kappa_linear(single, fnc_compare=segeval_s)))
            assert one.bias == pytest.approx(float(segeval.artstein_poesio_bias_linear(single, fnc_compare=segeval_s)))
    stargazer = {item: dict(c) for item, c in HEARST_1997_STARGAZER.items()}
    assert agreement(stargazer, **options).pi_star == pytest.approx(
        float(segeval.fleiss_pi_linear(HEARST_1997_STARGAZER, fnc_compare=segeval_s))
    )


def test_system_against_human_agreement_by_hand():
    # one item of 11 units (10 PBs); both coders cut after unit 5; the system does not cut
    # humans: A_a = 1, P = 2/10 each, A_e = 0.04, pi* = kappa* = 1
    # with the system: S(c, system) = 1 - 1/10 for both coders -> A_a = 1 - 2/30 = 14/15
    #   P = (2 + 2 + 1) / 30 = 1/6, A_e(pi*) = 1/36 -> pi* = (14/15 - 1/36) / (35/36) = 163/175
    #   A_e(kappa*) = (0.04 + 0.02 + 0.02) / 3 = 2/75 -> kappa* = (14/15 - 2/75) / (73/75) = 68/73
    humans = {"item": {"c1": (5, 6), "c2": (5, 6)}}
    result = agreement_with_system(humans, {"item": (11,)}, name="tiling")
    assert result.humans.pi_star == 1.0
    assert result.with_system.pi_star == pytest.approx(163 / 175)
    assert result.with_system.kappa_star == pytest.approx(68 / 73)
    assert result.drop_pi_star == pytest.approx(1 - 163 / 175)
    assert result.drop_actual == pytest.approx(1 / 15)
    assert result.with_system.coders == ("c1", "c2", "tiling")


def test_bad_datasets():
    with pytest.raises(InputError, match="fewer than two coders"):
        agreement({"i": {"a": (3, 2)}})
    with pytest.raises(InputError, match="same coders"):
        agreement({"i": {"a": (3, 2), "b": (5,)}, "j": {"a": (3, 2), "c": (5,)}})
    with pytest.raises(InputError, match="number of units"):
        agreement({"i": {"a": (3, 2), "b": (4,)}})
    with pytest.raises(InputError, match="coder 'b'"):
        agreement({"i": {"a": (3, 2), "b": (5, 0)}})
    with pytest.raises(InputError):
        agreement({})
    with pytest.raises(InputError, match="no potential boundary"):
        agreement({"i": {"a": (1,), "b": (1,)}})
    with pytest.raises(InputError, match="chance_count"):
        agreement({"i": {"a": (3, 2), "b": (5,)}}, chance_count="gaps")
    with pytest.raises(InputError, match="every item"):
        agreement_with_system({"i": {"a": (3, 2), "b": (5,)}}, {})
    with pytest.raises(InputError, match="already a coder"):
        agreement_with_system({"i": {"a": (3, 2), "b": (5,)}}, {"i": (5,)}, name="a")


def test_public_name():
    assert tvseg.agreement is agreement
