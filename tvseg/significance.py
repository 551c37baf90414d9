r"""Significance over shows: the paired bootstrap, the exact sign-flip test, Holm's correction, the policy.

One module for every test over shows: ``evaluate``'s intervals and pairs of systems (:func:`paired_bootstrap`),
the annotators' intervals, and ``tvseg compare``'s per-show changes (:func:`mean_tests`).

**Paired bootstrap** (Koehn 2004). A corpus score pools additive per-show components
(:mod:`tvseg.retrieval.corpus`), so a resample of the :math:`S` shows needs no re-scoring: draw :math:`S`
show indices with replacement, counted (the weights :math:`w_b`), and the resample's sums are :math:`w_b^\top C`
(:func:`resampled_sums`, one matrix product for a block of resamples; every system and metric uses the
**same** draws, from ``numpy.random.default_rng(seed)``). The confidence interval of a corpus score is the
percentile interval of its :math:`B` resampled values, :math:`[q_{(1-c)/2}, q_{(1+c)/2}]`; the p-value of a
difference :math:`\delta` (:math:`\delta_b` on resample :math:`b`, centred on their mean to follow the null
hypothesis) is, as sacrebleu's paired bootstrap with a +1 smoothing,

.. math:: p = \frac{1 + \#\{b : |\delta_b - \bar\delta| \ge |\delta|\}}{1 + B}

(:func:`bootstrap_p_value`; resamples where the metric is undefined, NaN, left out).

**Exact sign-flip test** (paired randomization: Riezler & Maxwell 2005's approximate randomization, sacrebleu's
``paired_ar``; exact here, by enumeration). Under the null hypothesis that the two sides are exchangeable on
every show, swapping their components on any set of shows (:math:`f_s = 1`) is as likely as the observed
assignment:

.. math::

    A^f = \sum_s (1 - f_s) A_s + f_s B_s,\quad B^f = \sum_s f_s A_s + (1 - f_s) B_s,\quad
    \delta^f = m(A^f) - m(B^f),\quad
    p = \frac{\#\{f \in \{0, 1\}^n : |\delta^f| \ge |\delta|\}}{2^n}

over all :math:`2^n` assignments (:func:`sign_flip_p_value`), the identity and the full swap included, so
:math:`p \ge 2/2^n`. When the metric is the mean of per-show differences :math:`d_s` (``tvseg compare``, whose
results hold per-show values, not components), swapping show :math:`s` flips the sign of :math:`d_s`:
:math:`\delta^f = \frac{1}{n}\sum_s (1 - 2 f_s) d_s`. An assignment where the metric is undefined (a pooled 0/0)
is left out of both counts; :math:`|\delta^f| \ge |\delta|` is taken up to a rounding tolerance of
:math:`10^{-12} \max(1, |\delta|)` (the sums are formed in another order than the observed one, as
``scipy.stats.permutation_test`` allows for).

**Policy** (:func:`which_test`, :func:`policy`: the JSON's ``significance`` object), for :math:`n` shows:

- :math:`n = 1`: no interval and no p-value (``null``), with a warning: nothing over shows can vary.
- :math:`2 \le n \le` :data:`EXACT_MAX_SHOWS` (12, :math:`2^{12} = 4096` assignments): the exact sign-flip test.
- :math:`n >` :data:`EXACT_MAX_SHOWS`: the paired bootstrap's p-value, never below :math:`2/2^n`
  (:func:`smallest_p_value`). At its floor, :math:`\max(1/(B + 1), 2/2^n)` (:func:`p_value_floor`: no
  resampled difference as far from the mean as the observed one), the p-value is a **bound**, not a value:
  the entry says so (``p_value_is_bound``) and every view writes it ``p < 0.0001 (10,000 resamples)``
  (:func:`p_text`), never as if exact. The exact sign-flip test's p-values are exact, its floor included.
- The percentile intervals are computed from two shows on, and flagged unreliable (``intervals_reliable:
  false``, a warning, the report's notes) below :data:`MIN_SHOWS` (10) shows; below that number the summary
  says there are not enough shows to tell, whatever the p-value.
- Multiple comparisons: Holm's step-down correction (:func:`holm`) over one family, the **headline
  metrics** of what was scored (:data:`tvseg.metrics.HEADLINE`: CovN, CovD, boundary F, and Pk and
  WindowDiff with units): in ``tvseg evaluate`` every pair of systems on each of them (``p_value_holm``,
  :func:`correct`), in ``tvseg compare`` each of them between the two runs. The other rates and errors get
  an uncorrected p-value in ``tvseg compare``; the counts (segments, story classes) are shown, never tested
  (:func:`tested`). An adjusted p-value is a bound when the term it comes from is one (``p_value_holm_is_bound``).

References
----------
Koehn, P. (2004). Statistical significance tests for machine translation evaluation. EMNLP.
Riezler, S. and Maxwell, J. T. (2005). On some pitfalls in automatic evaluation and significance
testing for MT. ACL Workshop on Intrinsic and Extrinsic Evaluation Measures.
Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian Journal of
Statistics 6(2), 65-70.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from tvseg.errors import FewShowsWarning, UndefinedValueWarning, user_stacklevel
from tvseg.metrics import BOOTSTRAPPED, HEADLINE, METRICS
from tvseg.retrieval.reductions import metric_table

__all__ = [
    "MIN_SHOWS",
    "EXACT_MAX_SHOWS",
    "sign_flips",
    "swapped_sums",
    "sign_flip_p_value",
    "resampled_sums",
    "bootstrap_p_value",
    "bootstrap_means",
    "paired_bootstrap",
    "mean_tests",
    "smallest_p_value",
    "holm",
    "holm_bounds",
    "correct",
    "tested",
    "p_value_floor",
    "at_floor",
    "p_text",
    "p_figures",
    "rounded_up",
    "which_test",
    "policy",
    "DEFAULT_RESAMPLES",
    "EVALUATE_RESAMPLES",
]

MIN_SHOWS = 10
"""Fewer shows than this: the bootstrap intervals are flagged unreliable and no difference is called significant."""

EXACT_MAX_SHOWS = 12
"""Up to this many shows, p-values come from the exact sign-flip test over all :math:`2^n` assignments."""

TOLERANCE = 1e-12
"""Relative rounding tolerance of :math:`|\\delta^f| \\ge |\\delta|` (see the module docstring)."""

DEFAULT_RESAMPLES = 10_000
"""The resamples of ``tvseg compare``'s test of the mean change per show (one column per metric, cheap): its floor,
:math:`1/10001`, stays below :math:`0.05/m` for a Holm family of up to 500 tests."""

EVALUATE_RESAMPLES = 1000
"""``tvseg evaluate``'s resamples unless asked otherwise (:attr:`tvseg.settings.Settings.bootstrap`): each block of
resamples is a matrix product over every system's components (1,000 cost 0.27 s for 3 systems at 2,000 shows,
10,000 cost 1.7 s, as much as the rest of the run; measured 2026-12-07). Its floor, :math:`1/1001`, times a Holm
family of the headline metrics over a few pairs of systems stays below 0.05; a p-value at the floor is written as
a bound (``p < 0.001 (1,000 resamples)``); ``--bootstrap 10000`` resolves larger families."""

BLOCK_DRAWS = 1 << 22
"""Show indices drawn at a time by the bootstrap (a block of resamples holds at most this many)."""


def one_blas_thread():
    """A context in which BLAS runs on one thread: the bootstrap's and the sign-flip test's products.

    OpenBLAS threads a product of a few rows (a block of resamples) over its columns and sums some shapes in
    another order than on one thread, so the last bits of a resampled sum would depend on the machine's cores;
    its waiting threads also cost 10 to 80 times the product's CPU time on a busy machine (measured: 20 x 200,000
    weights by 200,000 x 50 components, 1.65 s of CPU against 0.02 s on one thread). One thread gives every
    machine of the same BLAS the same sums. ``threadpoolctl`` sets the limit for NumPy's BLAS whatever it is
    (OpenBLAS, MKL, BLIS, Accelerate).
    """
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def sign_flips(n: int) -> np.ndarray:
    """Every assignment :math:`f \\in \\{0, 1\\}^n`: a ``(2**n, n)`` float array, row ``i`` the binary digits of ``i``
    (row 0 the identity, the last row the full swap)."""
    return ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(float)


def swapped_sums(a: np.ndarray, b: np.ndarray, flips: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:math:`A^f` and :math:`B^f` of every assignment (rows of ``flips``) from per-show components ``a``, ``b``
    (``(n, columns)`` arrays, shows in the same order)."""
    keep = 1.0 - flips
    with one_blas_thread():
        return keep @ a + flips @ b, flips @ a + keep @ b


