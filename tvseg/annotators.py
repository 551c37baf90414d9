"""Several annotators of one reference: every system scored against each, and the human ceiling.

Story boundaries are a matter of judgement, so a system's score means most beside how well two people
agree. With annotators ``A, B, ...`` of the same shows, :func:`evaluate_annotators` runs one evaluation
per annotator ``a`` (:func:`tvseg.evaluation.evaluate`, every option as given), with ``a`` as the
reference and, as hypotheses, the systems and every other annotator. From these it reports, per metric:

* each system against each annotator (that evaluation's corpus value and bootstrap interval);
* over the annotators, their **mean**, **minimum** and **maximum**, and the **pooled** value: the
  metric of the components summed over every (annotator, show) pair, as the corpus value sums them
  over shows (Bouchekif et al.'s pooled CovN is the F-measure of the pooled R_N and P_N);
* the **human ceiling**: each annotator scored against every other (every ordered pair, so that metrics
  that are not symmetric, Pk with its reference-sized window, are taken both ways), pooled over the
  pairs and shows; the mean, minimum and maximum over the pairs; and each pair's value;
* bootstrap intervals over shows of the pooled values and of the ceiling (one draw of the shows for all
  of them: :func:`tvseg.significance.paired_bootstrap`);
* each system's **share of the ceiling**: its pooled value over the ceiling's for a metric where higher
  is better, the ceiling's over its own for an error rate (Pk, WindowDiff): "system X reaches 84 % of the
  annotators' agreement on CovN".

The annotators are taken in the order of their names, so the order in which they are given changes no
number.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from tvseg import metrics
from tvseg.errors import UsageError
from tvseg.retrieval.reductions import corpus_metrics
from tvseg.unit.reduction import unit_rates

__all__ = ["AnnotatorsResult", "evaluate_annotators", "combine", "annotator_agreement", "CEILING_METRICS"]

CEILING_METRICS = ("cov_n", "cov_d", "boundary_f1", "pk", "windowdiff", "b", "s")
"""The metrics the summary and the report set against the ceiling (every pooled metric is in the JSON)."""
CEILING = "ceiling"


@dataclass(frozen=True, eq=False)
class AnnotatorsResult:
    """The scores of the systems against several annotators, and the annotators' own agreement.

    Attributes
    ----------
    annotators, systems : tuple of str
        The annotators (in name order) and the systems.
    results : dict
        Annotator -> the :class:`~tvseg.evaluation.EvaluationResult` with that annotator as the reference
        (its systems: the systems, then the other annotators).
    per_annotator : dict
        System -> annotator -> corpus metrics.
    over : dict
        System -> ``{"mean", "min", "max", "pooled"}`` -> metrics.
    ceiling : dict
        ``{"pooled", "mean", "min", "max"}`` -> metrics, and ``"pairs"``: ``"B vs A"`` (B scored against
        the reference A) -> corpus metrics.
    intervals : dict
        System, and ``"ceiling"`` -> metric -> ``{"low", "high"}`` (of the pooled values).
    share : dict
        System -> metric -> its share of the ceiling (None where undefined).
    agreement : dict, optional
        With units: the annotators' agreement coefficients (:func:`annotator_agreement`).
    """

    annotators: tuple[str, ...]
    systems: tuple[str, ...]
    results: dict[str, Any]
    per_annotator: dict[str, dict[str, dict[str, Any]]]
    over: dict[str, dict[str, dict[str, Any]]]
    ceiling: dict[str, Any]
    intervals: dict[str, Any] = field(default_factory=dict)
    share: dict[str, dict[str, Any]] = field(default_factory=dict)
    agreement: dict[str, Any] | None = None

    @property
    def settings(self):
        return self.results[self.annotators[0]].settings

    def to_json(self) -> dict[str, Any]:
        """The ``annotators`` and ``ceiling`` blocks of the JSON (the rest is each annotator's evaluation)."""
        from tvseg.output import json_safe

        return json_safe(
            {
                "annotators": list(self.annotators),
                "per_system": {
                    s: {
                        "annotators": self.per_annotator[s],
                        **self.over[s],
                        "share_of_ceiling": self.share.get(s, {}),
                        "bootstrap": self.intervals.get(s, {}),
                    }
                    for s in self.systems
                },
                "ceiling": {**self.ceiling, "bootstrap": self.intervals.get(CEILING, {})},
                **({"agreement": self.agreement} if self.agreement is not None else {}),
            },
            integer_keys=metrics.COUNT_KEYS,
        )

    def to_frame(self) -> pd.DataFrame:
        """Long table: ``system`` (or ``"ceiling"``), ``scope`` (an annotator, ``mean``, ``min``, ``max``,
        ``pooled``, ``share_of_ceiling``, or for the ceiling a pair ``"B vs A"``), ``metric``, ``value``."""
        rows = []
        for s in self.systems:
            for a, values in self.per_annotator[s].items():
                rows += [(s, a, k, v) for k, v in values.items()]
            for scope, values in self.over[s].items():
                rows += [(s, scope, k, v) for k, v in values.items()]
            rows += [(s, "share_of_ceiling", k, v) for k, v in self.share.get(s, {}).items()]
        for scope in ("pooled", "mean", "min", "max"):
            rows += [(CEILING, scope, k, v) for k, v in self.ceiling[scope].items()]
        for pair, values in self.ceiling["pairs"].items():
            rows += [(CEILING, pair, k, v) for k, v in values.items()]
        frame = pd.DataFrame(rows, columns=["system", "scope", "metric", "value"])
        frame["value"] = pd.to_numeric(frame["value"], errors="coerce")
        return frame

    def sentences(self, *, keys=("cov_n", "boundary_f1")) -> list[str]:
        """``"alpha reaches 84.0 % of the annotators' agreement on CovN ..."``, one per system."""
        out = []
        for s in self.systems:
            parts = [
                f"{100 * self.share[s][k]:.1f} % on {metrics.METRICS[k].label}"
                for k in keys
                if self.share.get(s, {}).get(k) is not None
            ]
            if parts:
                out.append(f"{s} reaches {' and '.join(parts)} of the annotators' agreement (pooled values).")
        return out


def _pair(hypothesis: str, reference: str) -> str:
    return f"{hypothesis} vs {reference}"


def _stats(values: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Mean, minimum and maximum of each metric over ``values`` (a metric undefined in one: None)."""
    keys = [k for k in values[0] if all(k in v for v in values)]
    out: dict[str, dict[str, Any]] = {"mean": {}, "min": {}, "max": {}}
    for k in keys:
        column = np.array([np.nan if v[k] is None else v[k] for v in values], dtype=float)
        defined = not np.isnan(column).any()
        out["mean"][k] = float(column.mean()) if defined else None
        out["min"][k] = float(column.min()) if defined else None
        out["max"][k] = float(column.max()) if defined else None
    return out


def _summed(tables: list[pd.DataFrame]) -> pd.DataFrame:
    """The element-wise sum of per-show tables (same shows, in order; the columns all of them have)."""
    columns = [c for c in tables[0].columns if all(c in t.columns for t in tables)]
    total = np.sum([t[columns].to_numpy(float) for t in tables], axis=0)
    return pd.DataFrame(total, index=tables[0].index, columns=columns)


def _pool(parts: list[Any]) -> tuple[pd.DataFrame, pd.DataFrame | None, bool]:
    """The components of system results ``parts`` summed show by show, their unit components (None when
    one has none) and whether all of them score titles."""
    units = [p.unit_components for p in parts]
    summed_units = None if any(u is None for u in units) else _summed(units)
    return _summed([p.scores.components for p in parts]), summed_units, all(p.titles for p in parts)


def _pooled(components: pd.DataFrame, units: pd.DataFrame | None, titles: bool) -> dict[str, Any]:
    """The corpus metrics of summed components: what the corpus value of one evaluation computes."""
    out = corpus_metrics(components, titles=titles)
    if units is not None and len(units.columns):
        sums = units.sum(axis=0).to_frame().T
        out.update({k: float(np.asarray(v)[0]) for k, v in unit_rates(sums).items()})
    return {k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in out.items()}


def _share(system: dict[str, Any], ceiling: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k in CEILING_METRICS:
        mine, best = system.get(k), ceiling.get(k)
        if mine is None or best is None:
            continue
        lower = metrics.METRICS[k].higher_is_better is False
        num, den = (best, mine) if lower else (mine, best)
        out[k] = float(num / den) if den else None
    return out


def combine(results: Mapping[str, Any], *, systems, annotators) -> AnnotatorsResult:
    """The :class:`AnnotatorsResult` of one evaluation per annotator (``results[a]``: against ``a``, its
    hypotheses the ``systems`` and the other ``annotators``)."""
    from tvseg.significance import paired_bootstrap

    annotators = tuple(sorted(annotators))
    systems = tuple(systems)
    per_annotator = {s: {a: dict(results[a].systems[s].corpus) for a in annotators} for s in systems}
    pairs = [(b, a) for a in annotators for b in annotators if b != a]  # b scored against the reference a
    pair_values = {_pair(b, a): dict(results[a].systems[b].corpus) for b, a in pairs}
    pooled_tables = {s: _pool([results[a].systems[s] for a in annotators]) for s in systems}
    pooled_tables[CEILING] = _pool([results[a].systems[b] for b, a in pairs])
    pooled = {name: _pooled(*tables) for name, tables in pooled_tables.items()}
    over = {s: {**_stats(list(per_annotator[s].values())), "pooled": pooled[s]} for s in systems}
    ceiling = {"pooled": pooled[CEILING], **_stats(list(pair_values.values())), "pairs": pair_values}
    settings = results[annotators[0]].settings
    intervals, _ = paired_bootstrap(
        {name: table[0] for name, table in pooled_tables.items()},
        resamples=settings.bootstrap,
        seed=settings.seed,
        confidence=settings.confidence,
        titles={name: table[2] for name, table in pooled_tables.items()},
        extra={name: (table[1], unit_rates) for name, table in pooled_tables.items() if table[1] is not None},
    )
    share = {s: _share(over[s]["pooled"], ceiling["pooled"]) for s in systems}
    return AnnotatorsResult(annotators, systems, dict(results), per_annotator, over, ceiling, intervals, share)


def annotator_agreement(references: Mapping[str, Mapping[str, Any]], units: Mapping[str, pd.DataFrame]) -> dict:
    """Fournier & Inkpen's (2012) S-based :math:`\\pi^*` and :math:`\\kappa^*` of the annotators in the units.

    Each annotator's segmentation of a show is projected onto its units (:func:`tvseg.unit.projection.to_masses`:
    a unit belongs to the segment holding its midpoint) and the coefficients are those of
    :func:`tvseg.agreement` (``tvseg agreement``'s code, its defaults: S, the paper's convention) on the
    dataset ``{show: {annotator: masses}}`` of the shows every annotator and the units have.

    Returns
    -------
    dict
        ``pi_star``, ``kappa_star``, ``bias``, ``actual`` (the pooled pairwise S) and ``n_shows``.
    """
    from tvseg.unit.agreement import agreement
    from tvseg.unit.projection import to_masses

    names = sorted(references)
    shows = sorted(set(units).intersection(*(set(references[a]) for a in names)))
    if not shows:
        raise UsageError("no show has units and a segmentation by every annotator: no agreement coefficient")
    dataset: dict[Any, Any] = {show: {a: to_masses(references[a][show], units[show]) for a in names} for show in shows}
    found = agreement(dataset)
    return {
        "pi_star": found.pi_star,
        "kappa_star": found.kappa_star,
        "bias": found.bias,
        "actual": found.actual,
        "n_shows": len(shows),
    }


def check_names(annotators, systems) -> None:
    """A :class:`~tvseg.errors.UsageError` unless there are two annotators or more, none named as a system."""
    if len(annotators) < 2:
        raise UsageError("several annotators need two references or more (NAME=PATH each)")
    clash = sorted(set(annotators) & set(systems))
    if clash:
        raise UsageError(f"an annotator and a system have one name: {', '.join(clash)} (rename one)")


def evaluate_annotators(
    references: Mapping[str, Mapping[str, Any]], hypotheses: Mapping[str, Mapping[str, Any]], **options
) -> AnnotatorsResult:
    """Score every system against each annotator of the reference, and the annotators against each other.

    Parameters
    ----------
    references : dict
        Annotator name -> {show id -> segmentation} (two annotators or more, of the same shows).
    hypotheses : dict
        System name -> {show id -> segmentation}, as for :func:`tvseg.evaluate`.
    **options
        Keyword options of :func:`tvseg.evaluate` (``settings``, ``uem``, ``units``, ``metadata``, ...),
        the same for every evaluation.

    Returns
    -------
    AnnotatorsResult
    """
    from tvseg.arguments import check_systems
    from tvseg.evaluation import evaluate

    check_systems("references", references, kind="annotator")
    check_systems("hypotheses", hypotheses)
    names = sorted(references)
    check_names(names, hypotheses)
    results = {}
    for a in names:
        others = {b: references[b] for b in names if b != a}
        results[a] = evaluate(references[a], {**hypotheses, **others}, **options)
    combined = combine(results, systems=list(hypotheses), annotators=names)
    if options.get("units") is not None:
        combined = replace(combined, agreement=annotator_agreement(references, options["units"]))
    return combined
