"""The report's pages read from a :class:`tvseg.evaluation.EvaluationResult`, one show at a time.

Everything the pages show comes from the result as computed: per-show metrics, pooled and macro
scores with their bootstrap intervals, ``by_length``, groups, sweeps, pairwise tests, the match
tables, the boundaries of each side and the pairs matched among them, as scored.
``data/scores.json`` is ``result.to_json()`` itself.

:class:`ResultPages` groups the result's rows by show once (offsets into arrays sorted by show) and
builds a show's :class:`~tvseg.report.pages.ShowPage` by slicing those arrays when its page is
written: no per-page table lookups by label, and no object per page kept. :func:`from_evaluation`
builds the whole :class:`~tvseg.report.model.Report` model from the same pages, for scripts and
tests that want it.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import replace

import numpy as np
import pandas as pd

from tvseg.evaluation import DURATION_CLASSES, by_duration
from tvseg.output import with_run_id
from tvseg.report.air_time import air_time
from tvseg.report.analysis import analyse
from tvseg.report.failures import failures
from tvseg.report.model import Comparison, Estimate, Report, SystemSummary, defined
from tvseg.report.pages import ShowPage, SystemPage, defined_keys, scores_chunks, to_show
from tvseg.report.summary import title_scripts
from tvseg.retrieval.reductions import by_show_duration, show_duration_labels
from tvseg.retrieval.titles import has_title

__all__ = ["ResultPages", "from_evaluation"]


def _value(v):
    """Python scalar, or None for NaN / missing."""
    if isinstance(v, np.generic):
        v = v.item()
    return v if defined(v) else None


def _label(v):
    v = _value(v)
    return None if v is None else str(v)


def _labels(values) -> list:
    return [v if type(v) is str else _label(v) for v in values]


def _column(series: pd.Series) -> np.ndarray:
    """A column's values: a numpy array (a view where pandas holds one); text as an object array of
    ``str``, None where missing (sliced and listed quickly, page after page)."""
    if series.dtype.kind in "biufc":
        return series.to_numpy()
    if isinstance(series.dtype, pd.StringDtype):  # each distinct text one object: a shard's rows share a few
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
        return np.array([*uniques.astype(object).tolist(), None], dtype=object)[codes]
    return np.array(_labels(series.astype(object).tolist()), dtype=object)


def _per_show(column: np.ndarray, where: np.ndarray) -> list:
    """A metric's value on each show (None where not available); show ``k``'s row is ``where[k]``, -1 for none."""
    values = [_value(v) for v in column.tolist()] + [None]
    return [values[r] for r in where.tolist()]


def _per_show_values(column: np.ndarray, where: np.ndarray):
    """:func:`_per_show`, as a float array (NaN where not available) when the column holds numbers."""
    if column.dtype.kind not in "fiu":
        return _per_show(column, where)
    values = np.full(len(where), np.nan)
    found = where >= 0
    values[found] = column[where[found]]
    return values


def _numbers(values: np.ndarray) -> list:
    """A float array as a list, None for NaN."""
    return [None if v != v else v for v in values.tolist()]


def _metrics(row: dict) -> dict:
    return {str(k): _value(v) for k, v in row.items()}


def _by_show(show_index: np.ndarray, n_shows: int) -> np.ndarray:
    """``offsets[s]:offsets[s + 1]`` index the rows of show ``s`` (rows sorted by show)."""
    return np.searchsorted(show_index, np.arange(n_shows + 1), side="left")


def _summary(name: str, sr, intervals: dict, *, durations: bool) -> SystemSummary:
    """A system's summary; ``durations``: its shows are timed, and its JSON has its values by show duration."""
    ci = intervals.get(name, {}) or {}
    corpus = {}
    for key, value in sr.corpus.items():
        bounds = ci.get(key) or {}
        corpus[str(key)] = Estimate(_value(value), _value(bounds.get("low")), _value(bounds.get("high")))
    gamma = tuple(
        (float(r["gamma"]), _value(r.get("cov_n")), _value(r.get("cov_d")))
        for r in sr.gamma_sweep.sort_values("gamma").to_dict(orient="records")
    )
    tolerance = tuple(
        (float(r["tolerance"]), _value(r.get("boundary_f1")))
        for r in sr.tolerance_sweep.sort_values("tolerance").to_dict(orient="records")
    )
    return SystemSummary(
        name=name,
        corpus=corpus,
        macro=_metrics(sr.macro),
        by_length={str(part): _metrics(values) for part, values in sr.by_length.items()},
        groups={str(kind): {str(v): _metrics(m) for v, m in values.items()} for kind, values in sr.groups.items()},
        by_show_duration={
            label: _metrics(m) for label, m in by_show_duration(sr.scores.components, titles=sr.titles).items()
        },
        macro_by_duration=_macro_by_duration(sr) if durations else {},
        gamma_sweep=gamma,
        tolerance_sweep=tolerance,
    )


