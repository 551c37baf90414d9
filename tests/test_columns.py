"""SegmentColumns and UnitColumns (issues 13, 23): what the readers return, checked against the test's own
account of the files it writes (random corpora as RTTM, segment CSV and breath-group CSV files, written with
the variations people write: every time and line is known here before the file is written), and the
columns' rules (immutable, built anew from annotations or frames)."""

from __future__ import annotations

import tempfile
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment

from tvseg import read_segments, read_units
from tvseg.columns import SegmentColumns, UnitColumns
from tvseg.errors import InputError

NAMES = ["n1", "007", "1", "émission du soir", "b_2", "A", "a", "10", "01"]
LABELS = ["Intro", "<NA>", "7", "météo", "Storm_warning", "x;y", "0.5"]
NO_LABEL = "<NA>"


def check_columns(columns, expected: dict[str, list[tuple]], paths: dict[str, Path]) -> None:
    """``columns`` hold ``{show: [(start, end, label or texts..., line), ...]}`` (any order), shows sorted."""
    names = sorted(expected)
    assert list(columns) == names and columns.names == tuple(names)
    assert [columns.path(show) for show in names] == [paths[show] for show in names]
    for show in names:
        rows = sorted(expected[show], key=lambda row: (row[0], row[1], row[-1]))
        part = columns.rows(show)
        assert columns.start[part].tolist() == [row[0] for row in rows]
        assert columns.end[part].tolist() == [row[1] for row in rows]
        assert columns.line[part].tolist() == [row[-1] for row in rows]
        if isinstance(columns, SegmentColumns):
            assert columns.label[part].tolist() == [row[2] for row in rows]
            annotation = columns[show]
            assert annotation.uri == show
            assert [(s.start, s.end, t, label) for s, t, label in annotation.itertracks(yield_label=True)] == [
                (row[0], row[1], track, row[2]) for track, row in enumerate(rows)
            ]


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


def written(rng, number: str) -> str:
    """``number`` as people also write it: usually as it is, else with an exponent, a plus sign, leading
    zeros, or more digits than a double holds (all read as the same decimal)."""
    choice = rng.random()
    if choice < 0.85:
        return number
    if choice < 0.9:
        return f"{Decimal(number) * 1000}e-3"
    if choice < 0.93:
        return "+" + number
    if choice < 0.96:
        return "00" + number
    return number + ("" if "." in number else ".") + "0" * 12


def rttm_lines(rng, shows: list[str]) -> tuple[list[str], list[tuple]]:
    """RTTM lines of ``shows`` in a random order, and what they hold: ``(show, start, end, label, index of
    the line)`` per segment; ``(show, None, ...)`` for a show named on a line that is no segment."""
    lines, held = [], []
    for show in (show.replace(" ", "_") for show in shows):  # a space separates RTTM fields
        for start, end in times(rng, int(rng.integers(1, 12)), contiguous=bool(rng.random() < 0.5)):
            duration = _decimal(Fraction(Decimal(end)) - Fraction(Decimal(start)))
            kind = (
                ["SEGMENT", "segment", "NOSCORE", "SPEAKER"][int(rng.integers(0, 4))]
                if rng.random() < 0.2
                else "SEGMENT"
            )
            label = LABELS[int(rng.integers(0, len(LABELS)))]
            extra = ["<NA>"] if rng.random() < 0.3 else []
            fields = [
                kind,
                show,
                "1",
                written(rng, start),
                written(rng, duration),
                "<NA>",
                "<NA>",
                label,
                "<NA>",
                *extra,
            ]
            held.append((show, float(Decimal(start)), float(Decimal(start) + Decimal(duration)), label, len(lines)))
            lines.append(" ".join(fields))
        if rng.random() < 0.3:
            lines.append(f"SPKR-INFO {show} 1 <NA> <NA> <NA> unknown spk <NA>")
        if rng.random() < 0.2:
            lines.append(f"IP {show} 1 {written(rng, '3.5')} <NA> <NA> <NA> <NA> <NA>")
    if rng.random() < 0.3:
        lines.append(f"SPKR-INFO only_info_{shows[0].replace(' ', '_')} 1 <NA> <NA> <NA> unknown spk <NA>")
        held.append((f"only_info_{shows[0].replace(' ', '_')}", None, None, None, len(lines) - 1))
    order = rng.permutation(len(lines))
    position = np.empty(len(lines), dtype=int)
    position[order] = np.arange(len(lines))
    return [lines[i] for i in order], [(*row[:4], int(position[row[4]])) for row in held]


