"""The segmentations and the units of many shows as sorted flat arrays: the corpus every reader returns
and every kernel scores, its adapters from pyannote objects, and the one crop to the evaluated region.

:class:`Segments` are the rows the kernels score: each segment's show index, start, end and label, in
the evaluated shows' order, with the evaluated regions when a UEM leaves gaps; the per-show functions
score a corpus of one. :func:`from_segmentations` builds them from Annotations, Timelines or
``(start, end)`` pairs (checked: finite, non-empty, disjoint), reading each show with
:func:`segment_arrays` (which also keeps overlapping segments, for predictions that may overlap);
:func:`crop_spans` crops them to their show's regions.

:func:`tvseg.read_segments` returns a :class:`SegmentColumns` and :func:`tvseg.read_units` a
:class:`UnitColumns`. Both hold the shows of a corpus as one set of arrays (show offsets, start, end,
source line, then labels or text columns), sorted by show and, within a show, by (start, end, line),
and are mappings of show id to a per-show ``pyannote.core.Annotation`` or ``pandas.DataFrame``, built
from the arrays at each lookup (an adapter for code that wants pyannote or pandas objects).

The columns cannot be changed: the mapping has no item assignment and the arrays are read-only, so
they are always the whole corpus. Another corpus is built anew (:meth:`SegmentColumns.from_annotations`,
:meth:`SegmentColumns.select`); :func:`tvseg.evaluate` also takes any mapping of Annotations.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeAlias, TypeVar

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

from tvseg.errors import InputError
from tvseg.exact import _INT64_SAFE, MAX_SECONDS, TICKS_PER_SECOND, ticks
from tvseg.pyannote_objects import SEGMENT_PRECISION, is_annotation, is_timeline

if TYPE_CHECKING:
    import pandas as pd
    from pyannote.core import Annotation, Timeline

__all__ = [
    "RegionColumns",
    "merge_regions",
    "Columns",
    "SegmentColumns",
    "UnitColumns",
    "UNIT_TEXT_COLUMNS",
    "PathOrNone",
    "Segmentation",
    "Segments",
    "segment_arrays",
    "from_segmentation",
    "from_segmentations",
    "corpus_segments",
    "stack",
    "check",
    "unit_arrays",
    "SpanCrop",
    "crop_spans",
    "count_before",
    "lex_order",
]

_V = TypeVar("_V")
PathOrNone: TypeAlias = "str | os.PathLike[str] | None"
"""The file a show was read from (``None`` when not known)."""

UNIT_TEXT_COLUMNS = ("text", "speaker", "topic")
"""The optional text columns of a unit table, in the order its frames hold them."""


def _frozen(values: ArrayLike, dtype: DTypeLike) -> NDArray[Any]:
    """``values`` as a read-only array of ``dtype`` (a view: the caller's own array stays writable)."""
    array = np.asarray(values, dtype=dtype).view()
    array.flags.writeable = False
    return array


Segmentation: TypeAlias = "Annotation | Timeline | NDArray[Any] | Sequence[Sequence[float]] | None"
"""One show's segmentation as the per-show functions take it: an Annotation, a Timeline, an ``(n, 2)``
array or a sequence of ``(start, end)`` pairs (None: no segment)."""


@dataclass(frozen=True, eq=False)
class Segments:
    """Segments of ``n_shows`` shows, sorted by ``(show, start)``.

    Attributes
    ----------
    show : ndarray of int64
        Index of each segment's show, in ``range(n_shows)``.
    start, end : ndarray of float64
        Segment bounds in seconds, ``start < end``.
    label : ndarray of object
        Segment labels (``None`` for a :class:`~pyannote.core.Timeline`).
    n_shows : int
        Number of shows (a show may have no segment).
    region : tvseg.retrieval.region.Region, optional
        The evaluated regions when a show has several (a UEM with gaps); None otherwise.

    ``start_ticks``, ``end_ticks`` and ``duration_ticks`` are the same times in integer
    microseconds, on which every threshold decision is made (:mod:`tvseg.exact`);
    ``duration`` is computed from them, so a decimal duration is its correctly rounded float.
    With a ``region``, ``duration_ticks`` and ``duration`` are the **evaluated** durations, the
    measure of each segment's parts inside the regions (:mod:`tvseg.retrieval.region`).
    """

    show: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray
    n_shows: int
    region: Any = None  # a tvseg.retrieval.region.Region

    def __len__(self) -> int:
        return len(self.start)

    @cached_property
    def start_ticks(self) -> np.ndarray:
        return ticks(self.start)

    @cached_property
    def end_ticks(self) -> np.ndarray:
        return ticks(self.end)

    @cached_property
    def duration_ticks(self) -> np.ndarray:
        if self.region is not None:
            measured: np.ndarray = self.region.measure(self.show, self.start_ticks, self.end_ticks)
            return measured
        span: np.ndarray = self.end_ticks - self.start_ticks
        return span

    @cached_property
    def duration(self) -> np.ndarray:
        seconds: np.ndarray = self.duration_ticks / TICKS_PER_SECOND
        return seconds

    def times(self) -> tuple[np.ndarray, np.ndarray]:
        """Every start and end in seconds and in ticks, ``start_0, end_0, start_1, end_1, ...``."""
        n = len(self.start)
        seconds, t = np.empty(2 * n), np.empty(2 * n, dtype=np.int64)
        seconds[0::2], seconds[1::2] = self.start, self.end
        t[0::2], t[1::2] = self.start_ticks, self.end_ticks
        return seconds, t

    def offsets(self) -> np.ndarray:
        """``offsets[s]:offsets[s + 1]`` are the indices of show ``s``'s segments."""
        return np.searchsorted(self.show, np.arange(self.n_shows + 1), side="left")


def _labelled(annotation: Any, *, inserted: bool = False) -> tuple[list[Any], list[Any]] | None:
    """An Annotation's segments, sorted (or in the order they were inserted, ``dict`` order: no hashing of
    segments), and the one label of each, read from pyannote.core's ``_tracks`` (``{segment: {track:
    label}}`` sorted by segment: several times faster than ``itertracks()``, which sorts every segment's
    tracks); None when a segment carries several tracks (or none), or when ``_tracks`` is not a ``dict``
    (another version of pyannote.core)."""
    tracks = getattr(annotation, "_tracks", None)
    if not isinstance(tracks, dict):
        return None
    segments, values = (list(dict.keys(tracks)), dict.values(tracks)) if inserted else (list(tracks), tracks.values())
    try:  # unpacking one label per segment fails on a segment with several tracks (or none)
        labels = [lab for (lab,) in map(dict.values, values)]
    except (TypeError, ValueError):
        return None
    return segments, labels


def segment_arrays(
    segmentation: Segmentation, *, what: str = "segmentation", overlaps: bool = False
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.object_]]:
    """Unchecked ``(start, end, label)`` arrays of one show's segmentation, sorted by (start, end).

    Parameters
    ----------
    segmentation : Annotation, Timeline, (n, 2) array, sequence of (start, end) pairs or None
        None is an empty segmentation; pairs have the label None, and so have a Timeline's segments.
    what : str
        How to name the segmentation in error messages.
    overlaps : bool
        Keep a segment of an Annotation that carries several tracks, as one row per track (in
        ``itertracks()`` order); without it, such a segment is refused.

    Raises
    ------
    InputError
        A segmentation of another type, pairs that are not numbers or not pairs, or (without
        ``overlaps``) a segment carrying several tracks.
    """
    if segmentation is None:
        return np.empty(0), np.empty(0), np.empty(0, dtype=object)
    if is_annotation(segmentation):
        read = _labelled(segmentation)
        if read is not None:
            segs, labels = read
        else:  # a segment with several tracks, or another version of pyannote.core
            triples = list(segmentation.itertracks(yield_label=True))
            segs, labels = [s for s, _, _ in triples], [lab for _, _, lab in triples]
            repeated = None if overlaps else next((a for a, b in zip(segs, segs[1:]) if a == b), None)
            if repeated is not None:
                raise InputError(
                    f"{what}: overlapping segments (one segment carries several tracks)",
                    value=f"[{repeated.start}, {repeated.end}]",
                )
    elif is_timeline(segmentation):
        segs = list(segmentation)
        labels = [None] * len(segs)
    elif isinstance(segmentation, (np.ndarray, list, tuple)):
        return _pairs(segmentation, what)
    else:
        raise InputError(
            f"{what} must be a pyannote.core Annotation or Timeline, a sequence of (start, end) "
            "pairs or an (n, 2) array",
            value=type(segmentation).__name__,
        )
    n = len(segs)
    start = np.fromiter((s.start for s in segs), dtype=float, count=n)
    end = np.fromiter((s.end for s in segs), dtype=float, count=n)
    label = np.empty(n, dtype=object)
    label[:] = labels
    return start, end, label


