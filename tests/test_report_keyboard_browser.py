"""The report's pages driven from the keyboard, opened at a story, on a long show, and their charts
downloaded as SVG, in headless chromium (issue 26).

As in ``test_report_timeline_browser.py``, a probe script added to a copy of a page presses keys
(``keydown`` events on the focused element), reads the visible window back from the timeline's
``data-view-start``/``data-view-end`` and writes what it found as JSON into ``data-probe`` on
``<body>``, read back from ``--dump-dom``. The expected windows are worked out by hand in the
comments from the rules the page states: "+" halves the window about its middle, "-" doubles it,
Left/Right move it by a quarter (Shift: by a whole window), the window never leaves the show.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import numpy as np
import pandas as pd
import pytest
from pyannote.core import Annotation, Segment
from test_report_browser import console_errors, run_chromium

import tvseg
from tvseg.report import write_report

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::UserWarning")]

SVG = "{http://www.w3.org/2000/svg}"

COMMON = r"""
<script>
function view() {
  var box = document.querySelector(".timeline-box");
  return [parseFloat(box.getAttribute("data-view-start")), parseFloat(box.getAttribute("data-view-end"))];
}
function press(el, key, extra) {
  var init = { key: key, bubbles: true, cancelable: true };
  for (var k in extra || {}) { init[k] = extra[k]; }
  var event = new KeyboardEvent("keydown", init);
  el.dispatchEvent(event);
  return event.defaultPrevented;
}
function chosen() {
  return {
    segs: Array.prototype.map.call(document.querySelectorAll("g.seg-g.hl"), function (g) { return g.getAttribute("data-seg"); }),
    rows: Array.prototype.map.call(document.querySelectorAll("tr.hl"), function (r) { return r.getAttribute("data-seg"); })
  };
}
function shown(el) { return el.style.display !== "none"; }
function finish(out) {
  document.body.setAttribute("data-probe", JSON.stringify(out));
  console.log("probe-done");
}
</script>
"""

KEYS = r"""
<script>
window.addEventListener("load", function () {
  var out = {}, svg = document.querySelector("svg.timeline");
  out.tabindex = svg.getAttribute("tabindex");
  svg.focus();
  out.focused = document.activeElement === svg;
  var hint = document.querySelector(".timeline-keys");
  out.hint = hint ? { text: hint.textContent, screen_only: hint.classList.contains("screen-only") } : null;
  out.start = view();
  out.plus_prevented = press(svg, "+");
  out.plus = view();
  press(svg, "ArrowRight");
  out.right = view();
  press(svg, "ArrowLeft", { shiftKey: true });
  out.shift_left = view();
  press(svg, "End");
  out.end = view();
  press(svg, "-");
  out.minus = view();
  press(svg, "=");
  out.equals = view();
  press(svg, "0");
  out.zero = view();
  press(svg, "=");
  press(svg, "Home");
  out.home = view();
  out.ctrl_plus_prevented = press(svg, "+", { ctrlKey: true });
  out.ctrl_plus = view();
  out.letter_prevented = press(svg, "x");
  var steps = ["]", "]", "[", "]", "ArrowDown", "ArrowUp", "ArrowUp", "ArrowDown", "]", "["];
  out.steps = steps.map(function (k) { press(svg, k); return chosen(); });
  press(svg, "Enter");
  var active = document.activeElement;
  out.enter = { row: active.getAttribute("data-seg"), open: active.closest("details") ? active.closest("details").open : null };
  svg.focus();
  press(svg, "Escape");
  out.escape = chosen();
  var rows = document.querySelectorAll("table.segments tr[data-seg]");
  out.rows = rows.length;
  out.rows_tabbable = Array.prototype.filter.call(rows, function (r) { return r.tabIndex === 0; }).length;
  press(svg, "=");
  press(svg, "=");
  out.zoomed = view();
  var row = document.querySelector("tr[data-seg='r-1']");
  row.focus();
  out.row_enter_prevented = press(row, "Enter");
  out.row_enter = chosen();
  out.row_view = view();
  press(document.querySelector("tr[data-seg='s0-2']"), " ");
  out.row_space = chosen();
  finish(out);
});
</script>
"""

HASH = r"""
<script>
window.addEventListener("load", function () {
  var out = { view: view(), chosen: chosen(), scroll: window.scrollY, height: window.innerHeight };
  var row = document.querySelector("tr.hl");
  if (row) {
    var r = row.getBoundingClientRect();
    out.row = [r.top, r.bottom];
    out.open = row.closest("details") ? row.closest("details").open : null;
  }
  out.info = document.querySelector(".timeline-info").textContent;
  finish(out);
});
</script>
"""

LONG = r"""
<script>
window.addEventListener("load", function () {
  var out = {}, svg = document.querySelector("svg.timeline");
  function lanes() {
    return Array.prototype.map.call(document.querySelectorAll("svg.timeline g.lane"), function (lane) {
      var marks = Array.prototype.filter.call(lane.querySelectorAll("g.mark"), shown);
      var segs = Array.prototype.filter.call(lane.querySelectorAll("g.seg-g"), shown);
      var bad = [];
      var labels = segs.filter(function (g) {
        var text = g.querySelector("text");
        if (!text.textContent) { return false; }
        var t = text.getBBox(), r = g.querySelector("rect").getBBox();
        if (t.x < r.x - 0.5 || t.x + t.width > r.x + r.width + 0.5) { bad.push(g.getAttribute("data-seg")); }
        return true;
      });
      return {
        name: lane.getAttribute("data-source"), segs: segs.length, labels: labels.length, overflowing: bad,
        marks: marks.map(function (g) { return parseFloat(g.getAttribute("data-t")); }),
        xs: marks.map(function (g) { return g.transform.baseVal.consolidate().matrix.e; })
      };
    });
  }
  var ov = document.querySelector("rect.ov-window");
  out.opened = view();
  out.info = document.querySelector(".timeline-info").textContent;
  out.window_text = document.querySelector(".timeline-window").textContent;
  out.ov = [parseFloat(ov.getAttribute("x")), parseFloat(ov.getAttribute("width"))];
  out.lanes_opened = lanes();
  svg.focus();
  press(svg, "0");
  out.whole = view();
  out.lanes_whole = lanes();
  press(svg, "]");
  out.first = chosen();
  document.querySelector("button[data-zoom='0.5']").click();
  document.querySelector("button[data-zoom='0']").click();
  out.whole_button = view();
  finish(out);
});
</script>
"""

CHARTS = r"""
<script>
window.addEventListener("load", function () {
  var out = {};
  out.links = Array.prototype.map.call(document.querySelectorAll("figure.chart"), function (figure) {
    var a = figure.querySelector("a.chart-download");
    return a ? { download: a.getAttribute("download"), href: a.getAttribute("href"), text: a.textContent,
                 screen_only: a.classList.contains("screen-only") } : null;
  });
  var table = document.querySelector("table.sortable");
  var ths = Array.prototype.slice.call(document.querySelectorAll("table.sortable th[data-sort]"));
  out.headers = ths.length;
  out.headers_tabbable = ths.filter(function (th) { return th.tabIndex === 0; }).length;
  var th = table.querySelector("th[data-sort]"), index = parseInt(th.getAttribute("data-sort"), 10);
  function column() {
    return Array.prototype.map.call(table.tBodies[0].rows, function (row) { return row.cells[index].textContent.trim(); });
  }
  out.before = column();
  th.focus();
  out.enter_prevented = press(th, "Enter");
  out.enter = { sort: th.getAttribute("aria-sort"), column: column() };
  press(th, " ");
  out.space = { sort: th.getAttribute("aria-sort"), column: column() };
  finish(out);
});
</script>
"""


def probe(page: Path, profile: Path, script: str, *, fragment: str = "", size: str = "1280,1600") -> dict:
    copy = page.with_name(page.stem + "-keys.html")
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", COMMON + script + "</body>"), encoding="utf-8")
    done = run_chromium(profile, copy.as_uri() + fragment, "--dump-dom", f"--window-size={size}")
    copy.unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    assert "probe-done" in done.stderr, done.stderr[-3000:]
    assert console_errors(done.stderr) == [], page.name
    found = re.search(r'data-probe="([^"]*)"', done.stdout)
    assert found, done.stdout[-2000:]
    return json.loads(unescape(found.group(1)))


CHANNELS = {"small": "France 3", "other": "arte", "third": "BFM"}


def small_show():
    """Three 5-minute shows, one per channel (a breakdown table to sort), each with the reference
    0-60, 60-150, 150-300 and one system's 0-100, 100-300."""
    refs, hyps = {}, {}
    for show in CHANNELS:
        refs[show], hyps[show] = Annotation(uri=show), Annotation(uri=show)
        for a, b, title in ((0, 60, "Opening"), (60, 150, "Budget vote"), (150, 300, "Weather")):
            refs[show][Segment(a, b)] = title
        for a, b, title in ((0, 100, "Headlines"), (100, 300, "Weather and sport")):
            hyps[show][Segment(a, b)] = title
    metadata = pd.DataFrame({"channel": CHANNELS}).rename_axis("show")
    return tvseg.evaluate(refs, {"system": hyps}, metadata=metadata)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    root = tmp_path_factory.mktemp("keys")
    index = write_report(small_show(), root / "rep", progress=False, jobs=1)
    return root, index


