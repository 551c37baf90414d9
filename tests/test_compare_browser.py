"""The page of ``tvseg compare --html`` in headless chromium (issue 42).

Two runs of one system ("mine") on the demo corpus, each with its report: run 1 is system_a on three shows and
system_b on the four others, run 2 the other way round, so that some shows get worse and others better. The
comparison is ranked by Pk, where lower is better. A probe script, added to a copy of the page and loaded in a
390 px frame, reads what the page shows (the shows listed as worse and better, their links, the colours of the
legend and of the cells, the page's width, its landmarks) and hands it back as JSON. The expected lists are
computed here from the two results' per-show Pk values, read from their JSON files.
"""

from __future__ import annotations

import json
import re
import shutil
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from test_report_browser import console_errors, run_chromium

from tvseg.cli import main
from tvseg.samples import demo_folder as demo_root

pytestmark = pytest.mark.browser

PROBE = r"""
<script>
window.addEventListener("load", function () {
  function rows(id) {
    return Array.prototype.map.call(document.querySelectorAll("#" + id + " tbody tr"), function (tr) {
      var change = tr.cells[3];
      return { show: tr.cells[0].textContent, change: change.textContent,
               colour: getComputedStyle(change).color,
               links: Array.prototype.map.call(tr.cells[4].querySelectorAll("a"), function (a) { return a.href; }) };
    });
  }
  var out = { worse: rows("worse"), better: rows("better"),
              legend_better: getComputedStyle(document.querySelector(".legend-list .better")).color,
              legend_worse: getComputedStyle(document.querySelector(".legend-list .worse")).color,
              mains: document.querySelectorAll("main").length,
              skip: document.querySelector("a.skip").getAttribute("href"),
              headings: Array.prototype.map.call(document.querySelectorAll("h1, h2, h3"), function (h) { return h.tagName; }),
              reports: Array.prototype.map.call(document.querySelectorAll(".runs a"), function (a) { return a.href; }),
              inner: window.innerWidth, client: document.documentElement.clientWidth,
              scroll: document.documentElement.scrollWidth };
  var worst = null;
  document.querySelectorAll("body *").forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (e.closest(".scroll") === null && r.right > window.innerWidth + 0.5 && (worst === null || r.right > worst[1])) {
      worst = [e.tagName + "." + e.className, r.right];
    }
  });
  out.worst = worst;
  // axe-core's rules we can check by hand: a box that scrolls can be reached with the keyboard; every table
  // cell has its headers; everything but the skip link is inside a landmark
  out.unreachable = Array.prototype.filter.call(document.querySelectorAll("body *"), function (e) {
    var s = getComputedStyle(e);
    var scrolls = (/auto|scroll/.test(s.overflowX) && e.scrollWidth > e.clientWidth) ||
                  (/auto|scroll/.test(s.overflowY) && e.scrollHeight > e.clientHeight);
    return scrolls && e.getAttribute("tabindex") !== "0";
  }).map(function (e) { return e.tagName + "." + e.className; });
  out.headerless = Array.prototype.filter.call(document.querySelectorAll("table"), function (t) {
    return t.querySelectorAll("thead th[scope=col]").length !== t.rows[0].cells.length ||
      Array.prototype.some.call(t.tBodies[0].rows, function (r) { return r.cells[0].getAttribute("scope") !== "row"; });
  }).length;
  out.outside = Array.prototype.filter.call(document.body.children, function (e) {
    return !/^(HEADER|MAIN|FOOTER|SCRIPT)$/.test(e.tagName) && !e.classList.contains("skip");
  }).map(function (e) { return e.tagName; });
  parent.postMessage(JSON.stringify(out), "*");
});
</script>
"""

FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="{src}" style="width:390px;height:844px;border:0"></iframe>
<script>window.addEventListener("message", function (e) {{
  document.body.setAttribute("data-probe", e.data); console.log("probe-done"); }});</script>
