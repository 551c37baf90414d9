"""The corpus path from columns: segmentations and units read as sorted columns
(:class:`tvseg.columns.SegmentColumns`, :class:`tvseg.columns.UnitColumns`) to the flat arrays the
kernels score, without a pyannote object per show.

:func:`tvseg.evaluate` takes this path when the reference and every system are ``SegmentColumns``
(as :func:`tvseg.read_segments` returns them); otherwise it reads each show's Annotation. Both
paths give the same arrays (``tests/test_columnar_path.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd

from tvseg.columns import Columns, Segments, check
from tvseg.errors import InputError

__all__ = ["is_columnar", "segments_from_columns", "unit_arrays"]


def is_columnar(mapping) -> bool:
    """True when ``mapping`` is a columns object (its arrays are the whole truth)."""
    return isinstance(mapping, Columns)


def _gather(columns, shows: Sequence[str]):
    """Row indices of ``shows``' rows in ``columns`` (in show order) and the count per show."""
    index = {name: k for k, name in enumerate(columns.names)}
    source = np.fromiter((index.get(s, -1) for s in shows), dtype=np.int64, count=len(shows))
    offsets = np.asarray(columns.offsets, dtype=np.int64)
    present = source >= 0
    counts = np.zeros(len(shows), dtype=np.int64)
    counts[present] = offsets[source[present] + 1] - offsets[source[present]]
    first = np.zeros(len(shows), dtype=np.int64)
    first[present] = offsets[source[present]]
    total = int(counts.sum())
    # row j of show k is first[k] + j: a running index minus where each show's block starts
    block_start = np.repeat(np.cumsum(counts) - counts, counts)
    rows = np.repeat(first, counts) + (np.arange(total, dtype=np.int64) - block_start)
    return rows, counts


def segments_from_columns(columns, shows: Sequence[str], *, side: str) -> Segments:
    """The :class:`Segments` of ``shows`` (a show absent from ``columns`` has none), checked as
    :func:`tvseg.columns.from_segmentations` checks them."""
    rows, counts = _gather(columns, shows)
    label = np.asarray(columns.label, dtype=object)[rows]
    segments = Segments(
        show=np.repeat(np.arange(len(shows), dtype=np.int64), counts),
        start=np.asarray(columns.start, dtype=float)[rows],
        end=np.asarray(columns.end, dtype=float)[rows],
        label=label,
        n_shows=len(shows),
    )
    check(segments.start, segments.end, what=side, show=segments.show, names=list(shows))
    return segments


def unit_arrays(units: Mapping, shows: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(show index, start, end)`` of the units of ``shows`` (float seconds, in each show's row order),
    from :class:`tvseg.columns.UnitColumns` or any mapping of show id to a ``start, end`` table."""
    if is_columnar(units):
        columns = cast("Columns[Any]", units)  # a UnitColumns
        rows, counts = _gather(columns, shows)
        return (
            np.repeat(np.arange(len(shows), dtype=np.int64), counts),
            np.asarray(columns.start, dtype=float)[rows],
            np.asarray(columns.end, dtype=float)[rows],
        )
    parts_s, parts_e, counts = [], [], []
    for show in shows:
        table = units.get(show)
        if table is None:
            counts.append(0)
            continue
        if not isinstance(table, pd.DataFrame) or not {"start", "end"} <= set(table.columns):
            raise InputError(f"units of show {show!r} must be a DataFrame with columns start and end")
        parts_s.append(table["start"].to_numpy(dtype=float))
        parts_e.append(table["end"].to_numpy(dtype=float))
        counts.append(len(table))
    show_index = np.repeat(np.arange(len(shows), dtype=np.int64), np.asarray(counts, dtype=np.int64))
    if not parts_s:
        return show_index, np.empty(0), np.empty(0)
    return show_index, np.concatenate(parts_s), np.concatenate(parts_e)
