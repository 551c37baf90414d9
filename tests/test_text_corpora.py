"""Text corpora (Choi, Wiki-727K, segeval's datasets, nltk's boundary strings) read in the unit domain and
scored by ``tvseg evaluate`` on their sentences: every document's Pk, WindowDiff, B and S equal to segeval
2.0.11's on the same masses (segeval takes (hypothesis, reference)), Pk and WindowDiff to nltk's."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import tvseg
from tvseg import metrics
from tvseg.cli import main
from tvseg.errors import InputError, UsageError
from tvseg.readers.text_corpora import choi_segments, wiki727k_segments

segeval = pytest.importorskip("segeval")
nltk_segmentation = pytest.importorskip("nltk.metrics.segmentation")


def random_masses(rng: random.Random, total: int) -> list[int]:
    """Masses of ``total`` sentences in 2 .. 6 segments."""
    cuts = sorted(rng.sample(range(1, total), rng.randint(1, 5)))
    edges = [0, *cuts, total]
    return [b - a for a, b in zip(edges, edges[1:])]


def choi_text(masses: list[int], doc: int) -> str:
    lines = ["=========="]
    for k, m in enumerate(masses):
        lines += [f"Sentence {j} of segment {k} in document {doc} ." for j in range(m)]
        lines.append("==========")
    return "\n".join(lines) + "\n"


def wiki_text(masses: list[int], doc: int) -> str:
    lines = ["========,1,preface.", f"Document {doc} opens here.", "***LIST***."]
    for k, m in enumerate(masses):
        lines.append(f"========,2,Section {k}.")
        lines += [f"Sentence {j} of section {k}." for j in range(m)]
    return "\n".join(lines) + "\n"


def corpus(tmp_path: Path, kind: str, seed: int = 7, documents: int = 10):
    """Reference and hypothesis folders of ``documents`` generated documents, and their masses."""
    rng = random.Random(seed)
    write = choi_text if kind == "choi" else wiki_text
    masses = {}
    for side in ("ref", "hyp"):
        (tmp_path / side).mkdir()
    for d in range(documents):
        total = rng.randint(12, 40)
        pair = (random_masses(rng, total), random_masses(rng, total))
        masses[f"doc{d}"] = pair
        for side, m in zip(("ref", "hyp"), pair):
            name = f"doc{d}.ref" if kind == "choi" else f"doc{d}"
            (tmp_path / side / name).write_text(write(m, d), encoding="utf-8")
    return masses


def evaluate_json(tmp_path: Path, kind: str, *options: str) -> dict:
    out = tmp_path / "scores.json"
    args = ["evaluate", "--reference", str(tmp_path / "ref"), "--hypothesis", f"sys={tmp_path / 'hyp'}"]
    assert main([*args, "--format", kind, *options, "--json", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))["systems"]["sys"]


def nltk_string(masses):
    """nltk's boundary string: a character per gap between two sentences, 1 at a boundary."""
    return "1".join("0" * (m - 1) for m in masses)


def assert_segeval_per_document(system, masses):
    """Each document's Pk, WindowDiff, B and S equal segeval's on its masses (segeval takes (hypothesis,
    reference))."""
    for doc, (ref, hyp) in masses.items():
        got = system["shows"][doc]
        assert got["pk"] == pytest.approx(float(segeval.pk(hyp, ref)), abs=1e-12), doc
        assert got["windowdiff"] == pytest.approx(float(segeval.window_diff(hyp, ref)), abs=1e-12), doc
        assert got["b"] == pytest.approx(float(segeval.boundary_similarity(hyp, ref)), abs=1e-12), doc
        assert got["s"] == pytest.approx(float(segeval.segmentation_similarity(hyp, ref)), abs=1e-12), doc


@pytest.mark.parametrize("kind", ["choi", "wiki727k"])
def test_every_document_equals_segeval(tmp_path, kind):
    masses = corpus(tmp_path, kind)
    system = evaluate_json(tmp_path, kind, "--convention", "segeval")
    assert set(system["shows"]) == set(masses)
    assert_segeval_per_document(system, masses)
    # the unit metrics only: no time-domain metric, not even as null
    # every unit metric but chunkseg's chunk P/R/F1, which need its chunks (the chunkseg convention)
    unit_metrics = {k for k in tvseg.evaluation.UNIT_METRICS if metrics.CHUNKS not in metrics.METRICS[k].requires}
    assert set(system["corpus"]) == unit_metrics
    assert set(system["macro"]) == unit_metrics
    assert system["sweeps"] == {"gamma": [], "tolerance": []}
    # the macro values are the means of the documents'
    for key in ("pk", "windowdiff", "b", "s"):
        mean = sum(system["shows"][d][key] for d in masses) / len(masses)
        assert system["macro"][key] == pytest.approx(mean, abs=1e-12)