</body></html>"""


def _swapped_runs(tmp: Path) -> tuple[Path, Path, Path]:
    """Runs 1 and 2 of "mine" with their reports r1/ and r2/; the compare page in cmp/."""
    root = demo_root()
    vtt_a = tmp / "a_vtt"
    assert main(["convert", str(root / "hypotheses" / "system_a.rttm"), str(vtt_a), "--to", "vtt"]) == 0
    names = sorted(p.name for p in (root / "hypotheses" / "system_b").iterdir())
    assert len(names) == 7
    for run, first in (("h1", vtt_a), ("h2", root / "hypotheses" / "system_b")):
        (tmp / run).mkdir()
        second = root / "hypotheses" / "system_b" if first == vtt_a else vtt_a
        for k, name in enumerate(names):
            shutil.copy((first if k < 3 else second) / name, tmp / run / name)
    for run in ("1", "2"):
        hyp = f"mine={tmp / ('h' + run)}"
        args = ["evaluate", "--demo", "--hypothesis", hyp, "--bootstrap", "0", "--html", str(tmp / f"r{run}")]
        assert main([*args, "--json", str(tmp / f"r{run}.json")]) == 0
    # run 2 named by its report's data/scores.json (its report found from it), run 1 by --report
    second = tmp / "r2" / "data" / "scores.json"
    out = tmp / "cmp"
    options = ["--metric", "pk", "--report", f"1={tmp / 'r1'}", "--html", str(out)]
    assert main(["compare", str(tmp / "r1.json"), str(second), *options]) == 0
    return tmp / "r1.json", second, out / "index.html"


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compare-browser")
    old, new, page = _swapped_runs(tmp)
    copy = page.with_name("probe.html")
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    frame = tmp / "frame.html"
    frame.write_text(FRAME.format(src=copy.as_uri()), encoding="utf-8")
    done = run_chromium(tmp / "profile", frame.as_uri(), "--dump-dom", "--window-size=600,900")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "probe-done" in done.stderr, done.stderr[-3000:]
    assert console_errors(done.stderr) == []
    found = re.search(r'data-probe="([^"]*)"', done.stdout)
    assert found, done.stdout[-2000:]
    return tmp, old, new, json.loads(unescape(found.group(1)))


def _pk(path: Path) -> dict:
    return {show: values["pk"] for show, values in json.loads(path.read_text())["systems"]["mine"]["shows"].items()}


def test_the_page_lists_the_shows_that_got_worse_and_better_by_their_pk(compared):
    _, old, new, probe = compared
    a, b = _pk(old), _pk(new)
    # Pk is an error rate: a show whose Pk went up got worse, one whose Pk went down got better; each list
    # from the largest change
    up = sorted((s for s in a if b[s] > a[s]), key=lambda s: -(b[s] - a[s]))
    down = sorted((s for s in a if b[s] < a[s]), key=lambda s: -(a[s] - b[s]))
    assert up and down  # the runs swap systems: both lists hold shows
    assert [r["show"] for r in probe["worse"]] == up
    assert [r["show"] for r in probe["better"]] == down
    for row, show in zip(probe["better"], down):
        assert row["change"].startswith(f"\u2212{100 * (a[show] - b[show]):.1f}") and "better" in row["change"]
    for row, show in zip(probe["worse"], up):
        assert row["change"].startswith(f"+{100 * (b[show] - a[show]):.1f}") and "worse" in row["change"]


def test_each_show_links_to_its_page_in_both_reports(compared):
    tmp, _, _, probe = compared
    for row in probe["worse"] + probe["better"]:
        assert len(row["links"]) == 2
        for link, report in zip(row["links"], ("r1", "r2")):
            target = Path(unquote(urlparse(link).path))
            assert target.is_file() and target.parent == tmp / report / "shows"
            assert f'<span class="show-id">{row["show"]}</span>' in target.read_text(encoding="utf-8")
    reports = [Path(unquote(urlparse(link).path)) for link in probe["reports"]]
    assert reports == [tmp / "r1" / "index.html", tmp / "r2" / "index.html"]


def test_the_colours_follow_the_legend_for_a_metric_where_lower_is_better(compared):
    *_, probe = compared
    assert probe["legend_better"] != probe["legend_worse"]
    assert {r["colour"] for r in probe["better"]} == {probe["legend_better"]}
    assert {r["colour"] for r in probe["worse"]} == {probe["legend_worse"]}


def test_the_page_fits_390_px_and_has_its_landmarks(compared):
    *_, probe = compared
    # the window is 390 px (less its scroll bar, clientWidth): nothing makes the page wider than that; the wide
    # tables scroll inside their own box
    assert probe["inner"] == 390 and probe["scroll"] == probe["client"] <= 390, probe["worst"]
    assert probe["worst"] is None
    assert probe["mains"] == 1 and probe["skip"] == "#worse"
    assert probe["unreachable"] == [] and probe["headerless"] == 0 and probe["outside"] == []
    # one h1, then h2s (no level skipped)
    assert probe["headings"][0] == "H1" and set(probe["headings"][1:]) == {"H2"}
