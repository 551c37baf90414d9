"""Real caption files of other projects (tests/data/real_captions/), each read by its owner library and by tvseg.

A file's *owner* is the library of the project it comes from (the W3C WebVTT tests come through ttconv's
copy, read by ttconv): pycaption, pysubs2, ttconv, webvtt-py, pysrt, srt. The owner's cue times are the
reference; tvseg reads the file as units (:func:`tvseg.read_units`, what ``--units`` reads), so the owner's
cues are put through tvseg's documented rules first, each written once here:

- :func:`never_cleared` (``formats/scc.md``, ``formats/ttml.md``): a caption the file never clears or ends
  ends where the next caption begins, else at the end of an SCC file's last time code (:func:`scc_file_end`)
  or at the latest time a TTML document writes (ttconv's last ISD);
- the overlap rules (``formats/srt.md``, ``formats/webvtt.md``, :func:`tvseg.readers.webvtt.caption_units`),
  :func:`as_units`: a cue of zero duration is no unit, cues that start together are one unit ending at the
  latest end, and a unit overlapping the next one ends where the next begins;
- :func:`without_text` (``formats/srt.md``: "a cue with no text: kept, label NO_LABEL"; ``formats/scc.md``,
  ``formats/ttml.md``): tvseg keeps a cue without text as a unit; pycaption, webvtt-py and ttconv's rendering
  leave it out and cannot give its times, so where the owner's cues lack them tvseg's units without text
  are left out of the comparison.

A file is read right when tvseg gives as many units as that and every start and end lies within
:data:`TOLERANCE` of the owner's (:data:`SCC_TOLERANCE` for SCC).

Each owner is asked for the file's own times: pycaption's SCC reader without the step that gives a caption
never cleared an end 4 s after its start (a time no file writes: the caption is given as never cleared,
for :func:`never_cleared`), pysubs2 with ``ignore_par_time_offset=True`` for Apple's iTunes TTML (as its
documentation says of Apple Music lyrics). ttconv's own timing of a cue is when its paragraph is on screen
in ttconv's sequence of intermediate synchronic documents (ISDs, what a ttconv renderer shows): from the first
ISD holding the paragraph's text to the first one without it; a paragraph still on screen in the last ISD is
never cleared.

Used by ``tests/test_real_captions.py`` and ``tests/benchmarks/real_captions_table.py``.
"""

from __future__ import annotations

import logging
import re
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from tvseg import read_units
from tvseg.errors import InputError

CORPUS = Path(__file__).resolve().parent / "data" / "real_captions"
TOLERANCE = Fraction(2, 30)
"""Two frames at 30 frames a second (EBU STL's 25 frames, two of them 80 ms, are held to it too): the largest
gap allowed between an owner's time and tvseg's, in seconds, for every format but SCC."""
SCC_FRAME = Fraction(1001, 30000)
SCC_TOLERANCE = 2 * SCC_FRAME + Fraction(1, 10**6)
"""Two of SCC's own frames (29.97 a second, 66.73 ms; :data:`TOLERANCE` is 67 microseconds shorter, which
would fail a caption two SCC frames away) and a microsecond for pycaption's float arithmetic."""
FORMATS = {".vtt": "WebVTT", ".srt": "SRT", ".scc": "SCC", ".ttml": "TTML", ".dfxp": "TTML", ".xml": "TTML"}
FORMATS[".stl"] = "EBU STL"
OWNERS = {
    "pycaption": "pycaption",
    "pysubs2": "pysubs2",
    "ttconv": "ttconv",
    "wpt": "ttconv",
    "webvtt-py": "webvtt-py",
    "pysrt": "pysrt",
    "srt": "srt",
}
"""Each folder of the corpus and the library that reads its files."""

APPLE_TTML = "http://music.apple.com/lyric-ttml-internal"
"""The namespace of Apple's iTunes TTML (``formats/ttml.md``)."""

Cue = tuple[Fraction, Fraction | None]
"""A cue's start and end in seconds (``None``: never cleared)."""


def files() -> list[Path]:
    """Every caption file of the corpus, by folder and name."""
    return sorted(path for folder in OWNERS for path in (CORPUS / folder).iterdir() if path.suffix.lower() in FORMATS)


