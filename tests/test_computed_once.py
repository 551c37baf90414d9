"""Each number is computed once: the views (JSON, report) read the result, and the boundary matching
runs once per system and tolerance (issue 12)."""

import json
import math
import warnings
from pathlib import Path

import pytest

import tvseg.retrieval.boundaries as boundaries_module
import tvseg.retrieval.corpus as corpus_module
from tvseg.errors import TvsegWarning
from tvseg.evaluation import evaluate
from tvseg.readers import read_segments, read_uem, read_units
from tvseg.report import write_report
from tvseg.report.adapter import from_evaluation
from tvseg.retrieval.sweeps import TOLERANCES
from tvseg.settings import Settings

SAMPLES = Path(__file__).resolve().parent.parent / "tvseg" / "data_samples"


def same(a, b):
    if a is None or (isinstance(a, float) and math.isnan(a)):
        return b is None or (isinstance(b, float) and math.isnan(b))
    return a == b


@pytest.fixture(scope="module")
def demo_inputs():
    uem = read_uem(SAMPLES / "corpus.uem")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        return dict(
            reference=read_segments(SAMPLES / "reference" / "chapters", uem=uem),
            hypotheses={
                "a": read_segments(SAMPLES / "hypotheses" / "system_a.rttm", uem=uem),
                "b": read_segments(SAMPLES / "hypotheses" / "system_b", uem=uem),
            },
            uem=uem,
            units=read_units(SAMPLES / "units" / "breath_groups.csv"),
        )


def test_the_boundary_matching_runs_once_per_system_and_tolerance(monkeypatch, demo_inputs, tmp_path):
    calls = []
    real = corpus_module.match_boundaries

    def spy(*args, **kwargs):
        calls.append((kwargs["tolerance"], sorted(map(float, kwargs.get("sweep", ())))))
        return real(*args, **kwargs)

    monkeypatch.setattr(corpus_module, "match_boundaries", spy)
    monkeypatch.setattr(boundaries_module, "match_boundaries", spy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        result = evaluate(settings=Settings(bootstrap=50), **demo_inputs)
        result.to_json()
        write_report(result, tmp_path / "report", progress=False)
    # two systems: one matching each, the pairs at the settings' tolerance (10 s) and the counts at
    # every tolerance of the sweep (0..30 s); nothing more from the views
    assert calls == [(10.0, [float(t) for t in TOLERANCES])] * 2


def test_json_and_report_agree_with_the_result(demo_inputs, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        result = evaluate(settings=Settings(bootstrap=50), **demo_inputs)
        data = result.to_json()
        model = from_evaluation(result)
        out = write_report(result, tmp_path / "report", progress=False)
    written = json.loads((out.parent / "data" / "scores.json").read_text())
    assert written == json.loads(json.dumps(data))
    checked = 0
    for name, sr in result.systems.items():
        for key, value in sr.corpus.items():
            assert same(data["systems"][name]["corpus"][key], value), (name, key)
            checked += 1
        for show, row in sr.shows.to_dict(orient="index").items():
            for key, value in row.items():
                assert same(data["systems"][name]["shows"][show][key], value), (name, show, key)
                checked += 1
        summary = next(s for s in model.systems if s.name == name)
        for key, value in sr.corpus.items():
            assert same(summary.corpus[key].value, value), (name, key)
        for show in model.shows:
            view = next(v for v in show.systems if v.name == name)
            for key, value in sr.shows.loc[show.show_id].items():
                assert same(view.metrics[key], value), (name, show.show_id, key)
    assert checked > 300  # 2 systems x (corpus keys + 7 shows x their keys)
