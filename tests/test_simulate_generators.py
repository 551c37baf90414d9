"""Statistics of the simulation's generators (Pevzner & Hearst 2002, section 4).

Each expected value is the definition of the error type (the paper's words, written out in
tvseg/simulate/generators.py) turned into a count or a moment; the tolerances are 5 standard errors
of the estimate, computed in the test from the binomial or normal model, so a test fails by chance
with probability below 1e-6.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tvseg.simulate import generators as g
from tvseg.simulate.study import experiment_rng, run_experiment, window_size
from tvseg.unit.masses import to_indicator


def rng(seed=0):
    return np.random.default_rng(seed)


def _within(observed, expected, standard_error, z=5.0):
    assert abs(observed - expected) <= z * standard_error, (observed, expected, standard_error)


@pytest.mark.parametrize("size_range", [(20, 30), (15, 35), (10, 40), (5, 45)])
def test_reference_sizes_uniform_on_lo_to_hi_minus_one(size_range):
    lo, hi = size_range
    sizes = np.concatenate([g.reference_masses(rng(s), 1000, size_range) for s in range(20)])
    assert sizes.min() == lo and sizes.max() == hi - 1  # every value lo..hi-1, never hi
    assert set(np.unique(sizes)) == set(range(lo, hi))
    # uniform on lo..hi-1: mean (lo + hi - 1) / 2 = 24.5, variance ((hi - lo)^2 - 1) / 12
    se = math.sqrt(((hi - lo) ** 2 - 1) / 12 / sizes.size)
    _within(sizes.mean(), (lo + hi - 1) / 2, se)


def test_window_size_is_half_the_design_mean_rounded_down():
    # sizes lo..hi-1 have mean (lo + hi - 1) / 2 = 24.5 for the four ranges: k = floor(12.25) = 12
    for lo, hi in [(20, 30), (15, 35), (10, 40), (5, 45)]:
        assert window_size((lo, hi - 1)) == 12
    assert window_size((5, 45)) == 12  # lo..hi inclusive: mean 25, 12.5 -> 12
    assert window_size((3, 4)) == 1  # mean 3.5, 1.75 -> 1
    assert window_size((1, 2)) == 1  # mean 1.5, 0.75 -> 0, at least 1


def test_every_trial_is_scored_with_the_experiments_k():
    # A (5, 45) reference of 1,000 sizes has mean 24.5 +- 0.36 (11.5 / sqrt(1000)), so about 8 % of
    # references have a sample mean below 24, where floor(N / 2000) would be 11; k must stay 12.
    seen = []

    def record(masses, hyps, k):
        seen.append((k, int(masses.sum())))
        return {"n": np.zeros(len(hyps))}

    for references in ("iid", "stratified"):
        seen.clear()
        run_experiment(
            "t", ("1", "FN", 0.5, (5, 45)), trials=60, n_hypotheses=1, seed=4, metrics=record, references=references
        )
        assert {k for k, _ in seen} == {12}
        if references == "iid":
            assert any(n // 2000 == 11 for _, n in seen)  # the sample would have said 11


@pytest.mark.parametrize("size_range", [(20, 30), (15, 35), (10, 40), (5, 45)])
def test_stratified_references_hold_every_size_equally_often(size_range):
    lo, hi = size_range
    m = hi - lo
    repeats, left_over = divmod(1000, m)  # (15, 35): 20 sizes x 50; (10, 40): 30 x 33 + 10
    for seed in range(5):
        masses = g.stratified_reference_masses(rng(seed), 1000, size_range)
        assert masses.size == 1000
        counts = np.bincount(masses - lo, minlength=m)
        assert counts.size == m and counts.min() >= repeats and counts.max() <= repeats + 1
        assert (counts == repeats + 1).sum() == left_over
    # each position's size is uniform on lo..hi-1 (the order is shuffled): the first segment's size
    # over 2,000 draws has mean 24.5 and sd sqrt((m^2 - 1) / 12)
    first = np.array([g.stratified_reference_masses(rng(s), 1000, size_range)[0] for s in range(2000)])
    _within(first.mean(), (lo + hi - 1) / 2, math.sqrt((m * m - 1) / 12 / first.size))
    assert set(np.unique(first)) == set(range(lo, hi))


def test_stratified_and_iid_references_give_the_same_expected_value():
    # FN with p = 0.5 on (5, 45), Pk at k = 12: 100 trials of 20 hypotheses with each design. The two
    # means may differ by 5 standard errors of their difference, estimated from the trial means.
    from tvseg.simulate.pevzner_hearst import window_metrics

    means = {}
    for references, design in g.REFERENCE_DESIGNS.items():
        r = rng(11)
        trial_means = []
        for _ in range(100):
            masses = design(r, 1000, (5, 45))
            trial_means.append(window_metrics(masses, g.hypotheses(r, masses, "FN", 0.5, 20), 12)["pk"].mean())
        means[references] = np.array(trial_means)
    se = math.sqrt(sum(v.var(ddof=1) / v.size for v in means.values()))
    _within(means["stratified"].mean(), means["iid"].mean(), se)
    # and the stratified design varies less from trial to trial, its histogram being fixed: a trial
    # mean of 20 hypotheses has sd 12 sqrt(999 / 4) / 24488 / sqrt(20) = 0.0017 from the hypotheses
    # alone, while an iid histogram adds the spread of the share of segments shorter than k
    assert means["stratified"].std() < 0.75 * means["iid"].std()


def test_false_negatives_only_drop_reference_boundaries():
    masses = g.reference_masses(rng(1), 1000, (15, 35))
    reference = to_indicator(masses)
    hyp = g.hypotheses(rng(2), masses, "FN", 0.25, 200)
    assert hyp.shape == (200, masses.sum() - 1) and hyp.dtype == bool
    assert not (hyp & ~reference).any()  # no boundary outside the reference's
    dropped = (~hyp[:, reference]).mean()
    n = 200 * reference.sum()
    _within(dropped, 0.25, math.sqrt(0.25 * 0.75 / n))


def _segment_of_each_gap(masses):
    # gap g (0-based) lies after unit g + 1; it is interior to the segment that holds units g+1 and g+2
    return np.repeat(np.arange(masses.size), masses)[1:]


@pytest.mark.parametrize("errors", ["FP", "FP1"])
def test_fp1_at_most_one_interior_boundary_per_segment(errors):
    masses = g.reference_masses(rng(3), 1000, (5, 45))
    reference = to_indicator(masses)
    hyp = g.hypotheses(rng(4), masses, errors, 0.5, 200)
    assert (hyp[:, reference]).all()  # reference boundaries all kept
    extra = hyp & ~reference
    rows, gaps = np.nonzero(extra)
    segment = _segment_of_each_gap(masses)[gaps]
    per_segment = np.zeros((200, masses.size), dtype=int)
    np.add.at(per_segment, (rows, segment), 1)
    assert per_segment.max() == 1  # one per segment at most
    _within(per_segment.mean(), 0.5, math.sqrt(0.25 / per_segment.size))
    # uniform among the s - 1 interior gaps: the position within the segment, 1 .. s-1, has mean s/2;
    # (offset - s/2) has variance ((s-1)^2 - 1) / 12 for each segment
    starts = np.cumsum(masses) - masses
    s = masses[segment]
    offset = gaps + 1 - starts[segment]
    assert ((offset >= 1) & (offset <= s - 1)).all()
    se = math.sqrt(np.sum(((s - 1) ** 2 - 1) / 12)) / offset.size
    _within(np.mean(offset - s / 2), 0.0, se)


def _rounded_normal_moments(scale):
    """Mean of |X| and of X^2 for X = round(z * scale) given X != 0, z standard normal (by summation)."""

    def cdf(x):
        return 0.5 * (1 + math.erf(x / math.sqrt(2)))

    probs = {v: cdf((v + 0.5) / scale) - cdf((v - 0.5) / scale) for v in range(1, int(12 * scale) + 2)}
    total = 2 * sum(probs.values())
    return 2 * sum(v * p for v, p in probs.items()) / total, 2 * sum(v * v * p for v, p in probs.items()) / total


def test_fp2_offsets_are_rounded_normal_with_a_quarter_of_the_next_segment():
    # One internal boundary at b = 1000, followed by a segment of 400 units: the offset's scale is
    # 400 / 4 = 100 (the preceding segment, 1000 units, would give 250).
    masses = np.array([1000, 400])
    hyp = g.hypotheses(rng(5), masses, "FP2", 0.5, 4000)
    extra = hyp.copy()
    extra[:, 999] = False
    count = extra.sum(axis=1)
    assert count.max() == 1  # one false positive per selected boundary
    _within(count.mean(), 0.5, math.sqrt(0.25 / 4000))
    offsets = np.nonzero(extra)[1] + 1 - 1000
    assert (offsets != 0).all()  # zero offsets drawn again
    mean_abs, mean_square = _rounded_normal_moments(100.0)
    _within(np.mean(offsets), 0.0, math.sqrt(mean_square / offsets.size))
    _within(np.mean(offsets.astype(float) ** 2), mean_square, mean_square * math.sqrt(2 / offsets.size))
    # the preceding segment's scale would give a mean square of about 250^2: far outside
    assert abs(np.mean(offsets.astype(float) ** 2) - 250.0**2) > 10 * mean_square * math.sqrt(2 / offsets.size)


def test_fp2_small_scale_never_lands_on_its_boundary():
    # scale 8 / 4 = 2: P(round(2 z) = 0) = P(|z| < 0.25) ~ 0.2 would be lost without the redraw
    masses = np.full(200, 8)
    hyp = g.hypotheses(rng(6), masses, "FP2", 1.0, 300)
    reference = to_indicator(masses)
    extra = (hyp & ~reference).sum(axis=1)
    # 199 false positives per hypothesis, each at a nonzero offset; they are lost only when two land
    # on the same gap or on another reference boundary (offsets of +-8 or more, rare at scale 2)
    mean_abs, _ = _rounded_normal_moments(2.0)
    assert extra.mean() > 0.8 * 199
    assert mean_abs > 1


def test_fp3_rate_per_gap():
    masses = g.reference_masses(rng(7), 1000, (15, 35))
    n = int(masses.sum())
    reference = to_indicator(masses)
    hyp = g.hypotheses(rng(8), masses, "FP3", 0.5, 100)
    assert hyp[:, reference].all()
    rate = 0.5 * 1000 / n  # p * nseg / N: 0.5 per segment on average
    free = hyp[:, ~reference]
    _within(free.mean(), rate, math.sqrt(rate * (1 - rate) / free.size))


@pytest.mark.parametrize("errors", ["FNP", "FNP1"])
def test_fnp_combines_independent_false_negatives_and_false_positives(errors):
    masses = g.reference_masses(rng(9), 1000, (20, 30))
    reference = to_indicator(masses)
    hyp = g.hypotheses(rng(10), masses, errors, 0.5, 200)
    kept = hyp[:, reference]
    _within(kept.mean(), 0.5, math.sqrt(0.25 / kept.size))
    extra_per_segment = (hyp & ~reference).sum() / (200 * masses.size)
    _within(extra_per_segment, 0.5, math.sqrt(0.25 / (200 * masses.size)))
    # independence: a segment's false positive is as likely whether its starting boundary was kept or not
    segment = _segment_of_each_gap(masses)
    has_fp = np.zeros((200, masses.size), dtype=bool)
    rows, gaps = np.nonzero(hyp & ~reference)
    has_fp[rows, segment[gaps]] = True
    start_kept = kept  # boundary before segment j + 1
    a, b = has_fp[:, 1:][start_kept].mean(), has_fp[:, 1:][~start_kept].mean()
    _within(a - b, 0.0, math.sqrt(0.25 / start_kept.sum() + 0.25 / (~start_kept).sum()))


def test_fp2_never_lands_on_a_reference_boundary():
    # sizes alternate 2, 40: the boundary b before each 40-unit segment has scale 40 / 4 = 10, so
    # round(10 z) = -2 (the previous reference boundary) with probability ~0.04; such draws are
    # drawn again (a false positive is a boundary the reference lacks), so none is on the reference
    masses = np.tile([2, 40], 200)
    reference = to_indicator(masses)
    fp = g.false_positives_around_boundaries(rng(11), masses, 200, 1.0)
    assert not (fp & reference).any()
    # 399 false positives per hypothesis, fewer only where two land on the same gap
    assert fp.sum(axis=1).min() > 0.9 * 399


@pytest.mark.parametrize("errors", ["FNP2", "FNP3"])
def test_false_positives_never_restore_a_dropped_boundary(errors):
    # each reference boundary is kept with probability exactly 1 - p: a false positive never falls
    # on it. (Were FP3 allowed on reference gaps, p * nseg / N ~ 0.02 of the dropped ones would come
    # back: kept share 0.5 + 0.5 * 0.02 = 0.510, 9 standard errors from 0.5 here.)
    masses = g.reference_masses(rng(12), 1000, (15, 35))
    reference = to_indicator(masses)
    hyp = g.hypotheses(rng(13), masses, errors, 0.5, 200)
    kept = hyp[:, reference]
    _within(kept.mean(), 0.5, math.sqrt(0.25 / kept.size))


def test_unknown_error_type():
    with pytest.raises(ValueError, match="unknown error type"):
        g.hypotheses(rng(), np.array([3, 4]), "FX", 0.5, 2)


def test_experiment_streams_are_reproducible_and_distinct():
    a = experiment_rng(3, "pevzner-hearst", "1", "FN", 0.5, (20, 30)).random(5)
    b = experiment_rng(3, "pevzner-hearst", "1", "FN", 0.5, (20, 30)).random(5)
    c = experiment_rng(3, "pevzner-hearst", "1", "FN", 0.5, (15, 35)).random(5)
    d = experiment_rng(4, "pevzner-hearst", "1", "FN", 0.5, (20, 30)).random(5)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c) and not np.array_equal(a, d)


@given(n=st.integers(1, 300), lo=st.integers(1, 30), width=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
def test_stratified_sizes_differ_in_count_by_at_most_one(n, lo, width, seed):
    # the law of the stratified design, for any size and range: n segments, every size in lo..hi-1,
    # each size used floor(n / m) or ceil(n / m) times (m = hi - lo)
    hi = lo + width
    masses = g.stratified_reference_masses(rng(seed), n, (lo, hi))
    assert masses.size == n and masses.min() >= lo and masses.max() <= hi - 1
    counts = np.bincount(masses - lo, minlength=width)
    assert counts.max() - counts.min() <= 1 and counts.min() == n // width
