"""The long tail of subtitle formats: SBV (read by tvseg), SubStation Alpha, MicroDVD, MPL2, TMP and SAMI (read
through pysubs2, whose own reading of each hand-written file gives the expected times), and the hints that
name the format of a ``.txt`` subtitle file.
"""

from __future__ import annotations

import sys

import pytest

from tvseg.cli import main
from tvseg.errors import InputError, MissingExtraError
from tvseg.readers import read_segments, read_units

SBV = """0:00:00.599,0:00:04.160
>> ALICE: Hi, my name is Alice

0:00:04.160,0:00:06.770
>> BOB: and we are
the owners.

1:02:03.004,1:02:05.000
Later
"""

ASS = """[Script Info]
ScriptType: v4.00+
PlayResX: 384
PlayResY: 288

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.50,0:00:04.00,Default,,0,0,0,,{\\i1}Hello{\\i0}\\Nthere
Comment: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,a note, not a cue
Dialogue: 0,0:00:04.25,0:00:07.99,Default,,0,0,0,,Second line
"""


def as_ssa(ass):
    """The SubStation Alpha v4 file (``.ssa``) of a v4+ one (``.ass``) with ASS's styles: its style and event
    fields as v4 names them; each line stays where it is."""
    ssa = ass.replace("ScriptType: v4.00+", "ScriptType: v4.00").replace("[V4+ Styles]", "[V4 Styles]")
    ssa = (
        ssa.replace(
            "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, "
            "Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, "
            "MarginR, MarginV, Encoding\nStyle: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,"
            "100,0,0,1,2,2,2,10,10,10,1",
            "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, "
            "BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding\n"
            "Style: Default,Arial,20,16777215,255,0,0,0,0,1,2,2,2,10,10,10,0,1",
        )
        .replace("Format: Layer,", "Format: Marked,")
        .replace("Dialogue: 0,", "Dialogue: Marked=0,")
    )
    return ssa.replace("Comment: 0,", "Comment: Marked=0,")


SSA = as_ssa(ASS)

MICRODVD = "{1}{1}25\n{25}{100}Hello|world\n{110}{150}{y:i}Bye\n"
MPL2 = "[10][25]Hello\n[30][52]/Bye|there\n"
TMP = "00:00:01:Hello\n00:00:04:Bye there\n"
SAMI = """<SAMI>
<HEAD><TITLE>t</TITLE>
<STYLE TYPE="text/css"><!--
P { font-family: Arial; }
.ENCC { Name: English; lang: en-US; }
--></STYLE>
</HEAD>
<BODY>
<SYNC Start=1000><P Class=ENCC>Hello
<SYNC Start=3000><P Class=ENCC>&nbsp;
<SYNC Start=4000><P Class=ENCC>Bye there
<SYNC Start=6500><P Class=ENCC>&nbsp;
</BODY>
</SAMI>
"""


def spans(corpus):
    return list(zip(corpus.start.tolist(), corpus.end.tolist(), corpus.label.tolist(), corpus.line.tolist()))


def test_sbv_by_hand(tmp_path):
    (tmp_path / "talk.sbv").write_text(SBV, encoding="utf-8")
    # 0:00:00.599 = 0.599 s; 1:02:03.004 = 3600 + 120 + 3.004 = 3723.004 s; a cue's text lines joined by a space
    assert spans(read_segments(tmp_path / "talk.sbv")) == [
        (0.599, 4.16, ">> ALICE: Hi, my name is Alice", 1),
        (4.16, 6.77, ">> BOB: and we are the owners.", 4),
        (3723.004, 3725.0, "Later", 8),
    ]
    units = read_units(tmp_path / "talk.sbv")
    assert units["talk"]["start"].tolist() == [0.599, 4.16, 3723.004]


@pytest.mark.parametrize(
    "text, line, value",
    [
        ("0:00:00.599,0:00:04.16\nHi\n", 1, "0:00:00.599,0:00:04.16"),  # two-digit milliseconds
        ("0:00:00.599,0:00:04.160\nHi\nthere\n\n\nnot a timing\n", 6, "not a timing"),
        ("0:00:00.599,0:61:04.160\nHi\n", 1, "0:00:00.599,0:61:04.160"),
    ],
)
def test_bad_sbv_names_file_line_value(tmp_path, capsys, text, line, value):
    path = tmp_path / "bad.sbv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="not an SBV timing line") as error:
        read_segments(path)
    assert (error.value.path, error.value.line, error.value.value) == (str(path), line, value)
    assert main(["validate", str(path)]) == 2
    assert f"{path}:{line}: not an SBV timing line" in capsys.readouterr().err


