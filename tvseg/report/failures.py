"""Where each system fails: the corpus page's short list of each system's largest gaps, and where the systems' ranking flips.

A corpus score hides where a system breaks down: a system may hold 50 % CovN overall and fall to 33 %
on one channel. :func:`failures` reads, for each system, the breakdowns the result already holds and
says where the system is furthest below its own corpus value:

- **by group**: each metadata column's values (``SystemSummary.groups``: the pooled CovN, CovD and
  boundary F of the shows of each value), the value where a metric is lowest against the system's corpus
  value, with the range of the column's other values ("elsewhere"), said to "fall" there only when the
  value is below the corpus value's bootstrap interval (else the group is merely "lowest"); groups with fewer than
  :data:`MIN_GROUP_STORIES` reference stories (when the group says how many) are left out, too few to
  tell a collapse from chance; at most :data:`MAX_GROUP_GAPS` columns, the largest gaps first;
- **by story duration**: the short and long classes of ``by_length`` (Bouchekif et al., Table 2);
- **by position in the show**: the share of reference stories retrieved (R\\ :sub:`N` restricted to
  them) among those that start in the first, middle or last third of their show's extent, from the
  correct flags the scoring holds (:func:`thirds`);

and, across systems, the metrics on which two systems rank in opposite orders (a better on CovN, b on
title F1 or Pk), with the corpus intervals when the bootstrap gave them: "the ranking flips" only when each
system's lead has disjoint intervals (or when there are no intervals); where overlapping intervals make a
lead, the two are said to be within noise (``Failures.noise``).

Like :mod:`tvseg.report.analysis`, this module computes no score: every number is one the result holds
(a group's, a length class's, a corpus value and its interval), or a count of the correct flags the match
tables show. The sentences name each number's place and metric.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from markupsafe import Markup

from tvseg.exact import ticks
from tvseg.metrics import METRICS
from tvseg.report.model import defined
from tvseg.report.summary import joined, metric_name, percent

__all__ = [
    "failures",
    "failures_of_report",
    "thirds",
    "Failures",
    "SystemFailures",
    "Gap",
    "Flip",
    "Name",
    "sentence_html",
    "THIRDS",
    "GROUP_METRICS",
    "FLIP_METRICS",
    "MIN_GROUP_STORIES",
    "MAX_GROUP_GAPS",
]

GROUP_METRICS = ("cov_n", "cov_d", "boundary_f1")
"""The metrics whose lowest group is looked for (those the breakdown tables show)."""
LENGTH_METRICS = ("cov_n", "cov_d", "recall_n", "precision_n")
FLIP_METRICS = ("cov_n", "cov_d", "boundary_f1", "pk", "windowdiff", "title_accuracy", "title_f1")
"""The metrics on which a flip of two systems' ranking is looked for."""
MIN_GROUP_STORIES = 20
"""Fewest reference stories a group needs to be named (when its ``n_reference`` is known)."""
MAX_GROUP_GAPS = 2
"""Most metadata columns named per system (the largest gaps)."""
THIRDS = ("first third", "middle third", "last third")


@dataclass(frozen=True)
class Gap:
    """Where one system is furthest below its corpus value in one breakdown.

    Attributes
    ----------
    kind : {"group", "length", "position"}
    column : str
        The metadata column (``"channel"``), ``"duration"`` or ``"position"``.
    where : str
        The group value, ``"short"``/``"long"``, or one of :data:`THIRDS`.
    metric : str
        The metric key (``"cov_n"``; ``"recall_n"`` for the thirds).
    value : float
        The metric there.
    elsewhere : tuple of (float, float)
        Lowest and highest value of the breakdown's other parts.
    corpus : float or None
        The system's corpus value of the metric, ``corpus_lo``/``corpus_hi`` its interval (None without).
    n : int or None
        Reference stories in the part, when known; ``retrieved``: how many of them are retrieved (thirds).
    sentence : str
        The gap said in words; ``pieces``, the same text in pieces, the names in it (systems, metadata
        columns and values) apart, so that a page writes each name isolated (:attr:`html`).
    """

    kind: str
    column: str
    where: str
    metric: str
    value: float
    elsewhere: tuple[float, float]
    corpus: float | None
    corpus_lo: float | None
    corpus_hi: float | None
    n: int | None
    retrieved: int | None
    sentence: str
    pieces: tuple[str, ...] = ()

    @property
    def html(self) -> Markup:
        """The sentence as HTML, each name in it isolated (``<bdi>``, :func:`sentence_html`)."""
        return sentence_html(self.pieces or (self.sentence,))

    @property
    def gap(self) -> float:
        """How far the part is below the corpus value (below the other parts' lowest without one)."""
        return (self.corpus if self.corpus is not None else self.elsewhere[0]) - self.value


