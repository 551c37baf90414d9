"""Each kind of input gets exactly the registry entries whose requirements it meets (issue 40).

For every kind of input (timed segments, with titles, units, frames, a text corpus, overlapping predictions,
scored hypotheses, a hierarchical reference's levels, several annotators) a small hand-made evaluation's
metric keys (corpus and per show; a NaN value counts, a missing key does not) are compared with two
things: :func:`tvseg.metrics.eligible` of the input's traits, and the set of keys the README gives that
input, written out below from its tables ("What the numbers mean", the story classes, the overlapping
predictions' list in :data:`tvseg.metrics.DISJOINT`'s docstring). The second keeps the test from
only restating the code under test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import tvseg
from tvseg.cli import main
from tvseg.metrics import (
    ANNOTATORS,
    CAPTIONING,
    CHUNKS,
    DISJOINT,
    GROUNDING,
    LEVELS,
    METEOR,
    SCORES,
    TIME,
    TITLES,
    TRAITS,
    UNITS,
    eligible,
)

# The README's keys, row by row of "What the numbers mean" (and the story classes under it).
COVERAGE = {"recall_n", "precision_n", "cov_n", "recall_d", "precision_d", "cov_d"}
BOUNDARY = {"boundary_precision", "boundary_recall", "boundary_f1"}
DISTANCES = {f"hit_{side}_{w}" for side in ("precision", "recall", "f1") for w in ("0_5s", "3s")} | {
    "median_deviation_ref_to_hyp",
    "median_deviation_hyp_to_ref",
    "hausdorff",
}
SEGMENT_COUNTS = {"n_reference", "n_hypothesis"}
CORRECT_COUNTS = {"n_correct_reference", "n_correct_hypothesis"}
STORIES = {
    "n_reference_split",
    "n_reference_merged",
    "n_reference_shifted",
    "n_reference_missed",
    "n_hypothesis_merging",
    "n_hypothesis_split_part",
    "n_hypothesis_shifted",
    "n_false_alarm",
}
TITLE_KEYS = {
    "title_accuracy",
    "title_f1",
    "titled_recall",
    "titled_precision",
    "n_untitled_reference",
    "title_rougeL_f1",
    "title_list_rougeL_f1",
    "title_matched_rougeL_precision",
    "title_matched_rougeL_recall",
    "title_matched_rougeL_f1",
    "title_matched_fraction",
}
UNIT_KEYS = {
    "pk",
    "pk_prime",
    "windowdiff",
    "winpr_precision",
    "winpr_recall",
    "winpr_f1",
    "s",
    "b",
    "cseg",
    "cseg_norm",
    "ghd",
}
# the README's chunk P/R/F row (only under --preset chunkseg)
CHUNK_KEYS = {"chunk_precision", "chunk_recall", "chunk_f1"}
VIDCHAPTERS = {"vc_detection_precision", "vc_detection_recall", "vc_detection_f1"} | {
    f"nav_{side}_{d}s" for d in (1, 3, 5, 10, 30, 60) for side in ("precision", "recall")
}
ONE_TO_ONE = {"detection_precision_1to1", "detection_recall_1to1", "detection_f1_1to1"}
CHAPTER_COUNT = {"chapter_count_error"}
CHAPTER_LLAMA = {
    "cl_f1",
    "cl_avg_tiou",
    "chapter_count_mae",
    "chapter_count_under",
    "chapter_count_equal",
    "chapter_count_over",
}
GROUNDING_KEYS = {f"grounding_r1_iou_{t}" for t in (30, 50, 70, 90)} | {f"grounding_r1_{d}s" for d in (1, 3, 5, 10)}
CAPTIONING_KEYS = {
    "dvc_meteor",
    "dvc_cider",
    "dvc_bleu1",
    "dvc_bleu2",
    "dvc_bleu3",
    "dvc_bleu4",
    "dvc_rougeL",
    "soda_c",
}

# overlapping predictions keep the metrics that hold for any set of intervals (the README's video chaptering
# row: "left out for predictions that overlap"; tvseg.metrics.DISJOINT's list)
ANY_INTERVALS = SEGMENT_COUNTS | VIDCHAPTERS | CHAPTER_COUNT
SEGMENTATION = ANY_INTERVALS | COVERAGE | BOUNDARY | DISTANCES | CORRECT_COUNTS | STORIES | ONE_TO_ONE | CHAPTER_LLAMA

REFERENCE = {"s1": [(0.0, 40.0), (40.0, 95.0), (95.0, 130.0)], "s2": [(0.0, 70.0), (70.0, 100.0)]}
DISJOINT_HYPOTHESIS = {"s1": [(0.0, 42.0), (42.0, 130.0)], "s2": [(0.0, 65.0), (65.0, 80.0), (80.0, 100.0)]}
OVERLAPPING = {"s1": [(0.0, 50.0), (30.0, 90.0), (95.0, 130.0)], "s2": [(0.0, 70.0), (60.0, 100.0)]}


def keys_of(system) -> set[str]:
    """The metric keys of a system's result: its corpus values, checked to be its per-show columns too."""
    corpus = set(system.corpus)
    assert set(system.shows.columns) - {"has_output"} == corpus
    return corpus


