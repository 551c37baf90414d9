"""Issue 15 (part A): retrieval by duration, position and group, the stories every system misses or
gets (tvseg.report.analysis), and the summary in words at the top of the corpus page (tvseg.report.summary)."""

import warnings

import pandas as pd
import pytest
from pyannote.core import Annotation, Segment
from report_fixture import synthetic_report

import tvseg
from tvseg.report.adapter import ResultPages
from tvseg.report.analysis import analyse
from tvseg.report.render import render_index
from tvseg.report.summary import report_sentences, sentences, summary_sentences


def _annotation(bounds, labels=None):
    out = Annotation()
    for i, (a, b) in enumerate(bounds):
        out[Segment(a, b)] = labels[i] if labels else f"h{i}"
    return out


# A hand-made corpus (gamma 0.85: a segment is retrieved when 2 |R n H| / (d(R) + d(H)) > 0.85 with
# its best partner H, the hypothesis segment that overlaps it most).
REFERENCE = {
    "s1": _annotation([(0, 10), (10, 40), (40, 100), (100, 400)], ["A", "B", "C", "D"]),  # 10, 30, 60, 300 s
    "s2": _annotation([(0, 20), (20, 80), (80, 200)], ["E", "F", "G"]),  # 20, 60, 120 s
    "s3": _annotation([(0, 100)], ["H"]),  # one story, 100 s
}
# system_a: s1 exactly (A, B, C, D retrieved: coverage 1); on s2 [0, 20) is E exactly (retrieved),
# [20, 200) is F's and G's partner: F 2*60/(60+180) = 0.5, G 2*120/(120+180) = 0.8 (both missed);
# s3 exactly (H retrieved). 6 of 8.
SYSTEM_A = {
    "s1": _annotation([(0, 10), (10, 40), (40, 100), (100, 400)]),
    "s2": _annotation([(0, 20), (20, 200)]),
    "s3": _annotation([(0, 100)]),
}
# system_b: on s1, [0, 50) is A's partner (2*10/(10+50) = 0.33, missed) and B's (2*30/(30+50) = 0.75,
# missed); C's partner is [50, 100) (overlap 50 > 10: 2*50/(60+50) = 0.909, retrieved); D exactly
# (retrieved). On s2, [0, 200) is everyone's partner: E 2*20/220 = 0.18, F 2*60/260 = 0.46,
# G 2*120/320 = 0.75 (all missed). On s3, [0, 90) is H's partner: 2*90/(100+90) = 0.947 (retrieved). 3 of 8.
SYSTEM_B = {
    "s1": _annotation([(0, 50), (50, 100), (100, 400)]),
    "s2": _annotation([(0, 200)]),
    "s3": _annotation([(0, 90), (90, 100)]),
}
METADATA = pd.DataFrame({"channel": ["X", "Y", "X"]}, index=pd.Index(["s1", "s2", "s3"], name="show"))


def _evaluate(systems, **settings):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tvseg.evaluate(REFERENCE, systems, metadata=METADATA, settings=tvseg.Settings(**settings))


@pytest.fixture(scope="module")
def result():
    return _evaluate({"system_a": SYSTEM_A, "system_b": SYSTEM_B}, bootstrap=200)


def _table(rows):
    return {r.label: (r.n, r.retrieved) for r in rows}


def test_the_hand_counts_of_the_result_itself(result):
    # the decisions above are the result's: 6 and 3 of 8 reference segments
    assert result.systems["system_a"].corpus["n_correct_reference"] == 6
    assert result.systems["system_b"].corpus["n_correct_reference"] == 3