def test_preset_segeval_gives_segeval_numbers(tmp_path):
    masses = corpus(tmp_path, "choi", seed=3)
    system = evaluate_json(tmp_path, "choi", "--preset", "segeval")
    assert_segeval_per_document(system, masses)


def test_every_document_equals_nltk(tmp_path):
    masses = corpus(tmp_path, "choi", seed=11)
    system = evaluate_json(tmp_path, "choi", "--convention", "nltk")
    for doc, (ref, hyp) in masses.items():
        r, h = nltk_string(ref), nltk_string(hyp)
        # nltk's default k (pk's): half the mean segment length in characters, rounded
        k = int(round(len(r) / (r.count("1") * 2.0)))
        got = system["shows"][doc]
        assert got["pk"] == pytest.approx(nltk_segmentation.pk(r, h), abs=1e-12), doc
        assert got["windowdiff"] == pytest.approx(nltk_segmentation.windowdiff(r, h, k), abs=1e-12), doc


def test_no_caption_warning_and_the_summary_shows_unit_metrics(tmp_path, capsys, recwarn):
    corpus(tmp_path, "choi", documents=3)
    assert main(["evaluate", "--reference", str(tmp_path / "ref"), "--hypothesis", f"sys={tmp_path / 'hyp'}",
                 "--format", "choi"]) == 0  # fmt: skip
    out = capsys.readouterr()
    assert "caption" not in out.err.lower()
    assert not [w for w in recwarn if "caption" in str(w.message).lower()]
    assert "CovN" not in out.out and "Pk" in out.out and "S" in out.out


def test_s_follows_the_convention_as_the_function_does(tmp_path):
    # reference (2, 3, 3, 2), hypothesis (3, 2, 3, 2): one near miss of one sentence (a transposition);
    # segeval weighs it |span - 1| / n = 1/2 PB: S = 1 - 0.5 / 9; the paper's te(2, 2) = 1 PB: S = 1 - 1 / 9
    ref, hyp = [2, 3, 3, 2], [3, 2, 3, 2]
    for side, m in (("ref", ref), ("hyp", hyp)):
        (tmp_path / side).mkdir()
        (tmp_path / side / "d.ref").write_text(choi_text(m, 0), encoding="utf-8")
    for convention, expected in (("segeval", 1 - 0.5 / 9), ("paper", 1 - 1 / 9)):
        system = evaluate_json(tmp_path, "choi", "--convention", convention)
        assert system["shows"]["d"]["s"] == pytest.approx(expected, abs=1e-12)
        assert tvseg.segmentation_similarity(ref, hyp, convention=convention) == pytest.approx(expected, abs=1e-12)


def test_a_hypothesis_of_another_length_is_refused(tmp_path, capsys):
    for side, m in (("ref", [3, 3]), ("hyp", [3, 4])):
        (tmp_path / side).mkdir()
        (tmp_path / side / "d.ref").write_text(choi_text(m, 0), encoding="utf-8")
    code = main(["evaluate", "--reference", str(tmp_path / "ref"), "--hypothesis", f"sys={tmp_path / 'hyp'}",
                 "--format", "choi"])  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert "d.ref" in err and "7 sentences, the reference 6" in err


# --- readers, hand-written files --------------------------------------------------------------------------


def spans(columns, show):
    rows = columns.rows(show)
    return list(zip(columns.start[rows].tolist(), columns.end[rows].tolist(), columns.label[rows].tolist()))


def test_choi_empty_segments_and_trailing_separator(tmp_path):
    path = tmp_path / "3.ref"
    # line 1 separator; two sentences; two separators in a row (an empty segment); a blank line (no
    # sentence); one sentence; a trailing separator: masses (2, 1)
    path.write_text("==========\nA.\nB.\n==========\n==========\n\nC.\n==========\n", encoding="utf-8")
    columns = tvseg.read_segments(path, format="choi")
    assert columns.domain == "units"
    assert spans(columns, "3") == [(0.0, 2.0, tvseg.readers.NO_LABEL), (2.0, 3.0, tvseg.readers.NO_LABEL)]
    assert columns.line.tolist() == [2, 7]
    # no separator at the ends: the same segments
    (tmp_path / "4.ref").write_text("A.\nB.\n==========\nC.", encoding="utf-8")
    assert spans(tvseg.read_segments(tmp_path / "4.ref", format="choi"), "4") == spans(columns, "3")


