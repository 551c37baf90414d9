"""Issue 43: the real caption files of other projects (tests/data/real_captions/), read by tvseg as their owner reads them.

Each file is read by the library of the project it comes from (pycaption, pysubs2, ttconv, webvtt-py, pysrt,
srt; the W3C WebVTT tests through ttconv's copy, by ttconv) and by ``tvseg.read_units``; the owner's cue times,
put through tvseg's documented overlap rules, are the expected values (``tests/real_captions.py``). Of the
files the owner reads, at least 95 % of each format are read by tvseg within two frames of the owner's times,
none raises anything but an InputError, and each InputError names the file, the line and the rule.
``tests/benchmarks/real_captions_table.py`` prints the table and the files that fail.
"""

import warnings
from fractions import Fraction

import pytest
from reader_helpers import write
from real_captions import CORPUS, OWNERS, as_units, files, names_file_line_rule, rate, read

from tvseg import read_segments, read_units
from tvseg.errors import InputError, TvsegWarning

MISSING_RULES = {
    "SCC": "SCC: a caption never cleared ends at the next caption (no rule yet); a space instead of a tab "
    "after the time code is refused (scc branch)",
    "TTML": "TTML: whitespace before '<?xml', a <p> without an end (inherited from its parent), iTunes 'dur' "
    "are refused (scc branch)",
}
"""The formats whose reader lacks a rule that the corpus needs (issue 43), and the rules."""

SMALLEST = {"WebVTT": 150, "SRT": 20, "SCC": 50, "TTML": 40, "EBU STL": 45}
"""How many files of each format their owner reads at least: the rates are not of a handful of files."""


@pytest.fixture(scope="module")
def outcomes():
    return [read(path) for path in files()]


def test_each_project_folder_has_its_licence_and_source(outcomes):
    assert sorted({o.path.parent.name for o in outcomes}) == sorted(OWNERS)
    for folder in OWNERS:
        names = [p.name for p in (CORPUS / folder).iterdir()]
        assert any(name.upper().startswith(("LICEN", "COPYING")) for name in names), folder
        readme = (CORPUS / folder / "README.md").read_text()
        assert "commit `" in readme and "https://github.com/" in readme
        for path in (CORPUS / folder).iterdir():
            if path.suffix.lower() in (".vtt", ".srt", ".scc", ".ttml", ".dfxp", ".xml", ".stl"):
                assert f"`{path.name}`" in readme, path  # every file's source is named


def test_no_traceback_on_any_file(outcomes):
    # every file, whether its owner reads it or not
    assert [(str(o.path), o.message) for o in outcomes if o.tvseg == "traceback"] == []


def test_every_refusal_names_the_file_the_line_and_the_rule(outcomes):
    refusals = [o for o in outcomes if o.tvseg == "refused"]
    assert len(refusals) > len([o for o in outcomes if o.verdict == "refused"])  # the owners' refusals too
    assert [o.message for o in refusals if not names_file_line_rule(o.path, o.message)] == []


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(kind, marks=pytest.mark.xfail(reason=MISSING_RULES[kind], strict=False))
        if kind in MISSING_RULES
        else kind
        for kind in SMALLEST
    ],
)
def test_at_least_95_percent_of_each_format_read_with_the_owners_times(outcomes, kind):
    counted = [o for o in outcomes if o.format == kind and o.verdict != "owner"]
    assert len(counted) >= SMALLEST[kind]
    failing = [
        f"{o.path.parent.name}/{o.path.name}: {o.verdict} {o.why}"
        for o in counted
        if o.verdict not in ("identical", "rules")
    ]
    assert rate(outcomes, kind) >= Fraction(95, 100), failing


# --- the comparison itself --------------------------------------------------------------------------


def test_the_overlap_rules_as_written_in_the_docs():
    cues = [
        (Fraction(0), Fraction(2)),  # overlaps the next: ends at 1
        (Fraction(1), Fraction(3)),  # starts with the next: one unit, ends at max(3, 4) = 4
        (Fraction(1), Fraction(4)),
        (Fraction(5), Fraction(5)),  # zero duration: no unit
        (Fraction(6), None),  # never cleared: ends where the next begins
        (Fraction(8), Fraction(9)),
    ]
    assert as_units(cues) == [(0, 1), (1, 4), (6, 8), (8, 9)]


def test_a_reader_three_frames_off_is_a_mismatch(tmp_path, monkeypatch):
    # the comparison can fail: an owner 0.100 s (3 frames) away from tvseg's reading is a mismatch, 0.066 s is not
    import real_captions

    path = write(tmp_path, "two.srt", "1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n00:00:03,000 --> 00:00:04,000\nYes\n")
    for shift, verdict in ((Fraction(1, 10), "mismatch"), (Fraction(66, 1000), "identical")):
        cues = [(Fraction(1) + shift, Fraction(2)), (Fraction(3), Fraction(4))]
        monkeypatch.setitem(real_captions.READERS, "srt", lambda _, cues=cues: cues)
        assert read(path, owner="srt").verdict == verdict