@dataclass(frozen=True)
class Flip:
    """Two systems ranked in opposite orders: ``a`` better on ``a_better``, ``b`` on ``b_better`` (metric keys)."""

    a: str
    b: str
    a_better: tuple[str, ...]
    b_better: tuple[str, ...]
    sentence: str
    pieces: tuple[str, ...] = ()

    @property
    def html(self) -> Markup:
        """The sentence as HTML, each system's name isolated (``<bdi>``, :func:`sentence_html`)."""
        return sentence_html(self.pieces or (self.sentence,))


@dataclass(frozen=True)
class SystemFailures:
    """One system's gaps (group gaps first, largest first; then duration, then position)."""

    name: str
    gaps: tuple[Gap, ...]


@dataclass(frozen=True)
class Failures:
    """The corpus page's "where each system fails" (see the module docstring).

    ``thirds`` holds, per system (in the order of ``systems``), ``(n, retrieved)`` of each of :data:`THIRDS`
    (empty without match tables).
    """

    systems: tuple[SystemFailures, ...]
    flips: tuple[Flip, ...]
    thirds: tuple[tuple[tuple[int, int], ...], ...] = ()
    noise: tuple[Flip, ...] = ()

    def __bool__(self) -> bool:
        return any(s.gaps for s in self.systems) or bool(self.flips) or bool(self.noise)


# --- words ------------------------------------------------------------------------------------


class Name(str):
    """A name within a sentence (a system, a metadata column or value), written isolated in a page."""


def sentence_html(pieces: Sequence[str]) -> Markup:
    """``pieces`` joined as HTML: each :class:`Name` in ``<bdi>``, so that a name written right to
    left (an Arabic channel) does not carry the numbers around it along; every piece escaped, its
    control and bidi characters shown (:func:`tvseg.report.rows.visible`)."""
    from tvseg.report.rows import visible

    return Markup("").join(Markup("<bdi>%s</bdi>") % visible(p) if isinstance(p, Name) else visible(p) for p in pieces)


def _range(lo: float, hi: float) -> str:
    return percent(lo) if f"{100 * lo:.1f}" == f"{100 * hi:.1f}" else f"{100 * lo:.1f}\u2013{percent(hi)}"


def _with_interval(v: float, lo: float | None, hi: float | None) -> str:
    """``55.0 % [52.0–58.0 %]``: a value and its bootstrap interval, when there is one."""
    return percent(v) + (f" [{_range(lo, hi)}]" if lo is not None and hi is not None else "")


def _whole(gap: Gap) -> str:
    """``49.0 % [47.0–51.0 %] on the whole corpus`` (empty without a corpus value)."""
    if gap.corpus is None:
        return ""
    return f"{_with_interval(gap.corpus, gap.corpus_lo, gap.corpus_hi)} on the whole corpus"


# --- the gaps ---------------------------------------------------------------------------------


def _lower_is_better(metric: str) -> bool:
    return metric in METRICS and METRICS[metric].higher_is_better is False


def _corpus(summary, metric):
    e = summary.corpus.get(metric)
    if e is None or not defined(e.value):
        return None, None, None
    lo, hi = (e.lo, e.hi) if defined(e.lo) and defined(e.hi) else (None, None)
    return float(e.value), lo, hi


def _group_gaps(summary) -> list[Gap]:
    out = []
    for column, by_value in summary.groups.items():
        best = None
        for metric in GROUP_METRICS:
            corpus, lo, hi = _corpus(summary, metric)
            values = {
                str(v): float(m[metric])
                for v, m in by_value.items()
                if defined(m.get(metric))
                and not (defined(m.get("n_reference")) and m["n_reference"] < MIN_GROUP_STORIES)
            }
            if len(values) < 2:
                continue
            where = min(values, key=lambda v: (values[v], v))
            others = [x for v, x in values.items() if v != where]
            n = by_value[where].get("n_reference")
            gap = Gap(
                "group", str(column), where, metric, values[where], (min(others), max(others)),
                corpus, lo, hi, int(n) if defined(n) else None, None, "",
            )  # fmt: skip
            if gap.value < gap.elsewhere[0] and (best is None or gap.gap > best.gap):
                best = gap
        if best is not None:
            stories = f", {best.n:,} stories" if best.n is not None else ""
            whole = _whole(best)
            figure = f"{percent(best.value)} {metric_name(best.metric)}"
            name, group, value = Name(summary.name), Name(column), Name(best.where)
            # "falls to" only below the corpus interval; otherwise the group is merely the lowest
            said: tuple[str, ...] = (
                (name, f" falls to {figure} on ", group, " ", value)
                if best.corpus_lo is not None and best.value < best.corpus_lo
                else (name, " is lowest on ", group, " ", value, f": {figure}")
            )
            rest = f"{stories} ({_range(*best.elsewhere)} elsewhere{'; ' + whole if whole else ''})."
            out.append(_said(best, *said, rest))
    out.sort(key=lambda g: -g.gap)
    return out[:MAX_GROUP_GAPS]


