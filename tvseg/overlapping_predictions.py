"""Systems whose segments overlap (dense-captioning predictions): scored with the metrics that allow it.

ActivityNet-style predictions (``format="anet"``, :mod:`tvseg.readers.video_chapters`) may overlap: a
dense-captioning model proposes events, not a partition of the video. VidChapters' ``dvc_eval`` scores them
as they are, and so does tvseg for the metrics whose definitions hold for any set of intervals:

- VidChapters' detection precision, recall and F over tIoU thresholds (``vc_detection_*``) and navigation
  precision and recall (``nav_*``): each prediction and each reference chapter counts when some partner is
  close enough, whatever the other predictions (:mod:`tvseg.retrieval.chapters`);
- ``chapter_count_error``, ``n_reference`` and ``n_hypothesis``;
- under ``--preset vidchapters``, the captioning metrics of the titles (METEOR, CIDEr, BLEU, ROUGE-L at
  tIoU thresholds, SODA_c: :mod:`tvseg.retrieval.captioning`), which ``dvc_eval`` defines on any predictions.
- for a system giving one segment per reference title, VidChapters' grounding R@1 (``grounding_*``,
  :mod:`tvseg.retrieval.grounding`).

Every other metric needs a segmentation (disjoint segments): coverage (CovN, CovD and their recall and
precision), boundary P/R/F, the counts of correct segments, the one-to-one detection variant (its matching
assumes disjoint sides), the title metrics (they pair titles through the coverage matching or through
chapters that end where the next one starts) and the unit metrics (Pk, P'k, WindowDiff, WinPR, S, B, GHD,
C_seg). They are **left out** of such a system's results (its per-show, corpus, macro, length-class,
group and bootstrap values, its sweeps, matches and boundary pairs), with one warning per system naming
them; the other systems of the run keep them. Pairwise significance tests compare systems within each
kind (segmentations with segmentations, overlapping predictions with overlapping predictions).

How (:func:`tvseg.evaluation.evaluate` runs these steps): the other systems are evaluated as usual; the
overlapping ones are prepared (checked, their shows aligned, the warnings about missing and extra shows
given) with the reference standing in for their segments (:func:`stand_ins`), scored, and their chapter
components replaced by those of their own predictions (:func:`own_scores`), checked against and cropped
to each show's evaluated region as every hypothesis is; the results are then restricted to
:data:`ALLOWED_KEYS` (:func:`restricted`). A UEM with gaps (several regions in a show) is refused for such
a system.
"""

from __future__ import annotations

import copy
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from tvseg.columns import SegmentColumns, Segments, segment_arrays, stack
from tvseg.errors import InputError, TvsegWarning, UsageError, user_stacklevel
from tvseg.exact import MAX_SECONDS, ticks
from tvseg.metrics import DISJOINT, REGISTRY, UNITS
from tvseg.readers.uem import regions_of
from tvseg.retrieval.captioning import captioning_components
from tvseg.retrieval.chapters import chapter_components, chapter_counts
from tvseg.retrieval.grounding import GROUNDING_COMPONENTS, grounding_components
from tvseg.time_base import check_hypothesis_extents

__all__ = [
    "ALLOWED_KEYS",
    "overlapping_systems",
    "restricted_systems",
    "stand_ins",
    "check_regions",
    "given",
    "own_scores",
    "left_out",
    "relay",
    "restricted",
    "only_allowed",
    "keep_only",
]

ALLOWED_KEYS = tuple(m.key for m in REGISTRY if DISJOINT not in m.requires and UNITS not in m.requires)
"""The metrics reported for a system whose segments overlap: the registry's entries that do not require
disjoint segments (nor units, which need them too)."""


def _segments(hypothesis: Mapping[str, Any], shows: Sequence[str]) -> Segments:
    """The segments of ``shows`` (in that order; absent shows have none), overlaps kept, unchecked."""
    if isinstance(hypothesis, SegmentColumns):
        return hypothesis.segments_of(shows, side="hypothesis", overlaps=True)
    return stack([segment_arrays(hypothesis[show] if show in hypothesis else None, overlaps=True) for show in shows])


