"""The unit-domain scores of a show as ``tvseg.evaluate`` reports them, by hand, and the metrics of
pooled components (tvseg.unit.reduction.unit_metrics)."""

import math
import warnings

import numpy as np
import pytest
from pyannote.core import Annotation, Segment

import tvseg
from tvseg.errors import TvsegWarning
from tvseg.settings import Settings
from tvseg.unit.reduction import unit_metrics


def annotation(*spans):
    a = Annotation()
    for i, (s, e) in enumerate(spans):
        a[Segment(s, e)] = f"t{i}"
    return a


def show_scores(ref, hyp, **settings):
    """The per-show unit metrics of one show scored on frames by tvseg.evaluate."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(by_length|no long)", category=TvsegWarning)
        result = tvseg.evaluate(
            {"s": ref}, {"sys": {"s": hyp}}, settings=Settings(units="frames", bootstrap=0, **settings)
        )
    return result.systems["sys"].shows.loc["s"]


def test_one_show_by_hand():
    # 15 frames of 2 s over [0, 30); midpoints 1, 3, ..., 29.
    # ref [0,10) gap [10,12) [12,30): frames mid 1..9 and 11 (gap) -> 6, then 9 -> masses (6, 9)
    # hyp [0,15) [15,30): mid 1..13 -> 7, then 8                     -> masses (7, 8)
    # paper k = round_half_up(15 / 4 = 3.75) = 4, windows of 4 gaps, starts 1..11.
    # ref boundary at gap 6 in windows 3..6; hyp at gap 7 in windows 4..7:
    #   miss (ref only) window 3, false alarm (hyp only) window 7 -> Pk 2/11, P'k 3/11, WD 2/11.
    # WinPR's default window: Scaiano & Inkpen's 4 units hold k = 5 positions; ref gap 6 is in the
    # windows starting at 2..6, hyp gap 7 in 3..7: shared 3..6 -> TP 4, FN 1 (2), FP 1 (7),
    # TN 5*14 - 6 = 64; P = R = F = 4/5.
    # S: a near miss by one position is one transposition -> penalty 1 of 14 PBs.
    # B: one transposition costing 1/2, no addition, no match -> 1 - 0.5 / 1.
    # C_seg (k 4): the reference separates probes 3..6 (4 of 11), the hypothesis misses probe 3 and
    # adds probe 7: P_miss 1/4, P_fa 1/7; 0.3 * 1/4 + 0.3 * 0.7 * 1/7 = 0.105, normalised by 0.21.
    # GHD (nltk's costs 2, 2, 1): shift the hypothesis boundary by one position: 1 over 14 PBs.
    m = show_scores(annotation((0, 10), (12, 30)), annotation((0, 15), (15, 30)), frame=2.0)
    assert m["pk"] == pytest.approx(2 / 11)
    assert m["pk_prime"] == pytest.approx(3 / 11)
    assert m["windowdiff"] == pytest.approx(2 / 11)
    assert m["winpr_precision"] == m["winpr_recall"] == m["winpr_f1"] == pytest.approx(0.8)
    assert m["s"] == pytest.approx(1 - 1 / 14)
    assert m["b"] == pytest.approx(0.5)
    assert m["cseg"] == pytest.approx(0.105) and m["cseg_norm"] == pytest.approx(0.5)
    assert m["ghd"] == pytest.approx(1 / 14)


def components(**counts):
    zero = dict.fromkeys(
        (
            "pk_miss pk_false_alarm pk_windows wd_errors wd_windows winpr_tp winpr_tn winpr_fp winpr_fn "
            "s_penalty s_potential cseg_miss cseg_ref_probes cseg_fa cseg_nonref_probes ghd_sum ghd_positions "
            "b_penalty b_denominator"
        ).split(),
        0,
    )
    return {key: np.array([value]) for key, value in {**zero, **counts}.items()}


def test_pooling_sums_counts():
    a = components(pk_miss=1, pk_windows=10, wd_errors=2, wd_windows=10, winpr_tp=4, winpr_tn=30, winpr_fn=4)
    b = components(pk_false_alarm=3, pk_windows=30, wd_errors=3, wd_windows=30, winpr_tp=8, winpr_tn=80, winpr_fp=4)
    a.update(s_penalty=np.array([1.0]), s_potential=np.array([9.0]), b_penalty=np.array([0.5]))
    b.update(s_penalty=np.array([2.0]), s_potential=np.array([29.0]), b_denominator=np.array([4.0]))
    a["b_denominator"] = np.array([2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        m, _ = unit_metrics({key: a[key] + b[key] for key in a})
    # (1 + 3) / 40, (1 + 6) / 40, 5 / 40, P 12/16, R 12/16; S 1 - 3/38; B 1 - 0.5/6
    assert m["pk"][0] == pytest.approx(0.1)
    assert m["pk_prime"][0] == pytest.approx(7 / 40)
    assert m["windowdiff"][0] == pytest.approx(5 / 40)
    assert m["winpr_precision"][0] == m["winpr_recall"][0] == pytest.approx(0.75)
    assert m["s"][0] == pytest.approx(1 - 3 / 38)
    assert m["b"][0] == pytest.approx(1 - 0.5 / 6)


def test_zero_windows_is_nan_with_a_warning():
    # a show of one frame: no gap, no window
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = show_scores(annotation((0, 1)), annotation((0, 1)), frame=2.0)
    assert any(
        issubclass(w.category, tvseg.UndefinedValueWarning) and "no Pk window fits" in str(w.message) for w in caught
    )
    assert math.isnan(m["pk"]) and math.isnan(m["windowdiff"]) and math.isnan(m["winpr_f1"])


def test_convention_and_k_come_from_settings():
    # segeval1, k = 4: windows of 4 units hold 3 gaps, 15 + 1 - 4 = 12 windows; gap 6 is in
    # windows 4..6, gap 7 in 5..7: 2 errors
    m = show_scores(annotation((0, 10), (12, 30)), annotation((0, 15), (15, 30)), frame=2.0, convention="segeval1", k=4)
    assert m["windowdiff"] == pytest.approx(2 / 12)
