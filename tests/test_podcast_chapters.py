"""Podcast chapters (issue 44): Podcast 2.0 JSON, FFMETADATA, the chapters of MP3 and MP4 files.

Expected values come from the files written in each test (quoted in the comments) and from hand computations;
the MP3 files are made with mutagen's own ID3 frames, the MP4 file box by box from the chapter list's layout.
"""

from __future__ import annotations

import json
import struct
import sys
import warnings
from pathlib import Path

import pytest

import tvseg
from tvseg.cli import main
from tvseg.errors import InputError, LenientInputWarning, MissingExtraError
from tvseg.readers import read_segments

mutagen_id3 = pytest.importorskip("mutagen.id3")

# a Podcast 2.0 reference of one episode: chapters at 0, 95.5, 300.25 (a silent chapter at 130 is not in the
# table of contents, so not a boundary), the last ending at 600
PODCAST = """{
  "version": "1.2.0",
  "title": "Episode 7",
  "chapters": [
    {"startTime": 0, "title": "Intro"},
    {"startTime": 95.5, "title": "News", "img": "https://example.com/news.jpg"},
    {"startTime": 130, "toc": false, "img": "https://example.com/map.jpg"},
    {"startTime": 300.25, "title": "Sport"},
    {"startTime": 420, "title": "Weather", "endTime": 600}
  ]
}
"""
# an FFMETADATA hypothesis of the same episode: chapters at 0, 97 (1/1000), 129 (1/90000: 11610000 / 90000),
# 421.5 (no TIMEBASE: nanoseconds), ending at 600
FFMETADATA = """;FFMETADATA1
title=Episode 7
artist=Someone

[CHAPTER]
TIMEBASE=1/1000
START=0
END=97000
title=Intro

[CHAPTER]
TIMEBASE=1/1000
START=97000
# a comment between START and END, as in FFmpeg's documentation
END=129000
title=News \\= weather \\#1

[CHAPTER]
TIMEBASE=1/90000
START=11610000
END=37935000
title=Sport

[CHAPTER]
START=421500000000
END=600000000000
title=Weather

[STREAM]
title=multi\\
line
"""


def _segments(corpus, show):
    return [(s.start, s.end, label) for s, _, label in corpus[show].itertracks(yield_label=True)]


def test_podcast_json_and_ffmetadata_read_as_written(tmp_path):
    (tmp_path / "ep7.json").write_text(PODCAST)
    (tmp_path / "ep7.ffmetadata").write_text(FFMETADATA)
    reference = read_segments(tmp_path / "ep7.json")
    assert _segments(reference, "ep7") == [
        (0.0, 95.5, "Intro"),
        (95.5, 300.25, "News"),  # the silent chapter at 130 stays inside News
        (300.25, 420.0, "Sport"),
        (420.0, 600.0, "Weather"),
    ]
    hypothesis = read_segments(tmp_path / "ep7.ffmetadata")
    assert _segments(hypothesis, "ep7") == [
        (0.0, 97.0, "Intro"),
        (97.0, 129.0, "News = weather #1"),
        (129.0, 421.5, "Sport"),
        (421.5, 600.0, "Weather"),
    ]


def test_a_podcast_reference_against_an_ffmetadata_hypothesis(tmp_path):
    (tmp_path / "ref").mkdir()
    (tmp_path / "hyp").mkdir()
    (tmp_path / "ref" / "ep7.json").write_text(PODCAST)
    (tmp_path / "hyp" / "ep7.ffmetadata").write_text(FFMETADATA)
    out = tmp_path / "scores.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(
            ["evaluate", "--reference", str(tmp_path / "ref"), "--hypothesis", f"sys={tmp_path / 'hyp'}"]
            + ["--tolerance", "3", "--no-html", "--json", str(out)]
        )
    assert code == 0
    corpus = json.loads(out.read_text())["systems"]["sys"]["corpus"]
    # reference boundaries 95.5, 300.25, 420 (130 is silent); hypothesis boundaries 97, 129, 421.5.
    # Within 3 s: 95.5-97 (1.5 s) and 420-421.5 (1.5 s); 300.25 has no partner (129 and 421.5 are far), 129 none.
    # P = 2/3, R = 2/3, F = 2 (2/3)(2/3) / (4/3) = 2/3
    assert corpus["boundary_precision"] == pytest.approx(2 / 3, abs=1e-12)
    assert corpus["boundary_recall"] == pytest.approx(2 / 3, abs=1e-12)
    assert corpus["boundary_f1"] == pytest.approx(2 / 3, abs=1e-12)
    # and the hit rate at 3 s is that same F; at 0.5 s nothing is matched
    assert corpus["hit_f1_3s"] == pytest.approx(2 / 3, abs=1e-12) and corpus["hit_f1_0_5s"] == 0.0


