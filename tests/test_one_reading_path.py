"""``tvseg validate`` and ``tvseg evaluate`` read every format the same way (issue 30, items 4 and 6).

One reading path per format: ``validate PATH`` gives the verdict ``evaluate`` gives on the same file (a
caption file: as ``--units``), with the same ``PATH:LINE: message``. One time range for every reader, ``[0, 2e9]`` s
(``tvseg.exact.MAX_SECONDS``), the end included. A file that starts with two byte order marks is refused
at line 1 by every reader, alone or with ``--uem``. The files are written by hand in each test.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import tvseg.readers.tables as tables
from tvseg.cli import main
from tvseg.columns import SegmentColumns, UnitColumns
from tvseg.exact import MAX_SECONDS
from tvseg.readers import read_segments

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "formats" / "examples"
BOM = b"\xef\xbb\xbf"
# the range's end, 2e9 s, written in each format's way: 555555 h 33 min 20 s = 1,999,998,000 + 1,980 + 20 s
EDGE = "2000000000"
PAST = "2000000000.000001"  # the nearest decimal above, six decimals (as a float: 2e9 + 9.5e-7 > 2e9)
CLOCK_EDGE = "555555:33:20"
MIDDLE = "1000000000"
CLOCK_MIDDLE = "277777:46:40"  # 277,777 h 46 min 40 s = 999,997,200 + 2,760 + 40 = 1e9 s
UEM_SHOW = "s 1 0 {end}\n"
REFERENCE = (
    f"SEGMENT s 1 0 {MIDDLE} <NA> <NA> A <NA> <NA>\n"  # [0, 1e9] and [1e9, 2e9]: the whole range
    f"SEGMENT s 1 {MIDDLE} {MIDDLE} <NA> <NA> B <NA> <NA>\n"
)


def test_the_range_is_what_the_readme_and_the_formats_state():
    assert MAX_SECONDS == 2e9
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "[0, 2,000,000,000] s" in readme
    policy = (ROOT / "formats" / "README.md").read_text(encoding="utf-8")
    assert "[0, 2,000,000,000] s" in policy


# --- running both commands --------------------------------------------------------------------------


def outcome(capsys, argv: list[str]) -> tuple[int, list[str]]:
    """The exit code of ``tvseg ARGV`` and its error lines (warnings left out)."""
    code = main(argv)
    err = capsys.readouterr().err
    return code, [line for line in err.splitlines() if not line.startswith("tvseg: warning:")]


def write(path: Path, text: str, *, prefix: bytes = b"") -> Path:
    path.write_bytes(prefix + text.encode("utf-8"))
    return path


class Format:
    """How to write one format's file and give it to ``validate`` and to ``evaluate``."""

    def __init__(self, name: str, suffix: str, *, role: str = "reference", format: str | None = None):
        self.name, self.suffix, self.role, self.format = name, suffix, role, format

    def commands(self, folder: Path, path: Path) -> tuple[list[str], list[str]]:
        """``(validate argv, evaluate argv)`` for ``path``; the other inputs of evaluate are valid files
        covering the whole range, written in ``folder``."""
        validate = ["validate", str(path)] + (["--format", self.format] if self.format else [])
        reference = write(folder / "reference.rttm", REFERENCE)
        evaluate = ["evaluate", "--no-html", "--bootstrap", "0"]
        if self.role == "reference":
            evaluate += ["--reference", str(path), "--hypothesis", f"a={path}"]
        elif self.role == "chunkseg":
            evaluate += ["--chunkseg", str(path)]
        elif self.role == "chapters":  # the last chapter ends where the UEM says the show ends
            uem = write(folder / "shows.uem", UEM_SHOW.format(end=EDGE))
            evaluate += ["--reference", str(path), "--hypothesis", f"a={path}", "--uem", str(uem)]
        else:  # --units or --uem beside a valid reference
            evaluate += ["--reference", str(reference), "--hypothesis", f"a={reference}", f"--{self.role}", str(path)]
        return validate, evaluate + (["--format", self.format] if self.format else [])


FORMATS = {
    "rttm": Format("rttm", ".rttm"),
    # a caption file: `validate FILE` reads it as --units does, whatever its role (formats/README.md)
    "vtt": Format("vtt", ".vtt", role="units"),
    "srt": Format("srt", ".srt", role="units"),
    "segments csv": Format("segments csv", ".csv"),
    "units csv": Format("units csv", ".csv", role="units"),
    "jsonl": Format("jsonl", ".jsonl", role="chunkseg"),
    "chapter list": Format("chapter list", ".txt", role="chapters", format="txt"),
    "uem": Format("uem", ".uem", role="uem"),
}


