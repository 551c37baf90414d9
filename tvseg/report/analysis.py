"""Which reference stories are retrieved, by their properties: the analysis tables of the corpus page.

Bouchekif et al. (section 4) present CovN as a way to analyse "the links between the performance of
retrieval for each segment and some properties of these segments (e.g. length...)", and split their
Table 2 by length. :func:`analyse` does that analysis from an evaluation result:

- the share of reference segments correctly retrieved (at the settings' gamma) by segment duration
  (:data:`DURATION_BINS`) and by position in the show (first story, middle stories, last story; a
  show with one story counts it as its *only* story);
- the reference segments that every system misses (the longest first), and those that every system
  retrieves;
- the same share per metadata value (channel, programme), read from ``result.systems[name].groups``
  (the pooled ``n_reference`` and ``n_correct_reference`` of each group, as computed: not recomputed).

Every decision is the result's own: a reference segment is retrieved when the system's scoring
holds it ``correct`` (``result.systems[name].scores.correct``, the verdicts its match table shows),
the exact decision of :func:`tvseg.retrieval.coverage.correct`; durations are binned on integer microseconds
(``duration_ticks``, :mod:`tvseg.exact`), a segment of exactly 15 s falling in the bin 15-30 s,
as a segment of exactly ``long_threshold`` is *long* in ``by_length``.

The summary in words above these tables is :mod:`tvseg.report.summary`.

This module is part of the report, not of :mod:`tvseg.retrieval`: it computes no score. It counts
flags the result holds, for the corpus page; the JSON contract, ``to_frame`` and the bootstrap do
not carry it, and a view that wants it calls :func:`analyse` on the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tvseg.exact import tick

__all__ = [
    "analyse",
    "Analysis",
    "RateRow",
    "Story",
    "DURATION_BINS",
    "LIST_LIMIT",
    "AnalysisPart",
    "analysis_part",
    "combine",
    "groups",
]

DURATION_BINS = (15.0, 30.0, 60.0, 120.0, 300.0)
"""Edges (seconds) of the duration bins: ``< 15 s``, ``15-30 s``, ..., ``>= 300 s`` (lower edge included)."""
LIST_LIMIT = 100
"""Most segments :func:`analyse` keeps of each list (missed by all, retrieved by all); the count is whole."""
POSITIONS = ("first", "middle", "last", "only")
_POSITION_LABELS = {
    "first": "first story",
    "middle": "middle stories",
    "last": "last story",
    "only": "only story of its show",
}


@dataclass(frozen=True)
class RateRow:
    """One row of a retrieval table: ``n`` reference segments, of which each system retrieved ``retrieved[i]``."""

    label: str
    n: int
    retrieved: tuple[int, ...]

    @property
    def rates(self) -> tuple[float | None, ...]:
        """``retrieved / n`` per system (None when the row has no segment)."""
        return tuple(r / self.n if self.n else None for r in self.retrieved)

    @property
    def cells(self) -> tuple[tuple[int, float | None], ...]:
        """``(retrieved, rate)`` per system, as the table shows them."""
        return tuple(zip(self.retrieved, self.rates))


@dataclass(frozen=True)
class Story:
    """A reference segment: its show, bounds (s), label (title or speaker label, None without), duration (s)
    and ``index``, its 1-based place among its show's reference segments (its row ``r-<index>`` on the show's
    page)."""

    show: str
    start: float
    end: float
    label: str | None
    duration: float
    index: int = 0


@dataclass(frozen=True)
class Analysis:
    """Retrieval of the reference segments by their properties (see the module docstring).

    Attributes
    ----------
    systems : tuple of str
        The systems, in the result's order (the order of ``RateRow.retrieved``).
    n_reference : int
        Reference segments of the corpus.
    by_duration, by_position : tuple of RateRow
    by_group : tuple of (str, tuple of RateRow)
        Per metadata column, one row per value (from the result's ``groups``).
    missed_by_all : tuple of Story
        The :data:`LIST_LIMIT` longest (longest first; ties by show id, then start).
    retrieved_by_all : tuple of Story
        At most :data:`LIST_LIMIT`, sorted by show id then start.
    n_missed_by_all, n_retrieved_by_all : int
        Their whole counts.
    """

    systems: tuple[str, ...]
    n_reference: int
    by_duration: tuple[RateRow, ...]
    by_position: tuple[RateRow, ...]
    by_group: tuple[tuple[str, tuple[RateRow, ...]], ...]
    missed_by_all: tuple[Story, ...]
    retrieved_by_all: tuple[Story, ...]
    n_missed_by_all: int
    n_retrieved_by_all: int


def _bin_labels(edges: Sequence[float]) -> list[str]:
    lo = [f"{e:g}" for e in edges]
    return [f"< {lo[0]} s"] + [f"{a}\u2013{b} s" for a, b in zip(lo, lo[1:])] + [f"\u2265 {lo[-1]} s"]


def _retrieved_flags(result) -> np.ndarray:
    """Systems x reference segments: whether each system retrieves each segment, as scored."""
    rows = [sr.scores.correct[0] for sr in result.systems.values()]
    return np.vstack(rows) if rows else np.zeros((0, 0), dtype=bool)


def _rows(labels, classes: np.ndarray, flags: np.ndarray) -> tuple[RateRow, ...]:
    """One row per label ``k``: the segments whose class is ``k``, and how many each system retrieved."""
    n = np.bincount(classes, minlength=len(labels))
    retrieved = [np.bincount(classes, weights=f, minlength=len(labels)) for f in flags]
    return tuple(RateRow(label, int(n[k]), tuple(int(r[k]) for r in retrieved)) for k, label in enumerate(labels))


def _positions(reference) -> np.ndarray:
    """Index into :data:`POSITIONS` of each reference segment (segments sorted by show, then time)."""
    offsets = reference.offsets()
    first, after = offsets[:-1], offsets[1:]
    has = after > first
    out = np.full(len(reference), POSITIONS.index("middle"), dtype=np.int64)
    out[first[has]] = POSITIONS.index("first")
    out[after[has] - 1] = POSITIONS.index("last")
    out[first[has & (after - first == 1)]] = POSITIONS.index("only")
    return out


def _stories(reference, show_names, where: np.ndarray, limit: int, *, longest_first: bool = False) -> list:
    """The reference segments ``where`` (in the reference's order: by show, then time) as ``(key, Story)``, the
    first ``limit`` by show id and start, or with ``longest_first`` the ``limit`` longest (ties by show, start);
    ``key`` orders them so, ties by their place in the reference (:func:`_merged` joins the parts' lists)."""
    if longest_first:
        where = where[np.argsort(-reference.duration_ticks[where], kind="stable")[:limit]]
    names = np.asarray(show_names, dtype=object)[reference.show[where]]
    order = (
        range(len(where))
        if longest_first
        else sorted(range(len(where)), key=lambda i: (str(names[i]), float(reference.start[where[i]])))[:limit]
    )
    first_of_show = reference.offsets()[:-1]
    out = []
    for i in order:
        k = int(where[i])
        label = reference.label[k]
        story = Story(
            str(names[i]),
            float(reference.start[k]),
            float(reference.end[k]),
            None if label is None or label != label else str(label),
            float(reference.duration[k]),
            k - int(first_of_show[reference.show[k]]) + 1,
        )
        key = (-int(reference.duration_ticks[k]),) if longest_first else (story.show, story.start)
        out.append((key, k, story))
    return out


@dataclass(frozen=True)
class AnalysisPart:
    """What :func:`analyse` counts on consecutive shows (a shard of the corpus), before :func:`combine`: its rows
    (every position's, even empty), and its candidates for the two lists as ``(key, index, Story)``."""

    n_reference: int
    by_duration: tuple[RateRow, ...]
    by_position: tuple[RateRow, ...]
    missed: list
    retrieved: list
    n_missed: int
    n_retrieved: int


def analysis_part(
    reference, flags: np.ndarray, show_names, *, edges: Sequence[float] = DURATION_BINS, limit: int = LIST_LIMIT
) -> AnalysisPart:
    """:func:`analyse`'s counts on ``reference`` (the reference segments of some consecutive shows, named
    ``show_names`` in the order of their indices), ``flags`` (systems x segments: each system's verdicts)."""
    edge_ticks = np.array([tick(e) for e in edges], dtype=np.int64)
    duration_class = np.searchsorted(edge_ticks, reference.duration_ticks, side="right")
    missed = np.flatnonzero(~flags.any(axis=0))
    everyone = np.flatnonzero(flags.all(axis=0))
    return AnalysisPart(
        n_reference=len(reference),
        by_duration=_rows(_bin_labels(edges), duration_class, flags),
        by_position=_rows([_POSITION_LABELS[p] for p in POSITIONS], _positions(reference), flags),
        missed=_stories(reference, show_names, missed, limit, longest_first=True),
        retrieved=_stories(reference, show_names, everyone, limit),
        n_missed=len(missed),
        n_retrieved=len(everyone),
    )


def _summed(parts: Sequence[tuple[RateRow, ...]]) -> tuple[RateRow, ...]:
    first = parts[0]
    return tuple(
        RateRow(
            row.label,
            sum(p[i].n for p in parts),
            tuple(sum(p[i].retrieved[s] for p in parts) for s in range(len(row.retrieved))),
        )
        for i, row in enumerate(first)
    )


def _merged(lists: Sequence[list], limit: int) -> tuple[Story, ...]:
    """The first ``limit`` stories of the parts' lists by key, ties by part, then by place in the part."""
    candidates = [(key, p, k, story) for p, found in enumerate(lists) for key, k, story in found]
    candidates.sort(key=lambda c: (c[0], c[1], c[2]))
    return tuple(story for *_, story in candidates[:limit])


def combine(systems: Sequence[str], parts: Sequence[AnalysisPart], by_group: tuple, *, limit: int = LIST_LIMIT):
    """The :class:`Analysis` of a corpus from the :class:`AnalysisPart` of its shards in show order (one part:
    the corpus) and its ``by_group`` rows."""
    by_position = tuple(
        r for r in _summed([p.by_position for p in parts]) if r.n or r.label != _POSITION_LABELS["only"]
    )
    return Analysis(
        systems=tuple(systems),
        n_reference=sum(p.n_reference for p in parts),
        by_duration=_summed([p.by_duration for p in parts]),
        by_position=by_position,
        by_group=by_group,
        missed_by_all=_merged([p.missed for p in parts], limit),
        retrieved_by_all=_merged([p.retrieved for p in parts], limit),
        n_missed_by_all=sum(p.n_missed for p in parts),
        n_retrieved_by_all=sum(p.n_retrieved for p in parts),
    )


def groups(result) -> tuple:
    """The rows of :attr:`Analysis.by_group`, read from the result's ``groups`` (its components)."""
    srs = list(result.systems.values())
    if not srs:
        return ()
    out = []
    for column, by_value in srs[0].groups.items():
        rows = []
        for value, metrics in by_value.items():
            got = [sr.groups.get(column, {}).get(value, {}).get("n_correct_reference", 0) for sr in srs]
            rows.append(RateRow(str(value), int(metrics.get("n_reference", 0)), tuple(int(g) for g in got)))
        out.append((str(column), tuple(rows)))
    return tuple(out)


def analyse(result, *, edges: Sequence[float] = DURATION_BINS, limit: int = LIST_LIMIT) -> Analysis:
    """Retrieval of the reference segments of ``result`` by duration, position and metadata group.

    Parameters
    ----------
    result : tvseg.evaluation.EvaluationResult
    edges : sequence of float
        Increasing bin edges in seconds (lower edge included in its bin).
    limit : int
        Most segments kept in each list (missed by every system, retrieved by every system).

    Returns
    -------
    Analysis
    """
    names = tuple(result.systems)
    if not names:
        return Analysis((), 0, (), (), (), (), (), 0, 0)
    reference = next(iter(result.systems.values())).scores.reference
    part = analysis_part(reference, _retrieved_flags(result), result.shows, edges=edges, limit=limit)
    return combine(names, [part], groups(result), limit=limit)