def test_a_silent_chapter_that_comes_first_leaves_its_time_out(tmp_path):
    # the first chapter of the table of contents starts at 10: the time before it is in no segment
    path = tmp_path / "ep.json"
    path.write_text(
        '{"version": "1.2.0", "chapters": [{"startTime": 0, "toc": false}, {"startTime": 10, "title": "A"}, '
        '{"startTime": 20, "title": "B", "endTime": 30}]}'
    )
    assert _segments(read_segments(path), "ep") == [(10.0, 20.0, "A"), (20.0, 30.0, "B")]


def test_the_last_chapter_without_endtime_ends_at_the_episode_end(tmp_path):
    path = tmp_path / "ep.json"
    path.write_text('{"version": "1.2.0", "chapters": [\n{"startTime": 0},\n{"startTime": 50.5, "title": "B"}\n]}\n')
    with pytest.raises(InputError, match="end of the last chapter is unknown") as error:
        read_segments(path)
    assert (error.value.line, error.value.value) == (3, "50.5")
    assert _segments(read_segments(path, end=80), "ep") == [(0.0, 50.5, "<NA>"), (50.5, 80.0, "B")]


@pytest.mark.parametrize(
    "text, line, message",
    [
        (
            '{"version": "1.2.0", "chapters": [\n{"startTime": 0},\n{"startTime": "9"}\n]}',
            3,
            "startTime must be a number",
        ),
        (
            '{"version": "1.2.0", "chapters": [\n{"startTime": 10},\n{"startTime": 5, "endTime": 8}\n]}',
            3,
            "ascending startTime",
        ),
        ('{"version": "1.2.0", "chapters": [\n{"startTime": 0, "toc": "no", "endTime": 3}\n]}', 2, "'toc' must be"),
        (
            '{"version": "1.2.0", "chapters": [\n{"startTime": 0, "endTime": 9},\n{"startTime": 0, "endTime": 9}\n]}',
            3,
            "start at the same time",
        ),
        (
            '{"version": "1.2.0", "chapters": [\n{"startTime": 0, "endTime": 9, "toc": false}\n]}',
            1,
            "no chapter in the",
        ),
        ('{"version": 1.2, "chapters": []}', 1, "'version' must be a string"),
    ],
)
def test_podcast_json_errors_name_the_line_and_the_value(tmp_path, capsys, text, line, message):
    path = tmp_path / "ep.json"
    path.write_text(text)
    with pytest.raises(InputError, match=message) as error:
        read_segments(path, format="podcast")
    assert error.value.line == line
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}:{line}:")


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("title=x\n", 1, "starts with ;FFMETADATA1"),
        (";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1.5\nEND=9\n", 4, "START must be a whole number"),
        (";FFMETADATA1\n[CHAPTER]\nTIMEBASE=0/1000\nSTART=1\nEND=9\n", 3, "TIMEBASE must be"),
        (";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nEND=9\nSTART=1\n", 4, "gives START= next"),
        (";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1\n", 2, "gives END= next"),
        (";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=1\nEND=9\nno equals sign\n", 6, "not a 'key=value'"),
        (";FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=9\nEND=2\n", 4, "end before start"),
    ],
)
def test_ffmetadata_errors_name_the_line_and_the_value(tmp_path, capsys, text, line, message):
    path = tmp_path / "chapters.ffmetadata"
    path.write_text(text)
    with pytest.raises(InputError, match=message) as error:
        read_segments(path)
    assert error.value.line == line
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}:{line}:")


def test_a_txt_file_is_ffmetadata_by_its_header_and_a_folder_needs_the_format(tmp_path):
    (tmp_path / "ep7.txt").write_text(FFMETADATA)
    assert len(_segments(read_segments(tmp_path / "ep7.txt"), "ep7")) == 4
    assert list(read_segments(tmp_path, format="ffmetadata")) == ["ep7"]


def _mp3(path, chapters, tables=()):
    """An MP3 file whose ID3 tag holds ``chapters`` ``(id, start_ms, end_ms, title)`` and ``tables``
    ``(id, top_level, children)``, made with mutagen's frames."""
    tags = mutagen_id3.ID3()
    for element, start, end, title in chapters:
        sub = [mutagen_id3.TIT2(encoding=3, text=[title])] if title else []
        tags.add(mutagen_id3.CHAP(element_id=element, start_time=start, end_time=end, sub_frames=sub))
    for element, top, children in tables:
        flags = mutagen_id3.CTOCFlags.ORDERED | (mutagen_id3.CTOCFlags.TOP_LEVEL if top else 0)
        tags.add(mutagen_id3.CTOC(element_id=element, flags=flags, child_element_ids=children, sub_frames=[]))
    path.write_bytes(b"\xff\xfb\x90\x00" + bytes(400))  # an MPEG frame header, silence
    tags.save(path)


