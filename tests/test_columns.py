"""SegmentColumns and UnitColumns (issue 13): the readers' fast path gives, show by show, what the careful
per-record readers give (the path every reader took before), on random corpora written as RTTM,
segment CSV and breath-group CSV files with the variations people write; irregular files fall back to
the careful path; the mappings' pristine / override rules."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment

from tvseg import read_segments, read_units
from tvseg.columns import SegmentColumns, UnitColumns
from tvseg.errors import InputError
from tvseg.readers import detect_format, list_files
from tvseg.readers.corpus import fast_segments
from tvseg.readers.fast_csv import csv_piece
from tvseg.readers.fast_rttm import rttm_piece
from tvseg.readers.files import segment_records_of_file, units_of_file
from tvseg.readers.rttm import SPAN_TYPES
from tvseg.readers.source import read_plain_ascii, read_text
from tvseg.readers.validation import to_annotation

NAMES = ["n1", "007", "1", "émission du soir", "b_2", "A", "a", "10", "01"]
LABELS = ["Intro", "<NA>", "7", "météo", "Storm_warning", "x;y", "0.5"]


def careful_segments(path) -> dict[str, Annotation]:
    """The per-record path: each file's records, checked and made Annotations one by one."""
    result = {}
    for file in list_files(path):
        for show, (records, _) in segment_records_of_file(file, detect_format(file), show=None, types=None).items():
            result[show] = to_annotation(show, records, path=file)
    return result


def careful_units(path) -> dict[str, pd.DataFrame]:
    return {
        show: frame
        for file in list_files(path)
        for show, (frame, _, _) in units_of_file(file, detect_format(file), show=None).items()
    }


def assert_same_segments(columns, expected: dict[str, Annotation]) -> None:
    assert isinstance(columns, SegmentColumns) and columns.pristine
    assert list(columns) == sorted(expected)
    for show, annotation in expected.items():
        got = columns[show]
        assert got == annotation and got.uri == annotation.uri == show
        assert list(got.itertracks(yield_label=True)) == list(annotation.itertracks(yield_label=True))


def assert_same_units(columns, expected: dict[str, pd.DataFrame]) -> None:
    assert isinstance(columns, UnitColumns) and columns.pristine
    assert list(columns) == sorted(expected)
    for show, frame in expected.items():
        pd.testing.assert_frame_equal(columns[show], frame)


def times(rng, n: int, *, contiguous: bool) -> list[tuple[str, str]]:
    """``n`` segments in time order as decimal strings with 0 to 6 decimals (touching or with gaps)."""
    result, now = [], Fraction(int(rng.integers(0, 3)))
    for _ in range(n):
        places = int(rng.integers(0, 7))
        length = Fraction(int(rng.integers(1, 10 ** (places + 2))), 10**places)
        start = now if contiguous or rng.random() < 0.5 else now + Fraction(int(rng.integers(1, 1000)), 1000)
        result.append((start, start + length))
        now = start + length
    return [(_decimal(s), _decimal(e)) for s, e in result]


def _decimal(value: Fraction) -> str:
    text = f"{Decimal(value.numerator) / Decimal(value.denominator):f}"
    return text.rstrip("0").rstrip(".") if "." in text and text.endswith("0") else text


def rttm_lines(rng, shows: list[str]) -> list[str]:
    lines = []
    for show in (show.replace(" ", "_") for show in shows):  # a space separates RTTM fields
        for start, end in times(rng, int(rng.integers(1, 12)), contiguous=bool(rng.random() < 0.5)):
            duration = _decimal(Fraction(Decimal(end)) - Fraction(Decimal(start)))
            kind = (
                ["SEGMENT", "segment", "NOSCORE", "SPEAKER"][int(rng.integers(0, 4))]
                if rng.random() < 0.2
                else "SEGMENT"
            )
            fields = [
                kind,
                show,
                "1",
                start,
                duration,
                "<NA>",
                "<NA>",
                LABELS[int(rng.integers(0, len(LABELS)))],
                "<NA>",
            ] + (["<NA>"] if rng.random() < 0.3 else [])
            lines.append(" ".join(fields))
        if rng.random() < 0.3:
            lines.append(f"SPKR-INFO {show} 1 <NA> <NA> <NA> unknown spk <NA>")
    if rng.random() < 0.3:
        lines.append(f"SPKR-INFO only_info_{shows[0].replace(' ', '_')} 1 <NA> <NA> <NA> unknown spk <NA>")
    return [lines[i] for i in rng.permutation(len(lines))]


