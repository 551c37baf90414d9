"""Text-segmentation corpora: documents of sentences, read as segments in the unit domain.

A text corpus has no times: sentence ``i`` (from 0) spans ``[i, i + 1)``, so a segment of the sentences
``a .. b - 1`` spans ``[a, b)``. :func:`tvseg.read_segments` marks the corpus it returns with
``domain == "units"`` (:class:`~tvseg.columns.SegmentColumns`), and :func:`tvseg.evaluate` then scores
the unit metrics on the sentences and no time-domain metric. The formats, each read only when named:
``choi`` (Choi 2000, ``formats/choi.md``), ``wiki727k`` (Koshorek et al. 2018, read as ``read_wiki_file``
of koomri/text-segmentation's ``wiki_loader.py`` reads a document, ``formats/wiki727k.md``; other levels:
:mod:`tvseg.readers.levels`), ``segeval`` (segeval's JSON dataset, read by
:func:`tvseg.readers.agreement.read_dataset_json`, or its mass TSV, segeval 2.0.11's
``input_linear_mass_tsv``; one coder, ``PATH#CODER``: :func:`split_coder`) and ``nltk`` (nltk's boundary
strings ``DOC_ID BITS``, ``1`` a boundary as ``nltk.metrics.segmentation`` takes them with
``boundary="1"``): ``formats/segeval.md``.
"""

from __future__ import annotations

import csv
import os
import re
from itertools import accumulate
from pathlib import Path

import numpy as np

from tvseg.columns import SegmentColumns
from tvseg.errors import InputError, UsageError
from tvseg.readers.corpus import Rows
from tvseg.readers.formats import TEXT_CORPUS_FORMATS
from tvseg.readers.source import read_text, split_lines
from tvseg.readers.validation import NO_LABEL, whole_number

__all__ = [
    "TEXT_CORPUS_FORMATS",
    "UNITS",
    "split_coder",
    "is_corpus_file",
    "text_corpus_rows",
    "choi_segments",
    "wiki727k_segments",
    "wiki727k_levels",
    "in_units",
]

UNITS = "units"
"""The ``domain`` of a corpus read from a text format (sentence positions, not seconds)."""

CHOI_SEPARATOR = "=========="
WIKI_HEADER = re.compile(r"========,(\d),.*?\.")
WIKI_SPECIAL = ("***LIST***", "***formula***", "***codice***")
_WORD = re.compile(r"\w")

Segment = tuple[str, int, list[int]]
"""A segment as read: its label, the line it starts at, the line of each of its sentences."""


def split_coder(path: str | os.PathLike[str]) -> tuple[Path, str | None]:
    """``PATH#CODER`` as ``(PATH, CODER)``; a path that exists as given, or has no ``#``, as ``(path, None)``."""
    text = os.fspath(path)
    if "#" not in text or Path(text).exists():
        return Path(text), None
    base, _, coder = text.rpartition("#")
    return Path(base), coder


def is_corpus_file(file: Path, format: str) -> bool:
    """Whether a folder's ``file`` is read as ``format``: every file for ``choi``, ``wiki727k`` and ``nltk``
    (their files have any extension, or none), ``.json`` and ``.tsv`` files for ``segeval``."""
    if format == "segeval":
        return file.suffix.lower() in (".json", ".tsv")
    return not file.name.startswith(".")


def text_corpus_rows(
    file: Path, *, format: str, coder: str | None = None, encoding: str | None = None, level: int | None = None
) -> Rows:
    """The segments of every document of ``file`` read as ``format`` (:data:`TEXT_CORPUS_FORMATS`), as
    rows in sentence positions (module docstring); a Wiki-727K document at ``level`` (None: 2, its
    loader's), the other formats having no levels.

    Raises
    ------
    InputError
        ``PATH:LINE: message`` at the first fault; a document without a sentence.
    UsageError
        A segeval dataset of several coders without ``#CODER``.
    """
    if format == "segeval":
        return _segeval_rows(file, coder)
    lines = split_lines(read_text(file, encoding=encoding))
    if format == "nltk":
        return _nltk_rows(file, lines)
    if format == "choi":
        segments = choi_segments(lines)
    else:
        segments = wiki727k_segments(lines, path=file, level=2 if level is None else level)
    if not segments:
        raise InputError(f"no sentence in this {format} document", path=file)
    ends = list(accumulate(len(sentences) for _, _, sentences in segments))
    records = _spans(ends, [label for label, _, _ in segments], [line for _, line, _ in segments])
    return Rows.of_file(file, {file.stem: records})


