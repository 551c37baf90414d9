"""Show ids, titles and file names that try to act on the terminal, on the file system or in a spreadsheet.

Inputs are written here by hand with show ids holding a screen clear (``ESC[2J``), a window title
(``ESC]0;pwned BEL``), a newline, a bidi override, ``CON``, ``.hidden``, ``a/b`` and ``..``, and
titles starting with ``=``. The CLI runs in a subprocess (so that its warnings are printed as a user
sees them, not recorded by pytest), and the tests check that no raw control or bidi character reaches
stdout or stderr, that every file written is inside the output folder with a safe name, and that
distinct ids give distinct files.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from pyannote.core import Annotation, Segment

from tvseg import read_segments
from tvseg.file_names import safe_names
from tvseg.terminal import printable

ESC, BEL, CSI = "\x1b", "\x07", "\x9b"
CLEAR = ESC + "[2J"
TITLE = ESC + "]0;pwned" + BEL
RLO = "\u202e"  # right-to-left override
HOSTILE_IDS = [CLEAR, TITLE, "new\nline", "CON", ".hidden", "a/b", "..", "a" + RLO + "b", "news"]
# what a terminal would act on: C0 but tab and newline, DEL, C1, bidi controls, line/paragraph separators
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
SAFE_FILE_NAME = re.compile(r"[^./\\:*?\"<>|\x00-\x1f\x7f-\x9f -][^/\\:*?\"<>|\x00-\x1f\x7f-\x9f]*")
RESERVED = re.compile(r"(con|prn|aux|nul|com\d|lpt\d)(\..*)?", re.IGNORECASE)
REPO = Path(__file__).resolve().parent.parent


def digest(show_id: str) -> str:
    """The 8 hex digits the names carry: the first 32 bits of the id's SHA-256 (formats/README.md)."""
    return hashlib.sha256(show_id.encode("utf-8")).hexdigest()[:8]


def run_tvseg(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "tvseg", *args], cwd=cwd, capture_output=True, timeout=120, env=env, check=False
    )


def assert_no_raw_controls(result: subprocess.CompletedProcess) -> tuple[str, str]:
    """stdout and stderr decoded: no raw control character but the newlines between lines."""
    out, err = result.stdout.decode("utf-8"), result.stderr.decode("utf-8")
    for stream in (out, err):
        assert RAW.search(stream) is None, stream
    assert "Traceback" not in err, err
    return out, err


def write_jsonl(path: Path, ids, *, titles=('=HYPERLINK("http://x")', "+1 news")) -> None:
    """One chunkseg line per show: reference [0, 10) [10, 20), hypothesis [0, 12) [12, 20)."""
    with open(path, "w", encoding="utf-8") as f:
        for show in ids:
            line = {
                "show": show,
                "reference": [10],
                "hypothesis": [12],
                "duration": 20,
                "reference_titles": [[titles[0], 0], [titles[1], 10]],
            }
            f.write(json.dumps(line) + "\n")


def files_under(folder: Path) -> set[Path]:
    return {Path(root, name) for root, _, names in os.walk(folder) for name in names}


# printable ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (CLEAR, "\\x1b[2J"),
        (TITLE, "\\x1b]0;pwned\\x07"),
        (CSI + "2J", "\\x9b2J"),  # the one-byte C1 form of ESC [
        ("a\rb", "a\\rb"),
        ("del\x7f", "del\\x7f"),
        ("a" + RLO + "b", "a\\u202eb"),
        ("\u2066x\u2069", "\\u2066x\\u2069"),  # isolates
        ("a\u2028b", "a\\u2028b"),  # line separator
        ("\ud800", "\\ud800"),  # a lone surrogate cannot even be encoded
        ("two\nlines\tand a tab", "two\\nlines\\tand a tab"),
        ("Journal de 20h, émission n° 3 – 日本", "Journal de 20h, émission n° 3 – 日本"),
        ("\u00a0%", "\u00a0%"),  # a no-break space is shown as a space: left alone
    ],
)
def test_printable_escapes_what_acts_on_a_terminal(text, shown):
    assert printable(text) == shown


def test_printable_keeps_lines_and_tabs_when_asked():
    assert printable("usage: x\nerror:\t" + CLEAR, lines=True) == "usage: x\nerror:\t\\x1b[2J"


# safe_names --------------------------------------------------------------------------------------


