"""The pipeline behind ``tvseg evaluate``: align shows, score every system, build the result.

:func:`evaluate` takes segmentations already read (``{show: Annotation}``), scores each system
against the reference on every reference show (:mod:`tvseg.retrieval.corpus`), and returns an
:class:`EvaluationResult`: per-show metrics, pooled (corpus) and macro values, ``by_length``,
groups by metadata, match tables, sweeps, bootstrap intervals and pairwise p-values.
:meth:`EvaluationResult.to_json` is the contract's ``--json`` schema.

Show alignment: the reference decides which shows are scored. A show that a hypothesis has and the
reference lacks is left out (with a :class:`~tvseg.errors.TvsegWarning` naming it); a reference show
that a hypothesis lacks is scored as an empty hypothesis (with a warning naming it).
"""

from __future__ import annotations

import html
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pandas as pd

from tvseg import __version__
from tvseg.arguments import (
    check_flag,
    check_metadata,
    check_tolerances,
    check_uem,
    check_units,
)
from tvseg.columns import RegionColumns
from tvseg.errors import TvsegWarning, user_stacklevel
from tvseg.memory import give_back_memory
from tvseg.metrics import (
    CAPTIONING,
    CHUNKS,
    COUNT_KEYS,
    DISJOINT,
    GROUNDING,
    HEADLINE,
    METEOR,
    SHOW_FLAGS,
    SHOW_OBJECTS,
    TIME,
    TITLES,
    TRECVID,
    UNITS,
    eligible,
    keys,
)
from tvseg.output import Records, frame_records, json_safe
from tvseg.preparation import Prepared, prepare
from tvseg.progress import enabled as bars_enabled
from tvseg.progress import iterate
from tvseg.retrieval.captioning import CAPTIONING_COMPONENTS
from tvseg.retrieval.captioning import wanted as captioning_wanted
from tvseg.retrieval.confidence import (
    ShardConfidence,
    SystemConfidence,
    join_confidence,
    join_shard_confidence,
    shard_confidence,
)
from tvseg.retrieval.corpus import ShowScores, score_shows, without_title_components
from tvseg.retrieval.grounding import GROUNDING_COMPONENTS
from tvseg.retrieval.reductions import (
    by_group,
    by_length,
    corpus_metrics,
    group_members,
    macro_metrics,
    macro_values,
    metric_table,
    show_duration_buckets,
)
from tvseg.retrieval.shards import join_frames, join_scores
from tvseg.retrieval.stories import match_table
from tvseg.retrieval.sweeps import TOLERANCES, SweepTallies, gamma_sweep, join_tallies, sweep_tallies, tolerance_sweep
from tvseg.retrieval.tables import long_table, summary_table
from tvseg.settings import Settings, check_settings
from tvseg.significance import correct, paired_bootstrap, policy
from tvseg.terminal import printable
from tvseg.undefined_values import warn_undefined_comparisons, warn_undefined_values
from tvseg.unit.corpus import corpus_unit_scores
from tvseg.unit.probes import cseg_probe_runs
from tvseg.unit.reduction import (
    UnitPart,
    join_unit_parts,
    reduce_unit_parts,
    unit_components_table,
    unit_rates,
    warn_chunk_zeros,
)

if TYPE_CHECKING:
    from pyannote.core import Annotation, Timeline

__all__ = [
    "evaluate",
    "prepare",
    "Prepared",
    "EvaluationResult",
    "SystemResult",
    "UNIT_METRICS",
    "SystemShard",
    "ShowComponents",
    "score_shard",
    "reduce_shards",
]

UNIT_METRICS = keys("unit")
SCORING_BAR_SHOWS = 1000
"""From how many shows scoring draws a progress bar on a terminal (``--progress`` draws it always)."""