@pytest.mark.parametrize(
    "name, text, format",
    [
        ("a.ass", ASS, "ass"),
        ("a.ssa", SSA, "ssa"),
        ("a.sub", MICRODVD, "microdvd"),
        ("a.txt", MPL2, "mpl2"),
        ("b.txt", TMP, "tmp"),
        ("a.smi", SAMI, "sami"),
    ],
)
def test_each_pysubs2_format_has_pysubs2s_timings(tmp_path, name, text, format):
    pysubs2 = pytest.importorskip("pysubs2", reason="the subtitles extra is not installed")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    events = pysubs2.load(str(path), format_=format).events
    theirs = [(e.start / 1000, e.end / 1000) for e in events if not e.is_comment and e.plaintext.strip()]
    if format == "sami":
        # pysubs2 estimates a SAMI end from the text's length (Hello: 1000 + 500 + 5 * 67 = 1835 ms, Bye there:
        # 4000 + 500 + 9 * 67 = 5103 ms); a sync shows until the next one (the &nbsp; at 3000, at 6500): tvseg's
        # ends, pysubs2's starts
        assert theirs == [(1.0, 1.835), (4.0, 5.103)]
        theirs = [(1.0, 3.0), (4.0, 6.5)]
    assert len(theirs) == 2  # each file holds two cues (a comment and SAMI's blank syncs are none)
    given = None if name.endswith(".txt") else format  # a .txt file is read only when named
    ours = read_segments(path, format=None if given else format)
    assert list(zip(ours.start.tolist(), ours.end.tolist())) == theirs
    units = read_units(path, format=None if given else format)
    assert list(zip(units[path.stem]["start"].tolist(), units[path.stem]["end"].tolist())) == theirs


def test_pysubs2_cues_by_hand(tmp_path):
    pytest.importorskip("pysubs2", reason="the subtitles extra is not installed")
    (tmp_path / "a.ass").write_text(ASS, encoding="utf-8")
    (tmp_path / "a.sub").write_text(MICRODVD, encoding="utf-8")
    (tmp_path / "a.txt").write_text(MPL2, encoding="utf-8")
    # SubStation: 0:00:01.50 is 1.5 s (centiseconds), override tags dropped, \N a space; the Dialogue lines 12 and 14 (the Comment between)
    assert spans(read_segments(tmp_path / "a.ass")) == [(1.5, 4.0, "Hello there", 12), (4.25, 7.99, "Second line", 14)]
    # MicroDVD at the 25 fps of its first line: frames 25-100 = 1-4 s, 110-150 = 4.4-6 s; '|' a new line
    assert spans(read_segments(tmp_path / "a.sub")) == [(1.0, 4.0, "Hello world", 2), (4.4, 6.0, "Bye", 3)]
    # MPL2 counts tenths of a second: [10][25] = 1-2.5 s, [30][52] = 3-5.2 s; '/' italics dropped
    assert spans(read_segments(tmp_path / "a.txt", format="mpl2")) == [
        (1.0, 2.5, "Hello", 1),
        (3.0, 5.2, "Bye there", 2),
    ]


def test_hints_for_txt_subtitles_lead_somewhere(tmp_path, capsys):
    pytest.importorskip("pysubs2", reason="the subtitles extra is not installed")
    for name, text, format in (
        ("mpl2.txt", MPL2, "mpl2"),
        ("tmp.txt", TMP, "tmp"),
        ("sbv.txt", SBV, "sbv"),
        ("microdvd.txt", MICRODVD, "microdvd"),
        ("script.cap", ASS, "ass"),  # an extension that names no format
        ("captions.cap", SAMI, "sami"),
    ):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        with pytest.raises(InputError, match="cannot tell the format") as error:
            read_segments(path)
        assert error.value.message.endswith(f"subtitles: format '{format}')"), error.value.message
        assert len(read_segments(path, format=format).start) == (3 if format == "sbv" else 2)  # the hint works
    # a chapter list keeps its hint
    (tmp_path / "chapters.txt").write_text("0:00 Intro\n1:00 Next\n", encoding="utf-8")
    with pytest.raises(InputError, match="a chapter list: format 'txt'"):
        read_segments(tmp_path / "chapters.txt")


def test_microdvd_without_a_frame_rate_is_refused(tmp_path):
    pytest.importorskip("pysubs2", reason="the subtitles extra is not installed")
    path = tmp_path / "a.sub"
    path.write_text("{25}{100}Hello\n", encoding="utf-8")
    with pytest.raises(InputError, match="declare its frame rate") as error:
        read_segments(path)
    assert (error.value.line, error.value.value) == (1, "{25}{100}Hello")


