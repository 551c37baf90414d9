"""``tvseg merge`` (issue 40): runs over parts of a corpus merged give the run over all of it.

Every expected value comes from an independent path: the run of ``tvseg evaluate --json`` over the whole
corpus. The halves split the shows by the parity of their rank, so that the two runs' shows interleave in
the whole run's order (the hardest case for the merge: every show's data must be put back in its place).
"""

import importlib.util
import itertools
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


# --- systems of every input kind: overlapping predictions, grounding answers, captioning metrics -------------
#
# Hand-written shows of a news programme: (start, end, title) in seconds. ``w1``...``w8`` are ``v1``...``v8``
# with every time 1.5 times larger, so that the corpus has 16 shows: more than the exact sign-flip test's 12,
# and the p-values are the paired bootstrap's (drawn with the settings' seed, as the intervals are).

REFERENCE = {
    "v1": [(0, 40, "opening headlines"), (40, 95, "weather report"), (95, 130, "sports results")],
    "v2": [(0, 70, "market news"), (70, 100, "closing remarks")],
    "v3": [(0, 30, "opening headlines"), (30, 80, "local election"), (80, 150, "weather report")],
    "v4": [(0, 60, "interview with the mayor"), (60, 90, "traffic update"), (90, 120, "sports results")],
    "v5": [(0, 25, "opening headlines"), (25, 110, "flood warning"), (110, 140, "closing remarks")],
    "v6": [(0, 50, "market news"), (50, 100, "weather report")],
    "v7": [(0, 45, "school reopening"), (45, 90, "traffic update"), (90, 160, "sports results")],
    "v8": [(0, 35, "opening headlines"), (35, 75, "local election"), (75, 115, "closing remarks")],
}
# a segmentation (disjoint segments), titled
SEGMENTATION = {
    "v1": [(0, 42, "headlines"), (42, 130, "weather and sports")],
    "v2": [(0, 65, "market news"), (65, 80, "remarks"), (80, 100, "closing remarks")],
    "v3": [(0, 35, "opening headlines"), (35, 150, "election and weather")],
    "v4": [(0, 58, "mayor interview"), (58, 120, "traffic and sports")],
    "v5": [(0, 25, "opening headlines"), (25, 60, "flood"), (60, 112, "flood warning"), (112, 140, "closing")],
    "v6": [(0, 100, "news")],
    "v7": [(0, 47, "school reopening"), (47, 88, "traffic update"), (88, 160, "sports results")],
    "v8": [(0, 30, "headlines"), (30, 115, "election remarks")],
}
# dense-captioning predictions: in every show some segments overlap (so that each half has overlaps)
DENSE = {
    "v1": [(0, 50, "opening headlines"), (30, 90, "weather"), (95, 130, "sports results")],
    "v2": [(0, 70, "market news"), (60, 100, "closing remarks")],
    "v3": [(0, 40, "headlines"), (20, 80, "local election"), (70, 150, "weather report")],
    "v4": [(0, 65, "mayor"), (50, 120, "sports")],
    "v5": [(0, 30, "opening headlines"), (10, 110, "flood warning"), (100, 140, "closing remarks"), (105, 140, "end")],
    "v6": [(0, 50, "market news"), (40, 100, "weather report")],
    "v7": [(0, 45, "school reopening"), (40, 95, "traffic"), (90, 160, "sports results"), (0, 160, "the whole show")],
    "v8": [(0, 35, "opening headlines"), (30, 80, "local election"), (70, 115, "closing remarks")],
}
# grounding answers: one segment per reference title, with that title; overlapping ones, and disjoint ones
GROUNDING_ANSWERS = {
    "v1": [(0, 45, "opening headlines"), (35, 100, "weather report"), (90, 130, "sports results")],
    "v2": [(0, 72, "market news"), (69, 100, "closing remarks")],
    "v3": [(0, 31, "opening headlines"), (25, 90, "local election"), (82, 150, "weather report")],
    "v4": [(2, 60, "interview with the mayor"), (55, 95, "traffic update"), (85, 120, "sports results")],
    "v5": [(0, 26, "opening headlines"), (20, 112, "flood warning"), (108, 140, "closing remarks")],
    "v6": [(0, 55, "market news"), (48, 100, "weather report")],
    "v7": [(0, 44, "school reopening"), (42, 92, "traffic update"), (91, 160, "sports results")],
    "v8": [(0, 36, "opening headlines"), (33, 77, "local election"), (70, 115, "closing remarks")],
}
GROUNDING_SEGMENTATION = {
    "v1": [(0, 43, "opening headlines"), (43, 93, "weather report"), (93, 130, "sports results")],
    "v2": [(0, 69, "market news"), (69, 100, "closing remarks")],
    "v3": [(0, 33, "opening headlines"), (33, 85, "local election"), (85, 150, "weather report")],
    "v4": [(0, 61, "interview with the mayor"), (61, 87, "traffic update"), (87, 120, "sports results")],
    "v5": [(0, 29, "opening headlines"), (29, 107, "flood warning"), (107, 140, "closing remarks")],
    "v6": [(0, 52, "market news"), (52, 100, "weather report")],
    "v7": [(0, 46, "school reopening"), (46, 96, "traffic update"), (96, 160, "sports results")],
    "v8": [(0, 38, "opening headlines"), (38, 72, "local election"), (72, 115, "closing remarks")],
}


