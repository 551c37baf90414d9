r"""What changed between two results of ``tvseg evaluate --json`` (``tvseg compare``, issue 26).

Two runs of one system (yesterday's ``scores.json`` against today's), or two systems of one run, are
compared metric by metric over the shows both have:

- the corpus (pooled) value of each metric in both, and their difference;
- the mean over the common shows of each show's difference :math:`d_s = n_s - o_s` (the macro change;
  shows where either value is undefined, null in the JSON, are left out of that metric), with the
  two-sided p-value of a paired test on those differences (:func:`tvseg.significance.mean_tests`: the exact
  sign-flip test up to 12 shows, the paired bootstrap of the mean beyond, as ``tvseg evaluate`` tests two
  systems) and Holm's correction over the metrics tested (one family). The test is on the per-show values
  (the macro mean): a result's JSON holds no per-show components, so the pooled values are compared, not
  tested;
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
from tvseg.significance import holm, mean_tests

__all__ = [
    "compare_results",
    "system_of",
    "per_show_values",
    "settings_changed",
]

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
    if not isinstance(system.get("corpus", {}), Mapping):
        raise InputError(f"system {name!r}: 'corpus' is not an object", path=path)
    for show, values in system["shows"].items():
        if not isinstance(values, Mapping):
            raise InputError(f"system {name!r}, show {show!r}: not an object of metric values", path=path)
    return name, system


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
        The paired bootstrap's (more than :data:`~tvseg.significance.EXACT_MAX_SHOWS` shows).

    Returns
    -------
    dict
        ``old``, ``new`` (file and system), ``shows`` (``common``, ``only_old``, ``only_new``),
        ``metrics`` (one entry per metric both hold, in the registry's order: ``metric``, ``label``,
        ``kind``, ``fraction``, ``old``, ``new``, ``difference`` of the corpus values, ``shows`` tested,
        ``mean_difference``, ``p_value``, ``p_value_holm`` (Holm over the metrics), ``test``: None below two
        shows), ``ranked_by``
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
    p_values, tests = mean_tests(differences, resamples=resamples, seed=seed)
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
