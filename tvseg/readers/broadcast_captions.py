"""Broadcast captions, TTML (IMSC, EBU-TT-D, DFXP), SCC and EBU STL, read through ttconv.

ttconv (the converter behind the W3C IMSC tools, ``pip install 'tvseg[broadcast]'``) turns each format into
its document model; a caption is one paragraph of it, timed by the library on the timeline of the file,
lasting from the earliest begin to the latest end of the text inside it (``formats/ttml.md``,
``formats/scc.md``, ``formats/stl.md``). What ttconv logs at WARNING is given as one
:class:`~tvseg.errors.TvsegWarning` per file; an error that changes a time is refused with the file, the
line (TTML, SCC) or the TTI block (STL) and the value.
"""

from __future__ import annotations

import logging
import os
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from tvseg.errors import InputError, MissingExtraError
from tvseg.readers.corpus import Rows
from tvseg.readers.formats import BROADCAST_FORMATS
from tvseg.readers.source import read_bytes, read_text, split_lines, warn
from tvseg.readers.timecodes import TimeCodes
from tvseg.readers.webvtt import Cue, cue_segments, cue_units

if TYPE_CHECKING:
    import xml.etree.ElementTree as et

__all__ = [
    "BROADCAST_FORMATS",
    "read_captions",
    "count_captions",
    "broadcast_units",
    "broadcast_segments",
    "looks_like",
    "sniff",
]

_NAMES = {"ttml": "TTML", "scc": "SCC", "stl": "EBU STL"}
_TTML = "http://www.w3.org/ns/ttml"
_DFXP_DRAFTS = ("http://www.w3.org/2006/10/ttaf1", "http://www.w3.org/2006/04/ttaf1")
"""The namespaces of the DFXP drafts that older tools still write, read as TTML 1's."""
_AGENT = f"{{{_TTML}#metadata}}agent"
_ID = "{http://www.w3.org/XML/1998/namespace}id"
_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_STL_MAGIC = re.compile(rb"STL\d\d\.01")
_STL_OMITTED = "Subtitle TCO is less than or equal to TCI"
"""The start of ttconv's error for a subtitle it leaves out: of no duration, or inside the previous one."""
_HEX_WORD = re.compile(r"[0-9a-fA-F]{4}")
_HALF_WORD = re.compile(r"[0-9a-fA-F]{2}")
"""A word of 2 hex digits ending an SCC line: one byte of a word, the line cut short (pycaption skips it)."""
_SCC_TIME_CODE = re.compile(r"([0-9]{2}).([0-9]{2}).([0-9]{2}).([0-9]{2})")
"""The time code that starts an SCC line, as ttconv 1.2.3's pattern takes it (any character between the
fields: ``:`` non-drop-frame, else drop-frame)."""
_TIMING_ERRORS = (
    "Bad begin", "Bad end", "Bad dur", "ttp:frameRate", "ttp:tickRate", "Bad ttp:timeBase", "bad timeContainer",
    "Frame count", "Bad ttp:dropMode", "More than one body",
)  # fmt: skip
"""The starts of the errors ttconv logs for a TTML value that changes a time or loses content: refused."""
_UNUSED = ("xml:lang not specified",)
"""The starts of ttconv's notes about what units do not use: not passed on."""
MAX_XML_DEPTH = 100
"""The deepest a TTML element may be nested (``<tt>`` is at depth 1): deeper, ttconv and the readers here
would run out of Python's recursion; caption files nest a few levels."""
_NO_END = "1000000h"
"""An end no caption reaches, written on timed containers whose end is implicit (see :func:`_explicit_ends`)."""
_NO_END_SECONDS = Fraction(3_600_000_000)
_ITUNES = "http://music.apple.com/lyric-ttml-internal"
"""The namespace of Apple's iTunes lyrics TTML, whose times are absolute (:func:`_itunes_times`)."""
_ONE_DIGIT_HOUR = re.compile(r"(\d:\d{2}:\d{2}(?:\.\d+|:\d{2,}(?:\.\d+)?)?)")
_ITUNES_TIME = re.compile(r"(?:(?:(\d+):)?(\d+):)?(\d+(?:\.\d+)?)(s?)")
_WIDE_ENCODINGS = re.compile(
    rb"""<\?xml[^>]*?encoding\s*=\s*["']((?:utf|ucs)-?(?:16|32|2|4)[^"']*)["']""", re.IGNORECASE
)


@contextmanager
def _library_log(path, where: Callable[[], str]) -> Iterator[list[tuple[int, str, str]]]:
    """Collect what ttconv logs (``(level, message, where())``) instead of printing it, and give its
    warnings as one :class:`~tvseg.errors.TvsegWarning`."""
    records: list[tuple[int, str, str]] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append((record.levelno, record.getMessage(), where()))

    logger = logging.getLogger("ttconv")
    handler = Collect(logging.WARNING)
    saved = logger.propagate, logger.level
    logger.addHandler(handler)
    logger.propagate = False
    if logger.level == logging.NOTSET or logger.level > logging.WARNING:
        logger.setLevel(logging.WARNING)
    try:
        yield records
    finally:
        logger.removeHandler(handler)
        logger.propagate, logger.level = saved[0], saved[1]
    notes = [record for record in records if record[0] < logging.ERROR and not record[1].startswith(_UNUSED)]
    if notes:
        warn(
            f"{len(notes)} note(s) from ttconv while reading (first, {notes[0][2]}: {notes[0][1]})",
            path=path,
        )


