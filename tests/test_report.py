"""The HTML report: escaping of untrusted text, path safety, atomic replacement, the data folder,
and the report of ``tvseg evaluate --demo --html DIR``.

Expected values come from the inputs: the hostile strings we inject, the show ids we pass, the
files of ``data_samples/`` counted here, and the evaluation result the report is built from.
"""

from __future__ import annotations

import errno
import json
import math
import os
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from chromium import drawn
from report_fixture import synthetic_report

from tvseg.errors import UsageError
from tvseg.report import datafiles, render, write_report
from tvseg.report.model import MatchRow, Report, Segment, Show, SystemShow, SystemSummary
from tvseg.report.pages import ShowPage, SystemPage

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tvseg" / "data_samples"
SORT_JS = (ROOT / "tvseg" / "templates" / "sort.js").read_text(encoding="utf-8")
SHOWS_JS = (ROOT / "tvseg" / "templates" / "shows.js").read_text(encoding="utf-8")
CHARTS_JS = (ROOT / "tvseg" / "templates" / "charts.js").read_text(encoding="utf-8")
TIMELINE_JS = (ROOT / "tvseg" / "templates" / "timeline.js").read_text(encoding="utf-8")

HOSTILE_TITLES = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    "Tom & Jerry's 'quoted' \"title\"",
    "</title></text></svg><blink>bold</blink>",
    "{{ 7 * 7 }} {% if true %}jinja{% endif %}",
]
HOSTILE_IDS = [
    "../../x",
    "a b",
    "a/b",  # reduces to the same text as "a b"
    "CON",
    "émission été",
    "<script>alert(3)</script>",
    "A_b",
    "a_b",  # same as "A_b" ignoring case
    ".hidden",
    "..",
]


class Elements(HTMLParser):
    """Every start tag (with its attributes) and the text of a page, as a browser's parser sees them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        self._in_script = tag == "script"

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts.append(data)
        else:
            self.text.append(data)


def shows_table_links(index: Path) -> set[str]:
    """The links of the corpus page's table of shows: its script draws ``shows/<file>.html`` from its data."""
    data = json.loads(parse(index).scripts[0])
    return {f"shows/{name}.html" for name in data["files"]}


def parse(path: Path) -> Elements:
    return parse_text(path.read_text(encoding="utf-8"))


def parse_text(text: str) -> Elements:
    p = Elements()
    p.feed(text)
    p.close()
    return p


def all_files(root: Path) -> list[Path]:
    return [Path(d) / f for d, _, files in os.walk(root) for f in files]


def hostile_report(n=None):
    return synthetic_report(
        len(HOSTILE_IDS) if n is None else n,
        systems=("sys<script>", "b&b"),
        seed=1,
        title_of=lambda k, i: HOSTILE_TITLES[(k + i) % len(HOSTILE_TITLES)],
        id_of=lambda k: HOSTILE_IDS[k],
    )


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    outer = tmp_path_factory.mktemp("outer")
    report = hostile_report()
    index = write_report(report, outer / "rep", progress=False)
    return outer, outer / "rep", index, report


def test_hostile_ids_stay_inside_the_report_folder(hostile):
    outer, rep, index, _ = hostile
    assert index == rep / "index.html"
    # nothing was written beside the report folder (no "x", no temp folder), nothing above it
    assert sorted(p.name for p in outer.iterdir()) == ["rep"]
    assert not (outer.parent / "x").exists() and not (outer.parent / "x.html").exists()
    files = all_files(rep)
    resolved = rep.resolve()
    for f in files:
        assert resolved in f.resolve().parents, f
        assert not f.is_symlink()
    pages = sorted((rep / "shows").iterdir())
    # one page per show id, all distinct (ids that reduce to the same text included),
    # distinct ignoring case too (case-insensitive file systems)
    assert len(pages) == len(HOSTILE_IDS) == len({p.name.casefold() for p in pages})
    for p in pages:
        stem = p.stem
        assert not stem.startswith(".") and stem.upper() != "CON"
        assert set(stem) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    # index, scores.json, matches.csv, the two assets, the pages
    assert len(files) == 1 + 1 + 1 + 2 + len(HOSTILE_IDS)
    # the single CSV holds every show id exactly (the ids are data there, not file names)
    table = pd.read_csv(rep / "data" / "matches.csv", keep_default_na=False, dtype={"show": str})
    assert set(table["show"]) == {datafiles.spreadsheet_safe(i) for i in HOSTILE_IDS}


