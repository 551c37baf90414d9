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
from real_captions import (
    CORPUS,
    OWNERS,
    READERS,
    as_units,
    files,
    names_file_line_rule,
    painted_bursts,
    rate,
    read,
    scc_file_end,
)

from tvseg import read_segments, read_units
from tvseg.errors import InputError, TvsegWarning

PAINT_ON = (
    "paint-on: pycaption starts a paint-on caption at its RDC command (frame 54), ttconv and tvseg "
    "(formats/scc.md) at its first character, here the space of a mid-row code (frame 57): 3 frames"
)
KNOWN = {
    "SCC": {
        "pycaption/sample_scc_mid_row_following_text_no_text_before_italics_off_paint.scc": PAINT_ON,
        "pycaption/sample_scc_multiple_positioning.scc": "roll-up after pop-on: ttconv (and tvseg, formats/scc.md) "
        "starts the roll-up caption at its address code, 4 frames after pycaption's RU2 (both codes doubled), and "
        "carries the roll-up style into the paint-on captions that follow, one caption per address code",
        "pycaption/sample_scc_created_dfxp_with_wrongly_closing_spans.scc": "an end of caption with nothing "
        "loaded swaps the caption memories and shows the caption before again (CEA-608, as ttconv reads it); "
        "pycaption shows nothing",
    },
    "WebVTT": {"wpt/file-parsing_timings-garbage.vtt": "not looked into (issue 43's SCC/TTML piece)"},
}
"""The files of each format that tvseg does not read with their owner's times, and why."""

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


@pytest.mark.parametrize("kind", list(SMALLEST))
def test_at_least_95_percent_of_each_format_read_with_the_owners_times(outcomes, kind):
    counted = [o for o in outcomes if o.format == kind and o.verdict != "owner"]
    assert len(counted) >= SMALLEST[kind]
    failing = [
        f"{o.path.parent.name}/{o.path.name}: {o.verdict} {o.why}"
        for o in counted
        if o.verdict not in ("identical", "rules")
    ]
    assert rate(outcomes, kind) >= Fraction(95, 100), failing


@pytest.mark.parametrize("kind", list(SMALLEST))
def test_the_files_read_wrong_are_the_known_ones(outcomes, kind):
    wrong = {
        str(o.path.relative_to(CORPUS)): o.why
        for o in outcomes
        if o.format == kind and o.verdict not in ("identical", "rules", "owner")
    }
    assert sorted(wrong) == sorted(KNOWN.get(kind, {})), wrong


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


def test_a_caption_never_cleared_ends_at_the_next_or_at_the_end_of_the_file():
    cues = [(Fraction(1), None), (Fraction(3), Fraction(4)), (Fraction(6), None)]
    assert as_units(cues, file_end=Fraction(7)) == [(1, 3), (3, 4), (6, 7)]
    assert as_units(cues) == [(1, 3), (3, 4), (6, None)]  # no end of the file known: left open
    # ttconv's ttml_lwsp_default.ttml: an untimed <p> in a document that writes no time ends at 0, no unit
    assert as_units([(Fraction(0), None)], file_end=Fraction(0)) == []


def test_the_end_of_an_scc_files_last_time_code_by_hand(tmp_path):
    # non-drop 00:00:01:15 is frame 45, 3 words: frame 48, 48 x 1001/30000 s
    path = write(tmp_path, "ndf.scc", "Scenarist_SCC V1.0\n\n00:00:00:10\t942c\n\n00:00:01:15\t942c 942c 942f\n\n")
    assert scc_file_end(path) == Fraction(48 * 1001, 30000)
    # drop-frame: ten minutes are 17,982 frames (10 x 60 x 29.97), so 00:10:00;02 is 17,984; 2 words: 17,986
    path = write(tmp_path, "df.scc", "Scenarist_SCC V1.0\n\n00:10:00;02\t942c 942c\n")
    assert scc_file_end(path) == Fraction(17986 * 1001, 30000)


