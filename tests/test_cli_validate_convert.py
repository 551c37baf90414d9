"""``tvseg validate`` and ``tvseg convert``, through tvseg.cli.main and through ``python -m tvseg``."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from reader_helpers import segments

from tvseg import read_segments
from tvseg.cli import main
from tvseg.errors import InputError
from tvseg.readers import NO_LABEL

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


AS_UNITS = {"chapters-invalid.vtt": 6, "srt-missing-timing-invalid.srt": 5}
"""Caption examples invalid as segments that ``validate FILE`` reads as ``--units`` reads them: the broken block
skipped (a WebVTT player) or folded into the cue before (webvtt-py), with a warning; the line that makes them
invalid as segments is named on the ``ok`` line (tests/test_one_reading_path.py checks evaluate agrees)."""


@pytest.mark.parametrize("path", [p for p in INVALID if p.name in AS_UNITS], ids=lambda p: p.name)
def test_validate_names_the_line_of_a_caption_example_invalid_as_segments(path, capsys):
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    line = AS_UNITS[path.name]
    assert out.startswith(f"{path}: ok: ") and f"not as segments ({path}:{line}: " in out
    assert err.startswith(f"tvseg: warning: {path}:{line}: ") and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("path", [p for p in INVALID if p.name not in AS_UNITS], ids=lambda p: p.name)
def test_validate_invalid_example_in_process(path, capsys):
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    match = LOCATED.match(lines[0])
    assert match and match["path"] == str(path) and int(match["line"]) >= 1
    assert "Traceback" not in err and out == ""


REFUSED = [p for p in INVALID if p.name not in AS_UNITS]


def test_validate_reports_every_bad_file_in_a_subprocess():
    result = subprocess.run(
        [sys.executable, "-m", "tvseg", "validate", *map(str, REFUSED), *map(str, VALID)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    reported = [LOCATED.match(line) for line in result.stderr.strip().splitlines()]
    assert all(reported), result.stderr
    assert sorted(m["path"] for m in reported) == sorted(map(str, REFUSED))
    assert len(result.stdout.strip().splitlines()) == len(VALID)


def test_a_bare_less_than_is_refused_as_chapters_and_read_as_units_by_validate(capsys):
    # validate reads a caption file as --units reads it (a '<' that opens no tag kept, with a warning), and
    # says that the file is no segmentation, at the line where read_segments refuses it
    path = EXAMPLES / "chapters-less-than.vtt"
    with pytest.raises(InputError, match=r"chapters-less-than.vtt:4: '<' that opens no WebVTT tag"):
        read_segments(path)
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "2 cue(s) read as 2 unit(s)" in out and f"not as segments ({path}:4: '<' that opens no WebVTT tag" in out
    assert f"{path}:4: 1 '<...>' in cue text open(s) no WebVTT tag: kept as written" in err


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


RTTM = (
    "SEGMENT n1 1 0.000 12.345 <NA> <NA> Intro <NA> <NA>\n"
    "SEGMENT n1 1 12.345 3.210 <NA> <NA> Storm_warning <NA> <NA>\n"
    "SEGMENT n1 1 20.001 0.999 <NA> <NA> <NA> <NA> <NA>\n"
    "SEGMENT n2 1 0.5 1.0 <NA> <NA> Sport <NA> <NA>\n"
)


def test_convert_round_trip_rttm_vtt_rttm(tmp_path):
    (tmp_path / "in.rttm").write_text(RTTM)
    assert main(["convert", str(tmp_path / "in.rttm"), str(tmp_path / "chapters")]) == 0
    assert sorted(p.name for p in (tmp_path / "chapters").iterdir()) == ["n1.vtt", "n2.vtt"]
    assert main(["convert", str(tmp_path / "chapters"), str(tmp_path / "out.rttm")]) == 0
    result = read_segments(tmp_path / "out.rttm")
    assert segments(result["n1"]) == [
        (0.0, 12.345, "Intro"),
        (12.345, 15.555, "Storm_warning"),
        (20.001, 21.0, NO_LABEL),
    ]
    assert segments(result["n2"]) == [(0.5, 1.5, "Sport")]
    assert (tmp_path / "out.rttm").read_text() == RTTM.replace(" 0.5 1.0 ", " 0.500 1.000 ")


def test_convert_round_trip_csv_rttm_csv_in_a_subprocess(tmp_path):
    source = tmp_path / "in.csv"
    source.write_text("show,start,end,label\nb,1.500,2.250,x\nb,2.250,7.125,Storm in the north\na,0.000,0.001,\n")
    for args in (
        ["convert", str(source), str(tmp_path / "mid.rttm")],
        ["convert", str(tmp_path / "mid.rttm"), str(tmp_path / "out.csv")],
    ):
        result = subprocess.run([sys.executable, "-m", "tvseg", *args], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
    # times to the millisecond; the whitespace of a label becomes _ in RTTM (with a warning); the
    # shows in sorted order, as read_segments gives them (issue 13)
    assert (tmp_path / "out.csv").read_text() == (
        "show,start,end,label\na,0.000,0.001,\nb,1.500,2.250,x\nb,2.250,7.125,Storm_in_the_north\n"
    )


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
    assert main(["convert", str(tmp_path / "in.txt"), str(tmp_path / "out.dat"), "--from", "rttm", "--to", "csv"]) == 0
    assert (tmp_path / "out.dat").read_text().startswith("show,start,end,label\nn1,0.000,12.345,Intro\n")


# --- issue 11: one show to one file, CSV that reads back, disk errors, all-or-none folders ---------

ONE_SHOW = (
    "SEGMENT show 1 0.000 12.345 <NA> <NA> Intro <NA> <NA>\n"
    "SEGMENT show 1 12.345 3.210 <NA> <NA> Storm_warning <NA> <NA>\n"
)


@pytest.mark.parametrize("name", ["show.vtt", "show.srt", "show.rttm", "show.csv", "SHOW.VTT"])
def test_convert_one_show_to_one_file(tmp_path, name, capsys):
    (tmp_path / "show.rttm").write_text(ONE_SHOW)
    out = tmp_path / "out" / name
    out.parent.mkdir()
    assert main(["convert", str(tmp_path / "show.rttm"), str(out)]) == 0, capsys.readouterr().err
    assert out.is_file()
    options = {"show": "show"} if out.suffix.lower() in (".vtt", ".srt") else {}
    assert segments(read_segments(out, **options)["show"]) == [
        (0.0, 12.345, "Intro"),
        (12.345, 15.555, "Storm_warning"),
    ]
    assert [p.name for p in out.parent.iterdir()] == [name]  # no temporary file left


def test_convert_into_an_existing_folder_named_like_a_file_writes_into_it(tmp_path):
    (tmp_path / "show.rttm").write_text(ONE_SHOW)
    folder = tmp_path / "chapters.vtt"
    folder.mkdir()
    assert main(["convert", str(tmp_path / "show.rttm"), str(folder)]) == 0
    assert [p.name for p in folder.iterdir()] == ["show.vtt"]


@pytest.mark.parametrize("ext", ["vtt", "srt"])
def test_convert_several_shows_to_one_cue_file_is_exit_2_and_asks_for_a_folder(tmp_path, ext, capsys):
    (tmp_path / "in.rttm").write_text(RTTM)
    assert main(["convert", str(tmp_path / "in.rttm"), str(tmp_path / f"out.{ext}")]) == 2
    err = capsys.readouterr().err
    # a usage error: the command's usage, then one line saying what to change
    last = err.strip().splitlines()[-1]
    assert err.startswith("usage: tvseg convert") and "2 shows" in last and "give a folder" in last
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.rttm"]


def test_convert_csv_label_with_a_bare_cr_reads_back(tmp_path, capsys):
    source = tmp_path / "in.csv"
    source.write_bytes(b'show,start,end,label\ns,0,10,"a\rb"\ns,10,20,"say ""hi"", then\nleave"\n')
    out = tmp_path / "out.csv"
    assert main(["convert", str(source), str(out)]) == 0
    assert out.read_bytes() == (
        b'show,start,end,label\ns,0.000,10.000,"a\rb"\ns,10.000,20.000,"say ""hi"", then\nleave"\n'
    )
    assert main(["validate", str(out)]) == 0, capsys.readouterr().err
    assert segments(read_segments(out)["s"]) == [(0.0, 10.0, "a\rb"), (10.0, 20.0, 'say "hi", then\nleave')]


def _no_space(*args, **kwargs):
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("name", ["out.rttm", "out.csv", "out.vtt", "chapters"])
def test_convert_on_a_full_disk_is_exit_2_with_the_path_and_leaves_nothing(tmp_path, name, monkeypatch, capsys):
    import tvseg.output

    (tmp_path / "in.rttm").write_text(ONE_SHOW if name == "out.vtt" else RTTM)
    monkeypatch.setattr(tvseg.output, "write_file", _no_space)
    assert main(["convert", str(tmp_path / "in.rttm"), str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{tmp_path / name}: ") and "No space left on device" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.rttm"]


def test_convert_to_a_folder_it_cannot_write_is_exit_2(tmp_path, capsys):
    # a real OSError, not a monkeypatched one, that stops root too: the target's parent is a file
    (tmp_path / "in.rttm").write_text(RTTM)
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder\n")
    assert main(["convert", str(tmp_path / "in.rttm"), str(blocker / "out.rttm")]) == 2
    err = capsys.readouterr().err
    assert str(blocker) in err and "Traceback" not in err
    assert blocker.read_text() == "a file, not a folder\n"


def test_convert_into_a_new_folder_is_all_or_none(tmp_path, second_write_fails, capsys):
    (tmp_path / "in.rttm").write_text(RTTM)
    calls = second_write_fails
    assert main(["convert", str(tmp_path / "in.rttm"), str(tmp_path / "chapters")]) == 2
    assert len(calls) == 2 and "No space left" in capsys.readouterr().err
    # not a folder with n1.vtt alone: no folder at all, and no hidden temporary one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.rttm"]


def test_convert_into_an_existing_folder_is_all_or_none(tmp_path, monkeypatch, second_write_fails):
    (tmp_path / "in.rttm").write_text(RTTM)
    folder = tmp_path / "chapters"
    folder.mkdir()
    (folder / "n1.vtt").write_text("old n1\n")
    (folder / "mine.txt").write_text("keep\n")
    assert main(["convert", str(tmp_path / "in.rttm"), str(folder)]) == 2
    assert sorted(p.name for p in folder.iterdir()) == ["mine.txt", "n1.vtt"]
    assert (folder / "n1.vtt").read_text() == "old n1\n"
    monkeypatch.undo()
    assert main(["convert", str(tmp_path / "in.rttm"), str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["mine.txt", "n1.vtt", "n2.vtt"]
    assert (folder / "n1.vtt").read_text().startswith("WEBVTT\n")
