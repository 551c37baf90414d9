"""Pevzner & Hearst (2002) section 4: a reduced re-run checked against the paper's Tables 1 and 3.

The metric path of the command (:func:`tvseg.simulate.pevzner_hearst.window_metrics`, which calls
``tvseg.unit.windows``) is cross-checked against ``_slow_metrics`` below: a plain loop over the
probes, written from the paper's definitions, itself checked by hand and against nltk.
"""

import json
import math

import numpy as np
import pytest
from nltk.metrics.segmentation import pk as nltk_pk
from nltk.metrics.segmentation import windowdiff as nltk_windowdiff

from tvseg.cli import main
from tvseg.simulate import generators as g
from tvseg.simulate import pevzner_hearst as ph
from tvseg.simulate.published import PEVZNER_HEARST, RANGES
from tvseg.simulate.study import run_experiment
from tvseg.unit.masses import to_indicator


def _slow_metrics(masses, hypotheses, k):
    """Pk, P'k, WD of each hypothesis by a loop over the N - k probes (Pevzner & Hearst, section 3-4).

    Probe i (i = 1 .. N-k) looks at units i and i+k, i.e. at the k gaps after units i .. i+k-1
    (0-based gap indices i-1 .. i+k-2). Miss: the reference has a boundary in those gaps, the
    hypothesis none; false alarm: the opposite. WD: the numbers of boundaries differ.
    """
    reference = to_indicator(np.asarray(masses))
    n = reference.size + 1
    miss = np.zeros(hypotheses.shape[0])
    false_alarm = np.zeros(hypotheses.shape[0])
    wd = np.zeros(hypotheses.shape[0])
    for i in range(1, n - k + 1):
        r = int(reference[i - 1 : i + k - 1].sum())
        h = hypotheses[:, i - 1 : i + k - 1].sum(axis=1)
        miss += (r > 0) & (h == 0)
        false_alarm += (r == 0) & (h > 0)
        wd += h != r
    probes = n - k
    return {
        "pk": (miss + false_alarm) / probes,
        "pk_prime": (miss + 2 * false_alarm) / probes,
        "windowdiff": wd / probes,
    }


def _indicator_rows(masses, *hyps):
    return np.array([to_indicator(np.array(h)) for h in hyps])


def test_slow_metrics_by_hand():
    # reference (3, 5, 2): N = 10 units, boundaries after units 3 and 8; k = 2: 8 probes over gaps
    #   gap:   1 2 3 4 5 6 7 8 9          probe i covers gaps i, i+1
    #   ref:   . . | . . . . | .
    #   A (3,2,3,2): . . | . | . . | .
    #   B (8,2):     . . . . . . . | .
    #   C (4,4,2):   . . . | . . . | .
    # A: extra boundary after unit 5; probes over gaps (4,5) and (5,6) hold it and no reference
    #    boundary: 2 false alarms, 0 misses -> Pk 2/8, P'k 4/8, WD 2/8.
    # B (8, 2): boundary after 3 missed; probes (2,3) and (3,4) hold a reference boundary only:
    #    2 misses -> Pk 2/8, P'k 2/8, WD 2/8.
    # C (4, 4, 2): boundary after 3 moved to after 4; probe (2,3): ref 1, hyp 0 (miss);
    #    probe (3,4): 1 and 1 (no error); probe (4,5): ref 0, hyp 1 (false alarm)
    #    -> Pk 2/8, P'k 3/8, WD 2/8.
    got = _slow_metrics([3, 5, 2], _indicator_rows(10, (3, 2, 3, 2), (8, 2), (4, 4, 2)), 2)
    assert np.allclose(got["pk"], [2 / 8, 2 / 8, 2 / 8])
    assert np.allclose(got["pk_prime"], [4 / 8, 2 / 8, 3 / 8])
    assert np.allclose(got["windowdiff"], [2 / 8, 2 / 8, 2 / 8])


