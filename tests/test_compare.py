"""tvseg compare (issue 26): two results of tvseg evaluate --json, metric by metric and show by show."""

import json
from fractions import Fraction

import pytest

from tvseg.cli import main
from tvseg.comparison import compare_results, paired_sign_flip


def _result(shows, corpus, signature="sig-1", system="a"):
    return {"signature": signature, "systems": {system: {"corpus": corpus, "shows": shows}}}


# four shows; cov_d per show old -> new, and the differences by hand:
#   s1 0.50 -> 0.70 (+0.20), s2 0.60 -> 0.50 (-0.10), s3 0.80 -> 0.85 (+0.05), s4 0.40 -> 0.70 (+0.30)
# moved most, by |difference|: s4 (0.30), s1 (0.20), s2 (0.10), s3 (0.05)
OLD = _result(
    {
        "s1": {"cov_d": 0.5, "pk": 0.2},
        "s2": {"cov_d": 0.6, "pk": 0.3},
        "s3": {"cov_d": 0.8, "pk": None},
        "s4": {"cov_d": 0.4, "pk": 0.1},
        "old_only": {"cov_d": 0.9},
    },
    {"cov_d": 0.55, "pk": 0.2},
)
NEW = _result(
    {
        "s1": {"cov_d": 0.7, "pk": 0.2},
        "s2": {"cov_d": 0.5, "pk": 0.25},
        "s3": {"cov_d": 0.85, "pk": 0.1},
        "s4": {"cov_d": 0.7, "pk": 0.1},
    },
    {"cov_d": 0.69, "pk": 0.18},
    signature="sig-2",
)


def test_the_changes_the_test_and_the_shows_that_moved():
    c = compare_results(OLD, NEW, old_system="a", new_system="a", top=3)
    assert c["shows"] == {"common": 4, "only_old": ["old_only"], "only_new": []}
    assert [m["show"] for m in c["moved"]] == ["s4", "s1", "s2"]
    assert c["moved"][0]["difference"] == pytest.approx(0.3)
    cov_d = next(m for m in c["metrics"] if m["metric"] == "cov_d")
    assert cov_d["difference"] == pytest.approx(0.69 - 0.55)
    # mean change (0.20 - 0.10 + 0.05 + 0.30) / 4 = 0.1125; of the 16 sign assignments, those whose mean has an
    # absolute value of at least 0.1125 (sum >= 0.45): +-(0.2, -0.1, 0.05, 0.3) = 0.45 and +-(0.2, 0.1, 0.05, 0.3)
    # = 0.65, +-(0.2, 0.1, -0.05, 0.3) = 0.55, +-(0.2, -0.1, -0.05, 0.3) = 0.35 (no), +-(-0.2, 0.1, 0.05, 0.3)
    # = 0.25 (no), +-(0.2, 0.1, 0.05, -0.3) = 0.05 (no), +-(-0.2, -0.1, 0.05, 0.3) = 0.05 (no), +-(-0.2, 0.1,
    # -0.05, 0.3) = 0.15 (no): 3 sign patterns, each with its negation, 6 of 16
    assert cov_d["mean_difference"] == pytest.approx(0.1125)
    assert cov_d["p_value"] == pytest.approx(float(Fraction(6, 16)))
    assert cov_d["test"] == "exact sign-flip"
    # pk: s3's old value is null, left out of the test: 3 shows, differences 0, -0.05, 0
    pk = next(m for m in c["metrics"] if m["metric"] == "pk")
    assert pk["shows"] == 3 and pk["mean_difference"] == pytest.approx(-0.05 / 3)
    assert any("only in the old result" in w for w in c["warnings"])
    assert any("different settings" in w for w in c["warnings"])


def test_the_random_test_past_twelve_shows_agrees_with_a_simple_count():
    # 20 equal positive differences: only the all-plus and all-minus assignments reach the observed mean, so the
    # exact p-value is 2 / 2^20; the random test with R assignments almost surely finds none: (1 + 0) / (1 + R)
    p, test = paired_sign_flip([0.1] * 20, resamples=999, seed=1)
    assert test == "random sign-flip" and p == pytest.approx(1 / 1000)
    p, test = paired_sign_flip([0.1, -0.1] * 3)  # 6 shows: exact; mean 0: every assignment reaches it
    assert test == "exact sign-flip" and p == 1.0


def test_the_command_names_the_shows_that_moved_most(tmp_path, capsys):
    old, new, out = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "cmp.json"
    old.write_text(json.dumps(OLD))
    new.write_text(json.dumps(NEW))
    assert main(["compare", str(old), str(new), "--top", "2", "--json", str(out)]) == 0
    printed = capsys.readouterr()
    assert "shows whose cov_d moved most:" in printed.out
    assert printed.out.index("s4: 40.0 -> 70.0 (+30.0)") < printed.out.index("s1: 50.0 -> 70.0 (+20.0)")
    assert "s2:" not in printed.out.split("moved most:")[1]
    assert "tvseg: warning: 1 show(s) only in the old result" in printed.err
    written = json.loads(out.read_text())
    assert [m["show"] for m in written["moved"]] == ["s4", "s1"]


def test_two_systems_of_one_result(tmp_path, capsys):
    both = {"signature": "s", "systems": {"x": OLD["systems"]["a"], "y": NEW["systems"]["a"]}}
    path = tmp_path / "run.json"
    path.write_text(json.dumps(both))
    assert main(["compare", str(path), "--systems", "x", "y"]) == 0
    assert "x (" in capsys.readouterr().out


@pytest.mark.parametrize(
    "content, expected",
    [
        (None, "no such file"),
        ("{not json", "not JSON"),
        ("[1, 2]", "not a result"),
        (json.dumps({"systems": {"b": {"shows": {}}}}), "no system 'a'"),
    ],
)
def test_bad_input_names_the_file_and_exits_2(tmp_path, capsys, content, expected):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(OLD))
    if content is not None:
        new.write_text(content)
    assert main(["compare", str(old), str(new), "--system", "a"]) == 2
    err = capsys.readouterr().err
    assert expected in err and "new.json" in err


def test_two_real_runs_of_the_demo(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["evaluate", "--demo", "--bootstrap", "0", "--json", str(a)]) == 0
    assert main(["evaluate", "--demo", "--bootstrap", "0", "--gamma", "0.7", "--json", str(b)]) == 0
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--system", "system_a"]) == 0
    out = capsys.readouterr()
    assert "shows whose cov_d moved most:" in out.out and "different settings" in out.err