def _macro_by_duration(sr) -> dict:
    """The macro values of each class of show durations that holds a show, as the JSON's ``by_duration`` holds
    them (:func:`tvseg.evaluation.by_duration`, its ``macro``), under the corpus page's name of the class's
    bucket, with its ``class`` (the JSON's name) and ``n_shows``."""
    labels = dict(zip(DURATION_CLASSES, show_duration_labels()))
    return {
        labels[name]: {"class": name, "n_shows": values["shows"], **_metrics(values["macro"])}
        for name, values in by_duration(sr).items()
        if values["shows"]
    }


def _has_output(sr, n: int) -> np.ndarray:
    """Whether the system's input had each of the ``n`` shows (all of them when not said)."""
    return np.ones(n, dtype=bool) if sr.has_output is None else np.asarray(sr.has_output, dtype=bool)


_MATCH_COLUMNS = {
    "ref_start": "start",
    "ref_end": "end",
    "ref_label": "label",
    "hyp_start": "partner_start",
    "hyp_end": "partner_end",
    "hyp_label": "partner_label",
    "cov_to": "cov_to",
    "cov_from": "cov_from",
    "coverage": "coverage",
    "story": "story",
}
"""The match table's column (:func:`tvseg.retrieval.stories.match_table`) of each column of a page's table."""


class _System:
    """One system's arrays, grouped by show once."""

    def __init__(self, name: str, sr, shows: pd.Index):
        n = len(shows)
        scores = sr.scores
        self.name = name
        hyp = scores.hypothesis
        self.hyp_off = hyp.offsets()
        self.hyp_start, self.hyp_end, self.hyp_label = hyp.start, hyp.end, hyp.label
        r_show, self.r_time, h_show, self.h_time = scores.boundaries
        pair_i, pair_j = scores.pairs
        self.r_missed = np.ones(len(self.r_time), dtype=bool)
        self.r_missed[pair_i] = False
        self.h_false = np.ones(len(self.h_time), dtype=bool)
        self.h_false[pair_j] = False
        self.r_off, self.h_off = _by_show(r_show, n), _by_show(h_show, n)
        # the match table's columns as they are (no copy); its reference rows come first, in the
        # reference's order, so a page takes rows a:b of the show's reference segments
        m = sr.matches
        self.ref_correct, self.hyp_correct = scores.correct
        self.rows = {column: _column(m[name]) for column, name in _MATCH_COLUMNS.items() if name in m}
        # titles are judged on correctly retrieved, titled reference segments only: NaN elsewhere
        f1 = scores.reference_title_f1
        if f1 is None:
            self.title_f1 = None
        else:
            n_ref = len(self.ref_correct)
            codes, uniques = pd.factorize(pd.Series(self.rows["ref_label"][:n_ref], dtype=object))
            titled = np.array([has_title(u) for u in uniques] + [False], dtype=bool)[codes]
            self.title_f1 = np.where(self.ref_correct & titled, np.asarray(f1, dtype=float)[:n_ref], np.nan)
        pairs = sr.boundary_pairs
        pair_show = shows.get_indexer(pairs["show"]) if len(pairs) else np.empty(0, dtype=np.int64)
        order = np.argsort(pair_show, kind="stable")
        self.pairs_ref = pairs["reference"].to_numpy(dtype=float)[order]
        self.pairs_hyp = pairs["hypothesis"].to_numpy(dtype=float)[order]
        self.p_off = _by_show(pair_show[order], n)
        self.has_output = _has_output(sr, n)
        frame = sr.shows
        self.metric_row = frame.index.get_indexer(shows) if len(frame) else np.full(n, -1)
        # each metric's column as it is (a view): a page converts its show's row alone
        self.metric_columns = {str(c): frame[c].to_numpy() for c in frame.columns}

    def _metrics_of(self, k: int) -> dict:
        """Show ``k``'s metric values (None where not defined); empty for a show without a row."""
        row = int(self.metric_row[k])
        return {} if row < 0 else {name: _value(column[row]) for name, column in self.metric_columns.items()}

    def page(self, k: int, a: int, b: int) -> SystemPage:
        ha, hb = self.hyp_off[k], self.hyp_off[k + 1]
        pa, pb = self.p_off[k], self.p_off[k + 1]
        ra, rb = self.r_off[k], self.r_off[k + 1]
        xa, xb = self.h_off[k], self.h_off[k + 1]
        rows = {c: values[a:b].tolist() for c, values in self.rows.items()}
        for c in ("hyp_start", "hyp_end"):  # NaN where no hypothesis segment overlaps: None on the page
            rows[c] = [None if v != v else v for v in rows[c]]
        title_f1 = [None] * (b - a) if self.title_f1 is None else _numbers(self.title_f1[a:b])
        return SystemPage(
            name=self.name,
            metrics=self._metrics_of(k),
            seg_start=self.hyp_start[ha:hb].tolist(),
            seg_end=self.hyp_end[ha:hb].tolist(),
            seg_label=_labels(self.hyp_label[ha:hb].tolist()),
            seg_correct=self.hyp_correct[ha:hb].tolist(),
            matched_ref=self.pairs_ref[pa:pb].tolist(),
            matched_hyp=self.pairs_hyp[pa:pb].tolist(),
            missed=self.r_time[ra:rb][self.r_missed[ra:rb]].tolist(),
            false_alarms=self.h_time[xa:xb][self.h_false[xa:xb]].tolist(),
            correct=self.ref_correct[a:b].tolist(),
            title_f1=title_f1,
            has_output=bool(self.has_output[k]),
            **rows,
        )

    def match_columns(self, n_ref: int) -> dict:
        """The match table's columns for the reference rows of every show (:func:`tvseg.report.datafiles.match_lines`)."""
        columns: dict = {c: values[:n_ref] for c, values in self.rows.items()}
        columns["correct"] = np.asarray(self.ref_correct[:n_ref], dtype=bool)
        columns["title_f1"] = self.title_f1
        return columns


