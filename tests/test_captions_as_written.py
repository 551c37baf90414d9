"""Caption files as broadcasters and their tools write them (issue 43): SCC with spaces after the time code
or a caption never cleared, SCC time codes against a time origin, TTML ends from the containers or the
document, Apple iTunes TTML, XML declarations out of place, EBU STL subtitles inside the previous one, and
``tvseg validate FILE`` reading every caption format as ``--units`` does.

Every expected time is computed by hand in the comments (frames at 29.97 frames/s last 1001/30000 s), and
compared with the captions' owner library where it reads the file: pycaption (SCC, DFXP), pysubs2 (Apple's
TTML), ttconv (the library tvseg reads them through).
"""

import io
import warnings
from fractions import Fraction

import pytest
from test_readers_broadcast_captions import stl_file, write

from tvseg import read_segments, read_units
from tvseg.cli import main
from tvseg.errors import InputError, TvsegWarning
from tvseg.readers.time_origin import parse_origin
from tvseg.readers.timecodes import TimeCodes

pytest.importorskip("ttconv")

FRAME = Fraction(1001, 30000)

SPACES = (
    "Scenarist_SCC V1.0\n\n"
    "00:00:01:00    9420 9420 94ae 94ae 9470 9470 c845 4c4c 4f80 942f 942f\n\n"
    "00:00:03:00 942c 942c\n\n"
    "00:00:04:00\t9420 9420 94ae 94ae 9470 9470 574f 52c4 942f 942f\n\n"
    "00:00:09:00\t8080\n"
)
# Non-drop-frame time codes (':'): HH:MM:SS:FF is frame (HH * 3600 + MM * 60 + SS) * 30 + FF; each word after
# the first on a line is one frame later. Lines 3 and 5 separate the time code by spaces.
#   HELLO: its end-of-caption (942f) is the 10th word of 00:00:01:00: frame 30 + 9 = 39 -> 1.3013 s; erased
#          (942c) at 00:00:03:00, frame 90 -> 3.003 s.
#   WORD:  end-of-caption the 9th word of 00:00:04:00: frame 120 + 8 = 128 -> 4.270933... s; never erased: it
#          ends at the end of the file's last time code, 00:00:09:00 and its one word: frame 270 + 1 = 271
#          -> 9.042366... s.
SPACES_TIMES = [(39 * FRAME, 90 * FRAME), (128 * FRAME, 271 * FRAME)]


def test_scc_with_spaces_after_the_time_code_and_a_caption_never_cleared(tmp_path):
    path = write(tmp_path, "spaces.scc", SPACES)
    with pytest.warns(TvsegWarning, match=r"spaces.scc:7: 1 caption\(s\) never cleared .* \(9.04237 s\)") as seen:
        frame = read_units(path)["spaces"]
    assert len([w for w in seen if "never cleared" in str(w.message)]) == 1
    assert frame["text"].tolist() == ["HELLO", "WORD"]
    assert frame["start"].tolist() == pytest.approx([float(a) for a, _ in SPACES_TIMES], abs=1e-9)
    assert frame["end"].tolist() == pytest.approx([float(b) for _, b in SPACES_TIMES], abs=1e-9)
    # pycaption reads spaces as tabs: its starts and its first end are these within 2 frames (it ends a
    # caption never cleared 4 s after its start: 8.27 s)
    pycaption = pytest.importorskip("pycaption")
    theirs = pycaption.SCCReader().read(SPACES).get_captions("en-US")
    assert [c.get_text() for c in theirs] == ["HELLO", "WORD"]
    assert all(abs(c.start / 1e6 - float(a)) <= 2 * FRAME for c, (a, _) in zip(theirs, SPACES_TIMES))
    assert abs(theirs[0].end / 1e6 - float(SPACES_TIMES[0][1])) <= 2 * FRAME
    # ttconv skips the lines with spaces: with tabs, its paragraphs are these (the last one without an end)
    from ttconv import model
    from ttconv.scc.reader import to_model

    tabs = SPACES.replace("00    9420", "00\t9420").replace("00 942c", "00\t942c")
    paragraphs = [e for e in to_model(tabs).get_body().dfs_iterator() if isinstance(e, model.P)]
    assert [p.get_begin() for p in paragraphs] == [a for a, _ in SPACES_TIMES]
    assert [p.get_end() for p in paragraphs] == [SPACES_TIMES[0][1], None]
    assert read_units(write(tmp_path, "tabs.scc", tabs))["tabs"]["end"].tolist() == frame["end"].tolist()