def test_choi_document_without_sentence(tmp_path):
    path = tmp_path / "e.ref"
    path.write_text("==========\n==========\n", encoding="utf-8")
    with pytest.raises(InputError, match="no sentence") as error:
        tvseg.read_segments(path, format="choi")
    assert str(path) in str(error.value)


def test_wiki727k_preface_levels_lists_and_titles():
    lines = [
        "========,1,preface.",  # 1
        "The preface.",  # 2: left out with its section
        "========,2,History.",  # 3
        "First.",  # 4
        "***LIST***.",  # 5: no sentence
        "========,3,Early years.",  # 6: level 3, removed: its sentences join History
        "Second.",  # 7
        "",  # 8: no sentence
        "========,2,Works.",  # 9
        "Third.",  # 10
        "========,2,Empty.",  # 11: no sentence, no segment
        "***formula***",  # 12: no word
    ]
    assert wiki727k_segments(lines) == [("History", 4, [4, 7]), ("Works", 10, [10])]


def test_wiki727k_text_before_the_first_header_is_the_preface():
    # read_wiki_file drops the first section: here the text before any header; the first header's
    # section is kept
    lines = ["Intro.", "========,1,A.", "One.", "========,1,B.", "Two."]
    assert wiki727k_segments(lines) == [("A", 3, [3]), ("B", 5, [5])]
    # a preface header followed at once by another: its section ("\n" in the loader's split) is the preface
    lines = ["========,1,preface.", "========,2,A.", "One.", "========,2,B.", "Two."]
    assert wiki727k_segments(lines) == [("A", 3, [3]), ("B", 5, [5])]
    # a title with a period: the loader's pattern stops at the first period, the rest is a sentence
    lines = ["========,1,preface.", "x.", "========,2,U.S. history.", "One."]
    assert wiki727k_segments(lines) == [("U", 3, [3, 4])]


