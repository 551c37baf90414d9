"""RTTM reader: hand-written files with the expected segments written out, and pyannote.database's loader.

Every test runs on both ways of reading (:data:`tvseg.readers.rttm.SMALL`): line by line, as a small
file is read, and with pandas' C parser, as a large one is; the last test reads random files both ways.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyannote.core import Segment, Timeline
from pyannote.database.util import load_rttm
from reader_helpers import segments, write

from tvseg import read_segments, read_units
from tvseg.errors import InputError, TvsegWarning
from tvseg.readers import NO_LABEL
from tvseg.readers import rttm as rttm_reader


@pytest.fixture(autouse=True, params=["line by line", "pandas"])
def reading(request, monkeypatch):
    """Read every file of the test line by line (the default for small files), or with pandas."""
    if request.param == "pandas":
        monkeypatch.setattr(rttm_reader, "SMALL", 0)
    return request.param


# Two shows, unsorted lines, a comment, a blank line, <NA> name, 9- and 10-field lines,
# SPKR-INFO (times <NA>) and an IP (an instant) that are not segments.
#
#   news1  |--Intro (0-12.5)--|--Weather (12.5-30)--|   gap   |--<NA> (40-41.25)--|
#   news2  |--Sport (3-8)--|
RTTM = """;; reference topics
SEGMENT news1 1 12.5 17.5 <NA> <NA> Weather <NA> <NA>
SEGMENT news1 1 0 12.5 <NA> <NA> Intro <NA>

