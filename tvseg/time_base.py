"""Checks that a hypothesis and the units lie on their reference show's time base.

A file written on another time base (a broadcast timecode origin such as 10:00:00, times in
milliseconds) reads without an error and scores as nonsense: a hypothesis that overlaps nothing
scores 0, units that lie outside the show project every segmentation onto nothing and score as
perfect. :func:`tvseg.evaluate` runs these checks before scoring:

========================================================  =================================
what                                                       outcome
========================================================  =================================
a system shares no show with the reference                 error
a show's hypothesis does not overlap its evaluated region  error
less than half of a show's hypothesis lies in the region   error when the numbers name a
                                                           cause (milliseconds, a timecode
                                                           origin), else a warning
a show's units do not overlap its evaluated region         error
less than half of the units' time lies in the region,      error
with a cause named
the units cover less than :data:`MIN_UNIT_COVERAGE` of     warning
the region
units end more than :data:`LATE_UNITS` s after the         warning
region, which no UEM sets (an origin on another time
base: an SCC time code)
========================================================  =================================

A segmentation that looks like captions rather than topics (:func:`caption_like`: a median
segment under :data:`CAPTION_MEDIAN` seconds and more than :data:`CAPTION_RATE` segments per hour of
its extent; topic segments of news last minutes, caption cues a few seconds) gets a warning naming
``--units``, the option that reads caption cues as units (:func:`captions_message`).

Errors are :class:`~tvseg.errors.InputError` naming the show, both extents and, when the numbers
suggest one, the likely cause (:func:`likely_cause`). ``check_time_base=False`` (CLI
``--no-time-base-check``) turns the errors on extents into warnings, for the rare corpus where a
system really scores shows it barely overlaps. The checks on extents give their warnings, or append
them to a list the caller gives (``found=``: :mod:`tvseg.preparation` keeps its warnings as data).
"""

from __future__ import annotations

import os
import warnings

import numpy as np

from tvseg.columns import lex_order
from tvseg.errors import InputError, SuspiciousInputWarning, user_stacklevel

__all__ = [
    "MIN_UNIT_COVERAGE",
    "LATE_UNITS",
    "likely_cause",
    "check_shows_in_common",
    "shows_and_files",
    "check_hypothesis_extents",
    "check_unit_extents",
    "caption_like",
    "captions_message",
]

CAPTION_MEDIAN = 10.0
"""Median segment duration (s) under which a segmentation may be captions rather than topics."""
CAPTION_RATE = 100.0
"""Segments per hour above which a segmentation may be captions rather than topics."""
MIN_UNIT_COVERAGE = 0.5
"""Share of a show's evaluated region that its units must cover before a warning is given."""
LATE_UNITS = 1.0
"""Seconds that a show's units may run past its evaluated region (a caption left on screen as the show
ends) before a warning is given."""


def likely_cause(region: tuple[float, float], extent: tuple[float, float]) -> str:
    """A hint at why ``extent`` (a hypothesis's or the units') misses ``region`` (the reference's)."""
    (r0, r1), (e0, e1) = region, extent
    if r1 > 0 and 500 <= e1 / r1 <= 2000 and e0 >= 0:
        return " (its times are about 1000 times the reference's: milliseconds instead of seconds?)"
    shift = e0 - r0
    hours = round(shift / 3600)
    if hours != 0 and abs(shift - 3600 * hours) <= 300:
        sign = "" if hours > 0 else "-"
        return (
            f" (shifted by about {sign}{abs(hours):02d}:00:00: a broadcast timecode origin? subtract it from the times)"
        )
    if e0 > r1:
        return " (it starts after the reference ends: another time origin or another show?)"
    return ""


def _extent_text(a, b) -> str:
    return f"[{a:.3f}, {b:.3f}] s"


def check_shows_in_common(name: str, reference_shows, hypothesis_shows) -> None:
    """Raise :class:`InputError` when system ``name`` has no show of the reference."""
    if hypothesis_shows and not set(reference_shows) & set(hypothesis_shows):
        ref = sorted(reference_shows)
        hyp = sorted(hypothesis_shows)
        raise InputError(
            f"system {name!r} has no show in common with the reference (reference shows: "
            f"{', '.join(ref[:3])}{' ...' if len(ref) > 3 else ''}; its shows: "
            f"{', '.join(hyp[:3])}{' ...' if len(hyp) > 3 else ''}): check the show ids"
        )
    if not hypothesis_shows:
        raise InputError(f"system {name!r} has no show")


def shows_and_files(mapping, shows) -> str:
    """``shows`` of ``mapping`` named with the file each was read from, when it knows
    (:class:`~tvseg.columns.SegmentColumns` and :class:`~tvseg.columns.UnitColumns` do):
    ``"a, b (from x.csv); c.utf8 (from c.utf8.srt)"``, so that a show whose id is not the one meant
    (a file renamed) can be found."""
    path_of = getattr(mapping, "path", None)
    groups: dict[str | None, list[str]] = {}
    for show in shows:
        path = path_of(show) if callable(path_of) else None
        groups.setdefault(None if path is None else os.fspath(path), []).append(str(show))
    return "; ".join(", ".join(names) + ("" if path is None else f" (from {path})") for path, names in groups.items())