def test_retrieval_by_duration(result):
    a = analyse(result)
    assert a.systems == ("system_a", "system_b") and a.n_reference == 8
    # lower edge included: B (30 s) is in 30-60, C and F (60 s) in 60-120, G (120 s) in 120-300, D (300 s) in >= 300
    assert _table(a.by_duration) == {
        "< 15 s": (1, (1, 0)),  # A: a yes, b no
        "15\u201330 s": (1, (1, 0)),  # E: a yes, b no
        "30\u201360 s": (1, (1, 0)),  # B: a yes, b no
        "60\u2013120 s": (3, (2, 2)),  # C, F, H: a C and H, b C and H
        "120\u2013300 s": (1, (0, 0)),  # G: missed by both
        "\u2265 300 s": (1, (1, 1)),  # D: both
    }
    assert sum(r.n for r in a.by_duration) == 8
    row = a.by_duration[3]
    assert row.rates == (2 / 3, 2 / 3) and row.cells == ((2, 2 / 3), (2, 2 / 3))


def test_retrieval_by_position(result):
    a = analyse(result)
    assert _table(a.by_position) == {
        "first story": (2, (2, 0)),  # A (s1), E (s2)
        "middle stories": (3, (2, 1)),  # B, C (s1), F (s2): a B, C; b C
        "last story": (2, (1, 1)),  # D (s1), G (s2): both D only
        "only story of its show": (1, (1, 1)),  # H (s3)
    }


def test_stories_missed_and_retrieved_by_every_system(result):
    a = analyse(result)
    assert a.n_missed_by_all == 2
    # the longest first: G (120 s, s2's 3rd story) before F (60 s, its 2nd); the index is the row r-<i>
    assert [(s.show, s.start, s.end, s.label, s.duration, s.index) for s in a.missed_by_all] == [
        ("s2", 80.0, 200.0, "G", 120.0, 3),
        ("s2", 20.0, 80.0, "F", 60.0, 2),
    ]
    assert [s.label for s in analyse(result, limit=1).missed_by_all] == ["G"]
    assert a.n_retrieved_by_all == 3
    assert [(s.show, s.label) for s in a.retrieved_by_all] == [("s1", "C"), ("s1", "D"), ("s3", "H")]
    limited = analyse(result, limit=1)
    assert limited.n_retrieved_by_all == 3 and [s.label for s in limited.retrieved_by_all] == ["C"]


def test_retrieval_by_group_is_read_from_the_result_groups(result):
    a = analyse(result)
    # channel X: s1 and s3 (A, B, C, D, H): a all 5, b C, D, H; channel Y: s2 (E, F, G): a E, b none
    assert a.by_group == (("channel", tuple(a.by_group[0][1])),)
    assert _table(a.by_group[0][1]) == {"X": (5, (5, 3)), "Y": (3, (1, 0))}
    groups = result.systems["system_b"].groups["channel"]
    assert groups["X"]["n_correct_reference"] == 3 and groups["Y"]["n_reference"] == 3


def test_a_single_system_is_its_own_every_system():
    a = analyse(_evaluate({"system_b": SYSTEM_B}, bootstrap=0))
    assert a.n_missed_by_all == 5 and a.n_retrieved_by_all == 3


# --- the summary in words ---------------------------------------------------------------------


def _pct(v):
    return f"{100 * v:.1f}\u00a0%"


def _p(p):
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _expected_significance(data, names):
    """What the sentence must say per metric, from the JSON: significant or not at 0.05, and the p-value."""
    out = {}
    for c in data["pairwise"]:
        if {c["a"], c["b"]} == set(names):
            out[c["metric"]] = (c["p_value"] < 0.05, _p(c["p_value"]))
    return out


