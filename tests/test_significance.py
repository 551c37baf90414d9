"""Honest significance (issue 22): what one, two or a few shows can support.

One show: no interval and no p-value (null), with a warning. Up to 12 shows: the exact paired sign-flip
test over all 2^n assignments (checked against a brute-force enumeration in exact fractions written here),
so that no p-value is below 2/2^n (0.5 with two shows). Below 10 shows: intervals flagged unreliable and
nothing called significant. More than two systems: Holm's correction (checked by hand). The report says
how many shows the intervals rest on.
"""

import itertools
import json
import math
import re
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from pyannote.core import Annotation, Segment

import tvseg
from tvseg import metrics
from tvseg.errors import TvsegWarning
from tvseg.report.adapter import ResultPages
from tvseg.report.render import render_index
from tvseg.report.summary import sentences, summary_sentences
from tvseg.significance import holm, paired_bootstrap, resampled_sums

# --- helpers ------------------------------------------------------------------------------------


def components(rows):
    """Per-show components from ``(n_ref, n_hyp, correct_ref, correct_hyp, b_ref, b_hyp, b_matched)`` rows;
    durations are 100 s a segment (so CovD = CovN here: every duration is a count times 100)."""
    a = np.asarray(rows, dtype=float)
    return pd.DataFrame(
        {
            "n_reference": a[:, 0],
            "n_hypothesis": a[:, 1],
            "n_correct_reference": a[:, 2],
            "n_correct_hypothesis": a[:, 3],
            "duration_reference": 100 * a[:, 0],
            "duration_hypothesis": 100 * a[:, 1],
            "duration_correct_reference": 100 * a[:, 2],
            "duration_correct_hypothesis": 100 * a[:, 3],
            "boundary_n_reference": a[:, 4],
            "boundary_n_hypothesis": a[:, 5],
            "boundary_n_matched": a[:, 6],
        }
    )


def _f(p, r):
    """F of a precision and a recall (fractions; 0 when either is 0, None when either is undefined)."""
    if p is None or r is None:
        return None if (p != 0 and r != 0) else Fraction(0)
    return Fraction(0) if p == 0 or r == 0 else 2 * p * r / (p + r)


def _ratio(num, den):
    return Fraction(num, den) if den else None


def pooled(rows):
    """CovN and boundary F of the rows summed, in exact fractions (Bouchekif et al.'s formulas)."""
    t = [sum(int(r[i]) for r in rows) for i in range(7)]
    return {
        "cov_n": _f(_ratio(t[3], t[1]), _ratio(t[2], t[0])),
        "boundary_f1": _f(_ratio(t[6], t[5]), _ratio(t[6], t[4])),
    }


def brute_force_p(a_rows, b_rows, metric):
    """The two-sided sign-flip p-value by enumeration: every way of swapping the two systems' rows on some
    shows, counting the assignments whose |difference| reaches the observed one (identity included), over
    the assignments where the metric is defined."""

    def diff(x, y):
        u, v = pooled(x)[metric], pooled(y)[metric]
        return None if u is None or v is None else u - v

    observed = diff(a_rows, b_rows)
    count = defined = 0
    for flips in itertools.product((0, 1), repeat=len(a_rows)):
        x = [b if f else a for a, b, f in zip(a_rows, b_rows, flips)]
        y = [a if f else b for a, b, f in zip(a_rows, b_rows, flips)]
        d = diff(x, y)
        if d is not None:
            defined += 1
            count += abs(d) >= abs(observed)
    return Fraction(count, defined)


def annotation(bounds):
    out = Annotation()
    for i, (x, y) in enumerate(zip(bounds[:-1], bounds[1:])):
        out[Segment(x, y)] = f"t{i}"
    return out


def corpus(n_shows):
    """n shows of 300 s: the reference cut at 100 and 200 s; ``good`` finds both cuts, ``bad`` none."""
    ref = {f"s{k}": annotation([0, 100, 200, 300]) for k in range(n_shows)}
    good = {f"s{k}": annotation([0, 100, 200, 300]) for k in range(n_shows)}
    bad = {f"s{k}": annotation([0, 300]) for k in range(n_shows)}
    return ref, {"good": good, "bad": bad}