@dataclass(frozen=True, eq=False)
class SystemResult:
    """The scores of one system.

    Attributes
    ----------
    name : str
    scores : ShowScores or ShowComponents
        Components per show, the matching and the segments; or, from an evaluation that kept no
        segment (:func:`tvseg.scale.evaluate_files`), the components per show alone (then
        ``matches`` and ``boundary_pairs`` are empty).
    shows : pandas.DataFrame
        Metrics per show (index: show id).
    corpus, macro : dict
        Pooled and macro metrics.
    by_length : dict
        ``{"short": {...}, "long": {...}}``.
    groups : dict
        ``{metadata column: {value: pooled metrics}}``.
    matches : pandas.DataFrame
        The match table of every show (column ``show`` first; :func:`tvseg.retrieval.stories.match_table`),
        made from ``scores`` when first read; without rows for a result restricted to some metrics
        (``keeps_matches`` False), without columns but ``show`` without segments or for a system whose
        segments overlap.
    gamma_sweep, tolerance_sweep : pandas.DataFrame
    boundary_pairs : pandas.DataFrame
        Matched boundaries at the settings' tolerance: ``show, reference, hypothesis``.
    shows_json : tuple of str, optional
        The rows of ``shows`` as the JSON writes them, in consecutive blocks (:func:`tvseg.output.encoded_rows`),
        when they were encoded by the processes that scored the shards (:func:`tvseg.scale.evaluate_files`);
        None: encoded when written.
    has_output : numpy.ndarray of bool, optional
        Per show (in the order of ``shows``): whether the system's input had the show. False: it had no
        hypothesis for it, scored as an empty hypothesis (its numbers are those of an empty output). The
        per-show table holds it as its ``has_output`` column (a flag, not a metric: no macro value).
    unit_components : pandas.DataFrame, optional
        With units or frames: the additive unit counts of every show (a row per show, in the order of
        ``shows``), whose sums give the unit metrics (:func:`tvseg.unit.reduction.unit_rates`).
    confidence : tvseg.retrieval.confidence.SystemConfidence, optional
        When the hypothesis has boundary scores: the precision-recall curve over thresholds, average
        precision, the best-threshold F and, with units or frames, the DET curve.
    carried : SystemShard, optional
        The system's shards joined, without segments (:meth:`SystemShard.lean`): what
        :func:`reduce_shards` makes this result of, which the JSON carries (:mod:`tvseg.carried`) for
        ``tvseg merge`` and ``tvseg compare``.
    carried_text : tuple of tuple of str, optional
        The JSON text of ``carried``'s arrays, in the order of :func:`tvseg.carried.shard_json`, when the
        processes that scored the shards encoded them (:func:`tvseg.scale.evaluate_files`); None: encoded
        when written.
    traits : frozenset of str
        The system's traits (:func:`system_traits`), which decided its metrics: without
        :data:`~tvseg.metrics.DISJOINT`, its segments overlap (dense-captioning predictions).
    """

    name: str
    scores: ShowScores | ShowComponents
    shows: pd.DataFrame
    corpus: dict[str, Any]
    macro: dict[str, Any]
    by_length: dict[str, Any]
    groups: dict[str, Any]
    gamma_sweep: pd.DataFrame
    tolerance_sweep: pd.DataFrame
    boundary_pairs: pd.DataFrame
    titles: bool = False
    shows_json: tuple[str, ...] | None = None
    has_output: np.ndarray | None = None
    unit_components: pd.DataFrame | None = None
    confidence: SystemConfidence | None = None
    carried: SystemShard | None = None
    carried_text: tuple[tuple[str, ...], ...] | None = None
    traits: frozenset[str] = frozenset()
    keeps_matches: bool = True

    @cached_property
    def matches(self) -> pd.DataFrame:
        scores = self.scores
        if not (isinstance(scores, ShowScores) and DISJOINT in self.traits):
            return _NO_MATCHES
        table = match_table(
            scores.reference, scores.hypothesis, scores.matching, gamma=scores.gamma, show_names=scores.shows
        )
        return table if self.keeps_matches else table.iloc[0:0]


