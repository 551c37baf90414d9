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
cue's line is the line of its event when the file's event lines and pysubs2's events are as many (the
k-th ``Dialogue:`` line, the k-th ``{start}{end}`` line...), else the first line. MicroDVD counts frames: a file
whose first line does not declare its frame rate (``{1}{1}25``) is refused. MPL2 and TMP files are ``.txt``
files and are read only when named (``format="mpl2"``, ``"tmp"``); a ``.txt`` file that looks like one of
them, like SBV or MicroDVD, is refused with a hint naming the format (:func:`subtitle_hint`).
"""

from __future__ import annotations

import re

from tvseg.errors import InputError, MissingExtraError
from tvseg.readers.source import read_text, split_lines
from tvseg.readers.webvtt import Cue

__all__ = ["SUBTITLE_FORMATS", "SUBTITLE_KINDS", "read_subtitles", "read_sbv", "subtitle_hint"]

SUBTITLE_FORMATS = {".sbv": "sbv", ".ass": "ass", ".ssa": "ssa", ".sub": "microdvd", ".smi": "sami", ".sami": "sami"}
"""The extensions of the subtitle files read here and the format each is read as."""
SUBTITLE_KINDS = ("sbv", "ass", "ssa", "microdvd", "mpl2", "tmp", "sami")
"""Every ``format=`` read here (``mpl2`` and ``tmp`` only when named: their files are ``.txt``)."""

_NAMES = {"ass": "SubStation Alpha", "ssa": "SubStation Alpha", "microdvd": "MicroDVD", "mpl2": "MPL2"}
_NAMES.update(tmp="TMP", sami="SAMI", sbv="SBV")
_EVENT_LINES = {
    "ass": re.compile(r"Dialogue\s*:"),
    "ssa": re.compile(r"Dialogue\s*:"),
    "microdvd": re.compile(r"\s*[{\[]\d+[}\]]\s*[{\[]\d*[}\]]"),
    "mpl2": re.compile(r"\s*\[\d+\]\s*\[\d*\]"),
    "tmp": re.compile(r"\s*\d{1,2}:\d{2}:\d{2}\s*[:=]"),
    "sami": re.compile(r"(?i).*<sync\b(?!.*&nbsp;)"),
}
"""How the line of an event starts in each format, to name the line of a cue."""
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
        A file pysubs2 cannot read as ``format`` (its message, with the file), a MicroDVD file that does not
        declare its frame rate, an SBV timing line that is malformed, a file without a cue.
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
    lines = split_lines(text)
    try:
        events = pysubs2.SSAFile.from_string(text, format_=format).events
    except pysubs2.exceptions.UnknownFPSError:
        raise InputError(
            "a MicroDVD file counts frames: declare its frame rate as its first line ({1}{1}25, {1}{1}23.976)",
            path=path,
            line=1,
            value=lines[0] if lines else "",
        ) from None
    except Exception as error:  # pysubs2 raises ValueError, its own errors, and others on malformed files
        raise InputError(f"not a {_NAMES[format]} file as pysubs2 reads it ({error})", path=path) from None
    ends = [float(event.end) for event in events]
    if format == "sami":  # a sync shows until the next one, a blank one included
        ends[:-1] = [float(event.start) for event in events[1:]]
    kept = [k for k, event in enumerate(events) if not event.is_comment]
    if format == "sami":
        kept = [k for k in kept if events[k].plaintext.strip()]
    events, ends = [events[k] for k in kept], [ends[k] for k in kept]
    if not events:
        raise InputError(f"no subtitle in this {_NAMES[format]} file", path=path)
    starts = [k + 1 for k, line in enumerate(lines) if _EVENT_LINES[format].match(line)]
    if format == "microdvd" and len(starts) == len(events) + 1:
        starts = starts[1:]  # the first line declares the frame rate
    if len(starts) != len(events):
        starts = [1] * len(events)
    return [
        Cue(float(event.start), end, " ".join(event.plaintext.split()), "", line)
        for event, end, line in zip(events, ends, starts)
    ]


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