@pytest.mark.browser
def test_hostile_text_is_shown_as_text_never_as_markup(hostile, tmp_path):
    _, rep, _, report = hostile
    pages = [rep / "index.html"] + sorted((rep / "shows").iterdir())
    seen = ""
    for page in pages:
        p = parse(page)
        # a show page as its script draws it (its tables and timeline come from its data)
        shown = p if page.name == "index.html" else parse_text(drawn(page, tmp_path / "profile"))
        names = [t for t, _ in shown.tags]
        # no element that only the injected text could have created
        assert "img" not in names and "blink" not in names, page
        for tag, attrs in shown.tags:
            assert not any(a.startswith("on") for a, _ in attrs), (page, tag, attrs)
            for a, v in attrs:
                if a in ("href", "src", "xlink:href") and v:
                    assert not v.strip().lower().startswith("javascript:"), (page, v)
        # the only scripts are our own: the table sorter on the corpus page, the timeline on a show's
        # (the report's asset, equal to the package's); the only style sheet is the report's asset
        sources = [dict(attrs).get("src") for tag, attrs in p.tags if tag == "script"]
        sheets = [dict(attrs).get("href") for tag, attrs in p.tags if tag == "link" and ("rel", "stylesheet") in attrs]
        if page.name == "index.html":
            # the shows table's data (JSON, the hostile texts kept exactly: the page's script escapes
            # them when it draws a row, tests/test_report_scale_browser.py) and our two scripts
            types = [dict(attrs).get("type") for tag, attrs in p.tags if tag == "script"]
            assert types == ["application/json", None] and sources == [None, None]
            assert json.loads(p.scripts[0])["ids"] == [s.show_id for s in report.shows]
            code = p.scripts[1]
            ours = (SORT_JS, CHARTS_JS, SHOWS_JS)
            assert all(js.strip() in code for js in ours) and len(code) <= len("".join(ours)) + 6
            assert sheets == ["assets/report.css"]
        else:
            # the timeline's data (JSON: JSON.parse reads it, the script sets it as text) and our script
            types = [dict(attrs).get("type") for tag, attrs in p.tags if tag == "script"]
            assert types == ["application/json", None] and sources == [None, "../assets/timeline.js"], page
            assert len(p.scripts) == 1 and p.scripts[0].startswith("{") and "<" not in p.scripts[0]
            # the titles exactly (control characters as JSON escapes: tvseg.report.svg.script_json)
            assert set(json.loads(p.scripts[0])["titles"]) & set(HOSTILE_TITLES), page
            assert sheets == ["../assets/report.css"]
        assert "style" not in [tag for tag, _ in shown.tags]
        seen += "".join(shown.text)
    # the hostile strings are there, as text (jinja syntax in a title is not evaluated either)
    for title in HOSTILE_TITLES:
        assert title in seen, title
    for show_id in HOSTILE_IDS:
        assert show_id in seen, show_id
    assert "sys<script>" in seen and "b&b" in seen


def test_the_assets_are_the_packages_style_sheet_and_timeline_script(hostile):
    # written once into assets/ and linked from every page, not repeated in each show page
    _, rep, _, _ = hostile
    css = (ROOT / "tvseg" / "templates" / "report.css").read_text(encoding="utf-8")
    assert (rep / "assets" / "timeline.js").read_text(encoding="utf-8") == TIMELINE_JS
    assert (rep / "assets" / "report.css").read_text(encoding="utf-8") == css
    for page in [rep / "index.html", *sorted((rep / "shows").iterdir())]:
        assert css.strip().splitlines()[0] not in page.read_text(encoding="utf-8")