@pytest.mark.parametrize("swap", [False, True])
def test_summary_follows_the_json_values_whichever_system_is_ahead(swap):
    systems = {"system_a": SYSTEM_B, "system_b": SYSTEM_A} if swap else {"system_a": SYSTEM_A, "system_b": SYSTEM_B}
    result = _evaluate(systems, bootstrap=300)
    data = result.to_json()
    corpus = {n: data["systems"][n]["corpus"] for n in ("system_a", "system_b")}
    ahead, behind = ("system_b", "system_a") if swap else ("system_a", "system_b")
    # the one ahead has the larger R_N, CovN, CovD and boundary F in the JSON
    assert all(corpus[ahead][k] > corpus[behind][k] for k in ("recall_n", "cov_n", "cov_d", "boundary_f1"))
    said = summary_sentences(result)
    assert said[0] == (
        f"{ahead} retrieves {_pct(corpus[ahead]['recall_n'])} (6) of the 8 reference stories "
        f"against {_pct(corpus[behind]['recall_n'])} (3) for {behind}."
    )
    assert said[1] == f"{ahead} does better than {behind} on CovN, CovD and boundary F."
    expected = _expected_significance(data, (ahead, behind))
    # 3 shows, fewer than 10: no verdict, and so no p-value beside it (the exact sign-flip test's, over 2^3 = 8
    # assignments, none below 2/8: the significance table gives them)
    assert said[2] == (
        "Not enough shows to tell: 3 shows, fewer than the 10 a verdict needs (with 3 shows, no p-value can be "
        "below 0.25; the p-values are in the significance table)."
    )
    assert data["pairwise"][0]["test"] == "exact sign-flip"
    for _, p in expected.values():
        assert p not in said[2]
    assert said == report_sentences(ResultPages(result, date="2000-01-01").header)


def test_summary_with_one_system_states_its_figures():
    result = _evaluate({"system_a": SYSTEM_A}, bootstrap=100)
    c = result.to_json()["systems"]["system_a"]["corpus"]
    assert summary_sentences(result) == [
        f"system_a retrieves {_pct(c['recall_n'])} (6) of the 8 reference stories.",
        f"system_a has CovN {_pct(c['cov_n'])}, CovD {_pct(c['cov_d'])} and boundary F {_pct(c['boundary_f1'])}; "
        "with one system, there is nothing to compare.",
    ]


def test_summary_without_bootstrap_claims_no_significance():
    result = _evaluate({"system_a": SYSTEM_A, "system_b": SYSTEM_B}, bootstrap=0)
    said = summary_sentences(result)
    assert result.pairwise == []
    assert said[-1] == "No significance was computed (the bootstrap was off: 0 resamples)."
    assert not any("significant" in s and "No significance" not in s for s in said)


def test_summary_says_when_systems_rank_differently_and_when_p_is_large():
    corpus = {
        "a": {
            "recall_n": 0.6,
            "n_reference": 10,
            "n_correct_reference": 6,
            "cov_n": 0.62,
            "cov_d": 0.7,
            "boundary_f1": 0.5,
        },
        "b": {
            "recall_n": 0.4,
            "n_reference": 10,
            "n_correct_reference": 4,
            "cov_n": 0.45,
            "cov_d": 0.72,
            "boundary_f1": 0.8,
        },
    }
    pairwise = [
        {"a": "a", "b": "b", "metric": "cov_n", "difference": 0.17, "p_value": 0.0004},
        {"a": "a", "b": "b", "metric": "cov_d", "difference": -0.02, "p_value": 0.41},
        {"a": "a", "b": "b", "metric": "boundary_f1", "difference": -0.3, "p_value": 0.012},
    ]
    said = sentences(corpus, pairwise, 1000)
    assert said == [
        "a retrieves 60.0\u00a0% (6) of the 10 reference stories against 40.0\u00a0% (4) for b.",
        "The systems rank differently on different metrics: a is ahead on CovN, b on CovD and boundary F.",
        "Paired bootstrap over shows: the difference is significant on CovN (p < 0.001) and boundary F "
        "(p = 0.012); it is not significant at 0.05 on CovD (p = 0.410).",
    ]
    # equal values are said to be equal, and no p-value is claimed for them
    corpus["b"]["cov_n"] = 0.62
    said = sentences(corpus, pairwise, 1000)
    assert said[1] == "b is ahead on CovD and boundary F; a and b are equal on CovN."
    assert "CovN" not in said[2]
    # equal on everything: no difference to test, so no significance sentence
    for k in ("cov_d", "boundary_f1"):
        corpus["b"][k] = corpus["a"][k]
    assert sentences(corpus, pairwise, 1000)[1:] == ["a and b are equal on CovN, CovD and boundary F."]


