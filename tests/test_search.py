"""``tvseg search``: segment search scored as MediaEval's ``sh_eval`` scores it (issue 45).

The outputs in ``tests/data/sh_eval/`` were printed by sh_eval itself on generated judgements and runs (its
README says how); the small cases are sh_eval's own worked examples (the ``__main__`` tests of its
``toleranceToIrrelevance.py`` and ``binnedRelevance.py``) and hand computations written out below.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from search_oracle import Judgement, Returned
from search_oracle import score_run as oracle

from tvseg.cli import main
from tvseg.errors import InputError
from tvseg.readers.trec import Qrels, Run, read_qrels, read_run
from tvseg.search import score_run

DATA = Path(__file__).parent / "data" / "sh_eval"
RUNS = {"a": "linking", "b": "linking", "c": "search"}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_every_line_equals_sh_evals_output(tmp_path, name):
    run = tmp_path / f"run_{name}.txt"
    shutil.copy(DATA / f"run_{name}.txt", run)
    code = main(
        ["search", "--kind", RUNS[name], "--qrels", str(DATA / "qrels.txt"), "--run", f"run_{name}.txt={run}"]
        + ["--trec", str(tmp_path / "out")]
    )
    assert code == 0
    ours = (tmp_path / "out" / f"run_{name}.txt.txt").read_text()
    theirs = (DATA / f"sh_eval_{name}.out").read_text()
    assert ours == theirs


def test_json_holds_the_values_sh_eval_prints(tmp_path):
    out = tmp_path / "out.json"
    runs = [f"{n}={DATA / f'run_{n}.txt'}" for n in ("a", "b")]
    assert (
        main(["search", "--qrels", str(DATA / "qrels.txt"), "--run", runs[0], "--run", runs[1], "--json", str(out)])
        == 0
    )
    data = json.loads(out.read_text())
    printed = {}
    for line in (DATA / "sh_eval_a.out").read_text().splitlines():
        measure, query, value = (cell.strip() for cell in line.split("\t"))
        printed[(measure, query)] = value
    a = data["runs"]["a"]
    for (measure, query), value in printed.items():
        if measure in {"runid", "size_bin", "tol_len"} or measure.startswith("mark_"):
            continue
        key = measure.lower()  # the JSON's keys: sh_eval's names in lower case
        ours = a["all"][key] if query == "all" else a["queries"][query][key]
        if isinstance(ours, str):
            assert ours == value
        elif "." in value:
            assert f"{ours:.4f}" == value, (measure, query)
        else:
            assert int(ours) == int(value), (measure, query)
    # the judged query no run answers (query_40) and the query no judge saw (query_99) are not scored
    assert "query_40" not in a["queries"] and "query_99" not in a["queries"]
    assert a["all"]["num_q"] == 39
    pair = data["pairwise"]["b - a"]
    maps = [(a["queries"][q]["map"], data["runs"]["b"]["queries"][q]["map"]) for q in a["queries"]]
    assert pair["map"]["queries"] == 39
    assert pair["map"]["mean_change"] == pytest.approx(sum(y - x for x, y in maps) / len(maps), abs=1e-12)
    assert 0 < pair["map"]["p_value"] <= 1


def _marks(values: dict, suffix: str) -> list[str]:
    text, count = values["relstring" + suffix].rsplit(" ", 1)
    assert len(text) == int(count)
    return list(text)


def _judged(spans, relevance):
    return [(v, s, e, relevance) for v, s, e in spans]


def _ranking(spans):
    return [(v, s, e, k + 1) for k, (v, s, e) in enumerate(spans)]


def score_query(judgements, ranking, **options) -> dict:
    """The values of one query ("q") judged by ``judgements`` and answered by ``ranking``."""
    qrels = Qrels.of([("q", *row) for row in judgements])
    run = Run.of([("q", *row) for row in ranking])
    return score_run(qrels, run, **options)[0]["q"]


@pytest.mark.parametrize(
    "ranking, expected",
    [
        # toleranceToIrrelevance.py's first two cases (tolerance 10; relevant 15-25 and 30-35, judged not
        # relevant 0-10). Its file expects [0, 1, s, s, 1] and [1, s, s, s, 1], written when its interval
        # search took the end second too (its comment: "was for j in xrange(begin, end+1)"); its code at
        # 5f7b065 gives what follows, and so does tvseg (the code is what scored the runs).
        # 0-5 watches [0, 10): no relevant second; its [0, 5) meets 0-10: 0. 5-10 watches [5, 15): 15 is
        # not in it: 0. 10-15 watches [10, 20), meets 15-25, nothing seen: 1 (seen 10-25). 23-23 watches
        # [23, 33), meets both; its own [23, 23) is empty, so nothing of it was seen: 1 (seen 23-35). 27-27
        # watches [27, 37), meets 30-35: 1.
        ([(1, 0, 5), (1, 5, 10), (1, 10, 15), (1, 23, 23), (1, 27, 27)], list("00111")),
        # 8-5 watches [8, 18), meets 15-25, its [8, 5) is empty: 1 (seen 8-25). 5-10: no relevant in
        # [5, 15); [5, 10) meets 0-10 and the seen 8-25: S. 10-15 meets 15-25 and the seen span: s. 23-23 and
        # 27-27 as above: 1, 1.
        ([(1, 8, 5), (1, 5, 10), (1, 10, 15), (1, 23, 23), (1, 27, 27)], list("1Ss11")),
    ],
)
def test_tolerance_marks_of_sh_evals_worked_examples(ranking, expected):
    judgements = _judged([("1", 15, 25), ("1", 30, 35)], 1) + _judged([("1", 0, 10)], 0)
    values = score_query(judgements, _ranking([(str(v), s, e) for v, s, e in ranking]), tolerance=10)
    assert _marks(values, "_tol") == expected


def test_tolerance_third_worked_example():
    # relevant 5-10 and 12-30; the user starts at 8 and watches 8-18: relevant (seen up to 30); the result
    # starting at 20 falls inside what was seen: "s"
    judgements = _judged([("1", 5, 10), ("1", 12, 30)], 1)
    values = score_query(judgements, _ranking([("1", 8, 12), ("1", 20, 30)]), tolerance=10)
    assert _marks(values, "_tol") == ["1", "s"]


def test_bin_marks_are_sh_evals_worked_example():
    # binnedRelevance.py's Test3 (bins of 10 s), whose expected marks are [0, 1, 1, 0, 0, '-' x 9]: the
    # ranking's bins in order of first appearance, each once: video 1's 0-10 (from 0-5; 5-10 repeats it),
    # 10-20 (10-15), 20-30 (23-23; 27-27 repeats it), 100-110 ... 190-200 (100-200: 10 bins), video 3's
    # 10-20. Relevant bins: video 1's 10-20, 20-30 (15-25) and 30-40 (30-35), video 2's 0-10 and 10-20
    # (3-20): 5. Judged not relevant: video 1's 0-10 (0-10), 100-110 and 110-120 (105-120).
    ranking = [(1, 0, 5), (1, 5, 10), (1, 10, 15), (1, 23, 23), (1, 27, 27), (1, 100, 200), (3, 10, 15)]
    judgements = _judged([("1", 15, 25), ("1", 30, 35), ("2", 3, 20)], 1) + _judged([("1", 0, 10), ("1", 105, 120)], 0)
    values = score_query(judgements, _ranking([(str(v), s, e) for v, s, e in ranking]), bin_size=10)
    assert _marks(values, "_bin") == list("01100") + ["-"] * 9
    assert values["num_rel_bin"] == 5


def test_segment_marks_and_average_precision_by_hand():
    # relevant: 0-10 and 10-20 touch: merged into one, 0-20; 50-60 apart; not relevant: 100-110.
    # ranking: 5-6 (1), 15-30 (1: touches the merged 0-20), 105-106 (0), 200-210 (-), 60-70 (1: touches 60)
    judgements = _judged([("v", 0, 10), ("v", 10, 20), ("v", 50, 60)], 1) + _judged([("v", 100, 110)], 0)
    ranking = _ranking([("v", 5, 6), ("v", 15, 30), ("v", 105, 106), ("v", 200, 210), ("v", 60, 70)])
    values = score_query(judgements, ranking)
    assert _marks(values, "") == list("110-1")
    # R = 2 merged relevant segments; AP = (1/1 + 2/2 + 3/5) / 2 = 1.3 (above 1: every result is marked,
    # sh_eval does not take a relevant segment once)
    assert values["num_rel"] == 2
    assert values["map"] == pytest.approx((1 + 1 + 3 / 5) / 2, abs=1e-15)
    assert values["p_5"] == pytest.approx(3 / 5)
    assert values["judged_10"] == pytest.approx(4 / 10)


def test_maisp_by_hand():
    # one relevant segment 100-200 (R_s = 100 s: points 0, 1, ..., 100). The user watches 50-150: 50 s not
    # relevant, then 100-200 relevant to its end: T = 150, T_r = 100; at point k the precision is
    # k / (0 + 150 - (100 - k)) = k / (50 + k), k = 1..100; interpolated, each point's precision is the
    # largest at or after it, 100/150; maisp = (1 + 100 * 2/3) / 101
    judgements = _judged([("v", 100, 200)], 1)
    values = score_query(judgements, _ranking([("v", 50, 150)]))
    assert values["num_rel_secs"] == 100 and values["num_ret_secs"] == 150 and values["num_rel_ret_secs"] == 100
    assert values["maisp"] == pytest.approx((1 + 100 * (100 / 150)) / 101, abs=1e-12)
    assert values["maisp_0.05"] == pytest.approx(100 / 150)


def test_minutes_seconds_and_plain_seconds_give_the_same_values(tmp_path):
    def seconds(text: str) -> str:
        minutes, rest = text.split(".")
        return str(int(minutes) * 60 + int(rest))

    lines = []
    for line in (DATA / "run_a.txt").read_text().splitlines():
        f = line.split()
        lines.append(" ".join(f[:3] + [seconds(f[3]), seconds(f[4])] + f[5:]))
    (tmp_path / "run.txt").write_text("\n".join(lines) + "\n")
    qrels = []
    for line in (DATA / "qrels.txt").read_text().splitlines():
        f = line.split()
        qrels.append(" ".join(f[:3] + [seconds(f[3]), seconds(f[4])] + f[5:]))
    (tmp_path / "qrels.txt").write_text("\n".join(qrels) + "\n")
    minutes = score_run(read_qrels(DATA / "qrels.txt"), read_run(DATA / "run_a.txt"))
    plain = score_run(
        read_qrels(tmp_path / "qrels.txt", times="seconds"), read_run(tmp_path / "run.txt", times="seconds"), ticks=1000
    )
    assert plain == minutes


def test_gzip_inputs_are_read(tmp_path):
    for name in ("qrels.txt", "run_a.txt"):
        (tmp_path / (name + ".gz")).write_bytes(gzip.compress((DATA / name).read_bytes()))
    assert score_run(read_qrels(tmp_path / "qrels.txt.gz"), read_run(tmp_path / "run_a.txt.gz")) == score_run(
        read_qrels(DATA / "qrels.txt"), read_run(DATA / "run_a.txt")
    )


@pytest.mark.parametrize(
    "line, kind, words",
    [
        ("q1 Q0 v 1.00 2.00 1 0.5", "search", "7 fields"),
        ("q1 Q0 v 1.00 2.75 1 0.5 run", "linking", "'2.75'"),
        ("q1 Q0 v 100 2.00 1 0.5 run", "linking", "minutes.seconds"),
        ("q1 Q0 v 1.00 2.00 first 0.5 run", "linking", "rank is not an integer"),
        ("q1 Q0 v 1.00 2.00 1 high run", "linking", "score is not a number"),
    ],
)
def test_bad_lines_exit_2_naming_file_line_and_value(tmp_path, capsys, line, kind, words):
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 v 0.00 1.00" + (" 0.00" if kind == "search" else "") + " 1 0.9 run\n" + line + "\n")
    code = main(["search", "--kind", kind, "--qrels", str(DATA / "qrels.txt"), "--run", f"r={run}"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{run}:2" in err and words in err
    assert "Traceback" not in err


def _random_case(seed: int, ticks: int):
    """Judgements and a run drawn at random: overlapping, touching, nested and reversed segments, zero lengths
    (one at 0), equal ranks, repeated results, queries without relevant segments or without judgements."""
    import random

    rng = random.Random(seed)
    videos = ["v1", "v2", "v3", "v4"]
    judged, returned = [], []
    for q in range(12):
        query = f"q{q:02d}"
        spans = []
        if q != 11:
            for _ in range(rng.randint(1, 9)):
                start = rng.randint(0, 900) * ticks // rng.choice((1, 1, 7))
                end = start + rng.choice((0, 1, 5, 15, 40, 200, 700)) * ticks + rng.choice((0, 0, 3))
                if rng.random() < 0.05:
                    start, end = end, start
                video = rng.choice(videos)
                spans.append((video, start, end))
                judged.append((query, video, start, end, 0 if q == 3 else rng.choice((1, 1, 0, 2, -1))))
        if q == 10:
            continue
        for _ in range(rng.randint(1, 80)):
            if spans and rng.random() < 0.6:
                video, start, _ = rng.choice(spans)
                start = max(0, start + rng.choice((rng.randint(-30, 30), 0, 15, 4, 60)) * ticks + rng.choice((0, 0, 7)))
            else:
                video, start = rng.choice(videos), rng.randint(0, 1200) * ticks
            end = start + rng.choice((0, 0, 1, 10, 30, 60, 400)) * ticks
            if rng.random() < 0.05:
                start, end = end, start
            if rng.random() < 0.03:
                start = end = 0
            if rng.random() < 0.05:  # a segment ending at 0: sh_eval's interval test takes its start alone
                end = 0
            returned.append((query, video, start, end, rng.randint(1, 40)))
    return judged, returned


@pytest.mark.parametrize("seed", range(60))
def test_columnar_scores_equal_the_per_result_transcription(seed):
    # tests/search_oracle.py scores one result at a time as sh_eval's code does; every value, floats
    # included, must be the same (not only to the 4 decimals printed)
    ticks = 1000 if seed % 2 else 1
    judged, returned = _random_case(seed, ticks)
    options = {"ticks": ticks, "bin_size": (300, 60, 7)[seed % 3], "tolerance": (15, 4, 60)[seed % 3]}
    by_query: dict = {}
    for k, (query, video, start, end, relevance) in enumerate(judged, 1):
        by_query.setdefault(query, []).append(Judgement(video, start, end, relevance, k))
    ranked: dict = {}
    for k, (query, video, start, end, rank) in enumerate(returned, 1):
        ranked.setdefault(query, []).append(Returned(video, start, end, rank, 0.0, k))
    expected = oracle(by_query, ranked, **options)
    assert score_run(Qrels.of(judged), Run.of(returned), **options) == expected


def test_crlf_bom_blank_lines_and_non_ascii_names_read_as_plain_lines(tmp_path):
    # the bytes are counted when the text is plain ASCII, str.split per line otherwise: both give the same
    # fields and line numbers
    lines = ["q1 Q0 v1 0.10 0.50 1 0.9 r", "", "q1 Q0 v2 1.00 2.00 2 0.8 r", "q2 Q0 v1 0.00 0.00 1 0.5"]
    plain = tmp_path / "plain.txt"
    plain.write_text("\n".join(lines) + "\n")
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode() + b"\r\n")
    named = tmp_path / "named.txt"
    named.write_text("\n".join(line.replace("v2", "vidéo") for line in lines) + "\n", encoding="utf-8")
    runs = [read_run(path) for path in (plain, crlf, named)]
    for run in runs:
        assert run.line.tolist() == [1, 3, 4]
        assert run.start.tolist() == [10, 60, 0] and run.end.tolist() == [50, 120, 0]
        assert run.query_names == ("q1", "q2") and run.rank.tolist() == [1, 2, 1]
    assert runs[2].video_names == ("v1", "vidéo")
    # a wrong line after a blank one is named by its number in the file
    (tmp_path / "bad.txt").write_text("\n".join(lines[:3] + ["q2 Q0 v1 0.00 0.75 1 0.5"]) + "\n")
    with pytest.raises(InputError, match=r"bad\.txt:4"):
        read_run(tmp_path / "bad.txt")


class _Bars(HTMLParser):
    """The ``data-value`` of each bar cell of a search page, by section (measure), row (query) and column."""

    def __init__(self) -> None:
        super().__init__()
        self.section = self.query = None
        self.bars: dict = {}
        self.headers: dict = {}
        self._cell: list | None = None
        self._column = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.section = attrs["id"]
        elif tag == "tr":
            self._column = 0
        elif tag in ("th", "td"):
            self._cell = [tag, attrs.get("scope"), ""]
            if tag == "td":
                self._column += 1
                if attrs.get("class") == "bar":
                    self.bars[(self.section, self.query, self._column)] = attrs["data-value"]

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[2] += data

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._cell is not None:
            kind, scope, text = self._cell
            if kind == "th" and scope == "row":
                self.query = text
            elif kind == "th" and scope == "col":
                self.headers.setdefault(self.section, []).append(text)
            self._cell = None


def test_html_page_has_a_bar_per_query_whose_value_is_the_jsons(tmp_path):
    runs = [f"{n}={DATA / f'run_{n}.txt'}" for n in ("a", "b")]
    out, page = tmp_path / "out.json", tmp_path / "page"
    code = main(
        ["search", "--qrels", str(DATA / "qrels.txt"), "--run", runs[0], "--run", runs[1]]
        + ["--json", str(out), "--html", str(page)]
    )
    assert code == 0
    data = json.loads(out.read_text())
    parser = _Bars()
    parser.feed((page / "index.html").read_text())
    for measure in ("map", "map_bin", "map_tol", "maisp"):
        assert parser.headers[measure] == ["query", "a", "b"]
        for column, name in enumerate(("a", "b"), 1):
            queries = data["runs"][name]["queries"]
            drawn = {q: v for (m, q, c), v in parser.bars.items() if m == measure and c == column}
            assert set(drawn) == set(queries)  # query_40 (judged, answered by none) and query_99 have no bar
            assert all(float(drawn[q]) == queries[q][measure] for q in queries)
    # the overall table holds the JSON's values to 4 decimals, the run ids agree
    html = (page / "index.html").read_text()
    assert f"<td>{data['runs']['b']['all']['map_tol']:.4f}</td>" in html
    assert data["run_id"] in html


_PROBE = """<script>
window.addEventListener("load", function () {
  var worst = null;
  document.querySelectorAll("body *").forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (e.closest(".scroll") === null && r.right > window.innerWidth + 0.5) { worst = e.tagName + "." + e.className; }
  });
  parent.postMessage(JSON.stringify({inner: window.innerWidth, client: document.documentElement.clientWidth,
    scroll: document.documentElement.scrollWidth, worst: worst, mains: document.querySelectorAll("main").length,
    bars: document.querySelectorAll("td.bar .fill").length}), "*");
});
</script></body>"""
_FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="{src}" style="width:390px;height:844px;border:0"></iframe>
<script>window.addEventListener("message", function (e) {{
  document.body.setAttribute("data-probe", e.data); console.log("probe-done"); }});</script>
</body></html>"""