def dress(rng, lines: list[str], *, rttm: bool) -> str:
    """The lines as people write them: blank lines, CRLF or CR, a BOM, no final line end; in RTTM tabs,
    runs of spaces, spaces at the ends, comments."""
    out = []
    for line in lines:
        if rttm and rng.random() < 0.1:
            out.append(";; a comment, " + line)
        if rng.random() < 0.05:
            out.append("")
        if rttm and rng.random() < 0.2:
            line = line.replace(" ", ["\t", "  ", " \t "][int(rng.integers(0, 3))])
        if rttm and rng.random() < 0.1:
            line = "  " + line + " "
        out.append(line)
    end = ["\n", "\r\n", "\r"][int(rng.integers(0, 3))] if rng.random() < 0.3 else "\n"
    text = end.join(out) + (end if rng.random() < 0.8 else "")
    return ("\ufeff" if rng.random() < 0.2 else "") + text


@pytest.mark.parametrize("seed", range(12))
def test_random_rttm_file_and_folder_equal_the_careful_path(tmp_path, seed):
    rng = np.random.default_rng(seed)
    shows = [NAMES[i] for i in rng.permutation(len(NAMES))[: int(rng.integers(1, len(NAMES)))]]
    one = tmp_path / "one.rttm"
    one.write_text(dress(rng, rttm_lines(rng, shows), rttm=True), encoding="utf-8", newline="")
    assert_same_segments(read_segments(one), careful_segments(one))
    folder = tmp_path / "folder"
    folder.mkdir()
    for k, show in enumerate(shows):
        (folder / f"{k:03d}.rttm").write_text(
            dress(rng, rttm_lines(rng, [show]), rttm=True), encoding="utf-8", newline=""
        )
    files = list_files(folder)
    piece, careful = rttm_piece(files, SPAN_TYPES)
    assert piece is not None and careful == []  # every file regular: read in one parse
    assert_same_segments(read_segments(folder), careful_segments(folder))
    columns = read_segments(folder)
    expected = careful_segments(folder)
    for show in columns:  # the line of each row, as the careful reader numbers it
        records = segment_records_of_file(columns.path(show), "rttm", show=None, types=None)[show][0]
        assert columns.line[columns.rows(show)].tolist() == [r.line for r in records]
    assert columns.ends() == {show: expected[show].get_timeline().extent().end for show in sorted(expected)}


@pytest.mark.parametrize("seed", range(10))
def test_random_segment_and_unit_csv_equal_the_careful_path(tmp_path, seed):
    rng = np.random.default_rng(100 + seed)
    shows = [NAMES[i] for i in rng.permutation(len(NAMES))[: int(rng.integers(1, len(NAMES)))]]
    extra = [c for c in ("text", "speaker", "topic") if rng.random() < 0.5]
    segment_rows, unit_rows = [], []
    for show in shows:
        for start, end in times(rng, int(rng.integers(1, 15)), contiguous=bool(rng.random() < 0.5)):
            label = LABELS[int(rng.integers(0, len(LABELS)))].replace(";", "")
            cell = [" " + show if rng.random() < 0.1 else show, start, end]
            segment_rows.append(",".join(cell + [["", " ", label, f" {label} "][int(rng.integers(0, 4))]]))
            texts = {
                "text": ["bonjour à tous", " élan ", "", "x y"][int(rng.integers(0, 4))],
                "speaker": ["A", "", "B\u00a0"][int(rng.integers(0, 3))],
                "topic": ["t1", "t2", "", " t1"][int(rng.integers(0, 4)) if rng.random() < 0.3 else 0],
            }
            unit_rows.append(",".join(cell + [texts[c] for c in extra]))
    order = rng.permutation(len(segment_rows))
    segments = tmp_path / "segments.csv"
    segments.write_text(
        dress(rng, ["show,start,end,label"] + [segment_rows[i] for i in order], rttm=False),
        encoding="utf-8",
        newline="",
    )
    assert csv_piece(segments, read_text(segments), units=False) is not None
    assert_same_segments(read_segments(segments), careful_segments(segments))
    units = tmp_path / "units.csv"
    units.write_text(
        dress(rng, [",".join(["show", "start", "end", *extra])] + [unit_rows[i] for i in order], rttm=False),
        encoding="utf-8",
        newline="",
    )
    assert csv_piece(units, read_text(units), units=True) is not None
    assert_same_units(read_units(units), careful_units(units))
    if "topic" in extra:  # a breath-group table read as segments: its topic runs
        assert_same_segments(read_segments(units), careful_segments(units))


