"""Every check :func:`tvseg.evaluate` makes before scoring, and the arrays it scores (:func:`prepare`).

``tvseg validate`` with roles runs :func:`prepare` and nothing else, so that it gives the verdict
``tvseg evaluate`` would give. Each side becomes the flat arrays of its shows in one pass
(:func:`tvseg.columns.corpus_segments`): gathered from :class:`tvseg.columns.SegmentColumns` (what
:func:`tvseg.read_segments` returns), or read from any other mapping of show id to Annotation/Timeline;
the reference once, at the start, and every later step reads its arrays. From there everything runs
on the arrays, the same code for both: the crop to the UEM (:func:`tvseg.columns.crop_spans`), the
checks (time base, caption-likeness, frames) and the crop of hypotheses to their show's evaluated
region.

Overlapping predictions (dense-captioning events, ``format="anet"``: :mod:`tvseg.readers.video_chapters`):
a system some of whose shows hold segments that overlap (:func:`overlapping_systems`) is checked by the rule
of what it is, segments that overlap allowed; the metrics whose definitions need disjoint segments are then
not computed for it (:data:`tvseg.metrics.DISJOINT`). Such a system is refused with a UEM that has several
regions in a show, and its shows are not looked at as captions (its events are captions' times).

Its warnings are data first (:class:`Notice`, in :attr:`Prepared.notices`), given by
:func:`give_notices`: those about many shows (shows that look like captions, hypotheses cropped,
shows the reference lacks) are one warning per side whatever the shows, built from one notice per
show, so the notices of a corpus are those of its parts put end to end.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from tvseg import arguments
from tvseg.columns import SegmentColumns, Segments, corpus_segments, unit_arrays
from tvseg.errors import InputError, LenientInputWarning, SuspiciousInputWarning, UsageError, user_stacklevel
from tvseg.exact import TICKS_PER_SECOND, ticks
from tvseg.readers.uem import regions_of
from tvseg.retrieval.boundaries import regions
from tvseg.retrieval.region import Region, build_region, crop
from tvseg.settings import Settings
from tvseg.time_base import (
    caption_like,
    captions_message,
    check_hypothesis_extents,
    check_shows_in_common,
    check_unit_extents,
    shows_and_files,
)
from tvseg.unit.projection import edge_ticks

if TYPE_CHECKING:
    from pyannote.core import Annotation, Timeline

__all__ = [
    "Prepared",
    "prepare",
    "MAX_FRAMES_PER_SHOW",
    "Notice",
    "give_notices",
    "extra_shows",
    "overlapping_systems",
]

MAX_FRAMES_PER_SHOW = 2_000_000
"""Most frames one show may be cut into with ``--frame`` (3 hours at 10 ms is 1,080,000)."""


@dataclass(frozen=True)
class Notice:
    """A warning of :func:`prepare`, as data (:func:`give_notices` gives it).

    Attributes
    ----------
    kind : {"text", "captions", "crop", "extra"}
        ``"text"``: a warning of its own, ``text`` (of category ``value``, by default
        :class:`~tvseg.errors.LenientInputWarning`). The others are about one show each, and all those
        of one kind and ``side`` are one warning: ``"captions"`` a show that looks like captions
        (``value``: its median segment in seconds and its segments per hour), ``"crop"`` a show whose
        hypothesis was cropped to its evaluated region (``value``: the microseconds removed), ``"extra"``
        a show the reference lacks, left out (``value``: the file it was read from, or None).
    side : str
        ``"reference"``, ``"units"`` or a system's name (``"NAME hypothesis"`` for captions).
    show : str
        The show (kinds other than ``"text"``).
    text : str
        The message (kind ``"text"``).
    value : object
        As ``kind`` says.
    """

    kind: str
    side: str = ""
    show: str = ""
    text: str = ""
    value: Any = None


@dataclass(frozen=True, eq=False)
class Prepared:
    """The inputs of one evaluation, read and checked, ready to score (:func:`prepare`).

    Attributes
    ----------
    settings : Settings
        The effective settings (``uem`` and ``units`` set from the inputs).
    shows : list of str
        The reference's shows, sorted: the shows scored.
    reference : Mapping
        Show id -> reference segmentation (cropped to its UEM), as the result keeps it.
    reference_segments : Segments
    uem_start, uem_end : ndarray or None
        Per-show UEM edges (NaN where a show has no UEM).
    region_start, region_end : ndarray
        Each show's evaluated region (the UEM extent, else the reference's extent).
    region_ticks : (ndarray, ndarray)
        The same in ticks (:mod:`tvseg.exact`), 0 for a show without a region: computed once.
    systems : dict
        System name -> :class:`Segments`: its hypothesis per show, cropped to the region.
    units : tuple of ndarray or None
        ``(show index, start, end)`` of the units of the scored shows (None without units).
    notices : list of Notice
        The warnings, in the order :func:`give_notices` gives them.
    has_output : dict
        System name -> bool array over ``shows``: whether its input had the show (False: no hypothesis
        for it, scored as an empty hypothesis).
    scores : dict
        System name -> ``(show, start, end, score, end_score)``: its segments as given (before the crop to
        the UEM and the region), the scores of the boundaries at their starts and at their ends (those a crop
        to a UEM as they were read left out included), for a system whose segments have some scores
        (:mod:`tvseg.retrieval.confidence`).
    overlapping : tuple of str
        The systems whose segments may overlap (:func:`overlapping_systems`), in input order.
    """

    settings: Settings
    shows: list
    reference: Mapping
    reference_segments: Segments
    uem_start: np.ndarray | None
    uem_end: np.ndarray | None
    region_start: np.ndarray
    region_end: np.ndarray
    region_ticks: tuple
    systems: dict
    units: tuple | None = None
    notices: list = field(default_factory=list)
    has_output: dict = field(default_factory=dict)
    scores: dict = field(default_factory=dict)
    overlapping: tuple = ()


def overlapping_systems(hypotheses: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The systems some of whose shows (any show of theirs) hold segments that overlap: what decides
    that a system lacks the trait :data:`tvseg.metrics.DISJOINT`."""
    return [
        name
        for name, hypothesis in hypotheses.items()
        if _overlaps(corpus_segments(hypothesis, list(hypothesis), overlaps=True, checked=False))
    ]


