"""Several annotators of one reference and the human ceiling (issue 27): hand-computed values on two
annotators and one system; the order of the annotators changes no number; the command line."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from fractions import Fraction as F
from pathlib import Path

import pandas as pd
import pytest
from pyannote.core import Annotation, Segment

import tvseg
from tvseg.annotators import evaluate_annotators
from tvseg.errors import TvsegWarning

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "tvseg" / "data_samples"


def _annotation(*bounds) -> Annotation:
    a = Annotation()
    for i, (s, e) in enumerate(zip(bounds[:-1], bounds[1:])):
        a[Segment(s, e)] = f"t{i}"
    return a


# Two shows of 100 s; gamma 0.85, tolerance 10 s (the defaults).
#   s1: A = 0|30|60|100, B = 0|30|80|100, the system S = A's.
#   s2: A = 0|50|100,    B = 0|50|75|100, S = A's.
A = {"s1": _annotation(0, 30, 60, 100), "s2": _annotation(0, 50, 100)}
B = {"s1": _annotation(0, 30, 80, 100), "s2": _annotation(0, 50, 75, 100)}
S = {"s1": _annotation(0, 30, 60, 100), "s2": _annotation(0, 50, 100)}

# S against A: every segment correct on both shows: R_N = P_N = CovN = 1; boundaries {30, 60}, {50}
# all matched: boundary F = 1.
# S against B:
#   s1: b1 [0,30] = h1: correct. b2 [30,80]: best h2 [30,60] (overlap 30), R->H 30/50 = 0.6: not.
#       b3 [80,100]: best h3 [60,100], R->H 1, H->R 20/40 = 0.5, harmonic 2/3: not. -> 1 of 3 references.
#       h1 correct; h2: its best b2, H->R... coverage of h2 by b2 1, of b2 by h2 0.6, harmonic 0.75: not;
#       h3: best b2 or b3 (20 each), harmonic 2/3 at most: not. -> 1 of 3 hypotheses.
#       boundaries: reference {30, 80}, hypothesis {30, 60}: 30 matched, 60 is 20 s from 80: 1 match.
#   s2: b1 [0,50] = h1: correct; b2 [50,75], b3 [75,100]: inside h2 [50,100], harmonic 2/3: not.
#       -> 1 of 3 references, 1 of 2 hypotheses (h2 not). boundaries: {50, 75} vs {50}: 1 match.
#   R_N = 2/6 = 1/3, P_N = 2/5, CovN = 2 (1/3)(2/5) / (1/3 + 2/5) = 4/11.
#   boundary P = 2/3 (2 of the 3 hypothesis boundaries), R = 2/4, F = 4/7.
COV_N = {"A": F(1), "B": F(4, 11)}
BOUNDARY_F1 = {"A": F(1), "B": F(4, 7)}
# pooled over annotators and shows: R_N = (3 + 2 + 1 + 1) / (3 + 2 + 3 + 3) = 7/11,
# P_N = (3 + 2 + 1 + 1) / (3 + 2 + 3 + 2) = 7/10, CovN = 2 (7/11)(7/10) / (7/11 + 7/10) = 2/3;
# boundaries: 5 matched of 6 hypothesis and 7 reference boundaries: F = 2 (5/6)(5/7) / (5/6 + 5/7) = 10/13
POOLED = {"cov_n": F(2, 3), "boundary_f1": F(10, 13)}
# the ceiling: B against A (s1: 1 of 3 references, 1 of 3 hypotheses; s2: 1 of 2 references, 1 of 3
# hypotheses: R_N 2/5, P_N 2/6, CovN 4/11; boundaries {30,60},{50} vs {30,80},{50,75}: 2 matched of 4
# hypothesis and 3 reference boundaries: F = 2 (1/2)(2/3) / (1/2 + 2/3) = 4/7), and A against B, which is
# S against B: CovN 4/11, F 4/7. Pooled over the two pairs: R_N = P_N = 4/11, CovN 4/11; 4 matched of
# 7 and 7: F 4/7.
CEILING = {"cov_n": F(4, 11), "boundary_f1": F(4, 7)}


def _run(references, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)  # two shows: too few for intervals, said elsewhere
        return evaluate_annotators(
            references, {"sys": S}, settings=tvseg.Settings(bootstrap=options.pop("bootstrap", 0)), **options
        )


def close(value, fraction) -> bool:
    return value == pytest.approx(float(fraction), rel=1e-12, abs=1e-15)


def test_two_annotators_one_system_by_hand():
    r = _run({"A": A, "B": B})
    assert r.annotators == ("A", "B")
    for a in ("A", "B"):
        assert close(r.per_annotator["sys"][a]["cov_n"], COV_N[a])
        assert close(r.per_annotator["sys"][a]["boundary_f1"], BOUNDARY_F1[a])
    over = r.over["sys"]
    assert close(over["mean"]["cov_n"], (COV_N["A"] + COV_N["B"]) / 2)  # 15/22
    assert close(over["min"]["cov_n"], F(4, 11)) and close(over["max"]["cov_n"], 1)
    assert close(over["mean"]["boundary_f1"], F(11, 14))
    for key, expected in POOLED.items():
        assert close(over["pooled"][key], expected), key
    for key, expected in CEILING.items():
        assert close(r.ceiling["pooled"][key], expected), key
        assert close(r.ceiling["mean"][key], expected), key
        assert close(r.ceiling["pairs"]["B vs A"][key], expected) and close(r.ceiling["pairs"]["A vs B"][key], expected)
    # share of the ceiling: pooled over the ceiling's: CovN (2/3) / (4/11) = 11/6, boundary F (10/13) / (4/7) = 35/26
    assert close(r.share["sys"]["cov_n"], F(11, 6))
    assert close(r.share["sys"]["boundary_f1"], F(35, 26))


def test_an_error_rate_s_share_is_the_ceiling_over_the_system():
    # Pk is lower for the better: the share is the ceiling's Pk over the system's
    units = {
        show: pd.DataFrame({"start": [float(t) for t in range(0, 100, 5)], "end": [float(t) for t in range(5, 105, 5)]})
        for show in ("s1", "s2")
    }
    r = _run({"A": A, "B": B}, units=units)
    pk_system, pk_ceiling = r.over["sys"]["pooled"]["pk"], r.ceiling["pooled"]["pk"]
    assert pk_system > 0 and pk_ceiling > 0
    assert close(r.share["sys"]["pk"], F(pk_ceiling) / F(pk_system))
    # pooled over one annotator is that evaluation's own corpus value (the same sums)
    one = r.results["A"].systems["sys"]
    assert r.per_annotator["sys"]["A"]["pk"] == one.corpus["pk"]


def test_agreement_coefficients_in_the_units():
    # units of 5 s: A's masses are s1 [6, 6, 8] (0-30, 30-60, 60-100), s2 [10, 10]; B's s1 [6, 10, 4],
    # s2 [10, 5, 5]; the coefficients are tvseg agreement's on that dataset
    units = {
        show: pd.DataFrame({"start": [5.0 * i for i in range(20)], "end": [5.0 * i + 5 for i in range(20)]})
        for show in ("s1", "s2")
    }
    r = _run({"A": A, "B": B}, units=units)
    expected = tvseg.agreement({"s1": {"A": [6, 6, 8], "B": [6, 10, 4]}, "s2": {"A": [10, 10], "B": [10, 5, 5]}})
    assert r.agreement["pi_star"] == expected.pi_star and r.agreement["kappa_star"] == expected.kappa_star
    assert r.agreement["n_shows"] == 2 and r.to_json()["agreement"]["pi_star"] == expected.pi_star


def test_the_order_of_the_annotators_changes_no_number():
    first = _run({"A": A, "B": B}, bootstrap=200)
    second = _run({"B": B, "A": A}, bootstrap=200)
    assert json.dumps(first.to_json(), sort_keys=True) == json.dumps(second.to_json(), sort_keys=True)
    assert first.intervals["ceiling"]["cov_n"] == second.intervals["ceiling"]["cov_n"]


def test_an_annotator_named_as_a_system_or_alone_is_refused():
    with pytest.raises(tvseg.UsageError, match="one name"):
        evaluate_annotators({"sys": A, "B": B}, {"sys": S})
    with pytest.raises(tvseg.UsageError, match="two references or more"):
        evaluate_annotators({"A": A}, {"sys": S})


def _tvseg(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "tvseg", *args], capture_output=True, text=True, cwd=cwd)


def test_the_command_with_two_annotators(tmp_path):
    ref = SAMPLES / "reference"
    common = [
        "--reference",
        f"A={ref / 'reference.rttm'}",
        "--reference",
        f"B={SAMPLES / 'annotators' / 'annotator_b.rttm'}",
        "--hypothesis",
        f"system_a={SAMPLES / 'hypotheses' / 'system_a.rttm'}",
        "--units",
        str(SAMPLES / "units" / "breath_groups.csv"),
        "--bootstrap",
        "100",
    ]
    done = _tvseg("evaluate", *common, "--json", str(tmp_path / "out.json"), "--html", str(tmp_path / "rep"))
    assert done.returncode == 0, done.stderr
    assert "2 annotators (A, B)" in done.stdout and "ceiling" in done.stdout
    assert "system_a reaches" in done.stdout and "pi* " in done.stdout
    data = json.loads((tmp_path / "out.json").read_text())
    assert data["annotators"] == ["A", "B"]
    assert set(data["ceiling"]) >= {"pooled", "mean", "min", "max", "pairs", "bootstrap"}
    assert set(data["ceiling"]["pairs"]) == {"A vs B", "B vs A"}
    assert 0 < data["agreement"]["pi_star"] <= 1 and data["agreement"]["n_shows"] == 7
    per = data["per_system"]["system_a"]
    assert set(per["annotators"]) == {"A", "B"}
    # each annotator's value is that of a plain evaluation against it
    alone = _tvseg(
        "evaluate",
        "--reference",
        str(SAMPLES / "annotators" / "annotator_b.rttm"),
        "--hypothesis",
        f"system_a={SAMPLES / 'hypotheses' / 'system_a.rttm'}",
        "--units",
        str(SAMPLES / "units" / "breath_groups.csv"),
        "--bootstrap",
        "0",
        "--json",
        str(tmp_path / "b.json"),
    )
    assert alone.returncode == 0, alone.stderr
    b = json.loads((tmp_path / "b.json").read_text())["systems"]["system_a"]["corpus"]
    assert per["annotators"]["B"]["cov_n"] == b["cov_n"] and per["annotators"]["B"]["pk"] == b["pk"]
    page = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    assert 'id="annotators"' in page and "ceiling (annotators)" in page and "% of ceiling" in page
    # validate runs the checks of each annotator's evaluation
    checked = _tvseg("validate", *common)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.count("ok: tvseg evaluate would score") == 2


def test_bad_annotator_options_exit_2(tmp_path):
    ref = SAMPLES / "reference" / "reference.rttm"
    hyp = f"system_a={SAMPLES / 'hypotheses' / 'system_a.rttm'}"
    for args, message in (
        (["--reference", str(ref), "--reference", f"B={ref}"], "NAME=PATH"),
        (["--reference", f"A={ref}", "--reference", f"A={ref}"], "same NAME"),
        (["--reference", f"system_a={ref}", "--reference", f"B={ref}"], "one name"),
    ):
        done = _tvseg("evaluate", *args, "--hypothesis", hyp)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_each_annotator_s_evaluation_is_the_plain_run_against_it(tmp_path, capsys):
    # the files are read once for every annotator's evaluation: each must be the whole run with that annotator
    # as the reference and the systems, then the other annotators, as hypotheses (a folder among them)
    from tvseg.cli import main

    annotators = {
        "A": SAMPLES / "reference" / "reference.rttm",
        "B": SAMPLES / "annotators" / "annotator_b.rttm",
        "C": SAMPLES / "hypotheses" / "system_b",
    }
    system = f"system_a={SAMPLES / 'hypotheses' / 'system_a.rttm'}"
    options = ["--units", str(SAMPLES / "units" / "breath_groups.csv"), "--bootstrap", "20"]
    references = [arg for name, path in annotators.items() for arg in ("--reference", f"{name}={path}")]
    assert main(["evaluate", *references, "--hypothesis", system, *options, "--json", str(tmp_path / "all.json")]) == 0
    per_annotator = json.loads((tmp_path / "all.json").read_text())["per_annotator"]
    assert list(per_annotator) == ["A", "B", "C"]
    for name, path in annotators.items():
        others = [arg for b, p in annotators.items() if b != name for arg in ("--hypothesis", f"{b}={p}")]
        out = tmp_path / f"{name}.json"
        args = ["evaluate", "--reference", str(path), "--hypothesis", system, *others, *options, "--json", str(out)]
        assert main(args) == 0
        alone = json.loads(out.read_text())
        del alone["run_id"]
        assert per_annotator[name] == alone
    capsys.readouterr()


def test_each_annotator_s_file_is_read_once_in_one_process_and_in_processes(tmp_path, count_reads, capsys):
    # an annotator's RTTM file is the reference of its evaluation and a hypothesis of the others': read once.
    # With --jobs 2 too, each annotator's evaluation scored in shards on the same two processes from the files
    # read here: the JSON and the summary those of one process
    import tvseg.readers
    from tvseg.cli import main

    reads = count_reads(tvseg.readers, "read_segments")
    references = ["--reference", f"A={SAMPLES / 'reference' / 'reference.rttm'}"]
    references += ["--reference", f"B={SAMPLES / 'annotators' / 'annotator_b.rttm'}"]
    system = f"system_a={SAMPLES / 'hypotheses' / 'system_a.rttm'}"
    args = ["evaluate", *references, "--hypothesis", system, "--bootstrap", "50"]
    found = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.json"
        assert main([*args, "--jobs", jobs, "--json", str(out)]) == 0
        found[jobs] = (json.loads(out.read_text()), capsys.readouterr())
        del found[jobs][0]["run_id"]
        assert reads == {"reference.rttm": 1, "annotator_b.rttm": 1, "system_a.rttm": 1}
        reads.clear()
    assert found["2"] == found["1"]
