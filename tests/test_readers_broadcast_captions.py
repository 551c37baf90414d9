"""Broadcast captions (TTML, EBU-TT-D, DFXP, SCC, EBU STL) read as units and segments through ttconv.

Every expected time is computed by hand in the comments (TTML time expressions, SMPTE timecodes) and,
for SCC, compared with what ttconv's own reader gives for the file, within one frame.
"""

import json
import struct
import warnings
from fractions import Fraction

import pytest

from tvseg import read_segments, read_units
from tvseg.cli import main
from tvseg.errors import InputError, TvsegWarning

ttconv = pytest.importorskip("ttconv")

IMSC = """<?xml version="1.0" encoding="UTF-8"?>
<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter"
    xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ttm="http://www.w3.org/ns/ttml#metadata"
    xmlns:ittp="http://www.w3.org/ns/ttml/profile/imsc1#parameter"
    ttp:profile="http://www.w3.org/ns/ttml/profile/imsc1/text" ttp:frameRate="25" xml:lang="en">
  <head>
    <metadata><ttm:agent xml:id="anchor" type="person"><ttm:name type="full">Anne Martin</ttm:name></ttm:agent></metadata>
    <layout><region xml:id="r1" tts:origin="10% 80%" tts:extent="80% 15%"/></layout>
  </head>
  <body region="r1">
    <div>
      <p begin="00:00:01.500" end="00:00:04:12" ttm:agent="anchor">Good evening.<br/>Here is the news.</p>
      <p begin="5s" dur="2.5s"><span>Second</span> story</p>
    </div>
    <div begin="1s">
      <p begin="9s" end="11.5s">A timed division</p>
    </div>
  </body>
</tt>
"""
# p1: 00:00:01.500 = 1.5 s; 00:00:04:12 at 25 frames/s = 4 + 12/25 = 4.48 s.
# p2: begin 5 s, dur 2.5 s: 5 to 7.5 s.
# p3: the div begins at 1 s and its end is implicit (it clips none of its children): 1 + 9 = 10 s to
#     1 + 11.5 = 12.5 s (ttconv 1.2.3 alone ends the div at its begin, dropping p3: the reader writes the
#     div's end explicitly).

EBU_TT_D = """<?xml version="1.0" encoding="UTF-8"?>
<tt:tt xmlns:tt="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter"
    xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ebuttm="urn:ebu:tt:metadata"
    ttp:timeBase="media" ttp:cellResolution="50 30" xml:lang="fr">
  <tt:head>
    <tt:styling><tt:style xml:id="s1" tts:color="#FFFFFF"/></tt:styling>
    <tt:layout><tt:region xml:id="bottom" tts:origin="10% 80%" tts:extent="80% 20%"/></tt:layout>
  </tt:head>
  <tt:body>
    <tt:div>
      <tt:p xml:id="sub1" region="bottom" begin="00:00:10.120" end="00:00:12.800">
        <tt:span style="s1">Bonsoir</tt:span>
      </tt:p>
      <tt:p xml:id="sub2" region="bottom" begin="00:00:12.500" end="00:00:15.000">
        <tt:span style="s1">et bienvenue</tt:span>
      </tt:p>
    </tt:div>
  </tt:body>
</tt:tt>
"""
# sub1 10.12 to 12.8 s; sub2 12.5 to 15 s: sub1 overlaps sub2, so as units sub1 ends at 12.5 s.

