"""Where each system fails (tvseg.report.failures), the missed stories' links, and a show without output
(recorded in the result, the JSON, to_frame and the pages, with no number changed)."""

import json
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from pyannote.core import Annotation, Segment
from report_fixture import synthetic_report

import tvseg
from tvseg.report import write_report
from tvseg.report.adapter import ResultPages
from tvseg.report.failures import failures_of_report, model_thirds, thirds
from tvseg.report.model import Estimate, SystemSummary
from tvseg.report.pages import ModelPages
from tvseg.report.render import render_index
from tvseg.scale import evaluate_sharded


def _annotation(bounds):
    out = Annotation()
    for i, (a, b) in enumerate(bounds):
        out[Segment(a, b)] = f"t{i}"
    return out


def _evaluate(reference, systems, **settings):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tvseg.evaluate(reference, systems, settings=tvseg.Settings(**settings))


# --- a 3-system report where b collapses on one channel -------------------------------------------------


def _summary(name, cov_n, title_f1, channels, ci=None):
    corpus = {
        "cov_n": Estimate(cov_n, *(ci or (None, None))),
        "title_f1": Estimate(title_f1),
    }
    groups = {"channel": {c: {"cov_n": v, "n_reference": 100.0} for c, v in channels.items()}}
    return SystemSummary(name=name, corpus=corpus, groups=groups)


# a: CovN 55 % [52-58 %], title F1 30 %; b: CovN 50 % [47-53 %], title F1 35 %, and on channel C 33.1 %
# against 51-59 % on A, B and D; c: CovN 45 %, title F1 40 %, even across channels.
SYSTEMS = (
    _summary("a", 0.55, 0.30, {"A": 0.56, "B": 0.54, "C": 0.53, "D": 0.57}, ci=(0.52, 0.58)),
    _summary("b", 0.50, 0.35, {"A": 0.51, "B": 0.59, "C": 0.331, "D": 0.55}, ci=(0.47, 0.53)),
    _summary("c", 0.45, 0.40, {"A": 0.45, "B": 0.45, "C": 0.45, "D": 0.45}),
)


def _report():
    return replace(synthetic_report(3, systems=("a", "b", "c")), systems=SYSTEMS)


def test_a_collapse_on_one_channel_is_said_with_its_numbers():
    found = failures_of_report(_report())
    b = found.systems[1]
    # b's lowest channel is C: 33.1 % CovN, the others 51.0 % (A) to 59.0 % (B), its corpus 50.0 % [47.0-53.0 %]
    assert b.gaps[0].sentence == (
        "b falls to 33.1\u00a0% CovN on channel C, 100 stories (51.0\u201359.0\u00a0% elsewhere; "
        "50.0\u00a0% [47.0\u201353.0\u00a0%] on the whole corpus)."
    )
    assert (b.gaps[0].column, b.gaps[0].where, b.gaps[0].metric) == ("channel", "C", "cov_n")
    # c is even (45 % everywhere: no channel below the others): no group gap; a's lowest is C, 53 % < 54 %
    assert not [g for g in found.systems[2].gaps if g.kind == "group"]
    assert found.systems[0].gaps[0].where == "C"


def test_the_ranking_flips_are_said_per_pair():
    found = failures_of_report(_report())
    # a > b > c on CovN, c > b > a on title F1: every pair ranks in opposite orders; a's and b's CovN intervals
    # overlap (52-58 % and 47-53 %), so a's lead on b is within noise, not a flip; c has no interval to judge by
    assert [(f.a, f.b, f.a_better, f.b_better) for f in found.flips] == [
        ("a", "c", ("cov_n",), ("title_f1",)),
        ("b", "c", ("cov_n",), ("title_f1",)),
    ]
    assert [(f.a, f.b, f.a_better, f.b_better) for f in found.noise] == [("a", "b", ("cov_n",), ("title_f1",))]
    assert found.noise[0].sentence == (
        "a is ahead of b on CovN (55.0\u00a0% [52.0\u201358.0\u00a0%] against 50.0\u00a0% [47.0\u201353.0\u00a0%]); "
        "b on title F1 (35.0\u00a0% against 30.0\u00a0%): within noise, the intervals overlap."
    )
    page = render_index(_report())
    assert "<b>Within noise:</b> <bdi>a</bdi> is ahead of <bdi>b</bdi>" in page
    assert found.flips[0].sentence == (
        "a is better than c on CovN (55.0\u00a0% [52.0\u201358.0\u00a0%] against 45.0\u00a0%); "
        "c is better on title F1 (40.0\u00a0% against 30.0\u00a0%)."
    )