def evaluate(n_shows, **settings):
    ref, systems = corpus(n_shows)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tvseg.evaluate(ref, systems, settings=tvseg.Settings(**settings))
    return result, [w for w in caught if issubclass(w.category, TvsegWarning)]


def summary_paragraph(page: str) -> str:
    return re.search(r'<p class="summary" id="summary">(.*?)</p>', page, re.S).group(1)


# --- one show -----------------------------------------------------------------------------------


def test_one_show_has_no_interval_and_no_p_value_and_says_why():
    result, caught = evaluate(1, bootstrap=200)
    assert any("1 show: no bootstrap interval and no p-value" in str(w.message) for w in caught)
    data = json.loads(json.dumps(result.to_json()))  # through JSON: NaN is null
    for name in ("good", "bad"):
        intervals = data["systems"][name]["bootstrap"]
        assert intervals and all(v == {"low": None, "high": None} for v in intervals.values())
    assert data["pairwise"] and all(
        e["p_value"] is None and e["p_value_holm"] is None and e["test"] is None for e in data["pairwise"]
    )
    # the observed difference is still there: good finds 3 of 3 segments, bad 0 of 3 (CovN 1 - 0)
    assert next(e for e in data["pairwise"] if e["metric"] == "cov_n")["difference"] == 1.0
    assert data["significance"]["shows"] == 1 and data["significance"]["intervals"] is None
    said = summary_sentences(result)
    assert said[-1] == "Not enough shows to tell: one show gives no p-value (a test over shows needs two or more)."
    assert not any("significant" in s for s in said)
    page = render_index(ResultPages(result, date="2000-01-01"))
    assert "no interval: one show cannot be resampled" in page
    assert "significant" not in summary_paragraph(page)


def test_one_show_through_paired_bootstrap_directly():
    c = components([(10, 10, 7, 7, 9, 9, 6)])
    with pytest.warns(TvsegWarning, match="1 show"):
        intervals, pairwise = paired_bootstrap({"a": c, "b": components([(10, 10, 3, 3, 9, 9, 2)])}, resamples=50)
    assert all(math.isnan(v["low"]) and math.isnan(v["high"]) for v in intervals["a"].values())
    assert all(math.isnan(e["p_value"]) for e in pairwise)


# --- two shows ----------------------------------------------------------------------------------


def test_two_shows_hand_computed_p_value_is_one_half():
    # Show 1: 10 reference and 10 hypothesis segments each; a gets 10 right, b 2. Show 2: a 8, b 4.
    # P_N = R_N for both (as many hypothesis as reference segments, as many right on each side), so CovN = R_N:
    #   a: 18/20 = 0.9, b: 6/20 = 0.3, observed difference 0.6.
    #   swap show 1: a' = 2 + 8 = 10/20, b' = 10 + 4 = 14/20: -0.2;  swap show 2: a' = 14/20, b' = 10/20: +0.2;
    #   swap both: -0.6. |d| >= 0.6 on 2 of the 4 assignments: p = 2/4 = 0.5, where the bootstrap said 1/(B+1).
    a = components([(10, 10, 10, 10, 9, 9, 9), (10, 10, 8, 8, 9, 9, 7)])
    b = components([(10, 10, 2, 2, 9, 9, 1), (10, 10, 4, 4, 9, 9, 3)])
    with pytest.warns(TvsegWarning, match="rest on 2 shows"):
        _, pairwise = paired_bootstrap({"a": a, "b": b}, resamples=1000, seed=0)
    cov_n = next(e for e in pairwise if e["metric"] == "cov_n")
    assert cov_n["difference"] == pytest.approx(0.6)
    assert cov_n["p_value"] == 0.5 and cov_n["test"] == "exact sign-flip"


def test_no_p_value_over_two_shows_is_below_one_half():
    # whatever the two shows, the identity and the full swap both reach |d|: p >= 2/4
    rng = np.random.default_rng(0)
    for _ in range(40):
        tables = []
        for _system in range(3):
            n = rng.integers(1, 12, size=(2, 1))
            tables.append(
                components(np.hstack([n, n, rng.integers(0, n + 1), rng.integers(0, n + 1), n - 1, n - 1, n - 1]))
            )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, pairwise = paired_bootstrap(dict(zip("abc", tables)), resamples=100, seed=1)
        ps = [e["p_value"] for e in pairwise if not math.isnan(e["p_value"])]
        assert ps and min(ps) >= 0.5
        assert all(e["p_value_holm"] >= e["p_value"] for e in pairwise if not math.isnan(e["p_value"]))