def read_captions(path, *, format: str) -> list[Cue]:
    """The captions of a TTML (``format="ttml"``), SCC (``"scc"``) or EBU STL (``"stl"``) file, in file order.

    Times are in milliseconds (the library's exact times, as floats); ``line`` is the line of the TTML
    ``<p>``, the SCC line whose timecode starts the caption, or the STL subtitle's TTI block (1 for the
    first block after the GSI block).

    Raises
    ------
    InputError
        The file is not of the format (with what it looks like), is malformed (XML not well-formed, a
        line that is no SCC timecode and hex words, a TTI block the library refuses), holds a time the
        library cannot read, or a caption ending before it begins.
    MissingExtraError
        ttconv is not installed.
    """
    found = _read(path, format=format)
    _skipped(found, path=path, format=format)
    return found.cues


@dataclass(frozen=True)
class _Captions:
    """What a file holds: its captions, the lines (TTML) or TTI blocks (STL) of those of no duration,
    which the library leaves out, how its time codes count (None: clock times), and how many captions the
    file holds (those left out too: never shown, inside the previous subtitle; None: ``cues`` and
    ``instant``)."""

    cues: list[Cue]
    instant: list[int]
    time_codes: TimeCodes | None = None
    held: int | None = None


def _read(path, *, format: str) -> _Captions:
    """The captions of a file (:func:`read_captions`)."""
    try:
        import ttconv  # noqa: F401
    except ImportError:
        raise MissingExtraError(
            f"reading {_NAMES[format]} captions needs the ttconv library: pip install 'tvseg[broadcast]' (or pip "
            "install ttconv)"
        ) from None
    return _ttml(path) if format == "ttml" else _scc(path) if format == "scc" else _stl(path)


def count_captions(path, *, format: str) -> int:
    """How many captions a file holds (those it leaves out or of no duration, which :func:`read_captions`
    skips, too): a TTML file's ``<p>``, an STL file's subtitles, an SCC file's captions."""
    found = _read(path, format=format)
    return len(found.cues) + len(found.instant) if found.held is None else found.held


def broadcast_units(path, *, format: str, show: str) -> Rows:
    """The units of show ``show`` in a broadcast caption file: its captions made not to overlap, as
    :func:`~tvseg.readers.webvtt.cue_units` makes caption cues (a caption of no duration is skipped, with
    a warning)."""
    found = _read(path, format=format)
    rows = cue_units(found.cues, path=path, show=show)
    _skipped(found, path=path, format=format)
    rows.time_codes = found.time_codes
    return rows


def _skipped(found: _Captions, *, path, format: str) -> None:
    """One warning for the captions of no duration that the library leaves out (as
    :func:`~tvseg.readers.webvtt.cue_units` warns of WebVTT cues of no duration)."""
    if found.instant:
        first = found.instant[0]
        where = f"first: TTI block {first}" if format == "stl" else "first here"
        line = None if format == "stl" else first
        warn(f"{len(found.instant)} zero-duration caption(s) skipped (a unit must last; {where})", path=path, line=line)


def _where(place: int, *, format: str) -> dict[str, Any]:
    """How a message names a caption's place: the line, or the STL subtitle's TTI block."""
    return {"value": f"TTI block {place}"} if format == "stl" else {"line": place}


def broadcast_segments(path, *, format: str, show: str) -> Rows:
    """The segments of show ``show`` in a broadcast caption file: one per caption, its text the label (as
    WebVTT chapters are read; a caption of no duration is refused, as a segment of no duration is)."""
    found = _read(path, format=format)
    if found.instant:
        where = _where(found.instant[0], format=format)
        raise InputError("caption of zero duration (its begin and its end are the same)", path=path, **where)
    rows = cue_segments(found.cues, path=path, show=show)
    rows.time_codes = found.time_codes
    return rows


def looks_like(head: bytes, *, size: int | None = None) -> str | None:
    """What the first bytes of a file (of ``size`` bytes, when known) look like: a format's name and how
    to read or convert it, or ``None``."""
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    if len(head) >= 12 and _STL_MAGIC.fullmatch(head[3:11]):
        return "EBU STL captions: give --format stl"
    if text.startswith(b"Scenarist_SCC"):
        return "SCC captions: give --format scc"
    if text.startswith(b"WEBVTT"):
        return "WebVTT: give --format vtt"
    if re.match(rb"\d+\s*\r?\n\s*\d{1,2}:\d{1,2}:\d{1,2}[,.]\d+\s*-->", text):
        return "SRT: give --format srt"
    if text.startswith(b"<") and re.search(rb"<(?:[\w.-]+:)?tt[\s>]", head):
        return "TTML captions: give --format ttml"
    if text.startswith((b"SPEAKER ", b"SEGMENT ")):
        return "RTTM: give --format rttm"
    if text.startswith(b"[Script Info]"):
        return "ASS/SSA subtitles: convert them to SRT, e.g. ffmpeg -i FILE.ass FILE.srt, or with pysubs2"
    if text[:5].upper() == b"<SAMI":
        return "SAMI captions: convert them to DFXP or SRT, e.g. with pycaption"
    if text.startswith(b"solid") or (
        size is not None and len(head) >= 84 and size == 84 + 50 * int.from_bytes(head[80:84], "little")
    ):
        return "a 3D model (stereolithography STL), not captions"
    return None


