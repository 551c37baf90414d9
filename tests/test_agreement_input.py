"""``tvseg agreement`` refuses what it cannot read or score (issue 11): exit 2, one line ``PATH:LINE: message``.

Repeated JSON keys, nesting too deep for the parser, masses that are not positive integers or overflow
int64, items of absurd size, coders disagreeing on an item's size, and bytes that do not decode.
"""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from tvseg.cli import main
from tvseg.errors import InputError
from tvseg.readers.agreement import MAX_UNITS
from tvseg.unit.masses import as_masses


def _refused(path, capsys) -> str:
    """Run ``tvseg agreement PATH``; check exit 2 and a one-line message; return it."""
    assert main(["agreement", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err
    assert "Traceback" not in err and "internal error" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    return err.rstrip("\n")


def _write(tmp_path, text, name="data.json"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------
# 1. repeated keys


def test_repeated_coder_is_refused_not_scored(tmp_path, capsys):
    # json.loads keeps the last "a" ([5]): the file would score pi* = 1.0
    path = _write(tmp_path, '{"i":{"a":[2,3],"a":[5],"b":[5]}}')
    err = _refused(path, capsys)
    assert err.startswith(f"{path}:1: a key is repeated in one object")
    assert err.endswith("'a'")


def test_repeated_key_line_is_the_repeat(tmp_path, capsys):
    # "a" is a coder of ch1 too: the line is that of the repeat inside ch2, not of the first "a"
    path = _write(
        tmp_path, '{\n "ch1": {"a": [2, 3], "b": [5]},\n "ch2": {\n  "a": [1, 4],\n  "b": [5],\n  "a": [5]\n }\n}\n'
    )
    err = _refused(path, capsys)
    assert err.startswith(f"{path}:6: a key is repeated")


@pytest.mark.parametrize(
    "text, line, key",
    [
        # an item given twice
        ('{"ch1": {"a": [5], "b": [5]},\n"ch1": {"a": [2, 3], "b": [5]}}', 2, "'ch1'"),
        # segeval's layout with "items" twice
        ('{"items": {"x": {"a": [5], "b": [5]}},\n "segmentation_type": "linear",\n "items": {}}', 3, "'items'"),
        # the same key spelt with an escape
        ('{"i": {"a": [2, 3],\n "\\u0061": [5], "b": [5]}}', 2, "'a'"),
    ],
)
def test_repeated_keys_at_any_level(tmp_path, capsys, text, line, key):
    path = _write(tmp_path, text)
    err = _refused(path, capsys)
    assert err.startswith(f"{path}:{line}: a key is repeated") and err.endswith(key)


# ---------------------------------------------------------------------------------------------
# 2. nesting too deep


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000])
def test_deep_nesting_is_refused(tmp_path, capsys, text):
    path = _write(tmp_path, text)
    err = _refused(path, capsys)
    assert err.startswith(f"{path}:1: JSON nested too deeply")


def test_deep_nesting_names_its_line(tmp_path, capsys):
    path = _write(tmp_path, '{"ch1": {"a": [5], "b": [5]},\n"x":\n' + "[" * 100_000 + "]" * 100_000 + "}")
    err = _refused(path, capsys)
    assert err.startswith(f"{path}:3: JSON nested too deeply")


# ---------------------------------------------------------------------------------------------
# 3. masses


@pytest.mark.parametrize(
    "mass, problem",
    [
        ("99999999999999999999999", "mass 1 is 99999999999999999999999, beyond a 64-bit integer"),
        ("9223372036854775808", "mass 1 is 9223372036854775808, beyond a 64-bit integer"),
        ("2.0", "mass 1 is 2.0, not an integer"),
        ("2.5", "mass 1 is 2.5, not an integer"),
        ("true", "mass 1 is true, a boolean"),
        ("-2", "mass 1 is -2, not positive"),
        ("0", "mass 1 is 0, not positive"),
        ('"2"', 'mass 1 is "2", not a number'),
        ("null", "mass 1 is null, not a number"),
        ("[1]", "mass 1 is a JSON array"),
        ('{"x": 1}', "mass 1 is a JSON object"),
        ("NaN", "mass 1 is NaN, not an integer"),
        ("1e400", "mass 1 is Infinity, not an integer"),
    ],
)
def test_bad_mass_names_item_coder_and_value(tmp_path, capsys, mass, problem):
    path = _write(tmp_path, '{"ch1": {\n  "a": [5, 3],\n  "b": [' + mass + ", 3]\n}}\n")
    err = _refused(path, capsys)
    assert err.startswith(f"{path}:3: item 'ch1', coder 'b': masses must be a list of positive integers ({problem})")


def test_integer_too_long_to_convert(tmp_path, capsys):
    # Python refuses to convert integer literals of more than 4300 digits (a ValueError inside json)
    path = _write(tmp_path, '{"ch1": {"a": [5],\n "b": [' + "9" * 5000 + "]}}")
    err = _refused(path, capsys)
    assert err.startswith(f"{path}:2: an integer of 5000 digits cannot be a number of units")


def test_absurd_item_size_is_refused_before_any_work(tmp_path, capsys):
    path = _write(tmp_path, f'{{"ch1": {{"a": [{MAX_UNITS}, 1], "b": [{MAX_UNITS + 1}]}}}}')
    err = _refused(path, capsys)
    assert err.startswith(
        f"{path}:1: item 'ch1', coder 'a': 1,000,000,001 units in all, more than the 1,000,000,000 an item may have"
    )


def test_large_sane_masses_are_scored_quickly(tmp_path, capsys):
    # the metrics work on boundary positions: millions of units cost no more than a few
    dataset = {
        "ch1": {"a": [10**6, 10**6], "b": [10**6 - 1, 10**6 + 1], "c": [2 * 10**6]},
        "ch2": {"a": [MAX_UNITS // 2, MAX_UNITS // 2], "b": [MAX_UNITS], "c": [MAX_UNITS // 2] * 2},
    }
    path = _write(tmp_path, json.dumps(dataset))
    out_json = tmp_path / "out.json"
    for convention in ("paper", "segeval1", "segeval"):
        start = time.perf_counter()
        assert main(["agreement", str(path), "--convention", convention, "--json", str(out_json)]) == 0
        assert time.perf_counter() - start < 5
        written = json.loads(out_json.read_text())
        assert 0 < written["actual"] < 1
    capsys.readouterr()


def test_library_refuses_masses_beyond_int64():
    for masses in ([99999999999999999999999, 3], np.array([2**64 - 1], dtype=np.uint64), [1e19, 3.0]):
        with pytest.raises(InputError, match=r"masses\[0\] is beyond a 64-bit integer"):
            as_masses(masses)
    # each mass fits int64 but the total would wrap around
    for masses in ([2**62, 2**62], np.array([2**62] * 4, dtype=np.int64)):
        with pytest.raises(InputError, match="beyond a 64-bit integer"):
            as_masses(masses)
    assert as_masses([2**62, 2**62 - 1]).sum() == 2**63 - 1


# ---------------------------------------------------------------------------------------------
# 4. coders disagreeing on an item's size (already refused; the line is the item's)


def test_different_totals_are_refused(tmp_path, capsys):
    path = _write(tmp_path, '{\n "ch1": {"a": [2, 3], "b": [5]},\n "ch2": {"a": [2, 3], "b": [4]}\n}\n')
    err = _refused(path, capsys)
    assert err == f"{path}:3: item 'ch2': coders disagree on its number of units: {{'a': 5, 'b': 4}}"


# ---------------------------------------------------------------------------------------------
# 5. encoding


def test_bytes_that_are_not_utf8(tmp_path, capsys):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"ch1": {"a": [5],\n "é": [5]}}'.encode("latin-1"))
    err = _refused(path, capsys)
    # the common decoding's message (tvseg.readers.source): the byte, é in Latin-1, on line 2
    assert err.startswith(f"{path}:2: not UTF-8 (byte 0xE9)")


def test_byte_order_mark_is_fine(tmp_path, capsys):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"ch1": {"a": [2, 3], "b": [5]}}).encode())
    assert main(["agreement", str(path)]) == 0
    assert "coders" in capsys.readouterr().out


def test_folder_named_json(tmp_path, capsys):
    path = tmp_path / "folder.json"
    path.mkdir()
    err = _refused(path, capsys)
    assert err.startswith(str(path))


# ---------------------------------------------------------------------------------------------
# segment files: frames are allocated, so their number is bounded as in ``tvseg evaluate``


def test_frame_too_short_for_segment_files(tmp_path, capsys):
    pytest.importorskip("tvseg.unit.projection")
    rows = "SEGMENT s1 1 0.000 10.000 <NA> <NA> t1 <NA> <NA>\nSEGMENT s1 1 10.000 3590.000 <NA> <NA> t2 <NA> <NA>\n"
    (tmp_path / "a.rttm").write_text(rows)
    (tmp_path / "b.rttm").write_text(rows)
    assert main(["agreement", str(tmp_path / "a.rttm"), str(tmp_path / "b.rttm"), "--frame", "0.000001"]) == 2
    err = capsys.readouterr().err
    assert "--frame 1e-06 cuts show 's1'" in err and "use a longer frame" in err and "Traceback" not in err
