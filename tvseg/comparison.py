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
    "run_of",
    "search_tests",
    "check_search_pair",
    "compare_search_results",
    "SEARCH_DEFAULT_METRIC",
    "TEST_SETTINGS",
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
    pooled = None
    if "components" in old and "components" in new:
        pooled = pooled_tests(old, new, old_system=old_system, new_system=new_system, paths=(old_path, new_path))
    measures = {
        key: {
            "label": METRICS[key].label if key in METRICS else key,
            "kind": METRICS[key].kind if key in METRICS else "unknown",
            "fraction": METRICS[key].fraction and METRICS[key].kind != "count" if key in METRICS else False,
            "tested": tested(key),
        }
        for key in keys
    }
    return {
        "old": {"file": old_path, "system": old_system},
        "new": {"file": new_path, "system": new_system},
        "shows": {"common": len(common), "only_old": only_old, "only_new": only_new},
        **_compared(
            shows_a,
            shows_b,
            corpus_a,
            corpus_b,
            common,
            measures=measures,
            family=HEADLINE,
            pooled=pooled,
            metric=metric or (DEFAULT_METRIC if DEFAULT_METRIC in keys else (keys[0] if keys else None)),
            top=top,
            resamples=resamples,
            seed=seed,
        ),
        "warnings": warnings_,
    }


