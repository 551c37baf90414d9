"""The warnings that name every undefined value (NaN, ``null`` in the JSON) of an evaluation.

A metric is undefined where its formula divides by zero: a recall with no reference segment, a
boundary precision with no hypothesis boundary, a title accuracy with no correctly retrieved titled
reference segment, a Pk with no window that fits. :func:`warn_undefined_values` finds every NaN in a
system's results (per show, corpus, macro, ``by_length``, groups, sweeps, bootstrap intervals) and in
the pairwise comparisons, finds why from the components the value was computed from (the zero
denominators), and gives one :class:`~tvseg.errors.UndefinedValueWarning` per system and reason::

    sys: no reference boundary, so each value named here is NaN (0/0) (null in the JSON):
    shows: boundary_recall (1 show: s1); corpus: boundary_recall; macro: boundary_recall

(one line). Every undefined value is named once: by its metric, its system, where (``shows``,
``corpus``, ``macro``, ``by_length.short``, ``groups``, ``sweeps.tolerance``, ``bootstrap``,
``pairwise``) and why; a corpus of many shows gives one warning naming how many shows, not one per
show. The intervals and p-values of a one-show corpus are named by the bootstrap's own warning
(:mod:`tvseg.significance`: no interval and no p-value at all).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tvseg.errors import UndefinedValueWarning, user_stacklevel
from tvseg.metrics import METRICS

__all__ = ["warn_undefined_values", "UNSCORED_UNITS", "UNKNOWN"]

UNSCORED_UNITS = "the show is not scored by the unit metrics (no units for it, or shorter than one chunk)"
UNKNOWN = "undefined for a cause tvseg does not identify"
_HEAD = "{system}: {reason}, so each value named here is NaN (0/0) (null in the JSON): "
_LISTED = 5


def _reasons(metric: str, comps: Mapping[str, Any], n: int, cls: str = "") -> np.ndarray:
    """Why ``metric`` is NaN in each of ``n`` rows of components ``comps`` (columns or sums): per row,
    the first of its zero denominators (each alone makes the value undefined: an F-measure is NaN
    once its precision or its recall is), so that the value is named once; :data:`UNKNOWN` where no
    zero denominator explains it."""
    rules = METRICS[metric].undefined if metric in METRICS else ()
    tests = [(u.total, u.reason.format(cls=cls)) for u in rules]
    first = np.full(n, len(tests))
    for k, (denominator, _) in enumerate(tests):
        try:
            zero = np.broadcast_to(np.atleast_1d(denominator(comps) == 0), (n,))
        except KeyError:  # components not at hand (a hand-built table)
            continue
        first[(first == len(tests)) & zero] = k
    return np.array([reason for _, reason in tests] + [UNKNOWN], dtype=object)[first]


def _names(items: Sequence[str], noun: str) -> str:
    shown = ", ".join(map(str, items[:_LISTED]))
    more = f" and {len(items) - _LISTED} more" if len(items) > _LISTED else ""
    return f"{len(items)} {noun}{'' if len(items) == 1 else 's'}: {shown}{more}"


class _Found:
    """Undefined values of one system, by reason, scope and metric (the rows they are in)."""

    def __init__(self) -> None:
        self.by_reason: dict[str, dict[str, dict[str, list[str]]]] = {}

    def add(self, reason: str, scope: str, metric: str, row: str | None = None) -> None:
        rows = self.by_reason.setdefault(reason, {}).setdefault(scope, {}).setdefault(metric, [])
        if row is not None:
            rows.append(row)

    def add_rows(self, reasons: np.ndarray, scope: str, metric: str, rows: Sequence[str]) -> None:
        """Rows where ``metric`` is undefined, each with its reason."""
        for reason in dict.fromkeys(reasons.tolist()):
            for k in np.flatnonzero(reasons == reason).tolist():
                self.add(reason, scope, metric, rows[k])

    def add_values(self, scope: str, values: Mapping[str, Any], comps: Mapping[str, Any], cls: str = "") -> None:
        """A dict of pooled values (corpus, a length class, a group) and the components they come from."""
        for metric, value in values.items():
            if _is_nan(value):
                self.add(str(_reasons(metric, comps, 1, cls)[0]), scope, metric)

    def warn(self, system: str, nouns: Mapping[str, str]) -> None:
        for reason, scopes in self.by_reason.items():
            parts = []
            for scope, metrics in scopes.items():
                same: dict[tuple[str, ...], list[str]] = {}  # metrics undefined in the same rows, listed together
                for metric, rows in metrics.items():
                    same.setdefault(tuple(rows), []).append(metric)
                listed = []
                for listed_rows, names in same.items():
                    where = f" ({_names(listed_rows, nouns.get(scope, 'row'))})" if listed_rows else ""
                    listed.append(", ".join(names) + where)
                parts.append(f"{scope}: {', '.join(listed)}")
            message = _HEAD.format(system=system, reason=reason) + "; ".join(parts)
            if "shows" in scopes and "macro" not in scopes:
                message += " (the macro mean leaves these shows out)"
            warnings.warn(message, UndefinedValueWarning, stacklevel=user_stacklevel())


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and value != value


def _columns_with_nan(table: pd.DataFrame) -> np.ndarray:
    """Whether each column of ``table`` holds a NaN, told from one array of its values (a column at a time
    when they are not all numbers)."""
    try:
        values = table.to_numpy(dtype=float)
    except (TypeError, ValueError):
        return np.array([bool(np.isnan(table[c].to_numpy(float)).any()) for c in table.columns], dtype=bool)
    return np.isnan(values).any(axis=0)


def _column_sums(table: pd.DataFrame | None, mask: np.ndarray | None = None) -> dict[str, float]:
    if table is None:
        return {}
    part = table if mask is None else table[mask]
    return {str(key): float(v) for key, v in part.sum(axis=0).items()}


def warn_undefined_values(
    name: str,
    *,
    per_show: pd.DataFrame,
    components: pd.DataFrame,
    unit_components: pd.DataFrame | None,
    unit_scored: np.ndarray | None,
    corpus: Mapping[str, Any],
    macro: Mapping[str, Any],
    by_length: Mapping[str, Mapping[str, Any]],
    groups: Mapping[str, Mapping[str, Mapping[str, Any]]],
    group_members: Callable[[], Iterable[tuple[str, str, np.ndarray]]],
    sweeps: Mapping[str, pd.DataFrame],
    intervals: Mapping[str, Mapping[str, float]],
) -> None:
    """Warn once per reason about every undefined value of system ``name`` (module docstring).

    Parameters
    ----------
    name : str
        The system.
    per_show : pandas.DataFrame
        Its metrics per show (index: show id), unit metrics included.
    components : pandas.DataFrame
        Its time-domain components per show (:mod:`tvseg.retrieval.corpus`), in the same show order.
    unit_components : pandas.DataFrame or None
        Its unit components per show (:func:`tvseg.unit.reduction.unit_components_table`).
    unit_scored : numpy.ndarray or None
        Whether each show is scored by the unit metrics (boolean, in show order).
    corpus, macro, by_length, groups
        As :class:`tvseg.evaluation.SystemResult` holds them.
    group_members : callable
        Returns ``(column, value, mask of the shows)`` of every group of ``groups``.
    sweeps : dict
        ``{"gamma": table, "tolerance": table}`` (a row per parameter value).
    intervals : dict
        ``{metric: {"low", "high"}}``: the system's bootstrap intervals (from two shows).
    """
    found = _Found()
    n = len(per_show)
    per_show_reasons: dict[str, np.ndarray] = {}
    columns: dict[str, dict[str, np.ndarray]] = {}  # the components' columns, taken when a value needs them
    for metric, undefined in zip(per_show.columns, _columns_with_nan(per_show)):
        if not undefined:
            continue
        bad = np.flatnonzero(np.isnan(per_show[metric].to_numpy(float)))
        is_unit = metric in METRICS and METRICS[metric].group == "unit"
        side = "unit" if is_unit else "time"
        if side not in columns:
            table = unit_components if is_unit else components
            columns[side] = {} if table is None else {key: table[key].to_numpy(float) for key in table.columns}
        reasons = _reasons(metric, {k: v[bad] for k, v in columns[side].items()}, len(bad))
        if is_unit and unit_scored is not None:
            reasons[~unit_scored[bad]] = UNSCORED_UNITS
        per_show_reasons[metric] = reasons
        found.add_rows(reasons, "shows", metric, [str(show) for show in per_show.index[bad]])
    totals = {**_column_sums(components), **_column_sums(unit_components, unit_scored)}
    found.add_values("corpus", corpus, totals)
    for metric, value in macro.items():
        if _is_nan(value):
            of_shows = per_show_reasons.get(metric, np.array([], dtype=object))
            found.add(str(of_shows[0]) if len(of_shows) else "no show" if not n else UNKNOWN, "macro", metric)
    for cls, values in by_length.items():
        suffix = "_" + cls
        of_class = {key[: -len(suffix)]: v for key, v in totals.items() if key.endswith(suffix)}
        found.add_values(f"by_length.{cls}", values, of_class, cls=cls + " ")
    for column, value, mask in group_members():
        for metric, v in groups.get(column, {}).get(value, {}).items():
            if _is_nan(v):
                found.add(
                    str(_reasons(metric, _column_sums(components, mask), 1)[0]), "groups", metric, f"{column}={value}"
                )
    for sweep, table in sweeps.items():
        parameter = table.columns[0]
        for metric in table.columns[1:]:
            for k in np.flatnonzero(np.isnan(table[metric].to_numpy(float))):
                found.add(
                    str(_reasons(metric, totals, 1)[0]), f"sweeps.{sweep}", metric, f"{table[parameter].iloc[k]:g}"
                )
    for metric, interval in intervals.items():
        if _is_nan(interval.get("low")) or _is_nan(interval.get("high")):
            if _is_nan(corpus.get(metric, float("nan"))):
                why = str(_reasons(metric, totals, 1)[0])
            else:
                why = "undefined in every bootstrap resample (no resample drew a show where it is defined)"
            found.add(why, "bootstrap", metric)
    nouns = {"shows": "show", "groups": "group", **{f"sweeps.{s}": str(t.columns[0]) for s, t in sweeps.items()}}
    found.warn(name, nouns)


def warn_undefined_comparisons(pairwise: Sequence[Mapping[str, Any]], corpora: Mapping[str, Mapping[str, Any]]) -> None:
    """Warn once per pair of systems and reason about the undefined differences and p-values of
    ``pairwise`` (:func:`tvseg.significance.paired_bootstrap`; ``corpora``: each system's corpus
    values). A one-show corpus, without any p-value, is the bootstrap's own warning."""
    by_pair: dict[tuple[str, str], _Found] = {}
    for entry in pairwise:
        if entry.get("test") is None:
            continue
        a, b, metric = entry["a"], entry["b"], entry["metric"]
        undefined = [key for key in ("difference", "p_value", "p_value_holm") if _is_nan(entry.get(key))]
        if not undefined:
            continue
        missing = [s for s in (a, b) if _is_nan(corpora.get(s, {}).get(metric, float("nan")))]
        if missing:
            why = f"{metric} undefined on the corpus of {' and '.join(missing)}"
        else:
            why = "the difference is undefined in every resample or sign flip"
        found = by_pair.setdefault((a, b), _Found())
        for key in undefined:
            found.add(why, "pairwise", f"{metric} {key}")
    for (a, b), found in by_pair.items():
        found.warn(f"{a} vs {b}", {})