def _sixteen(shows):
    """The 8 hand-written shows and their copies ``w*`` 1.5 times longer."""
    out = dict(shows)
    for show, segments in shows.items():
        out["w" + show[1:]] = [(1.5 * s, 1.5 * e, title) for s, e, title in segments]
    return out


def _csv(shows, kept):
    lines = [f"{show},{s:g},{e:g},{title}\n" for show in kept for s, e, title in shows[show]]
    return "show,start,end,label\n" + "".join(lines)


def _anet(shows, kept):
    results = {show: [{"timestamp": [s, e], "sentence": title} for s, e, title in shows[show]] for show in kept}
    return json.dumps({"version": "VERSION 1.0", "results": results, "external_data": {}})


def _split_kinds(tmp, systems, *, units=False, options=()):
    """``{"even", "odd", "all"}``: ``tvseg evaluate --json`` of the systems ``{name: (shows, writer)}`` over
    the 16 shows of even rank, of odd rank, all of them (CSV reference; ``units``: 10-second units)."""
    reference = _sixteen(REFERENCE)
    shows = sorted(reference)
    runs = {}
    for part, kept in (("even", shows[0::2]), ("odd", shows[1::2]), ("all", shows)):
        folder = tmp / part
        folder.mkdir(parents=True)
        (folder / "ref.csv").write_text(_csv(reference, kept))
        argv = ["--reference", str(folder / "ref.csv"), "--bootstrap", "200", "--seed", "5", *options]
        for name, (segments, writer) in systems.items():
            path = folder / (name + (".json" if writer is _anet else ".csv"))
            path.write_text(writer(_sixteen(segments), kept))
            argv += ["--hypothesis", f"{name}={path}"]
        if units:
            ends = {show: int(reference[show][-1][1]) for show in kept}
            cuts = [(show, t, min(t + 10, end)) for show, end in ends.items() for t in range(0, end, 10)]
            (folder / "units.csv").write_text("show,start,end\n" + "".join(f"{s},{a},{b}\n" for s, a, b in cuts))
            argv += ["--units", str(folder / "units.csv")]
        runs[part] = _evaluate(tmp, part, argv)
    return runs


def _captioning_missing():
    from tvseg.retrieval.captioning import captioning_missing

    return captioning_missing()


KINDS = {
    # name: (systems, units, options, traits of each system in the whole run)
    "overlapping alone": ({"dense": (DENSE, _anet)}, False, (), {"dense": {"time", "titles"}}),
    "overlapping beside segmentations and units": (
        {"dense": (DENSE, _anet), "seg": (SEGMENTATION, _csv), "ground_seg": (GROUNDING_SEGMENTATION, _csv)},
        True,
        (),
        {
            "dense": {"time", "titles"},
            "seg": {"time", "disjoint", "titles", "units"},
            "ground_seg": {"time", "disjoint", "titles", "units", "grounding"},
        },
    ),
    "grounding answers": (
        {
            "answers": (GROUNDING_ANSWERS, _anet),
            "ground_seg": (GROUNDING_SEGMENTATION, _csv),
            "seg": (SEGMENTATION, _csv),
        },
        False,
        (),
        {
            "answers": {"time", "titles", "grounding"},
            "ground_seg": {"time", "disjoint", "titles", "grounding"},
            "seg": {"time", "disjoint", "titles"},
        },
    ),
    "captioning metrics": (
        {"dense": (DENSE, _anet), "seg": (SEGMENTATION, _csv), "ground_seg": (GROUNDING_SEGMENTATION, _csv)},
        False,
        ("--preset", "vidchapters"),
        {
            "dense": {"time", "titles", "captioning", "meteor"},
            "seg": {"time", "disjoint", "titles", "captioning", "meteor"},
            "ground_seg": {"time", "disjoint", "titles", "grounding", "captioning", "meteor"},
        },
    ),
}


