"""Property tests: random, malformed and truncated input to every reader.

Every outcome must be either a correct parse or an InputError (never another exception). For
input built from known segments and left intact, the parse must give those segments back.
"""

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tvseg import read_metadata, read_segments, read_uem, read_units
from tvseg.errors import InputError
from tvseg.readers import NO_LABEL

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRICKY = list(",;\"'\n\r\t -->:.<>&0123456789abcNATEGMS") + ["\ufeff", "\x00", "é", "<NA>", "-->", ";;"]

_folder = tempfile.TemporaryDirectory(prefix="tvseg-fuzz-")


def _file(suffix: str, data: bytes) -> Path:
    path = Path(_folder.name) / f"fuzz{suffix}"
    path.write_bytes(data)
    return path


# Non-overlapping segments in whole milliseconds: gaps and durations of 1 ms to 100 s.
@st.composite
def timelines(draw, max_size=6):
    gaps = draw(st.lists(st.integers(0, 100_000), min_size=1, max_size=max_size))
    durations = draw(st.lists(st.integers(1, 100_000), min_size=len(gaps), max_size=len(gaps)))
    labels = draw(
        st.lists(
            st.sampled_from(["Intro", "Weather", "Sport_news", "T1", NO_LABEL]), min_size=len(gaps), max_size=len(gaps)
        )
    )
    rows, t = [], 0
    for gap, duration, label in zip(gaps, durations, labels):
        rows.append((t + gap, t + gap + duration, label))
        t += gap + duration
    return rows


@st.composite
def mutated(draw, text: str):
    """The text unchanged, or after one or more edits that a broken file shows."""
    edits = draw(st.integers(0, 3))
    for _ in range(edits):
        kind = draw(st.sampled_from(["truncate", "delete", "insert", "replace_line", "duplicate_line", "drop_line"]))
        lines = text.split("\n")
        if kind == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
        elif kind == "delete" and text:
            i = draw(st.integers(0, len(text) - 1))
            text = text[:i] + text[i + 1 :]
        elif kind == "insert":
            i = draw(st.integers(0, len(text)))
            text = text[:i] + draw(st.sampled_from(TRICKY)) + text[i:]
        elif kind == "replace_line":
            i = draw(st.integers(0, len(lines) - 1))
            lines[i] = "".join(draw(st.lists(st.sampled_from(TRICKY), max_size=20)))
            text = "\n".join(lines)
        elif kind == "duplicate_line":
            i = draw(st.integers(0, len(lines) - 1))
            text = "\n".join(lines[: i + 1] + lines[i:])
        elif kind == "drop_line":
            i = draw(st.integers(0, len(lines) - 1))
            text = "\n".join(lines[:i] + lines[i + 1 :])
    return edits, text


def _encode(draw, text: str) -> bytes:
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.booleans())
    return (b"\xef\xbb\xbf" if bom else b"") + text.replace("\n", ending).encode("utf-8")


def _seconds(ms: int) -> str:
    return f"{ms // 1000}.{ms % 1000:03d}"


def _vtt_time(ms: int, sep: str = ".") -> str:
    s, m = divmod(ms, 1000)
    mi, s = divmod(s, 60)
    h, mi = divmod(mi, 60)
    return f"{h:02d}:{mi:02d}:{s:02d}{sep}{m:03d}"


def _rttm(rows):
    return "".join(
        f"SEGMENT show 1 {_seconds(a)} {_seconds(b - a)} <NA> <NA> {label} <NA> <NA>\n" for a, b, label in rows
    )


def _vtt(rows):
    return "WEBVTT\n\n" + "\n".join(
        f"{_vtt_time(a)} --> {_vtt_time(b)}\n{'' if l == NO_LABEL else l}\n" for a, b, l in rows
    )


def _srt(rows):
    return "\n".join(
        f"{i}\n{_vtt_time(a, ',')} --> {_vtt_time(b, ',')}\n{'' if l == NO_LABEL else l}\n"
        for i, (a, b, l) in enumerate(rows, start=1)
    )


def _csv(rows):
    return "show,start,end,label\n" + "".join(
        f"show,{_seconds(a)},{_seconds(b)},{'' if l == NO_LABEL else l}\n" for a, b, l in rows
    )