def test_summary_ranks_pk_and_windowdiff_lower_first():
    # with units, Pk and WindowDiff are compared too: the lower error is the better one. a has the
    # higher CovN and the lower Pk (better on both), b the lower WindowDiff (better on it)
    common = {"recall_n": 0.5, "n_reference": 10, "n_correct_reference": 5, "cov_d": 0.7, "boundary_f1": 0.6}
    corpus = {
        "a": {**common, "cov_n": 0.62, "pk": 0.10, "windowdiff": 0.30},
        "b": {**common, "cov_n": 0.45, "pk": 0.20, "windowdiff": 0.25},
    }
    pairwise = [
        {"a": "a", "b": "b", "metric": "cov_n", "difference": 0.17, "p_value": 0.002},
        {"a": "a", "b": "b", "metric": "pk", "difference": -0.10, "p_value": 0.03},
        {"a": "a", "b": "b", "metric": "windowdiff", "difference": 0.05, "p_value": 0.2},
    ]
    said = sentences(corpus, pairwise, 1000)
    assert said[1] == (
        "The systems rank differently on different metrics: a is ahead on CovN and Pk, b on WindowDiff; "
        "a and b are equal on CovD and boundary F."
    )
    assert said[2] == (
        "Paired bootstrap over shows: the difference is significant on CovN (p = 0.002) and Pk (p = 0.030); "
        "it is not significant at 0.05 on WindowDiff (p = 0.200)."
    )
    corpus["b"]["windowdiff"] = 0.35  # now a does better on every metric where they differ
    assert sentences(corpus, pairwise, 1000)[1] == (
        "a is ahead on CovN, Pk and WindowDiff; a and b are equal on CovD and boundary F."
    )


# --- the page ---------------------------------------------------------------------------------


def test_corpus_page_shows_the_summary_and_the_analysis(result):
    page = render_index(ResultPages(result, date="2000-01-01"))
    assert '<p class="summary" id="summary">system_a retrieves' in page
    assert page.index('id="summary"') < page.index('id="corpus"')
    for anchor in ('id="analysis"', 'id="by-duration"', 'id="by-position"', 'id="groups"'):
        assert anchor in page
    # retrieval by channel in the breakdown's one table (not a second copy): X has 5 stories, system_a
    # retrieves all 5 (R_N 100.0), then its CovN; Y's 3 stories, of which system_a retrieves 1 (33.3)
    assert 'title="the shows of this channel">X</a></td><td data-v="5">5</td><td data-v="1">100.0</td>' in page
    assert '>Y</a></td><td data-v="3">3</td><td data-v="0.333333333">33.3</td>' in page
    assert page.count("<h3>By channel</h3>") == 1
    assert "Retrieved by no system: 2 reference segments" in page
    assert "Retrieved by every system: 3 reference segments" in page
    # the missed stories link to their rows: G is s2's 3rd reference segment, F its 2nd; G (longer) first
    assert page.index('<a href="shows/s2.html#r-3">s2</a>') < page.index('<a href="shows/s2.html#r-2">s2</a>')
    # the 60-120 s row: 3 segments, each system 2 (66.7 %)
    assert '<td class="l">60\u2013120 s</td><td>3</td><td>2</td><td data-v="0.666666667">66.7</td>' in page


def test_a_report_model_gets_the_summary_but_no_analysis():
    page = render_index(synthetic_report(3, systems=("one", "two")))
    # the model carries no per-segment flags to analyse: the summary only
    assert 'id="summary"' in page and 'id="analysis"' not in page