@dataclass(frozen=True, eq=False)
class EvaluationResult:
    """Everything ``tvseg evaluate`` computed; ``settings`` is the one object behind every number."""

    settings: Settings
    shows: list[str]
    systems: dict[str, SystemResult]
    reference: Mapping[str, Any]
    hypotheses: dict[str, Mapping[str, Annotation]]
    metadata: pd.DataFrame | None = None
    intervals: dict[str, Any] = field(default_factory=dict)
    pairwise: list[Any] = field(default_factory=list)
    uem: Mapping[str, Timeline] | None = None  # show id -> UEM timeline, as given (RegionColumns when read)
    domain: str = "time"  # "units": a text corpus, scored in its sentences with the unit metrics only
    sweep_tolerances: tuple[float, ...] = tuple(TOLERANCES.tolist())

    def to_frame(self) -> pd.DataFrame:
        """Every metric value in long format, one row per (system, scope, group, show, metric), with
        the bootstrap interval beside the corpus values (:func:`tvseg.retrieval.tables.long_table`)."""
        return long_table(self)

    def summary(self) -> pd.DataFrame:
        """Systems x main metrics, pooled over the corpus (fractions): the CLI's summary as a table."""
        return summary_table(self)

    def __repr__(self) -> str:
        """The systems, the shows and the settings' signature; a system name's control characters escaped
        (``\\x1b``, ``\\r``: :func:`tvseg.terminal.printable`), so that printing the result shows them."""
        names = ", ".join(printable(name) for name in self.systems)
        return (
            f"<EvaluationResult: {len(self.systems)} system(s) ({names}), "
            f"{len(self.shows)} show(s); {self.settings.signature()}>"
        )

    def _repr_html_(self) -> str:
        """The summary table in a notebook, with the settings' signature under it."""
        table = self.summary().to_html(float_format=lambda v: f"{100 * v:.1f}", na_rep="-", border=0)
        return (
            f"{table}<p><small>{len(self.shows)} show(s), percent; {html.escape(self.settings.signature())}</small></p>"
        )

    def to_json(self, *, stream: bool = False) -> dict[str, Any]:
        """The contract's ``--json`` object (NaN as None; rates as fractions; counts as integers), and
        under ``"components"`` what the result is made of (:func:`tvseg.carried.carried_json`), from
        which ``tvseg merge`` and ``tvseg compare`` rebuild it.

        ``stream=True``: each per-show table as a :class:`tvseg.output.Records` and each array of the
        components as a :class:`tvseg.output.Array`, which :func:`tvseg.output.write_json_atomic` writes a
        block at a time (the same text), so that the object of a large corpus is never held whole.
        """
        from tvseg.carried import carried_json

        systems = {}
        for name, sr in self.systems.items():
            systems[name] = {
                "corpus": sr.corpus,
                "macro": sr.macro,
                "by_length": sr.by_length,
                "by_duration": by_duration(sr) if self.domain == "time" else {},
                "shows": (
                    Records(sr.shows, integer_keys=COUNT_KEYS, nested=SHOW_OBJECTS, encoded=sr.shows_json)
                    if stream
                    else frame_records(sr.shows, integer_keys=COUNT_KEYS, nested=SHOW_OBJECTS)
                ),
                "groups": sr.groups,
                "sweeps": {
                    "gamma": sr.gamma_sweep.to_dict(orient="records"),
                    "tolerance": sr.tolerance_sweep.to_dict(orient="records"),
                },
                "bootstrap": self.intervals.get(name, {}),
            }
            if sr.confidence is not None:
                systems[name].update(sr.confidence.as_json())
        document: dict[str, Any] = json_safe(
            {
                "tvseg_version": __version__,
                "signature": self.settings.signature(),
                "settings": self.settings.as_dict(),
                "systems": systems,
                "pairwise": self.pairwise,
                "significance": policy(
                    len(self.shows),
                    resamples=self.settings.bootstrap,
                    systems=len(self.systems),
                    family=[k for k in HEADLINE if any(e["metric"] == k for e in self.pairwise)],
                ),
            },
            integer_keys=COUNT_KEYS,
        )
        carried = carried_json(self, stream=stream)
        if carried is not None:
            document["components"] = carried
        return document


DURATION_CLASSES = ("under 10 min", "10-20 min", "20-30 min", "30-60 min", "60 min and over")
"""The JSON's names of the buckets of show durations of
:data:`tvseg.retrieval.reductions.SHOW_DURATION_BINS` (YTSeg's leaderboard reports F1 by video duration in
these classes: Retkowski & Waibel 2024; chunkseg)."""


def by_duration(sr: SystemResult) -> dict[str, Any]:
    """A system's values by show duration (:data:`DURATION_CLASSES`): for each class, its number of shows,
    their macro values (mean over the class's shows, as chunkseg reports a corpus) and pooled values.

    A show's duration is its reference segments' total duration in its evaluated region (the show's length
    when the reference covers it, as a YTSeg or chunkseg reference does). A value undefined in a class (0/0
    over its shows, or in each of them) is left out of it: the warnings name the corpus's and the shows' own.
    ``{}`` for a result without durations.
    """
    components = sr.scores.components
    classes = show_duration_buckets(components)
    if classes is None:
        return {}
    # each metric's column as it is (no copy of the table): a class takes its shows' values of each
    metrics = {c: sr.shows[c].to_numpy(float) for c in sr.shows.columns if c not in SHOW_FLAGS}
    out: dict[str, Any] = {}
    for index, name in enumerate(DURATION_CLASSES):
        mask = classes == index
        if not mask.any():
            out[name] = {"shows": 0, "corpus": {}, "macro": {}}
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a class's 0/0: NaN, as the corpus's own are named once
            corpus = corpus_metrics(components[mask], titles=sr.titles)
            if sr.unit_components is not None:
                corpus.update({k: float(v) for k, v in unit_rates(sr.unit_components[mask].sum().to_dict()).items()})
        macro = macro_values(metrics, mask)
        out[name] = {
            "shows": int(mask.sum()),
            "corpus": {k: corpus[k] for k in sr.corpus if k in corpus and not _undefined(corpus[k])},
            "macro": {k: v for k, v in macro.items() if not _undefined(v)},
        }
    return out


def _undefined(value: Any) -> bool:
    return isinstance(value, float) and np.isnan(value)


