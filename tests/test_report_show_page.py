"""A show page's content: story errors, anchors on the reference rows, titles in their own direction,
no ``<NA>`` for an untitled segment, lane names cut in the middle (issue 26, items 3 and 6); a first tab stop
that skips to its content (issue 42)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from chromium import drawn

from tvseg.report import render, svg, write_report
from tvseg.report.model import MatchRow, Report, Segment, Show, SystemShow, SystemSummary

HEBREW = "\u05d7\u05d3\u05e9\u05d5\u05ea \u05d4\u05e2\u05e8\u05d1 \u05d1\u05d9\u05e9\u05e8\u05d0\u05dc"  # "news tonight in Israel"
LONG_A = "segmenter-2024-large-finetuned-run-a"
LONG_B = "segmenter-2024-large-finetuned-run-b"


def _report() -> Report:
    reference = (Segment(0.0, 100.0, HEBREW), Segment(100.0, 200.0, "<NA>"), Segment(200.0, 300.0, "Sport"))
    systems = []
    for name in (LONG_A, LONG_B):
        matches = (
            MatchRow(0.0, 100.0, HEBREW, 0.0, 200.0, None, 1.0, 0.5, 2 / 3, False, None, "merged"),
            MatchRow(100.0, 200.0, "<NA>", 0.0, 200.0, None, 1.0, 0.5, 2 / 3, False, None, "merged"),
            MatchRow(200.0, 300.0, "Sport", 200.0, 300.0, "Sport", 1.0, 1.0, 1.0, True, None, "correct"),
        )
        metrics = {
            "n_reference_split": 0,
            "n_reference_merged": 2,
            "n_reference_shifted": 0,
            "n_reference_missed": 0,
            "n_false_alarm": 1,
        }
        systems.append(
            SystemShow(
                name=name,
                metrics=metrics,
                segments=(Segment(0.0, 200.0, None, False), Segment(200.0, 300.0, "Sport", True)),
                matches=matches,
            )
        )
    show = Show(show_id="s1", start=0.0, end=300.0, reference=reference, systems=tuple(systems))
    summaries = tuple(SystemSummary(name=n, corpus={}) for n in (LONG_A, LONG_B))
    return Report(signature="sig", version="0", date="2026-01-01", systems=summaries, shows=(show,), scores={})


@pytest.fixture(scope="module")
def drawn_page(tmp_path_factory):
    """The show page as its script draws it (its tables come from the page's data), and as written."""
    folder = tmp_path_factory.mktemp("show-page")
    index = write_report(_report(), folder / "rep", progress=False, jobs=1)
    page = index.parent / "shows" / "s1.html"
    return drawn(page, folder / "profile"), page.read_text(encoding="utf-8")


@pytest.mark.browser
def test_story_column_and_story_counts(drawn_page):
    page, _ = drawn_page
    # the match table of each system: a story column, its classes as given (merged, merged, correct)
    assert page.count('<th class="l">story</th>') == 2
    assert re.findall(r'<td class="l">(merged|correct)</td>', page) == ["merged", "merged", "correct"] * 2
    # the story errors: one table, a row per system with the counts given (0 split, 2 merged, 0, 0, 1 false alarm)
    table = page[page.index("<caption>Story errors</caption>") :]
    table = table[: table.index("</table>")]
    body = table[table.index("<tbody>") :]
    for label in ("split ref.", "merged ref.", "shifted ref.", "missed ref.", "false alarms"):
        assert f"<th>{label}</th>" in table
    rows = re.findall(r"<tr><th class=\"l\">(.*?)</th>(.*?)</tr>", body)
    assert [name for name, _ in rows] == [LONG_A, LONG_B]
    for _, cells in rows:
        assert re.findall(r">(\d+)</td>", cells) == ["0", "2", "0", "0", "1"]


@pytest.mark.browser
def test_reference_rows_have_ids_that_links_reach(drawn_page):
    page, _ = drawn_page
    for i in (1, 2, 3):
        assert f'<tr id="r-{i}" data-seg="r-{i}" tabindex="0">' in page
    assert len(re.findall(r'id="r-\d+"', page)) == 3  # the ids are unique on the page


@pytest.mark.browser
def test_no_NA_shown_and_titles_in_their_own_direction(drawn_page):
    page, written = drawn_page
    assert "&lt;NA&gt;" not in page and "<NA>" not in page and "\\u003cNA\\u003e" not in written
    # the untitled reference segment: an en dash in the tables
    assert '<td class="title"><span title="no title">\u2013</span></td>' in page
    # a title cell reads in its own direction
    assert f'<td class="title" dir="auto">{HEBREW}</td>' in page
    assert '<td class="title" dir="auto">Sport</td>' in page
    # the timeline's data: the Hebrew label is drawn right to left (its ellipsis, if cut, at its end: the
    # left; tests/test_report_timeline_browser.py draws it), the untitled segment has no label (-1)
    data = json.loads(
        re.search(r'<script type="application/json" id="show-page-data">(.*?)</script>', written).group(1)
    )
    assert data["titles"] == [HEBREW, "Sport"] and data["rtl"] == [0]
    assert data["ref"]["l"] == [0, -1, 1]
    assert [s["l"] for s in data["systems"]] == [[-1, 1], [-1, 1]]


def test_lane_names_with_one_prefix_read_apart():
    page = render.render_show(_report(), 0)
    names = re.findall(r'<text class="lane-name"[^>]*>(.*?)<title>(.*?)</title>', page)
    # cut in the middle to 19 characters: the first 9 ("segmenter"), an ellipsis, the last 9
    # ("ned-run-a"), counted by hand; the full name in the tooltip
    assert names == [
        ("reference", "reference"),
        ("segmenter\u2026ned-run-a", LONG_A),
        ("segmenter\u2026ned-run-b", LONG_B),
    ]
    # a long name is narrowed to the 134 units beside the lane (LEFT 150 - 16), a short one left as it is
    tags = re.findall(r'<text class="lane-name"[^>]*>', page)
    assert ["textLength" in tag for tag in tags] == [False, True, True]
    assert 'textLength="134" lengthAdjust="spacingAndGlyphs"' in tags[1]


def test_middle_and_direction():
    assert svg.middle("abcdef", 6) == "abcdef"
    assert svg.middle("abcdefgh", 5) == "ab\u2026gh"
    assert svg.direction("123 " + HEBREW) == "rtl"  # digits are weak: the first strong character decides
    assert svg.direction("Sport " + HEBREW) == "ltr"
    assert svg.direction("123") is None


class _TabStops(HTMLParser):
    """The elements of a page the Tab key can reach, in document order, as written (before any script): links
    with an ``href``, buttons, inputs, selects, summaries and ``tabindex`` not negative, outside ``hidden``
    elements; each as (tag, attributes, the ids of the elements around it)."""

    VOID = {"meta", "link", "input", "br", "img", "hr", "col", "source", "wbr", "area", "base", "embed", "track"}

    def __init__(self):
        super().__init__()
        self.open: list[tuple[str, dict]] = []
        self.stops: list[tuple[str, dict, list[str]]] = []
        self.ids: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        hidden = "hidden" in attrs or any("hidden" in a for _, a in self.open)
        focusable = (tag == "a" and "href" in attrs) or tag in ("button", "input", "select", "summary")
        if "tabindex" in attrs:
            focusable = int(attrs["tabindex"]) >= 0
        if focusable and not hidden:
            self.stops.append((tag, attrs, [t for t, _ in self.open]))
        if "id" in attrs:
            self.ids[attrs["id"]] = [t for t, _ in self.open] + [tag]
        if tag not in self.VOID:
            self.open.append((tag, attrs))

    def handle_endtag(self, tag):
        while self.open and self.open.pop()[0] != tag:
            pass


def test_a_show_page_starts_with_a_link_to_its_content(tmp_path):
    index = write_report(_report(), tmp_path / "rep", progress=False, jobs=1)
    written = (index.parent / "shows" / "s1.html").read_text(encoding="utf-8")
    page = _TabStops()
    page.feed(written)
    # the first tab stop is the skip link, in the page's header, before the crumbs' link to the corpus page
    tag, attrs, around = page.stops[0]
    assert (tag, attrs["class"], attrs["href"]) == ("a", "skip-link", "#scores")
    assert around == ["html", "body", "header"]
    assert page.stops[1][1]["href"] == "../index.html"
    # it leads to the first element of <main>: the heading "Scores on this show"
    assert page.ids["scores"] == ["html", "body", "main", "h2"]
    main = written[written.index("<main>") + len("<main>") :].lstrip()
    assert main.startswith('<h2 id="scores">Scores on this show</h2>')
    # the style sheet keeps it out of sight until it has the focus
    css = (index.parent / "assets" / "report.css").read_text(encoding="utf-8")
    assert re.search(r"\.skip-link \{[^}]*left: -10000px", css) and re.search(
        r"\.skip-link:focus \{[^}]*left: 8px", css
    )
