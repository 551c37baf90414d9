"""The segmentations and the units of many shows as sorted columns (flat arrays), read lazily per show.

:func:`tvseg.read_segments` returns a :class:`SegmentColumns` and :func:`tvseg.read_units` a
:class:`UnitColumns`: both are mappings of show id to what the readers returned before (one
``pyannote.core.Annotation`` or one ``pandas.DataFrame`` per show), but they hold the data as one
set of arrays for the whole corpus, sorted by show and, within a show, by (start, end, line). The
per-show object is built when a show is first looked up, then kept.

A user may add, replace or remove shows: the new values are kept beside the arrays, which then no
longer tell the whole truth (:attr:`pristine` is false), and code that reads the arrays directly
must read the mapping instead. What both kinds share (the offsets, the lazy mapping, the user's
changes) is :class:`tvseg.columns_base.Columns`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, DTypeLike, NDArray

from tvseg.columns_base import Columns, PathOrNone

if TYPE_CHECKING:
    from pyannote.core import Annotation

__all__ = ["SegmentColumns", "UnitColumns", "UNIT_TEXT_COLUMNS"]

UNIT_TEXT_COLUMNS = ("text", "speaker", "topic")
"""The optional text columns of a unit table, in the order its frames hold them."""


class SegmentColumns(Columns["Annotation"]):
    """Topic segmentations of many shows: a mapping of show id to ``pyannote.core.Annotation``.

    Parameters
    ----------
    names : sequence of str
        The show ids, sorted.
    offsets : array of int
        ``len(names) + 1`` numbers: the segments of show ``names[k]`` are the rows
        ``offsets[k]:offsets[k + 1]``.
    start, end : array of float
        Each segment's times in seconds; within a show, rows are sorted by (start, end, line).
    label : array of str
        Each segment's label (:data:`tvseg.readers.NO_LABEL` when it has none).
    line : array of int, optional
        The line each segment was read from (``None`` when not known).
    paths : sequence, optional
        The file each show was read from, for messages.

    Notes
    -----
    ``columns[show]`` is the Annotation of ``uri=show`` whose track ``i`` is the show's row ``i``
    (segment ``[start, end]``, the row's label), built on first use and kept.
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
    ) -> None:
        super().__init__(names, offsets, start=start, end=end, line=line, paths=paths)
        self.label = np.asarray(label, dtype=object)
        if len(self.label) != len(self.start):
            raise ValueError("one label per row")

    @classmethod
    def from_annotations(
        cls, annotations: Mapping[str, Annotation], *, paths: Mapping[str, PathOrNone] | None = None
    ) -> SegmentColumns:
        """Columns holding ``{show: Annotation}``; a show whose tracks are not numbered ``0, 1, ...`` in
        time order (after a UEM split one, say) is kept as given (the columns are then not pristine).

        ``paths`` maps a show to its file.
        """
        paths = paths or {}
        names = sorted(annotations)
        starts: list[float] = []
        ends: list[float] = []
        labels: list[Any] = []
        counts: list[int] = []
        odd: dict[str, Annotation] = {}
        for name in names:
            annotation = annotations[name]
            tracks = list(annotation.itertracks(yield_label=True))
            counts.append(len(tracks))
            starts += [segment.start for segment, _, _ in tracks]
            ends += [segment.end for segment, _, _ in tracks]
            labels += [label for _, _, label in tracks]
            if [track for _, track, _ in tracks] != list(range(len(tracks))) or annotation.uri != name:
                odd[name] = annotation
        columns = cls(
            names,
            np.concatenate(([0], np.cumsum(counts, dtype=np.int64))),
            start=starts,
            end=ends,
            label=np.array(labels, dtype=object),
            paths=[paths.get(name) for name in names],
        )
        columns._overrides.update(odd)
        return columns

    def select(self, shows: Iterable[str]) -> SegmentColumns:
        """Pristine columns of the ``shows`` they hold (others are ignored): a shard of the corpus,
        read from the arrays without building an Annotation (:mod:`tvseg.scale`)."""
        names, offsets, rows, common = self._selected(shows)
        return SegmentColumns(names, offsets, label=self.label[rows], **common)

    def _build(self, k: int) -> Annotation:
        from pyannote.core import Annotation, Segment

        a, b = int(self.offsets[k]), int(self.offsets[k + 1])
        annotation = Annotation(uri=self.names[k])
        rows = zip(self.start[a:b].tolist(), self.end[a:b].tolist(), self.label[a:b].tolist())
        for track, (start, end, label) in enumerate(rows):
            annotation[Segment(start, end), track] = label
        return annotation

    def ends(self) -> dict[str, float]:
        """``{show: end of its last segment}`` (0.0 for a show without segments), in iteration order."""
        counts = np.diff(self.offsets)
        last = np.zeros(len(self.names))
        filled = np.flatnonzero(counts)
        if filled.size:
            last[filled] = np.maximum.reduceat(self.end, self.offsets[filled])
        result: dict[str, float] = {}
        for name in self:
            if name in self._overrides:
                result[name] = float(self._overrides[name].get_timeline().extent().end)
            else:
                result[name] = float(last[self._index[name]])
        return result


