r"""What changed between two results of ``tvseg evaluate --json`` (``tvseg compare``, issue 26).

Two runs of one system (yesterday's ``scores.json`` against today's), or two systems of one run, are
compared metric by metric over the shows both have:

- the corpus (pooled) value of each metric in both, and their difference;
- the mean over the common shows of each show's difference :math:`d_s = n_s - o_s` (the macro change;
  shows where either value is undefined, null in the JSON, are left out of that metric), with the
  two-sided p-value of the **paired sign-flip test** on those differences: under the null hypothesis that
  the two runs are exchangeable on every show, each :math:`d_s` is as likely to have the other sign, and

  .. math::

      p = \frac{\#\{f \in \{-1, 1\}^n : |\bar{d^f}| \ge |\bar d|\}}{2^n},\quad \bar{d^f} = \frac{1}{n}\sum_s f_s d_s,

  exact by enumeration up to :data:`~tvseg.significance.EXACT_MAX_SHOWS` shows (as
  :mod:`tvseg.significance` tests two systems); beyond, the **paired bootstrap** of
  :mod:`tvseg.significance`: ``resamples`` resamples of the common shows with replacement (seeded,
  the same draws for every metric; each resample's mean over its shows where the metric is defined), the
  resampled mean differences centred on their mean, :math:`p = (1 + \#\{b : |\bar d_b - \bar{\bar d}| \ge
  |\bar d|\}) / (1 + B)`, never below :math:`2/2^n`. Holm's step-down correction over the metrics tested
  (one family) is given beside each p-value. The test is on the per-show values (the macro mean): a
  result's JSON holds no per-show components, so the pooled values are compared, not tested;
- the shows whose value of one metric (``metric``: ``cov_d`` by default) moved most, by the absolute
  difference, largest first (ties in show order).

Shows in one result only, and results of different settings (the fields of their signatures that
differ), are named as warnings: the comparison is over the common shows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tvseg.errors import InputError, UsageError
from tvseg.metrics import METRICS
from tvseg.significance import EXACT_MAX_SHOWS, TOLERANCE, bootstrap_p_value, holm, sign_flips, smallest_p_value

__all__ = [
    "compare_results",
    "system_of",
    "per_show_values",
    "paired_sign_flip",
    "bootstrap_means",
    "paired_bootstrap_p",
    "paired_test",
    "which_test",
    "settings_changed",
]

DEFAULT_METRIC = "cov_d"
BLOCK_DRAWS = 1 << 22
"""Show indices drawn at a time by the bootstrap (a block of resamples holds at most this many)."""


def system_of(document: Mapping[str, Any], name: str | None, *, path: str) -> tuple[str, Mapping[str, Any]]:
    """The system ``name`` of a result (its only system when ``name`` is None): ``(name, its JSON)``."""
    systems = document.get("systems") if isinstance(document, Mapping) else None
    if not isinstance(systems, Mapping) or not systems:
        raise InputError("not a result of tvseg evaluate --json (no 'systems' object)", path=path)
    if name is None:
        if len(systems) != 1:
            raise UsageError(
                f"{path}: {len(systems)} systems ({', '.join(map(str, systems))}): choose one with --system"
            )
        name = next(iter(systems))
    if name not in systems:
        raise UsageError(f"{path}: no system {name!r}; its systems: {', '.join(map(str, systems))}")
    system = systems[name]
    if not isinstance(system, Mapping) or not isinstance(system.get("shows"), Mapping):
        raise InputError(f"system {name!r} has no 'shows' object", path=path)
    if not isinstance(system.get("corpus", {}), Mapping):
        raise InputError(f"system {name!r}: 'corpus' is not an object", path=path)
    for show, values in system["shows"].items():
        if not isinstance(values, Mapping):
            raise InputError(f"system {name!r}, show {show!r}: not an object of metric values", path=path)
    return name, system


def paired_sign_flip(differences: Sequence[float]) -> float:
    """Exact two-sided p-value of the mean of ``differences`` over every assignment of their signs.

    :math:`\\#\\{f \\in \\{-1, 1\\}^n : |\\bar{d^f}| \\ge |\\bar d| - \\epsilon\\} / 2^n` with the rounding
    tolerance :math:`\\epsilon` of :mod:`tvseg.significance`; NaN with no difference. Enumerates
    :math:`2^n` assignments: for up to :data:`EXACT_MAX_SHOWS` differences.
    """
    d = np.asarray(differences, dtype=float)
    n = len(d)
    if n == 0:
        return float("nan")
    observed = abs(float(d.mean()))
    margin = TOLERANCE * max(1.0, observed)
    signs = 1.0 - 2.0 * sign_flips(n)
    means = np.abs(signs @ d) / n
    return float(np.sum(means >= observed - margin) / len(means))


def bootstrap_means(differences: np.ndarray, *, resamples: int = 1000, seed: int = 0) -> np.ndarray:
    """The mean per-show difference of each metric in each bootstrap resample of the shows.

    Parameters
    ----------
    differences : numpy.ndarray
        ``(shows, metrics)``: each show's difference on each metric, NaN where undefined.
    resamples, seed : int
        The resamples drawn (``numpy.random.default_rng(seed)``): each draws as many shows as there are,
        with replacement, the same draws for every metric (paired), a block of resamples at a time.

    Returns
    -------
    numpy.ndarray
        ``(resamples, metrics)``: the mean over the drawn shows where the metric is defined (NaN where
        none is).
    """
    d = np.asarray(differences, dtype=float)
    n = d.shape[0]
    defined = ~np.isnan(d)
    values, weights_of = np.where(defined, d, 0.0), defined.astype(float)
    sums, counts = np.empty((resamples, d.shape[1])), np.empty((resamples, d.shape[1]))
    rng = np.random.default_rng(seed)
    block = max(1, min(200, BLOCK_DRAWS // max(n, 1)))
    for done in range(0, resamples, block):
        size = min(block, resamples - done)
        # a resample's weights: how often each show was drawn
        drawn = rng.integers(0, n, size=(size, n)) + (np.arange(size) * n)[:, None]
        weights = np.bincount(drawn.ravel(), minlength=size * n).reshape(size, n).astype(float)
        sums[done : done + size] = weights @ values
        counts[done : done + size] = weights @ weights_of
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / counts


def paired_bootstrap_p(differences: Sequence[float], *, resamples: int = 1000, seed: int = 0) -> float:
    """The paired bootstrap's two-sided p-value of the mean of ``differences`` (see the module docstring):
    :func:`bootstrap_means` centred, never below :math:`2/2^n`. NaN with no difference or no resample."""
    d = np.asarray(differences, dtype=float)
    if len(d) == 0 or resamples <= 0:
        return float("nan")
    means = bootstrap_means(d[:, None], resamples=resamples, seed=seed)[:, 0]
    return bootstrap_p_value(means, float(d.mean()), smallest_p_value(len(d)))


def which_test(n: int) -> str:
    """The test of the mean of ``n`` per-show differences: ``"none"`` below two, ``"exact sign-flip"`` up to
    :data:`EXACT_MAX_SHOWS`, ``"paired bootstrap"`` beyond."""
    return "none" if n < 2 else "exact sign-flip" if n <= EXACT_MAX_SHOWS else "paired bootstrap"


def paired_test(differences: Sequence[float], *, resamples: int = 1000, seed: int = 0) -> tuple[float, str]:
    """The p-value of the mean of the per-show ``differences`` and the test's name (:func:`which_test`): the
    exact sign-flip test (:func:`paired_sign_flip`) or the paired bootstrap (:func:`paired_bootstrap_p`);
    NaN with fewer than two."""
    test = which_test(len(differences))
    if test == "exact sign-flip":
        return paired_sign_flip(differences), test
    if test == "paired bootstrap":
        return paired_bootstrap_p(differences, resamples=resamples, seed=seed), test
    return float("nan"), test


def settings_changed(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """The fields of two results' settings signatures (``name:value|...``) that differ: ``(name, old, new)``,
    in the old signature's order; one ``("signature", old, new)`` when either is not of that form."""
    a, b = old.get("signature"), new.get("signature")
    if a == b:
        return []
    fields = []
    for signature in (a, b):
        pairs = [part.partition(":") for part in signature.split("|")] if isinstance(signature, str) else None
        if not pairs or any(not sep for _, sep, _ in pairs):
            return [("signature", str(a), str(b))]
        fields.append({name: value for name, _, value in pairs})
    fa, fb = fields
    names = list(fa) + [name for name in fb if name not in fa]
    return [(name, fa.get(name, "-"), fb.get(name, "-")) for name in names if fa.get(name) != fb.get(name)]