def _pairs(pairs: Any, what: str) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.object_]]:
    """``(start, end, label)`` of a sequence of ``(start, end)`` pairs or an ``(n, 2)`` array, sorted
    by start (labels None)."""
    try:
        array = np.asarray(pairs, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"{what}: (start, end) pairs must be numbers", value=repr(pairs)[:80]) from None
    if array.size == 0:
        return np.empty(0), np.empty(0), np.empty(0, dtype=object)
    if array.ndim != 2 or array.shape[1] != 2:
        raise InputError(f"{what}: expected (start, end) pairs, an (n, 2) array", value=f"shape {array.shape}")
    start, end = array[:, 0], array[:, 1]
    if not (start[1:] > start[:-1]).all():  # not in order of start, two starts equal, or a NaN: sorted
        order = np.lexsort((end, start))
        start, end = start[order], end[order]
    return start.copy(), end.copy(), np.full(len(array), None, dtype=object)  # never a view of the caller's array


def from_segmentation(
    segmentation: Segmentation, *, what: str = "segmentation"
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.object_]]:
    """``(start, end, label)`` arrays of one show's segmentation, checked.

    Parameters
    ----------
    segmentation : Annotation, Timeline or None
        None is an empty segmentation.
    what : str
        How to name the segmentation in error messages (e.g. ``"reference of show X"``).

    Raises
    ------
    InputError
        A segment that is empty or not finite, or two segments that overlap.
    """
    start, end, label = segment_arrays(segmentation, what=what)
    check(start, end, what=what)
    return start, end, label


