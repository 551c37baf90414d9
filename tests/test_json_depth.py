"""JSON nested deeper than Python's parser can follow is refused by every command that reads JSON: exit 2,
one line ``PATH:LINE: JSON nested too deeply to read (more than 64 levels)``, LINE that of the first bracket
deeper than 64 levels (issue 39); before, ``tvseg compare`` stopped on a RecursionError ("internal error").
"""

from __future__ import annotations

import pytest

import tvseg
from tvseg.cli import main
from tvseg.errors import InputError

DEEP = "[" * 100_000 + "]" * 100_000
"""100,000 nested arrays: far beyond the parser's recursion limit (1,000 frames by default)."""

# Line 1 and 2 hold valid JSON; the 65th bracket (the first deeper than 64 levels) is on line 3 in each file.
OBJECT = '{"a": 1,\n"b":\n' + DEEP + "}\n"
MESSAGE = "JSON nested too deeply to read (more than 64 levels)"


def _refused(argv, capsys) -> str:
    """Run ``tvseg ARGV``; check exit 2 and one line on stderr, no traceback; return the line."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err
    assert err.endswith("\n") and err.count("\n") == 1, err
    return err.rstrip("\n")


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_compare_refuses_a_deep_result(tmp_path, capsys):
    path = _write(tmp_path, "run.json", OBJECT)
    assert _refused(["compare", path, path], capsys) == f"{path}:3: {MESSAGE}"


def test_compare_names_the_deep_one_of_two(tmp_path, capsys):
    good = _write(tmp_path, "old.json", '{"systems": {}}\n')
    deep = _write(tmp_path, "new.json", DEEP)  # one line: the 65th '[' is on line 1
    assert _refused(["compare", good, deep], capsys) == f"{deep}:1: {MESSAGE}"


def test_agreement_refuses_a_deep_dataset(tmp_path, capsys):
    path = _write(tmp_path, "dataset.json", OBJECT)
    assert _refused(["agreement", path], capsys) == f"{path}:3: {MESSAGE}"


@pytest.mark.parametrize("command", ["evaluate", "validate"])
@pytest.mark.parametrize("side", ["reference", "hypothesis"])
def test_a_deep_json_segmentation_is_refused(tmp_path, capsys, command, side):
    good = _write(tmp_path, "good.json", '{"show": [{"start": 0, "end": 10, "title": "a"}]}\n')
    deep = _write(tmp_path, "deep.json", OBJECT)
    reference, hypothesis = (deep, good) if side == "reference" else (good, deep)
    argv = [command, "--reference", reference, "--hypothesis", f"sys={hypothesis}"]
    argv += ["--no-html"] if command == "evaluate" else []
    assert _refused(argv, capsys) == f"{deep}:3: {MESSAGE}"


def test_a_deep_json_read_through_columns_is_refused(tmp_path, capsys):
    path = _write(tmp_path, "records.json", OBJECT)
    argv = ["evaluate", "--reference", path, "--hypothesis", f"sys={path}", "--columns", "show=a,start=b,end=c"]
    assert _refused(argv + ["--no-html"], capsys) == f"{path}:3: {MESSAGE}"


def test_a_deep_chunkseg_line_is_refused_on_its_line(tmp_path, capsys):
    # line 1 a valid chunkseg line, line 2 blank, line 3 the deep one (its 65th bracket on the file's line 3)
    text = '{"reference": [], "hypothesis": [], "duration": 5}\n\n{"reference": ' + DEEP + ', "duration": 5}\n'
    path = _write(tmp_path, "shows.jsonl", text)
    assert _refused(["evaluate", "--chunkseg", path, "--no-html"], capsys) == f"{path}:3: {MESSAGE}"


@pytest.mark.parametrize("name", ["deep.json", "deep.jsonl"])
def test_convert_refuses_a_deep_input(tmp_path, capsys, name):
    path = _write(tmp_path, name, OBJECT.replace("\n", " ") if name.endswith("l") else OBJECT)
    line = 1 if name.endswith("l") else 3  # a JSONL file's object is on one line
    assert _refused(["convert", path, str(tmp_path / "out.rttm")], capsys) == f"{path}:{line}: {MESSAGE}"
    assert not (tmp_path / "out.rttm").exists()


def test_read_segments_raises_input_error(tmp_path):
    path = _write(tmp_path, "deep.json", OBJECT)
    with pytest.raises(InputError) as caught:
        tvseg.read_segments(path)
    assert str(caught.value) == f"{path}:3: {MESSAGE}"


def test_the_line_is_that_of_the_65th_level_not_the_first_bracket(tmp_path, capsys):
    # 64 levels on line 1 (the object and 63 arrays), the 65th opens line 2: the line named is 2
    text = '{"a":' + "[" * 63 + "\n" + "[" * 100_000 + "]" * 100_063 + "}"
    path = _write(tmp_path, "run.json", text)
    assert _refused(["compare", path, path], capsys) == f"{path}:2: {MESSAGE}"


def test_brackets_inside_strings_are_not_levels(tmp_path, capsys):
    # line 1: a string of 100 '[' (no level), line 2: the deep arrays, whose 65th bracket is on line 2
    text = '{"a": "' + "[" * 100 + '",\n"b": ' + DEEP + "}"
    path = _write(tmp_path, "run.json", text)
    assert _refused(["compare", path, path], capsys) == f"{path}:2: {MESSAGE}"
