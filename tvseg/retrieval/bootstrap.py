r"""Paired bootstrap over shows: confidence intervals and system comparisons (Koehn 2004).

The corpus scores are functions of per-show additive components (:mod:`tvseg.retrieval.corpus`),
so a bootstrap resample of the shows needs no re-scoring: draw :math:`S` show indices with
replacement (:math:`S` uniform draws, counted: the weights :math:`w_b`), and the resample's components are
:math:`w_b^\top C` (one matrix product for a block of resamples). Every system uses the **same**
resamples (paired).

- **Confidence interval** of a corpus score: the percentile interval of its :math:`B` resampled
  values, :math:`[q_{(1-c)/2}, q_{(1+c)/2}]` for confidence :math:`c` (``Settings.confidence``).
- **p-value** of the difference between systems A and B on a metric: with
  :math:`\delta = m_A - m_B` on the corpus and :math:`\delta_b` on resample :math:`b`, the
  resampled differences are centred on their mean to follow the null hypothesis (no difference),
  and

  .. math:: p = \frac{1 + \#\{b : |\delta_b - \bar\delta| \ge |\delta|\}}{1 + B}

  (two-sided; the same construction as sacrebleu's paired bootstrap, with the +1 smoothing so a
  p-value is never 0). Resamples where a metric is undefined (NaN) are left out.

The generator is ``numpy.random.default_rng(seed)`` with the seed of the settings: the same
settings give the same intervals and p-values.

What few shows can support (:mod:`tvseg.retrieval.significance`): with one show, no interval and no
p-value (NaN, ``null`` in JSON) and a warning; up to 12 shows, the p-values come from the exact paired
sign-flip test over all :math:`2^n` assignments instead (:math:`p \ge 2/2^n`); from 13 shows, the
bootstrap's p-value above, never below :math:`2/2^n`; below 10 shows the intervals are computed but
flagged unreliable, with a warning. With more than two systems, ``p_value_holm`` is Holm's correction
over the pairs, per metric.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd

from tvseg.errors import FewShowsWarning, UndefinedValueWarning, user_stacklevel
from tvseg.metrics import BOOTSTRAPPED, COMPARED, METRICS
from tvseg.retrieval.reductions import metric_table
from tvseg.retrieval.significance import (
    MIN_SHOWS,
    holm,
    sign_flip_p_value,
    sign_flips,
    smallest_p_value,
    swapped_sums,
    which_test,
)

__all__ = ["paired_bootstrap", "bootstrap_p_value", "COMPARED"]


BLOCK_DRAWS = 1 << 22


def paired_bootstrap(
    components: dict[str, pd.DataFrame],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    titles: dict[str, bool] | None = None,
    block: int | None = None,
    extra: dict | None = None,
):
    """Confidence intervals per system and p-values per pair of systems.

    Parameters
    ----------
    components : dict
        System name -> per-show components (same shows, same order, for every system).
    resamples, seed, confidence
        As in :class:`tvseg.settings.Settings`.
    titles : dict, optional
        System name -> whether it has title components.
    block : int, optional
        Resamples drawn at a time (default: 200, fewer from 20,000 shows on, so that the draws of a block
        take about :data:`BLOCK_DRAWS` numbers: 32 MB a table, whatever the corpus). The draws are the
        same numbers whatever the block (one stream of the generator).
    extra : dict, optional
        System name -> ``(table, rates)``: more per-show components (same shows, same order) resampled
        with the same draws, and the function that turns a table of their sums into ``{metric: values}``
        (the unit metrics: :func:`tvseg.unit.reduction.unit_rates`); their metrics get intervals too.

    Returns
    -------
    intervals : dict
        ``{system: {metric: {"low": x, "high": y}}}`` (NaN bounds with one show).
    pairwise : list of dict
        One entry per pair of systems and metric of :data:`COMPARED` that both systems have (Pk and
        WindowDiff only with units, through ``extra``): ``{"a", "b", "metric", "difference", "p_value",
        "p_value_holm", "test"}``, ``test`` being ``"exact sign-flip"`` (up to 12 shows), ``"paired
        bootstrap"`` or None (one show: no p-value); ``p_value_holm`` is Holm's correction over the pairs of
        systems on that metric (:func:`tvseg.retrieval.significance.holm`; the p-value itself with two systems).

    Warns
    -----
    UndefinedValueWarning
        With one show (no interval, no p-value).
    FewShowsWarning
        Below
        :data:`~tvseg.retrieval.significance.MIN_SHOWS` shows (intervals unreliable).
    """
    names = list(components)
    if resamples <= 0 or not names:
        return {}, []
    n_shows = len(next(iter(components.values())))
    if n_shows == 0:
        return {}, []
    _warn_few(n_shows, len(names))
    rng = np.random.default_rng(seed)
    block = block or max(1, min(200, BLOCK_DRAWS // n_shows))
    extra = extra or {}
    tables = {name: [components[name]] + ([extra[name][0]] if name in extra else []) for name in names}
    matrices = {name: [t.to_numpy(float) for t in tables[name]] for name in names}
    sums = {name: [np.empty((resamples, m.shape[1])) for m in matrices[name]] for name in names}
    for done in range(0, resamples, block):
        size = min(block, resamples - done)
        # each resample draws n_shows shows with replacement: its weights are how often each was drawn
        drawn = rng.integers(0, n_shows, size=(size, n_shows)) + (np.arange(size) * n_shows)[:, None]
        weights = np.bincount(drawn.ravel(), minlength=size * n_shows).reshape(size, n_shows).astype(float)
        for name in names:
            for total, matrix in zip(sums[name], matrices[name]):
                total[done : done + size] = weights @ matrix
    samples = {
        name: _metrics(
            [(total, table.columns) for total, table in zip(sums[name], tables[name])],
            extra.get(name, (None, None))[1],
            titles=bool(titles and titles.get(name)),
        )
        for name in names
    }
    lo_q, hi_q = (1 - confidence) / 2, (1 + confidence) / 2
    intervals: dict[str, dict[str, dict[str, float]]] = {}
    for name in names:
        with_titles = bool(titles and titles.get(name))
        metrics = [k for k in BOOTSTRAPPED if (METRICS[k].group != "title" or with_titles) and k in samples[name]]
        intervals[name] = {}
        for metric in metrics:
            values = samples[name][metric].to_numpy(float)
            values = values[~np.isnan(values)]
            low, high = np.quantile(values, [lo_q, hi_q]) if len(values) and n_shows > 1 else (np.nan, np.nan)
            intervals[name][metric] = {"low": float(low), "high": float(high)}
    pairwise = []
    totals = {name: [(table.sum(axis=0).to_frame().T, table.columns) for table in tables[name]] for name in names}
    observed = {name: _metrics(totals[name], extra.get(name, (None, None))[1]) for name in names}
    test = which_test(n_shows)
    floor = smallest_p_value(n_shows)
    for a, b in itertools.combinations(names, 2):
        flipped = _sign_flipped(components, extra, a, b) if test == "exact sign-flip" else None
        for metric in COMPARED:
            if metric not in samples[a] or metric not in samples[b]:
                continue
            delta = float(observed[a][metric].iloc[0] - observed[b][metric].iloc[0])
            if test is None:
                p = float("nan")
            elif flipped is not None:
                p = sign_flip_p_value(flipped[0][metric].to_numpy(float) - flipped[1][metric].to_numpy(float), delta)
            else:
                p = bootstrap_p_value(
                    samples[a][metric].to_numpy(float) - samples[b][metric].to_numpy(float), delta, floor
                )
            pairwise.append({"a": a, "b": b, "metric": metric, "difference": delta, "p_value": p})
    for metric in COMPARED:
        family = [entry for entry in pairwise if entry["metric"] == metric]
        for entry, adjusted in zip(family, holm([entry["p_value"] for entry in family])):
            entry.update(p_value_holm=float(adjusted), test=test)
    return intervals, pairwise


def bootstrap_p_value(d: np.ndarray, delta: float, floor: float) -> float:
    """The centred bootstrap p-value of the module docstring, never below ``floor`` (2 / 2**n): one plus the
    number of resampled differences ``d`` (NaN ones left out) at least ``|delta|`` from their mean, over one
    plus their number; also ``tvseg compare``'s (:mod:`tvseg.comparison`)."""
    d = d[~np.isnan(d)]
    if np.isnan(delta) or not len(d):
        return float("nan")
    p = float((1 + np.sum(np.abs(d - d.mean()) >= abs(delta))) / (1 + len(d)))
    return p if p >= floor else floor