@pytest.mark.browser
def test_html_page_fits_390_px_without_console_error(tmp_path):
    # the page in a 390 px frame (headless chromium's window is wider): nothing but the tables' own
    # scrolling boxes is wider than the frame; a probe added to a copy of the page reports what it finds
    from chromium import console_errors, run_chromium

    page = tmp_path / "page"
    runs = [f"{n}={DATA / f'run_{n}.txt'}" for n in ("a", "b")]
    argv = ["search", "--qrels", str(DATA / "qrels.txt"), "--html", str(page)]
    assert main(argv + [a for r in runs for a in ("--run", r)]) == 0
    copy = tmp_path / "probe.html"
    copy.write_text((page / "index.html").read_text().replace("</body>", _PROBE))
    frame = tmp_path / "frame.html"
    frame.write_text(_FRAME.format(src=copy.as_uri()))
    done = run_chromium(tmp_path / "profile", frame.as_uri(), "--dump-dom", "--virtual-time-budget=5000")
    assert done.returncode == 0, done.stderr[-2000:]
    assert console_errors(done.stderr) == []
    found = json.loads(unescape(re.search(r'data-probe="(.*?)"', done.stdout).group(1)))
    assert found["inner"] == 390 and found["scroll"] == found["client"] <= 390, found["worst"]
    assert found["worst"] is None and found["mains"] == 1
    assert found["bars"] == 4 * 2 * 39  # 4 measures, 2 runs, 39 queries each