def _expected(rows):
    return [(a / 1000, b / 1000, label) for a, b, label in rows]


def _got(annotation):
    return [(round(s.start, 6), round(s.end, 6), label) for s, _, label in annotation.itertracks(yield_label=True)]


@pytest.mark.parametrize("suffix, render", [(".rttm", _rttm), (".vtt", _vtt), (".srt", _srt), (".csv", _csv)])
@SETTINGS
@given(data=st.data())
def test_segment_readers_parse_or_refuse(suffix, render, data):
    rows = data.draw(timelines())
    edits, text = data.draw(mutated(render(rows)))
    path = _file(suffix, _encode(data.draw, text))
    try:
        result = read_segments(path)
    except InputError as error:
        assert error.path == str(path)
        assert edits, f"intact input refused: {error}"
        return
    if not edits:
        show = "show" if suffix in (".rttm", ".csv") else "fuzz"
        assert list(result) == [show]
        assert _got(result[show]) == _expected(rows)
    for annotation in result.values():  # whatever was accepted obeys the policy
        spans = [s for s, _ in annotation.itertracks()]
        assert all(s.duration > 0 and s.start >= 0 for s in spans)
        assert all(a.end <= b.start for a, b in zip(spans, spans[1:]))


@pytest.mark.parametrize("suffix", [".vtt", ".srt", ".csv"])
@SETTINGS
@given(data=st.data())
def test_unit_readers_parse_or_refuse(suffix, data):
    rows = data.draw(timelines())
    if suffix == ".csv":
        text = "show,start,end,text,speaker,topic\n" + "".join(
            f'show,{_seconds(a)},{_seconds(b)},"word, word",Anna,{l}\n' for a, b, l in rows
        )
    else:
        text = (_vtt if suffix == ".vtt" else _srt)(rows)
    edits, text = data.draw(mutated(text))
    path = _file(suffix, _encode(data.draw, text))
    try:
        result = read_units(path)
    except InputError as error:
        assert error.path == str(path)
        assert edits, f"intact input refused: {error}"
        return
    for frame in result.values():
        assert list(frame.columns[:2]) == ["start", "end"]
        assert (frame["end"] > frame["start"]).all()
        assert (frame["start"].iloc[1:].to_numpy() >= frame["end"].iloc[:-1].to_numpy()).all()
    if not edits:
        show = "show" if suffix == ".csv" else "fuzz"
        frame = result[show]
        assert list(zip(frame["start"], frame["end"])) == [(a / 1000, b / 1000) for a, b, _ in rows]


@SETTINGS
@given(data=st.data())
def test_uem_reader_parses_or_refuses(data):
    rows = data.draw(timelines())
    edits, text = data.draw(
        mutated(";; regions\n" + "".join(f"show 1 {_seconds(a)} {_seconds(b)}\n" for a, b, _ in rows))
    )
    path = _file(".uem", _encode(data.draw, text))
    try:
        result = read_uem(path)
    except InputError:
        assert edits
        return
    if not edits:
        assert [(s.start, s.end) for s in result["show"]] == [(a / 1000, b / 1000) for a, b, _ in rows]


@SETTINGS
@given(data=st.data())
def test_metadata_reader_parses_or_refuses(data):
    edits, text = data.draw(
        mutated('show,channel,programme,date\nn1,France 2,20h,2024-03-01\nn2,TF1,"13h, weekend",\n')
    )
    path = _file(".csv", _encode(data.draw, text))
    try:
        frame = read_metadata(path)
    except InputError:
        assert edits
        return
    if not edits:
        assert frame.to_dict("index") == {
            "n1": {"channel": "France 2", "programme": "20h", "date": "2024-03-01"},
            "n2": {"channel": "TF1", "programme": "13h, weekend", "date": ""},
        }


@pytest.mark.parametrize("suffix", [".rttm", ".vtt", ".srt", ".csv", ".uem"])
@SETTINGS
@given(data=st.binary(max_size=300))
def test_random_bytes(suffix, data):
    path = _file(suffix, data)
    try:
        if suffix == ".uem":
            read_uem(path)
        else:
            read_segments(path)
            if suffix != ".rttm":
                read_units(path)
    except InputError:
        pass
