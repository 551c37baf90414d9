"""Boundary confidences (tvseg.retrieval.confidence): the precision-recall curve over thresholds against a
brute force that redoes a maximum matching at every threshold (a plain augmenting-path bipartite matching
written here), average precision against its step-wise definition and scikit-learn, the best-threshold F,
the DET curve against a count over probes written here, and the readers' score columns."""

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score

from tvseg.retrieval.confidence import accepted, boundary_scores, curve, det_curve, precision_recall

# --- oracles -----------------------------------------------------------------------------------------


def max_matching(ref, hyp, tol):
    """Size of a maximum matching of ``hyp`` to ``ref`` ((show, time) pairs; same show, |r - h| <= tol,
    times compared as integers in microseconds as tvseg does), by augmenting paths (Kuhn's algorithm)."""
    us = lambda t: round(t * 1_000_000)  # noqa: E731
    tol_us = us(tol)
    adjacent = [[i for i, (rs, rt) in enumerate(ref) if rs == hs and abs(us(rt) - us(ht)) <= tol_us] for hs, ht in hyp]
    owner = [-1] * len(ref)

    def augment(j, seen):
        for i in adjacent[j]:
            if i not in seen:
                seen.add(i)
                if owner[i] < 0 or augment(owner[i], seen):
                    owner[i] = j
                    return True
        return False

    return sum(augment(j, set()) for j in range(len(hyp)))


def brute_curve(ref, hyp, scores, tol):
    """(thresholds, kept, matched) at each distinct score, decreasing: the matching redone each time."""
    out = []
    for t in sorted(set(scores), reverse=True):
        kept = [h for h, s in zip(hyp, scores) if s >= t]
        out.append((t, len(kept), max_matching(ref, kept, tol)))
    return out


def sorted_pairs(pairs):
    pairs = sorted(pairs)
    return np.array([s for s, _ in pairs], dtype=np.int64), np.array([t for _, t in pairs], dtype=float)


def run(ref, hyp, scores, tol):
    """tvseg's curve of boundaries given as (show, time) lists (the hypothesis's scores in its order)."""
    order = sorted(range(len(hyp)), key=lambda k: hyp[k])
    r_show, r_time = sorted_pairs(ref)
    h_show, h_time = sorted_pairs(hyp)
    return precision_recall(
        r_show, r_time, h_show, h_time, np.array([scores[k] for k in order], dtype=float), tolerance=tol
    )


def check_against_brute(ref, hyp, scores, tol):
    c = run(ref, hyp, scores, tol)
    brute = brute_curve(ref, hyp, scores, tol)
    assert c.thresholds.tolist() == [t for t, _, _ in brute]
    assert c.n_kept.tolist() == [k for _, k, _ in brute]
    assert c.n_matched.tolist() == [m for _, _, m in brute]
    n_ref = len(ref)
    # every rate from Fractions of the brute force's counts
    for p, r, f, (_, k, m) in zip(c.precision, c.recall, c.f1, brute):
        assert p == float(Fraction(m, k))
        if n_ref:
            assert r == float(Fraction(m, n_ref))
            assert f == float(Fraction(2 * m, k + n_ref))
    if brute and n_ref:
        # AP: the step-wise sum over the brute force's points, in Fractions
        ap, previous = Fraction(0), Fraction(0)
        for _, k, m in brute:
            ap += (Fraction(m, n_ref) - previous) * Fraction(m, k)
            previous = Fraction(m, n_ref)
        assert math.isclose(c.average_precision, float(ap), rel_tol=1e-12, abs_tol=1e-15)
        best = max(Fraction(2 * m, k + n_ref) for _, k, m in brute)
        assert c.best_f1 == float(best)
        # the highest threshold reaching the best F
        assert c.best_threshold == max(t for t, k, m in brute if Fraction(2 * m, k + n_ref) == best)
    return c


# --- the curve against the brute force ---------------------------------------------------------------


def test_hand_worked_case():
    # references 10, 30; hypotheses 12 (0.9), 20 (0.5), 31 (0.2); tolerance 3:
    # t=0.9: {12} -> 1 matched (12~10); t=0.5: {12, 20} -> 1; t=0.2: {12, 20, 31} -> 2 (31~30)
    # P = 1, 1/2, 2/3; R = 1/2, 1/2, 1; AP = 1/2 * 1 + 0 * 1/2 + 1/2 * 2/3 = 5/6
    # F = 2m / (k + 2) = 2/3, 2/4, 4/5: best 4/5 at 0.2
    c = check_against_brute([(0, 10.0), (0, 30.0)], [(0, 12.0), (0, 20.0), (0, 31.0)], [0.9, 0.5, 0.2], 3)
    assert c.average_precision == pytest.approx(5 / 6, abs=1e-15)
    assert (c.best_f1, c.best_threshold) == (0.8, 0.2)