def test_roll_up_units_keep_their_newest_row(tmp_path):
    # roll-up, 2 rows (RU2 9425): the carriage return (94ad) of each line ends the caption before it, which
    # ttconv repeats with the new row; a unit keeps the row the caption adds.
    #   ONE: from the first PAC (9470), the 3rd word of 00:00:01:00: frame 30 + 2 = 32; to the CR of line 5,
    #        the 3rd word of 00:00:02:00: frame 62.  TWO: frame 62 to the erase (942c) at frame 90.
    text = (
        "Scenarist_SCC V1.0\n\n"
        "00:00:01:00\t9425 9425 94ad 94ad 9470 9470 4fce 4580\n\n"
        "00:00:02:00\t9425 9425 94ad 94ad 9470 9470 54d7 4f80\n\n"
        "00:00:03:00\t942c 942c\n"
    )
    frame = read_units(write(tmp_path, "rollup.scc", text))["rollup"]
    assert frame["text"].tolist() == ["ONE", "TWO"]
    assert frame["start"].tolist() == pytest.approx([float(32 * FRAME), float(62 * FRAME)], abs=1e-9)
    assert frame["end"].tolist() == pytest.approx([float(62 * FRAME), float(90 * FRAME)], abs=1e-9)


ON_AIR = (
    "Scenarist_SCC V1.0\n\n"
    "10:00:05:00\t9420 9420 94ae 94ae 9470 9470 c845 4c4c 4f80 942f 942f\n\n"
    "10:00:08:00\t942c 942c\n"
)
# On a 10:00:00:00 time code, non-drop-frame: 10:00:05:00 is frame 36005 * 30 = 1,080,150, and HELLO shows 9
# frames later, at frame 1,080,159; it is erased at 10:00:08:00, frame 36008 * 30 = 1,080,240. The origin
# 10:00:00 is the time code 10:00:00:00, frame 36000 * 30 = 1,080,000. So HELLO is 159 frames after the
# origin, 159 * 1001/30000 = 5.3053 s, to 240 frames, 8.008 s. Read as 36,000 s of the clock, the origin would
# leave it at 1,080,159 * 1001/30000 - 36000 = 41.3053 s: 36 s late.
# Drop-frame, 10:00:05;00 is frame 1,080,150 less 2 frames in each of the 600 - 60 minutes that are not a
# tenth, 1,079,070, and the origin 10:00:00;00 frame 1,080,000 - 1,080 = 1,078,920: 159 frames again.


@pytest.mark.parametrize("separator", [":", ";"])
def test_a_time_origin_is_the_time_code_it_names(tmp_path, separator):
    text = ON_AIR.replace("00:00", f"00{separator}00") if separator == ";" else ON_AIR
    path = write(tmp_path, "onair.scc", text)
    frame = read_units(path, time_origin=parse_origin("10:00:00"))["onair"]
    assert frame["start"].tolist() == pytest.approx([float(159 * FRAME)], abs=1e-9)  # 5.3053 s
    assert frame["end"].tolist() == pytest.approx([float(240 * FRAME)], abs=1e-9)  # 8.008 s
    segments = read_segments(path, time_origin=36000.0)["onair"]
    assert [t for s in segments.itersegments() for t in (s.start, s.end)] == pytest.approx([5.3053, 8.008], abs=1e-9)


@pytest.mark.parametrize(("dfc", "expected"), [(b"STL30.01", 150 * FRAME), (b"STL25.01", Fraction(5))])
def test_stl_time_codes_and_a_time_origin(tmp_path, dfc, expected):
    # STL30.01 is read by ttconv as drop-frame time codes at 29.97 frames/s: 10:00:05:00 is 150 frames after
    # the time code 10:00:00:00 that the origin 10:00:00 names, 150 * 1001/30000 = 5.005 s; at 25 frames/s
    # time codes count seconds: 5 s
    path = write(tmp_path, "on_air.stl", stl_file([((10, 0, 5, 0), (10, 0, 8, 0), b"A")], dfc=dfc))
    frame = read_units(path, time_origin=parse_origin("10:00:00"))["on_air"]
    assert frame["start"].tolist() == pytest.approx([float(expected)], abs=1e-9)
    assert frame["end"].tolist() == pytest.approx([float(expected * Fraction(8, 5))], abs=1e-9)


