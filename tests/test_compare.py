"""tvseg compare (issue 26): two results of tvseg evaluate --json, metric by metric and show by show."""

import json
import re
from fractions import Fraction

import numpy as np
import pytest

from tvseg.cli import main
from tvseg.comparison import compare_results, settings_changed
from tvseg.significance import bootstrap_means, mean_tests


def _result(shows, corpus, signature="sig-1", system="a"):
    return {"signature": signature, "systems": {system: {"corpus": corpus, "shows": shows}}}


# four shows; cov_d per show old -> new, and the differences by hand:
#   s1 0.50 -> 0.70 (+0.20), s2 0.60 -> 0.50 (-0.10), s3 0.80 -> 0.85 (+0.05), s4 0.40 -> 0.70 (+0.30)
# moved most, by |difference|: s4 (0.30), s1 (0.20), s2 (0.10), s3 (0.05)
OLD = _result(
    {
        "s1": {"cov_d": 0.5, "pk": 0.2},
        "s2": {"cov_d": 0.6, "pk": 0.3},
        "s3": {"cov_d": 0.8, "pk": None},
        "s4": {"cov_d": 0.4, "pk": 0.1},
        "old_only": {"cov_d": 0.9},
    },
    {"cov_d": 0.55, "pk": 0.2, "n_reference": 10},  # a count in the corpus only: compared, not tested
)
NEW = _result(
    {
        "s1": {"cov_d": 0.7, "pk": 0.2},
        "s2": {"cov_d": 0.5, "pk": 0.25},
        "s3": {"cov_d": 0.85, "pk": 0.1},
        "s4": {"cov_d": 0.7, "pk": 0.1},
    },
    {"cov_d": 0.69, "pk": 0.18, "n_reference": 12},
    signature="sig-2",
)


def test_the_changes_the_test_and_the_shows_that_moved():
    c = compare_results(OLD, NEW, old_system="a", new_system="a", top=3)
    assert c["shows"] == {"common": 4, "only_old": ["old_only"], "only_new": []}
    assert [m["show"] for m in c["moved"]] == ["s4", "s1", "s2"]
    assert c["moved"][0]["difference"] == pytest.approx(0.3)
    cov_d = next(m for m in c["metrics"] if m["metric"] == "cov_d")
    assert cov_d["difference"] == pytest.approx(0.69 - 0.55)
    # mean change (0.20 - 0.10 + 0.05 + 0.30) / 4 = 0.1125; of the 16 sign assignments, those whose mean has an
    # absolute value of at least 0.1125 (sum >= 0.45): +-(0.2, -0.1, 0.05, 0.3) = 0.45 and +-(0.2, 0.1, 0.05, 0.3)
    # = 0.65, +-(0.2, 0.1, -0.05, 0.3) = 0.55, +-(0.2, -0.1, -0.05, 0.3) = 0.35 (no), +-(-0.2, 0.1, 0.05, 0.3)
    # = 0.25 (no), +-(0.2, 0.1, 0.05, -0.3) = 0.05 (no), +-(-0.2, -0.1, 0.05, 0.3) = 0.05 (no), +-(-0.2, 0.1,
    # -0.05, 0.3) = 0.15 (no): 3 sign patterns, each with its negation, 6 of 16
    assert cov_d["mean_difference"] == pytest.approx(0.1125)
    assert cov_d["p_value"] == pytest.approx(float(Fraction(6, 16)))
    assert cov_d["test"] == "exact sign-flip"
    # pk: s3's old value is null, left out of the test: 3 shows, differences 0, -0.05, 0
    pk = next(m for m in c["metrics"] if m["metric"] == "pk")
    assert pk["shows"] == 3 and pk["mean_difference"] == pytest.approx(-0.05 / 3)
    # only one difference is not 0: every one of the 8 sign assignments has |mean| = 0.05 / 3: p = 1
    assert pk["p_value"] == 1.0
    # Holm over the two p-values tested (n_reference has none): sorted 0.375, 1 -> min(1, 2 * 0.375) = 0.75 and
    # max(0.75, min(1, 1 * 1)) = 1
    assert cov_d["p_value_holm"] == pytest.approx(0.75) and pk["p_value_holm"] == 1.0
    n_ref = next(m for m in c["metrics"] if m["metric"] == "n_reference")
    assert n_ref["difference"] == 2 and n_ref["shows"] == 0 and n_ref["test"] is None
    assert any("only in the old result" in w for w in c["warnings"])
    assert any("different settings" in w for w in c["warnings"])


