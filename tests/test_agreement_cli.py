"""``tvseg agreement``: segeval JSON datasets, the system comparison, and bad input (exit 2, file and line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tvseg.cli import main
from tvseg.unit.agreement import agreement, agreement_with_system

DATA = Path(__file__).parent / "data" / "agreement"

# chapter 1 of The Moonstone, group 5 (segeval.data.samples.KAZANTSEVA2012_G5), bare layout
CH1 = {"ch1": {"an4": [2, 8, 2, 1], "an1": [11, 2], "an2": [2, 1, 7, 2, 1], "an3": [9, 4]}}


def test_table_2_chapter_1_from_a_bare_json_file(tmp_path, capsys):
    path = tmp_path / "ch1.json"
    path.write_text(json.dumps(CH1))
    out_json = tmp_path / "out.json"
    assert main(["agreement", str(path), "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    # Fournier & Inkpen 2012, Table 2, chapter 1: pi*_S 0.7452, kappa*_S 0.7463, B_S 0.0039
    row = out.splitlines()[1].split()
    assert row[-3:] == ["0.7452", "0.7463", "0.0039"]
    written = json.loads(out_json.read_text())
    assert round(written["pi_star"], 4) == 0.7452
    assert written["pi"] is None  # four coders
    assert written["coders"] == ["an4", "an1", "an2", "an3"]


def test_segeval_dataset_file(capsys):
    # moonstone_g5.json was written by segeval's own output_linear_mass_json from its bundled data
    path = DATA / "moonstone_g5.json"
    assert main(["agreement", str(path)]) == 0
    out = capsys.readouterr().out
    data = json.loads(path.read_text())["items"]
    expected = agreement(data)
    assert f"{expected.pi_star:.4f}" in out and f"{expected.kappa_star:.4f}" in out
    assert len(expected.items) == 4 and len(expected.coders) == 4


def test_system_option(tmp_path, capsys):
    path = tmp_path / "ch1.json"
    path.write_text(json.dumps({"items": CH1, "segmentation_type": "linear"}))
    out_json = tmp_path / "system.json"
    assert main(["agreement", str(path), "--system", "an1", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    humans = {"ch1": {c: m for c, m in CH1["ch1"].items() if c != "an1"}}
    expected = agreement_with_system(humans, {"ch1": CH1["ch1"]["an1"]}, name="an1")
    assert f"pi* {expected.drop_pi_star:+.4f}" in out
    written = json.loads(out_json.read_text())
    assert written["system"] == "an1"
    assert written["with_system"]["coders"] == ["an4", "an2", "an3", "an1"]
    assert main(["agreement", str(path), "--system", "nobody"]) == 2


def test_bad_json_names_file_and_line(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text('{"ch1": {\n  "a": [1, 2],\n  "b": [3,]\n}}\n')
    assert main(["agreement", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:3: invalid JSON")
    assert "Traceback" not in err


def test_bad_masses_name_file_line_and_value(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"ch1": {\n  "a": [1, 2],\n  "b": [3, 0]\n}}\n')
    assert main(["agreement", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:3: item 'ch1', coder 'b': masses must be a list of positive integers")
    assert "[3, 0]" in err


def test_inconsistent_dataset(tmp_path, capsys):
    path = tmp_path / "totals.json"
    path.write_text('{"ch1": {"a": [1, 2], "b": [4]},\n "ch2": {"a": [2], "b": [2]}}\n')
    assert main(["agreement", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:1:" in err and "number of units" in err
    path.write_text('{"segmentation_type": "hierarchical", "items": {}}')
    assert main(["agreement", str(path)]) == 2
    assert "linear" in capsys.readouterr().err


def test_missing_file(tmp_path, capsys):
    assert main(["agreement", str(tmp_path / "nope.json")]) == 2
    assert "no such file" in capsys.readouterr().err.lower()


def test_units_options_refused_with_json(tmp_path, capsys):
    path = tmp_path / "ch1.json"
    path.write_text(json.dumps(CH1))
    assert main(["agreement", str(path), "--frame", "1.0"]) == 2


def _rttm(path, rows):
    path.write_text(
        "".join(
            f"SEGMENT s1 1 {start:.3f} {end - start:.3f} <NA> <NA> {label} <NA> <NA>\n" for start, end, label in rows
        )
    )
    return path


def test_segment_files_projected_to_frames(tmp_path, capsys):
    pytest.importorskip("tvseg.unit.projection")  # written in another part of issue 4
    # one show of 30 s, frames of 1 s (a frame belongs to the segment holding its midpoint):
    #   A: [0, 10) [10, 30)   -> masses 10 20, boundary after frame 10
    #   B: [0, 12) [12, 30)   -> masses 12 18, boundary after frame 12
    #   C: [0, 30)            -> mass 30, no boundary
    # 29 PBs; A-B: 10 and 12 are 2 PBs apart, two full misses (d = 2); A-C and B-C: d = 1
    # A_a = 1 - (2 + 1 + 1) / (3 * 29) = 1 - 4/87
    a = _rttm(tmp_path / "a.rttm", [(0, 10, "t1"), (10, 30, "t2")])
    b = _rttm(tmp_path / "b.rttm", [(0, 12, "t1"), (12, 30, "t2")])
    c = _rttm(tmp_path / "c.rttm", [(0, 30, "t1")])
    out_json = tmp_path / "out.json"
    assert main(["agreement", f"A={a}", f"B={b}", str(c), "--frame", "1", "--json", str(out_json)]) == 0
    written = json.loads(out_json.read_text())
    assert written["coders"] == ["A", "B", "c"]
    assert written["actual"] == pytest.approx(1 - 4 / 87)
    # segments: 2 + 2 + 1 over 3 * 29 PBs
    assert written["p_boundary"] == pytest.approx(5 / 87)


def test_segment_files_need_units(tmp_path, capsys):
    a = _rttm(tmp_path / "a.rttm", [(0, 10, "t1"), (10, 30, "t2")])
    b = _rttm(tmp_path / "b.rttm", [(0, 12, "t1"), (12, 30, "t2")])
    assert main(["agreement", str(a), str(b)]) == 2
    assert "Traceback" not in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# coders.json: the format page's examples (formats/agreement.md) and the example shipped with tvseg

ROOT = Path(__file__).resolve().parent.parent
FORMAT_EXAMPLES = ROOT / "formats" / "examples" / "agreement"
SHIPPED = ROOT / "tvseg" / "data_samples" / "agreement" / "coders.json"


def test_the_format_pages_valid_example_by_hand(tmp_path, capsys):
    # news_0301: alice (2, 3), bob (3, 2): boundaries at PB 2 and 3 of 4, a near miss, one
    # transposition of span 2 (te = 2 - (1/2)^0 = 1). news_0302: alice (11,), bob (5, 6): one full
    # miss of 10 PBs. A_a = 1 - (1 + 1) / (4 + 10) = 6/7. Chance (segments): alice 2 + 1 = 3, bob
    # 2 + 2 = 4 over 14 PBs each: P_e = 7/28 = 1/4, A_e(pi*) = 1/16; A_e(kappa*) = (3/14)(4/14) = 3/49.
    # pi* = (6/7 - 1/16) / (15/16) = 89/105 = 0.847619; kappa* = (6/7 - 3/49) / (46/49) = 39/46;
    # bias = 1/16 - 3/49 = 1/784.
    out = tmp_path / "out.json"
    assert main(["agreement", str(FORMAT_EXAMPLES / "coders-valid.json"), "--json", str(out)]) == 0
    assert "Scott's pi 0.8476, Cohen's kappa 0.8478" in capsys.readouterr().out
    got = json.loads(out.read_text())
    assert got["actual"] == pytest.approx(6 / 7)
    assert got["pi_star"] == pytest.approx(89 / 105)
    assert got["kappa_star"] == pytest.approx(39 / 46)
    assert got["bias"] == pytest.approx(1 / 784)


def test_the_format_pages_invalid_example(capsys):
    path = FORMAT_EXAMPLES / "coders-invalid.json"
    assert main(["agreement", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    # the coders of news_0302 (line 6) disagree on its number of units: 11 and 5 + 5 = 10
    assert len(err) == 1 and err[0].startswith(f"{path}:6: item 'news_0302': coders disagree on its number of units")


@pytest.mark.parametrize("metric", ["B", "S"])
def test_the_shipped_coders_json_against_segeval(metric, tmp_path, capsys):
    # the README's `tvseg agreement tvseg/data_samples/agreement/coders.json --metric B --convention segeval`
    # and its S twin: segeval 2.0.11's fleiss_pi_linear, fleiss_kappa_linear and artstein_poesio_bias_linear
    # on the same file read with json (segeval's own input_linear_mass_json opens files in mode 'rU', which
    # Python 3.11 refuses)
    segeval = pytest.importorskip("segeval")
    from segeval.data import Dataset
    from segeval.similarity.segmentation import segmentation_similarity

    items = json.loads(SHIPPED.read_text(encoding="utf-8"))["items"]
    assert len(items) == 7 and all(set(codings) == {"ann1", "ann2", "ann3"} for codings in items.values())
    dataset = Dataset({item: {c: list(m) for c, m in codings.items()} for item, codings in items.items()})
    kw = {"fnc_compare": segmentation_similarity} if metric == "S" else {}
    out = tmp_path / "out.json"
    args = ["agreement", str(SHIPPED), "--metric", metric, "--convention", "segeval", "--json", str(out)]
    assert main(args) == 0
    got = json.loads(out.read_text())
    assert got["pi_star"] == pytest.approx(float(segeval.fleiss_pi_linear(dataset, **kw)), abs=1e-9)
    assert got["kappa_star"] == pytest.approx(float(segeval.fleiss_kappa_linear(dataset, **kw)), abs=1e-9)
    assert got["bias"] == pytest.approx(float(segeval.artstein_poesio_bias_linear(dataset, **kw)), abs=1e-9)
    assert main(["agreement", str(SHIPPED)]) == 0  # the README's first line: the paper's S


def test_the_shipped_coders_json_is_package_data():
    # pyproject's package-data globs put it in the wheel; demo_folder() finds it after an install
    import tomllib

    from tvseg.samples import demo_folder

    globs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    assert any(SHIPPED in set((ROOT / "tvseg").glob(pattern)) for pattern in globs["tvseg"])
    assert (demo_folder() / "agreement" / "coders.json").resolve() == SHIPPED.resolve()