def test_links_point_to_the_written_pages(hostile):
    _, rep, _, _ = hostile
    links = shows_table_links(rep / "index.html")
    written = {f"shows/{f.name}" for f in (rep / "shows").iterdir()}
    assert written == links
    # every link and asset of every page, the corpus page's too, reaches a file or folder of the report
    checked = 0
    for page in [rep / "index.html", *(rep / "shows").iterdir()]:
        q = parse(page)
        for _tag, attrs in q.tags:
            for a, v in attrs:
                if a in ("href", "src") and v and not v.startswith(("#", "http:", "https:", "data:", "mailto:")):
                    target = (page.parent / v.split("#")[0]).resolve()
                    assert target.exists() and target.is_relative_to(rep.resolve()), (page.name, v)
                    checked += 1
    assert checked > 2 * len(written)


def test_failed_render_leaves_the_existing_report_untouched(tmp_path, monkeypatch):
    target = tmp_path / "rep"
    write_report(synthetic_report(3), target, progress=False)
    before = {f.relative_to(target): f.read_bytes() for f in all_files(target)}

    calls = []

    def boom(report, index, *args, **kwargs):
        calls.append(index)
        if len(calls) == 2:
            raise RuntimeError("disk on fire")
        return "<p>partial</p>"

    monkeypatch.setattr(render, "render_show", boom)
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_report(synthetic_report(5, seed=7), target, progress=False)
    assert calls == [0, 1]
    after = {f.relative_to(target): f.read_bytes() for f in all_files(target)}
    assert after == before
    # no temporary or old folder left beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


def test_a_complete_new_report_replaces_the_old_one(tmp_path):
    target = tmp_path / "rep"
    write_report(synthetic_report(5), target, progress=False)
    write_report(synthetic_report(2, id_of=lambda k: f"other-{k}"), target, progress=False)
    assert sorted(f.name for f in (target / "shows").iterdir()) == ["other-0.html", "other-1.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


def test_a_folder_that_is_not_a_report_is_refused(tmp_path):
    target = tmp_path / "home"
    target.mkdir()
    (target / "notes.txt").write_text("precious")
    with pytest.raises(UsageError, match="not.*tvseg report"):
        write_report(synthetic_report(2), target, progress=False)
    assert [p.name for p in target.iterdir()] == ["notes.txt"]
    assert (target / "notes.txt").read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]
    plain = tmp_path / "file"
    plain.write_text("x")
    with pytest.raises(UsageError):
        write_report(synthetic_report(2), plain, progress=False)
    assert plain.read_text() == "x"


# --- the demo: through the command line, from data_samples/ ------------------------------------

needs_samples = pytest.mark.skipif(
    not (SAMPLES / "reference" / "chapters").is_dir(), reason="data_samples/ not present"
)


def _demo_inputs():
    from tvseg.readers import read_metadata, read_segments, read_uem, read_units

    uem = read_uem(str(SAMPLES / "corpus.uem"))
    reference = read_segments(str(SAMPLES / "reference" / "chapters"), uem=uem)
    hypotheses = {
        "system_a": read_segments(str(SAMPLES / "hypotheses" / "system_a.rttm"), uem=uem),
        "system_b": read_segments(str(SAMPLES / "hypotheses" / "system_b"), uem=uem),
    }
    return dict(
        reference=reference,
        hypotheses=hypotheses,
        uem=uem,
        units=read_units(str(SAMPLES / "units" / "breath_groups.csv")),
        metadata=read_metadata(str(SAMPLES / "metadata.csv")),
    )


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from tvseg.cli import main

    out = tmp_path_factory.mktemp("demo") / "report"
    assert main(["evaluate", "--demo", "--html", str(out)]) == 0
    return out


@needs_samples
def test_demo_report_has_one_page_per_show(demo):
    shows = sorted(f.stem for f in (SAMPLES / "reference" / "chapters").iterdir() if f.suffix == ".vtt")
    assert len(shows) == 7
    # the demo's show ids are safe names already, so they keep their names
    assert sorted(f.stem for f in (demo / "shows").glob("*.html")) == shows
    table = pd.read_csv(demo / "data" / "matches.csv")
    assert sorted(table["show"].unique()) == shows
    assert shows_table_links(demo / "index.html") == {f"shows/{s}.html" for s in shows}


