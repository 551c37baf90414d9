"""A JSON segmentation (``{show: [segments]}``, ``formats/json.md``) and VidChapters-7M's raw annotations are
read all at once when every segment (chapter) reads without a question, else one after the other
(:mod:`tvseg.readers.video_chapters`): the two readings give the same rows, lines, levels, scores, warnings
and errors on every file.

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


def _read(path: Path, format: str = "json"):
    """What reading ``path`` gives: its rows (as text, NaN included) or its error, and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            rows = json_rows(path, format=format)
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


def _both(path: Path, format: str = "json", function: str = "_plain_at_once"):
    """What reading ``path`` gives, at once where it can (and whether it could: ``sent_back``), and read
    one record after the other (``function``, the reading at once, returning None)."""
    sent_back = []
    original = getattr(video_chapters, function)

    def at_once(shows, reader):
        read = original(shows, reader)
        sent_back.append(read is None)
        return read

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(video_chapters, function, at_once)
        first = _read(path, format)
        patch.setattr(video_chapters, function, lambda shows, reader: None)
        return first, _read(path, format), sent_back


@given(st.one_of(st.text(max_size=8), st.sampled_from(['a"b', "a\\b", "tab\there", "a\x7f", "\u2028", "é", "vid_1"])))
def test_a_key_is_searched_as_python_s_json_writes_it(key):
    # with and without escapes, each once, as json.dumps writes them
    expected = tuple(dict.fromkeys((json.dumps(key, ensure_ascii=False), json.dumps(key))))
    assert video_chapters._written(key) == expected


def _check(drawn, format: str, function: str, *, sent_back: bool | None) -> None:
    """The file ``drawn`` (its content, indent, ASCII only) read at once (``sent_back``: whether it must be
    sent back; None: either) gives what it gives read one record after the other."""
    with tempfile.TemporaryDirectory() as folder:
        at_once, one_by_one, sent = _both(_write(folder, *drawn), format, function)
    if sent_back is not None:
        assert sent == [sent_back]
    assert at_once == one_by_one


@settings(max_examples=150, deadline=None)
@given(files())
def test_a_file_of_plain_segments_is_read_at_once_as_segment_by_segment(drawn):
    _check(drawn, "json", "_plain_at_once", sent_back=False)


@pytest.mark.parametrize("anomaly", ANOMALIES, ids=lambda a: f"{a[0]}={a[1]!r}"[:30])
@settings(max_examples=15, deadline=None)
@given(drawn=files(), data=st.data())
def test_a_file_with_a_segment_in_question_is_read_segment_by_segment(anomaly, drawn, data):
    _put(drawn[0], anomaly, data)
    # (a file whose segments all lack a level reads at once)
    _check(drawn, "json", "_plain_at_once", sent_back=None if anomaly == LEVEL_MISSING else True)


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


# --- VidChapters-7M's raw annotations: {video: {"duration": d, "chapters": [{"label", "time"}]}} ------------


@st.composite
def annotations(draw):
    """A VidChapters annotation file of clean videos (at least one), with how it is written."""
    names = draw(
        st.lists(st.sampled_from(["vid1", "-Xy_9", "label", "Été", "time"]), unique=True, min_size=1, max_size=4)
    )
    videos = {}
    for name in names:
        gaps = draw(st.lists(st.floats(0.1, 500, allow_nan=False).map(lambda x: round(x, 2)), min_size=1, max_size=6))
        times = [round(sum(gaps[:k]) - gaps[0], 3) for k in range(1, len(gaps) + 1)]  # from 0, increasing
        if len(set(times)) < len(times):
            times = list(range(len(times)))
        chapters = [{"label": draw(st.one_of(st.none(), st.text(max_size=5))), "time": t} for t in times]
        if draw(st.booleans()):
            chapters = [{"time": c["time"], "label": c["label"]} for c in chapters]  # the other order of keys
        videos[name] = {"duration": round(times[-1] + draw(st.floats(0.5, 100)), 2), "chapters": chapters}
    return videos, draw(st.sampled_from([None, 1, 2])), draw(st.booleans())


CHAPTER_ANOMALIES = [
    ("label", ABSENT),
    ("time", ABSENT),
    ("time", "12"),
    ("time", -1),
    ("time", 1e400),
    ("time", "same as the one before"),
    ("time", "at the duration"),
    ("label", 7),
    ("label", "\ud800x"),
    ("words", "unread"),
    ("chapter", "a chapter"),
    ("video", "duration missing"),
    ("video", "duration text"),
    ("video", "url"),
    ("video", "no chapter"),
    ("video", "chapters not a list"),
    ("video", "processed"),
    ("video", "not an object"),
    ("video name", " "),
]


def _put_chapter(videos: dict, anomaly, data) -> None:
    key, value = anomaly
    if key == "video name":
        videos[value] = {"duration": 10, "chapters": [{"label": "A", "time": 0}]}
        return
    name = data.draw(st.sampled_from(sorted(videos)))
    video = videos[name]
    if key == "video":
        if value == "duration missing":
            del video["duration"]
        elif value == "duration text":
            video["duration"] = "10"
        elif value == "url":
            video["url"] = "https://"
        elif value == "no chapter":
            video["chapters"] = []
        elif value == "chapters not a list":
            video["chapters"] = {"label": "A", "time": 0}
        elif value == "processed":
            videos[name] = {"duration": 10, "timestamps": [[0, 5], [5, 10]], "sentences": ["A", "B"]}
        else:
            videos[name] = ["not", "an", "object"]
        return
    chapters = video["chapters"]
    k = data.draw(st.integers(0, len(chapters) - 1))
    if key == "chapter":
        chapters[k] = value
    elif value is ABSENT:
        del chapters[k][key]
    elif value == "same as the one before":
        chapters[k]["time"] = chapters[k - 1]["time"] if k else chapters[k]["time"]
        if not k and len(chapters) > 1:
            chapters[1]["time"] = chapters[0]["time"]
        elif not k:
            video["duration"] = chapters[0]["time"]
    elif value == "at the duration":
        chapters[-1]["time"] = video["duration"]
    else:
        chapters[k][key] = value


@settings(max_examples=150, deadline=None)
@given(annotations())
def test_vidchapters_annotations_of_plain_chapters_are_read_at_once_as_chapter_by_chapter(drawn):
    _check(drawn, "vidchapters", "_chapters_at_once", sent_back=False)


@pytest.mark.parametrize("anomaly", CHAPTER_ANOMALIES, ids=lambda a: f"{a[0]}={a[1]!r}"[:30])
@settings(max_examples=15, deadline=None)
@given(drawn=annotations(), data=st.data())
def test_vidchapters_annotations_with_a_chapter_in_question_are_read_chapter_by_chapter(anomaly, drawn, data):
    _put_chapter(drawn[0], anomaly, data)
    _check(drawn, "vidchapters", "_chapters_at_once", sent_back=True)
