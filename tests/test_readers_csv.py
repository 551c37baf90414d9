"""CSV readers: segments tables, breath-group tables (units, and segments from topics), metadata."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reader_helpers import segments, write

from tvseg import read_metadata, read_segments, read_units
from tvseg.cli import main
from tvseg.errors import InputError
from tvseg.readers import NO_LABEL, tables


@pytest.fixture(autouse=True, params=["without pandas", "pandas"])
def reading(request, monkeypatch):
    """Read every table of the test as a small one is read, without pandas (when it can be), or with pandas."""
    if request.param == "pandas":
        monkeypatch.setattr(tables, "SMALL", 0)
    return request.param


def test_segments_csv(tmp_path):
    text = 'show,start,end,label\ns1,12.5,30,Weather\ns1,0,12.5,Headlines\ns2,1.25,2.5,\n\ns2,3,4,"Budget, taxes"\n'
    result = read_segments(write(tmp_path, "seg.csv", text))
    assert segments(result["s1"]) == [(0.0, 12.5, "Headlines"), (12.5, 30.0, "Weather")]
    assert segments(result["s2"]) == [(1.25, 2.5, NO_LABEL), (3.0, 4.0, "Budget, taxes")]


# Breath groups of one show, rows out of order; topics T1 T1 | T2 | T1 again; a gap 9-10.
#   0---3 3---6   6---9   (gap)  10---12
#    T1    T1      T2             T1
# -> segments T1 [0, 6], T2 [6, 9], T1 [10, 12]
BREATH = """show,start,end,text,speaker,topic
s1,3,6,and the rest,Anna,T1
s1,0,3,Good evening,Anna,T1
s1,10,12,Back to the news,Anna,T1
s1,6,9,"Rain, then sun",Bob,T2
"""


def test_breath_groups_as_segments(tmp_path):
    result = read_segments(write(tmp_path, "bg.csv", BREATH))
    assert segments(result["s1"]) == [(0.0, 6.0, "T1"), (6.0, 9.0, "T2"), (10.0, 12.0, "T1")]


def test_breath_groups_as_units(tmp_path):
    frame = read_units(write(tmp_path, "bg.csv", BREATH.replace("\n", "\r\n"), bom=True))["s1"]
    assert frame.to_dict("list") == {
        "start": [0.0, 3.0, 6.0, 10.0],
        "end": [3.0, 6.0, 9.0, 12.0],
        "text": ["Good evening", "and the rest", "Rain, then sun", "Back to the news"],
        "speaker": ["Anna", "Anna", "Bob", "Anna"],
        "topic": ["T1", "T1", "T2", "T1"],
    }


def test_units_without_optional_columns(tmp_path):
    frame = read_units(write(tmp_path, "u.csv", "show,start,end\na,0,1\na,1,2.5\n"))["a"]
    assert frame.to_dict("list") == {"start": [0.0, 1.0], "end": [1.0, 2.5]}


def test_units_without_topic_are_not_segments(tmp_path):
    with pytest.raises(InputError, match="topic"):
        read_segments(write(tmp_path, "u.csv", "show,start,end,text\na,0,1,x\n"))


def test_segments_table_has_no_units(tmp_path):
    with pytest.raises(InputError, match="no transcript units"):
        read_units(write(tmp_path, "s.csv", "show,start,end,label\na,0,1,x\n"))


# a score is a segment's (the confidence of the boundary at its start): a score column without a label
# column is a segments table whose segments have no label, never a units table
SCORED = "show,start,end,score\ns1,0,45,0.2\ns1,45,80,0.3\ns1,80,100,0.6\n"


def test_a_score_column_without_labels_is_segments(tmp_path, capsys):
    hyp = write(tmp_path, "hyp.csv", SCORED)
    result = read_segments(hyp)
    assert segments(result["s1"]) == [(0.0, 45.0, NO_LABEL), (45.0, 80.0, NO_LABEL), (80.0, 100.0, NO_LABEL)]
    assert result.score.tolist() == [0.2, 0.3, 0.6]
    with pytest.raises(InputError, match="a segments table holds no transcript units") as error:
        read_units(hyp)
    assert error.value.line == 1
    assert main(["validate", str(hyp)]) == 0
    assert "ok: CSV, 1 show(s), 3 segment(s)" in capsys.readouterr().out
    # as a --hypothesis against the reference [0, 50] [50, 100], tolerance 10 s: boundaries 45 (score 0.3,
    # 5 s from 50: matched) and 80 (0.6, 30 s away: not). t = 0.6: {80}, none matched: P = R = F = 0;
    # t = 0.3: {45, 80}, 1 matched: P = 1/2, R = 1, F = 2/3. AP = (0 - 0) 0 + (1 - 0) 1/2 = 1/2.
    ref = write(tmp_path, "ref.csv", "show,start,end,label\ns1,0,50,A\ns1,50,100,B\n")
    out = tmp_path / "out.json"
    argv = ["evaluate", "--reference", str(ref), "--hypothesis", f"sys={hyp}", "--json", str(out), "--bootstrap", "0"]
    assert main(argv) == 0, capsys.readouterr().err
    system = json.loads(out.read_text(encoding="utf-8"))["systems"]["sys"]
    assert system["boundary_curve"] == {
        "thresholds": [0.6, 0.3],
        "precision": [0, 0.5],
        "recall": [0, 1],
        "f1": [0, 2 / 3],
    }
    assert system["average_precision"] == 0.5


def test_overlapping_breath_groups(tmp_path):
    text = "show,start,end,topic\na,0,3,T\na,5,6,T\na,2.5,4,T\n"
    with pytest.raises(InputError) as error:
        read_units(write(tmp_path, "o.csv", text))
    assert error.value.line == 4 and "lines 2 and 4" in error.value.message


@pytest.mark.parametrize(
    "row, message, value",
    [
        ("a,1,x,T", "not a number", "x"),
        ("a,1,nan,T", "not a number", "nan"),
        ("a,,2,T", "missing", ""),
        ("a,-1,2,T", "negative", "-1"),
        ("a,3,2,T", "end before start", None),
        ("a,2,2,T", "zero duration", None),
        ("a,1,2,T,extra", "expected 4 fields", None),
        ("a,1,2", "expected 4 fields", None),
        (",1,2,T", "show is missing", None),
    ],
)
def test_bad_row_names_its_real_line(tmp_path, row, message, value):
    # line 1 header, line 2 a row, line 3 blank, line 4 a row whose quoted text spans lines 4-5,
    # line 6 the bad row
    text = 'show,start,end,label\na,10,11,A\n\na,20,21,"two\nlines"\n' + row + "\n"
    path = write(tmp_path, "bad.csv", text)
    with pytest.raises(InputError) as error:
        read_segments(path)
    assert (error.value.path, error.value.line) == (str(path), 6)
    assert message in error.value.message
    if value is not None:
        assert error.value.value == value


@pytest.mark.parametrize(
    "header, message",
    [
        ("show,start,end,lable", "unknown column"),
        ("show,begin,stop,label", "unknown column"),
        ("id,from,to,name", "unknown CSV table"),
        ("show,start,end,label,confidence", "unknown column"),
        ("show,start,label", "missing column"),
        ("show,start,end,label,label", "duplicate column"),
        ("show,start,,label", "empty column name"),
    ],
)
def test_bad_header(tmp_path, header, message):
    with pytest.raises(InputError, match=message) as error:
        row = ",".join("1" for _ in header.split(","))
        read_segments(write(tmp_path, "h.csv", header + "\n" + row + "\n"))
    assert error.value.line == 1


def test_header_only_is_an_error(tmp_path):
    with pytest.raises(InputError, match="no rows"):
        read_segments(write(tmp_path, "h.csv", "show,start,end,label\n"))


def test_unclosed_quote(tmp_path):
    with pytest.raises(InputError):
        read_segments(write(tmp_path, "q.csv", 'show,start,end,label\na,0,1,"open\n'))


def test_metadata(tmp_path):
    text = "show,channel,programme,date\nn1,France 2,20h,2024-03-01\nn2,TF1,13h,\n"
    frame = read_metadata(write(tmp_path, "meta.csv", text))
    assert frame.index.name == "show" and frame.index.tolist() == ["n1", "n2"]
    assert frame.loc["n1"].to_dict() == {"channel": "France 2", "programme": "20h", "date": "2024-03-01"}
    assert frame.loc["n2", "date"] == ""


@pytest.mark.parametrize(
    "row, message",
    [
        ("n2,TF1,13h,01/03/2024", "YYYY-MM-DD"),
        ("n2,TF1,13h,2024-02-30", "YYYY-MM-DD"),
        ("n1,TF1,13h,2024-03-01", "listed twice"),
        (",TF1,13h,2024-03-01", "show is missing"),
    ],
)
def test_bad_metadata(tmp_path, row, message):
    path = write(tmp_path, "meta.csv", "show,channel,programme,date\nn1,F2,20h,2024-03-01\n" + row + "\n")
    with pytest.raises(InputError, match=message) as error:
        read_metadata(path)
    assert error.value.line == 3


def test_metadata_reader_refuses_a_segments_table(tmp_path):
    with pytest.raises(InputError, match="not a metadata table"):
        read_metadata(write(tmp_path, "s.csv", "show,start,end,label\na,0,1,x\n"))


# Random small tables, every line a record, read both ways (Table.columns_of): show names pandas could
# read as numbers, cells with spaces to strip, empty cells; times that follow one another (plain decimals
# written several ways), now and then one that is not plain or not a time.
_TIMES = ["0", ".5", "1.5", "2.25", "3", "4.125", "7.", "10", "10.5", "12", "13.75"]
_CELLS = {
    "show": st.sampled_from(["a", "b", "001", "1", " a", "NaN", "é"] * 3 + [""]),
    "bad time": st.sampled_from(["1e1", "-1", "00:05", "x", "", " 2"]),
    "text": st.sampled_from(["", "one", " two ", "Météo", "1", "null", "\tx"]),
}


@st.composite
def _table(draw):
    header = draw(st.sampled_from(["show,start,end,label", "show,start,end,text,speaker,topic", "show,start,end"]))
    rows = []
    for k in range(draw(st.integers(1, 10))):
        times = [draw(_CELLS["bad time"]) if draw(st.integers(0, 19)) == 0 else t for t in _TIMES[k : k + 2]]
        cells = [draw(_CELLS["show"]), *times] + [draw(_CELLS["text"]) for _ in header.split(",")[3:]]
        rows.append(",".join(cells))
    return header + "\n" + "\n".join(rows) + "\n"


def _outcome(read, path):
    try:
        result = read(path)
    except InputError as error:
        return str(error)
    return {
        show: result[show].to_dict(orient="list") if hasattr(result[show], "to_dict") else segments(result[show])
        for show in result
    }


@pytest.mark.parametrize("reading", ["both"])
@given(text=_table())
def test_small_tables_read_without_pandas_as_with_it(tmp_path_factory, text):
    path = write(tmp_path_factory.mktemp("csv"), "random.csv", text)
    for read in (read_segments, read_units):
        small = _outcome(read, path)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(tables, "SMALL", 0)
            assert _outcome(read, path) == small