@needs_samples
def test_demo_timeline_has_one_lane_per_source(demo):
    for page in (demo / "shows").glob("*.html"):
        p = parse(page)
        lanes = [dict(attrs) for t, attrs in p.tags if t == "g" and "lane" in dict(attrs).get("class", "").split()]
        assert [lane["data-source"] for lane in lanes] == ["reference", "system_a", "system_b"], page.name


@needs_samples
@pytest.mark.browser
def test_demo_pages_show_titles_units_titling_and_groups(demo, tmp_path):
    import webvtt

    text = "".join(parse(demo / "index.html").text)
    for heading in ("Unit-domain metrics", "Titling", "By channel", "By programme", "Pairwise significance"):
        assert heading in text, heading
    for channel in pd.read_csv(SAMPLES / "metadata.csv")["channel"].unique():
        assert channel in text
    page = demo / "shows" / "fr2_journal20h_2024-03-11.html"
    shown = "".join(parse_text(drawn(page, tmp_path / "profile")).text)
    for caption in webvtt.read(str(SAMPLES / "reference" / "chapters" / "fr2_journal20h_2024-03-11.vtt")):
        assert caption.text.strip() in shown


@needs_samples
def test_demo_data_folder_is_the_evaluation(demo):
    from tvseg.evaluation import evaluate
    from tvseg.settings import Settings

    inputs = _demo_inputs()
    result = evaluate(
        inputs.pop("reference"), inputs.pop("hypotheses"), settings=Settings(uem=True, units="file"), **inputs
    )
    loaded = json.loads((demo / "data" / "scores.json").read_text(encoding="utf-8"))
    # the run id of `tvseg evaluate`, shown in the footers too; the rest is the evaluation's JSON
    run_id = loaded.pop("run_id")
    assert f'<code class="run">{run_id}</code>' in (demo / "index.html").read_text(encoding="utf-8")

    def nan_to_null(v):
        if isinstance(v, dict):
            return {k: nan_to_null(x) for k, x in v.items()}
        if isinstance(v, list):
            return [nan_to_null(x) for x in v]
        return None if isinstance(v, float) and math.isnan(v) else v

    assert loaded == nan_to_null(result.to_json())
    assert loaded["signature"] == result.settings.signature()
    # the signature is on the corpus page
    assert result.settings.signature() in "".join(parse(demo / "index.html").text)

    matches = pd.read_csv(demo / "data" / "matches.csv")
    # shows in the corpus order, each show's rows together
    assert list(dict.fromkeys(matches["show"])) == list(result.shows)
    for show in result.shows:
        table = matches[matches["show"] == show]
        n_ref = len(result.reference[show])  # reference segments of the show, as scored
        assert list(table["system"].value_counts().sort_index().items()) == [("system_a", n_ref), ("system_b", n_ref)]
        for name, sr in result.systems.items():
            m = sr.matches
            m = m[(m["show"] == show) & (m["side"] == "reference")]
            rows = table[table["system"] == name]
            assert rows["ref_start"].tolist() == pytest.approx(m["start"].tolist())
            assert rows["cov_bidirectional"].tolist() == pytest.approx(m["coverage"].tolist())
            assert rows["correct"].tolist() == m["correct"].tolist()