def both(capsys, tmp_path: Path, kind: str, text: str, *, prefix: bytes = b"") -> tuple[Path, tuple, tuple]:
    """Write ``text`` as the show ``s`` of format ``kind``; run validate and evaluate on it."""
    fmt = FORMATS[kind]
    folder = tmp_path / kind.replace(" ", "_")
    folder.mkdir()
    path = write(folder / f"s{fmt.suffix}", text, prefix=prefix)
    validate, evaluate = fmt.commands(folder, path)
    return path, outcome(capsys, validate), outcome(capsys, evaluate)


def assert_same(path: Path, validated, evaluated, *, line: int | None, message: str | None = None) -> None:
    """Both accepted (``line`` None), or both refused with one same ``PATH:LINE: message`` line."""
    if line is None:
        assert validated == (0, []) and evaluated == (0, []), (validated, evaluated)
        return
    assert validated[0] == evaluated[0] == 2, (validated, evaluated)
    assert validated[1] == evaluated[1], (validated, evaluated)
    assert len(validated[1]) == 1 and validated[1][0].startswith(f"{path}:{line}: "), validated
    if message is not None:
        assert message in validated[1][0], validated


# --- the time range's edge, in every format ---------------------------------------------------------

# each format's show s reaching the range's end (in) or a microsecond (a millisecond, a second) past it
# (out), and the line of the time past it
EDGES = {
    "rttm": (
        f"SEGMENT s 1 0 {MIDDLE} <NA> <NA> A <NA> <NA>\nSEGMENT s 1 {MIDDLE} {{}} <NA> <NA> B <NA> <NA>\n",
        (MIDDLE, MIDDLE + ".000001"),  # TBEG + TDUR = 2e9, then 2e9 + 1 us
        2,
    ),
    "vtt": (
        f"WEBVTT\n\n00:00:00.000 --> {CLOCK_MIDDLE}.000\nA\n\n{CLOCK_MIDDLE}.000 --> {{}}\nB\n",
        (CLOCK_EDGE + ".000", CLOCK_EDGE + ".001"),
        6,
    ),
    "srt": (
        f"1\n00:00:00,000 --> {CLOCK_MIDDLE},000\nA\n\n2\n{CLOCK_MIDDLE},000 --> {{}}\nB\n",
        (CLOCK_EDGE + ",000", CLOCK_EDGE + ",001"),
        6,
    ),
    "segments csv": (f"show,start,end,label\ns,0,{MIDDLE},A\ns,{MIDDLE},{{}},B\n", (EDGE, PAST), 3),
    "units csv": (f"show,start,end\ns,0,{MIDDLE}\ns,{MIDDLE},{{}}\n", (EDGE, PAST), 3),
    "jsonl": (
        '{{"show": "s", "reference": [' + MIDDLE + '], "hypothesis": [' + MIDDLE + '], "duration": {}}}\n',
        (EDGE, PAST),
        1,
    ),
    # a chapter list's times are whole seconds; its last chapter ends at the UEM's end, 2e9
    "chapter list": (f"0:00 A\n{CLOCK_MIDDLE} B\n{{}} C\n", ("555555:33:19", "555555:33:21"), 3),
    "uem": ("s 1 0 {}\n", (EDGE, PAST), 1),
}


@pytest.mark.parametrize("kind", list(FORMATS))
def test_a_time_at_the_end_of_the_range_is_read_by_both(capsys, tmp_path, kind):
    template, (inside, _), _ = EDGES[kind]
    path, validated, evaluated = both(capsys, tmp_path, kind, template.format(inside))
    assert_same(path, validated, evaluated, line=None)


@pytest.mark.parametrize("kind", list(FORMATS))
def test_a_time_past_the_end_of_the_range_is_refused_by_both_at_its_line(capsys, tmp_path, kind):
    template, (_, outside), line = EDGES[kind]
    path, validated, evaluated = both(capsys, tmp_path, kind, template.format(outside))
    assert_same(path, validated, evaluated, line=line, message="is too large (more than 2,000,000,000 seconds")


def test_the_csv_clock_time_at_the_edge(capsys, tmp_path):
    # 555555:33:20 is 2e9 s exactly (in); one microsecond more is out
    text = f"show,start,end,label\ns,0,{CLOCK_MIDDLE},A\ns,{CLOCK_MIDDLE},{{}},B\n"
    path, validated, evaluated = both(capsys, tmp_path, "segments csv", text.format(CLOCK_EDGE))
    assert_same(path, validated, evaluated, line=None)
    assert read_segments(path).end.tolist() == [1e9, 2e9]
    folder = tmp_path / "past"
    folder.mkdir()
    path = write(folder / "s.csv", text.format(CLOCK_EDGE + ".000001"))
    validate, evaluate = FORMATS["segments csv"].commands(folder, path)
    assert_same(path, outcome(capsys, validate), outcome(capsys, evaluate), line=3, message="end is too large")