def sniff(path: str | os.PathLike[str]) -> str:
    """`` (it looks like ...)`` naming what the first bytes of ``path`` look like, or ``""``."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(512)
    except OSError:
        return ""
    seen = looks_like(head, size=os.path.getsize(path))
    return f" (it looks like {seen})" if seen else ""


# ---------------------------------------------------------------- TTML


def _ttml(path) -> _Captions:
    import xml.etree.ElementTree as et
    from xml.parsers import expat

    from ttconv import model

    data = _declared_first(read_bytes(path), path=path)
    try:
        root, lines = _parsed(data, path=path)
    except (expat.ExpatError, et.ParseError) as error:
        repaired, repairs = _repaired_xml(data)
        if not repairs:
            raise _not_well_formed(error, data=data, path=path) from None
        try:
            root, lines = _parsed(repaired, path=path)
        except (expat.ExpatError, et.ParseError) as again:
            raise _not_well_formed(again, data=repaired, path=path, repairs=repairs) from None
        kinds: dict[str, list[str]] = {}
        for _, kind, seen in repairs:
            kinds.setdefault(kind, []).append(seen)
        what = "; ".join(f"{len(seen)} {kind} (first: {seen[0]!r})" for kind, seen in kinds.items())
        warn(
            f"not well-formed XML, read as an HTML parser reads it (as pycaption does) after repairing {what}",
            path=path,
            line=repairs[0][0],
        )
        data = repaired
    namespace = root.tag[1:].split("}", 1)[0] if root.tag.startswith("{") else ""
    if namespace in _DFXP_DRAFTS:
        _rename_namespace(root, namespace)
    elif root.tag != f"{{{_TTML}}}tt":
        seen = root.tag.split("}")[-1]
        raise InputError(
            f"not a TTML document: the root element is <{seen}> in namespace {namespace or 'none'!r} "
            f"(TTML's is <tt> in {_TTML!r})",
            path=path,
            line=1,
        )
    if any(_ITUNES in key for element in root.iter() for key in (element.tag, *element.attrib)):
        _itunes_times(root)
    else:
        _two_digit_hours(root, data=data, path=path)
    agents = _agents(root)
    # ttconv keeps no xml:id of a paragraph but keeps its xml:lang: each <p> is tagged with a private-use
    # language tag naming it, to find its line and speaker (the text and the times do not depend on it)
    lines_of: dict[str, tuple[int, str]] = {}
    for k, (p, line) in enumerate(zip(root.iter(f"{{{_TTML}}}p"), lines)):
        agent = p.get(_AGENT) or next((s.get(_AGENT) for s in p.iter() if s.get(_AGENT)), None)
        p.set(_LANG, f"x-tvseg-p{k}")
        lines_of[f"x-tvseg-p{k}"] = (line, agents.get(agent, agent or "") if agent else "")
    _explicit_ends(root)
    with _library_log(path, lambda: "TTML") as records:
        document = _ttml_model(root, data=data, path=path)
    for level, message, _ in records:
        if level >= logging.ERROR and message.startswith(_TIMING_ERRORS):
            value = message.split(": ", 1)[1] if ": " in message else None
            key = re.match(r"Bad (\w+) attribute", message)
            at = _line_of(data, value, key=key.group(1) if key else "")
            raise InputError(f"ttconv: {message.split(':')[0]}", path=path, line=at, value=value)
    if document is None or document.get_body() is None:
        return _Captions([], [], held=len(lines))
    given: set[str | None] = set()  # the <p> in ttconv's document: it leaves out those of no duration

    def place(p: Any, begin: Fraction) -> tuple[int, str]:
        given.add(p.get_lang())
        return lines_of.get(p.get_lang() or "", (1, ""))

    cues, open_ended, latest = _cues(document.get_body(), model, place, path=path, until=lambda _: None)
    if open_ended:
        cues = [cue if k not in open_ended else replace(cue, end_ms=float(latest * 1000)) for k, cue in enumerate(cues)]
        warn(
            f"{len(open_ended)} caption(s) without an end on them or on their containers: each lasts until the "
            f"document ends, at its latest time ({float(latest):g} s), as TTML times an element without an end "
            "(first here)",
            path=path,
            line=cues[min(open_ended)].line,
        )
    instant = sorted(line for tag, (line, _) in lines_of.items() if tag not in given)
    return _Captions(cues, instant, held=len(lines))


_STYLE_REFUSED = re.compile(r"Invalid value .* for style property <class '[\w.]*StyleProperties\.(\w+)'>")
"""ttconv's refusal of a styling value (``tts:extent="3em 4em"``, which IMSC does not allow)."""


def _ttml_model(root: et.Element, *, data: bytes, path) -> Any:
    """ttconv's document of a TTML root; where ttconv refuses a styling value (``tts:extent`` in ``em``, which
    pycaption reads), that styling attribute is left out of every element, with a warning naming the line of
    its first one: no time and no text depends on it. Anything else ttconv refuses is refused."""
    import xml.etree.ElementTree as et

    from ttconv.imsc import reader

    dropped: list[str] = []
    while True:
        try:
            document = reader.to_model(et.ElementTree(root))
            break
        except Exception as error:  # the library's own check of a value it cannot read
            style = _STYLE_REFUSED.match(str(error))
            name = style.group(1)[0].lower() + style.group(1)[1:] if style else ""
            key = f"{{{_TTML}#styling}}{name}"
            holders = [element for element in root.iter() if key in element.attrib] if style else []
            written = re.search(rf"""[\w.-]+:{name}\s*=\s*["']([^"']*)""".encode(), data) if name else None
            line = data.count(b"\n", 0, written.start()) + 1 if written else None
            if not holders or name in dropped:
                raise InputError(f"ttconv cannot read this TTML: {error}", path=path, line=line) from None
            for element in holders:
                del element.attrib[key]
            dropped.append(name)
            warn(
                f"ttconv cannot read a tts:{name} value ({error}): tts:{name} left out of the {len(holders)} "
                "element(s) that set it (styling: no time and no text depends on it; first here)",
                path=path,
                line=line,
            )
    return document