def test_slow_metrics_equal_nltk():
    # nltk's strings have one character per gap, and N - k probes of k characters: the paper's.
    rng = np.random.default_rng(0)
    for _ in range(30):
        masses = rng.integers(1, 9, size=rng.integers(2, 12))
        hyps = g.hypotheses(rng, masses, "FNP3", 0.5, 4)
        k = int(rng.integers(1, masses.sum()))
        got = _slow_metrics(masses, hyps, k)
        ref = "".join("1" if b else "0" for b in to_indicator(masses))
        for row, pk, wd in zip(hyps, got["pk"], got["windowdiff"]):
            hyp = "".join("1" if b else "0" for b in row)
            assert pk == pytest.approx(nltk_pk(ref, hyp, k))
            assert wd == pytest.approx(nltk_windowdiff(ref, hyp, k))


@pytest.mark.parametrize("errors", ["FN", "FP1", "FP2", "FP3", "FNP1", "FNP2", "FNP3"])
def test_command_metrics_equal_the_slow_loop(errors):
    rng = np.random.default_rng(1)
    masses = g.reference_masses(rng, 60, (5, 45))
    hyps = g.hypotheses(rng, masses, errors, 0.5, 6)
    fast = ph.window_metrics(masses, hyps, 12)
    slow = _slow_metrics(masses, hyps, 12)
    for metric in ("pk", "pk_prime", "windowdiff"):
        assert np.allclose(fast[metric], slow[metric]), metric


def test_false_negatives_on_large_segments_by_hand():
    # With sizes 20..29 >= 2k (k = 12) no probe holds two reference boundaries, so each dropped
    # boundary makes exactly k = 12 probes misses (and WD errors) and nothing else: given the
    # reference, E[Pk] = E[WD] = p * 12 * (nseg - 1) / (N - 12), with standard deviation
    # 12 * sqrt(p (1 - p) (nseg - 1)) / (N - 12) per hypothesis.
    masses = g.reference_masses(np.random.default_rng(5), 1000, (20, 30))
    n = int(masses.sum())
    hyps = g.hypotheses(np.random.default_rng(6), masses, "FN", 0.5, 50)
    result = ph.window_metrics(masses, hyps, 12)
    expected = 0.5 * 12 * 999 / (n - 12)
    se = 12 * math.sqrt(0.25 * 999) / (n - 12) / math.sqrt(50)
    for metric in ("pk", "pk_prime", "windowdiff"):
        assert abs(result[metric].mean() - expected) < 5 * se


# Reduced run: 3 trials x 40 hypotheses, seed 2002, stratified references (the default). Spread of
# such a run, measured over seeds 0-39 for each checked cell: standard deviation 0.0003-0.0012 (largest
# FNP (5, 45) P'k, 0.0012; FP3 P'k 0.0011). A cell may therefore differ from the published value by the
# full run's allowance (0.003 for Table 1, 0.006 for Table 3, which covers the paper's own sampling
# error and rounding to 3 decimals) plus 4 standard deviations of the reduced run (4 x 0.0012 ~ 0.005):
# 0.008 for Table 1 and 0.011 for Table 3. Several of these cells are much farther apart from each
# other than those tolerances (FP Pk 0.128 against P'k 0.256; FP3 WD 0.211 against FP1 WD 0.240), so a
# wrong generator or a wrong P'k fails.
REDUCED = dict(trials=3, n_hypotheses=40, seed=2002)
CHECKED = [
    (("1", "FN", 0.5, (20, 30)), ("pk", "windowdiff"), 0.008),
    (("1", "FP", 0.5, (20, 30)), ("pk", "pk_prime", "windowdiff"), 0.008),
    (("1", "FNP", 0.5, (5, 45)), ("pk", "pk_prime", "windowdiff"), 0.008),
    (("3", "FP2", 0.5, (15, 35)), ("pk", "pk_prime"), 0.011),
    (("3", "FP3", 0.5, (15, 35)), ("pk_prime", "windowdiff"), 0.011),
]


