"""The evaluated region of a show is the UEM, else the reference's extent: the reference's boundaries
never depend on the hypothesis (issue 10)."""

import warnings

import pytest
from pyannote.core import Annotation, Segment, Timeline

import tvseg
from tvseg.errors import TvsegWarning
from tvseg.evaluation import evaluate
from tvseg.settings import Settings


def annotation(*cuts, labels=None):
    ann = Annotation()
    for k, (s, e) in enumerate(zip(cuts[:-1], cuts[1:])):
        ann[Segment(s, e)] = labels[k] if labels else f"t{k}"
    return ann


def test_a_hypothesis_running_past_the_reference_is_cropped_and_does_not_change_recall():
    # reference (0,100)(100,200); hypothesis (0,100)(100,202): one reference boundary (100),
    # matched -> recall 1.0, precision 1.0 (the hypothesis's 200..202 lies outside the region and is
    # cropped, with a warning that says how much).
    ref = {"s": annotation(0, 100, 200)}
    hyp = {"sys": {"s": annotation(0, 100, 202)}}
    with pytest.warns(
        TvsegWarning,
        match=r"sys: hypothesis cropped to the reference's extent .*2\.000 s removed "
        r"from 1 show",
    ):
        result = evaluate(ref, hyp, settings=Settings(bootstrap=0))
    row = result.systems["sys"].shows.loc["s"]
    assert (row["boundary_recall"], row["boundary_precision"]) == (1.0, 1.0)
    # cropped, both segments equal the reference's: coverage 1 and both correct
    assert row["cov_n"] == 1.0 and row["cov_d"] == 1.0


def test_every_system_sees_the_same_reference_boundaries():
    # Three systems on three shows: one equal to the reference, one whose last segment runs 2 s past
    # the reference's end and whose first starts 3 s before it, one that stops short of the end.
    # The reference's boundary count of each show is its segments minus one, for every system:
    # show a: 3 segments -> 2; show b: 4 -> 3; show c: 2 -> 1.
    ref = {"a": annotation(0, 40, 90, 150), "b": annotation(10, 30, 60, 100, 130), "c": annotation(5, 50, 95)}
    systems = {
        "same": {k: v for k, v in ref.items()},
        "longer": {"a": annotation(0, 40, 90, 152), "b": annotation(7, 30, 60, 100, 132), "c": annotation(2, 50, 97)},
        "shorter": {"a": annotation(0, 40, 90, 140), "b": annotation(10, 30, 60, 100, 120), "c": annotation(5, 50, 80)},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        result = evaluate(ref, systems, settings=Settings(bootstrap=0))
    expected = {"a": 2, "b": 3, "c": 1}
    for name, sr in result.systems.items():
        counts = sr.scores.components["boundary_n_reference"].to_dict()
        assert counts == expected, name
    # the longer system finds every reference boundary and adds none: F = 1 (it was 0.941 on a corpus
    # when the union of both sides made the reference's last end a boundary)
    assert result.systems["longer"].corpus["boundary_f1"] == 1.0
    # the shorter system ends inside the region: its last end (140, 120, 80) is a false alarm
    comp = result.systems["shorter"].scores.components
    assert comp["boundary_n_hypothesis"].to_dict() == {"a": 3, "b": 4, "c": 2}


def test_with_a_uem_the_region_is_the_uem():
    # UEM [20, 180): reference (0,100)(100,200) cropped to (20,100)(100,180), one boundary (100).
    ref = {"s": annotation(0, 100, 200)}
    hyp = {"sys": {"s": annotation(0, 60, 100, 200)}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        result = evaluate(ref, hyp, settings=Settings(bootstrap=0), uem={"s": Timeline([Segment(20, 180)])})
    comp = result.systems["sys"].scores.components.loc["s"]
    assert (comp["boundary_n_reference"], comp["boundary_n_hypothesis"], comp["boundary_n_matched"]) == (1, 2, 1)


def test_the_api_takes_the_reference_extent_by_default():
    r = tvseg.boundaries(annotation(0, 100, 200), annotation(0, 100, 202), tolerance=10.0)
    assert r.extent == Segment(0, 200) and r.recall == 1.0
