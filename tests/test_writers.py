"""Writers: exact formats, round trips to the millisecond, label policy, atomic writes."""

import os
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment
from reader_helpers import segments

from tvseg import read_segments, write_segments
from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.readers import NO_LABEL
from tvseg.writers import segment_files


def annotation(show, rows):
    result = Annotation(uri=show)
    for track, (start, end, label) in enumerate(rows):
        result[Segment(start, end), track] = label
    return result


SHOWS = {
    "n1": annotation("n1", [(0.0, 12.345, "Intro"), (12.345, 15.555, "Storm_warning"), (3599.999, 3600.5, NO_LABEL)]),
    "n2": annotation("n2", [(0.001, 0.002, "T&<1>")]),
}


def test_rttm_text(tmp_path):
    path = write_segments(SHOWS, tmp_path / "out.rttm")[0]
    # durations from the rounded times: 15.555 - 12.345 = 3.210, 3600.500 - 3599.999 = 0.501
    assert path.read_text() == (
        "SEGMENT n1 1 0.000 12.345 <NA> <NA> Intro <NA> <NA>\n"
        "SEGMENT n1 1 12.345 3.210 <NA> <NA> Storm_warning <NA> <NA>\n"
        "SEGMENT n1 1 3599.999 0.501 <NA> <NA> <NA> <NA> <NA>\n"
        "SEGMENT n2 1 0.001 0.001 <NA> <NA> T&<1> <NA> <NA>\n"
    )


def test_csv_text(tmp_path):
    path = write_segments(SHOWS, tmp_path / "out.csv")[0]
    assert path.read_text() == (
        "show,start,end,label\n"
        "n1,0.000,12.345,Intro\n"
        "n1,12.345,15.555,Storm_warning\n"
        "n1,3599.999,3600.500,\n"
        "n2,0.001,0.002,T&<1>\n"
    )


def test_vtt_folder_text(tmp_path):
    files = write_segments(SHOWS, tmp_path / "chapters")
    assert [f.name for f in files] == ["n1.vtt", "n2.vtt"]
    assert (tmp_path / "chapters" / "n1.vtt").read_text() == (
        "WEBVTT\n\n"
        "00:00:00.000 --> 00:00:12.345\nIntro\n\n"
        "00:00:12.345 --> 00:00:15.555\nStorm_warning\n\n"
        "00:59:59.999 --> 01:00:00.500\n"
    )
    # & and < are escaped in WebVTT cue text
    assert (tmp_path / "chapters" / "n2.vtt").read_text() == (
        "WEBVTT\n\n00:00:00.001 --> 00:00:00.002\nT&amp;&lt;1&gt;\n"
    )


def test_round_trip_rttm_vtt_rttm(tmp_path):
    first = write_segments(SHOWS, tmp_path / "a.rttm")[0]
    write_segments(read_segments(first), tmp_path / "vtt")
    second = write_segments(read_segments(tmp_path / "vtt"), tmp_path / "b.rttm")[0]
    assert second.read_text() == first.read_text()
    again = read_segments(second)
    assert segments(again["n1"]) == [
        (0.0, 12.345, "Intro"),
        (12.345, 15.555, "Storm_warning"),
        (3599.999, 3600.5, NO_LABEL),
    ]
    assert segments(again["n2"]) == [(0.001, 0.002, "T&<1>")]


def test_round_trip_csv_rttm_csv(tmp_path):
    source = tmp_path / "in.csv"
    source.write_text("show,start,end,label\nb,1.5,2.25,x\na,0,0.001,\nb,2.25,7.125,y\n")
    write_segments(read_segments(source), tmp_path / "mid.rttm")
    write_segments(read_segments(tmp_path / "mid.rttm"), tmp_path / "out.csv")
    # read_segments gives the shows in sorted order (issue 13), and the writer keeps it
    assert (tmp_path / "out.csv").read_text() == (
        "show,start,end,label\na,0.000,0.001,\nb,1.500,2.250,x\nb,2.250,7.125,y\n"
    )


def test_whitespace_in_rttm_labels_becomes_underscore_with_a_warning(tmp_path):
    shows = {"s": annotation("s", [(0, 1, "Storm  in the\tnorth")])}
    with pytest.warns(TvsegWarning, match="Storm_in_the_north"):
        path = write_segments(shows, tmp_path / "w.rttm")[0]
    assert path.read_text() == "SEGMENT s 1 0.000 1.000 <NA> <NA> Storm_in_the_north <NA> <NA>\n"


