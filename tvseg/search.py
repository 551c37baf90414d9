r"""Segment search scored as MediaEval's Search and Hyperlinking evaluation scores it (Aly et al. 2013, ``sh_eval``).

A query is answered by a ranked list of segments ``(video, start, end)``; judges marked segments relevant
or not (:mod:`tvseg.readers.trec`). Each returned segment gets a mark, ``1`` relevant, ``0`` judged not
relevant, ``-`` not judged, ``s``/``S`` relevant/not relevant content already seen, in three ways:

- **segment** (``map``, ``P_5`` ...): the judged segments of a video merged where they overlap or touch
  (relevant ones apart from the others); a returned segment is relevant when it overlaps or touches a
  merged relevant segment (closed intervals), else judged when it touches a non-relevant one. Every
  returned segment is marked, repeats too. The relevant count :math:`R` is the number of merged relevant
  segments.
- **bin** (``map_bin`` ...): time is cut into bins of ``bin_size`` seconds (300, MediaEval's); a segment
  covers bins :math:`\lfloor s / b \rfloor` to :math:`\lceil e / b \rceil - 1`; the ranked list becomes its
  bins in order of first appearance, each once; a bin is relevant when a relevant judged segment covers it;
  :math:`R` is the number of relevant bins.
- **tol** (``map_tol`` ...): the user starts watching at a returned start and watches up to ``tolerance``
  seconds (15): the segment is relevant when :math:`[s, s + t)` meets a merged relevant segment's
  :math:`[s_r, e_r)` and its own :math:`[s, e)` meets no span seen before, which then extends to the end of
  the relevant segments met (at least :math:`s + t`); it is ``s`` when it meets a seen span; otherwise
  ``0``/``S`` when :math:`[s, e)` meets a merged non-relevant segment (``S``: seen), else ``-``.
  (``sh_eval`` tests integer seconds with an interval tree; for whole ticks that is
  :math:`\max(s, s_r) < \min(e, e_r)`, and a segment ending at 0 tests the point :math:`s` alone, as there.)
  :math:`R` is the segment variant's.

Per variant: ``num_rel`` :math:`R`, ``num_ret`` the marks, ``num_rel_ret`` the ``1`` marks, average
precision :math:`\mathrm{AP} = \frac{1}{R} \sum_{i: m_i = 1} \frac{|\{j \le i: m_j = 1\}|}{i}` (0 when no mark
is 1), ``p_n`` = ``1`` marks among the first :math:`n` over :math:`n`, ``judged_n`` = marks other than ``-``
among the first :math:`n` over :math:`n`, and ``relstring``, the marks and their count (``sh_eval``'s
``P_n``, ``Judged_n``, ``relString``).

**MAiSP** (mean average interpolated segment precision; Eskevich et al. 2012, as ``sh_eval``'s
``maisp.py``): the user watches each returned segment from its start; where it meets relevant content not
yet seen, they watch to the end of the relevant segment, which is then seen (removed, with a margin of one
second). Seconds retrieved :math:`T` and relevant seconds retrieved :math:`T_r` accumulate; at each recall
point :math:`r_k` reached (about 100 of them, from the relevant seconds :math:`R_s`), the segment precision
:math:`r_k / (T - (T_r - r_k))`; interpolated (the largest at or after each point), ``maisp`` is
:math:`(1 + \sum_k \mathrm{isp}_k) / |\text{points}|`, and ``maisp_0.05`` ... the interpolated precision at
the 5th ... point.

Overall (``all``): counts summed over the queries, the other values averaged over them, the queries being
those of the qrels that the run answers (a query the run leaves out counts in no value, a query of the run
without judgements is not scored), as ``sh_eval`` averages. Ranks order each query's list; equal ranks keep
the file's order (the score is not read). Nothing is known of the videos' lengths: a segment past a video's end
is scored as given.

The computation is columnar (:class:`tvseg.readers.trec.Qrels` and :class:`~tvseg.readers.trec.Run` as flat
arrays): the results ordered by (query, rank), the merged spans of each (query, video) found by a binary
search per result, the bins expanded and kept at their first appearance, AP summed in rank order; only the
tolerance variant and MAiSP, which remember what was seen, visit in order the results that meet relevant or
judged content (a result that touches none of a query's relevant segments adds its length to MAiSP's
retrieved seconds and nothing else).
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from tvseg.errors import InputError, UsageError
from tvseg.execution import chunks
from tvseg.readers.trec import Qrels, Run

__all__ = ["BIN_SIZE", "TOLERANCE", "MEASURES", "REGISTRY", "SearchMeasure", "score_run", "score_queries"]
__all__ += ["components_of", "overall_of", "score_in", "merge_results", "is_search_result", "sh_eval_lines"]
__all__ += ["HEADLINE", "TESTED", "check_result"]

BIN_SIZE = 300
"""Seconds per bin, MediaEval's (``sh_eval -B``)."""
TOLERANCE = 15
"""Seconds a user watches from a returned start, MediaEval's (``sh_eval -T``)."""

