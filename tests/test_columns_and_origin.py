"""A broadcast archive's spreadsheet read through --columns, a segmenter's JSON records, per-show time origins.

The reference is the archive's story list: ``;``-separated, French headers, times of day with a decimal
comma, dates as DD/MM/YYYY, in Windows-1252. The hypothesis is the segmenter's JSON ``[{id, programme,
stories: [{start, end, title}]}]`` in relative seconds. With the show's origin 20:00:00 subtracted from
the reference, the two line up:

reference (air time -> relative)           hypothesis
  20:00:00   - 20:02:00     [0, 120]         [0, 125]
  20:02:00   - 20:10:30,5   [120, 630.5]     [125, 850]
  20:10:30,5 - 20:20:00     [630.5, 1200]    [850, 1200]

Coverage (Dice of the best partners, gamma 0.85, strict):
  R1 [0,120] / H1 [0,125]: 2*120 / (120+125) = 240/245 = 0.980 -> correct (both ways).
  R2 [120,630.5] / H2 [125,850]: overlap 505.5, 1011 / (510.5+725) = 0.818 -> not correct.
  R3 [630.5,1200]: overlaps H2 by 219.5, H3 by 350 -> partner H3 [850,1200]: 700 / (569.5+350) = 0.761 -> no.
  H2's partner is R2 (505.5 > 219.5): not correct; H3's is R3: not correct.
  R_N = 1/3, P_N = 1/3, CovN = 1/3.
Boundaries (strictly inside [0, 1200]): reference {120, 630.5}, hypothesis {125, 850}; at 10 s tolerance
  125 matches 120 (5 s), 850 matches nothing: precision 1/2, recall 1/2, F 1/2.
"""

from __future__ import annotations

import json

import pytest

from tvseg.cli import main
from tvseg.errors import InputError
from tvseg.readers import read_segments, read_units

SHEET = (
    "Émission;Date;Heure début;Heure fin;Titre\n"
    "JT20;11/03/2024;20:00:00;20:02:00;Ouverture\n"
    "JT20;11/03/2024;20:02:00;20:10:30,5;Politique étrangère\n"
    "JT20;11/03/2024;20:10:30,5;20:20:00;Météo\n"
)
REF_COLUMNS = "show=Émission,date=Date,date_format=%d/%m/%Y,start=Heure début,end=Heure fin,title=Titre"
HYPOTHESIS = [
    {
        "id": "JT20",
        "programme": "Journal de 20 heures",
        "stories": [
            {"start": 0, "end": 125, "title": "Ouverture"},
            {"start": 125, "end": 850, "title": "Politique"},
            {"start": 850, "end": 1200, "title": "Météo"},
        ],
    }
]
HYP_COLUMNS = "show=id,start=start,end=end,title=title,records=stories"


@pytest.fixture
def broadcast(tmp_path):
    (tmp_path / "stories.csv").write_bytes(SHEET.encode("cp1252"))
    (tmp_path / "segmenter.json").write_text(json.dumps(HYPOTHESIS, ensure_ascii=False), encoding="utf-8")
    return tmp_path


def _evaluate(tmp_path, *options: str) -> tuple[int, dict]:
    out = tmp_path / "scores.json"
    code = main(
        [
            "evaluate",
            "--reference",
            str(tmp_path / "stories.csv"),
            "--hypothesis",
            f"seg={tmp_path / 'segmenter.json'}",
            "--columns",
            f"reference:{REF_COLUMNS}",
            "--columns",
            f"seg:{HYP_COLUMNS}",
            "--bootstrap",
            "0",
            "--json",
            str(out),
            *options,
        ]
    )
    return code, json.loads(out.read_text()) if code == 0 else {}


def _check_scores(data: dict) -> None:
    show = data["systems"]["seg"]["shows"]["JT20"]
    assert show["recall_n"] == pytest.approx(1 / 3)
    assert show["precision_n"] == pytest.approx(1 / 3)
    assert show["cov_n"] == pytest.approx(1 / 3)
    assert show["boundary_precision"] == pytest.approx(1 / 2)
    assert show["boundary_recall"] == pytest.approx(1 / 2)
    assert show["boundary_f1"] == pytest.approx(1 / 2)


def test_spreadsheet_read_through_columns_with_an_origin_for_the_reference(broadcast):
    code, data = _evaluate(broadcast, "--encoding", "cp1252", "--time-origin", "reference=20:00:00")
    assert code == 0
    _check_scores(data)
    assert data["time_origins"] == {"reference": {"JT20": 72000.0}, "hypotheses": {"seg": {}}}


def test_origin_from_a_metadata_column_and_a_relative_side_set_to_zero(broadcast):
    (broadcast / "metadata.csv").write_text("show,channel,time_origin\nJT20,France 2,20:00:00\n", encoding="utf-8")
    options = ("--encoding", "cp1252", "--metadata", str(broadcast / "metadata.csv"), "--time-origin", "seg=0")
    code, data = _evaluate(broadcast, *options)
    assert code == 0
    _check_scores(data)
    assert data["time_origins"]["reference"] == {"JT20": 72000.0}


