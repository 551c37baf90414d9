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


def test_a_segment_spanning_a_gap_stays_one_segment(tmp_path):
    # UEM 0-40 + 60-100; reference [0,30] [30,100] [100,120]: [30,100] spans the gap and stays one
    # segment; [100,120] lies after the last region and is left out (warned).
    import tvseg
    from tvseg.errors import TvsegWarning

    uem = read_uem(write(tmp_path, "show 1 0 40\nshow 1 60 100\n"))
    rttm = tmp_path / "ref.rttm"
    rttm.write_text(
        "SEGMENT show 1 0 30 <NA> <NA> a <NA> <NA>\n"
        "SEGMENT show 1 30 70 <NA> <NA> b <NA> <NA>\n"
        "SEGMENT show 1 100 20 <NA> <NA> c <NA> <NA>\n"
    )
    with pytest.warns(TvsegWarning) as caught:
        ref = tvseg.read_segments(rttm, uem=uem)
    assert [(s.start, s.end) for s in ref["show"].itersegments()] == [(0, 30), (30, 100)]
    text = " ".join(str(w.message) for w in caught)
    assert "1 spanning a UEM gap (kept whole" in text and "1 left out" in text


def test_touching_regions_leave_no_gap(tmp_path):
    # regions 0-50 and 50-100 touch: one region 0-100, so the boundary at 50 is inside it and counts
    import tvseg

    uem = read_uem(write(tmp_path, "show 1 0 50\nshow 1 50 100\n"))
    b = tvseg.boundaries([(0, 50), (50, 100)], [(0, 51), (51, 100)], tolerance=2, uem=uem["show"])
    assert (b.n_reference, b.n_matched) == (1, 1)


def test_the_regions_are_arrays_merged_as_pyannote_support(tmp_path):
    # show2's three regions touch: pyannote's Timeline.support() gives one region 30-200; the arrays say the same
    text = "zz 1 5 6\nshow2 1 30 90\nshow2 1 100 200\nshow2 1 90 100\nshow1 1 0 600.5\n"
    uem = read_uem(write(tmp_path, text))
    assert uem.names == ("show1", "show2", "zz")  # sorted, whatever the order of the file
    assert uem.line.tolist() == [5, 2, 4, 3, 1]  # each region's line, as sorted
    start, end = uem.merged("show2")
    support = uem["show2"].support()
    assert list(zip(start.tolist(), end.tolist())) == [(s.start, s.end) for s in support] == [(30.0, 200.0)]
    assert uem.select(["zz", "nope"]).names == ("zz",)


def test_a_region_before_its_time_origin_is_named_with_its_line(tmp_path):
    from tvseg.readers.time_origin import shift_uem

    uem = read_uem(write(tmp_path, "a 1 3600 3700.25\nb 1 10 20\n"))
    with pytest.raises(InputError, match="region of show 'b' starts before its time origin") as error:
        shift_uem(uem, 3600.0, path="corpus.uem")  # b's region 10-20 starts before 01:00:00
    assert error.value.line == 2
    shifted = shift_uem(uem, {"a": 3600.0}, path="corpus.uem")  # a's origin only: 3600-3700.25 -> 0-100.25
    assert list(uem["b"]) == list(shifted["b"]) and list(shifted["a"]) == [Segment(0, 100.25)]
