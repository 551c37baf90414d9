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
- :func:`painted_bursts` (``formats/scc.md``): the paint-on paragraphs ttconv starts at each row's address code
  within one line of an SCC file, each copying the rows before, are one caption (pycaption's reading);
- :func:`without_text` (``formats/srt.md``: "a cue with no text: kept, label NO_LABEL"; ``formats/scc.md``,
  ``formats/ttml.md``): tvseg keeps a cue without text as a unit; pycaption, webvtt-py and ttconv's rendering
  leave it out and cannot give its times, so where the owner's cues lack them tvseg's units without text
  are left out of the comparison.

A file is read right when tvseg gives as many units as that and every start and end lies within
:data:`TOLERANCE` of the owner's (:data:`SCC_TOLERANCE` for SCC).

Each owner is asked for the file's own times: pycaption's SCC reader with the time of each frame it counts
(it reads a drop-frame time code's label as clock time, up to 1.8 frames off the frame the label names, which
would make two frames of tolerance anything from 0.2 to 3.8 frames) and without the step that gives a caption
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
from bisect import bisect_right
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
would fail a caption two SCC frames away) and a microsecond for float arithmetic (tvseg's times are floats)."""
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

    class Frames(pycaption.scc.reader._SccTimeTranslator):
        # pycaption reads a drop-frame time code as the clock time its label writes (00:00:59;29 as 59.967 s),
        # a frame count otherwise: the seconds of the frame the label and the words after it count
        # (frame 1799, 60.027 s), as it counts non-drop-frame ones and as :func:`scc_file_end` counts
        @staticmethod
        def _translate_time(stamp: str, offset: int) -> Fraction:
            hours, minutes, seconds, frames = (int(field) for field in re.split("[:;]", stamp))
            count = ((hours * 60 + minutes) * 60 + seconds) * 30 + frames
            if ";" in stamp:
                total_minutes = hours * 60 + minutes
                count -= 2 * (total_minutes - total_minutes // 10)
            return max(count * SCC_FRAME * 10**6 - offset, Fraction(0))

    class SCCReader(pycaption.SCCReader):
        # pycaption gives a caption no erase or replacement ends (end 0) the end start + 4 s, a time no file
        # writes; without that step it tells which captions the file never clears (end None here), and the
        # rule tvseg documents for them is applied as for ttconv's (:func:`never_cleared`)
        def __init__(self) -> None:
            super().__init__()
            self.time_translator = Frames()

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
        if suffix == ".scc":
            regions = [p.get_region() for p in paragraphs]  # a Region without children is false: "is not None"
            painted = [region is not None and str(region.get_id()).startswith("paint") for region in regions]
            return painted_bursts(
                [(*cues[p.get_id()], paint) for p, paint in zip(paragraphs, painted) if p.get_id() in cues],
                scc_line_starts(path),
            )
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


def _scc_frame(time_code: str) -> int:
    """The frame an SCC time code names (drop-frame time codes, with ``;``, skip frame numbers 0 and 1 of each
    minute but every tenth)."""
    hours, minutes, seconds, frames = (int(field) for field in re.split("[:;.]", time_code))
    count = ((hours * 60 + minutes) * 60 + seconds) * 30 + frames
    if ";" in time_code:
        total_minutes = hours * 60 + minutes
        count -= 2 * (total_minutes - total_minutes // 10)
    return count


def _scc_lines(path: Path) -> list[list[str]]:
    """The words of each time code line of an SCC file, the time code first."""
    lines = [line.split() for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    return [words for words in lines if re.fullmatch(r"\d\d:\d\d:\d\d[:;.]\d\d", words[0])]


def scc_file_end(path: Path) -> Fraction:
    """The end of an SCC file's last time code: that line's frame and one frame a word after it, in seconds."""
    last = _scc_lines(path)[-1]
    return (_scc_frame(last[0]) + len(last) - 1) * SCC_FRAME


def scc_line_starts(path: Path) -> list[Fraction]:
    """The time of each time code line of an SCC file, in seconds."""
    return [_scc_frame(words[0]) * SCC_FRAME for words in _scc_lines(path)]


def painted_bursts(cues: list[tuple[Fraction, Fraction | None, bool]], line_starts: list[Fraction]) -> list[Cue]:
    """tvseg's rule for a paint-on caption painted row by row (``formats/scc.md``): ttconv starts a paragraph
    at each row's address code, ending the one before as it begins and copying its rows; such paragraphs
    (``True`` here: in a ``paint`` region) begun by the words of one line of the file (``line_starts``) are
    one caption, from the first one's start to the last one's end, as pycaption keeps one caption for the
    burst."""
    merged: list[list] = []
    before = False
    for start, end, paint in cues:
        line = bisect_right(line_starts, start)
        if before and paint and merged[-1][1] == start and merged[-1][2] == line:
            merged[-1][1] = end
        else:
            merged.append([start, end, line])
        before = paint
    return [(start, end) for start, end, _ in merged]


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