def test_the_corpus_page_has_the_section_after_the_summary():
    page = render_index(_report())
    assert page.index('id="summary"') < page.index('id="failures"') < page.index('id="corpus"')
    # each name (the system, the metadata column, its value) isolated: a right-to-left name carries no number along
    assert "<bdi>b</bdi> falls to 33.1\u00a0% CovN on <bdi>channel</bdi> <bdi>C</bdi>, 100 stories" in page
    assert "<bdi>a</bdi> is better than <bdi>c</bdi> on CovN" in page


def test_a_right_to_left_channel_and_a_hostile_name_are_isolated_and_escaped():
    arabic = "\u0627\u0644\u062c\u0632\u064a\u0631\u0629"  # Al Jazeera
    b = _summary("<b>&b", 0.50, 0.35, {"A": 0.51, "B": 0.59, arabic: 0.331, "D": 0.55}, ci=(0.47, 0.53))
    report = replace(_report(), systems=(SYSTEMS[0], b, SYSTEMS[2]))
    (gap,) = [g for g in failures_of_report(report).systems[1].gaps if g.kind == "group"]
    # the plain sentence is unchanged; its HTML isolates the three names, the system's escaped
    assert gap.sentence.startswith(f"<b>&b falls to 33.1\u00a0% CovN on channel {arabic}, 100 stories (")
    assert str(gap.html).startswith(
        f"<bdi>&lt;b&gt;&amp;b</bdi> falls to 33.1\u00a0% CovN on <bdi>channel</bdi> <bdi>{arabic}</bdi>, 100 stories ("
    )
    assert str(gap.html) in render_index(report)


def test_a_lower_is_better_metric_flips_the_other_way():
    one = SystemSummary("x", {"cov_n": Estimate(0.6), "pk": Estimate(0.30)})
    two = SystemSummary("y", {"cov_n": Estimate(0.5), "pk": Estimate(0.20)})
    (flip,) = failures_of_report(replace(_report(), systems=(one, two))).flips
    # x has the higher CovN, y the lower (better) Pk
    assert (flip.a_better, flip.b_better) == (("cov_n",), ("pk",))


# --- the thirds of the show ---------------------------------------------------------------------------


def test_thirds_on_a_hand_made_show():
    # one show [0, 90] s: the thirds start at 30 and 60 s; a story starting exactly at 30 s is in the middle
    # third, at 60 s in the last. Starts 0, 29.999, 30, 59, 60, 89 -> thirds 0, 0, 1, 1, 2, 2.
    starts = np.array([0.0, 29.999, 30.0, 59.0, 60.0, 89.0])
    flags = np.array([[True, False, True, True, False, False], [True] * 6])
    got = thirds(np.zeros(6, dtype=int), starts, np.array([0.0]), np.array([90.0]), flags)
    assert got == (((2, 1), (2, 2), (2, 0)), ((2, 2), (2, 2), (2, 2)))
    # a show that does not start at 0: [100, 190], the same starts shifted by 100 s
    assert thirds(np.zeros(6, dtype=int), starts + 100, np.array([100.0]), np.array([190.0]), flags[:1]) == (got[0],)


def test_the_last_third_missed_is_said_from_an_evaluation():
    # reference [0, 90]: 0-20, 20-30 (first third), 30-50, 50-60 (middle), 60-75, 75-90 (last).
    # x matches the first four exactly; its [60, 90] covers 60-75 by 2*15/(15+30) = 0.667 < 0.85 and
    # 75-90 the same: both missed. R_N: 4 of 6 = 66.7 %; first third 2/2, middle 2/2, last 0/2.
    reference = {"s": _annotation([(0, 20), (20, 30), (30, 50), (50, 60), (60, 75), (75, 90)])}
    x = {"s": _annotation([(0, 20), (20, 30), (30, 50), (50, 60), (60, 90)])}
    pages = ResultPages(_evaluate(reference, {"x": x}, bootstrap=0))
    assert pages.failures.thirds == (((2, 2), (2, 2), (2, 0)),)
    (gap,) = [g for g in pages.failures.systems[0].gaps if g.kind == "position"]
    assert gap.sentence == (
        "x retrieves 0.0\u00a0% (0 of 2) of the stories that start in the last third of their show "
        "(100.0\u00a0% in the other thirds; 66.7\u00a0% on the whole corpus)."
    )