def test_keys_zoom_scroll_and_move_the_selection(small):
    root, index = small
    found = probe(index.parent / "shows" / "small.html", root / "profile-keys", KEYS)
    assert found["tabindex"] == "0" and found["focused"]
    assert found["hint"]["screen_only"] and "[ ]" in found["hint"]["text"] and "Enter" in found["hint"]["text"]
    # 3 reference segments: a short show opens whole
    assert found["start"] == [0, 300]
    # "+": half of 300 about the middle 150 -> 75..225; Right: + 150/4 -> 112.5..262.5
    assert found["plus_prevented"] and found["plus"] == [75, 225]
    assert found["right"] == [112.5, 262.5]
    # Shift+Left: - 150 -> -37.5..112.5, kept in the show -> 0..150; End: the last 150 s
    assert found["shift_left"] == [0, 150]
    assert found["end"] == [150, 300]
    # "-": 300 s about the middle 225 -> 75..375, kept in the show -> 0..300
    assert found["minus"] == [0, 300]
    assert found["equals"] == [75, 225]
    assert found["zero"] == [0, 300] and found["home"] == [0, 300]
    # the browser keeps its own Ctrl + "+" and the keys the timeline does not use
    assert not found["ctrl_plus_prevented"] and found["ctrl_plus"] == [0, 300]
    assert not found["letter_prevented"]
    # ] ] [ ]: r-1, r-2, r-1, r-2; Down from r-2 (middle 105 s) -> the system's 100-300 (s0-2);
    # Up from s0-2 (middle 200 s) -> r-3 (150-300); Up again: no lane above, r-3 stays;
    # Down from r-3 (middle 225 s) -> s0-2; ] at the lane's last segment: stays; [ -> s0-1
    expected = ["r-1", "r-2", "r-1", "r-2", "s0-2", "r-3", "r-3", "s0-2", "s0-2", "s0-1"]
    assert [s["segs"] for s in found["steps"]] == [[k] for k in expected]
    assert [s["rows"] for s in found["steps"]] == [[k] for k in expected]
    # Enter: the focus goes to the selected segment's row, its folded table opened
    assert found["enter"] == {"row": "s0-1", "open": True}
    assert found["escape"] == {"segs": [], "rows": []}
    assert found["rows"] == 5 and found["rows_tabbable"] == 5
    # two "=" from the whole show: 75..225 then 112.5..187.5; Enter on row r-1 (0-60, left of the
    # window) centres it: (0 + 60 - 75) / 2 = -7.5 -> kept in the show -> 0..75
    assert found["zoomed"] == [112.5, 187.5]
    assert found["row_enter_prevented"] and found["row_enter"] == {"segs": ["r-1"], "rows": ["r-1"]}
    assert found["row_view"] == [0, 75]
    assert found["row_space"] == {"segs": ["s0-2"], "rows": ["s0-2"]}