def _compared(
    shows_a: Mapping[str, Mapping[str, Any]],
    shows_b: Mapping[str, Mapping[str, Any]],
    corpus_a: Mapping[str, Any],
    corpus_b: Mapping[str, Any],
    common: list[str],
    *,
    measures: Mapping[str, Mapping[str, Any]],
    family: Sequence[str],
    pooled: Mapping[str, Any] | None,
    metric: str | None,
    top: int,
    resamples: int,
    seed: int,
) -> dict[str, Any]:
    """The part of a comparison common to results of ``tvseg evaluate`` and of ``tvseg search``: the entry of
    each measure of ``measures`` (key: ``label``, ``kind``, ``fraction``, ``tested``, and ``higher_is_better``
    when the entry should carry its direction), in that order, over the rows (shows or queries) ``common``;
    Holm over the measures of ``family``; ``pooled`` (:func:`pooled_tests`'s form) or None; the rows that moved
    most on ``metric``."""
    keys = list(measures)
    ranked_by = metric
    if ranked_by is not None and ranked_by not in keys:
        raise UsageError(f"--metric {ranked_by}: not a metric of both results ({', '.join(keys)})")
    values_a, values_b = per_show_values(shows_a, common, keys), per_show_values(shows_b, common, keys)
    differences = values_b - values_a
    defined = ~np.isnan(differences)
    counted = defined.sum(axis=0)
    p_values = np.full(len(keys), math.nan)
    tests: list[str | None] = [None] * len(keys)
    columns = [j for j, key in enumerate(keys) if measures[key]["tested"]]
    if columns:
        found, found_tests = mean_tests(differences[:, columns], resamples=resamples, seed=seed)
        for j, p, test in zip(columns, found, found_tests):
            p_values[j], tests[j] = p, test
    entries = []
    for j, key in enumerate(keys):
        o, n = _value(corpus_a[key]), _value(corpus_b[key])
        measure = measures[key]
        entries.append(
            {
                "metric": key,
                "label": measure["label"],
                "kind": measure["kind"],
                "fraction": measure["fraction"],
                **({"higher_is_better": measure["higher_is_better"]} if "higher_is_better" in measure else {}),
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
    corrected = [entry for entry in entries if entry["metric"] in family]
    correct(corrected)
    correct(corrected, key="p_value_pooled")
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
        "metrics": entries,
        "family": [entry["metric"] for entry in corrected],
        "resamples": resamples,
        "ranked_by": ranked_by,
        "moved": moved,
        "pooled_test": None if pooled is None else {k: v for k, v in pooled.items() if k != "p_values"},
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


# --- results of tvseg search ------------------------------------------------------------------------------

SEARCH_DEFAULT_METRIC = "map"
"""The measure whose per-query change ranks the queries of two search results unless ``--metric`` names another."""
TEST_SETTINGS = ("bootstrap", "seed")
"""The settings of a search result that choose its paired tests, not its values: results that differ in them
alone are compared (the new result's are used, as for ``tvseg evaluate``'s results)."""


def run_of(document: Mapping[str, Any], name: str | None, *, path: str) -> tuple[str, Mapping[str, Any]]:
    """The run ``name`` of a result of ``tvseg search --json`` (its only run when ``name`` is None): ``(name,
    its JSON)``, checked to carry per-query values and components (:func:`tvseg.search.merge_results`'s check)."""
    from tvseg.search import check_result

    check_result(path, document)
    runs = document["runs"]
    if name is None:
        if len(runs) != 1:
            raise UsageError(f"{path}: {len(runs)} runs ({', '.join(map(str, runs))}): choose one with --system")
        name = next(iter(runs))
    if name not in runs:
        raise UsageError(f"{path}: no run {name!r}; its runs: {', '.join(map(str, runs))}")
    return name, runs[name]


def search_tests(
    old: Mapping[str, Mapping[str, Any]], new: Mapping[str, Mapping[str, Any]], *, resamples: int, seed: int
) -> dict[str, dict[str, Any]]:
    r"""The paired test of each tested search measure (:data:`tvseg.search.TESTED`) between two runs, over the
    queries both answer (sorted ids), from their per-query values: ``{measure: {queries, mean_change, p_value,
    test}}``.

    A measure's value over the queries is the sum of its per-query component over the number of queries
    (:data:`tvseg.search.REGISTRY`); swapping or resampling queries adds one query to both runs' counts alike, so
    the test of the overall values is that of the mean per-query difference :math:`d_q = n_q - o_q`
    (:func:`tvseg.significance.mean_tests`: the exact sign-flip test up to 12 queries, the paired bootstrap of
    the mean beyond, with ``resamples`` and ``seed``). ``tvseg search``'s pairwise tests and ``tvseg compare``'s
    pooled p-values of search results are this one computation.
    """
    from tvseg.search import TESTED

    common = sorted(set(old) & set(new))
    d = np.array([[_value(new[q][k]) - _value(old[q][k]) for k in TESTED] for q in common], dtype=float)
    d = d.reshape(len(common), len(TESTED))
    p_values, tests = mean_tests(d, resamples=resamples, seed=seed)
    return {
        k: {
            "queries": len(common),
            "mean_change": float(d[:, j].mean()) if common else math.nan,
            "p_value": float(p_values[j]),
            "test": tests[j],
        }
        for j, k in enumerate(TESTED)
    }


def check_search_pair(old: Mapping[str, Any], new: Mapping[str, Any], *, paths: tuple[str, str]) -> None:
    """A :class:`~tvseg.errors.UsageError` naming both files unless two search results (not the same document)
    were scored with the same settings (but :data:`TEST_SETTINGS`) over the same queries (those of all their
    runs)."""
    if old is new:
        return
    for key in sorted(set(old["settings"]) | set(new["settings"])):
        mine, theirs = old["settings"].get(key), new["settings"].get(key)
        if key not in TEST_SETTINGS and mine != theirs:
            raise UsageError(
                f"{paths[0]} and {paths[1]} were scored with other settings: {key} {mine!r} and {theirs!r}; "
                "search results compared are of the same settings"
            )
    queries = [{q for run in document["runs"].values() for q in run["queries"]} for document in (old, new)]
    if queries[0] != queries[1]:
        only = [sorted(queries[0] - queries[1]), sorted(queries[1] - queries[0])]
        named = "; ".join(
            f"{len(q)} only in {path} ({', '.join(q[:3])}{', ...' if len(q) > 3 else ''})"
            for q, path in zip(only, paths)
            if q
        )
        raise UsageError(
            f"{paths[0]} and {paths[1]} were scored over other queries: {named}; search results compared are "
            "over the same queries"
        )


def compare_search_results(
    old: Mapping[str, Any],
    new: Mapping[str, Any],
    *,
    old_run: str,
    new_run: str,
    old_path: str = "OLD",
    new_path: str = "NEW",
    metric: str | None = None,
    top: int = 10,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> dict[str, Any]:
    """The comparison of run ``old_run`` of ``old`` with ``new_run`` of ``new``, two results of ``tvseg search
    --json`` (the same document for two runs of one result), as :func:`compare_results` compares results of
    ``tvseg evaluate``, the queries in the place of the shows (``unit``: ``"query"``).

    Per measure of :data:`tvseg.search.REGISTRY` (in its order): the values over the queries (``all``) and their
    difference; over the queries both runs answer, the mean per-query change and the p-value of its paired test
    (with ``resamples`` and ``seed``) for the tested measures (:data:`tvseg.search.TESTED`; the counts and
    statistics are shown, not tested); ``p_value_pooled``, the test of the values over the queries from the
    runs' per-query components (:func:`search_tests`, with the new result's ``bootstrap`` and ``seed``: the
    p-values ``tvseg search`` prints for the pair); Holm's correction over :data:`tvseg.search.HEADLINE`. Every
    tested measure is higher-is-better (``higher_is_better``); the counts have no direction.

    Raises
    ------
    UsageError
        Results of other settings or over other queries (:func:`check_search_pair`), an unknown run or metric.
    InputError
        A document that is not a search result with components, or no query both runs answer.
    """
    from tvseg.search import HEADLINE, REGISTRY, TESTED

    check_search_pair(old, new, paths=(old_path, new_path))
    _, a = run_of(old, old_run, path=old_path)
    _, b = run_of(new, new_run, path=new_path)
    queries_a, queries_b = a["queries"], b["queries"]
    common = [q for q in queries_a if q in queries_b]
    only_old = [q for q in queries_a if q not in queries_b]
    only_new = [q for q in queries_b if q not in queries_a]
    warnings_ = [
        f"{len(queries)} quer{'y' if len(queries) == 1 else 'ies'} answered by the {label} run only ({run}), left "
        f"out of the tests: {', '.join(queries[:5])}" + (f" and {len(queries) - 5} more" if len(queries) > 5 else "")
        for label, queries, run in (("old", only_old, old_run), ("new", only_new, new_run))
        if queries
    ]
    if not common:
        raise InputError(f"run {new_run!r} answers no query that run {old_run!r} of {old_path} answers", path=new_path)
    keys = [m.key for m in REGISTRY if m.key in a["all"] and m.key in b["all"]]
    measures = {
        key: {
            "label": next(m.label for m in REGISTRY if m.key == key),
            "kind": "rate" if key in TESTED else "count",
            "fraction": False,  # sh_eval's values as it prints them: its MAP exceeds 1 when a run repeats a hit
            "tested": key in TESTED,
            "higher_is_better": True if key in TESTED else None,
        }
        for key in keys
    }
    settings = new["settings"]
    pooled_resamples, pooled_seed = int(settings.get("bootstrap", 1000)), int(settings.get("seed", 0))
    tests = search_tests(queries_a, queries_b, resamples=pooled_resamples, seed=pooled_seed)
    pooled = {
        "p_values": {k: v["p_value"] for k, v in tests.items()},
        "test": next(iter(tests.values()))["test"],
        "resamples": pooled_resamples,
        "seed": pooled_seed,
        "shows": len(common),
    }
    return {
        "unit": "query",
        "old": {"file": old_path, "system": old_run},
        "new": {"file": new_path, "system": new_run},
        "shows": {"common": len(common), "only_old": only_old, "only_new": only_new},
        **_compared(
            queries_a,
            queries_b,
            a["all"],
            b["all"],
            common,
            measures=measures,
            family=HEADLINE,
            pooled=pooled,
            metric=metric or (SEARCH_DEFAULT_METRIC if SEARCH_DEFAULT_METRIC in keys else None),
            top=top,
            resamples=resamples,
            seed=seed,
        ),
        "warnings": warnings_,
    }