def _test(differences, **options):
    """The p-value and test of one metric's per-show differences."""
    p, tests = mean_tests(np.array(differences, dtype=float)[:, None], **options)
    return float(p[0]), tests[0]


def test_the_paired_bootstrap_past_twelve_shows():
    # 20 equal differences: every resample's mean is 0.1, centred 0, never >= 0.1: p = (1 + 0) / (1 + 999),
    # above the floor 2 / 2^20
    assert _test([0.1] * 20, resamples=999, seed=1) == (pytest.approx(1 / 1000), "paired bootstrap")
    # 13 differences of 0: the observed mean is 0 and every centred resample reaches it: p = 1000 / 1000
    assert _test([0.0] * 13, resamples=999) == (1.0, "paired bootstrap")
    # 12 shows: still the exact test; 6 of +0.1 and 6 of -0.1 have mean 0: every assignment reaches it
    assert _test([0.1, -0.1] * 6) == (1.0, "exact sign-flip")
    assert _test([0.1, -0.1] * 3) == (1.0, "exact sign-flip")
    # 5 differences of +1: only the all-plus and all-minus assignments have |mean| 1: 2 / 32
    assert _test([1.0] * 5) == (float(Fraction(2, 32)), "exact sign-flip")
    p, test = _test([0.3])  # one show: nothing over shows can vary
    assert test is None and p != p


def test_each_metric_is_tested_over_its_defined_differences():
    # column 0: 3 shows, differences 1, 1, -1 (mean 1/3); the 8 sign assignments' sums: +-3 (2 of them,
    # |mean| 1) and +-1 (6, |mean| 1/3): all 8 reach 1/3, p = 1. Column 1: show 2 undefined, left out: 2
    # differences 2, 2 (mean 2); sums +-4 (2 of 4 reach |mean| 2) and 0 (2 do not): p = 2/4. Column 2: one
    # defined difference, no test.
    d = [[1.0, 2.0, np.nan], [1.0, 2.0, 5.0], [-1.0, np.nan, np.nan]]
    p, tests = mean_tests(np.array(d))
    assert tests == ["exact sign-flip", "exact sign-flip", None]
    assert p[0] == 1.0 and p[1] == float(Fraction(2, 4)) and p[2] != p[2]


def test_the_bootstrap_means_are_those_of_the_drawn_shows():
    # the resamples drawn directly, show indices with replacement, from the same generator (50 resamples: one
    # block), and each resample's mean over its drawn shows where the metric is defined, by a loop
    rng = np.random.default_rng(7)
    d = np.column_stack([rng.normal(size=15), rng.normal(size=15)])
    d[[2, 5, 11], 1] = np.nan
    drawn = np.random.default_rng(3).integers(0, 15, size=(50, 15))
    expected = np.array([[np.mean([v for v in d[row, j] if v == v]) for j in range(2)] for row in drawn])
    assert bootstrap_means(d, resamples=50, seed=3) == pytest.approx(expected)


def test_the_settings_that_differ_are_named():
    old, new = {"signature": "gamma:0.85|tol:10|boot:0"}, {"signature": "gamma:0.7|tol:10|boot:1000"}
    assert settings_changed(old, new) == [("gamma", "0.85", "0.7"), ("boot", "0", "1000")]
    assert settings_changed(old, old) == []
    assert settings_changed({"signature": "sig-1"}, {}) == [("signature", "sig-1", "None")]