def check(
    start: np.ndarray,
    end: np.ndarray,
    *,
    what: str = "segmentation",
    show: NDArray[np.int64] | None = None,
    names: Any = None,
    overlaps: bool = False,
) -> None:
    """Raise :class:`InputError` unless the segments are finite, non-empty, sorted and disjoint
    (within each show when ``show`` is given; ``names`` then names the show in the message); with
    ``overlaps``, segments that overlap pass (predictions that may overlap, sorted by start)."""

    def where(i: int) -> str:
        return what if show is None or names is None else f"{what} of show {names[show[i]]!r}"

    bad = ~(np.isfinite(start) & np.isfinite(end) & (end > start))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"{where(i)}: empty or non-finite segment", value=f"[{start[i]}, {end[i]}]")
    huge = (np.abs(start) > MAX_SECONDS) | (np.abs(end) > MAX_SECONDS)
    if huge.any():
        i = int(np.flatnonzero(huge)[0])
        raise InputError(
            f"{where(i)}: a time beyond {MAX_SECONDS:.0f} s cannot be a time in a show (times are seconds)",
            value=f"[{start[i]}, {end[i]}]",
        )
    short = ticks(end) <= ticks(start)
    if short.any():
        i = int(np.flatnonzero(short)[0])
        raise InputError(
            f"{where(i)}: segment shorter than a microsecond (tvseg's time resolution)", value=f"[{start[i]}, {end[i]}]"
        )
    if len(start) > 1 and not overlaps:
        order_bad = start[1:] < end[:-1]
        if show is not None:
            order_bad &= show[1:] == show[:-1]
        if order_bad.any():
            i = int(np.flatnonzero(order_bad)[0])
            raise InputError(
                f"{where(i)}: overlapping segments (a topic segmentation needs disjoint segments)",
                value=f"[{start[i]}, {end[i]}] and [{start[i + 1]}, {end[i + 1]}]",
            )


