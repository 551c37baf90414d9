"""Which reference stories are retrieved, by their properties, and what the numbers say in words.

Bouchekif et al. (section 4) present CovN as a way to analyse "the links between the performance of
retrieval for each segment and some properties of these segments (e.g. length...)", and split their
Table 2 by length. :func:`analyse` does that analysis from an evaluation result:

- the share of reference segments correctly retrieved (at the settings' gamma) by segment duration
  (:data:`DURATION_BINS`) and by position in the show (first story, middle stories, last story; a
  show with one story counts it as its *only* story);
- the reference segments that every system misses, and those that every system retrieves;
- the same share per metadata value (channel, programme), read from ``result.systems[name].groups``
  (the pooled ``n_reference`` and ``n_correct_reference`` of each group, as computed: not recomputed).

Every decision is the result's own: a reference segment is retrieved when its row of the system's
match table (``result.systems[name].matches``, side ``reference``) is ``correct``, the exact
decision of :func:`tvseg.retrieval.coverage.correct`; durations are binned on integer microseconds
(``duration_ticks``, :mod:`tvseg.exact`), a segment of exactly 15 s falling in the bin 15-30 s,
as a segment of exactly ``long_threshold`` is *long* in ``by_length``.

:func:`summary_sentences` says in two or three sentences which system is ahead, on what and how
sure (the paired-bootstrap p-values of ``result.pairwise``), claiming nothing the numbers do not
support.

This module is part of the report, not of :mod:`tvseg.retrieval`: it computes no score. It counts
flags the result holds, for the corpus page; the JSON contract, ``to_frame`` and the bootstrap do
not carry it, and a view that wants it calls :func:`analyse` on the result.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from tvseg.exact import tick
from tvseg.metrics import COMPARED, METRICS

__all__ = ["analyse", "Analysis", "RateRow", "Story", "DURATION_BINS", "summary_sentences", "report_sentences",
           "sentences", "LIST_LIMIT"]

DURATION_BINS = (15.0, 30.0, 60.0, 120.0, 300.0)
"""Edges (seconds) of the duration bins: ``< 15 s``, ``15-30 s``, ..., ``>= 300 s`` (lower edge included)."""
LIST_LIMIT = 100
"""Most segments :func:`analyse` keeps of each list (missed by all, retrieved by all); the count is whole."""
POSITIONS = ("first", "middle", "last", "only")
_POSITION_LABELS = {"first": "first story", "middle": "middle stories", "last": "last story",
                    "only": "only story of its show"}
_NAMES = {"boundary_f1": "boundary F"}   # plain-language names; the registry's label otherwise


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
    """A reference segment: its show, bounds (s), label (title or speaker label, None without) and duration (s)."""

    show: str
    start: float
    end: float
    label: str | None
    duration: float


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
    missed_by_all, retrieved_by_all : tuple of Story
        At most :data:`LIST_LIMIT` of each, sorted by show id then start.
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
    """Systems x reference segments: the ``correct`` column of each system's match table, reference rows."""
    rows = []
    for sr in result.systems.values():
        m = sr.matches
        flags = m["correct"].to_numpy(dtype=bool)[(m["side"] == "reference").to_numpy(dtype=bool)]
        if len(flags) != len(sr.scores.reference):
            raise ValueError(f"{sr.name}: the match table has {len(flags)} reference rows for "
                             f"{len(sr.scores.reference)} reference segments")
        rows.append(flags)
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


def _stories(reference, show_names, where: np.ndarray, limit: int) -> tuple[Story, ...]:
    names = np.asarray(show_names, dtype=object)[reference.show[where]]
    order = sorted(range(len(where)), key=lambda i: (str(names[i]), float(reference.start[where[i]])))[:limit]
    out = []
    for i in order:
        k = int(where[i])
        label = reference.label[k]
        out.append(Story(str(names[i]), float(reference.start[k]), float(reference.end[k]),
                         None if label is None or label != label else str(label), float(reference.duration[k])))
    return tuple(out)