def check(traits: set[str], expected: set[str], got: set[str]) -> None:
    """The keys ``got`` are the entries ``traits`` are eligible for, and those are the README's ``expected``."""
    assert traits <= set(TRAITS)
    chosen = {m.key for m in eligible(traits)}
    assert chosen == expected, (sorted(chosen - expected), sorted(expected - chosen))
    assert got == chosen, (sorted(got - chosen), sorted(chosen - got))


def quiet_evaluate(*args, **options):
    with pytest.warns(Warning):  # few shows, undefined values: named by warnings, not looked at here
        return tvseg.evaluate(*args, **options)


def test_timed_segments():
    result = quiet_evaluate(REFERENCE, {"sys": DISJOINT_HYPOTHESIS}, settings=tvseg.Settings(bootstrap=0))
    check({TIME, DISJOINT}, SEGMENTATION, keys_of(result.systems["sys"]))


def titled(segments: dict, word: str) -> dict:
    from pyannote.core import Annotation, Segment

    out = {}
    for show, pairs in segments.items():
        annotation = Annotation(uri=show)
        for k, (start, end) in enumerate(pairs):
            annotation[Segment(start, end)] = f"{word} story {k}"
        out[show] = annotation
    return out


def test_timed_segments_with_titles():
    result = quiet_evaluate(
        titled(REFERENCE, "news"), {"sys": titled(DISJOINT_HYPOTHESIS, "news")}, settings=tvseg.Settings(bootstrap=0)
    )
    check({TIME, DISJOINT, TITLES}, SEGMENTATION | TITLE_KEYS, keys_of(result.systems["sys"]))


def test_units():
    units = {
        show: pd.DataFrame({"start": [float(t) for t in range(0, int(pairs[-1][1]), 5)]}).assign(
            end=lambda f: f.start + 5
        )
        for show, pairs in REFERENCE.items()
    }
    result = quiet_evaluate(REFERENCE, {"sys": DISJOINT_HYPOTHESIS}, units=units, settings=tvseg.Settings(bootstrap=0))
    check({TIME, DISJOINT, UNITS}, SEGMENTATION | UNIT_KEYS, keys_of(result.systems["sys"]))


def test_frames():
    settings = tvseg.Settings(units="frames", frame=5.0, bootstrap=0)
    result = quiet_evaluate(REFERENCE, {"sys": DISJOINT_HYPOTHESIS}, settings=settings)
    check({TIME, DISJOINT, UNITS}, SEGMENTATION | UNIT_KEYS, keys_of(result.systems["sys"]))


def test_frames_under_the_chunkseg_convention():
    # chunkseg's chunks: the unit metrics and the chunk flags' precision, recall and F1
    settings = tvseg.Settings(units="frames", frame=6.0, convention="chunkseg", bootstrap=0)
    result = quiet_evaluate(REFERENCE, {"sys": DISJOINT_HYPOTHESIS}, settings=settings)
    check({TIME, DISJOINT, UNITS, CHUNKS}, SEGMENTATION | UNIT_KEYS | CHUNK_KEYS, keys_of(result.systems["sys"]))


def test_text_corpus(tmp_path):
    for side, masses in (("ref", (4, 3, 5)), ("hyp", (2, 5, 5))):
        lines = ["=========="]
        for k, m in enumerate(masses):
            lines += [f"Sentence {j} of segment {k} ." for j in range(m)] + ["=========="]
        (tmp_path / side).mkdir()
        (tmp_path / side / "doc0.ref").write_text("\n".join(lines) + "\n", encoding="utf-8")
    reference = tvseg.read_segments(tmp_path / "ref", format="choi")
    hypothesis = tvseg.read_segments(tmp_path / "hyp", format="choi")
    result = tvseg.evaluate(reference, {"sys": hypothesis}, settings=tvseg.Settings(bootstrap=0))
    check({UNITS, DISJOINT}, UNIT_KEYS, keys_of(result.systems["sys"]))