@pytest.mark.parametrize("seed", range(8))
def test_plain_ascii_unit_tables_are_read_from_their_bytes_as_the_careful_path_reads_them(tmp_path, seed):
    # ASCII with LF line ends skips decoding (read_plain_ascii); blank lines, no final line end, spaces
    # around cells and numeric-looking show names still read as the careful reader reads them
    rng = np.random.default_rng(300 + seed)
    ascii_names = [name for name in NAMES if name.isascii()]
    shows = [ascii_names[i] for i in rng.permutation(len(ascii_names))[: int(rng.integers(1, len(ascii_names)))]]
    extra = [c for c in ("text", "speaker", "topic") if rng.random() < 0.5]
    rows = []
    for show in shows:
        for start, end in times(rng, int(rng.integers(1, 15)), contiguous=bool(rng.random() < 0.5)):
            cell = [" " + show if rng.random() < 0.1 else show, start, end]
            texts = {"text": ["hello all", " x ", ""][int(rng.integers(0, 3))], "speaker": "A", "topic": "t1"}
            rows.append(",".join(cell + [texts[c] for c in extra]))
    lines = [",".join(["show", "start", "end", *extra])] + [rows[i] for i in rng.permutation(len(rows))]
    lines = [line for row in lines for line in ([row, ""] if rng.random() < 0.05 else [row])]
    text = ("\n" if seed % 3 == 0 else "") + "\n".join(lines) + ("\n" if seed % 2 else "")
    units = tmp_path / "units.csv"
    units.write_bytes(text.encode("ascii"))
    data = read_plain_ascii(units)
    assert data is not None and csv_piece(units, data, units=True) is not None
    assert_same_units(read_units(units), careful_units(units))
    # the same table with CRLF, with a byte order mark or with a non-ASCII text takes the decoded path
    for variant in (
        text.replace("\n", "\r\n").encode(),
        b"\xef\xbb\xbf" + text.encode(),
        (text.rstrip("\n") + "\n" + ",".join(["café", "0", "1", *["x"] * len(extra)])).encode(),
    ):
        units.write_bytes(variant)
        assert read_plain_ascii(units) is None
        assert_same_units(read_units(units), careful_units(units))


def test_a_folder_mixing_formats_equals_the_careful_path(tmp_path):
    (tmp_path / "a.rttm").write_text("SEGMENT s1 1 0 1.5 <NA> <NA> x <NA>\nSEGMENT s1 1 1.5 2 <NA> <NA> y <NA>\n")
    (tmp_path / "b.csv").write_text('show,start,end,label\ns2,0,"1.5",a\n')  # quoted: careful path
    (tmp_path / "c.vtt").write_text("WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nIntro\n")
    (tmp_path / "d.csv").write_text("show,start,end,label\ns4,00:00:01,00:00:02.5,t\n")  # clock times
    (tmp_path / "e.rttm").write_text("SEGMENT s5 1 1e1 2 <NA> <NA> z <NA>\n")  # an exponent: careful path
    assert_same_segments(read_segments(tmp_path), careful_segments(tmp_path))
    files = [tmp_path / "a.rttm", tmp_path / "e.rttm"]
    assert rttm_piece(files, SPAN_TYPES)[1] == [tmp_path / "e.rttm"]
    for name in ("b.csv", "d.csv"):
        assert csv_piece(tmp_path / name, read_text(tmp_path / name), units=False) is None


