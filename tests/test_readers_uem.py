"""UEM reader."""

import pytest
from pyannote.core import Segment

from tvseg import read_uem
from tvseg.errors import InputError


def write(tmp_path, text):
    path = tmp_path / "corpus.uem"
    path.write_text(text, encoding="utf-8")
    return path


def test_uem_regions(tmp_path):
    text = ";; evaluated regions\nshow1 1 0 600.5\n\nshow2 1 30 90\nshow2 1 100 200\nshow2 1 90 100\n"
    uem = read_uem(write(tmp_path, text))
    assert sorted(uem) == ["show1", "show2"]
    assert list(uem["show1"]) == [Segment(0, 600.5)]
    assert list(uem["show2"]) == [Segment(30, 90), Segment(90, 100), Segment(100, 200)]
    assert uem["show2"].uri == "show2"


@pytest.mark.parametrize(
    "line, message",
    [
        ("s 1 0", "expected 4 fields"),
        ("s 1 0 10 extra", "expected 4 fields"),
        ("s 1 zero 10", "not a number"),
        ("s 1 10 5", "end before start"),
        ("s 1 5 5", "zero duration"),
        ("s 1 -5 5", "negative"),
        ("a 1 5 15", "overlap"),
    ],
)
def test_bad_uem_line(tmp_path, line, message):
    with pytest.raises(InputError, match=message) as error:
        read_uem(write(tmp_path, "a 1 0 10\n" + line + "\n"))
    assert error.value.line == 2


def test_uem_with_only_comments(tmp_path):
    with pytest.raises(InputError, match="no UEM line"):
        read_uem(write(tmp_path, ";; nothing\n"))
