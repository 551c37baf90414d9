"""What one show's page shows, built when the page is written, and the pages of a report model.

A source of pages is what :func:`tvseg.report.render.write` reads: corpus-level data (``header``,
a :class:`~tvseg.report.model.Report` without shows, the show ids, metadata and per-show scores for
the corpus page) and :meth:`page`, which builds the :class:`ShowPage` of one show when its page is
written. Two sources exist: :class:`tvseg.report.adapter.ResultPages` slices an evaluation result's
arrays, and :class:`ModelPages` reads a :class:`~tvseg.report.model.Report` (built by tests and
benchmarks). A :class:`ShowPage` holds columns (lists of plain values), not one object per
segment, so that building one costs little and nothing holds every page at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from tvseg.output import json_pieces, json_safe, with_run_id
from tvseg.report.model import BoundaryPair, MatchRow, Report, Segment, Show, SystemShow, defined

__all__ = ["ShowPage", "SystemPage", "ModelPages", "page_of", "to_show", "scores_chunks", "defined_keys"]


@dataclass(slots=True)
class SystemPage:
    """One system on one show, as columns (times in seconds, None for not available).

    ``seg_*`` are the system's segments; ``matched_ref``/``matched_hyp`` the matched boundary
    pairs, ``missed`` and ``false_alarms`` the unmatched boundaries; the other columns are the
    match table (one row per reference segment, :class:`~tvseg.report.model.MatchRow`'s fields).
    ``has_output``: False when the system's input had nothing for the show (scored as empty).
    """

    name: str
    metrics: dict
    seg_start: list = field(default_factory=list)
    seg_end: list = field(default_factory=list)
    seg_label: list = field(default_factory=list)
    seg_correct: list = field(default_factory=list)
    matched_ref: list = field(default_factory=list)
    matched_hyp: list = field(default_factory=list)
    missed: list = field(default_factory=list)
    false_alarms: list = field(default_factory=list)
    ref_start: list = field(default_factory=list)
    ref_end: list = field(default_factory=list)
    ref_label: list = field(default_factory=list)
    hyp_start: list = field(default_factory=list)
    hyp_end: list = field(default_factory=list)
    hyp_label: list = field(default_factory=list)
    cov_to: list = field(default_factory=list)
    cov_from: list = field(default_factory=list)
    coverage: list = field(default_factory=list)
    correct: list = field(default_factory=list)
    title_f1: list = field(default_factory=list)
    has_output: bool = True
    story: list = field(default_factory=list)


@dataclass(slots=True)
class ShowPage:
    """One show: its extent, metadata, reference segments (columns) and one :class:`SystemPage` per system."""

    show_id: str
    start: float
    end: float
    metadata: dict
    ref_start: list
    ref_end: list
    ref_label: list
    systems: list


MATCH_FIELDS = (
    ("ref_start", "ref_start"),
    ("ref_end", "ref_end"),
    ("ref_label", "ref_label"),
    ("hyp_start", "hyp_start"),
    ("hyp_end", "hyp_end"),
    ("hyp_label", "hyp_label"),
    ("cov_to", "cov_ref_to_hyp"),
    ("cov_from", "cov_hyp_to_ref"),
    ("coverage", "cov_bidirectional"),
    ("correct", "correct"),
    ("title_f1", "title_f1"),
    ("story", "story"),
)
"""``(SystemPage column, MatchRow field and CSV column)`` of each column of the match table."""


def _system_page(view: SystemShow) -> SystemPage:
    page = SystemPage(
        name=view.name,
        metrics=dict(view.metrics),
        seg_start=[s.start for s in view.segments],
        seg_end=[s.end for s in view.segments],
        seg_label=[s.label for s in view.segments],
        seg_correct=[s.correct for s in view.segments],
        matched_ref=[p.reference for p in view.matched],
        matched_hyp=[p.hypothesis for p in view.matched],
        missed=list(view.missed),
        false_alarms=list(view.false_alarms),
        has_output=view.has_output,
    )
    for column, name in MATCH_FIELDS:
        setattr(page, column, [getattr(m, name) for m in view.matches])
    return page


def page_of(show: Show) -> ShowPage:
    """The :class:`ShowPage` of a model :class:`~tvseg.report.model.Show`."""
    return ShowPage(
        show_id=show.show_id,
        start=show.start,
        end=show.end,
        metadata=dict(show.metadata),
        ref_start=[s.start for s in show.reference],
        ref_end=[s.end for s in show.reference],
        ref_label=[s.label for s in show.reference],
        systems=[_system_page(v) for v in show.systems],
    )


def to_show(page: ShowPage) -> Show:
    """The :class:`~tvseg.report.model.Show` of a page (for :func:`tvseg.report.adapter.from_evaluation`)."""
    views = []
    for s in page.systems:
        matches = tuple(MatchRow(*row) for row in zip(*(getattr(s, column) for column, _ in MATCH_FIELDS)))
        views.append(
            SystemShow(
                name=s.name,
                metrics=s.metrics,
                segments=tuple(Segment(*row) for row in zip(s.seg_start, s.seg_end, s.seg_label, s.seg_correct)),
                matched=tuple(BoundaryPair(a, b) for a, b in zip(s.matched_ref, s.matched_hyp)),
                missed=tuple(s.missed),
                false_alarms=tuple(s.false_alarms),
                matches=matches,
                has_output=s.has_output,
            )
        )
    reference = tuple(Segment(a, b, t) for a, b, t in zip(page.ref_start, page.ref_end, page.ref_label))
    return Show(
        show_id=page.show_id,
        start=page.start,
        end=page.end,
        reference=reference,
        systems=tuple(views),
        metadata=page.metadata,
    )


def scores_chunks(scores):
    """``data/scores.json``: the ``--json`` object ``scores``, already JSON-safe (``result.to_json()``),
    as ``--json`` writes it, in pieces of about 1 MB."""
    yield from json_pieces(scores)
    yield "\n"


def defined_keys(header: Report) -> set:
    """The keys some system has a corpus or macro value for."""
    keys: set[str] = set()
    for s in header.systems:
        keys.update(k for k, e in s.corpus.items() if defined(e.value))
        keys.update(k for k, v in s.macro.items() if defined(v))
    return keys


class ModelPages:
    """The pages of a :class:`~tvseg.report.model.Report` (tests and benchmarks build one directly)."""

    result = None  # no evaluation result: no scored boundaries, no retrieval analysis
    analysis = None
    annotators = None

    def __init__(self, report: Report):
        self.report = report
        self.header = replace(report, shows=(), scores=None, n_shows=len(report.shows))
        self.show_ids = [s.show_id for s in report.shows]
        self.metadata = [dict(s.metadata) for s in report.shows]
        # per system (in the order of ``header.systems``), a bool array over shows: no output for the show
        self.no_output = [
            np.array([not any(v.name == s.name and v.has_output for v in show.systems) for show in report.shows], bool)
            for s in report.systems
        ]

    def __len__(self) -> int:
        return len(self.report.shows)

    @property
    def failures(self):
        """:func:`tvseg.report.failures.failures_of_report` of the header, with the thirds of the shows
        read from the model's match tables."""
        from tvseg.report.failures import failures_of_report, model_thirds

        return failures_of_report(self.header, model_thirds(self.report))

    @property
    def title_scripts(self) -> tuple:
        """:func:`tvseg.report.summary.title_scripts` of the reference segments' labels."""
        from tvseg.report.summary import title_scripts

        return title_scripts([seg.label for show in self.report.shows for seg in show.reference])

    def present(self) -> set:
        """The metric keys some system has a value for (corpus, macro or any show)."""
        keys = defined_keys(self.header)
        for show in self.report.shows:
            for system in show.systems:
                keys.update(k for k, v in system.metrics.items() if defined(v))
        return keys

    def show_metrics(self, keys) -> list:
        """Per system (in the order of ``header.systems``), one list per key: its value on every show."""
        out = []
        for summary in self.header.systems:
            views = [
                next((v.metrics for v in show.systems if v.name == summary.name), {}) for show in self.report.shows
            ]
            out.append([[m.get(key) for m in views] for key in keys])
        return out

    def scores_json(self, run_id: str | None = None):
        """``data/scores.json``: the model's scores (with ``run_id`` after the version), in pieces."""
        if self.report.scores is None:
            raise ValueError("the report model carries no scores (build it with tvseg.report.adapter.from_evaluation)")
        return scores_chunks(json_safe(with_run_id(self.report.scores, run_id)))

    def page(self, k: int) -> ShowPage:
        """The data of show ``k``'s page."""
        return page_of(self.report.shows[k])
