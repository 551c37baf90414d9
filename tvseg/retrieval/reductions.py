r"""The corpus reductions of the per-show components: pooled (micro), macro, by length and by group.

The components are those :func:`tvseg.retrieval.corpus.score_shows` adds up per show (listed in
:mod:`tvseg.retrieval.corpus`); as in pyannote.metrics, the corpus value of a metric is its formula
applied to the components summed over shows (:func:`corpus_metrics`, the micro average, as Bouchekif
et al.'s tables are computed), the macro value the mean of the per-show values (:func:`macro_metrics`).
:func:`metric_table` applies the registry's formula of every metric (:mod:`tvseg.metrics`) to each
row of a components table (shows, or bootstrap resamples); :func:`by_length` and :func:`by_group` pool subsets;
:func:`warn_undefined` says which per-show values are 0/0.

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
(a show whose value is NaN is left out of that mean, with a warning).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from tvseg.errors import TvsegWarning
from tvseg.metrics import METRICS, compute, keys

__all__ = [
    "metric_table",
    "corpus_metrics",
    "macro_metrics",
    "by_length",
    "by_group",
    "COVERAGE_METRICS",
    "BOUNDARY_METRICS",
    "COUNT_METRICS",
    "TITLE_METRICS",
    "CHAPTER_METRICS",
    "warn_undefined",
]

COUNTS = keys("count")
COVERAGE_METRICS = keys("coverage")
BOUNDARY_METRICS = keys("boundary")
COUNT_METRICS = COUNTS
TITLE_METRICS = tuple(k for k in keys("title") if METRICS[k].kind != "count")
TITLE_COUNTS = tuple(k for k in keys("title") if METRICS[k].kind == "count")
CHAPTER_METRICS = keys("chapters")


def metric_table(components: pd.DataFrame, *, titles: bool = False) -> pd.DataFrame:
    """The metrics of every row of a components table (rows: shows, or bootstrap resamples), by the
    registry's formulas (:func:`tvseg.metrics.compute`): the coverage, boundary and count metrics, the
    title metrics when ``titles``, the ``chapters`` metrics when the table has their components."""
    out = compute(components)
    chapters = CHAPTER_METRICS[0] in out  # absent from hand-built component tables
    order = (
        [*COVERAGE_METRICS, *BOUNDARY_METRICS, *COUNTS]
        + ([*TITLE_METRICS, *TITLE_COUNTS] if titles else [])
        + ([*CHAPTER_METRICS] if chapters else [])
    )
    index = getattr(components, "index", None)
    return pd.DataFrame({k: np.atleast_1d(out[k]) for k in order}, index=index)


def corpus_metrics(components: pd.DataFrame, *, titles: bool = False) -> dict:
    """Pooled (micro) metrics: the metrics of the components summed over shows (for the ``chapters``
    group, whose components are per-show rates, this is VidChapters' mean over shows)."""
    total = components.sum(axis=0).to_frame().T
    return metric_table(total, titles=titles).iloc[0].to_dict()


def macro_metrics(per_show: pd.DataFrame) -> dict:
    """Mean over shows of each per-show metric, leaving out the shows where it is NaN."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN column: NaN, reported by warn_undefined
        return {
            k: float(np.nanmean(per_show[k].to_numpy(float))) if len(per_show) else float("nan")
            for k in per_show.columns
        }


def by_length(components: pd.DataFrame, *, name: str = "", long_threshold: float | None = None) -> dict:
    """Pooled coverage metrics of short and of long segments (see the module docstring).

    Warns (:class:`TvsegWarning`) when a class has no reference or no hypothesis segment: its
    recall or precision is NaN.
    """
    total = components.sum(axis=0)
    out = {}
    for cls in ("short", "long"):
        suffix = "_" + cls
        of_class = {key[: -len(suffix)]: total[key] for key in total.index if key.endswith(suffix)}
        values = compute(of_class)
        out[cls] = {k: float(values[k]) for k in (*COVERAGE_METRICS, *COUNTS)}
        for side in ("reference", "hypothesis"):
            if total[f"n_{side}_{cls}"] == 0:
                limit = "" if long_threshold is None else f" (threshold {long_threshold:g} s)"
                warnings.warn(
                    f"{name + ': ' if name else ''}no {cls} {side} segment{limit}: "
                    f"by_length.{cls} {'recall' if side == 'reference' else 'precision'} is NaN (0/0)",
                    TvsegWarning,
                    stacklevel=2,
                )
    return out


def by_group(components: pd.DataFrame, metadata: pd.DataFrame | None, *, titles: bool = False) -> dict:
    """Pooled metrics per value of each metadata column (e.g. channel, programme).

    ``metadata`` is indexed by show id; shows missing from it are grouped under ``"<NA>"``.
    Only text columns are used (a numeric column such as a duration is not a grouping).
    """
    if metadata is None or len(metadata.columns) == 0:
        return {}
    out = {}
    for column in metadata.columns:
        if pd.api.types.is_numeric_dtype(metadata[column]) or pd.api.types.is_bool_dtype(metadata[column]):
            continue
        values = metadata[column].reindex(components.index).astype(object)
        values = values.where(values.notna(), "<NA>")
        out[column] = {
            str(value): corpus_metrics(components[values == value], titles=titles)
            for value in sorted(values.unique(), key=str)
        }
    return out


def warn_undefined(name: str, per_show: pd.DataFrame) -> None:
    """Warn once per kind of 0/0 found among the per-show metrics of system ``name``."""
    for metric, what in (
        ("precision_n", "no hypothesis segment"),
        ("recall_n", "no reference segment"),
        ("boundary_f1", "no boundary on either side"),
    ):
        bad = per_show.index[per_show[metric].isna()].tolist()
        if bad:
            listed = ", ".join(map(str, bad[:5])) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
            warnings.warn(
                f"{name}: {len(bad)} show(s) with {what} ({listed}): their {metric} is NaN (0/0) "
                "and they are left out of its macro mean",
                TvsegWarning,
                stacklevel=2,
            )