@pytest.mark.parametrize("keep_unicode", [False, True])
def test_safe_names_of_hostile_ids(keep_unicode):
    names = safe_names(HOSTILE_IDS, keep_unicode=keep_unicode)
    assert names["news"] == "news"
    # reduced text + "-" + 8 hex digits of the id's SHA-256, reserved names with "_" after the device
    assert names["a/b"] == f"a_b-{digest('a/b')}"
    assert names["CON"] == f"CON_-{digest('CON')}"
    assert names[".hidden"] == f"hidden-{digest('.hidden')}"
    assert names[".."] == f"show-{digest('..')}"  # nothing left after the dots
    assert names["new\nline"] == f"new_line-{digest('new' + chr(10) + 'line')}"
    assert names[CLEAR] == (f"_[2J-{digest(CLEAR)}" if keep_unicode else f"2J-{digest(CLEAR)}")
    assert names["a" + RLO + "b"] == (
        f"a_b-{digest('a' + RLO + 'b')}" if keep_unicode else f"ab-{digest('a' + RLO + 'b')}"
    )
    for name in names.values():
        assert SAFE_FILE_NAME.fullmatch(name) and not RESERVED.fullmatch(name), name
        assert not name.endswith((".", " "))
    assert len({n.casefold() for n in names.values()}) == len(HOSTILE_IDS)


@pytest.mark.parametrize(
    "show_id", ["CON", "con.x", "Com1.txt", "lpt9", "NUL .vtt", "conout$", "LPT\u00b9", "aux.tar.gz"]
)
def test_windows_reserved_names_are_never_given(show_id):
    for keep_unicode in (False, True):
        name = safe_names([show_id], keep_unicode=keep_unicode)[show_id]
        # Windows reserves the device name followed by an extension too: CON_.x is not reserved
        assert not re.match(
            r"(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$) *(\.|$)",
            name,
            re.IGNORECASE,
        ), name
        assert name.endswith(digest(show_id))
    assert safe_names(["CONSOLE", "com10"], keep_unicode=True) == {"CONSOLE": "CONSOLE", "com10": "com10"}


def test_ids_that_reduce_alike_get_distinct_names_in_any_order():
    # a/b, a\b, a:b and a*b all reduce to a_b; a_b itself is a safe name and keeps it; Show and show
    # are one file on a case-insensitive disk; "é" composed and decomposed one file on macOS
    ids = ["a/b", "a\\b", "a:b", "a*b", "a_b", "Show", "show", "\u00e9", "e\u0301"]
    for keep_unicode in (False, True):
        names = safe_names(ids, keep_unicode=keep_unicode)
        keys = {unicodedata.normalize("NFC", n).casefold() for n in names.values()}
        assert len(keys) == len(ids)
        assert names["a_b"] == "a_b" and names["Show"] == "Show"  # the sorted order: "S" < "s"
        assert names["show"] == f"show-{digest('show')}"
        assert safe_names(list(reversed(ids)), keep_unicode=keep_unicode) == names


def test_an_id_written_like_another_ids_name_does_not_take_its_file():
    planted = f"a_b-{digest('a/b')}"  # the name a/b would get, given as an id of its own
    names = safe_names(["a/b", planted])
    assert names[planted] == planted  # a safe id keeps its name
    assert names["a/b"] == f"{planted}-2"
    assert safe_names([planted, "a/b"]) == names


def test_long_ids_are_bounded_and_stay_distinct():
    long_a, long_b = "é" * 150 + "a", "é" * 150 + "b"  # 301 bytes of UTF-8 each
    names = safe_names([long_a, long_b], keep_unicode=True)
    assert names[long_a] != names[long_b]
    for show_id, name in names.items():
        assert len(name.encode("utf-8")) <= 200 + 9 and name.endswith(digest(show_id))
    ascii_names = safe_names(["x" * 100])
    assert ascii_names["x" * 100] == "x" * 64 + "-" + digest("x" * 100)


def test_ordinary_ids_keep_their_names_in_convert():
    ids = ["Journal de 20h", "émission_1", "fr2_journal20h_2024-03-11", "_y", "a__b"]
    assert safe_names(ids, keep_unicode=True) == {i: i for i in ids}


# the command line --------------------------------------------------------------------------------