def test_report_shows_air_time(broadcast):
    html = broadcast / "report"
    code, _ = _evaluate(broadcast, "--encoding", "cp1252", "--time-origin", "reference=20:00:00", "--html", str(html))
    assert code == 0
    page = next((html / "shows").glob("*.html")).read_text(encoding="utf-8")
    # the show's region is [0, 1200] relative: on air from 20:00:00 to 20:20:00
    assert "air time: <b>20:00:00\u201320:20:00</b>" in page


def test_reader_values_times_of_day_decimal_comma_and_titles(broadcast):
    ref = read_segments(
        broadcast / "stories.csv", columns=REF_COLUMNS, encoding="cp1252", time_origin={"JT20": 72000.0}
    )
    spans = [(s.start, s.end, label) for s, _, label in ref["JT20"].itertracks(yield_label=True)]
    assert spans == [(0.0, 120.0, "Ouverture"), (120.0, 630.5, "Politique étrangère"), (630.5, 1200.0, "Météo")]


def test_dates_past_midnight_and_ends_from_next_starts(tmp_path):
    # 23:58:00 less 23:50:00 is 480 s; 00:03:00 the next day is 24 h + 180 s less 23:50:00 = 780 s;
    # without end=, a story ends at the next start and the last one at its duration (120 s): 900 s.
    path = tmp_path / "night.csv"
    path.write_text(
        "prog;jour;debut;duree;titre\n"
        "NUIT;2024-03-11;23:50:00;480;A\n"
        "NUIT;2024-03-11;23:58:00;300;B\n"
        "NUIT;2024-03-12;00:03:00;120;C\n",
        encoding="utf-8",
    )
    columns = "show=prog,date=jour,start=debut,duration=duree,title=titre"
    got = read_segments(path, columns=columns, time_origin=23 * 3600 + 50 * 60)
    assert [(s.start, s.end) for s in got["NUIT"].itersegments()] == [(0.0, 480.0), (480.0, 780.0), (780.0, 900.0)]
    plain = tmp_path / "next.csv"
    plain.write_text("show,t,what\nA,0,x\nA,10,y\nA,25,z\n", encoding="utf-8")
    with pytest.raises(InputError, match="last story of show 'A' has no end") as error:
        read_segments(plain, columns="show=show,start=t,title=what")
    assert error.value.line == 4


def test_units_on_a_timecode_origin(tmp_path):
    # captions on a 10:00:00 timecode: 10:00:05,000 less 10:00:00 is 5 s
    path = tmp_path / "JT20.srt"
    path.write_text("1\n10:00:05,000 --> 10:00:09,500\nBonsoir.\n\n2\n10:00:09,500 --> 10:00:12,000\nTitres.\n")
    units = read_units(path, time_origin=36000.0)
    assert units["JT20"][["start", "end"]].values.tolist() == [[5.0, 9.5], [9.5, 12.0]]


def test_errors_name_file_line_and_value(broadcast, capsys):
    code, _ = _evaluate(broadcast, "--encoding", "cp1252", "--time-origin", "reference=20:05:00")
    err = capsys.readouterr().err
    assert code == 2
    assert "stories.csv:2:" in err and "before the time origin of show 'JT20' (20:05:00)" in err
    assert "Traceback" not in err

    wrong = REF_COLUMNS.replace("Heure fin", "Fin")
    with pytest.raises(InputError, match="no column 'Fin' for end= .the columns are: Émission, Date, Heure début"):
        read_segments(broadcast / "stories.csv", columns=wrong, encoding="cp1252")

    iso_only = REF_COLUMNS.replace(",date_format=%d/%m/%Y", "")
    with pytest.raises(InputError, match="date_format=") as error:
        read_segments(broadcast / "stories.csv", columns=iso_only, encoding="cp1252")
    assert error.value.line == 2 and error.value.value == "11/03/2024"

    (broadcast / "bad.csv").write_text("a;b\nX;20h03\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"start \(b\) is not a number") as error:
        read_segments(broadcast / "bad.csv", columns="show=a,start=b,duration=b")
    assert error.value.line == 2

    (broadcast / "story.json").write_text('{"id": "X", "stories": [{"debut": 1, "fin": 2}]}', encoding="utf-8")
    with pytest.raises(InputError, match="no field 'start' for start= .the fields are: debut, fin, id"):
        read_segments(broadcast / "story.json", columns=HYP_COLUMNS)


def test_one_record_per_json_file(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(HYPOTHESIS[0]), encoding="utf-8")
    got = read_segments(path, columns=HYP_COLUMNS)
    assert [(s.start, s.end) for s in got["JT20"].itersegments()] == [(0.0, 125.0), (125.0, 850.0), (850.0, 1200.0)]


def test_bad_options_are_usage_errors(broadcast, capsys):
    assert _evaluate(broadcast, "--time-origin", "nobody=20:00:00")[0] == 2
    assert "'nobody' is not a side" in capsys.readouterr().err
    assert _evaluate(broadcast, "--time-origin", "20h00")[0] == 2
    assert "clock time HH:MM:SS" in capsys.readouterr().err
