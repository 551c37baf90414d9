"""The way through the report in headless chromium (issue 42): the corpus page leads to its shows, a show
page's first tab stop skips to its content, and a 3-hour show's page gives each story one class everywhere.

The corpus page of 150 shows with a ``date`` column of 75 values (a breakdown of 75 rows, each a link): a
probe script added to a copy of the page finds the page's first tab stop (a link that skips to the table of
shows), the link to the shows table among the sections listed under the title and where it is on the first
screen, follows it, and finds the first tab stop after the table's heading (its search box). It counts the
tab stops before that search box, and reads the header of the long breakdown, unfolded and scrolled in its
box. The show page of one 3-hour show (600 stories, two systems): the probe reads, for every reference story,
the class each system's line of its tooltip names, the story column and the verdict of each match table,
and the counts of the "Story errors" table, and searches the titles; all are checked against one another
and against the result's own classes.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from html import unescape
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pyannote.core import Annotation, Segment
from test_report_browser import console_errors, run_chromium
from test_report_keyboard_browser import long_show

import tvseg
from tvseg.report import write_report
from tvseg.settings import Settings

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::UserWarning")]

N_SHOWS = 150
N_DATES = 75


def _probe(page: Path, script: str, profile: Path, size: str = "1280,800") -> dict:
    copy = page.with_name(page.stem + "-nav.html")
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", script + "</body>"), encoding="utf-8")
    done = run_chromium(profile, copy.as_uri(), "--dump-dom", f"--window-size={size}")
    copy.unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    assert "probe-done" in done.stderr, done.stderr[-3000:]
    assert console_errors(done.stderr) == [], page.name
    found = re.search(r'data-probe="([^"]*)"', done.stdout)
    assert found, done.stdout[-2000:]
    return json.loads(unescape(found.group(1)))


@pytest.fixture(scope="module")
def corpus_page(tmp_path_factory):
    rng = np.random.default_rng(42)
    reference, hypothesis, rows = {}, {}, []
    for k in range(N_SHOWS):
        show = f"show{k:03d}"
        bounds = np.concatenate([[0.0], np.cumsum(np.round(rng.uniform(20, 200, int(rng.integers(4, 10)))))])
        ref, hyp = Annotation(uri=show), Annotation(uri=show)
        for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
            ref[Segment(a, b)] = f"story {i}"
        inner = bounds[1:-1][rng.random(bounds.size - 2) > 0.3]
        moved = np.unique(np.clip(np.round(inner + rng.normal(0, 8, inner.size)), 1, bounds[-1] - 1))
        cuts = np.concatenate([[0.0], moved, [bounds[-1]]])
        for i, (a, b) in enumerate(zip(cuts[:-1], cuts[1:])):
            hyp[Segment(a, b)] = f"h{i}"
        reference[show], hypothesis[show] = ref, hyp
        rows.append((show, ("ARD", "BBC One", "NHK")[k % 3], f"2024-03-{k % N_DATES:02d}"))
    metadata = pd.DataFrame(rows, columns=["show", "channel", "date"]).set_index("show")
    result = tvseg.evaluate(reference, {"sys": hypothesis}, metadata=metadata, settings=Settings(bootstrap=0))
    root = tmp_path_factory.mktemp("navigation")
    return write_report(result, root / "rep", progress=False, jobs=1)


CORPUS = r"""
<script>
window.addEventListener("load", function () {
  var out = {};
  // the tab stops in document order: focusable, drawn, not inside a folded <details> (but its summary)
  function stop(e) {
    if (e.tabIndex < 0 || e.closest("[hidden]") || e.getClientRects().length === 0) { return false; }
    for (var d = e.closest("details"); d; d = d.parentElement.closest("details")) {
      if (!d.open && !(e.tagName === "SUMMARY" && e.parentElement === d)) { return false; }
    }
    return true;
  }
  var stops = Array.prototype.filter.call(
    document.querySelectorAll("a[href], button, input, select, summary, [tabindex]"), stop);
  var search = document.getElementById("show-search"), heading = document.getElementById("shows");
  out.first = { tag: stops[0].tagName, href: stops[0].getAttribute("href"), text: stops[0].textContent };
  out.before_search = stops.indexOf(search);
  var after = stops.filter(function (e) { return heading.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING; });
  out.after_heading = after[0].id;
  out.date_links_stops = stops.filter(function (e) { return e.getAttribute("data-filter-key") === "date"; }).length;
  out.date_links = document.querySelectorAll("a[data-filter-key='date']").length;
  out.folded = Array.prototype.map.call(document.querySelectorAll("details"), function (d) {
    return [d.querySelector("summary").textContent, d.open];
  });
  // the sections listed under the title: each link reaches its heading
  out.toc = Array.prototype.map.call(document.querySelectorAll("nav.toc a"), function (a) {
    return [a.getAttribute("href"), document.getElementById(a.getAttribute("href").slice(1)) !== null];
  });
  var link = document.querySelector("nav.toc a[href='#shows']"), r = link.getBoundingClientRect();
  out.link = { top: r.top, bottom: r.bottom, height: window.innerHeight, text: link.textContent };
  link.click();
  out.heading_top = heading.getBoundingClientRect().top;
  out.search_top = search.getBoundingClientRect().top;
  // the long breakdown, unfolded and scrolled halfway in its box: its header stays at the box's top
  var table = document.querySelector("a[data-filter-key='date']").closest("table");
  table.closest("details").open = true;
  var box = table.parentElement;
  box.scrollIntoView();
  box.scrollTop = box.scrollHeight / 2;
  out.box = { scrolled: box.scrollTop, top: box.getBoundingClientRect().top,
              head: table.tHead.rows[0].cells[0].getBoundingClientRect().top,
              bottom: table.tHead.rows[1].cells[0].getBoundingClientRect().bottom,
              head2: table.tHead.rows[1].cells[0].getBoundingClientRect().top,
              head1_bottom: table.tHead.rows[0].cells[2].getBoundingClientRect().bottom };
  var under = document.elementFromPoint(table.tHead.rows[1].cells[0].getBoundingClientRect().left + 5,
                                        table.tHead.rows[1].cells[0].getBoundingClientRect().top + 5);
  out.box.head_on_top = under !== null && under.closest("thead") !== null;
  document.body.setAttribute("data-probe", JSON.stringify(out));
  console.log("probe-done");
});
</script>
"""


def test_the_corpus_page_leads_to_its_shows(corpus_page, tmp_path):
    found = _probe(corpus_page, CORPUS, tmp_path / "profile")
    # the first tab stop skips to the table of shows; the link listed first under the title leads there too,
    # on the first screen (1,280 x 800)
    assert found["first"]["tag"] == "A" and found["first"]["href"] == "#shows"
    link = found["link"]
    assert 0 <= link["top"] and link["bottom"] <= link["height"], link
    assert link["text"] == f"The {N_SHOWS} shows"
    assert found["toc"][0] == ["#shows", True] and all(reached for _, reached in found["toc"]), found["toc"]
    # followed, it brings the table's heading to the top of the window, its search box on the same screen
    assert abs(found["heading_top"]) <= 30 and found["search_top"] < link["height"]
    # from the heading (where the skip link leaves the focus), the next tab stop is the search box
    assert found["after_heading"] == "show-search"
    # the 75 links of the date breakdown are folded away: none is a tab stop until it is opened, nor is the
    # list of the stories the system does not retrieve
    assert found["date_links"] == N_DATES and found["date_links_stops"] == 0
    folded = dict(found["folded"])
    assert folded[f"Its {N_DATES} values"] is False
    assert [open_ for summary, open_ in found["folded"] if summary.startswith("Not retrieved by sys:")] == [False]
    # without the skip link, the search box is the 40th tab stop or nearer (the sections' links, the
    # channel breakdown's 3 links and the sortable headers of the tables before it)
    assert 0 < found["before_search"] <= 40, found["before_search"]
    # the long breakdown scrolled within its box: its two header rows stay at the box's top, over the rows
    box = found["box"]
    assert box["scrolled"] > 100
    assert abs(box["head"] - box["top"]) <= 2, box
    assert abs(box["head2"] - box["head1_bottom"]) <= 2 and box["head_on_top"], box


def test_the_shows_note_speaks_of_pk_only_when_the_table_shows_it(corpus_page):
    page = corpus_page.read_text(encoding="utf-8")
    note = page[page.index('<h2 id="shows">') :]
    note = note[: note.index("</p>")]
    assert "lower is better" not in note and "Pk" not in note and "P<sub>k</sub>" not in note
    assert "WindowDiff" not in note
    demo = Path(__file__).resolve().parent.parent / "reports" / "demo" / "index.html"
    note = demo.read_text(encoding="utf-8")
    note = note[note.index('<h2 id="shows">') :]
    note = note[: note.index("</p>")]
    assert "for Pk and WindowDiff, lower is better" in note  # the demo has units: Pk in its table


SKIP = r"""
<script>
window.addEventListener("load", function () {
  var out = {};
  function stop(e) {
    if (e.tabIndex < 0 || e.closest("[hidden]") || e.getClientRects().length === 0) { return false; }
    for (var d = e.closest("details"); d; d = d.parentElement.closest("details")) {
      if (!d.open && !(e.tagName === "SUMMARY" && e.parentElement === d)) { return false; }
    }
    return true;
  }
  var stops = Array.prototype.filter.call(
    document.querySelectorAll("a[href], button, input, select, summary, [tabindex]"), stop);
  var link = stops[0];
  out.first = { tag: link.tagName, href: link.getAttribute("href"), text: link.textContent };
  out.crumbs = Array.prototype.map.call(document.querySelectorAll("nav.crumbs a"), function (a) { return stops.indexOf(a); });
  // out of sight until the keyboard reaches it, then in the window's top left corner
  var r = link.getBoundingClientRect();
  out.unfocused = { right: r.right };
  link.focus();
  r = link.getBoundingClientRect();
  out.focused = { active: document.activeElement === link, left: r.left, top: r.top, right: r.right,
                  bottom: r.bottom, width: window.innerWidth, height: window.innerHeight };
  var target = document.getElementById(link.getAttribute("href").slice(1));
  out.target = { tag: target.tagName, in_main: target.closest("main") !== null,
                 first_in_main: document.querySelector("main > *") === target, text: target.textContent };
  link.click();
  out.hash = location.hash;
  out.target_top = target.getBoundingClientRect().top;
  out.scrolled = window.scrollY;
  var after = stops.filter(function (e) { return target.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING; });
  out.after_in_main = after.length > 0 && after[0].closest("main") !== null;
  document.body.setAttribute("data-probe", JSON.stringify(out));
  console.log("probe-done");
});
</script>
"""


def test_a_show_page_skips_to_its_content(corpus_page, tmp_path):
    # show001's page, between show000 and show002: its crumbs are three links (all shows, previous, next), then
    # the link to matches.csv in the note, before its content
    page = corpus_page.parent / "shows" / "show001.html"
    found = _probe(page, SKIP, tmp_path / "profile", size="1280,600")
    # the first tab stop skips to the show's content, before the crumbs (tab stops 2 to 4)
    assert found["first"]["tag"] == "A" and found["first"]["href"] == "#scores", found["first"]
    assert found["first"]["text"].startswith("Skip to the main content")
    assert found["crumbs"] == [1, 2, 3]
    # out of the window until focused; focused, wholly in the window
    assert found["unfocused"]["right"] < 0
    focused = found["focused"]
    assert focused["active"] and 0 <= focused["left"] and focused["right"] <= focused["width"], focused
    assert 0 <= focused["top"] and focused["bottom"] <= focused["height"], focused
    # its target is the first heading of <main>, "Scores on this show"; followed, the page scrolls it to the top
    # and the next tab stop is in the content
    assert found["target"] == {"tag": "H2", "in_main": True, "first_in_main": True, "text": "Scores on this show"}
    assert found["hash"] == "#scores" and found["scrolled"] > 0 and abs(found["target_top"]) <= 30, found
    assert found["after_in_main"]


SHOW = r"""
<script>
window.addEventListener("load", function () {
  var out = { hover: [], tables: [], verdicts: [], errors: {} };
  var lanes = document.querySelectorAll("svg.timeline g.lane");
  out.systems = Array.prototype.slice.call(lanes, 1).map(function (g) { return g.getAttribute("data-source"); });
  // each reference story's tooltip: a line per system, "name: class (...)"
  Array.prototype.forEach.call(lanes[0].querySelectorAll("g.seg-g"), function (g) {
    var lines = g.querySelector("title").textContent.split("\n").slice(2);
    out.hover.push(lines.map(function (line) { return line; }));
  });
  // each match table: the verdict and the story column of every row
  Array.prototype.forEach.call(document.querySelectorAll("table.matches"), function (t) {
    var rows = t.tBodies[0].rows;
    out.tables.push(Array.prototype.map.call(rows, function (r) { return r.cells[9].textContent; }));
    out.verdicts.push(Array.prototype.map.call(rows, function (r) { return r.cells[8].textContent; }));
  });
  // the "Story errors" table: its header and each system's counts
  Array.prototype.forEach.call(document.querySelectorAll("table.scores"), function (t) {
    if (t.caption && t.caption.textContent === "Story errors") {
      var head = Array.prototype.map.call(t.tHead.rows[0].cells, function (c) { return c.textContent; });
      Array.prototype.forEach.call(t.tBodies[0].rows, function (r) {
        var counts = {};
        Array.prototype.forEach.call(r.cells, function (c, i) { if (i > 0) { counts[head[i]] = c.textContent; } });
        out.errors[r.cells[0].textContent] = counts;
      });
    }
  });
  // the box of segment tables scrolled: the reference table's header at the box's top
  var box = document.querySelector(".segment-tables");
  box.scrollIntoView();
  box.scrollTop = 3000;
  var th = box.querySelector("table.segments thead th");
  out.sticky = { scrolled: box.scrollTop, box: box.getBoundingClientRect().top, head: th.getBoundingClientRect().top };
  var under = document.elementFromPoint(th.getBoundingClientRect().left + 3, th.getBoundingClientRect().top + 3);
  out.sticky.on_top = under !== null && under.closest("thead") !== null;
  // and a match table, in its own box
  var matches = document.querySelector("table.matches"), mbox = matches.parentElement;
  mbox.scrollIntoView();
  mbox.scrollTop = 3000;
  out.match_sticky = { scrolled: mbox.scrollTop, box: mbox.getBoundingClientRect().top,
                       head: matches.tHead.rows[0].cells[0].getBoundingClientRect().top };
  // the search over titles
  var search = document.getElementById("title-search");
  out.search_shown = !search.closest(".title-search").hidden;
  search.value = "  story 12 ";
  search.dispatchEvent(new Event("input"));
  function kept(key) {
    return Array.prototype.filter.call(document.querySelectorAll("table.segments[data-key='" + key + "'] tbody tr"),
      function (r) { return !r.hidden; }).map(function (r) { return r.cells[0].textContent; });
  }
  out.search = { kept: kept("r"), count: document.querySelector(".title-count").textContent };
  search.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
  out.search.selected = Array.prototype.map.call(document.querySelectorAll("tr.hl"), function (r) {
    return r.getAttribute("data-seg");
  });
  search.value = "";
  search.dispatchEvent(new Event("input"));
  out.search.cleared = kept("r").length;
  document.body.setAttribute("data-probe", JSON.stringify(out));
  console.log("probe-done");
});
</script>
"""

LABELS = {"split": "split ref.", "merged": "merged ref.", "shifted": "shifted ref.", "missed": "missed ref."}


def test_a_three_hour_show_names_each_story_one_way(tmp_path):
    result = long_show()
    index = write_report(result, tmp_path / "long", progress=False, jobs=1)
    found = _probe(index.parent / "shows" / "long_show.html", SHOW, tmp_path / "profile", size="1280,1600")
    n = len(found["hover"])
    assert n == 600 and found["systems"] == list(result.systems)
    for k, name in enumerate(found["systems"]):
        # the result's own class of each story (its match table), some of every class on this show
        classes = list(result.systems[name].matches["story"][:n])
        assert set(classes) == {"correct", "split", "merged", "shifted", "missed"}, Counter(classes)
        # the tooltip names the class of the match table's story column, for every story
        hovered = [re.fullmatch(rf"{name}: ([a-z ]+) \(.*\)", lines[k]).group(1) for lines in found["hover"]]
        assert hovered == found["tables"][k] == classes
        # the verdict column: correct exactly for the stories of the class "correct"
        assert [v.endswith("correct") for v in found["verdicts"][k]] == [c == "correct" for c in classes]
        # the "Story errors" table counts the same stories in each class
        counted = Counter(classes)
        assert {LABELS[c]: str(counted[c]) for c in LABELS} == {
            label: found["errors"][name][label] for label in LABELS.values()
        }
    # the box of segment tables keeps its header in view when scrolled
    sticky = found["sticky"]
    assert sticky["scrolled"] > 1000 and abs(sticky["head"] - sticky["box"]) <= 2 and sticky["on_top"], sticky
    sticky = found["match_sticky"]  # and so does each match table in its own box
    assert sticky["scrolled"] > 1000 and abs(sticky["head"] - sticky["box"]) <= 2, sticky
    # the search: "story 12" (any case, spaces around it dropped) is in the titles "Story 12 of the evening" and
    # "Story 120" to "Story 129": 11 stories; Enter selects the first
    titles = [f"Story {i + 1} of the evening" for i in range(n)]
    expected = [str(i + 1) for i, t in enumerate(titles) if "story 12" in t.lower()]
    assert found["search_shown"] and found["search"]["kept"] == expected and len(expected) == 11
    assert found["search"]["count"] == f"11 of {n} reference stories"
    assert found["search"]["selected"] == ["r-12"]
    assert found["search"]["cleared"] == n