@needs_samples
def test_adapter_without_uem_units_or_metadata_accounts_for_every_boundary(tmp_path):
    from tvseg.evaluation import evaluate
    from tvseg.report.adapter import from_evaluation

    inputs = _demo_inputs()
    reference = inputs["reference"]
    hypothesis = inputs["hypotheses"]["system_b"]
    result = evaluate(reference, {"system_b": hypothesis})
    model = from_evaluation(result, date="2000-01-01")
    assert [s.show_id for s in model.shows] == sorted(reference)
    for show in model.shows:
        ref_segs = list(reference[show.show_id].itersegments())
        hyp_segs = list(hypothesis[show.show_id].itersegments())
        # without a UEM the scored extent is the union of both sides; its two edges are not boundaries
        lo = min(s.start for s in ref_segs + hyp_segs)
        hi = max(s.end for s in ref_segs + hyp_segs)
        ref_bounds = {t for s in ref_segs for t in (s.start, s.end)} - {lo, hi}
        hyp_bounds = {t for s in hyp_segs for t in (s.start, s.end)} - {lo, hi}
        (view,) = show.systems
        assert sorted([p.reference for p in view.matched] + list(view.missed)) == sorted(ref_bounds)
        assert sorted([p.hypothesis for p in view.matched] + list(view.false_alarms)) == sorted(hyp_bounds)
        assert all(abs(p.reference - p.hypothesis) <= result.settings.tolerance for p in view.matched)
        assert len(show.reference) == len(ref_segs) and len(view.segments) == len(hyp_segs)
        assert len(view.matches) == len(ref_segs)
    index = write_report(model, tmp_path / "rep", progress=False)
    text = "".join(parse(index).text)
    assert "By channel" not in text and "Unit-domain metrics" not in text


# --- issue 11: formulas in the CSV, invisible characters in the HTML, disk errors ----------------

FORMULAS = [
    '=HYPERLINK("http://x","y")',
    "+1+2",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(A1)",
    "\tTab",
    "\rCR",
    "'quoted",
    "-5",
    "+1.5e3",
    "plain",
]


def test_csv_cells_a_spreadsheet_would_run_are_neutralised_and_numbers_stay_numbers(tmp_path):
    report = synthetic_report(
        1, systems=("=sys",), seed=3, id_of=lambda k: "=show", title_of=lambda k, i: FORMULAS[i % len(FORMULAS)]
    )
    rep = tmp_path / "rep"
    write_report(report, rep, progress=False)
    table = pd.read_csv(
        rep / "data" / "matches.csv", keep_default_na=False, dtype={"show": str, "ref_label": str, "hyp_label": str}
    )
    neutralised = {
        '=HYPERLINK("http://x","y")': '\'=HYPERLINK("http://x","y")',
        "+1+2": "'+1+2",
        "-2+3+cmd|' /C calc'!A0": "'-2+3+cmd|' /C calc'!A0",
        "@SUM(A1)": "'@SUM(A1)",
        "\tTab": "'\tTab",
        "\rCR": "'\rCR",
        "'quoted": "''quoted",
        "-5": "-5",
        "+1.5e3": "+1.5e3",
        "plain": "plain",
    }
    reference = [seg.label for seg in report.shows[0].reference]
    assert len(set(reference)) > 5
    assert table["ref_label"].tolist() == [neutralised[t] for t in reference]
    assert set(table["system"]) == {"'=sys"} and set(table["show"]) == {"'=show"}
    # one leading ' taken off gives the exact text back
    assert [c[1:] if c.startswith("'") else c for c in table["ref_label"]] == reference
    # numeric columns are numbers, negative ones included, never neutralised text
    assert table["ref_start"].dtype.kind == "f" and table["cov_bidirectional"].dtype.kind == "f"
    # the JSON keeps the exact text
    scores = json.loads((rep / "data" / "scores.json").read_text(encoding="utf-8"))
    assert list(scores["systems"]) == ["=sys"] and list(scores["systems"]["=sys"]["shows"]) == ["=show"]


def test_spreadsheet_safe_prefixes_only_formula_text():
    for text in ("=1", "+a", "-a", "@a", "\ta", "\ra", "'a", "-1+1", "+-1", "-"):
        assert datafiles.spreadsheet_safe(text) == "'" + text
    for text in ("a=1", "", "-5", "+5", "-1.5", "-.5", "1e-3", "-2E+10", " =1"):
        assert datafiles.spreadsheet_safe(text) == text


