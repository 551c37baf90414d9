"""Video chaptering's metrics (issue 14): VidChapters' detection P/R/F over tIoU thresholds and
navigation P/R at d seconds (tvseg.retrieval.chapters), and the one-to-one variant of detection."""

import itertools
import math
import warnings
from fractions import Fraction as Fr

import numpy as np
import pytest
from pyannote.core import Annotation, Segment

from tvseg.columns import stack
from tvseg.errors import TvsegWarning
from tvseg.evaluation import evaluate
from tvseg.metrics import METRICS, compute
from tvseg.rates import f_measure
from tvseg.retrieval.chapters import (
    DETECTION_KEYS,
    NAV_DISTANCES,
    NAVIGATION_KEYS,
    ONE_TO_ONE_KEYS,
    TIOU_THRESHOLDS,
    chapter_components,
    chapters,
    one_to_one,
    overlapping_pairs,
)

VIDCHAPTERS_KEYS = (
    *DETECTION_KEYS,
    *ONE_TO_ONE_KEYS,
    *NAVIGATION_KEYS,
)  # the "chapters" group also has chapter_count_error

# --- a worked example, counted by hand from the definitions ----------------------------------------
#
# reference chapters          predicted chapters
#   R0 [0, 40)                  H0 [0, 83)
#   R1 [40, 80)                 H1 [83, 200)
#   R2 [80, 200)                H2 [200.1, 200.4)
#   R3 [200.1, 200.7)           H3 [230, 240)
#   R4 [250, 280)
#
# overlapping pairs, tIoU = intersection / (max end - min start):
#   H0-R0  40 / 83  = 0.482      H0-R1  40 / 83 = 0.482      H0-R2  3 / 200 = 0.015
#   H1-R2  117 / 120 = 0.975     H2-R3  0.3 / 0.6 = 0.5 exactly (as floats: 0.5000000000000001)
#   H3 overlaps nothing; R4 is overlapped by nothing.
#
# t = 0.3: above: H0-R0, H0-R1 (H0 over two references), H1-R2, H2-R3
#   predictions covered H0, H1, H2: P = 3/4 (H0 counts once); references covered R0, R1, R2, R3: R = 4/5
#   one to one: H0 takes R0 or R1, not both: 3 pairs: P = 3/4, R = 3/5
# t = 0.5: H1-R2 only (H2-R3 is 0.5, not above 0.5): P = 1/4, R = 1/5 (one to one the same)
# t = 0.7 and 0.9: H1-R2 (0.975): P = 1/4, R = 1/5
# VidChapters: P = (3/4 + 3 * 1/4) / 4 = 3/8;  R = (4/5 + 3 * 1/5) / 4 = 7/20
#   F = mean over t of F(P_t, R_t) = (F(3/4, 4/5) + 3 F(1/4, 1/5)) / 4 = (24/31 + 3 * 2/9) / 4 = 67/186
# one to one: P = 3/8;  R = (3/5 + 3/5) / 4 = 3/10;  F = (F(3/4, 3/5) + 3 * 2/9) / 4 = (2/3 + 2/3) / 4 = 1/3
#
# navigation, chapter starts: references 0, 40, 80, 200.1, 250; predictions 0, 83, 200.1, 230
#   nearest prediction to each reference start: 0, 40, 3, 0, 20
#   nearest reference to each prediction start: 0, 3, 0, 20
#   a start counts when strictly less than d away (VidChapters' `abs(...) < d`):
#   d = 1 and 3 (R2-H1 is exactly 3 s: not counted): R = 2/5, P = 2/4
#   d = 5, 10: R = 3/5, P = 3/4;  d = 30: R = 4/5, P = 4/4;  d = 60: R = 5/5, P = 4/4
REFERENCE = [(0, 40), (40, 80), (80, 200), (200.1, 200.7), (250, 280)]
HYPOTHESIS = [(0, 83), (83, 200), (200.1, 200.4), (230, 240)]
EXPECTED = {
    "vc_detection_precision": Fr(3, 8),
    "vc_detection_recall": Fr(7, 20),
    "vc_detection_f1": Fr(67, 186),
    "detection_precision_1to1": Fr(3, 8),
    "detection_recall_1to1": Fr(3, 10),
    "detection_f1_1to1": Fr(1, 3),
    "nav_precision_1s": Fr(2, 4),
    "nav_recall_1s": Fr(2, 5),
    "nav_precision_3s": Fr(2, 4),
    "nav_recall_3s": Fr(2, 5),
    "nav_precision_5s": Fr(3, 4),
    "nav_recall_5s": Fr(3, 5),
    "nav_precision_10s": Fr(3, 4),
    "nav_recall_10s": Fr(3, 5),
    "nav_precision_30s": Fr(1),
    "nav_recall_30s": Fr(4, 5),
    "nav_precision_60s": Fr(1),
    "nav_recall_60s": Fr(1),
}


