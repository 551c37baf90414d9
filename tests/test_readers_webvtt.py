"""WebVTT and SRT readers: chapters as segments, captions as units, and the cues webvtt-py would drop."""

import pytest
from reader_helpers import segments, write

from tvseg import read_segments, read_units
from tvseg.errors import InputError
from tvseg.readers import NO_LABEL

# Chapters of one show, cues written out of order, a two-line title, an entity, a tag, a NOTE,
# an identifier, cue settings and an empty cue:
#   0 ---- Headlines ---- 65.5 | gap | 70 -- Storm & floods in the north -- 3723.25 | 3723.25 -- <NA> -- 3725
CHAPTERS = """WEBVTT - chapters

NOTE written by hand

chapter-2
00:01:10.000 --> 01:02:03.250 align:start
Storm &amp; floods
in the north

00:00:00.000 --> 00:01:05.500
<b>Headlines</b>

01:02:03.250 --> 01:02:05.000
"""


def test_vtt_chapters(tmp_path):
    result = read_segments(write(tmp_path, "news_0412.vtt", CHAPTERS))
    assert list(result) == ["news_0412"]
    assert segments(result["news_0412"]) == [
        (0.0, 65.5, "Headlines"),
        (70.0, 3723.25, "Storm & floods in the north"),
        (3723.25, 3725.0, NO_LABEL),
    ]


def test_vtt_crlf_bom_and_show_override(tmp_path):
    path = write(tmp_path, "x.vtt", CHAPTERS.replace("\n", "\r\n"), bom=True)
    result = read_segments(path, show="news_0412")
    assert list(result) == ["news_0412"] and len(result["news_0412"]) == 3


def test_vtt_without_cues_is_an_empty_show(tmp_path):
    result = read_segments(write(tmp_path, "empty_show.vtt", "WEBVTT\n\nNOTE nothing yet\n"))
    assert list(result) == ["empty_show"] and len(result["empty_show"]) == 0


SRT = """1
00:00:00,000 --> 00:00:04,500
Good evening,
and welcome.

2
00:00:04,500 --> 00:00:09,000

3
00:00:10,000 --> 00:00:12,250
Tonight: the budget.
"""


def test_srt_chapters_keep_an_empty_cue(tmp_path):
    # webvtt-py drops cue 2 (empty text); tvseg keeps it as an unlabelled segment
    result = read_segments(write(tmp_path, "show7.srt", SRT))
    assert segments(result["show7"]) == [
        (0.0, 4.5, "Good evening, and welcome."),
        (4.5, 9.0, NO_LABEL),
        (10.0, 12.25, "Tonight: the budget."),
    ]


def test_srt_captions_as_units(tmp_path):
    frame = read_units(write(tmp_path, "show7.srt", SRT))["show7"]
    assert list(frame.columns) == ["start", "end", "text"]
    assert frame["start"].tolist() == [0.0, 4.5, 10.0]
    assert frame["end"].tolist() == [4.5, 9.0, 12.25]
    assert frame["text"].tolist() == ["Good evening, and welcome.", "", "Tonight: the budget."]


def test_vtt_captions_with_voices_as_units(tmp_path):
    text = (
        "WEBVTT\n\n00:00:03.000 --> 00:00:05.000\n<v Anna Smith>Rain tomorrow.\n\n"
        "00:00:00.000 --> 00:00:02.500\n<v.loud Bob>Hello!\n\n"
        "00:00:05.000 --> 00:00:06.000\nMusic\n"
    )
    frame = read_units(write(tmp_path, "cap.vtt", text))["cap"]
    assert frame.to_dict("list") == {
        "start": [0.0, 3.0, 5.0],
        "end": [2.5, 5.0, 6.0],
        "text": ["Hello!", "Rain tomorrow.", "Music"],
        "speaker": ["Bob", "Anna Smith", ""],
    }


def test_overlapping_captions_are_refused_as_chapters(tmp_path):
    # as units they are made not to overlap (tests/test_readers_real_files.py)
    text = "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\na\n\n00:00:04.000 --> 00:00:06.000\nb\n"
    with pytest.raises(InputError) as error:
        read_segments(write(tmp_path, "cap.vtt", text))
    assert error.value.line == 6 and "overlap" in error.value.message