def _parsed(data: bytes, *, path) -> tuple[et.Element, list[int]]:
    """The root of a TTML document and the line of each ``<p>``, in document order; refused when nested
    deeper than :data:`MAX_XML_DEPTH`. Raises expat's or ElementTree's error for XML not well-formed and
    LookupError for an encoding Python does not know (see :func:`_not_well_formed`)."""
    import xml.etree.ElementTree as et
    from xml.parsers import expat

    lines: list[int] = []
    scan = expat.ParserCreate(namespace_separator=" ")
    depth = [0]

    def start(name: str, _attributes: Any) -> None:
        depth[0] += 1
        if depth[0] > MAX_XML_DEPTH:
            raise InputError(
                f"elements nested more than {MAX_XML_DEPTH} deep (a caption's spans nest a few levels)",
                path=path,
                line=scan.CurrentLineNumber,
            )
        if name.rsplit(" ", 1)[-1] == "p":
            lines.append(scan.CurrentLineNumber)

    def close(_name: str) -> None:
        depth[0] -= 1

    scan.StartElementHandler = start
    scan.EndElementHandler = close
    try:
        scan.Parse(data, True)
        root = et.fromstring(data)  # expat leaves an undefined entity to ElementTree, which refuses it
    except LookupError as error:  # encoding="..." in the XML declaration that Python does not know
        declared = re.search(rb"""encoding\s*=\s*["']([^"']*)""", data[:200])
        raise InputError(
            f"the XML declaration names an encoding Python does not know ({error})",
            path=path,
            line=1,
            value=declared.group(1).decode("ascii", "replace") if declared else None,
        ) from None
    return root, lines


def _not_well_formed(error: Exception, *, data: bytes, path, repairs: list | None = None) -> InputError:
    """The refusal of XML that is not well-formed: the parser's line and column, or its line alone where
    defects were repaired before (:func:`_repaired_xml` keeps every line where it was, not every column)."""
    from xml.parsers import expat

    if not data.strip():
        return InputError("empty file: no TTML document", path=path)
    line: int | None
    if isinstance(error, expat.ExpatError):
        what, line, column = expat.ErrorString(error.code), error.lineno, error.offset + 1
    else:
        (line, offset), what = getattr(error, "position", (None, 0)), str(error).split(": line ")[0]
        column = offset + 1
    where = f"column {column}" if not repairs else f"after repairing {len(repairs)} defect(s) an HTML parser reads"
    return InputError(f"not well-formed XML ({what}, {where})", path=path, line=line)


_XML_TOKEN = re.compile(
    rb"""(?P<keep><!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>)"""
    rb"""|(?P<tag></?[A-Za-z_:][^\s/>]*(?P<attributes>(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*/?>)"""
    rb"""|(?P<lt><(?![A-Za-z_:/!?]))"""
    rb"""|(?P<amp>&(?:\#[0-9]+;|\#x[0-9a-fA-F]+;|(?P<name>[A-Za-z_][\w.-]*);)?)""",
    re.DOTALL,
)
_ATTRIBUTE = re.compile(rb"""(\s+)([^\s=/>]+)(\s*=\s*(?:"[^"]*"|'[^']*'))""")
_XML_ENTITIES = {b"amp", b"lt", b"gt", b"quot", b"apos"}


def _repaired_xml(data: bytes) -> tuple[bytes, list[tuple[int, str, str]]]:
    """XML that is not well-formed repaired where an HTML parser (pycaption's BeautifulSoup) reads it
    anyway, and each repair's line, kind and what was written: a ``<`` that opens no tag (``<<``) written
    ``&lt;``, a ``&`` that opens no reference written ``&amp;``, an HTML named entity (``&eacute;``) written
    as its character reference, a repeated attribute of a tag left out (the first kept, as HTML keeps it).
    Anything else is left as it is, and so is a file in a 16- or 32-bit encoding; no line moves."""
    import html.entities

    if b"\0" in data:
        return data, []
    pieces: list[bytes] = []
    repairs: list[tuple[int, str, str]] = []

    def note(at: int, kind: str, seen: bytes) -> None:
        repairs.append((data.count(b"\n", 0, at) + 1, kind, seen.decode("utf-8", "replace")))

    def reference(match: re.Match[bytes], at: int) -> bytes:
        text, name = match.group(), match.group("name")
        if text == b"&":
            note(at, "'&' opening no entity, read as '&amp;'", text)
            return b"&amp;"
        if name is None or name in _XML_ENTITIES:
            return text
        characters = html.entities.html5.get(name.decode("ascii") + ";")
        if characters is None:
            return text  # an entity neither XML nor HTML defines: still refused
        note(at, "HTML named entity(ies), read as their characters", text)
        return "".join(f"&#{ord(c)};" for c in characters).encode("ascii")

    def attributes(match: re.Match[bytes]) -> bytes:
        kept: list[bytes] = []
        names: set[bytes] = set()
        at = match.start("attributes")
        for attribute in _ATTRIBUTE.finditer(match.group("attributes")):
            space, name, value = attribute.groups()
            if name in names:
                note(
                    at + attribute.start(), "repeated attribute(s) left out, the first of each name kept", name + value
                )
                kept.append(b"\n" * attribute.group().count(b"\n"))
                continue
            names.add(name)
            offset = at + attribute.start(3)
            value = re.sub(
                rb"&(?:\#[0-9]+;|\#x[0-9a-fA-F]+;|(?P<name>[A-Za-z_][\w.-]*);)?",
                lambda found, offset=offset: reference(found, offset + found.start()),
                value,
            )
            kept.append(space + name + value)
        return (
            data[match.start() : match.start("attributes")]
            + b"".join(kept)
            + data[match.end("attributes") : match.end()]
        )

    done = 0
    for match in _XML_TOKEN.finditer(data):
        pieces.append(data[done : match.start()])
        done = match.end()
        if match.group("keep") is not None:
            pieces.append(match.group())
        elif match.group("tag") is not None:
            pieces.append(attributes(match))
        elif match.group("lt") is not None:
            note(match.start(), "'<' opening no tag, read as '&lt;'", b"<")
            pieces.append(b"&lt;")
        else:
            pieces.append(reference(match, match.start()))
    pieces.append(data[done:])
    return b"".join(pieces), repairs