def test_two_shows_report_says_not_enough_shows_and_never_significant():
    result, caught = evaluate(2, bootstrap=300)
    assert any("rest on 2 shows, fewer than 10" in str(w.message) for w in caught)
    # good is perfect on both shows, bad finds nothing: the largest possible difference, and still p = 0.5
    assert {e["p_value"] for e in result.pairwise} == {0.5}
    data = result.to_json()
    assert data["significance"] == {
        "shows": 2,
        "min_shows": 10,
        "intervals": "percentile bootstrap",
        "intervals_reliable": False,
        "test": "exact sign-flip",
        "resamples": 300,
        "smallest_p_value": 0.5,
        # Holm's family: the headline metrics scored (no units: CovN, CovD, boundary F), for the one pair
        "family": ["cov_n", "cov_d", "boundary_f1"],
        "correction": "holm",
    }
    said = summary_sentences(result)
    assert said[-1].startswith("Not enough shows to tell: 2 shows, fewer than the 10 a verdict needs")
    assert "p = " not in said[-1]  # no p-value beside a verdict of too few shows: the table gives them
    assert "no p-value can be below 0.5" in said[-1]
    assert not any("significant" in s for s in said)
    page = render_index(ResultPages(result, date="2000-01-01"))
    assert "significant" not in summary_paragraph(page)
    assert 'class="sig"' not in page  # no p-value marked in the significance table either
    # how many shows the intervals rest on, and that they are not to be trusted
    assert "resampling the 2 shows: fewer than 10, so read them as unreliable" in page
    assert "Exact sign-flip test over the 2 shows (all 4 ways" in page