class _Source:
    """What the pages of an evaluation result share (see :mod:`tvseg.report.pages` for what a source of pages
    offers): its header, each system's per-show table and the shows it had no output for."""

    annotators = None

    def __init__(self, result, date: str | None):
        self.result = result
        self.show_ids = [str(s) for s in result.shows]
        shows = pd.Index(list(result.shows))
        self.header = _header(result, date)
        # per system: its per-show table, the row of each show in it; each metric's values listed when asked
        # (the corpus page's table asks for a few), not every metric's over every show at once
        self._tables = []
        # per system (in the result's order), a bool array over shows: its input had no output for the show
        self.no_output = []
        for sr in result.systems.values():
            frame = sr.shows
            self._tables.append((frame, frame.index.get_indexer(shows) if len(frame) else np.full(len(shows), -1)))
            self.no_output.append(~_has_output(sr, len(shows)))
        self._by_show = _metadata_by_show(result)

    def __len__(self) -> int:
        return len(self.show_ids)

    def present(self) -> set:
        """The metric keys some system has a value for (corpus, macro or any show)."""
        keys = defined_keys(self.header)
        for frame, _ in self._tables:
            if len(frame):
                keys |= {str(c) for c in frame.columns[frame.notna().any().to_numpy()]}
        return keys

    def show_metrics(self, keys) -> list:
        """Per system, one sequence per key: its value on every show (None where not available); a float
        array (NaN where not available) for a column of numbers."""
        missing = [None] * len(self)
        columns = [{str(c): c for c in frame.columns} for frame, _ in self._tables]
        return [
            [_per_show_values(frame[named[key]].to_numpy(), rows) if key in named else missing for key in keys]
            for (frame, rows), named in zip(self._tables, columns)
        ]

    def scores_json(self, run_id: str | None = None):
        """``data/scores.json``: ``result.to_json()`` as ``--json`` writes it (with ``run_id``), in
        pieces (the per-show tables a block of rows at a time, each row on one line, as ``--json``
        streams them: the text of a large corpus is never held whole)."""
        return scores_chunks(with_run_id(self.result.to_json(stream=True), run_id))


class ResultPages(_Source):
    """The pages of an evaluation result, sliced from its arrays.

    Parameters
    ----------
    result : tvseg.evaluation.EvaluationResult
    date : str, optional
        Shown in the footers (default: today, ISO format).
    """

    def __init__(self, result, *, date: str | None = None):
        super().__init__(result, date)
        part = ShardPages(list(result.systems.items()), pd.Index(list(result.shows)), self.show_ids, self._by_show)
        self.systems, self.reference, self.ref_off = part.systems, part.reference, part.ref_off
        self.start, self.end, self.metadata = part.start, part.end, part.metadata
        self.analysis = analyse(result)  # the corpus page's retrieval by duration, position, group
        self.failures = failures(result, self.header)  # the corpus page's "where each system fails"
        self.page, self.match_systems = part.page, part.match_systems

    @property
    def title_scripts(self) -> tuple[int, int, frozenset[str]]:
        """:func:`tvseg.report.summary.title_scripts` of the reference's titles."""
        return title_scripts(() if self.reference is None else self.reference.label)


