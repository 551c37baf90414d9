"""Spreadsheets as archives write them: SMPTE timecodes at a frame rate (``fps=``), a show id of two columns
(``show=Programme+Date``), and ``tvseg validate --columns MAP`` on a sheet alone.

Every expected time below is computed by hand in the comments (frames over the rate, as SMPTE 12M counts them).
"""

from __future__ import annotations

import json

import pytest

from tvseg.cli import main
from tvseg.errors import InputError, UsageError
from tvseg.readers import read_segments

# A daily news programme, the same name every day: two shows, told apart by the date.
SHEET = (
    "Programme,Date,Début,Fin,Titre\n"
    "JT 13h,2024-03-11,10:00:00:00,10:00:05:12,Ouverture\n"
    "JT 13h,2024-03-11,10:00:05:12,10:02:00:24,Météo\n"
    "JT 13h,2024-03-12,10:00:00:00,10:01:00:01,Sport\n"
)
COLUMNS = "show=Programme+Date,start=Début,end=Fin,title=Titre,fps=25"


def _spans(columns, show):
    return [(s.start, s.end, label) for s, _, label in columns[show].itertracks(yield_label=True)]


def test_timecodes_at_25_fps_and_a_show_id_of_two_columns(tmp_path):
    (tmp_path / "sheet.csv").write_text(SHEET, encoding="utf-8")
    corpus = read_segments(tmp_path / "sheet.csv", columns=COLUMNS)
    # two shows: the programme and the date joined by a space
    assert list(corpus.names) == ["JT 13h 2024-03-11", "JT 13h 2024-03-12"]
    # 10:00:00:00 = 10 * 3600 = 36000 s; 10:00:05:12 = 36005 + 12/25 = 36005.48 s;
    # 10:02:00:24 = 36120 + 24/25 = 36120.96 s; 10:01:00:01 = 36060 + 1/25 = 36060.04 s
    assert _spans(corpus, "JT 13h 2024-03-11") == [
        (36000.0, 36005.48, "Ouverture"),
        (36005.48, 36120.96, "Météo"),
    ]
    assert _spans(corpus, "JT 13h 2024-03-12") == [(36000.0, 36060.04, "Sport")]
    # the same as the times written in decimal seconds (a float of 36005.48 as the reader of "36005.48" gives it)
    assert corpus.start.tolist() == [float("36000"), float("36005.48"), float("36000")]


def test_the_sheet_scores_as_the_same_sheet_in_seconds(tmp_path):
    (tmp_path / "sheet.csv").write_text(SHEET, encoding="utf-8")
    seconds = (
        "Programme,Date,Début,Fin,Titre\n"
        "JT 13h,2024-03-11,36000,36005.48,Ouverture\n"
        "JT 13h,2024-03-11,36005.48,36120.96,Météo\n"
        "JT 13h,2024-03-12,36000,36060.04,Sport\n"
    )
    (tmp_path / "seconds.csv").write_text(seconds, encoding="utf-8")
    hypothesis = "show,start,end,label\nJT 13h 2024-03-11,36000,36010,a\nJT 13h 2024-03-11,36010,36120.96,b\n"
    hypothesis += "JT 13h 2024-03-12,36000,36060.04,c\n"
    (tmp_path / "hyp.csv").write_text(hypothesis, encoding="utf-8")
    results = []
    for sheet, columns in (("sheet.csv", COLUMNS), ("seconds.csv", COLUMNS.replace(",fps=25", ""))):
        out = tmp_path / f"{sheet}.json"
        args = ["evaluate", "--reference", str(tmp_path / sheet), "--hypothesis", f"m={tmp_path / 'hyp.csv'}"]
        args += ["--columns", f"reference:{columns}", "--bootstrap", "0", "--no-html", "--json", str(out)]
        assert main(args) == 0
        results.append(json.loads(out.read_text())["systems"])
    assert results[0] == results[1]


@pytest.mark.parametrize(
    "timecode, fps, seconds",
    [
        # non-drop-frame at 29.97 (30000/1001): 01:00:00:00 is frame 108000, 108000 * 1001 / 30000 = 3603.6 s
        ("01:00:00:00", "29.97", 3603.6),
        # drop-frame: 00:01:00;02 is frame 30 * 60 + 2 - 2 (one minute, not a tenth) = 1800, 1800 * 1001 / 30000 = 60.06 s
        ("00:01:00;02", "29.97", 60.06),
        # drop-frame: 00:10:00;00 is frame 18000 - 2 * 9 = 17982 (the tenth minute drops none),
        # 17982 * 1001 / 30000 = 599.9994 s
        ("00:10:00;00", "29.97", 599.9994),
        # drop-frame: 01:00:00;00 is frame 108000 - 2 * (60 - 6) = 107892, * 1001 / 30000 = 3599.9964 s
        ("01:00:00;00", "29.97", 3599.9964),
        # semicolons everywhere, as some tools write: the same
        ("01;00;00;00", "29.97", 3599.9964),
        # 59.94 drop-frame drops 4 labels: 00:01:00;04 is frame 60 * 60 + 4 - 4 = 3600, * 1001 / 60000 = 60.06 s
        ("00:01:00;04", "59.94", 60.06),
        # 23.976 (24000/1001): 00:00:10:12 is frame 252, 252 * 1001 / 24000 = 10.5105 s
        ("00:00:10:12", "23.976", 10.5105),
        # 30 fps: 00:00:01:15 = 1.5 s
        ("00:00:01:15", "30", 1.5),
    ],
)
def test_timecodes_at_each_rate(tmp_path, timecode, fps, seconds):
    (tmp_path / "s.csv").write_text(f"in,out\n{timecode},99:00:00:00\n", encoding="utf-8")
    corpus = read_segments(tmp_path / "s.csv", columns=f"start=in,end=out,fps={fps}")
    assert corpus.start.tolist() == [seconds]