def test_wiki727k_bad_header_names_file_and_line(tmp_path):
    path = tmp_path / "w"
    path.write_text("========,1,preface.\nx.\n========,two,Title.\ny.\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        tvseg.read_segments(path, format="wiki727k")
    assert f"{path}:3:" in str(error.value)


def test_choi_reader_function():
    assert choi_segments(["a", "==========", "b", "c"]) == [
        (tvseg.readers.NO_LABEL, 1, [1]),
        (tvseg.readers.NO_LABEL, 3, [3, 4]),
    ]


def test_segeval_json_coders(tmp_path):
    path = tmp_path / "data.json"
    path.write_text(
        json.dumps({"items": {"t1": {"an1": [2, 3], "an2": [1, 4]}, "t2": {"an1": [5], "an2": [2, 3]}}}, indent=1),
        encoding="utf-8",
    )
    ref = tvseg.read_segments(f"{path}#an1", format="segeval")
    assert ref.domain == "units" and list(ref) == ["t1", "t2"]
    assert [(a, b) for a, b, _ in spans(ref, "t1")] == [(0.0, 2.0), (2.0, 5.0)]
    with pytest.raises(UsageError, match="2 coders"):
        tvseg.read_segments(path, format="segeval")
    with pytest.raises(InputError, match="no coder 'an3'"):
        tvseg.read_segments(f"{path}#an3", format="segeval")
    # the CLI: one coder as the reference, another as the hypothesis; S and B as segeval's
    out = tmp_path / "s.json"
    assert main(["evaluate", "--reference", f"{path}#an1", "--hypothesis", f"an2={path}#an2", "--format",
                 "segeval", "--convention", "segeval", "--json", str(out)]) == 0  # fmt: skip
    shows = json.loads(out.read_text())["systems"]["an2"]["shows"]
    assert shows["t1"]["b"] == pytest.approx(float(segeval.boundary_similarity([1, 4], [2, 3])))
    assert shows["t1"]["s"] == pytest.approx(float(segeval.segmentation_similarity([1, 4], [2, 3])))


def test_segeval_tsv(tmp_path):
    path = tmp_path / "story.tsv"
    path.write_text("Coder\tMasses\n1\t2\t3\n2\t5\n", encoding="utf-8")
    columns = tvseg.read_segments(f"{path}#1", format="segeval")
    assert [(a, b) for a, b, _ in spans(columns, "story")] == [(0.0, 2.0), (2.0, 5.0)]
    bad = tmp_path / "bad.tsv"
    bad.write_text("Coder\tMasses\n1\t2\tx\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        tvseg.read_segments(bad, format="segeval")
    assert f"{bad}:2:" in str(error.value)


def test_nltk_boundary_strings(tmp_path):
    path = tmp_path / "ref.txt"
    # 7 characters: 8 sentences, boundaries after sentences 2 and 5: masses (2, 3, 3)
    path.write_text("# doc bits\ndocA 0100100\n\ndocB 000\n", encoding="utf-8")
    columns = tvseg.read_segments(path, format="nltk")
    assert [(a, b) for a, b, _ in spans(columns, "docA")] == [(0.0, 2.0), (2.0, 5.0), (5.0, 8.0)]
    assert [(a, b) for a, b, _ in spans(columns, "docB")] == [(0.0, 4.0)]
    bad = tmp_path / "bad.txt"
    bad.write_text("docA 0100100\ndocB 01x\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        tvseg.read_segments(bad, format="nltk")
    assert f"{bad}:2:" in str(error.value)


def test_cli_error_names_path_and_line(tmp_path, capsys):
    (tmp_path / "ref").mkdir()
    (tmp_path / "ref" / "w").write_text("========,1,preface.\nx.\n========,x,T.\n", encoding="utf-8")
    code = main(["evaluate", "--reference", str(tmp_path / "ref"), "--hypothesis", f"s={tmp_path / 'ref'}",
                 "--format", "wiki727k"])  # fmt: skip
    assert code == 2
    assert f"{tmp_path / 'ref' / 'w'}:3:" in capsys.readouterr().err


@pytest.mark.parametrize(
    "name", ["pk", "windowdiff", "winpr", "segmentation_similarity", "boundary_similarity", "ghd", "cseg"]
)
def test_per_pair_functions_take_reference_and_hypothesis_by_keyword(name):
    function = getattr(tvseg, name)
    ref, hyp = [2, 3, 3, 2], [1, 4, 1, 4]
    assert function(reference=ref, hypothesis=hyp) == function(ref, hyp)
    assert function(hypothesis=hyp, reference=ref) == function(ref, hyp)


def test_keywords_keep_the_order_that_segeval_reverses():
    # Pk's window comes from the reference, so Pk is not symmetric: segeval gives 4/9 for reference
    # (1, 1, 4, 4, 1) and hypothesis (1, 10), 5/8 the other way round
    ref, hyp = [1, 1, 4, 4, 1], [1, 10]
    assert float(segeval.pk(hyp, ref)) == pytest.approx(4 / 9) and float(segeval.pk(ref, hyp)) == pytest.approx(5 / 8)
    expected = float(segeval.pk(hyp, ref))  # segeval: (hypothesis, reference)
    assert tvseg.pk(reference=ref, hypothesis=hyp, convention="segeval") == pytest.approx(expected, abs=1e-12)
    assert tvseg.pk(ref, hyp, convention="segeval") == pytest.approx(expected, abs=1e-12)
    assert tvseg.pk(hyp, ref, convention="segeval") != pytest.approx(expected, abs=1e-12)


def test_jobs_score_a_text_corpus_as_one_process_does_and_html_is_refused(tmp_path, capsys):
    corpus(tmp_path, "choi", documents=4)
    one = evaluate_json(tmp_path, "choi", "--convention", "segeval")
    many = evaluate_json(tmp_path, "choi", "--convention", "segeval", "--jobs", "2")
    assert many["shows"] == one["shows"] and many["corpus"] == one["corpus"]
    code = main(["evaluate", "--reference", str(tmp_path / "ref"), "--hypothesis", f"sys={tmp_path / 'hyp'}",
                 "--format", "choi", "--html", str(tmp_path / "report")])  # fmt: skip
    assert code == 2 and "drop --html" in capsys.readouterr().err
    assert not (tmp_path / "report").exists()


def test_a_segeval_dataset_is_recognised_by_its_shape(tmp_path):
    # {"items": {doc: {coder: masses}}} without --format reads as --format segeval does; doc "d": masses
    # 3,2 against 2,3; the one boundary is off by one sentence: segeval's B with n=2 counts it as a
    # near miss, B = 1 - 0.5/1 = 0.5 (one boundary pair, one near miss of weight 0.5)
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"items": {"d": {"r": [3, 2], "h": [2, 3]}}, "segmentation_type": "linear"}))
    results = []
    for extra in ([], ["--format", "segeval"]):
        out = tmp_path / f"out{len(extra)}.json"
        code = main(
            [
                "evaluate",
                "--reference",
                f"{data}#r",
                "--hypothesis",
                f"s={data}#h",
                "--json",
                str(out),
                "--bootstrap",
                "0",
            ]
            + extra
        )
        assert code == 0
        results.append(json.loads(out.read_text())["systems"]["s"]["shows"]["d"])
    assert results[0] == results[1]
    assert results[0]["b"] == pytest.approx(0.5, abs=1e-12)