def evaluate(
    reference: Mapping[str, Annotation | Timeline],
    hypotheses: Mapping[str, Mapping[str, Annotation]],
    *,
    settings: Settings | None = None,
    uem: Mapping[str, Timeline] | None = None,
    units: Mapping[str, pd.DataFrame] | None = None,
    metadata: pd.DataFrame | None = None,
    sweep_tolerances: Sequence[float] | np.ndarray = TOLERANCES,
    check_time_base: bool = True,
    segments: bool = True,
) -> EvaluationResult:
    """Score every system on every reference show.

    Parameters
    ----------
    reference : mapping
        Show id -> reference segmentation (a pyannote.core Annotation or Timeline, ``(start, end)``
        pairs or an ``(n, 2)`` array), as :func:`tvseg.read_segments` returns.
    hypotheses : mapping
        System name -> {show id -> hypothesis segmentation}.
    settings : Settings, optional
        Default ``Settings()``. Its ``uem`` and ``units`` fields are set from the inputs (a UEM
        given, units given), and that effective object is the result's ``settings``. A dict is
        refused: ``Settings(**options)`` makes the one checked object the signature describes.
    uem : mapping, optional
        Show id -> UEM timeline (a pyannote.core Timeline, as :func:`tvseg.read_uem` returns):
        segments are cropped to it and its extent gives the show's edges.
    units : mapping, optional
        Show id -> units DataFrame (``start, end``) for the unit-domain metrics.
    metadata : pandas.DataFrame, optional
        Indexed by show id; text columns (channel, programme) give ``groups``.
    sweep_tolerances : sequence of float, default 0, 1, ..., 30
        The boundary tolerances (seconds, from 0 to 2,000,000,000) of the tolerance sweep.
    check_time_base : bool, default True
        Refuse a hypothesis or units that miss their show's evaluated region
        (:mod:`tvseg.time_base`); False warns instead.
    segments : bool, default True
        Keep each system's segments, matching and match tables (the HTML report draws them). False: each
        system keeps its components per show alone (:meth:`SystemShard.lean`), as
        :func:`tvseg.scale.evaluate_files` with ``segments=False``: every number and the JSON are the same.

    Raises
    ------
    InputError
        A system with no show of the reference; a hypothesis or units outside their show's
        evaluated region (unless ``check_time_base=False``); empty segments, or reference segments that
        overlap; an argument of another kind than those above (``None`` or a list for a mapping), naming it.
        (A system whose segments overlap is scored as dense-captioning predictions, with the metrics that
        allow it: :data:`tvseg.metrics.DISJOINT`.)
    UsageError
        Frames too short for a show (more than :data:`MAX_FRAMES_PER_SHOW`); a UEM with several regions in a
        show beside a system whose segments overlap; ``settings`` that is not
        a :class:`Settings`, a sweep tolerance that is not a number of seconds (NaN, negative),
        ``check_time_base`` that is not a bool.

    Returns
    -------
    EvaluationResult
    """
    check_settings(settings)
    check_uem(uem)
    check_units(units)
    check_metadata(metadata)
    check_tolerances("sweep_tolerances", sweep_tolerances)
    check_flag("check_time_base", check_time_base)
    check_flag("segments", segments)
    domain = getattr(reference, "domain", "time")
    p = prepare(
        reference, hypotheses, settings=settings, uem=uem, units=units, check_time_base=check_time_base, domain=domain
    )
    tolerances = sweep_tolerances if domain == "time" else ()  # the sweeps' tolerances are seconds
    shard = score_shard(p, sweep_tolerances=tolerances)
    if not segments:
        shard = {name: system.lean() for name, system in shard.items()}
    return reduce_shards(
        [shard],
        settings=p.settings,
        reference=p.reference,
        hypotheses=hypotheses,
        metadata=metadata,
        uem=uem,
        sweep_tolerances=tolerances,
        domain=domain,
    )


@dataclass(frozen=True, eq=False)
class ShowComponents:
    """A system's additive components per show, without its segments: what the pooled values, the
    bootstrap and the warnings read of a :class:`~tvseg.retrieval.corpus.ShowScores`."""

    shows: list[str]
    components: pd.DataFrame
    titles: bool