@pytest.fixture(scope="module")
def kind_runs(tmp_path_factory, request):
    systems, units, options, _ = KINDS[request.param]
    if "--preset" in options and _captioning_missing() is not None:
        pytest.skip(f"the captioning metrics need {_captioning_missing()}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return request.param, _split_kinds(tmp_path_factory.mktemp("kind"), systems, units=units, options=options)


@pytest.mark.parametrize("kind_runs", list(KINDS), indirect=True)
def test_two_halves_of_every_input_kind_merged_are_the_whole_run(kind_runs, tmp_path):
    kind, runs = kind_runs
    out = tmp_path / "merged.json"
    assert main(["merge", str(runs["odd"]), str(runs["even"]), "--json", str(out)]) == 0
    whole, merged = json.loads(runs["all"].read_text()), json.loads(out.read_text())
    # each system has the traits of its input (written out in KINDS), carried in the components
    traits = {name: set(s["traits"]) for name, s in whole["components"]["systems"].items()}
    assert traits == KINDS[kind][3]
    equal, found = _leaves(whole, merged)
    assert found == []
    assert equal == _leaves(whole, whole)[0] > 1_000  # every value: metrics, intervals, p-values, components
    print(f"{kind}: {equal} values equal")
    for name, system in whole["systems"].items():
        assert system["bootstrap"], name  # intervals drawn for every system
        if "disjoint" not in traits[name]:
            assert "cov_d" not in system["corpus"] and "vc_detection_f1" in system["corpus"]
    assert merged["pairwise"] == whole["pairwise"]
    # evaluate compares the systems with disjoint segments (no metric compared holds for overlapping ones)
    disjoint = [name for name in traits if "disjoint" in traits[name]]
    assert {(e["a"], e["b"]) for e in whole["pairwise"]} == set(itertools.combinations(disjoint, 2))


@pytest.mark.parametrize("kind_runs", [k for k in KINDS if len(KINDS[k][0]) > 1], indirect=True)
def test_compare_of_two_systems_of_a_merged_run_gives_evaluates_pairwise_p_values(kind_runs, tmp_path):
    kind, runs = kind_runs
    merged = tmp_path / "merged.json"
    assert main(["merge", str(runs["even"]), str(runs["odd"]), "--json", str(merged)]) == 0
    pairwise = json.loads(runs["all"].read_text())["pairwise"]
    names = list(KINDS[kind][0])
    tested = 0
    for a, b in itertools.combinations(names, 2):
        out = tmp_path / f"{a}-{b}.json"
        assert main(["compare", str(merged), str(merged), "--systems", a, b, "--json", str(out)]) == 0
        comparison = json.loads(out.read_text())
        expected = {e["metric"]: e["p_value"] for e in pairwise if {e["a"], e["b"]} == {a, b}}
        got = {m["metric"]: m["p_value_pooled"] for m in comparison["metrics"] if m["p_value_pooled"] is not None}
        assert got == expected, (a, b)
        tested += len(expected)
    # the two segmentations are compared on cov_n, cov_d, boundary_f1 (and pk, windowdiff with units);
    # the overlapping predictions on none of them (evaluate gives no pairwise entry for them)
    assert tested >= 3
    print(f"{kind}: {tested} pooled p-values equal evaluate's")


@pytest.mark.parametrize(
    ("odd_segments", "trait"),
    [
        (SEGMENTATION, "disjoint"),  # the odd half's predictions do not overlap: scored as a segmentation
        (DENSE, "grounding"),  # the odd half's answers are not one per reference title: no grounding
    ],
)
def test_runs_whose_systems_traits_differ_are_refused_naming_system_trait_and_files(
    odd_segments, trait, tmp_path, capsys
):
    whole = GROUNDING_ANSWERS if trait == "grounding" else DENSE
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        even = _split_kinds(tmp_path / "a", {"p": (whole, _anet)})["even"]
        odd = _split_kinds(tmp_path / "b", {"p": (odd_segments, _anet)})["odd"]
    traits = [set(json.loads(path.read_text())["components"]["systems"]["p"]["traits"]) for path in (even, odd)]
    assert traits[0] ^ traits[1] == {trait}
    capsys.readouterr()
    assert main(["merge", str(even), str(odd), "--json", str(tmp_path / "o.json")]) == 2
    message = capsys.readouterr().err
    assert f"system 'p' has the trait '{trait}'" in message and str(even) in message and str(odd) in message
    assert not (tmp_path / "o.json").exists()


def test_components_with_unknown_traits_are_refused_naming_the_file(demo_runs, tmp_path, capsys):
    def unknown(document):
        document["components"]["systems"]["system_a"]["traits"] = ["time", "wobbly"]

    odd = _edited(demo_runs["odd"], tmp_path, "wobbly.json", unknown)
    assert main(["merge", str(demo_runs["even"]), str(odd), "--json", str(tmp_path / "o.json")]) == 2
    message = capsys.readouterr().err
    assert str(odd) in message and "wobbly" in message
