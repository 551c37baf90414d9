"""Fuzz: broken versions of the valid examples of formats/examples/ are read right or refused, never misread.

Each valid example is mutated (lines deleted, duplicated, swapped or replaced, bytes inserted, the
file truncated or re-encoded) and read. A refusal must be an InputError naming the file; a
success must give exactly the records that the file holds, counted here by simple means of
the test's own (one cue per ``-->`` line, one segment per RTTM span line, one row per CSV record,
one region per UEM line, one segment per JSONL boundary and chapter line, one chapter per YTSeg timestamp) with their times: nothing
dropped, folded, added or changed silently.
"""

import codecs
import json
import re
import tempfile
import warnings
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tvseg import read_metadata, read_segments, read_uem, read_units
from tvseg.errors import InputError, TvsegWarning
from tvseg.readers import NO_LABEL

EXAMPLES = Path(__file__).resolve().parent.parent / "formats" / "examples"
VALID = sorted(EXAMPLES.glob("*-valid.*")) + sorted(EXAMPLES.glob("txt/*-valid.*"))  # txt/: chapter lists
CHAPTERS_END = 10**6  # the show's end given to the chapter lists
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SPAN_TYPES = {
    "SEGMENT",
    "NOSCORE",
    "NO_RT_METADATA",
    "LEXEME",
    "NON-LEX",
    "NON-SPEECH",
    "FILLER",
    "EDIT",
    "SU",
    "A/P",
    "SPEAKER",
}
PIECES = [
    b"\n",
    b"\r",
    b"\r\n",
    b" ",
    b"\t",
    b"\xc2\xa0",
    b"\xe9",
    b"\xff",
    b"\x00",
    b"-->",
    b"->",
    b"<",
    b">",
    b"&",
    b"&lt;",
    b"<i>",
    b";",
    b",",
    b'"',
    b":",
    b".",
    b"0",
    b"7",
    b"42",
    b"-",
    b"1e308",
    b";;",
    b"NOTE",
    b"<NA>",
    b"\xe2\x80\xa8",
]
BOMS = {
    codecs.BOM_UTF32_BE: "utf-32-be",
    codecs.BOM_UTF32_LE: "utf-32-le",
    codecs.BOM_UTF8: "utf-8",
    codecs.BOM_UTF16_BE: "utf-16-be",
    codecs.BOM_UTF16_LE: "utf-16-le",
}

_folder = tempfile.TemporaryDirectory(prefix="tvseg-fuzz-examples-")


@st.composite
def mutated(draw, data: bytes) -> bytes:
    for _ in range(draw(st.integers(1, 3))):
        lines = data.split(b"\n")
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "insert", "truncate", "cut", "utf16"]))
        i, j = (draw(st.integers(0, len(lines) - 1)) for _ in range(2))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "replace":
            lines[i] = b"".join(draw(st.lists(st.sampled_from(PIECES), max_size=8)))
        if kind in ("delete", "duplicate", "swap", "replace"):
            data = b"\n".join(lines)
        elif kind == "insert":
            at = draw(st.integers(0, len(data)))
            data = data[:at] + draw(st.sampled_from(PIECES)) + data[at:]
        elif kind == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
        elif kind == "cut" and data:
            at = draw(st.integers(0, len(data) - 1))
            data = data[:at] + data[at + 1 :]
        elif kind == "utf16":
            try:
                data = data.decode("utf-8").encode(draw(st.sampled_from(["utf-16", "utf-32"])))
            except UnicodeDecodeError:
                pass
    return data


# --- the test's own counting --------------------------------------------------------------------


