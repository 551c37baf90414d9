"""Significance that resolves where the data do (issue 42): one Holm family, the registry's headline metrics;
counts shown, not tested; a p-value at the paired bootstrap's floor, 1/(B + 1), written as a bound everywhere."""

import json
import math
import random
import re
import warnings

import pytest

from tvseg import metrics
from tvseg.cli import main
from tvseg.settings import Settings
from tvseg.significance import DEFAULT_RESAMPLES, EVALUATE_RESAMPLES, at_floor, holm_bounds, p_text, policy, rounded_up

N_SHOWS = 2000


def _runs(folder, n_shows=N_SHOWS, seed=3):
    """A reference of ``n_shows`` shows (8 stories of 60-120 s each) and two runs of one system: each reference
    boundary kept with probability 0.70 (old) or 0.78 (new), the kept ones moved by up to 2 s. A story is
    retrieved when both its boundaries are kept (about 0.70^2 = 49 % against 0.78^2 = 61 %): the new run gains
    about 9 CovN points."""
    rng = random.Random(seed)
    (folder / "ref").mkdir()
    runs = {"old": [], "new": []}
    for k in range(n_shows):
        show = f"show{k:04d}"
        bounds = [0]
        for _ in range(8):
            bounds.append(bounds[-1] + rng.randint(60_000, 120_000))
        lines = [
            f"SEGMENT {show} 1 {x / 1000:.3f} {(y - x) / 1000:.3f} <NA> <NA> s{i} <NA> <NA>\n"
            for i, (x, y) in enumerate(zip(bounds, bounds[1:]))
        ]
        (folder / "ref" / f"{show}.rttm").write_text("".join(lines))
        draws = [(rng.random(), rng.randint(-2000, 2000)) for _ in bounds[1:-1]]
        for name, keep in (("old", 0.70), ("new", 0.78)):
            cuts = [x + shift for x, (u, shift) in zip(bounds[1:-1], draws) if u < keep]
            hb = [0, *cuts, bounds[-1]]
            runs[name] += [
                f"SEGMENT {show} 1 {x / 1000:.3f} {(y - x) / 1000:.3f} <NA> <NA> <NA> <NA> <NA>\n"
                for x, y in zip(hb, hb[1:])
            ]
    for name, lines in runs.items():
        (folder / f"{name}.rttm").write_text("".join(lines))