class ShardPages:
    """The pages of consecutive shows (all of a result's, or one shard's of :meth:`ShardedPages.shards`), sliced
    from the arrays of each system (``(name, result)`` pairs, :class:`tvseg.evaluation.SystemResult` or its part
    on the shows) and of the reference, grouped by show: show ``first + k`` of the corpus is ``page(k)``;
    ``match_systems()`` gives, per system, ``(name, show index of each match row, columns)`` for all its shows
    at once (:func:`tvseg.report.datafiles.match_lines`)."""

    def __init__(self, named: list, shows: pd.Index, show_ids: list, by_show: dict, first: int = 0):
        n = len(shows)
        self.first, self.show_ids = first, show_ids
        self.systems = [_System(name, sr, shows) for name, sr in named]
        # The reference is the same Segments object for every system; take it from the first.
        self.reference = named[0][1].scores.reference if named else None
        self.ref_off = self.reference.offsets() if self.reference is not None else np.zeros(n + 1, dtype=np.int64)
        start, end = np.full(n, np.inf), np.full(n, -np.inf)
        for _, sr in named:
            start = np.fmin(start, sr.scores.region_start)
            end = np.fmax(end, sr.scores.region_end)
        self.start = np.where(np.isfinite(start), start, 0.0)
        self.end = np.where(np.isfinite(end), end, self.start)
        self.metadata = _air_times(by_show, show_ids, self.start, self.end)

    def __len__(self) -> int:
        return len(self.show_ids)

    def match_systems(self) -> list:
        n_ref = int(self.ref_off[-1])
        show_of_row = np.repeat(np.arange(len(self.start)), np.diff(self.ref_off))
        return [(s.name, show_of_row, s.match_columns(n_ref)) for s in self.systems]

    def page(self, k: int) -> ShowPage:
        """The data of show ``k``'s page."""
        a, b = int(self.ref_off[k]), int(self.ref_off[k + 1])
        ref = self.reference
        if ref is None:
            ref_start, ref_end, ref_label = [], [], []
        else:
            ref_start, ref_end = ref.start[a:b].tolist(), ref.end[a:b].tolist()
            ref_label = _labels(ref.label[a:b].tolist())
        return ShowPage(
            show_id=self.show_ids[k],
            start=float(self.start[k]),
            end=float(self.end[k]),
            metadata=self.metadata[k],
            ref_start=ref_start,
            ref_end=ref_end,
            ref_label=ref_label,
            systems=[s.page(k, a, b) for s in self.systems],
        )


def _metadata_by_show(result) -> dict:
    by_show = {}
    if result.metadata is not None and len(result.metadata):
        for show, row in result.metadata.to_dict(orient="index").items():
            by_show[str(show)] = {str(k): str(v) for k, v in row.items() if _value(v) is not None}
    return by_show


def _air_times(by_show: dict, show_ids, start, end) -> list:
    """Each show's metadata as its page shows it (:func:`tvseg.report.air_time.air_time`)."""
    return [air_time(by_show.get(show, {}), float(a), float(b)) for show, a, b in zip(show_ids, start, end)]


def _header(result, date: str | None) -> Report:
    """The report's header (no show): signature, version, date, each system's summary, the comparisons."""
    from tvseg import __version__

    values = ("p_value", "difference", "p_value_holm")
    bounds = ("p_value_is_bound", "p_value_holm_is_bound")
    comparisons = tuple(
        Comparison(
            str(c["a"]),
            str(c["b"]),
            str(c["metric"]),
            *(_value(c.get(key)) for key in values),
            *(bool(c.get(key)) for key in bounds),
        )
        for c in result.pairwise
    )
    return Report(
        signature=result.settings.signature(),
        version=__version__,
        date=date or _dt.date.today().isoformat(),
        systems=tuple(
            _summary(name, sr, result.intervals, durations=result.domain == "time")
            for name, sr in result.systems.items()
        ),
        shows=(),
        comparisons=comparisons,
        settings=dict(result.settings.as_dict()),
        n_shows=len(result.shows),
    )