@pytest.mark.parametrize(
    "cue, line",
    [
        ("00:00:10.000 -> 00:00:12.000\nbroken arrow", 6),  # webvtt-py skips this block silently
        ("00:00:10.000 --> 00:00:12\nno milliseconds", 6),  # webvtt-py drops it silently
        ("00:00:10,000 --> 00:00:12,000\ncomma in VTT", 6),
        ("0:0:10.000 --> 00:00:12.0\nshort milliseconds", 6),
        ("00:00:10.000 --> 00:00:12.0009\nextra digit", 6),
        ("00:61:10.000 --> 00:62:12.000\nminute 61", 6),
    ],
)
def test_vtt_broken_cue_is_refused_at_its_line(tmp_path, cue, line):
    text = "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nfirst\n\n" + cue + "\n\n00:00:20.000 --> 00:00:25.000\nlast\n"
    path = write(tmp_path, "bad.vtt", text)
    with pytest.raises(InputError) as error:
        read_segments(path)
    assert error.value.path == str(path)
    assert error.value.line in (line, line + 2)
    assert str(error.value).startswith(f"{path}:{error.value.line}: ")


def test_vtt_cue_without_blank_line_before_it_is_still_read(tmp_path):
    # webvtt-py starts a new cue at a second timing line; nothing is lost, so it is accepted
    text = "WEBVTT\n\n00:00:10.000 --> 00:00:12.000\nfine\n00:00:13.000 --> 00:00:14.000\nnext\n"
    result = read_segments(write(tmp_path, "b.vtt", text))
    assert segments(result["b"]) == [(10.0, 12.0, "fine"), (13.0, 14.0, "next")]


def test_vtt_cue_end_before_start(tmp_path):
    path = write(tmp_path, "b.vtt", "WEBVTT\n\n00:00:12.000 --> 00:00:10.000\nbackwards\n")
    with pytest.raises(InputError, match="end before start") as error:
        read_segments(path)
    assert error.value.line == 3


def test_vtt_without_header(tmp_path):
    with pytest.raises(InputError, match="WEBVTT") as error:
        read_segments(write(tmp_path, "b.vtt", "00:00:00.000 --> 00:00:01.000\nx\n"))
    assert error.value.line == 1


@pytest.mark.parametrize(
    "text, line",
    [
        ("1\n00:00:00,000 --> 00:00:01,000\na\n\n2\n00:00:02,000 -> 00:00:03,000\nb\n", 6),
        ("1\n00:00:00,000 --> 00:00:01,000\na\n\n2\n00:00:02,000\nno arrow\n", 6),
        ("1\n00:00:00,000 --> 00:00:01,000\na\n\n2\nno timing line\n\n3\n00:00:05,000 --> 00:00:06,000\nc\n", 5),
        ("1\n00:00:00,000 --> 00:00:01,000\na\n\n2\n00:00:02,5 --> 00:00:03,000\nshort ms\n", 6),
        ("1\n00:00:00,000 --> 00:00:01,000\na\n\n2\n00:00:02,000 --> 00:00:xx,000\nbad\n", 6),
    ],
)
def test_srt_broken_cue_is_refused_at_its_line(tmp_path, text, line):
    with pytest.raises(InputError) as error:
        read_segments(write(tmp_path, "bad.srt", text))
    assert error.value.line == line


def test_srt_that_is_not_srt(tmp_path):
    with pytest.raises(InputError, match="not an SRT file"):
        read_segments(write(tmp_path, "b.srt", "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nx\n"))


def test_empty_vtt_file(tmp_path):
    with pytest.raises(InputError, match="empty file"):
        read_segments(write(tmp_path, "e.vtt", "\n\n"))


def test_show_option_only_for_a_single_caption_file(tmp_path):
    from tvseg.errors import UsageError

    write(tmp_path, "a.vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nx\n")
    write(tmp_path, "b.vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\ny\n")
    with pytest.raises(UsageError):
        read_segments(tmp_path, show="s")
    rttm = write(tmp_path, "c.rttm", "SEGMENT s 1 0 1 <NA> <NA> A <NA> <NA>\n")
    with pytest.raises(UsageError):
        read_segments(rttm, show="other")
    # a folder of chapters: one show per file, named by the stem
    result = read_segments(tmp_path, format="vtt")
    assert {show: segments(a) for show, a in result.items()} == {"a": [(0.0, 1.0, "x")], "b": [(0.0, 1.0, "y")]}
