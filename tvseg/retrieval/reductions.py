r"""The corpus reductions of the per-show components: pooled (micro), macro, by length and by group.

The components are those :func:`tvseg.retrieval.corpus.score_shows` adds up per show (listed in
:mod:`tvseg.retrieval.corpus`); as in pyannote.metrics, the corpus value of a metric is its formula
applied to the components summed over shows (:func:`corpus_metrics`, the micro average, as Bouchekif
et al.'s tables are computed), the macro value the mean of the per-show values (:func:`macro_metrics`).
:func:`metric_table` applies the registry's formula of every metric (:mod:`tvseg.metrics`) to each
row of a components table (shows, or bootstrap resamples); :func:`by_length` and :func:`by_group` pool subsets;
:func:`tvseg.undefined_values.warn_undefined_values` names the values that are 0/0.

Metrics (rates are fractions; 0/0 is NaN, F of a zero rate is 0: :mod:`tvseg.rates`):

.. math::

    R_N = \frac{n_{correct\,ref}}{n_{ref}},\ P_N = \frac{n_{correct\,hyp}}{n_{hyp}},\
    R_D = \frac{d_{correct\,ref}}{d_{ref}},\ P_D = \frac{d_{correct\,hyp}}{d_{hyp}},\
    P_B = \frac{n_{matched}}{n^B_{hyp}},\ R_B = \frac{n_{matched}}{n^B_{ref}}

``title_accuracy``, ``title_f1`` and ``title_rougeL_f1`` are over correctly retrieved reference
segments that have a title (an untitled reference segment is left out, whatever the hypothesis says;
a hypothesis partner without a title scores 0); ``title_list_rougeL_f1`` is the mean over shows with
a titled reference segment of the show's whole-list ROUGE-L F (the corpus value too, as for the
``chapters`` group: a mean over shows, not pooled);
``title_matched_rougeL_precision``, ``_recall``, ``_f1`` and ``title_matched_fraction`` are chunkseg
0.4.0's ``tm_rl_precision``, ``tm_rl_recall``, ``tm_rl_f1`` and ``tm_matched`` (``chunkseg/titles.py``,
``compute_title_scores``): the chapters (titled segments, each ending at the next title's start)
paired greedily one to one on start and end within 5 s (:mod:`tvseg.retrieval.chapters`); a show's
P, R, F are the **means over its matched pairs** (unmatched chapters do not enter them; no pair: NaN,
as chunkseg leaves ``tm_rl_*`` out), and the corpus value is the **mean over shows with a pair**, as
chunkseg's ``aggregate_metrics``; ``title_matched_fraction``: matched over reference chapters, mean
over shows with a titled reference segment. chunkseg stems: ``score_shows(title_stemmer=True)`` gives
its numbers; ``tvseg evaluate`` does not stem, as for the other title ROUGE-L scores;
``titled_recall = title_correct_reference / n_reference`` and
``titled_precision = title_correct_hypothesis / n_hypothesis`` count segments both correctly retrieved
and correctly titled. The macro value of a metric is the mean over the shows where it is defined
(a show whose value is NaN is left out of that mean; the warning naming the NaN says so).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd

from tvseg.exact import tick, ticks
from tvseg.metrics import METRICS, compute, keys

__all__ = [
    "metric_table",
    "corpus_metrics",
    "macro_metrics",
    "macro_values",
    "by_length",
    "by_group",
    "by_show_duration",
    "SHOW_DURATION_BINS",
    "show_duration_buckets",
    "show_duration_labels",
    "COVERAGE_METRICS",
    "BOUNDARY_METRICS",
    "COUNT_METRICS",
    "TITLE_METRICS",
    "CHAPTER_METRICS",
    "group_members",
    "text_columns",
]

COUNTS = keys("count")
COVERAGE_METRICS = keys("coverage")
BOUNDARY_METRICS = keys("boundary")
DISTANCE_METRICS = keys("distance")  # boundary distances and hit rates (tvseg.retrieval.distances)
COUNT_METRICS = COUNTS
TITLE_METRICS = tuple(k for k in keys("title") if METRICS[k].kind != "count")
TITLE_COUNTS = tuple(k for k in keys("title") if METRICS[k].kind == "count")
CHAPTER_METRICS = keys("chapters")
STORY_COUNTS = keys("story")
GROUNDING_METRICS = keys("grounding")
CAPTIONING_METRICS = keys("captioning")  # only when asked (tvseg.retrieval.captioning)
TRECVID_METRICS = keys("trecvid")  # only under --preset trecvid (tvseg.retrieval.corpus.trecvid_components)


def metric_table(components: pd.DataFrame, *, titles: bool = False) -> pd.DataFrame:
    """The metrics of every row of a components table (rows: shows, or bootstrap resamples), by the
    registry's formulas (:func:`tvseg.metrics.compute`): the coverage, boundary and count metrics, the
    title metrics when ``titles``, the ``chapters`` metrics and the story classes' counts when the table
    has their components (of predictions that overlap, those the table has components for)."""
    out = compute(components)
    chapters = CHAPTER_METRICS[0] in out  # absent from hand-built component tables
    stories = STORY_COUNTS[0] in out
    grounding = GROUNDING_METRICS[0] in out  # only for a system giving one segment per reference title
    captioning = any(k in out for k in CAPTIONING_METRICS)  # without METEOR: no dvc_meteor, no soda_c
    distances = DISTANCE_METRICS[0] in out  # absent for predictions that overlap and hand-built tables
    trecvid = TRECVID_METRICS[0] in out
    order = (
        [*COVERAGE_METRICS, *BOUNDARY_METRICS, *(DISTANCE_METRICS if distances else ()), *COUNTS]
        + ([*TITLE_METRICS, *TITLE_COUNTS] if titles else [])
        + ([*CHAPTER_METRICS] if chapters else [])
        + ([*STORY_COUNTS] if stories else [])
        + ([*GROUNDING_METRICS] if grounding else [])
        + ([*CAPTIONING_METRICS] if captioning else [])
        + ([*TRECVID_METRICS] if trecvid else [])
    )
    index = getattr(components, "index", None)
    return pd.DataFrame({k: np.atleast_1d(out[k]) for k in order if k in out}, index=index)


def corpus_metrics(components: pd.DataFrame, *, titles: bool = False) -> dict:
    """Pooled (micro) metrics: the metrics of the components summed over shows (for the ``chapters``
    group, whose components are per-show rates, this is VidChapters' mean over shows)."""
    total = components.sum(axis=0).to_frame().T
    return metric_table(total, titles=titles).iloc[0].to_dict()


def macro_metrics(per_show: pd.DataFrame) -> dict:
    """Mean over shows of each per-show metric, leaving out the shows where it is NaN."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN column: NaN, named by tvseg.undefined_values
        return {
            k: float(np.nanmean(per_show[k].to_numpy(float))) if len(per_show) else float("nan")
            for k in per_show.columns
        }


def macro_values(columns: Mapping[str, np.ndarray], rows: np.ndarray) -> dict:
    """:func:`macro_metrics` of some shows (``rows``, a mask over them, at least one) of per-show metric
    columns: each column's mean over those shows, leaving out the shows where it is NaN."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN column: NaN, named by tvseg.undefined_values
        return {k: float(np.nanmean(values[rows])) for k, values in columns.items()}


def by_length(components: pd.DataFrame) -> dict:
    """Pooled coverage metrics of short and of long segments (see the module docstring), those whose
    components are there (of predictions that overlap, the segment counts only); a class with no reference
    or no hypothesis segment has a NaN recall or precision, which
    :func:`tvseg.undefined_values.warn_undefined_values` names."""
    total = components.sum(axis=0)
    out = {}
    for cls in ("short", "long"):
        suffix = "_" + cls
        of_class = {key[: -len(suffix)]: total[key] for key in total.index if key.endswith(suffix)}
        values = compute(of_class)
        out[cls] = {k: float(values[k]) for k in (*COVERAGE_METRICS, *COUNTS) if k in values}
    return out


def text_columns(metadata: pd.DataFrame | None) -> list:
    """The columns of ``metadata`` that make groups (text: not numbers, not flags)."""
    if metadata is None:
        return []
    return [
        c
        for c in metadata.columns
        if not (pd.api.types.is_numeric_dtype(metadata[c]) or pd.api.types.is_bool_dtype(metadata[c]))
    ]


def group_members(index: pd.Index, metadata: pd.DataFrame | None):
    """``(column, value, mask)`` of every group of :func:`by_group`: each text column of ``metadata``
    (indexed by show id), each of its values (``"<NA>"`` for a show it lacks) and which shows of
    ``index`` have it."""
    if metadata is None:
        return
    for column in text_columns(metadata):
        values = metadata[column].reindex(index).astype(object)
        values = values.where(values.notna(), "<NA>")
        for value in sorted(values.unique(), key=str):
            yield column, str(value), (values == value).to_numpy()


def by_group(components: pd.DataFrame, metadata: pd.DataFrame | None, *, titles: bool = False) -> dict:
    """Pooled metrics per value of each metadata column (e.g. channel, programme).

    ``metadata`` is indexed by show id; shows missing from it are grouped under ``"<NA>"``.
    Only text columns are used (a numeric column such as a duration is not a grouping).
    """
    out: dict = {}
    for column, value, mask in group_members(components.index, metadata):
        out.setdefault(column, {})[value] = corpus_metrics(components[mask], titles=titles)
    return out


SHOW_DURATION_BINS = (600.0, 1200.0, 1800.0, 3600.0)
"""Edges (seconds) of :func:`by_show_duration`'s buckets: under 10 minutes, 10-20, 20-30, 30-60, 60 and over
(the buckets of the YTSeg leaderboard's F1 by video duration); a show on an edge is in the bucket above it."""


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:g}"