def test_show_id_with_whitespace_cannot_go_to_rttm(tmp_path):
    with pytest.raises(InputError, match="whitespace"):
        write_segments({"a b": annotation("a b", [(0, 1, "x")])}, tmp_path / "w.rttm")
    assert not (tmp_path / "w.rttm").exists()


def test_several_shows_to_one_vtt_file_is_refused(tmp_path):
    with pytest.raises(UsageError, match="folder"):
        write_segments(SHOWS, tmp_path / "one.vtt")
    one = write_segments({"n2": SHOWS["n2"]}, tmp_path / "one.vtt")[0]
    assert segments(read_segments(one, show="n2")["n2"]) == [(0.001, 0.002, "T&<1>")]


def test_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "out.rttm"
    target.write_text("old\n")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(InputError, match="No space left"):
        write_segments(SHOWS, target)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.rttm"]


def test_refused_label_leaves_the_old_file(tmp_path):
    target = tmp_path / "one.vtt"
    target.write_text("old\n")
    with pytest.raises(InputError, match="-->"):
        write_segments({"s": annotation("s", [(0, 1, "a --> b")])}, target)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["one.vtt"]


def test_unknown_output_format(tmp_path):
    with pytest.raises(UsageError):
        write_segments(SHOWS, tmp_path / "out.txt")
    with pytest.raises(UsageError):
        write_segments(SHOWS, tmp_path / "out.rttm", format="sub")


def test_srt_folder_text(tmp_path):
    shows = {"n1": SHOWS["n1"], "n2": annotation("n2", [(0.001, 0.002, "T&<1")])}
    files = write_segments(shows, tmp_path / "chapters", format="srt")
    assert [f.name for f in files] == ["n1.srt", "n2.srt"]
    # SubRip: cue number, timing with a comma before the milliseconds, text, blank line; the empty
    # cue (NO_LABEL) has no text line
    assert (tmp_path / "chapters" / "n1.srt").read_text() == (
        "1\n00:00:00,000 --> 00:00:12,345\nIntro\n\n"
        "2\n00:00:12,345 --> 00:00:15,555\nStorm_warning\n\n"
        "3\n00:59:59,999 --> 01:00:00,500\n"
    )
    # SRT has no escapes: & and a lone < are written as they are
    assert (tmp_path / "chapters" / "n2.srt").read_text() == "1\n00:00:00,001 --> 00:00:00,002\nT&<1\n"


def test_round_trip_srt_with_an_empty_cue_in_the_middle(tmp_path):
    rows = [
        (0.0, 1.5, "Headlines"),
        (1.5, 2.0, NO_LABEL),
        (2.0, 7.25, "Tom & Jerry"),
        (7.25, 9.0, "x<b"),
        (9.0, 10.0, "2024"),
    ]
    srt = write_segments({"s": annotation("s", rows)}, tmp_path / "s.srt")[0]
    assert "2\n00:00:01,500 --> 00:00:02,000\n\n3\n00:00:02,000" in srt.read_text()
    back = read_segments(srt)
    assert segments(back["s"]) == rows
    again = write_segments(back, tmp_path / "t.srt")[0]
    assert again.read_text() == srt.read_text()


def test_round_trip_rttm_srt_rttm(tmp_path):
    first = write_segments(SHOWS | {"n2": annotation("n2", [(0.001, 0.002, "T&<1")])}, tmp_path / "a.rttm")[0]
    write_segments(read_segments(first), tmp_path / "srt", format="srt")
    second = write_segments(read_segments(tmp_path / "srt"), tmp_path / "b.rttm")[0]
    assert second.read_text() == first.read_text()


@pytest.mark.parametrize("label", ["a --> b", "<i>Storm</i>", "a < b > c", "00:01:02,500 replay"])
def test_srt_refuses_labels_a_reader_would_change(tmp_path, label):
    # read back, these would be a broken cue, "Storm", "a  c", and a broken timing line
    target = tmp_path / "chapters"
    shows = {"a": annotation("a", [(0, 1, "fine")]), "b": annotation("b", [(0, 1, label)])}
    with pytest.raises(InputError, match="SRT") as error:
        write_segments(shows, target, format="srt")
    assert error.value.value == label
    assert not target.exists()  # nothing written, not even show "a"


