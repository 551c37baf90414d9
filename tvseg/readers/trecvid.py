"""TRECVID 2003-2004 story segmentation: the reference's ``.src_sgm`` story files and the XML submissions.

NIST scored the task with a Java program behind ``evaluate.sh eps nameDir`` (the scorer's README): the truth
story data as one ``.src_sgm`` file per video, the submissions as XML files checked against
``storySegmentationSubmission.dtd``, an offset table per video (``alignment.txt.final``) and the videos'
lengths (``lengthTableTestCollection.txt``). What each file holds, what tvseg reads of it and what it could
not check against NIST's own text is in ``formats/trecvid.md``.

- :func:`src_sgm_records`: a ``.src_sgm`` file's stories, one ``<DOC>`` block each, its ``<DOCTYPE>``
  (``NEWS`` or ``MISCELLANEOUS``) the story's label, its start and end the ``Bsec`` and ``Esec`` attributes
  of a tag of the block (TDT's boundary attributes).
- :func:`submission_records`: a submission's story boundaries per video (``<storyBoundary time="..."/>``
  in a ``<videoStorySegmentationResult fileName="...">``), made segments: each story from its boundary to
  the next, the first from 0, the last to the video's end (``end=`` or the UEM: NIST's length table), as
  NIST's scorer adds the last story's end from the length table.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from xml.parsers import expat

from tvseg.errors import InputError
from tvseg.readers.source import read_text
from tvseg.readers.validation import MAX_SECONDS, NO_LABEL

__all__ = ["STORY_TYPES", "SUBMISSION_TYPES", "is_submission", "video_id", "src_sgm_records", "submission_records"]

STORY_TYPES = ("NEWS", "MISCELLANEOUS")
"""The story types of the reference (the guidelines: news stories and miscellaneous segments)."""
SUBMISSION_TYPES = {"news": "NEWS", "misc": "MISCELLANEOUS"}
"""A submitted story's ``type`` and the reference's name for it."""
_VIDEO_SUFFIXES = (".mpg", ".mpeg", ".mp4", ".src_sgm")

_TAG = re.compile(r"<(/?)([A-Za-z_][\w.-]*)([^<>]*)>")
_ATTRIBUTE = re.compile(r"""([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")


def is_submission(path) -> bool:
    """Whether an ``.xml`` file is a story segmentation submission: its first 4 KB name the root element."""
    try:
        with open(path, "rb") as file:
            head = file.read(4096)
    except OSError:
        return False
    return b"<storySegmentationSubmission" in head


def video_id(name: str) -> str:
    """A video's show id: its file name without a video (or ``.src_sgm``) extension and folder."""
    base = Path(name.strip()).name
    for suffix in _VIDEO_SUFFIXES:
        if base.lower().endswith(suffix):
            return base[: -len(suffix)]
    return base


def _seconds(text: str, *, path: Path, line: int, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{what} is not a number of seconds", path=path, line=line, value=text) from None
    if not math.isfinite(value) or value < 0 or value > MAX_SECONDS:
        raise InputError(
            f"{what} must be a finite number of seconds from 0 to {MAX_SECONDS:,.0f}", path=path, line=line, value=text
        )
    return value


def src_sgm_records(
    path: Path, *, show: str, encoding: str | None = None
) -> dict[str, list[tuple[float, float, str, int]]]:
    """The stories ``(start, end, type, line)`` of one ``.src_sgm`` file, in file order, under ``show``.

    Raises
    ------
    InputError
        A ``<DOC>`` block without a ``<DOCTYPE>`` or without ``Bsec``/``Esec``, a type other than ``NEWS`` or
        ``MISCELLANEOUS``, a time that is not a number of seconds, a story that ends before it starts, a
        ``<DOC>`` not closed, a file without a story: naming the file, the line and the value.
    """
    text = read_text(path, encoding=encoding)
    records: list[tuple[float, float, str, int]] = []
    doc: dict[str, Any] | None = None
    for match in _TAG.finditer(text):
        closing, name, rest = match.group(1), match.group(2).upper(), match.group(3)
        line = text.count("\n", 0, match.start()) + 1
        if name == "DOC" and not closing:
            if doc is not None:
                raise InputError("a <DOC> inside a <DOC> (the previous one is not closed)", path=path, line=line)
            doc = {"line": line, "type": None, "attrs": {}}
        elif doc is None:
            continue
        if name == "DOCTYPE" and not closing:
            end = text.find("<", match.end())
            doc["type"] = (text[match.end() : end if end >= 0 else len(text)].strip(), line)
        for key, *values in _ATTRIBUTE.findall(rest):
            if key.lower() in ("bsec", "esec"):
                doc["attrs"][key.lower()] = (next(v for v in values if v) if any(values) else "", line)
        if name == "DOC" and closing:
            records.append(_story(doc, path=path, line=line))
            doc = None
    if doc is not None:
        raise InputError("a <DOC> is not closed (no </DOC>)", path=path, line=doc["line"])
    if not records:
        raise InputError("no story (<DOC> block) in this .src_sgm file", path=path)
    return {show: records}


def _story(doc: dict[str, Any], *, path: Path, line: int) -> tuple[float, float, str, int]:
    if doc["type"] is None:
        raise InputError("a <DOC> without a <DOCTYPE> (NEWS or MISCELLANEOUS)", path=path, line=doc["line"])
    kind, kind_line = doc["type"]
    if kind.upper() not in STORY_TYPES:
        raise InputError("the story type is not NEWS or MISCELLANEOUS", path=path, line=kind_line, value=kind)
    times = {}
    for key in ("bsec", "esec"):
        if key not in doc["attrs"]:
            raise InputError(
                f"a <DOC> without its {'start (Bsec=)' if key == 'bsec' else 'end (Esec=)'}",
                path=path,
                line=doc["line"],
            )
        value, at = doc["attrs"][key]
        times[key] = _seconds(value, path=path, line=at, what=f"{key.capitalize()}")
    if not times["bsec"] < times["esec"]:
        raise InputError(
            "the story ends (Esec) before or where it starts (Bsec)",
            path=path,
            line=doc["line"],
            value=f"Bsec={times['bsec']:g} Esec={times['esec']:g}",
        )
    return times["bsec"], times["esec"], kind.upper(), doc["line"]


_ROOT, _RUN, _VIDEO, _BOUNDARY = (
    "storySegmentationSubmission",
    "storySegmentationRunResult",
    "videoStorySegmentationResult",
    "storyBoundary",
)
_PARENT = {_RUN: _ROOT, _VIDEO: _RUN, _BOUNDARY: _VIDEO}
_REQUIRED = {_RUN: ("sysId",), _VIDEO: ("fileName",), _BOUNDARY: ("time",)}


def submission_records(
    path: Path, *, end: Mapping[str, float] | float | None = None, uem=None
) -> dict[str, list[tuple[float, float, str, int]]]:
    """The stories ``(start, end, type, line)`` of one TRECVID story segmentation submission, per video.

    The file is checked as tvseg reads the DTD (``formats/trecvid.md``): the root
    ``storySegmentationSubmission``, one ``storySegmentationRunResult`` (``sysId``), in it
    ``videoStorySegmentationResult`` elements (``fileName``, each video once), in those ``storyBoundary``
    elements (``time`` in seconds from the start of the video file, strictly increasing; ``type`` ``news`` or
    ``misc`` when given). Each story runs from its boundary to the next; the first from 0 (a boundary at 0
    starts it); the last to the video's end: ``end`` (``{video: seconds}``) or the end of the video's last
    region in ``uem`` (NIST's length table).

    Raises
    ------
    InputError
        Malformed XML, an element or attribute out of place, a time that is not a number of seconds or does
        not increase, a video given twice, a video whose end is unknown or not after its last boundary.
    """
    videos: dict[str, list[tuple[float, str, int]]] = {}
    video_lines: dict[str, int] = {}
    stack: list[str] = []
    runs = 0
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def fail(message: str, value: object = None) -> InputError:
        return InputError(message, path=path, line=parser.CurrentLineNumber, value=value)

    def entity(*args: Any) -> None:
        raise fail("an entity declaration: not part of a story segmentation submission", value=args[0])

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal runs
        parent = stack[-1] if stack else None
        if name == _ROOT and parent is None:
            pass
        elif _PARENT.get(name) != parent:
            where = f"inside <{parent}>" if parent else "as the root element"
            expected = f"<{_ROOT}>" if parent is None else f"a child of <{parent}> in the DTD"
            raise fail(f"element <{name}> {where}: expected {expected}", value=name)
        for key in _REQUIRED.get(name, ()):
            if not attrs.get(key, "").strip():
                raise fail(f"<{name}> without its {key}= attribute")
        if name == _RUN:
            runs += 1
            if runs > 1:
                raise fail("a second run in one file: give each run's file as its own system", value=attrs["sysId"])
        elif name == _VIDEO:
            video = video_id(attrs["fileName"])
            if video in videos:
                raise fail(f"video {video!r} given twice (first at line {video_lines[video]})", value=attrs["fileName"])
            videos[video], video_lines[video] = [], parser.CurrentLineNumber
        elif name == _BOUNDARY:
            line = parser.CurrentLineNumber
            time = _seconds(attrs["time"], path=path, line=line, what="the boundary time")
            kind = attrs.get("type")
            if kind is not None and kind not in SUBMISSION_TYPES:
                raise fail("the story type is not 'news' or 'misc'", value=kind)
            boundaries = videos[list(videos)[-1]]
            if boundaries and not time > boundaries[-1][0]:
                raise fail(
                    f"the boundary times must increase (the previous one is {boundaries[-1][0]:g} s)",
                    value=attrs["time"],
                )
            boundaries.append((time, NO_LABEL if kind is None else SUBMISSION_TYPES[kind], line))
        stack.append(name)

    def stop(name: str) -> None:
        stack.pop()

    parser.StartElementHandler = start
    parser.EndElementHandler = stop
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(Path(path).read_bytes(), True)
    except expat.ExpatError as error:
        raise InputError(
            f"not well-formed XML ({expat.errors.messages[error.code]})", path=path, line=error.lineno
        ) from None
    if runs == 0:
        raise InputError(f"no <{_RUN}> in this submission", path=path)
    return {
        video: _stories(video, boundaries, video_lines[video], path=path, end=end, uem=uem)
        for video, boundaries in videos.items()
    }


def _stories(video: str, boundaries, line: int, *, path: Path, end, uem) -> list[tuple[float, float, str, int]]:
    from tvseg.readers.uem import regions_of

    stop = end.get(video) if isinstance(end, Mapping) else end
    source = "end="
    if stop is None and uem is not None:
        regions = regions_of(uem, video)
        if regions is not None:
            stop, source = float(regions[1][-1]), "the UEM"
    last = boundaries[-1] if boundaries else (0.0, NO_LABEL, line)
    if stop is None:
        raise InputError(
            f"the end of video {video!r} is unknown (a submission does not hold it; NIST's scorer took it from "
            "its length table): give each video's [0, length] as a UEM (--uem), or its end (end=)",
            path=path,
            line=last[2],
        )
    if not last[0] < stop:
        raise InputError(
            f"the video's end ({stop:g} s, from {source}) is not after its last boundary",
            path=path,
            line=last[2],
            value=f"{last[0]:g}",
        )
    if not boundaries or boundaries[0][0] > 0:
        boundaries = [(0.0, NO_LABEL, line), *boundaries]
    ends = [b[0] for b in boundaries[1:]] + [float(stop)]
    return [(b[0], e, b[1], b[2]) for b, e in zip(boundaries, ends)]