def _declared_first(data: bytes, *, path) -> bytes:
    """The bytes of an XML file with its declaration first, where whitespace came before it (as pycaption
    reads such files), and declaring UTF-8 where it declares a 16- or 32-bit encoding its bytes do not
    have (the declaration itself written one byte a character), with a warning."""
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    body = data[len(bom) :]
    space = body[: len(body) - len(body.lstrip(b" \t\r\n"))]
    if space and body[len(space) :].startswith(b"<?xml"):
        declaration = body[len(space) : body.find(b"?>", len(space)) + 2]
        body = declaration + space + body[len(space) + len(declaration) :]
    wide = _WIDE_ENCODINGS.match(body)
    if wide is not None:
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return bom + body
        declared = wide.group(1).decode("ascii", "replace")
        warn(
            f"the XML declaration names the encoding {declared!r}, which its own bytes are not in: read as UTF-8",
            path=path,
            line=1,
        )
        body = body[: wide.start(1)] + b"UTF-8" + body[wide.end(1) :]
    return bom + body


def _itunes_times(root: et.Element) -> None:
    """Write the times of an Apple iTunes TTML in TTML's terms: seconds (``19.764``, ``3:58.640``) as
    ``19.764s``, and the ``begin`` and ``end`` of an element within a timed one as offsets from its
    ``begin``. iTunes writes every time from the start of the song (as pysubs2 reads such files, with
    ``ignore_par_time_offset``); a time that is no such number is left as written."""

    def seconds(text: str | None) -> Fraction | None:
        match = _ITUNES_TIME.fullmatch(text.strip()) if text else None
        if match is None:
            return None
        hours, minutes, secs, _ = match.groups()
        return Fraction(secs) + 60 * int(minutes or 0) + 3600 * int(hours or 0)

    def visit(element: et.Element, parent_begin: Fraction) -> None:
        begin = seconds(element.get("begin"))
        for key in ("begin", "end"):
            value = seconds(element.get(key))
            if value is not None:
                element.set(key, f"{_decimal(value - parent_begin)}s")
        dur = seconds(element.get("dur"))
        if dur is not None:
            element.set("dur", f"{_decimal(dur)}s")
        for child in element:
            visit(child, parent_begin if begin is None else begin)

    body = root.find(f"{{{_TTML}}}body")
    if body is not None:
        visit(body, Fraction(0))


def _two_digit_hours(root: et.Element, *, data: bytes, path) -> None:
    """Write a clock time with a one-digit hour (``0:00:02.07``, as pycaption reads and writes DFXP) with
    the two digits TTML's clock times have (``00:00:02.07``), with one warning at the first one's line."""
    first: str | None = None
    count = 0
    for element in root.iter():
        for key in ("begin", "end", "dur"):
            value = element.get(key)
            match = _ONE_DIGIT_HOUR.fullmatch(value.strip()) if value else None
            if match is not None:
                element.set(key, f"0{match.group(1)}")
                first = first or value
                count += 1
    if first is not None:
        warn(
            f"{count} clock time(s) with a one-digit hour, which TTML writes with two: read as hours "
            f"(first: {first!r} read as '0{first.strip()}')",
            path=path,
            line=_line_of(data, first),
        )


def _decimal(value: Fraction) -> str:
    """A fraction whose denominator divides a power of ten (a difference of decimals) as its decimals."""
    digits = 0
    while (value * 10**digits).denominator != 1 and digits < 12:
        digits += 1
    return f"{float(value):.{digits}f}" if digits < 12 else str(float(value))


def _rename_namespace(root: et.Element, draft: str) -> None:
    """Read a DFXP draft's namespaces (``.../ttaf1``, ``#parameter``...) as TTML 1's."""
    old = "{" + draft

    def renamed(name: str) -> str:
        return "{" + _TTML + name[len(old) :] if name.startswith(old) else name

    for element in root.iter():
        element.tag = renamed(element.tag)
        for key in [key for key in element.attrib if key.startswith(old)]:
            element.attrib[renamed(key)] = element.attrib.pop(key)


def _agents(root: et.Element) -> dict[str, str]:
    """``ttm:agent`` ids and the name each gives (its ``ttm:name``, else its id)."""
    names = {}
    for agent in root.iter(f"{{{_TTML}#metadata}}agent"):
        name = agent.find(f"{{{_TTML}#metadata}}name")
        key = agent.get(_ID) or ""
        names[key] = (name.text or "").strip() if name is not None and name.text else key
    return names


def _explicit_ends(root: et.Element) -> None:
    """Give an end that clips nothing to the timed containers whose end is implicit.

    In a parallel time container, an end that is not written is the latest end of the children: it
    clips none of them. ttconv 1.2.3 compares the children's ends (on the container's timeline) with the
    container's begin (on its parent's), so that a ``<div begin="10s">`` whose paragraphs end before 10 s
    is dropped and one with ``begin="1s"`` cuts its last paragraph short. Written explicitly on such a
    container (a ``begin``, no ``end`` or ``dur``, children, in a parallel parent), the end clips the
    same captions as TTML's implicit one: none.
    """

    def visit(element: et.Element, parent_par: bool) -> None:
        par = element.get("timeContainer", "par") != "seq"
        if (
            parent_par
            and par
            and len(element)
            and element.get("begin") is not None
            and element.get("end") is None
            and element.get("dur") is None
        ):
            element.set("end", _NO_END)
        for child in element:
            visit(child, par)

    body = root.find(f"{{{_TTML}}}body")
    if body is not None:
        visit(body, True)