def test_several_shows_to_one_srt_file_is_refused(tmp_path):
    with pytest.raises(UsageError, match="folder"):
        write_segments(SHOWS, tmp_path / "one.srt")
    one = write_segments({"n1": SHOWS["n1"]}, tmp_path / "one.srt")[0]
    assert segments(read_segments(one, show="n1")["n1"]) == segments(SHOWS["n1"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    labels=st.lists(st.text(min_size=0, max_size=20), min_size=1, max_size=4), format=st.sampled_from(["vtt", "srt"])
)
def test_cue_labels_read_back_as_written_or_are_refused(tmp_path, labels, format):
    # The law: a cue file either holds each label as the reader will give it back (whitespace runs,
    # line breaks included, become one space; an empty text is NO_LABEL), or the writer refuses it
    # with an InputError and writes nothing.
    rows = [(float(i), float(i + 1), label or NO_LABEL) for i, label in enumerate(labels)]
    target = tmp_path / f"p.{format}"
    target.unlink(missing_ok=True)
    try:
        write_segments({"p": annotation("p", rows)}, target)
    except InputError:
        assert not target.exists()
        return
    expected = [
        (s, e, " ".join(label.split()) or NO_LABEL) if label != NO_LABEL else (s, e, NO_LABEL) for s, e, label in rows
    ]
    assert segments(read_segments(target)["p"]) == expected


@pytest.mark.parametrize("name", ["out.rttm", "out.csv", "out.vtt", "out.srt", "folder"])
def test_nul_in_a_label_or_show_id_is_refused_and_nothing_written(tmp_path, name):
    # readers refuse a NUL in any text file: a writer must not write one
    with pytest.raises(InputError, match="NUL"):
        write_segments({"s": annotation("s", [(0, 1, "a\x00b")])}, tmp_path / name)
    with pytest.raises(InputError, match="NUL"):
        write_segments({"s\x00": annotation("s", [(0, 1, "a")])}, tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_csv_cells_with_cr_lf_quote_or_comma_are_quoted_and_read_back(tmp_path):
    labels = ["a\rb", "a\nb", "a\r\nb", 'say "hi"', "x, y", "=1+1"]
    shows = {"s": annotation("s", [(i, i + 1, label) for i, label in enumerate(labels)])}
    path = write_segments(shows, tmp_path / "out.csv")[0]
    assert path.read_bytes().startswith(b'show,start,end,label\ns,0.000,1.000,"a\rb"\n')
    assert [label for _, _, label in segments(read_segments(path)["s"])] == labels


def test_folder_of_chapters_is_written_all_or_none(tmp_path, second_write_fails):
    with pytest.raises(InputError, match="No space left"):
        write_segments(SHOWS, tmp_path / "chapters")
    assert list(tmp_path.iterdir()) == []


def test_an_srt_position_code_in_a_label_is_refused(tmp_path):
    # SRT readers (tvseg's among them) remove {\an8} as a position code: the title would change
    from pyannote.core import Annotation, Segment

    from tvseg.errors import InputError
    from tvseg.writers import write_segments

    ann = Annotation(uri="s")
    ann[Segment(0, 5)] = "{\\an8}Top story"
    with pytest.raises(InputError, match="an SRT cue text cannot hold"):
        write_segments({"s": ann}, tmp_path / "s.srt")
    assert not (tmp_path / "s.srt").exists()


def test_the_writers_warnings_name_the_callers_line(tmp_path):
    # A label with a space goes to RTTM as 'two_words', a chapter start of 1.5 s to a chapter list as 00:02; the show id 'a/b' cannot be a file name: each warning
    # names this file, however deep in tvseg it is given (write_segments, or segment_files called directly).
    annotation = Annotation()
    annotation[Segment(0, 5)] = "two words"
    late = Annotation()
    late[Segment(0, 1.5)] = "first"
    late[Segment(1.5, 5)] = "second"  # a chapter list holds whole seconds: 1.5 is rounded, with a warning
    calls = [
        lambda: write_segments({"news": late}, tmp_path / "chapters.txt"),
        lambda: write_segments({"news": annotation}, tmp_path / "out.rttm"),
        lambda: write_segments({"a/b": annotation}, tmp_path / "folder", format="vtt"),
        lambda: segment_files({"a/b": annotation}, tmp_path / "other", format="vtt"),
    ]
    for call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        assert [w.filename for w in caught] == [__file__], [str(w.message) for w in caught]