def _value(x: Any) -> float:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else math.nan


def per_show_values(shows: Mapping[str, Mapping[str, Any]], names: Sequence[str], keys: Sequence[str]) -> np.ndarray:
    """``(len(names), len(keys))``: the value of each metric (column) on each show (row), NaN where it is
    missing, null or not a number."""
    out = np.full((len(names), len(keys)), np.nan)
    column = {key: j for j, key in enumerate(keys)}
    for i, name in enumerate(names):
        for key, value in shows[name].items():
            j = column.get(key)
            if j is not None:
                out[i, j] = _value(value)
    return out


def compare_results(
    old: Mapping[str, Any],
    new: Mapping[str, Any],
    *,
    old_system: str,
    new_system: str,
    old_path: str = "OLD",
    new_path: str = "NEW",
    metric: str | None = None,
    top: int = 10,
    resamples: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """The comparison of system ``old_system`` of ``old`` with ``new_system`` of ``new`` (two parsed
    results of ``tvseg evaluate --json``; the same document for two systems of one run).

    Parameters
    ----------
    old, new : Mapping
        The two results (parsed JSON).
    old_system, new_system : str
        The system compared in each.
    old_path, new_path : str
        Their files, for the messages.
    metric : str, optional
        The metric whose per-show change ranks the shows (default ``cov_d``, else the first one both hold).
    top : int
        How many of the shows that moved most to give.
    resamples, seed : int
        The paired bootstrap's (more than :data:`EXACT_MAX_SHOWS` shows).

    Returns
    -------
    dict
        ``old``, ``new`` (file and system), ``shows`` (``common``, ``only_old``, ``only_new``),
        ``metrics`` (one entry per metric both hold, in the registry's order: ``metric``, ``label``,
        ``kind``, ``fraction``, ``old``, ``new``, ``difference`` of the corpus values, ``shows`` tested,
        ``mean_difference``, ``p_value``, ``p_value_holm`` (Holm over the metrics), ``test``), ``ranked_by``
        and ``moved`` (the ``top`` shows that moved most: ``show``, ``old``, ``new``, ``difference``),
        ``warnings`` (sentences).

    Raises
    ------
    InputError
        A document that is not a result, or no show in common.
    UsageError
        An unknown system or metric.
    """
    _, a = system_of(old, old_system, path=old_path)
    _, b = system_of(new, new_system, path=new_path)
    shows_a, shows_b = a["shows"], b["shows"]
    common = [show for show in shows_a if show in shows_b]
    warnings_: list[str] = []
    only_old = [show for show in shows_a if show not in shows_b]
    only_new = [show for show in shows_b if show not in shows_a]
    for label, shows, path in (("old", only_old, old_path), ("new", only_new, new_path)):
        if shows:
            named = ", ".join(shows[:5]) + (f" and {len(shows) - 5} more" if len(shows) > 5 else "")
            warnings_.append(f"{len(shows)} show(s) only in the {label} result ({path}), left out: {named}")
    changed = settings_changed(old, new)
    if changed:
        named = "; ".join(f"{name} {x} -> {y}" for name, x, y in changed)
        warnings_.append(f"the two results were computed with different settings: {named}")
    if not common:
        raise InputError(f"no show in common with {old_path}", path=new_path)
    corpus_a, corpus_b = a.get("corpus") or {}, b.get("corpus") or {}
    keys = [k for k in METRICS if k in corpus_a and k in corpus_b]
    keys += [k for k in corpus_a if k in corpus_b and k not in METRICS]
    ranked_by = metric or (DEFAULT_METRIC if DEFAULT_METRIC in keys else (keys[0] if keys else None))
    if ranked_by is not None and ranked_by not in keys:
        raise UsageError(f"--metric {ranked_by}: not a metric of both results ({', '.join(keys)})")
    values_a, values_b = per_show_values(shows_a, common, keys), per_show_values(shows_b, common, keys)
    differences = values_b - values_a
    defined = ~np.isnan(differences)
    tested = defined.sum(axis=0)
    tests = [which_test(int(n)) for n in tested]
    p_values = np.full(len(keys), np.nan)
    for j, test in enumerate(tests):
        if test == "exact sign-flip":
            p_values[j] = paired_sign_flip(differences[defined[:, j], j])
    resampled = [j for j, test in enumerate(tests) if test == "paired bootstrap"]
    if resampled and resamples > 0:
        means = bootstrap_means(differences[:, resampled], resamples=resamples, seed=seed)
        for column, j in enumerate(resampled):
            observed = float(differences[defined[:, j], j].mean())
            p_values[j] = bootstrap_p_value(means[:, column], observed, smallest_p_value(int(tested[j])))
    entries = []
    for j, key in enumerate(keys):
        o, n = _value(corpus_a[key]), _value(corpus_b[key])
        entries.append(
            {
                "metric": key,
                "label": METRICS[key].label if key in METRICS else key,
                "kind": METRICS[key].kind if key in METRICS else "unknown",
                "fraction": METRICS[key].fraction and METRICS[key].kind != "count" if key in METRICS else False,
                "old": o,
                "new": n,
                "difference": n - o,
                "shows": int(tested[j]),
                "mean_difference": float(differences[defined[:, j], j].mean()) if tested[j] else math.nan,
                "p_value": float(p_values[j]),
                "test": tests[j],
            }
        )
    for entry, adjusted in zip(entries, holm(p_values)):
        entry["p_value_holm"] = float(adjusted)
    moved = []
    if ranked_by is not None:
        j = keys.index(ranked_by)
        rows = np.flatnonzero(defined[:, j])
        order = rows[np.argsort(-np.abs(differences[rows, j]), kind="stable")[:top]]  # ties keep the show order
        moved = [
            {
                "show": common[i],
                "old": float(values_a[i, j]),
                "new": float(values_b[i, j]),
                "difference": float(differences[i, j]),
            }
            for i in order
        ]
    return {
        "old": {"file": old_path, "system": old_system},
        "new": {"file": new_path, "system": new_system},
        "shows": {"common": len(common), "only_old": only_old, "only_new": only_new},
        "metrics": entries,
        "ranked_by": ranked_by,
        "moved": moved,
        "warnings": warnings_,
    }
