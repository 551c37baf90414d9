"""Unit-domain components of a show and the metrics computed from (summed) components."""

import math

import pytest
from pyannote.core import Annotation, Segment

from tvseg.errors import TvsegWarning
from tvseg.settings import Settings
from tvseg.unit.projection import frames
from tvseg.unit.scores import unit_components, unit_metrics


def annotation(*spans):
    a = Annotation()
    for i, (s, e) in enumerate(spans):
        a[Segment(s, e)] = f"t{i}"
    return a


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
    # S: one 1-wise... a near miss by one position is one transposition -> penalty 1 of 14 PBs.
    u = frames(Segment(0, 30), 2.0)
    c = unit_components(annotation((0, 10), (12, 30)), annotation((0, 15), (15, 30)), units=u, settings=Settings())
    assert c["pk_miss"] == 1 and c["pk_false_alarm"] == 1 and c["pk_windows"] == 11
    assert c["wd_errors"] == 2 and c["wd_windows"] == 11
    assert (c["winpr_tp"], c["winpr_tn"], c["winpr_fp"], c["winpr_fn"]) == (4, 64, 1, 1)
    m = unit_metrics(c)
    assert m["pk"] == pytest.approx(2 / 11)
    assert m["pk_prime"] == pytest.approx(3 / 11)
    assert m["windowdiff"] == pytest.approx(2 / 11)
    assert m["winpr_precision"] == m["winpr_recall"] == m["winpr_f1"] == 0.8
    if "s" in m:
        assert m["s"] == pytest.approx(1 - 1 / 14)


def test_pooling_sums_counts():
    a = {
        "pk_miss": 1,
        "pk_false_alarm": 0,
        "pk_windows": 10,
        "wd_errors": 2,
        "wd_windows": 10,
        "winpr_tp": 4,
        "winpr_tn": 30,
        "winpr_fp": 0,
        "winpr_fn": 4,
    }
    b = {
        "pk_miss": 0,
        "pk_false_alarm": 3,
        "pk_windows": 30,
        "wd_errors": 3,
        "wd_windows": 30,
        "winpr_tp": 8,
        "winpr_tn": 80,
        "winpr_fp": 4,
        "winpr_fn": 0,
    }
    m = unit_metrics({key: a[key] + b[key] for key in a})
    # (1 + 3) / 40, (1 + 6) / 40, 5 / 40, P 12/16, R 12/16
    assert m["pk"] == pytest.approx(0.1)
    assert m["pk_prime"] == pytest.approx(7 / 40)
    assert m["windowdiff"] == pytest.approx(5 / 40)
    assert m["winpr_precision"] == m["winpr_recall"] == pytest.approx(0.75)
    assert "s" not in m


def test_zero_windows_is_nan_with_a_warning():
    # a show of one frame: no gap, no window
    u = frames(Segment(0, 1), 2.0)
    c = unit_components(annotation((0, 1)), annotation((0, 1)), units=u, settings=Settings())
    assert c["pk_windows"] == 0 and c["wd_windows"] == 0
    with pytest.warns(TvsegWarning):
        m = unit_metrics(c)
    assert math.isnan(m["pk"]) and math.isnan(m["windowdiff"]) and math.isnan(m["winpr_f1"])


def test_convention_and_k_come_from_settings():
    u = frames(Segment(0, 30), 2.0)
    ref, hyp = annotation((0, 10), (12, 30)), annotation((0, 15), (15, 30))
    # segeval1, k = 4: windows of 4 units hold 3 gaps, 15 + 1 - 4 = 12 windows; gap 6 is in
    # windows 4..6, gap 7 in 5..7: 2 errors
    c = unit_components(ref, hyp, units=u, settings=Settings(convention="segeval1", k=4))
    assert (c["wd_errors"], c["wd_windows"]) == (2, 12)