def _said(gap: Gap, *pieces: str) -> Gap:
    return replace(gap, sentence="".join(pieces), pieces=pieces)


def _length_gap(summary, long_threshold) -> Gap | None:
    parts = summary.by_length
    if not all(p in parts for p in ("short", "long")):
        return None
    best = None
    for metric in LENGTH_METRICS:
        a, b = parts["short"].get(metric), parts["long"].get(metric)
        if not (defined(a) and defined(b)) or a == b:
            continue
        where, other = ("short", "long") if a < b else ("long", "short")
        corpus, lo, hi = _corpus(summary, metric)
        value, elsewhere = float(parts[where][metric]), float(parts[other][metric])
        n = parts[where].get("n_reference")
        gap = Gap(
            "length", "duration", where, metric, value, (elsewhere, elsewhere),
            corpus, lo, hi, int(n) if defined(n) else None, None, "",
        )  # fmt: skip
        if best is None or gap.gap > best.gap:
            best = gap
    if best is None:
        return None
    edge = f"{long_threshold:g}\u00a0s" if isinstance(long_threshold, (int, float)) else "the threshold"
    what = f"short segments (< {edge})" if best.where == "short" else f"long segments (\u2265 {edge})"
    other = "long" if best.where == "short" else "short"
    whole = _whole(best)
    return _said(
        best,
        Name(summary.name),
        f" has {metric_name(best.metric)} {percent(best.value)} on {what} against "
        f"{percent(best.elsewhere[0])} on {other} ones{' (' + whole + ')' if whole else ''}.",
    )


def _position_gap(summary, counts: Sequence[tuple[int, int]]) -> Gap | None:
    rates = {THIRDS[i]: (r / n, n, r) for i, (n, r) in enumerate(counts) if n}
    if len(rates) < 2:
        return None
    where = min(rates, key=lambda t: (rates[t][0], THIRDS.index(t)))
    others = [v[0] for t, v in rates.items() if t != where]
    value, n, got = rates[where]
    if value >= min(others):
        return None
    corpus, lo, hi = _corpus(summary, "recall_n")
    gap = Gap("position", "position", where, "recall_n", value, (min(others), max(others)), corpus, lo, hi, n, got, "")
    whole = _whole(gap)
    return _said(
        gap,
        Name(summary.name),
        f" retrieves {percent(value)} ({got:,} of {n:,}) of the stories that start in the {where} "
        f"of their show ({_range(min(others), max(others))} in the other thirds{'; ' + whole if whole else ''}).",
    )


# --- the flips ------------------------------------------------------------------------------------


def _apart(x: tuple, y: tuple) -> bool | None:
    """Whether two corpus values' bootstrap intervals are disjoint: None when either has none."""
    if None in (x[1], x[2], y[1], y[2]):
        return None
    return x[2] < y[1] or y[2] < x[1]


def _flips(systems) -> tuple[list[Flip], list[Flip]]:
    """The pairs of systems ranked in opposite orders: a flip when each leads on some metric with the two
    intervals disjoint (or without intervals at all), else, where an overlap of intervals makes one side's
    lead, within noise."""
    flips, noise = [], []
    for i, a in enumerate(systems):
        for b in systems[i + 1 :]:
            a_better: list[tuple] = []
            b_better: list[tuple] = []
            for metric in FLIP_METRICS:
                va, vb = _corpus(a, metric), _corpus(b, metric)
                if va[0] is None or vb[0] is None or va[0] == vb[0]:
                    continue
                better_a = (va[0] < vb[0]) if _lower_is_better(metric) else (va[0] > vb[0])
                (a_better if better_a else b_better).append((metric, va, vb, _apart(va, vb) is not False))
            if not (a_better and b_better):
                continue

            def said(items, mine: bool) -> str:
                return joined(
                    [
                        f"{metric_name(m)} ({_with_interval(*(x if mine else y))} against {_with_interval(*(y if mine else x))})"
                        for m, x, y, _ in items
                    ]
                )

            clear_a, clear_b = [t for t in a_better if t[3]], [t for t in b_better if t[3]]
            if clear_a and clear_b:
                pieces: tuple = (
                    Name(a.name),
                    " is better than ",
                    Name(b.name),
                    f" on {said(clear_a, True)}; ",
                    Name(b.name),
                    f" is better on {said(clear_b, False)}.",
                )
                better = tuple(t[0] for t in clear_a), tuple(t[0] for t in clear_b)
                flips.append(Flip(a.name, b.name, *better, "".join(pieces), pieces))
                continue
            pieces = (
                Name(a.name),
                " is ahead of ",
                Name(b.name),
                f" on {said(a_better, True)}; ",
                Name(b.name),
                f" on {said(b_better, False)}: within noise, the intervals overlap.",
            )
            better = tuple(t[0] for t in a_better), tuple(t[0] for t in b_better)
            noise.append(Flip(a.name, b.name, *better, "".join(str(piece) for piece in pieces), pieces))
    return flips, noise