def dress(rng, lines: list[str], *, rttm: bool) -> tuple[str, list[int]]:
    """The lines as people write them (blank lines, CRLF or CR, a BOM, no final line end; in RTTM tabs,
    runs of spaces, spaces at the ends, comments), and the number of each given line in the text."""
    out, numbers = [], []
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
        numbers.append(len(out))
    end = ["\n", "\r\n", "\r"][int(rng.integers(0, 3))] if rng.random() < 0.3 else "\n"
    text = end.join(out) + (end if rng.random() < 0.8 else "")
    return ("\ufeff" if rng.random() < 0.2 else "") + text, numbers


def rttm_expected(held, numbers) -> dict[str, list[tuple]]:
    expected: dict[str, list[tuple]] = {}
    for show, start, end, label, index in held:
        expected.setdefault(show, [])
        if start is not None:
            expected[show].append((start, end, label, numbers[index]))
    return expected


@pytest.mark.parametrize("seed", range(12))
def test_random_rttm_file_and_folder_are_read_as_written(tmp_path, seed):
    rng = np.random.default_rng(seed)
    shows = [NAMES[i] for i in rng.permutation(len(NAMES))[: int(rng.integers(1, len(NAMES)))]]
    one = tmp_path / "one.rttm"
    lines, held = rttm_lines(rng, shows)
    text, numbers = dress(rng, lines, rttm=True)
    one.write_text(text, encoding="utf-8", newline="")
    expected = rttm_expected(held, numbers)
    check_columns(read_segments(one), expected, dict.fromkeys(expected, one))
    folder = tmp_path / "folder"
    folder.mkdir()
    expected, paths = {}, {}
    for k, show in enumerate(shows):
        lines, held = rttm_lines(rng, [show])
        text, numbers = dress(rng, lines, rttm=True)
        (folder / f"{k:03d}.rttm").write_text(text, encoding="utf-8", newline="")
        expected.update(part := rttm_expected(held, numbers))
        paths.update(dict.fromkeys(part, folder / f"{k:03d}.rttm"))
    columns = read_segments(folder)
    check_columns(columns, expected, paths)
    assert columns.ends() == {
        show: max((row[1] for row in rows), default=0.0) for show, rows in sorted(expected.items())
    }


def csv_time(rng, number: str, separator: str) -> str:
    """A CSV time cell: the seconds as written, with spaces around, as a clock time, or a decimal comma."""
    choice = rng.random()
    if choice < 0.1:
        return f" {number} "
    if choice < 0.2:
        whole, _, fraction = number.partition(".")
        minutes, seconds = divmod(int(whole), 60)
        return f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}" + (f".{fraction}" if fraction else "")
    return number.replace(".", ",") if separator == ";" else number


def quoted(cell: str, separator: str) -> str:
    return '"' + cell.replace('"', '""') + '"' if separator in cell or '"' in cell else cell


