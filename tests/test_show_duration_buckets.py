"""The breakdown by show duration (issue 42): shows in buckets of under 10, 10-20, 20-30, 30-60 and 60 minutes
and over, each bucket's scores pooled from its shows' components (summed, not averaged), and the macro values of
each class (the mean of its shows' values) that the JSON's ``by_duration`` holds, drawn on the corpus page.

Every show of the corpus below has ``n`` stories of equal length ``L = D / n`` and one hypothesis, the
reference with its first two stories merged into one segment. The merged segment covers each of the two
stories by ``L`` and is ``2L`` long: bidirectional coverage ``2 L / (L + 2 L) = 2/3``, not above gamma 0.85,
so both stories and the merged segment are wrong; every other story is found exactly. Per show: ``n``
reference stories, ``n - 2`` of them correct; ``n - 1`` hypothesis segments, ``n - 2`` correct; the correct
duration ``D - 2 L`` on both sides, of ``D`` on both sides. The expected pooled values below are these
counts summed by hand over each bucket's shows, with fractions.
"""

from __future__ import annotations

import re
import warnings
from fractions import Fraction
from html import escape

import pytest
from pyannote.core import Annotation, Segment

import tvseg
from tvseg.report import render
from tvseg.report.adapter import ResultPages
from tvseg.retrieval.reductions import by_show_duration, show_duration_labels

# show -> (duration D in seconds, as written; number of stories n)
SHOWS = {
    "a": ("300", 3),  # 5 min: under 10
    "b": ("599.5", 5),  # just under 10 min: under 10 (stories of 119.9 s)
    "c": ("600", 4),  # exactly 10 min: the lower edge belongs to 10-20
    "d": ("1000", 10),  # 10-20
    "e": ("1500", 5),  # 25 min: 20-30
    "f": ("2400", 8),  # 40 min: 30-60
    "g": ("3600", 12),  # exactly 60 min: 60 and over
    "h": ("5400", 6),  # 90 min: 60 and over
}
BUCKETS = {
    "< 10 min": ("a", "b"),
    "10\u201320 min": ("c", "d"),
    "20\u201330 min": ("e",),
    "30\u201360 min": ("f",),
    "\u2265 60 min": ("g", "h"),
}


def _corpus():
    reference, hypothesis = {}, {}
    for show, (duration, n) in SHOWS.items():
        length = Fraction(duration) / n
        bounds = [float(length * i) for i in range(n + 1)]
        ref, hyp = Annotation(uri=show), Annotation(uri=show)
        for i, (a, b) in enumerate(zip(bounds, bounds[1:])):
            ref[Segment(a, b)] = f"story {i}"
        merged = [bounds[0], *bounds[2:]]
        for i, (a, b) in enumerate(zip(merged, merged[1:])):
            hyp[Segment(a, b)] = f"segment {i}"
        reference[show], hypothesis[show] = ref, hyp
    return reference, {"merger": hypothesis}


@pytest.fixture(scope="module")
def result():
    reference, hypotheses = _corpus()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few shows: not what is tested here
        return tvseg.evaluate(reference, hypotheses)


def _expected(shows) -> dict:
    """The pooled values of ``shows``, from the counts of the module docstring summed by hand."""
    n_ref = sum(SHOWS[s][1] for s in shows)
    n_hyp = sum(SHOWS[s][1] - 1 for s in shows)
    correct = sum(SHOWS[s][1] - 2 for s in shows)
    duration = sum(Fraction(SHOWS[s][0]) for s in shows)
    correct_duration = sum(Fraction(SHOWS[s][0]) * (SHOWS[s][1] - 2) / SHOWS[s][1] for s in shows)
    recall_n, precision_n = Fraction(correct, n_ref), Fraction(correct, n_hyp)
    recall_d = correct_duration / duration  # the precision by duration is the same: both sides' durations agree
    return {
        "n_shows": len(shows),
        "n_reference": n_ref,
        "n_hypothesis": n_hyp,
        "recall_n": recall_n,
        "precision_n": precision_n,
        "cov_n": 2 * recall_n * precision_n / (recall_n + precision_n),
        "cov_d": recall_d,
    }