def test_the_command_names_the_shows_that_moved_most(tmp_path, capsys):
    old, new, out = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "cmp.json"
    old.write_text(json.dumps(OLD))
    new.write_text(json.dumps(NEW))
    assert main(["compare", str(old), str(new), "--top", "2", "--json", str(out)]) == 0
    printed = capsys.readouterr()
    assert "shows whose cov_d moved most:" in printed.out
    assert printed.out.index("s4: 40.0 -> 70.0 (+30.0)") < printed.out.index("s1: 50.0 -> 70.0 (+20.0)")
    assert "s2:" not in printed.out.split("moved most:")[1]
    # CovD per show: s1 +, s2 -, s3 +, s4 + (the first test's)
    assert "shows whose cov_d changed: 1 worse, 3 better, 0 unchanged" in printed.out
    assert "tvseg: warning: 1 show(s) only in the old result" in printed.err
    # a count as an integer: 10 -> 12 (+2), no per-show values: no mean change, no p-value
    assert any(
        line.split() == ["ref.", "segs", "10", "12", "+2", "0", "-", "-", "-", "-"] for line in printed.out.splitlines()
    )
    written = json.loads(out.read_text())
    assert [m["show"] for m in written["moved"]] == ["s4", "s1"]
    # the count has no test: null in the JSON, as evaluate's pairs; "none" in the page's test column
    assert next(m for m in written["metrics"] if m["metric"] == "n_reference")["test"] is None
    assert main(["compare", str(old), str(new), "--html", str(tmp_path / "page")]) == 0
    html = (tmp_path / "page" / "index.html").read_text()
    # the count has no direction: no colour, no word; no per-show value: no mean change, no p-value
    row = '<th scope="row">ref. segs</th><td>10</td><td>12</td><td>+2</td><td>0</td>'
    assert row + "<td>\u2013</td><td>\u2013</td><td>\u2013</td><td>none</td><td>\u2013</td><td>\u2013</td></tr>" in html


def test_two_systems_of_one_result(tmp_path, capsys):
    both = {"signature": "s", "systems": {"x": OLD["systems"]["a"], "y": NEW["systems"]["a"]}}
    path = tmp_path / "run.json"
    path.write_text(json.dumps(both))
    assert main(["compare", str(path), "--systems", "x", "y"]) == 0
    assert "x (" in capsys.readouterr().out


@pytest.mark.parametrize(
    "content, expected",
    [
        (None, "no such file"),
        ("{not json", "not JSON"),
        ("[1, 2]", "not a result"),
        (json.dumps({"systems": {"b": {"shows": {}}}}), "no system 'a'"),
        (json.dumps({"systems": {"a": {"shows": {"s1": 3}}}}), "show 's1': not an object"),
    ],
)
def test_bad_input_names_the_file_and_exits_2(tmp_path, capsys, content, expected):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(OLD))
    if content is not None:
        new.write_text(content)
    assert main(["compare", str(old), str(new), "--system", "a"]) == 2
    err = capsys.readouterr().err
    assert expected in err and "new.json" in err


def test_two_real_runs_of_the_demo(tmp_path, capsys, monkeypatch):
    # --demo writes ./tvseg-demo/ unless told otherwise: run in tmp_path and without the report, so that a
    # user's own ./tvseg-demo/ is never replaced by the test run
    monkeypatch.chdir(tmp_path)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["evaluate", "--demo", "--no-html", "--bootstrap", "0", "--json", str(a)]) == 0
    assert main(["evaluate", "--demo", "--no-html", "--bootstrap", "0", "--gamma", "0.7", "--json", str(b)]) == 0
    assert sorted(x.name for x in tmp_path.iterdir()) == ["a.json", "b.json"]
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--system", "system_a"]) == 0
    out = capsys.readouterr()
    assert "shows whose cov_d moved most:" in out.out
    assert "different settings: gamma 0.85 -> 0.7" in out.err


def test_the_page_escapes_every_text(tmp_path, capsys):
    hostile = "<script>alert('x')</script> & co"
    old = _result({hostile: {"cov_d": 0.5}, "s2": {"cov_d": 0.6}}, {"cov_d": 0.55})
    new = _result({hostile: {"cov_d": 0.9}, "s2": {"cov_d": 0.6}}, {"cov_d": 0.75})
    a, b, page = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "page"
    a.write_text(json.dumps(old))
    b.write_text(json.dumps(new))
    assert main(["compare", str(a), str(b), "--html", str(page)]) == 0
    html = (page / "index.html").read_text()
    assert "<script>" not in html
    # a file where the folder should be: refused before anything is printed
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--html", str(a)]) == 2
    printed = capsys.readouterr()
    assert printed.out == "" and "exists and is not a folder" in printed.err
    # the moved show's row: 50.0 -> 90.0, +40.0, a rate that went up: better
    row = '<tr><th scope="row">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co</th><td>50.0</td><td>90.0</td>'
    assert row + '<td class="better">+40.0 <span class="word">better</span></td>' in html


def _row(html: str, label: str) -> str:
    """The metrics table's row of ``label``, from its row header to its end."""
    start = html.index(f'<th scope="row">{label}</th>')
    return html[start : html.index("</tr>", start)]