@pytest.mark.parametrize("seed", range(12))
def test_random_segment_and_unit_csv_are_read_as_written(tmp_path, seed):
    rng = np.random.default_rng(100 + seed)
    shows = [NAMES[i] for i in rng.permutation(len(NAMES))[: int(rng.integers(1, len(NAMES)))]]
    extra = [c for c in ("text", "speaker", "topic") if rng.random() < 0.5]
    separator = ";" if seed % 4 == 3 else ","
    labels = LABELS + ['with "quotes", and a comma'] * (seed % 3 == 0)
    segments, units = [], []  # (show, start, end, label or texts, cells)
    for show in shows:
        for start, end in times(rng, int(rng.integers(1, 15)), contiguous=bool(rng.random() < 0.5)):
            label = labels[int(rng.integers(0, len(labels)))]
            cell = [
                " " + show if rng.random() < 0.1 else show,
                csv_time(rng, start, separator),
                csv_time(rng, end, separator),
            ]
            written_label = ["", " ", label, f" {label} "][int(rng.integers(0, 4))]
            texts = {
                "text": ["bonjour à tous", " élan ", "", "x y", "a, b"][int(rng.integers(0, 5))],
                "speaker": ["A", "", "B\u00a0"][int(rng.integers(0, 3))],
                "topic": ["t1", "t2", "", " t1"][int(rng.integers(0, 4)) if rng.random() < 0.3 else 0],
            }
            times_ = (float(Decimal(start)), float(Decimal(end)))
            segments.append((show, *times_, written_label.strip() or NO_LABEL, cell + [written_label]))
            units.append((show, *times_, {c: texts[c].strip() for c in extra}, cell + [texts[c] for c in extra]))
    order = rng.permutation(len(segments))
    for name, header, rows in (
        ("segments.csv", ["show", "start", "end", "label"], segments),
        ("units.csv", ["show", "start", "end", *extra], units),
    ):
        lines = [separator.join(header)] + [separator.join(quoted(c, separator) for c in rows[i][4]) for i in order]
        text, numbers = dress(rng, lines, rttm=False)
        (tmp_path / name).write_text(text, encoding="utf-8", newline="")
        numbered = [(*rows[i][:4], numbers[1 + k]) for k, i in enumerate(order)]
        by_show: dict[str, list[tuple]] = {}
        for show, start, end, value, line in numbered:
            by_show.setdefault(show, []).append((start, end, value, line))
        if name == "segments.csv":
            check_columns(read_segments(tmp_path / name), by_show, dict.fromkeys(by_show, tmp_path / name))
            continue
        columns = read_units(tmp_path / name)
        check_columns(columns, by_show, dict.fromkeys(by_show, tmp_path / name))
        for show, rows in by_show.items():
            rows = sorted(rows, key=lambda row: (row[0], row[1], row[-1]))
            frame = pd.DataFrame({"start": [r[0] for r in rows], "end": [r[1] for r in rows]})
            for c in extra:
                frame[c] = [r[2][c] for r in rows]
            pd.testing.assert_frame_equal(columns[show], frame)
        if "topic" in extra:  # a breath-group table read as segments: its topic runs, as counted here
            runs: dict[str, list[tuple]] = {}
            for show, rows in by_show.items():
                runs[show] = []
                for start, end, texts, line in sorted(rows, key=lambda row: (row[0], row[1], row[-1])):
                    topic = texts["topic"] or NO_LABEL
                    if runs[show] and runs[show][-1][2] == topic:
                        runs[show][-1] = (runs[show][-1][0], end, topic, runs[show][-1][3])
                    else:
                        runs[show].append((start, end, topic, line))
            check_columns(read_segments(tmp_path / name), runs, dict.fromkeys(runs, tmp_path / name))


@pytest.mark.parametrize(
    "data",
    [
        b"show,start,end,text\n\ns,1.5,2,hello\n s ,0,1.5, x \ns,2,3,\n",  # plain ASCII, LF
        b"show,start,end,text\r\ns,1.5,2,hello\r\n s ,0,1.5, x \r\ns,2,3,\r\n",  # CRLF
        b"\xef\xbb\xbfshow,start,end,text\ns,1.5,2,hello\n s ,0,1.5, x \ns,2,3,",  # a BOM, no final line end
        "show,start,end,text\ns,1.5,2,hello\n s ,0,1.5, x \ns,2,3,\n".encode("utf-16"),
    ],
)
def test_unit_tables_in_any_encoding_and_line_ends_read_the_same(tmp_path, data):
    path = tmp_path / "u.csv"
    path.write_bytes(data)
    frame = read_units(path)["s"]
    assert frame.to_dict("list") == {"start": [0.0, 1.5, 2.0], "end": [1.5, 2.0, 3.0], "text": ["x", "hello", ""]}