def _overlaps(segments: Segments) -> bool:
    """Whether some two segments of a show overlap (sorted by start within each show)."""
    if len(segments) < 2:
        return False
    show, start, end = segments.show, segments.start, segments.end
    reach = pd.Series(end).groupby(show).cummax().to_numpy()
    return bool(np.any((show[1:] == show[:-1]) & (start[1:] < reach[:-1])))


def prepare(
    reference: Mapping[str, Annotation | Timeline],
    hypotheses: Mapping[str, Mapping[str, Annotation]],
    *,
    settings: Settings | None = None,
    uem: Mapping[str, Timeline] | None = None,
    units: Mapping[str, pd.DataFrame] | None = None,
    check_time_base: bool = True,
    check_systems: bool = True,
    warn: bool = True,
    domain: str = "time",
    overlapping: Iterable[str] | None = None,
) -> Prepared:
    """Every check :func:`tvseg.evaluate` makes before scoring, and the inputs it scores.

    Parameters and errors as in :func:`tvseg.evaluate` (``reference`` and ``hypotheses`` are checked here:
    :func:`tvseg.arguments.check_segmentations`, :func:`tvseg.arguments.check_systems`), and:

    check_systems : bool, default True
        Refuse a system that has no show, or none of the reference's (False: the caller checks it).
    warn : bool, default True
        Give the warnings (:func:`give_notices`; those found before an error too); False: only keep
        them in :attr:`Prepared.notices`, for the caller to give.
    domain : {"time", "units"}, default "time"
        ``"units"``: the segments are in unit positions (a text corpus: :mod:`tvseg.readers.text_corpora`):
        its sentences are its units (:meth:`tvseg.columns.SegmentColumns.sentence_units`), and no show is
        looked at as captions.
    overlapping : iterable of str, optional
        The systems whose segments may overlap (default: those whose segments overlap in some show,
        :func:`overlapping_systems`; none in the unit domain). A system not among them is refused when
        its segments overlap.
    """
    notices: list[Notice] = []
    try:
        return _prepare(
            reference,
            hypotheses,
            settings or Settings(),
            uem,
            units,
            check_time_base,
            check_systems,
            notices,
            domain,
            overlapping,
        )
    finally:
        if warn:
            give_notices(notices)


