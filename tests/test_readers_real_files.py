"""Issue 11, readers: every valid file people have is read, every broken one refused, nothing changed silently.

Each case writes its file here and checks the outcome: an InputError ``PATH:LINE: message: 'value'``,
a correct read, or a visible TvsegWarning naming the file (and line).
"""

import warnings

import pytest
from reader_helpers import segments, write

from tvseg import read_segments, read_uem, read_units
from tvseg.cli import main
from tvseg.errors import InputError, LenientInputWarning, TvsegWarning
from tvseg.readers import NO_LABEL

SRT = (
    "1\n00:00:00,000 --> 00:00:05,000\nHeadlines\n\n"
    "2\n00:00:05,000 --> 00:00:10,000\nFlooding in the Rhone valley\n\n"
    "3\n00:00:10,000 --> 00:00:15,000\nWeather\n"
)
SRT_SEGMENTS = [(0.0, 5.0, "Headlines"), (5.0, 10.0, "Flooding in the Rhone valley"), (10.0, 15.0, "Weather")]
VTT = SRT.replace(",", ".").replace("1\n00", "00").replace("2\n00", "00").replace("3\n00", "00")
VTT = "WEBVTT\n\n" + VTT


def refused(path, *, line, message, reader=read_segments, **options):
    """Read ``path``, expect an InputError at ``line`` whose message holds ``message``; return it."""
    with pytest.raises(InputError) as caught:
        reader(path, **options)
    error = caught.value
    assert isinstance(error, ValueError)
    assert (error.path, error.line) == (str(path), line), str(error)
    assert message in error.message, str(error)
    assert str(error).startswith(f"{path}:{line}: {error.message}")
    return error