def test_an_mp3_with_id3_chapters_reads_back_its_chapters(tmp_path):
    path = tmp_path / "episode.mp3"
    # written out of order; "ad" is in no table of contents
    chapters = [("c2", 61_500, 125_250, "Sport"), ("c1", 0, 61_500, "Intro"), ("ad", 70_000, 80_000, "Sponsor")]
    _mp3(path, chapters, tables=[("toc", True, ["c1", "sub"]), ("sub", False, ["c2"])])
    with pytest.warns(LenientInputWarning, match="1 chapter.*not in the top-level table of contents.*'ad'"):
        corpus = read_segments(path)
    assert _segments(corpus, "episode") == [(0.0, 61.5, "Intro"), (61.5, 125.25, "Sport")]
    # without a table of contents every chapter is read: the sponsor overlaps Sport, named by its frame
    _mp3(path, chapters)
    with pytest.raises(InputError, match="two chapters overlap") as error:
        read_segments(path)
    assert error.value.value == "CHAP 'ad'"


def test_an_mp4_chapter_list_reads_back(tmp_path):
    def box(name: bytes, payload: bytes) -> bytes:
        return struct.pack(">I", 8 + len(payload)) + name + payload

    # mvhd version 0: flags, created, modified, timescale 1000, duration 300000 (300 s); chpl: version 1,
    # 4 reserved bytes, a count, then each start in 100 ns units and a title of one length byte
    mvhd = box(b"mvhd", bytes(4) + struct.pack(">IIII", 0, 0, 1000, 300_000) + bytes(80))
    chapters = [(0, b"Intro"), (600_000_000, b"News"), (1_255_000_000, b"")]
    chpl = bytes([1, 0, 0, 0]) + bytes(4) + bytes([len(chapters)])
    for start, title in chapters:
        chpl += struct.pack(">Q", start) + bytes([len(title)]) + title
    path = tmp_path / "episode.m4a"
    path.write_bytes(
        box(b"ftyp", b"M4A \x00\x00\x02\x00isomiso2") + box(b"moov", mvhd + box(b"udta", box(b"chpl", chpl)))
    )
    assert _segments(read_segments(path), "episode") == [
        (0.0, 60.0, "Intro"),
        (60.0, 125.5, "News"),
        (125.5, 300.0, "<NA>"),
    ]
    video = path.rename(tmp_path / "episode.mp4")
    with pytest.raises(InputError, match="format 'mp4'"):
        read_segments(video)
    assert len(_segments(read_segments(video, format="mp4"), "episode")) == 3


def test_without_mutagen_an_audio_file_names_the_extra(tmp_path, monkeypatch):
    path = tmp_path / "episode.mp3"
    _mp3(path, [("c1", 0, 1000, "A")])
    monkeypatch.setitem(sys.modules, "mutagen", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'tvseg\[podcast\]'"):
        read_segments(path)


def test_convert_writes_podcast_json_and_ffmetadata_that_read_back(tmp_path):
    (tmp_path / "ep7.json").write_text(PODCAST)
    assert main(["convert", str(tmp_path / "ep7.json"), str(tmp_path / "out.ffmetadata")]) == 0
    text = (tmp_path / "out.ffmetadata").read_text()
    # the silent chapter is not written back: three boundaries, four chapters
    assert text.count("[CHAPTER]") == 4 and "START=95500\nEND=300250\ntitle=News\n" in text
    assert main(["convert", str(tmp_path / "out.ffmetadata"), str(tmp_path / "back.json"), "--to", "podcast"]) == 0
    written = json.loads((tmp_path / "back.json").read_text())
    assert written["version"] == "1.2.0"
    assert written["chapters"][1] == {"startTime": 95.5, "endTime": 300.25, "title": "News"}
    assert _segments(read_segments(tmp_path / "back.json"), "back") == _segments(
        read_segments(tmp_path / "ep7.json"), "ep7"
    )
    # a folder: one file per show, and titles with FFmpeg's special characters escaped
    from pyannote.core import Annotation, Segment

    show = Annotation(uri="a")
    show[Segment(0, 10)] = "x = y; #1 \\ end"
    show[Segment(10, 20.5)] = "<NA>"
    tvseg.write_segments({"a": show}, tmp_path / "folder", format="ffmetadata")
    written_text = (tmp_path / "folder" / "a.ffmetadata").read_text()
    assert "title=x \\= y\\; \\#1 \\\\ end\n" in written_text
    assert _segments(read_segments(tmp_path / "folder" / "a.ffmetadata"), "a") == [
        (0.0, 10.0, "x = y; #1 \\ end"),
        (10.0, 20.5, "<NA>"),
    ]
    tvseg.write_segments({"a": show}, tmp_path / "pod", format="podcast")
    assert _segments(read_segments(tmp_path / "pod" / "a.json"), "a") == _segments({"a": show}, "a")


EXAMPLES = Path(__file__).resolve().parent.parent / "formats" / "examples" / "podcast"


def test_the_format_pages_examples(capsys):
    # formats/podcast.md: the valid examples read; the invalid ones fail at the lines the page names
    assert main(["validate", *map(str, sorted(EXAMPLES.glob("*-valid.*")))]) == 0
    for name, line in (("podcast-invalid.json", 6), ("ffmetadata-invalid.ffmetadata", 11)):
        capsys.readouterr()
        assert main(["validate", str(EXAMPLES / name)]) == 2
        assert capsys.readouterr().err.startswith(f"{EXAMPLES / name}:{line}:")
