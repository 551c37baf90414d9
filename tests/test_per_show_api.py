"""``tvseg.coverage`` and ``tvseg.boundaries`` give exactly ``tvseg.evaluate``'s per-show values.

Random corpora whose hypotheses start before or end after the reference (so cropping to the evaluated
region matters), with no UEM, a UEM of one region per show, and a UEM with gaps; each show scored
alone by the per-show functions must give the counts and rates that ``evaluate`` gives it in the corpus.
And the rule of a UEM with gaps on the issue's hand case.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from pyannote.core import Annotation, Segment, Timeline

import tvseg
from tvseg.columns import from_segmentation, segment_arrays
from tvseg.errors import InputError
from tvseg.settings import Settings

COVERAGE_KEYS = ("recall_n", "precision_n", "cov_n", "recall_d", "precision_d", "cov_d")
COUNT_KEYS = ("n_reference", "n_hypothesis", "n_correct_reference", "n_correct_hypothesis")


def annotation(pairs, show, prefix):
    ann = Annotation(uri=show)
    for k, (a, b) in enumerate(pairs):
        ann[Segment(a, b), k] = f"{prefix}{k}"
    return ann


def random_corpus(seed, n_shows=150, gaps=False):
    """Shows on a 0.05 s grid (decimal times, many on a threshold); hypotheses past the reference."""
    rng = np.random.default_rng(seed)
    reference, hypothesis, uem = {}, {}, {}
    for k in range(n_shows):
        show = f"s{k:03d}"
        origin = int(rng.integers(0, 3)) * 72_002  # 0 s or 3600.1 s
        ref_cuts = np.unique(rng.integers(0, 2400, int(rng.integers(2, 12))))
        if len(ref_cuts) < 2:
            ref_cuts = np.array([0, 2400])
        ref = [((origin + a) / 20, (origin + b) / 20) for a, b in zip(ref_cuts, ref_cuts[1:])]
        lo = int(ref_cuts[0]) - int(rng.integers(-200, 400))  # before or after the reference's start
        hi = int(ref_cuts[-1]) + int(rng.integers(-200, 400))
        inner = rng.integers(lo + 1, hi, int(rng.integers(0, 12))) if hi > lo + 1 else np.array([], int)
        hyp_cuts = np.unique(np.concatenate([[lo, hi], inner]))
        keep = rng.random(len(hyp_cuts) - 1) < 0.9  # some gaps in the hypothesis
        keep[0] = True
        hyp = [((origin + a) / 20, (origin + b) / 20) for a, b, kk in zip(hyp_cuts, hyp_cuts[1:], keep) if kk]
        reference[show] = annotation(ref, show, "R")
        hypothesis[show] = annotation(hyp, show, "H")
        a, b = int(ref_cuts[0]) + int(rng.integers(-40, 40)), int(ref_cuts[-1]) + int(rng.integers(-40, 40))
        regions = [(a, b)]
        if gaps and rng.random() < 0.6 and b - a > 300:
            g = int(rng.integers(a + 50, b - 150))
            regions = [(a, g), (g + int(rng.integers(1, 100)), b)]
        uem[show] = Timeline([Segment((origin + x) / 20, (origin + y) / 20) for x, y in regions], uri=show)
    return reference, hypothesis, uem


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.parametrize("mode", ["no uem", "uem", "uem with gaps"])
@pytest.mark.parametrize("gamma,tolerance", [(0.85, 10.0), (0.6, 1.5)])
def test_per_show_functions_equal_evaluate(mode, gamma, tolerance):
    reference, hypothesis, uem = random_corpus(
        seed=(mode == "uem") + 2 * (mode == "uem with gaps"), gaps="gaps" in mode
    )
    uem = None if mode == "no uem" else uem
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(
            reference,
            {"sys": hypothesis},
            uem=uem,
            settings=Settings(gamma=gamma, tolerance=tolerance, bootstrap=0),
            check_time_base=False,
        )
    per_show = result.systems["sys"].shows
    compared = 0
    for show in reference:
        kwargs = {} if uem is None else {"uem": uem[show]}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            c = tvseg.coverage(reference[show], hypothesis[show], gamma=gamma, **kwargs)
            b = tvseg.boundaries(reference[show], hypothesis[show], tolerance=tolerance, **kwargs)
        expected = per_show.loc[show]
        for key in COVERAGE_KEYS:
            assert same(getattr(c, key), expected[key]), (show, key)
        for key in COUNT_KEYS:
            assert getattr(c, key) == expected[key], (show, key)
        for mine, key in ((b.precision, "boundary_precision"), (b.recall, "boundary_recall"), (b.f1, "boundary_f1")):
            assert same(mine, expected[key]), (show, key)
        compared += 1
    assert compared == 150


def test_a_hypothesis_past_the_reference_is_cropped_as_evaluate_crops_it():
    # the case: reference [0, 10], hypothesis [0, 20]; evaluate crops the hypothesis to the
    # reference's extent, so both segments are [0, 10]: coverage 1, CovN 1
    assert tvseg.coverage([(0, 10)], [(0, 20)]).cov_n == 1.0
    # with a UEM of [0, 20] nothing is cropped: coverage 2 * 10 / (10 + 20) = 2/3, CovN 0
    assert tvseg.coverage([(0, 10)], [(0, 20)], uem=Segment(0, 20)).cov_n == 0.0


def test_a_uem_gap_is_no_boundary_and_a_segment_spanning_it_stays_whole():
    # Reference [0,30] [30,100], hypothesis [0,70] [70,100], tolerance 5.
    # UEM 0-100: reference boundary 30, hypothesis boundary 70: 40 s apart, nothing matched: P = R = 0.
    # Coverage: ref [0,30] vs hyp [0,70]: 2*30/(30+70) = 0.6; ref [30,100] vs hyp [0,70] 2*40/(70+70) = 0.571,
    # vs hyp [70,100] 2*30/(70+30) = 0.6: nothing above 0.85, R_N = P_N = 0.
    # UEM 0-40 + 60-100 (an ad break left out): the gap's edges 40 and 60 are not boundaries, so the
    # boundaries are still 30 and 70: P = R = 0. Evaluated durations: ref [0,30] 30, ref [30,100] 10 + 40 = 50,
    # hyp [0,70] 40 + 10 = 50, hyp [70,100] 30. ref [0,30] vs hyp [0,70]: 2*30/(30+50) = 0.75;
    # ref [30,100] vs hyp [0,70]: |[30,40] + [60,70]| = 20, 2*20/(50+50) = 0.4; vs hyp [70,100]: 2*30/(50+30) = 0.75.
    # Nothing above 0.85: R_N = P_N = 0, the same as with the full UEM.
    ref, hyp = [(0, 30), (30, 100)], [(0, 70), (70, 100)]
    for uem in ([(0, 100)], [(0, 40), (60, 100)]):
        b = tvseg.boundaries(ref, hyp, tolerance=5, uem=uem)
        c = tvseg.coverage(ref, hyp, uem=uem)
        assert (b.precision, b.recall) == (0.0, 0.0)
        assert (c.recall_n, c.precision_n) == (0.0, 0.0)
        assert b.reference_boundaries.tolist() == [30.0] and b.hypothesis_boundaries.tolist() == [70.0]
    c = tvseg.coverage(ref, hyp, uem=[(0, 40), (60, 100)])
    assert c.duration_reference == 80.0 and c.duration_hypothesis == 80.0
    table = c.matches
    assert table["coverage"].tolist() == [0.75, 0.75, 0.75, 0.75]
    # and through evaluate with a UEM file's timelines: the same four zeros for both UEMs
    reference = {"show": annotation(ref, "show", "R")}
    hypothesis = {"sys": {"show": annotation(hyp, "show", "H")}}
    for uem in ([(0, 100)], [(0, 40), (60, 100)]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = tvseg.evaluate(
                reference,
                hypothesis,
                uem={"show": Timeline([Segment(*x) for x in uem], uri="show")},
                settings=Settings(tolerance=5.0, bootstrap=0),
            )
        corpus = result.systems["sys"].corpus
        assert [corpus[k] for k in ("recall_n", "precision_n", "boundary_precision", "boundary_recall")] == [0.0] * 4


def test_a_gap_between_two_matching_stories_keeps_their_match():
    # Reference [0,50] [50,100]; hypothesis [0,52] [52,100]; UEM 0-20 + 30-100 (gap 20-30 inside the
    # first story). The boundaries 50 and 52 are inside a region: matched at tolerance 5, P = R = 1.
    # Evaluated durations: ref [0,50] 40, hyp [0,52] 42, overlap 40: 2*40/82 = 0.9756 > 0.85: correct;
    # ref [50,100] 50, hyp [52,100] 48, overlap 48: 96/98 = 0.9796: correct. CovN = CovD = 1.
    ref, hyp, uem = [(0, 50), (50, 100)], [(0, 52), (52, 100)], [(0, 20), (30, 100)]
    b = tvseg.boundaries(ref, hyp, tolerance=5, uem=uem)
    assert (b.n_reference, b.n_hypothesis, b.n_matched) == (1, 1, 1)
    c = tvseg.coverage(ref, hyp, uem=uem)
    assert (c.cov_n, c.cov_d) == (1.0, 1.0)
    assert c.duration_reference == 90.0


def test_a_segment_inside_a_gap_is_left_out():
    # the hypothesis [45, 55] lies wholly in the gap 40-60: not evaluated; its edges are no boundaries
    ref, hyp, uem = [(0, 30), (30, 100)], [(0, 30), (30, 45), (45, 55), (55, 100)], [(0, 40), (60, 100)]
    b = tvseg.boundaries(ref, hyp, tolerance=1, uem=uem)
    assert b.hypothesis_boundaries.tolist() == [30.0]
    c = tvseg.coverage(ref, hyp, uem=uem)
    assert c.n_hypothesis == 3  # [0,30], [30,45] cropped to [30,40], [55,100] cropped to [60,100]


def test_exactly_on_the_thresholds():
    # coverage 2 * 3.4 / (3.4 + 4.6) = 6.8 / 8 = 0.85 exactly: not correct at 0.85 (strictly above)
    c = tvseg.coverage(np.array([[0.01, 3.41], [3.41, 10.0]]), np.array([[0.01, 4.61], [4.61, 10.0]]), gamma=0.85)
    assert c.n_correct_reference == 1  # only [3.41, 10] against [4.61, 10]: 2 * 5.39 / (6.59 + 5.39) = 0.90
    # 16.1 - 6.1 is 10 s: paired at tolerance 10 (inclusive)
    b = tvseg.boundaries(np.array([[0.0, 6.1], [6.1, 30.0]]), np.array([[0.0, 16.1], [16.1, 30.0]]), tolerance=10)
    assert b.pairs == [(6.1, 16.1)]


def test_ties_of_the_matching():
    # a lone reference boundary halfway between two hypothesis boundaries pairs with the earlier one
    b = tvseg.boundaries([(0.0, 10.0), (10.0, 20.0)], [(0.0, 5.0), (5.0, 15.0), (15.0, 20.0)], tolerance=5)
    assert b.pairs == [(10.0, 5.0)]


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
def test_bad_input_raises_one_message(bad):
    with pytest.raises(InputError) as expected:
        from_segmentation(bad, what="reference")
    for call in (lambda: tvseg.boundaries(bad, [(0.0, 1.0)]), lambda: tvseg.coverage(bad, [(0.0, 1.0)])):
        with pytest.raises(InputError) as raised:
            call()
        assert str(raised.value) == str(expected.value)


def test_annotation_with_several_tracks_is_refused():
    ann = Annotation()
    ann[Segment(5, 10)] = "b"
    ann[Segment(0, 5)] = "a"
    assert tvseg.coverage(ann, ann).cov_n == 1.0  # inserted out of order: sorted
    ann[Segment(0, 5), "other"] = "c"
    with pytest.raises(InputError, match="several tracks"):
        tvseg.coverage(ann, ann)


def test_overlaps_kept_give_one_row_per_track_in_itertracks_order():
    ann = Annotation()
    ann[Segment(5, 10)] = "b"
    ann[Segment(0, 8), "y"] = "d"
    ann[Segment(0, 8), "x"] = "c"
    with pytest.raises(InputError, match=r"several tracks.*\[0, 8\]"):
        segment_arrays(ann, what="hypothesis")
    start, end, label = segment_arrays(ann, overlaps=True)
    rows = [(s.start, s.end, lab) for s, _, lab in ann.itertracks(yield_label=True)]
    assert list(zip(start, end, label)) == rows == [(0, 8, "c"), (0, 8, "d"), (5, 10, "b")]
    start, end, _ = segment_arrays([(5, 10), (0, 8), (0, 3)], overlaps=True)
    assert list(zip(start, end)) == [(0, 3), (0, 8), (5, 10)]


def test_evaluate_takes_pairs_with_a_uem():
    # evaluate takes (start, end) pairs as segmentations; with a UEM they are cropped as Annotations are.
    # The hand case of the gap above, through evaluate: R_N = P_N = 0 and boundary P = R = 0.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(
            {"show": [(0, 30), (30, 100)]},
            {"sys": {"show": [(0, 70), (70, 100)]}},
            uem={"show": Timeline([Segment(0, 40), Segment(60, 100)], uri="show")},
            settings=Settings(tolerance=5.0, bootstrap=0),
        )
    corpus = result.systems["sys"].corpus
    assert [corpus[k] for k in ("recall_n", "precision_n", "boundary_precision", "boundary_recall")] == [0.0] * 4
    assert corpus["n_reference"] == 2 and corpus["n_hypothesis"] == 2


def _segments_on_a_grid(draw, st):
    """Disjoint segments on a 0.05 s grid (decimal times, some exactly a tolerance apart), some
    touching, some with gaps, as a list of pairs, an (n, 2) array or an Annotation, in time order
    or shuffled."""
    cuts = sorted(draw(st.lists(st.integers(0, 2000), min_size=2, max_size=14, unique=True)))
    pairs = [(a / 20, b / 20) for a, b, keep in zip(cuts, cuts[1:], draw(st.lists(st.booleans(), min_size=13))) if keep]
    if not pairs:
        pairs = [(cuts[0] / 20, cuts[-1] / 20)]
    if draw(st.booleans()):
        pairs = draw(st.permutations(pairs))
    kind = draw(st.sampled_from(["pairs", "array", "annotation"]))
    if kind == "array":
        return np.array(pairs)
    if kind == "annotation":
        return annotation(pairs, "show", "S")
    return pairs


def test_per_show_calls_equal_the_corpus_pipeline_on_random_shows():
    # One show scored alone by tvseg.coverage and tvseg.boundaries (one show: its own cut of the kernels,
    # the boundary search by time alone, the coverage partners by one sort) gives what tvseg.evaluate gives
    # it among up to 30 shows (over 256 overlapping pairs: the partners read as runs, shows kept apart on
    # one axis), counts, rates and matched boundaries alike, whatever the order and the type of the input.
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @st.composite
    def shows(draw):
        n = draw(st.integers(1, 30))
        return [(_segments_on_a_grid(draw, st), _segments_on_a_grid(draw, st)) for _ in range(n)]

    @settings(max_examples=25, deadline=None)
    @given(shows(), st.sampled_from([0.85, 0.5, 0.7]), st.sampled_from([10.0, 2.5, 0.05, 0.0]))
    def check(pairs, gamma, tolerance):
        names = [f"s{k:02d}" for k in range(len(pairs))]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = tvseg.evaluate(
                {name: ref for name, (ref, _) in zip(names, pairs)},
                {"sys": {name: hyp for name, (_, hyp) in zip(names, pairs)}},
                settings=Settings(gamma=gamma, tolerance=tolerance, bootstrap=0),
                check_time_base=False,
            )
            system = result.systems["sys"]
            per_show, components, pairs_of = system.shows, system.scores.components, system.boundary_pairs
            for name, (ref, hyp) in zip(names, pairs):
                c = tvseg.coverage(ref, hyp, gamma=gamma)
                b = tvseg.boundaries(ref, hyp, tolerance=tolerance)
                expected, sums = per_show.loc[name], components.loc[name]
                for key in COVERAGE_KEYS:
                    assert same(getattr(c, key), expected[key]), (name, key)
                for key in (*COUNT_KEYS, "duration_reference", "duration_hypothesis", "duration_correct_reference"):
                    assert getattr(c, key) == sums[key], (name, key)
                assert (b.n_reference, b.n_hypothesis, b.n_matched) == (
                    sums["boundary_n_reference"],
                    sums["boundary_n_hypothesis"],
                    sums["boundary_n_matched"],
                ), name
                for mine, key in ((b.precision, "boundary_precision"), (b.recall, "boundary_recall")):
                    assert same(mine, expected[key]), (name, key)
                matched = pairs_of[pairs_of["show"] == name]
                assert b.pairs == list(zip(matched["reference"], matched["hypothesis"])), name

    check()