DFXP = """<?xml version="1.0" encoding="utf-8"?>
<tt xmlns="http://www.w3.org/2006/10/ttaf1" xmlns:ttp="http://www.w3.org/2006/10/ttaf1#parameter"
    ttp:tickRate="10000000" xml:lang="en">
  <body>
    <div>
      <p begin="15000000t" end="32000000t">From the first DFXP draft</p>
      <p begin="00:00:04.00" end="00:00:06.25">namespace</p>
    </div>
  </body>
</tt>
"""
# 15000000 ticks at 10^7 ticks/s = 1.5 s; 32000000t = 3.2 s; then 4 to 6.25 s.


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_imsc_text_profile_as_units_and_segments(tmp_path):
    path = write(tmp_path, "news.ttml", IMSC)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to warn about
        frame = read_units(path)["news"]
    assert frame["start"].tolist() == [1.5, 5.0, 10.0]
    assert frame["end"].tolist() == [4.48, 7.5, 12.5]
    assert frame["text"].tolist() == ["Good evening. Here is the news.", "Second story", "A timed division"]
    assert frame["speaker"].tolist() == ["Anne Martin", "", ""]
    segments = read_segments(path)["news"]
    assert [(s.start, s.end, label) for s, _, label in segments.itertracks(yield_label=True)] == [
        (1.5, 4.48, "Good evening. Here is the news."),
        (5.0, 7.5, "Second story"),
        (10.0, 12.5, "A timed division"),
    ]


def test_ebu_tt_d_overlap_made_units_that_do_not_overlap(tmp_path):
    path = write(tmp_path, "journal.xml", EBU_TT_D)
    with pytest.warns(TvsegWarning, match=r"journal.xml:11: 1 caption cue\(s\) overlap"):
        frame = read_units(path)["journal"]
    assert frame["start"].tolist() == [10.12, 12.5]
    assert frame["end"].tolist() == [12.5, 15.0]
    assert frame["text"].tolist() == ["Bonsoir", "et bienvenue"]


def test_dfxp_draft_namespace_and_ticks(tmp_path):
    frame = read_units(write(tmp_path, "old.dfxp", DFXP))["old"]
    assert frame["start"].tolist() == [1.5, 4.0]
    assert frame["end"].tolist() == [3.2, 6.25]


SCC = (
    "Scenarist_SCC V1.0\n\n"
    "00:00:01;15\t9420 9420 94ae 94ae 9470 9470 c845 4c4c 4f80 942f 942f\n\n"
    "00:00:03;00\t942c 942c\n\n"
    "00:01:00;02\t9420 9420 94ae 94ae 9470 9470 574f 524c c480 942f 942f\n\n"
    "00:01:02;00\t942c 942c\n"
)
# Pop-on captions: each shows at its end-of-caption (942f), the 10th word of its line, so 9 frames
# after the line's timecode; each is cleared by the erase-displayed-memory (942c) of the next line.
# At 29.97 frames/s a frame lasts 1001/30000 s. Drop-frame (';') numbers skip frames 0 and 1 of each
# minute but every tenth:
#   00:00:01;15 = 30 + 15 = 45 frames; +9 -> 54 frames = 54 * 1001/30000 = 1.8018 s
#   00:00:03;00 = 90 frames = 3.003 s
#   00:01:00;02 = 60 * 30 - 2 + 2 = 1800 frames; +9 -> 1809 frames = 60.3603 s
#   00:01:02;00 = 1800 + 2 * 30 - 2 = 1858 frames = 61.995266... s
FRAME = Fraction(1001, 30000)
SCC_TIMES = [(54 * FRAME, 90 * FRAME), (1809 * FRAME, 1858 * FRAME)]


def test_scc_drop_frame_timings_by_hand_and_as_ttconv_gives_them(tmp_path):
    from ttconv import model
    from ttconv.scc.reader import to_model

    frame = read_units(write(tmp_path, "show.scc", SCC))["show"]
    assert frame["text"].tolist() == ["HELLO", "WORLD"]
    for (start, end), got_start, got_end in zip(SCC_TIMES, frame["start"], frame["end"]):
        assert got_start == pytest.approx(float(start), abs=1e-9)
        assert got_end == pytest.approx(float(end), abs=1e-9)
    # the library's own paragraphs, within one frame
    paragraphs = [e for e in to_model(SCC).get_body().dfs_iterator() if isinstance(e, model.P)]
    assert len(paragraphs) == len(frame)
    for p, got_start, got_end in zip(paragraphs, frame["start"], frame["end"]):
        assert abs(float(p.get_begin()) - got_start) <= float(FRAME)
        assert abs(float(p.get_end()) - got_end) <= float(FRAME)
    segments = read_segments(tmp_path / "show.scc")["show"]
    assert [label for _, _, label in segments.itertracks(yield_label=True)] == ["HELLO", "WORLD"]


