"""Issue 22: caption units are read leniently where only the times matter; segments stay strict.

Each file is written here by hand with one feature of a real caption file that tvseg refused whole:
pysrt's ``capability_tester.srt`` (hidden cues of zero duration), webvtt-py's
``non_padded_timestamps.vtt`` (Microsoft Teams' ``0:0:0.0 --> 0:0:3.540``), a pysubs2 user's SRT
with two-digit milliseconds (``00:29:27,46``), and PBS's WebVTT sample (``<LAUGHING & WHOOPS!>`` in
a cue's text). As units (``read_units``, ``--units``) each is read, with one warning per kind of
leniency naming PATH:LINE, the count and what was done; as segments (chapters) each is still refused
at its line. The expected times are written out by hand.
"""

import warnings

import pytest
from reader_helpers import write

from tvseg import read_segments, read_units
from tvseg.cli import main
from tvseg.errors import InputError, TvsegWarning

# pysrt's capability tester hides data in cues of zero duration: one at 0, one where the previous
# cue ends; here also one that starts with a cue (it would be joined to it) and one inside a cue
# (it would cut it short): skipping them must change nothing else.
HIDDEN = (
    "1\n00:00:00,000 --> 00:00:00,000\nDon't show this text, it may hold hidden data\n\n"  # line 2
    "2\n00:00:01,500 --> 00:00:04,500\nSubtitles capability tester\n<b>bold</b>\n\n"  # line 6
    "3\n00:00:04,500 --> 00:00:04,500\nHidden\n\n"  # line 11
    "4\n00:00:04,501 --> 00:00:07,500\nThis text should be small\n\n"  # line 15
    "5\n00:00:04,501 --> 00:00:04,501\nHidden too\n\n"  # line 19
    "6\n00:00:06,000 --> 00:00:06,000\nHidden inside\n"  # line 23
)
HIDDEN_UNITS = {
    "start": [1.5, 4.501],
    "end": [4.5, 7.5],
    "text": ["Subtitles capability tester bold", "This text should be small"],
}

# Microsoft Teams: no leading zeros, and 0:0:0.0 for the start
TEAMS = (
    "WEBVTT\n\n"
    "0:0:0.0 --> 0:0:3.540\n<v Yuri Bakulin>There you go.</v>\n\n"  # line 3
    "0:0:3.540 --> 0:0:7.210\n<v Adrian Petrescu>Why hello there, Yuri.</v>\n"  # line 6
)

# centiseconds (an SRT converted from SubStation Alpha), cues of zero duration at 0 after the others
CENTISECONDS = (
    "392\n00:29:27,46 --> 00:29:29,83\nI'm here at last..\n\n"  # line 2
    "393\n00:29:30,4 --> 00:29:31,05\nReally.\n\n"  # line 6: one digit, and ,05
    "394\n00:00:00,00 --> 00:00:00,00\n\n"  # line 10
    "395\n00:00:00,00 --> 00:00:00,00\n"  # line 13
)

# PBS: a sound description written between < and >, which no WebVTT tag opens
PBS = (
    "WEBVTT\n\n"
    "00:00:10.010 --> 00:00:12.345\n- Well, well!\n<LAUGHING & WHOOPS!>\n\n"  # line 3, tag on line 5
    "00:00:12.345 --> 00:00:15.000\n- Good evening, <i>everyone</i>.\n"  # line 7
)


