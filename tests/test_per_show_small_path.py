"""The per-show functions' path for a show of few segments (Python integers: ``tvseg.coverage``'s
:func:`tvseg.retrieval.coverage.small_components`, ``tvseg.boundaries``'
:func:`tvseg.retrieval.boundaries.small_pairs`) gives the corpus kernels' components and pairs, and the
whole result of the corpus path.

Random shows on decimal grids whose times come out of float arithmetic (``3 * 0.1`` is
0.30000000000000004, read as 300,000 microseconds), with gaps on both sides, and gammas that the grid
hits exactly (a coverage of exactly 0.85 is not correct at 0.85); each scored by the small path and by
the corpus kernel (:func:`tvseg.retrieval.corpus.coverage_components` on the corpus of one show that
:func:`tvseg.retrieval.region.evaluated_pair` builds), which must agree to the last bit. Boundaries
likewise, at tolerances the grid hits exactly (a distance of exactly the tolerance is a match),
against :func:`tvseg.retrieval.matching.match_boundaries`.
"""

from __future__ import annotations

import math
import warnings
from unittest import mock

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment

import tvseg
import tvseg.retrieval.boundaries as boundaries_module
import tvseg.retrieval.coverage as coverage_module
from tvseg.errors import UndefinedValueWarning
from tvseg.retrieval.boundaries import small_pairs
from tvseg.retrieval.corpus import ShowScores, coverage_components
from tvseg.retrieval.coverage import small_components, small_show
from tvseg.retrieval.matching import match_boundaries
from tvseg.retrieval.region import evaluated_pair

GAMMAS = (0.0, 0.25, 0.4, 0.45, 0.5, 0.6, 2 / 3, 0.75, 0.8, 0.85, 0.9, 1.0)


def segments(points, keep, origin, step):
    """Segments between consecutive grid points (those ``keep`` says), times ``origin + k * step``."""
    times = [origin + k * step for k in points]
    return [(a, b) for a, b, kept in zip(times, times[1:], keep) if kept]


@st.composite
def shows(draw):
    """``(reference, hypothesis)`` pairs of one show, the hypothesis within the reference's extent."""
    step = draw(st.sampled_from([0.1, 0.05, 0.01, 0.2, 1.0]))
    origin = draw(st.sampled_from([0.0, 0.1 + 0.2, 3600.1]))
    ref_points = sorted(draw(st.lists(st.integers(0, 120), min_size=2, max_size=30, unique=True)))
    ref_keep = draw(st.lists(st.booleans(), min_size=len(ref_points) - 1, max_size=len(ref_points) - 1))
    ref_keep[0] = ref_keep[-1] = True  # the reference's extent: its first and last points
    lo, hi = ref_points[0], ref_points[-1]
    hyp_points = sorted(draw(st.lists(st.integers(lo, hi), min_size=2, max_size=30, unique=True)))
    hyp_keep = draw(st.lists(st.booleans(), min_size=len(hyp_points) - 1, max_size=len(hyp_points) - 1))
    hyp_keep[0] = True
    return segments(ref_points, ref_keep, origin, step), segments(hyp_points, hyp_keep, origin, step)


def annotation(pairs, prefix):
    ann = Annotation()
    for k, (a, b) in enumerate(pairs):
        ann[Segment(a, b)] = f"{prefix}{k}"
    return ann


def corpus_components(reference, hypothesis, gamma):
    ref, hyp, _ = evaluated_pair(reference, hypothesis)
    pair = ShowScores(ref, hyp, shows=[""], gamma=gamma, long_threshold=None, tolerance=0.0)
    return {key: float(value[0]) for key, value in coverage_components(pair).items()}


@settings(max_examples=300, deadline=None)
@given(shows(), st.sampled_from(GAMMAS))
def test_small_components_equal_the_corpus_kernels(show, gamma):
    reference, hypothesis = show
    small = small_show(reference, hypothesis)
    assert small is not None
    assert small_components(small.reference, small.hypothesis, gamma) == corpus_components(reference, hypothesis, gamma)


def same(a, b):
    return a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b))


@settings(max_examples=100, deadline=None)
@given(shows(), st.sampled_from(GAMMAS), st.booleans())
def test_coverage_equals_the_corpus_path(show, gamma, annotations):
    reference, hypothesis = show
    if annotations:
        reference, hypothesis = annotation(reference, "R"), annotation(hypothesis, "H")
    else:
        reference, hypothesis = np.array(reference), hypothesis  # an array and a list of pairs
    small = tvseg.coverage(reference, hypothesis, gamma=gamma)
    with mock.patch.object(coverage_module, "SMALL_SHOW", 0):  # every show through the corpus path
        assert small_show(reference, hypothesis) is None
        corpus = tvseg.coverage(reference, hypothesis, gamma=gamma)
    for key in (
        "recall_n",
        "precision_n",
        "cov_n",
        "recall_d",
        "precision_d",
        "cov_d",
        "n_reference",
        "n_hypothesis",
        "n_correct_reference",
        "n_correct_hypothesis",
        "duration_reference",
        "duration_hypothesis",
        "duration_correct_reference",
        "duration_correct_hypothesis",
        "gamma",
    ):
        assert same(getattr(small, key), getattr(corpus, key)), key
    pd.testing.assert_frame_equal(small.matches, corpus.matches)