def test_worked_example_counted_by_hand():
    got = chapters(REFERENCE, HYPOTHESIS)
    assert set(got) == set(VIDCHAPTERS_KEYS) == set(EXPECTED)
    for key, value in EXPECTED.items():
        assert got[key] == pytest.approx(float(value), abs=1e-12), key


def test_not_one_to_one_one_prediction_over_two_references():
    # one prediction [0, 10) over references [0, 4) and [5, 9): tIoU 4/10 and 4/10 (both > 0.3)
    got = chapters([(0, 4), (5, 9)], [(0, 10)])
    # t = 0.3: P = 1/1 (counted once), R = 2/2 (both references); other thresholds: 0
    assert got["vc_detection_precision"] == pytest.approx(1 / 4)
    assert got["vc_detection_recall"] == pytest.approx(2 / 2 / 4)
    assert got["detection_precision_1to1"] == pytest.approx(1 / 4)
    assert got["detection_recall_1to1"] == pytest.approx(1 / 2 / 4)


def test_tiou_exactly_at_the_threshold_on_decimal_times_is_not_above_it():
    # [0.1, 0.4) in [0.1, 0.7): 0.3 / 0.6 = 1/2 exactly; in floats (0.4 - 0.1) / (0.7 - 0.1) = 0.5000000000000001
    assert (0.4 - 0.1) / (0.7 - 0.1) > 0.5
    got = chapters([(0.1, 0.7)], [(0.1, 0.4)])
    assert got["vc_detection_precision"] == 1 / 4  # above 0.3 only, not above 0.5
    # a hair more (a microsecond) is above 0.5
    assert chapters([(0.1, 0.7)], [(0.1, 0.400001)])["vc_detection_precision"] == 2 / 4
    # 0.3 exactly: [1.1, 1.4) in [1.1, 2.1)
    assert chapters([(1.1, 2.1)], [(1.1, 1.4)])["vc_detection_precision"] == 0.0
    assert chapters([(1.1, 2.1)], [(1.1, 1.400001)])["vc_detection_precision"] == 1 / 4


def test_navigation_at_exactly_d_seconds_does_not_count():
    # 4.1 - 1.1 = 2.9999999999999996 in floats; exactly 3 s apart: not within 3 s (strictly less)
    assert 4.1 - 1.1 < 3
    got = chapters([(1.1, 10)], [(1.0, 4.1), (4.1, 10)])  # prediction starts 1.0 and 4.1
    # reference start 1.1: 0.1 s from 1.0 -> counts at every d; prediction start 4.1: 3 s from 1.1
    assert got["nav_recall_1s"] == 1.0
    assert got["nav_precision_1s"] == got["nav_precision_3s"] == 1 / 2
    assert got["nav_precision_5s"] == 1.0
    assert chapters([(1.1, 10)], [(4.099999, 10)])["nav_precision_3s"] == 1.0


def test_no_prediction_scores_zero_and_no_reference_is_left_out():
    got = chapters([(0, 10), (10, 20)], [])
    assert all(v == 0.0 for v in got.values())  # VidChapters: max(len(predictions), 1)
    assert all(math.isnan(v) for v in chapters([], [(0, 10)]).values())


# --- a transcription of the definitions, show by show, in exact arithmetic ------------------------


def _definition(reference, hypothesis):
    """Per show ``{key: Fraction}`` straight from the definitions (None: no reference chapter)."""
    if not reference:
        return None
    ref = [(Fr(str(s)), Fr(str(e))) for s, e in reference]
    hyp = [(Fr(str(s)), Fr(str(e))) for s, e in hypothesis]
    n, m = len(ref), len(hyp)
    out = {}
    for t in TIOU_THRESHOLDS:
        t = Fr(str(t))
        edges = set()
        for i, (rs, re_) in enumerate(ref):
            for j, (hs, he) in enumerate(hyp):
                inter = min(re_, he) - max(rs, hs)
                if inter > 0 and inter / (max(re_, he) - min(rs, hs)) > t:
                    edges.add((i, j))
        out[("vc", "p", t)] = Fr(len({j for _, j in edges}), max(m, 1))
        out[("vc", "r", t)] = Fr(len({i for i, _ in edges}), n)
        size = _brute_force_matching(edges)
        out[("11", "p", t)] = Fr(size, max(m, 1))
        out[("11", "r", t)] = Fr(size, n)
    for d in NAV_DISTANCES:
        near = {(i, j) for i, (rs, _) in enumerate(ref) for j, (hs, _) in enumerate(hyp) if abs(rs - hs) < d}
        out[("nav", "p", d)] = Fr(len({j for _, j in near}), max(m, 1))
        out[("nav", "r", d)] = Fr(len({i for i, _ in near}), n)
    return out