def test_time_codes_count_as_ttconv_counts_them():
    from ttconv.time_code import FPS_29_97, SmpteTimeCode

    # 10:00:00;00 drop-frame is frame 1,080,000 - 1,080 = 1,078,920: 1,078,920 * 1001/30000 = 35,999.964 s
    assert TimeCodes(FPS_29_97, True).seconds(36000.0) == pytest.approx(35999.964, abs=1e-9)
    assert TimeCodes(FPS_29_97, False).seconds(36000.0) == pytest.approx(36036.0, abs=1e-9)
    for clock, code in [(3723.0, "01:02:03;00"), (600.5, "00:10:00;15"), (61.0, "00:01:01;00")]:
        expected = float(SmpteTimeCode.parse(code, FPS_29_97).to_temporal_offset())
        assert TimeCodes(FPS_29_97, True).seconds(clock) == pytest.approx(expected, abs=1e-9)


def test_the_broadcast_example_on_the_command_line(tmp_path, capsys):
    # the README's broadcast case: the reference in relative seconds, the captions on a 10:00:00 time code
    scc = write(tmp_path, "onair.scc", ON_AIR)
    reference = write(tmp_path, "ref.csv", "show,start,end,label\nonair,4,8.5,a\n")
    hypothesis = write(tmp_path, "hyp.csv", "show,start,end,label\nonair,4,8.5,a\n")
    argv = ["validate", "--reference", str(reference), "--hypothesis", f"mine={hypothesis}", "--units", str(scc)]
    assert main([*argv, "--time-origin", "units=10:00:00"]) == 0
    out, err = capsys.readouterr()
    assert "tvseg evaluate would score 1 system(s) on 1 show(s)" in out and err == ""  # 5.3053-8.008 s in [4, 8.5]
    # units ending more than a second after the show are named (reference 5-7 s: they end at 8.008 s)
    short = write(tmp_path, "short.csv", "show,start,end,label\nonair,5,7,a\n")
    argv[2] = str(short)
    assert main([*argv, "--time-origin", "units=10:00:00"]) == 0
    err = capsys.readouterr().err
    late = "show 'onair': units [5.305, 8.008] s end 1.008 s after the show's evaluated region [5.000, 7.000] s"
    assert f"warning: {late}" in err
    # a UEM may end the evaluated region before the show ends: no warning then
    uem = write(tmp_path, "shows.uem", "onair 1 5 7\n")
    assert main([*argv, "--time-origin", "units=10:00:00", "--uem", str(uem)]) == 0
    assert "after the show's evaluated region" not in capsys.readouterr().err
    # without the origin, the units are 10 hours off: refused, naming the cause
    assert main(argv) == 2
    assert "shifted by about 10:00:00: a broadcast timecode origin?" in capsys.readouterr().err


NO_END = """<?xml version="1.0" encoding="UTF-8"?>
<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en">
  <body>
    <div>
      <p begin="1s" end="3s">one</p>
      <p begin="4s">two</p>
      <p begin="6s" end="9s">three</p>
    </div>
    <div begin="20s" end="30s">
      <p begin="2s">four</p>
    </div>
  </body>
</tt>
"""
# TTML: an element without end or dur lasts as long as its parent. "two" (line 6): no end on it or on its
# containers, so it lasts until the document ends, at its latest time, the div's end at 30 s; as units it
# ends where "three" begins, 6 s. "four": 20 + 2 = 22 s, ending with its div at 30 s.