SPKR-INFO news1 1 <NA> <NA> <NA> adult_female Anna <NA> <NA>
IP news1 1 20.0 <NA> <NA> <NA> <NA> <NA> <NA>
SEGMENT news1 1 40.000 1.25 <NA> <NA> <NA> <NA> <NA>
SEGMENT news2 A 3 5 <NA> <NA> Sport 0.9 <NA>
"""


def test_segments_of_two_shows_sorted_with_na_label(tmp_path):
    result = read_segments(write(tmp_path, "ref.rttm", RTTM))
    assert sorted(result) == ["news1", "news2"]
    assert result["news1"].uri == "news1"
    assert segments(result["news1"]) == [(0.0, 12.5, "Intro"), (12.5, 30.0, "Weather"), (40.0, 41.25, NO_LABEL)]
    assert segments(result["news2"]) == [(3.0, 8.0, "Sport")]


def test_crlf_and_bom(tmp_path):
    path = write(tmp_path, "ref.rttm", RTTM.replace("\n", "\r\n"), bom=True)
    assert segments(read_segments(path)["news2"]) == [(3.0, 8.0, "Sport")]


def test_type_filter(tmp_path):
    text = (
        "SPEAKER s 1 0 2 <NA> <NA> Anna <NA> <NA>\n"
        "SEGMENT s 1 0 10 <NA> <NA> Topic <NA> <NA>\n"
        "LEXEME s 1 0.5 0.3 hello lex Anna 0.9 <NA>\n"
    )
    path = write(tmp_path, "mixed.rttm", text)
    assert segments(read_segments(path, types={"SEGMENT"})["s"]) == [(0.0, 10.0, "Topic")]
    # LEXEME's label is its NAME field (the speaker), as for every type
    assert segments(read_segments(path, types={"LEXEME"})["s"]) == [(0.5, 0.8, "Anna")]
    # by default every span type is kept, and here they overlap: refused, naming both lines
    with pytest.raises(InputError) as error:
        read_segments(path)
    assert "overlap" in str(error.value) and "lines 1 and 2" in str(error.value)


def test_unknown_or_timeless_type_in_filter():
    with pytest.raises(InputError):
        read_segments("unused.rttm", types={"SPKR-INFO"})
    with pytest.raises(InputError):
        read_segments("unused.rttm", types={"TOPIC"})


def test_show_with_only_other_types_is_empty(tmp_path):
    path = write(
        tmp_path, "x.rttm", "SPEAKER a 1 0 2 <NA> <NA> Anna <NA> <NA>\nSEGMENT b 1 0 2 <NA> <NA> T <NA> <NA>\n"
    )
    result = read_segments(path, types={"SEGMENT"})
    assert sorted(result) == ["a", "b"] and len(result["a"]) == 0


@pytest.mark.parametrize(
    "line, message, bad",
    [
        ("SEGMENT s 1 0 10 <NA> <NA> T <NA> <NA> extra", "expected 9 or 10 fields", None),
        ("SEGMENT s 1 0 10 <NA> <NA> T", "expected 9 or 10 fields", None),
        ("TOPIC s 1 0 10 <NA> <NA> T <NA> <NA>", "unknown RTTM line type", "TOPIC"),
        ("SEGMENT s 1 abc 10 <NA> <NA> T <NA> <NA>", "not a number", "abc"),
        ("SEGMENT s 1 nan 10 <NA> <NA> T <NA> <NA>", "not a number", "nan"),
        ("SEGMENT s 1 0 inf <NA> <NA> T <NA> <NA>", "not a number", "inf"),
        ("SEGMENT s 1 1e999 1 <NA> <NA> T <NA> <NA>", "not finite", "1e999"),
        ("SEGMENT s 1 -1 10 <NA> <NA> T <NA> <NA>", "negative", "-1"),
        ("SEGMENT s 1 5 0 <NA> <NA> T <NA> <NA>", "zero", "0"),
        ("SEGMENT s 1 5 -2 <NA> <NA> T <NA> <NA>", "negative", "-2"),
        ("SEGMENT s 1 <NA> 2 <NA> <NA> T <NA> <NA>", "not a number", "<NA>"),
        ("SEGMENT s 1 1_0 2 <NA> <NA> T <NA> <NA>", "not a number", "1_0"),
    ],
)
def test_bad_line_names_file_line_and_value(tmp_path, line, message, bad):
    path = write(tmp_path, "bad.rttm", ";; header\nSEGMENT s 1 20 1 <NA> <NA> ok <NA> <NA>\n" + line + "\n")
    with pytest.raises(InputError) as error:
        read_segments(path)
    assert error.value.path == str(path) and error.value.line == 3
    assert message in error.value.message
    assert str(error.value).startswith(f"{path}:3: ")
    if bad is not None:
        assert error.value.value == bad


def test_overlap_names_both_lines(tmp_path):
    # |----A (0-10)----|
    #            |--B (8-12)--|     B starts before A ends: refused
    path = write(tmp_path, "o.rttm", "SEGMENT s 1 8 4 <NA> <NA> B <NA> <NA>\nSEGMENT s 1 0 10 <NA> <NA> A <NA> <NA>\n")
    with pytest.raises(InputError) as error:
        read_segments(path)
    assert error.value.line == 2 and "lines 1 and 2" in error.value.message


def test_touching_segments_summed_in_decimal(tmp_path):
    # 0.029 + 0.001 is 0.030000000000000002 in floats, which would overlap the next segment
    path = write(
        tmp_path,
        "t.rttm",
        "SEGMENT s 1 0.029 0.001 <NA> <NA> A <NA> <NA>\nSEGMENT s 1 0.030 0.001 <NA> <NA> B <NA> <NA>\n",
    )
    assert segments(read_segments(path)["s"]) == [(0.029, 0.03, "A"), (0.03, 0.031, "B")]


def test_touching_segments_and_gaps_are_kept(tmp_path):
    path = write(
        tmp_path,
        "t.rttm",
        "SEGMENT s 1 0 10 <NA> <NA> A <NA> <NA>\n"
        "SEGMENT s 1 10 5 <NA> <NA> B <NA> <NA>\n"
        "SEGMENT s 1 100 5 <NA> <NA> C <NA> <NA>\n",
    )
    assert segments(read_segments(path)["s"]) == [(0, 10, "A"), (10, 15, "B"), (100, 105, "C")]


@pytest.mark.parametrize("text", ["", "\n\n  \n", ";; only a comment\n"])
def test_empty_file_is_an_error(tmp_path, text):
    with pytest.raises(InputError) as error:
        read_segments(write(tmp_path, "e.rttm", text))
    assert error.value.line == 1


def test_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin1.rttm"
    path.write_bytes(b"SEGMENT s 1 0 1 <NA> <NA> A <NA> <NA>\nSEGMENT s 1 2 1 <NA> <NA> M\xe9t\xe9o <NA> <NA>\n")
    with pytest.raises(InputError) as error:
        read_segments(path)
    assert error.value.line == 2 and "UTF-8" in error.value.message


def test_uem_crops_and_warns_for_a_segment_wholly_outside(tmp_path):
    # UEM:        [5 ........ 20]         [30 .... 50]
    # segments: A [0-10]   B [10-25]  C [25-28]  D [28-60]
    # A -> 5-10; B -> 10-20; C is outside (warning); D -> 30-50
    path = write(
        tmp_path,
        "u.rttm",
        "SEGMENT s 1 0 10 <NA> <NA> A <NA> <NA>\n"
        "SEGMENT s 1 10 15 <NA> <NA> B <NA> <NA>\n"
        "SEGMENT s 1 25 3 <NA> <NA> C <NA> <NA>\n"
        "SEGMENT s 1 28 32 <NA> <NA> D <NA> <NA>\n",
    )
    uem = {"s": Timeline([Segment(5, 20), Segment(30, 50)])}
    with pytest.warns(TvsegWarning, match="25.000-28.000"):
        result = read_segments(path, uem=uem)
    assert segments(result["s"]) == [(5, 10, "A"), (10, 20, "B"), (30, 50, "D")]


def test_uem_keeps_a_segment_across_two_regions_whole(tmp_path):
    # UEM [0-10] [20-30]; segment A [5-25] spans the gap: it stays one segment A [5-25] (its part in
    # the gap is not evaluated), and B [25-35] is cut to [25-30] (what lies after the last region is outside)
    path = write(
        tmp_path, "u.rttm", "SEGMENT s 1 5 20 <NA> <NA> A <NA> <NA>\nSEGMENT s 1 25 10 <NA> <NA> B <NA> <NA>\n"
    )
    result = read_segments(path, uem={"s": Timeline([Segment(0, 10), Segment(20, 30)])})
    assert segments(result["s"]) == [(5, 25, "A"), (25, 30, "B")]


def test_show_missing_from_uem_is_kept_with_a_warning(tmp_path):
    path = write(tmp_path, "u.rttm", "SEGMENT s 1 5 20 <NA> <NA> A <NA> <NA>\n")
    with pytest.warns(TvsegWarning, match="'s' is not in the UEM"):
        result = read_segments(path, uem={"other": Timeline([Segment(0, 10)])})
    assert segments(result["s"]) == [(5, 25, "A")]


def test_folder_reads_every_file_and_refuses_a_show_in_two_files(tmp_path):
    write(tmp_path, "a.rttm", "SEGMENT s1 1 0 1 <NA> <NA> A <NA> <NA>\n")
    write(tmp_path, "b.rttm", "SEGMENT s2 1 0 2 <NA> <NA> B <NA> <NA>\n")
    write(tmp_path, "notes.txt", "not read: .txt is not guessed\n")
    result = read_segments(tmp_path)
    assert {k: segments(v) for k, v in result.items()} == {"s1": [(0, 1, "A")], "s2": [(0, 2, "B")]}
    write(tmp_path, "c.rttm", "SPEAKER s9 1 0 1 <NA> <NA> X <NA> <NA>\nSEGMENT s1 1 5 1 <NA> <NA> C <NA> <NA>\n")
    with pytest.raises(InputError) as error:
        read_segments(tmp_path)
    # s1's segment is on line 2 of c.rttm (read second: files are read in name order) and line 1 of a.rttm
    assert str(error.value).startswith(f"{tmp_path / 'c.rttm'}:2: show already read from {tmp_path / 'a.rttm'}:1")
    assert error.value.value == "s1"


def test_units_of_a_show_in_two_files_are_refused_at_their_lines(tmp_path):
    write(tmp_path, "a.csv", "show,start,end\nn2,0,1\nn1,0,1\nn1,1,2\n")
    write(tmp_path, "b.vtt", "WEBVTT\n\n00:00.000 --> 00:01.000\nbonjour\n")
    (tmp_path / "b.vtt").rename(tmp_path / "n1.vtt")  # a VTT file's show is its stem
    with pytest.raises(InputError) as error:
        read_units(tmp_path)
    # a.csv: header line 1, n1's first row on line 3; n1.vtt: its first cue timing on line 3
    assert str(error.value).startswith(f"{tmp_path / 'n1.vtt'}:3: show already read from {tmp_path / 'a.csv'}:3")


def test_empty_folder_is_an_error(tmp_path):
    with pytest.raises(InputError, match="no file to read"):
        read_segments(tmp_path)


def test_txt_is_not_guessed_but_format_may_be_given(tmp_path):
    path = write(tmp_path, "ref.txt", "SEGMENT s 1 0 1 <NA> <NA> A <NA> <NA>\n")
    with pytest.raises(InputError, match="extension"):
        read_segments(path)
    assert segments(read_segments(path, format="rttm")["s"]) == [(0, 1, "A")]


@pytest.mark.parametrize("keep", ["SPEAKER", "SEGMENT"])
def test_same_as_pyannote_database_load_rttm(tmp_path, keep):
    # a diarization-like file (no overlap within a type), several shows, 9 and 10 fields
    text = (
        "SPEAKER showA 1 0.000 2.500 <NA> <NA> anna <NA> <NA>\n"
        "SPEAKER showA 1 2.500 1.250 <NA> <NA> bob <NA> <NA>\n"
        "SPEAKER showA 1 10.125 0.875 <NA> <NA> anna <NA> <NA>\n"
        "SEGMENT showA 1 0 3.75 <NA> <NA> Intro <NA> <NA>\n"
        "SEGMENT showA 1 3.75 7.25 <NA> <NA> Weather_report <NA> <NA>\n"
        "SPEAKER showB 1 1.5 3.0 <NA> <NA> carl <NA> <NA>\n"
        "SEGMENT showB 1 0.333 4.667 <NA> <NA> Sport <NA> <NA>\n"
        "SEGMENT showB 1 6 1 <NA> <NA> <NA> <NA> <NA>\n"
        "SPEAKER showB 1 6 1 <NA> <NA> <NA> <NA> <NA>\n"
        "SPEAKER showB 1 5.029 0.001 <NA> <NA> dan <NA> <NA>\n"
        "SEGMENT showB 1 5.029 0.001 <NA> <NA> Brief <NA> <NA>\n"
    )
    path = write(tmp_path, "diar.rttm", text)
    ours = read_segments(path, types={keep})
    theirs = load_rttm(str(path), keep_type=keep)
    assert sorted(ours) == sorted(theirs)
    for show in theirs:
        # pandas reads the name <NA> as NaN in load_rttm; tvseg keeps it as NO_LABEL ("<NA>")
        expected = sorted(
            (s.start, s.end, NO_LABEL if label != label else label)
            for s, _, label in theirs[show].itertracks(yield_label=True)
        )
        # tvseg sums TBEG + TDUR in decimal (5.029 + 0.001 = 5.030), pyannote in binary floats
        # (5.029999999999999...): equal up to float rounding, far below a millisecond
        assert [label for *_, label in segments(ours[show])] == [label for *_, label in expected]
        assert [t for a, b, _ in segments(ours[show]) for t in (a, b)] == pytest.approx(
            [t for a, b, _ in expected for t in (a, b)], abs=1e-9
        )
        assert ours[show].uri == theirs[show].uri


# Lines built from fields that are regular or not for the pandas path: several types, times that are
# plain decimals (most), <NA>, negative, exponents, underscores, too large; 8 to 10 fields; doubled spaces
# and tabs; comments and blank lines; show names and labels that pandas could read as numbers or missing.
_FIELDS = {
    "type": st.sampled_from(["SEGMENT", "SPEAKER", "segment"] * 4 + ["IP", "SPKR-INFO", "NOISE"]),
    "show": st.sampled_from(["a", "b", "001", "1", "news", "NaN", '"q"', "é", "1e3", "#"]),
    "time": st.sampled_from(
        ["0", "1.5", "0.029", "0.001", "12", "40.125", "7"] * 5 + ["<NA>", "-1", "1e3", "1_0", "3.", "9" * 17, "x"]
    ),
    "name": st.sampled_from(["<NA>", "Intro", "1", "01", "Sport", "null", "'s'", "Météo"]),
    "conf": st.sampled_from(["<NA>", "0.5", "1"] * 3 + ["nan", "x"]),
}


@st.composite
def _rttm_text(draw):
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from([";; a comment", "", "  "])))
            continue
        fields = [draw(_FIELDS["type"]), draw(_FIELDS["show"]), "1", draw(_FIELDS["time"]), draw(_FIELDS["time"])]
        fields += ["<NA>", "<NA>", draw(_FIELDS["name"]), draw(_FIELDS["conf"])]
        fields += [[], ["<NA>"], ["<NA>", "<NA>"]][draw(st.sampled_from([0] * 4 + [1] * 5 + [2]))]
        if draw(st.integers(0, 19)) == 0:
            fields = fields[:8]
        lines.append(draw(st.sampled_from([" "] * 4 + ["  ", "\t"])).join(fields))
    return "\n".join(lines) + "\n"


def _read(path, keep):
    """What ``read_segments`` gives (shows, segments and labels), or its error message."""
    try:
        result = read_segments(path, types=keep)
    except InputError as error:
        return str(error)
    return {show: segments(result[show]) for show in result}


@pytest.mark.parametrize("reading", ["both"], indirect=False)
@given(text=_rttm_text(), keep=st.sampled_from([None, {"SPEAKER"}]))
def test_line_by_line_reads_as_pandas_does(tmp_path_factory, text, keep):
    # the two ways of reading a file, one against the other on the same random text
    path = write(tmp_path_factory.mktemp("rttm"), "random.rttm", text)
    small = _read(path, keep)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rttm_reader, "SMALL", 0)
        large = _read(path, keep)
    assert small == large
