"""The corpus page at scale in headless chromium (issue 26): 2,000 shows, 3 systems, 4 channels.

One corpus is generated and evaluated (``tvseg.evaluate``, metadata with a channel and a programme per
show), and its report written. A probe script, added to a copy of the corpus page, scrolls the shows
table's box and measures where its header is, filters by one channel and pages through every row,
searches an id, sorts worst first, and writes what it found as JSON into ``data-probe`` on
``<body>``, read back from ``--dump-dom``. What it found is checked against the result's per-show
table read here (the channel of every show, the values rounded as the page shows them). The same
pages at 390 px: the page is no wider than the window. Screenshots at 1,280 and 390 px are saved under
``tmp_path`` (``scale-*.png``).
"""

from __future__ import annotations

import json
import re
import warnings
from html import unescape
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pyannote.core import Annotation, Segment
from report_fixture import synthetic_report
from test_report_browser import console_errors, png_colours, run_chromium

import tvseg
from tvseg.report import write_report
from tvseg.undefined_values import UndefinedValueWarning

pytestmark = pytest.mark.browser

N_SHOWS = 2000
CHANNELS = ("ARD", "BBC One", "France 2", "\u0627\u0644\u062c\u0632\u064a\u0631\u0629")  # the last: Al Jazeera, Arabic
SYSTEMS = {"alpha": 2.0, "beta": 6.0, "gamma": 12.0}  # name -> spread (s) of its moved boundaries


def _annotation(bounds, label) -> Annotation:
    a = Annotation()
    for i, (s, e) in enumerate(zip(bounds[:-1], bounds[1:])):
        a[Segment(float(s), float(e))] = label(i)
    return a


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    rng = np.random.default_rng(26)
    reference, hypotheses, rows = {}, {name: {} for name in SYSTEMS}, []
    for k in range(N_SHOWS):
        show = f"show{k:05d}"
        n = int(rng.integers(5, 14))
        bounds = np.concatenate([[0.0], np.cumsum(np.round(rng.uniform(20, 200, n)))])
        reference[show] = _annotation(bounds, lambda i: f"story{i}")
        for name, spread in SYSTEMS.items():
            inner = bounds[1:-1][rng.random(n - 1) > 0.1]
            moved = np.unique(np.clip(np.round(inner + rng.normal(0, spread, inner.size)), 1, bounds[-1] - 1))
            hypotheses[name][show] = _annotation(np.concatenate([[0.0], moved, [bounds[-1]]]), lambda i: f"h{i}")
        rows.append((show, CHANNELS[int(rng.integers(0, len(CHANNELS)))], f"programme {k % 7}"))
    del hypotheses["gamma"]["show00007"]  # gamma gave no output for this show: scored as empty, marked
    metadata = pd.DataFrame(rows, columns=["show", "channel", "programme"]).set_index("show")
    with warnings.catch_warnings():  # shows where a system retrieves no titled story: not what is tested here
        warnings.simplefilter("ignore", UndefinedValueWarning)
        warnings.filterwarnings("ignore", message=".*show00007")
        result = tvseg.evaluate(reference, hypotheses, metadata=metadata)
    root = tmp_path_factory.mktemp("scale")
    index = write_report(result, root / "rep", progress=False, jobs=2)
    return root, index, result, metadata