def decoded_lines(data: bytes) -> list[str]:
    """The lines of a file that a reader accepted (so it decodes)."""
    codec = next((name for bom, name in BOMS.items() if data.startswith(bom)), None)
    text = data.decode(codec)[1:] if codec else data.decode("utf-8")
    lines = re.split(r"\r\n|\r|\n", text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def clock_ms(token: str) -> int:
    """Milliseconds of ``[h:]m:s.mmm`` (any padding, ``.`` or ``,``)."""
    *hours_minutes, seconds = token.split(":")
    whole, millis = seconds.replace(",", ".").split(".")
    total = 0
    for part in hours_minutes:
        total = total * 60 + int(part)
    return (total * 60 + int(whole)) * 1000 + int(millis)


def cue_times(lines: list[str]) -> list[tuple[int, int]]:
    """``(start, end)`` in ms of every line holding ``-->``: each is one cue."""
    times = []
    for line in lines:
        if "-->" in line:
            left, right = line.split("-->", 1)
            times.append((clock_ms(left.split()[-1]), clock_ms(right.split()[0])))
    return times


def rttm_spans(lines: list[str]) -> list[tuple[str, Decimal, Decimal]]:
    spans = []
    for line in lines:
        fields = [f for f in re.split(r"[ \t]+", line) if f]
        if fields and not fields[0].startswith(";;") and fields[0].upper() in SPAN_TYPES:
            spans.append((fields[1], Decimal(fields[3]), Decimal(fields[3]) + Decimal(fields[4])))
    return spans


def csv_table(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """The header's cells and the other non-blank records' cells, split by hand.

    The separator is ``;`` when the header line holds ``;`` and no ``,``. A ``"`` opens a quoted
    cell only at the start of a cell; inside one, ``""`` is a quote and a line break is text.
    """
    header_line = next(line for line in lines if line.strip())
    separator = ";" if ";" in header_line and "," not in header_line else ","
    records, cells, cell, quoted, fresh = [], [], "", False, True
    for line in lines:
        i = 0
        while i < len(line):
            char = line[i]
            if quoted:
                if char == '"' and line[i + 1 : i + 2] == '"':
                    cell, i = cell + '"', i + 1
                elif char == '"':
                    quoted = False
                else:
                    cell += char
            elif char == '"' and fresh:
                quoted = True
            elif char == separator:
                cells.append(cell)
                cell, fresh = "", True
                i += 1
                continue
            else:
                cell += char
            fresh = False
            i += 1
        if quoted:
            cell += "\n"
            continue
        cells.append(cell)
        if cells != [""]:
            records.append(cells)
        cells, cell, fresh = [], "", True
    return records[0], records[1:]


def csv_seconds(cell: str) -> float:
    cell = cell.strip().replace(",", ".")
    if ":" not in cell:
        return float(Decimal(cell))
    *hours_minutes, seconds = cell.split(":")
    total = 0
    for part in hours_minutes:
        total = total * 60 + int(part)
    return float(Decimal(total * 60) + Decimal(seconds))


def jsonl_sides(lines: list[str], stem: str) -> dict[str, dict[str, list[tuple[float, float, str]]]]:
    """``{side: {show: [(start, end, title)]}}`` of a JSONL file (a side only where it is a list)."""
    sides = {"reference": {}, "hypothesis": {}}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        entry = json.loads(line)
        show = entry.get("show", f"{stem}-{number}")
        for side, titles in (("reference", "reference_titles"), ("hypothesis", "hyp_titles")):
            if isinstance(entry.get(side), list):
                times = [0.0] + sorted({float(t) for t in entry[side]} - {0.0}) + [float(entry["duration"])]
                named = {float(start): title.strip() for title, start in entry.get(titles) or []}
                sides[side][show] = [(a, b, named.get(a) or NO_LABEL) for a, b in zip(times, times[1:])]
    return sides


def ytseg_videos(lines: list[str]) -> dict[str, list[tuple[float, float, str]]]:
    """``{video: [(start, end, title)]}`` of a YTSeg file of JSON Lines: the chapters from each start to
    the next (the last to the duration), an untitled one from 0 when the first starts later."""
    videos = {}
    for line in lines:
        if not line.strip():
            continue
        entry = json.loads(line)
        starts = [float(t) for t in entry["chapter_timestamps"]]
        titles = [(t.strip() or NO_LABEL) for t in entry.get("chapter_titles") or [NO_LABEL] * len(starts)]
        if not starts or starts[0] > 0:
            starts, titles = [0.0, *starts], [NO_LABEL, *titles]
        ends = [*starts[1:], float(entry["duration"])]
        videos[entry["video_id"]] = list(zip(starts, ends, titles))
    return videos


def chapter_starts(lines: list[str]) -> list[int]:
    """The start in seconds of every line that is not blank (each is one chapter)."""
    starts = []
    for line in lines:
        if line.strip():
            clock = re.match(r"[ \t]*(?:[-*\u2022][ \t]+)?([0-9:]+)", line).group(1).rstrip(":")
            total = 0
            for part in clock.split(":"):
                total = total * 60 + int(part)
            starts.append(total)
    return starts


# --- the checks ----------------------------------------------------------------------------------


def check_read(kind: str, path: Path, data: bytes) -> None:
    """Read ``path`` as its kind of example; when it reads, compare with the test's own counting."""
    if kind == "rttm":
        result = read_segments(path)
        got = sorted((show, s.start, s.end) for show, a in result.items() for s, _ in a.itertracks())
        assert got == sorted((show, float(a), float(b)) for show, a, b in rttm_spans(decoded_lines(data)))
    elif kind in ("chapters", "captions", "srt"):
        result = read_segments(path)
        units = read_units(path)[path.stem]
        cues = cue_times(decoded_lines(data))
        assert list(result) == [path.stem]
        assert [(round(s.start * 1000), round(s.end * 1000)) for s, _ in result[path.stem].itertracks()] == sorted(cues)
        # as units, overlapping cues are cut where the next begins and cues with one start joined
        assert [round(t * 1000) for t in units["start"]] == sorted({start for start, _ in cues})
    elif kind == "jsonl":
        reference = read_segments(path, which="reference")  # refused here, or the file is JSON
        expected = jsonl_sides(decoded_lines(data), path.stem)
        for side in ("reference", "hypothesis"):
            if side == "hypothesis" and len(expected[side]) < len(expected["reference"]):
                with pytest.raises(InputError, match="hypothesis"):
                    read_segments(path, which=side)
                continue
            result = reference if side == "reference" else read_segments(path, which=side)
            assert {
                show: [(s.start, s.end, label) for s, _, label in a.itertracks(yield_label=True)]
                for show, a in result.items()
            } == expected[side]
    elif kind == "ytseg":
        result = read_segments(path)
        assert {
            show: [(s.start, s.end, label) for s, _, label in a.itertracks(yield_label=True)]
            for show, a in result.items()
        } == ytseg_videos(decoded_lines(data))
    elif kind == "chapter_list":
        result = read_segments(path, format="txt", end=CHAPTERS_END)
        starts = chapter_starts(decoded_lines(data))
        assert list(result) == [path.stem]
        assert [(s.start, s.end) for s, _ in result[path.stem].itertracks()] == list(
            zip(starts, starts[1:] + [CHAPTERS_END])
        )
    elif kind == "uem":
        result = read_uem(path)
        regions = [line for line in decoded_lines(data) if line.strip(" \t") and not line.strip(" \t").startswith(";;")]
        assert sum(len(timeline) for timeline in result.values()) == len(regions)
    elif kind == "metadata":
        assert len(read_metadata(path)) == len(csv_table(decoded_lines(data))[1])
    else:
        if kind == "segments":
            result = read_segments(path)
            got = sorted((s.start, s.end) for a in result.values() for s, _ in a.itertracks())
        else:
            frames = read_units(path)
            got = sorted(t for frame in frames.values() for t in zip(frame["start"], frame["end"]))
        header, rows = csv_table(decoded_lines(data))
        names = [name.strip() for name in header]
        start, end = names.index("start"), names.index("end")
        assert got == sorted((csv_seconds(row[start]), csv_seconds(row[end])) for row in rows)


@pytest.mark.parametrize("example", VALID, ids=lambda p: p.name)
@FUZZ
@given(data=st.data())
def test_mutated_example_is_read_right_or_refused(example, data):
    kind = example.name.split("-")[0]
    content = data.draw(mutated(example.read_bytes()))
    path = Path(_folder.name) / example.name
    path.write_bytes(content)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            check_read(kind, path, content)
        except InputError as error:
            assert error.path == str(path) and str(error).startswith(f"{path}:"), str(error)
    for warning in caught:
        assert issubclass(warning.category, TvsegWarning) and str(warning.message).startswith(f"{path}:")


@pytest.mark.parametrize("example", VALID, ids=lambda p: p.name)
def test_the_counting_of_this_test_on_the_intact_examples(example):
    check_read(example.name.split("-")[0], example, example.read_bytes())
