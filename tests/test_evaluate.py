"""``tvseg evaluate``: the --json schema of the contract on the bundled corpus, and bad usage."""

import json
from pathlib import Path

import pytest

from tvseg import __version__
from tvseg.cli import main
from tvseg.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
METRICS = [
    "recall_n",
    "precision_n",
    "cov_n",
    "recall_d",
    "precision_d",
    "cov_d",
    "boundary_precision",
    "boundary_recall",
    "boundary_f1",
    "n_reference",
    "n_hypothesis",
    "n_correct_reference",
    "n_correct_hypothesis",
]
UNIT_METRICS = ["pk", "pk_prime", "windowdiff", "winpr_precision", "winpr_recall", "winpr_f1", "s"]
TITLE_METRICS = ["title_accuracy", "title_f1", "titled_recall", "titled_precision"]
DISTANCE_METRICS = [  # issue 44: README's "boundary distances, hit rates" row
    *(f"hit_{side}_{window}" for window in ("0_5s", "3s") for side in ("precision", "recall", "f1")),
    "median_deviation_ref_to_hyp",
    "median_deviation_hyp_to_ref",
    "hausdorff",
]
needs_samples = pytest.mark.skipif(
    not (ROOT / "tvseg" / "data_samples" / "reference").is_dir(), reason="no data_samples/"
)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo") / "out.json"
    assert main(["evaluate", "--demo", "--no-html", "--bootstrap", "200", "--json", str(out)]) == 0
    return json.loads(out.read_text()), out


@needs_samples
def test_demo_json_has_every_key_of_the_contract(demo):
    data, out = demo
    assert data["tvseg_version"] == __version__
    assert set(data["systems"]) == {"system_a", "system_b"}
    for name, system in data["systems"].items():
        for part in ("corpus", "macro"):
            missing = set(METRICS + UNIT_METRICS + TITLE_METRICS + DISTANCE_METRICS) - set(system[part])
            assert not missing, (name, part, missing)
        assert set(system["by_length"]) == {"short", "long"}
        for cls in ("short", "long"):
            assert {"recall_n", "precision_n", "cov_n", "recall_d", "precision_d", "cov_d"} <= set(
                system["by_length"][cls]
            )
        assert len(system["shows"]) == 7
        for show, values in system["shows"].items():
            assert set(METRICS + DISTANCE_METRICS) <= set(values), show
        # rates are fractions
        for key in ("cov_n", "cov_d", "boundary_f1", "pk"):
            assert 0.0 <= system["corpus"][key] <= 1.0
        assert isinstance(system["corpus"]["n_reference"], int)
        assert {"gamma", "tolerance"} == set(system["sweeps"])
        assert set(system["groups"]) >= {"channel", "programme"}
    # the demo has units: Pk and WindowDiff are compared too
    assert {p["metric"] for p in data["pairwise"]} == {"cov_n", "cov_d", "boundary_f1", "pk", "windowdiff"}
    # no temporary file left beside the output
    assert [p.name for p in out.parent.iterdir()] == ["out.json"]


@needs_samples
def test_settings_and_signature_come_from_one_settings_object(demo):
    data, _ = demo
    settings = Settings(**data["settings"])
    assert settings.signature() == data["signature"]
    assert data["settings"]["bootstrap"] == 200 and "boot:200" in data["signature"]
    assert data["settings"]["uem"] is True and data["settings"]["units"] == "file"


@needs_samples
def test_options_reach_the_numbers(tmp_path):
    out = tmp_path / "g.json"
    assert (
        main(
            [
                "evaluate",
                "--demo",
                "--no-html",
                "--bootstrap",
                "0",
                "--gamma",
                "0.5",
                "--tolerance",
                "3",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert data["settings"]["gamma"] == 0.5 and "gamma:0.5|tol:3" in data["signature"]
    sweep = {row["gamma"]: row for row in data["systems"]["system_a"]["sweeps"]["gamma"]}
    assert data["systems"]["system_a"]["corpus"]["cov_n"] == pytest.approx(sweep[0.5]["cov_n"])


def test_bad_hypothesis_option_is_a_usage_error(capsys, tmp_path):
    ref = tmp_path / "r.rttm"
    ref.write_text("SEGMENT s 1 0.0 10.0 <NA> <NA> a <NA> <NA>\n")
    assert main(["evaluate", "--reference", str(ref), "--hypothesis", "no-equals-sign"]) == 2
    assert "NAME=PATH" in capsys.readouterr().err
    assert main(["evaluate", "--reference", str(ref), "--hypothesis", f"a={ref}", "--hypothesis", f"a={ref}"]) == 2
    assert main(["evaluate", "--reference", str(ref), "--hypothesis", f"a={tmp_path / 'none.rttm'}"]) == 2


def test_small_run_prints_a_summary(capsys, tmp_path):
    ref = tmp_path / "r.rttm"
    ref.write_text("SEGMENT s 1 0.0 10.0 <NA> <NA> a <NA> <NA>\nSEGMENT s 1 10.0 40.0 <NA> <NA> b <NA> <NA>\n")
    hyp = tmp_path / "h.rttm"
    hyp.write_text("SEGMENT s 1 0.0 12.0 <NA> <NA> x <NA> <NA>\nSEGMENT s 1 12.0 40.0 <NA> <NA> y <NA> <NA>\n")
    assert main(["evaluate", "--reference", str(ref), "--hypothesis", f"sys={hyp}", "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    # R1 [0,10) <-> H1 [0,12): 20/22 = 0.909; R2 [10,40) <-> H2 [12,40): 56/58: CovN 100.0
    assert "sys" in out and "corpus" in out and "100.0" in out