def _search_json(tmp_path, name, *options, runs=("a", "b"), qrels=DATA / "qrels.txt"):
    out = tmp_path / f"{name}.json"
    spec = [x for n in runs for x in ("--run", f"{n}={DATA / f'run_{n}.txt'}")]
    assert main(["search", "--qrels", str(qrels), *spec, "--json", str(out), *options]) == 0
    data = json.loads(out.read_text())
    data.pop("run_id")
    return data


def test_all_is_each_measures_formula_over_the_per_query_components(tmp_path):
    from tvseg.search import REGISTRY

    data = _search_json(tmp_path, "one")
    for values in data["runs"].values():
        queries, components = values["queries"], values["components"]
        assert components["queries"] == sorted(queries) == list(queries)
        columns = components["columns"]
        assert columns["num_q"] == [1] * len(queries)
        for entry in REGISTRY:
            for key in entry.components:
                if key != "num_q":
                    assert columns[key] == [queries[q][key] for q in queries]
            # sh_eval: a count summed over the queries; any other value their mean, added in query order
            column = [queries[q][entry.key] for q in queries] if entry.key != "num_q" else [1] * len(queries)
            total = 0
            for v in column:
                total += v
            expected = total if entry.components == (entry.key,) else total / float(len(queries))
            assert values["all"][entry.key] == expected, entry.key
        assert {e.key for e in REGISTRY} == set(values["all"])