def _line_of(data: bytes, value: str | None, *, key: str = "") -> int | None:
    """The line of the first attribute written with ``value`` (a time ttconv refused), if found; ``key``:
    the attribute's name (then an empty value is found too)."""
    if value is None or not (value or key):
        return None
    at = data.find(f'{key}="{value}"'.encode())
    if at < 0:
        at = data.find(f"{key}='{value}'".encode())
    return None if at < 0 else data.count(b"\n", 0, at) + 1


def _paragraphs(body: Any, model: Any, latest: list[Fraction]) -> Iterator[tuple[Any, Fraction, Fraction | None, bool]]:
    """Each paragraph of the document, with the earliest begin and the latest end of its text (times
    made absolute as ttconv's ISD makes them: an element's times are offsets from its parent's begin, its
    end clipped to its parent's; no end on it or on its containers: ``None``), and whether it is shown.
    ``latest`` is given the latest time the document writes (a begin or an end of an element shown).

    A paragraph whose own end is at or before its own begin is given with that end (the caller refuses
    an end before the begin; a caption of no duration is as a WebVTT cue of no duration). A paragraph
    that its containers' times never show (it begins after one of them ends) is given as not shown.
    """

    def interval(element: Any, begin: Fraction, end: Fraction | None) -> tuple[Fraction, Fraction | None]:
        start = begin + (element.get_begin() or 0)
        own = element.get_end()
        stop = end if own is None or own == _NO_END_SECONDS else begin + own
        if end is not None and stop is not None:
            stop = min(stop, end)
        if stop is None or start < stop:
            latest[0] = max(latest[0], start if stop is None else stop)
        return start, stop

    def text_spans(element: Any, begin: Fraction, end: Fraction | None) -> Iterator[tuple[Fraction, Fraction | None]]:
        for child in element:
            if isinstance(child, model.Text):
                if child.get_text().strip():
                    yield begin, end
                continue
            start, stop = interval(child, begin, end)
            if stop is None or stop > start:
                yield from text_spans(child, start, stop)

    def visit(
        element: Any, begin: Fraction, end: Fraction | None
    ) -> Iterator[tuple[Any, Fraction, Fraction | None, bool]]:
        start, stop = interval(element, begin, end)
        if isinstance(element, model.P):
            if element.get_end() is not None and begin + element.get_end() <= start:
                yield element, start, begin + element.get_end(), True
            elif stop is not None and stop <= start:
                yield element, start, stop, False
            elif spans := list(text_spans(element, start, stop)):
                ends = [e for _, e in spans]
                last = None if None in ends else max(e for e in ends if e is not None)
                yield element, min(b for b, _ in spans), last, True
            else:
                yield element, start, stop, True
            return
        if stop is not None and stop <= start:
            for p in element.dfs_iterator():
                if isinstance(p, model.P):
                    yield p, start, start, False
            return
        for child in element:
            yield from visit(child, start, stop)

    yield from visit(body, Fraction(0), None)


def _cues(
    body: Any,
    model: Any,
    place: Callable | None,
    *,
    path,
    until: Callable[[Fraction], Fraction | None],
    roll_up: bool = False,
) -> tuple[list[Cue], list[int], Fraction]:
    """The captions of a document's paragraphs (:func:`_paragraphs`), ``place(p, begin)`` giving the line
    and speaker of each (``None``: an STL file, where the k-th subtitle's line is k, and the library orders
    its times), the indexes of those without an end, and the latest time the document writes.

    A caption without an end ends at ``until(begin)`` (``None``: at the latest time, which the caller gives).
    One warning for the captions never shown (left out); a caption ending before it begins is refused.
    ``roll_up``: an SCC document, whose roll-up captions keep only the row they add (:func:`_text`).
    """
    cues: list[Cue] = []
    hidden: list[int] = []
    open_ended: list[int] = []
    latest = [Fraction(0)]
    for k, (p, begin, end, shown) in enumerate(list(_paragraphs(body, model, latest)), start=1):
        line, speaker = place(p, begin) if place is not None else (k, "")
        if not shown:
            hidden.append(line)
            continue
        if end is None:
            open_ended.append(len(cues))
            end = until(begin)
        if place is not None and end is not None and end < begin:
            value = f"{float(begin):g} -> {float(end):g}"
            raise InputError("caption with end before start", path=path, line=line, value=value)
        cues.append(
            Cue(
                float(begin * 1000),
                float((begin if end is None else end) * 1000),
                _text(p, model, roll_up=roll_up),
                speaker,
                line,
            )
        )
    if hidden:
        warn(
            f"{len(hidden)} caption(s) never shown, beginning after the element that holds them ends: left out",
            path=path,
            line=hidden[0],
        )
    return cues, open_ended, latest[0]


def _text(p: Any, model: Any, *, roll_up: bool = False) -> str:
    """A paragraph's text, its line breaks made spaces; with ``roll_up``, of a roll-up caption of ttconv's SCC
    reader (its region ``rollup...``), the bottom row only, which it adds to the rows it carries from the
    captions before it."""
    pieces: list[str] = []
    region = p.get_region()
    roll_up = roll_up and region is not None and str(region.get_id()).startswith("rollup")
    for element in p.dfs_iterator():
        if isinstance(element, model.Text):
            pieces.append(element.get_text())
        elif isinstance(element, model.Br):
            if roll_up:
                pieces.clear()
            else:
                pieces.append(" ")
    return " ".join("".join(pieces).split())


# ---------------------------------------------------------------- SCC