def _spans(ends: list[int], labels: list[str], lines: list[int]) -> list[tuple[float, float, str, int]]:
    """``(start, end, label, line)`` of the segments ending at sentence positions ``ends``, the first from 0."""
    starts = [0, *ends[:-1]]
    return [(float(a), float(b), label, line) for a, b, label, line in zip(starts, ends, labels, lines)]


def choi_segments(lines: list[str]) -> list[Segment]:
    """The segments of a Choi document (its lines): those between separator lines, each with a sentence."""
    segments: list[Segment] = []
    current: list[int] = []
    for number, text in enumerate(lines, start=1):
        if text.strip() == CHOI_SEPARATOR:
            if current:
                segments.append((NO_LABEL, current[0], current))
            current = []
        elif text.strip():
            current.append(number)
    if current:
        segments.append((NO_LABEL, current[0], current))
    return segments


def wiki727k_segments(lines: list[str], *, path: Path | None = None, level: int = 2) -> list[Segment]:
    """The segments of a Wiki-727K document (its lines) at ``level``: those opened by the headers of level
    ``<= level``, deeper headers removed (their sentences join the segment around them). At level 2, as
    ``read_wiki_file`` reads them (module docstring); at every level the preface is the loader's (the first
    section of the levels 1-2), and the first header after it opens a segment whatever its level. A
    section without a sentence is no segment."""
    events = _wiki727k_events(lines, path=path)
    # the loader's sections at levels 1-2: one per header of level 1-2, and one for the text before the
    # first such header when there is any; the first is the preface (a last header with nothing after it
    # makes no section: it would have no sentence anyway)
    starts = [i for i, (kind, _, _) in enumerate(events) if kind in (1, 2)]
    first = starts[0] if starts else len(events)
    sections = ([0] if any(kind <= 0 for kind, _, _ in events[:first]) else []) + starts
    if len(sections) < 2:
        return []
    found: list[tuple[str, list[int]]] = []
    for kind, title, number in events[sections[1] :]:
        if kind >= 1:
            if not found or kind <= level:
                found.append((title, []))
        elif kind == 0:
            found[-1][1].append(number)
    return [(title or NO_LABEL, numbers[0], numbers) for title, numbers in found if numbers]


def wiki727k_levels(lines: list[str], *, path: Path | None = None) -> set[int]:
    """The levels of the headers of a Wiki-727K document (its lines)."""
    return {kind for kind, _, _ in _wiki727k_events(lines, path=path) if kind >= 1}


def _wiki727k_events(lines: list[str], *, path: Path | None) -> list[tuple[int, str, int]]:
    """A Wiki-727K document as ``(kind, title, line)`` in order: a header (``kind`` its level, with its
    title), a sentence (``kind == 0``), text that is no sentence (``-1``). Text after a header's first
    period is a line of its own."""
    events: list[tuple[int, str, int]] = []
    for number, text in enumerate(lines, start=1):
        header = WIKI_HEADER.match(text.strip())
        if header is not None:
            events.append((int(header.group(1)), header.group(0)[len("========,1,") : -1], number))
            text = text.strip()[header.end() :]
        elif text.strip().startswith("========,"):
            raise InputError(
                "a Wiki-727K header is ========,LEVEL,TITLE. with LEVEL one digit and TITLE ending with a period",
                path=path,
                line=number,
                value=text,
            )
        if text.strip():
            events.append((0 if _is_sentence(text) else -1, "", number))
    return events


def _is_sentence(text: str) -> bool:
    """A line the loader counts as a sentence: not ``***LIST***.``, with a word left once the special
    tokens are removed (``extract_sentence_words(..., remove_special_tokens=True)``)."""
    text = text.strip()
    if text == "***LIST***.":
        return False
    for token in WIKI_SPECIAL:
        text = text.replace(token, "")
    return _WORD.search(text) is not None