# --- the reproducers of the issue -------------------------------------------------------------------


def test_a_time_between_the_two_old_bounds_is_refused_by_both_at_its_line(capsys, tmp_path):
    # 3e9 s: readers took times up to 1e10 s, the kernels refused those beyond 2**51 us (2.25e9 s), without
    # a line: validate said ok, evaluate "a time beyond 2251799814 s"
    text = "SEGMENT s1 1 0 5 <NA> <NA> a <NA> <NA>\nSEGMENT s1 1 5 3000000000 <NA> <NA> b <NA> <NA>\n"
    path, validated, evaluated = both(capsys, tmp_path, "rttm", text)
    assert_same(path, validated, evaluated, line=2, message="duration (TDUR) is too large")


def test_an_rttm_with_two_byte_order_marks_is_refused_alone_and_with_a_uem(capsys, tmp_path):
    text = "SEGMENT s 1 0 5 <NA> <NA> a <NA> <NA>\nSEGMENT s 1 5 30 <NA> <NA> b <NA> <NA>\n"
    path = write(tmp_path / "s.rttm", text, prefix=BOM + BOM)
    uem = write(tmp_path / "s.uem", "s 1 0 35\n")
    expected = f"{path}:1: the text starts with a second byte order mark (U+FEFF) after the first: remove it: b'\\xef\\xbb\\xbf'"
    base = ["evaluate", "--no-html", "--bootstrap", "0", "--reference", str(path), "--hypothesis", f"a={path}"]
    assert outcome(capsys, ["validate", str(path)]) == (2, [expected])
    assert outcome(capsys, base) == (2, [expected])
    assert outcome(capsys, [*base, "--uem", str(uem)]) == (2, [expected])
    # second in a folder (its text joined after another file's): the same
    folder = tmp_path / "folder"
    folder.mkdir()
    write(folder / "a.rttm", text.replace(" s ", " r "))
    second = write(folder / "b.rttm", text, prefix=BOM + BOM)
    # validate checks the file, then the folder as evaluate reads it: the same message for each
    code, errors = outcome(capsys, ["validate", str(folder)])
    assert code == 2 and errors == [expected.replace(str(path), str(second))] * 2


@pytest.mark.parametrize("kind", list(FORMATS))
def test_two_byte_order_marks_are_refused_at_line_1_in_every_format(capsys, tmp_path, kind):
    template, (inside, _), _ = EDGES[kind]
    path, validated, evaluated = both(capsys, tmp_path, kind, template.format(inside), prefix=BOM + BOM)
    assert_same(path, validated, evaluated, line=1, message="second byte order mark (U+FEFF)")


@pytest.mark.parametrize("kind", list(FORMATS))
def test_one_byte_order_mark_is_read_by_both(capsys, tmp_path, kind):
    template, (inside, _), _ = EDGES[kind]
    path, validated, evaluated = both(capsys, tmp_path, kind, template.format(inside), prefix=BOM)
    assert_same(path, validated, evaluated, line=None)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le"])
def test_a_second_mark_in_utf16_and_utf32_is_named_in_the_files_encoding(capsys, tmp_path, encoding):
    path = tmp_path / "s.uem"
    path.write_bytes(("\ufeff\ufeff" + "s 1 0 35\n").encode(encoding))
    second = "\ufeff".encode(encoding)
    code, errors = outcome(capsys, ["validate", str(path)])
    assert code == 2 and errors == [
        f"{path}:1: the text starts with a second byte order mark (U+FEFF) after the first: remove it: {second!r}"
    ]


# --- malformed lines --------------------------------------------------------------------------------