def stack(parts: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> Segments:
    """One :class:`Segments` from the ``(start, end, label)`` arrays of each show, in show order."""
    if len(parts) == 1:  # one show (the per-show functions): its arrays as they are
        start, end, label = parts[0]
        show = np.zeros(len(start), dtype=np.int64)
        start, end, label = (
            np.asarray(start, dtype=float),
            np.asarray(end, dtype=float),
            np.asarray(label, dtype=object),
        )
        return Segments(show=show, start=start, end=end, label=label, n_shows=1)
    n = np.fromiter((len(p[0]) for p in parts), dtype=np.int64, count=len(parts))
    show = np.repeat(np.arange(len(parts), dtype=np.int64), n)
    if len(parts):
        start = np.concatenate([p[0] for p in parts]).astype(float, copy=False)
        end = np.concatenate([p[1] for p in parts]).astype(float, copy=False)
        label = np.concatenate([np.asarray(p[2], dtype=object) for p in parts])
    else:
        start, end, label = np.empty(0), np.empty(0), np.empty(0, dtype=object)
    return Segments(show=show, start=start, end=end, label=label, n_shows=len(parts))


def from_segmentations(
    segmentations: Iterable[Annotation | Timeline | None],
    *,
    names: Sequence[str] | None = None,
    side: str = "segmentation",
    overlaps: bool = False,
) -> Segments:
    """Stack the segmentations of many shows, checked in one vectorised pass (see :func:`check`; with
    ``overlaps``, segments that overlap pass)."""
    segments = stack(
        [
            segment_arrays(seg, what=side if names is None else f"{side} of show {names[i]!r}", overlaps=overlaps)
            for i, seg in enumerate(segmentations)
        ]
    )
    n_shows = segments.n_shows
    check(
        segments.start,
        segments.end,
        what=side,
        show=segments.show,
        names=names if names is not None or n_shows == 1 else list(range(n_shows)),  # one show: named by its side
        overlaps=overlaps,
    )
    return segments


def corpus_segments(
    mapping: Mapping[str, Any],
    shows: Sequence[str],
    *,
    side: str = "segmentation",
    overlaps: bool = False,
    checked: bool = True,
) -> Segments:
    """The :class:`Segments` of ``shows`` in ``mapping``, in that order (a show it lacks has none): what
    :func:`tvseg.evaluate` scores.

    ``mapping`` maps show ids to segmentations (:data:`Segmentation`), or is a :class:`SegmentColumns`, whose
    arrays are gathered without building an Annotation. The segments are checked as :func:`from_segmentations`
    checks them (``side`` names them in the messages; with ``overlaps``, segments that overlap pass), unless
    not ``checked``.
    """
    if isinstance(mapping, SegmentColumns):
        segments = mapping.segments_of(shows)
    else:
        segments = stack(
            [
                segment_arrays(mapping[s] if s in mapping else None, what=f"{side} of show {s!r}", overlaps=overlaps)
                for s in shows
            ]
        )
    if checked:
        check(segments.start, segments.end, what=side, show=segments.show, names=shows, overlaps=overlaps)
    return segments


class Columns(Mapping[str, _V], Generic[_V]):
    """What both kinds of columns share: the shows, their rows, the files they were read from.

    Parameters
    ----------
    names : sequence of str
        The show ids, sorted and unique.
    offsets : array of int
        ``len(names) + 1`` numbers: the rows of show ``names[k]`` are ``offsets[k]:offsets[k + 1]``.
    start, end : array of float
        Each row's times in seconds; within a show, rows are sorted by (start, end, line).
    line : array of int, optional
        The line each row was read from (``None`` when not known).
    paths : sequence, optional
        The file each show was read from, for messages.
    """

    def __init__(
        self,
        names: Iterable[str],
        offsets: ArrayLike,
        *,
        start: ArrayLike,
        end: ArrayLike,
        line: ArrayLike | None = None,
        paths: Iterable[PathOrNone] | None = None,
    ) -> None:
        self.names = tuple(names)
        self.offsets = _frozen(offsets, np.int64)
        self.start = _frozen(start, np.float64)
        self.end = _frozen(end, np.float64)
        self.line = None if line is None else _frozen(line, np.int64)
        self.paths: tuple[PathOrNone, ...] = tuple(paths) if paths is not None else (None,) * len(self.names)
        n = len(self.names)
        if (
            len(self.offsets) != n + 1
            or self.offsets[0] != 0
            or np.any(np.diff(self.offsets) < 0)
            or self.offsets[-1] != len(self.start)
            or len(self.end) != len(self.start)
            or (self.line is not None and len(self.line) != len(self.start))
            or len(self.paths) != n
        ):
            raise ValueError("offsets must run from 0 to the number of rows, one more than the shows")
        if any(a >= b for a, b in zip(self.names, self.names[1:])):
            raise ValueError("the show ids must be sorted and unique")
        self._index = dict(zip(self.names, range(n)))

    def rows(self, show: str) -> slice:
        """The rows of ``show`` in the arrays (``KeyError`` for a show that is not in them)."""
        k = self._index[show]
        return slice(int(self.offsets[k]), int(self.offsets[k + 1]))

    def path(self, show: str) -> PathOrNone:
        """The file ``show`` was read from (``None`` when not known)."""
        return self.paths[self._index[show]]

    def __getitem__(self, show: str) -> _V:
        return self._build(self._index[show])

    def __contains__(self, show: object) -> bool:
        try:
            return show in self._index
        except TypeError:  # an unhashable key
            return False

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} shows, {len(self.start)} rows)"

    def _build(self, k: int) -> _V:
        raise NotImplementedError

    def rows_of(self, shows: Sequence[str]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The rows of ``shows``, show after show in the order given, and the count of each (0 for a
        show the columns do not hold)."""
        source = np.fromiter((self._index.get(s, -1) for s in shows), dtype=np.int64, count=len(shows))
        present = source >= 0
        counts = np.zeros(len(shows), dtype=np.int64)
        first = np.zeros(len(shows), dtype=np.int64)
        counts[present] = self.offsets[source[present] + 1] - self.offsets[source[present]]
        first[present] = self.offsets[source[present]]
        # row j of show k is first[k] + j: a running index minus where each show's block starts
        block_start = np.repeat(np.cumsum(counts) - counts, counts)
        rows = np.repeat(first, counts) + (np.arange(int(counts.sum()), dtype=np.int64) - block_start)
        return rows, counts

    def _selects_all(self, shows: Iterable[str]) -> bool:
        """Whether ``shows`` names every show the columns hold: :meth:`select` then gives them as they are
        (no copy of the arrays)."""
        return len({name for name in shows if name in self._index}) == len(self._index)

    def _selected(self, shows: Iterable[str]) -> tuple[list[str], NDArray[np.int64], NDArray[np.int64], dict[str, Any]]:
        """The names among ``shows`` that the arrays hold (in their order), their offsets, the rows they
        take and the common keyword arguments of the constructor (for :meth:`select`)."""
        names = sorted((name for name in set(shows) if name in self._index), key=self._index.__getitem__)
        rows, counts = self.rows_of(names)
        offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        common = {
            "start": self.start[rows],
            "end": self.end[rows],
            "paths": [self.paths[self._index[name]] for name in names],
            "line": None if self.line is None else self.line[rows],
        }
        return names, offsets, rows, common


class SegmentColumns(Columns["Annotation"]):
    """Topic segmentations of many shows: a mapping of show id to ``pyannote.core.Annotation``.

    Parameters
    ----------
    names, offsets, start, end, line, paths
        As for :class:`Columns`.
    label : array of str
        Each segment's label (:data:`tvseg.readers.NO_LABEL` when it has none).
    domain : {"time", "units"}
        ``"units"``: ``start`` and ``end`` are unit positions, not seconds (a text corpus, whose
        sentence ``i`` spans ``[i, i + 1)``: :mod:`tvseg.readers.text_corpora`), scored in its units.
    score : array of float, optional
        Each segment's score, the confidence of the boundary at its start (NaN: none;
        :mod:`tvseg.retrieval.confidence`); None when no segment has one.
    end_score : array of float, optional
        With ``score``: the confidence of the boundary at each segment's end where no segment starts, the
        score of the segment that followed it in its show as read, kept when a crop to a UEM left that
        segment out (NaN: none). None: the next row's score in the show (:meth:`end_scores`).

    Notes
    -----
    ``columns[show]`` is a new Annotation of ``uri=show`` whose track ``i`` is the show's row ``i``
    (segment ``[start, end]``, the row's label).
    """

    def __init__(
        self,
        names: Iterable[str],
        offsets: ArrayLike,
        *,
        start: ArrayLike,
        end: ArrayLike,
        label: ArrayLike,
        line: ArrayLike | None = None,
        paths: Iterable[PathOrNone] | None = None,
        domain: str = "time",
        score: ArrayLike | None = None,
        end_score: ArrayLike | None = None,
    ) -> None:
        super().__init__(names, offsets, start=start, end=end, line=line, paths=paths)
        if domain not in ("time", "units"):
            raise ValueError(f"domain is 'time' or 'units', not {domain!r}")
        self.domain = domain
        self.label = _frozen(label, object)
        if len(self.label) != len(self.start):
            raise ValueError("one label per row")
        self.score = None if score is None else _frozen(score, np.float64)
        if self.score is not None and len(self.score) != len(self.start):
            raise ValueError("one score per row")
        self.end_score = None if end_score is None else _frozen(end_score, np.float64)
        if self.end_score is not None and (self.score is None or len(self.end_score) != len(self.start)):
            raise ValueError("one end score per row, beside the scores")

    @classmethod
    def from_annotations(
        cls, annotations: Mapping[str, Annotation], *, paths: Mapping[str, PathOrNone] | None = None
    ) -> SegmentColumns:
        """Columns holding the segments of ``{show: Annotation}`` in time order (tracks numbered anew).

        ``paths`` maps a show to its file.
        """
        paths = paths or {}
        names = sorted(annotations)
        segments = stack([segment_arrays(annotations[name], overlaps=True) for name in names])
        return cls(
            names,
            segments.offsets(),
            start=segments.start,
            end=segments.end,
            label=segments.label,
            paths=[paths.get(name) for name in names],
        )

    def select(self, shows: Iterable[str]) -> SegmentColumns:
        """The columns of the ``shows`` they hold (others are ignored): a shard of the corpus, read from
        the arrays without building an Annotation (:mod:`tvseg.scale`)."""
        shows = list(shows)
        if self._selects_all(shows):
            return self
        names, offsets, rows, common = self._selected(shows)
        score = None if self.score is None else self.score[rows]
        end_score = None if self.end_score is None else self.end_score[rows]
        return SegmentColumns(
            names, offsets, label=self.label[rows], domain=self.domain, score=score, end_score=end_score, **common
        )

    def end_scores(self) -> NDArray[np.float64] | None:
        """The confidence of the boundary at each row's end where no segment starts: :attr:`end_score`, else
        the next row's score in the show (NaN after a show's last row); None without scores."""
        if self.score is None or self.end_score is not None:
            return self.end_score
        following = np.append(self.score[1:], np.nan)
        counts = np.diff(self.offsets)
        following[self.offsets[1:][counts > 0] - 1] = np.nan
        return following

    def segments_of(self, shows: Sequence[str]) -> Segments:
        """The :class:`Segments` of ``shows``, in that order (a show the columns lack has none), unchecked
        (:func:`corpus_segments`)."""
        rows, counts = self.rows_of(shows)
        return Segments(
            show=np.repeat(np.arange(len(shows), dtype=np.int64), counts),
            start=self.start[rows],
            end=self.end[rows],
            label=self.label[rows],
            n_shows=len(shows),
        )

    def _build(self, k: int) -> Annotation:
        from pyannote.core import Annotation, Segment

        a, b = int(self.offsets[k]), int(self.offsets[k + 1])
        annotation = Annotation(uri=self.names[k])
        rows = zip(self.start[a:b].tolist(), self.end[a:b].tolist(), self.label[a:b].tolist())
        for track, (start, end, label) in enumerate(rows):
            annotation[Segment(start, end), track] = label
        return annotation

    def sentence_units(self) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.float64]]:
        """The units of a text corpus (``domain == "units"``: :mod:`tvseg.readers.text_corpora`): each show's
        sentences, sentence ``i`` spanning ``[i, i + 1)``, as ``(show index, start, end)``."""
        counts = np.asarray(list(self.ends().values()), dtype=np.int64)
        offsets = np.concatenate(([0], np.cumsum(counts)))
        start = (np.arange(offsets[-1]) - np.repeat(offsets[:-1], counts)).astype(float)
        return np.repeat(np.arange(len(counts), dtype=np.int64), counts), start, start + 1

    def ends(self) -> dict[str, float]:
        """``{show: end of its last segment}`` (0.0 for a show without segments), in show order."""
        counts = np.diff(self.offsets)
        last = np.zeros(len(self.names))
        filled = np.flatnonzero(counts)
        if filled.size:
            last[filled] = np.maximum.reduceat(self.end, self.offsets[filled])
        return dict(zip(self.names, last.tolist()))


class RegionColumns(Columns["Timeline"]):
    """Evaluated regions (a UEM) of many shows: a mapping of show id to ``pyannote.core.Timeline``.

    Parameters
    ----------
    names, offsets, start, end, line, paths
        As for :class:`Columns`: each row one region, sorted within a show.

    Notes
    -----
    ``columns[show]`` is a new Timeline of ``uri=show`` (the adapter for pyannote); tvseg itself reads
    the arrays (:meth:`merged`), so that a UEM read from a file never builds a pyannote object.
    """

    @classmethod
    def from_timelines(cls, timelines: Mapping[str, Any]) -> RegionColumns:
        """Columns holding the regions of ``{show: Timeline or (start, end) pairs}`` (a show of no
        region is left out, as an empty Timeline is no region)."""
        parts = {show: segment_arrays(value, what=f"uem of show {show!r}") for show, value in timelines.items()}
        names = sorted(show for show, part in parts.items() if len(part[0]))
        regions = stack([parts[name] for name in names])
        return cls(names, regions.offsets(), start=regions.start, end=regions.end)

    def select(self, shows: Iterable[str]) -> RegionColumns:
        """The regions of the ``shows`` they hold (others are ignored)."""
        shows = list(shows)
        if self._selects_all(shows):
            return self
        names, offsets, _, common = self._selected(shows)
        return RegionColumns(names, offsets, **common)

    def merged(self, show: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """``show``'s regions merged as pyannote's ``Timeline.support()`` merges them
        (:func:`merge_regions`); ``KeyError`` for a show they do not hold."""
        rows = self.rows(show)
        return merge_regions(self.start[rows], self.end[rows])

    def _build(self, k: int) -> Timeline:
        from pyannote.core import Segment, Timeline

        a, b = int(self.offsets[k]), int(self.offsets[k + 1])
        segments = [Segment(s, e) for s, e in zip(self.start[a:b].tolist(), self.end[a:b].tolist())]
        return Timeline(segments, uri=self.names[k])


def merge_regions(start: ArrayLike, end: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Regions sorted by start merged as pyannote's ``Timeline.support()`` merges them: a region starting
    no more than :data:`~tvseg.pyannote_objects.SEGMENT_PRECISION` after the end of those before it joins
    them. ``O(n)`` on sorted regions."""
    start, end = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
    if not len(start):
        return start, end
    reach = np.maximum.accumulate(end)  # the end of the merged region so far
    new = np.ones(len(start), dtype=bool)
    new[1:] = (start[1:] - reach[:-1]) > SEGMENT_PRECISION  # pyannote: a gap that is not empty
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, len(start) - 1)
    return start[first], reach[last]