def stl_file(subtitles, *, dfc=b"STL25.01"):
    """An EBU STL file (EBU Tech 3264): a 1024-byte GSI block, then one 128-byte TTI block per subtitle."""
    gsi = struct.pack(
        "3s8sc2s2s32s32s32s32s32s32s16s6s6s2s5s5s3s2s2s1s8s8s1s1s3s32s32s32s75x576s",
        b"850", dfc, b"0", b"00", b"09", b"", b"", b"", b"", b"", b"", b"", b"260101", b"260101", b"00",
        b"%05d" % len(subtitles), b"%05d" % len(subtitles), b"001", b"40", b"23", b"1", b"00000000",
        b"00000000", b"1", b"1", b"GBR", b"", b"", b"", b"",
    )  # fmt: skip
    gsi = gsi.replace(b"\x00", b" ")  # GSI fields are space-padded text
    blocks = []
    for number, (tci, tco, text) in enumerate(subtitles, start=1):
        blocks.append(
            struct.pack("<BHBBBBBBBBBBBBB112s", 0, number, 0xFF, 0, *tci, *tco, 20, 2, 0, text.ljust(112, b"\x8f"))
        )
    assert len(gsi) == 1024 and all(len(block) == 128 for block in blocks)
    return gsi + b"".join(blocks)


def test_ebu_stl_written_here(tmp_path):
    # at 25 frames/s (STL25.01): 00:00:01:12 = 1 + 12/25 = 1.48 s, 00:00:03:00 = 3 s,
    # 00:00:04:05 = 4.2 s, 00:00:06:24 = 6 + 24/25 = 6.96 s
    data = stl_file([((0, 0, 1, 12), (0, 0, 3, 0), b"Hello"), ((0, 0, 4, 5), (0, 0, 6, 24), b"World")])
    path = write(tmp_path, "teletext.stl", data)
    frame = read_units(path)["teletext"]
    assert frame["start"].tolist() == [1.48, 4.2]
    assert frame["end"].tolist() == [3.0, 6.96]
    assert frame["text"].tolist() == ["Hello", "World"]
    assert len(read_segments(path)["teletext"]) == 2


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("cut.ttml", IMSC[:700], r"cut.ttml:\d+: not well-formed XML"),
        ("empty.ttml", "", "empty.ttml: empty file"),
        ("time.ttml", IMSC.replace('begin="5s"', 'begin="5x"'), r"time.ttml:13: ttconv: Bad begin"),
        ("notttml.xml", "<html><body/></html>", "not a TTML document"),
        # a first line that is a time code line (a blank one before them is read: tests/test_captions_as_written.py)
        ("noheader.scc", SCC.split("\n", 2)[2], "noheader.scc:1: not an SCC file"),
        ("badtc.scc", SCC.replace("00:00:03;00", "00:00:3;00"), "badtc.scc:5: not an SCC line"),
        ("badword.scc", SCC.replace("942c 942c", "942c 94zz", 1), "badword.scc:5: not a 4-digit hex word"),
        ("garbage.scc", bytes(range(256)) * 4, "garbage.scc"),
        ("garbage.stl", bytes(range(256)) * 8, "not an EBU STL subtitle file"),
        ("cube.stl", "solid cube\nfacet normal 0 0 1\nendsolid\n", "3D model"),
        ("frames.stl", stl_file([((0, 0, 1, 25), (0, 0, 2, 0), b"x")]), "time code in out of range"),
        ("backwards.stl", stl_file([((0, 0, 3, 0), (0, 0, 2, 0), b"x")]), "backwards.stl: subtitle with end before"),
        ("short.stl", stl_file([((0, 0, 1, 0), (0, 0, 2, 0), b"x")])[:1100], "truncated EBU STL file"),
        ("badtc.stl", stl_file([((0, 0, 1, 0), (0, 0, 70, 0), b"x")]), "time code out out of range at 25 frames/s"),
    ],
)
def test_malformed_files_are_refused_with_their_path_and_line(tmp_path, name, content, message):
    path = write(tmp_path, name, content)
    with pytest.raises(InputError, match=message):
        read_units(path)
    assert main(["validate", str(path)]) == 2


