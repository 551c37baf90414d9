"""CovN/CovD on hand-built timelines (expected numbers worked out in the comments) and their laws."""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment, Timeline

from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.retrieval.show_coverage import coverage


def ann(*bounds, prefix="S"):
    a = Annotation()
    for k, (s, e) in enumerate(bounds):
        a[Segment(s, e)] = f"{prefix}{k + 1}"
    return a


def test_reference_segment_split_in_two():
    # ref:  |-------R1 (0-100)-------|----R2 (100-160)----|
    # hyp:  |--H1 (0-50)--|--H2 (50-100)--|----H3 (100-160)----|
    # R1's best partner: H1 and H2 both cover 50 s (tie -> same length -> the earlier, H1);
    #   coverage 2*50/(100+50) = 0.667 -> wrong. H1, H2: best partner R1, 0.667 -> wrong.
    # R2 <-> H3 exact: 1.0 -> correct.
    # R_N = 1/2, P_N = 1/3, CovN = 2*(1/2)(1/3)/(5/6) = 0.4
    # R_D = 60/160 = 0.375, P_D = 60/160 = 0.375, CovD = 0.375
    r = coverage(ann((0, 100), (100, 160)), ann((0, 50), (50, 100), (100, 160)))
    assert (r.recall_n, r.precision_n) == (pytest.approx(1 / 2), pytest.approx(1 / 3))
    assert r.cov_n == pytest.approx(0.4)
    assert r.recall_d == pytest.approx(0.375) and r.precision_d == pytest.approx(0.375)
    assert r.cov_d == pytest.approx(0.375)
    ref_rows = r.matches[r.matches.side == "reference"]
    assert ref_rows.coverage.tolist() == pytest.approx([2 / 3, 1.0])
    assert ref_rows.partner_label.tolist() == ["S1", "S3"]


def test_insertion_spoils_its_neighbours_edge_effect():
    # ref:  |------R1 (0-100)------|------R2 (100-200)------|
    # hyp:  |--H1 (0-80)--|--H2 (80-120)--|--H3 (120-200)--|
    # H2 is a false segment astride the true boundary 100. R1 <-> H1: 2*80/(100+80) = 0.889 > 0.85,
    # so at 0.85 it survives; at gamma = 0.9 the insertion spoils both neighbours:
    # R1 <-> H1 = 0.889, R2 <-> H3 = 2*80/180 = 0.889, H2 <-> R1 (tie 20/20 -> same length -> R1)
    # = 2*20/140 = 0.286. gamma 0.85: R_N = 2/2, P_N = 2/3; gamma 0.9: R_N = 0, P_N = 0, CovN = 0.
    ref, hyp = ann((0, 100), (100, 200)), ann((0, 80), (80, 120), (120, 200))
    r = coverage(ref, hyp, gamma=0.85)
    assert (r.n_correct_reference, r.n_correct_hypothesis) == (2, 2)
    assert r.precision_n == pytest.approx(2 / 3)
    r = coverage(ref, hyp, gamma=0.9)
    assert (r.recall_n, r.precision_n, r.cov_n) == (0.0, 0.0, 0.0)
    # the covered durations: R_D = 0 although 160 of the 200 s are covered by the right topic
    assert r.cov_d == 0.0


def test_missed_short_segment_between_two_correct_ones():
    # ref:  |-----R1 (0-100)-----|R2 (100-108)|-----R3 (108-208)-----|
    # hyp:  |------H1 (0-104)------|-------H2 (104-208)-------|
    # R1 <-> H1 = 2*100/(100+104) = 0.980, R3 <-> H2 = 2*100/(100+104) = 0.980: correct.
    # R2 (8 s): 4 s in H1, 4 s in H2 -> tie, same length 104 -> the earlier H1: 2*4/112 = 0.071.
    # R_N = 2/3, P_N = 2/2, CovN = 2*(2/3)/(5/3) = 0.8
    # R_D = 200/208, P_D = 208/208 = 1, CovD = 2*(200/208)/(408/208) = 400/408
    r = coverage(ann((0, 100), (100, 108), (108, 208)), ann((0, 104), (104, 208)))
    assert r.recall_n == pytest.approx(2 / 3) and r.precision_n == 1.0
    assert r.cov_n == pytest.approx(0.8)
    assert r.recall_d == pytest.approx(200 / 208) and r.precision_d == 1.0
    assert r.cov_d == pytest.approx(400 / 408)
    missed = r.matches[(r.matches.side == "reference") & (r.matches.label == "S2")].iloc[0]
    assert missed.partner_label == "S1" and missed.coverage == pytest.approx(8 / 112)