def _segeval_rows(file: Path, coder: str | None) -> Rows:
    """The documents of a segeval JSON dataset or mass TSV, as coded by ``coder``."""
    from tvseg.readers.agreement import _find_line, read_dataset_json

    if file.suffix.lower() == ".tsv":
        data, lines = _segeval_tsv(file)
    else:
        data = read_dataset_json(file)
        text = read_text(file)
        lines = {item: {c: _find_line(text, c, after=item) for c in codings} for item, codings in data.items()}
    coders = sorted({c for codings in data.values() for c in codings})
    if coder is None:
        if len(coders) != 1:
            raise UsageError(
                f"{file}: the dataset has {len(coders)} coders ({', '.join(coders)}): name the one to read, "
                f"{file}#CODER"
            )
        coder = coders[0]
    shows = {}
    for item, codings in data.items():
        if coder not in codings:
            raise InputError(
                f"item {item!r} has no coder {coder!r} (its coders: {', '.join(sorted(codings))})",
                path=file,
                line=_find_line(read_text(file), item) if file.suffix.lower() != ".tsv" else None,
            )
        ends = np.cumsum(list(codings[coder])).tolist()
        shows[str(item)] = _spans(ends, [NO_LABEL] * len(ends), [lines[item][coder] or 0] * len(ends))
    return Rows.of_file(file, shows)


def _segeval_tsv(file: Path) -> tuple[dict, dict]:
    """segeval's mass TSV (``input_linear_mass_tsv``): ``{stem: {coder: masses}}`` and each coder's line."""
    text_lines = split_lines(read_text(file))
    reader = csv.reader(text_lines, delimiter="\t")
    rows: list[list[str]] = []
    try:
        rows.extend(reader)
    except csv.Error as error:  # a field longer than the csv module's limit (131,072 characters)
        number = reader.line_num
        value = text_lines[number - 1] if 0 < number <= len(text_lines) else None
        raise InputError(f"not a TSV line of masses ({error})", path=file, line=number, value=value) from None
    codings: dict[str, list[int]] = {}
    lines: dict[str, int] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not row or not any(cell.strip() for cell in row):
            continue
        coder = row[0]
        if coder in codings:
            raise InputError("a coder is given twice", path=file, line=number, value=coder)
        masses = []
        for cell in row[1:]:
            digits = cell.strip()
            mass = (
                whole_number(digits, path=file, line=number, field=f"coder {coder!r}: a mass")
                if digits.isdecimal()
                else 0
            )
            if mass <= 0:
                raise InputError(
                    f"coder {coder!r}: masses must be positive integers", path=file, line=number, value=cell
                )
            masses.append(mass)
        if not masses:
            raise InputError(f"coder {coder!r} has no masses", path=file, line=number, value="\t".join(row))
        codings[coder], lines[coder] = masses, number
    if not codings:
        raise InputError("no coder in this TSV file (a header line, then CODER<TAB>MASS<TAB>...)", path=file)
    return {file.stem: codings}, {file.stem: lines}


def _nltk_rows(file: Path, lines: list[str]) -> Rows:
    """The documents of a file of nltk boundary strings, ``DOC_ID BITS`` a line."""
    shows: dict[str, list[tuple[float, float, str, int]]] = {}
    for number, text in enumerate(lines, start=1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        parts = text.split()
        if len(parts) != 2 or set(parts[1]) - {"0", "1"}:
            raise InputError(
                "expected DOC_ID BITS (BITS: 0 and 1, one per gap between two sentences)",
                path=file,
                line=number,
                value=text,
            )
        name, bits = parts
        if name in shows:
            raise InputError("a document is given twice", path=file, line=number, value=name)
        ends = [g + 1 for g, c in enumerate(bits) if c == "1"] + [len(bits) + 1]
        shows[name] = _spans(ends, [NO_LABEL] * len(ends), [number] * len(ends))
    if not shows:
        raise InputError("no document in this file (DOC_ID BITS a line)", path=file)
    return Rows.of_file(file, shows)


def in_units(columns: SegmentColumns) -> SegmentColumns:
    """``columns`` marked as a corpus in the unit domain (``domain == "units"``)."""
    return SegmentColumns(
        columns.names,
        columns.offsets,
        start=columns.start,
        end=columns.end,
        label=columns.label,
        line=columns.line,
        paths=columns.paths,
        domain=UNITS,
    )
