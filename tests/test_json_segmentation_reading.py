"""A JSON segmentation (``{show: [segments]}``, ``formats/json.md``) is read all at once when every segment
reads without a question, else segment by segment (:mod:`tvseg.readers.video_chapters`): the two readings
give the same rows, lines, levels, scores, warnings and errors on every file.

The expected values are the segment-by-segment reading's, the reader that every other test of the format
checks against hand-written files; the generated files mix plain segments with every kind of value that
reading refuses or warns about, so that both the file read at once and the file sent back to the
segment-by-segment reading are drawn.
"""

import json
import math
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tvseg.readers.video_chapters as video_chapters
from tvseg.errors import InputError
from tvseg.memory import collector_off
from tvseg.readers.video_chapters import json_rows

ABSENT = object()

clean_times = st.one_of(st.integers(0, 10_000), st.floats(0, 10_000, allow_nan=False).map(lambda x: round(x, 3)))
clean_titles = st.one_of(st.just(ABSENT), st.none(), st.text(max_size=6), st.sampled_from([" Weather ", "Météo", ""]))
LEVEL_MISSING = ("level", ABSENT)  # a segment without the level its file's others have: refused after reading
clean_scores = st.one_of(st.just(ABSENT), st.none(), st.floats(-1, 1))
ANOMALIES = [
    LEVEL_MISSING,
    ("start", ABSENT),
    ("end", ABSENT),
    ("start", "12"),
    ("start", -1),
    ("end", 3e9),
    ("start", 1e400),
    ("end", None),
    ("start", True),
    ("label", "both"),  # beside a title
    ("title", 7),
    ("title", "\ud800x"),
    ("level", 0),
    ("level", -1),
    ("level", None),
    ("level", 1.5),
    ("level", [1]),
    ("level", "x"),
    ("score", math.inf),
    ("score", "0.5"),
    ("score", True),
    ("speaker", "unread"),
    ("record", "segment"),
    ("record", ["list"]),
    ("show value", {"start": 1}),
    ("show name", " "),
    ("show name", "s\ud800"),
]


@st.composite
def segment(draw, level_kind):
    record = {"start": draw(clean_times), "end": draw(clean_times)}
    title = draw(clean_titles)
    if title is not ABSENT:
        record[draw(st.sampled_from(["title", "label"]))] = title
    level = {"none": ABSENT, "int": draw(st.integers(1, 3)), "text": draw(st.sampled_from(["1", " 2", "3 "]))}[
        level_kind
    ]
    score = draw(clean_scores)
    for key, value in (("level", level), ("score", score)):
        if value is not ABSENT:
            record[key] = value
    return record


@st.composite
def files(draw):
    """A JSON segmentation of clean segments (at least one), with how it is written (indent, ASCII only)."""
    names = draw(
        st.lists(st.sampled_from(["news", "show 2", "start", "Été", "level"]), unique=True, min_size=1, max_size=4)
    )
    level_kind = draw(st.sampled_from(["none", "int", "text"]))
    shows = {name: draw(st.lists(segment(level_kind), max_size=5)) for name in names}
    if not any(shows.values()):
        shows[names[0]].append(draw(segment(level_kind)))
    return shows, draw(st.sampled_from([None, 1, 2])), draw(st.booleans())


def _put(shows: dict, anomaly, data) -> None:
    """``anomaly`` put into one segment (or show) of ``shows``, drawn with ``data``."""
    key, value = anomaly
    if key == "show value":
        shows[data.draw(st.sampled_from(sorted(shows)))] = value
        return
    if key == "show name":
        shows[value] = [{"start": 0, "end": 1}]
        return
    name, k = data.draw(st.sampled_from([(name, k) for name, records in shows.items() for k in range(len(records))]))
    record = shows[name][k]
    if key == "record":
        shows[name][k] = value
    elif value is ABSENT:
        record.pop(key, None)
    elif key == "label":
        record.pop("label", None)
        record["title"], record["label"] = "A", value
    else:
        record[key] = value