@pytest.mark.parametrize(
    "text",
    [
        'show,start,end\ns,0,"1.5"\n',  # quotes
        "show,start,end\ns,00:00:01,00:00:02.500\n",  # clock times
        "show;start;end\ns;0,5;1,5\n",  # ; separator, decimal comma
        "show,start,end\ns,1e1,2e1\n",  # exponents
        "show,start,end\ns, 1,2\n",  # a space in a time cell
    ],
)
def test_irregular_unit_tables_take_the_careful_path_with_the_same_result(tmp_path, text):
    path = tmp_path / "u.csv"
    path.write_text(text)
    assert csv_piece(path, read_text(path), units=True) is None
    columns = read_units(path)
    assert_same_units(columns, careful_units(path))


@pytest.mark.parametrize(
    "text",
    [
        "show,start,end\ns,0,1\ns,0.5,2\n",  # overlap
        "show,start,end\ns,1,1\n",  # zero duration
        "show,start,end\ns,2,1\n",  # end before start
        "show,start,end\ns,-1,1\n",  # negative
        "show,start,end\ns,abc,1\n",  # not a number
        "show,start,end\n,0,1\n",  # no show
        "show,start,end\ns,0,1,2\n",  # a field too many
        "show,start,end,lable\ns,0,1,x\n",  # an unknown column
        "show,start,end\n",  # no rows
    ],
)
def test_unit_errors_are_the_careful_path_s(tmp_path, text):
    path = tmp_path / "u.csv"
    path.write_text(text)
    with pytest.raises(InputError) as careful:
        careful_units(path)
    with pytest.raises(InputError) as fast:
        read_units(path)
    assert str(fast.value) == str(careful.value)


def test_errors_come_in_the_careful_order_across_a_folder(tmp_path):
    (tmp_path / "a.rttm").write_text("SEGMENT s1 1 0 1 <NA> <NA> x <NA>\n")
    (tmp_path / "b.rttm").write_text("SEGMENT s1 1 5 1 <NA> <NA> x <NA>\n")  # s1 again
    (tmp_path / "c.rttm").write_text("SEGMENT s3 1 0 2 <NA> <NA> x <NA>\nSEGMENT s3 1 1 2 <NA> <NA> y <NA>\n")
    with pytest.raises(InputError, match=r"b\.rttm:1: show already read from .*a\.rttm:1: 's1'"):
        read_segments(tmp_path)
    (tmp_path / "b.rttm").unlink()
    with pytest.raises(InputError, match=r"c\.rttm:2: segments overlap \(lines 1 and 2\)"):
        read_segments(tmp_path)


def test_rttm_ends_are_the_decimal_sums():
    cases = [("0.029", "0.001"), ("1234567.1", "0.000001"), ("0.1", "0.2"), ("7", ".5"), ("3599.999", "0.501")]
    text = "".join(f"SEGMENT s{k} 1 {a} {b} <NA> <NA> x <NA>\n" for k, (a, b) in enumerate(cases))
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.rttm"
        path.write_text(text)
        columns = read_segments(path)
    assert columns.end.tolist() == [float(Decimal(a) + Decimal(b)) for a, b in cases]
    assert columns.start.tolist() == [float(a) for a, _ in cases]


@settings(max_examples=200, deadline=None)
# at most 7 digits before the point: the end cell (the start and a "9") then stays within the 15
# characters the fast path takes (a longer cell falls back to the careful reader)
@given(
    st.lists(st.tuples(st.integers(0, 10**7 - 1), st.integers(0, 6), st.integers(0, 999999)), min_size=1, max_size=40)
)
def test_the_c_parser_reads_plain_decimals_as_float_does(cells):
    texts = []
    for whole, places, fraction in cells:
        texts.append(f"{whole}.{fraction % 10**places:0{places}d}" if places else str(whole))
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "u.csv"
        path.write_text("show,start,end\n" + "".join(f"s{k},{t},{t}9\n" for k, t in enumerate(texts)))
        piece = csv_piece(path, read_text(path), units=True)
    assert piece is not None
    assert piece.columns["start"].tolist() == [float(t) for t in texts]
    assert piece.columns["end"].tolist() == [float(t + "9") for t in texts]


def test_fast_path_is_taken_for_the_benchmark_shapes(tmp_path):
    (tmp_path / "r").mkdir()
    for k in range(5):
        (tmp_path / "r" / f"s{k}.rttm").write_text(f"SEGMENT s{k} 1 0.000 97.290 <NA> <NA> topic01 <NA> <NA>\n")
    files = list_files(tmp_path / "r")
    assert fast_segments(files, ["rttm"] * 5, types=None, in_folder=True) is not None