def _metrics(parts: list, rates, *, titles: bool = False) -> pd.DataFrame:
    """The metrics of rows of summed components: ``parts`` holds ``(sums, columns)`` of the components
    table, then of the unit components (their metrics by ``rates``) when there are some."""
    tables = [pd.DataFrame(sums, columns=columns) for sums, columns in parts]
    out = metric_table(tables[0], titles=titles)
    if len(tables) > 1:
        values = rates(tables[1])
        out = out.assign(**{k: np.asarray(v, dtype=float) for k, v in values.items()})
    return out


def _sign_flipped(components: dict, extra: dict, a: str, b: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The metrics of systems ``a`` and ``b`` (rows: every sign-flip assignment of the shows, as
    :func:`tvseg.retrieval.significance.swapped_sums`), from their common components."""
    flips = sign_flips(len(components[a]))
    tables = [(components[a], components[b])] + ([(extra[a][0], extra[b][0])] if a in extra and b in extra else [])
    swapped = []
    for table_a, table_b in tables:
        common = [c for c in table_a.columns if c in table_b.columns]
        swapped.append((swapped_sums(table_a[common].to_numpy(float), table_b[common].to_numpy(float), flips), common))
    rates = extra[a][1] if len(tables) > 1 else None
    a_metrics, b_metrics = (_metrics([(sums[k], common) for sums, common in swapped], rates) for k in (0, 1))
    return a_metrics, b_metrics


def _warn_few(n_shows: int, n_systems: int) -> None:
    """The warning of what ``n_shows`` shows cannot support (nothing from :data:`MIN_SHOWS` shows on)."""
    if n_shows == 1:
        message = (
            "1 show: no bootstrap interval and no p-value (null in the JSON): resampling or permuting the "
            "shows needs two shows or more"
        )
    elif n_shows < MIN_SHOWS:
        message = f"the bootstrap intervals rest on {n_shows} shows, fewer than {MIN_SHOWS}: read them as unreliable"
        if n_systems > 1:
            message += (
                f"; the p-values come from an exact sign-flip test over the {n_shows} shows, which cannot give "
                f"less than {smallest_p_value(n_shows):.3g}"
            )
    else:
        return
    warnings.warn(message, UndefinedValueWarning if n_shows == 1 else FewShowsWarning, stacklevel=user_stacklevel())