def test_the_labels_are_the_leaderboards_buckets():
    assert show_duration_labels() == list(BUCKETS)


def test_each_bucket_pools_its_shows_components(result):
    got = by_show_duration(result.systems["merger"].scores.components)
    assert list(got) == list(BUCKETS)
    for label, shows in BUCKETS.items():
        for key, value in _expected(shows).items():
            assert got[label][key] == pytest.approx(float(value), rel=1e-12, abs=0), (label, key)


def test_a_pooled_bucket_is_not_the_mean_of_its_shows(result):
    # under 10 minutes: pooled CovN 4/7 (R_N 4/8, P_N 4/6); the mean of the shows' CovN is
    # (2/5 + 2/3) / 2 = 8/15 (a: R 1/3, P 1/2; b: R 3/5, P 3/4)
    got = by_show_duration(result.systems["merger"].scores.components)["< 10 min"]
    assert got["cov_n"] == pytest.approx(4 / 7, rel=1e-12)
    per_show = result.systems["merger"].shows["cov_n"]
    assert per_show[["a", "b"]].mean() == pytest.approx(8 / 15, rel=1e-12)


def test_an_empty_bucket_is_left_out(result):
    components = result.systems["merger"].scores.components
    got = by_show_duration(components.loc[["a", "g"]])
    assert list(got) == ["< 10 min", "\u2265 60 min"]
    assert got["< 10 min"]["n_shows"] == 1 and got["\u2265 60 min"]["n_shows"] == 1


def test_the_corpus_page_draws_the_buckets(result):
    pages = ResultPages(result, date="2000-01-01")
    summary = pages.header.systems[0].by_show_duration
    assert list(summary) == list(BUCKETS)
    page = render.render_index(pages)
    table = page[page.index('id="by-show-duration"') :]
    table = table[: table.index("</table>")]
    for label, shows in BUCKETS.items():
        expected = _expected(shows)
        # the row: its label, shows, stories, then R_N, CovN, CovD and boundary F of the one system
        row = table[table.index(f'<td class="l">{escape(label)}</td>') :]
        row = row[: row.index("</tr>")]
        cells = row.split("</td>")
        assert f">{expected['n_shows']}" in cells[1] and f">{expected['n_reference']}" in cells[2]
        assert cells[3].endswith(f"{100 * float(expected['recall_n']):.1f}")
        assert cells[4].endswith(f"{100 * float(expected['cov_n']):.1f}")
        assert cells[5].endswith(f"{100 * float(expected['cov_d']):.1f}")
    assert 'href="#show-duration"' in page  # listed among the page's sections


def _per_show(show) -> dict:
    """A show's own headline values, from the counts of the module docstring: R_N = (n - 2) / n,
    P_N = (n - 2) / (n - 1); CovD = (n - 2) / n (both sides' correct duration D - 2 L of D); the boundaries:
    the n - 2 inner hypothesis boundaries all on a reference boundary (precision 1) of the n - 1 inner
    reference ones (recall (n - 2) / (n - 1)), F = 2 (n - 2) / (2 n - 3)."""
    n = SHOWS[show][1]
    recall_n, precision_n = Fraction(n - 2, n), Fraction(n - 2, n - 1)
    return {
        "cov_n": 2 * recall_n * precision_n / (recall_n + precision_n),
        "cov_d": Fraction(n - 2, n),
        "boundary_f1": Fraction(2 * (n - 2), 2 * n - 3),
    }


# the JSON's classes (tvseg.evaluation.DURATION_CLASSES), bucket by bucket
CLASSES = dict(zip(BUCKETS, ("under 10 min", "10-20 min", "20-30 min", "30-60 min", "60 min and over")))