def test_ttml_paragraph_without_an_end_ends_with_its_parent_or_the_document(tmp_path):
    path = write(tmp_path, "open.ttml", NO_END)
    with pytest.warns(TvsegWarning, match=r"open.ttml:6: 1 caption\(s\) without an end .* latest time \(30 s\)"):
        frame = read_units(path)["open"]
    assert frame["start"].tolist() == [1.0, 4.0, 6.0, 22.0]
    assert frame["end"].tolist() == [3.0, 6.0, 9.0, 30.0]
    with pytest.raises(InputError, match=r"open.ttml:7: segments overlap \(lines 6 and 7\): '4-30 and 6-9'"):
        read_segments(path)
    # dur on the body ends it, and every paragraph without an end of its own with it
    timed = write(tmp_path, "timed.ttml", NO_END.replace("<body>", '<body dur="12s">').replace("20s", "10s"))
    with pytest.warns(TvsegWarning, match=r"timed.ttml:10: 1 caption\(s\) never shown"):
        frame = read_units(timed)["timed"]  # "four" begins at 10 + 2 = 12 s, as the body ends: never shown
    assert frame["start"].tolist() == [1.0, 4.0, 6.0]
    assert frame["end"].tolist() == [3.0, 6.0, 9.0]


ITUNES = """<tt xmlns="http://www.w3.org/ns/ttml" xmlns:itunes="http://music.apple.com/lyric-ttml-internal"
    xmlns:ttm="http://www.w3.org/ns/ttml#metadata" itunes:timing="Word" xml:lang="en">
  <head><metadata>
    <ttm:agent type="person" xml:id="v1"><ttm:name type="full">Singer</ttm:name></ttm:agent>
  </metadata></head>
  <body dur="1:05.250">
    <div begin="19.764" end="59.300" itunes:songPart="Verse">
      <p begin="19.764" end="21.900" itunes:key="L1" ttm:agent="v1">
        <span begin="19.764" end="20.105">When</span>
        <span begin="20.105" end="21.900">here</span>
      </p>
      <p begin="1:02.500" end="1:04.100" itunes:key="L2" ttm:agent="v1">
        <span begin="1:02.500" end="1:04.100">after</span>
      </p>
    </div>
  </body>
</tt>
"""
# Apple writes every time from the start of the song, in seconds (19.764) or minutes:seconds (1:02.500 =
# 62.5 s): "When here" 19.764-21.9 s; "after" 62.5-64.1 s, which its div (ending at 59.3 s) does not clip
# once the times are the song's. The body's dur, 1:05.250 = 65.25 s, ends the document.


def test_apple_itunes_ttml_is_read_with_its_absolute_times(tmp_path):
    path = write(tmp_path, "song.ttml", ITUNES.replace('end="59.300"', 'end="1:05.000"'))
    frame = read_units(path)["song"]
    assert frame["start"].tolist() == [19.764, 62.5]
    assert frame["end"].tolist() == [21.9, 64.1]
    assert frame["text"].tolist() == ["When here", "after"]
    assert frame["speaker"].tolist() == ["Singer", "Singer"]
    pysubs2 = pytest.importorskip("pysubs2")
    theirs = pysubs2.load(str(path), ignore_par_time_offset=True)
    assert [(e.start / 1000, e.end / 1000) for e in theirs] == list(zip(frame["start"], frame["end"]))
    # the div's end clips as TTML says: "after" begins after it, and is never shown
    with pytest.warns(TvsegWarning, match=r"1 caption\(s\) never shown"):
        assert read_units(write(tmp_path, "clipped.ttml", ITUNES))["clipped"]["start"].tolist() == [19.764]