def _scc(path) -> _Captions:
    from ttconv import model
    from ttconv.scc import reader
    from ttconv.scc.line import SccLine

    lines = split_lines(read_text(path))
    _scc_header(lines, path=path)
    starts: list[tuple[Fraction, int]] = []  # each line's time and number, to name the line of a caption
    clock: TimeCodes | None = None  # how the first time code counts
    last = Fraction(0)  # the end of the file's last frame: a line's time code, then a frame a word
    given = lines[:1]  # the lines given to ttconv: a tab after each time code
    halves: list[tuple[int, str]] = []  # the lines ending with a word of 2 hex digits, and that word
    for number, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            given.append(raw)
            continue
        code = _SCC_TIME_CODE.match(raw)
        rest = raw[code.end() :] if code is not None else ""
        words = rest.split()
        if len(words) > 1 and _HALF_WORD.fullmatch(words[-1]):
            halves.append((number, words.pop()))
        bad = next((word for word in words if not _HEX_WORD.fullmatch(word)), None)
        if code is not None and not _in_range(*(int(field) for field in code.groups()), fps=30):
            # ttconv 1.2.3 reads 00:00:75;00 as 75.075 s and 00:00:03;45 as 4.5045 s
            raise InputError(
                "time code out of range at 29.97 frames/s (hours at most 23, minutes and seconds at most 59, "
                "frames at most 29)",
                path=path,
                line=number,
                value=code.group(),
            )
        try:
            parsed = (
                SccLine.from_str(f"{code.group()}\t{' '.join(words)}")
                if code is not None and rest[:1] in (" ", "\t") and bad is None
                else None
            )
        except ValueError:  # a timecode the library cannot place (e.g. a frame beyond the rate)
            parsed = None
        if parsed is None or code is None:
            what = (
                f"not a 4-digit hex word: {bad!r}"
                if bad is not None
                else "not an SCC line (a timecode HH:MM:SS:FF or HH:MM:SS;FF, a tab or spaces, then hex words)"
            )
            raise InputError(what, path=path, line=number, value=raw)
        given.append(f"{code.group()}\t{' '.join(words)}")
        time_code = parsed.time_code
        if clock is None:
            clock = TimeCodes(time_code.get_frame_rate(), time_code.is_drop_frame())
        starts.append((time_code.to_temporal_offset(), number))
        last = max(last, Fraction(time_code.to_frames() + len(words)) / time_code.get_frame_rate())
    if halves:
        warn(
            f"{len(halves)} line(s) ending with a word of 2 hex digits (one byte of a 2-byte word: the line cut "
            f"short): that word skipped, as pycaption skips it (first here: {halves[0][1]!r})",
            path=path,
            line=halves[0][0],
        )
    current = [0]
    text = "\n".join(given)
    count = len(given)

    def progress(fraction: float) -> None:
        current[0] = round(fraction * count)

    with _library_log(path, lambda: f"line {current[0]}") as records:
        try:
            document = reader.to_model(text, progress_callback=progress)
        except Exception as error:  # the library's own refusal of a caption command sequence
            raise InputError(f"ttconv cannot read this SCC: {error}", path=path, line=current[0] or None) from None
    errors = [record for record in records if record[0] >= logging.ERROR]
    if errors:
        raise InputError(f"ttconv: {errors[0][1]}", path=path, line=int(errors[0][2].split()[-1]) or None)
    times = [time for time, _ in starts]

    def place(p: Any, begin: Fraction) -> tuple[int, str]:
        return (starts[max(bisect_right(times, begin) - 1, 0)][1] if starts else 1), ""

    begins: list[Fraction] = []

    def until(begin: Fraction) -> Fraction:
        return min([b for b in begins if b > begin] + [max(last, begin)])

    body = document.get_body()
    begins.extend(begin for _, begin, _, shown in _paragraphs(body, model, [Fraction(0)]) if shown)
    cues, open_ended, _ = _cues(body, model, place, path=path, until=until, roll_up=True)
    if open_ended:
        warn(
            f"{len(open_ended)} caption(s) never cleared (no command erases or replaces them): each ends where "
            f"the next caption begins, else at the end of the file's last time code ({float(last):g} s)"
            " (first here)",
            path=path,
            line=cues[open_ended[0]].line,
        )
    return _Captions(_painted(cues, body, model), [], clock)


def _painted(cues: list[Cue], body: Any, model: Any) -> list[Cue]:
    """An SCC file's captions with each paint-on caption painted row by row in one line of the file made one.

    ttconv's SCC reader starts a new paragraph at each address code of a paint-on caption, ending the one
    before and copying its rows (the screen is not erased: the rows painted so far stay); such a paragraph
    that begins as the one before it ends, on the same line of the file (one burst of words), is the same
    caption still being painted: one caption, from the first one's begin to the last one's end, with the
    last one's text (every row painted), as pycaption keeps one caption for the burst. ``cues`` are those of
    the shown paragraphs of ``body``, in order (:func:`_cues`).
    """
    paint = [
        (p.get_region() is not None and str(p.get_region().get_id()).startswith("paint"), p.get_begin())
        for p, _, _, shown in _paragraphs(body, model, [Fraction(0)])
        if shown
    ]
    merged: list[Cue] = []
    before = False
    for cue, (painted, begin) in zip(cues, paint, strict=True):
        last = merged[-1] if merged else None
        if before and painted and last is not None and last.line == cue.line and last.end_ms == float(begin * 1000):
            merged[-1] = replace(last, end_ms=cue.end_ms, text=cue.text)
        else:
            merged.append(cue)
        before = painted
    return merged


def _scc_header(lines: list[str], *, path) -> None:
    """Check an SCC file's first line, ``Scenarist_SCC V1.0``. Read with a warning, as pycaption reads them
    (it skips the first line whatever it holds): a first line holding the header among other characters
    (``"Scenarist_SCC V1.0``), and a blank first line before time code lines (no header at all). Anything
    else is refused."""
    first = lines[0] if lines else ""
    if first.startswith("Scenarist_SCC"):
        return
    content = next((number for number, line in enumerate(lines, start=1) if line.strip()), None)
    if "Scenarist_SCC" in first:
        what = f"the first line holds 'Scenarist_SCC' among other characters ({first!r}): read as the header"
    elif content is not None and not first.strip() and _SCC_TIME_CODE.match(lines[content - 1]):
        what = (
            f"no 'Scenarist_SCC V1.0' line: the file starts with a blank line, then time code lines (line "
            f"{content}): read as SCC"
        )
    else:
        raise InputError("not an SCC file: the first line must be 'Scenarist_SCC V1.0'", path=path, line=1, value=first)
    warn(f"{what}, as pycaption reads it", path=path, line=1)