def test_pycaption_is_asked_which_scc_captions_are_never_cleared(tmp_path):
    # HELLO shown by the end of caption at word 10 (frame 30 + 9 = 39) and never cleared: pycaption gives it
    # no end (without its 4 s step), tvseg's rule ends it at the end of the last time code (30 + 11 words)
    text = "Scenarist_SCC V1.0\n\n00:00:01:00\t9420 9420 94ae 94ae 9470 9470 c845 4c4c 4f80 942f 942f\n"
    path = write(tmp_path, "uncleared.scc", text)
    assert READERS["pycaption"](path) == [(Fraction(39 * 1001, 30000), None)]
    assert read(path, owner="pycaption").verdict == "rules"
    assert units(path)[0] == [(pytest.approx(39 * 1001 / 30000), pytest.approx(41 * 1001 / 30000))]


def test_pycaption_drop_frame_times_are_those_of_the_frames_it_counts(tmp_path):
    # pycaption reads a drop-frame time code as the clock time of its label: 00:00:59;28 plus 9 words is
    # 59 + 37/30 = 60.2333 s. The frame the label names is 59 x 30 + 28 = 1798 (minute 0 drops no frame
    # number), and the 10th word (HELLO's end of caption) is frame 1807: 1807 x 1001/30000 = 60.2934 s, 1.8
    # frames later. 00:01:01;00 is frame 61 x 30 - 2 = 1828 (minute 1 drops frame numbers 0 and 1). The
    # comparison takes pycaption's frames (its timing) at the time of those frames, as tvseg and
    # scc_file_end count them; a non-drop-frame time code was already counted so by pycaption.
    import pycaption

    text = "Scenarist_SCC V1.0\n\n00:00:59;28\t9420 9420 94ae 94ae 9470 9470 c845 4c4c 4f80 942f 942f\n\n"
    text += "00:01:01;00\t942c 942c\n"
    path = write(tmp_path, "df.scc", text)
    (own,) = pycaption.SCCReader().read(text).get_captions("en-US")
    assert own.start == pytest.approx((59 + Fraction(37, 30)) * 10**6)
    assert READERS["pycaption"](path) == [(Fraction(1807 * 1001, 30000), Fraction(1828 * 1001, 30000))]
    assert units(path)[0] == [(pytest.approx(1807 * 1001 / 30000), pytest.approx(1828 * 1001 / 30000))]
    assert read(path, owner="pycaption").verdict == "identical"
    ndf = write(tmp_path, "ndf.scc", text.replace(";", ":"))
    (own,) = pycaption.SCCReader().read(ndf.read_text()).get_captions("en-US")
    assert READERS["pycaption"](ndf)[0][0] == Fraction(1807 * 1001, 30000)
    assert own.start / 10**6 == pytest.approx(1807 * 1001 / 30000)  # pycaption's own, in floats


def test_ttconv_paint_on_rows_of_one_line_are_one_caption(tmp_path):
    # the rule by hand: paint-on paragraphs (True) each beginning as the one before ends, begun on one line
    # (line 1 from 0 s, line 2 from 1.5 s), are one caption; a paragraph on line 2, or after one that is not
    # paint-on, is a caption of its own
    cues = [(Fraction(0), Fraction(1), True), (Fraction(1), Fraction(2), True), (Fraction(2), Fraction(3), True)]
    cues += [(Fraction(3), Fraction(4), False), (Fraction(4), Fraction(5), True)]
    assert painted_bursts(cues, [Fraction(0), Fraction(3, 2)]) == [(0, 2), (2, 3), (3, 4), (4, 5)]
    # on a file: ttconv's paragraphs AB (frames 32-35) and AB CD (35-90) of one line are one caption, 32-90
    text = "Scenarist_SCC V1.0\n\n00:00:01:00\t9429 9429 94d2 94d2 c1c2 94f2 94f2 43c4\n\n00:00:03:00\t942c 942c\n"
    path = write(tmp_path, "paint.scc", text)
    frame = Fraction(1001, 30000)
    assert READERS["ttconv"](path) == [(32 * frame, 90 * frame)]
    assert read(path, owner="ttconv").verdict == "identical"


