"""Threshold decisions on decimal times agree with exact rational arithmetic (issue 10).

Every expected decision here is computed with ``fractions.Fraction`` on the decimal strings a user
would write; tvseg reads the same strings as floats. Cases are drawn on a grid of 2 and 3 decimals,
and many are built to sit exactly on the threshold, where float rounding used to decide.
"""

import json
import warnings
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment

import tvseg
from tvseg.cli import main
from tvseg.columns import stack
from tvseg.errors import TvsegWarning
from tvseg.retrieval.corpus import score_shows
from tvseg.retrieval.sweeps import GAMMAS, TOLERANCES, gamma_sweep, sweep_tallies, tolerance_sweep


def dec(units: int, places: int) -> str:
    """The decimal string of ``units / 10**places`` as a user writes it (``"3.41"``)."""
    sign = "-" if units < 0 else ""
    q, r = divmod(abs(units), 10**places)
    return f"{sign}{q}.{r:0{places}d}"


def annotation(*bounds):
    ann = Annotation()
    for k, (s, e) in enumerate(bounds):
        ann[Segment(s, e)] = f"t{k}"
    return ann


# --- the two cases of the issue -----------------------------------------------------------------


def test_coverage_exactly_at_gamma_is_not_correct():
    # reference [0.01, 3.41], hypothesis [0.01, 4.61]: overlap 3.40, coverage 2 x 3.40 / (3.40 + 4.60)
    # = 6.8 / 8 = 0.85 exactly, not strictly above gamma 0.85 (the float is 0.8500000000000001).
    # The UEM [0.01, 4.61] keeps the hypothesis whole (by default it is cropped to the reference's extent).
    uem = Segment(0.01, 4.61)
    r = tvseg.coverage(annotation((0.01, 3.41)), annotation((0.01, 4.61)), gamma=0.85, uem=uem)
    assert r.n_correct_reference == 0 and r.n_correct_hypothesis == 0
    assert r.matches["coverage"].iloc[0] == 0.85
    # just below the threshold it is correct: 0.849 < 0.85
    assert (
        tvseg.coverage(annotation((0.01, 3.41)), annotation((0.01, 4.61)), gamma=0.849, uem=uem).n_correct_reference
        == 1
    )


def test_boundaries_exactly_at_the_tolerance_are_paired():
    # 6.1 and 16.1 are 10 s apart (10.000000000000002 in floats): paired at tolerance 10 (inclusive).
    r = tvseg.boundaries(annotation((0, 6.1), (6.1, 30)), annotation((0, 16.1), (16.1, 30)), tolerance=10)
    assert (r.n_matched, r.recall) == (1, 1.0)
    assert (
        tvseg.boundaries(annotation((0, 6.1), (6.1, 30)), annotation((0, 16.1), (16.1, 30)), tolerance=9.99).n_matched
        == 0
    )


def test_both_cases_through_an_rttm_file_and_the_cli(tmp_path):
    # Show "cov": reference [0.01, 3.41) [3.41, 20.00); hypothesis [0.01, 4.61) [4.61, 20.00).
    #   first pair: coverage 0.85 exactly -> not correct; second pair: overlap 15.39,
    #   2 x 15.39 / (16.59 + 15.39) = 30.78 / 31.98 = 0.9625 -> correct. n_correct_reference = 1.
    # Show "tol": reference [0, 6.1) [6.1, 30); hypothesis [0, 16.1) [16.1, 30): the boundaries 6.1
    #   and 16.1 are exactly 10 s apart -> matched at --tolerance 10: boundary recall 1/1.
    line = "SEGMENT {show} 1 {start} {dur} <NA> <NA> {label} <NA> <NA>\n"
    ref = "".join(
        line.format(show=s, start=a, dur=d, label=lab)
        for s, a, d, lab in [
            ("cov", "0.01", "3.40", "a"),
            ("cov", "3.41", "16.59", "b"),
            ("tol", "0", "6.1", "a"),
            ("tol", "6.1", "23.9", "b"),
        ]
    )
    hyp = "".join(
        line.format(show=s, start=a, dur=d, label=lab)
        for s, a, d, lab in [
            ("cov", "0.01", "4.60", "a"),
            ("cov", "4.61", "15.39", "b"),
            ("tol", "0", "16.1", "a"),
            ("tol", "16.1", "13.9", "b"),
        ]
    )
    (tmp_path / "ref.rttm").write_text(ref)
    (tmp_path / "hyp.rttm").write_text(hyp)
    out = tmp_path / "scores.json"
    code = main(
        [
            "evaluate",
            "--reference",
            str(tmp_path / "ref.rttm"),
            "--hypothesis",
            f"s={tmp_path / 'hyp.rttm'}",
            "--bootstrap",
            "0",
            "--json",
            str(out),
        ]
    )
    assert code == 0
    shows = json.loads(out.read_text())["systems"]["s"]["shows"]
    assert shows["cov"]["n_correct_reference"] == 1 and shows["cov"]["n_reference"] == 2
    assert shows["tol"]["boundary_recall"] == 1.0 and shows["tol"]["boundary_precision"] == 1.0


