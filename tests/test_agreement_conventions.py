"""Agreement under the three conventions: the paper, the 2012 reference implementation (segeval 1.1)
and segeval 2.0.11, with S or B; the Python API and ``tvseg agreement --metric --convention``.

Expected values: segeval 2.0.11's ``fleiss_pi_linear``, ``fleiss_kappa_linear`` and
``artstein_poesio_bias_linear`` on its bundled datasets (Hearst 1997, The Moonstone groups 5 and 2),
Fournier & Inkpen 2012's Table 2, and hand computations in ``fractions.Fraction`` written out below.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

import tvseg
from tvseg.cli import main
from tvseg.unit.agreement import agreement, agreement_with_system

segeval = pytest.importorskip("segeval")
from segeval.data import Dataset  # noqa: E402
from segeval.data.samples import HEARST_1997_STARGAZER, KAZANTSEVA2012_G2, KAZANTSEVA2012_G5  # noqa: E402
from segeval.similarity.segmentation import segmentation_similarity as segeval_s  # noqa: E402

DATASETS = {"hearst1997": HEARST_1997_STARGAZER, "moonstone_g5": KAZANTSEVA2012_G5, "moonstone_g2": KAZANTSEVA2012_G2}
SEGEVAL_COMPARE = {"B": {}, "S": {"fnc_compare": segeval_s}}  # B is segeval's default fnc_compare


def plain(dataset):
    return {item: {coder: list(masses) for coder, masses in codings.items()} for item, codings in dataset.items()}


def segeval_coefficients(dataset, metric):
    kw = SEGEVAL_COMPARE[metric]
    return (
        float(segeval.fleiss_pi_linear(dataset, **kw)),
        float(segeval.fleiss_kappa_linear(dataset, **kw)),
        float(segeval.artstein_poesio_bias_linear(dataset, **kw)),
    )


@pytest.mark.parametrize("name", sorted(DATASETS))
@pytest.mark.parametrize("metric", ["B", "S"])
def test_segeval_convention_equals_segeval_2(name, metric):
    pi, kappa, bias = segeval_coefficients(DATASETS[name], metric)
    got = agreement(plain(DATASETS[name]), metric=metric, convention="segeval")
    assert got.pi_star == pytest.approx(pi, abs=1e-9)
    assert got.kappa_star == pytest.approx(kappa, abs=1e-9)
    assert got.bias == pytest.approx(bias, abs=1e-9)
    assert (got.metric, got.convention, got.chance_count) == (metric, "segeval", "boundaries")


def test_the_issue_numbers_on_hearst_1997():
    data = plain(HEARST_1997_STARGAZER)
    assert round(agreement(data, metric="B", convention="segeval").pi_star, 4) == 0.4644
    assert round(agreement(data, metric="S", convention="segeval").pi_star, 4) == 0.7667
    assert round(agreement(data).pi_star, 4) == 0.7166  # the paper's formulas, as before


@pytest.mark.parametrize("name", ["hearst1997", "moonstone_g5"])
def test_two_coders_scott_and_cohen_equal_segeval_2(name):
    # segeval 2.0.11's Fleiss coefficients with two coders are Scott's pi and Cohen's kappa
    dataset = DATASETS[name]
    coders = sorted(next(iter(dataset.values())))
    for pair in itertools.combinations(coders, 2):
        sub = {item: {c: codings[c] for c in pair} for item, codings in dataset.items()}
        for metric in ("B", "S"):
            pi, kappa, _ = segeval_coefficients(Dataset(sub), metric)
            got = agreement(plain(sub), metric=metric, convention="segeval")
            assert got.pi == pytest.approx(pi, abs=1e-9) and got.kappa == pytest.approx(kappa, abs=1e-9)


# Fournier & Inkpen 2012, Table 2: chapter -> (pi*_S, kappa*_S, B_S)
TABLE_2 = {
    "ch1": (0.7452, 0.7463, 0.0039),
    "ch2": (0.8839, 0.8840, 0.0009),
    "ch3": (0.8338, 0.8340, 0.0013),
    "ch4": (0.8414, 0.8417, 0.0019),
    "ch5": (0.8773, 0.8774, 0.0003),
    "ch8": (0.8495, 0.8496, 0.0006),
    "ch10": (0.9077, 0.9078, 0.0002),
    "ch11": (0.8130, 0.8135, 0.0022),
}


@pytest.mark.parametrize("chapter", sorted(TABLE_2))
def test_table_2_with_the_2012_convention(chapter):
    group = KAZANTSEVA2012_G5 if chapter in KAZANTSEVA2012_G5 else KAZANTSEVA2012_G2
    result = agreement({chapter: plain(group)[chapter]}, convention="segeval1")
    assert (round(result.pi_star, 4), round(result.kappa_star, 4), round(result.bias, 4)) == TABLE_2[chapter]


def test_chance_by_hand_on_two_items_of_different_sizes():
    # item x: 5 units (4 PBs), a = (2, 3), b = (3, 2): boundaries 2 and 3, one PB apart
    # item y: 11 units (10 PBs), a = (11,), b = (5, 6): one boundary of b alone
    data = {"x": {"a": (2, 3), "b": (3, 2)}, "y": {"a": (11,), "b": (5, 6)}}
    F = Fraction
    # A_a with the paper's S (and the 2012 code's, n = 2): x one transposition (1 PB), y one miss
    a_s = 1 - F(1 + 1, 4 + 10)  # 6/7
    # segments per coder and item: a 2, 1; b 2, 2
    #   paper (equation 8, pooled):  P = (2 + 1 + 2 + 2) / (2 * 14) = 1/4
    #   segeval1 (mean of the per-item proportions): P = (2/4 + 1/10 + 2/4 + 2/10) / 4 = 13/40
    #   both kappa: P(a) = 3/14, P(b) = 4/14
    paper, code = F(1, 4), (F(2, 4) + F(1, 10) + F(2, 4) + F(2, 10)) / 4
    assert code == F(13, 40)
    ae_kappa = F(3, 14) * F(4, 14)
    pi = lambda aa, ae: float((aa - ae) / (1 - ae))
    r = agreement(data)
    assert r.pi_star == pytest.approx(pi(a_s, paper**2)) and r.kappa_star == pytest.approx(pi(a_s, ae_kappa))
    r = agreement(data, convention="segeval1")
    assert r.pi_star == pytest.approx(pi(a_s, code**2)) and r.kappa_star == pytest.approx(pi(a_s, ae_kappa))
    assert r.bias == pytest.approx(float(code**2 - ae_kappa))
    # segeval 2.0: internal boundaries a 1, 0; b 1, 1: P = (1/4 + 0 + 1/4 + 1/10) / 4 = 3/20,
    #   kappa: P(a) = 1/14, P(b) = 2/14
    # its S weighs the transposition |3 - 2| / 2 = 1/2: A_a = 1 - (1/2 + 1) / 14 = 25/28
    # its B: x 1 transposition (edits 1/2, denominator 1), y 1 addition (edits 1, denominator 1):
    #   A_a = 1 - (1/2 + 1) / 2 = 1/4
    p, ae_kappa = F(3, 20), F(1, 14) * F(2, 14)
    r = agreement(data, convention="segeval")
    assert r.actual == pytest.approx(float(F(25, 28)))
    assert r.pi_star == pytest.approx(pi(F(25, 28), p**2)) and r.kappa_star == pytest.approx(pi(F(25, 28), ae_kappa))
    r = agreement(data, metric="B", convention="segeval")
    assert (r.penalty, r.denominator) == (1.5, 2.0)
    assert r.pi_star == pytest.approx(pi(F(1, 4), p**2)) and r.kappa_star == pytest.approx(pi(F(1, 4), ae_kappa))
    assert float(
        segeval.fleiss_pi_linear(Dataset({k: {c: list(m) for c, m in v.items()} for k, v in data.items()}))
    ) == pytest.approx(pi(F(1, 4), p**2))


def test_segeval1_with_n_3_uses_the_2012_windows():
    # one item, a = (2, 1, 2), b = (1, 2, 1, 1), 4 PBs: the 2012 code's S with n = 3 is -3/16
    # (tests/test_similarity_conventions.py), the paper's 1/2
    data = {"i": {"a": (2, 1, 2), "b": (1, 2, 1, 1)}}
    assert agreement(data, n=3, convention="segeval1").actual == pytest.approx(-3 / 16)
    assert agreement(data, n=3).actual == pytest.approx(1 / 2)


def test_segeval_convention_where_segeval_fails():
    # a pair of codings without any boundary makes segeval 2.0.11 fail (max() of no boundary type);
    # tvseg counts it as a pair with the dataset's one type: for B nothing to compare (denominator 0)
    # a = b = (5,), c = (2, 3): pairs a-c and b-c one addition each: A_a = 1 - 2/2 = 0
    # internal boundaries 0, 0, 1 over 4 PBs: P = 1/12, A_e = 1/144, pi* = -1/143
    data = {"i": {"a": (5,), "b": (5,), "c": (2, 3)}}
    assert agreement(data, metric="B", convention="segeval").pi_star == pytest.approx(-1 / 143)


def test_bad_options_are_value_errors():
    data = {"i": {"a": (2, 3), "b": (5,)}}
    for options, message in [
        (dict(metric="C"), "metric"),
        (dict(convention="nltk"), "no convention"),
        (dict(metric="B"), "'segeval' only"),
        (dict(metric="B", convention="segeval1"), "'segeval' only"),
        (dict(convention="segeval", chance_count="segments"), "chance_count"),
        (dict(convention="segeval1", chance_count="boundaries"), "chance_count"),
    ]:
        with pytest.raises(ValueError, match=message):
            agreement(data, **options)
    with pytest.raises(ValueError, match="single unit"):
        agreement({"i": {"a": (1,), "b": (1,)}, "j": data["i"]}, convention="segeval1")
    with pytest.raises(ValueError, match="no coder places any boundary"):
        agreement({"i": {"a": (5,), "b": (5,)}}, metric="B", convention="segeval")


def test_defaults_are_the_paper_and_the_system_comparison_takes_the_options():
    data = plain(KAZANTSEVA2012_G5)
    assert agreement(data) == agreement(data, metric="S", convention="paper", chance_count="segments")
    humans = {item: {c: m for c, m in codings.items() if c != "an4"} for item, codings in data.items()}
    system = {item: codings["an4"] for item, codings in data.items()}
    result = agreement_with_system(humans, system, name="an4", metric="B", convention="segeval")
    assert result.with_system.pi_star == pytest.approx(segeval_coefficients(KAZANTSEVA2012_G5, "B")[0], abs=1e-9)
    assert tvseg.agreement is agreement


# --------------------------------------------------------------------------------------------
# the command line


def _dataset_file(tmp_path, name):
    if name == "hearst1997":
        return Path(segeval.__file__).parent / "data" / "hearst1997.json"  # segeval's own file
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"items": plain(DATASETS[name]), "segmentation_type": "linear"}))
    return path


@pytest.mark.parametrize("name", sorted(DATASETS))
@pytest.mark.parametrize("metric", ["B", "S"])
def test_cli_equals_segeval_2(tmp_path, capsys, name, metric):
    out_json = tmp_path / "out.json"
    argv = [
        "agreement",
        str(_dataset_file(tmp_path, name)),
        "--metric",
        metric,
        "--convention",
        "segeval",
        "--json",
        str(out_json),
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    pi, kappa, bias = segeval_coefficients(DATASETS[name], metric)
    row = out.splitlines()[1].split()
    assert row[-3:] == [f"{pi:.4f}", f"{kappa:.4f}", f"{bias:.4f}"]
    assert f"{metric}: n=2, chance counts boundaries, convention segeval (segeval 2.0.11)" in out
    written = json.loads(out_json.read_text())
    assert written["pi_star"] == pytest.approx(pi, abs=1e-9)
    assert written["kappa_star"] == pytest.approx(kappa, abs=1e-9)
    assert written["bias"] == pytest.approx(bias, abs=1e-9)
    assert (written["metric"], written["convention"]) == (metric, "segeval")


def test_cli_segeval1_reproduces_table_2_chapter_1(tmp_path, capsys):
    path = tmp_path / "ch1.json"
    path.write_text(json.dumps({"ch1": plain(KAZANTSEVA2012_G5)["ch1"]}))
    assert main(["agreement", str(path), "--convention", "segeval1"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[-3:] == ["0.7452", "0.7463", "0.0039"]


@pytest.mark.parametrize(
    "options",
    [
        ["--metric", "B"],
        ["--metric", "B", "--convention", "segeval1"],
        ["--convention", "segeval", "--chance-count", "segments"],
        ["--convention", "segeval1", "--n", "0"],
    ],
)
def test_cli_refuses_options_that_do_not_go_together(tmp_path, capsys, options):
    path = _dataset_file(tmp_path, "hearst1997")
    assert main(["agreement", str(path), *options]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tvseg: error: ") and err.count("\n") == 1