def test_jobs_and_dask_give_the_values_of_one_process(tmp_path):
    one = _search_json(tmp_path, "one")
    two = _search_json(tmp_path, "two", "--jobs", "2")
    assert two == one
    spec = ["--run", f"run_a.txt={DATA / 'run_a.txt'}"]
    trec = ["--trec", str(tmp_path / "trec")]
    assert main(["search", "--qrels", str(DATA / "qrels.txt"), *spec, *trec, "--jobs", "3"]) == 0
    assert (tmp_path / "trec" / "run_a.txt.txt").read_text() == (DATA / "sh_eval_a.out").read_text()
    pytest.importorskip("dask.distributed")
    assert _search_json(tmp_path, "dask", "--dask", "local", "--jobs", "2") == one


def _split(path: Path, first: set[str], out: Path) -> tuple[Path, Path]:
    """``path``'s lines of the queries ``first`` and those of the others, in two files."""
    lines = path.read_text().splitlines(keepends=True)
    a, b = out / f"a_{path.name}", out / f"b_{path.name}"
    a.write_text("".join(line for line in lines if line.split()[0] in first))
    b.write_text("".join(line for line in lines if line.split()[0] not in first))
    return a, b


def _parts(tmp_path, *options):
    """Results of tvseg search over two disjoint sets of sh_eval's queries, every third query in the first."""
    names = sorted({line.split()[0] for line in (DATA / "qrels.txt").read_text().splitlines() if line.strip()})
    first = set(names[::3])
    qrels = _split(DATA / "qrels.txt", first, tmp_path)
    runs = [_split(DATA / f"run_{n}.txt", first, tmp_path) for n in ("a", "b")]
    outs = []
    for k in (0, 1):
        out = tmp_path / f"part{k}.json"
        spec = [x for n, r in zip("ab", runs) for x in ("--run", f"{n}={r[k]}")]
        assert main(["search", "--qrels", str(qrels[k]), *spec, "--json", str(out), *options[k]]) == 0
        outs.append(out)
    return outs