def test_a_matching_that_changes_with_the_threshold():
    # references 10, 14; hypotheses 12 (0.9) then 9 (0.5) and 16 (0.1), tolerance 2.
    # t=0.9: 12 alone pairs with 10 or 14 -> 1; t=0.5: 9~10 and 12~14 -> 2 (12 moves to 14);
    # t=0.1: still 2 (16~14, but 14 and 10 are taken by two others: a maximum matching is 2)
    c = check_against_brute([(0, 10.0), (0, 14.0)], [(0, 12.0), (0, 9.0), (0, 16.0)], [0.9, 0.5, 0.1], 2)
    assert c.n_matched.tolist() == [1, 2, 2]


def test_the_tolerance_is_inclusive_in_microseconds():
    # 6.1 and 16.1 are 10 s apart in decimal: paired at tolerance 10, as everywhere in tvseg
    c = check_against_brute([(0, 6.1)], [(0, 16.1)], [0.5], 10)
    assert c.n_matched.tolist() == [1]


def test_ties_and_infinite_scores():
    # two boundaries of equal score enter at one threshold; +inf (no score) is kept at every threshold
    ref = [(0, 10.0), (0, 20.0), (1, 5.0)]
    hyp = [(0, 11.0), (0, 19.0), (1, 5.5), (1, 30.0)]
    scores = [0.4, 0.4, math.inf, 0.7]
    c = run(ref, hyp, scores, 2)
    # t=0.7: 5.5 (inf) and 30 -> 2 kept, 1 matched; t=0.4: all 4 kept, 3 matched
    assert c.thresholds.tolist() == [0.7, 0.4]
    assert c.n_kept.tolist() == [2, 4]
    assert c.n_matched.tolist() == [1, 3]


boundary_lists = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 60).map(lambda x: x / 2)), max_size=12, unique=True
)


@settings(max_examples=300, deadline=None)
@given(
    ref=boundary_lists,
    hyp=boundary_lists,
    scores=st.lists(st.integers(0, 6).map(lambda x: x / 4), min_size=12, max_size=12),
    tol=st.sampled_from([0, 0.5, 1.5, 3, 8]),
)
def test_curve_equals_brute_force(ref, hyp, scores, tol):
    # dense boundaries (half-second grid, tolerances up to 8 s) so that clusters that cannot all be
    # matched, and matchings that change with the threshold, are common
    check_against_brute(ref, hyp, scores[: len(hyp)], tol)


@settings(max_examples=200, deadline=None)
@given(
    ref=boundary_lists,
    hyp=boundary_lists,
    scores=st.lists(st.floats(0, 1), min_size=12, max_size=12),
    tol=st.sampled_from([0.5, 2, 5]),
)
def test_recall_does_not_fall_as_the_threshold_falls(ref, hyp, scores, tol):
    # thresholds are decreasing: recall (and the matched count) is non-increasing as the threshold rises
    c = run(ref, hyp, scores[: len(hyp)], tol)
    assert np.all(np.diff(c.n_matched) >= 0)
    if ref:
        assert np.all(np.diff(c.recall) >= 0)


# --- average precision against scikit-learn ----------------------------------------------------------

# Where no boundary's match changes with the threshold (each hypothesis boundary within the tolerance
# of exactly one reference boundary that no other hypothesis boundary is near, or far from every
# reference boundary), a hypothesis boundary is matched at every threshold that keeps it or at none:
# y_true = matched or not, and n_matched(t) = #{y_true and score >= t}. scikit-learn's AP is
# sum_n (R_n - R_{n-1}) P_n with R_n = #{y_true, score >= t_n} / #{y_true}: the same precisions, and
# recalls over the matched hypothesis boundaries M instead of the reference's n_ref. So
#   AP_tvseg = (M / n_ref) * AP_sklearn(y_true, scores),
# equal when every reference boundary is detected (M = n_ref). (Adding the missed reference boundaries
# to sklearn's input as positives of score -inf would not do: they would add a last threshold whose
# recall step is weighted by a precision, where tvseg adds nothing.)


