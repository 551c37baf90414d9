"""The long tail of subtitle formats: YouTube's SBV, read here, and SubStation Alpha (ASS/SSA), MicroDVD, MPL2,
TMP and SAMI, read through pysubs2 (``pip install 'tvseg[subtitles]'``).

**SBV** (``.sbv``, YouTube's caption format) is three parts a cue: a timing line ``H:MM:SS.mmm,H:MM:SS.mmm``,
the text lines, a blank line. Times are whole milliseconds; anything else in place of a timing line is
refused, naming the file, the line and the value (``formats/subtitles.md``).

**The others** are read by pysubs2 (a maintained library, MIT, pure Python, imported only when such a file is
read), and each of its events is a cue with pysubs2's times (integer milliseconds: a MicroDVD frame count
over its frame rate; TMP's ends, which the format does not hold, as pysubs2 estimates them) and its plain
text; comment events (SubStation ``Comment:`` lines) are not cues. SAMI is timed as the format means it (and
pycaption reads it): a ``<SYNC>`` shows until the next one, where pysubs2 estimates an end from the text's
length; its blank ``&nbsp;`` syncs clear the screen and are no cues; the last sync ends at pysubs2's estimate. A
cue's line is the line of its event in the file, found by scanning the file by the rules of pysubs2's parser of
its format (:func:`event_lines`): a SubStation ``Dialogue:``/``Comment:`` line outside the ``[Script Info]``,
``[Aegisub ...]``, ``[Fonts]`` and ``[Graphics]`` sections, a MicroDVD ``{start}{end}text`` line, an MPL2
``[start][end]`` line, a TMP ``H:MM:SS:`` line, the ``<SYNC>`` tag of a SAMI sync; blank, comment and other lines
around them count as the file's lines. MicroDVD counts frames: a file whose first ``{start}{end}`` line does not
declare its frame rate (``{1}{1}25``) is refused. MPL2 and TMP files are ``.txt``
files and are read only when named (``format="mpl2"``, ``"tmp"``); a ``.txt`` file that looks like one of
them, like SBV or MicroDVD, is refused with a hint naming the format (:func:`subtitle_hint`).
"""

from __future__ import annotations

import bisect
import io
import re
from html.parser import HTMLParser

from tvseg.errors import InputError, MissingExtraError, TvsegWarning
from tvseg.readers.formats import SUBTITLE_FORMATS, SUBTITLE_KINDS
from tvseg.readers.source import _LINE_END, read_text, split_lines, warn
from tvseg.readers.webvtt import Cue

__all__ = ["SUBTITLE_FORMATS", "SUBTITLE_KINDS", "event_lines", "read_subtitles", "read_sbv", "subtitle_hint"]

_NAMES = {"ass": "SubStation Alpha", "ssa": "SubStation Alpha", "microdvd": "MicroDVD", "mpl2": "MPL2"}
_NAMES.update(tmp="TMP", sami="SAMI", sbv="SBV")
# pysubs2's rules for the lines it reads as events (pysubs2 1.7 and 1.8 alike): a SubStation section heading
# (up to 3 characters, a byte order mark, before its bracket), a MicroDVD line, an MPL2 line, a TMP line
_SECTION_HEADING = re.compile(r"^.{,3}\[[^]]*[a-z][^]]*]")
_NO_EVENTS_IN = ("Info", "Aegisub", "Fonts", "Graphics")
_MICRODVD_LINE = re.compile(r" *\{ *(\d+) *\} *\{ *(\d+) *\}(.+)")
_MPL2_LINE = re.compile(r"^\[(-?\d+)\]\[(-?\d+)\](.*)", re.MULTILINE)
_TMP_LINE = re.compile(r"(\d{1,2}:\d{2}:\d{2}):(.+)")
_SBV_TIME = r"(\d+):([0-5]\d):([0-5]\d)\.(\d{3})"
_SBV_TIMING = re.compile(rf"\s*{_SBV_TIME},{_SBV_TIME}\s*")
_HINTS = (
    ("ass", re.compile(r"\s*\[Script Info\]\s*", re.IGNORECASE)),
    ("sami", re.compile(r"\s*<SAMI\b.*", re.IGNORECASE)),
    ("sbv", re.compile(rf"\s*{_SBV_TIME},{_SBV_TIME}\s*")),
    ("microdvd", re.compile(r"\s*\{\d+\}\s*\{\d*\}.*")),
    ("mpl2", re.compile(r"\s*\[\d+\]\s*\[\d*\].*")),
    ("tmp", re.compile(r"\s*\d{1,2}:\d{2}:\d{2}\s*[:=].*")),
)