@pytest.mark.parametrize("experiment, metrics, tolerance", CHECKED)
def test_reduced_run_near_the_published_cells(experiment, metrics, tolerance):
    result = run_experiment("pevzner-hearst", experiment, metrics=ph.window_metrics, **REDUCED)
    for metric in metrics:
        published = PEVZNER_HEARST[experiment + (metric,)]
        assert abs(result[metric][0] - published) <= tolerance, (experiment, metric, result[metric][0], published)


def test_false_alarms_do_not_depend_on_the_false_negatives():
    # A false alarm is a probe holding no reference boundary: inside it the hypothesis holds only
    # false positives, whatever FN dropped. So (ref minus dropped) + fp has the false alarms of
    # ref + fp, probe for probe; hand case: reference (3, 5, 2), k = 2, fp after unit 5
    #   gap:   1 2 3 4 5 6 7 8 9
    #   ref:   . . | . . . . | .        probes (4,5), (5,6) hold the fp and no reference boundary
    #   hyp A: . . | . | . . | .        fp only                      -> 2 false alarms
    #   hyp B: . . . . | . . . .        fp, both reference boundaries dropped -> still 2
    from tvseg.unit.conventions import geometry
    from tvseg.unit.masses import BoundaryPairs
    from tvseg.unit.windows import window_counts

    def window_batch(masses, rows, k):
        return window_counts(BoundaryPairs.against(masses, rows), geometry(int(masses.sum()), masses.size, k, "paper"))

    masses = np.array([3, 5, 2])
    got = window_batch(masses, _indicator_rows(10, (3, 2, 3, 2), (5, 5)), k=2)
    assert list(got.false_alarm) == [2, 2]
    assert list(got.miss) == [0, 2 + 2]
    rng = np.random.default_rng(4)
    masses = g.reference_masses(rng, 200, (5, 45))
    reference = to_indicator(masses)
    fp = g.false_positives_in_document(rng, masses, 20, 0.5)
    dropped = g.hypotheses(rng, masses, "FN", 0.5, 20)
    alone = window_batch(masses, reference | fp, k=12)
    combined = window_batch(masses, dropped | fp, k=12)
    assert np.array_equal(alone.false_alarm, combined.false_alarm)


def test_published_false_alarms_of_fnp_equal_those_of_fp_except_fnp2():
    # With FN and FP drawn independently, P'k - Pk (the false-alarm share) of FNP has the expectation
    # of FP's (test above). The published tables agree, to their rounding (each of Pk and P'k to
    # +-0.0005, so +-0.002 for the difference of two differences), in every pair but one: FNP2 (0.354
    # - 0.267 = 0.087) against FP2 (0.182 - 0.091 = 0.091). No independent reading of FNP2 can match
    # both columns: the residual of FNP2 Pk (ours about -0.004) comes from there.
    def fa(table, errors, p, size_range):
        key = (table, errors, p, size_range)
        return PEVZNER_HEARST[key + ("pk_prime",)] - PEVZNER_HEARST[key + ("pk",)]

    pairs = [(("1", p, r), "FP", "FNP") for p in (0.5,) for r in RANGES]
    pairs += [(("2", p, r), "FP", "FNP") for p in (0.05, 0.25) for r in RANGES]
    pairs += [(("3", 0.5, (15, 35)), a, b) for a, b in (("FP1", "FNP1"), ("FP3", "FNP3"))]
    for (table, p, r), fp_type, fnp_type in pairs:
        assert abs(fa(table, fp_type, p, r) - fa(table, fnp_type, p, r)) <= 0.002 + 1e-9
    assert fa("3", "FP2", 0.5, (15, 35)) - fa("3", "FNP2", 0.5, (15, 35)) == pytest.approx(0.004)


def test_run_cells_follow_the_paper_and_do_not_depend_on_the_table_selection():
    cells = ph.run(tables=("3",), trials=1, n_hypotheses=3, seed=7)
    assert [(c.errors, c.metric) for c in cells][:4] == [
        ("FN", "pk"),
        ("FN", "pk_prime"),
        ("FN", "windowdiff"),
        ("FP1", "pk"),
    ]
    assert len(cells) == 21 and all(c.published is not None for c in cells)
    both = ph.run(tables=("1", "3"), trials=1, n_hypotheses=3, seed=7, jobs=2)
    assert [c.value for c in both if c.table == "3"] == [c.value for c in cells]