def test_the_page_colours_and_words_each_change_by_the_metric_direction(tmp_path):
    # 20 shows. Pk (lower is better) 0.30 -> 0.20 on every show: the 20 differences are equal, every bootstrap
    # resample's mean is the observed one, so its p-value is the resampling's floor, far below 0.05 even after
    # Holm over three metrics. CovD moves +0.01 and -0.01 in turn: mean change 0, p-value 1: within noise, though
    # its corpus value rose. The counts and Chapter-Llama's shares are in the corpus only (not tested).
    shows = [f"s{k:02d}" for k in range(20)]
    old_shows = {s: {"pk": 0.3, "cov_d": 0.5, "title_rougeL_f1": 0.4} for s in shows}
    new_shows = {
        s: {"pk": 0.2, "cov_d": 0.5 + (0.01 if k % 2 else -0.01), "title_rougeL_f1": 0.4} for k, s in enumerate(shows)
    }
    corpus_old = {"pk": 0.3, "cov_d": 0.5, "title_rougeL_f1": 0.4, "n_reference": 100, "n_false_alarm": 40}
    corpus_new = {"pk": 0.2, "cov_d": 0.51, "title_rougeL_f1": 0.404, "n_reference": 110, "n_false_alarm": 30}
    corpus_old.update(chapter_count_under=0.574, chapter_count_error=1.5, chapter_count_mae=1.5)
    corpus_new.update(chapter_count_under=0.426, chapter_count_error=1.2, chapter_count_mae=1.2)
    a, b, page = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "page"
    a.write_text(json.dumps(_result(old_shows, corpus_old)))
    b.write_text(json.dumps(_result(new_shows, corpus_new)))
    assert main(["compare", str(a), str(b), "--html", str(page)]) == 0
    html = (page / "index.html").read_text()
    assert "<main>" in html and 'class="skip" href="#' in html
    # an error rate that went down: better, in colour and in words
    assert '<td class="better">\u221210.0 <span class="word">better</span></td>' in _row(html, "Pk")
    # a rise whose test says nothing: neither colour of the legend
    assert '<td class="noise">+1.0 <span class="word">within noise</span></td>' in _row(html, "CovD")
    assert "better" not in _row(html, "CovD") and "worse" not in _row(html, "CovD")
    # fewer false alarms, fewer shows with too few chapters: better; more reference segments: no direction
    assert '<td class="better">\u221210 <span class="word">better</span></td>' in _row(html, "false alarms")
    assert '<td class="better">\u221214.8 <span class="word">better</span></td>' in _row(html, "count under")
    assert "<td>+10</td>" in _row(html, "ref. segs")
    # count error and count MAE are one number: one row
    assert html.count("count MAE") == 1
    assert '<td class="better">\u22120.3 <span class="word">better</span></td>' in _row(html, "count error = count MAE")
    # labels as the report writes them
    assert "cov_d" not in html.split("<main>")[1] and "holm:" not in html


def test_every_show_that_got_worse_or_better_is_listed(tmp_path):
    # 30 shows; CovD (higher is better) moves by (k - 12) / 100 on show k: shows 0-11 worse (show 0 the most),
    # show 12 unchanged, shows 13-29 better (show 29 the most): more than --top 10 on each side
    shows = {f"s{k:02d}": {"cov_d": 0.5} for k in range(30)}
    moved = {f"s{k:02d}": {"cov_d": 0.5 + (k - 12) / 100} for k in range(30)}
    a, b, out = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    a.write_text(json.dumps(_result(shows, {"cov_d": 0.5})))
    b.write_text(json.dumps(_result(moved, {"cov_d": 0.55})))
    assert main(["compare", str(a), str(b), "--json", str(out), "--html", str(tmp_path / "page")]) == 0
    changes = json.loads(out.read_text())["show_changes"]
    assert [r["show"] for r in changes["worse"]] == [f"s{k:02d}" for k in range(12)]
    assert [r["show"] for r in changes["better"]] == [f"s{k:02d}" for k in range(29, 12, -1)]
    assert changes["unchanged"] == 1 and changes["direction"] == "higher"
    html = (tmp_path / "page" / "index.html").read_text()
    assert "Shows whose CovD got worse (12)" in html and "Shows whose CovD got better (17)" in html
    # no report known: the show ids are not links
    assert "shows/" not in html