class UnitColumns(Columns["pd.DataFrame"]):
    """Transcript units (breath groups, caption cues) of many shows: a mapping of show id to
    ``pandas.DataFrame``.

    Parameters
    ----------
    names, offsets, start, end, line, paths
        As for :class:`Columns`.
    text, speaker, topic : array of str, optional
        The text columns, one value per row, given when some show has them.
    layout : sequence of tuple of str, optional
        For each show, the text columns its frame holds (default: every one given).

    Notes
    -----
    ``columns[show]`` is a new DataFrame of the show's rows, with the columns ``start, end`` (float
    seconds) then the show's text columns, and a ``RangeIndex``.
    """

    text: NDArray[np.object_] | None
    speaker: NDArray[np.object_] | None
    topic: NDArray[np.object_] | None

    def __init__(
        self,
        names: Iterable[str],
        offsets: ArrayLike,
        *,
        start: ArrayLike,
        end: ArrayLike,
        line: ArrayLike | None = None,
        paths: Iterable[PathOrNone] | None = None,
        text: ArrayLike | None = None,
        speaker: ArrayLike | None = None,
        topic: ArrayLike | None = None,
        layout: Iterable[Iterable[str]] | None = None,
    ) -> None:
        super().__init__(names, offsets, start=start, end=end, line=line, paths=paths)
        given = {"text": text, "speaker": speaker, "topic": topic}
        for name, values in given.items():
            if values is not None:
                values = _frozen(values, object)
                if len(values) != len(self.start):
                    raise ValueError(f"one {name} per row")
            setattr(self, name, values)
        present = tuple(name for name in UNIT_TEXT_COLUMNS if given[name] is not None)
        self.layout = (present,) * len(self.names) if layout is None else tuple(tuple(x) for x in layout)
        if len(self.layout) != len(self.names) or any(set(x) - set(present) for x in self.layout):
            raise ValueError("layout names, for each show, text columns that are given")

    def columns_of(self, show: str) -> tuple[str, ...]:
        """The columns of ``show``'s frame: ``("start", "end", *its text columns)``."""
        return ("start", "end", *self.layout[self._index[show]])

    @classmethod
    def from_frames(
        cls, frames: Mapping[str, pd.DataFrame], *, paths: Mapping[str, PathOrNone] | None = None
    ) -> UnitColumns:
        """Columns holding ``{show: DataFrame}`` (columns ``start, end`` and any of ``text, speaker, topic``),
        each show's rows in the order given. ``paths`` maps a show to its file."""
        paths = paths or {}
        names = sorted(frames)
        layout = [tuple(c for c in UNIT_TEXT_COLUMNS if c in frames[name].columns) for name in names]

        def column(c: str, dtype: type) -> NDArray[Any]:
            parts = [
                frames[n][c].to_numpy(dtype=dtype) if c in frames[n] else np.full(len(frames[n]), None) for n in names
            ]
            return np.concatenate([*parts, np.zeros(0, dtype=dtype)])

        return cls(
            names,
            np.concatenate(([0], np.cumsum([len(frames[name]) for name in names], dtype=np.int64))),
            start=column("start", np.float64),
            end=column("end", np.float64),
            paths=[paths.get(name) for name in names],
            layout=layout,
            **{c: column(c, object) for c in UNIT_TEXT_COLUMNS if any(c in x for x in layout)},
        )

    def select(self, shows: Iterable[str]) -> UnitColumns:
        """The columns of the ``shows`` they hold (others are ignored), as :meth:`SegmentColumns.select`."""
        shows = list(shows)
        if self._selects_all(shows):
            return self
        names, offsets, rows, common = self._selected(shows)
        texts = {c: getattr(self, c)[rows] for c in UNIT_TEXT_COLUMNS if getattr(self, c) is not None}
        layout = [self.layout[self._index[name]] for name in names]
        return UnitColumns(names, offsets, layout=layout, **texts, **common)

    def _build(self, k: int) -> pd.DataFrame:
        a, b = int(self.offsets[k]), int(self.offsets[k + 1])
        data: dict[str, NDArray[Any]] = {"start": self.start[a:b].copy(), "end": self.end[a:b].copy()}
        for name in self.layout[k]:
            data[name] = getattr(self, name)[a:b].copy()
        import pandas as pd

        return pd.DataFrame(data)