# --- the exact test against brute force ---------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_exact_sign_flip_p_value_equals_brute_force_enumeration(seed):
    rng = np.random.default_rng(seed)
    n_shows = int(rng.integers(2, 9))
    rows = {}
    for name in ("a", "b"):
        n_ref = rng.integers(1, 9, n_shows)
        n_hyp = rng.integers(0, 9, n_shows)  # a show with no hypothesis segment: P_N 0/0 on that show
        b_ref, b_hyp = n_ref - 1, np.maximum(n_hyp - 1, 0)
        rows[name] = np.column_stack(
            [
                n_ref,
                n_hyp,
                rng.integers(0, np.minimum(n_ref, n_hyp) + 1),
                rng.integers(0, np.minimum(n_ref, n_hyp) + 1),
                b_ref,
                b_hyp,
                rng.integers(0, np.minimum(b_ref, b_hyp) + 1),
            ]
        )
    rows["b"][:, 0] = rows["a"][:, 0]  # the same reference for both systems
    rows["b"][:, 4] = rows["a"][:, 4]
    rows["b"][:, 2] = np.minimum(rows["b"][:, 2], rows["b"][:, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, pairwise = paired_bootstrap({k: components(v) for k, v in rows.items()}, resamples=50)
    for metric in ("cov_n", "boundary_f1"):
        (entry,) = [e for e in pairwise if e["metric"] == metric]
        expected = brute_force_p([tuple(r) for r in rows["a"]], [tuple(r) for r in rows["b"]], metric)
        assert entry["p_value"] == float(expected), (metric, n_shows)
        assert entry["p_value"] >= 2 / 2**n_shows


def test_pk_and_windowdiff_exact_p_values_equal_brute_force_over_unit_counts():
    # Pk and WindowDiff (with units) swap each show's unit counts: recomputed here from the per-show
    # brute-force oracle's counts (tests/unit_reference.py's unit_components) over every assignment
    from unit_reference import unit_components, unit_metrics

    rng = np.random.default_rng(4)
    ref, systems, units = {}, {"close": {}, "far": {}}, {}
    for k in range(5):
        show = f"s{k}"
        cuts = np.sort(rng.choice(np.arange(20, 580, 10), size=int(rng.integers(2, 6)), replace=False))
        ref[show] = annotation([0.0, *map(float, cuts), 600.0])
        for name, spread in (("close", 10), ("far", 60)):
            moved = {float(min(590, max(10, c + rng.integers(-spread, spread + 1)))) for c in cuts}
            systems[name][show] = annotation([0.0, *sorted(moved), 600.0])
        starts = np.arange(0.0, 600.0, 4.0)
        units[show] = pd.DataFrame({"start": starts, "end": starts + 4.0})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(ref, systems, units=units, settings=tvseg.Settings(bootstrap=100))
        shows = sorted(ref)
        counts = {
            name: [unit_components(ref[s], hyp[s], units=units[s], settings=result.settings) for s in shows]
            for name, hyp in systems.items()
        }

        def pooled_unit(rows, metric):
            return unit_metrics({k: sum(r[k] for r in rows) for k in rows[0]})[metric]

        for metric in ("pk", "windowdiff"):
            a, b = counts["close"], counts["far"]
            observed = pooled_unit(a, metric) - pooled_unit(b, metric)
            hits = 0
            for flips in itertools.product((0, 1), repeat=len(shows)):
                x = [q if f else p for p, q, f in zip(a, b, flips)]
                y = [p if f else q for p, q, f in zip(a, b, flips)]
                hits += abs(pooled_unit(x, metric) - pooled_unit(y, metric)) >= abs(observed) - 1e-12
            (entry,) = [e for e in result.pairwise if e["metric"] == metric]
            assert entry["p_value"] == hits / 2 ** len(shows)


def test_from_thirteen_shows_the_bootstrap_p_value_never_goes_below_two_over_two_to_the_n():
    # a beats b by 5 of 10 on each of 13 shows: the bootstrap's p-value is its smallest, 1/(B+1); with
    # B = 1000 that is 1/1001 (unchanged), with B = 9000 it would be 1/9001 < 2/2^13 = 1/4096: 1/4096 is given
    a = components([(10, 10, 8, 8, 9, 9, 8)] * 13)
    b = components([(10, 10, 3, 3, 9, 9, 3)] * 13)
    for resamples, expected in ((1000, 1 / 1001), (9000, 1 / 4096)):
        _, pairwise = paired_bootstrap({"a": a, "b": b}, resamples=resamples, seed=0)
        cov_n = next(e for e in pairwise if e["metric"] == "cov_n")
        assert cov_n["test"] == "paired bootstrap" and cov_n["p_value"] == expected


# --- Holm ---------------------------------------------------------------------------------------


def test_holm_by_hand():
    # m = 3, sorted 0.01 <= 0.03 <= 0.04: 3 x 0.01 = 0.03; 2 x 0.03 = 0.06; 1 x 0.04 = 0.04, raised to the
    # running maximum 0.06. In the given order: 0.03, 0.06, 0.06.
    assert holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])
    # NaN is left out of the family (m = 2): 2 x 0.02 = 0.04, 1 x 0.5 = 0.5
    got = holm([0.02, float("nan"), 0.5])
    assert got[0] == pytest.approx(0.04) and math.isnan(got[1]) and got[2] == pytest.approx(0.5)
    # capped at 1: 3 x 0.4 = 1.2 -> 1, then the running maximum keeps 1
    assert holm([0.4, 0.5, 0.9]).tolist() == pytest.approx([1.0, 1.0, 1.0])
    assert holm([0.03]).tolist() == [0.03]  # one comparison: nothing to correct