@pytest.mark.parametrize(
    ("fragment", "key", "window", "folded"),
    [
        # r-2 is 60-150 (90 s): a quarter of it either side -> 37.5..172.5
        ("#r-2", "r-2", [37.5, 172.5], None),
        # s0-1 is 0-100: 25 s either side -> -25..125, kept in the show -> 0..150; its table unfolds
        ("#s0-1", "s0-1", [0, 150], True),
        # no such segment: the page opens as it would without the link
        ("#nothing", None, [0, 300], None),
    ],
)
def test_a_link_to_a_story_selects_it_and_zooms_to_it(small, fragment, key, window, folded):
    root, index = small
    found = probe(
        index.parent / "shows" / "small.html",
        root / f"profile-{fragment[1:]}",
        HASH,
        fragment=fragment,
        size="1280,500",
    )
    assert found["view"] == window
    if key is None:
        assert found["chosen"] == {"segs": [], "rows": []}
        return
    assert found["chosen"] == {"segs": [key], "rows": [key]}
    assert found["open"] is folded
    # the row is scrolled into the 500 px high window, below the timeline
    assert found["scroll"] > 0
    assert 0 <= found["row"][0] and found["row"][1] <= found["height"], found


def test_sortable_headers_sort_from_the_keyboard_and_charts_download_as_svg(small):
    root, index = small
    found = probe(index, root / "profile-charts", CHARTS)
    assert found["headers"] > 0 and found["headers_tabbable"] == found["headers"]
    assert found["enter_prevented"] and found["enter"]["sort"] == "ascending"
    assert found["space"]["sort"] == "descending"
    # the breakdown by channel, sorted by its names (case aside) from the keyboard
    assert sorted(found["before"]) == ["BFM", "France 3", "arte"]
    assert found["enter"]["column"] == ["arte", "BFM", "France 3"]
    assert found["space"]["column"] == ["France 3", "BFM", "arte"]

    page = ET.fromstring(_svgs(index.read_text(encoding="utf-8")))
    charts = page.findall(f"{SVG}svg")
    # the run sweeps gamma (CovN, CovD) and the tolerance (boundary F): three charts
    assert len(charts) == 3 and len(found["links"]) == 3
    names = [link["download"] for link in found["links"]]
    assert names == [
        "covn-against-the-coverage-threshold-gamma.svg",
        "covd-against-the-coverage-threshold-gamma.svg",
        "boundary-f-against-the-tolerance.svg",
    ]
    for chart, link in zip(charts, found["links"]):
        assert link["text"] == "download SVG" and link["screen_only"]
        head = "data:image/svg+xml;charset=utf-8,"
        assert link["href"].startswith(head)
        text = unquote(link["href"][len(head) :])
        assert text.startswith("<svg")
        alone = ET.fromstring(text)
        assert alone.tag == f"{SVG}svg" and alone.get("viewBox") == chart.get("viewBox")
        # the same lines, points for points
        points = [p.get("points") for p in chart.iter(f"{SVG}polyline")]
        assert points and [p.get("points") for p in alone.iter(f"{SVG}polyline")] == points
        # the styles report.css gives by class, written on the elements: .chart .grid { stroke: #e3e7ee },
        # .chart .chart-title { font-size: 13px; font-weight: 600 }
        grid = [e for e in alone.iter() if e.get("class") == "grid"]
        assert grid and all("stroke: rgb(227, 231, 238)" in _style(e) for e in grid)
        title = next(e for e in alone.iter() if e.get("class") == "chart-title")
        assert "font-size: 13px" in _style(title) and "font-weight: 600" in _style(title)