def test_xml_declaration_after_whitespace_or_naming_another_encoding(tmp_path):
    body = '<tt xmlns="http://www.w3.org/ns/ttml">\n<body><div><p begin="1s" end="2s">h\u00e9</p></div></body></tt>\n'
    spaced = write(tmp_path, "spaced.ttml", '\n  <?xml version="1.0" encoding="UTF-8"?>\n' + body)
    declared = write(tmp_path, "declared.ttml", '<?xml version="1.0" encoding="UTF-16"?>\n' + body)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frame = read_units(spaced)["spaced"]
    assert (frame["start"].tolist(), frame["end"].tolist(), frame["text"].tolist()) == ([1.0], [2.0], ["h\u00e9"])
    with pytest.warns(TvsegWarning, match=r"declared.ttml:1: the XML declaration names the encoding 'UTF-16'"):
        frame = read_units(declared)["declared"]
    assert (frame["start"].tolist(), frame["end"].tolist(), frame["text"].tolist()) == ([1.0], [2.0], ["h\u00e9"])
    pycaption = pytest.importorskip("pycaption")
    for path in (spaced, declared):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # its HTML parser's note about XML
            captions = pycaption.DFXPReader().read(path.read_text(encoding="utf-8"))
        (caption,) = captions.get_captions(captions.get_languages()[0])
        assert (caption.start / 1e6, caption.end / 1e6, caption.get_text()) == (1.0, 2.0, "h\u00e9")
    # a declaration naming a 16-bit encoding over bytes that are not UTF-8 either stays refused
    latin = write(tmp_path, "latin.ttml", ('<?xml version="1.0" encoding="UTF-16"?>\n' + body).encode("latin-1"))
    with pytest.raises(InputError, match=r"latin.ttml:1: not well-formed XML"):
        read_units(latin)


def test_stl_subtitle_inside_the_previous_one_and_of_zero_length(tmp_path, capsys):
    # at 25 frames/s: A 1-10 s; B 3-5 s, inside A: ttconv moves its begin to A's end (10 s), after its own
    # end, and leaves it out; C 11-12 s; D 13-13 s lasts nothing: skipped as a unit, refused as a segment
    subtitles = [
        ((0, 0, 1, 0), (0, 0, 10, 0), b"A"),
        ((0, 0, 3, 0), (0, 0, 5, 0), b"B"),
        ((0, 0, 11, 0), (0, 0, 12, 0), b"C"),
        ((0, 0, 13, 0), (0, 0, 13, 0), b"D"),
    ]
    path = write(tmp_path, "inside.stl", stl_file(subtitles))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        frame = read_units(path)["inside"]
    messages = [str(w.message) for w in seen]
    assert any("1 subtitle(s) inside the previous one" in m and "TTI block 2, 00:00:03:00 -> 00:00:05:00" in m
               for m in messages)  # fmt: skip
    assert any("1 zero-duration caption(s) skipped (a unit must last; first: TTI block 4)" in m for m in messages)
    assert (frame["start"].tolist(), frame["end"].tolist(), frame["text"].tolist()) == (
        [1.0, 11.0],
        [10.0, 12.0],
        ["A", "C"],
    )
    # ttconv's own document holds A and C alone, with these times
    from ttconv import model
    from ttconv.stl.reader import to_model

    data = stl_file(subtitles)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paragraphs = [e for e in to_model(io.BytesIO(data)).get_body().dfs_iterator() if isinstance(e, model.P)]
    assert [(p.get_begin(), p.get_end()) for p in paragraphs] == [(1, 10), (11, 12)]
    with pytest.raises(InputError, match=r"inside.stl: caption of zero duration .*: 'TTI block 4'"):
        read_segments(path)
    # validate counts the four subtitles the file holds, and the two units they make
    assert main(["validate", str(path)]) == 0
    assert "STL captions, 1 show(s), 4 cue(s) read as 2 unit(s)" in capsys.readouterr().out
    without = write(tmp_path, "nozero.stl", stl_file(subtitles[:3]))
    with pytest.warns(TvsegWarning, match="inside the previous one"):
        assert len(read_segments(without)["nozero"]) == 2


def test_validate_gives_one_answer_for_two_captions_in_any_format(tmp_path, capsys):
    # two captions shown together from 1 to 3 s: 2 cues, 1 unit, not a segmentation; the same as VTT and TTML
    vtt = write(
        tmp_path, "two.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\none\n\n00:00:01.000 --> 00:00:03.000\ntwo\n"
    )
    ttml = write(
        tmp_path,
        "two.ttml",
        '<tt xmlns="http://www.w3.org/ns/ttml"><body><div>\n\n'
        '<p begin="1s" end="3s">one</p>\n\n\n<p begin="1s" end="3s">two</p>\n</div></body></tt>\n',
    )
    answers = []
    for path in (vtt, ttml):
        assert main(["validate", str(path)]) == 0
        out, err = capsys.readouterr()
        assert f"{path}:6: 1 cue(s) start with an earlier one and are joined to it" in err
        answers.append(out.replace(str(path), "FILE").replace("VTT", "X").replace("TTML", "X"))
    assert answers[0] == answers[1]
    assert answers[0] == (
        "FILE: ok: X captions, 1 show(s), 2 cue(s) read as 1 unit(s) (as --units reads them); not as segments "
        "(FILE:6: segments overlap (lines 3 and 6): '1-3 and 1-3')\n"
    )