def _in_range(hours: int, minutes: int, seconds: int, frames: int, *, fps: int) -> bool:
    """Whether a time code ``HH:MM:SS:FF`` names a frame of a day at ``fps`` frames a second (SCC's
    29.97 counts 30 frame numbers a second), as SCC and STL files are checked."""
    return hours <= 23 and minutes <= 59 and seconds <= 59 and frames < fps


# ---------------------------------------------------------------- EBU STL


def _stl(path) -> _Captions:
    from ttconv import model
    from ttconv.stl.datafile import DataFile

    data = read_bytes(path)
    if len(data) < 1024 or not _STL_MAGIC.fullmatch(data[3:11]):
        seen = looks_like(data[:512], size=len(data)) if data else None
        what = (
            "empty file" if not data else f"looks like {seen}" if seen else "its GSI block has no 'STLnn.01' at byte 3"
        )
        raise InputError(
            f"not an EBU STL subtitle file ({what}; an STL file starts with a 1024-byte GSI block)",
            path=path,
            value=data[3:11].decode("latin-1") if len(data) >= 11 else None,
        )
    if (len(data) - 1024) % 128:
        raise InputError(
            f"truncated EBU STL file: {len(data) - 1024} bytes after the GSI block, not a whole number of "
            "128-byte TTI blocks",
            path=path,
        )
    fps = {b"STL23.01": 24, b"STL24.01": 24, b"STL25.01": 25, b"STL30.01": 30, b"STL50.01": 50}.get(data[3:11])
    if fps is None:
        raise InputError("unknown EBU STL frame rate (DFC)", path=path, value=data[3:11].decode("latin-1"))
    for number, at in enumerate(range(1024, len(data), 128), start=1):
        for what, (h, m, s, f) in (("in", data[at + 5 : at + 9]), ("out", data[at + 9 : at + 13])):
            if 0xEF < data[at + 3] < 0xFF:
                break  # user data: no times (EBU Tech 3264: EBN FE, F0-FD)
            if not _in_range(h, m, s, f, fps=fps):  # ttconv 1.2.3 reads 00:00:70:00 as 70 s
                raise InputError(
                    f"time code {what} out of range at {fps} frames/s",
                    path=path,
                    value=f"TTI block {number}: {h:02d}:{m:02d}:{s:02d}:{f:02d}",
                )
    block = [0]
    instant: list[int] = []  # the TTI blocks of subtitles of no duration, and of those inside the previous one
    inside: list[tuple[int, str]] = []
    with _library_log(path, lambda: f"TTI block {block[0]}") as records:
        try:
            stl = DataFile(data[:1024])
            for block[0], at in enumerate(range(1024, len(data), 128), start=1):
                stl.process_tti_block(data[at : at + 128])
                if records and records[-1][0] >= logging.ERROR and records[-1][1].startswith(_STL_OMITTED):
                    records.pop()
                    if records and records[-1][2] == f"TTI block {block[0]}" and records[-1][0] < logging.ERROR:
                        records.pop()  # its begin moved to the previous end: said by the warning below
                    tci, tco = _stl_frames(data[at + 5 : at + 9], fps), _stl_frames(data[at + 9 : at + 13], fps)
                    if tco < tci:
                        raise InputError(
                            "subtitle with end before start (time code out before time code in)",
                            path=path,
                            value=f"TTI block {block[0]}: {_stl_text(data[at + 5 : at + 9])} -> "
                            f"{_stl_text(data[at + 9 : at + 13])}",
                        )
                    if tco == tci:
                        instant.append(block[0])
                    else:
                        times = f"{_stl_text(data[at + 5 : at + 9])} -> {_stl_text(data[at + 9 : at + 13])}"
                        inside.append((block[0], times))
                if any(level >= logging.ERROR for level, _, _ in records):
                    break
        except InputError:
            raise
        except Exception as error:  # the library's own refusal of a block
            raise InputError(
                f"ttconv cannot read this EBU STL: {error}", path=path, value=f"TTI block {block[0]}"
            ) from None
    errors = [record for record in records if record[0] >= logging.ERROR]
    if errors:
        raise InputError(f"ttconv: {errors[0][1]}", path=path, value=errors[0][2])
    if inside:
        warn(
            f"{len(inside)} subtitle(s) inside the previous one (beginning before it ends, ending no later): left "
            "out, as ttconv leaves them out (an EBU STL subtitle that does not accumulate ends the one before it; "
            f"first: TTI block {inside[0][0]}, {inside[0][1]})",
            path=path,
        )
    cues, _, _ = _cues(stl.get_document().get_body(), model, None, path=path, until=lambda _: None)
    cues.sort(key=lambda cue: (cue.start_ms, cue.line))
    time_codes = stl.get_fps()
    clock = TimeCodes(time_codes, True) if time_codes.denominator == 1001 else None
    return _Captions(cues, instant, clock, held=len(cues) + len(instant) + len(inside))


def _stl_frames(time_code: bytes, fps: int) -> int:
    """The frame of an STL time code (4 bytes: hours, minutes, seconds, frames), to compare two of them."""
    hours, minutes, seconds, frames = time_code
    return ((hours * 60 + minutes) * 60 + seconds) * fps + frames


def _stl_text(time_code: bytes) -> str:
    return ":".join(f"{field:02d}" for field in time_code)
