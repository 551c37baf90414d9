r"""What changed between two results of ``tvseg evaluate --json`` (``tvseg compare``, issue 26).

Two runs of one system (yesterday's ``scores.json`` against today's), or two systems of one run, are
compared metric by metric over the shows both have:

- the corpus (pooled) value of each metric in both, and their difference;
- the mean over the common shows of each show's difference :math:`d_s = n_s - o_s` (the macro change;
  shows where either value is undefined, null in the JSON, are left out of that metric), with the
  two-sided p-value of a paired test on those differences (:func:`tvseg.significance.mean_tests`: the exact
  sign-flip test up to 12 shows, the paired bootstrap of the mean beyond, as ``tvseg evaluate`` tests two
  systems) for every rate and error (the counts are shown, not tested: :func:`tvseg.significance.tested`),
  and Holm's correction over one family, the headline metrics (:data:`tvseg.metrics.HEADLINE`, the
  JSON's ``family``; the other metrics' p-values are uncorrected, their ``p_value_holm`` null). A p-value at
  the paired bootstrap's floor is a bound (``p_value_is_bound``, and so on for each p-value:
  :func:`tvseg.significance.at_floor`);
- when both results carry their components (:mod:`tvseg.carried`), the p-value of the pooled (corpus) values
  over the common shows, ``p_value_pooled``: ``tvseg evaluate``'s test of two systems
  (:func:`tvseg.significance.paired_bootstrap`: exact sign-flip up to 12 shows, paired bootstrap beyond,
  with the new result's resamples and seed), so that two systems of one run get ``evaluate``'s
  ``pairwise`` p-values, on the headline metrics; with Holm's correction over them, ``p_value_pooled_holm``;
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

from tvseg.carried import read_carried
from tvseg.errors import InputError, UsageError
from tvseg.metrics import HEADLINE, METRICS
from tvseg.significance import DEFAULT_RESAMPLES, at_floor, correct, mean_tests, paired_bootstrap, tested
from tvseg.unit.reduction import unit_components_table

__all__ = [
    "compare_results",
    "system_of",
    "per_show_values",
    "settings_changed",
    "pooled_tests",
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
    resamples: int = DEFAULT_RESAMPLES,
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
        ``mean_difference``, ``p_value`` (NaN for a count: not tested), ``p_value_holm`` (Holm over the
        headline metrics, NaN for the others), ``test`` (None below two shows and for a count),
        ``p_value_pooled``, ``p_value_pooled_holm``, and for each p-value ``*_is_bound``), ``family`` (the
        headline metrics corrected together), ``resamples``, ``ranked_by``
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
    counted = defined.sum(axis=0)
    p_values = np.full(len(keys), math.nan)
    tests: list[str | None] = [None] * len(keys)
    columns = [j for j, key in enumerate(keys) if tested(key)]
    if columns:
        found, found_tests = mean_tests(differences[:, columns], resamples=resamples, seed=seed)
        for j, p, test in zip(columns, found, found_tests):
            p_values[j], tests[j] = p, test
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
                "shows": int(counted[j]),
                "mean_difference": float(differences[defined[:, j], j].mean()) if counted[j] else math.nan,
                "p_value": float(p_values[j]),
                "p_value_is_bound": at_floor(
                    float(p_values[j]), n_shows=int(counted[j]), resamples=resamples, test=tests[j]
                ),
                "test": tests[j],
                "p_value_holm": math.nan,
                "p_value_holm_is_bound": False,
            }
        )
    pooled = None
    if "components" in old and "components" in new:
        pooled = pooled_tests(old, new, old_system=old_system, new_system=new_system, paths=(old_path, new_path))
    pooled_p = (pooled or {}).get("p_values", {})
    for entry in entries:
        p = pooled_p.get(entry["metric"], math.nan)
        bound = pooled is not None and at_floor(
            p, n_shows=pooled["shows"], resamples=pooled["resamples"], test=pooled["test"]
        )
        entry.update(
            p_value_pooled=p,
            p_value_pooled_is_bound=bound,
            p_value_pooled_holm=math.nan,
            p_value_pooled_holm_is_bound=False,
        )
    # Holm's family: the headline metrics (a NaN p-value stays out of it)
    family = [entry for entry in entries if entry["metric"] in HEADLINE]
    correct(family)
    correct(family, key="p_value_pooled")
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
        "family": [entry["metric"] for entry in family],
        "resamples": resamples,
        "ranked_by": ranked_by,
        "moved": moved,
        "pooled_test": None if pooled is None else {k: v for k, v in pooled.items() if k != "p_values"},
        "warnings": warnings_,
    }


def pooled_tests(
    old: Mapping[str, Any], new: Mapping[str, Any], *, old_system: str, new_system: str, paths: tuple[str, str]
) -> dict[str, Any]:
    """The paired test of the pooled values of ``old_system`` (of ``old``) and ``new_system`` (of ``new``)
    over their common shows, from the components both results carry: ``{"p_values": {metric: p},
    "test", "resamples", "seed", "shows"}``, the p-values those of ``tvseg evaluate``'s ``pairwise`` for two
    systems of one run (:func:`tvseg.significance.paired_bootstrap`, with ``new``'s resamples and seed;
    none with no resample)."""
    import warnings

    a, b = read_carried(old, paths[0]), read_carried(new, paths[1])
    sa, sb = a.systems[old_system], b.systems[new_system]
    in_b = set(b.shows)
    common = [show for show in a.shows if show in in_b]
    rows_a = np.flatnonzero(np.isin(np.asarray(a.shows, dtype=object), common))
    where_b = {show: k for k, show in enumerate(b.shows)}
    rows_b = np.asarray([where_b[show] for show in common], dtype=np.int64)
    components = {"old": sa.components.iloc[rows_a], "new": sb.components.iloc[rows_b]}
    extra = {}
    if sa.units is not None and sb.units is not None:
        from tvseg.unit.reduction import unit_rates

        for key, system, run, rows in (("old", sa, a, rows_a), ("new", sb, b, rows_b)):
            table = unit_components_table([system.units], [0], len(run.shows))
            extra[key] = (table.iloc[rows].reset_index(drop=True), unit_rates)
    settings = b.settings
    resamples, seed = int(settings.get("bootstrap", 1000)), int(settings.get("seed", 0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # too few shows: the test's name says which test, the p-value its floor
        _, pairwise = paired_bootstrap(
            components,
            resamples=resamples,
            seed=seed,
            confidence=float(settings.get("confidence", 0.95)),
            titles={"old": sa.titles, "new": sb.titles},
            extra=extra,
        )
    return {
        "p_values": {entry["metric"]: float(entry["p_value"]) for entry in pairwise},
        "test": pairwise[0]["test"] if pairwise else None,
        "resamples": resamples,
        "seed": seed,
        "shows": len(common),
    }