def test_three_systems_get_holm_p_values_over_the_pairs_and_the_headline_metrics():
    rng = np.random.default_rng(7)
    n = 11  # from 10 shows a verdict is allowed; up to 12 the p-values are exact
    ref_n = rng.integers(4, 10, n)
    systems = {}
    for name, skill in (("a", 0.9), ("b", 0.6), ("c", 0.5)):
        right = rng.binomial(ref_n, skill)
        systems[name] = components(np.column_stack([ref_n, ref_n, right, right, ref_n - 1, ref_n - 1, right // 2]))
    _, pairwise = paired_bootstrap(systems, resamples=100, seed=0)
    assert {(e["a"], e["b"]) for e in pairwise} == {("a", "b"), ("a", "c"), ("b", "c")}
    # one family: the 3 pairs on the 3 headline metrics the components allow (the registry's HEADLINE less Pk
    # and WindowDiff, which need units)
    assert {e["metric"] for e in pairwise} == set(metrics.HEADLINE) - {"pk", "windowdiff"}
    assert len(pairwise) == 9
    # Holm (1979), step by step: the i-th smallest of m p-values times (m - i + 1), never below the previous
    order = sorted(range(9), key=lambda i: pairwise[i]["p_value"])
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (9 - rank) * pairwise[i]["p_value"]))
        assert pairwise[i]["p_value_holm"] == pytest.approx(running, abs=1e-15)
        assert not pairwise[i]["p_value_is_bound"]  # 11 shows: exact sign-flip p-values, never bounds


def test_the_summary_uses_holm_with_more_than_two_systems():
    corpus = {
        name: {
            "recall_n": r,
            "n_reference": 10,
            "n_correct_reference": 10 * r,
            "cov_n": r,
            "cov_d": r,
            "boundary_f1": r,
        }
        for name, r in (("a", 0.8), ("b", 0.6), ("c", 0.4))
    }
    pairwise = [
        {"a": "a", "b": "b", "metric": m, "difference": 0.2, "p_value": 0.02, "p_value_holm": 0.06}
        for m in ("cov_n", "cov_d", "boundary_f1")
    ]
    said = sentences(corpus, pairwise, 1000, n_shows=40)
    assert said[-1] == (
        "Paired bootstrap over the 40 shows, Holm-corrected over the 3 headline metrics (CovN, CovD and boundary F) "
        "and the 3 pairs: the difference between the first two is not significant at 0.05 on CovN, CovD and "
        "boundary F (p = 0.060 on each)."
    )
    # with two systems too, the p-value corrected over the headline metrics: one family whatever the systems
    two = {k: corpus[k] for k in ("a", "b")}
    assert sentences(two, pairwise, 1000, n_shows=40)[-1] == (
        "Paired bootstrap over the 40 shows, Holm-corrected over the 3 headline metrics (CovN, CovD and boundary F): "
        "the difference is not significant at 0.05 on CovN, CovD and boundary F (p = 0.060 on each)."
    )


# --- enough shows -------------------------------------------------------------------------------


def test_ten_shows_and_more_the_report_names_the_test_and_the_shows():
    result, caught = evaluate(12, bootstrap=200)
    assert not [w for w in caught if issubclass(w.category, tvseg.FewShowsWarning)]  # 12 shows: no warning about them
    # good is right on all 12 shows, bad on none: only the identity and the full swap reach |d|, 2/2^12
    assert {e["p_value"] for e in result.pairwise} == {2 / 4096}
    said = summary_sentences(result)
    assert said[-1] == (
        # 2/2^12 each (exact), times 3 by Holm over the 3 headline metrics: 0.00146
        "Exact sign-flip test over the 12 shows, Holm-corrected over the 3 headline metrics (CovN, CovD and "
        "boundary F): the difference is significant on CovN, CovD and boundary F (p = 0.001 on each)."
    )
    page = render_index(ResultPages(result, date="2000-01-01"))
    assert "resampling the 12 shows)" in page and "unreliable" not in page
    assert "Exact sign-flip test over the 12 shows (all 4,096 ways" in page
    assert 'class="sig"' in page
    assert result.to_json()["significance"]["intervals_reliable"] is True


def test_many_shows_use_the_bootstrap_and_say_so():
    result, _ = evaluate(15, bootstrap=200)
    assert {e["test"] for e in result.pairwise} == {"paired bootstrap"}
    assert {e["p_value"] for e in result.pairwise} == {1 / 201}  # the bootstrap's smallest, as before
    said = summary_sentences(result)[-1]
    assert said.startswith(
        "Paired bootstrap over the 15 shows, Holm-corrected over the 3 headline metrics (CovN, CovD and boundary F): "
        "the difference is significant"
    )
    # each p-value at the floor of 200 resamples, 1/201, times 3 by Holm: 0.014925..., a bound written rounded up
    assert said.endswith("(p < 0.015 on each, 200 resamples).")
    page = render_index(ResultPages(result, date="2000-01-01"))
    assert "Paired bootstrap over the 15 shows (200 resamples; at their floor a p-value is a bound" in page
    assert "resampling the 15 shows)" in page
    # the significance table: each p-value at the floor, 1/201, times 3 by Holm (0.0149...), written as a bound
    assert "p &lt; 0.015 *" in page and "uncorrected &lt; 0.005" in page
    assert ">p 0.015" not in page and "uncorrected 0.005" not in page


def test_every_table_is_resampled_with_the_same_draws():
    # Each table (a DataFrame of integers, an array of floats) is made a float array and resampled on its
    # own, the draws made again from the seed: every table's resample b sums the rows drawn in row b of
    # numpy.random.default_rng(7).integers(0, 5, size=(6, 5)) (one block: 6 resamples of 5 shows), summed
    # here by hand, row by row. The values are small integers and binary fractions: every sum is exact.
    counts = pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [10, 0, 0, 0, 1]})
    durations = np.array([[0.5], [0.25], [1.0], [2.0], [0.125]])
    drawn = np.random.default_rng(7).integers(0, 5, size=(6, 5))
    expected_counts = [[sum(int(counts[c][i]) for i in row) for c in counts] for row in drawn]
    expected_durations = [[sum(float(durations[i, 0]) for i in row)] for row in drawn]
    got_counts, got_durations = resampled_sums([counts, durations], resamples=6, seed=7)
    assert got_counts.tolist() == expected_counts
    assert got_durations.tolist() == expected_durations
    # drawn in blocks of 4 and 2 resamples: the same stream of the generator, the same sums
    again = resampled_sums([counts, durations], resamples=6, seed=7, block=4)
    assert again[0].tolist() == expected_counts and again[1].tolist() == expected_durations


