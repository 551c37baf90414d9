"""What the HTML report shows: plain frozen dataclasses, independent of how the scores were computed.

Tests and benchmarks build a :class:`Report` directly, and
:func:`tvseg.report.adapter.from_evaluation` builds one from an evaluation result (every page at
once); the renderer reads it through :class:`tvseg.report.pages.ModelPages`. ``tvseg evaluate
--html`` does not build it: :class:`tvseg.report.adapter.ResultPages` reads each page from the result.

Times are seconds from the start of the show; rates are fractions in [0, 1] (the pages print them as
percentages, as Bouchekif et al.'s tables do); ``None`` stands for "not available" everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "defined",
    "Estimate",
    "Segment",
    "MatchRow",
    "BoundaryPair",
    "SystemShow",
    "Show",
    "SystemSummary",
    "Comparison",
    "Report",
]


def defined(v) -> bool:
    """False for None and NaN (a value not available), True for any other value."""
    return v is not None and not (isinstance(v, float) and v != v)


@dataclass(frozen=True)
class Estimate:
    """A corpus score and, when a bootstrap was run, its confidence interval ``[lo, hi]``."""

    value: float | None
    lo: float | None = None
    hi: float | None = None


@dataclass(frozen=True)
class Segment:
    """One segment of a lane of the timeline.

    ``correct`` is None for the reference lane (correctness depends on the system) and for
    segments whose correctness is unknown.
    """

    start: float
    end: float
    label: str | None = None
    correct: bool | None = None


@dataclass(frozen=True)
class MatchRow:
    """One row of the per-segment match table of one system on one show (Bouchekif et al., 3.1-3.2).

    The reference segment, the hypothesis segment that covers most of it (None when none overlaps),
    the two one-way coverages, their harmonic mean (the bidirectional coverage), whether it exceeds
    gamma, the title F1 of the two labels when titling was scored, and the story's class
    (:mod:`tvseg.retrieval.stories`: correct, split, merged, shifted or missed) when known.
    """

    ref_start: float
    ref_end: float
    ref_label: str | None
    hyp_start: float | None
    hyp_end: float | None
    hyp_label: str | None
    cov_ref_to_hyp: float
    cov_hyp_to_ref: float
    cov_bidirectional: float
    correct: bool
    title_f1: float | None = None
    story: str | None = None


@dataclass(frozen=True)
class BoundaryPair:
    """A reference boundary matched with a hypothesis boundary (times in seconds)."""

    reference: float
    hypothesis: float


@dataclass(frozen=True)
class SystemShow:
    """One system on one show: its scores, its segments, its boundaries and its match table.

    ``missed`` are the reference boundaries left unmatched, ``false_alarms`` the hypothesis
    boundaries left unmatched. ``has_output`` is False when the system's input had no output for the
    show (scored as an empty hypothesis).
    """

    name: str
    metrics: Mapping[str, float | None]
    segments: tuple[Segment, ...] = ()
    matched: tuple[BoundaryPair, ...] = ()
    missed: tuple[float, ...] = ()
    false_alarms: tuple[float, ...] = ()
    matches: tuple[MatchRow, ...] = ()
    has_output: bool = True


@dataclass(frozen=True)
class Show:
    """One show: its extent, its reference segments and one :class:`SystemShow` per system.

    ``systems`` follows the order of :attr:`Report.systems`; ``metadata`` holds e.g. channel and
    programme.
    """

    show_id: str
    start: float
    end: float
    reference: tuple[Segment, ...]
    systems: tuple[SystemShow, ...]
    metadata: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SystemSummary:
    """One system on the whole corpus.

    ``corpus`` pools counts and durations over the shows (with bootstrap intervals when present);
    ``macro`` is the mean of the per-show values; ``by_length`` maps ``"short"`` and ``"long"`` to
    scores (as Bouchekif et al.'s Table 2); ``groups`` maps a metadata field (``"channel"``) to its
    values, each to scores; ``by_show_duration`` maps a bucket of show durations (``"10–20 min"``,
    :func:`tvseg.retrieval.reductions.by_show_duration`) to its ``n_shows`` and pooled scores, and
    ``macro_by_duration`` the same buckets (those with a show) to the macro values of their shows, as the JSON's
    ``by_duration`` holds them (:func:`tvseg.evaluation.by_duration`), with ``class`` (the JSON's name of the
    class) and ``n_shows``; ``gamma_sweep`` holds ``(gamma, cov_n, cov_d)`` and ``tolerance_sweep`` ``(tolerance, boundary_f1)``
    points, in increasing order of the first item.
    """

    name: str
    corpus: Mapping[str, Estimate]
    macro: Mapping[str, float | None] = field(default_factory=dict)
    by_length: Mapping[str, Mapping[str, float | None]] = field(default_factory=dict)
    groups: Mapping[str, Mapping[str, Mapping[str, float | None]]] = field(default_factory=dict)
    by_show_duration: Mapping[str, Mapping[str, float | None]] = field(default_factory=dict)
    macro_by_duration: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    gamma_sweep: tuple[tuple[float, float | None, float | None], ...] = ()
    tolerance_sweep: tuple[tuple[float, float | None], ...] = ()


@dataclass(frozen=True)
class Comparison:
    """A paired test between two systems on one metric: ``p_value`` of the difference (the exact sign-flip
    test's up to 12 shows, the paired bootstrap's from 13), ``p_value_holm`` the same after Holm's correction
    over the pairs of systems and the headline metrics (:mod:`tvseg.significance`); ``*_is_bound``: the value is
    the paired bootstrap's floor, an upper bound (written ``p < 0.0001``)."""

    system_a: str
    system_b: str
    metric: str
    p_value: float | None
    difference: float | None = None
    p_value_holm: float | None = None
    p_value_is_bound: bool = False
    p_value_holm_is_bound: bool = False


@dataclass(frozen=True)
class Report:
    """Everything the report pages show.

    ``scores`` is the contract's ``--json`` object written to ``data/scores.json``; when None the
    renderer builds it from the model. ``settings`` is the flat settings dict, ``signature`` the
    settings signature line; ``version`` and ``date`` appear only in the page footers and in the
    JSON, so two renderings of the same scores differ only there. ``n_shows`` is the number of shows the
    scores, intervals and p-values rest on, when ``shows`` does not hold them all (a header built page by page);
    None: ``len(shows)``.
    """

    signature: str
    version: str
    date: str
    systems: tuple[SystemSummary, ...]
    shows: tuple[Show, ...]
    comparisons: tuple[Comparison, ...] = ()
    settings: Mapping[str, object] = field(default_factory=dict)
    scores: Mapping[str, object] | None = None
    title: str = "tvseg report"
    n_shows: int | None = None
