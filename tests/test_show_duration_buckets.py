"""The breakdown by show duration (issue 42): shows in buckets of under 10, 10-20, 20-30, 30-60 and 60 minutes
and over, each bucket's scores pooled from its shows' components (summed, not averaged).

Every show of the corpus below has ``n`` stories of equal length ``L = D / n`` and one hypothesis, the
reference with its first two stories merged into one segment. The merged segment covers each of the two
stories by ``L`` and is ``2L`` long: bidirectional coverage ``2 L / (L + 2 L) = 2/3``, not above gamma 0.85,
so both stories and the merged segment are wrong; every other story is found exactly. Per show: ``n``
reference stories, ``n - 2`` of them correct; ``n - 1`` hypothesis segments, ``n - 2`` correct; the correct
duration ``D - 2 L`` on both sides, of ``D`` on both sides. The expected pooled values below are these
counts summed by hand over each bucket's shows, with fractions.
"""

from __future__ import annotations

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
