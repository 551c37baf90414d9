"""The per-query scorer of ``tvseg search`` as first written: a transcription of ``sh_eval``'s rules, one
result at a time (its ``getRelevance``, ``mergeList``, ``binnedRelevance``, ``toleranceToIrrelevance`` and
``MAiSPCalculator``), kept as the oracle of the columnar :mod:`tvseg.search` (whose module docstring states the
rules). Inputs are :class:`Judgement` and :class:`Returned` lists per query; outputs the same dictionaries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tvseg.search import _COUNTS, _MAISP_POINTS, BIN_SIZE, MEASURES, TOLERANCE


class Judgement(NamedTuple):
    video: str
    start: int
    end: int
    relevance: int
    line: int


class Returned(NamedTuple):
    video: str
    start: int
    end: int
    rank: int
    score: float
    line: int


Span = tuple[int, int]


@dataclass(frozen=True)
class QueryJudgements:
    """One query's judgements: the merged relevant and non-relevant spans of each video (segment and tol
    variants) and the relevant and non-relevant bins (bin variant)."""

    relevant: Mapping[str, list[Span]]
    not_relevant: Mapping[str, list[Span]]
    relevant_bins: frozenset[tuple[str, int]]
    judged_bins: frozenset[tuple[str, int]]

    @classmethod
    def of(cls, judgements: Sequence[Judgement], *, bin_ticks: int) -> QueryJudgements:
        ordered = sorted(judgements, key=lambda j: (j.video, j.start, j.end))
        relevant = [j for j in ordered if j.relevance > 0]
        others = [j for j in ordered if j.relevance <= 0]
        return cls(
            relevant=_merged(relevant),
            not_relevant=_merged(others),
            relevant_bins=frozenset(b for j in relevant for b in _bins(j.video, j.start, j.end, bin_ticks)),
            judged_bins=frozenset(b for j in others for b in _bins(j.video, j.start, j.end, bin_ticks)),
        )


def _merged(judgements: Sequence[Judgement]) -> dict[str, list[Span]]:
    """Spans sorted by (video, start, end), merged where they overlap or touch, per video."""
    out: dict[str, list[Span]] = {}
    last: tuple[str, int, int] | None = None
    for j in judgements:
        if last is not None and last[0] == j.video and (last[1] <= j.start <= last[2] or j.start <= last[1] <= j.end):
            last = (j.video, min(last[1], j.start), max(last[2], j.end))
            continue
        if last is not None:
            out.setdefault(last[0], []).append((last[1], last[2]))
        last = (j.video, j.start, j.end)
    if last is not None:
        out.setdefault(last[0], []).append((last[1], last[2]))
    return out


def _bins(video: str, start: int, end: int, size: int) -> list[tuple[str, int]]:
    """The bins ``(video, k)`` a segment covers: ``start // size`` to ``(end - 1) // size``."""
    return [(video, k) for k in range(start // size, (end - 1) // size + 1)]


def _touches(a: tuple, b: tuple) -> bool:
    return a[0] <= b[0] <= a[1] or b[0] <= a[0] <= b[1]


def _meets(start: int, end: int, span: Span) -> bool:
    """``[start, end)`` meets ``span`` (half-open); ``end == 0`` tests the point ``start``."""
    if end == 0:
        return span[0] <= start < span[1]
    return max(start, span[0]) < min(end, span[1])


def _segment_marks(q: QueryJudgements, ranking: Sequence[Returned]) -> list:
    marks: list = []
    for r in ranking:
        span = (r.start, r.end)
        if any(_touches(s, span) for s in q.relevant.get(r.video, ())):
            marks.append(1)
        elif any(_touches(s, span) for s in q.not_relevant.get(r.video, ())):
            marks.append(0)
        else:
            marks.append("-")
    return marks


def _bin_marks(q: QueryJudgements, ranking: Sequence[Returned], bin_ticks: int) -> list:
    seen: dict[tuple[str, int], None] = {}
    for r in ranking:
        seen.update(dict.fromkeys(_bins(r.video, r.start, r.end, bin_ticks)))
    return [1 if b in q.relevant_bins else 0 if b in q.judged_bins else "-" for b in seen]


def _tolerance_marks(q: QueryJudgements, ranking: Sequence[Returned], tolerance_ticks: int) -> list:
    marks: list = []
    seen: dict[str, list[Span]] = {}
    for r in ranking:
        watched = seen.get(r.video, [])
        met = [s for s in q.relevant.get(r.video, ()) if _meets(r.start, r.start + tolerance_ticks, s)]
        already = any(_meets(r.start, r.end, s) for s in watched)
        if met:
            if already:
                marks.append("s")
            else:
                end = max(max(s[1] for s in met), r.start + tolerance_ticks)
                seen.setdefault(r.video, []).append((r.start, end))
                marks.append(1)
        elif any(_meets(r.start, r.end, s) for s in q.not_relevant.get(r.video, ())):
            marks.append("S" if already else 0)
        else:
            marks.append("-")
    return marks


def _ranked_values(marks: list, n_relevant: int) -> dict:
    hits = [1 if type(m) is int and m > 0 else 0 for m in marks]
    ap, found = 0.0, 0.0
    values: dict[str, int | float | str]
    for rank, hit in enumerate(hits):
        if hit:
            found += 1.0
            ap += found / (1.0 + rank)
    values = {
        "num_rel": n_relevant,
        "num_ret": len(marks),
        "num_rel_ret": sum(hits),
        "map": 0.0 if ap == 0 else ap / n_relevant,
    }
    values.update({f"p_{n}": sum(hits[:n]) / float(n) for n in (5, 10, 20)})
    values.update({f"judged_{n}": sum(m != "-" for m in marks[:n]) / float(n) for n in (10, 20, 30)})
    values["relstring"] = "".join(str(m) for m in marks) + f" {len(marks)}"
    return values


def _recall_points(relevant: int, ticks: int) -> list[int]:
    """The recall points (ticks) of ``relevant`` ticks of relevant content: ``sh_eval``'s about 100 points in
    whole seconds (a step of the relevant seconds over 100, rounded down when the rest is at most 50 s, up
    otherwise, the rest added to the last point), or one a second up to 100 s."""
    if relevant > 100 * ticks:
        rest = relevant % (100 * ticks)
        step = (relevant // (100 * ticks) + (rest > 50 * ticks)) * ticks
        points = list(range(0, relevant, step))
        points[-1] += rest
        return points
    return list(range(0, relevant, ticks)) + [relevant]


def _maisp(q: QueryJudgements, ranking: Sequence[Returned], ticks: int) -> dict:
    """MAiSP's values of one query (``sh_eval``'s ``MAiSPCalculator`` with the user consuming the relevant
    segment), in ticks: its margin of 1 s and its least span of 0.01 s as ticks, exact."""
    relevant = {v: list(spans) for v, spans in q.relevant.items()}
    total = sum(max(b - a, 0) for spans in relevant.values() for a, b in spans)
    points = _recall_points(total, ticks)
    precisions: list[float] = []
    retrieved = relevant_retrieved = 0
    point = 1
    for r in ranking:
        spans = relevant.get(r.video)
        if spans is None:
            retrieved += max(r.end - r.start, 0)
            continue
        window = (r.start, r.end)
        kept: list[Span] = []
        watched = 0
        for span in spans:
            if not _touches(span, window):
                kept.append(span)
                continue
            over = (max(span[0], window[0]), span[1])
            relevant_retrieved += max(over[1] - over[0], 0)
            watched += over[0] - window[0] + max(over[1] - over[0], 0)
            while point < len(points) and points[point] <= relevant_retrieved:
                precisions.append(points[point] / (retrieved + watched - (relevant_retrieved - points[point])))
                point += 1
            pieces = []
            if span[0] < over[0]:
                pieces.append((span[0], over[0] - ticks))
            if over[1] < span[1]:
                pieces.append((over[1] + ticks, span[1]))
            kept += [p for p in pieces if 100 * (p[1] - p[0]) >= ticks]
            window = (window[0] + watched, window[1])
        retrieved += max(watched, r.end - r.start)
        relevant[r.video] = kept
    interpolated = precisions[:]
    for k in range(len(interpolated) - 2, -1, -1):
        interpolated[k] = max(interpolated[k], interpolated[k + 1])
    average = 0.0
    if interpolated:
        average = 1.0
        for p in interpolated:
            average += p
        average /= len(points)
    values = {
        "num_rel_secs": _seconds(total, ticks),
        "num_ret_secs": _seconds(retrieved, ticks),
        "num_rel_ret_secs": _seconds(relevant_retrieved, ticks),
        "maisp": average,
    }
    values.update({f"maisp_{p / 100:.2f}": interpolated[p] if p < len(interpolated) else 0.0 for p in _MAISP_POINTS})
    return values


def score_query(
    judgements: Sequence[Judgement],
    returned: Sequence[Returned],
    *,
    ticks: int = 1,
    bin_size: int = BIN_SIZE,
    tolerance: int = TOLERANCE,
) -> dict:
    """Every measure of :data:`MEASURES` but ``num_q`` for one query (the module's definitions).

    Parameters
    ----------
    judgements : sequence of Judgement
        The query's lines of the qrels.
    returned : sequence of Returned
        The query's lines of the run, in the file's order (ordered here by rank, equal ranks as given).
    ticks : int
        Ticks per second of the times (:data:`tvseg.readers.trec.TICKS`).
    bin_size, tolerance : int
        Seconds.
    """
    q = QueryJudgements.of(judgements, bin_ticks=bin_size * ticks)
    ranking = sorted(returned, key=lambda r: r.rank)
    values: dict = {
        "videos_ret": len({r.video for r in ranking}),
        "videos_rel": len(q.relevant),
        "avglength_ret": _seconds(sum(r.end - r.start for r in ranking), ticks) / float(len(ranking)),
        "avglength_rel": _mean([_seconds(b - a, ticks) for spans in q.relevant.values() for a, b in spans]),
    }
    n_relevant = sum(len(spans) for spans in q.relevant.values())
    for suffix, marks, count in (
        ("", _segment_marks(q, ranking), n_relevant),
        ("_bin", _bin_marks(q, ranking, bin_size * ticks), len(q.relevant_bins)),
        ("_tol", _tolerance_marks(q, ranking, tolerance * ticks), n_relevant),
    ):
        values.update({k + suffix: v for k, v in _ranked_values(marks, count).items()})
    values.update(_maisp(q, ranking, ticks))
    return values


def _seconds(value: int, ticks: int) -> int | float:
    """``value`` ticks in seconds: an integer when whole (as ``sh_eval``'s integer seconds)."""
    return value // ticks if value % ticks == 0 else value / ticks


def _mean(values: Sequence[float]) -> float:
    total: float = 0
    for v in values:
        total += v
    return total / float(len(values)) if values else 0.0


def score_run(
    qrels: Mapping[str, Sequence[Judgement]],
    run: Mapping[str, Sequence[Returned]],
    *,
    ticks: int = 1,
    bin_size: int = BIN_SIZE,
    tolerance: int = TOLERANCE,
) -> tuple[dict[str, dict], dict]:
    """``(per query, all)``: :func:`score_query` of each query of ``qrels`` that ``run`` answers (sorted by
    id), and the values over them (counts summed, the rest averaged; ``relstring`` per query only)."""
    queries = {
        q: score_query(qrels[q], run[q], ticks=ticks, bin_size=bin_size, tolerance=tolerance)
        for q in sorted(run)
        if q in qrels
    }
    overall: dict = {}
    for key in MEASURES:
        if key == "num_q":
            overall[key] = len(queries)
        elif not key.startswith("relstring"):
            column = [v[key] for v in queries.values()]
            overall[key] = sum(column) if key in _COUNTS or key.startswith(tuple(_COUNTS)) else _mean(column)
    return queries, overall