def test_coverage_exactly_at_gamma_by_hand():
    # reference [0.01, 3.41] (3.4 s), hypothesis [0.01, 4.61] (4.6 s): 2 * 3.4 / (3.4 + 4.6) = 0.85
    # exactly, so not correct at 0.85 (strictly above), correct at 0.84; 0.1 + 0.2 reads as 0.3
    reference = [(0.01, 3.41), (3.41, 4.61)]
    hypothesis = [(0.01, 4.61)]
    small = small_show(reference, hypothesis)
    assert small is not None
    assert small_components(small.reference, small.hypothesis, 0.85)["n_correct_reference"] == 0.0
    assert small_components(small.reference, small.hypothesis, 0.84)["n_correct_reference"] == 1.0
    # 0.1 + 0.2 (0.30000000000000004) and 0.3 are both 300,000 microseconds: the same segments
    small = small_show([(0.0, 0.1 + 0.2), (0.1 + 0.2, 0.4)], [(0.0, 0.3), (0.3, 0.4)])
    assert small is not None
    assert small.reference == small.hypothesis == [[0, 300_000], [300_000, 400_000]]


def test_a_tie_goes_to_the_shorter_partner_by_hand():
    # reference [2, 6] overlaps hypothesis [0, 4] and [4, 6] by 2 s each: its partner is the shorter
    # [4, 6], coverage 2 * 2 / (4 + 2) = 2/3 > 0.6 (with [0, 4] it would be 4 / 8 = 0.5); references
    # [0, 2] (partner [0, 4]: 4 / 6) and [6, 10] (partner [6, 10]: 1) are correct too
    small = small_show([(0, 2), (2, 6), (6, 10)], [(0, 4), (4, 6), (6, 10)])
    assert small is not None
    components = small_components(small.reference, small.hypothesis, 0.6)
    assert components["n_correct_reference"] == 3.0
    assert components["duration_correct_reference"] == 10.0


def test_what_the_small_path_leaves_to_the_corpus_path():
    # out of order, overlapping, empty, NaN, beyond the time range, past the reference's extent,
    # a UEM (the call's uem= goes to the corpus path before this), several tracks on a segment
    ok = [(0.0, 10.0), (10.0, 20.0)]
    two_tracks = Annotation()
    two_tracks[Segment(0, 10), "a"] = "x"
    two_tracks[Segment(0, 10), "b"] = "y"
    for hypothesis in (
        [(10.0, 20.0), (0.0, 10.0)],
        [(0.0, 12.0), (10.0, 20.0)],
        [(0.0, 0.0), (0.0, 20.0)],
        [(0.0, 0.0000001), (0.0000001, 20.0)],
        [],
        [(0.0, float("nan"))],
        [(0.0, 3e9)],
        [(0.0, 21.0)],
        [(-1.0, 20.0)],
        two_tracks,
        np.zeros((3, 3)),
    ):
        assert small_show(ok, hypothesis) is None, hypothesis
    assert small_show(ok, [(0.0, 20.0)] * 1) is not None
    too_many = [(float(k), k + 1.0) for k in range(coverage_module.SMALL_SHOW + 1)]
    assert small_show(too_many, [(0.0, 1.0)]) is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 60), max_size=40, unique=True),
    st.lists(st.integers(0, 60), max_size=40, unique=True),
    st.sampled_from([0, 1, 2, 3, 5, 8, 100]),
)
def test_small_pairs_equal_the_kernels(r, h, tolerance):
    # boundaries on a grid of 0.1 s (100,000 ticks), many pairs at exactly the tolerance, many ties
    # in distance and dense clusters (the cheapest-matching dynamic programme)
    r = [100_000 * k for k in sorted(r)]
    h = [100_000 * k for k in sorted(h)]
    tau = 100_000 * tolerance
    kernel = match_boundaries(
        np.zeros(len(r), dtype=np.int64),
        np.array(r, dtype=float) / 1e6,
        np.zeros(len(h), dtype=np.int64),
        np.array(h, dtype=float) / 1e6,
        tolerance=tau / 1e6,
        n_shows=1,
        in_ticks=(np.array(r, dtype=np.int64), np.array(h, dtype=np.int64)),
    )
    i, j = kernel.pairs
    assert small_pairs(r, h, tau) == list(zip(i.tolist(), j.tolist()))


@settings(max_examples=150, deadline=None)
@given(shows(), st.sampled_from([0.0, 0.1, 0.3, 0.5, 1.0, 2.0, 10.0]), st.booleans())
def test_boundaries_equal_the_corpus_path(show, tolerance, annotations):
    reference, hypothesis = show
    if annotations:
        reference, hypothesis = annotation(reference, "R"), annotation(hypothesis, "H")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedValueWarning)  # a reference of one segment: no boundary
        small = tvseg.boundaries(reference, hypothesis, tolerance=tolerance)
        with mock.patch.object(boundaries_module, "SMALL_SHOW", 0):  # every show through the corpus path
            corpus = tvseg.boundaries(reference, hypothesis, tolerance=tolerance)
    for key in (
        "precision",
        "recall",
        "f1",
        "n_reference",
        "n_hypothesis",
        "n_matched",
        "pairs",
        "tolerance",
        "extent",
    ):
        assert same(getattr(small, key), getattr(corpus, key)), key
    for key in ("reference_boundaries", "hypothesis_boundaries"):
        np.testing.assert_array_equal(getattr(small, key), getattr(corpus, key))
        assert getattr(small, key).dtype == getattr(corpus, key).dtype


def test_boundaries_at_exactly_the_tolerance_by_hand():
    # reference boundary 0.1 + 0.2 (0.30000000000000004 s, read as 0.3 s), hypothesis 10.3: 10 s apart,
    # matched at a tolerance of 10 (inclusive), not at 9.999999
    reference = [(0.0, 0.1 + 0.2), (0.1 + 0.2, 20.0)]
    hypothesis = [(0.0, 10.3), (10.3, 20.0)]
    assert tvseg.boundaries(reference, hypothesis, tolerance=10).pairs == [(0.1 + 0.2, 10.3)]
    assert tvseg.boundaries(reference, hypothesis, tolerance=9.999999).n_matched == 0