def test_unknown_extension_names_what_the_file_looks_like(tmp_path):
    for name, content, advice in [
        ("a.cap", IMSC, "TTML captions: give --format ttml"),
        ("b.cap", SCC, "SCC captions: give --format scc"),
        ("c.cap", stl_file([((0, 0, 1, 0), (0, 0, 2, 0), b"x")]), "EBU STL captions: give --format stl"),
        ("d.cap", "WEBVTT\n\n00:01.000 --> 00:02.000\nx\n", "WebVTT: give --format vtt"),
        ("e.cap", "1\n00:00:01,000 --> 00:00:02,000\nx\n", "SRT: give --format srt"),
        ("f.cap", "[Script Info]\nTitle: x\n", "SubStation Alpha subtitles: format 'ass'"),  # .ass is read (issue 43)
    ]:
        with pytest.raises(InputError, match=advice):
            read_units(write(tmp_path, name, content))
    assert read_units(tmp_path / "a.cap", format="ttml")["a"]["start"].tolist() == [1.5, 5.0, 10.0]


def test_validate_each_format(tmp_path, capsys):
    files = [
        write(tmp_path, "a.ttml", IMSC),
        write(tmp_path, "b.xml", EBU_TT_D.replace('end="00:00:12.800"', 'end="00:00:12.500"')),
        write(tmp_path, "c.dfxp", DFXP),
        write(tmp_path, "d.scc", SCC),
        write(tmp_path, "e.stl", stl_file([((0, 0, 1, 0), (0, 0, 2, 0), b"x")])),
    ]
    assert main(["validate", *map(str, files)]) == 0
    out = capsys.readouterr().out
    assert all(f"{file.name}: ok" in out for file in files)


def test_evaluate_with_ttml_units_end_to_end(tmp_path):
    # the units of news.ttml (times by hand above) as a breath-group CSV: the same numbers
    write(tmp_path, "news.ttml", IMSC)
    write(tmp_path, "news.csv", "show,start,end\nnews,1.5,4.48\nnews,5,7.5\nnews,10,12.5\n")
    write(tmp_path, "ref.csv", "show,start,end,label\nnews,0,4.8,a\nnews,4.8,13,b\n")
    write(tmp_path, "hyp.csv", "show,start,end,label\nnews,0,8,a\nnews,8,13,b\n")
    results = []
    for units in ("news.ttml", "news.csv"):
        out = tmp_path / f"{units}.json"
        argv = ["evaluate", "--reference", str(tmp_path / "ref.csv"), "--hypothesis", f"sys={tmp_path / 'hyp.csv'}"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TvsegWarning)
            assert main([*argv, "--units", str(tmp_path / units), "--json", str(out), "--no-html", "--quiet"]) == 0
        results.append(json.loads(out.read_text())["systems"]["sys"]["corpus"])
    assert results[0]["pk"] == results[1]["pk"]
    # units [1.5,4.48] [5,7.5] [10,12.5]: reference boundary 4.8 s falls between units 1 and 2, the
    # hypothesis' 8 s between units 2 and 3; k = half the mean reference segment length in units (3 units,
    # 2 segments: 1.5 -> 1, windows (1,2) and (2,3)): both windows disagree, Pk = 2/2 = 1
    assert results[0]["pk"] == 1.0


def test_missing_library_names_the_extra(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_ttconv(name, *args, **kwargs):
        if name == "ttconv" or name.startswith("ttconv."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ttconv)
    with pytest.raises(Exception, match=r"pip install 'tvseg\[broadcast\]'"):
        read_units(write(tmp_path, "x.scc", SCC))