# --- the rules these files asked for (WebVTT and SRT read as units) ------------------------------------


def units(path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        frame = read_units(path)[path.stem]
    assert all(issubclass(w.category, TvsegWarning) for w in caught)
    return list(zip(frame["start"].tolist(), frame["end"].tolist())), [str(w.message) for w in caught]


def test_webvtt_timing_line_with_form_feeds_is_read(tmp_path):
    # the W3C tests' whitespace-chars.vtt: the specification skips spaces, tabs and form feeds around the times
    path = write(tmp_path, "ff.vtt", "WEBVTT\n\n\f\f00:00:01.000\f\f-->\f00:00:02.000\f\ntext\n")
    assert units(path) == ([(1.0, 2.0)], [])
    assert [(s.start, s.end) for s, _ in read_segments(path)["ff"].itertracks()] == [(1.0, 2.0)]


def test_webvtt_note_holding_an_arrow_is_skipped_as_units(tmp_path):
    # pycaption's sample_webvtt_note_with_arrow: the specification reads the NOTE line as a timing line it
    # cannot parse and drops the block; pycaption reads a NOTE: either way no cue
    text = "WEBVTT\n\nNOTE This contains --> an arrow\n\n00:00:01.000 --> 00:00:03.000\nHi\n"
    path = write(tmp_path, "note.vtt", text)
    times, messages = units(path)
    assert times == [(1.0, 3.0)]
    assert messages == [
        f"{path}:3: 1 block(s) skipped as a WebVTT player skips them (a timing line it cannot read, or a block "
        "that is no cue, NOTE, STYLE or REGION) (first: 'NOTE This contains --> an arrow')"
    ]
    with pytest.raises(InputError, match=":3: malformed cue timing line"):
        read_segments(path)


def test_webvtt_style_block_ends_at_an_arrow_as_a_player_reads_it(tmp_path):
    # a line holding '-->' ends the STYLE block and starts a block of its own, which is no cue here
    text = "WEBVTT\n\nSTYLE\n::cue { color: red }\n/* --> */\n\n00:00:01.000 --> 00:00:03.000\nHi\n"
    path = write(tmp_path, "style.vtt", text)
    times, messages = units(path)
    assert times == [(1.0, 3.0)] and len(messages) == 1 and messages[0].startswith(f"{path}:5: 1 block(s) skipped")


def test_srt_time_without_milliseconds_is_whole_seconds_as_units(tmp_path):
    # pycaption's sample_srt_timestamps_without_microseconds; pycaption and pysubs2 read 00:00:13 as 13 s
    path = write(tmp_path, "whole.srt", "1\n00:00:13 --> 00:00:16\nHi\n\n2\n00:00:16,500 --> 00:00:18,000\nYes\n")
    times, messages = units(path)
    assert times == [(13.0, 16.0), (16.5, 18.0)]
    assert messages == [
        f"{path}:2: 2 cue time(s) with fewer than three digits of milliseconds, read as a decimal fraction of a "
        "second (first: time 00:00:13 read as 13.000 s)"
    ]
    with pytest.raises(InputError, match=":2: cue time without exactly three digits of milliseconds"):
        read_segments(path)


def test_srt_cue_number_without_its_timing_line_is_text_as_units(tmp_path):
    # webvtt-py's missing_timeframe.srt: webvtt-py reads '2' and its text into cue 1; the times are cue 1's
    text = "1\n00:00:00,500 --> 00:00:07,000\nOne\n\n2\nTwo\n\n3\n00:00:11,890 --> 00:00:16,320\nThree\n"
    path = write(tmp_path, "missing.srt", text)
    times, messages = units(path)
    assert times == [(0.5, 7.0), (11.89, 16.32)]
    assert messages == [
        f"{path}:5: 1 cue number(s) without their timing line: read as text of the cue before, as webvtt-py "
        "reads them (first: '2')"
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        assert read_units(path)["missing"]["text"].tolist() == ["One 2 Two", "Three"]
    with pytest.raises(InputError, match=":5: a cue number without its timing line"):
        read_segments(path)


def test_a_skipped_webvtt_cue_counts_in_no_other_warning(tmp_path):
    # its start '00:00:01.5' was read before its end failed: it is no short fraction of the file (one warning only)
    text = "WEBVTT\n\n00:00:01.5 --> 00:00:02.0009\nA\n\n00:00:03.000 --> 00:00:04.000\nB\n"
    path = write(tmp_path, "skip.vtt", text)
    times, messages = units(path)
    assert times == [(3.0, 4.0)]
    assert len(messages) == 1 and messages[0].startswith(f"{path}:3: 1 block(s) skipped")