@pytest.mark.parametrize(
    ("name", "text", "warning"),
    [
        (
            "zero.srt",
            "1\n00:00:01,000 --> 00:00:01,000\nzero\n\n2\n00:00:02,000 --> 00:00:03,000\nb\n",
            "zero-duration",
        ),
        ("short.srt", "1\n00:00:01,50 --> 00:00:03,000\na\n", "fewer than three digits of milliseconds"),
        ("tag.vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nPrices < 3 and > 2\n", r"open\(s\) no WebVTT tag"),
    ],
)
def test_validate_accepts_what_units_accept(tmp_path, capsys, name, text, warning):
    path = write(tmp_path, name, text)
    with pytest.warns(TvsegWarning, match=warning):
        read_units(path)
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert warning.replace("\\", "") in err and "read as 1 unit(s)" in out and "not as segments" in out


# --- files pycaption reads that are not as the formats write them (issue 43: the real caption files) ----------

HELLO_LINES = "00:00:01:00\t9420 9420 94ae 94ae 9470 9470 c845 4c4c 4f80 942f 942f\n\n00:00:03:00\t942c 942c\n"
# HELLO: its end-of-caption (942f) is the 10th word of 00:00:01:00, frame 30 + 9 = 39; erased (942c) at
# 00:00:03:00, frame 90.


def _owners(path):
    """pycaption's and ttconv's captions of an SCC file, in frames (ttconv: None where it refuses the file)."""
    from real_captions import READERS

    found = []
    for owner in ("pycaption", "ttconv"):
        try:
            cues = READERS[owner](path)
        except ValueError:
            found.append(None)
            continue
        found.append([(s / FRAME, None if e is None else e / FRAME) for s, e in cues])
    return found


@pytest.mark.parametrize(
    ("first", "message"),
    [
        ("", r"blank.scc:1: no 'Scenarist_SCC V1.0' line: the file starts with a blank line, then time code lines "
         r"\(line 2\): read as SCC, as pycaption reads it"),
        ('"Scenarist_SCC V1.0\n', r"quoted.scc:1: the first line holds 'Scenarist_SCC' among other characters "
         r"\('\"Scenarist_SCC V1.0'\): read as the header, as pycaption reads it"),
    ],
)  # fmt: skip
def test_scc_without_its_header_line_as_pycaption_reads_it(tmp_path, first, message):
    # pycaption's sample_scc_with_italics.scc (a blank first line) and ttconv's
    # test_scc_double_word_in_content.scc (a quote before the header): pycaption skips the first line whatever
    # it holds, ttconv any line that is no time code line
    path = write(tmp_path, "blank.scc" if not first else "quoted.scc", first + "\n" + HELLO_LINES)
    with pytest.warns(TvsegWarning, match=message) as seen:
        frame = read_units(path)[path.stem]
    assert len(seen) == 1
    assert frame["text"].tolist() == ["HELLO"]
    assert [s / float(FRAME) for s in frame["start"]] == pytest.approx([39])
    assert [e / float(FRAME) for e in frame["end"]] == pytest.approx([90])
    assert _owners(path) == [[(39, 90)], [(39, 90)]]


def test_scc_file_that_is_no_scc_stays_refused(tmp_path, capsys):
    # a first line that is neither blank nor holds the header: exit 2, naming the file and line 1
    path = write(tmp_path, "hello.scc", "Hello\n\n" + HELLO_LINES)
    assert main(["validate", str(path)]) == 2
    assert f"{path}:1: not an SCC file: the first line must be 'Scenarist_SCC V1.0': 'Hello'" in capsys.readouterr().err
    # nor is a blank first line before a line that is no time code line
    path = write(tmp_path, "notes.scc", "\nsome notes\n\n" + HELLO_LINES)
    with pytest.raises(InputError, match=r"notes.scc:1: not an SCC file"):
        read_units(path)


