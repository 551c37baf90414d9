"""Chapter lists (``[H:]MM:SS Title`` per line, format "txt"): every accepted variant, every refusal
with ``PATH:LINE: message``, the show's end, and the writer (formats/chapter-list.md)."""

import warnings

import pytest
from pyannote.core import Annotation, Segment, Timeline
from reader_helpers import segments, write

from tvseg import read_segments
from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.readers import NO_LABEL
from tvseg.writers import write_segments

NEWS = [(0, 90, "Headlines"), (90, 245, "Storm"), (245, 900, "Sport")]


def read(path, **options):
    return segments(read_segments(path, format="txt", **options)[path.stem])


@pytest.mark.parametrize(
    "text",
    [
        "0:00 Headlines\n1:30 Storm\n4:05 Sport\n",
        "00:00 Headlines\n01:30 Storm\n04:05 Sport\n",
        "0:00:00 Headlines\n0:01:30 Storm\n0:04:05 Sport\n",
        "0:00 - Headlines\n1:30 – Storm\n4:05 — Sport\n",
        "0:00: Headlines\n1:30:\tStorm\n4:05:  Sport  \n",
        "- 0:00 Headlines\n* 1:30 Storm\n• 4:05 Sport\n",
        "\n  0:00   Headlines\n\n\t1:30 Storm\r\n4:05 Sport",
        "0:00 Headlines\r1:30 Storm\r4:05 Sport\r",
    ],
)
def test_accepted_variants(tmp_path, text):
    assert read(write(tmp_path, "news.txt", text, bom=text.startswith("\n")), end=900) == NEWS


def test_titles_and_times(tmp_path):
    path = write(
        tmp_path, "s.txt", "0:00\n1:00 -\n2:00 - - dash kept\n3:00 12:00 news\n75:30 Late: night | talk\n1:20:00 Hour\n"
    )
    assert read(path, end=10**4) == [
        (0, 60, NO_LABEL),
        (60, 120, NO_LABEL),
        (120, 180, "- dash kept"),
        (180, 4530, "12:00 news"),
        (4530, 4800, "Late: night | talk"),
        (4800, 10**4, "Hour"),
    ]


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("0:00 A\nTonight: the news\n", 2, "not a chapter line"),
        ("0:00 A\n(1:00) B\n", 2, "not a chapter line"),
        ("0:00 A\n1:00.5 B\n", 2, "whole seconds"),
        ("0:00 A\n1:00,5 B\n", 2, "whole seconds"),
        ("0:00 A\n1:0 B\n", 2, "seconds must be two digits"),
        ("0:00 A\n1:60 B\n", 2, "at most 59"),
        ("0:00 A\n1:5:00 B\n", 2, "minutes must be two digits"),
        ("0:00 A\n1:60:00 B\n", 2, "minutes must be two digits, at most 59"),
        ("0:00 A\n1:00:00:00 B\n", 2, "not a [H:]MM:SS"),
        ("0:00 A\n100 B\n", 2, "not a [H:]MM:SS"),
        ("0:00 A\n1:00B\n", 2, "followed by a space"),
        ("0:00 A\n1:00:B\n", 2, "followed by a space"),
        ("0:05 A\n1:00 B\n", 1, "first chapter must start at 0:00"),
        ("0:00 A\n2:00 B\n1:00 C\n", 3, "must increase: line 2"),
        ("0:00 A\n\n1:00 B\n1:00 C\n", 4, "same time (lines 3 and 4)"),
        ("0:00 A\n15:00 B\n", 2, "not after the last chapter's start"),
    ],
)
def test_refusals_name_the_line(tmp_path, text, line, message):
    path = write(tmp_path, "news.txt", text)
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")) as error:
        read(path, end=900)
    assert str(error.value).startswith(f"{path}:{line}: ")


def test_empty_and_undecodable_files_are_refused(tmp_path):
    with pytest.raises(InputError, match="empty file"):
        read(write(tmp_path, "a.txt", " \n\n"), end=9)
    with pytest.raises(InputError, match="iconv"):
        read(write(tmp_path, "b.txt", "0:00 Journal télévisé\n", encoding="cp1252"), end=9)


