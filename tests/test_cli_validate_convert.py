"""``tvseg validate`` and ``tvseg convert``, through tvseg.cli.main and through ``python -m tvseg``."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tvseg import read_segments
from tvseg.cli import main
from tvseg.readers import NO_LABEL

from reader_helpers import segments

EXAMPLES = Path(__file__).resolve().parent.parent / "formats" / "examples"
INVALID = sorted(EXAMPLES.glob("*-invalid.*"))
VALID = sorted(EXAMPLES.glob("*-valid.*"))
LOCATED = re.compile(r"^(?P<path>.+):(?P<line>\d+): \S.*$")


def test_every_format_has_a_valid_and_an_invalid_example():
    kinds = {p.name.split("-")[0] for p in VALID}
    assert kinds == {p.name.split("-")[0] for p in INVALID}
    assert kinds >= {"rttm", "chapters", "captions", "srt", "segments", "breath_groups", "uem", "metadata"}


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_validate_valid_example(path, capsys):
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{path}: ok: ") and err == ""


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_validate_invalid_example_in_process(path, capsys):
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    match = LOCATED.match(lines[0])
    assert match and match["path"] == str(path) and int(match["line"]) >= 1
    assert "Traceback" not in err and out == ""


def test_validate_reports_every_bad_file_in_a_subprocess():
    result = subprocess.run([sys.executable, "-m", "tvseg", "validate", *map(str, INVALID), *map(str, VALID)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    reported = [LOCATED.match(line) for line in result.stderr.strip().splitlines()]
    assert all(reported), result.stderr
    assert sorted(m["path"] for m in reported) == sorted(map(str, INVALID))
    assert len(result.stdout.strip().splitlines()) == len(VALID)


def test_validate_missing_file_and_empty_folder(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "missing.rttm"), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "missing.rttm: no such file or folder" in err and "no file to read" in err


def test_validate_folder(tmp_path, capsys):
    (tmp_path / "a.rttm").write_text("SEGMENT s 1 0 1 <NA> <NA> A <NA> <NA>\n")
    (tmp_path / "b.uem").write_text("s 1 0 10\n")
    assert main(["validate", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "a.rttm: ok: RTTM, 1 show(s), 1 segment(s)" in out and "b.uem: ok: UEM" in out


RTTM = ("SEGMENT n1 1 0.000 12.345 <NA> <NA> Intro <NA> <NA>\n"
        "SEGMENT n1 1 12.345 3.210 <NA> <NA> Storm_warning <NA> <NA>\n"
        "SEGMENT n1 1 20.001 0.999 <NA> <NA> <NA> <NA> <NA>\n"
        "SEGMENT n2 1 0.5 1.0 <NA> <NA> Sport <NA> <NA>\n")


def test_convert_round_trip_rttm_vtt_rttm(tmp_path):
    (tmp_path / "in.rttm").write_text(RTTM)
    assert main(["convert", str(tmp_path / "in.rttm"), str(tmp_path / "chapters")]) == 0
    assert sorted(p.name for p in (tmp_path / "chapters").iterdir()) == ["n1.vtt", "n2.vtt"]
    assert main(["convert", str(tmp_path / "chapters"), str(tmp_path / "out.rttm")]) == 0
    result = read_segments(tmp_path / "out.rttm")
    assert segments(result["n1"]) == [(0.0, 12.345, "Intro"), (12.345, 15.555, "Storm_warning"),
                                      (20.001, 21.0, NO_LABEL)]
    assert segments(result["n2"]) == [(0.5, 1.5, "Sport")]
    assert (tmp_path / "out.rttm").read_text() == RTTM.replace(" 0.5 1.0 ", " 0.500 1.000 ")


def test_convert_round_trip_csv_rttm_csv_in_a_subprocess(tmp_path):
    source = tmp_path / "in.csv"
    source.write_text("show,start,end,label\nb,1.500,2.250,x\nb,2.250,7.125,Storm in the north\n"
                      "a,0.000,0.001,\n")
    for args in (["convert", str(source), str(tmp_path / "mid.rttm")],
                 ["convert", str(tmp_path / "mid.rttm"), str(tmp_path / "out.csv")]):
        result = subprocess.run([sys.executable, "-m", "tvseg", *args], capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0, result.stderr
    # times to the millisecond; the whitespace of a label becomes _ in RTTM (with a warning)
    assert (tmp_path / "out.csv").read_text() == (
        "show,start,end,label\nb,1.500,2.250,x\nb,2.250,7.125,Storm_in_the_north\na,0.000,0.001,\n")


def test_convert_refuses_units_only_input(tmp_path, capsys):
    source = tmp_path / "bg.csv"
    source.write_text("show,start,end,text\ns,0,1,hello\n")
    assert main(["convert", str(source), str(tmp_path / "out.rttm")]) == 2
    err = capsys.readouterr().err
    assert f"{source}:1: " in err and "units only" in err
    assert not (tmp_path / "out.rttm").exists()


def test_convert_bad_input_is_located_and_writes_nothing(tmp_path, capsys):
    bad = EXAMPLES / "chapters-invalid.vtt"
    assert main(["convert", str(bad), str(tmp_path / "out.rttm")]) == 2
    assert capsys.readouterr().err.startswith(f"{bad}:6: ")
    assert list(tmp_path.iterdir()) == []


def test_convert_round_trip_rttm_srt_rttm(tmp_path):
    (tmp_path / "in.rttm").write_text(RTTM)
    assert main(["convert", str(tmp_path / "in.rttm"), str(tmp_path / "srt"), "--to", "srt"]) == 0
    assert sorted(p.name for p in (tmp_path / "srt").iterdir()) == ["n1.srt", "n2.srt"]
    assert (tmp_path / "srt" / "n2.srt").read_text() == "1\n00:00:00,500 --> 00:00:01,500\nSport\n"
    assert main(["convert", str(tmp_path / "srt"), str(tmp_path / "out.rttm")]) == 0
    assert (tmp_path / "out.rttm").read_text() == RTTM.replace(" 0.5 1.0 ", " 0.500 1.000 ")


def test_convert_with_explicit_formats(tmp_path):
    (tmp_path / "in.txt").write_text(RTTM)
    assert main(["convert", str(tmp_path / "in.txt"), str(tmp_path / "out.dat"),
                 "--from", "rttm", "--to", "csv"]) == 0
    assert (tmp_path / "out.dat").read_text().startswith("show,start,end,label\nn1,0.000,12.345,Intro\n")
