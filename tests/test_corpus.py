"""Corpus scoring: pooled (micro), macro, by_length, groups and the 0/0 policy."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment
from test_coverage_paper import HYPS, REF, annotation

from tvseg.errors import TvsegWarning
from tvseg.evaluation import evaluate
from tvseg.retrieval.show_coverage import coverage
from tvseg.settings import Settings

QUIET = Settings(bootstrap=0)


def ann(*bounds):
    a = Annotation()
    for k, (s, e) in enumerate(bounds):
        a[Segment(s, e)] = f"S{k + 1}"
    return a


def paper_corpus():
    # the six hypotheses of Bouchekif et al.'s section 4 table as six shows with the same reference
    shows = sorted(HYPS)
    return ({s: annotation(REF, "R") for s in shows}, {"sys": {s: annotation(HYPS[s], "H") for s in shows}})


def test_pooled_and_macro_on_the_paper_table():
    ref, hyps = paper_corpus()
    r = evaluate(ref, hyps, settings=QUIET).systems["sys"]
    # pooled from the printed fractions: R_N = (8+7+7+6+7+6)/(6*8) = 41/48,
    # P_N = 41/(9+9+9+9+7+7) = 41/50; boundaries R = (7+7+7+6+6+6)/(6*7) = 39/42,
    # P = 39/(8+8+8+8+6+6) = 39/44.
    assert r.corpus["recall_n"] == pytest.approx(41 / 48)
    assert r.corpus["precision_n"] == pytest.approx(41 / 50)
    assert r.corpus["cov_n"] == pytest.approx(2 * (41 / 48) * (41 / 50) / (41 / 48 + 41 / 50))
    assert r.corpus["boundary_recall"] == pytest.approx(39 / 42)
    assert r.corpus["boundary_precision"] == pytest.approx(39 / 44)
    assert r.corpus["n_reference"] == 48 and r.corpus["n_hypothesis"] == 50
    # macro: the mean of the printed per-hypothesis CovN values (exact fractions)
    printed = [16 / 17, 98 / 119, 98 / 119, 12 / 17, 14 / 15, 0.8]
    assert r.macro["cov_n"] == pytest.approx(np.mean(printed))
    # per show: the single-show API gives the same numbers
    for show in HYPS:
        one = coverage(annotation(REF, "R"), annotation(HYPS[show], "H"))
        assert r.shows.loc[show, "cov_n"] == pytest.approx(one.cov_n)
        assert r.shows.loc[show, "cov_d"] == pytest.approx(one.cov_d)


def test_order_of_shows_and_systems_is_irrelevant():
    ref, hyps = paper_corpus()
    a = evaluate(ref, hyps, settings=QUIET).systems["sys"].corpus
    shuffled_ref = dict(reversed(list(ref.items())))
    shuffled_hyp = {"sys": dict(reversed(list(hyps["sys"].items())))}
    b = evaluate(shuffled_ref, shuffled_hyp, settings=QUIET).systems["sys"].corpus
    assert a == pytest.approx(b, nan_ok=True)


def test_by_length_classes_each_side_by_its_own_duration():
    # ref:  |----R1 0-100----|R2 100-110|----R3 110-210----|   long, short (10 s), long
    # hyp:  |------H1 0-104------|------H2 104-210------|      both long
    # long:  R_N = 2/2 (R1, R3 correct), P_N = 2/2; short: R_N = 0/1 and no short hypothesis
    # segment: P_N is 0/0 -> NaN with a warning, and CovN of the class is 0 (its R_N is 0).
    with pytest.warns(TvsegWarning, match="no short hypothesis segment"):
        r = evaluate(
            {"s": ann((0, 100), (100, 110), (110, 210))}, {"sys": {"s": ann((0, 104), (104, 210))}}, settings=QUIET
        ).systems["sys"]
    assert r.by_length["long"]["recall_n"] == 1.0 and r.by_length["long"]["precision_n"] == 1.0
    assert r.by_length["short"]["recall_n"] == 0.0 and r.by_length["short"]["n_reference"] == 1
    assert np.isnan(r.by_length["short"]["precision_n"]) and r.by_length["short"]["cov_n"] == 0.0
    # R_D of the long class: (100 + 100) / 200
    assert r.by_length["long"]["recall_d"] == 1.0
    assert r.by_length["short"]["recall_d"] == 0.0


def test_threshold_is_inclusive_for_long():
    # a 30 s segment is long at the default 30 s threshold
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        r = evaluate({"s": ann((0, 30))}, {"sys": {"s": ann((0, 30))}}, settings=QUIET).systems["sys"]
    assert r.by_length["long"]["n_reference"] == 1 and r.by_length["short"]["n_reference"] == 0


def test_empty_hypothesis_show_is_nan_with_a_warning_never_one():
    ref = {"a": ann((0, 50), (50, 100)), "b": ann((0, 60), (60, 100))}
    hyp = {"sys": {"a": ann((0, 50), (50, 100)), "b": Annotation()}}
    with pytest.warns(TvsegWarning, match="no hypothesis segment"):
        r = evaluate(ref, hyp, settings=QUIET).systems["sys"]
    assert np.isnan(r.shows.loc["b", "precision_n"]) and r.shows.loc["b", "recall_n"] == 0.0
    assert r.shows.loc["b", "cov_n"] == 0.0  # F of a zero recall
    # pooled: R_N = 2/4, P_N = 2/2; macro precision_n leaves show b out: 1.0; macro cov_n = (1 + 0)/2
    assert r.corpus["recall_n"] == 0.5 and r.corpus["precision_n"] == 1.0
    assert r.macro["precision_n"] == 1.0 and r.macro["cov_n"] == 0.5


def test_missing_and_extra_shows_are_named_in_warnings():
    ref = {"a": ann((0, 50), (50, 100)), "b": ann((0, 100))}
    hyp = {"sys": {"a": ann((0, 50), (50, 100)), "zzz": ann((0, 10))}}
    with pytest.warns(TvsegWarning) as record:
        r = evaluate(ref, hyp, settings=QUIET)
    messages = " ".join(str(w.message) for w in record)
    assert "zzz" in messages and "no hypothesis for show b" in messages
    assert r.shows == ["a", "b"] and list(r.systems["sys"].shows.index) == ["a", "b"]


def test_groups_from_metadata():
    ref = {"a": ann((0, 50), (50, 100)), "b": ann((0, 60), (60, 100)), "c": ann((0, 100))}
    hyp = {"sys": {"a": ann((0, 50), (50, 100)), "b": ann((0, 100)), "c": ann((0, 100))}}
    md = pd.DataFrame({"channel": ["X", "Y", "X"], "duration": [1.0, 2.0, 3.0]}, index=["a", "b", "c"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        g = evaluate(ref, hyp, settings=QUIET, metadata=md).systems["sys"].groups
    assert set(g) == {"channel"}  # a numeric column is not a grouping
    # channel X = shows a and c: 3 reference segments, all correct; Y = show b: ref [0,60) [60,100)
    # against hyp [0,100): R1 <-> H1 = 120/160 = 0.75, R2 = 80/140: none correct; H1 -> R1, 0.75.
    assert g["channel"]["X"]["recall_n"] == 1.0 and g["channel"]["X"]["n_reference"] == 3
    assert g["channel"]["Y"]["recall_n"] == 0.0 and g["channel"]["Y"]["precision_n"] == 0.0


def test_gamma_sweep_and_tolerance_sweep():
    ref, hyps = paper_corpus()
    r = evaluate(ref, hyps, settings=QUIET).systems["sys"]
    sweep = r.gamma_sweep.set_index("gamma")
    assert sweep.index[0] == 0.5 and sweep.index[-1] == 1.0 and len(sweep) == 51
    assert sweep.loc[0.85, "cov_n"] == pytest.approx(r.corpus["cov_n"])
    assert sweep.loc[1.0, "cov_n"] == 0.0  # strict: nothing is above 1
    assert sweep["recall_n"].is_monotonic_decreasing
    tol = r.tolerance_sweep.set_index("tolerance")
    assert tol.loc[10.0, "boundary_f1"] == pytest.approx(r.corpus["boundary_f1"])
    assert tol["boundary_recall"].is_monotonic_increasing
    # tolerance 0: only the exact cuts match: 6 shows x the untouched boundaries:
    # Hyp_1..3: 7 each; Hyp_4: 6; Hyp_5: 5 (104 is not exact); Hyp_6: 6 -> 38 of 42
    assert tol.loc[0.0, "boundary_recall"] == pytest.approx(38 / 42)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 10**12), min_size=1, max_size=300),
    st.sampled_from([1, 10**-2, 10**-6, 7.3]),
    st.lists(st.booleans(), min_size=300, max_size=300),
)
def test_one_show_sums_are_bincounts_bit_for_bit(values, scale, mask):
    # one show's per-show sums skip bincount; they must be its sums exactly (bincount adds the weights
    # one by one from 0, so float rounding depends on the order), and of its dtype
    from tvseg.retrieval.corpus import _sum

    weights = np.array(values) * scale
    chosen = np.array(mask[: len(values)])
    show = np.zeros(len(values), dtype=np.int64)
    for w in (weights, weights * chosen, chosen, np.array(values)):
        expected = np.bincount(show, weights=w, minlength=1)
        got = _sum(show, w, 1)
        assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()
    expected = np.bincount(show, minlength=1).astype(float)
    assert _sum(show, None, 1).tobytes() == expected.tobytes()