_RANKED = ("num_rel", "num_ret", "num_rel_ret", "map", "p_5", "p_10", "p_20", "judged_10", "judged_20", "judged_30")
_COUNTS = {"num_q", "num_rel", "num_ret", "num_rel_ret", "num_rel_secs", "num_ret_secs", "num_rel_ret_secs"}
_STATS = {"videos_ret", "videos_rel", "avglength_ret", "avglength_rel"}
_MAISP_POINTS = (5, 10, 20)
MEASURES = (
    ("num_q", "videos_ret", "videos_rel", "avglength_ret", "avglength_rel")
    + tuple(k + suffix for suffix in ("", "_bin", "_tol") for k in (*_RANKED, "relstring"))
    + ("num_rel_secs", "num_ret_secs", "num_rel_ret_secs", "maisp")
    + tuple(f"maisp_{p / 100:.2f}" for p in _MAISP_POINTS)
)
"""Every measure, in ``sh_eval``'s order, named as ``sh_eval`` names it in lower case (its ``P_5`` is ``p_5``,
``Judged_10`` ``judged_10``, ``relString`` ``relstring``; :func:`sh_eval_lines` prints its own spelling)."""


@dataclass(frozen=True)
class SearchMeasure:
    """One value over the queries (``all``), made of the per-query components as a corpus value of ``tvseg
    evaluate`` is made of its per-show components.

    Attributes
    ----------
    key : str
        Its name (:data:`MEASURES`).
    label : str
        A short plain-text label.
    components : tuple of str
        The per-query components its formula reads, each summed over the queries in their order (sorted ids),
        one float addition after another as ``sh_eval`` adds them: a component of a query is its value of the
        measure of that name, ``num_q`` is 1.
    formula : callable
        ``formula(sums)``: the value from the components' sums.
    undefined : str
        When it has no value and what it is then.
    """

    key: str
    label: str
    components: tuple[str, ...]
    formula: Callable[[Mapping[str, float]], float] = field(compare=False, repr=False)
    undefined: str


def _label(key: str) -> str:
    variant = {"_bin": " over bins", "_tol": " within the tolerance"}.get(key[-4:], "")
    base = key[:-4] if variant else key
    words = {
        "num_q": "queries",
        "videos_ret": "videos returned",
        "videos_rel": "videos with relevant content",
        "avglength_ret": "mean length returned (s)",
        "avglength_rel": "mean relevant length (s)",
        "num_rel": "relevant",
        "num_ret": "returned",
        "num_rel_ret": "relevant returned",
        "map": "MAP",
        "num_rel_secs": "relevant seconds",
        "num_ret_secs": "seconds returned",
        "num_rel_ret_secs": "relevant seconds returned",
        "maisp": "MAiSP",
    }
    if base in words:
        return words[base] + variant
    head, _, n = base.rpartition("_")
    return {"p": f"precision at {n}", "judged": f"judged at {n}", "maisp": f"MAiSP at recall {n}"}[head] + variant


def _summed(key: str) -> SearchMeasure:
    return SearchMeasure(key, _label(key), (key,), lambda sums: sums[key], "never (0 without queries)")


def _averaged(key: str) -> SearchMeasure:
    return SearchMeasure(
        key,
        _label(key),
        (key, "num_q"),
        lambda sums: sums[key] / float(sums["num_q"]) if sums["num_q"] else 0.0,
        "no query scored: 0.0, as sh_eval",
    )


def _is_count(key: str) -> bool:
    return key in _COUNTS or key.startswith(tuple(_COUNTS))


REGISTRY: tuple[SearchMeasure, ...] = tuple(
    (_summed if _is_count(k) else _averaged)(k) for k in MEASURES if not k.startswith("relstring")
)
"""The measures that have a value over the queries (all but ``relstring``): counts summed over the queries,
the others their sum over the queries divided by the number of queries (``sh_eval``'s mean)."""