# (format, text, line of the first error, part of the message); the lines counted by hand
MALFORMED = [
    (
        "rttm",
        "SEGMENT s 1 0 5 <NA> <NA> A <NA> <NA>\nSEGMENT s 1 5 3 <NA> B <NA>\n",
        2,
        "expected 9 or 10 fields",
    ),
    ("rttm", "SEGMENT s 1 0 5 <NA> <NA> A <NA> <NA>\nSEGMENT s 1 -5 5 <NA> <NA> B <NA> <NA>\n", 2, "negative"),
    (
        "rttm",
        "SEGMENT s 1 0 5 <NA> <NA> A <NA> <NA>\nSEGMENT s 1 4 5 <NA> <NA> B <NA> <NA>\n",
        2,
        "overlap (lines 1 and 2)",
    ),
    # a broken timing line: its cue is skipped as a WebVTT player skips it (the units' reading), with one warning
    # naming line 6 from both (test_a_broken_cue_is_skipped_by_both_with_one_warning)
    ("vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nA\n\n00:00:05.000 -> 00:00:09.000\nB\n", None, None),
    # a cue of zero duration: skipped as a unit (with a warning) by both
    ("vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nA\n\n00:00:05.000 --> 00:00:05.000\nB\n", None, None),
    ("srt", "1\n00:00:00,000 --> 00:00:05,000\nA\n\n2\n00:00:05,000 --> 00:00:61,000\nB\n", 6, "over 59"),
    ("segments csv", "show,start,end,label\ns,0,5,A\ns,5,abc,B\n", 3, "end is not a number"),
    ("segments csv", "show,start,end,label\ns,0,5,A\ns,5,9\n", 3, "expected 4 fields"),
    ("segments csv", "show,start,end,label\ns,0,nan,A\n", 2, "end is not a number"),
    ("units csv", "show,start,end\ns,0,5\ns,5,x\n", 3, "end is not a number"),
    ("units csv", "show,start,end\ns,0,5\ns,4,9\n", 3, "breath groups overlap (lines 2 and 3)"),
    ("units csv", "show,start,end\ns,0,5\n,5,9\n", 3, "show is missing"),
    (
        "jsonl",
        '{"show": "s", "reference": [5], "hypothesis": [5], "duration": 9}\n{"show": "t", "reference": [5]\n',
        2,
        None,
    ),
    ("jsonl", '{"show": "s", "reference": [50], "hypothesis": [5], "duration": 9}\n', 1, None),
    ("chapter list", "0:00 A\n1:75 B\n", 2, "at most 59"),
    ("chapter list", "0:00 A\nB\n", 2, None),
    ("uem", "s 1 0\n", 1, None),
    ("uem", "s 1 0 -5\n", 1, "negative"),
]


@pytest.mark.parametrize("kind, text, line, message", MALFORMED)
def test_a_malformed_line_gets_one_same_message_from_both(capsys, tmp_path, kind, text, line, message):
    path, validated, evaluated = both(capsys, tmp_path, kind, text)
    assert_same(path, validated, evaluated, line=line, message=message)


def test_validate_of_a_units_table_gives_evaluate_s_error_for_a_bad_row(capsys, tmp_path):
    # row 4 (line 4) ends before it starts; lines 2-3 are fine; line 5 would be the next error
    text = "show,start,end,text,topic\ns,0,5,hello,t1\ns,5,9,world,t1\ns,12,10,late,t2\ns,x,1,bad,t2\n"
    path, validated, evaluated = both(capsys, tmp_path, "units csv", text)
    assert_same(path, validated, evaluated, line=5, message="start is not a number")
    text = "show,start,end,text,topic\ns,0,5,hello,t1\ns,5,9,world,t1\ns,12,10,late,t2\n"
    folder = tmp_path / "second"
    folder.mkdir()
    path = write(folder / "s.csv", text)
    validate, evaluate = FORMATS["units csv"].commands(folder, path)
    assert_same(
        path, outcome(capsys, validate), outcome(capsys, evaluate), line=4, message="breath group with end before start"
    )


INVALID_EXAMPLES = {
    "rttm-invalid.rttm": "rttm",
    "srt-invalid.srt": "srt",
    "segments-invalid.csv": "segments csv",
    "breath_groups-invalid.csv": "units csv",
    "uem-invalid.uem": "uem",
}


@pytest.mark.parametrize("name", sorted(INVALID_EXAMPLES))
def test_the_invalid_examples_get_one_same_message_from_both(capsys, tmp_path, name):
    fmt = FORMATS[INVALID_EXAMPLES[name]]
    path = tmp_path / name
    path.write_bytes((EXAMPLES / name).read_bytes())
    validate, evaluate = fmt.commands(tmp_path, path)
    validated, evaluated = outcome(capsys, validate), outcome(capsys, evaluate)
    assert validated[0] == evaluated[0] == 2 and validated[1] == evaluated[1], (validated, evaluated)
    assert validated[1][0].startswith(f"{path}:"), validated


def _warnings(capsys, argv: list[str], path: Path) -> tuple[int, list[str]]:
    """The exit code and the warnings naming a line of ``path`` (not those of the scoring that follows)."""
    code = main(argv)
    return code, [line for line in capsys.readouterr().err.splitlines() if line.startswith(f"tvseg: warning: {path}:")]


