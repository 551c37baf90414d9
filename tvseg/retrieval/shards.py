"""One system scored on consecutive shards of shows, joined into the scores of the whole corpus.

Every component, segment, partner and boundary of :class:`tvseg.retrieval.corpus.ShowScores` belongs to
one show, and scoring a show reads that show alone: the scores of shards ``0 .. k`` of a sorted corpus,
joined by :func:`join_scores` (arrays concatenated in show order, show indices and indices into the
other side's arrays moved by what the shards before hold; the evaluated regions of a UEM with gaps
joined, :func:`join_regions`), are the scores of the corpus scored at once, array for array
(``tests/test_scale.py``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from tvseg.columns import Segments
from tvseg.exact import ticks
from tvseg.retrieval.corpus import ShowScores
from tvseg.retrieval.coverage import Matching, Partners
from tvseg.retrieval.region import Region

__all__ = ["join_frames", "join_segments", "join_regions", "join_scores"]


def _cat(arrays):
    """The arrays end to end; empty ones left out (an empty shard may hold another dtype)."""
    full = [a for a in arrays if len(a)]
    return np.concatenate(full) if full else arrays[0]


def _shifted(arrays, shifts):
    """Indices of each shard moved by its shift (-1, "none", kept)."""
    return _cat([np.where(a >= 0, a + s, a) if len(a) else a for a, s in zip(arrays, shifts)])


def join_frames(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Tables of the same columns, one row per show, end to end, built as :func:`tvseg.retrieval.corpus.score_shows` builds one
    (from a dict of columns): the same memory layout, so that sums over it add in the same order."""
    index = pd.Index([name for frame in frames for name in frame.index], name=frames[0].index.name)
    full = [frame for frame in frames if len(frame)]
    dtypes = {dtype for frame in full for dtype in frame.dtypes}
    if len(dtypes) != 1 or next(iter(dtypes)).kind not in "fiub":
        return pd.DataFrame(
            {c: _cat([frame[c].to_numpy() for frame in frames]) for c in frames[0].columns}, index=index
        )
    # columns of one dtype: the one block a dict of them makes, (columns, rows), each column written in place
    # (no column held besides it: the shards and the block alone are in memory)
    block = np.empty((len(frames[0].columns), len(index)), dtype=next(iter(dtypes)))
    for row, column in zip(block, frames[0].columns):
        np.concatenate([frame[column].to_numpy() for frame in full], out=row)
    return pd.DataFrame(block.T, index=index, columns=list(frames[0].columns), copy=False)


def join_segments(parts: list[Segments]) -> Segments:
    """The segments of consecutive shards as one :class:`Segments` (show indices moved)."""
    return Segments(
        show=_cat([p.show + f for p, f in zip(parts, _before([p.n_shows for p in parts]))]),
        start=_cat([p.start for p in parts]),
        end=_cat([p.end for p in parts]),
        label=_cat([p.label for p in parts]),
        n_shows=int(sum(p.n_shows for p in parts)),
    )


def join_regions(parts: list[ShowScores]) -> Region | None:
    """The evaluated regions of consecutive shards when one has a show of several (a UEM with gaps),
    else None: a shard built none when none of its shows has gaps, and each of its shows is then
    evaluated on its one region ``region_start .. region_end`` (none where NaN), as the corpus's
    :class:`~tvseg.retrieval.region.Region` holds such a show."""
    regions = [p.reference.region for p in parts]
    if all(region is None for region in regions):
        return None
    show, start, end, start_s, end_s = [], [], [], [], []
    for p, region, first in zip(parts, regions, _before([len(p.shows) for p in parts])):
        if region is not None:
            show.append(region.show + first)
            start.append(region.start)
            end.append(region.end)
            start_s.append(region.start_seconds)
            end_s.append(region.end_seconds)
            continue
        k = np.flatnonzero(~np.isnan(p.region_start))
        show.append(k.astype(np.int64) + first)
        start_s.append(np.asarray(p.region_start, dtype=float)[k])
        end_s.append(np.asarray(p.region_end, dtype=float)[k])
        start.append(ticks(start_s[-1]))
        end.append(ticks(end_s[-1]))
    return Region(
        show=_cat(show),
        start=_cat(start),
        end=_cat(end),
        n_shows=sum(len(p.shows) for p in parts),
        start_seconds=_cat(start_s),
        end_seconds=_cat(end_s),
    )


def _before(counts) -> list:
    return np.cumsum([0] + list(counts[:-1])).tolist()


def join_scores(parts: list[ShowScores]) -> ShowScores:
    """The :class:`ShowScores` of consecutive shards of a corpus as the corpus's (one part: itself).

    Parameters
    ----------
    parts : list of ShowScores
        One system on each shard, in show order, scored with the same settings and the same ``titles``.
    """
    if len(parts) == 1:
        return parts[0]
    if len({p.titles for p in parts}) != 1:
        raise ValueError("shards scored with and without titles cannot be joined")
    r_first = _before([len(p.reference) for p in parts])
    h_first = _before([len(p.hypothesis) for p in parts])
    show_first = _before([len(p.shows) for p in parts])
    matching = Matching(
        *(
            Partners(
                _shifted([getattr(p.matching, side).partner for p in parts], first),
                _cat([getattr(p.matching, side).overlap_ticks for p in parts]),
                _cat([getattr(p.matching, side).span_ticks for p in parts]),
            )
            for side, first in (("reference", h_first), ("hypothesis", r_first))
        )
    )
    rb_first = _before([len(p.boundaries[1]) for p in parts])
    hb_first = _before([len(p.boundaries[3]) for p in parts])
    boundaries = (
        _shifted([p.boundaries[0] for p in parts], show_first),
        _cat([p.boundaries[1] for p in parts]),
        _shifted([p.boundaries[2] for p in parts], show_first),
        _cat([p.boundaries[3] for p in parts]),
    )
    pairs = (_shifted([p.pairs[0] for p in parts], rb_first), _shifted([p.pairs[1] for p in parts], hb_first))

    reference = join_segments([p.reference for p in parts])
    hypothesis = join_segments([p.hypothesis for p in parts])
    region = join_regions(parts)
    if region is not None:
        reference, hypothesis = replace(reference, region=region), replace(hypothesis, region=region)
    shows = [s for p in parts for s in p.shows]
    joined = replace(parts[0], reference=reference, hypothesis=hypothesis, shows=shows, uem_start=None, uem_end=None)
    verdicts = [p.title_verdicts for p in parts if p.title_verdicts is not None]
    vars(joined).update(  # what each part computed, joined (cached_property values)
        components=join_frames([p.components for p in parts]),
        boundary_matched=join_frames([p.boundary_matched for p in parts]),
        titles=parts[0].titles,
        matching=matching,
        correct=(_cat([p.correct[0] for p in parts]), _cat([p.correct[1] for p in parts])),
        region=(_cat([p.region_start for p in parts]), _cat([p.region_end for p in parts])),
        boundaries=boundaries,
        pairs=pairs,
        title_verdicts=tuple(_cat([v[k] for v in verdicts]) for k in range(4)) if verdicts else None,
    )
    return joined