def test_gamma_at_exactly_the_coverage_is_not_correct():
    # ref [0, 85) against hyp [0, 115) on a UEM [0, 115) (so the hypothesis is not cropped to the
    # reference's extent): overlap 85, coverage 2*85/(85+115) = 170/200 = 0.85 exactly.
    r = coverage(ann((0, 85)), ann((0, 115)), gamma=0.85, uem=Segment(0, 115))
    assert r.matches.coverage.tolist() == [0.85, 0.85]
    assert (r.n_correct_reference, r.n_correct_hypothesis) == (0, 0)
    # ref [0,100) hyp [0,60),[60,100): R1 <-> H1 = 120/160 = 0.75 exactly
    ref, hyp = ann((0, 100)), ann((0, 60), (60, 100))
    assert coverage(ref, hyp, gamma=0.75).n_correct_reference == 0
    assert coverage(ref, hyp, gamma=0.7499).n_correct_reference == 1


def test_no_partner_and_gaps():
    # ref:  |R1 0-10|        gap       |R2 50-60|
    # hyp:            |H1 20-40|       |H2 50-60|
    # R1 and H1 overlap nothing: coverage 0 and no partner; R2 <-> H2 exact.
    r = coverage(ann((0, 10), (50, 60)), ann((20, 40), (50, 60)))
    m = r.matches
    assert m.coverage.tolist() == [0.0, 1.0, 0.0, 1.0]
    assert m.partner_label.isna().tolist() == [True, False, True, False]
    assert np.isnan(m.partner_start.iloc[0])
    assert r.recall_d == pytest.approx(10 / 20) and r.precision_d == pytest.approx(10 / 30)


def test_timeline_input_and_table_columns():
    r = coverage(Timeline([Segment(0, 10), Segment(10, 20)]), Timeline([Segment(0, 20)]))
    assert list(r.matches.columns) == [
        "side",
        "start",
        "end",
        "label",
        "partner_start",
        "partner_end",
        "partner_label",
        "overlap",
        "cov_to",
        "cov_from",
        "coverage",
        "correct",
        "story",
    ]
    # both reference stories lie wholly inside H1 (coverage 20/30 each, not correct): merged, H1 merging
    assert r.matches.story.tolist() == ["merged", "merged", "merging"]
    # R1 -> H1 = 10/10, H1 -> R1 = 10/20 (H1's best partner: tie 10/10 s, same length, the earlier R1)
    row = r.matches.iloc[0]
    assert (row.cov_to, row.cov_from) == (1.0, 0.5)
    assert r.matches.iloc[2].cov_to == 0.5 and r.matches.iloc[2].partner_start == 0.0


def test_empty_hypothesis_warns_and_gives_nan_precision():
    with pytest.warns(TvsegWarning, match="hypothesis has no segment"):
        r = coverage(ann((0, 10)), Annotation())
    assert np.isnan(r.precision_n) and r.recall_n == 0.0 and r.cov_n == 0.0
    with pytest.warns(TvsegWarning):
        r = coverage(Annotation(), Annotation())
    assert np.isnan(r.cov_n) and np.isnan(r.cov_d)


def test_bad_input():
    with pytest.raises(InputError, match="overlapping"):
        coverage(ann((0, 10), (5, 20)), ann((0, 20)))
    with pytest.raises(UsageError):
        coverage(ann((0, 10)), ann((0, 10)), gamma=1.5)
    with pytest.raises(InputError):
        coverage("0 1", ann((0, 10)))  # neither pyannote objects nor (start, end) pairs


# --- laws (hypothesis) --------------------------------------------------------------------------


