"""``tvseg merge`` (issue 40): runs over parts of a corpus merged give the run over all of it.

Every expected value comes from an independent path: the run of ``tvseg evaluate --json`` over the whole
corpus. The halves split the shows by the parity of their rank, so that the two runs' shows interleave in
the whole run's order (the hardest case for the merge: every show's data must be put back in its place).
"""

import importlib.util
import json
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

import tvseg
from tvseg.cli import main
from tvseg.samples import demo_folder

ROOT = Path(__file__).resolve().parents[1]
VOLATILE = {"run_id"}


def _guard():
    spec = importlib.util.spec_from_file_location("numbers_guard", ROOT / "scripts" / "numbers_guard.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _leaves(old, new, where=""):
    """``(equal, differences)``: the number of leaf values equal in type and value, and where they differ
    (every key but ``run_id``)."""
    if isinstance(old, dict) and isinstance(new, dict):
        if set(old) - VOLATILE != set(new) - VOLATILE:
            return 0, [f"{where}: keys {sorted(set(old) ^ set(new))}"]
        pairs = [(old[k], new[k], f"{where}/{k}") for k in old if k not in VOLATILE]
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return 0, [f"{where}: length {len(old)} != {len(new)}"]
        pairs = [(x, y, f"{where}[{i}]") for i, (x, y) in enumerate(zip(old, new))]
    else:
        same = old == new and type(old) is type(new)
        return (1, []) if same else (0, [f"{where}: {old!r} != {new!r}"])
    equal, found = 0, []
    for x, y, w in pairs:
        e, f = _leaves(x, y, w)
        equal, found = equal + e, found + f
    return equal, found


def _evaluate(tmp, name, argv):
    out = tmp / f"{name}.json"
    assert main(["evaluate", *argv, "--json", str(out)]) == 0
    return out


def _split_demo(tmp):
    """The demo corpus in three sets of files: shows of even rank, of odd rank, all."""
    root = demo_folder()
    shows = sorted(p.stem for p in (root / "reference" / "chapters").glob("*.vtt"))
    lines = (root / "hypotheses" / "system_a.rttm").read_text().splitlines(True)
    runs = {}
    for part, kept in (("even", shows[0::2]), ("odd", shows[1::2]), ("all", shows)):
        folder = tmp / part
        (folder / "ref").mkdir(parents=True)
        (folder / "b").mkdir()
        for show in kept:
            shutil.copy(root / "reference" / "chapters" / f"{show}.vtt", folder / "ref")
            shutil.copy(root / "hypotheses" / "system_b" / f"{show}.vtt", folder / "b")
        (folder / "a.rttm").write_text("".join(line for line in lines if line.split()[1] in kept))
        argv = ["--reference", str(folder / "ref"), "--hypothesis", f"system_a={folder / 'a.rttm'}"]
        argv += ["--hypothesis", f"system_b={folder / 'b'}", "--units", str(root / "units" / "breath_groups.csv")]
        argv += ["--uem", str(root / "corpus.uem"), "--metadata", str(root / "metadata.csv")]
        runs[part] = _evaluate(tmp, part, argv)
    return runs


def _split_broadcast(tmp, n_shows=30):
    """The numbers guard's random broadcast corpus (reference with titles, RTTM system ``a``, CSV system
    ``c`` with scores and titles, units, a gapped UEM) in three sets of files: even, odd, all."""
    source = tmp / "corpus"
    _guard().broadcast(source, n_shows, 7)
    shows = sorted(p.stem for p in (source / "ref").glob("*.rttm"))
    a_lines = (source / "a.rttm").read_text().splitlines(True)
    header, *c_lines = (source / "c.csv").read_text().splitlines(True)
    runs = {}
    for part, kept in (("even", shows[0::2]), ("odd", shows[1::2]), ("all", shows)):
        folder = tmp / part
        (folder / "ref").mkdir(parents=True)
        for show in kept:
            shutil.copy(source / "ref" / f"{show}.rttm", folder / "ref")
        (folder / "a.rttm").write_text("".join(line for line in a_lines if line.split()[1] in kept))
        (folder / "c.csv").write_text(header + "".join(line for line in c_lines if line.split(",")[0] in kept))
        argv = ["--reference", str(folder / "ref"), "--hypothesis", f"a={folder / 'a.rttm'}"]
        argv += ["--hypothesis", f"c={folder / 'c.csv'}", "--uem", str(source / "shows.uem")]
        argv += ["--units", str(source / "units.csv"), "--bootstrap", "200", "--no-time-base-check"]
        runs[part] = _evaluate(tmp, part, argv)
    return runs


def _split_choi(tmp, n_docs=40):
    """The numbers guard's random Choi corpus (a text corpus: scored in its sentences) in three sets of files."""
    source = tmp / "corpus"
    _guard().choi(source, n_docs, 11)
    docs = sorted(p.name for p in (source / "ref").iterdir())
    runs = {}
    for part, kept in (("even", docs[0::2]), ("odd", docs[1::2]), ("all", docs)):
        for side in ("ref", "hyp"):
            (tmp / part / side).mkdir(parents=True)
            for doc in kept:
                shutil.copy(source / side / doc, tmp / part / side)
        argv = ["--reference", str(tmp / part / "ref"), "--hypothesis", f"s={tmp / part / 'hyp'}", "--format", "choi"]
        runs[part] = _evaluate(tmp, part, [*argv, "--bootstrap", "200"])
    return runs


@pytest.fixture(scope="module")
def choi_runs(tmp_path_factory):
    return _split_choi(tmp_path_factory.mktemp("choi"))


@pytest.fixture(scope="module")
def demo_runs(tmp_path_factory):
    return _split_demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def broadcast_runs(tmp_path_factory):
    return _split_broadcast(tmp_path_factory.mktemp("broadcast"))


@pytest.mark.parametrize("corpus", ["demo_runs", "broadcast_runs", "choi_runs"])
def test_two_halves_merged_are_the_whole_run_value_for_value(corpus, request, tmp_path):
    runs = request.getfixturevalue(corpus)
    out = tmp_path / "merged.json"
    assert main(["merge", str(runs["even"]), str(runs["odd"]), "--json", str(out)]) == 0
    whole, merged = json.loads(runs["all"].read_text()), json.loads(out.read_text())
    equal, found = _leaves(whole, merged)
    assert found == []
    assert equal == _leaves(whole, whole)[0] > 4_000  # every value: metrics, sweeps, intervals, p-values, components
    print(f"{corpus}: {equal} values equal")
    assert merged["pairwise"] == whole["pairwise"] and len(merged["pairwise"]) >= (
        5 if len(whole["systems"]) > 1 else 0
    )


def test_the_merged_text_is_the_whole_runs_but_for_the_run_id(broadcast_runs, tmp_path):
    out = tmp_path / "merged.json"
    assert main(["merge", str(broadcast_runs["odd"]), str(broadcast_runs["even"]), "--json", str(out)]) == 0
    whole = json.loads(broadcast_runs["all"].read_text())
    merged = json.loads(out.read_text())
    merged["run_id"] = whole["run_id"]
    assert json.dumps(merged) == json.dumps(whole)  # the order of the runs given does not matter
    assert "title_accuracy" in whole["systems"]["c"]["corpus"] and "det_curve" in whole["systems"]["c"]


def test_merge_writes_to_standard_output(demo_runs, capsys):
    assert main(["merge", str(demo_runs["even"]), str(demo_runs["odd"]), "--json", "-"]) == 0
    merged = json.loads(capsys.readouterr().out)
    assert _leaves(json.loads(demo_runs["all"].read_text()), merged)[1] == []


def test_results_in_memory_merge_to_the_whole_evaluation():
    # a random corpus of 16 shows, two systems (b lacks a show: scored as an empty hypothesis)
    rng = np.random.default_rng(3)

    def segmentation(length, cuts):
        edges = [0.0, *np.unique(cuts).tolist(), length]
        return [(float(a), float(b)) for a, b in zip(edges, edges[1:])]

    reference, a, b = {}, {}, {}
    for k in range(16):
        show, length = f"show{k:02d}", float(rng.integers(600, 1800))
        cuts = rng.choice(np.arange(20, int(length) - 20), size=int(rng.integers(2, 9)), replace=False)
        reference[show] = segmentation(length, cuts)
        a[show] = segmentation(length, np.clip(cuts + rng.integers(-8, 9, len(cuts)), 10, length - 10))
        if k != 5:
            b[show] = segmentation(length, rng.choice(np.arange(20, int(length) - 20), size=4, replace=False))
    settings = tvseg.Settings(bootstrap=300, seed=4)
    shows = sorted(reference)
    parts = [[s for k, s in enumerate(shows) if k % 3 == r] for r in range(3)]

    def run(kept):
        return tvseg.evaluate(
            {s: reference[s] for s in kept},
            {"a": {s: a[s] for s in kept}, "b": {s: b[s] for s in kept if s in b}},
            settings=settings,
        )

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = run(shows)
        merged = tvseg.merge(*(run(kept) for kept in parts))
    assert merged.systems["b"].has_output.tolist() == [k != 5 for k in range(16)]
    assert json.dumps(merged.to_json()) == json.dumps(whole.to_json())


def test_runs_whose_titles_the_whole_corpus_scores_otherwise_are_refused(broadcast_runs, tmp_path, capsys):
    # system c's titles removed from the shows of odd rank: that run scores c without titles, and one run
    # over every show would score them (the even half has titles on both sides): refused, naming the run
    folder = broadcast_runs["odd"].parent / "odd"
    header, *lines = (folder / "c.csv").read_text().splitlines(True)
    untitled = tmp_path / "c.csv"
    untitled.write_text(header + "".join(",".join([*line.split(",")[:3], "", line.split(",")[4]]) for line in lines))
    source = broadcast_runs["odd"].parent / "corpus"
    argv = ["--reference", str(folder / "ref"), "--hypothesis", f"a={folder / 'a.rttm'}", "--hypothesis"]
    argv += [f"c={untitled}", "--uem", str(source / "shows.uem"), "--units", str(source / "units.csv")]
    odd = _evaluate(tmp_path, "odd-untitled", [*argv, "--bootstrap", "200", "--no-time-base-check"])
    capsys.readouterr()
    assert main(["merge", str(broadcast_runs["even"]), str(odd), "--json", str(tmp_path / "o.json")]) == 2
    message = capsys.readouterr().err
    assert str(odd) in message and "system 'c' without titles" in message and "would score it with them" in message


def test_the_library_merges_results_in_memory_and_files(demo_runs):
    result = tvseg.merge(str(demo_runs["even"]), json.loads(demo_runs["odd"].read_text()))
    whole = json.loads(demo_runs["all"].read_text())
    assert _leaves({**whole, "run_id": None}, {**result.to_json(), "run_id": None})[1] == []


def _edited(path, tmp_path, name, edit):
    document = json.loads(path.read_text())
    edit(document)
    out = tmp_path / name
    out.write_text(json.dumps(document))
    return out


def test_runs_of_other_settings_are_refused_naming_the_setting_and_the_files(demo_runs, tmp_path, capsys):
    def other_gamma(document):
        document["settings"]["gamma"] = 0.9

    odd = _edited(demo_runs["odd"], tmp_path, "odd-gamma.json", other_gamma)
    assert main(["merge", str(demo_runs["even"]), str(odd), "--json", str(tmp_path / "out.json")]) == 2
    message = capsys.readouterr().err
    assert "'gamma'" in message and "0.85" in message and "0.9" in message
    assert str(demo_runs["even"]) in message and str(odd) in message
    assert not (tmp_path / "out.json").exists()


def test_runs_sharing_a_show_are_refused_naming_it_and_both_files(demo_runs, tmp_path, capsys):
    assert main(["merge", str(demo_runs["even"]), str(demo_runs["all"]), "--json", str(tmp_path / "o.json")]) == 2
    message = capsys.readouterr().err
    first = sorted(p.stem for p in (demo_folder() / "reference" / "chapters").glob("*.vtt"))[0]
    assert f"show '{first}'" in message and str(demo_runs["even"]) in message and str(demo_runs["all"]) in message


def test_a_result_without_components_is_refused_naming_its_file(demo_runs, tmp_path, capsys):
    def older(document):
        del document["components"]

    odd = _edited(demo_runs["odd"], tmp_path, "older.json", older)
    assert main(["merge", str(demo_runs["even"]), str(odd), "--json", str(tmp_path / "o.json")]) == 2
    message = capsys.readouterr().err
    assert str(odd) in message and "carries no components" in message


def test_runs_of_other_systems_are_refused(demo_runs, tmp_path, capsys):
    def one_system(document):
        del document["systems"]["system_b"], document["components"]["systems"]["system_b"]

    odd = _edited(demo_runs["odd"], tmp_path, "one.json", one_system)
    assert main(["merge", str(demo_runs["even"]), str(odd), "--json", str(tmp_path / "o.json")]) == 2
    assert "the systems are system_a, system_b in" in capsys.readouterr().err


def test_html_is_refused_with_the_reason(demo_runs, tmp_path, capsys):
    argv = ["merge", str(demo_runs["even"]), str(demo_runs["odd"]), "--json", str(tmp_path / "o.json")]
    assert main([*argv, "--html", str(tmp_path / "report")]) == 2
    assert "not the segments" in capsys.readouterr().err


def test_compare_of_two_systems_of_one_run_gives_evaluates_pairwise_p_values(broadcast_runs, tmp_path):
    out = tmp_path / "comparison.json"
    path = str(broadcast_runs["all"])
    assert main(["compare", path, path, "--systems", "a", "c", "--json", str(out)]) == 0
    comparison = json.loads(out.read_text())
    pairwise = json.loads(broadcast_runs["all"].read_text())["pairwise"]
    expected = {e["metric"]: e["p_value"] for e in pairwise if (e["a"], e["b"]) == ("a", "c")}
    got = {m["metric"]: m["p_value_pooled"] for m in comparison["metrics"] if m["p_value_pooled"] is not None}
    assert got == expected and len(expected) >= 5  # cov_n, cov_d, boundary_f1, pk, windowdiff
    assert comparison["pooled_test"]["test"] == "paired bootstrap" and comparison["pooled_test"]["resamples"] == 200


def test_compare_tests_the_pooled_values_of_two_runs_over_their_common_shows(demo_runs, tmp_path):
    # the whole run against its even half, system a: the common shows are the half's, and the pooled test
    # over them is evaluate's test of the half against itself: every pooled difference 0, p-value 1
    out = tmp_path / "comparison.json"
    argv = ["compare", str(demo_runs["all"]), str(demo_runs["even"]), "--system", "system_a", "--json", str(out)]
    assert main(argv) == 0
    metrics = {m["metric"]: m for m in json.loads(out.read_text())["metrics"]}
    assert metrics["cov_d"]["p_value_pooled"] == 1.0 and metrics["pk"]["p_value_pooled"] == 1.0


def test_compare_of_three_runs_tests_the_last_two(demo_runs, tmp_path, capsys):
    paths = [str(demo_runs[k]) for k in ("odd", "even", "all")]
    assert main(["compare", *paths, "--system", "system_b"]) == 0
    printed = capsys.readouterr().out
    assert f"earlier run 1: system_b ({paths[0]})" in printed
    assert f"({paths[1]}) -> system_b ({paths[2]})" in printed