def test_overlapping_predictions():
    result = quiet_evaluate(REFERENCE, {"sys": OVERLAPPING}, settings=tvseg.Settings(bootstrap=0))
    check({TIME}, ANY_INTERVALS, keys_of(result.systems["sys"]))


def test_overlapping_predictions_beside_a_segmentation_and_units():
    # each system gets its own entries in one run: the segmentation the unit metrics too, the predictions not
    units = {show: pd.DataFrame({"start": [0.0, 50.0], "end": [50.0, 100.0]}) for show in REFERENCE}
    units["s1"] = pd.DataFrame({"start": [0.0, 50.0, 100.0], "end": [50.0, 100.0, 130.0]})
    result = quiet_evaluate(
        REFERENCE,
        {"seg": DISJOINT_HYPOTHESIS, "pred": OVERLAPPING},
        units=units,
        settings=tvseg.Settings(bootstrap=0),
    )
    check({TIME, DISJOINT, UNITS}, SEGMENTATION | UNIT_KEYS, keys_of(result.systems["seg"]))
    check({TIME, UNITS}, ANY_INTERVALS, keys_of(result.systems["pred"]))


def test_grounding_answers_overlapping_or_not():
    # one segment per reference title, with that title (README: "chapter grounding")
    answers = {
        "overlapping": titled(OVERLAPPING, "news"),
        "disjoint": titled(
            {"s1": [(0.0, 42.0), (42.0, 90.0), (90.0, 130.0)], "s2": [(0.0, 65.0), (65.0, 100.0)]}, "news"
        ),
    }
    result = quiet_evaluate(titled(REFERENCE, "news"), answers, settings=tvseg.Settings(bootstrap=0))
    check({TIME, TITLES, GROUNDING}, ANY_INTERVALS | GROUNDING_KEYS, keys_of(result.systems["overlapping"]))
    expected = SEGMENTATION | TITLE_KEYS | GROUNDING_KEYS
    check({TIME, DISJOINT, TITLES, GROUNDING}, expected, keys_of(result.systems["disjoint"]))


@pytest.mark.skipif(
    __import__("tvseg.retrieval.captioning", fromlist=["x"]).captioning_missing() is not None,
    reason="the captioning metrics need pycocoevalcap and METEOR (Java, or snowballstemmer 2.x)",
)
def test_overlapping_predictions_with_titles_under_the_vidchapters_preset():
    settings = tvseg.Settings(preset="vidchapters", bootstrap=0)
    result = quiet_evaluate(titled(REFERENCE, "news"), {"sys": titled(OVERLAPPING, "sport")}, settings=settings)
    check({TIME, TITLES, CAPTIONING, METEOR}, ANY_INTERVALS | CAPTIONING_KEYS, keys_of(result.systems["sys"]))


def test_without_java_every_captioning_entry(monkeypatch):
    # METEOR in Python (tvseg.retrieval.meteor) meets the requirement METEOR wherever tvseg[captioning] is installed
    pytest.importorskip("pycocoevalcap")
    pytest.importorskip("snowballstemmer")
    monkeypatch.setattr(__import__("tvseg.retrieval.captioning", fromlist=["x"]).shutil, "which", lambda name: None)
    settings = tvseg.Settings(preset="vidchapters", bootstrap=0)
    result = quiet_evaluate(titled(REFERENCE, "news"), {"sys": titled(OVERLAPPING, "sport")}, settings=settings)
    check({TIME, TITLES, CAPTIONING, METEOR}, ANY_INTERVALS | CAPTIONING_KEYS, keys_of(result.systems["sys"]))


def test_without_java_nor_snowballstemmer_the_captioning_entries_but_meteor(monkeypatch):
    pytest.importorskip("pycocoevalcap")
    import importlib.metadata

    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(__import__("tvseg.retrieval.captioning", fromlist=["x"]).shutil, "which", lambda name: None)
    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    settings = tvseg.Settings(preset="vidchapters", bootstrap=0)
    result = quiet_evaluate(titled(REFERENCE, "news"), {"sys": titled(OVERLAPPING, "sport")}, settings=settings)
    without = CAPTIONING_KEYS - {"dvc_meteor", "soda_c"}
    check({TIME, TITLES, CAPTIONING}, ANY_INTERVALS | without, keys_of(result.systems["sys"]))