def sign_flip_p_value(differences: np.ndarray, observed: float) -> float:
    """Two-sided p-value of the observed difference among the differences of every assignment.

    Parameters
    ----------
    differences : numpy.ndarray
        :math:`\\delta^f` for every assignment (NaN where undefined: left out).
    observed : float
        :math:`\\delta`.

    Returns
    -------
    float
        :math:`\\#\\{f : |\\delta^f| \\ge |\\delta| - \\epsilon\\} / \\#\\{f : \\delta^f \\text{ defined}\\}`, with
        :math:`\\epsilon = 10^{-12} \\max(1, |\\delta|)`; NaN when :math:`\\delta` or every :math:`\\delta^f` is NaN.
    """
    d = np.asarray(differences, dtype=float)
    d = d[~np.isnan(d)]
    if math.isnan(observed) or not len(d):
        return float("nan")
    margin = TOLERANCE * max(1.0, abs(observed))
    return float(np.sum(np.abs(d) >= abs(observed) - margin) / len(d))


def resampled_sums(
    matrices: list[np.ndarray | pd.DataFrame], *, resamples: int, seed: int, block: int | None = None
) -> list:
    """Each matrix's column sums over every bootstrap resample of its rows (the shows), the same draws for all.

    Parameters
    ----------
    matrices : list of numpy.ndarray or pandas.DataFrame
        ``(shows, columns)`` tables, the same shows in the same order, each made a float array (a view of a
        DataFrame of one float block: no copy).
    resamples, seed : int
        The resamples drawn from ``numpy.random.default_rng(seed)``: each draws as many shows as there are,
        with replacement.
    block : int, optional
        Resamples drawn at a time (default: 200, fewer from 20,000 shows on, so that a block's draws take about
        :data:`BLOCK_DRAWS` numbers, 32 MB, whatever the corpus).

    Returns
    -------
    list of numpy.ndarray
        ``(resamples, columns)`` per matrix: :math:`w_b^\\top C`, :math:`w_b` how often each show was drawn.

    Notes
    -----
    A block's draws are made once for every table: each resample's counts (one ``bincount`` of its row of
    draws) are written to the block's weights, and each table's sums of the block are one matrix product
    with them. The draws, the weights and each product are those of drawing again for each table.
    """
    n = len(matrices[0])
    block = block or max(1, min(200, BLOCK_DRAWS // max(n, 1)))
    arrays = [
        table.to_numpy(float) if isinstance(table, pd.DataFrame) else np.asarray(table, dtype=float)
        for table in matrices
    ]
    sums = [np.empty((resamples, matrix.shape[1])) for matrix in arrays]
    rng = np.random.default_rng(seed)
    weights = np.empty((min(block, resamples), n))
    with one_blas_thread():
        for done in range(0, resamples, block):
            size = min(block, resamples - done)
            drawn = rng.integers(0, n, size=(size, n))
            for row, shows in zip(weights, drawn):
                row[:] = np.bincount(shows, minlength=n)
            del drawn
            for matrix, total in zip(arrays, sums):
                total[done : done + size] = weights[:size] @ matrix
    return sums


def bootstrap_p_value(d: np.ndarray, delta: float, floor: float) -> float:
    """The centred bootstrap p-value of the module docstring, never below ``floor`` (2 / 2**n): one plus the
    number of resampled differences ``d`` (NaN ones left out) at least ``|delta|`` from their mean, over one
    plus their number."""
    d = d[~np.isnan(d)]
    if np.isnan(delta) or not len(d):
        return float("nan")
    p = float((1 + np.sum(np.abs(d - d.mean()) >= abs(delta))) / (1 + len(d)))
    return p if p >= floor else floor


def bootstrap_means(differences: np.ndarray, *, resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> np.ndarray:
    """The mean per-show difference of each metric in each bootstrap resample of the shows.

    Parameters
    ----------
    differences : numpy.ndarray
        ``(shows, metrics)``: each show's difference on each metric, NaN where undefined.
    resamples, seed : int
        As in :func:`resampled_sums` (the same draws for every metric).

    Returns
    -------
    numpy.ndarray
        ``(resamples, metrics)``: the mean over the drawn shows where the metric is defined (NaN where none is).
    """
    d = np.asarray(differences, dtype=float)
    defined = ~np.isnan(d)
    sums, counts = resampled_sums([np.where(defined, d, 0.0), defined.astype(float)], resamples=resamples, seed=seed)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / counts


def mean_tests(
    differences: np.ndarray, *, resamples: int = DEFAULT_RESAMPLES, seed: int = 0
) -> tuple[np.ndarray, list]:
    """The two-sided p-value of the mean of each metric's per-show differences, and its test.

    Parameters
    ----------
    differences : numpy.ndarray
        ``(shows, metrics)``: each show's difference on each metric, NaN where undefined (left out).
    resamples, seed : int
        The paired bootstrap's (:func:`bootstrap_means`: the same draws over every show for every metric).

    Returns
    -------
    p_values : numpy.ndarray
        Per metric, over its :math:`n` defined differences: the exact sign-flip test with
        :math:`\\delta^f = \\frac{1}{n}\\sum_s (1 - 2 f_s) d_s` up to :data:`EXACT_MAX_SHOWS`, the paired bootstrap
        of the mean (:func:`bootstrap_p_value`, never below :math:`2/2^n`) beyond; NaN below two differences
        or without resamples.
    tests : list
        Per metric, :func:`which_test` of its :math:`n`.
    """
    d = np.asarray(differences, dtype=float)
    defined = ~np.isnan(d)
    tested = defined.sum(axis=0)
    tests = [which_test(int(n)) for n in tested]
    p_values = np.full(d.shape[1], np.nan)
    for j, test in enumerate(tests):
        if test == "exact sign-flip":
            column = d[defined[:, j], j]
            with one_blas_thread():
                flipped = (1.0 - 2.0 * sign_flips(len(column))) @ column / len(column)
            p_values[j] = sign_flip_p_value(flipped, float(column.mean()))
    resampled = [j for j, test in enumerate(tests) if test == "paired bootstrap"]
    if resampled and resamples > 0:
        means = bootstrap_means(d[:, resampled], resamples=resamples, seed=seed)
        for column, j in enumerate(resampled):
            observed = float(d[defined[:, j], j].mean())
            p_values[j] = bootstrap_p_value(means[:, column], observed, smallest_p_value(int(tested[j])))
    return p_values, tests


def paired_bootstrap(
    components: dict[str, pd.DataFrame],
    *,
    resamples: int = EVALUATE_RESAMPLES,
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
        Resamples drawn at a time (:func:`resampled_sums`).
    extra : dict, optional
        System name -> ``(table, rates)``: more per-show components (same shows, same order) resampled
        with the same draws, and the function that turns a table of their sums into ``{metric: values}``
        (the unit metrics: :func:`tvseg.unit.reduction.unit_rates`); their metrics get intervals too.

    Returns
    -------
    intervals : dict
        ``{system: {metric: {"low": x, "high": y}}}`` (NaN bounds with one show).
    pairwise : list of dict
        One entry per pair of systems and headline metric (:data:`~tvseg.metrics.HEADLINE`) that both systems
        have (Pk and WindowDiff only with units, through ``extra``): ``{"a", "b", "metric", "difference",
        "p_value", "p_value_is_bound", "p_value_holm", "p_value_holm_is_bound", "test"}``, ``test`` being
        :func:`which_test`'s; ``p_value_holm`` is Holm's correction over every entry (:func:`correct`: the pairs
        of systems on the headline metrics); ``*_is_bound``: the value is the resampling's floor, an upper
        bound (:func:`at_floor`).

    Warns
    -----
    UndefinedValueWarning
        With one show (no interval, no p-value).
    FewShowsWarning
        Below :data:`MIN_SHOWS` shows (intervals unreliable).
    """
    names = list(components)
    if resamples <= 0 or not names:
        return {}, []
    n_shows = len(next(iter(components.values())))
    if n_shows == 0:
        return {}, []
    extra = extra or {}
    tables = {name: [components[name]] + ([extra[name][0]] if name in extra else []) for name in names}
    flat = [(name, table) for name in names for table in tables[name]]
    resampled = resampled_sums([table for _, table in flat], resamples=resamples, seed=seed, block=block)
    drawn = iter(resampled)
    sums = {name: [next(drawn) for _ in tables[name]] for name in names}
    samples = {
        name: _metrics(
            [(total, table.columns) for total, table in zip(sums[name], tables[name])],
            extra.get(name, (None, None))[1],
            titles=bool(titles and titles.get(name)),
        )
        for name in names
    }
    # the systems that have some metric compared (overlapping predictions have none)
    _warn_few(n_shows, sum(any(metric in samples[name] for metric in HEADLINE) for name in names))
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
        for metric in HEADLINE:
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
            bound = at_floor(p, n_shows=n_shows, resamples=resamples, test=test)
            entry = {"a": a, "b": b, "metric": metric, "difference": delta, "p_value": p}
            pairwise.append({**entry, "p_value_is_bound": bound, "test": test})
    return intervals, correct(pairwise)


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
    :func:`swapped_sums`), from their common components."""
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


def smallest_p_value(n_shows: int) -> float:
    """:math:`2 / 2^n`, the smallest p-value a sign-flip test over ``n_shows`` shows can give (1 for one show;
    0.0 once it underflows, past 1,074 shows)."""
    return 1.0 if n_shows <= 1 else math.ldexp(1.0, 1 - n_shows)


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm 1979).

    With the :math:`m` defined p-values sorted, :math:`p_{(1)} \\le \\dots \\le p_{(m)}`,

    .. math:: \\tilde p_{(i)} = \\max_{j \\le i} \\min\\bigl(1, (m - j + 1)\\, p_{(j)}\\bigr);

    rejecting where :math:`\\tilde p < \\alpha` controls the family-wise error rate at :math:`\\alpha`.

    Parameters
    ----------
    p_values : array-like of float
        One family; NaN values are left out of it (and stay NaN).

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the order given.
    """
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    defined = np.flatnonzero(~np.isnan(p))
    m = len(defined)
    if not m:
        return out
    order = defined[np.argsort(p[defined], kind="stable")]
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(scaled)
    return out


def holm_bounds(p_values, bounds) -> tuple[np.ndarray, np.ndarray]:
    r""":func:`holm`'s adjusted p-values, and which of them are bounds.

    An adjusted value :math:`\tilde p_{(i)}` is the largest of the terms :math:`\min(1, (m - j + 1)\, p_{(j)})`,
    :math:`j \le i`; when the term it equals is an upper bound (its :math:`p_{(j)}` at the resampling's floor,
    and below 1), so is :math:`\tilde p_{(i)}`; an exact term of the same value makes it exact.

    Parameters
    ----------
    p_values : array-like of float
        One family (NaN left out, as in :func:`holm`).
    bounds : array-like of bool
        Whether each p-value is a bound (:func:`at_floor`).

    Returns
    -------
    adjusted : numpy.ndarray
    adjusted_bounds : numpy.ndarray of bool
    """
    p = np.asarray(p_values, dtype=float)
    bound = np.asarray(bounds, dtype=bool)
    adjusted = holm(p)
    out = np.zeros(p.shape, dtype=bool)
    defined = np.flatnonzero(~np.isnan(p))
    order = defined[np.argsort(p[defined], kind="stable")]
    m = len(order)
    value, is_bound = -1.0, False
    for j, i in enumerate(order):
        term = min(1.0, (m - j) * p[i])
        if term > value:
            value, is_bound = term, bool(bound[i]) and term < 1.0
        elif term == value:
            is_bound = is_bound and bool(bound[i])
        out[i] = is_bound
    return adjusted, out


def correct(entries: list[dict], *, key: str = "p_value") -> list[dict]:
    """Holm's correction over one family of tests, in place: each entry (a dict with ``key`` and
    ``key + "_is_bound"``) gains ``key + "_holm"`` and ``key + "_holm_is_bound"`` (:func:`holm_bounds`); an entry
    whose p-value is NaN stays out of the family. Returns ``entries``.

    ``tvseg evaluate``'s family is every pair of systems on every headline metric (:func:`paired_bootstrap`,
    again after the entries a system's inputs do not allow are dropped); ``tvseg compare``'s, each headline
    metric between the two runs."""
    p = [entry[key] for entry in entries]
    adjusted, bound = holm_bounds(p, [bool(entry.get(key + "_is_bound")) for entry in entries])
    for entry, value, is_bound in zip(entries, adjusted, bound):
        entry[key + "_holm"] = float(value)
        entry[key + "_holm_is_bound"] = bool(is_bound)
    return entries


def tested(metric: str) -> bool:
    """Whether a p-value is given for a change of ``metric``: a rate or an error of the registry; a count
    (segments, story classes) or a key outside the registry is shown, not tested."""
    entry = METRICS.get(metric)
    return entry is not None and entry.kind != "count"


def p_value_floor(n_shows: int, resamples: int, test: str | None) -> float:
    r"""The smallest p-value ``test`` can give over ``n_shows`` shows: the paired bootstrap's
    :math:`\max(1/(B + 1), 2/2^n)`, the exact sign-flip test's :math:`2/2^n` (:func:`smallest_p_value`)."""
    floor = smallest_p_value(n_shows)
    if test == "paired bootstrap" and resamples > 0:
        floor = max(floor, 1.0 / (resamples + 1))
    return floor


def at_floor(p: float, *, n_shows: int, resamples: int, test: str | None) -> bool:
    """Whether ``p`` is an upper bound: the paired bootstrap's floor (:func:`p_value_floor`), no resample as far
    from the mean as the observed difference. An exact sign-flip test's p-values are exact, its floor included;
    False for NaN."""
    if test != "paired bootstrap" or p != p:
        return False
    return bool(p <= p_value_floor(n_shows, resamples, test) * (1 + TOLERANCE))


def rounded_up(value: float) -> str:
    """``value`` rounded up to two significant digits, as written (``0.000999`` -> ``0.001``): what a bound at the
    resampling's floor is written below (``p < 0.001``)."""
    if value >= 1:
        return "1"
    exponent = math.floor(math.log10(value)) - 1
    digits = math.ceil(round(value / 10.0**exponent, 9))
    return f"{digits * 10.0**exponent:.{max(0, -exponent)}f}".rstrip("0").rstrip(".")


def p_text(p: float | None, *, bound: bool = False, resamples: int | None = None, name: str = "p") -> str:
    """A p-value as every view writes it: ``p = 0.012``, ``p < 0.001`` below 0.001, and at the resampling's
    floor a bound, ``p < 0.0001 (10,000 resamples)`` (the floor rounded up: never the floor as if exact); ``-``
    for None or NaN. ``name`` replaces ``p`` (``Holm``); ``resamples`` None leaves out the parenthesis."""
    if p is None or p != p:
        return "-"
    if bound:
        said = f"{name} < {rounded_up(p)}"
        return said + (f" ({resamples:,} resamples)" if resamples else "")
    return f"{name} < 0.001" if p < 0.001 else f"{name} = {p:.3f}"


def p_figures(p: float, *, bound: bool, missing: str = "-", gap: str = " ") -> str:
    """A p-value to 3 significant figures, as a table cell writes it: ``<`` (then ``gap``) its floor rounded up
    when it is a bound (:func:`at_floor`), never the floor as if exact; ``missing`` for NaN."""
    if p != p:
        return missing
    return f"<{gap}{rounded_up(p)}" if bound else f"{p:.3g}"


def which_test(n_shows: int) -> str | None:
    """The test the p-values of ``n_shows`` shows come from: ``"exact sign-flip"`` up to
    :data:`EXACT_MAX_SHOWS` shows, ``"paired bootstrap"`` beyond, None (``null`` in JSON) below two."""
    return None if n_shows < 2 else "exact sign-flip" if n_shows <= EXACT_MAX_SHOWS else "paired bootstrap"


def policy(n_shows: int, *, resamples: int, systems: int, family: Sequence[str] = ()) -> dict:
    """The JSON's ``significance`` object: what the intervals and p-values of ``n_shows`` shows rest on.

    Parameters
    ----------
    n_shows : int
        Shows scored.
    resamples : int
        The settings' bootstrap resamples (0: no interval and no p-value at all).
    systems : int
        Systems compared.
    family : sequence of str
        The headline metrics tested (:data:`tvseg.metrics.HEADLINE`, those the systems have).

    Returns
    -------
    dict
        ``shows``, ``min_shows`` (:data:`MIN_SHOWS`), ``intervals`` (``"percentile bootstrap"``, or None when
        there are none), ``intervals_reliable``, ``test`` (:func:`which_test`'s, None with one system),
        ``resamples``, ``smallest_p_value`` (:func:`p_value_floor`: :math:`2/2^n`, and at least
        :math:`1/(B + 1)` for the bootstrap, where a p-value is a bound: ``p_value_is_bound``), ``family`` (the
        headline metrics Holm's correction adjusts together, over every pair of systems) and ``correction``
        (``"holm"`` when that family holds more than one test, else None).
    """
    off = resamples <= 0 or n_shows < 2
    test = None if off else which_test(n_shows)
    family = list(family) if test and systems > 1 else []
    return {
        "shows": n_shows,
        "min_shows": MIN_SHOWS,
        "intervals": None if off else "percentile bootstrap",
        "intervals_reliable": not off and n_shows >= MIN_SHOWS,
        "test": test if systems > 1 else None,
        "resamples": max(resamples, 0),
        "smallest_p_value": None if test is None or systems < 2 else p_value_floor(n_shows, resamples, test),
        "family": family,
        "correction": "holm" if len(family) * systems * (systems - 1) // 2 > 1 else None,
    }