def test_match_csv_writes_numbers_as_numbers_and_text_made_safe():
    system = SystemPage(
        name="-sys",
        metrics={},
        ref_start=[-0.25],
        ref_end=[1.0],
        ref_label=["-a"],
        hyp_start=[None],
        hyp_end=[float("nan")],
        hyp_label=["b,c"],
        cov_to=[0.5],
        cov_from=[0],
        coverage=[0.5],
        correct=[True],
        title_f1=[None],
        story=["missed"],
    )
    page = ShowPage("s", 0.0, 1.0, {}, [], [], [], [system])
    # by hand: a negative float stays a number, "-sys" and "-a" get their ', None and NaN are empty,
    # the comma in "b,c" quotes the cell, the int 0 is a float 0.0 (a numeric column), the bool as Python writes it
    assert datafiles.match_csv(page) == (
        "show,system,ref_start,ref_end,ref_label,hyp_start,hyp_end,hyp_label,"
        "cov_ref_to_hyp,cov_hyp_to_ref,cov_bidirectional,correct,title_f1,story\n"
        "s,'-sys,-0.25,1.0,'-a,,,\"b,c\",0.5,0.0,0.5,True,,missed\n"
    )


def _small_report() -> Report:
    """Two shows, two systems, written by hand: the rows of data/matches.csv are known without the code."""

    def matches(rows):
        return tuple(MatchRow(*row) for row in rows)

    show_b = Show(
        show_id="b",
        start=0.0,
        end=20.0,
        reference=(Segment(0.0, 10.0, "=cmd()"), Segment(10.0, 20.0, "<NA>")),
        systems=(
            SystemShow(
                name="x",
                metrics={},
                segments=(Segment(0.0, 20.0, None, False),),
                matches=matches(
                    [
                        (0.0, 10.0, "=cmd()", 0.0, 20.0, None, 1.0, 0.5, 2 / 3, False, None, "merged"),
                        (10.0, 20.0, "<NA>", 0.0, 20.0, None, 1.0, 0.5, 2 / 3, False, None, "merged"),
                    ]
                ),
            ),
            SystemShow(
                name="y",
                metrics={},
                segments=(Segment(0.0, 10.0, "Météo", True), Segment(10.0, 20.0, "@x", True)),
                matches=matches(
                    [
                        (0.0, 10.0, "=cmd()", 0.0, 10.0, "Météo", 1.0, 1.0, 1.0, True, 0.0, "correct"),
                        (10.0, 20.0, "<NA>", 10.0, 20.0, "@x", 1.0, 1.0, 1.0, True, None, "correct"),
                    ]
                ),
            ),
        ),
    )
    show_a = Show(
        show_id="a",
        start=0.0,
        end=5.0,
        reference=(Segment(0.0, 5.0, 'News, "live"'),),
        systems=(
            SystemShow(
                name="x",
                metrics={},
                matches=matches([(0.0, 5.0, 'News, "live"', None, None, None, 0.0, 0.0, 0.0, False, None, "missed")]),
            ),
        ),
    )
    summaries = tuple(SystemSummary(name=n, corpus={}) for n in ("x", "y"))
    # shows in the order "b", "a": the CSV follows the report's order, not the alphabet
    return Report(signature="sig", version="0", date="2026-01-01", systems=summaries, shows=(show_b, show_a), scores={})


def test_matches_csv_holds_the_rows_of_every_show_in_order(tmp_path):
    write_report(_small_report(), tmp_path / "rep", progress=False, jobs=1)
    text = (tmp_path / "rep" / "data" / "matches.csv").read_text(encoding="utf-8")
    # by hand, from _small_report: show b first (the report's order), its system x then y, each in the
    # reference's order; then show a (system x only). "=cmd()" and "@x" would run as formulas: a leading '.
    # The readers' <NA> (no title) and None are empty cells, 2/3 is written by repr, the quoted title
    # has its quotes doubled; a missing partner leaves start, end and title empty.
    assert text == (
        "show,system,ref_start,ref_end,ref_label,hyp_start,hyp_end,hyp_label,"
        "cov_ref_to_hyp,cov_hyp_to_ref,cov_bidirectional,correct,title_f1,story\n"
        "b,x,0.0,10.0,'=cmd(),0.0,20.0,,1.0,0.5,0.6666666666666666,False,,merged\n"
        "b,x,10.0,20.0,,0.0,20.0,,1.0,0.5,0.6666666666666666,False,,merged\n"
        "b,y,0.0,10.0,'=cmd(),0.0,10.0,Météo,1.0,1.0,1.0,True,0.0,correct\n"
        "b,y,10.0,20.0,,10.0,20.0,'@x,1.0,1.0,1.0,True,,correct\n"
        'a,x,0.0,5.0,"News, ""live""",,,,0.0,0.0,0.0,False,,missed\n'
    )
    # a show page names the file and the rows that are its own
    page = (tmp_path / "rep" / "shows" / "b.html").read_text(encoding="utf-8")
    assert '<a href="../data/matches.csv">matches.csv</a>' in page
    assert "this show's rows: <code>show</code> = <code>b</code>" in page
    assert not (tmp_path / "rep" / "data" / "shows").exists()