def _read(path: Path):
    """What reading ``path`` gives: its rows (as text, NaN included) or its error, and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            rows = json_rows(path, format="json")
        except InputError as error:
            got = ("error", str(error))
        else:
            arrays = {key: repr(getattr(rows, key).tolist()) for key in ("show", "start", "end", "line")}
            got = (rows.names, arrays, {key: repr(v.tolist()) for key, v in rows.texts.items()}, rows.overlaps)
    return got, [str(w.message) for w in caught]


def _write(folder: str, shows: dict, indent, ascii_only: bool) -> Path:
    path = Path(folder) / "seg.json"
    try:
        text = json.dumps(shows, indent=indent, ensure_ascii=ascii_only)
        path.write_text(text, encoding="utf-8")
    except UnicodeEncodeError:  # a lone surrogate is written escaped
        path.write_text(json.dumps(shows, indent=indent, ensure_ascii=True), encoding="utf-8")
    return path


def _both(path: Path):
    """What reading ``path`` gives, at once where it can (and whether it could), and segment by segment."""
    sent_back = []
    original = video_chapters._plain_at_once

    def at_once(shows, reader):
        read = original(shows, reader)
        sent_back.append(read is None)
        return read

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(video_chapters, "_plain_at_once", at_once)
        first = _read(path)
        patch.setattr(video_chapters, "_plain_at_once", lambda shows, reader: None)
        return first, _read(path), sent_back


@settings(max_examples=150, deadline=None)
@given(files())
def test_a_file_of_plain_segments_is_read_at_once_as_segment_by_segment(drawn):
    with tempfile.TemporaryDirectory() as folder:
        at_once, one_by_one, sent_back = _both(_write(folder, *drawn))
    assert sent_back == [False]
    assert at_once == one_by_one


@pytest.mark.parametrize("anomaly", ANOMALIES, ids=lambda a: f"{a[0]}={a[1]!r}"[:30])
@settings(max_examples=15, deadline=None)
@given(drawn=files(), data=st.data())
def test_a_file_with_a_segment_in_question_is_read_segment_by_segment(anomaly, drawn, data):
    shows, indent, ascii_only = drawn
    _put(shows, anomaly, data)
    with tempfile.TemporaryDirectory() as folder:
        at_once, one_by_one, sent_back = _both(_write(folder, shows, indent, ascii_only))
    if anomaly != LEVEL_MISSING:  # (a file whose segments all lack a level reads at once)
        assert sent_back == [True]
    assert at_once == one_by_one


def test_a_plain_file_is_read_at_once_with_its_lines_levels_and_scores(tmp_path):
    text = (
        '{"news": [\n'
        '  {"start": 0, "end": 12.5, "title": " Weather ", "level": 1},\n'
        '  {"end": 30, "start": 12.5, "level": 2, "score": 0.25}\n'
        "],\n"
        '"sport": [{"start": 3, "end": 4, "label": null, "level": "1"}]}\n'
    )
    path = tmp_path / "seg.json"
    path.write_text(text)
    read = []
    original = video_chapters._plain_at_once

    def spy(shows, reader):
        read.append(original(shows, reader))
        return read[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(video_chapters, "_plain_at_once", spy)
        rows = json_rows(path, format="json")
    assert read[0] is not None  # read at once, not sent back
    assert rows.names == ["news", "sport"]
    assert rows.start.tolist() == [0.0, 12.5, 3.0] and rows.end.tolist() == [12.5, 30.0, 4.0]
    assert rows.line.tolist() == [2, 3, 5]  # the line of each segment's "start" key
    assert rows.texts["label"].tolist() == ["Weather", "<NA>", "<NA>"]
    assert rows.texts["level"].tolist() == [1, 2, 1]
    assert repr(rows.texts["score"].tolist()) == "[nan, 0.25, nan]"


def test_the_collector_is_off_only_while_the_program_parses(monkeypatch):
    import gc

    import tvseg.memory

    assert gc.isenabled()
    with collector_off():
        assert gc.isenabled()  # a caller of the library keeps its collector
    monkeypatch.setattr(tvseg.memory, "_OWN_PROCESS", [True])
    with pytest.raises(KeyError), collector_off():
        assert not gc.isenabled()
        raise KeyError("an error while parsing")
    assert gc.isenabled() and gc.get_freeze_count() == 0  # on again, nothing frozen