def units_and_warnings(path):
    """``(frame of the file's show, messages of the TvsegWarnings)``, read as units."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        result = read_units(path)
    assert all(issubclass(w.category, TvsegWarning) for w in caught), [str(w.message) for w in caught]
    assert list(result) == [path.stem]
    return result[path.stem], [str(w.message) for w in caught]


def refused(path, *, line, message, reader=read_segments):
    """``reader(path)`` raises ``PATH:LINE: message...``."""
    with pytest.raises(InputError) as caught:
        reader(path)
    error = caught.value
    assert (error.path, error.line) == (str(path), line), str(error)
    assert message in error.message, str(error)
    assert str(error).startswith(f"{path}:{line}: {error.message}")
    return error


# --- the four files: units with a warning, segments refused ------------------------------------


def test_zero_duration_cues_are_skipped_as_units(tmp_path):
    path = write(tmp_path, "capability.srt", HIDDEN)
    frame, messages = units_and_warnings(path)
    assert frame.to_dict("list") == HIDDEN_UNITS
    # one warning, and no other: the hidden cues joined or cut nothing
    assert messages == [f"{path}:2: 4 zero-duration cue(s) skipped (a unit must last; first here, at 0.000 s)"]
    refused(path, line=2, message="zero duration")


def test_skipping_zero_duration_cues_changes_nothing_else(tmp_path):
    blocks = HIDDEN.strip().split("\n\n")
    frame, messages = units_and_warnings(write(tmp_path, "capability.srt", f"{blocks[1]}\n\n{blocks[3]}\n"))
    assert messages == [] and frame.to_dict("list") == HIDDEN_UNITS
    # the show's first line (named when the show is found again) is its first unit's, line 6
    folder = tmp_path / "folder"
    folder.mkdir()
    write(folder, "capability.srt", HIDDEN)
    write(folder, "more.csv", "show,start,end\ncapability,0,1\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        with pytest.raises(InputError, match=f"show already read from {folder / 'capability.srt'}:6"):
            read_units(folder)


def test_teams_timestamps_are_read_as_units(tmp_path):
    path = write(tmp_path, "meeting.vtt", TEAMS)
    frame, messages = units_and_warnings(path)
    assert frame.to_dict("list") == {
        "start": [0.0, 3.54],
        "end": [3.54, 7.21],
        "text": ["There you go.", "Why hello there, Yuri."],
        "speaker": ["Yuri Bakulin", "Adrian Petrescu"],
    }
    assert messages == [
        f"{path}:3: 1 cue time(s) with fewer than three digits of milliseconds, read as a decimal fraction "
        "of a second (first: time 0:0:0.0 read as 0.000 s)",
        f"{path}:3: 4 cue time(s) written without leading zeros, read as if padded (first: '0:0:0.0 --> 0:0:3.540')",
    ]
    refused(path, line=3, message="three digits of milliseconds")


def test_two_digit_milliseconds_are_a_decimal_fraction_as_units(tmp_path):
    path = write(tmp_path, "liza.srt", CENTISECONDS)
    frame, messages = units_and_warnings(path)
    # as pysubs2 reads an SRT (pysubs2.time.timestamp_to_ms): ",46" is 460 ms, ",4" 400 ms, ",05" 50 ms
    assert frame.to_dict("list") == {
        "start": [1767.46, 1770.4],
        "end": [1769.83, 1771.05],
        "text": ["I'm here at last..", "Really."],
    }
    assert messages == [
        f"{path}:2: 8 cue time(s) with fewer than three digits of milliseconds, read as a decimal fraction "
        "of a second (first: time 00:29:27,46 read as 1767.460 s)",
        f"{path}:10: 2 zero-duration cue(s) skipped (a unit must last; first here, at 0.000 s)",
    ]
    refused(path, line=2, message="three digits of milliseconds")


def test_unknown_tag_in_webvtt_text_is_kept_as_units(tmp_path):
    path = write(tmp_path, "pbs.vtt", PBS)
    frame, messages = units_and_warnings(path)
    assert frame.to_dict("list") == {
        "start": [10.01, 12.345],
        "end": [12.345, 15.0],
        "text": ["- Well, well! <LAUGHING & WHOOPS!>", "- Good evening, everyone."],
    }
    assert messages == [
        f"{path}:5: 1 '<...>' in cue text open(s) no WebVTT tag: kept as written (a player would hide them; "
        "as units only the times are used) (first: '<LAUGHING & WHOOPS!>')"
    ]
    refused(path, line=5, message="'<' that opens no WebVTT tag")


@pytest.mark.parametrize("name, text", [("meeting.vtt", TEAMS), ("pbs.vtt", PBS)])
def test_webvtt_py_reads_the_same_times(tmp_path, name, text):
    webvtt = pytest.importorskip("webvtt")
    path = write(tmp_path, name, text)
    frame, _ = units_and_warnings(path)
    theirs = [(c.start_time.in_milliseconds() / 1000, c.end_time.in_milliseconds() / 1000) for c in webvtt.read(path)]
    assert list(zip(frame["start"], frame["end"])) == theirs


def test_the_warnings_come_through_the_command_line(tmp_path, capsys):
    units = write(tmp_path, "capability.srt", HIDDEN)
    line = "SEGMENT capability 1 {} {} <NA> <NA> {} <NA> <NA>\n"
    reference = write(tmp_path, "ref.rttm", line.format(0, 4.5, "a") + line.format(4.5, 3, "b"))
    hypothesis = write(tmp_path, "hyp.rttm", line.format(0, 7.5, "a"))
    options = ["--reference", str(reference), "--hypothesis", f"sys={hypothesis}", "--units", str(units)]
    assert main(["evaluate", *options, "--bootstrap", "0"]) == 0
    err = capsys.readouterr().err
    assert f"tvseg: warning: {units}:2: 4 zero-duration cue(s) skipped" in err and "Traceback" not in err
    assert main(["validate", *options]) == 0


# --- what stays refused in units too ------------------------------------------------------------


@pytest.mark.parametrize(
    "name, text, line, message",
    [
        # Teams writes milliseconds without their leading zeros (6.90 is 6.090 s): three digits ending
        # in 0 elsewhere in the file ('0:0:0.870') show that its short fractions are not trimmed zeros
        (
            "meeting.vtt",
            "WEBVTT\n\n0:0:0.0 --> 0:0:0.870\nYeah.\n\n0:0:4.560 --> 0:0:5.180\nSo.\n\n0:0:6.90 --> 0:0:6.500\nHi.\n",
            9,
            "ambiguous cue time '0:0:6.90': 6.900 s as a decimal fraction, or 6.090 s as milliseconds without "
            "their leading zeros (as Microsoft Teams writes them), which this file's '0:0:0.870' (line 3) suggests",
        ),
        (
            "news.srt",
            "1\n00:00:00,000 --> 00:00:03,200\nHi\n\n2\n00:00:03,200 --> 00:00:07,9\nStorm\n",
            6,
            "ambiguous cue time '00:00:07,9'",
        ),
        ("a.srt", "1\n00:00:01,0009 --> 00:00:02,000\nHi\n", 2, "three digits of milliseconds"),
        ("a.srt", "1\n00:61:01,50 --> 00:62:00,00\nHi\n", 2, "minutes or seconds over 59"),
        ("a.srt", "1\n00:00:05,5 --> 00:00:04,5\nHi\n", 2, "end before start"),
        ("a.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nI <3 you\n", 4, "'<' that opens no WebVTT tag"),
    ],
)
@pytest.mark.filterwarnings("ignore::tvseg.errors.TvsegWarning")
def test_ambiguous_or_malformed_stays_refused_as_units(tmp_path, name, text, line, message):
    path = write(tmp_path, name, text)
    refused(path, line=line, message=message, reader=read_units)


@pytest.mark.parametrize(
    "timing", ["00:00:01.0009 --> 00:00:02.000", "00:00:01,5 --> 00:00:02.000", "00:00:01 --> 00:00:02.000"]
)
def test_webvtt_cue_a_player_cannot_time_is_skipped_as_units(tmp_path, timing):
    # the W3C parsing algorithm drops a cue whose timings it cannot parse: as units, so does tvseg, with a warning;
    # as segments the line is refused
    text = f"WEBVTT\n\n{timing}\nHi\n\n00:00:03.000 --> 00:00:04.000\nThere\n"
    path = write(tmp_path, "a.vtt", text)
    frame, messages = units_and_warnings(path)
    assert list(zip(frame["start"], frame["end"], frame["text"])) == [(3.0, 4.0, "There")]
    assert messages == [
        f"{path}:3: 1 block(s) skipped as a WebVTT player skips them (a timing line it cannot read, "
        f"or a block that is no cue, NOTE, STYLE or REGION) (first: {timing!r})"
    ]
    refused(path, line=3, message="cue timing line" if "0009" not in timing else "three digits")


def test_webvtt_py_reads_teams_milliseconds_backwards(tmp_path):
    # why the ambiguous case is refused: read as a fraction, '0:0:6.90 --> 0:0:6.500' ends before it starts
    webvtt = pytest.importorskip("webvtt")
    path = write(tmp_path, "meeting.vtt", "WEBVTT\n\n0:0:6.90 --> 0:0:6.500\nHi.\n\n0:0:7.0 --> 0:0:8.100\nYes.\n")
    cue = webvtt.read(path)[0]
    assert (cue.start_time.in_milliseconds(), cue.end_time.in_milliseconds()) == (6900, 6500)
    refused(path, line=3, message="ambiguous cue time '0:0:6.90'", reader=read_units)


def test_validate_alone_reads_a_caption_file_as_units(tmp_path, capsys):
    # `tvseg validate FILE` reads a caption file as --units reads it (the units' warnings given) and says
    # why it is no segmentation: 6 cues, 4 of zero duration skipped, 2 units
    path = write(tmp_path, "capability.srt", HIDDEN)
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == (
        f"{path}: ok: SRT captions, 1 show(s), 6 cue(s) read as 2 unit(s) (as --units reads them); not as segments "
        f"({path}:2: segment with zero duration: '0 -> 0')\n"
    )
    assert f"{path}:2: 4 zero-duration cue(s) skipped" in err
