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
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from tvseg.metrics import BOOTSTRAPPED, COMPARED, METRICS
from tvseg.retrieval.reductions import metric_table

__all__ = ["paired_bootstrap", "COMPARED"]


def paired_bootstrap(
    components: dict[str, pd.DataFrame],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    titles: dict[str, bool] | None = None,
    block: int = 200,
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
    extra : dict, optional
        System name -> ``(table, rates)``: more per-show components (same shows, same order) resampled
        with the same draws, and the function that turns a table of their sums into ``{metric: values}``
        (the unit metrics: :func:`tvseg.unit.corpus_parts.unit_rates`); their metrics get intervals too.

    Returns
    -------
    intervals : dict
        ``{system: {metric: {"low": x, "high": y}}}``.
    pairwise : list of dict
        One entry per pair of systems and metric of :data:`COMPARED` that both systems have (Pk and
        WindowDiff only with units, through ``extra``): ``{"a", "b", "metric", "difference", "p_value"}``.
    """
    names = list(components)
    if resamples <= 0 or not names:
        return {}, []
    n_shows = len(next(iter(components.values())))
    rng = np.random.default_rng(seed)
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
    samples = {}
    for name in names:
        samples[name] = metric_table(
            pd.DataFrame(sums[name][0], columns=components[name].columns), titles=bool(titles and titles.get(name))
        )
        if name in extra:
            rates = extra[name][1](pd.DataFrame(sums[name][1], columns=tables[name][1].columns))
            samples[name] = samples[name].assign(**{k: np.asarray(v, dtype=float) for k, v in rates.items()})
    lo_q, hi_q = (1 - confidence) / 2, (1 + confidence) / 2
    intervals: dict[str, dict[str, dict[str, float]]] = {}
    for name in names:
        with_titles = bool(titles and titles.get(name))
        metrics = [k for k in BOOTSTRAPPED if (METRICS[k].group != "title" or with_titles) and k in samples[name]]
        intervals[name] = {}
        for metric in metrics:
            values = samples[name][metric].to_numpy(float)
            values = values[~np.isnan(values)]
            low, high = np.quantile(values, [lo_q, hi_q]) if len(values) else (np.nan, np.nan)
            intervals[name][metric] = {"low": float(low), "high": float(high)}
    pairwise = []
    observed = {name: metric_table(components[name].sum(axis=0).to_frame().T) for name in names}
    for name in names:
        if name in extra:
            table, rates = extra[name]
            values = rates(table.sum(axis=0).to_frame().T)
            observed[name] = observed[name].assign(**{k: np.asarray(v, dtype=float) for k, v in values.items()})
    for a, b in itertools.combinations(names, 2):
        for metric in COMPARED:
            if metric not in samples[a] or metric not in samples[b]:
                continue
            delta = float(observed[a][metric].iloc[0] - observed[b][metric].iloc[0])
            d = samples[a][metric].to_numpy(float) - samples[b][metric].to_numpy(float)
            d = d[~np.isnan(d)]
            if np.isnan(delta) or not len(d):
                p = float("nan")
            else:
                p = float((1 + np.sum(np.abs(d - d.mean()) >= abs(delta))) / (1 + len(d)))
            pairwise.append({"a": a, "b": b, "metric": metric, "difference": delta, "p_value": p})
    return intervals, pairwise