def _groups(result) -> tuple:
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
    flags = _retrieved_flags(result)
    edge_ticks = np.array([tick(e) for e in edges], dtype=np.int64)
    duration_class = np.searchsorted(edge_ticks, reference.duration_ticks, side="right")
    by_duration = _rows(_bin_labels(edges), duration_class, flags)
    by_position = tuple(r for r in _rows([_POSITION_LABELS[p] for p in POSITIONS], _positions(reference), flags)
                        if r.n or r.label != _POSITION_LABELS["only"])
    missed = np.flatnonzero(~flags.any(axis=0))
    everyone = np.flatnonzero(flags.all(axis=0))
    shows = result.shows
    return Analysis(systems=names, n_reference=len(reference), by_duration=by_duration, by_position=by_position,
                    by_group=_groups(result), missed_by_all=_stories(reference, shows, missed, limit),
                    retrieved_by_all=_stories(reference, shows, everyone, limit),
                    n_missed_by_all=len(missed), n_retrieved_by_all=len(everyone))


# --- the summary in words -----------------------------------------------------------------------

def _name(metric: str) -> str:
    return _NAMES.get(metric, METRICS[metric].label if metric in METRICS else metric)


def _pct(v: float) -> str:
    return f"{100 * v:.1f}\u00a0%"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _join(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _defined(v) -> bool:
    return v is not None and v == v


def _retrieval(names, corpus) -> str | None:
    """``a retrieves 67.0 % of the 60 reference stories (40) against 37.0 % (22) for b``."""
    have = [n for n in names if _defined(corpus[n].get("recall_n"))]
    if not have:
        return None
    ranked = sorted(have, key=lambda n: -corpus[n]["recall_n"])   # stable: ties keep the result's order

    def share(n):
        got = corpus[n].get("n_correct_reference")
        return _pct(corpus[n]["recall_n"]) + (f" ({got:.0f})" if _defined(got) else "")

    total = corpus[ranked[0]].get("n_reference")
    stories = f"the {total:.0f} reference stories" if _defined(total) else "the reference stories"
    rest = [f"{share(n)} for {n}" for n in ranked[1:]]
    return f"{ranked[0]} retrieves {share(ranked[0])} of {stories}" + (" against " + _join(rest) if rest else "") + "."


def _one_system(name: str, values: Mapping) -> list[str]:
    out = [s for s in (_retrieval([name], {name: values}),) if s]
    figures = [f"{_name(k)} {_pct(values[k])}" for k in COMPARED if _defined(values.get(k))]
    if figures:
        out.append(f"{name} has {_join(figures)}; with one system, there is nothing to compare.")
    return out


def _p_value(pairwise: Sequence[Mapping], a: str, b: str, metric: str):
    for c in pairwise:
        if c.get("metric") == metric and {c.get("a"), c.get("b")} == {a, b}:
            return c.get("p_value")
    return None


def sentences(corpus: Mapping[str, Mapping[str, float]], pairwise: Sequence[Mapping], resamples: int | None) -> list[str]:
    """The summary sentences of corpus values and pairwise p-values (see :func:`summary_sentences`).

    Parameters
    ----------
    corpus : dict
        System name -> corpus metric values (fractions; NaN or None where undefined), in the result's order.
    pairwise : list of dict
        ``{"a", "b", "metric", "difference", "p_value"}`` as :func:`tvseg.retrieval.bootstrap.paired_bootstrap`
        returns them.
    resamples : int or None
        The bootstrap resamples of the settings (0: none were drawn; None: unknown, read from ``pairwise``).

    Returns
    -------
    list of str
    """
    names = list(corpus)
    if not names:
        return []
    if len(names) == 1:
        return _one_system(names[0], corpus[names[0]])
    out = [s for s in (_retrieval(names, corpus),) if s]
    metrics = [k for k in COMPARED if all(_defined(corpus[n].get(k)) for n in names)]
    if not metrics:
        return out
    # per metric, the systems from best to worst (higher is better for every compared metric but errors)
    ranked = {}
    for k in metrics:
        sign = -1.0 if METRICS[k].higher_is_better is not False else 1.0
        ranked[k] = sorted(names, key=lambda n: sign * corpus[n][k])
    leaders: dict[str, list[str]] = {}
    ties: dict[tuple[str, str], list[str]] = {}   # the first two of a metric, when equal on it
    for k in metrics:
        best, second = ranked[k][0], ranked[k][1]
        if corpus[best][k] == corpus[second][k]:
            ties.setdefault((best, second), []).append(k)
        else:
            leaders.setdefault(best, []).append(_name(k))
    if len(leaders) == 1 and not ties:
        (leader, on), = leaders.items()
        said = (f"{leader} scores higher than {[n for n in names if n != leader][0]} on {_join(on)}"
                if len(names) == 2 else f"{leader} scores highest on {_join(on)}")
    else:
        said = _mixed(leaders, ties, len(names))
    out.append(said + ".")
    tied = [k for on in ties.values() for k in on]
    if len(tied) < len(metrics):
        out.append(_significance(names, ranked, metrics, tied, pairwise, resamples))
    return out


def _mixed(leaders: Mapping[str, list], ties: Mapping[tuple, list], n_systems: int) -> str:
    """``a is ahead on CovN and CovD, b on boundary F`` (then the metrics where the first two are equal)."""
    lead = "ahead" if n_systems == 2 else "first"
    parts = [f"{leader} is {lead} on {_join(on)}" if i == 0 else f"{leader} on {_join(on)}"
             for i, (leader, on) in enumerate(leaders.items())]
    said = ", ".join(parts)
    if len(leaders) > 1:
        said = "The systems rank differently on different metrics: " + said
    for (a, b), on in ties.items():
        tie = f"{a} and {b} are equal on {_join([_name(k) for k in on])}"
        said = f"{said}; {tie}" if said else tie
    return said


def _significance(names, ranked, metrics, ties, pairwise, resamples) -> str:
    if resamples == 0 or (resamples is None and not pairwise):
        return "No significance was computed (the bootstrap was off: 0 resamples)."
    against = "the difference" if len(names) == 2 else "the difference between the first two"
    significant, not_significant, unknown = [], [], []
    for k in metrics:
        if k in ties:
            continue
        p = _p_value(pairwise, ranked[k][0], ranked[k][1], k)
        if not _defined(p):
            unknown.append(_name(k))
        elif p < 0.05:
            significant.append((_name(k), p))
        else:
            not_significant.append((_name(k), p))
    parts = []

    def listed(items):
        ps = {_p(p) for _, p in items}
        if len(ps) == 1:
            return f"{_join([m for m, _ in items])} ({ps.pop()}{' on each' if len(items) > 1 else ''})"
        return _join([f"{m} ({_p(p)})" for m, p in items])

    if significant:
        parts.append(f"is significant on {listed(significant)}")
    if not_significant:
        parts.append(f"is not significant at 0.05 on {listed(not_significant)}")
    if unknown:
        parts.append(f"has no p-value on {_join(unknown)}")
    return (f"Paired bootstrap over shows: {against} " + "; it ".join(parts) + ".")


def summary_sentences(result) -> list[str]:
    """Which system is ahead, on what, and how sure: two or three sentences from the numbers of ``result``.

    With one system, its figures; with several, the share of reference stories each retrieves
    (R\\ :sub:`N`), which system scores higher on each compared metric (CovN, CovD, boundary F; the
    systems are said to rank differently when the leaders differ), and the paired-bootstrap p-value
    of each difference between the first two (significant when p < 0.05, else "not significant at
    0.05"); with the bootstrap off, that no significance was computed.

    Parameters
    ----------
    result : tvseg.evaluation.EvaluationResult

    Returns
    -------
    list of str
    """
    corpus = {name: dict(sr.corpus) for name, sr in result.systems.items()}
    return sentences(corpus, result.pairwise, result.settings.bootstrap)


def report_sentences(report) -> list[str]:
    """:func:`summary_sentences` of a report's header (:class:`tvseg.report.model.Report`): the same
    sentences from the values the pages show."""
    corpus = {s.name: {k: e.value for k, e in s.corpus.items()} for s in report.systems}
    pairwise = [{"a": c.system_a, "b": c.system_b, "metric": c.metric, "difference": c.difference,
                 "p_value": c.p_value} for c in report.comparisons]
    resamples = report.settings.get("bootstrap") if report.settings else None
    return sentences(corpus, pairwise, resamples if isinstance(resamples, int) else None)