def _any_masses(rng: random.Random, total: int) -> list[int]:
    """Masses of ``total`` sentences in 1 to 6 segments (fewer when the document is shorter)."""
    inner = sorted(rng.sample(range(1, total), rng.randint(0, min(total - 1, 5)))) if total > 1 else []
    edges = [0, *inner, total]
    return [b - a for a, b in zip(edges, edges[1:])]


def _degenerate_corpus(tmp_path: Path, seed: int) -> dict[str, tuple[list[int], list[int]]]:
    """A seeded Choi corpus whose documents have 1, 2, 3 ... 12 sentences (each length four times) and then
    random lengths up to 40, in 1 to 6 segments a side (a single segment included)."""
    rng = random.Random(seed)
    masses = {}
    for side in ("ref", "hyp"):
        (tmp_path / side).mkdir()
    for d in range(80):
        total = d % 12 + 1 if d < 48 else rng.randint(1, 40)
        masses[f"doc{d:02d}"] = (_any_masses(rng, total), _any_masses(rng, total))
        for side, m in zip(("ref", "hyp"), masses[f"doc{d:02d}"]):
            (tmp_path / side / f"doc{d:02d}.ref").write_text(choi_text(m, d), encoding="utf-8")
    return masses


def _segeval_or_error(function, hyp, ref):
    try:
        return float(function(hyp, ref))
    except Exception as error:  # segeval's own refusal: Decimal's 0/0, max() of no boundary
        return type(error).__name__


def test_preset_segeval_on_every_document_of_a_random_corpus(tmp_path):
    # issue 39: a document of 1 or 2 sentences (no Pk window fits) gave Pk null where segeval gives 0
    masses = _degenerate_corpus(tmp_path, seed=39)
    system = evaluate_json(tmp_path, "choi", "--preset", "segeval", "--bootstrap", "0")
    assert set(system["shows"]) == set(masses)
    functions = {
        "pk": segeval.pk,
        "windowdiff": segeval.window_diff,
        "s": segeval.segmentation_similarity,
        "b": segeval.boundary_similarity,
    }
    raised = {"windowdiff": 0, "s": 0, "b": 0}
    for doc, (ref, hyp) in masses.items():
        got = system["shows"][doc]
        for key, function in functions.items():
            expected = _segeval_or_error(function, hyp, ref)  # segeval takes (hypothesis, reference)
            if isinstance(expected, float):
                assert got[key] == pytest.approx(expected, abs=1e-12), (doc, ref, hyp, key)
                continue
            # where segeval raises, what the README's segeval row says tvseg gives
            raised[key] += 1
            if key == "windowdiff":  # k = N = 2: segeval divides Decimal 0 by 0
                assert expected == "InvalidOperation" and sum(ref) == 2 and got[key] is None, (doc, ref, hyp)
            else:  # no boundary on either side: segeval's max() of an empty sequence
                assert expected == "ValueError" and len(ref) == len(hyp) == 1, (doc, ref, hyp)
                assert got[key] == (1.0 if key == "s" and sum(ref) > 1 else None), (doc, ref, hyp, key)
    # the corpus held each kind of document that segeval refuses
    assert all(raised.values()), raised