def test_scc_line_ending_with_half_a_word_as_pycaption_reads_it(tmp_path):
    # pycaption's sample_scc_roll_up_ru3.scc ends a line with '4c', one byte of a word: pycaption skips it (and
    # counts no frame for it), ttconv refuses the file. HELLO is loaded on line 3, shown by the end of caption
    # at 00:00:02:00 (frame 60), erased at 00:00:03:00 (frame 90).
    text = (
        "Scenarist_SCC V1.0\n\n00:00:01:00\t9420 9420 94ae 94ae 9470 9470 c845 4c4c 4f80 4c\n\n"
        "00:00:02:00\t942f 942f\n\n00:00:03:00\t942c 942c\n"
    )
    path = write(tmp_path, "half.scc", text)
    with pytest.warns(TvsegWarning, match=r"half.scc:3: 1 line\(s\) ending with a word of 2 hex digits .* '4c'"):
        frame = read_units(path)["half"]
    assert frame["text"].tolist() == ["HELLO"]
    assert [s / float(FRAME) for s in frame["start"]] == pytest.approx([60])
    assert [e / float(FRAME) for e in frame["end"]] == pytest.approx([90])
    assert _owners(path) == [[(60, 90)], None]
    # a word of 2 hex digits inside a line stays refused, at its line
    path = write(tmp_path, "inside.scc", text.replace("4f80 4c", "4c 4f80"))
    with pytest.raises(InputError, match=r"inside.scc:3: not a 4-digit hex word: '4c'"):
        read_units(path)