def separated_case(rng, n_ref, detected, n_false):
    """References 100 s apart; ``detected`` of them get a hypothesis boundary within 2 s; ``n_false``
    hypothesis boundaries 50 s from every reference (tolerance 3). Returns ref, hyp, scores, y_true."""
    ref = [(0, 100.0 * (k + 1)) for k in range(n_ref)]
    hyp, y = [], []
    for k in rng.choice(n_ref, size=detected, replace=False).tolist():
        hyp.append((0, ref[k][1] + float(rng.integers(-4, 5)) / 2))
        y.append(1)
    for k in rng.choice(n_ref, size=n_false, replace=False).tolist():
        hyp.append((0, ref[k][1] + 50.0))
        y.append(0)
    scores = rng.integers(0, 8, size=len(hyp)) / 8  # ties on purpose
    return ref, hyp, scores.tolist(), y


@pytest.mark.parametrize("seed", range(20))
def test_average_precision_equals_sklearn_when_every_reference_boundary_is_detected(seed):
    rng = np.random.default_rng(seed)
    ref, hyp, scores, y = separated_case(rng, n_ref=12, detected=12, n_false=int(rng.integers(1, 12)))
    c = check_against_brute(ref, hyp, scores, 3)
    assert c.average_precision == pytest.approx(average_precision_score(y, scores), abs=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_average_precision_is_sklearns_scaled_by_the_detected_share(seed):
    rng = np.random.default_rng(100 + seed)
    detected = int(rng.integers(1, 12))
    ref, hyp, scores, y = separated_case(rng, n_ref=12, detected=detected, n_false=int(rng.integers(1, 12)))
    c = check_against_brute(ref, hyp, scores, 3)
    assert c.average_precision == pytest.approx(detected / 12 * average_precision_score(y, scores), abs=1e-12)


# --- the pieces --------------------------------------------------------------------------------------


def test_acceptance_joins_across_shards():
    # the flags of two halves of a corpus, concatenated, give the corpus's curve
    ref = [(0, 10.0), (0, 12.0), (1, 40.0)]
    hyp = [(0, 11.0), (0, 11.5), (0, 13.0), (1, 41.0)]
    scores = [0.9, 0.8, 0.3, 0.5]
    whole = run(ref, hyp, scores, 1.5)
    first = accepted([0, 0], [10.0, 12.0], [0, 0, 0], [11.0, 11.5, 13.0], [0.9, 0.8, 0.3], tolerance=1.5)
    second = accepted([0], [40.0], [0], [41.0], [0.5], tolerance=1.5)
    joined = curve(scores, np.concatenate([first, second]), 3)
    assert joined.n_matched.tolist() == whole.n_matched.tolist()
    # t=0.9: {11} 1; 0.8: {11, 11.5} 2 (10, 12); 0.5: + 41 -> 3; 0.3: + 13 -> 3
    assert whole.n_matched.tolist() == [1, 2, 3, 3]


def test_boundary_scores_are_the_scores_of_segment_starts():
    # show 0: [0, 10] s=0.1, [10, 20] s=0.7, gap, [25, 30] s=0.4; show 1: [0, 5] s=nan, [5, 8] s=0.2
    seg_show = [0, 0, 0, 1, 1]
    start = [0.0, 10.0, 25.0, 0.0, 5.0]
    end = [10.0, 20.0, 30.0, 5.0, 8.0]
    score = [0.1, 0.7, 0.4, math.nan, 0.2]
    # boundaries: 10 (start of the 0.7 segment), 20 (an end before a gap: the next start's 0.4),
    # 25 (0.4), 30 (an end with no next segment: +inf); show 1: 5 (0.2), 8 (end, none after: +inf)
    got = boundary_scores(seg_show, start, end, score, [0, 0, 0, 0, 1, 1], [10.0, 20.0, 25.0, 30.0, 5.0, 8.0])
    assert got.tolist() == [0.7, 0.4, 0.4, math.inf, 0.2, math.inf]


def test_det_curve_against_a_count_over_probes():
    # 6 probes: reference separates probes 0, 1, 2; highest hypothesis score in each probe's gaps
    separated = [True, True, True, False, False, False]
    top = [0.9, 0.3, -math.inf, 0.6, -math.inf, 0.3]
    d = det_curve(separated, top)
    # thresholds 0.9, 0.6, 0.3: separated by the hypothesis = top >= t
    # t=0.9: misses 2 of 3 (0.3, -inf), FA 0 of 3; t=0.6: misses 2/3, FA 1/3 (0.6); t=0.3: misses 1/3, FA 2/3
    assert d.thresholds.tolist() == [0.9, 0.6, 0.3]
    assert d.p_miss.tolist() == [2 / 3, 2 / 3, 1 / 3]
    assert d.p_fa.tolist() == [0, 1 / 3, 2 / 3]
    assert json.loads(json.dumps(d.as_json()))["p_fa"] == [0, 1 / 3, 2 / 3]


# --- the readers ---------------------------------------------------------------------------------------

RTTM_SCORED = """SEGMENT a 1 0 102 <NA> <NA> x 0.3 <NA>
SEGMENT a 1 102 48 <NA> <NA> y 0.9 <NA>
SEGMENT a 1 150 50 <NA> <NA> z 0.2 <NA>
SEGMENT a 1 200 100 <NA> <NA> w 0.7 <NA>
SEGMENT b 1 0 48 <NA> <NA> x <NA> <NA>
SEGMENT b 1 48 152 <NA> <NA> y 4e-1 <NA>
"""
RTTM_PLAIN = "\n".join(" ".join(line.split()[:8] + ["<NA>", "<NA>"]) for line in RTTM_SCORED.strip().split("\n")) + "\n"
REFERENCE = """SEGMENT a 1 0 100 <NA> <NA> s1 <NA> <NA>
SEGMENT a 1 100 100 <NA> <NA> s2 <NA> <NA>
SEGMENT a 1 200 100 <NA> <NA> s3 <NA> <NA>
SEGMENT b 1 0 50 <NA> <NA> s1 <NA> <NA>
SEGMENT b 1 50 150 <NA> <NA> s2 <NA> <NA>
"""
# each show's segments in time order, as the columns hold them (show a, then b), and their scores
EXPECTED_SCORES = [0.3, 0.9, 0.2, 0.7, math.nan, 0.4]
CSV_SCORED = "show,start,end,label,score\na,0,102,x,0.3\na,102,150,y,0.9\na,150,200,z,0.2\na,200,300,w,0.7\n" + (
    "b,0,48,x,\nb,48,200,y,4e-1\n"
)
CSV_PLAIN = "\n".join(line.rsplit(",", 1)[0] for line in CSV_SCORED.strip().split("\n")) + "\n"


def scores_of(columns):
    return [None if columns.score is None else (math.nan if math.isnan(v) else v) for v in columns.score]


def same_nan(a, b):
    return len(a) == len(b) and all((math.isnan(x) and math.isnan(y)) or x == y for x, y in zip(a, b))


@pytest.mark.parametrize(
    "name, scored, plain, options",
    [
        ("h.rttm", RTTM_SCORED, RTTM_PLAIN, {}),
        ("h.csv", CSV_SCORED, CSV_PLAIN, {}),
        (
            "h.csv",
            CSV_SCORED.replace("show,start,end,label,score", "id,t0,t1,title,conf"),
            CSV_PLAIN.replace("show,start,end,label", "id,t0,t1,title"),
            {"columns": "show=id,start=t0,end=t1,title=title,score=conf"},
        ),
        (
            "h.json",
            json.dumps(
                [
                    {"id": s, "t0": a, "t1": b, "conf": c if not math.isnan(c) else None}
                    for (s, a, b), c in zip(
                        [
                            ("a", 0, 102),
                            ("a", 102, 150),
                            ("a", 150, 200),
                            ("a", 200, 300),
                            ("b", 0, 48),
                            ("b", 48, 200),
                        ],
                        EXPECTED_SCORES,
                    )
                ]
            ),
            json.dumps(
                [
                    {"id": s, "t0": a, "t1": b}
                    for s, a, b in [
                        ("a", 0, 102),
                        ("a", 102, 150),
                        ("a", 150, 200),
                        ("a", 200, 300),
                        ("b", 0, 48),
                        ("b", 48, 200),
                    ]
                ]
            ),
            {"columns": "show=id,start=t0,end=t1,score=conf"},
        ),
        (
            "h.json",
            json.dumps(
                {
                    "a": [
                        {"start": 0, "end": 102, "score": 0.3},
                        {"start": 102, "end": 150, "score": 0.9},
                        {"start": 150, "end": 200, "score": 0.2},
                        {"start": 200, "end": 300, "score": 0.7},
                    ],
                    "b": [{"start": 0, "end": 48, "score": None}, {"start": 48, "end": 200, "score": 0.4}],
                }
            ),
            json.dumps(
                {
                    "a": [{"start": 0, "end": 102}, {"start": 102, "end": 150}]
                    + [{"start": 150, "end": 200}, {"start": 200, "end": 300}],
                    "b": [{"start": 0, "end": 48}, {"start": 48, "end": 200}],
                }
            ),
            {},
        ),
    ],
    ids=["rttm", "csv", "csv-columns", "json-columns", "json"],
)
def test_scores_are_read_and_a_file_without_them_reads_as_before(tmp_path, name, scored, plain, options):
    import tvseg

    (tmp_path / "s").mkdir()
    (tmp_path / "p").mkdir()
    (tmp_path / "s" / name).write_text(scored)
    (tmp_path / "p" / name).write_text(plain)
    with_scores = tvseg.read_segments(tmp_path / "s" / name, **options)
    # the same mapping without score= for the file without the column
    plain_options = {k: v.replace(",score=conf", "") for k, v in options.items()}
    without = tvseg.read_segments(tmp_path / "p" / name, **plain_options)
    assert same_nan(with_scores.score.tolist(), EXPECTED_SCORES)
    assert without.score is None
    assert with_scores.names == without.names
    assert with_scores.start.tolist() == without.start.tolist()
    assert with_scores.end.tolist() == without.end.tolist()
    assert with_scores.label.tolist() == without.label.tolist()


@pytest.mark.parametrize(
    "name, text, options, message",
    [
        ("h.rttm", RTTM_SCORED.replace("0.9", "high"), {}, "h.rttm:2: confidence (CONF) is not a number"),
        ("h.rttm", RTTM_SCORED.replace("0.9", "nan"), {}, "h.rttm:2: confidence (CONF) is not a number"),
        ("h.csv", CSV_SCORED.replace("0.9", "inf"), {}, "h.csv:3: score is not a number"),
        (
            "h.csv",
            CSV_SCORED.replace("0.9", "x").replace("show,start,end,label,score", "id,t0,t1,title,conf"),
            {"columns": "show=id,start=t0,end=t1,score=conf"},
            "h.csv:3: score (conf) is not a number",
        ),
        ("h.json", '{"a": [{"start": 0, "end": 5, "score": "high"}]}', {}, "h.json:1: 'score' must be a finite number"),
    ],
)
def test_a_bad_score_names_file_line_and_value(tmp_path, name, text, options, message):
    import tvseg
    from tvseg.errors import InputError

    (tmp_path / name).write_text(text)
    with pytest.raises(InputError) as caught:
        tvseg.read_segments(tmp_path / name, **options)
    assert message in str(caught.value)


# --- tvseg evaluate ------------------------------------------------------------------------------------


def run_cli(tmp_path, hypothesis_text, *extra):
    from tvseg.cli import main

    (tmp_path / "ref.rttm").write_text(REFERENCE)
    (tmp_path / "hyp.rttm").write_text(hypothesis_text)
    out = tmp_path / "out.json"
    code = main(
        ["evaluate", "--reference", str(tmp_path / "ref.rttm"), "--hypothesis", f"sys={tmp_path / 'hyp.rttm'}"]
        + ["--json", str(out), *extra]
    )
    assert code == 0
    return json.loads(out.read_text())


CONFIDENCE_KEYS = {"boundary_curve", "average_precision", "best_threshold_f1", "det_curve"}


def test_evaluate_json_with_scores(tmp_path, capsys):
    data = run_cli(tmp_path, RTTM_SCORED)
    s = data["systems"]["sys"]
    # reference boundaries: a 100, 200; b 50 (3). Hypothesis boundaries and their scores (a segment's
    # start): a 102 (0.9), 150 (0.2), 200 (0.7); b 48 (0.4); tolerance 10.
    # 0.9: {102} 1 of 1; 0.7: +200, 2 of 2; 0.4: +48, 3 of 3; 0.2: +150, 3 of 4
    assert s["boundary_curve"] == {
        "thresholds": [0.9, 0.7, 0.4, 0.2],
        "precision": [1.0, 1.0, 1.0, 0.75],
        "recall": [1 / 3, 2 / 3, 1.0, 1.0],
        "f1": [0.5, 0.8, 1.0, 6 / 7],
    }
    # AP = 1/3 * 1 + 1/3 * 1 + 1/3 * 1 + 0 * 3/4 = 1
    assert s["average_precision"] == pytest.approx(1.0, abs=1e-15)
    assert s["best_threshold_f1"] == {"f1": 1.0, "threshold": 0.4}
    assert "det_curve" not in s  # no units
    # the lowest threshold keeps every boundary: the system's boundary F
    assert s["corpus"]["boundary_f1"] == pytest.approx(6 / 7)
    assert (
        "sys: boundary AP 100.0, best F 100.0 at score >= 0.4 (4 thresholds); no DET curve" in capsys.readouterr().out
    )


def test_a_hypothesis_without_scores_gives_the_same_json_as_before(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    scored = run_cli(tmp_path / "a", RTTM_SCORED)
    plain = run_cli(tmp_path / "b", RTTM_PLAIN)
    assert not CONFIDENCE_KEYS & set(plain["systems"]["sys"])
    for key in CONFIDENCE_KEYS - {"det_curve"}:
        del scored["systems"]["sys"][key]
    assert scored["systems"] == plain["systems"]


def test_det_curve_with_units_ends_at_the_systems_cseg(tmp_path):
    # units of 5 s; at the lowest threshold every boundary is kept: P_miss and P_fa are C_seg's, so
    # C_seg = 1.0 * P_miss * 0.3 + 0.3 * P_fa * 0.7 is the corpus value
    units = "show,start,end\n" + "".join(
        f"{s},{i},{i + 5}\n" for s, n in (("a", 300), ("b", 200)) for i in range(0, n, 5)
    )
    (tmp_path / "units.csv").write_text(units)
    s = run_cli(tmp_path, RTTM_SCORED, "--units", str(tmp_path / "units.csv"))["systems"]["sys"]
    det = s["det_curve"]
    assert det["thresholds"] == s["boundary_curve"]["thresholds"]
    assert 0.3 * det["p_miss"][-1] + 0.3 * 0.7 * det["p_fa"][-1] == pytest.approx(s["corpus"]["cseg"], abs=1e-15)
    assert all(a >= b for a, b in zip(det["p_miss"], det["p_miss"][1:]))  # misses fall as boundaries are kept
    assert all(a <= b for a, b in zip(det["p_fa"], det["p_fa"][1:]))


# --- the DET curve's probes against C_seg's kernel at each threshold ------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    ref=st.lists(st.integers(1, 9), min_size=1, max_size=8),
    cuts=st.lists(st.tuples(st.integers(1, 60), st.integers(0, 4)), max_size=12),
    k=st.sampled_from([None, 1, 2, 3, 5]),
)
def test_det_points_are_cseg_rates_of_the_hypothesis_kept_at_each_threshold(ref, cuts, k):
    # the hypothesis: boundary positions with scores (a position given twice keeps its highest score);
    # at threshold t it is the segmentation of the positions scored >= t, and C_seg's own kernel
    # (tvseg.unit.windows.window_counts on its probes) gives P_miss and P_fa there
    from tvseg.unit.masses import boundary_positions, check_pair, from_positions
    from tvseg.unit.probes import probe_counts
    from tvseg.unit.windows import cseg_geometry, window_counts

    n = sum(ref)
    best = {}
    for position, score in cuts:
        if position < n:
            best[position] = max(best.get(position, -1), score / 4)
    positions = np.array(sorted(best), dtype=np.int64)
    scores = np.array([best[p] for p in positions.tolist()])
    r = boundary_positions(np.array(ref))
    g = cseg_geometry(check_pair(ref, [n]), k)
    separated, top, count = probe_counts([n], [r], [positions], [scores], lo=g.lo, hi=g.hi, width=g.width)
    det = det_curve(separated, top, weights=count)
    for t, p_miss, p_fa in zip(det.thresholds, det.p_miss, det.p_fa):
        kept = from_positions(positions[scores >= t], n)
        pairs = check_pair(ref, kept)
        c = window_counts(pairs, cseg_geometry(pairs, k), sweep=False)
        miss, on = int(c.miss[0]), int(c.in_reference[0])
        fa, off = int(c.false_alarm[0]), int(c.windows[0] - c.in_reference[0])
        assert (math.isnan(p_miss) and on == 0) or p_miss == miss / on
        assert (math.isnan(p_fa) and off == 0) or p_fa == fa / off