def test_preset_nltk_on_every_document_of_a_random_corpus(tmp_path):
    masses = _degenerate_corpus(tmp_path, seed=40)
    system = evaluate_json(tmp_path, "choi", "--preset", "nltk", "--bootstrap", "0")
    assert set(system["shows"]) == set(masses)
    for doc, (ref, hyp) in masses.items():
        r, h = nltk_string(ref), nltk_string(hyp)
        # windowdiff's k: nltk's pk default, half the mean segment length in characters (3.10.4: at least one
        # segment counted), rounded half to even
        k = int(round(len(r) / (max(r.count("1"), 1) * 2.0)))
        got = system["shows"][doc]
        assert got["pk"] == pytest.approx(nltk_segmentation.pk(r, h), abs=1e-12), (doc, ref, hyp)
        assert got["windowdiff"] == pytest.approx(nltk_segmentation.windowdiff(r, h, k), abs=1e-12), (doc, ref, hyp)
        # ghd: nltk's raw distance with its default costs (insertion 2, deletion 2, shift 1 per position)
        assert got["ghd"] == nltk_segmentation.ghd(r, h), (doc, ref, hyp)
    # the corpus value of GHD is the mean of the documents' raw distances
    mean = sum(nltk_segmentation.ghd(nltk_string(r), nltk_string(h)) for r, h in masses.values()) / len(masses)
    assert system["corpus"]["ghd"] == pytest.approx(mean, abs=1e-12)
    assert system["macro"]["ghd"] == pytest.approx(mean, abs=1e-12)


def test_a_text_corpus_in_shards_and_in_processes_is_scored_as_in_one(tmp_path, monkeypatch):
    # the one pipeline: a text corpus is cut into shards of documents, scored where each is sent and reduced,
    # as timed segments are; the JSON, the summary and the warnings (in order) are those of one process,
    # here with warnings to give: a document of one sentence (no window fits: undefined values) and a
    # document the hypothesis lacks
    import warnings

    import tvseg.scale
    from tvseg.scale import evaluate_sharded

    corpus(tmp_path, "choi", seed=5, documents=9)
    for side in ("ref", "hyp"):
        (tmp_path / side / "doc9.ref").write_text(choi_text([1], 9), encoding="utf-8")
    (tmp_path / "hyp" / "doc4.ref").unlink()
    read = {side: tvseg.read_segments(tmp_path / side, format="choi") for side in ("ref", "hyp")}

    def scored(function):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            warnings.simplefilter("ignore", ResourceWarning)
            result = function()
        return json.dumps(result.to_json()), [(w.category.__name__, str(w.message)) for w in caught]

    one, one_warnings = scored(lambda: tvseg.evaluate(read["ref"], {"sys": read["hyp"]}))
    assert any("0/0" in message or "NaN" in message for _, message in one_warnings)
    assert any("doc4" in message for _, message in one_warnings)
    shards = []
    score_shard = tvseg.scale.score_shard
    monkeypatch.setattr(tvseg.scale, "score_shard", lambda p, **kw: shards.append(p.shows) or score_shard(p, **kw))
    many, many_warnings = scored(lambda: evaluate_sharded(read["ref"], {"sys": read["hyp"]}, chunk_shows=[3, 4, 3]))
    assert [len(shows) for shows in shards] == [3, 4, 3]  # scored in three shards, not in one piece
    assert many == one and many_warnings == one_warnings

    # from the folders, each shard reads its own documents (a file each, named by it): none is read here
    from tvseg.scale import Files, evaluate_files

    monkeypatch.setattr(tvseg.scale, "_read_here", lambda *a, **kw: pytest.fail("the corpus was read in the parent"))
    files = Files(reference=str(tmp_path / "ref"), hypotheses={"sys": str(tmp_path / "hyp")}, format="choi")
    shards.clear()
    read, read_warnings = scored(lambda: evaluate_files(files, shards=3))
    assert len(shards) == 3 and sum(map(len, shards)) == 10
    assert read == one and read_warnings == one_warnings
    monkeypatch.undo()

    args = ["evaluate", "--reference", str(tmp_path / "ref"), "--hypothesis", f"sys={tmp_path / 'hyp'}"]
    outputs = {}
    for name, extra in (("one", []), ("jobs", ["--jobs", "2"])):
        out = tmp_path / f"{name}.json"
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            assert main([*args, "--format", "choi", "--bootstrap", "200", *extra, "--json", str(out)]) == 0
        data = json.loads(out.read_text(encoding="utf-8"))
        outputs[name] = out.read_text(encoding="utf-8").replace(data["run_id"], "")  # each run its own id
    assert outputs["jobs"] == outputs["one"]  # the same bytes: the workers encode the rows as the parent does
