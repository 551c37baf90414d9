"""The per-show API's fast path (tvseg/retrieval/one_show.py) against the corpus path (score_shows).

``tvseg.boundaries`` and ``tvseg.coverage`` score one show on Python lists; ``score_shows`` scores a
corpus with numpy. They apply the same rules, so on random shows with decimal times (many exactly on
the tolerance, on a gamma threshold, or shared by both sides) the counts, the pairs and the summed
durations must be the same bit for bit, the rates within 1e-12; and bad input must raise the message
of the careful path.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment, Timeline

import tvseg
from tvseg.errors import InputError
from tvseg.rates import rate
from tvseg.retrieval.corpus import score_shows
from tvseg.retrieval.one_show import read_show
from tvseg.retrieval.segments import from_segmentation, from_segmentations

GAMMAS = (0.5, 0.6, 0.75, 0.8, 0.85, 0.9)
TOLERANCES = (0.0, 0.05, 0.5, 1.0, 1.5, 2.05, 10.0)


@st.composite
def side(draw, offset):
    """Segments on a grid of 0.05 s (times as a reader gives them: the float nearest the decimal),
    contiguous or with gaps, shifted by ``offset`` grid steps."""
    points = sorted(draw(st.sets(st.integers(0, 400), min_size=2, max_size=40)))
    keep = draw(st.lists(st.booleans(), min_size=len(points) - 1, max_size=len(points) - 1))
    return [((a + offset) / 20, (b + offset) / 20) for a, b, k in zip(points, points[1:], keep) if k or a == points[0]]


@st.composite
def show(draw):
    offset = draw(st.sampled_from([0, 7, 72_002]))  # 0 s, 0.35 s, 3600.1 s
    return draw(side(offset)), draw(side(offset))


def corpus_scores(ref, hyp, *, gamma=0.85, tolerance=10.0, extent=None):
    r = from_segmentations([ref], side="reference")
    h = from_segmentations([hyp], side="hypothesis")
    uem = {} if extent is None else {"uem_start": np.array([extent[0]]), "uem_end": np.array([extent[1]])}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return score_shows(
            r, h, shows=["s"], gamma=gamma, long_threshold=30.0, tolerance=tolerance, titles=False, **uem
        )


def annotation(pairs, prefix):
    ann = Annotation()
    for k, (a, b) in enumerate(pairs):
        ann[Segment(a, b)] = f"{prefix}{k}"
    return ann


def assert_boundaries_equal(result, scores):
    c = scores.components.iloc[0]
    r_show, r_time, h_show, h_time = scores.boundaries
    assert (result.n_reference, result.n_hypothesis, result.n_matched) == (
        c["boundary_n_reference"],
        c["boundary_n_hypothesis"],
        c["boundary_n_matched"],
    )
    assert result.reference_boundaries.tolist() == r_time.tolist()
    assert result.hypothesis_boundaries.tolist() == h_time.tolist()
    i, j = scores.pairs
    assert result.pairs == list(zip(r_time[i].tolist(), h_time[j].tolist()))
    for mine, theirs in (
        (result.precision, rate(c["boundary_n_matched"], c["boundary_n_hypothesis"])),
        (result.recall, rate(c["boundary_n_matched"], c["boundary_n_reference"])),
    ):
        assert (math.isnan(mine) and math.isnan(theirs)) or abs(mine - theirs) <= 1e-12


def assert_coverage_equal(result, scores):
    c = scores.components.iloc[0]
    for key in (
        "n_reference",
        "n_hypothesis",
        "n_correct_reference",
        "n_correct_hypothesis",
        "duration_reference",
        "duration_hypothesis",
        "duration_correct_reference",
        "duration_correct_hypothesis",
    ):
        assert getattr(result, key) == c[key], key
    for mine, num, den in (
        (result.recall_n, "n_correct_reference", "n_reference"),
        (result.precision_n, "n_correct_hypothesis", "n_hypothesis"),
        (result.recall_d, "duration_correct_reference", "duration_reference"),
        (result.precision_d, "duration_correct_hypothesis", "duration_hypothesis"),
    ):
        theirs = rate(c[num], c[den])
        assert (math.isnan(mine) and math.isnan(theirs)) or abs(mine - theirs) <= 1e-12


@settings(max_examples=300, deadline=None)
@given(
    show(),
    st.sampled_from(TOLERANCES),
    st.sampled_from(GAMMAS),
    st.sampled_from(["array", "list", "annotation", "timeline", "reversed"]),
)
def test_fast_path_equals_corpus_path(pair, tolerance, gamma, kind):
    ref, hyp = pair
    convert = {
        "array": np.array,
        "list": list,
        "annotation": annotation,
        "timeline": lambda p, _=None: Timeline([Segment(a, b) for a, b in p]),
        "reversed": lambda p, _=None: np.array(p[::-1]),
    }[kind]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = tvseg.boundaries(
            convert(ref, "R") if kind == "annotation" else convert(ref),
            convert(hyp, "H") if kind == "annotation" else convert(hyp),
            tolerance=tolerance,
        )
        c = tvseg.coverage(
            convert(ref, "R") if kind == "annotation" else convert(ref),
            convert(hyp, "H") if kind == "annotation" else convert(hyp),
            gamma=gamma,
        )
    scores = corpus_scores(annotation(ref, "R"), annotation(hyp, "H"), gamma=gamma, tolerance=tolerance)
    assert_boundaries_equal(b, scores)
    assert_coverage_equal(c, scores)
    table = c.matches  # built by the corpus kernels from the same segments
    assert int(table["correct"][table["side"] == "reference"].sum()) == c.n_correct_reference


@settings(max_examples=100, deadline=None)
@given(show(), st.sampled_from(TOLERANCES), st.integers(-40, 40), st.integers(-40, 40))
def test_fast_path_with_an_extent(pair, tolerance, lo, hi):
    ref, hyp = pair
    extent = (ref[0][0] + lo / 20, ref[-1][1] + hi / 20)
    if extent[1] <= extent[0]:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = tvseg.boundaries(np.array(ref), np.array(hyp), tolerance=tolerance, extent=Segment(*extent))
    assert_boundaries_equal(
        b, corpus_scores(annotation(ref, "R"), annotation(hyp, "H"), tolerance=tolerance, extent=extent)
    )


def test_exactly_on_the_thresholds():
    # coverage 6.8 / 8 = 0.85 exactly: not correct at 0.85; 16.1 - 6.1 is 10 s: paired at 10 s
    c = tvseg.coverage(np.array([[0.01, 3.41], [3.41, 10.0]]), np.array([[0.01, 4.61], [4.61, 10.0]]), gamma=0.85)
    assert c.n_correct_reference == 1
    b = tvseg.boundaries(np.array([[0.0, 6.1], [6.1, 30.0]]), np.array([[0.0, 16.1], [16.1, 30.0]]), tolerance=10)
    assert b.pairs == [(6.1, 16.1)]
    for result, scores in ((c, corpus_scores([(0.01, 3.41), (3.41, 10.0)], [(0.01, 4.61), (4.61, 10.0)])),):
        assert_coverage_equal(result, scores)


def test_ties_of_the_matching():
    # a lone reference boundary halfway between two hypothesis boundaries pairs with the earlier one
    ref = [(0.0, 10.0), (10.0, 20.0)]
    hyp = [(0.0, 5.0), (5.0, 15.0), (15.0, 20.0)]
    b = tvseg.boundaries(ref, hyp, tolerance=5)
    assert b.pairs == [(10.0, 5.0)]
    assert_boundaries_equal(b, corpus_scores(annotation(ref, "R"), annotation(hyp, "H"), tolerance=5))


@pytest.mark.parametrize(
    "bad",
    [
        [(0.0, 5.0), (4.0, 8.0)],  # overlapping
        [(5.0, 1.0)],  # end before start
        [(0.0, float("nan"))],  # NaN
        [(0.0, float("inf"))],  # not finite
        [(0.0, 1e16)],  # beyond MAX_SECONDS
        [(1.0, 1.0000001)],  # shorter than a microsecond
        [(2.0, 3.0), (0.0, 2.5)],  # unsorted and overlapping
        np.zeros((2, 3)),  # not pairs
        [("a", "b")],  # not numbers
        "0 5",  # not a segmentation
    ],
)
def test_bad_input_raises_the_careful_paths_message(bad):
    with pytest.raises(InputError) as expected:
        from_segmentation(bad, what="reference")
    for call in (lambda: tvseg.boundaries(bad, [(0.0, 1.0)]), lambda: tvseg.coverage(bad, [(0.0, 1.0)])):
        with pytest.raises(InputError) as raised:
            call()
        assert str(raised.value) == str(expected.value)


def test_annotation_with_several_tracks_and_unsorted_insertion():
    ann = Annotation()
    ann[Segment(5, 10)] = "b"
    ann[Segment(0, 5)] = "a"  # inserted out of order: the careful path sorts it
    assert read_show(ann, what="reference").start == [0.0, 5.0]
    ann[Segment(0, 5), "other"] = "c"
    with pytest.raises(InputError, match="several tracks"):
        tvseg.coverage(ann, ann)
