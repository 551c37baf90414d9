"""A units table read a block of lines at a time (every line a record) and one read line by line (a
blank line in it) give the same columns; what the blocks cannot tell is left to the line reader."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tvseg.readers.scan as scan
from tvseg import read_units
from tvseg.errors import InputError
from tvseg.readers import tables


@pytest.fixture(autouse=True, params=["without pandas", "pandas"])
def reading(request, monkeypatch):
    """Read every table of the test as a small one is read, without pandas (when it can be), or with pandas."""
    if request.param == "pandas":
        monkeypatch.setattr(tables, "SMALL", 0)
    return request.param


ROWS = ["b,0.5,1.25, two ", "a,0,2,one", "b,1.25,3,three", "a,2,2.5,\tfour"]


def _columns(units):
    return {show: units[show].to_dict(orient="list") for show in units}


@pytest.mark.parametrize("block", [8, 1 << 22])
def test_blocks_and_lines_read_the_same_units(tmp_path, monkeypatch, block):
    monkeypatch.setattr(scan, "_BLOCK", block)  # 8 bytes: about a line a block
    regular = tmp_path / "regular.csv"
    regular.write_text("show,start,end,text\n" + "\n".join(ROWS) + "\n")
    blank = tmp_path / "blank.csv"
    blank.write_text("show,start,end,text\n" + "\n".join(ROWS[:2]) + "\n\n" + "\n".join(ROWS[2:]) + "\n")
    a, b = read_units(regular), read_units(blank)
    # by hand: the rows of each show sorted by start, texts stripped
    expected = {
        "a": {"start": [0.0, 2.0], "end": [2.0, 2.5], "text": ["one", "four"]},
        "b": {"start": [0.5, 1.25], "end": [1.25, 3.0], "text": ["two", "three"]},
    }
    assert _columns(a) == expected
    assert _columns(b) == expected
    assert a.line.tolist() == [3, 5, 2, 4]  # header on line 1: a's rows on lines 3 and 5
    assert b.line.tolist() == [3, 6, 2, 5]  # the blank line 4 moves the rows after it


def test_a_time_that_is_not_plain_is_read_as_text(tmp_path, monkeypatch):
    monkeypatch.setattr(scan, "_BLOCK", 16)
    path = tmp_path / "units.csv"
    path.write_text("show,start,end\na,0,1\na,1,2\nb,0,1e3\n")
    assert read_units(path)["b"]["end"].tolist() == [1000.0]  # 1e3 seconds, as Python's float reads it
    path.write_text("show,start,end\na,0,1\na,1,2\nb,0,-1\n")
    with pytest.raises(InputError, match="end is negative") as error:
        read_units(path)
    assert error.value.line == 4


def test_a_clock_time_is_read_in_blocks(tmp_path, monkeypatch):
    monkeypatch.setattr(scan, "_BLOCK", 16)
    path = tmp_path / "units.csv"
    path.write_text("show,start,end\na,0,1.5\na,00:00:01.5,0:03\n")
    units = read_units(path)
    assert units["a"]["end"].tolist() == [1.5, 3.0]  # 0:03 is 3 seconds


def test_a_row_with_a_field_too_many_is_refused_at_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(scan, "_BLOCK", 16)
    path = tmp_path / "units.csv"
    path.write_text("show,start,end\na,0,1\na,1,2,3\n")
    with pytest.raises(InputError, match="expected 3 fields as in the header, found 4") as error:
        read_units(path)
    assert error.value.line == 3


def test_regular_records_counts_and_checks(tmp_path):
    data = bytearray(b"h,s,e\nx,1.5,2\ny ,3, 4\n" + bytes(16))
    found = scan.regular_records(data, ",", 6, 3, plain=(1, 2), strip=(0,))
    assert found is not None and found.records == 2
    assert found.plain == {1: True, 2: False}  # " 4" has a space
    assert found.strip[0].tolist() == [1]  # "y " ends with a space
    assert scan.regular_records(bytearray(b"h,s,e\nx,1\n" + bytes(16)), ",", 6, 3, plain=(), strip=()) is None
    # 2 and 4 separators: 6 marks, 3 to a record, as if each had 3 fields (the first "record" ends at a comma)
    uneven = bytearray(b"h,s,e\nx,1\ny,2,3,4\n" + bytes(16))
    assert scan.regular_records(uneven, ",", 6, 3, plain=(), strip=()) is None
    assert scan.regular_records(bytearray(b"h,s,e\nx,1,2,3\ny\n" + bytes(16)), ",", 6, 3, plain=(), strip=()) is None
    assert scan.regular_records(data, ",", 6, 3, plain=(), strip=()).strip == {}


_FIELD = st.one_of(
    st.text("0123456789.", min_size=1, max_size=9),  # mostly plain decimals, two points, a point alone
    st.text("0123456789.e+- ,x\x7f\xe9\u00a0", max_size=9),  # signs, exponents, spaces, beyond ASCII
)


def _plain(field: str) -> bool:
    """A plain decimal as formats/README.md has it: digits with at most one point and at least one digit,
    of at most 15 characters."""
    return 1 <= len(field) <= 15 and set(field) <= set("0123456789.") and field.count(".") <= 1 and field != "."


@settings(max_examples=400, deadline=None)
@given(fields=st.lists(_FIELD, min_size=1, max_size=6))
def test_a_column_is_plain_when_each_of_its_fields_is(fields):
    """The verdict of the words' bitwise test on a whole column is that of the definition, field by field."""
    encoded = [field.encode("utf-8") for field in fields]
    data = b",".join(encoded) + b"\n" + bytes(16)
    start, at = [], 0
    for field in encoded:
        start.append(at)
        at += len(field) + 1
    start_ = np.array(start, dtype=np.int64)
    end_ = start_ + np.array([len(field) for field in encoded], dtype=np.int64)
    buf = np.frombuffer(data, dtype=np.uint8)
    assert scan._all_plain(buf, start_, end_) == all(_plain(field) for field in fields)