def read_warning(reader, path, **options):
    """Read ``path`` under Python's default warning filter; return (result, messages of TvsegWarnings)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        result = reader(path, **options)
    assert all(issubclass(w.category, TvsegWarning) for w in caught), [str(w.message) for w in caught]
    return result, [str(w.message) for w in caught]


@pytest.mark.parametrize("name", ["news.srt", "news.vtt"])
def test_the_fixtures_read(tmp_path, name):
    assert VTT.startswith("WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nHeadlines\n\n00:00:05.000")
    assert segments(read_segments(write(tmp_path, name, SRT if name.endswith("srt") else VTT))["news"]) == SRT_SEGMENTS


# --- silent wrong results, now refused or read right ---------------------------------------------


def test_srt_cue_without_its_timing_line_is_refused(tmp_path):
    # was read as one segment "Headlines 2 Flooding in the Rhone valley", with validate saying ok
    path = write(tmp_path, "news.srt", SRT.replace("2\n00:00:05,000 --> 00:00:10,000\n", "2\n"))
    refused(path, line=5, message="cue number without its timing line")
    # as units only the times matter: the number and its text are read into cue 1, with a warning
    # (tests/test_real_captions.py), as webvtt-py reads them
    units, messages = read_warning(read_units, path)
    assert units["news"]["text"].tolist() == ["Headlines 2 Flooding in the Rhone valley", "Weather"]
    assert messages == [
        f"{path}:5: 1 cue number(s) without their timing line: read as text of the cue before, as webvtt-py "
        "reads them (first: '2')"
    ]
    # validate FILE reads a caption file as --units does, naming the line that makes it invalid as segments
    assert main(["validate", str(path)]) == 0


def test_vtt_cue_without_its_timing_line_is_refused(tmp_path):
    path = write(tmp_path, "news.vtt", VTT.replace("00:00:05.000 --> 00:00:10.000\n", ""))
    refused(path, line=6, message="neither a cue nor NOTE")


@pytest.mark.parametrize("tail", ["\n4\n", "\n4", "\n4\n\n\n", "\n  4 \n"])
def test_srt_ending_in_a_bare_cue_number_is_refused(tmp_path, tail):
    # a truncated file: the number used to be appended to the last title ("Weather 4")
    path = write(tmp_path, "news.srt", SRT + tail)
    refused(path, line=13, message="cue number at the end of the file")


def test_srt_number_as_the_text_of_the_last_cue_is_text(tmp_path):
    path = write(tmp_path, "news.srt", SRT + "\n4\n00:00:15,000 --> 00:00:20,000\n2024\n")
    assert segments(read_segments(path)["news"])[-1] == (15.0, 20.0, "2024")


def test_srt_cues_without_blank_lines_between_them(tmp_path):
    path = write(tmp_path, "news.srt", SRT.replace("\n\n", "\n"))
    assert segments(read_segments(path)["news"]) == SRT_SEGMENTS


def test_vtt_text_with_a_bare_less_than_is_refused_with_the_escape_to_use(tmp_path):
    # a WebVTT player reads "< 3 euros and >" as a tag and shows "Prices  2 in Paris"
    path = write(tmp_path, "p.vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nPrices < 3 euros and > 2 in Paris\n")
    error = refused(path, line=4, message="write '<' as '&lt;'")
    assert error.value == "Prices < 3 euros and > 2 in Paris"
    refused(write(tmp_path, "q.vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nx < y\n"), line=4, message="&lt;")


def test_vtt_escaped_text_reads_as_written(tmp_path):
    path = write(
        tmp_path,
        "p.vtt",
        "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\n"
        "Prices &lt; 3 euros and &gt; 2 in Paris\n\n"
        "00:00:05.000 --> 00:00:06.000\nAT&T &amp; M&amp;S > 2\n",
    )
    assert [label for *_, label in segments(read_segments(path)["p"])] == [
        "Prices < 3 euros and > 2 in Paris",
        "AT&T & M&S > 2",
    ]


@pytest.mark.parametrize(
    "text", ["Prices < 3 euros and > 2 in Paris", "x < y and z > w", "a <b", "1 < 2", "Tom &amp; Jerry", "Rock & roll"]
)
def test_srt_text_without_known_tags_is_kept_verbatim(tmp_path, text):
    path = write(tmp_path, "p.srt", f"1\n00:00:00,000 --> 00:00:05,000\n{text}\n")
    assert segments(read_segments(path)["p"]) == [(0.0, 5.0, text)]
    assert read_units(path)["p"]["text"].tolist() == [text]


def test_vtt_markup_that_the_format_defines_is_removed(tmp_path):
    text = (
        "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\n<v Anne Martin>Good <i>evening</i>, "
        "<b>welcome</b> <u>to</u> <c.yellow.bg_blue>the</c> news</v>\n\n"
        "00:00:05.000 --> 00:00:09.000\n<lang fr>Bonjour</lang> <00:00:06.000>à <ruby>tous<rt>all</rt></ruby>"
        " &lt;3 &eacute;t&#233;\n"
    )
    frame = read_units(write(tmp_path, "m.vtt", text))["m"]
    assert frame["text"].tolist() == ["Good evening, welcome to the news", "Bonjour à tousall <3 été"]
    assert frame["speaker"].tolist() == ["Anne Martin", ""]


def test_srt_markup_that_players_know_is_removed(tmp_path):
    text = (
        '1\n00:00:00,000 --> 00:00:05,000\n{\\an8}<font color="#ffff00">Good</font> <I>evening</I>,\n'
        "<b>welcome</b> <u>back</u>\n\n2\n00:00:05,000 --> 00:00:06,000\n<v Paul>Rain</v>\n"
    )
    frame = read_units(write(tmp_path, "m.srt", text))["m"]
    assert frame["text"].tolist() == ["Good evening, welcome back", "Rain"]
    assert frame["speaker"].tolist() == ["", "Paul"]


@pytest.mark.parametrize("space", ["\u00a0", "\u3000", "\u0085", "\u2028", "\u2009", "\x0b"])
def test_rttm_splits_fields_on_spaces_and_tabs_only(tmp_path, space):
    # str.split() used to cut the title at a no-break space (and any Unicode space)
    path = write(tmp_path, "r.rttm", f"SEGMENT s 1 0.0\t10.0 <NA> <NA> Storm{space}in{space}Brittany <NA> <NA>\n")
    assert segments(read_segments(path)["s"]) == [(0.0, 10.0, f"Storm{space}in{space}Brittany")]


def test_uem_splits_fields_on_spaces_and_tabs_only(tmp_path):
    path = write(tmp_path, "r.uem", "show\u00a0one 1 0 10\nshow\ttwo\t0 5\n")
    assert sorted(read_uem(path)) == ["show", "show\u00a0one"]


@pytest.mark.parametrize(
    "line, message",
    [
        ("SEGMENT s 1 1e308 1e308 <NA> <NA> T <NA> <NA>", "too large"),
        ("SEGMENT s 1 1.5e9 1e9 <NA> <NA> T <NA> <NA>", "end (TBEG + TDUR) is too large"),
        ("SEGMENT s 1 0 1.7976931348623157e308 <NA> <NA> T <NA> <NA>", "too large"),
        ("SEGMENT s 1 1e999 1 <NA> <NA> T <NA> <NA>", "not finite"),
        ("SEGMENT s 1 2e10 1 <NA> <NA> T <NA> <NA>", "too large"),
    ],
)
def test_rttm_times_must_be_seconds_of_a_show(tmp_path, line, message):
    path = write(tmp_path, "r.rttm", "SEGMENT s 1 0 5 <NA> <NA> A <NA> <NA>\n" + line + "\n")
    refused(path, line=2, message=message)
    assert main(["validate", str(path)]) == 2
    assert main(["convert", str(path), str(tmp_path / "out.csv")]) == 2


def test_the_time_bound_is_inclusive_and_beyond_unix_timestamps(tmp_path):
    # tvseg's time range is [0, 2e9] s (tvseg.exact.MAX_SECONDS): an end of exactly 2e9 is in it
    path = write(
        tmp_path,
        "r.rttm",
        "SEGMENT s 1 1700000000.250 2.5 <NA> <NA> A <NA> <NA>\nSEGMENT s 1 1999999990 10 <NA> <NA> B <NA> <NA>\n",
    )
    assert segments(read_segments(path)["s"]) == [(1700000000.25, 1700000002.75, "A"), (1999999990.0, 2e9, "B")]


@pytest.mark.parametrize(
    "name, text, line",
    [
        ("big.csv", "show,start,end,label\ns,0,1e308,A\n", 2),
        ("big.csv", "show,start,end,label\ns,0,1,A\ns,1,10000000000.001,B\n", 3),
        ("big.csv", "show;start;end;label\ns;0;1;A\ns;1;3000000:00:00;B\n", 3),
        ("big.uem", "s 1 0 1e300\n", 1),
        ("big.vtt", "WEBVTT\n\n00:00:00.000 --> 99999999999:00:00.000\nA\n", 3),
        ("big.srt", "1\n00:00:00,000 --> 99999999999:00:00,000\nA\n", 2),
    ],
)
def test_absurd_times_are_refused_in_every_format(tmp_path, name, text, line):
    path = write(tmp_path, name, text)
    refused(path, line=line, message="too large", reader=read_uem if name.endswith("uem") else read_segments)


# --- valid files that were refused ---------------------------------------------------------------


@pytest.mark.parametrize(
    "encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be", "utf-8-sig"]
)
@pytest.mark.parametrize("name", ["news.srt", "news.vtt", "news.csv", "news.rttm"])
def test_utf16_and_utf32_with_a_byte_order_mark(tmp_path, encoding, name):
    text = {
        "news.srt": SRT,
        "news.vtt": VTT,
        "news.csv": "show,start,end,label\n" + "".join(f"news,{a},{b},{t}\n" for a, b, t in SRT_SEGMENTS),
        "news.rttm": "".join(
            f"SEGMENT news 1 {a} {b - a} <NA> <NA> {t.replace(' ', '_')} <NA> <NA>\n" for a, b, t in SRT_SEGMENTS
        ),
    }[name] + "Météo à 20h\n" * name.endswith("srt")
    bom = {"utf-16": "", "utf-32": "", "utf-8-sig": ""}.get(encoding, "\ufeff")  # the codecs without -le/-be write one
    path = write(tmp_path, name, (bom + text).replace("\n", "\r\n"), encoding=encoding)
    got = segments(read_segments(path)["news"])
    expected = [(a, b, t.replace(" ", "_") if name.endswith("rttm") else t) for a, b, t in SRT_SEGMENTS]
    if name.endswith("srt"):
        expected[-1] = (10.0, 15.0, "Weather Météo à 20h")
    assert got == expected


def test_utf16_with_a_bad_byte_names_its_line(tmp_path):
    path = tmp_path / "bad.srt"
    path.write_bytes("1\n00:00:00,000 --> 00:00:05,000\n".encode("utf-16") + b"\x00\xd8A\x00")
    refused(path, line=3, message="not UTF-16 text although it starts with a UTF-16 byte order mark")


@pytest.mark.parametrize(
    "encoding, looks_like, iconv",
    [
        ("cp1252", "not UTF-8 (byte 0xE9); give its encoding with --encoding NAME", "iconv -f NAME -t UTF-8"),
        ("latin-1", "not UTF-8 (byte 0xE9); give its encoding with --encoding NAME", "iconv -f NAME -t UTF-8"),
        ("utf-16-le", "looks like UTF-16LE without a byte order mark", "iconv -f UTF-16LE -t UTF-8"),
        ("utf-16-be", "looks like UTF-16BE without a byte order mark", "iconv -f UTF-16BE -t UTF-8"),
    ],
)
def test_other_encodings_are_refused_naming_only_a_certain_one_and_the_command(tmp_path, encoding, looks_like, iconv):
    # issue 22: an undeclared encoding is not guessed (GB2312 and cp1251 bytes were called Windows-1252);
    # UTF-16 without a byte order mark (mostly NULs) is certain and still named
    text = SRT.replace("Weather", "Météo – “Sud”" if encoding == "cp1252" else "Météo")
    path = write(tmp_path, "news.srt", text, encoding=encoding)
    with pytest.raises(InputError) as caught:
        read_segments(path)
    error = caught.value
    assert error.path == str(path) and looks_like in error.message and iconv in error.message
    assert f"{path} > {path}.tmp && mv {path}.tmp {path}" in error.message  # the name, so the show id, kept
    if encoding in ("cp1252", "latin-1"):
        assert error.line == 11 and str(error).startswith(f"{path}:11: not UTF-8 (byte 0xE9)")
        assert "1252" not in error.message and "Latin" not in error.message
    else:
        assert f"--encoding {encoding}" in error.message


def test_a_file_mixing_utf8_and_windows_1252(tmp_path):
    path = tmp_path / "mixed.srt"
    path.write_bytes(
        SRT.replace("Headlines", "Météo").encode("utf-8")
        + "\n4\n00:00:15,000 --> 00:00:20,000\nCafé\n".encode("cp1252")
    )
    error = refused(path, line=15, message="not UTF-8 (byte 0xE9), although the text before it is")
    assert "mixing two encodings" in error.message and "--encoding NAME" in error.message


def test_utf16_without_bom_that_decodes_as_utf8(tmp_path):
    path = write(tmp_path, "news.rttm", "SEGMENT s 1 0 5 <NA> <NA> A <NA> <NA>\n", encoding="utf-16-le")
    refused(path, line=1, message="UTF-16 without a byte order mark")


def test_srt_display_coordinates_are_ignored(tmp_path):
    text = SRT.replace("00:00:05,000\nHeadlines", "00:00:05,000 X1:100 X2:200 Y1:10 Y2:20\nHeadlines").replace(
        "00:00:10,000\nFlooding", "00:00:10,000  x1:-5 x2:600 y1:0 y2:40 \nFlooding"
    )
    assert segments(read_segments(write(tmp_path, "news.srt", text))["news"]) == SRT_SEGMENTS


def test_srt_other_text_after_the_timing_is_refused(tmp_path):
    path = write(tmp_path, "news.srt", SRT.replace("00:00:05,000\nHeadlines", "00:00:05,000 X1:100\nHeadlines"))
    refused(path, line=2, message="malformed cue timing line")


def test_srt_without_cue_numbers(tmp_path):
    text = "\n".join(line for line in SRT.split("\n") if not line.isdigit())
    assert text.startswith("00:00:00,000 --> 00:00:05,000\nHeadlines\n\n00:00:05,000")
    assert segments(read_segments(write(tmp_path, "news.srt", text))["news"]) == SRT_SEGMENTS


def test_vtt_timestamps_without_padding_are_read_with_a_warning(tmp_path):
    text = VTT.replace("00:00:05.000 --> 00:00:10.000", "0:0:5.000 --> 0:00:10.000").replace(
        "00:00:10.000 --> 00:00:15.000", "00:10.000 --> 0:15.000"
    )
    path = write(tmp_path, "meeting.vtt", text)
    result, messages = read_warning(read_segments, path)
    assert segments(result["meeting"]) == SRT_SEGMENTS
    # one-digit hours are WebVTT (0:00:10.000), and hours may be left out (00:10.000)
    assert messages == [
        f"{path}:6: 2 cue time(s) written without leading zeros, read as if padded (first: '0:0:5.000 --> 0:00:10.000')"
    ]


def test_overlapping_caption_cues_as_units_end_where_the_next_begins(tmp_path):
    # roll-up captions: each line stays on screen while the next one appears
    text = (
        "WEBVTT\n\n00:00:00.000 --> 00:00:04.000\n<v Anne>Good evening\n\n"
        "00:00:02.000 --> 00:00:06.000\n<v Anne>and welcome\n\n"
        "00:00:04.000 --> 00:00:08.000\n<v Anne>to the news\n\n"
        "00:00:09.000 --> 00:00:10.000\n<v Paul>Thanks\n\n"
        "00:00:09.000 --> 00:00:11.000\n<v Anne>Rain\n"
    )
    path = write(tmp_path, "rollup.vtt", text)
    result, messages = read_warning(read_units, path)
    assert result["rollup"].to_dict("list") == {
        "start": [0.0, 2.0, 4.0, 9.0],
        "end": [2.0, 4.0, 8.0, 11.0],
        "text": ["Good evening", "and welcome", "to the news", "Thanks Rain"],
        "speaker": ["Anne", "Anne", "Anne", "Paul / Anne"],
    }
    assert messages == [
        f"{path}:3: 2 caption cue(s) overlap the next one and now end where it begins and "
        "1 cue(s) start with an earlier one and are joined to it (units may not overlap); "
        "first such cue here"
    ]
    # as chapters, overlapping cues are still an error
    refused(path, line=6, message="overlap")


def test_overlapping_srt_cues_as_units(tmp_path):
    text = SRT.replace("00:00:00,000 --> 00:00:05,000", "00:00:00,000 --> 00:00:07,500")
    path = write(tmp_path, "news.srt", text)
    result, messages = read_warning(read_units, path)
    assert list(zip(result["news"]["start"], result["news"]["end"])) == [(0.0, 5.0), (5.0, 10.0), (10.0, 15.0)]
    assert len(messages) == 1 and messages[0].startswith(f"{path}:2: 1 caption cue(s) overlap")


@pytest.mark.parametrize(
    "text",
    [
        "show;start;end;label\nnews;0;5;Headlines\nnews;5;10;Flooding in the Rhone valley\nnews;10;15;Weather\n",
        "show;start;end;label\nnews;00:00:00.000;00:00:05.000;Headlines\n"
        "news;00:00:05,000;0:00:10;Flooding in the Rhone valley\nnews;00:10;00:15,0;Weather\n",
        'show;start;end;label\nnews;0,0;5,00;Headlines\nnews;5;10;Flooding in the Rhone valley\nnews;10;15;"Weather"\n',
        "show,start,end,label\nnews,00:00,00:05.000,Headlines\nnews,0:00:05,0:00:10,Flooding in the Rhone valley\n"
        "news,10,0:15,Weather\n",
    ],
)
def test_csv_from_spreadsheets(tmp_path, text):
    assert segments(read_segments(write(tmp_path, "sheet.csv", text))["news"]) == SRT_SEGMENTS


def test_csv_clock_times_are_exact(tmp_path):
    text = "show;start;end\na;01:00:07,220;01:00:07.221\na;75:30;75:30.5\n"
    frame = read_units(write(tmp_path, "u.csv", text))["a"]
    assert frame["start"].tolist() == [3607.22, 4530.0] and frame["end"].tolist() == [3607.221, 4530.5]


@pytest.mark.parametrize(
    "cell, message",
    [
        ("7,22", "expected 4 fields"),  # a decimal comma needs a ;-separated file
        ('"7,22"', "not a number"),
        ("00:61", "minutes or seconds over 59"),
        ("1:60:00", "minutes or seconds over 59"),
        ("1:5:00", "unpadded minutes"),
        ("0:0:7", "not a number"),
        ("12h30", "not a number"),
    ],
)
def test_csv_times_that_stay_refused(tmp_path, cell, message):
    path = write(tmp_path, "s.csv", f"show,start,end,label\na,0,1,A\na,{cell},9000,B\n")
    refused(path, line=3, message=message)


def test_semicolon_csv_refuses_a_thousands_separator(tmp_path):
    path = write(tmp_path, "s.csv", "show;start;end;label\na;0;1.234,5;A\n")
    refused(path, line=2, message="end is not a number")


# --- warnings are never hidden ---------------------------------------------------------------------


def test_the_same_warning_twice_is_shown_twice(tmp_path):
    path = write(tmp_path, "meeting.vtt", "WEBVTT\n\n0:0:1.000 --> 0:0:2.000\nhi\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(3):
            read_units(path)
    assert [w.category for w in caught] == [LenientInputWarning] * 3  # a TvsegWarning: a repaired input
    assert all(str(w.message).startswith(f"{path}:3: ") for w in caught)
    assert caught[0].filename == __file__  # attributed to the caller, as warnings.warn does


def test_uem_warnings_name_the_segments_file(tmp_path):
    segments_path = write(
        tmp_path,
        "seg.rttm",
        "SEGMENT a 1 0 5 <NA> <NA> A <NA> <NA>\n"
        "SEGMENT a 1 20 5 <NA> <NA> B <NA> <NA>\n"
        "SEGMENT b 1 0 5 <NA> <NA> C <NA> <NA>\n",
    )
    uem = read_uem(write(tmp_path, "a.uem", "a 1 0 10\n"))
    result, messages = read_warning(read_segments, segments_path, uem=uem)
    assert segments(result["a"]) == [(0.0, 5.0, "A")]
    assert sorted(messages) == sorted(
        [
            f"{segments_path}:2: show 'a': segment 20.000-25.000 (B) is outside the UEM and is left out",
            f"{segments_path}:3: show 'b' is not in the UEM: its segments are kept uncropped",
            # one summary per file: [20, 25] left out, 5 s outside the regions, in show a
            f"{segments_path}: UEM applied: 0 segment(s) shortened, 0 spanning a UEM gap (kept whole; their parts "
            "in the gap are not evaluated), 1 left out (wholly outside), 5.000 s outside the regions, in 1 show(s)",
        ]
    )


def test_uem_cropping_is_reported_per_file_and_side(tmp_path):
    # show a: [0, 30) [30, 60) [60, 90); UEM a: [5, 40) [50, 80).
    #   [0, 30)  -> [5, 30): shortened, 5 s removed
    #   [30, 60) spans the gap [40, 50): kept whole, its 10 s in the gap not evaluated
    #   [60, 90) -> [60, 80): shortened, 10 s removed
    # 2 shortened, 1 spanning a gap, 0 left out, 25 s outside the regions, in 1 show; the side is named.
    path = write(tmp_path, "sys.rttm", "".join(f"SEGMENT a 1 {a} 30 <NA> <NA> T{a} <NA> <NA>\n" for a in (0, 30, 60)))
    uem = read_uem(write(tmp_path, "a.uem", "a 1 5 40\na 1 50 80\n"))
    result, messages = read_warning(read_segments, path, uem=uem, side="system_a")
    assert segments(result["a"]) == [(5.0, 30.0, "T0"), (30.0, 60.0, "T30"), (60.0, 80.0, "T60")]
    assert messages == [
        f"{path}: system_a: UEM applied: 2 segment(s) shortened, 1 spanning a UEM gap (kept whole; their parts "
        "in the gap are not evaluated), 0 left out (wholly outside), 25.000 s outside the regions, in 1 show(s)"
    ]


def test_a_folder_names_what_it_does_not_read(tmp_path):
    # a .uem and a metadata CSV beside the chapters, and a sub-folder: each named, the chapters read
    write(tmp_path, "s1.rttm", "SEGMENT s1 1 0 5 <NA> <NA> A <NA> <NA>\n")
    write(tmp_path, "corpus.uem", "s1 1 0 5\n")
    metadata = write(tmp_path, "metadata.csv", "show,channel\ns1,fr2\n")
    (tmp_path / "old").mkdir()
    result, messages = read_warning(read_segments, tmp_path)
    assert list(result) == ["s1"]
    assert any(m.startswith(f"{tmp_path}: not read") and "corpus.uem" in m and "old/" in m for m in messages)
    assert (
        f"{metadata}: a metadata table beside the segmentations: not read as segments (give it with "
        "--metadata)" in messages
    )


def test_empty_srt_cue_and_no_label(tmp_path):
    path = write(tmp_path, "e.srt", "1\n00:00:00,000 --> 00:00:01,000\n\n2\n00:00:01,000 --> 00:00:02,000\nB\n")
    assert segments(read_segments(path)["e"]) == [(0.0, 1.0, NO_LABEL), (1.0, 2.0, "B")]