def _clock(text: str) -> Fraction:
    hours, minutes, seconds = text.replace(",", ".").split(":")
    return int(hours) * 3600 + int(minutes) * 60 + Fraction(seconds)


def _pycaption(path: Path) -> list[Cue]:
    import pycaption

    class SCCReader(pycaption.SCCReader):
        # pycaption gives a caption no erase or replacement ends (end 0) the end start + 4 s, a time no file
        # writes; without that step it tells which captions the file never clears (end None here), and the
        # rule tvseg documents for them is applied as for ttconv's (:func:`never_cleared`)
        @staticmethod
        def _fix_last_captions_without_ending(caption_list: object) -> None:
            pass

    reader = {
        ".scc": SCCReader,
        ".dfxp": pycaption.DFXPReader,
        ".xml": pycaption.DFXPReader,
        ".srt": pycaption.SRTReader,
        ".vtt": pycaption.WebVTTReader,
    }[path.suffix.lower()]
    captions = reader().read(path.read_bytes().decode("utf-8-sig"))
    return [
        (Fraction(c.start) / 10**6, Fraction(c.end) / 10**6 if c.end else None)  # microseconds, floats for SCC
        for language in captions.get_languages()
        for c in captions.get_captions(language)
    ]


def _pysubs2(path: Path) -> list[Cue]:
    import pysubs2

    # Apple's iTunes TTML writes every time from the start of the song, a <p> at its <div>'s time: pysubs2's
    # documentation gives ignore_par_time_offset=True for it ("used in Apple Music lyrics"); without it pysubs2
    # adds the <div>'s begin to each <p>'s, times the file does not write
    apple = APPLE_TTML in path.read_bytes().decode("utf-8", "replace")
    subs = pysubs2.load(str(path), ignore_par_time_offset=True) if apple else pysubs2.load(str(path))
    return [(Fraction(e.start, 1000), Fraction(e.end, 1000)) for e in subs if not e.is_comment]


def _webvtt_py(path: Path) -> list[Cue]:
    import webvtt

    captions = webvtt.from_srt(str(path)) if path.suffix == ".srt" else webvtt.read(str(path))
    return [(_clock(c.start), _clock(c.end)) for c in captions]


def _pysrt(path: Path) -> list[Cue]:
    import pysrt

    return [(Fraction(item.start.ordinal, 1000), Fraction(item.end.ordinal, 1000)) for item in pysrt.open(str(path))]


def _srt(path: Path) -> list[Cue]:
    import srt

    text = path.read_bytes().decode("utf-8-sig")
    return [
        (
            Fraction(s.start.total_seconds()).limit_denominator(10**6),
            Fraction(s.end.total_seconds()).limit_denominator(10**6),
        )
        for s in srt.parse(text)
    ]


_DOCUMENT_END: dict[Path, Fraction] = {}
"""The time of ttconv's last ISD of a file (the latest time its document writes), by path."""


def _ttconv(path: Path) -> list[Cue]:
    import xml.etree.ElementTree as et

    from ttconv import model
    from ttconv.isd import ISD

    suffix = path.suffix.lower()
    logger = logging.getLogger("ttconv")
    saved = logger.level
    logger.setLevel(logging.CRITICAL)  # ttconv logs layout notes (overflowing paragraphs): not timings
    try:
        if suffix == ".scc":
            from ttconv.scc import reader as scc

            document = scc.to_model(path.read_text(encoding="utf-8"))
        elif suffix == ".stl":
            from ttconv.stl import reader as stl

            with open(path, "rb") as stream:
                document = stl.to_model(stream)
        elif suffix == ".ttml":
            from ttconv.imsc import reader as imsc

            document = imsc.to_model(et.parse(path))
        else:
            from ttconv.srt import reader as srt_reader
            from ttconv.vtt import reader as vtt_reader

            with open(path, encoding="utf-8") as stream:
                document = (srt_reader if suffix == ".srt" else vtt_reader).to_model(stream)
        if document is None or document.get_body() is None:
            return []
        paragraphs = [p for p in document.get_body().dfs_iterator() if isinstance(p, model.P)]
        for k, p in enumerate(paragraphs):
            p.set_id(f"owner-p{k}")
        shown: dict[str, Fraction] = {}
        cues: dict[str, Cue] = {}
        for time, isd in ISD.generate_isd_sequence(document):
            _DOCUMENT_END[path] = Fraction(time)
            now = set()
            for region in isd.iter_regions():
                for p in region.dfs_iterator():
                    if isinstance(p, model.P) and any(
                        isinstance(t, model.Text) and t.get_text().strip() for t in p.dfs_iterator()
                    ):
                        now.add(p.get_id())
            for key in now - set(shown):
                shown[key] = Fraction(time)
            for key in set(shown) - now:
                cues[key] = (shown.pop(key), Fraction(time))
        for key, start in shown.items():
            cues[key] = (start, None)
        return [cues[p.get_id()] for p in paragraphs if p.get_id() in cues]
    finally:
        logger.setLevel(saved)