def test_a_report_model_gets_its_thirds_from_its_match_tables():
    report = synthetic_report(4, systems=("one", "two"))
    found = failures_of_report(report)  # without counts: no position gap
    assert not [g for s in found.systems for g in s.gaps if g.kind == "position"]
    got = model_thirds(report)
    # every reference story is counted once per system, and retrieved as its match row says
    n_ref = sum(len(s.reference) for s in report.shows)
    for i in range(2):
        assert sum(n for n, _ in got[i]) == n_ref
        assert sum(r for _, r in got[i]) == sum(m.correct for s in report.shows for m in s.systems[i].matches)


# --- a show without output ------------------------------------------------------------------------------

REFERENCE = {
    "s1": _annotation([(0, 50), (50, 100)]),
    "s2": _annotation([(0, 30), (30, 90)]),
    "s3": _annotation([(0, 60), (60, 120)]),
}
WITH_S2 = {"s1": _annotation([(0, 50), (50, 100)]), "s3": _annotation([(0, 60), (60, 120)])}


@pytest.fixture(scope="module")
def missing():
    # "a" has no file for s2; "b" has every show
    return _evaluate(REFERENCE, {"a": WITH_S2, "b": dict(REFERENCE)}, bootstrap=0)


def test_the_result_records_the_show_without_output(missing):
    assert missing.systems["a"].has_output.tolist() == [True, False, True]
    assert missing.systems["b"].has_output.tolist() == [True, True, True]
    rows = missing.to_json()["systems"]["a"]["shows"]
    assert [rows[s]["has_output"] for s in ("s1", "s2", "s3")] == [True, False, True]
    frame = missing.to_frame()
    flags = frame[(frame.system == "a") & (frame.metric == "has_output")].set_index("show")["value"]
    assert flags.to_dict() == {"s1": 1.0, "s2": 0.0, "s3": 1.0}
    assert "has_output" not in missing.systems["a"].macro and "has_output" not in missing.systems["a"].corpus


def test_no_number_changes_against_an_empty_hypothesis(missing):
    # the same system given an empty annotation for s2: every number the same, only the flag differs
    empty = _evaluate(REFERENCE, {"a": {**WITH_S2, "s2": Annotation()}, "b": dict(REFERENCE)}, bootstrap=0)
    assert empty.systems["a"].has_output.tolist() == [True, True, True]
    one, two = missing.to_json(), empty.to_json()
    for document in (one, two):
        for row in document["systems"]["a"]["shows"].values():
            del row["has_output"]
        del document["components"]["systems"]["a"]["has_output"]  # the flag, carried with the components
    assert one == two


def test_the_streamed_path_records_the_same_flags(missing):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sharded = evaluate_sharded(
            REFERENCE, {"a": WITH_S2, "b": dict(REFERENCE)}, chunk_shows=[1, 2], settings=tvseg.Settings(bootstrap=0)
        )
    assert sharded.systems["a"].has_output.tolist() == [True, False, True]
    assert json.dumps(sharded.to_json()) == json.dumps(missing.to_json())


def test_the_pages_mark_the_show_without_output(missing, tmp_path):
    pages = ResultPages(missing, date="2000-01-01")
    assert [flags.tolist() for flags in pages.no_output] == [[False, True, False], [False, False, False]]
    assert [s.has_output for s in pages.page(1).systems] == [False, True]
    write_report(missing, tmp_path / "rep", progress=False, jobs=1)
    s2 = (tmp_path / "rep" / "shows" / "s2.html").read_text(encoding="utf-8")
    s1 = (tmp_path / "rep" / "shows" / "s1.html").read_text(encoding="utf-8")
    assert "No output for this show from <b>a</b>: scored as empty" in s2
    assert '<h3>a <span class="missing-output">no output for this show: scored as empty</span></h3>' in s2
    assert "missing-output" not in s1


def test_a_report_model_says_which_shows_have_no_output():
    report = synthetic_report(2, systems=("one", "two"))
    first = report.shows[0]
    silent = replace(first, systems=(replace(first.systems[0], has_output=False), first.systems[1]))
    report = replace(report, shows=(silent, report.shows[1]))
    assert [flags.tolist() for flags in ModelPages(report).no_output] == [[True, False], [False, False]]
    page = ModelPages(report).page(0)
    assert [s.has_output for s in page.systems] == [False, True]