@dataclass(frozen=True, eq=False)
class SystemShard:
    """One system scored on one shard of the shows (:func:`score_shard`), before the reduction.

    Attributes
    ----------
    scores : ShowScores or ShowComponents
        Components per show of the shard, the matching and the segments (show indices local); or
        the components alone (:meth:`lean`).
    tallies : SweepTallies
        What the sweeps need of the shard (:func:`tvseg.retrieval.sweeps.sweep_tallies`).
    units : tvseg.unit.reduction.UnitPart or None
        The unit scores of the shard (None without units or frames).
    has_output : numpy.ndarray of bool or None
        Per show of the shard: whether the system's input had it (:attr:`tvseg.preparation.Prepared.has_output`;
        None: not known, taken as True).
    confidence : tvseg.retrieval.confidence.ShardConfidence or None
        What the curves need of the shard (None: the hypothesis has no scores).
    titled : (bool, bool) or None
        Whether some segment of the shard's reference, and of the system's hypothesis, has a title: what
        decides whether a corpus of several shards (:mod:`tvseg.scale`) or runs (:mod:`tvseg.merging`)
        scores titles; None: not known.
    disjoint : bool, default True
        False: the system's segments overlap (:attr:`tvseg.preparation.Prepared.overlapping`): it lacks the
        trait :data:`tvseg.metrics.DISJOINT`, and was scored without units, sweeps nor boundary scores.
    """

    scores: ShowScores | ShowComponents
    tallies: SweepTallies
    units: UnitPart | None = None
    has_output: np.ndarray | None = None
    confidence: ShardConfidence | None = None
    titled: tuple[bool, bool] | None = None
    disjoint: bool = True

    def lean(self) -> SystemShard:
        """The shard without its segments: what :func:`reduce_shards` needs for every pooled value and
        the JSON (a corpus too large to hold its segments is reduced from these)."""
        s = self.scores
        return replace(self, scores=ShowComponents(list(s.shows), s.components, s.titles))

    def without_titles(self) -> SystemShard:
        """The shard as scored without titles (its title and captioning components dropped): a shard
        scored with titles that the corpus then scores without (:mod:`tvseg.scale`)."""
        s = self.scores
        if isinstance(s, ShowScores):
            return replace(self, scores=s.without_titles())
        return replace(self, scores=ShowComponents(s.shows, without_title_components(s.components), False))


def score_shard(
    p: Prepared,
    *,
    sweep_tolerances: Sequence[float] | np.ndarray = TOLERANCES,
    titles: Mapping[str, bool] | None = None,
) -> dict[str, SystemShard]:
    """Score every system on the shows of ``p`` (a corpus, or one shard of it): the per-show part of
    :func:`evaluate`, which :func:`reduce_shards` turns into the result.

    Parameters
    ----------
    p : Prepared
        The shows, prepared (:func:`tvseg.preparation.prepare`).
    sweep_tolerances : sequence of float
        As in :func:`evaluate`.
    titles : dict, optional
        System name -> whether its titles are scored (default: decided on these shows, as
        :func:`tvseg.retrieval.corpus.score_shows` does). A shard of a corpus is scored with them
        (:mod:`tvseg.scale`): the corpus's decision, taken from every shard's :attr:`SystemShard.titled`,
        keeps them or drops them (:meth:`SystemShard.without_titles`).

    Returns
    -------
    dict
        System name -> :class:`SystemShard`.
    """
    settings, shows, ref = p.settings, p.shows, p.reference_segments
    out = {}
    # a bar per system scored, on a terminal from a thousand shows up (tvseg.progress)
    systems = iterate(
        list(p.systems.items()),
        desc=f"scoring {len(shows)} shows",
        unit="system",
        minimum=1 if bars_enabled(len(shows), SCORING_BAR_SHOWS) else len(p.systems) + 1,
    )
    captioning = captioning_wanted(settings.preset)  # VidChapters' title captioning metrics
    for name, hyp in systems:
        disjoint = name not in p.overlapping  # segments that overlap: the kernels that hold for any intervals
        scores = score_shows(
            ref,
            hyp,
            shows=shows,
            gamma=settings.gamma,
            long_threshold=settings.long_threshold,
            tolerance=settings.tolerance,
            tolerances=sweep_tolerances,
            uem_start=p.uem_start,
            uem_end=p.uem_end,
            title_f1_threshold=settings.title_f1_threshold,
            title_stemmer=settings.title_stemming,
            titles=(titles or {}).get(name),
            captioning=captioning,
            disjoint=disjoint,
            trecvid=settings.preset == "trecvid",
        )
        units = None
        if disjoint and (p.units is not None or settings.units == "frames"):
            u_show, u_start, u_end = p.units if p.units is not None else (None, None, None)
            units = corpus_unit_scores(
                ref,
                hyp,
                unit_show=u_show,
                unit_start=u_start,
                unit_end=u_end,
                shows=shows,
                settings=settings,
                region_start=p.region_start,
                region_end=p.region_end,
                region_ticks=p.region_ticks,
                name=name,
                regions=ref.region,
            )
        out[name] = SystemShard(
            scores=scores,
            tallies=sweep_tallies(scores, tolerances=sweep_tolerances) if disjoint else _no_tallies(sweep_tolerances),
            units=units,
            has_output=p.has_output.get(name),
            confidence=shard_confidence(p, name, scores, probe_runs=cseg_probe_runs) if disjoint else None,
            titled=scores.some_titled,
            disjoint=disjoint,
        )
    return out