def test_five_runs_draw_the_headline_metrics_and_test_the_last_pair(tmp_path):
    # five runs of one system; the corpus values of the five headline metrics rise by 0.01 a run from their
    # base; runs 4 and 5 hold OLD's and NEW's per-show CovD (the first test's: mean change 0.1125, p = 6/16)
    base = {"cov_n": 0.40, "cov_d": 0.50, "boundary_f1": 0.60, "pk": 0.30, "windowdiff": 0.35}
    paths = []
    for k in range(5):
        corpus = {key: value + k / 100 for key, value in base.items()}
        shows = (OLD if k == 3 else NEW)["systems"]["a"]["shows"]
        paths.append(tmp_path / f"run{k + 1}.json")
        paths[-1].write_text(json.dumps(_result({s: {"cov_d": v["cov_d"]} for s, v in shows.items()}, corpus)))
    out, page = tmp_path / "c.json", tmp_path / "page"
    assert main(["compare", *map(str, paths), "--json", str(out), "--html", str(page)]) == 0
    written = json.loads(out.read_text())
    assert written["old"]["file"] == str(paths[3]) and written["new"]["file"] == str(paths[4])
    assert [run["file"] for run in written["earlier"]] == [str(p) for p in paths[:3]]
    cov_d = next(m for m in written["metrics"] if m["metric"] == "cov_d")
    assert cov_d["mean_difference"] == pytest.approx(0.1125) and cov_d["p_value"] == pytest.approx(6 / 16)
    html = (page / "index.html").read_text()
    section = html[html.index('id="across"') :]
    assert section.count('<th scope="col">run ') == 5
    svgs = re.findall(r"<svg.*?</svg>", section, flags=re.S)
    labels = (
        ("cov_n", "CovN"),
        ("cov_d", "CovD"),
        ("boundary_f1", "Bound. F"),
        ("pk", "Pk"),
        ("windowdiff", "WindowDiff"),
    )
    # one chart per headline metric, its line through five points whose titles give the run and its value
    assert len(svgs) == 5
    for svg, (key, label) in zip(svgs, labels):
        assert f"<title>{label} across the runs</title>" in svg
        points = re.findall(r'<polyline points="([^"]*)"', svg)
        assert len(points) == 1 and len(points[0].split()) == 5
        for k in range(5):
            assert f"{label}: run {k + 1} \u2192 {label} {100 * (base[key] + k / 100):.1f}%" in svg
        # the values rise by a point a run: each point drawn higher (a smaller y) than the one before
        ys = [float(p.split(",")[1]) for p in points[0].split()]
        assert ys == sorted(ys, reverse=True) and len(set(ys)) == 5


def test_a_report_option_that_names_no_run_is_refused(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(OLD))
    b.write_text(json.dumps(NEW))
    for option in ("3=x", "nothing", f"1={tmp_path}"):
        assert main(["compare", str(a), str(b), "--report", option]) == 2
        assert "--report" in capsys.readouterr().err


def test_the_show_pages_are_linked_where_the_reports_hold_them(tmp_path):
    # two report folders laid out as tvseg evaluate --html writes them (index.html, shows/NAME.html); the old one
    # named with a space and a '#', which a link must encode; the new one without a page for s3
    old_report, new_report = tmp_path / "old report#1", tmp_path / "new"
    for report, shows in ((old_report, ("s1", "s2", "s3", "s4")), (new_report, ("s1", "s2", "s4"))):
        (report / "shows").mkdir(parents=True)
        (report / "index.html").write_text("report")
        for show in shows:
            (report / "shows" / f"{show}.html").write_text(show)
    a, b, page = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "cmp"
    a.write_text(json.dumps(OLD))
    b.write_text(json.dumps(NEW))
    reports = ["--report", f"{a}={old_report}", "--report", f"2={new_report}"]
    assert main(["compare", str(a), str(b), *reports, "--html", str(page)]) == 0
    html = (page / "index.html").read_text()
    assert '<a href="../old%20report%231/index.html">Old report</a>' in html
    assert '<a href="../new/index.html">New report</a>' in html
    # s2 got worse (CovD 0.60 -> 0.50): both pages; s3 got better: the old report's page only
    row = html[html.index('<th scope="row">s2</th>') :]
    row = row[: row.index("</tr>")]
    assert 'href="../old%20report%231/shows/s2.html"' in row and 'href="../new/shows/s2.html"' in row
    row = html[html.index('<th scope="row">s3</th>') :]
    row = row[: row.index("</tr>")]
    assert 'href="../old%20report%231/shows/s3.html"' in row and "../new/shows/s3.html" not in row
