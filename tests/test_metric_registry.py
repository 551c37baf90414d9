"""Every metric an evaluation outputs is in the registry (tvseg.metrics), and every registry entry is
output by some evaluation (scikit-learn's scorer-registry test is the model)."""

import json
import warnings
from pathlib import Path

import pytest

from tvseg import metrics
from tvseg.cli import main
from tvseg.commands.evaluate import OPTIONAL, SUMMARY
from tvseg.errors import TvsegWarning
from tvseg.report import render

SAMPLES = Path(__file__).resolve().parent.parent / "tvseg" / "data_samples"


@pytest.fixture(scope="module")
def demo_json(tmp_path_factory):
    out = tmp_path_factory.mktemp("registry") / "scores.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        assert main(["evaluate", "--demo", "--no-html", "--bootstrap", "20", "--json", str(out)]) == 0
    return json.loads(out.read_text())


def test_every_output_key_is_registered_and_every_entry_is_output(demo_json):
    output = set()
    for system in demo_json["systems"].values():
        output |= set(system["corpus"]) | set(system["macro"])
        for row in system["shows"].values():
            output |= set(row)
    assert set(metrics.SHOW_FLAGS) <= output  # per-show fields that are not metrics
    assert set(metrics.SHOW_OBJECTS) <= output  # per-show objects regrouping registered counts ("stories")
    for fields in metrics.SHOW_OBJECTS.values():
        assert set(fields.values()) <= set(metrics.METRICS)
    output -= set(metrics.SHOW_FLAGS) | set(metrics.SHOW_OBJECTS)
    # grounding R@1 is output only for a system giving one segment per reference title (the demo has none):
    # tests/test_chapter_llama.py evaluates one and checks that it outputs exactly these keys
    output |= set(metrics.keys("grounding"))
    assert output - set(metrics.METRICS) == set(), "output keys missing from tvseg.metrics.REGISTRY"
    # the captioning metrics need Java and --preset vidchapters: tests/test_captioning_metrics.py outputs them;
    # the trecvid ones need --preset trecvid: tests/test_trecvid.py outputs them; the chunk flags' need
    # --preset chunkseg: tests/test_chunkseg_convention.py and tests/test_ytseg.py output them
    chunks = {m.key for m in metrics.REGISTRY if metrics.CHUNKS in m.requires}
    assert chunks == {"chunk_precision", "chunk_recall", "chunk_f1"}
    assert (
        set(metrics.METRICS) - output - set(metrics.keys("captioning")) - set(metrics.keys("trecvid")) - chunks == set()
    ), "registry entries no evaluation outputs"


def test_counts_are_integers_and_intervals_follow_the_registry(demo_json):
    for system in demo_json["systems"].values():
        for key in metrics.COUNT_KEYS & set(system["corpus"]):
            assert isinstance(system["corpus"][key], int), key
        assert set(system["bootstrap"]) == {k for k in metrics.BOOTSTRAPPED if k in system["corpus"]}
    assert {p["metric"] for p in demo_json["pairwise"]} == set(metrics.COMPARED)


def test_the_views_take_their_columns_from_the_registry():
    # the unit metrics tvseg.unit.reduction computes, in its order
    unit = (
        "pk",
        "pk_prime",
        "windowdiff",
        "winpr_precision",
        "winpr_recall",
        "winpr_f1",
        "s",
        "cseg",
        "cseg_norm",
        "ghd",
        "b",
        "chunk_precision",
        "chunk_recall",
        "chunk_f1",
    )
    assert unit == metrics.keys("unit")
    assert {k for k, _ in SUMMARY + OPTIONAL} == {k for k, _ in metrics.SUMMARY}
    for columns in (
        render.RETRIEVAL,
        render.DISTANCES,
        render.COUNTS,
        render.UNIT,
        render.TITLING,
        render.CHAPTERS,
        render.SIGNIFICANCE,
        render.LENGTH,
    ):
        for key, label in columns:
            m = metrics.METRICS[key]
            assert label == (m.html or m.label)
    assert len(metrics.REGISTRY) == len(metrics.METRICS), "a key registered twice"