def _prepare(
    reference,
    hypotheses,
    settings,
    uem,
    units,
    check_time_base,
    check_systems,
    notices: list[Notice],
    domain,
    overlapping,
) -> Prepared:
    """:func:`prepare`, its notices appended to ``notices`` as they are found."""
    arguments.check_segmentations("reference", reference)
    arguments.check_systems("hypotheses", hypotheses)
    captions = domain != "units"  # sentences are no captions, and they are the units
    if not captions:
        if uem is not None or units is not None or settings.units == "frames":
            raise UsageError("a text corpus is scored on its sentences: no UEM, no units, no frames")
        if settings.convention == "chunkseg":
            raise UsageError("convention 'chunkseg' counts on chunks of seconds, not on the sentences of a text corpus")
        sentences = reference.ends()
        for name, hypothesis in hypotheses.items():
            if not isinstance(hypothesis, SegmentColumns) or hypothesis.domain != "units":
                raise UsageError(f"{name}: a text corpus is scored against segmentations read from a text format")
            for show, count in hypothesis.ends().items():
                if show in sentences and count != sentences[show]:
                    raise InputError(
                        f"{name}: document {show} has {count:g} sentences, the reference {sentences[show]:g}",
                        path=hypothesis.path(show),
                    )
        overlapping = ()
    overlapping = tuple(overlapping_systems(hypotheses) if overlapping is None else overlapping)
    changes: dict[str, Any] = {}
    if (uem is not None) != settings.uem:
        changes["uem"] = uem is not None
    if (units is not None or not captions) and settings.units != "file":
        changes["units"] = "file"
    if changes:
        settings = settings.replace(**changes)
    if not reference:
        raise InputError("the reference has no show")
    if not hypotheses:
        raise UsageError("no hypothesis to score")
    shows = sorted(reference)
    unit_data: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None if captions else reference.sentence_units()
    # each show's UEM regions, merged ((start, end) arrays; None: no UEM for the show)
    merged = [regions_of(uem, show) for show in shows] if uem is not None else [None] * len(shows)
    gapped = [show for show, r in zip(shows, merged) if r is not None and len(r[0]) > 1]
    if gapped and overlapping:
        raise UsageError(
            f"a UEM with several regions in a show ({gapped[0]!r}) is not supported for overlapping "
            f"predictions ({', '.join(overlapping)}): give one region per show"
        )
    uem_start = uem_end = to_uem = None
    if uem is not None:
        uem_start = np.array([np.nan if r is None else r[0][0] for r in merged])
        uem_end = np.array([np.nan if r is None else r[1][-1] for r in merged])
    if any(r is not None for r in merged):
        to_uem = build_region([[] if r is None else np.column_stack(r) for r in merged])
    # the reference made arrays once, cropped to its UEM: every step after this one reads them
    ref = corpus_segments(reference, shows, side="reference")
    ref = _crop_to_uem(ref, to_uem, shows, notices)
    region_start, region_end = regions(ref, uem_start, uem_end)
    edges = edge_ticks(region_start, region_end)
    if captions:
        notices += _captions("reference", shows, ref)
    _check_frames(settings, shows, region_start, region_end)
    gaps = None
    if gapped:
        # the evaluated regions of every show: its UEM's, else its region (none without one)
        whole = [[] if np.isnan(a) else [(a, b)] for a, b in zip(region_start, region_end)]
        gaps = build_region([whole[k] if r is None else np.column_stack(r) for k, r in enumerate(merged)])
    if units is not None:
        notices += extra_shows("units", shows, units)
        unit_data = unit_arrays(units, shows)
    if unit_data is not None:
        # checked whole against the evaluated region; scored without those in a gap of the UEM
        evaluated = unit_data if gaps is None else _units_outside_gaps(unit_data, gaps)
        found: list[str] = []
        check_unit_extents(
            shows,
            *unit_data,
            region_start,
            region_end,
            strict=check_time_base,
            found=found,
            ends_checked=None if uem_start is None else np.isnan(uem_start),  # a UEM may end before the show
        )
        notices += [Notice("text", text=text, value=SuspiciousInputWarning) for text in found]
        unit_data = evaluated
    for name, hypothesis in hypotheses.items() if check_systems else ():
        check_shows_in_common(name, shows, list(hypothesis))
    systems, has_output, scores = {}, {}, {}
    for name, hypothesis in hypotheses.items():
        side = f"{name} hypothesis"
        notices += extra_shows(name, shows, hypothesis)
        missing = {show for show in shows if show not in hypothesis}
        has_output[name] = np.array([show not in missing for show in shows], dtype=bool)
        notices += [
            Notice("text", text=f"{name}: no hypothesis for show {show}: scored as an empty hypothesis")
            for show in shows
            if show in missing
        ]
        dense = name in overlapping
        segments = corpus_segments(hypothesis, shows, side=side, overlaps=dense)
        scored = _scores(hypothesis, shows, segments)
        if scored is not None:
            scores[name] = scored
        hyp = _crop_to_uem(segments, to_uem, shows, notices)
        found = []
        check_hypothesis_extents(name, shows, hyp, region_start, region_end, strict=check_time_base, found=found)
        notices += [Notice("text", text=text, value=SuspiciousInputWarning) for text in found]
        if captions and not dense:
            notices += _captions(name, shows, hyp)
        systems[name], cropped = _crop_to_region(name, hyp, shows, region_start, region_end, edges)
        notices += cropped
    if gaps is not None:
        ref = replace(ref, region=gaps)
        systems = {name: replace(hyp, region=gaps) for name, hyp in systems.items()}
    return Prepared(
        settings=settings,
        shows=shows,
        reference=reference if to_uem is None else _as_columns(ref, shows),
        reference_segments=ref,
        uem_start=uem_start,
        uem_end=uem_end,
        region_start=region_start,
        region_end=region_end,
        region_ticks=edges,
        systems=systems,
        units=unit_data,
        notices=list(notices),
        has_output=has_output,
        scores=scores,
        overlapping=tuple(name for name in hypotheses if name in overlapping),
    )