HIDDEN_CHARACTERS = [
    "\u202e",
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
    "\x00",
    "\x1b",
    "\x7f",
    "\x85",
]


@pytest.mark.browser
def test_control_and_bidi_characters_are_shown_visibly_never_raw(tmp_path):
    ids = ["show\u202egpj.exe", "plain\u2066id\u2069"]
    titles = ["admin\u202e txt.exe", "ok\x1b[31mred", "mark\u200f\u061c"]
    report = synthetic_report(
        2,
        systems=("sys\u202eA", "clean"),
        seed=4,
        id_of=lambda k: ids[k],
        title_of=lambda k, i: titles[(k + i) % len(titles)],
    )
    rep = tmp_path / "rep"
    write_report(report, rep, progress=False)
    pages = [rep / "index.html"] + sorted((rep / "shows").iterdir())
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not any(c in text for c in HIDDEN_CHARACTERS), page.name
    show_page = parse(rep / "shows" / f"{render.safe_names(ids)[ids[0]]}.html")
    seen = "".join(show_page.text)
    assert "show<U+202E>gpj.exe" in seen and "sys<U+202E>A" in seen
    # the corpus page's table of shows keeps them as JSON escapes (its script shows them as a
    # distinct span: tests/test_report_scale_browser.py)
    index = (rep / "index.html").read_text(encoding="utf-8")
    assert "show\\u202egpj.exe" in index and "plain\\u2066id\\u2069" in index
    # in the text, a distinct span; in <title> and attributes, the same code as plain text
    page = (rep / "shows" / f"{render.safe_names(ids)[ids[0]]}.html").read_text(encoding="utf-8")
    assert "<title>show&lt;U+202E&gt;gpj.exe" in page
    assert 'data-source="sys&lt;U+202E&gt;A"' in page
    # the tables, as the page's script draws them from its data
    cells = drawn(rep / "shows" / f"{render.safe_names(ids)[ids[0]]}.html", tmp_path / "profile")
    assert 'admin<span class="cc" title="invisible character">&lt;U+202E&gt;</span> txt.exe' in cells
    assert 'ok<span class="cc" title="invisible character">&lt;U+001B&gt;</span>[31mred' in cells
    # the data keep the exact text
    scores = json.loads((rep / "data" / "scores.json").read_text(encoding="utf-8"))
    assert set(scores["systems"]) == {"sys\u202eA", "clean"}


def _small_corpus(tmp_path: Path) -> list[str]:
    ref, hyp = tmp_path / "ref.rttm", tmp_path / "hyp.rttm"
    ref.write_text("SEGMENT s 1 0 30 <NA> <NA> a <NA> <NA>\nSEGMENT s 1 30 30 <NA> <NA> b <NA> <NA>\n")
    hyp.write_text("SEGMENT s 1 0 25 <NA> <NA> a <NA> <NA>\nSEGMENT s 1 25 35 <NA> <NA> b <NA> <NA>\n")
    return ["evaluate", "--reference", str(ref), "--hypothesis", f"sys={hyp}"]