def test_scc_times_are_compared_to_two_of_its_frames(tmp_path, monkeypatch):
    import real_captions

    # formats/scc.md's HELLO, from frame 54 to frame 90 (1.8018 s to 3.003 s): an owner 2 frames later is
    # within two SCC frames (66.73 ms), 3 frames later is not; an SRT 66.73 ms off is not within 2/30 s
    text = "Scenarist_SCC V1.0\n\n00:00:01;15\t9420 9420 94ae 94ae 9470 9470 c845 4c4c 4f80 942f 942f\n\n"
    path = write(tmp_path, "hello.scc", text + "00:00:03;00\t942c 942c\n")
    frame = Fraction(1001, 30000)
    for frames, verdict in ((2, "identical"), (3, "mismatch")):
        cues = [(Fraction(54 + frames) * frame, 90 * frame)]
        monkeypatch.setitem(real_captions.READERS, "pycaption", lambda _, cues=cues: cues)
        assert read(path, owner="pycaption").verdict == verdict
    path = write(tmp_path, "one.srt", "1\n00:00:01,000 --> 00:00:02,000\nHi\n")
    monkeypatch.setitem(real_captions.READERS, "srt", lambda _: [(1 + 2 * frame, Fraction(2))])
    assert read(path, owner="srt").verdict == "mismatch"


def test_a_cue_without_text_is_left_out_only_where_the_owner_leaves_it_out(tmp_path, monkeypatch):
    import real_captions

    # pycaption's sample_dfxp_empty_cue, webvtt-py's missing_caption_text.srt: tvseg keeps a cue without text
    # (NO_LABEL), the owners leave it out
    path = write(tmp_path, "empty.srt", "1\n00:00:01,000 --> 00:00:02,000\n\n2\n00:00:03,000 --> 00:00:04,000\nYes\n")
    assert units(path)[0] == [(1.0, 2.0), (3.0, 4.0)]
    for cues, verdict in (
        ([(Fraction(1), Fraction(2)), (Fraction(3), Fraction(4))], "identical"),  # an owner that keeps it
        ([(Fraction(3), Fraction(4))], "rules"),  # one that leaves it out
        ([(Fraction(3, 2), Fraction(4))], "mismatch"),  # the rule hides no wrong time
    ):
        monkeypatch.setitem(real_captions.READERS, "srt", lambda _, cues=cues: cues)
        assert read(path, owner="srt").verdict == verdict


def test_pysubs2_is_asked_for_the_times_an_itunes_ttml_writes():
    # the file's first <p begin="19.764" end="21.900"> in a <div begin="19.764">: pysubs2 adds the div's
    # begin unless told the file is Apple's (39.528 s)
    path = CORPUS / "pysubs2" / "ttml_example_apple.ttml"
    assert READERS["pysubs2"](path)[0] == (Fraction("19.764"), Fraction("21.900"))
    import pysubs2

    assert pysubs2.load(str(path))[0].start == 39528


def test_ttml_clock_time_with_a_one_digit_hour_is_read_with_a_warning(tmp_path):
    # pycaption's sample_dfxp_syntax_error.dfxp and two more: begin="0:00:02.07", which pycaption reads as 2.07 s
    text = (
        '<tt xmlns="http://www.w3.org/ns/ttml"><body><div>\n'
        '<p begin="0:00:02.07" end="0:00:05.07">A</p>\n'
        '<p begin="0:00:05.07" end="00:00:06.5">B</p>\n'
        "</div></body></tt>\n"
    )
    path = write(tmp_path, "hour.dfxp", text)
    assert units(path) == (
        [(2.07, 5.07), (5.07, 6.5)],
        [
            f"{path}:2: 3 clock time(s) with a one-digit hour, which TTML writes with two: read as hours "
            "(first: '0:00:02.07' read as '00:00:02.07')"
        ],
    )
    assert read(path, owner="pycaption").verdict == "identical"
    # pycaption's sample_dfxp_missing_end_and_dur.dfxp, which pycaption refuses too: refused at its line
    path = write(tmp_path, "empty_end.dfxp", text.replace('end="00:00:06.5"', 'end=""'))
    with warnings.catch_warnings(), pytest.raises(InputError, match=r"empty_end.dfxp:3: ttconv: Bad end attribute"):
        warnings.simplefilter("ignore", TvsegWarning)  # the one-digit hours
        read_units(path)


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