def _overlaps(segments: Segments) -> bool:
    """Whether some two segments of a show overlap (sorted by start within each show)."""
    if len(segments) < 2:
        return False
    show, start, end = segments.show, segments.start, segments.end
    reach = pd.Series(end).groupby(show).cummax().to_numpy()
    return bool(np.any((show[1:] == show[:-1]) & (start[1:] < reach[:-1])))


def overlapping_systems(hypotheses: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The systems some of whose shows hold overlapping segments."""
    return [name for name, hypothesis in hypotheses.items() if _overlaps(_segments(hypothesis, list(hypothesis)))]


def restricted_systems(result) -> list[str]:
    """The systems of an evaluation result scored as overlapping predictions (:func:`restricted`: without
    the coverage metrics, which every system of disjoint segments has)."""
    return [name for name, sr in result.systems.items() if "cov_n" not in sr.corpus]


def _check(segments: Segments, name: str, shows: Sequence[str]) -> None:
    start, end = segments.start, segments.end
    bad = (
        ~(np.isfinite(start) & np.isfinite(end) & (end > start))
        | (np.abs(start) > MAX_SECONDS)
        | (np.abs(end) > MAX_SECONDS)
    )
    bad |= segments.end_ticks <= segments.start_ticks
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{name} hypothesis of show {shows[segments.show[i]]!r}: empty, non-finite or out-of-range segment",
            value=f"[{start[i]}, {end[i]}]",
        )


def only_allowed(values: Mapping[str, Any], allowed: Sequence[str] = ALLOWED_KEYS) -> dict[str, Any]:
    """``values`` restricted to ``allowed`` (default :data:`ALLOWED_KEYS`)."""
    return {k: v for k, v in values.items() if k in allowed}


def stand_ins(reference, hypotheses, overlapping: Sequence[str]) -> dict[str, dict[str, Any]]:
    """For each system of ``overlapping``, its shows with the reference's segments (a show the reference
    lacks keeps its own, to be left out with the usual warning)."""
    return {n: {s: reference[s] if s in reference else hypotheses[n][s] for s in hypotheses[n]} for n in overlapping}


def check_regions(uem, shows: Sequence[str], overlapping: Sequence[str]) -> None:
    """Refuse a UEM with several regions in a show (not supported for overlapping predictions)."""
    gapped = [s for s in shows if (r := regions_of(uem, s)) is not None and len(r[0]) > 1]
    if gapped:
        raise UsageError(
            f"a UEM with several regions in a show ({gapped[0]!r}) is not supported for overlapping "
            f"predictions ({', '.join(overlapping)}): give one region per show"
        )


def given(notice, overlapping: Sequence[str], *, again: bool) -> bool:
    """Whether a notice of the stand-ins' preparation (:class:`tvseg.preparation.Notice`) is given: those
    about the systems ``overlapping`` (but not how a stand-in looks), and the others only when the
    evaluation of the other systems has not given them already (``again``)."""
    if notice.kind == "text":
        return notice.text.startswith(tuple(f"{name}: " for name in overlapping)) or not again
    if notice.side in overlapping or notice.side in {f"{name} hypothesis" for name in overlapping}:
        return notice.kind != "captions"
    return not again


def own_scores(p, scores, hypothesis: Mapping[str, Any], name: str, *, check_time_base: bool):
    """``scores`` (a :class:`~tvseg.retrieval.corpus.ShowScores` of the stand-in, on the prepared shows
    ``p``) with the chapter components, ``n_hypothesis`` and ``chapter_count_error_sum`` of the system's
    own segments, checked against and cropped to each show's evaluated region."""
    shows, n = p.shows, len(p.shows)
    own = _segments(hypothesis, shows)
    _check(own, name, shows)
    found: list[str] = []
    check_hypothesis_extents(name, shows, own, p.region_start, p.region_end, strict=check_time_base, found=found)
    for text in found:
        warnings.warn(text, TvsegWarning, stacklevel=user_stacklevel())
    # fmax, fmin: a show without a region (NaN) keeps its segments as they are
    start, end = np.fmax(own.start, p.region_start[own.show]), np.fmin(own.end, p.region_end[own.show])
    cropped = int(np.sum((start != own.start) | (end != own.end)))
    keep = ticks(end) > ticks(start)
    own = Segments(show=own.show[keep], start=start[keep], end=end[keep], label=own.label[keep], n_shows=n)
    if cropped:
        warnings.warn(
            f"{name}: {cropped} prediction(s) cropped to their show's evaluated region",
            TvsegWarning,
            stacklevel=user_stacklevel(),
        )
    components = scores.components.copy()
    # grounding: the stand-in's (the reference's own titles) replaced by the system's, when it is a submission
    components = components.drop(columns=list(GROUNDING_COMPONENTS), errors="ignore")
    components = components.assign(**grounding_components(p.reference_segments, own, n))
    for kernel in (chapter_components, chapter_counts):
        for key, values in kernel(p.reference_segments, own, n).items():
            components[key] = values
    components["n_hypothesis"] = np.bincount(own.show, minlength=n)
    if getattr(scores, "captioning", False) and scores.titles:  # VidChapters' title captioning metrics
        for key, values in captioning_components(p.reference_segments, own, n).items():
            components[key] = values
    result = copy.copy(scores)  # its cached values kept, the components replaced
    result.components = components
    return result