def unit_arrays(units: Mapping[str, Any], shows: Sequence[str]) -> tuple[NDArray[np.int64], NDArray[Any], NDArray[Any]]:
    """``(show index, start, end)`` of the units of ``shows`` (float seconds, in each show's row order),
    from :class:`UnitColumns` or any mapping of show id to a ``start, end`` table."""
    if not isinstance(units, Columns):
        import pandas as pd

        frames = {show: units[show] for show in shows if units.get(show) is not None}
        for show, table in frames.items():
            if not isinstance(table, pd.DataFrame) or not {"start", "end"} <= set(table.columns):
                raise InputError(f"units of show {show!r} must be a DataFrame with columns start and end")
        units = UnitColumns.from_frames(frames)
    rows, counts = units.rows_of(shows)
    return np.repeat(np.arange(len(shows), dtype=np.int64), counts), units.start[rows], units.end[rows]


def lex_order(show: np.ndarray, time: np.ndarray) -> np.ndarray:
    """Stable order of the pairs ``(show, time)``, compared lexicographically (equal pairs keep
    their order).

    The pairs are packed into one complex number (show as the real part, exact for integers below
    :math:`2^{53}`; time as the imaginary part, unchanged), which numpy sorts lexicographically
    (real part, then imaginary part). A stable sort of the concatenation of two sorted runs is a
    merge, several times faster than ``numpy.lexsort`` over the two keys.
    """
    key = np.empty(len(time), dtype=np.complex128)
    key.real = show
    key.imag = time
    return np.argsort(key, kind="stable")