def test_merging_results_over_disjoint_queries_gives_the_result_over_all(tmp_path):
    whole = _search_json(tmp_path, "whole")
    parts = _parts(tmp_path, [], [])
    merged = tmp_path / "merged.json"
    assert main(["merge", str(parts[1]), str(parts[0]), "--json", str(merged)]) == 0
    data = json.loads(merged.read_text())
    data.pop("run_id")
    assert data == whole  # every value, components and the paired tests' p-values


def test_merging_refuses_shared_queries_and_other_settings(tmp_path, capsys):
    parts = _parts(tmp_path, [], ["--tolerance", "10"])
    assert main(["merge", str(parts[0]), str(parts[0]), "--json", str(tmp_path / "m.json")]) == 2
    assert "query 'query_1" in capsys.readouterr().err
    assert main(["merge", str(parts[0]), str(parts[1]), "--json", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err
    assert "tolerance 15 and 10" in err and str(parts[0]) in err and str(parts[1]) in err
    evaluated = tmp_path / "evaluated.json"
    evaluated.write_text(json.dumps({"settings": {}}))
    assert main(["merge", str(parts[0]), str(evaluated), "--json", str(tmp_path / "m.json")]) == 2
    assert "is a result of tvseg search and" in capsys.readouterr().err
    older = json.loads(parts[1].read_text())
    del older["runs"]["b"]["components"]
    (tmp_path / "older.json").write_text(json.dumps(older))
    assert main(["merge", str(parts[0]), str(tmp_path / "older.json"), "--json", str(tmp_path / "m.json")]) == 2
    assert "older.json" in (err := capsys.readouterr().err) and "run 'b' carries no components" in err
    assert not (tmp_path / "m.json").exists()


def test_trec_files_of_awkward_run_names_stay_in_their_folder(tmp_path, capsys):
    # a run named with a '/' is written as one file inside DIR (its name made safe), its first line naming
    # the run as given; a --trec path that is a file is refused naming it, without a traceback
    out = tmp_path / "out"
    argv = ["search", "--qrels", str(DATA / "qrels.txt"), "--run", f"team/run1={DATA / 'run_a.txt'}"]
    assert main([*argv, "--trec", str(out)]) == 0
    (written,) = [p for p in out.rglob("*") if p.is_file()]
    assert written.parent == out
    assert written.read_text().splitlines()[0].split("\t")[2].strip() == "team/run1"
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    capsys.readouterr()
    assert main([*argv, "--trec", str(blocked)]) == 2
    err = capsys.readouterr().err
    assert str(blocked) in err and "Traceback" not in err