PROBE = r"""
<script>
window.addEventListener("load", function () {
  var out = {};
  var box = document.querySelector(".show-box"), table = document.getElementById("show-table");
  function ids() { return Array.prototype.map.call(table.tBodies[0].rows, function (r) { return r.cells[0].textContent; }); }
  function column(i) { return Array.prototype.map.call(table.tBodies[0].rows, function (r) { return r.cells[i].textContent; }); }
  out.first_rows = ids().length;
  out.count = document.getElementById("show-count").textContent;
  // scrolled halfway down its box, the header is still at the box's top, the second row below the first
  box.scrollIntoView();
  box.scrollTop = box.scrollHeight / 2;
  var b = box.getBoundingClientRect(), h1 = table.tHead.rows[0].querySelector("th.sys").getBoundingClientRect();
  var h2 = table.tHead.rows[1].cells[0].getBoundingClientRect();
  out.scrolled = box.scrollTop;
  out.header = { box_top: b.top, first_top: h1.top, first_bottom: h1.bottom, second_top: h2.top, box_bottom: b.bottom };
  // the header row a row of the body scrolled under it would cover: the body row at the header's place
  var under = document.elementFromPoint(h2.left + 5, h2.top + h2.height / 2);
  out.header_on_top = under !== null && under.closest("thead") !== null;
  // the channel filter: every page of rows
  var select = document.querySelector("select.show-filter[data-meta='0']");
  out.options = Array.prototype.map.call(select.options, function (o) { return o.textContent; });
  var wanted = Array.prototype.filter.call(select.options, function (o) { return o.textContent === "BBC One"; })[0];
  select.value = wanted.value;
  select.dispatchEvent(new Event("change"));
  var seen = [], channels = [], next = document.querySelector("#show-pager button[data-page='next']"), guard = 0;
  while (guard++ < 100) {
    seen = seen.concat(ids());
    channels = channels.concat(column(1));
    var before = document.querySelector("#show-pager .show-pages").textContent;
    next.click();
    if (document.querySelector("#show-pager .show-pages").textContent === before) { break; }
  }
  out.filtered = { ids: seen, channels: channels, count: document.getElementById("show-count").textContent };
  // a search within the filter
  var search = document.getElementById("show-search");
  search.value = "show001";
  search.dispatchEvent(new Event("input"));
  out.searched = ids();
  search.value = "";
  search.dispatchEvent(new Event("input"));
  select.value = "-1";
  select.dispatchEvent(new Event("change"));
  search.value = "show00007";
  search.dispatchEvent(new Event("input"));
  out.no_output = Array.prototype.map.call(table.tBodies[0].rows[0].cells, function (c) { return c.className; });
  search.value = "";
  search.dispatchEvent(new Event("input"));
  select.value = "-1";
  select.dispatchEvent(new Event("change"));
  // worst first on alpha's CovN, then on beta's "behind best"
  document.querySelector("th[data-col='v0.0']").click();
  out.worst_cov_n = { ids: ids().slice(0, 5), values: column(3).slice(0, 5) };
  document.querySelector("th[data-col='d1']").click();
  var deltaColumn = 3 + (table.tHead.rows[1].cells.length / 3) * 1 + (table.tHead.rows[1].cells.length / 3 - 1);
  out.worst_delta = { ids: ids().slice(0, 5), values: column(deltaColumn).slice(0, 5) };
  // a breakdown row's link filters the table
  var link = document.querySelector("a[data-filter-key='channel']");
  link.click();
  out.link = { value: link.getAttribute("data-filter-value"), channels: column(1), select: select.options[select.selectedIndex].textContent };
  document.body.setAttribute("data-probe", JSON.stringify(out));
  console.log("probe-done");
});
</script>
"""

# headless chromium keeps its window at least 500 px wide: the page is measured in a 390 px frame, and
# tells its wrapper what it found
WIDTH = r"""
<script>
window.addEventListener("load", function () {
  var out = { inner: window.innerWidth, client: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth };
  // the element that sticks out farthest to the right, if any (for the message)
  var worst = null;
  document.querySelectorAll("body *").forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.right > window.innerWidth + 0.5 && (worst === null || r.right > worst[1])) { worst = [e.tagName + "." + e.className, r.right]; }
  });
  out.worst = worst;
  parent.postMessage(JSON.stringify(out), "*");
});
</script>
"""

FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="{src}" style="width:390px;height:844px;border:0"></iframe>
<script>window.addEventListener("message", function (e) {{
  document.body.setAttribute("data-probe", e.data); console.log("probe-done"); }});</script>