@pytest.mark.parametrize("to", ["vtt", "srt", "txt"])
def test_convert_writes_one_safe_file_per_show_inside_the_folder(tmp_path, to):
    write_jsonl(tmp_path / "ref.jsonl", HOSTILE_IDS, titles=("Headlines", "Sport"))
    result = run_tvseg("convert", "ref.jsonl", "out", "--to", to, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    _, err = assert_no_raw_controls(result)
    # 8 of the 9 ids are renamed ("news" is not); the example shown is the first in sorted order
    assert f"8 show id(s) cannot be file names as they are (e.g. '\\x1b[2J' -> '_[2J-{digest(CLEAR)}.{to}')" in err
    written = files_under(tmp_path)
    assert written - {tmp_path / "ref.jsonl"} == {tmp_path / "out" / p.name for p in (tmp_path / "out").iterdir()}
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len(names) == len(HOSTILE_IDS)
    for name in names:
        stem = name[: -len(to) - 1]
        assert name.endswith("." + to) and SAFE_FILE_NAME.fullmatch(stem) and not RESERVED.fullmatch(stem), name
    assert f"news.{to}" in names and f"CON_-{digest('CON')}.{to}" in names
    # read back, a show's id is its file name
    stems = {n[: -len(to) - 1] for n in names}
    back = read_segments(tmp_path / "out", format=to, end={s: 20.0 for s in stems} if to == "txt" else None)
    assert set(back) == stems
    assert [(s.start, s.end) for s in back["news"].itersegments()] == [(0.0, 10.0), (10.0, 20.0)]


def test_convert_keeps_distinct_ids_distinct(tmp_path):
    ids = ["a/b", "a\\b", "a:b", "a_b", "Show", "show"]
    write_jsonl(tmp_path / "ref.jsonl", ids)
    result = run_tvseg("convert", "ref.jsonl", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert_no_raw_controls(result)
    names = {p.name.casefold() for p in (tmp_path / "out").iterdir()}
    assert len(names) == len(ids)
    assert {"a_b.vtt", "show.vtt"} <= names


def test_convert_csv_writes_formula_titles_verbatim_and_reads_them_back(tmp_path):
    # formats/segments-csv.md: convert's CSV is data read back by tvseg, so a title stays exactly as it
    # is; the report's data/*.csv are the ones that neutralise formulas for spreadsheets
    titles = ['=HYPERLINK("http://x","y")', "+1 news", "-30 % sales", "@SUM(A1)", "'quoted'"]
    reference = {}
    for k, title in enumerate(titles):
        annotation = Annotation(uri=f"s{k}")
        annotation[Segment(0, 10)] = title
        annotation[Segment(10, 20)] = "Sport"
        reference[f"s{k}"] = annotation
    from tvseg import write_segments

    write_segments(reference, tmp_path / "in.csv")
    result = run_tvseg("convert", "in.csv", "out.csv", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "out.csv").read_text(encoding="utf-8")
    assert 's0,0.000,10.000,"=HYPERLINK(""http://x"",""y"")"\n' in text
    assert "s1,0.000,10.000,+1 news\n" in text and "s3,0.000,10.000,@SUM(A1)\n" in text
    back = read_segments(tmp_path / "out.csv")
    assert [back[f"s{k}"].argmax(Segment(0, 10)) for k in range(len(titles))] == titles


def test_evaluate_prints_hostile_ids_escaped(tmp_path):
    write_jsonl(tmp_path / "ref.jsonl", HOSTILE_IDS)
    # a hypothesis with a show not in the reference (a warning names it) and one with a bidi override
    rows = ["show,start,end,label", f'"{TITLE}",0,12,@x', f'"{TITLE}",12,20,-minus', f'"zz{ESC}[31m{RLO}",0,20,x']
    (tmp_path / "hyp.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = run_tvseg(
        "evaluate", "--reference", "ref.jsonl", "--hypothesis", "sys=hyp.csv", "--bootstrap", "0",
        "--html", "rep", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    _, err = assert_no_raw_controls(result)
    assert "show(s) not in the reference, left out: zz\\x1b[31m\\u202e (from hyp.csv)" in err
    assert "no hypothesis for show \\x1b[2J: scored as an empty hypothesis" in err
    # the report: every page inside the folder, named with [A-Za-z0-9._-] only, one per show
    pages = list((tmp_path / "rep" / "shows").iterdir())
    assert len(pages) == len(HOSTILE_IDS)
    assert all(re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*\.html", p.name) for p in pages)
    assert all(p.resolve().is_relative_to((tmp_path / "rep").resolve()) for p in files_under(tmp_path / "rep"))
    assert files_under(tmp_path) - files_under(tmp_path / "rep") == {tmp_path / "ref.jsonl", tmp_path / "hyp.csv"}


def test_errors_show_hostile_values_escaped(tmp_path):
    with open(tmp_path / "dup.jsonl", "w", encoding="utf-8") as f:
        for _ in range(2):  # the same show twice: refused at line 2, naming the show
            f.write(json.dumps({"show": CLEAR + RLO, "reference": [10], "duration": 20}) + "\n")
    for command in (["validate", "dup.jsonl"], ["convert", "dup.jsonl", "x.csv"]):
        result = run_tvseg(*command, cwd=tmp_path)
        assert result.returncode == 2
        _, err = assert_no_raw_controls(result)
        assert err == "dup.jsonl:2: show already read from line 1: '\\x1b[2J\\u202e'\n"
    assert not (tmp_path / "x.csv").exists()
    # argparse's own usage errors quote the command line
    result = run_tvseg("convert", "a", "b", "--to" + CLEAR, cwd=tmp_path)
    assert result.returncode == 2
    _, err = assert_no_raw_controls(result)
    assert "\\x1b[2J" in err


def test_validate_escapes_file_names_in_its_report(tmp_path):
    folder = tmp_path / "fold"
    folder.mkdir()
    (folder / f"bad{CLEAR}.rttm").write_text("garbage\n", encoding="utf-8")
    (folder / f"ok{TITLE}.rttm").write_text(
        "SEGMENT news 1 0.000 10.000 <NA> <NA> Headlines <NA> <NA>\n", encoding="utf-8"
    )
    result = run_tvseg("validate", str(folder / f"bad{CLEAR}.rttm"), str(folder / f"ok{TITLE}.rttm"), cwd=tmp_path)
    assert result.returncode == 2
    out, err = assert_no_raw_controls(result)
    assert err == f"{folder}/bad\\x1b[2J.rttm:1: expected 9 or 10 fields, found 1: 'garbage'\n"
    assert out.startswith(f"{folder}/ok\\x1b]0;pwned\\x07.rttm: ok: ")


def test_internal_errors_and_system_errors_are_escaped(monkeypatch, capsys):
    from tvseg import cli
    from tvseg.commands import convert

    def broken(args):
        raise RuntimeError(f"bug with {CLEAR}")

    monkeypatch.setattr(convert, "run", broken)
    assert cli.main(["convert", "a", "b"]) == 1
    err = capsys.readouterr().err
    assert RAW.search(err) is None and "RuntimeError: bug with \\x1b[2J" in err

    def refused(args):
        raise PermissionError(13, "Permission denied", f"out{TITLE}")

    monkeypatch.setattr(convert, "run", refused)
    assert cli.main(["convert", "a", "b"]) == 2
    assert capsys.readouterr().err == "tvseg: error: out\\x1b]0;pwned\\x07: Permission denied\n"


def test_warnings_shown_by_the_cli_are_one_escaped_line(capsys):
    from tvseg.cli import _show_warning

    _show_warning(UserWarning(f"show {CLEAR}\nfake: error"), UserWarning, "x.py", 1)
    assert capsys.readouterr().err == "tvseg: warning: show \\x1b[2J\\nfake: error\n"


def test_progress_bars_escape_their_description(capsys):
    from tvseg import progress

    progress.set_mode(True)
    try:
        with progress.Bar(2, desc=f"reading {CLEAR}") as bar:
            bar.update(2)
    finally:
        progress.set_mode(None)
    err = capsys.readouterr().err
    assert "reading \\x1b[2J" in err and CLEAR not in err


@pytest.mark.filterwarnings("ignore::tvseg.errors.TvsegWarning")  # pytest would print them raw
def test_summary_table_escapes_system_names():
    from tvseg import evaluate
    from tvseg.commands.evaluate import summary

    reference = Annotation(uri="news")
    reference[Segment(0, 10)] = "A"
    reference[Segment(10, 20)] = "B"
    result = evaluate({"news": reference}, {f"sys{TITLE}": {"news": reference}})
    table = summary(result)
    assert RAW.search(table) is None
    assert "sys\\x1b]0;pwned\\x07  corpus" in table