def test_metadata_gaps_from_an_evaluation_name_the_channel():
    # a group of fewer than MIN_GROUP_STORIES (20) stories is not named: 3 shows of 2 stories each
    result = tvseg.evaluate(
        REFERENCE,
        {"b": dict(REFERENCE)},
        metadata=pd.DataFrame({"channel": ["X", "Y", "X"]}, index=pd.Index(["s1", "s2", "s3"], name="show")),
        settings=tvseg.Settings(bootstrap=0),
    )
    assert not [g for s in ResultPages(result).failures.systems for g in s.gaps if g.kind == "group"]


# --- titles in scripts ROUGE-L cannot read --------------------------------------------------------------


def test_a_note_names_the_titles_rouge_cannot_read():
    from tvseg.report.summary import title_script_note

    # 2 of 3 titles have non-Latin letters: Arabic (الأخبار) and Han (中国新闻); accented Latin is Latin
    note = title_script_note(["Élections", "الأخبار", None, "中国新闻 2024"])
    assert note.startswith("2 of the 3 reference titles are written in Arabic or Han: ROUGE-L reads only")
    assert title_script_note(["Élections à Besançon", "Weather", None]) is None


def test_the_titling_section_carries_the_note():
    def titled(bounds, titles):
        out = Annotation()
        for (a, b), t in zip(bounds, titles):
            out[Segment(a, b)] = t
        return out

    reference = {"s": titled([(0, 50), (50, 100)], ["中国新闻", "Weather"])}
    result = _evaluate(reference, {"x": dict(reference)}, bootstrap=0)
    # rouge-score's tokeniser drops the Han letters: the identical title has no token, ROUGE-L 0 (it scores
    # a pair with a side without token as 0); "weather" against itself: 1. Mean over the 2 titles: 0.5.
    assert result.systems["x"].corpus["title_rougeL_f1"] == 0.5
    page = render_index(ResultPages(result, date="2000-01-01"))
    assert '<p class="note" id="title-scripts">1 of the 2 reference titles are written in Han:' in page
    latin = _evaluate({"s": titled([(0, 100)], ["Météo"])}, {"x": {"s": titled([(0, 100)], ["Météo"])}}, bootstrap=0)
    assert 'id="title-scripts"' not in render_index(ResultPages(latin, date="2000-01-01"))


def test_a_group_inside_the_corpus_interval_is_lowest_not_a_fall():
    found = failures_of_report(_report())
    # a: channel C 53.0 % CovN is inside a's corpus interval [52.0-58.0 %]: "lowest", not "falls to"
    assert found.systems[0].gaps[0].sentence == (
        "a is lowest on channel C: 53.0\u00a0% CovN, 100 stories (54.0\u201357.0\u00a0% elsewhere; "
        "55.0\u00a0% [52.0\u201358.0\u00a0%] on the whole corpus)."
    )


def test_a_flip_needs_disjoint_intervals_on_both_sides():
    # x leads on CovN, y on Pk (lower is better); CovN 60 % [58-62 %] against 50 % [48-52 %]: disjoint
    one = SystemSummary("x", {"cov_n": Estimate(0.6, 0.58, 0.62), "pk": Estimate(0.30, 0.28, 0.32)})
    two = SystemSummary("y", {"cov_n": Estimate(0.5, 0.48, 0.52), "pk": Estimate(0.20, 0.18, 0.22)})
    found = failures_of_report(replace(_report(), systems=(one, two)))
    # Pk 30 % [28-32 %] against 20 % [18-22 %]: disjoint too, so the ranking flips
    assert [(f.a_better, f.b_better) for f in found.flips] == [(("cov_n",), ("pk",))] and not found.noise
    # Pk 30 % [25-35 %] against 28 % [24-32 %]: the intervals overlap, y's lead is within noise
    close = SystemSummary("y", {"cov_n": Estimate(0.5, 0.48, 0.52), "pk": Estimate(0.28, 0.24, 0.32)})
    one = replace(one, corpus={**one.corpus, "pk": Estimate(0.30, 0.25, 0.35)})
    found = failures_of_report(replace(_report(), systems=(one, close)))
    assert not found.flips
    assert [(f.a_better, f.b_better) for f in found.noise] == [(("cov_n",), ("pk",))]