</body></html>"""


def _probe(page: Path, script: str, profile: Path, *extra: str) -> dict:
    copy = page.with_name(page.stem + "-probe.html")
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", script + "</body>"), encoding="utf-8")
    done = run_chromium(profile, copy.as_uri(), "--dump-dom", *extra)
    copy.unlink()
    assert done.returncode == 0, done.stderr[-3000:]
    assert "probe-done" in done.stderr, done.stderr[-3000:]
    assert console_errors(done.stderr) == []
    found = re.search(r'data-probe="([^"]*)"', done.stdout)
    assert found, done.stdout[-2000:]
    return json.loads(unescape(found.group(1)))


def _shown(v: float) -> str:
    return f"{100 * v:.1f}"


def test_the_shows_table_at_2000_shows_filters_sorts_and_keeps_its_header(corpus, tmp_path):
    root, index, result, metadata = corpus
    found = _probe(index, PROBE, tmp_path / "profile", "--window-size=1280,1000")
    assert found["first_rows"] == 100 and found["count"] == "rows 1\u2013100 of 2000 shows"

    # scrolled within its box, the header's two rows stay at the box's top, drawn over the body's rows
    header = found["header"]
    assert found["scrolled"] > 1000
    assert abs(header["first_top"] - header["box_top"]) <= 2, header
    assert abs(header["second_top"] - header["first_bottom"]) <= 2, header
    assert found["header_on_top"]

    # the channel filter leaves that channel's shows, every one of them, in show order
    expected = sorted(metadata.index[metadata["channel"] == "BBC One"])
    assert found["options"] == ["all", *sorted(CHANNELS)]
    assert found["filtered"]["ids"] == expected
    assert set(found["filtered"]["channels"]) == {"BBC One"}
    assert found["filtered"]["count"].endswith(f"of {len(expected)} matching (2000 shows)")

    # the search finds ids containing the text (within the channel filter)
    assert found["searched"] == [s for s in expected if "show001" in s]

    # the show gamma gave no output for: its four gamma cells (CovN, CovD, boundary F, title F1) are marked
    assert found["no_output"][-5:] == ["no-output"] * 4 + ["delta"]
    assert "no-output" not in found["no_output"][:-5]

    # worst first on alpha's CovN: the lowest values as the page shows them, ties in show order
    cov_n = result.systems["alpha"].shows["cov_n"]
    shown = sorted(((float(_shown(v)), show) for show, v in cov_n.items()), key=lambda t: (t[0], t[1]))
    assert found["worst_cov_n"]["ids"] == [s for _, s in shown[:5]]
    assert found["worst_cov_n"]["values"] == [f"{v:.1f}" for v, _ in shown[:5]]

    # beta's "behind best" on CovN, largest first: the shown value of the best system on the show minus
    # beta's shown value, in points (the difference of the numbers the page shows)
    shown_values = {name: result.systems[name].shows["cov_n"].map(_shown).astype(float) for name in SYSTEMS}
    best = pd.concat(shown_values, axis=1).max(axis=1)
    behind = (best - shown_values["beta"]).round(1)
    ranked = sorted(behind.items(), key=lambda t: (-t[1], t[0]))
    assert found["worst_delta"]["ids"] == [s for s, _ in ranked[:5]]
    assert found["worst_delta"]["values"] == [f"{v:.1f}" for _, v in ranked[:5]]

    # the breakdown's first channel link filters the table to that channel
    link = found["link"]
    assert link["select"] == link["value"] and set(link["channels"]) == {link["value"]}


@pytest.mark.parametrize("which", ["index", "show"])
def test_the_pages_fit_a_390_px_window(corpus, tmp_path, which):
    root, index, _, _ = corpus
    page = index if which == "index" else sorted((index.parent / "shows").glob("*.html"))[0]
    copy = page.with_name(page.stem + "-width.html")
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", WIDTH + "</body>"), encoding="utf-8")
    frame = page.with_name(page.stem + "-frame.html")
    frame.write_text(FRAME.format(src=copy.name), encoding="utf-8")
    done = run_chromium(tmp_path / "profile", frame.as_uri(), "--dump-dom", "--virtual-time-budget=5000")
    assert "probe-done" in done.stderr, done.stderr[-3000:]
    assert console_errors(done.stderr) == []
    found = json.loads(unescape(re.search(r'data-probe="([^"]*)"', done.stdout).group(1)))
    assert found["inner"] == 390
    # nothing is wider than the window but inside a box of its own that scrolls: the page's width is
    # the window's (less the vertical scroll bar, which chromium draws inside it)
    assert found["scroll"] == found["client"] and found["inner"] - found["client"] <= 20, found
    png = tmp_path / f"scale-{which}-390.png"
    run_chromium(tmp_path / "profile-390", frame.as_uri(), f"--screenshot={png}", "--window-size=500,900")
    png2 = tmp_path / f"scale-{which}-1280.png"
    run_chromium(tmp_path / "profile-1280", page.as_uri(), f"--screenshot={png2}", "--window-size=1280,1000")
    copy.unlink()
    frame.unlink()
    assert png_colours(png) > 10 and png_colours(png2) > 10


HOSTILE = r"""
<script>
window.addEventListener("load", function () {
  var table = document.getElementById("show-table");
  var out = {
    cells: Array.prototype.map.call(table.tBodies[0].rows, function (r) { return r.cells[0].innerHTML; }),
    texts: Array.prototype.map.call(table.tBodies[0].rows, function (r) { return r.cells[0].textContent; }),
    injected: document.querySelectorAll("#show-table img, #show-table script, #show-table [onerror]").length
  };
  document.body.setAttribute("data-probe", JSON.stringify(out));
  console.log("probe-done");
});
</script>
"""


def test_the_shows_table_draws_hostile_ids_as_text(tmp_path):
    # ids with markup, an ampersand and a right-to-left override: drawn as text, the override shown
    # as a visible <U+202E> span (as the server-written pages do), never as markup or raw
    ids = ['<img src=x onerror="alert(1)">', "a&amp;b", "show\u202egpj.exe"]
    index = write_report(
        synthetic_report(3, systems=("s1", "s2"), seed=2, id_of=ids.__getitem__), tmp_path / "rep", progress=False
    )
    found = _probe(index, HOSTILE, tmp_path / "profile")
    assert found["injected"] == 0
    assert found["texts"] == ['<img src=x onerror="alert(1)">', "a&amp;b", "show<U+202E>gpj.exe"]
    assert found["cells"][2].endswith(
        'show<span class="cc" title="invisible character">&lt;U+202E&gt;</span>gpj.exe</a>'
    )