def read_subtitles(path, *, format: str, encoding: str | None = None) -> list[Cue]:
    """The cues of a subtitle file of ``format`` (:data:`SUBTITLE_KINDS`), in file order, times in milliseconds.

    Raises
    ------
    InputError
        A file pysubs2 cannot read as ``format`` (its message, with the file, and the line and text of the
        event it refuses when that is a SubStation event or a SAMI ``<SYNC>``), a MicroDVD file that does not
        declare its frame rate (naming its first ``{start}{end}`` line), an SBV timing line that is malformed, a
        file without a cue. Each cue carries the line of its event (:func:`event_lines`), which the errors about
        it name.
    MissingExtraError
        pysubs2 is not installed (every format but SBV).
    """
    if format == "sbv":
        return read_sbv(path, encoding=encoding)
    try:
        import pysubs2
    except ImportError:
        raise MissingExtraError(
            f"reading {_NAMES[format]} subtitles needs pysubs2: pip install 'tvseg[subtitles]'"
        ) from None
    text = read_text(path, encoding=encoding)
    try:
        events = pysubs2.SSAFile.from_string(text, format_=format).events
    except pysubs2.exceptions.UnknownFPSError:
        line, value = next(iter(event_lines(text, format="microdvd", declaration=True)), (None, None))
        raise InputError(
            "a MicroDVD file counts frames: declare its frame rate as its first subtitle line ({1}{1}25, {1}{1}23.976)",
            path=path,
            line=line,
            value=value,
        ) from None
    except Exception as error:  # pysubs2 raises ValueError, its own errors, and others on malformed files
        line, value = _refused_event(text, format=format, pysubs2=pysubs2, error=error)
        raise InputError(
            f"not a {_NAMES[format]} file as pysubs2 reads it ({error})", path=path, line=line, value=value
        ) from None
    lines = [line for line, _ in event_lines(text, format=format)]
    if len(lines) != len(events):  # a pysubs2 other than 1.7 and 1.8, reading events by other rules
        warn(
            f"pysubs2 {pysubs2.__version__} reads {len(events)} event(s) where tvseg finds {len(lines)}: the "
            "errors about a cue name the file's first line (pip install 'pysubs2>=1.7,<1.9' for their lines)",
            path=path,
            category=TvsegWarning,
        )
        lines = [1] * len(events)
    ends = [float(event.end) for event in events]
    if format == "sami":  # a sync shows until the next one, a blank one included
        ends[:-1] = [float(event.start) for event in events[1:]]
    kept = [k for k, event in enumerate(events) if not event.is_comment]
    if format == "sami":
        kept = [k for k in kept if events[k].plaintext.strip()]
    if not kept:
        raise InputError(f"no subtitle in this {_NAMES[format]} file", path=path)
    return [Cue(float(events[k].start), ends[k], " ".join(events[k].plaintext.split()), "", lines[k]) for k in kept]


def event_lines(text: str, *, format: str, declaration: bool = False) -> list[tuple[int, str]]:
    """The line of each event pysubs2 reads in the text of a subtitle file of ``format`` and its text, in
    pysubs2's order (comments and SAMI's blank syncs included).

    The file is scanned by the rules of pysubs2's parser of the format (pysubs2 1.7 and 1.8): the lines of a
    SubStation or MicroDVD or TMP file are split at LF alone, as pysubs2 splits them; a SubStation event is a
    line that starts with ``Dialogue:`` or ``Comment:`` once stripped, outside the sections whose heading
    names ``Info``, ``Aegisub``, ``Fonts`` or ``Graphics``; a MicroDVD one a ``{start}{end}text`` line but
    the first (the frame rate, pysubs2's ``{1}{1}25``); an MPL2 one a line that starts ``[start][end]``; a
    TMP one a line that starts ``H:MM:SS:text``; a SAMI one a ``<SYNC>`` tag that a later sync, a
    ``</SYNC>``, ``</BODY>`` or ``</SAMI>`` closes (the line of the tag, whose ``Start`` times the event).

    Parameters
    ----------
    text : str
        The file's text.
    format : str
        One of :data:`SUBTITLE_KINDS` but ``sbv``.
    declaration : bool
        MicroDVD only: the frame rate's line is kept, first.

    Returns
    -------
    list of (int, str)
        Each event's line number, 1-based as tvseg counts lines (at LF, CRLF and CR), and that line's text.
    """
    if format == "sami":
        tags = _SyncTags()
        tags.feed(text)
        lf_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        offsets = [lf_starts[line - 1] + column for line, column in tags.events]
    elif format == "mpl2":
        offsets = [m.start() for m in _MPL2_LINE.finditer(text)]
    else:
        offsets = []
        position = 0
        names = ""  # the heading of the SubStation section
        for line in io.StringIO(text):  # split at LF alone, as pysubs2 reads a file
            if format in ("ass", "ssa"):
                stripped = line.strip()
                if _SECTION_HEADING.match(stripped):
                    names = stripped
                elif stripped.startswith(("Dialogue:", "Comment:")) and not any(n in names for n in _NO_EVENTS_IN):
                    offsets.append(position + len(line) - len(line.lstrip()))
            elif (_MICRODVD_LINE if format == "microdvd" else _TMP_LINE).match(line):
                offsets.append(position)
            position += len(line)
        if format == "microdvd" and not declaration:
            offsets = offsets[1:]
    starts = [0] + [m.end() for m in _LINE_END.finditer(text)]
    lines = split_lines(text)
    return [(k, lines[k - 1]) for k in (bisect.bisect_right(starts, offset) for offset in offsets)]