SCORED_CSV = (
    "show,start,end,label,score\ns1,0,42,x,0.3\ns1,42,130,y,0.9\ns2,0,65,x,0.2\ns2,65,80,y,0.7\ns2,80,100,z,0.4\n"
)


def test_scored_hypotheses(tmp_path):
    path = tmp_path / "h.csv"
    path.write_text(SCORED_CSV, encoding="utf-8")
    hypothesis = tvseg.read_segments(path)
    assert hypothesis.score is not None
    result = quiet_evaluate(REFERENCE, {"sys": hypothesis}, settings=tvseg.Settings(bootstrap=0))
    # the scores add the precision-recall curve beside the metrics, no registry entry
    assert result.systems["sys"].confidence is not None
    check({TIME, DISJOINT, SCORES}, SEGMENTATION, keys_of(result.systems["sys"]))


def run_json(tmp_path: Path, args: list[str]) -> dict:
    out = tmp_path / "out.json"
    assert main(["evaluate", *args, "--bootstrap", "0", "--json", str(out)]) == 0  # its warnings on stderr
    return json.loads(out.read_text(encoding="utf-8"))


def json_keys(system: dict) -> set[str]:
    corpus = set(system["corpus"])
    for row in system["shows"].values():
        assert set(row) - {"has_output", "stories"} == corpus
    return corpus


def rttm(segments: dict) -> str:
    """Untitled segments as RTTM lines."""
    return "".join(
        f"SEGMENT {show} 1 {start:g} {end - start:g} <NA> <NA> <NA> <NA> <NA>\n"
        for show, pairs in segments.items()
        for start, end in pairs
    )


def test_levels(tmp_path):
    reference = tmp_path / "ref.csv"
    reference.write_text(
        "programme,from,to,depth\ns1,0,40,1\ns1,40,95,2\ns1,95,130,1\ns2,0,70,1\ns2,70,100,2\n", encoding="utf-8"
    )
    hypothesis = tmp_path / "hyp.rttm"
    hypothesis.write_text(rttm(DISJOINT_HYPOTHESIS), encoding="utf-8")
    mapping = "reference:show=programme,start=from,end=to,level=depth"
    data = run_json(
        tmp_path,
        ["--reference", str(reference), "--hypothesis", f"sys={hypothesis}", "--columns", mapping, "--level", "all"],
    )
    assert list(data["levels"]) == ["1", "2"]
    check({TIME, DISJOINT}, SEGMENTATION, json_keys(data["systems"]["sys"]))
    for level in data["levels"].values():
        check({TIME, DISJOINT, LEVELS}, SEGMENTATION, set(level["systems"]["sys"]["corpus"]))


def test_several_annotators(tmp_path):
    paths = {}
    for name, segments in (
        ("A", REFERENCE),
        ("B", DISJOINT_HYPOTHESIS),
        ("sys", {"s1": [(0.0, 60.0), (60.0, 130.0)], "s2": [(0.0, 50.0), (50.0, 100.0)]}),
    ):
        paths[name] = tmp_path / f"{name}.rttm"
        paths[name].write_text(rttm(segments), encoding="utf-8")
    units = tmp_path / "units.csv"
    units.write_text(
        "show,start,end\n"
        + "\n".join(f"{s},{t},{t + 10}" for s, e in (("s1", 130), ("s2", 100)) for t in range(0, e, 10))
        + "\n",
        encoding="utf-8",
    )
    data = run_json(
        tmp_path,
        [
            "--reference",
            f"A={paths['A']}",
            "--reference",
            f"B={paths['B']}",
            "--hypothesis",
            f"sys={paths['sys']}",
            "--units",
            str(units),
        ],
    )
    expected = SEGMENTATION | UNIT_KEYS
    per_system = data["per_system"]["sys"]
    for values in (per_system["annotators"]["A"], per_system["annotators"]["B"], per_system["pooled"]):
        check({TIME, DISJOINT, UNITS, ANNOTATORS}, expected, set(values))
    for annotator in ("A", "B"):
        check(
            {TIME, DISJOINT, UNITS, ANNOTATORS}, expected, json_keys(data["per_annotator"][annotator]["systems"]["sys"])
        )