def _brute_force_matching(edges) -> int:
    """Size of a maximum matching: the largest subset of edges with no shared endpoint."""
    edges = sorted(edges)
    for size in range(len(edges), 0, -1):
        for subset in itertools.combinations(edges, size):
            if len({i for i, _ in subset}) == size and len({j for _, j in subset}) == size:
                return size
    return 0


def _vidchapters_corpus(per_show):
    """VidChapters' reduction: P_t and R_t averaged over videos, F_t from the averages, then the mean
    over thresholds; navigation averaged over videos."""
    shows = [s for s in per_show if s is not None]
    mean = lambda key: sum(s[key] for s in shows) / len(shows)  # noqa: E731
    out = {}
    for name, keys_ in (
        ("vc", ("vc_detection_precision", "vc_detection_recall", "vc_detection_f1")),
        ("11", ("detection_precision_1to1", "detection_recall_1to1", "detection_f1_1to1")),
    ):
        ps = [mean((name, "p", Fr(str(t)))) for t in TIOU_THRESHOLDS]
        rs = [mean((name, "r", Fr(str(t)))) for t in TIOU_THRESHOLDS]
        fs = [2 * p * r / (p + r) if p + r else Fr(0) for p, r in zip(ps, rs)]
        for key, values in zip(keys_, (ps, rs, fs)):
            out[key] = sum(values) / len(values)
    for d in NAV_DISTANCES:
        out[f"nav_precision_{d}s"] = mean(("nav", "p", d))
        out[f"nav_recall_{d}s"] = mean(("nav", "r", d))
    return out


def _random_show(rng, n_max, gaps=True):
    """Disjoint sorted segments on a 0.1 s grid (many IoUs and distances land on the thresholds)."""
    n = int(rng.integers(0, n_max + 1))
    cuts = np.sort(rng.choice(np.arange(0, 400), size=2 * n, replace=False)) / 10 if gaps else None
    if gaps:
        return [(float(cuts[2 * k]), float(cuts[2 * k + 1])) for k in range(n)]
    points = np.sort(rng.choice(np.arange(1, 400), size=max(n - 1, 0), replace=False)) / 10
    edges = [0.0, *map(float, points), 40.0]
    return [(edges[k], edges[k + 1]) for k in range(len(edges) - 1)] if n else []


def test_corpus_values_equal_the_definitions_on_random_corpora():
    rng = np.random.default_rng(14)
    for trial in range(40):
        n_shows = int(rng.integers(1, 7))
        refs = [_random_show(rng, 5, gaps=bool(rng.integers(2))) for _ in range(n_shows)]
        hyps = [_random_show(rng, 6, gaps=bool(rng.integers(2))) for _ in range(n_shows)]
        ref = stack(
            [
                (np.array([s for s, _ in r], float), np.array([e for _, e in r], float), np.full(len(r), None, object))
                for r in refs
            ]
        )
        hyp = stack(
            [
                (np.array([s for s, _ in h], float), np.array([e for _, e in h], float), np.full(len(h), None, object))
                for h in hyps
            ]
        )
        comp = chapter_components(ref, hyp, n_shows)
        per_show = [_definition(r, h) for r, h in zip(refs, hyps)]
        # per show
        rows = compute(comp)
        for k, expected in enumerate(per_show):
            one = _vidchapters_corpus([expected]) if expected is not None else None
            for key in VIDCHAPTERS_KEYS:
                if one is None:
                    assert math.isnan(rows[key][k]), (trial, k, key)
                else:
                    assert rows[key][k] == pytest.approx(float(one[key]), abs=1e-12), (trial, k, key)
        # corpus: the sum of the components, as corpus_metrics computes it
        total = {key: np.atleast_1d(np.sum(v)) for key, v in comp.items()}
        got = compute(total)
        if all(s is None for s in per_show):
            assert all(math.isnan(v[0]) for v in got.values())
            continue
        expected = _vidchapters_corpus(per_show)
        for key in VIDCHAPTERS_KEYS:
            assert got[key][0] == pytest.approx(float(expected[key]), abs=1e-12), (trial, key)