class _SyncTags(HTMLParser):
    """The ``<SYNC>`` tags of a SAMI file that pysubs2's parser makes events of: ``events`` holds the line
    (counted at LF) and column of each, ``refused`` the line and tag of each whose ``Start`` pysubs2 cannot
    read (it reads ``int(start or 0)``)."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[int, int]] = []
        self.refused: list[tuple[int, str | None]] = []
        self.open: tuple[int, int] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "sync":
            self.end_sync()
            self.open = self.getpos()
            try:
                int(dict(attrs)["start"] or 0)
            except (KeyError, ValueError):
                self.refused.append((self.open[0], self.get_starttag_text()))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("sync", "body", "sami"):
            self.end_sync()

    def end_sync(self) -> None:
        if self.open is not None:
            self.events.append(self.open)
            self.open = None


def _refused_event(text: str, *, format: str, pysubs2, error: Exception) -> tuple[int | None, str | None]:
    """The line and text of the event on which pysubs2 refused a file with ``error``, else ``(None, None)``: a
    SubStation event that, read alone, fails with the same error (its fields are read alike in the file and
    alone; a style that fails is no event), or the first SAMI ``<SYNC>`` without an integer ``Start``."""
    if format == "sami":
        tags = _SyncTags()
        tags.feed(text)
        return tags.refused[0] if tags.refused else (None, None)
    if format not in ("ass", "ssa"):
        return None, None
    for line, written in event_lines(text, format=format):
        try:
            pysubs2.SSAFile.from_string(f"[Events]\n{written.strip()}\n", format_=format)
        except Exception as alone:
            if type(alone) is type(error) and str(alone) == str(error):
                return line, written.strip()
    return None, None


def read_sbv(path, *, encoding: str | None = None) -> list[Cue]:
    """The cues of an SBV file (YouTube's captions): a timing line ``H:MM:SS.mmm,H:MM:SS.mmm``, text lines, a
    blank line.

    Raises
    ------
    InputError
        A block whose first line is no timing line, a file without a cue.
    """
    lines = split_lines(read_text(path, encoding=encoding))
    cues: list[Cue] = []
    k = 0
    while k < len(lines):
        if not lines[k].strip():
            k += 1
            continue
        match = _SBV_TIMING.fullmatch(lines[k])
        if match is None:
            raise InputError(
                "not an SBV timing line (H:MM:SS.mmm,H:MM:SS.mmm; a blank line ends each cue)",
                path=path,
                line=k + 1,
                value=lines[k],
            )
        g = [int(part) for part in match.groups()]
        start = ((g[0] * 60 + g[1]) * 60 + g[2]) * 1000 + g[3]
        end = ((g[4] * 60 + g[5]) * 60 + g[6]) * 1000 + g[7]
        first, k = k, k + 1
        text = []
        while k < len(lines) and lines[k].strip():
            text.append(lines[k].strip())
            k += 1
        cues.append(Cue(float(start), float(end), " ".join(text), "", first + 1))
    if not cues:
        raise InputError("no cue in this SBV file", path=path)
    return cues


def subtitle_hint(path) -> str | None:
    """`` (SBV subtitles: format 'sbv')`` and the like for a file whose first line that is not blank looks like
    a subtitle format read here (a ``.txt`` MPL2, TMP, SBV or MicroDVD file; SubStation Alpha or SAMI under
    another extension), else None."""
    try:
        with open(path, "rb") as file:
            head = file.read(4096).decode("utf-8", errors="replace").lstrip("\ufeff")
    except OSError:
        return None
    first = next((line for line in head.splitlines() if line.strip()), "")
    for format, pattern in _HINTS:
        if pattern.fullmatch(first):
            return f" ({_NAMES[format]} subtitles: format '{format}')"
    return None