def _report(problem: str, found: list[str] | None, *, strict: bool) -> None:
    if strict:
        raise InputError(problem)
    _warn(problem, found)


def _warn(problem: str, found: list[str] | None) -> None:
    if found is None:
        warnings.warn(problem, SuspiciousInputWarning, stacklevel=user_stacklevel())
    else:
        found.append(problem)


def _in_region(show, start, end, region_start, region_end, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per show (``n`` shows), the time of its intervals inside its region (NaN: none) and their whole time."""
    r0, r1 = region_start[show], region_end[show]
    inside = np.clip(np.minimum(end, r1) - np.maximum(start, r0), 0.0, None)
    return np.bincount(show, weights=inside, minlength=n), np.bincount(show, weights=end - start, minlength=n)


def check_hypothesis_extents(
    name: str, shows, hypothesis, region_start, region_end, *, strict: bool = True, found: list[str] | None = None
) -> None:
    """Check each show's hypothesis against its evaluated region (see the module docstring).

    Parameters
    ----------
    name : str
        The system.
    shows : sequence of str
    hypothesis : tvseg.columns.Segments
        The system's segments, before cropping to the region.
    region_start, region_end : ndarray
        Per show (NaN where undefined).
    strict : bool
        Raise on a hypothesis that misses its region (else warn).
    found : list of str, optional
        Append the warnings to it (in show order) instead of giving them.
    """
    off = hypothesis.offsets()
    n = len(off) - 1
    # the sums for all shows at once; only the shows they flag (with a margin for the order of the
    # additions) are visited, in order, and decided on the sums of the show-by-show loop
    inside_all, total_all = _in_region(hypothesis.show, hypothesis.start, hypothesis.end, region_start, region_end, n)
    flagged = inside_all < (0.5 + 1e-9) * total_all
    for k in np.flatnonzero((off[1:] > off[:-1]) & ~np.isnan(region_start) & flagged).tolist():
        a, b = int(off[k]), int(off[k + 1])
        start, end = hypothesis.start[a:b], hypothesis.end[a:b]
        r0, r1 = float(region_start[k]), float(region_end[k])
        inside = float(np.clip(np.minimum(end, r1) - np.maximum(start, r0), 0.0, None).sum())
        total = float((end - start).sum())
        extent = (float(start[0]), float(end[-1]))
        where = f"show {shows[k]!r}: system {name!r}'s hypothesis {_extent_text(*extent)}"
        if inside == 0.0:
            _report(
                f"{where} does not overlap the show's evaluated region {_extent_text(r0, r1)}"
                f"{likely_cause((r0, r1), extent)}",
                found,
                strict=strict,
            )
        elif inside < 0.5 * total:
            cause = likely_cause((r0, r1), extent)
            problem = (
                f"{where}: only {100 * inside / total:.0f}% of it lies in the evaluated region "
                f"{_extent_text(r0, r1)}{cause}"
            )
            if cause:
                _report(problem, found, strict=strict)
            else:
                _warn(problem, found)


def _ascending(show: np.ndarray, value: np.ndarray) -> bool:
    """Whether the pairs ``(show, value)`` are in lexicographic order already (no sort needed)."""
    step = show[1:] - show[:-1]
    return bool(((step > 0) | ((step == 0) & (value[1:] >= value[:-1]))).all())


def check_unit_extents(
    shows,
    unit_show,
    unit_start,
    unit_end,
    region_start,
    region_end,
    *,
    strict: bool = True,
    found: list[str] | None = None,
    ends_checked=None,
) -> None:
    """Check each show's units against its evaluated region (see the module docstring).

    Parameters
    ----------
    shows : sequence of str
    unit_show, unit_start, unit_end : ndarray
        Every unit's show index (into ``shows``), start and end in seconds.
    region_start, region_end : ndarray
        Per show (NaN where undefined).
    strict : bool
        Raise on units that miss their region (else warn).
    found : list of str, optional
        Append the warnings to it (in show order) instead of giving them.
    ends_checked : array of bool, optional
        The shows whose units ending after the region get a warning (default: all; a show whose region is
        a UEM's, which may end before the show does, is left out by :func:`tvseg.preparation.prepare`).

    The sums over each show's units are taken for all shows at once; the shows are then visited in
    order only where a check fails, so the first error is the first show's, as in a show-by-show loop.
    """
    n = len(shows)
    unit_show = np.asarray(unit_show, dtype=np.int64)
    if not len(unit_show):
        return
    # units of a show sorted by start (stable), and each show's block of them
    sh, start, end = unit_show, np.asarray(unit_start, float), np.asarray(unit_end, float)
    if not _ascending(sh, start):
        order = np.lexsort((start, sh))
        sh, start, end = sh[order], start[order], end[order]
    bounds = np.searchsorted(sh, np.arange(n + 1))
    r0, r1 = region_start[sh], region_end[sh]
    # each unit clipped to its show's region: its time inside it is e - s (min(end, r1) - max(start, r0),
    # or 0 outside); the region's share covered by units (units may overlap as roll-up captions do: a
    # union): the running maximum of the clipped ends within each show, from the ends' ranks in (show,
    # end) order (every rank of a show exceeds every rank of the shows before it)
    s, e = np.clip(start, r0, r1), np.clip(end, r0, r1)
    inside = np.bincount(sh, weights=e - s, minlength=n)
    total = np.bincount(sh, weights=end - start, minlength=n)
    if _ascending(sh, e):
        reach = e  # units that do not overlap (breath groups): each end is the furthest so far
    else:
        by_end = np.lexsort((e, sh))
        rank = np.empty(len(e), dtype=np.int64)
        rank[by_end] = np.arange(len(e))
        reach = e[by_end[np.maximum.accumulate(rank)]]
    prev = np.empty(len(e))
    prev[1:] = reach[:-1]
    first = bounds[:-1][bounds[:-1] < bounds[1:]]
    prev[first] = r0[first]
    covered = np.bincount(sh, weights=np.clip(e - np.maximum(s, prev), 0.0, None), minlength=n)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(region_end > region_start, covered / (region_end - region_start), 1.0)
    valid = (bounds[1:] > bounds[:-1]) & ~np.isnan(region_start)
    suspect = valid & ((inside == 0.0) | (inside < 0.5 * total) | (share < MIN_UNIT_COVERAGE))
    last = np.full(n, -np.inf)
    filled = bounds[1:] > bounds[:-1]
    last[filled] = np.maximum.reduceat(end, bounds[:-1][filled])  # each show's units are a block of the sorted ones
    late = valid & (last > region_end + LATE_UNITS)
    if ends_checked is not None:
        late &= np.asarray(ends_checked, dtype=bool)
    for k in np.flatnonzero(suspect | late).tolist():
        a, b = int(bounds[k]), int(bounds[k + 1])
        r = (float(region_start[k]), float(region_end[k]))
        extent = (float(start[a:b].min()), float(end[a:b].max()))
        where = f"show {shows[k]!r}: units {_extent_text(*extent)}"
        cause = likely_cause(r, extent)
        if inside[k] == 0.0:
            _report(
                f"{where} do not overlap the show's evaluated region {_extent_text(*r)}{cause}", found, strict=strict
            )
            continue
        if cause and inside[k] < 0.5 * total[k]:
            _report(
                f"{where}: only {100 * inside[k] / total[k]:.0f}% of their time lies in the "
                f"show's evaluated region {_extent_text(*r)}{cause}",
                found,
                strict=strict,
            )
            continue
        if share[k] < MIN_UNIT_COVERAGE:
            _warn(
                f"{where} cover only {100 * share[k]:.0f}% of the show's evaluated region "
                f"{_extent_text(*r)} (less than {100 * MIN_UNIT_COVERAGE:.0f}%): the unit metrics "
                f"see only that part{likely_cause(r, extent)}",
                found,
            )
            continue
        if late[k]:
            _warn(
                f"{where} end {extent[1] - r[1]:.3f} s after the show's evaluated region {_extent_text(*r)}: their "
                "time past it is not scored. Are they on the reference's time base? (a time origin of an SCC file "
                "is a time code, counted at 29.97 frames a second: formats/scc.md)",
                found,
            )


def caption_like(shows, segments) -> list:
    """The shows of ``segments`` that look like captions (see the module docstring):
    ``[(show, median segment in s, segments per hour), ...]`` in show order."""
    off = segments.offsets()
    count = np.diff(off)
    if not len(segments):
        return []
    # each show's median duration from one sort by (show, duration): the middle one, or the mean of
    # the two middle ones, as numpy.median gives it
    order = lex_order(segments.show, segments.duration)
    duration = segments.duration[order]
    shows_with = np.flatnonzero(count > 1)
    lo = off[shows_with] + (count[shows_with] - 1) // 2
    hi = off[shows_with] + count[shows_with] // 2
    median = (duration[lo] + duration[hi]) / 2
    hours = (segments.end[off[shows_with + 1] - 1] - segments.start[off[shows_with]]) / 3600.0
    with np.errstate(divide="ignore", invalid="ignore"):
        per_hour = count[shows_with] / hours
    caption = (median < CAPTION_MEDIAN) & (per_hour > CAPTION_RATE)
    return [
        (shows[k], m, r)
        for k, m, r in zip(shows_with[caption].tolist(), median[caption].tolist(), per_hour[caption].tolist())
    ]


def captions_message(side: str, n_flagged: int, first) -> str:
    """The warning about ``n_flagged`` shows that look like captions (at least one), ``first`` the
    first of them as :func:`caption_like` gives it."""
    show, median, rate = first
    return (
        f"{side}: {n_flagged} show(s) look like captions, not topic segments (show {show!r}: "
        f"median segment {median:.1f} s, {rate:.0f} segments per hour): caption cues are units, "
        "give them with --units"
    )