def reduce_shards(
    shards: Sequence[dict[str, SystemShard]],
    *,
    settings: Settings,
    reference: Mapping[str, Any],
    hypotheses: Mapping[str, Mapping[str, Annotation]],
    metadata: pd.DataFrame | None = None,
    uem: Mapping[str, Timeline] | None = None,
    sweep_tolerances: Sequence[float] | np.ndarray = TOLERANCES,
    domain: str = "time",
    per_show_made: Callable[[str, pd.DataFrame, SystemShard], None] | None = None,
) -> EvaluationResult:
    """The result of :func:`evaluate` from its systems scored on consecutive shards of the shows.

    Parameters
    ----------
    shards : list of dict
        :func:`score_shard`'s output for each shard, in show order (one shard: the whole corpus). Each
        system is taken out of the dicts as it is joined (they are empty at the end), so that a shard's
        memory goes once the corpus's copy is made.
    settings : Settings
        The effective settings (:attr:`tvseg.preparation.Prepared.settings`).
    reference, hypotheses, metadata, uem
        What the result keeps (``reference`` as :attr:`tvseg.preparation.Prepared.reference` holds it).
    sweep_tolerances : sequence of float
        As in :func:`evaluate`.
    domain : {"time", "units"}, default "time"
        ``"units"``: a text corpus, without segments in time. Each system's results hold the registry
        entries its traits meet (:func:`system_traits`, :func:`tvseg.metrics.eligible`), whatever the input.
    per_show_made : callable, optional
        Given each system's name, per-show table (its eligible metrics, as the result holds it) and joined
        shard (its ``carried``) as soon as they are made, before the bootstrap (what :mod:`tvseg.scale`
        encodes for the JSON in its workers meanwhile).

    Everything pooled (corpus, macro, by length, groups, sweeps, bootstrap) is computed here, on the
    shards' per-show tables joined in show order, and the warnings about them are given here, once:
    every undefined value (NaN, null in the JSON) is named by one warning
    (:func:`tvseg.undefined_values.warn_undefined_values`).
    """
    systems, unit_tables, unit_scored, allowed = {}, {}, {}, {}
    reference_durations: np.ndarray | None = None
    firsts = np.cumsum([0] + [len(next(iter(shard.values())).scores.shows) for shard in shards[:-1]]).tolist()
    for name in list(shards[0]):
        # the system's shards are taken out of ``shards`` as they are joined: their memory goes with them
        own = [shard.pop(name) for shard in shards]
        parts = [system.scores for system in own]
        if all(isinstance(part, ShowScores) for part in parts):
            scores: ShowScores | ShowComponents = join_scores(cast("list[ShowScores]", parts))
        else:
            titles = {part.titles for part in parts}
            if len(titles) != 1:
                raise ValueError("shards scored with and without titles cannot be joined")
            joined = join_frames([part.components for part in parts])
            scores = ShowComponents([s for part in parts for s in part.shows], joined, titles.pop())
        tallies = join_tallies([system.tallies for system in own])
        held, joined_durations = reference_durations, tallies.reference_duration
        if held is not None and held.dtype == joined_durations.dtype and np.array_equal(held, joined_durations):
            # every system's reference segments are the same: their durations (ticks / 10**6, never NaN nor -0.0)
            # are held once
            tallies = tallies._replace(reference_duration=held)
        reference_durations = tallies.reference_duration
        has_output = np.concatenate(
            [
                np.ones(len(system.scores.shows), dtype=bool) if system.has_output is None else system.has_output
                for system in own
            ]
        ).astype(bool, copy=False)
        unit_parts = cast("list[UnitPart]", [system.units for system in own])
        shard_parts = [system.confidence for system in own]
        confidence = join_confidence(shard_parts)
        titled = [system.titled for system in own]
        known = [t for t in titled if t is not None]
        disjoint = all(system.disjoint for system in own)
        del own, parts
        give_back_memory()  # the shards' tables, joined
        shows = scores.shows
        per_show = metric_table(scores.components, titles=scores.titles)
        corpus = corpus_metrics(scores.components, titles=scores.titles)
        if unit_parts[0] is not None:
            # every shard is scored with the corpus's units (or frames): none of them is None
            per_show_units, corpus_units = reduce_unit_parts(unit_parts, firsts, shows, undefined=False)
            unit_tables[name] = (unit_components_table(unit_parts, firsts, len(shows)), unit_rates)
            scored = np.zeros(len(shows), dtype=bool)
            for part, first in zip(unit_parts, firsts):
                scored[first + np.asarray(part.scored, dtype=np.int64)] = True
            unit_scored[name] = scored
            per_show = per_show.join(per_show_units)
            corpus.update(corpus_units)
        carried = SystemShard(
            scores=ShowComponents(list(shows), scores.components, scores.titles),
            tallies=tallies,
            units=join_unit_parts(unit_parts, firsts) if unit_parts[0] is not None else None,
            has_output=has_output,
            confidence=join_shard_confidence(shard_parts),
            titled=None if len(known) < len(titled) else (any(t[0] for t in known), any(t[1] for t in known)),
            disjoint=disjoint,
        )
        del unit_parts, shard_parts
        give_back_memory()  # the shards' unit and curve parts, joined: freed before the sweeps and tables
        macro = macro_metrics(per_show)  # of the metrics: the flag below is not averaged
        per_show = per_show.assign(**{SHOW_FLAGS[0]: has_output})
        traits = system_traits(
            scores,
            domain=domain,
            units=name in unit_tables,
            disjoint=disjoint,
            chunks=name in unit_tables and "chunk_n_shows" in unit_tables[name][0].columns,
        )
        allowed[name] = {m.key for m in eligible(traits)}
        if per_show_made is not None:
            per_show_made(name, _shows_allowed(per_show, allowed[name]), carried)
        if not disjoint and domain == "time":
            _warn_left_out(name, traits, units=settings.units != "none")
        # no segment kept, or segments that overlap: no table of segments
        pairs = _pairs(scores, shows) if isinstance(scores, ShowScores) and disjoint else _NO_PAIRS
        if disjoint:
            sweeps = (gamma_sweep(tallies), tolerance_sweep(tallies, scores.components, sweep_tolerances))
        else:  # the sweeps are of coverage and boundaries, which need disjoint segments
            sweeps = (_NO_GAMMAS, _NO_TOLERANCES)
        systems[name] = SystemResult(
            name=name,
            scores=scores,
            shows=per_show,
            corpus=corpus,
            macro=macro,
            by_length=by_length(scores.components),
            groups=by_group(scores.components, metadata, titles=scores.titles),
            gamma_sweep=sweeps[0],
            tolerance_sweep=sweeps[1],
            boundary_pairs=pairs,
            titles=scores.titles,
            has_output=has_output,
            unit_components=unit_tables[name][0] if name in unit_tables else None,
            confidence=confidence,
            carried=carried,
            traits=traits,
        )
        systems[name] = _restricted(systems[name], allowed[name], time=TIME in traits)
        del scores, per_show, tallies
        # what joining the system's shards freed, returned before the next system's (and the bootstrap's)
        # arrays are made: they would not all fit in its holes, and the process would grow
        give_back_memory()
    intervals, pairwise = paired_bootstrap(
        {n: s.scores.components for n, s in systems.items()},
        resamples=settings.bootstrap,
        seed=settings.seed,
        confidence=settings.confidence,
        titles={n: s.titles for n, s in systems.items()},
        extra=unit_tables,
    )
    intervals = {n: {k: v for k, v in m.items() if k in allowed[n]} for n, m in intervals.items()}
    give_back_memory()
    pairwise = [e for e in pairwise if e["metric"] in allowed[e["a"]] and e["metric"] in allowed[e["b"]]]
    correct(pairwise)  # Holm's family: the tests kept
    for name, sr in systems.items():
        table = unit_tables.get(name, (None, None))[0]
        if table is not None:
            warn_chunk_zeros(name, table, unit_scored[name], sr.scores.shows)
        warn_undefined_values(
            name,
            per_show=sr.shows,
            components=sr.scores.components,
            unit_components=table,
            unit_scored=unit_scored.get(name),
            corpus=sr.corpus,
            macro=sr.macro,
            by_length=sr.by_length,
            groups=sr.groups,
            group_members=partial(group_members, sr.scores.components.index, metadata),
            sweeps={"gamma": sr.gamma_sweep, "tolerance": sr.tolerance_sweep},
            intervals=intervals.get(name, {}) if len(sr.shows) > 1 else {},
        )
    warn_undefined_comparisons(pairwise, {name: sr.corpus for name, sr in systems.items()})
    shows = next(iter(systems.values())).scores.shows
    return EvaluationResult(
        settings=settings,
        shows=shows,
        systems=systems,
        reference=reference,
        hypotheses=dict(hypotheses),
        metadata=metadata,
        intervals=intervals,
        pairwise=pairwise,
        uem=uem if uem is None or isinstance(uem, RegionColumns) else dict(uem),
        domain=domain,
        sweep_tolerances=tuple(float(t) for t in np.asarray(sweep_tolerances, dtype=float).tolist()),
    )