@pytest.mark.parametrize("name, line", [("chapters-invalid.vtt", 6), ("srt-missing-timing-invalid.srt", 5)])
def test_a_broken_cue_is_skipped_by_both_with_one_warning(capsys, tmp_path, name, line):
    # invalid as segments (a chapter's broken timing line, a cue number without its timing line), a caption file
    # is read as units by validate FILE and by --units alike: the broken block skipped or folded as a player
    # or webvtt-py reads it, with one same warning naming its line
    fmt = FORMATS[name.rsplit(".", 1)[1]]
    path = tmp_path / name
    path.write_bytes((EXAMPLES / name).read_bytes())
    validate, evaluate = fmt.commands(tmp_path, path)
    validated, evaluated = _warnings(capsys, validate, path), _warnings(capsys, evaluate, path)
    assert validated[0] == evaluated[0] == 0
    assert validated[1] == evaluated[1] and len(validated[1]) == 1, (validated, evaluated)
    assert validated[1][0].startswith(f"tvseg: warning: {path}:{line}: ")


# --- validate reads a units table once ---------------------------------------------------------------


def test_validate_reads_a_units_table_once_and_builds_no_frame(capsys, tmp_path, monkeypatch):
    path = write(tmp_path / "units.csv", "show,start,end,topic\na,0,5,x\na,5,9,x\nb,0,4,y\n")
    reads = []
    real = tables.read_plain_ascii
    monkeypatch.setattr(tables, "read_plain_ascii", lambda *a, **k: reads.append(a) or real(*a, **k))

    def no_frame(self, k):
        raise AssertionError("a per-show object built to count")

    monkeypatch.setattr(UnitColumns, "_build", no_frame)
    monkeypatch.setattr(SegmentColumns, "_build", no_frame)
    assert main(["validate", str(path)]) == 0
    assert len(reads) == 1
    # 3 units; topic runs: show a "x" (lines 2-3), show b "y": 2 segments
    assert capsys.readouterr().out == f"{path}: ok: breath groups, 2 show(s), 3 unit(s), 2 topic segment(s)\n"


def test_the_topic_segments_counted_are_those_read_segments_makes(capsys, tmp_path):
    # by show, in time order (the rows are not): a: x x "" <NA> y x -> runs x | "" and <NA> (both NO_LABEL,
    # one run) | y | x = 4; b: x (the same topic as a's last, another show) = 1; 5 in all
    text = "show,start,end,topic\na,10,12, x\na,0,2,x\na,2,4,x \na,4,6,\na,6,8,<NA>\na,8,10,y\nb,0,1,x\n"
    path = write(tmp_path / "units.csv", text)
    assert len(read_segments(path).start) == 5
    assert main(["validate", str(path)]) == 0
    assert "7 unit(s), 5 topic segment(s)" in capsys.readouterr().out


def test_validate_of_a_chunkseg_line_counts_as_evaluate_reads_it(capsys, tmp_path):
    path = write(
        tmp_path / "s.jsonl", json.dumps({"show": "s", "reference": [5], "hypothesis": [5], "duration": 9}) + "\n"
    )
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: ok: JSONL, 1 show(s), 2 segment(s)\n"


# --- the range for readers whose times come from a library -------------------------------------------


def test_every_reader_s_rows_are_checked_against_the_range_at_their_line():
    from tvseg.readers.corpus import Rows, check_spans

    def rows(end):
        label = np.array(["A", "B"], dtype=object)
        return Rows(["s"], ["f.x"], [0, 0], start=[0.0, 1e9], end=[1e9, end], line=[3, 7], label=label)

    assert check_spans(rows(2e9))[1] is None
    error = check_spans(rows(float(PAST)))[1]
    assert (error.path, error.line) == ("f.x", 7) and "segment end is too large" in error.message


def test_a_ttml_time_past_the_range_gets_one_same_message_from_both(capsys, tmp_path):
    pytest.importorskip("ttconv")
    text = (
        '<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en">\n'
        "  <body><div>\n"
        '    <p begin="0s" end="5s">Hello.</p>\n'
        '    <p begin="5s" end="3000000000s">Late.</p>\n'  # line 4: ends at 3e9 s
        "  </div></body>\n"
        "</tt>\n"
    )
    path = write(tmp_path / "s.ttml", text)
    validate, evaluate = Format("ttml", ".ttml", role="units").commands(tmp_path, path)
    assert_same(path, outcome(capsys, validate), outcome(capsys, evaluate), line=4, message="end is too large")