@st.composite
def segmentations(draw, max_size=12):
    """Disjoint integer-bounded segments with random gaps."""
    n = draw(st.integers(0, max_size))
    lengths = draw(st.lists(st.integers(1, 30), min_size=n, max_size=n))
    gaps = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    segs, t = [], 0
    for length, gap in zip(lengths, gaps):
        t += gap
        segs.append((t, t + length))
        t += length
    return segs


def whole(ref, hyp):
    """A UEM holding both sides, so that neither is cropped: the laws of the kernel itself."""
    both = ref + hyp
    return Segment(min(s for s, _ in both), max(e for _, e in both)) if both else None


def brute_force(ref, hyp):
    """All-pairs best partner (largest overlap, then shorter partner, then earlier) and coverage."""

    def side(own, other):
        out = []
        for s, e in own:
            best = None
            for k, (a, b) in enumerate(other):
                o = min(e, b) - max(s, a)
                if o > 0:
                    key = (o, -(b - a), -k)
                    if best is None or key > best[0]:
                        best = (key, 2 * o / ((e - s) + (b - a)))
            out.append(0.0 if best is None else best[1])
        return out

    return side(ref, hyp), side(hyp, ref)


@settings(max_examples=150, deadline=None)
@given(segmentations(), segmentations())
def test_sweep_matches_all_pairs(ref, hyp):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        r = coverage(ann(*ref), ann(*hyp), uem=whole(ref, hyp))
    cov_r, cov_h = brute_force(ref, hyp)
    m = r.matches
    assert m[m.side == "reference"].coverage.tolist() == pytest.approx(cov_r)
    assert m[m.side == "hypothesis"].coverage.tolist() == pytest.approx(cov_h)


@settings(max_examples=100, deadline=None)
@given(segmentations(), segmentations(), st.floats(0.0, 1.0))
def test_laws(ref, hyp, gamma):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        r = coverage(ann(*ref), ann(*hyp), gamma=gamma, uem=whole(ref, hyp))
        swapped = coverage(ann(*hyp), ann(*ref), gamma=gamma, uem=whole(ref, hyp))
    for v in (r.recall_n, r.precision_n, r.cov_n, r.recall_d, r.precision_d, r.cov_d):
        assert np.isnan(v) or 0.0 <= v <= 1.0
    # swapping reference and hypothesis swaps recall and precision
    assert swapped.n_correct_reference == r.n_correct_hypothesis
    assert swapped.duration_correct_hypothesis == r.duration_correct_reference
    # gamma >= 2/3: correct pairs are mutual best partners (module docstring)
    if gamma >= 2 / 3:
        assert r.n_correct_reference == r.n_correct_hypothesis
    # a shift in time changes nothing
    shifted = (
        coverage(
            ann(*[(s + 1000, e + 1000) for s, e in ref]),
            ann(*[(s + 1000, e + 1000) for s, e in hyp]),
            gamma=gamma,
            uem=Segment(whole(ref, hyp).start + 1000, whole(ref, hyp).end + 1000),
        )
        if ref and hyp
        else None
    )
    if shifted is not None:
        assert shifted.n_correct_reference == r.n_correct_reference


@settings(max_examples=50, deadline=None)
@given(segmentations().filter(bool))
def test_identity_scores_perfectly(ref):
    r = coverage(ann(*ref), ann(*ref), gamma=0.99)
    assert (r.cov_n, r.cov_d) == (1.0, 1.0)


def test_pairs_and_arrays_are_accepted_as_segmentations():
    # ref [0, 100) [100, 200); hyp [0, 95) [95, 200): coverages 2 x 95 / 195 = 0.974 and
    # 2 x 100 / 205 = 0.976, both correct; boundaries 100 and 95 are 5 s apart.
    import numpy as np

    import tvseg

    ref, hyp = [(0, 100), (100, 200)], np.array([[95.0, 200.0], [0.0, 95.0]])  # any order
    r = tvseg.coverage(ref, hyp, gamma=0.85)
    assert (r.n_correct_reference, r.n_correct_hypothesis, r.cov_n) == (2, 2, 1.0)
    b = tvseg.boundaries(ref, hyp, tolerance=5)
    assert (b.n_reference, b.n_hypothesis, b.n_matched) == (1, 1, 1)
    assert tvseg.boundaries(ref, hyp, tolerance=4.999).n_matched == 0
    with pytest.raises(ValueError, match=r"\(n, 2\) array"):
        tvseg.coverage([(0, 1, 2)], ref)
    with pytest.raises(ValueError, match="overlapping"):
        tvseg.coverage([(0, 10), (5, 20)], ref)