def count_before(
    show_a: np.ndarray, t_a: np.ndarray, show_q: np.ndarray, t_q: np.ndarray, *, inclusive: bool
) -> np.ndarray:
    """For each query ``(show_q, t_q)``, how many keys ``(show_a, t_a)`` are lexicographically before it.

    ``inclusive=False`` counts keys strictly before the query (``searchsorted(side="left")``),
    ``inclusive=True`` also counts keys equal to it (``side="right"``). Show and time are compared
    as a pair (a stable lexicographic sort, :func:`lex_order`), never folded into one float, so no
    precision is lost.
    """
    packed = _packed_keys(show_a, t_a, show_q, t_q)
    if packed is not None:
        return np.searchsorted(packed[0], packed[1], side="right" if inclusive else "left")
    n, m = len(t_a), len(t_q)
    # on equal keys a query sorts after the keys (inclusive) or before them (exclusive): the
    # stable sort keeps the concatenation order of equal pairs
    if inclusive:
        shows, times = np.concatenate([show_a, show_q]), np.concatenate([t_a, t_q])
        is_query = np.arange(n + m) >= n
    else:
        shows, times = np.concatenate([show_q, show_a]), np.concatenate([t_q, t_a])
        is_query = np.arange(n + m) < m
    order = lex_order(shows, times)
    at_query = is_query[order]
    keys_so_far = np.cumsum(~at_query)
    result = np.empty(m, dtype=np.int64)
    result[order[at_query] - (n if inclusive else 0)] = keys_so_far[at_query]
    return result