# --- the thirds -----------------------------------------------------------------------------------


def thirds(
    ref_show: np.ndarray, ref_start: np.ndarray, show_start: np.ndarray, show_end: np.ndarray, flags: np.ndarray
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """``(n, retrieved)`` of the reference stories starting in each third of their show, per system.

    Parameters
    ----------
    ref_show : ndarray of int
        Each reference segment's show index.
    ref_start : ndarray of float
        Each reference segment's start (seconds).
    show_start, show_end : ndarray of float
        Each show's extent (seconds).
    flags : ndarray of bool, shape (systems, segments)
        Whether each system retrieves each segment (its correct flag).

    Returns
    -------
    tuple
        Per system, per third (:data:`THIRDS`), ``(n, retrieved)``. A segment's third is
        ``floor(3 (start - show start) / (show end - show start))`` on integer microseconds
        (:mod:`tvseg.exact`), clipped to 0-2: a story starting exactly one third in is in the middle third.
    """
    ref_show = np.asarray(ref_show, dtype=np.int64)
    s0 = ticks(np.asarray(show_start, dtype=float))[ref_show]
    span = ticks(np.asarray(show_end, dtype=float))[ref_show] - s0
    offset = ticks(np.asarray(ref_start, dtype=float)) - s0
    third = np.where(span > 0, (3 * offset) // np.where(span > 0, span, 1), 0)
    third = np.clip(third, 0, 2)
    n = np.bincount(third, minlength=3)
    flags = np.asarray(flags, dtype=bool).reshape(-1, len(third))
    return tuple(
        tuple((int(n[k]), int(r[k])) for k in range(3))
        for r in (np.bincount(third, weights=f, minlength=3).astype(np.int64) for f in flags)
    )


# --- entry points ---------------------------------------------------------------------------------


def failures_of_report(report, counts=()) -> Failures:
    """:func:`failures` of a report header (:class:`tvseg.report.model.Report`), with ``counts`` the
    :func:`thirds` of its systems (none: no position gap)."""
    long_threshold = (report.settings or {}).get("long_threshold")
    systems = []
    for i, summary in enumerate(report.systems):
        gaps = _group_gaps(summary)
        gaps += [g for g in (_length_gap(summary, long_threshold),) if g is not None]
        if i < len(counts):
            gaps += [g for g in (_position_gap(summary, counts[i]),) if g is not None]
        systems.append(SystemFailures(summary.name, tuple(gaps)))
    flips, noise = _flips(report.systems)
    return Failures(tuple(systems), tuple(flips), tuple(counts), tuple(noise))


def failures(result, header) -> Failures:
    """Where each system of an evaluation result fails (see the module docstring).

    Parameters
    ----------
    result : tvseg.evaluation.EvaluationResult
    header : tvseg.report.model.Report
        The report header of ``result`` (:class:`tvseg.report.adapter.ResultPages`'s, which gives its
        failures as ``ResultPages(result).failures``), whose corpus values, intervals, groups and length
        classes are read.

    Returns
    -------
    Failures
    """
    srs = list(result.systems.values())
    counts: tuple = ()
    if srs and all(hasattr(sr.scores, "reference") for sr in srs):
        first = srs[0].scores
        flags = np.vstack([sr.scores.correct[0] for sr in srs])
        counts = thirds(first.reference.show, first.reference.start, first.region_start, first.region_end, flags)
    return failures_of_report(header, counts)


def model_thirds(report) -> tuple:
    """:func:`thirds` of a report model's shows (their match tables' reference starts and correct flags)."""
    names = [s.name for s in report.systems]
    show: list[int] = []
    start: list[float] = []
    flags: list[list[bool]] = [[] for _ in names]
    for k, s in enumerate(report.shows):
        views = {v.name: v for v in s.systems}
        show += [k] * len(s.reference)
        start += [seg.start for seg in s.reference]
        for i, name in enumerate(names):
            rows = views[name].matches if name in views else ()
            got = [m.correct for m in rows]
            flags[i] += got if len(got) == len(s.reference) else [False] * len(s.reference)
    if not report.shows or not start:
        return ()
    edges = np.array([[s.start, s.end] for s in report.shows], dtype=float)
    return thirds(np.array(show), np.array(start, dtype=float), edges[:, 0], edges[:, 1], np.array(flags, dtype=bool))