def show_duration_labels(edges=SHOW_DURATION_BINS) -> list:
    """The names of the buckets of ``edges`` (seconds): ``< 10 min``, ``10\u201320 min``, ..., ``\u2265 60 min``."""
    low = [_minutes(e) for e in edges]
    return [f"< {low[0]} min", *(f"{a}\u2013{b} min" for a, b in zip(low, low[1:])), f"\u2265 {low[-1]} min"]


def show_duration_buckets(components: pd.DataFrame, *, edges=SHOW_DURATION_BINS) -> np.ndarray | None:
    """Each show's bucket among ``edges`` (seconds; 0 below the first edge, ``len(edges)`` from the last on): its
    reference stories' evaluated duration (``duration_reference``) against the edges in integer microseconds
    (:mod:`tvseg.exact`), a show on an edge in the bucket above it. None for a table without the durations."""
    if "duration_reference" not in components.columns:
        return None
    edge_ticks = np.array([tick(e) for e in edges], dtype=np.int64)
    return np.searchsorted(edge_ticks, ticks(components["duration_reference"].to_numpy(float)), side="right")


def by_show_duration(components: pd.DataFrame, *, edges=SHOW_DURATION_BINS, titles: bool = False) -> dict:
    """Pooled metrics of the shows of each duration bucket (as :func:`by_group` pools a metadata value's).

    A show's duration is its reference stories' evaluated duration (its ``duration_reference`` component,
    decided on integer microseconds, :mod:`tvseg.exact`); a bucket includes its lower edge. Each bucket holds
    ``n_shows`` and the metrics of its shows' components summed (not a mean of the shows' values); a bucket
    without a show is left out, and so is every bucket of a table without the durations (a text corpus).

    Parameters
    ----------
    components : pandas.DataFrame
        A system's components, a row per show.
    edges : sequence of float
        Increasing bucket edges in seconds (default :data:`SHOW_DURATION_BINS`).
    titles : bool
        Whether the title metrics are computed too.

    Returns
    -------
    dict
        ``{bucket label: {"n_shows": int, metric: value, ...}}`` in increasing order of duration.
    """
    bucket = show_duration_buckets(components, edges=edges)
    if bucket is None:
        return {}
    out = {}
    for k, label in enumerate(show_duration_labels(edges)):
        mask = bucket == k
        if mask.any():
            out[label] = {"n_shows": int(mask.sum()), **corpus_metrics(components[mask], titles=titles)}
    return out