def test_json_with_html_is_the_reports_scores_and_the_json_without_html(tmp_path, capsys):
    # --json FILE with --html DIR: FILE is the report's data/scores.json (one text, written once, copied),
    # and the same as the JSON of the run without --html but for its run id
    from tvseg.cli import main

    args = _small_corpus(tmp_path)
    assert main(args + ["--json", str(tmp_path / "both.json"), "--html", str(tmp_path / "rep")]) == 0
    assert main(args + ["--json", str(tmp_path / "alone.json")]) == 0
    both = (tmp_path / "both.json").read_bytes()
    assert both == (tmp_path / "rep" / "data" / "scores.json").read_bytes()
    alone = json.loads((tmp_path / "alone.json").read_bytes())
    loaded = json.loads(both)
    assert loaded.pop("run_id") != alone.pop("run_id")
    assert loaded == alone
    assert f'<code class="run">{json.loads(both)["run_id"]}</code>' in (tmp_path / "rep" / "index.html").read_text()


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_html_on_a_full_disk_or_read_only_target_is_exit_2_and_keeps_the_old_report(
    tmp_path, monkeypatch, capsys, code
):
    from tvseg.cli import main

    args = _small_corpus(tmp_path)
    out = tmp_path / "out" / "rep"
    assert main(args + ["--html", str(out)]) == 0
    before = {f.relative_to(out): f.read_bytes() for f in all_files(out)}
    capsys.readouterr()
    calls = []

    def refused(path, text, **options):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(code, os.strerror(code))
        Path(path).write_text(text)

    monkeypatch.setattr(render, "write_file", refused)
    assert main(args + ["--html", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == f"{out}: cannot write the report ({os.strerror(code)})"
    assert {f.relative_to(out): f.read_bytes() for f in all_files(out)} == before
    assert sorted(p.name for p in out.parent.iterdir()) == ["rep"]
    # and on a first run there is no report at all (not a partial one)
    fresh = tmp_path / "out" / "fresh"
    calls.clear()
    assert main(args + ["--html", str(fresh)]) == 2
    assert sorted(p.name for p in out.parent.iterdir()) == ["rep"]


def test_html_into_a_folder_it_cannot_write_is_exit_2(tmp_path, capsys):
    # a real OSError that stops root too (the EROFS/EACCES cases are monkeypatched above): the
    # report's parent is a file
    from tvseg.cli import main

    args = _small_corpus(tmp_path)
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder\n")
    assert main(args + ["--html", str(blocker / "rep")]) == 2
    err = capsys.readouterr().err
    assert str(blocker) in err and "Traceback" not in err
    assert blocker.read_text() == "a file, not a folder\n"


def test_json_on_a_full_disk_is_exit_2(tmp_path, monkeypatch, capsys):
    import tvseg.output
    from tvseg.cli import main

    args = _small_corpus(tmp_path)
    target = tmp_path / "scores.json"
    target.write_text("old\n")

    def no_space(path, text, **options):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(tvseg.output, "write_file", no_space)
    assert main(args + ["--json", str(target)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"{target}: cannot write the file (No space left on device)"
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hyp.rttm", "ref.rttm", "scores.json"]


@pytest.mark.parametrize(
    "seconds, axis, table, length",
    [
        # below a minute, below an hour, at and past an hour (3600 s = 1:00:00; 4500 s = 75 min = 1:15:00)
        (42.04, "00:42", "00:42.0", "42.0 s"),
        (754.26, "12:34", "12:34.3", "12:34 min"),
        (3599.4, "59:59", "59:59.4", "59:59 min"),
        (3599.96, "1:00:00", "1:00:00.0", "1:00:00 h"),
        (4500.0, "1:15:00", "1:15:00.0", "1:15:00 h"),
        (10800.0, "3:00:00", "3:00:00.0", "3:00:00 h"),
        (-65.0, "-01:05", "-01:05.0", "-65.0 s"),
    ],
)
def test_times_are_written_mm_ss_below_an_hour_and_h_mm_ss_from_an_hour_on(seconds, axis, table, length):
    from tvseg.report import rows, svg

    assert svg.mmss(seconds) == axis
    assert svg.clock(seconds) == table
    assert rows.duration(seconds) == length