def test_a_file_pysubs2_refuses_names_the_file(tmp_path, capsys):
    pytest.importorskip("pysubs2", reason="the subtitles extra is not installed")
    path = tmp_path / "a.ass"
    path.write_text("no script info here\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}: ")


def test_missing_subtitles_extra_is_a_plain_message(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pysubs2", None)  # import pysubs2 now raises ImportError
    (tmp_path / "a.ass").write_text(ASS, encoding="utf-8")
    with pytest.raises(MissingExtraError, match=r"pip install 'tvseg\[subtitles\]'"):
        read_segments(tmp_path / "a.ass")
    assert main(["validate", str(tmp_path / "a.ass")]) == 2
    assert "pip install 'tvseg[subtitles]'" in capsys.readouterr().err
    (tmp_path / "a.sbv").write_text(SBV, encoding="utf-8")  # SBV needs no library
    assert len(read_segments(tmp_path / "a.sbv").start) == 3


def test_a_folder_reads_microdvd_sub_files_and_leaves_vobsub_ones_out(tmp_path):
    # a VobSub .sub is an MPEG program stream (pack start code 00 00 01 BA), the bitmaps its .idx indexes:
    # a folder's VobSub files are left out with the warning of the files not read, its MicroDVD files read
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "a.sub").write_text(MICRODVD, encoding="utf-8")
    (folder / "b.sub").write_bytes(b"\x00\x00\x01\xba" + bytes(60))
    with pytest.warns(UserWarning, match=r"not read .*b\.sub"):
        segments = read_segments(folder)
    assert list(segments) == ["a"]


# Hand-written files whose event lines are not their lines: headers, comments, blank lines and lines pysubs2
# reads as no event come before the bad cue. The line each error names is counted by hand (1-based).
ASS_LATE = """[Script Info]
; written by hand: the events start at line 20
; a Dialogue: in [Script Info] (line 9) and in [Fonts] (line 17) is no event
Title: late events
ScriptType: v4.00+
PlayResX: 384
PlayResY: 288
WrapStyle: 0
Dialogue: a key of [Script Info], not an event

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1

[Fonts]
fontname: a.ttf
Dialogue: a line of the attached font


[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:04.00,Default,,0,0,0,,Fine
Comment: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,a note, not a cue

Dialogue: 0,0:00:05.00,0:00:04.00,Default,,0,0,0,,Ends before it starts
"""
# line 1 the frame rate, 3 a comment, 5 frames without text (no subtitle for pysubs2), 7 the bad cue: 200 and
# 150 frames at 25 fps are 8 s and 6 s
MICRODVD_LATE = "{1}{1}25\n\n# a comment\n{25}{100}Fine\n{150}{175}\n\n{200}{150}Ends before it starts\n"
# line 3 is indented (pysubs2 reads an MPL2 line only from its first character); [90][50] is 9 s to 5 s
MPL2_LATE = "[10][25]Fine\n\n   [30][40]indented: no subtitle\n[90][50]Ends before it starts\n"
# TMP holds no ends: pysubs2 ends a subtitle at the next one's start at the latest, so the 9 s one of line 5 ends
# at the 5 s of line 6; line 4 (``=``) is no TMP line for pysubs2
TMP_LATE = "00:00:01:Fine\n\n# 00:00:02: a comment\n00:00:03=no subtitle\n00:00:09:Late\n00:00:05:Early\n"
# a sync shows until the next one: the 9 s sync of line 7 ends at the 5 s one of line 8; line 4's sync is in an
# HTML comment
SAMI_LATE = """<SAMI>
<HEAD><TITLE>late syncs</TITLE></HEAD>
<BODY>
<!-- <SYNC Start=2000> a sync in a comment -->

<SYNC Start=1000><P>Fine
<SYNC Start=9000><P>Late
<SYNC Start=5000><P>Early
</BODY>
</SAMI>
"""


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize(
    "name, text, format, line, value",
    [
        ("late.ass", ASS_LATE, "ass", 25, "5 -> 4"),
        ("late.ssa", as_ssa(ASS_LATE), "ssa", 25, "5 -> 4"),
        ("late.sub", MICRODVD_LATE, "microdvd", 7, "8 -> 6"),
        ("late.txt", MPL2_LATE, "mpl2", 4, "9 -> 5"),
        ("late.txt", TMP_LATE, "tmp", 5, "9 -> 5"),
        ("late.smi", SAMI_LATE, "sami", 7, "9 -> 5"),
    ],
)
def test_an_error_about_a_cue_names_its_line_in_the_file(tmp_path, capsys, newline, name, text, format, line, value):
    pytest.importorskip("pysubs2", reason="the subtitles extra is not installed")
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode())
    with pytest.raises(InputError, match="caption with end before start") as error:
        read_units(path, format=format)
    assert (error.value.path, error.value.line, error.value.value) == (str(path), line, value)
    with pytest.raises(InputError, match="segment with end before start") as error:
        read_segments(path, format=format)
    assert (error.value.path, error.value.line, error.value.value) == (str(path), line, value)
    assert main(["validate", "--format", format, str(path)]) == 2
    assert f"{path}:{line}: caption with end before start: '{value}'" in capsys.readouterr().err