def from_evaluation(result, *, date: str | None = None) -> Report:
    """The whole report model of an evaluation result (the pages of every show, held at once).

    :func:`tvseg.report.write_report` does not build it: it writes each page from the result.

    Parameters
    ----------
    result : tvseg.evaluation.EvaluationResult
    date : str, optional
        Shown in the footers (default: today, ISO format).

    Returns
    -------
    Report
    """
    pages = ResultPages(result, date=date)
    shows = tuple(to_show(pages.page(k)) for k in range(len(pages)))
    return replace(pages.header, shows=shows, scores=result.to_json(), n_shows=None)


class ShardedPages(_Source):
    """The pages of an evaluation result without segments whose shards' segments were written to files
    (:func:`tvseg.scale.evaluate_files_spilled`): the corpus's values come from the result, the show pages and
    the match tables from each shard's file, read one shard at a time (:meth:`shards`).

    What the corpus page draws from every show's segments (the retrieval analysis, the thirds of the shows
    of the failures, the title scripts) is counted shard by shard as :meth:`shards` reads them, and is there
    once every shard has been read. The pages and files are those of :class:`ResultPages` on the same
    evaluation with its segments, byte for byte.

    Parameters
    ----------
    result : tvseg.evaluation.EvaluationResult
    segment_files : list of tvseg.scale.SegmentFile
        Its shards, in show order.
    date : str, optional
        Shown in the footers (default: today, ISO format).
    """

    def __init__(self, result, segment_files, *, date: str | None = None):
        super().__init__(result, date)
        self.segment_files = list(segment_files)
        n = len(self.show_ids)
        self.start, self.end = np.zeros(n), np.zeros(n)
        self.metadata: list = []
        self.analysis = None
        self.failures = None
        self.title_scripts: tuple[int, int, frozenset[str]] = (0, 0, frozenset())

    def shards(self):
        """Each shard's pages in show order (:class:`ShardPages`), its file read when it comes; when the last
        has been given, the corpus's ``analysis``, ``failures``, ``metadata`` and ``title_scripts`` are set."""
        from tvseg.report.analysis import analysis_part, combine, groups
        from tvseg.report.failures import failures_of_report, thirds

        result = self.result
        names = list(result.systems)
        parts, counts = [], None
        scripts = [0, 0, set()]
        for segment_file in self.segment_files:
            first, n = segment_file.first, segment_file.shows
            loaded = segment_file.load()
            shows = pd.Index(list(result.shows[first : first + n]))
            named = []
            for name in names:
                scores, has_output = loaded.pop(name)
                sr = result.systems[name]
                scores = scores if sr.titles else scores.without_titles()  # (every shard is scored with titles)
                named.append((name, _ShardSystem(scores, has_output, sr.shows.iloc[first : first + n], shows, result)))
            del loaded
            ids = self.show_ids[first : first + n]
            pages = ShardPages(named, shows, ids, self._by_show, first)
            self.start[first : first + n], self.end[first : first + n] = pages.start, pages.end
            if named:
                scored = [sr.scores for _, sr in named]
                flags = np.vstack([s.correct[0] for s in scored])
                reference = scored[0].reference
                parts.append(analysis_part(reference, flags, shows))
                found = thirds(reference.show, reference.start, scored[0].region_start, scored[0].region_end, flags)
                counts = found if counts is None else _added(counts, found)
                titled, k, found_scripts = title_scripts(reference.label)
                scripts[0] += titled
                scripts[1] += k
                scripts[2] |= found_scripts
            del named
            yield pages
            del pages  # before the next shard is read: one shard's pages held at a time
        self.metadata = _air_times(self._by_show, self.show_ids, self.start, self.end)
        self.analysis = combine(names, parts, groups(result)) if names else analyse(result)
        self.failures = failures_of_report(self.header, counts or ())
        self.title_scripts = (scripts[0], scripts[1], frozenset(scripts[2]))


def _added(a: tuple, b: tuple) -> tuple:
    """Two :func:`tvseg.report.failures.thirds` summed."""
    return tuple(tuple((x[0] + y[0], x[1] + y[1]) for x, y in zip(s, t)) for s, t in zip(a, b))


class _ShardSystem:
    """What :class:`_System` reads of a system, on one shard: its scores with segments, the match table and
    the matched boundary pairs made from them, and its part of the result's per-show table."""

    def __init__(self, scores, has_output, per_show: pd.DataFrame, shows: pd.Index, result):
        from tvseg.evaluation import _pairs
        from tvseg.retrieval.stories import match_table

        names = list(shows)
        self.scores = scores
        self.has_output = has_output
        self.shows = per_show
        self.matches = match_table(
            scores.reference, scores.hypothesis, scores.matching, gamma=result.settings.gamma, show_names=names
        )
        self.boundary_pairs = _pairs(scores, names)