def test_paint_on_caption_painted_row_by_row_is_one_caption(tmp_path):
    # paint-on (RDC 9429) on line 3: the address code (PAC) of row 14 (94d2) is the 3rd word of 00:00:01:00,
    # frame 32, then AB (c1c2) at frame 34; the PAC of row 15 (94f2) at frame 35, then CD (43c4) at 37; erased
    # (942c) at 00:00:03:00, frame 90. ttconv makes two paragraphs, AB from frame 32 to 35 and AB CD from 35 to
    # 90 (it copies row 14 into the second one); on screen it is one caption painted row by row, which stays
    # until the erase: one caption from frame 32 to 90, "AB CD" (pycaption: one caption, from the RDC, frame
    # 30, 2 frames earlier)
    text = "Scenarist_SCC V1.0\n\n00:00:01:00\t9429 9429 94d2 94d2 c1c2 94f2 94f2 43c4\n\n00:00:03:00\t942c 942c\n"
    path = write(tmp_path, "paint.scc", text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frame = read_units(path)["paint"]
        segments = read_segments(path)["paint"]
    assert frame["text"].tolist() == ["AB CD"]
    assert [s / float(FRAME) for s in frame["start"]] == pytest.approx([32])
    assert [e / float(FRAME) for e in frame["end"]] == pytest.approx([90])
    assert [v / float(FRAME) for s, _ in segments.itertracks() for v in (s.start, s.end)] == pytest.approx([32, 90])
    from ttconv import model
    from ttconv.scc.reader import to_model

    paragraphs = [e for e in to_model(text).get_body().dfs_iterator() if isinstance(e, model.P)]
    assert [(p.get_begin() / FRAME, p.get_end() / FRAME) for p in paragraphs] == [(32, 35), (35, 90)]
    assert _owners(path)[0] == [(30, 90)]
    # row 15 painted by a line of its own (00:00:02:00, its PAC at frame 60, CD at 62) is a caption of its own:
    # AB from frame 32 to 60, then the screen, AB CD, from 60 to the erase at 90
    text = (
        "Scenarist_SCC V1.0\n\n00:00:01:00\t9429 9429 94d2 94d2 c1c2\n\n00:00:02:00\t94f2 94f2 43c4\n\n"
        "00:00:03:00\t942c 942c\n"
    )
    frame = read_units(write(tmp_path, "lines.scc", text))["lines"]
    assert frame["text"].tolist() == ["AB", "AB CD"]
    assert [s / float(FRAME) for s in frame["start"]] == pytest.approx([32, 60])
    assert [e / float(FRAME) for e in frame["end"]] == pytest.approx([60, 90])


TTML_HTML = (
    '<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><body><div>\n'
    '<p begin="1s" end="2s"><< Caf&eacute; & Bar >></p>\n'
    '<p begin="2s" end="4s"><span tts:color="red" tts:color="blue">B</span></p>\n'
    "</div></body></tt>\n"
)


def test_ttml_not_well_formed_as_pycaption_reads_it(tmp_path):
    # pycaption's DFXP samples with '>>' and '<<' in the text, '&eacute;' and a bare '&', a repeated attribute:
    # pycaption parses them as HTML; tvseg repairs these defects alone and parses again, with one warning at
    # the first one's line (2)
    path = write(tmp_path, "html.dfxp", TTML_HTML)
    with pytest.warns(TvsegWarning) as seen:
        frame = read_units(path)["html"]
    assert [str(w.message) for w in seen] == [
        f"{path}:2: not well-formed XML, read as an HTML parser reads it (as pycaption does) after repairing "
        "2 '<' opening no tag, read as '&lt;' (first: '<'); 1 HTML named entity(ies), read as their characters "
        "(first: '&eacute;'); 1 '&' opening no entity, read as '&amp;' (first: '&'); 1 repeated attribute(s) "
        "left out, the first of each name kept (first: 'tts:color=\"blue\"')"
    ]
    assert (frame["start"].tolist(), frame["end"].tolist(), frame["text"].tolist()) == (
        [1.0, 2.0],
        [2.0, 4.0],
        ["<< Caf\u00e9 & Bar >>", "B"],
    )
    pycaption = pytest.importorskip("pycaption")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its HTML parser's notes
        captions = pycaption.DFXPReader().read(TTML_HTML)
    assert [(c.start / 1e6, c.end / 1e6, c.get_text()) for c in captions.get_captions(captions.get_languages()[0])] == [
        (1.0, 2.0, "<< Caf\u00e9 & Bar >>"),
        (2.0, 4.0, "B"),
    ]
    from tvseg.readers.broadcast_captions import _repaired_xml

    repaired, _ = _repaired_xml(TTML_HTML.encode())
    assert b'<span tts:color="red">B</span>' in repaired  # the first value kept, as an HTML parser keeps it


def test_ttml_not_well_formed_otherwise_stays_refused(tmp_path, capsys):
    # a '&' is repaired, the </div> closing the <p> is not: exit 2, the file and the line of the mismatch
    text = '<tt xmlns="http://www.w3.org/ns/ttml"><body><div>\n<p begin="1s" end="2s">A & B</div>\n</div></body></tt>\n'
    path = write(tmp_path, "mismatch.ttml", text)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:2: not well-formed XML (mismatched tag, after repairing 1 defect(s) an HTML parser reads)" in err
    # an entity neither XML nor HTML defines is not repaired: refused where it is, as before
    path = write(tmp_path, "entity.ttml", text.replace("A & B</div>", "A &x; B</p>"))
    with pytest.raises(InputError, match=r"entity.ttml:2: not well-formed XML \(undefined entity"):
        read_units(path)


def test_ttml_styling_value_ttconv_refuses_is_left_out(tmp_path):
    # pycaption's sample_dfxp_multiple_regions_input.dfxp: tts:extent="3em 4em", which IMSC does not allow and
    # ttconv refuses; no time depends on it: left out, with a warning at its line (3)
    text = (
        '<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><head><styling>\n'
        "\n"
        '<style xml:id="s1" tts:extent="3em 4em"/>\n'
        '</styling></head><body><div><p begin="1s" end="2s" style="s1">A</p></div></body></tt>\n'
    )
    path = write(tmp_path, "extent.ttml", text)
    with pytest.warns(TvsegWarning, match=r"extent.ttml:3: ttconv cannot read a tts:extent value .* left out of the 1"):
        frame = read_units(path)["extent"]
    assert (frame["start"].tolist(), frame["end"].tolist(), frame["text"].tolist()) == ([1.0], [2.0], ["A"])