READERS: dict[str, Callable[[Path], list[Cue]]] = {
    "pycaption": _pycaption,
    "pysubs2": _pysubs2,
    "ttconv": _ttconv,
    "webvtt-py": _webvtt_py,
    "pysrt": _pysrt,
    "srt": _srt,
}


def scc_file_end(path: Path) -> Fraction:
    """The end of an SCC file's last time code: that line's frame and one frame a word after it, in seconds
    (drop-frame time codes, with ``;``, skip frame numbers 0 and 1 of each minute but every tenth)."""
    last = [line.split() for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.strip()][-1]
    hours, minutes, seconds, frames = (int(field) for field in re.split("[:;.]", last[0]))
    count = ((hours * 60 + minutes) * 60 + seconds) * 30 + frames
    if ";" in last[0]:
        total_minutes = hours * 60 + minutes
        count -= 2 * (total_minutes - total_minutes // 10)
    return (count + len(last) - 1) * SCC_FRAME


def never_cleared(cues: list[Cue], file_end: Fraction | None) -> list[Cue]:
    """tvseg's rule for a caption never cleared (end ``None``; ``formats/scc.md``, ``formats/ttml.md``): it
    ends where the next caption (by start) begins, else at ``file_end`` (an SCC file's last time code,
    :func:`scc_file_end`; ``None``: left open, only its start is compared)."""
    starts = sorted({start for start, _ in cues})
    later = {start: following for start, following in zip(starts, starts[1:])}
    return [(start, end if end is not None else later.get(start, file_end)) for start, end in cues]


def as_units(cues: list[Cue], *, file_end: Fraction | None = None) -> list[Cue]:
    """The owner's cues under tvseg's rules for captions never cleared (:func:`never_cleared`) and for
    overlaps (see the module's docstring), by start."""
    cues = never_cleared(cues, file_end)
    lasting = [(start, end) for start, end in cues if end is None or end != start]
    units: list[list] = []
    for start, end in sorted(lasting, key=lambda cue: cue[0]):  # a stable sort: file order among equal starts
        if units and units[-1][0] == start:
            ends = [units[-1][1], end]
            units[-1][1] = None if None in ends else max(ends)
            continue
        units.append([start, end])
    for unit, following in zip(units, units[1:]):
        if unit[1] is None or unit[1] > following[0]:
            unit[1] = following[0]
    return [(start, end) for start, end in units]


def without_text(units: list[tuple[float, float]], texts: list[str]) -> list[tuple[float, float]]:
    """tvseg's units but those without text: what an owner that leaves a cue without text out can be
    compared with (the module's docstring)."""
    return [unit for unit, text in zip(units, texts) if text]


@dataclass
class Outcome:
    """How one file was read: ``verdict`` is ``identical`` (the owner's cues, as they are), ``rules`` (the
    owner's cues after the overlap rules), ``mismatch``, ``refused`` (an InputError), ``traceback`` (any other
    exception from tvseg) or ``owner`` (the owner reads no cue from it: not counted in the rates); ``tvseg`` is
    what tvseg did with the file whoever reads it: ``read``, ``refused`` or ``traceback``, ``message`` its error."""

    path: Path
    format: str
    owner: str
    verdict: str
    why: str = ""
    tvseg: str = "read"
    message: str = ""


def _close(a: Fraction | float, b: Fraction | None, tolerance: Fraction) -> bool:
    return b is None or abs(Fraction(a) - b) <= tolerance


def _why_not(theirs: list[Cue], ours: list[tuple[float, float]], tolerance: Fraction) -> str:
    if len(theirs) != len(ours):
        return f"{len(ours)} units, the owner's cues make {len(theirs)}"
    for k, ((start, end), (a, b)) in enumerate(zip(theirs, ours)):
        if not (_close(a, start, tolerance) and _close(b, end, tolerance)):
            owner = f"{float(start):.3f}-{'open' if end is None else f'{float(end):.3f}'}"
            return f"unit {k + 1}: {a:.3f}-{b:.3f}, the owner's {owner}"
    return ""


def read(path: Path, *, owner: str | None = None) -> Outcome:
    """The outcome of reading ``path`` with its owner (by default that of its folder) and with tvseg."""
    owner = owner or OWNERS[path.parent.name]
    kind = FORMATS[path.suffix.lower()]
    ours: list[tuple[float, float]] = []
    texts: list[str] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frame = read_units(path)[path.stem]
        ours = list(zip(frame["start"].tolist(), frame["end"].tolist()))
        texts = [str(text).strip() for text in frame["text"].tolist()]
        tvseg, message = "read", ""
    except InputError as error:
        tvseg, message = "refused", str(error).splitlines()[0]
    except Exception:
        tvseg, message = "traceback", traceback.format_exc(limit=-3)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # BeautifulSoup's notes under pycaption
            theirs = READERS[owner](path)
    except Exception as error:  # the owner refuses the file: not counted
        why = f"{owner}: {type(error).__name__}: {str(error)[:80]}"
        return Outcome(path, kind, owner, "owner", why, tvseg, message)
    if not theirs:
        return Outcome(path, kind, owner, "owner", f"{owner} reads no cue", tvseg, message)
    if tvseg != "read":
        return Outcome(path, kind, owner, tvseg, message[:200], tvseg, message)
    tolerance = SCC_TOLERANCE if kind == "SCC" else TOLERANCE
    if not _why_not(sorted(theirs, key=lambda cue: cue[0]), ours, tolerance) and all(e is not None for _, e in theirs):
        return Outcome(path, kind, owner, "identical")
    file_end = scc_file_end(path) if kind == "SCC" else _DOCUMENT_END.get(path) if owner == "ttconv" else None
    units = as_units(theirs, file_end=file_end)
    why = _why_not(units, ours, tolerance)
    if why and "" in texts:
        why = _why_not(units, without_text(ours, texts), tolerance) and why
    return Outcome(path, kind, owner, "mismatch" if why else "rules", why)


LOCATED = re.compile(r":\d+: |: subtitle \d+|TTI block \d+")


def names_file_line_rule(path: Path, message: str) -> bool:
    """Whether a refusal starts with the file and names where (a line, or an EBU STL subtitle) and a rule."""
    if not message.startswith(f"{path}:"):
        return False
    rest = message[len(str(path)) :]
    return bool(LOCATED.search(rest)) and len(rest.split(": ", 2)[-1]) > 3


def table(outcomes: list[Outcome]) -> list[tuple[str, int, int, int, int, int, int, int]]:
    """Per format: files, owner-read, identical, after the rules, mismatched, refused, tracebacks."""
    rows = []
    for kind in sorted({o.format for o in outcomes}):
        mine = [o for o in outcomes if o.format == kind]
        count = {
            v: sum(o.verdict == v for o in mine)
            for v in ("owner", "identical", "rules", "mismatch", "refused", "traceback")
        }
        rows.append(
            (
                kind,
                len(mine),
                len(mine) - count["owner"],
                count["identical"],
                count["rules"],
                count["mismatch"],
                count["refused"],
                count["traceback"],
            )
        )
    return rows


def rate(outcomes: list[Outcome], kind: str) -> Fraction:
    """The share of the files of format ``kind`` that their owner reads which tvseg reads right."""
    counted = [o for o in outcomes if o.format == kind and o.verdict != "owner"]
    return Fraction(sum(o.verdict in ("identical", "rules") for o in counted), len(counted))