def _columns() -> SegmentColumns:
    return SegmentColumns(
        ["a", "b"],
        [0, 2, 3],
        start=[0.0, 1.0, 5.0],
        end=[1.0, 2.5, 6.0],
        label=np.array(["x", "<NA>", "y"], dtype=object),
        line=[1, 2, 1],
        paths=["f", "g"],
    )


def test_lazy_annotations_are_built_once_and_equal_hand_made_ones():
    columns = _columns()
    expected = Annotation(uri="a")
    expected[Segment(0.0, 1.0), 0] = "x"
    expected[Segment(1.0, 2.5), 1] = "<NA>"
    assert columns["a"] == expected and columns["a"].uri == "a"
    assert columns["a"] is columns["a"]
    assert columns.ends() == {"a": 2.5, "b": 6.0}
    assert columns.path("b") == "g" and columns.rows("b") == slice(2, 3)


def test_pristine_until_a_show_is_set_or_deleted():
    columns = _columns()
    assert columns.pristine and list(columns) == ["a", "b"] and len(columns) == 2
    other = Annotation(uri="c")
    other[Segment(0, 9), 0] = "z"
    columns["c"] = other
    assert not columns.pristine and list(columns) == ["a", "b", "c"] and len(columns) == 3
    assert columns.ends() == {"a": 2.5, "b": 6.0, "c": 9.0}
    del columns["a"]
    assert list(columns) == ["b", "c"] and len(columns) == 2 and "a" not in columns
    with pytest.raises(KeyError):
        columns["a"]
    with pytest.raises(KeyError):
        del columns["a"]
    columns["a"] = other
    assert list(columns) == ["a", "b", "c"] and columns["a"] is other and len(columns) == 3
    fresh = _columns()
    fresh["b"] = other  # replacing a show: the arrays no longer tell the truth
    assert not fresh.pristine and fresh["b"] is other and len(fresh) == 2
    assert dict(_columns()) == {"a": _columns()["a"], "b": _columns()["b"]}


def test_columns_from_annotations_keep_the_tracks_they_cannot_hold():
    split = Annotation(uri="s")
    split[Segment(0, 1), 0] = "x"
    split[Segment(2, 3), 1] = "x"
    split[Segment(3, 4), 3] = "y"  # a track left out before it, as a UEM crop leaves it
    regular = Annotation(uri="r")
    regular[Segment(0, 1), 0] = "x"
    columns = SegmentColumns.from_annotations({"s": split, "r": regular})
    assert not columns.pristine and columns["s"] is split and columns["r"] == regular
    assert columns.names == ("r", "s") and columns.offsets.tolist() == [0, 1, 4]
    assert SegmentColumns.from_annotations({"r": regular}).pristine


def test_unit_columns_give_the_frames_back():
    frames = {
        "b": pd.DataFrame({"start": [0.0, 1.0], "end": [1.0, 2.0], "text": ["x", "y"]}),
        "a": pd.DataFrame({"start": [3.0], "end": [4.0]}),
    }
    columns = UnitColumns.from_frames(frames)
    assert columns.pristine and list(columns) == ["a", "b"]
    for show, frame in frames.items():
        pd.testing.assert_frame_equal(columns[show], frame)
    assert columns.columns_of("a") == ("start", "end") and columns.columns_of("b") == ("start", "end", "text")
    odd = UnitColumns.from_frames({"c": pd.DataFrame({"start": [0], "end": [1]})})  # integer columns
    assert not odd.pristine
    pd.testing.assert_frame_equal(odd["c"], pd.DataFrame({"start": [0], "end": [1]}))
    columns["z"] = frames["a"]
    del columns["b"]
    assert list(columns) == ["a", "z"] and not columns.pristine


def test_caption_units_are_columns_equal_to_the_careful_path(tmp_path):
    path = tmp_path / "c.vtt"
    path.write_text("WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Ann>Hello\n\n00:00:02.000 --> 00:00:03.000\nBye\n")
    assert_same_units(read_units(path), careful_units(path))