def extra_shows(side: str, reference_shows: Iterable[str], mapping: Mapping) -> list[Notice]:
    """A notice per show of ``mapping`` (a system's hypotheses, the units) that the reference lacks,
    in show order: they are left out (the warning names the file each was read from, when known)."""
    path_of = getattr(mapping, "path", None)
    known = set(reference_shows)
    return [
        Notice("extra", side, show, value=path_of(show) if callable(path_of) else None)
        for show in sorted(set(mapping) - known)
    ]


def give_notices(notices: Iterable[Notice]) -> None:
    """Give the warnings of ``notices`` (:class:`Notice`), each in the place of its first notice:
    a ``"text"`` notice as its text, all the notices of one other kind and side as one warning."""
    groups: dict[tuple, list[Notice]] = {}
    for k, notice in enumerate(notices):
        groups.setdefault((notice.kind, notice.side) if notice.kind != "text" else ("text", k), []).append(notice)
    for (kind, side), group in groups.items():
        group = group if kind == "text" else sorted(group, key=lambda n: n.show)
        if kind == "text":
            message = group[0].text
        elif kind == "captions":
            first = group[0]
            message = captions_message(side, len(group), (first.show, *first.value))
        elif kind == "crop":
            names = [n.show for n in group]
            removed = sum(n.value for n in group) / TICKS_PER_SECOND
            message = (
                f"{side}: hypothesis cropped to the reference's extent (no UEM for these shows): "
                f"{removed:.3f} s removed from {len(group)} show(s) "
                f"({', '.join(names[:5])}{' ...' if len(group) > 5 else ''})"
            )
        else:
            names = [n.show for n in group]
            files = SimpleNamespace(path={n.show: n.value for n in group}.get)  # as shows_and_files reads them
            message = f"{side}: show(s) not in the reference, left out: {shows_and_files(files, names)}"
        category = SuspiciousInputWarning if kind == "captions" else group[0].value if kind == "text" else None
        warnings.warn(message, category or LenientInputWarning, stacklevel=user_stacklevel())


def _scores(mapping, shows, segments: Segments) -> tuple | None:
    """``(show, start, end, score, end_score)`` of a hypothesis's segments of ``shows`` (as
    :func:`tvseg.columns.corpus_segments` gathers them) when some has a score, else None
    (:meth:`tvseg.columns.SegmentColumns.end_scores`)."""
    own = getattr(mapping, "score", None) if isinstance(mapping, SegmentColumns) else None
    if own is None:
        return None
    rows, _ = mapping.rows_of(shows)
    score = own[rows]
    if np.isnan(score).all():
        return None
    following = mapping.end_scores()
    assert following is not None
    return segments.show, segments.start, segments.end, score, following[rows]