TESTED: tuple[str, ...] = tuple(m.key for m in REGISTRY if not _is_count(m.key) and m.key not in _STATS)
"""The measures given a p-value when two runs are compared (``tvseg search``'s pairwise tests, ``tvseg compare``):
the means over the queries of a per-query rate (``map``, ``p_n``, ``judged_n``, ``maisp`` and their variants),
each higher-is-better; the counts and the statistics (``num_*``, ``videos_*``, ``avglength_*``) are shown, not
tested."""
HEADLINE = ("map", "map_bin", "map_tol", "maisp", "p_10", "p_10_bin", "p_10_tol")
"""The measures of ``tvseg search``'s summary: the family of tests Holm's correction adjusts together."""

# marks: 1 relevant, 0 judged not relevant, then these, printed as _MARK_TEXT spells them
_UNJUDGED, _SEEN, _SEEN_NOT_RELEVANT = 2, 3, 4
_MARK_TEXT = np.frombuffer(b"01-sS", dtype=np.uint8)


def _merged(group: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Spans sorted by (group, start, end), merged where they overlap or touch within a group: ``(group,
    start, end)`` of the merged spans, sorted by (group, start)."""
    out: list[tuple[int, int, int]] = []
    last: tuple[int, int, int] | None = None
    for g, a, b in zip(group.tolist(), start.tolist(), end.tolist()):
        if last is not None and last[0] == g and (last[1] <= a <= last[2] or a <= last[1] <= b):
            last = (g, min(last[1], a), max(last[2], b))
            continue
        if last is not None:
            out.append(last)
        last = (g, a, b)
    if last is not None:
        out.append(last)
    merged = np.array(out, dtype=np.int64).reshape(-1, 3)
    return merged[:, 0], merged[:, 1], merged[:, 2]


class _Spans:
    """Disjoint-or-not spans sorted by (group, start), searched by many results at once.

    Times are compared as their ranks among every time of the run and the judgements (``rank``, 1 up), a group ``g``'s time
    ``t`` as the key ``g * width + rank(t)``, so that one sorted array answers for every group. The prefix
    maxima of the ends (of the spans with ``start <= end``, and with ``start < end``) make a search exact
    whatever the spans."""

    def __init__(self, group: np.ndarray, start: np.ndarray, end: np.ndarray, rank, width: int) -> None:
        self.keys = group * width + rank(start)
        base = group * width
        ends = base + rank(end)
        self.touch_max = np.maximum.accumulate(np.where(start <= end, ends, base)) if len(ends) else ends
        self.meet_max = np.maximum.accumulate(np.where(start < end, ends, base)) if len(ends) else ends

    def touched(self, start_key: np.ndarray, end_key: np.ndarray) -> np.ndarray:
        """Whether each closed ``[s, e]`` (as keys) touches a span ``[a, b]`` of its group: ``a <= s <= b`` or
        ``s <= a <= e``."""
        if not len(self.keys):
            return np.zeros(len(start_key), dtype=bool)
        before = np.searchsorted(self.keys, start_key, side="right") - 1
        inside = np.searchsorted(self.keys, end_key, side="right") > np.searchsorted(self.keys, start_key, side="left")
        covering = (before >= 0) & (self.touch_max[np.maximum(before, 0)] >= start_key)
        return covering | inside

    def met(self, start_key: np.ndarray, end_key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Whether each half-open ``[x, y)`` (as keys) meets a span ``[a, b)`` of its group (``max(x, a) < min(y, b)``),
        and the largest key of the ends of the spans it meets (where it meets one)."""
        if not len(self.keys):
            return np.zeros(len(start_key), dtype=bool), np.zeros(len(start_key), dtype=np.int64)
        before = np.searchsorted(self.keys, end_key, side="left") - 1
        largest = self.meet_max[np.maximum(before, 0)]
        return (start_key < end_key) & (before >= 0) & (largest > start_key), largest


def _ranked_values(marks: np.ndarray, query: np.ndarray, n_queries: int, n_relevant: np.ndarray) -> dict:
    """``_RANKED``'s values and ``relstring`` of each query, as lists; ``marks`` in (query, rank) order."""
    counts = np.bincount(query, minlength=n_queries)
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    position = np.arange(len(query)) - first[query]
    hit = marks == 1
    before = np.concatenate(([0], np.cumsum(hit)))  # the relevant results before each entry, over all queries
    found = before[1:] - before[first][query]  # those up to each entry, in its query
    # AP summed in rank order: the k-th relevant result of every query added at the k-th step
    hits = np.flatnonzero(hit)
    term = found[hits] / (1.0 + position[hits])
    step = found[hits] - 1
    order = np.argsort(step, kind="stable")
    bounds = np.searchsorted(step[order], np.arange(step.max() + 2 if len(step) else 1))
    ap = np.zeros(n_queries)
    for k in range(len(bounds) - 1):
        chosen = order[bounds[k] : bounds[k + 1]]
        ap[query[hits[chosen]]] += term[chosen]
    with np.errstate(divide="ignore", invalid="ignore"):
        average = np.where(ap == 0, 0.0, ap / np.maximum(n_relevant, 1))
    values: dict[str, list] = {
        "num_rel": n_relevant.tolist(),
        "num_ret": counts.tolist(),
        "num_rel_ret": np.bincount(query[hit], minlength=n_queries).tolist(),
        "map": average.tolist(),
    }
    for n in (5, 10, 20):
        values[f"p_{n}"] = (np.bincount(query[hit & (position < n)], minlength=n_queries) / float(n)).tolist()
    judged = marks != _UNJUDGED
    for n in (10, 20, 30):
        values[f"judged_{n}"] = (np.bincount(query[judged & (position < n)], minlength=n_queries) / float(n)).tolist()
    text = _MARK_TEXT[marks].tobytes().decode("ascii")
    ends = np.cumsum(counts).tolist()
    values["relstring"] = [f"{text[e - c : e]} {c}" for e, c in zip(ends, counts.tolist())]
    return values


def _bins(start: np.ndarray, end: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(entry, bin)`` for each bin each segment covers, ``start // size`` to ``(end - 1) // size``, in the
    segments' order."""
    first = start // size
    count = np.maximum((end - 1) // size - first + 1, 0)
    entry = np.repeat(np.arange(len(start)), count)
    offsets = np.concatenate(([0], np.cumsum(count)[:-1]))
    return entry, first[entry] + np.arange(len(entry)) - offsets[entry]


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


def _seconds(value: int, ticks: int) -> int | float:
    """``value`` ticks in seconds: an integer when whole (as ``sh_eval``'s integer seconds)."""
    return value // ticks if value % ticks == 0 else value / ticks


def _mean(values: Sequence[float]) -> float:
    total: float = 0
    for v in values:
        total += v
    return total / float(len(values)) if values else 0.0


def score_run(
    qrels: Qrels,
    run: Run,
    *,
    ticks: int = 1,
    bin_size: int = BIN_SIZE,
    tolerance: int = TOLERANCE,
) -> tuple[dict[str, dict], dict]:
    """``(per query, all)``: :func:`score_queries`, and the values over the queries (:func:`overall_of`)."""
    queries = score_queries(qrels, run, ticks=ticks, bin_size=bin_size, tolerance=tolerance)
    return queries, overall_of(components_of(queries))


def components_of(queries: Mapping[str, Mapping]) -> dict[str, list]:
    """The per-query components of :data:`REGISTRY` of ``queries`` (as :func:`score_queries` gives them), as
    columns in the queries' order: ``num_q`` 1 each, every other its query's value of that measure."""
    keys = sorted({c for m in REGISTRY for c in m.components} - {"num_q"}, key=MEASURES.index)
    columns: dict[str, list] = {"num_q": [1] * len(queries)}
    columns.update({k: [values[k] for values in queries.values()] for k in keys})
    return columns


def overall_of(components: Mapping[str, Sequence]) -> dict:
    """Every value of :data:`REGISTRY` over the queries of ``components`` (:func:`components_of`): each
    component summed in the queries' order (Python's ``sum``, one addition after another from 0), then the
    entry's formula."""
    sums = {k: sum(column) for k, column in components.items()}
    return {m.key: m.formula(sums) for m in REGISTRY}


def is_search_result(document: Mapping) -> bool:
    """Whether ``document`` is a result of ``tvseg search --json``."""
    return document.get("task") == "search"


def merge_results(results: Sequence[tuple[str, Mapping]]) -> tuple[dict, dict]:
    """``(runs, settings)`` of ``tvseg search`` over the queries of every one of ``results``, from their
    per-query values and components: each run's queries put in one run's order (sorted ids) and reduced
    (:func:`overall_of`), so that every value equals that of the run over all the queries.

    Parameters
    ----------
    results : sequence of (str, mapping)
        ``(label, document)``: results of ``tvseg search --json`` (the label, a file name, names them), of the
        same settings and runs over queries that no two of them share.

    Returns
    -------
    tuple
        The runs, ``{name: (per query, all)}``, and the settings.

    Raises
    ------
    UsageError
        Results of other settings or other runs, or sharing a query, naming them.
    InputError
        A document that is not a result of ``tvseg search --json`` with components, naming it.
    """
    for label, document in results:
        check_result(label, document)
    first_label, first = results[0]
    for label, document in results[1:]:
        for key in sorted(set(first["settings"]) | set(document["settings"])):
            mine, theirs = first["settings"].get(key), document["settings"].get(key)
            if mine != theirs:
                raise UsageError(
                    f"{first_label} and {label} have other settings: {key} {mine!r} and {theirs!r}; "
                    "results to merge are of the same settings"
                )
        if list(first["runs"]) != list(document["runs"]):
            raise UsageError(
                f"{first_label} has the runs {list(first['runs'])} and {label} {list(document['runs'])}: results to "
                "merge are of the same runs"
            )
    merged: dict = {}
    for name in first["runs"]:
        where: dict[str, tuple[int, int]] = {}
        for k, (label, document) in enumerate(results):
            for position, query in enumerate(document["runs"][name]["components"]["queries"]):
                if query in where:
                    raise UsageError(
                        f"query {query!r} of run {name!r} is in {results[where[query][0]][0]} and in {label}: "
                        "results to merge share no query"
                    )
                where[query] = (k, position)
        order = sorted(where)
        runs = [document["runs"][name] for _, document in results]
        queries = {q: runs[where[q][0]]["queries"][q] for q in order}
        columns = {
            key: [runs[where[q][0]]["components"]["columns"][key][where[q][1]] for q in order]
            for key in first["runs"][name]["components"]["columns"]
        }
        merged[name] = (queries, overall_of(columns))
    return merged, dict(first["settings"])


def check_result(label: str, document: Mapping) -> None:
    """An :class:`~tvseg.errors.InputError` naming ``label`` unless ``document`` is a result of ``tvseg search
    --json`` whose runs carry their components."""
    if not is_search_result(document) or not isinstance(document.get("settings"), dict):
        raise InputError("not a result of tvseg search --json", path=label)
    runs = document.get("runs")
    if not isinstance(runs, dict):
        raise InputError("not a result of tvseg search --json (no runs)", path=label)
    needed = {c for m in REGISTRY for c in m.components}
    for name, values in runs.items():
        components = values.get("components") if isinstance(values, dict) else None
        queries = values.get("queries") if isinstance(values, dict) else None
        if not isinstance(components, dict) or not isinstance(queries, dict):
            raise InputError(f"run {name!r} carries no components (written by an older tvseg?)", path=label)
        columns, order = components.get("columns"), components.get("queries")
        if not isinstance(columns, dict) or not isinstance(order, list):
            raise InputError(f"run {name!r} carries no components (written by an older tvseg?)", path=label)
        if order != list(queries) or set(columns) != needed:
            raise InputError(f"run {name!r}: its components are not those of its queries", path=label)
        if any(not isinstance(c, list) or len(c) != len(order) for c in columns.values()):
            raise InputError(f"run {name!r}: a component has not one value per query", path=label)


def score_in(
    work,
    qrels: Qrels,
    run: Run,
    *,
    ticks: int = 1,
    bin_size: int = BIN_SIZE,
    tolerance: int = TOLERANCE,
) -> dict[str, dict]:
    """:func:`score_queries` mapped by ``work``, an engine of :mod:`tvseg.execution` (processes or Dask
    tasks), over ranges of the queries (:func:`tvseg.execution.chunks`), each task given the judgements and
    results of its queries only: the same values as one process, the queries in the same order."""
    names = sorted(set(run.query_names) & set(qrels.query_names))
    if work.workers == 1:
        return score_queries(qrels, run, ticks=ticks, bin_size=bin_size, tolerance=tolerance)
    tasks = []
    for a, b in chunks(len(names), work.workers):
        part = names[a:b]
        tasks.append(work.submit(_score_part, _only(qrels, part), _only(run, part), part, ticks, bin_size, tolerance))
    out: dict[str, dict] = {}
    for values in work.gather(tasks):
        out.update(values)
    return out


def _only(table, names: Sequence[str]):
    """``table`` (a :class:`Qrels` or :class:`Run`) with the entries of the queries ``names`` only."""
    import dataclasses

    wanted = np.isin(np.asarray(table.query_names, dtype=object), list(names))
    kept = wanted[table.query] if len(table.query) else np.zeros(0, dtype=bool)
    arrays = {f.name: getattr(table, f.name)[kept] for f in dataclasses.fields(table) if not f.name.endswith("_names")}
    return dataclasses.replace(table, **arrays)


def _score_part(qrels: Qrels, run: Run, names: list[str], ticks: int, bin_size: int, tolerance: int) -> dict:
    return score_queries(qrels, run, ticks=ticks, bin_size=bin_size, tolerance=tolerance, names=names)


def score_queries(
    qrels: Qrels,
    run: Run,
    *,
    ticks: int = 1,
    bin_size: int = BIN_SIZE,
    tolerance: int = TOLERANCE,
    names: Sequence[str] | None = None,
) -> dict[str, dict]:
    """Every measure of :data:`MEASURES` (but ``num_q``) of each query of ``qrels`` that ``run`` answers
    (sorted by id), as the module defines them. A query's values depend on its own judgements and results
    only: those of a part of the queries (``names``) are theirs among all.

    Parameters
    ----------
    qrels : Qrels
        The judgements (:func:`tvseg.readers.trec.read_qrels`).
    run : Run
        The returned segments (:func:`tvseg.readers.trec.read_run`); each query's ordered by rank, equal
        ranks in the file's order.
    ticks : int
        Ticks per second of the times (:data:`tvseg.readers.trec.TICKS`).
    bin_size, tolerance : int
        Seconds.
    names : sequence of str, optional
        Only these queries (those of them that both answer and judge).
    """
    scored = set(run.query_names) & set(qrels.query_names)
    names = sorted(scored if names is None else scored & set(names))
    n_queries = len(names)
    position = {name: k for k, name in enumerate(names)}
    videos = sorted(set(run.video_names) | set(qrels.video_names))
    video_code = {name: k for k, name in enumerate(videos)}
    n_videos = max(len(videos), 1)

    def recoded(table: Qrels | Run) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        query = np.array([position.get(n, -1) for n in table.query_names], dtype=np.int64)[table.query]
        video = np.array([video_code[n] for n in table.video_names], dtype=np.int64)[table.video]
        kept = query >= 0
        return kept, query[kept] * n_videos + video[kept], query[kept]

    # judgements by (query, video name, start, end): merged per (query, video), relevant apart from the others
    kept, j_group, _ = recoded(qrels)
    j_start, j_end, relevant = qrels.start[kept], qrels.end[kept], qrels.relevance[kept] > 0
    order = np.lexsort((j_end, j_start, j_group))
    j_group, j_start, j_end, relevant = j_group[order], j_start[order], j_end[order], relevant[order]
    rel = _merged(j_group[relevant], j_start[relevant], j_end[relevant])
    non = _merged(j_group[~relevant], j_start[~relevant], j_end[~relevant])

    # results by (query, rank), equal ranks in the file's order
    kept, r_group, r_query = recoded(run)
    order = np.lexsort((run.rank[kept], r_query))
    r_group, r_query = r_group[order], r_query[order]
    r_start, r_end = run.start[kept][order], run.end[kept][order]
    counts = np.bincount(r_query, minlength=n_queries)
    tolerance_ticks = tolerance * ticks
    watch_end = r_start + tolerance_ticks
    point_end = np.where(r_end == 0, r_start + 1, r_end)  # [s, 0) is the point s, as sh_eval's interval test

    times = np.unique(np.concatenate((rel[1], rel[2], non[1], non[2], r_start, r_end, watch_end, point_end)))
    width = len(times) + 1

    def rank(values: np.ndarray) -> np.ndarray:
        return np.searchsorted(times, values) + 1

    rel_spans = _Spans(rel[0], rel[1], rel[2], rank, width)
    non_spans = _Spans(non[0], non[1], non[2], rank, width)
    base = r_group * width
    start_key, end_key = base + rank(r_start), base + rank(r_end)

    # segment variant
    touches_relevant = rel_spans.touched(start_key, end_key)
    segment = np.where(touches_relevant, 1, np.where(non_spans.touched(start_key, end_key), 0, _UNJUDGED))
    n_relevant = np.bincount(rel[0] // n_videos, minlength=n_queries)

    # bin variant: each result's bins, each kept where it first appears in its query's ranking
    size = bin_size * ticks
    entry, r_bins = _bins(r_start, r_end, size)
    rel_bins = _bins(j_start[relevant], j_end[relevant], size)
    non_bins = _bins(j_start[~relevant], j_end[~relevant], size)
    bin_groups = np.concatenate((r_group[entry], j_group[relevant][rel_bins[0]], j_group[~relevant][non_bins[0]]))
    distinct_bins, bin_rank = np.unique(np.concatenate((r_bins, rel_bins[1], non_bins[1])), return_inverse=True)
    bin_keys = bin_groups * len(distinct_bins) + bin_rank
    n_ret = len(entry)
    n_rel = len(rel_bins[0])
    returned_bins, relevant_bins, judged_bins = (
        bin_keys[:n_ret],
        bin_keys[n_ret : n_ret + n_rel],
        bin_keys[n_ret + n_rel :],
    )
    first = np.sort(np.unique(returned_bins, return_index=True)[1])
    returned_bins = returned_bins[first]
    bin_marks = np.where(
        np.isin(returned_bins, relevant_bins), 1, np.where(np.isin(returned_bins, judged_bins), 0, _UNJUDGED)
    )
    bin_query = r_query[entry[first]]
    relevant_bin_groups = bin_groups[n_ret : n_ret + n_rel][np.unique(relevant_bins, return_index=True)[1]]
    n_relevant_bins = np.bincount(relevant_bin_groups // n_videos, minlength=n_queries)

    # tolerance variant: in order, only the results meeting relevant content within the tolerance or judged
    # content within themselves
    meets, top = rel_spans.met(start_key, base + rank(watch_end))
    meets_judged, _ = non_spans.met(start_key, base + rank(point_end))
    top_end = times[np.clip(top - base - 1, 0, len(times) - 1)]
    tol = np.full(len(r_start), _UNJUDGED)
    watched: dict[int, list[tuple[int, int]]] = {}
    visited = np.flatnonzero(meets | meets_judged)
    for k, g, s, e, m, b in zip(
        visited.tolist(),
        r_group[visited].tolist(),
        r_start[visited].tolist(),
        r_end[visited].tolist(),
        meets[visited].tolist(),
        top_end[visited].tolist(),
    ):
        spans = watched.setdefault(g, [])
        if e == 0:
            already = any(a <= s < z for a, z in spans)
        else:
            already = any(max(s, a) < min(e, z) for a, z in spans)
        if m:
            if already:
                tol[k] = _SEEN
            else:
                spans.append((s, max(b, s + tolerance_ticks)))
                tol[k] = 1
        else:
            tol[k] = _SEEN_NOT_RELEVANT if already else 0

    values: dict[str, list] = {
        "videos_ret": np.bincount(np.unique(r_group) // n_videos, minlength=n_queries).tolist(),
        "videos_rel": np.bincount(np.unique(rel[0]) // n_videos, minlength=n_queries).tolist(),
    }
    length_sums = np.zeros(n_queries, dtype=np.int64)
    np.add.at(length_sums, r_query, r_end - r_start)
    values["avglength_ret"] = [_seconds(t, ticks) / float(n) for t, n in zip(length_sums.tolist(), counts.tolist())]
    span_lengths: list[list[int | float]] = [[] for _ in range(n_queries)]
    for g, a, b in zip(rel[0].tolist(), rel[1].tolist(), rel[2].tolist()):
        span_lengths[g // n_videos].append(_seconds(b - a, ticks))
    values["avglength_rel"] = [_mean(column) for column in span_lengths]
    for suffix, marks, query, count in (
        ("", segment, r_query, n_relevant),
        ("_bin", bin_marks, bin_query, n_relevant_bins),
        ("_tol", tol, r_query, n_relevant),
    ):
        values.update({k + suffix: v for k, v in _ranked_values(marks, query, n_queries, count).items()})
    values.update(_maisp(rel, r_query, r_group, r_start, r_end, touches_relevant, n_queries, n_videos, ticks))
    keys = [k for k in MEASURES if k != "num_q"]
    return {name: {k: values[k][q] for k in keys} for q, name in enumerate(names)}


def _maisp(
    rel: tuple[np.ndarray, np.ndarray, np.ndarray],
    query: np.ndarray,
    group: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    touches: np.ndarray,
    n_queries: int,
    n_videos: int,
    ticks: int,
) -> dict[str, list]:
    """MAiSP's values of each query (``sh_eval``'s ``MAiSPCalculator`` with the user consuming the relevant
    segment), in ticks: its margin of 1 s and its least span of 0.01 s as ticks, exact. Only the results that
    touch a relevant segment (``touches``, results in (query, rank) order) are visited in order; the others add
    their length to the seconds retrieved."""
    spans_of: dict[int, list[tuple[int, int]]] = {}
    totals = [0] * n_queries
    for g, a, b in zip(rel[0].tolist(), rel[1].tolist(), rel[2].tolist()):
        spans_of.setdefault(g, []).append((a, b))
        totals[g // n_videos] += max(b - a, 0)
    plain = np.where(touches, 0, np.maximum(end - start, 0))
    before = np.cumsum(plain) - plain  # the plain lengths before each result, over every query
    query_first = np.concatenate(([0], np.cumsum(np.bincount(query, minlength=n_queries))[:-1]))
    before = before - before[query_first][query] if len(before) else before
    retrieved_total = np.zeros(n_queries, dtype=np.int64)
    np.add.at(retrieved_total, query, plain)
    retrieved = retrieved_total.tolist()
    relevant_retrieved = [0] * n_queries
    precisions: list[list[float]] = [[] for _ in range(n_queries)]
    points_of: dict[int, list[int]] = {}
    visited = np.flatnonzero(touches)
    current = -1
    relevant: dict[int, list[tuple[int, int]]] = {}
    extra = found = 0
    point = 1
    points: list[int] = []
    for q, g, s, e, earlier in zip(
        query[visited].tolist(),
        group[visited].tolist(),
        start[visited].tolist(),
        end[visited].tolist(),
        before[visited].tolist(),
    ):
        if q != current:
            if current >= 0:
                retrieved[current] += extra
                relevant_retrieved[current] = found
            current, relevant, extra, found, point = q, {}, 0, 0, 1
            points = points_of[q] = _recall_points(totals[q], ticks)
        spans = relevant.get(g)
        if spans is None:
            spans = list(spans_of[g])
        so_far = earlier + extra
        window = s  # the window's start, moved on by what was watched (sh_eval adds the total watched so far)
        kept: list[tuple[int, int]] = []
        watched = 0
        for a, b in spans:
            if not (a <= window <= b or window <= a <= e):
                kept.append((a, b))
                continue
            over = a if a > window else window
            gain = b - over if b > over else 0
            found += gain
            watched += over - window + gain
            while point < len(points) and points[point] <= found:
                precisions[q].append(points[point] / (so_far + watched - (found - points[point])))
                point += 1
            # what is left of the span before the part watched, with sh_eval's margin (its part after the
            # watched part, from the span's end plus the margin, is always empty)
            if a < over and 100 * (over - ticks - a) >= ticks:
                kept.append((a, over - ticks))
            window += watched
        extra += max(watched, e - s)
        relevant[g] = kept
    if current >= 0:
        retrieved[current] += extra
        relevant_retrieved[current] = found
    values: dict[str, list] = {
        "num_rel_secs": [_seconds(t, ticks) for t in totals],
        "num_ret_secs": [_seconds(t, ticks) for t in retrieved],
        "num_rel_ret_secs": [_seconds(t, ticks) for t in relevant_retrieved],
        "maisp": [0.0] * n_queries,
    }
    for p in _MAISP_POINTS:
        values[f"maisp_{p / 100:.2f}"] = [0.0] * n_queries
    for q, precision in enumerate(precisions):
        if not precision:
            continue
        interpolated = list(itertools.accumulate(reversed(precision), max))[::-1]  # the largest at or after
        values["maisp"][q] = functools.reduce(operator.add, interpolated, 1.0) / len(points_of[q])  # in order
        for p in _MAISP_POINTS:
            if p < len(interpolated):
                values[f"maisp_{p / 100:.2f}"][q] = interpolated[p]
    return values


def _printed(key: str) -> str:
    """``sh_eval``'s spelling of a measure's name."""
    for ours, theirs in (("p_", "P_"), ("judged_", "Judged_"), ("relstring", "relString")):
        if key.startswith(ours):
            return theirs + key[len(ours) :]
    return key


def sh_eval_lines(
    name: str, queries: Mapping[str, Mapping], overall: Mapping, *, bin_size: int, tolerance: int
) -> list[str]:
    """The lines ``sh_eval`` prints for a run: ``measure<TAB>query<TAB>value`` per query then ``all``, its
    header of constants first, each value formatted as it formats it (counts and statistics as integers,
    truncated; measures to 4 decimals), columns padded as it pads them."""
    rows = [
        ["runid", "all", name],
        ["size_bin", "all", str(bin_size)],
        ["tol_len", "all", str(tolerance)],
        ["mark_relevant", "all", "1"],
        ["mark_non_relevant", "all", "0"],
        ["mark_relevant_seen", "all", "s"],
        ["mark_non-relevant_seen", "all", "S"],
        ["mark_unjudged", "all", "-"],
    ]

    def formatter(key: str):
        if key.startswith("relstring"):
            return str
        integer = key in _STATS or any(key == c or key.startswith(c + "_") for c in _COUNTS)
        return (lambda value: str(int(value))) if integer else "{:.4f}".format

    shown = [(k, _printed(k), formatter(k)) for k in MEASURES if k != "num_q"]
    for query, values in queries.items():
        rows += [[printed, query, text(values[k])] for k, printed, text in shown]
    rows += [[_printed(k), "all", formatter(k)(overall[k])] for k in MEASURES if k in overall]
    w = [min(20, max(len(row[i]) for row in rows)) for i in range(3)]
    return [f"{a.ljust(w[0])}\t{b.ljust(w[1])}\t{c.ljust(w[2])}" for a, b, c in rows]
