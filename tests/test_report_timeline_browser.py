"""The show timeline in headless chromium (issue 15): readable on a 3-hour show of 100 segments and on
the demo corpus, zoomable, linked with the segment tables, without console errors.

A probe script, added to a copy of a page, measures in the page itself (``getBBox`` of every drawn
label against its segment's box), zooms with the page's own buttons and Ctrl + wheel, clicks a table
row and a segment, and writes what it found as JSON into ``data-probe`` on ``<body>``, read back from
``--dump-dom``. Screenshots at 1,280 px are saved under ``tmp_path`` (``timeline-*.png``).
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import numpy as np
import pytest
from pyannote.core import Annotation, Segment
from test_report_browser import console_errors, png_colours, run_chromium

import tvseg
from tvseg.report import write_report

pytestmark = pytest.mark.browser

PROBE = r"""
<script>
window.addEventListener("load", function () {
  var out = {};
  var box = document.querySelector(".timeline-box");
  function view() { return [parseFloat(box.getAttribute("data-view-start")), parseFloat(box.getAttribute("data-view-end"))]; }
  function labels() {
    var drawn = 0, bad = [];
    document.querySelectorAll("g.seg-g").forEach(function (g) {
      if (g.style.display === "none") { return; }
      var text = g.querySelector("text"), rect = g.querySelector("rect");
      if (!text.textContent) { return; }
      drawn++;
      var t = text.getBBox(), r = rect.getBBox();
      if (t.x < r.x - 0.5 || t.x + t.width > r.x + r.width + 0.5 || t.y < r.y - 0.5 || t.y + t.height > r.y + r.height + 0.5) {
        bad.push([g.getAttribute("data-seg"), text.textContent, t.x, t.width, r.x, r.width]);
      }
    });
    return { drawn: drawn, overflowing: bad };
  }
  function tickTexts() {
    return Array.prototype.map.call(document.querySelectorAll("svg.timeline g.tick text"), function (t) { return t.textContent; });
  }
  // a long show opens on a window (tests/test_report_keyboard_browser.py); this probe starts from the whole show
  out.opened = view();
  document.querySelector("button[data-zoom='0']").click();
  out.ticks_whole = tickTexts();
  out.window_whole = document.querySelector(".timeline-window").textContent;
  out.tools = !document.querySelector(".timeline-tools").hidden;
  out.segments = document.querySelectorAll("g.seg-g").length;
  out.titles = Array.prototype.every.call(document.querySelectorAll("g.seg-g"), function (g) {
    return g.querySelector("title") && g.querySelector("title").textContent.length > 0; });
  out.whole = view();
  out.labels_whole = labels();
  document.querySelector("button[data-zoom='0.5']").click();
  document.querySelector("button[data-zoom='0.5']").click();
  out.zoomed = view();
  out.ticks_zoomed = tickTexts();
  out.window_zoomed = document.querySelector(".timeline-window").textContent;
  out.window_width = parseFloat(document.querySelector("rect.ov-window").getAttribute("width"));
  out.labels_zoomed = labels();
  document.querySelector("button[data-pan='0.5']").click();
  out.panned = view();
  var svg = document.querySelector("svg.timeline"), r = svg.getBoundingClientRect();
  svg.dispatchEvent(new WheelEvent("wheel", { deltaY: -100, ctrlKey: true, clientX: r.left + r.width * 0.6,
                                               clientY: r.top + 30, bubbles: true, cancelable: true }));
  out.wheeled = view();
  // a row of the reference table, far from the visible window: its segment is selected and shown
  var rows = document.querySelectorAll("table.segments tr[data-seg^='r-']");
  var row = rows[rows.length - 2];
  row.click();
  var key = row.getAttribute("data-seg"), seg = document.querySelector("g.seg-g[data-seg='" + key + "']");
  var v = view();
  out.row_click = { key: key, highlighted: seg.classList.contains("hl"), row: row.classList.contains("hl"),
                    a: parseFloat(seg.getAttribute("data-a")), b: parseFloat(seg.getAttribute("data-b")), view: v };
  // a segment of the first system: its row is highlighted (and its folded table opened)
  var other = document.querySelector("g.seg-g[data-seg^='s0-']:not([style*='none'])");
  other.querySelector("rect").dispatchEvent(new MouseEvent("click", { bubbles: true }));
  var otherRow = document.querySelector("tr[data-seg='" + other.getAttribute("data-seg") + "']");
  out.seg_click = { key: other.getAttribute("data-seg"), row: otherRow.classList.contains("hl"),
                    open: otherRow.closest("details").open,
                    info: document.querySelector(".timeline-info").textContent };
  out.labels_end = labels();
  // printing unfolds the folded tables, and folds them back afterwards
  function closed() { return document.querySelectorAll("details:not([open])").length; }
  out.print = { before: closed() };
  window.dispatchEvent(new Event("beforeprint"));
  out.print.printing = closed();
  window.dispatchEvent(new Event("afterprint"));
  out.print.after = closed();
  document.body.setAttribute("data-probe", JSON.stringify(out));
  console.log("probe-done");
});
</script>
"""

# for the screenshots: zoomed in twice on the middle of the show, one reference segment selected
SHOT = r"""
<style>header.page, #scores, .score-groups, main > p.note, ul.legend { display: none; }</style>
<script>
window.addEventListener("load", function () {
  document.querySelector("button[data-zoom='0.5']").click();
  document.querySelector("button[data-zoom='0.5']").click();
  var rows = document.querySelectorAll("table.segments tr[data-seg^='r-']");
  rows[Math.floor(rows.length / 2)].click();
});
</script>
"""

WORDS = (
    "Pension reform",
    "Flooding in the valley",
    "Farmers' protest",
    "Bird flu",
    "Weather",
    "Football results",
    "Strike notice",
    "Museum reopens",
    "Election debate",
    "Energy prices",
    "Hospital queues",
    "Ski resorts",
)


def three_hour_show(seed: int = 7):
    """One 3-hour show of 100 reference segments (a few long stories, many short briefs) and two systems."""
    rng = np.random.default_rng(seed)
    lengths = rng.lognormal(4.2, 0.9, 100)
    cuts = np.round(np.concatenate([[0.0], np.cumsum(lengths / lengths.sum() * 10800)]), 1)
    cuts[-1] = 10800.0
    ref = Annotation(uri="long_show")
    for i, (a, b) in enumerate(zip(cuts[:-1], cuts[1:])):
        ref[Segment(a, b)] = f"{WORDS[i % len(WORDS)]}: story {i + 1} of the evening"
    systems = {}
    for level, name in enumerate(("close", "coarse")):
        inner = cuts[1:-1]
        keep = inner[rng.random(inner.size) > 0.2 + 0.3 * level]
        bounds = np.unique(np.round(np.clip(keep + rng.normal(0, 3 + 8 * level, keep.size), 1, 10799), 1))
        bounds = np.concatenate([[0.0], bounds, [10800.0]])
        hyp = Annotation(uri="long_show")
        for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
            hyp[Segment(a, b)] = f"{WORDS[(i + level) % len(WORDS)]} ({name} {i + 1})"
        systems[name] = {"long_show": hyp}
    return tvseg.evaluate({"long_show": ref}, systems)


def probe(page: Path, profile: Path) -> dict:
    copy = page.with_name(page.stem + "-probe.html")
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    done = run_chromium(profile, copy.as_uri(), "--dump-dom", "--window-size=1280,1600")
    copy.unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    assert "probe-done" in done.stderr, done.stderr[-3000:]
    assert console_errors(done.stderr) == [], page.name
    found = re.search(r'data-probe="([^"]*)"', done.stdout)
    assert found, done.stdout[-2000:]
    return json.loads(unescape(found.group(1)))


def screenshot(page: Path, png: Path, profile: Path) -> Path:
    copy = page.with_name(page.stem + "-shot.html")
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", SHOT + "</body>"), encoding="utf-8")
    done = run_chromium(profile, copy.as_uri(), f"--screenshot={png}", "--window-size=1280,1100", "--hide-scrollbars")
    copy.unlink()
    assert png.is_file(), done.stderr[-2000:]
    assert console_errors(done.stderr) == []
    assert png_colours(png) > 10
    return png


def check(found: dict, n_segments: int) -> None:
    assert found["tools"] and found["titles"]
    assert found["segments"] == n_segments
    for key in ("labels_whole", "labels_zoomed", "labels_end"):
        assert found[key]["overflowing"] == [], (key, found[key]["overflowing"][:5])
    whole, zoomed = found["whole"], found["zoomed"]
    # two clicks on "zoom in" show a quarter of the show, around its middle
    assert zoomed[1] - zoomed[0] == pytest.approx((whole[1] - whole[0]) / 4, rel=1e-3)
    assert found["panned"][0] > zoomed[0] and found["panned"][1] - found["panned"][0] == pytest.approx(
        zoomed[1] - zoomed[0], rel=1e-3
    )
    assert found["wheeled"][1] - found["wheeled"][0] < found["panned"][1] - found["panned"][0]
    row = found["row_click"]
    assert row["highlighted"] and row["row"]
    assert row["view"][0] <= row["a"] + 1e-3 and row["b"] <= row["view"][1] + 1e-3, row
    seg = found["seg_click"]
    assert seg["row"] and seg["open"] and seg["info"].startswith("#")
    assert found["print"]["printing"] == 0 and found["print"]["after"] == found["print"]["before"], found["print"]
    # times as mm:ss below an hour, h:mm:ss from an hour on (never 75:00), drawn by Python and by the script
    clock = re.compile(r"-?(?:[0-5]\d:[0-5]\d|\d+:[0-5]\d:[0-5]\d)")
    for texts in (found["ticks_whole"], found["ticks_zoomed"]):
        assert texts and all(clock.fullmatch(t) for t in texts), texts
    for text in (found["window_whole"], found["window_zoomed"]):
        assert all(clock.fullmatch(t) for t in re.findall(r"[\d:]+:\d\d", text)), text


def test_a_three_hour_show_of_100_segments_reads_and_zooms(tmp_path):
    result = three_hour_show()
    index = write_report(result, tmp_path / "long", progress=False, jobs=1)
    page = index.parent / "shows" / "long_show.html"
    found = probe(page, tmp_path / "profile")
    check(found, found["segments"])
    assert found["segments"] > 100 + 2 * 40  # the reference and both systems' segments
    assert found["whole"] == [0.0, 10800.0]
    # 100 reference segments, more than 60: the page opens on 40 / 100 of the show
    assert found["opened"] == [0.0, 4320.0]
    # the axis of a 3-hour show: 0:00 to 3:00:00 (h:mm:ss from an hour on), one folded table unfolded for print
    assert found["ticks_whole"][0] == "00:00" and found["ticks_whole"][-1] == "3:00:00", found["ticks_whole"]
    assert "of 00:00\u20133:00:00" in found["window_whole"], found["window_whole"]
    assert found["print"]["before"] >= 1
    assert found["window_width"] < 1030 / 3
    # at the whole show many segments are too narrow for a label; zoomed in, more of them get one
    assert found["labels_zoomed"]["drawn"] > 0
    screenshot(page, tmp_path / "timeline-3h.png", tmp_path / "profile-shot")


def test_the_demo_timelines_read_and_zoom(tmp_path):
    from tvseg.cli import main

    out = tmp_path / "demo"
    assert main(["evaluate", "--demo", "--html", str(out)]) == 0
    pages = sorted((out / "shows").glob("*.html"))
    assert len(pages) == 7
    for page in pages[:3] + [out / "shows" / "fr2_journal20h_2024-03-11.html"]:
        found = probe(page, tmp_path / f"profile-{page.stem}")
        check(found, found["segments"])
        assert found["labels_whole"]["drawn"] > 0
    screenshot(
        out / "shows" / "fr2_journal20h_2024-03-11.html", tmp_path / "timeline-demo.png", tmp_path / "profile-shot"
    )


DRAWN = r"""
<script>
window.addEventListener("load", function () {
  var svg = document.querySelector("svg.timeline"), out = { lanes: [], overview: [] };
  Array.prototype.forEach.call(svg.querySelectorAll("g.lane"), function (lane) {
    var got = { source: lane.getAttribute("data-source"), segs: [], marks: [] };
    Array.prototype.forEach.call(lane.querySelectorAll("g.lane-body > g.seg-g"), function (g) {
      var text = g.querySelector("text.seg-label");
      got.segs.push({ key: g.getAttribute("data-seg"), a: +g.getAttribute("data-a"), b: +g.getAttribute("data-b"),
                      cls: g.querySelector("rect").getAttribute("class"), label: text.getAttribute("data-label"),
                      direction: text.getAttribute("direction"), anchor: text.getAttribute("text-anchor"),
                      title: g.querySelector("title").textContent });
    });
    Array.prototype.forEach.call(lane.querySelectorAll("g.lane-body > g.mark"), function (g) {
      got.marks.push({ t: +g.getAttribute("data-t"), cls: g.getAttribute("class"),
                       shape: g.querySelector(".mark-matched, .mark-false, .mark-missed").getAttribute("class"),
                       title: g.querySelector("title").textContent });
    });
    out.lanes.push(got);
  });
  Array.prototype.forEach.call(svg.querySelectorAll("g.overview rect.ov-seg"), function (r) {
    out.overview.push([r.getAttribute("class"), +r.getAttribute("x"), +r.getAttribute("width")]);
  });
  document.body.setAttribute("data-probe", JSON.stringify(out));
  console.log("probe-done");
});
</script>
"""


def test_the_script_draws_each_segment_and_mark_from_the_pages_data(tmp_path):
    from tvseg.report.model import BoundaryPair, MatchRow, Report, Show, SystemShow, SystemSummary
    from tvseg.report.model import Segment as Seg

    hebrew = "\u05d7\u05d3\u05e9\u05d5\u05ea"
    # a reference of three stories (the second untitled), one system of two segments: times on quarters of a
    # second, where Python's rounding (half to even, which the tables use) and JavaScript's (half up) differ
    reference = (Seg(0.0, 12.25, hebrew), Seg(12.25, 40.75, "<NA>"), Seg(40.75, 100.0, "Sport_news"))
    matches = (
        MatchRow(0.0, 12.25, hebrew, 0.0, 13.0, "x", 0.9, 0.8, 0.8125, False, None, "shifted"),
        MatchRow(12.25, 40.75, "<NA>", None, None, None, None, None, float("nan"), False, None, "missed"),
        MatchRow(40.75, 100.0, "Sport_news", 13.0, 100.0, "Sport", 1.0, 0.68, 0.81, False, None, "merged"),
    )
    system = SystemShow(
        name="sys",
        metrics={},
        segments=(Seg(0.0, 13.0, "x", True), Seg(13.0, 100.0, None, False)),
        matched=(BoundaryPair(12.25, 13.0),),
        missed=(40.75,),
        false_alarms=(),
        matches=matches,
    )
    show = Show(show_id="s1", start=0.0, end=100.0, reference=reference, systems=(system,))
    report = Report(
        signature="sig",
        version="0",
        date="2026-01-01",
        systems=(SystemSummary(name="sys", corpus={}),),
        shows=(show,),
        scores={},
        settings={"tolerance": 10.0},
    )
    index = write_report(report, tmp_path / "rep", progress=False, jobs=1)
    page = index.parent / "shows" / "s1.html"
    copy = page.with_name("s1-probe.html")
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", DRAWN + "</body>"), encoding="utf-8")
    done = run_chromium(tmp_path / "profile", copy.as_uri(), "--dump-dom", "--window-size=1280,1600")
    assert console_errors(done.stderr) == []
    found = json.loads(unescape(re.search(r'data-probe="([^"]*)"', done.stdout).group(1)))
    ref, sys_lane = found["lanes"]
    assert [ref["source"], sys_lane["source"]] == ["reference", "sys"]
    # each tooltip written out by hand: 12.25 s is 00:12.2 and 40.75 s 00:40.8 (half to even, as the tables),
    # a duration of 59.25 s is 59.2 s, a coverage of 0.8125 is 81.2 %; NaN coverage and no partner say so;
    # each story named by its class in the match table (shifted, missed, merged), not "missed" for every one
    # the system did not retrieve
    assert [s["title"] for s in ref["segs"]] == [
        f"#1 reference: {hebrew}\n00:00.0\u201300:12.2, 12.2 s\nsys: shifted (best 00:00.0\u201300:13.0, R\u2194H 81.2%)",
        "#2 reference\n00:12.2\u201300:40.8, 28.5 s\nsys: missed (no overlapping segment)",
        "#3 reference: Sport news\n00:40.8\u201301:40.0, 59.2 s\nsys: merged (best 00:13.0\u201301:40.0, R\u2194H 81.0%)",
    ]
    assert [(s["key"], s["a"], s["b"], s["cls"]) for s in ref["segs"]] == [
        ("r-1", 0, 12.25, "seg ref"),
        ("r-2", 12.25, 40.75, "seg ref"),
        ("r-3", 40.75, 100, "seg ref"),
    ]
    # the Hebrew label right to left (anchored at its end), the others not; none for the untitled story
    assert [(s["label"], s["direction"], s["anchor"]) for s in ref["segs"]] == [
        (hebrew, "rtl", "end"),
        ("", None, None),
        ("Sport news", None, None),
    ]
    assert [(s["key"], s["cls"], s["label"]) for s in sys_lane["segs"]] == [
        ("s0-1", "seg ok", "x"),
        ("s0-2", "seg bad", ""),
    ]
    assert [s["title"] for s in sys_lane["segs"]] == [
        "#1 sys: x\n00:00.0\u201300:13.0, 13.0 s (correct)",
        "#2 sys\n00:13.0\u201301:40.0, 87.0 s (wrong)",
    ]
    # the marks in time order, each with its lane's shape and its tooltip
    assert sys_lane["marks"] == [
        {
            "t": 13,
            "cls": "mark matched",
            "shape": "mark-matched",
            "title": "sys: boundary at 00:13.0 matches the reference boundary at 00:12.2 (within 10 s)",
        },
        {
            "t": 40.75,
            "cls": "mark missed",
            "shape": "mark-missed",
            "title": "sys: missed the reference boundary at 00:40.8",
        },
    ]
    assert ref["marks"] == []
    # the overview: the reference segments to scale over the plot (x from 150 to 1180, 10.3 units a second),
    # to 0.01: 12.25 s at 150 + 126.175 (computed 276.17500000000001, so 276.18), 40.75 s at 150 + 419.725
    # (computed 569.72499999999991, so 569.72); the widths are the differences of the rounded ends
    assert found["overview"] == [
        ["ov-seg ov-0", 150, 126.18],
        ["ov-seg ov-1", 276.18, 293.54],
        ["ov-seg ov-0", 569.72, 610.28],
    ]
