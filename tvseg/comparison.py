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

  exact by enumeration up to :data:`~tvseg.retrieval.significance.EXACT_MAX_SHOWS` shows (as
  :mod:`tvseg.retrieval.significance` tests two systems), otherwise approximated with ``resamples`` random
  assignments, :math:`p = (1 + \#\{|\bar{d^f}| \ge |\bar d|\}) / (1 + R)` (Riezler & Maxwell 2005's
  approximate randomization). The test is on the per-show values (the macro mean): a result's JSON holds
  no per-show components, so the pooled values are compared, not tested;
- the shows whose value of one metric (``metric``: ``cov_d`` by default) moved most, by the absolute
  difference, largest first (ties in show order).

Shows in one result only, and results of different settings (their signatures), are named as warnings:
the comparison is over the common shows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tvseg.errors import InputError, UsageError
from tvseg.metrics import METRICS
from tvseg.retrieval.significance import EXACT_MAX_SHOWS, TOLERANCE, sign_flips

__all__ = ["compare_results", "system_of", "paired_sign_flip"]

DEFAULT_METRIC = "cov_d"


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
    return name, system


def paired_sign_flip(differences: Sequence[float], *, resamples: int = 9999, seed: int = 0) -> tuple[float, str]:
    """Two-sided p-value of the mean of ``differences`` under random signs, and the test's name.

    Exact over the :math:`2^n` sign assignments up to :data:`EXACT_MAX_SHOWS` differences; otherwise
    ``resamples`` random assignments (seeded), :math:`(1 + \\#\\{\\ldots\\}) / (1 + R)`. NaN with no difference.
    """
    d = np.asarray(differences, dtype=float)
    n = len(d)
    if n == 0:
        return float("nan"), "none"
    observed = abs(float(d.mean()))
    margin = TOLERANCE * max(1.0, observed)
    if n <= EXACT_MAX_SHOWS:
        signs = 1.0 - 2.0 * sign_flips(n)
        means = np.abs(signs @ d) / n
        return float(np.sum(means >= observed - margin) / len(means)), "exact sign-flip"
    rng = np.random.default_rng(seed)
    hits = 0
    for start in range(0, resamples, 1000):
        size = min(1000, resamples - start)
        signs = rng.choice((-1.0, 1.0), size=(size, n))
        hits += int(np.sum(np.abs(signs @ d) / n >= observed - margin))
    return (1 + hits) / (1 + resamples), "random sign-flip"


def _value(x: Any) -> float:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else math.nan


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
    resamples: int = 9999,
    seed: int = 0,
) -> dict[str, Any]:
    """The comparison of system ``old_system`` of ``old`` with ``new_system`` of ``new`` (two parsed
    results of ``tvseg evaluate --json``; the same document for two systems of one run).

    Returns
    -------
    dict
        ``old``, ``new`` (file and system), ``shows`` (``common``, ``only_old``, ``only_new``),
        ``metrics`` (one entry per metric both hold, in the registry's order: ``metric``, ``label``,
        ``old``, ``new``, ``difference`` of the corpus values, ``shows`` tested, ``mean_difference``,
        ``p_value``, ``test``), ``ranked_by`` and ``moved`` (the ``top`` shows that moved most:
        ``show``, ``old``, ``new``, ``difference``), ``warnings`` (sentences).
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
    if old.get("signature") != new.get("signature"):
        warnings_.append(
            f"the two results were computed with different settings: {old.get('signature')} against "
            f"{new.get('signature')}"
        )
    if not common:
        raise InputError(f"no show in common with {old_path}", path=new_path)
    corpus_a, corpus_b = a.get("corpus") or {}, b.get("corpus") or {}
    keys = [k for k in METRICS if k in corpus_a and k in corpus_b]
    keys += [k for k in corpus_a if k in corpus_b and k not in METRICS]
    entries = []
    for key in keys:
        per_show = [(_value(shows_a[s].get(key)), _value(shows_b[s].get(key))) for s in common]
        d = [y - x for x, y in per_show if not (math.isnan(x) or math.isnan(y))]
        p_value, test = paired_sign_flip(d, resamples=resamples, seed=seed)
        o, n = _value(corpus_a[key]), _value(corpus_b[key])
        entries.append(
            {
                "metric": key,
                "label": METRICS[key].label if key in METRICS else key,
                "old": o,
                "new": n,
                "difference": n - o,
                "shows": len(d),
                "mean_difference": float(np.mean(d)) if d else math.nan,
                "p_value": p_value,
                "test": test,
            }
        )
    ranked_by = metric or (DEFAULT_METRIC if DEFAULT_METRIC in keys else (keys[0] if keys else None))
    if ranked_by is not None and ranked_by not in keys:
        raise UsageError(f"--metric {ranked_by}: not a metric of both results ({', '.join(keys)})")
    moved = []
    if ranked_by is not None:
        for show in common:
            x, y = _value(shows_a[show].get(ranked_by)), _value(shows_b[show].get(ranked_by))
            if not (math.isnan(x) or math.isnan(y)):
                moved.append({"show": show, "old": x, "new": y, "difference": y - x})
        moved.sort(key=lambda m: -abs(m["difference"]))  # stable: ties keep the show order
    return {
        "old": {"file": old_path, "system": old_system},
        "new": {"file": new_path, "system": new_system},
        "shows": {"common": len(common), "only_old": only_old, "only_new": only_new},
        "metrics": entries,
        "ranked_by": ranked_by,
        "moved": moved[:top],
        "warnings": warnings_,
    }
