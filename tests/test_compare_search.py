"""``tvseg compare`` on results of ``tvseg search --json`` (issue 45): runs of segment search compared query by
query with the paired tests of ``tvseg compare``, the pooled p-values those ``tvseg search`` prints."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from tvseg.cli import main
from tvseg.comparison import compare_results, compare_search_results
from tvseg.search import HEADLINE

DATA = Path(__file__).parent / "data" / "sh_eval"

# four queries, each with one relevant segment (v, 0-60 s); a run answers with that segment at rank 1 (AP 1),
# at rank 2 behind an unjudged segment of another video (AP 1/2), or not at all (AP 0, an unjudged segment only):
#   query  run a  run b  b - a
#   q1     0      1      +1
#   q2     1/2    1      +1/2
#   q3     1/2    1      +1/2
#   q4     1      1/2    -1/2
AP = {"a": [0, Fraction(1, 2), Fraction(1, 2), 1], "b": [1, 1, 1, Fraction(1, 2)]}


def _ranking(ap) -> list[tuple[str, int, int]]:
    return {1: [("v", 0, 60)], Fraction(1, 2): [("w", 0, 60), ("v", 0, 60)], 0: [("w", 0, 60)]}[ap]


def _small(tmp_path) -> tuple[Path, dict[str, Path]]:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{k} Q0 v 0 60 1\n" for k in range(1, 5)))
    runs = {}
    for name, values in AP.items():
        lines = [
            f"q{k} Q0 {video} {start} {end} {rank} {1.0 / rank} {name}\n"
            for k, ap in enumerate(values, start=1)
            for rank, (video, start, end) in enumerate(_ranking(ap), start=1)
        ]
        runs[name] = tmp_path / f"run_{name}.txt"
        runs[name].write_text("".join(lines))
    return qrels, runs


def _search(tmp_path, out: str, qrels, runs: dict, *options) -> Path:
    path = tmp_path / out
    spec = [x for name, run in runs.items() for x in ("--run", f"{name}={run}")]
    assert main(["search", "--qrels", str(qrels), *spec, "--json", str(path), *options]) == 0
    return path


def _compared(tmp_path, *argv) -> dict:
    out = tmp_path / "comparison.json"
    assert main(["compare", *map(str, argv), "--json", str(out)]) == 0
    return {m["metric"]: m for m in json.loads(out.read_text())["metrics"]}


def test_the_exact_sign_flip_p_value_of_four_queries_enumerated_by_hand(tmp_path):
    qrels, runs = _small(tmp_path)
    both = _search(tmp_path, "both.json", qrels, runs, "--times", "seconds")
    data = json.loads(both.read_text())
    assert [data["runs"][n]["queries"][f"q{k}"]["map"] for n in "ab" for k in range(1, 5)] == [
        float(v) for n in "ab" for v in AP[n]
    ]
    # the 16 sign assignments of the differences (1, 1/2, 1/2, -1/2), observed sum 3/2: |sum| >= 3/2 for
    # +1 with two or three of the halves +, and their negations: (1 + 3) * 2 = 8 of 16
    d = [Fraction(b) - Fraction(a) for a, b in zip(AP["a"], AP["b"])]
    observed = abs(sum(d))
    flips = list(itertools.product((1, -1), repeat=4))
    expected = Fraction(sum(abs(sum(s * x for s, x in zip(signs, d))) >= observed for signs in flips), len(flips))
    assert expected == Fraction(1, 2)
    metrics = _compared(tmp_path, both, "--systems", "a", "b")
    assert metrics["map"]["test"] == "exact sign-flip"
    assert metrics["map"]["mean_difference"] == float(Fraction(3, 8))
    assert metrics["map"]["p_value"] == float(expected)
    assert metrics["map"]["p_value_pooled"] == float(expected)
    assert data["pairwise"]["b - a"]["map"]["p_value"] == float(expected)
    assert metrics["map"]["higher_is_better"] is True and metrics["num_rel"]["p_value"] is None  # a count
    # the same runs in two results over the same queries and settings: the same comparison
    alone = [_search(tmp_path, f"{n}.json", qrels, {n: runs[n]}, "--times", "seconds") for n in "ab"]
    assert _compared(tmp_path, *alone) == metrics


def test_compare_gives_the_p_values_tvseg_search_prints(tmp_path, capsys):
    # sh_eval's 39 queries: the paired bootstrap, with the result's resamples and seed (500, seed 3)
    runs = {n: DATA / f"run_{n}.txt" for n in "ab"}
    options = ("--bootstrap", "500", "--seed", "3")
    both = _search(tmp_path, "both.json", DATA / "qrels.txt", runs, *options)
    pair = json.loads(both.read_text())["pairwise"]["b - a"]
    metrics = _compared(tmp_path, both, "--systems", "a", "b")
    assert {k: metrics[k]["p_value_pooled"] for k in HEADLINE} == {k: pair[k]["p_value"] for k in HEADLINE}
    assert {k: metrics[k]["p_value_pooled_holm"] for k in HEADLINE} == {k: pair[k]["p_holm"] for k in HEADLINE}
    assert {k: metrics[k]["test"] for k in HEADLINE} == {k: "paired bootstrap" for k in HEADLINE}
    # each run in a result of its own: the runs compared across the two files, the same p-values
    alone = [_search(tmp_path, f"{n}.json", DATA / "qrels.txt", {n: runs[n]}, *options) for n in "ab"]
    capsys.readouterr()
    across = _compared(tmp_path, *alone)
    assert {k: across[k]["p_value_pooled"] for k in HEADLINE} == {k: pair[k]["p_value"] for k in HEADLINE}
    printed = capsys.readouterr().out
    assert "39 queries in common" in printed and "queries whose map moved most:" in printed


def test_the_per_query_test_is_the_per_show_test_of_evaluate_results(tmp_path):
    # the same per-row values as an evaluate result's per-show cov_d: compare's per-show test of evaluate results
    # gives the per-query p-value and mean change of each search measure
    both = json.loads(
        _search(tmp_path, "both.json", DATA / "qrels.txt", {n: DATA / f"run_{n}.txt" for n in "ab"}).read_text()
    )
    searched = {m["metric"]: m for m in compare_search_results(both, both, old_run="a", new_run="b")["metrics"]}
    for key in ("map", "maisp", "p_10_tol"):
        shaped = {
            name: {
                "systems": {
                    name: {"corpus": {"cov_d": 0.0}, "shows": {q: {"cov_d": v[key]} for q, v in run["queries"].items()}}
                }
            }
            for name, run in both["runs"].items()
        }
        evaluated = compare_results(shaped["a"], shaped["b"], old_system="a", new_system="b")["metrics"][0]
        assert (evaluated["p_value"], evaluated["mean_difference"]) == (
            searched[key]["p_value"],
            searched[key]["mean_difference"],
        )


def test_the_page_names_the_queries_and_the_measures(tmp_path):
    both = _search(tmp_path, "both.json", DATA / "qrels.txt", {n: DATA / f"run_{n}.txt" for n in "ab"})
    page = tmp_path / "page"
    assert main(["compare", str(both), "--systems", "a", "b", "--html", str(page)]) == 0
    html = (page / "index.html").read_text()
    assert "39 queries in common" in html and "Queries whose MAP got worse (34)" in html
    # MAP 2.47 -> 0.771 (sh_eval's MAP, above 1 where a run repeats a hit), Holm p below 0.05, higher is better:
    # worse; the relevant segments counted, a count without direction: no word
    assert '<th scope="row">MAP</th><td>2.47</td><td>0.771</td><td class="worse">\u22121.7 <span' in html
    assert '<th scope="row">relevant</th><td>154</td><td>154</td><td>0</td>' in html
    assert "pages</th>" not in html  # tvseg search's page has no page per query to link


@pytest.mark.parametrize("kind", ["evaluate", "settings", "queries"])
def test_what_cannot_be_compared_is_refused_naming_the_files(tmp_path, capsys, kind):
    runs = {n: DATA / f"run_{n}.txt" for n in "ab"}
    first = _search(tmp_path, "first.json", DATA / "qrels.txt", {"a": runs["a"]})
    if kind == "evaluate":
        second = tmp_path / "evaluated.json"
        second.write_text(json.dumps({"signature": "s", "systems": {"a": {"corpus": {}, "shows": {}}}}))
        words = "is a result of tvseg search and"
    elif kind == "settings":
        second = _search(tmp_path, "second.json", DATA / "qrels.txt", {"a": runs["b"]}, "--tolerance", "10")
        words = "tolerance 15 and 10"
    else:
        fewer = tmp_path / "qrels.txt"
        fewer.write_text("".join(line for line in (DATA / "qrels.txt").open() if not line.startswith("query_1 ")))
        second = _search(tmp_path, "second.json", fewer, {"a": runs["b"]})
        words = "1 only in"
    capsys.readouterr()
    assert main(["compare", str(first), str(second)]) == 2
    err = capsys.readouterr().err
    assert words in err and str(first) in err and str(second) in err and "Traceback" not in err