def left_out(systems: Mapping[str, Any], *, units: bool) -> list[str]:
    """The metric keys the results of ``systems`` hold (and the unit metrics, with ``units``) that are not
    :data:`ALLOWED_KEYS`."""
    keys = {k for system in systems.values() for k in system.shows.columns}
    return [m.key for m in REGISTRY if (m.key in keys or (units and UNITS in m.requires)) and m.key not in ALLOWED_KEYS]


def relay(caught, keys: Sequence[str], overlapping: Sequence[str], *, again: bool) -> None:
    """Give again the warnings ``caught`` while the stand-ins' results were reduced, except those about
    the values left out (naming one of ``keys``) and, with ``again``, those not about the systems
    ``overlapping`` (the evaluation of the other systems gave them)."""
    named = [re.compile(rf"(?<![\w]){re.escape(key)}(?![\w])") for key in keys if len(key) > 1]
    for w in caught:
        text = str(w.message)
        if not issubclass(w.category, TvsegWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        elif not any(pattern.search(text) for pattern in named) and (not again or text.startswith(tuple(overlapping))):
            warnings.warn(w.message, stacklevel=user_stacklevel())


def restricted(sr, keys: Sequence[str]):
    """A system's result (:class:`~tvseg.evaluation.SystemResult`) restricted to :data:`ALLOWED_KEYS`, with one
    warning naming the metrics ``keys`` left out."""
    warnings.warn(
        f"{sr.name}: its segments overlap (dense-captioning predictions): scored with VidChapters' detection and "
        f"navigation metrics and the counts only; left out, as their definitions need disjoint segments: "
        f"{', '.join(keys)}",
        TvsegWarning,
        stacklevel=user_stacklevel(),
    )
    return keep_only(sr, ALLOWED_KEYS, by_length={k: {} for k in sr.by_length})  # the coverage metrics' classes


def keep_only(sr: Any, allowed: Sequence[str], *, by_length: dict) -> Any:
    """A system's result (:class:`~tvseg.evaluation.SystemResult`) with the metrics ``allowed`` only: its
    per-show, corpus, macro and group values restricted, ``by_length`` replaced, its matches, sweeps and
    boundary pairs emptied."""
    return replace(
        sr,
        shows=sr.shows[[c for c in sr.shows.columns if c in allowed or c == "has_output"]],
        corpus=only_allowed(sr.corpus, allowed),
        macro=only_allowed(sr.macro, allowed),
        by_length=by_length,
        groups={c: {v: only_allowed(m, allowed) for v, m in g.items()} for c, g in sr.groups.items()},
        matches=sr.matches.iloc[0:0],
        gamma_sweep=sr.gamma_sweep.iloc[0:0],
        tolerance_sweep=sr.tolerance_sweep.iloc[0:0],
        boundary_pairs=sr.boundary_pairs.iloc[0:0],
        titles=False,
    )