@st.composite
def exact_case(draw):
    """Two segmentations on a grid of ``unit`` seconds (touching segments, shared boundaries and equal
    overlaps are frequent on small integers) and a gamma that is often one of their coverages."""
    unit = draw(st.sampled_from([Fraction(1), Fraction(1, 100), Fraction(7, 10), Fraction(3, 1000)]))
    ref, hyp = draw(segmentations(max_size=15)), draw(segmentations(max_size=15))
    ref = [(s * unit, e * unit) for s, e in ref]
    hyp = [(s * unit, e * unit) for s, e in hyp]
    hits = [c for c in exact_coverages(ref, hyp) if 0 < c < 1 and _decimal(c)]
    gamma = draw(st.sampled_from(hits) if hits else st.sampled_from([Fraction(17, 20), Fraction(1, 2)]))
    return ref, hyp, gamma


def _decimal(value):
    """Whether a fraction is a short decimal (one that a user writes and a float's repr gives back)."""
    q = value.denominator
    for p in (2, 5):
        while q % p == 0:
            q //= p
    return q == 1 and len(repr(float(value))) <= 17


def exact_best(own, other):
    """For each segment of ``own``, its best partner in ``other`` by brute force over all pairs, in
    fractions: largest overlap, then shorter partner, then earlier; and its coverage
    2 |A n B| / (d(A) + d(B)) (0 without a partner)."""
    out = []
    for s, e in own:
        best = None
        for k, (a, b) in enumerate(other):
            o = min(e, b) - max(s, a)
            if o > 0 and (best is None or (o, -(b - a), -k) > best[0]):
                best = ((o, -(b - a), -k), k, 2 * o / ((e - s) + (b - a)))
        out.append((-1, Fraction(0)) if best is None else best[1:])
    return out


def exact_coverages(ref, hyp):
    return [c for _, c in exact_best(ref, hyp) + exact_best(hyp, ref)]


@settings(max_examples=300, deadline=None)
@given(exact_case())
def test_kernel_against_all_pairs_in_fractions(case):
    # every verdict, partner and count against the definition computed in fractions (Bouchekif et
    # al.'s coverage, strictly above gamma), gamma often exactly one of the coverages
    ref, hyp, gamma = case
    fref, fhyp = [(float(s), float(e)) for s, e in ref], [(float(s), float(e)) for s, e in hyp]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        r = coverage(fref, fhyp, gamma=float(gamma), uem=whole(fref, fhyp))
    m = r.matches
    for side, own, other, best in (
        ("reference", ref, hyp, exact_best(ref, hyp)),
        ("hypothesis", hyp, ref, exact_best(hyp, ref)),
    ):
        rows = m[m.side == side]
        ok = [c > gamma for _, c in best]
        assert rows.correct.tolist() == ok
        assert [k for k, _ in best] == [
            -1 if np.isnan(p) else [float(a) for a, _ in other].index(p) for p in rows.partner_start
        ]
        assert rows.coverage.tolist() == pytest.approx([float(c) for _, c in best], rel=1e-12)
        n_correct = r.n_correct_reference if side == "reference" else r.n_correct_hypothesis
        assert n_correct == sum(ok)
        d_correct = r.duration_correct_reference if side == "reference" else r.duration_correct_hypothesis
        assert d_correct == pytest.approx(float(sum(e - s for (s, e), o in zip(own, ok) if o)), rel=1e-12)
    if ref and hyp:
        recall, precision = Fraction(r.n_correct_reference, len(ref)), Fraction(r.n_correct_hypothesis, len(hyp))
        assert r.recall_n == pytest.approx(float(recall), rel=1e-12)
        assert r.precision_n == pytest.approx(float(precision), rel=1e-12)