def test_each_cue_names_the_line_of_its_event(tmp_path):
    pysubs2 = pytest.importorskip("pysubs2", reason="the subtitles extra is not installed")
    fine = {
        "late.ass": (ASS_LATE.replace("0:00:05.00,0:00:04.00", "0:00:05.00,0:00:06.00"), [22, 25]),
        "late.sub": (MICRODVD_LATE.replace("{200}{150}", "{200}{250}"), [4, 7]),
        "late.txt": (MPL2_LATE.replace("[90][50]", "[90][95]"), [1, 4]),
        "late.smi": (SAMI_LATE.replace("Start=5000", "Start=9500"), [6, 7, 8]),
    }
    for name, (text, lines) in fine.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        format = "mpl2" if name.endswith(".txt") else None
        events = pysubs2.load(str(path), format_=format or pysubs2.formats.get_format_identifier(path.suffix))
        assert len([e for e in events if not e.is_comment]) == len(lines)  # the files hold these many cues
        assert read_segments(path, format=format).line.tolist() == lines, name


def test_an_event_pysubs2_refuses_is_named_with_its_line(tmp_path, capsys):
    pytest.importorskip("pysubs2", reason="the subtitles extra is not installed")
    # SubStation: the time '0:00:0x.00' of line 25 does not read
    bad_time = "Dialogue: 0,0:00:0x.00,0:00:06.00,Default,,0,0,0,,Ends before it starts"
    path = tmp_path / "bad.ass"
    path.write_text(
        ASS_LATE.replace("Dialogue: 0,0:00:05.00,0:00:04.00,Default,,0,0,0,,Ends before it starts", bad_time)
    )
    assert main(["validate", str(path)]) == 2
    assert f"{path}:25: not a SubStation Alpha file as pysubs2 reads it" in capsys.readouterr().err
    with pytest.raises(InputError) as error:
        read_segments(path)
    assert (error.value.line, error.value.value) == (25, bad_time)
    # SAMI: the sync of line 7 has a Start that is no integer
    path = tmp_path / "bad.smi"
    path.write_text(SAMI_LATE.replace("Start=9000", "Start=9s"))
    with pytest.raises(InputError, match="not a SAMI file as pysubs2 reads it") as error:
        read_segments(path)
    assert (error.value.line, error.value.value) == (7, "<SYNC Start=9s>")
    # MicroDVD: the first line of frames, line 3 after a blank line and a comment, declares no frame rate
    path = tmp_path / "bad.sub"
    path.write_text("\n# a comment\n{25}{100}Hello\n")
    with pytest.raises(InputError, match="declare its frame rate") as error:
        read_segments(path)
    assert (error.value.line, error.value.value) == (3, "{25}{100}Hello")


def test_a_style_pysubs2_refuses_is_no_event(tmp_path):
    pytest.importorskip("pysubs2", reason="the subtitles extra is not installed")
    # the style's font size 'big' (line 13) fails before the bad time of line 25: the error is the style's,
    # and names no event's line
    text = ASS_LATE.replace("Style: Default,Arial,20,", "Style: Default,Arial,big,").replace(
        "0:00:05.00,0:00:04.00", "0:00:0x.00,0:00:04.00"
    )
    path = tmp_path / "bad.ass"
    path.write_text(text)
    with pytest.raises(InputError, match=r"not a SubStation Alpha file as pysubs2 reads it \(.*'big'") as error:
        read_segments(path)
    assert (error.value.line, error.value.value) == (None, None)


def test_a_pysubs2_that_reads_other_events_is_named(tmp_path, monkeypatch):
    pytest.importorskip("pysubs2", reason="the subtitles extra is not installed")
    from tvseg.errors import TvsegWarning
    from tvseg.readers import subtitles

    # as if pysubs2 read its events by rules other than those tvseg scans by: no line found for its 2 events
    monkeypatch.setattr(subtitles, "event_lines", lambda text, format: [])
    path = tmp_path / "a.ass"
    path.write_text(ASS, encoding="utf-8")
    with pytest.warns(TvsegWarning, match=r"reads 3 event\(s\) where tvseg finds 0"):
        cues = subtitles.read_subtitles(path, format="ass")
    assert [cue.line for cue in cues] == [1, 1]  # the Dialogue lines 12 and 14 (3 events with the Comment)