def system_traits(
    scores: ShowScores | ShowComponents, *, domain: str, units: bool, disjoint: bool = True, chunks: bool = False
) -> frozenset[str]:
    """The traits (:data:`tvseg.metrics.TRAITS`) of a system as scored, which decide its registry entries:
    segments in time unless ``domain`` is ``"units"``; ``disjoint`` unless its segments overlap
    (:attr:`tvseg.preparation.Prepared.overlapping`); ``units`` when scored on units or frames; titles when
    scored; answers to the grounding queries, and the captioning scorers, when their kernels made components;
    ``chunks`` when the unit metrics are counted on chunkseg's chunks (their components hold the chunk flags')."""
    traits = {DISJOINT} if disjoint else set()
    if domain == "time":
        traits.add(TIME)
    if units:
        traits.add(UNITS)
    if chunks:
        traits.add(CHUNKS)
    if scores.titles:
        traits.add(TITLES)
    columns = scores.components.columns
    if GROUNDING_COMPONENTS[0] in columns:
        traits.add(GROUNDING)
    if CAPTIONING_COMPONENTS[0] in columns:
        traits.add(CAPTIONING)
    if "trecvid_n_found_reference" in columns:
        traits.add(TRECVID)
    if "dvc_meteor_sum" in columns:
        traits.add(METEOR)
    return frozenset(traits)