def test_a_folder_mixing_formats_is_read_file_by_file(tmp_path):
    (tmp_path / "a.rttm").write_text("SEGMENT s1 1 0 1.5 <NA> <NA> x <NA>\nSEGMENT s1 1 1.5 2 <NA> <NA> y <NA>\n")
    (tmp_path / "b.csv").write_text('show,start,end,label\ns2,0,"1.5",a\n')
    (tmp_path / "c.vtt").write_text("WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nIntro\n")
    (tmp_path / "d.csv").write_text("show,start,end,label\ns4,00:00:01,00:00:02.5,t\n")
    (tmp_path / "e.rttm").write_text("SEGMENT s5 1 1e1 2 <NA> <NA> z <NA>\n")
    expected = {
        "s1": [(0.0, 1.5, "x", 1), (1.5, 3.5, "y", 2)],
        "s2": [(0.0, 1.5, "a", 2)],
        "c": [(0.0, 2.0, "Intro", 3)],
        "s4": [(1.0, 2.5, "t", 2)],
        "s5": [(10.0, 12.0, "z", 1)],
    }
    files = {"s1": "a.rttm", "s2": "b.csv", "c": "c.vtt", "s4": "d.csv", "s5": "e.rttm"}
    check_columns(read_segments(tmp_path), expected, {show: tmp_path / name for show, name in files.items()})


@pytest.mark.parametrize(
    "text, message",
    [
        ("show,start,end\ns,0,1\ns,0.5,2\n", "3: breath groups overlap (lines 2 and 3): '0-1 and 0.5-2'"),
        ("show,start,end\ns,1,1\n", "2: breath group with zero duration: '1 -> 1'"),
        ("show,start,end\ns,2,1\n", "2: breath group with end before start: '2 -> 1'"),
        ("show,start,end\ns,-1,1\n", "2: start is negative: '-1'"),
        ("show,start,end\ns,abc,1\n", "2: start is not a number of seconds or a [H:]MM:SS[.fff] time: 'abc'"),
        ("show,start,end\ns,0,1\ns,1,x\ns,y,3\n", "4: start is not a number of seconds or a [H:]MM:SS[.fff] time: 'y'"),
        ("show,start,end\n,0,1\n", "2: show is missing: ''"),
        ("show,start,end\ns,0,1,2\n", "2: expected 3 fields as in the header, found 4: 's,0,1,2'"),
        (
            "show,start,end,lable\ns,0,1,x\n",
            "1: unknown column for a units table (allowed: show,start,end,text,speaker,topic): 'lable'",
        ),
        ("show,start,end\n", "1: no rows after the header"),
        ('show,start,end\ns,0,"1\n', "2: malformed CSV (unexpected end of data)"),
    ],
)
def test_unit_table_errors_name_their_line(tmp_path, text, message):
    # the start column is checked before the end column; a table's own errors before its spans'
    path = tmp_path / "u.csv"
    path.write_text(text)
    with pytest.raises(InputError) as error:
        read_units(path)
    assert str(error.value) == f"{path}:{message}"