# --- property tests against Fraction arithmetic ---------------------------------------------------

PLACES = st.sampled_from([2, 3])


@st.composite
def coverage_cases(draw):
    """A reference and a hypothesis segment that overlap, and a gamma, on a decimal grid; about half
    are built so that the coverage equals gamma exactly."""
    places = draw(PLACES)
    gamma_num = draw(st.integers(1, 99))  # gamma = gamma_num / 100
    start_r = draw(st.integers(0, 10 ** (places + 3)))
    if draw(st.booleans()):
        # nested segments with 2x / (x + y) = p / q: x = p m, y = (2q - p) m (y >= x as p <= q)
        p, q = Fraction(gamma_num, 100).numerator, Fraction(gamma_num, 100).denominator
        m = draw(st.integers(1, 10 ** (places + 1) // q + 1))
        x, y = p * m, (2 * q - p) * m
        shift = draw(st.integers(0, y - x))
        ref = (start_r + shift, start_r + shift + x)
        hyp = (start_r, start_r + y)
        if draw(st.booleans()):
            ref, hyp = hyp, ref
    else:
        ref = (start_r, start_r + draw(st.integers(1, 10 ** (places + 2))))
        a = draw(st.integers(ref[0] - 10 ** (places + 2), ref[1] - 1))
        b = draw(st.integers(max(a, ref[0]) + 1, ref[1] + 10 ** (places + 2)))
        hyp = (a, b)
    return places, gamma_num, ref, hyp


def exact_correct(places, gamma_num, ref, hyp) -> bool:
    r = [Fraction(dec(t, places)) for t in ref]
    h = [Fraction(dec(t, places)) for t in hyp]
    overlap = min(r[1], h[1]) - max(r[0], h[0])
    return 2 * overlap / ((r[1] - r[0]) + (h[1] - h[0])) > Fraction(dec(gamma_num, 2))


@settings(max_examples=400, deadline=None)
@given(coverage_cases())
def test_coverage_decision_equals_fraction_arithmetic(case):
    places, gamma_num, ref, hyp = case
    r = tvseg.coverage(
        annotation(tuple(float(dec(t, places)) for t in ref)),
        annotation(tuple(float(dec(t, places)) for t in hyp)),
        gamma=float(dec(gamma_num, 2)),
        uem=Segment(float(dec(min(ref[0], hyp[0]), places)), float(dec(max(ref[1], hyp[1]), places))),
    )
    assert r.n_correct_reference == int(exact_correct(places, gamma_num, ref, hyp))


def test_coverage_decisions_over_a_corpus_and_the_gamma_sweep():
    # 4,000 one-segment shows scored in one pass (the path of tvseg evaluate), half of them on the
    # threshold; every decision compared with Fraction arithmetic, at gamma 0.85 and across the sweep.
    rng = np.random.default_rng(0)
    cases = []
    for k in range(4000):
        places = 2 + k % 2
        if k % 2 == 0:
            m = int(rng.integers(1, 200))
            x, y = 17 * m, 23 * m  # 2x / (x + y) = 34 / 40 = 0.85
            a = int(rng.integers(0, 10 ** (places + 3)))
            shift = int(rng.integers(0, y - x + 1))
            ref, hyp = (a + shift, a + shift + x), (a, a + y)
        else:
            a = int(rng.integers(0, 10 ** (places + 3)))
            ref = (a, a + int(rng.integers(1, 10 ** (places + 2))))
            s = int(rng.integers(ref[0] - 50, ref[1]))
            hyp = (s, max(s, ref[0]) + int(rng.integers(1, 10 ** (places + 2))))
        cases.append((places, ref, hyp))
    ref = stack(
        [
            (np.array([float(dec(r[0], p))]), np.array([float(dec(r[1], p))]), np.array(["x"], object))
            for p, r, _ in cases
        ]
    )
    hyp = stack(
        [
            (np.array([float(dec(h[0], p))]), np.array([float(dec(h[1], p))]), np.array(["x"], object))
            for p, _, h in cases
        ]
    )
    shows = [str(k) for k in range(len(cases))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        scores = score_shows(ref, hyp, shows=shows, gamma=0.85, long_threshold=30.0, tolerance=10.0)
    expected = np.array([exact_correct(p, 85, r, h) for p, r, h in cases])
    assert (scores.components["n_correct_reference"].to_numpy() == expected).all()
    assert expected.sum() < len(cases) // 2 + 1000  # the threshold cases are all incorrect
    sweep = gamma_sweep(sweep_tallies(scores, tolerances=()))
    for g, n_correct in zip(GAMMAS[::5], (sweep["recall_n"].to_numpy() * len(cases))[::5]):
        gamma_num = int(round(g * 100))
        truth = sum(exact_correct(p, gamma_num, r, h) for p, r, h in cases)
        assert round(n_correct) == truth, g


@st.composite
def boundary_cases(draw):
    """One inner boundary per side in a show [0, T], on a decimal grid, and a tolerance with at most
    two decimals; about half the cases put the boundaries exactly the tolerance apart."""
    places = draw(PLACES)
    tol_num = draw(st.integers(0, 3000))  # tolerance = tol_num / 100
    scale = 10 ** (places - 2)
    r = draw(st.integers(1, 10 ** (places + 3)))
    if draw(st.booleans()):
        h = r + draw(st.sampled_from([-1, 1])) * tol_num * scale
    else:
        h = r + draw(st.integers(-tol_num * scale - 5, tol_num * scale + 5))
    end = max(r, h) + draw(st.integers(1, 10**places))
    if h <= 0:
        return None
    return places, tol_num, r, h, end


@settings(max_examples=400, deadline=None)
@given(boundary_cases())
def test_tolerance_decision_equals_fraction_arithmetic(case):
    if case is None:
        return
    places, tol_num, r, h, end = case
    f = {t: float(dec(t, places)) for t in (r, h, end)}
    result = tvseg.boundaries(
        annotation((0, f[r]), (f[r], f[end])), annotation((0, f[h]), (f[h], f[end])), tolerance=float(dec(tol_num, 2))
    )
    distance = abs(Fraction(dec(r, places)) - Fraction(dec(h, places)))
    assert result.n_matched == int(distance <= Fraction(dec(tol_num, 2)))


def test_tolerance_decisions_over_a_corpus_and_the_tolerance_sweep():
    # 4,000 shows, two decimals, one boundary per side, a third of them exactly an integer number of
    # seconds apart (the sweep's tolerances are 0, 1, ..., 30 s); every count against Fraction.
    rng = np.random.default_rng(1)
    cases = []
    for k in range(4000):
        r = int(rng.integers(100, 100_000))
        h = r + (int(rng.integers(-30, 31)) * 100 if k % 3 == 0 else int(rng.integers(-3100, 3100)))
        h = max(h, 1)
        cases.append((r, h, max(r, h) + int(rng.integers(1, 1000))))
    parts_r, parts_h = [], []
    for r, h, end in cases:
        fr, fh, fe = float(dec(r, 2)), float(dec(h, 2)), float(dec(end, 2))
        parts_r.append((np.array([0.0, fr]), np.array([fr, fe]), np.array(["a", "b"], object)))
        parts_h.append(
            (np.array([0.0, fh]) if fh != fr else np.array([0.0, fh]), np.array([fh, fe]), np.array(["a", "b"], object))
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        scores = score_shows(
            stack(parts_r),
            stack(parts_h),
            shows=[str(k) for k in range(len(cases))],
            gamma=0.85,
            long_threshold=30.0,
            tolerance=10.0,
            tolerances=TOLERANCES,
        )
    distance = [abs(Fraction(dec(r, 2)) - Fraction(dec(h, 2))) for r, h, _ in cases]
    assert (scores.components["boundary_n_matched"].to_numpy() == [d <= 10 for d in distance]).all()
    sweep = tolerance_sweep(sweep_tallies(scores), scores.components)
    for tol, recall in zip(sweep["tolerance"], sweep["boundary_recall"]):
        assert round(recall * len(cases)) == sum(d <= Fraction(int(tol)) for d in distance), tol