def _floor_numbers(resamples):
    """1/(B + 1) as the views would print it as a number: 3 figures, 3 decimals."""
    floor = 1 / (resamples + 1)
    return {f"{floor:.3g}", f"{floor:.3f}", f"{floor:.4f}"}


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs")
    _runs(folder)
    for name in ("old", "new"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = main(
                [
                    "evaluate",
                    "--reference",
                    str(folder / "ref"),
                    "--hypothesis",
                    f"sys={folder / name}.rttm",
                    "--bootstrap",
                    "1000",
                    "--json",
                    str(folder / f"{name}.json"),
                ]
            )
        assert code == 0
    return folder


def test_a_nine_point_gain_over_2000_shows_is_significant_after_holm(compared, capsys):
    folder = compared
    capsys.readouterr()
    code = main(
        [
            "compare",
            str(folder / "old.json"),
            str(folder / "new.json"),
            "--json",
            str(folder / "cmp.json"),
            "--html",
            str(folder / "page"),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    data = json.loads((folder / "cmp.json").read_text())
    rows = {m["metric"]: m for m in data["metrics"]}
    gain = rows["cov_n"]["new"] - rows["cov_n"]["old"]
    assert 0.07 < gain < 0.11  # about 9 points (hand estimate in _runs: 0.78^2 - 0.70^2 = 0.118 of R_N)
    # Holm's family is the registry's headline metrics that both runs hold (no units: no Pk, no WindowDiff)
    assert data["family"] == [k for k in metrics.HEADLINE if k in rows] == ["cov_n", "cov_d", "boundary_f1"]
    for key in ("p_value_holm", "p_value_pooled_holm"):
        assert rows["cov_n"][key] < 0.05, key
    # no resample of 10,000 (per show) or 1,000 (pooled) reaches a 9-point change: both p-values are bounds,
    # the floor of each test; Holm over 3 headline metrics triples them
    assert rows["cov_n"]["p_value"] == 1 / (DEFAULT_RESAMPLES + 1) and rows["cov_n"]["p_value_is_bound"]
    assert rows["cov_n"]["p_value_pooled"] == 1 / 1001 and rows["cov_n"]["p_value_pooled_is_bound"]
    assert rows["cov_n"]["p_value_holm"] == pytest.approx(3 / (DEFAULT_RESAMPLES + 1))
    assert rows["cov_n"]["p_value_holm_is_bound"]
    # counts are shown, not tested: no p-value, no test, no Holm
    counts = [k for k in rows if metrics.METRICS.get(k) and metrics.METRICS[k].kind == "count"]
    assert {"n_reference", "n_hypothesis", "n_false_alarm", "n_reference_split"} <= set(counts)
    for key in counts:
        row = rows[key]
        assert row["p_value"] is None and row["p_value_holm"] is None and row["test"] is None, key
        assert row["p_value_pooled"] is None
    # the other rates and errors keep an uncorrected p-value, outside the family
    assert rows["recall_n"]["p_value"] is not None and rows["recall_n"]["p_value_holm"] is None
    # no p-value at a floor printed as a number: terminal, page
    page = (folder / "page" / "index.html").read_text()
    for floor in (*_floor_numbers(DEFAULT_RESAMPLES), *_floor_numbers(1000)):
        assert not re.search(rf"(?<![<\d.]){re.escape(floor)}(?!\d)", printed), floor
        # on the page a bound is "&lt; 0.0001" (an escaped "<")
        assert not re.search(rf"(?<!&lt; )(?<!&lt;)(?<![\d.]){re.escape(floor)}(?!\d)", page), floor
    line = next(x for x in printed.splitlines() if x.startswith("CovN "))
    assert "<0.0001" in line and "<0.0003" in line and "<0.001" in line  # per show, Holm, pooled
    count_line = next(x for x in printed.splitlines() if x.startswith(metrics.METRICS["n_false_alarm"].label + " "))
    assert count_line.rstrip().endswith("-       -        -")


def test_the_report_of_2000_shows_writes_its_floor_as_a_bound(compared, capsys):
    data = json.loads((compared / "new.json").read_text())
    assert data["significance"]["family"] == []  # one system: nothing tested
    assert data["significance"]["resamples"] == 1000
    # two systems of one run: evaluate's pairwise test, on the headline metrics only, corrected together
    folder = compared
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main(
            [
                "evaluate",
                "--reference",
                str(folder / "ref"),
                "--hypothesis",
                f"old={folder / 'old.rttm'}",
                "--hypothesis",
                f"new={folder / 'new.rttm'}",
                "--bootstrap",
                "1000",
                "--json",
                str(folder / "two.json"),
                "--html",
                str(folder / "report"),
            ]
        )
    printed = capsys.readouterr()
    two = json.loads((folder / "two.json").read_text())
    assert {e["metric"] for e in two["pairwise"]} == set(two["significance"]["family"])
    assert two["significance"]["family"] == ["cov_n", "cov_d", "boundary_f1"]
    cov_n = next(e for e in two["pairwise"] if e["metric"] == "cov_n")
    assert cov_n["p_value"] == 1 / 1001 and cov_n["p_value_is_bound"] and cov_n["p_value_holm_is_bound"]
    page = (folder / "report" / "index.html").read_text()
    summary = re.search(r'<p class="summary"[^>]*>(.*?)</p>', page, re.S).group(1)
    assert "Holm-corrected over the 3 headline metrics (CovN, CovD and boundary F)" in summary
    # 1/1001 times 3: 0.002997..., written as a bound, with the resamples it is the floor of
    assert "p &lt; 0.003 on each, 1,000 resamples" in summary
    for floor in _floor_numbers(1000) | {f"{3 / 1001:.3f}"}:
        # a bound is written "&lt; 0.003" (escaped "<"): any other occurrence would be the floor as a number
        assert not re.search(rf"(?<!&lt; )(?<![\d.]){re.escape(floor)}(?!\d)", page.split("<script")[0]), floor
    # the terminal summary: the table first, then the warnings; the settings labelled
    out = printed.out.splitlines()
    assert out[0].startswith("2000 shows; settings: gamma:")
    assert any(x.startswith("(corpus: ") and "macro: the mean" in x for x in out)


def test_the_headline_family_is_the_registrys_declaration():
    # the registry declares it, entry by entry (Metric.compared), in registry order
    declared = tuple(m.key for m in metrics.REGISTRY if m.compared)
    assert metrics.HEADLINE == declared == ("cov_n", "cov_d", "boundary_f1", "pk", "windowdiff")
    assert metrics.COMPARED == metrics.HEADLINE
    assert not [k for k in metrics.HEADLINE if metrics.METRICS[k].kind == "count"]
    assert policy(50, resamples=100, systems=2, family=["cov_n", "cov_d"])["correction"] == "holm"
    assert policy(50, resamples=100, systems=2, family=["cov_n"])["correction"] is None


def test_the_default_resamples():
    # evaluate: 1,000 (each block a product over every system's components); compare's per-show test: 10,000
    assert Settings().bootstrap == EVALUATE_RESAMPLES == 1000
    assert DEFAULT_RESAMPLES == 10_000


@pytest.mark.parametrize(
    ("p", "bound", "resamples", "said"),
    [
        (1 / 10001, True, 10_000, "p < 0.0001 (10,000 resamples)"),  # 0.00009999 rounded up
        (1 / 1001, True, 1000, "p < 0.001 (1,000 resamples)"),  # 0.000999
        (3 / 1001, True, None, "p < 0.003"),  # 0.002997, Holm over 3
        (2 / 8192, True, None, "p < 0.00025"),  # 2/2^13 = 0.000244140625
        (0.0123, False, 1000, "p = 0.012"),
        (0.0004, False, None, "p < 0.001"),
        (math.nan, False, None, "-"),
    ],
)
def test_the_bound_wording(p, bound, resamples, said):
    assert p_text(p, bound=bound, resamples=resamples) == said


def test_rounded_up_never_goes_below_the_value():
    for value in (1 / 1001, 1 / 10001, 3 / 10001, 0.05, 2 / 8192, 0.9999, 5 / 201):
        assert float(rounded_up(value)) >= value


def test_a_p_value_is_a_bound_only_at_the_bootstraps_floor():
    # 2,000 shows, 1,000 resamples: the floor is 1/1001; 2/1001 is a value; the exact test never gives bounds
    assert at_floor(1 / 1001, n_shows=2000, resamples=1000, test="paired bootstrap")
    assert not at_floor(2 / 1001, n_shows=2000, resamples=1000, test="paired bootstrap")
    assert not at_floor(2 / 2**12, n_shows=12, resamples=1000, test="exact sign-flip")
    # 13 shows, 10,000 resamples: the bootstrap's p-value never goes below 2/2^13 > 1/10001, its floor then
    assert at_floor(2 / 2**13, n_shows=13, resamples=10_000, test="paired bootstrap")


def test_holm_of_bounds():
    # p = (0.0001 bound, 0.02 exact, 0.0001 bound): sorted 0.0001 (b), 0.0001 (b), 0.02; terms 3e-4 (b), 2e-4 (b),
    # 0.02: adjusted 3e-4 (bound), 3e-4 (bound: from the first term), 0.02 (exact)
    adjusted, bound = holm_bounds([1e-4, 0.02, 1e-4], [True, False, True])
    assert adjusted.tolist() == pytest.approx([3e-4, 0.02, 3e-4])
    assert bound.tolist() == [True, False, True]
    # an exact term of the same value makes the adjusted value exact: (0.01 bound, 0.015 exact): terms 0.02, 0.015,
    # adjusted 0.02 (bound), 0.02 (the bound's: still a bound); (0.01 exact, 0.02 bound): 0.02 exact, then 0.02
    # from the exact term and the bound's equal term: exact
    assert holm_bounds([0.01, 0.015], [True, False])[1].tolist() == [True, True]
    assert holm_bounds([0.01, 0.02], [False, True])[1].tolist() == [False, False]


def test_the_terminal_summary_labels_its_settings_and_says_each_warning_once(capsys):
    from tvseg.samples import demo_folder

    samples = demo_folder()
    main(
        [
            "evaluate",
            "--reference",
            f"A={samples / 'reference' / 'reference.rttm'}",
            "--reference",
            f"B={samples / 'annotators' / 'annotator_b.rttm'}",
            "--hypothesis",
            f"system_a={samples / 'hypotheses' / 'system_a.rttm'}",
            "--bootstrap",
            "100",
        ]
    )
    printed = capsys.readouterr()
    # two annotators' evaluations (and the pooled one) each warn of the 7 shows: said once, after the table
    assert printed.err.count("the bootstrap intervals rest on 7 shows") == 1
    assert "settings: gamma:" in printed.out.splitlines()[0]


def test_one_show_is_one_show(tmp_path, capsys):
    (tmp_path / "ref.rttm").write_text("SEGMENT s 1 0.000 10.000 <NA> <NA> a <NA> <NA>\n")
    (tmp_path / "hyp.rttm").write_text("SEGMENT s 1 0.000 10.000 <NA> <NA> <NA> <NA> <NA>\n")
    main(["evaluate", "--reference", str(tmp_path / "ref.rttm"), "--hypothesis", f"x={tmp_path / 'hyp.rttm'}"])
    assert capsys.readouterr().out.startswith("1 show; settings: gamma:")