def test_errors_come_in_the_order_of_the_files(tmp_path):
    (tmp_path / "a.rttm").write_text("SEGMENT s1 1 0 1 <NA> <NA> x <NA>\n")
    (tmp_path / "b.rttm").write_text("SEGMENT s1 1 5 1 <NA> <NA> x <NA>\n")  # s1 again
    (tmp_path / "c.rttm").write_text("SEGMENT s3 1 0 2 <NA> <NA> x <NA>\nSEGMENT s3 1 1 2 <NA> <NA> y <NA>\n")
    (tmp_path / "d.rttm").write_text("SEGMENT s4 1 0 x <NA> <NA> x <NA>\n")
    with pytest.raises(InputError, match=r"b\.rttm:1: show already read from .*a\.rttm:1: 's1'"):
        read_segments(tmp_path)
    (tmp_path / "b.rttm").unlink()
    with pytest.raises(InputError, match=r"c\.rttm:2: segments overlap \(lines 1 and 2\)"):
        read_segments(tmp_path)
    (tmp_path / "c.rttm").write_text("SEGMENT s3 1 0 2 <NA> <NA> x <NA>\nSEGMENT s3 1 2 2 <NA> <NA> y <NA>\n")
    (tmp_path / "b.csv").write_text("show,start,end,label\ns2,0,1,x\ns2,1,-2,x\n")
    with pytest.raises(InputError, match=r"b\.csv:3: end is negative: '-2'"):
        read_segments(tmp_path)
    (tmp_path / "b.csv").unlink()
    with pytest.raises(InputError, match=r"d\.rttm:1: duration \(TDUR\) is not a number: 'x'"):
        read_segments(tmp_path)
    # within a file, the first line that breaks the format, wherever its errors of spans are
    (tmp_path / "d.rttm").write_text(
        "SEGMENT s4 1 0 1 <NA> <NA> x <NA>\nSEGMENT s4 1 0.5 1 <NA> <NA> x <NA>\n"
        "SEGMENT s4 1 1e400 1 <NA> <NA> x <NA>\nTOPIC s4 1 0 1 <NA> <NA> x <NA>\n"
    )
    with pytest.raises(InputError, match=r"d\.rttm:3: onset \(TBEG\) is not finite: '1e400'"):
        read_segments(tmp_path)


def test_rttm_ends_are_the_decimal_sums():
    cases = [("0.029", "0.001"), ("1234567.1", "0.000001"), ("0.1", "0.2"), ("7", ".5"), ("3599.999", "0.501")]
    cases += [("999999999.5", "0.0000015"), ("1e1", "0.1"), ("0.1000000000000000000001", "0.2")]
    text = "".join(f"SEGMENT s{k} 1 {a} {b} <NA> <NA> x <NA>\n" for k, (a, b) in enumerate(cases))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.rttm"
        path.write_text(text)
        columns = read_segments(path)
    assert columns.end.tolist() == [float(Decimal(a) + Decimal(b)) for a, b in cases]
    assert columns.start.tolist() == [float(Decimal(a)) for a, _ in cases]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 10**9 - 1), st.integers(0, 9), st.integers(0, 10**9 - 1)), min_size=1, max_size=40
    )
)
def test_times_are_read_as_float_reads_them(cells):
    texts = []
    for whole, places, fraction in cells:
        texts.append(f"{whole}.{fraction % 10**places:0{places}d}" if places else str(whole))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "u.csv"
        path.write_text("show,start,end\n" + "".join(f"s{k:02d},{t},1{t}\n" for k, t in enumerate(texts)))
        columns = read_units(path)
    assert columns.start.tolist() == [float(t) for t in texts]
    assert columns.end.tolist() == [float("1" + t) for t in texts]


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


def test_each_lookup_builds_an_annotation_equal_to_a_hand_made_one():
    columns = _columns()
    expected = Annotation(uri="a")
    expected[Segment(0.0, 1.0), 0] = "x"
    expected[Segment(1.0, 2.5), 1] = "<NA>"
    assert columns["a"] == expected and columns["a"].uri == "a"
    columns["a"][Segment(9, 10), 2] = "changed"  # a lookup's object is the caller's: the columns stay
    assert columns["a"] == expected
    assert columns.ends() == {"a": 2.5, "b": 6.0}
    assert columns.path("b") == "g" and columns.rows("b") == slice(2, 3)
    assert dict(columns) == {"a": expected, "b": _columns()["b"]} and len(columns) == 2 and "c" not in columns