@pytest.mark.parametrize(
    "cell, fps, message",
    [
        ("10:00:05:25", "25", "frame 25: at 25 fps the frames go from 00 to 24"),
        ("10:00:60:00", "25", "minutes or seconds over 59"),
        ("00:01:00;00", "29.97", "drop-frame timecode that does not exist"),
        ("00:01:00;05", "25", "drop-frame is for 29.97 and 59.94 fps"),
        ("10:00:05:12", None, "is a SMPTE timecode (HH:MM:SS:FF): give its frame rate"),
    ],
)
def test_bad_timecodes_name_file_line_and_value(tmp_path, capsys, cell, fps, message):
    sheet = tmp_path / "s.csv"
    sheet.write_text(f"in,out\n00:00:00:00,00:00:01:00\n{cell},99:00:00:00\n", encoding="utf-8")
    columns = "start=in,end=out" + (f",fps={fps}" if fps else "")
    if fps is None:  # the first row already holds a timecode
        sheet.write_text(f"in,out\n{cell},99:00:00:00\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_segments(sheet, columns=columns)
    assert message in error.value.message
    assert (error.value.path, error.value.line, error.value.value) == (str(sheet), 3 if fps else 2, cell)
    assert main(["validate", "--columns", columns, str(sheet)]) == 2
    err = capsys.readouterr().err
    assert f"{sheet}:{3 if fps else 2}: " in err and repr(cell) in err


def test_a_bad_frame_rate_is_a_usage_error():
    with pytest.raises(UsageError, match="fps=abc is not a frame rate"):
        read_segments(__file__, format="csv", columns="start=a,fps=abc")


def test_validate_columns_on_a_sheet_alone(tmp_path, capsys):
    (tmp_path / "sheet.csv").write_text(SHEET, encoding="utf-8")
    assert main(["validate", str(tmp_path / "sheet.csv")]) == 2  # no mapping: not a table of tvseg's columns
    assert "unknown CSV table" in capsys.readouterr().err
    assert main(["validate", "--columns", COLUMNS, str(tmp_path / "sheet.csv")]) == 0
    out = capsys.readouterr().out
    assert out == f"{tmp_path / 'sheet.csv'}: ok: CSV through --columns, 2 show(s), 3 segment(s)\n"
    # a folder: its sheets read through the mapping, then the folder as evaluate reads it
    assert main(["validate", "--columns", COLUMNS, str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"{tmp_path}: ok: folder, through --columns, 2 show(s), 3 segment(s)"
    # a side is evaluate's: validate PATH takes one map
    assert main(["validate", "--columns", f"reference:{COLUMNS}", str(tmp_path / "sheet.csv")]) == 2
    assert "one --columns MAP, without a side" in capsys.readouterr().err


def test_validate_columns_reads_units_when_the_map_names_text(tmp_path, capsys):
    (tmp_path / "u.csv").write_text("in,out,words\n00:00:00:00,00:00:02:00,hello\n00:00:02:00,00:00:03:05,world\n")
    assert main(["validate", "--columns", "start=in,end=out,text=words,fps=25", str(tmp_path / "u.csv")]) == 0
    assert capsys.readouterr().out.endswith("ok: CSV through --columns, 1 show(s), 2 unit(s) (as --units)\n")


def test_json_records_with_a_show_id_of_two_fields(tmp_path):
    records = [
        {"programme": "JT 13h", "day": "2024-03-11", "start": "10:00:00:00", "end": "10:00:05:12"},
        {"programme": "JT 13h", "day": "2024-03-12", "start": "10:00:00:00", "end": 36001.5},
    ]
    (tmp_path / "r.json").write_text(json.dumps(records), encoding="utf-8")
    corpus = read_segments(tmp_path / "r.json", columns="show=programme+day,start=start,end=end,fps=25")
    # 10:00:05:12 at 25 fps = 36005.48 s; a JSON number is seconds
    assert list(corpus.names) == ["JT 13h 2024-03-11", "JT 13h 2024-03-12"]
    assert list(zip(corpus.start.tolist(), corpus.end.tolist())) == [(36000.0, 36005.48), (36000.0, 36001.5)]
    records[1].pop("day")
    (tmp_path / "r.json").write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(InputError, match="no field 'day' for show="):
        read_segments(tmp_path / "r.json", columns="show=programme+day,start=start,end=end,fps=25")