def test_the_end_comes_from_end_then_the_uem_else_an_error_at_the_last_line(tmp_path):
    path = write(tmp_path, "news.txt", "0:00 Headlines\n1:30 Storm\n\n4:05 Sport\n\n")
    with pytest.raises(InputError) as error:
        read(path)
    assert str(error.value).startswith(f"{path}:4: the end of the last chapter is unknown")
    assert "--uem" in str(error.value) and "show's end" in str(error.value)
    assert read(path, end=900) == NEWS
    assert read(path, end={"news": 900}) == NEWS
    uem = {"news": Timeline([Segment(0, 100), Segment(200, 900)])}
    assert segments(read_segments(path, format="txt", uem={"news": Timeline([Segment(0, 900)])})["news"]) == NEWS
    with pytest.warns(TvsegWarning):  # cropped to the UEM as every format is
        assert read(path, uem=uem)[-1] == (245, 900, "Sport")
    with pytest.warns(TvsegWarning):
        assert read(path, end=950, uem=uem)[-1] == (245, 900, "Sport")  # end= first, then cropped
    with pytest.raises(InputError, match="have no show 'news'.* the UEM has no show 'news'"):
        read(path, end={"other": 900}, uem={"other": Timeline([Segment(0, 9)])})
    with pytest.raises(UsageError):
        read(path, end="soon")
    with pytest.raises(UsageError):
        read_segments(tmp_path, format="txt", end=900)


def test_show_option_and_folders(tmp_path):
    path = write(tmp_path, "news.txt", "0:00 A\n")
    assert list(read_segments(path, format="txt", end=5, show="n1")) == ["n1"]
    write(tmp_path, "b.rttm", "SEGMENT s 1 0 1 <NA> <NA> A <NA> <NA>\n")
    with pytest.warns(TvsegWarning, match="news.txt"):  # .txt never guessed in a folder
        assert list(read_segments(tmp_path)) == ["s"]
    with pytest.warns(TvsegWarning, match="b.rttm"):
        assert list(read_segments(tmp_path, format="txt", end={"news": 5})) == ["news"]
    with pytest.raises(InputError, match="extension"):
        read_segments(path)


def annotation(show, rows):
    result = Annotation(uri=show)
    for track, (start, end, label) in enumerate(rows):
        result[Segment(start, end), track] = label
    return result


def test_writer_text_and_round_trip(tmp_path):
    out = tmp_path / "news.txt"
    rows = [(0, 90, "Headlines"), (90, 245, "- dashed"), (245, 3700, NO_LABEL), (3700, 3800, "Two\nlines")]
    write_segments({"news": annotation("news", rows)}, out)
    assert out.read_text() == "0:00:00 Headlines\n0:01:30 - - dashed\n0:04:05\n1:01:40 Two lines\n"
    back = read(out, end=3800)
    assert back == [(0, 90, "Headlines"), (90, 245, "- dashed"), (245, 3700, NO_LABEL), (3700, 3800, "Two lines")]
    write_segments({"news": annotation("news", NEWS)}, out)
    assert out.read_text() == "0:00 Headlines\n1:30 Storm\n4:05 Sport\n"


def test_writer_rounds_with_a_warning_and_refuses_what_a_chapter_list_cannot_hold(tmp_path):
    out = tmp_path / "news.txt"
    with pytest.warns(TvsegWarning, match="1 chapter start.* rounded .* 90.400 -> 1:30"):
        write_segments({"news": annotation("news", [(0, 90.4, "A"), (90.4, 100, "B")])}, out)
    assert out.read_text() == "0:00 A\n1:30 B\n"
    for rows, message in (
        ([(0, 10, "A"), (11, 20, "B")], "a gap"),
        ([(1, 10, "A")], "starts later"),
        ([(0, 10.2, "A"), (10.2, 10.4, "B"), (10.4, 20, "C")], "same whole second"),
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TvsegWarning)
            with pytest.raises(InputError, match=message):
                write_segments({"news": annotation("news", rows)}, tmp_path / "x.txt")
    with pytest.raises(InputError, match="without segments"):
        write_segments({"news": Annotation(uri="news")}, tmp_path / "y.txt")
    assert not (tmp_path / "x.txt").exists() and not (tmp_path / "y.txt").exists()
    written = write_segments({"a": annotation("a", NEWS), "b": annotation("b", NEWS)}, tmp_path / "lists", format="txt")
    assert sorted(p.name for p in written) == ["a.txt", "b.txt"]