@pytest.mark.parametrize("block", [None, 3, 7])
def test_the_draws_shared_by_every_table_give_each_resample_its_own_sums(block):
    # The resampled sums of three tables (widths 1, 2 and 3) against a plain computation written here: resample
    # b draws the row b of numpy.random.default_rng(11)'s stream, n shows at a time, in the function's blocks of
    # resamples (block 3 and 7: a last block that is not full), and each table's sums are the sums of the rows
    # drawn, one by one. Integer values and binary fractions: every sum is exact, in any order.
    n, resamples = 9, 17
    values = np.random.default_rng(5).integers(-20, 21, size=(n, 6)) / 4
    tables = [values[:, :1], pd.DataFrame(values[:, 1:3], columns=["x", "y"]), values[:, 3:]]
    rng = np.random.default_rng(11)
    step = block or resamples  # the default block is 200 for 9 shows: one block
    drawn = np.vstack([rng.integers(0, n, size=(min(step, resamples - d), n)) for d in range(0, resamples, step)])
    got = resampled_sums(tables, resamples=resamples, seed=11, block=block)
    for table, sums in zip(tables, got):
        rows = np.asarray(table, dtype=float)
        expected = [[sum(float(rows[i, c]) for i in drawn[b]) for c in range(rows.shape[1])] for b in range(resamples)]
        assert sums.tolist() == expected


def test_the_resampled_sums_do_not_depend_on_the_threads_blas_may_use():
    # OpenBLAS threads a product of a few rows over many columns and, for some shapes (measured: 200 resamples
    # of 2,000 shows by 7 columns), sums them in another order than on one thread, so the intervals' last bits
    # followed the machine's cores. The products run on one thread whatever the caller allows: the sums under
    # a caller's limit of 1 thread and of 8 threads are the same bits, and equal the one-thread product computed
    # here (the draws of the test above, written out: bincount of each resample's row of draws).
    from threadpoolctl import threadpool_limits

    n, resamples = 2000, 200
    values = np.random.default_rng(3).random((n, 7)) * 1e6
    with threadpool_limits(limits=1, user_api="blas"):
        one = resampled_sums([values], resamples=resamples, seed=5)[0]
        drawn = np.random.default_rng(5).integers(0, n, size=(resamples, n))
        weights = np.array([np.bincount(row, minlength=n) for row in drawn], dtype=float)
        expected = weights @ values
    with threadpool_limits(limits=8, user_api="blas"):
        many = resampled_sums([values], resamples=resamples, seed=5)[0]
    assert np.array_equal(one, expected)
    assert np.array_equal(many, expected)