def _restricted(sr: SystemResult, allowed: set[str], *, time: bool) -> SystemResult:
    """A system's result with only the metrics ``allowed`` (its eligible entries): its per-show, corpus, macro,
    length-class and group values restricted; unchanged when it has no other. Without segments in time it
    has no length class, and a restricted result has no matches, sweeps nor boundary pairs."""
    if set(sr.shows.columns) - set(SHOW_FLAGS) <= allowed and set(sr.corpus) <= allowed:
        return sr

    def only(values: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in values.items() if k in allowed}

    return replace(
        sr,
        shows=_shows_allowed(sr.shows, allowed),
        corpus=only(sr.corpus),
        macro=only(sr.macro),
        by_length={cls: only(values) for cls, values in sr.by_length.items()} if time else {},
        groups={c: {v: only(m) for v, m in g.items()} for c, g in sr.groups.items()},
        keeps_matches=False,
        gamma_sweep=sr.gamma_sweep.iloc[0:0],
        tolerance_sweep=sr.tolerance_sweep.iloc[0:0],
        boundary_pairs=sr.boundary_pairs.iloc[0:0],
        titles=False,
    )


def _shows_allowed(shows: pd.DataFrame, allowed: set[str]) -> pd.DataFrame:
    """The per-show table with the metrics ``allowed`` and the flags (:data:`SHOW_FLAGS`) alone."""
    kept = [c for c in shows.columns if c in allowed or c in SHOW_FLAGS]
    return shows if len(kept) == len(shows.columns) else shows[kept]


def _warn_left_out(name: str, traits: frozenset[str], *, units: bool) -> None:
    """The warning naming the entries a system whose segments overlap does not get, that it would get with
    disjoint segments (and units, when the evaluation has some)."""
    allowed = {m.key for m in eligible(traits)}
    keys = [m.key for m in eligible(traits | {DISJOINT} | ({UNITS} if units else set())) if m.key not in allowed]
    warnings.warn(
        f"{name}: its segments overlap (dense-captioning predictions): scored with VidChapters' detection and "
        f"navigation metrics and the counts only; left out, as their definitions need disjoint segments: "
        f"{', '.join(keys)}",
        TvsegWarning,
        stacklevel=user_stacklevel(),
    )


def _no_tallies(tolerances: Sequence[float] | np.ndarray) -> SweepTallies:
    """The sweep tallies of a system without sweeps (its segments overlap)."""
    none = np.empty(0)
    return SweepTallies(np.empty(0, dtype=np.int64), none, np.empty(0, dtype=np.int64), none, np.zeros(len(tolerances)))


_NO_PAIRS = pd.DataFrame({"show": np.empty(0, object), "reference": np.empty(0), "hypothesis": np.empty(0)})
_NO_MATCHES = pd.DataFrame({"show": np.empty(0, object)})
_NO_GAMMAS = pd.DataFrame({"gamma": np.empty(0)})
_NO_TOLERANCES = pd.DataFrame({"tolerance": np.empty(0)})


def _pairs(scores: ShowScores, shows: Sequence[str]) -> pd.DataFrame:
    r_show, r_time, _, h_time = scores.boundaries
    i, j = scores.pairs
    names = np.asarray(shows, dtype=object)
    return pd.DataFrame(
        {"show": names[r_show[i]] if len(i) else np.empty(0, object), "reference": r_time[i], "hypothesis": h_time[j]}
    )