def test_one_to_one_is_a_maximum_matching_on_random_cases():
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(400):
        refs = _random_show(rng, 6, gaps=bool(rng.integers(2)))
        hyps = _random_show(rng, 6, gaps=bool(rng.integers(2)))
        ref, hyp = (
            stack(
                [
                    (
                        np.array([s for s, _ in x], float),
                        np.array([e for _, e in x], float),
                        np.full(len(x), None, object),
                    )
                ]
            )
            for x in (refs, hyps)
        )
        pr, ph, inter, union = overlapping_pairs(ref, hyp)
        # every pair, and the pairs above 0.3 / 0.1 of tIoU: all non-crossing
        for keep in (np.ones(len(pr), bool), inter * 10 > 3 * union, inter * 10 > union):
            a, b = pr[keep], ph[keep]
            kept = one_to_one(a, b)
            pairs = list(zip(a[kept].tolist(), b[kept].tolist()))
            assert len({i for i, _ in pairs}) == len({j for _, j in pairs}) == len(pairs)  # a matching
            assert len(pairs) == _brute_force_matching(set(zip(a.tolist(), b.tolist())))  # maximum
            checked += len(a) > 2
    assert checked > 100


def test_one_to_one_on_chains_and_stars():
    # a star (one hypothesis over three references) keeps one pair; a path of four pairs keeps two
    assert one_to_one(np.array([0, 1, 2]), np.array([0, 0, 0])).sum() == 1
    assert one_to_one(np.array([0, 0, 1, 1]), np.array([0, 1, 1, 2])).sum() == 2
    assert one_to_one(np.array([0, 0, 0, 1, 2]), np.array([0, 1, 2, 2, 2])).sum() == 2
    assert one_to_one(np.array([0, 1, 1, 2, 3]), np.array([0, 0, 1, 1, 2])).sum() == 3


def _annotation(pairs):
    ann = Annotation()
    for k, (s, e) in enumerate(pairs):
        ann[Segment(s, e)] = f"topic {k}"
    return ann


def test_evaluate_reports_them_per_show_corpus_as_mean_over_shows_and_macro():
    reference = {"a": _annotation(REFERENCE), "b": _annotation([(0, 100)]), "c": _annotation([(0, 50), (50, 100)])}
    hypotheses = {"sys": {"a": _annotation(HYPOTHESIS), "b": _annotation([(0, 100)])}}  # c: no hypothesis
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        result = evaluate(reference, hypotheses)
    sr = result.systems["sys"]
    for key in VIDCHAPTERS_KEYS:
        assert METRICS[key].group == "chapters" and METRICS[key].kind == "rate"
        assert sr.shows.loc["a", key] == pytest.approx(float(EXPECTED[key]), abs=1e-12)
        assert sr.shows.loc["b", key] == 1.0 and sr.shows.loc["c", key] == 0.0
    # corpus: VidChapters' mean over the three shows (c scores 0); F per threshold from the means
    p03, r03 = (Fr(3, 4) + 1 + 0) / 3, (Fr(4, 5) + 1 + 0) / 3
    p, r = (Fr(1, 4) + 1 + 0) / 3, (Fr(1, 5) + 1 + 0) / 3
    f = (f_measure(float(p03), float(r03)) + 3 * f_measure(float(p), float(r))) / 4
    assert sr.corpus["vc_detection_precision"] == pytest.approx(float((p03 + 3 * p) / 4))
    assert sr.corpus["vc_detection_recall"] == pytest.approx(float((r03 + 3 * r) / 4))
    assert sr.corpus["vc_detection_f1"] == pytest.approx(f)
    # macro: the mean of the per-show values (equal for P and R, not for F)
    assert sr.macro["vc_detection_precision"] == pytest.approx(sr.corpus["vc_detection_precision"])
    assert sr.macro["vc_detection_f1"] == pytest.approx(float(Fr(67, 186) + 1) / 3)
    assert sr.macro["vc_detection_f1"] != pytest.approx(sr.corpus["vc_detection_f1"])
    data = result.to_json()["systems"]["sys"]
    assert set(VIDCHAPTERS_KEYS) <= set(data["corpus"]) and set(VIDCHAPTERS_KEYS) <= set(data["shows"]["a"])


def test_many_shows_are_scored_in_one_pass():
    rng = np.random.default_rng(0)
    n_shows = 20_000
    parts_r, parts_h = [], []
    for _ in range(n_shows):
        cuts = np.sort(rng.uniform(0, 1800, 8))
        parts_r.append((np.r_[0.0, cuts], np.r_[cuts, 1800.0], np.full(9, None, object)))
        cuts = np.sort(rng.uniform(0, 1800, 9))
        parts_h.append((np.r_[0.0, cuts], np.r_[cuts, 1800.0], np.full(10, None, object)))
    ref, hyp = stack(parts_r), stack(parts_h)
    comp = chapter_components(ref, hyp, n_shows)
    assert comp["chapter_n_shows"].sum() == n_shows
    # show 17 alone gives the same values as in the corpus
    alone = compute(chapter_components(stack([parts_r[17]]), stack([parts_h[17]]), 1))
    together = compute(comp)
    for key in VIDCHAPTERS_KEYS:
        assert together[key][17] == pytest.approx(alone[key][0], abs=1e-12)