def test_columns_cannot_be_changed():
    start = np.array([0.0, 1.0, 5.0])
    columns = SegmentColumns(["a", "b"], [0, 2, 3], start=start, end=[1.0, 2.5, 6.0], label=["x", "y", "z"])
    with pytest.raises(TypeError):
        columns["c"] = columns["a"]  # type: ignore[index]
    with pytest.raises(TypeError):
        del columns["a"]  # type: ignore[attr-defined]
    for array in (columns.start, columns.end, columns.label, columns.offsets):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = array[1]
    start[0] = 0.5  # the caller's own array stays writable
    assert columns.start[0] == 0.5
    assert not hasattr(columns, "pristine")


def test_columns_from_annotations_hold_every_segment():
    split = Annotation(uri="other name")
    split[Segment(2, 3), 1] = "x"
    split[Segment(0, 1), 0] = "x"
    split[Segment(3, 4), 3] = "y"  # a track left out before it, as a UEM crop leaves it
    regular = Annotation(uri="r")
    regular[Segment(0, 1), 0] = "x"
    columns = SegmentColumns.from_annotations({"s": split, "r": regular}, paths={"s": "s.rttm"})
    assert columns.names == ("r", "s") and columns.offsets.tolist() == [0, 1, 4]
    assert columns.start.tolist() == [0, 0, 2, 3] and columns.label.tolist() == ["x", "x", "x", "y"]
    assert columns.path("s") == "s.rttm" and columns.path("r") is None and columns.line is None
    expected = Annotation(uri="s")
    for track, (a, b, label) in enumerate([(0, 1, "x"), (2, 3, "x"), (3, 4, "y")]):
        expected[Segment(a, b), track] = label
    assert columns["s"] == expected and columns["s"].uri == "s" and columns["r"] == regular
    assert columns.select(["s", "missing"]).names == ("s",) and columns.select(["s"])["s"] == expected


def test_unit_columns_give_the_frames_back():
    frames = {
        "b": pd.DataFrame({"start": [0.0, 1.0], "end": [1.0, 2.0], "text": ["x", "y"]}),
        "a": pd.DataFrame({"start": [3.0], "end": [4.0]}),
        "c": pd.DataFrame({"start": [0], "end": [1]}),  # integer times: held as seconds in floats
    }
    columns = UnitColumns.from_frames(frames)
    assert list(columns) == ["a", "b", "c"]
    for show in ("a", "b"):
        pd.testing.assert_frame_equal(columns[show], frames[show])
    pd.testing.assert_frame_equal(columns["c"], pd.DataFrame({"start": [0.0], "end": [1.0]}))
    assert columns.columns_of("a") == ("start", "end") and columns.columns_of("b") == ("start", "end", "text")
    pd.testing.assert_frame_equal(columns.select(["b"])["b"], frames["b"])
    assert len(UnitColumns.from_frames({})) == 0


def test_caption_units_are_columns(tmp_path):
    path = tmp_path / "c.vtt"
    path.write_text("WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Ann>Hello\n\n00:00:02.000 --> 00:00:03.000\nBye\n")
    columns = read_units(path)
    check_columns(columns, {"c": [(0.0, 2.0, 3), (2.0, 3.0, 6)]}, {"c": path})
    assert columns["c"].to_dict("list") == {
        "start": [0.0, 2.0],
        "end": [2.0, 3.0],
        "text": ["Hello", "Bye"],
        "speaker": ["Ann", ""],
    }


@settings(max_examples=300, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(
            st.one_of(st.floats(0, 100), st.just(float("nan"))), st.one_of(st.floats(0, 100), st.just(float("inf")))
        ),
        max_size=8,
    )
)
def test_pairs_come_in_order_of_start_then_end(pairs):
    """``(start, end)`` pairs are taken in the order of numpy's lexsort by start, then end (NaN last), whether
    given in that order already or not."""
    from tvseg.columns import _pairs

    start, end, label = _pairs(pairs, "pairs")
    if not pairs:
        assert len(start) == len(end) == len(label) == 0
        return
    array = np.array(pairs, dtype=float)
    order = np.lexsort((array[:, 1], array[:, 0]))
    np.testing.assert_array_equal(start, array[order, 0])
    np.testing.assert_array_equal(end, array[order, 1])
    assert start.flags.c_contiguous and end.flags.c_contiguous