class UnitColumns(Columns[pd.DataFrame]):
    """Transcript units (breath groups, caption cues) of many shows: a mapping of show id to
    ``pandas.DataFrame``.

    Parameters
    ----------
    names, offsets, start, end, line, paths
        As for :class:`SegmentColumns`.
    text, speaker, topic : array of str, optional
        The text columns, one value per row, given when some show has them.
    layout : sequence of tuple of str, optional
        For each show, the text columns its frame holds (default: every one given).

    Notes
    -----
    ``columns[show]`` is the DataFrame of the show's rows, with the columns ``start, end`` (float
    seconds) then the show's text columns, and a ``RangeIndex``; built on first use and kept.
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
                values = np.asarray(values, dtype=object)
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
        cls,
        frames: Mapping[str, pd.DataFrame],
        *,
        paths: Mapping[str, PathOrNone] | None = None,
        lines: Mapping[str, ArrayLike | None] | None = None,
    ) -> UnitColumns:
        """Columns holding ``{show: DataFrame}``; a frame the columns would not give back equal (another
        index, column or dtype) is kept as given (the columns are then not pristine).

        ``paths`` maps a show to its file; ``lines`` a show to the line of each of its rows.
        """
        paths, lines = paths or {}, lines or {}
        names = sorted(frames)
        parts: dict[str, list[NDArray[Any]]] = {name: [] for name in ("start", "end", "line", *UNIT_TEXT_COLUMNS)}
        counts: list[int] = []
        layout: list[tuple[str, ...]] = []
        odd: dict[str, pd.DataFrame] = {}
        for name in names:
            frame = frames[name]
            extra = tuple(c for c in frame.columns if c not in ("start", "end"))
            regular = (
                isinstance(frame, pd.DataFrame)
                and list(frame.columns[:2]) == ["start", "end"]
                and extra == tuple(c for c in UNIT_TEXT_COLUMNS if c in extra)
                and isinstance(frame.index, pd.RangeIndex)
                and frame.index.start == 0
                and frame.index.step == 1
                and all(frame[c].dtype == np.float64 for c in ("start", "end"))
                and all(frame[c].dtype == "str" for c in extra)
            )
            kept: pd.DataFrame | None = frame
            if not regular:
                odd[name] = frame
                extra, kept = (), frame.iloc[:0] if isinstance(frame, pd.DataFrame) else None
            n = 0 if kept is None else len(kept)
            counts.append(n)
            layout.append(extra)
            parts["start"].append(np.zeros(0) if kept is None or not n else kept["start"].to_numpy(dtype=np.float64))
            parts["end"].append(np.zeros(0) if kept is None or not n else kept["end"].to_numpy(dtype=np.float64))
            parts["line"].append(
                np.asarray(lines.get(name, np.zeros(n, dtype=np.int64)), dtype=np.int64)[:n]
                if name not in odd
                else np.zeros(0, dtype=np.int64)
            )
            for c in UNIT_TEXT_COLUMNS:
                parts[c].append(
                    kept[c].to_numpy(dtype=object)
                    if c in extra and kept is not None
                    else np.full(n, None, dtype=object)
                )
        used = {c for x in layout for c in x}

        def join(xs: list[NDArray[Any]], dtype: DTypeLike) -> NDArray[Any]:
            return np.concatenate(xs) if xs else np.zeros(0, dtype=dtype)

        columns = cls(
            names,
            np.concatenate(([0], np.cumsum(counts, dtype=np.int64))),
            start=join(parts["start"], float),
            end=join(parts["end"], float),
            line=join(parts["line"], np.int64) if lines else None,
            paths=[paths.get(name) for name in names],
            layout=layout,
            **{c: join(parts[c], object) for c in UNIT_TEXT_COLUMNS if c in used},
        )
        columns._overrides.update(odd)
        return columns

    def select(self, shows: Iterable[str]) -> UnitColumns:
        """Pristine columns of the ``shows`` they hold (others are ignored), as
        :meth:`SegmentColumns.select`."""
        names, offsets, rows, common = self._selected(shows)
        texts = {c: getattr(self, c)[rows] for c in UNIT_TEXT_COLUMNS if getattr(self, c) is not None}
        layout = [self.layout[self._index[name]] for name in names]
        return UnitColumns(names, offsets, layout=layout, **texts, **common)

    def _build(self, k: int) -> pd.DataFrame:
        a, b = int(self.offsets[k]), int(self.offsets[k + 1])
        data: dict[str, NDArray[Any]] = {"start": self.start[a:b].copy(), "end": self.end[a:b].copy()}
        for name in self.layout[k]:
            data[name] = getattr(self, name)[a:b].copy()
        return pd.DataFrame(data)