def test_cli_references_iid_is_the_papers_independent_draw(tmp_path, capsys):
    out = tmp_path / "ph.json"
    argv = ["simulate", "pevzner-hearst", "--table", "1", "--trials", "1", "--hypotheses", "2", "--seed", "3"]
    assert main(argv + ["--references", "iid", "--json", str(out)]) == 0
    assert "iid references" in capsys.readouterr().out
    doc = json.loads(out.read_text())
    assert doc["settings"]["references"] == "iid"
    # the same experiment run directly with independent sizes gives the same numbers
    direct = run_experiment(
        "pevzner-hearst",
        ("1", "FN", 0.5, (20, 30)),
        trials=1,
        n_hypotheses=2,
        seed=3,
        metrics=ph.window_metrics,
        references="iid",
    )
    assert doc["cells"][0]["value"] == direct["pk"][0]
    with pytest.raises(SystemExit) as exit_info:
        main(argv + ["--references", "other"])
    assert exit_info.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_cli_prints_and_writes_the_contract_json(tmp_path, capsys):
    out = tmp_path / "ph.json"
    assert (
        main(
            [
                "simulate",
                "pevzner-hearst",
                "--table",
                "3",
                "--trials",
                "1",
                "--hypotheses",
                "4",
                "--seed",
                "3",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "FNP2" in printed and "published" in printed and "largest" in printed
    doc = json.loads(out.read_text())
    assert doc["study"] == "pevzner-hearst"
    assert doc["settings"] == {"trials": 1, "hypotheses": 4, "seed": 3, "references": "stratified"}
    assert len(doc["cells"]) == 21
    cell = doc["cells"][0]
    assert set(cell) == {"table", "errors", "p", "range", "metric", "value", "published"}
    assert cell["table"] == "3" and cell["errors"] == "FN" and cell["range"] == [15, 35]
    assert cell["published"] == 0.245
    assert [p.name for p in tmp_path.iterdir()] == ["ph.json"]  # no temporary file left


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate"],
        ["simulate", "pevzner-hearst", "--trials", "0"],
        ["simulate", "pevzner-hearst", "--seed", "-1"],
        [
            "simulate",
            "pevzner-hearst",
            "--json",
            "/no/such/folder/x.json",
            "--table",
            "3",
            "--trials",
            "1",
            "--hypotheses",
            "1",
        ],
    ],
)
def test_cli_bad_usage_exits_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err


def test_default_run_is_within_the_issues_allowance_of_every_published_cell():
    # The command's default (10 trials x 100 hypotheses, seed 0, stratified references) against every
    # printed cell of Tables 1-3: within 0.003 (Tables 1-2) and 0.006 (Table 3). The spread over
    # seeds 0-19 of that run's largest Table 1-2 difference is 0.0014-0.0023, so this is not a lucky
    # seed; the numbers are those `tvseg simulate pevzner-hearst` prints (about 4 s).
    cells = ph.run(jobs=2)
    assert len(cells) == 129 and all(c.published is not None for c in cells)
    for cell in cells:
        allowance = 0.006 if cell.table == "3" else 0.003
        assert abs(cell.difference) <= allowance, cell


def test_largest_difference_per_table_is_the_first_of_the_farthest():
    from tvseg.simulate.report import largest_differences
    from tvseg.simulate.study import Cell

    def cell(table, value, published):
        return Cell(table, "FN", 0.5, (20, 30), "pk", value, published)

    # table 1: differences +0.25, -0.5, +0.5 (exact in binary): the first of the two at 0.5 is kept;
    # table 2: no published value, no difference, no entry
    cells = [cell("1", 0.75, 0.5), cell("1", 0.25, 0.75), cell("1", 1.0, 0.5), cell("2", 0.5, None)]
    assert largest_differences(cells) == {"1": cells[1]}