def _packed_keys(
    show_a: np.ndarray, t_a: np.ndarray, show_q: np.ndarray, t_q: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """The pairs of :func:`count_before` as one ``int64`` each, :math:`show \\cdot w + (t - t_{min})` with
    :math:`w` one more than the range of the times (the same order as the pairs, no value lost), when the
    times are integers (microseconds), the shows not negative, the packed values below :math:`2^{62}` and
    the keys ``(show_a, t_a)`` in order already; else None (the merge of :func:`count_before`)."""
    if len(t_a) == 0 or len(t_q) == 0 or t_a.dtype.kind != "i" or t_q.dtype.kind != "i":
        return None
    if show_a.dtype.kind not in "iu" or show_q.dtype.kind not in "iu":
        return None
    low = min(int(t_a.min()), int(t_q.min()))
    width = max(int(t_a.max()), int(t_q.max())) - low + 1
    first = min(int(show_a.min()), int(show_q.min()))
    last = max(int(show_a.max()), int(show_q.max()))
    if first < 0 or (last + 1) * width >= _INT64_SAFE:
        return None
    key_a = show_a.astype(np.int64) * width + (t_a.astype(np.int64) - low)
    if np.count_nonzero(key_a[1:] < key_a[:-1]):
        return None
    return key_a, show_q.astype(np.int64) * width + (t_q.astype(np.int64) - low)


class SpanCrop(NamedTuple):
    """Segments cropped to their show's regions (:func:`crop_spans`), one entry per segment.

    Attributes
    ----------
    kept : ndarray of bool
        Whether some part of the segment is inside a region (False: left out).
    start, end : ndarray of float
        The cropped segment: from the start of its first part inside a region to the end of its last
        (the segment itself where not kept).
    parts : ndarray of int
        How many regions the segment meets (0 where not kept; more than 1: it spans a gap).
    inside : ndarray of int64
        The measure of its parts inside the regions, in microseconds (:mod:`tvseg.exact`).
    """

    kept: np.ndarray
    start: np.ndarray
    end: np.ndarray
    parts: np.ndarray
    inside: np.ndarray


def crop_spans(
    start: ArrayLike,
    end: ArrayLike,
    region_start: ArrayLike,
    region_end: ArrayLike,
    *,
    show: ArrayLike | None = None,
    region_show: ArrayLike | None = None,
) -> SpanCrop:
    """Segments ``[start, end]`` (seconds) cropped to their show's regions: the one crop to the
    evaluated region, for the readers, :func:`tvseg.evaluate` and the per-show functions.

    A part of a segment inside a region counts when it is not empty as pyannote has it (longer than
    :data:`~tvseg.pyannote_objects.SEGMENT_PRECISION`); the segment is cut before its first part and
    after its last, so that a segment spanning a gap stays one segment (:mod:`tvseg.retrieval.region`).

    Parameters
    ----------
    start, end : array of float
        The segments.
    region_start, region_end : array of float
        The regions, sorted by ``(show, start)`` and disjoint within a show (as
        :func:`tvseg.readers.uem.uem_regions` merges them).
    show, region_show : array of int, optional
        Each segment's and each region's show (segments sorted by show); without them, all are of
        one show. A segment of a show without a region is left out.

    Notes
    -----
    ``O((n + r) log(n + r))`` for ``n`` segments and ``r`` regions.
    """
    start = np.asarray(start, dtype=float)
    end = np.asarray(end, dtype=float)
    region_start = np.asarray(region_start, dtype=float)
    region_end = np.asarray(region_end, dtype=float)
    n = len(region_start)
    if n == 0 or len(start) == 0:
        none = np.zeros(len(start), dtype=np.int64)
        return SpanCrop(np.zeros(len(start), dtype=bool), start, end, none, none.copy())
    # the regions a segment meets: the first ending after its start, up to the last starting before its end
    shows = None if show is None else (np.asarray(show, dtype=np.int64), np.asarray(region_show, dtype=np.int64))
    if shows is None:
        first = np.searchsorted(region_end, start, side="right")
        last = np.searchsorted(region_start, end, side="left") - 1
    else:
        first = count_before(shows[1], region_end, shows[0], start, inclusive=True)
        last = count_before(shows[1], region_start, shows[0], end, inclusive=False) - 1
    f, g = np.minimum(first, n - 1), np.maximum(last, 0)

    def part(k: NDArray[np.int64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        return np.maximum(start, region_start[k]), np.minimum(end, region_end[k])

    (fs, fe), (ls, le) = part(f), part(g)
    # every region strictly between the first and the last lies inside the segment: only those two
    # may meet it in an empty part
    first_part = np.where((fe - fs) > SEGMENT_PRECISION, first, first + 1)
    last_part = np.where((le - ls) > SEGMENT_PRECISION, last, last - 1)
    kept = (first <= last) & (first_part <= last_part)
    if shows is not None:
        kept &= (shows[1][f] == shows[0]) & (shows[1][g] == shows[0])
    a, b = np.clip(first_part, 0, n - 1), np.clip(last_part, 0, n - 1)
    (new_start, _), (_, new_end) = part(a), part(b)
    parts = np.where(kept, last_part - first_part + 1, 0)
    # inside, exactly: the first and last parts, and the whole regions between them
    length = ticks(region_end) - ticks(region_start)
    before = np.concatenate(([0], np.cumsum(length)))
    between = np.where(parts > 2, before[b] - before[np.minimum(a + 1, b)], 0)
    first_len = ticks(np.minimum(end, region_end[a])) - ticks(new_start)
    last_len = ticks(new_end) - ticks(np.maximum(start, region_start[b]))
    inside = np.where(kept, first_len + np.where(parts > 1, last_len, 0) + between, 0)
    return SpanCrop(
        kept, np.where(kept, new_start, start), np.where(kept, new_end, end), parts, inside.astype(np.int64)
    )
