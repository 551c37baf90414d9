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
    assert "no such file" in capsys.readouterr().err


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