def _svgs(html: str) -> str:
    """The corpus page's chart <svg> elements, in one XML document."""
    return "<all>" + "".join(re.findall(r"<figure class=\"chart\">\s*(<svg.*?</svg>)", html, re.S)) + "</all>"


def _style(element) -> str:
    return (element.get("style") or "").replace(":", ": ").replace(";", "; ")


class Timeline(HTMLParser):
    """The timeline's plot edges (its box's attributes), and each lane's segments (start, end) and marks'
    times, from the data its script draws (``<script id="show-page-data">``)."""

    def __init__(self):
        super().__init__()
        self.box: dict = {}
        self.lanes: list[dict] = []
        self._data = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and "timeline-box" in (a.get("class") or "").split():
            self.box = {k: float(a[f"data-{k}"]) for k in ("left", "right", "start", "end")}
        self._data = tag == "script" and a.get("id") == "show-page-data"

    def handle_endtag(self, tag):
        self._data = False

    def handle_data(self, text):
        if self._data:
            data = json.loads(text)
            self.lanes = [{"segs": list(zip(data["ref"]["a"], data["ref"]["b"])), "marks": []}]
            self.lanes += [
                {"segs": list(zip(s["a"], s["b"])), "marks": s["mh"] + s["fa"] + s["mi"]} for s in data["systems"]
            ]