def _crop_to_uem(segments: Segments, region: Region | None, shows, notices: list[Notice]) -> Segments:
    """``segments`` cropped to their show's UEM regions (a show without a UEM kept whole), a notice for
    each segment left out (those read from a file were cropped, and warned of, as they were read)."""
    if region is None:
        return segments
    cropped, left_out = crop(segments, region)
    for k in left_out.tolist():
        notices.append(
            Notice(
                "text",
                text=f"show {shows[segments.show[k]]!r}: segment {segments.start[k]:.3f}-{segments.end[k]:.3f} "
                f"({segments.label[k]}) is outside the UEM and is left out",
            )
        )
    return cropped


def _as_columns(segments: Segments, shows) -> SegmentColumns:
    """The mapping of show id to Annotation that the result keeps of ``segments``."""
    return SegmentColumns(shows, segments.offsets(), start=segments.start, end=segments.end, label=segments.label)


def _units_outside_gaps(unit_data, region: Region):
    """The units without those whose midpoint lies in a gap between two of its show's regions (not
    evaluated); units before or after the regions stay, as without gaps."""
    u_show, u_start, u_end = unit_data
    mid = ticks((u_start + u_end) / 2)
    first = np.full(region.n_shows, np.iinfo(np.int64).max)
    last = np.full(region.n_shows, np.iinfo(np.int64).min)
    np.minimum.at(first, region.show, region.start)
    np.maximum.at(last, region.show, region.end)
    in_gap = (mid > first[u_show]) & (mid < last[u_show]) & ~region.covers(u_show, mid)
    if not in_gap.any():
        return unit_data
    keep = ~in_gap
    return u_show[keep], u_start[keep], u_end[keep]


def _check_frames(settings: Settings, shows, region_start, region_end) -> None:
    if settings.convention == "chunkseg" and settings.units == "file":
        raise UsageError(
            "convention 'chunkseg' counts on chunkseg's chunks (--frame SECONDS, 6 in chunkseg), "
            "not on units from a file"
        )
    if settings.units != "frames":
        return
    # chunkseg's grid starts at time 0, tvseg's frames at the region's start
    length = np.nan_to_num(region_end - (0.0 if settings.convention == "chunkseg" else region_start))
    worst = int(np.argmax(length)) if len(length) else 0
    if len(length) and length[worst] / settings.frame > MAX_FRAMES_PER_SHOW:
        raise UsageError(
            f"--frame {settings.frame:g} cuts show {shows[worst]!r} ({length[worst]:.0f} s) into "
            f"{length[worst] / settings.frame:.3g} frames, more than {MAX_FRAMES_PER_SHOW:,}: "
            "use a longer frame"
        )


def _captions(side, shows, segments) -> list[Notice]:
    """A notice per show that looks like captions (:func:`tvseg.time_base.caption_like`)."""
    return [
        Notice("captions", side, show, value=(median, rate)) for show, median, rate in caption_like(shows, segments)
    ]


def _crop_to_region(name, hyp, shows, region_start, region_end, edges) -> tuple[Segments, list[Notice]]:
    """Crop each show's hypothesis to its evaluated region (the reference's extent, or the UEM's; ``edges``:
    the same in ticks), with a notice per show cropped (the microseconds removed: one warning per system
    says how much)."""
    off = hyp.offsets()
    nonempty = off[1:] > off[:-1]
    first = np.zeros(hyp.n_shows, dtype=np.int64)
    last = np.zeros(hyp.n_shows, dtype=np.int64)
    first[nonempty] = hyp.start_ticks[off[:-1][nonempty]]
    if nonempty.any():  # the latest end of each show (the last segment's, unless segments overlap)
        last[nonempty] = np.maximum.reduceat(hyp.end_ticks, off[:-1][nonempty])
    has = nonempty & ~np.isnan(region_start)
    lo = np.where(has, edges[0], 0)
    hi = np.where(has, edges[1], 0)
    outside = np.flatnonzero(has & ((first < lo) | (last > hi)))
    if not len(outside):
        return hyp, []
    to_region = Region(
        outside, edges[0][outside], edges[1][outside], hyp.n_shows, region_start[outside], region_end[outside]
    )
    cropped, _ = crop(hyp, to_region)
    removed = np.zeros(hyp.n_shows, dtype=np.int64)
    np.add.at(removed, hyp.show, hyp.duration_ticks)
    np.subtract.at(removed, cropped.show, cropped.duration_ticks)
    return cropped, [Notice("crop", name, shows[k], value=int(removed[k])) for k in outside.tolist()]
