"""Notebook use (issue 16): the long table, the summary and the HTML representation of a result."""

import warnings

import numpy as np
import pytest
from pyannote.core import Annotation, Segment

import tvseg
from tvseg import metrics
from tvseg.retrieval.tables import LONG_COLUMNS


def _ann(uri, bounds):
    a = Annotation(uri=uri)
    for i, (x, y) in enumerate(zip(bounds[:-1], bounds[1:])):
        a[Segment(x, y), i] = f"t{i}"
    return a


@pytest.fixture(scope="module")
def result():
    # s1: reference 0|60|120|200, hypothesis 0|61|120|200: every reference segment is covered above
    #     0.85 (2*60/121, 2*59/119, 1), so 3 of 3 retrieved;
    # s2: reference 0|50|100, hypothesis 0|80|100: 2*50/130 = 0.77 and at best 2*20/70 = 0.57 -> 0 of 2.
    # Pooled R_N = 3/5 = 0.6; the system "same" is the reference itself: 1.0.
    ref = {"s1": _ann("s1", [0, 60, 120, 200]), "s2": _ann("s2", [0, 50, 100])}
    hyp = {"s1": _ann("s1", [0, 61, 120, 200]), "s2": _ann("s2", [0, 80, 100])}
    metadata = __import__("pandas").DataFrame({"channel": ["fr2", "tf1"]}, index=["s1", "s2"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tvseg.evaluate(ref, {"sys": hyp, "same": ref}, metadata=metadata, settings=tvseg.Settings(bootstrap=200))


def test_to_frame_is_long_and_holds_the_hand_computed_values(result):
    frame = result.to_frame()
    assert tuple(frame.columns) == LONG_COLUMNS

    def value(**where):
        rows = frame
        for k, v in where.items():
            rows = rows[rows[k].isna()] if v is None else rows[rows[k] == v]
        assert len(rows) == 1, where
        return rows.iloc[0]

    assert value(system="sys", scope="corpus", metric="recall_n")["value"] == pytest.approx(0.6, abs=1e-15)
    assert value(system="sys", scope="show", show="s1", metric="recall_n")["value"] == 1.0
    assert value(system="sys", scope="show", show="s2", metric="recall_n")["value"] == 0.0
    assert value(system="same", scope="corpus", metric="cov_n")["value"] == 1.0
    # macro R_N: the mean of the shows' 1 and 0
    assert value(system="sys", scope="macro", metric="recall_n")["value"] == 0.5
    # the metadata groups: fr2 holds s1 only (3 of 3), tf1 holds s2 (0 of 2)
    assert value(system="sys", scope="group", group="channel=fr2", metric="recall_n")["value"] == 1.0
    assert value(system="sys", scope="group", group="channel=tf1", metric="recall_n")["value"] == 0.0
    row = value(system="sys", scope="corpus", metric="cov_n")
    assert row["low"] <= row["value"] <= row["high"]


def test_to_frame_has_one_row_per_value_of_the_json(result):
    data = result.to_json()["systems"]
    frame = result.to_frame()
    for name, sr in data.items():
        expected = (
            # a show's "stories" object regroups counts that are values of their own (tvseg.metrics.SHOW_OBJECTS)
            sum(len(set(row) - set(metrics.SHOW_OBJECTS)) for row in sr["shows"].values())
            + len(sr["corpus"])
            + len(sr["macro"])
            + sum(len(v) for v in sr["by_length"].values())
            + sum(len(m) for by_value in sr["groups"].values() for m in by_value.values())
        )
        assert (frame["system"] == name).sum() == expected


def test_summary_and_html_show_the_corpus_values(result):
    summary = result.summary()
    assert list(summary.index) == ["sys", "same"]
    assert summary.loc["sys", "R_N"] == pytest.approx(0.6, abs=1e-15)
    html = result._repr_html_()
    assert "<table" in html and "60.0" in html and result.settings.signature() in html
    assert repr(result).startswith("<EvaluationResult: 2 system(s) (sys, same), 2 show(s);")
    assert not np.isnan(summary.loc["same", "CovN"])


def test_the_repr_escapes_the_control_characters_of_system_names():
    # ESC [2J clears a terminal's screen, CR returns to the start of the line: repr shows them as escapes
    ref = {"s1": _ann("s1", [0, 60, 120])}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(ref, {"a\x1b[2Jb": ref, "c\rd": ref}, settings=tvseg.Settings(bootstrap=0))
    shown = repr(result)
    assert shown.startswith("<EvaluationResult: 2 system(s) (a\\x1b[2Jb, c\\rd), 1 show(s);")
    assert "\x1b" not in shown and "\r" not in shown