def long_show(n: int = 600, seed: int = 11):
    """One 3-hour show of ``n`` reference segments and two systems that move, drop and add boundaries."""
    rng = np.random.default_rng(seed)
    lengths = rng.lognormal(2.8, 0.7, n)
    cuts = np.round(np.concatenate([[0.0], np.cumsum(lengths / lengths.sum() * 10800)]), 1)
    cuts[-1] = 10800.0
    ref = Annotation(uri="long_show")
    for i, (a, b) in enumerate(zip(cuts[:-1], cuts[1:])):
        ref[Segment(a, b)] = f"Story {i + 1} of the evening"
    systems = {}
    for level, name in enumerate(("close", "coarse")):
        inner = cuts[1:-1]
        keep = inner[rng.random(inner.size) > 0.2 + 0.3 * level]
        extra = rng.uniform(1, 10799, 40)
        moved = np.concatenate([keep + rng.normal(0, 2 + 6 * level, keep.size), extra])
        bounds = np.concatenate([[0.0], np.unique(np.round(np.clip(moved, 1, 10799), 1)), [10800.0]])
        hyp = Annotation(uri="long_show")
        for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
            hyp[Segment(a, b)] = f"{name} item {i + 1}"
        systems[name] = {"long_show": hyp}
    return tvseg.evaluate({"long_show": ref}, systems)


def test_a_long_show_opens_on_a_window_and_thins_its_marks(tmp_path):
    index = write_report(long_show(), tmp_path / "long", progress=False, jobs=1)
    page = index.parent / "shows" / "long_show.html"
    drawn = Timeline()
    drawn.feed(page.read_text(encoding="utf-8"))
    left, right, end = drawn.box["left"], drawn.box["right"], drawn.box["end"]
    plot = right - left
    assert drawn.box["start"] == 0 and end == 10800
    counts = [len(lane["segs"]) for lane in drawn.lanes]
    assert counts[0] == 600 and max(counts) == 600, counts
    assert sum(len(lane["marks"]) for lane in drawn.lanes) > 600

    found = probe(page, tmp_path / "profile", LONG)
    # 600 segments in the busiest lane: the page opens on the first 40 / 600 of the show, 720 s
    assert found["opened"] == [0, 720]
    assert "600 segments" in found["info"] and "(zoom \u00d715.0)" in found["window_text"]
    # the overview frames that window: from the plot's left edge, 720 / 10800 of its width
    assert found["ov"][0] == pytest.approx(left, abs=0.01)
    assert found["ov"][1] == pytest.approx(plot / 15, abs=0.01)
    # in the window, the reference lane shows exactly the segments that overlap 0..720 s
    ref_in_window = sum(1 for a, b in drawn.lanes[0]["segs"] if a < 720 and b > 0)
    assert found["lanes_opened"][0]["segs"] == ref_in_window
    assert 20 <= ref_in_window <= 80
    for lane in found["lanes_opened"] + found["lanes_whole"]:
        assert lane["overflowing"] == [], lane["name"]
    assert found["whole"] == [0, 10800] and found["whole_button"] == [0, 10800]
    assert found["first"]["segs"] == ["r-1"]
    # the whole show: in each lane, a mark is drawn unless it falls within 3 px of the last one drawn
    for lane, seen in zip(drawn.lanes, found["lanes_whole"]):
        kept, last = [], -np.inf
        for t in sorted(lane["marks"]):
            x = left + t / end * plot
            if x - last >= 3:
                kept.append(t)
                last = x
        assert seen["marks"] == pytest.approx(kept), seen["name"]
        assert len(kept) <= plot / 3 + 1
        if lane["marks"]:
            assert len(kept) < len(lane["marks"])  # some were crowded out
        assert all(b - a >= 3 - 0.02 for a, b in zip(seen["xs"], seen["xs"][1:]))
        # a label needs 14 px inside its box's 4 px margins: only segments 22 px wide or more get one
        wide = sum(1 for a, b in lane["segs"] if (b - a) / end * plot >= 22)
        assert seen["labels"] <= wide
    assert sum(lane["labels"] for lane in found["lanes_whole"]) < 120