def _macro_table(page) -> dict:
    """``{JSON class: (label, shows cell, {header: (data-v, text)})}`` of the corpus page's table of macro values
    by show duration (one system)."""
    table = page[page.index('id="by-show-duration-macro"') :]
    table = table[: table.index("</table>")]
    head = re.findall(r'<th scope="col">(.*?)</th>', table)
    rows = {}
    for name, cells in re.findall(r'<tr data-class="([^"]*)">(.*?)</tr>', table):
        label = re.match(r'<td class="l">(.*?)</td>', cells).group(1)
        values = re.findall(r'<td data-v="([^"]*)">(.*?)</td>', cells)
        rows[name] = (label, values[0][1], dict(zip(head, values[1:], strict=True)))
    return rows


def test_the_corpus_page_draws_the_macro_values_of_each_class(result):
    # the mean of the shows' own values in each bucket, by hand: under 10 minutes, CovN (2/5 + 2/3) / 2 = 8/15
    # (shows a and b), CovD (1/3 + 3/5) / 2 = 7/15, boundary F (2/3 + 6/7) / 2 = 16/21
    expected = {
        label: {key: sum(_per_show(s)[key] for s in shows) / len(shows) for key in ("cov_n", "cov_d", "boundary_f1")}
        for label, shows in BUCKETS.items()
    }
    assert expected["< 10 min"] == {
        "cov_n": Fraction(8, 15),
        "cov_d": Fraction(7, 15),
        "boundary_f1": Fraction(16, 21),
    }
    by_duration = result.to_json()["systems"]["merger"]["by_duration"]
    page = render.render_index(ResultPages(result, date="2000-01-01"))
    rows = _macro_table(page)
    assert list(rows) == list(CLASSES.values())
    labels = {"cov_n": "CovN", "cov_d": "CovD", "boundary_f1": "Bound. F"}
    for label, shows in BUCKETS.items():
        name = CLASSES[label]
        drawn_label, drawn_shows, cells = rows[name]
        assert (drawn_label, drawn_shows) == (escape(label), str(len(shows)))
        assert by_duration[name]["shows"] == len(shows)
        assert set(cells) == set(labels.values())  # the headline metrics of a run without units
        for key, value in expected[label].items():
            # the JSON's macro value is the hand-computed mean; the page's cell holds the JSON's value (to its
            # 9 significant digits) and shows it as a percentage
            json_value = by_duration[name]["macro"][key]
            assert json_value == pytest.approx(float(value), rel=1e-12, abs=0), (name, key)
            sort_value, text = cells[labels[key]]
            assert sort_value == f"{json_value:.9g}" and text == f"{100 * float(value):.1f}", (name, key)


def test_a_class_without_a_show_has_no_macro_row(tmp_path):
    # shows a (5 min) and g (60 min) only: the JSON lists every class, three with no show; the page the two others
    reference, hypotheses = _corpus()
    reference = {s: reference[s] for s in ("a", "g")}
    hypotheses = {"merger": {s: hypotheses["merger"][s] for s in ("a", "g")}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        small = tvseg.evaluate(reference, hypotheses)
    by_duration = small.to_json()["systems"]["merger"]["by_duration"]
    assert [name for name, values in by_duration.items() if values["shows"]] == ["under 10 min", "60 min and over"]
    rows = _macro_table(render.render_index(ResultPages(small, date="2000-01-01")))
    assert list(rows) == ["under 10 min", "60 min and over"]
    # one show each: its own values, CovN of a (n = 3) 2/5, of g (n = 12) 2 * (10/12) (10/11) / (10/12 + 10/11) = 20/23
    assert rows["under 10 min"][2]["CovN"][1] == f"{100 * 2 / 5:.1f}"
    assert rows["60 min and over"][2]["CovN"][1] == f"{100 * 20 / 23:.1f}"
