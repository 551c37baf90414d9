r"""The unit-domain metrics from their additive components, per show and pooled over a corpus.

:func:`tvseg.unit.corpus.corpus_unit_scores` counts each show's components; here they become the
metrics (:func:`unit_metrics`, element-wise: per show, for the corpus from the components summed in
show order, and for each bootstrap resample's sums), with the warnings given once for the corpus
(:func:`reduce_unit_parts`). A corpus scored in shards (:mod:`tvseg.scale`) gives the same numbers and
the same warnings as one shard of every show.

Component keys (all counts; sums over shows remain meaningful):

======================  ========================================================================
``pk_miss``             Pk windows where only the reference separates the probe's ends
``pk_false_alarm``      Pk windows where only the hypothesis does
``pk_windows``          Pk windows
``wd_errors``           WindowDiff windows in error
``wd_windows``          WindowDiff divisor
``winpr_tp`` ...        WinPR ``tp, tn, fp, fn`` (``winpr_total = k (N - 1)``)
``s_penalty``           boundary edit distance of S (Fournier & Inkpen 2012), in PBs
``s_potential``         potential boundaries ``N - 1``
``cseg_miss``           C_seg probes the reference separates and the hypothesis does not
``cseg_ref_probes``     C_seg probes the reference separates
``cseg_fa``             C_seg probes the hypothesis separates and the reference does not
``cseg_nonref_probes``  C_seg probes the reference does not separate
``ghd_sum``             generalized Hamming distance (nltk's, costs 2, 2, 1)
``ghd_positions``       positions it is normalised by, ``N - 1`` (1 under ``"nltk"`` and ``"chunkseg"``: raw)
``b_penalty``           B's edits, ``|A| + sum(span) / n`` (segeval 2.0.11, ``n = 2``)
``b_denominator``       B's ``|A| + |T_p| + |B_M|``
``chunk_precision_sum`` chunkseg's binary precision of the chunk flags (``"chunkseg"`` only, as the
                        four below; 0 where the hypothesis flags no chunk, as chunkseg gives it)
``chunk_recall_sum``    chunkseg's binary recall of the chunk flags (0 where the reference flags none)
``chunk_n_shows``       1 per show: the corpus values of the three are means over shows
``chunk_n_hypothesis``  chunks the hypothesis flags (names the shows where the precision is 0/0)
``chunk_n_reference``   chunks the reference flags (names the shows where the recall is 0/0)
======================  ========================================================================

The corpus pools each pair of counts (sum over shows, then divide), for B as segeval 2.0.11 pools
boundary similarity over a dataset in ``actual_agreement_linear`` (sum of numerators over sum of
denominators): the corpus B is :math:`1 - \sum \text{penalty} / \sum \text{denominator}`, not the
mean of the shows' B (that is the ``macro`` value).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from tvseg.errors import LenientInputWarning, UndefinedValueWarning, user_stacklevel
from tvseg.metrics import REGISTRY, unit_warnings

__all__ = [
    "UnitPart",
    "join_unit_parts",
    "reduce_unit_parts",
    "unit_components_table",
    "unit_metrics",
    "unit_rates",
    "assemble",
    "warn_chunk_zeros",
]

UNIT_METRICS = tuple(m for m in REGISTRY if m.group == "unit")
"""The unit domain's registry entries: their components, formulas and 0/0 rules (:mod:`tvseg.metrics`)."""
_FLOAT_KEYS = (
    "s_penalty",
    "s_potential",
    "ghd_sum",
    "b_penalty",
    "b_denominator",
    "chunk_precision_sum",
    "chunk_recall_sum",
)
_INT_KEYS = (
    *(key for key in dict.fromkeys(c for m in UNIT_METRICS for c in m.components) if key not in _FLOAT_KEYS),
    "winpr_tn",
    "chunk_n_hypothesis",
    "chunk_n_reference",
)
"""The components that are counts (summed as integers), the others sums of halves (summed in show order)."""
_NAN_WARNINGS = unit_warnings()
_UNDEFINED = {u.warning: u for m in UNIT_METRICS for u in m.undefined}


def unit_metrics(c):
    r"""The unit-domain metrics from (possibly summed) components, element-wise, by their registry
    formulas (:mod:`tvseg.metrics`), and each 0/0's mask (by warning name, in the order the warnings are
    given: :func:`tvseg.metrics.unit_warnings`).

    .. math::

        P_k = \frac{\text{miss} + \text{fa}}{\text{windows}}, \quad
        P'_k = \frac{\text{miss} + 2\,\text{fa}}{\text{windows}}, \quad
        \text{WD} = \frac{\text{errors}}{\text{windows}}, \quad
        S = 1 - \frac{\text{penalty}}{\text{potential}}

    and WinPR's :math:`P = TP/(TP+FP)`, :math:`R = TP/(TP+FN)`, :math:`F_1 = 2TP/(2TP+FP+FN)`;
    NIST TDT's :math:`C_{seg}` with TDT's costs (:math:`C_{miss} = 1, C_{FA} = 0.3, P_{seg} = 0.3`,
    :func:`tvseg.unit.windows.cseg`), raw (``cseg``) and normalised (``cseg_norm``), from
    :math:`P_{miss} = \text{miss} / \text{ref probes}` and :math:`P_{FA} = \text{fa} / \text{nonref probes}`;
    the normalised GHD ``ghd = ghd_sum / ghd_positions`` (nltk's GHD per potential boundary,
    :mod:`tvseg.unit.ghd`); boundary similarity ``b = 1 - b_penalty / b_denominator``. A 0/0 (no
    window, no boundary: an entry's :attr:`~tvseg.metrics.Metric.undefined` denominator is 0) is NaN, also
    for ``b`` where :func:`tvseg.boundary_similarity` returns 1 (segeval's choice for two segmentations
    without boundaries); the caller warns.
    """
    out: dict[str, Any] = {}
    for metric in UNIT_METRICS:
        if metric.components[0] in c:  # the chunk flags' entries: only under "chunkseg"
            out[metric.key] = metric.formula(c, out)  # type: ignore[misc]  # every entry has a formula
    nan = {w: np.asarray(_UNDEFINED[w].total(c) == 0) for w in _NAN_WARNINGS if _UNDEFINED[w].denominator[0] in c}
    return out, nan


class UnitPart(NamedTuple):
    """The unit scores of one shard of shows, before the corpus is reduced (:func:`reduce_unit_parts`).

    ``per_show`` has a row per show of the shard (NaN where not scored) and a column per metric;
    ``components`` the additive counts of the ``scored`` shows (indices into the shard's shows);
    ``events`` the warnings ``(show index, order, message)`` not given yet (order -1: a show left
    out; order ``i``: metric ``_NAN_WARNINGS[i]`` is 0/0 there first).
    """

    per_show: pd.DataFrame
    components: dict
    scored: np.ndarray
    events: list


def assemble(comps, scored, shows, events) -> UnitPart:
    """The :class:`UnitPart` of the ``scored`` shows' components: their per-show table, and the first 0/0 of
    each metric added to the ``events`` (the warnings :func:`reduce_unit_parts` gives)."""
    values, nan = unit_metrics(comps)
    for order, w in enumerate(_NAN_WARNINGS):
        hit = np.flatnonzero(nan.get(w, False))
        if hit.size:
            events.append((int(scored[hit[0]]), order, f"{w} is 0/0 (NaN)"))
    table = {}
    for key, v in values.items():
        column = np.full(len(shows), np.nan)
        column[scored] = v
        table[key] = column
    return UnitPart(pd.DataFrame(table, index=pd.Index(shows)), comps, scored, events)


def reduce_unit_parts(
    parts: Sequence[UnitPart], firsts: Sequence[int], shows: list[str], *, undefined: bool = True
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The per-show table and the corpus metrics of a corpus from the :class:`UnitPart` of its shards.

    Parameters
    ----------
    parts : list of UnitPart
        The shards' parts, in show order.
    firsts : list of int
        The index of each shard's first show among ``shows``.
    shows : sequence of str
        Every show of the corpus.
    undefined : bool, default True
        Warn about the metrics that are 0/0; False: only about the shows left out (the caller names
        the NaN values, as :func:`tvseg.evaluate` does with :mod:`tvseg.undefined_values`).

    Returns
    -------
    (pandas.DataFrame, dict)
        As :func:`tvseg.unit.corpus.corpus_unit_scores`; the warnings are given here, once for the
        corpus: a metric's 0/0 at the first show where it occurs, then the corpus value's.
    """
    first_nan, events = {}, []
    for part, first in zip(parts, firsts):
        for show, order, message in part.events:
            if order < 0:
                events.append((show + first, order, message))
            elif undefined and order not in first_nan:
                first_nan[order] = (show + first, order, message)
    for _, order, message in sorted(events + list(first_nan.values()), key=lambda e: e[:2]):
        warnings.warn(
            message, LenientInputWarning if order < 0 else UndefinedValueWarning, stacklevel=user_stacklevel()
        )
    if sum(part.scored.size for part in parts) == 0:
        return pd.DataFrame.from_dict({}, orient="index").reindex(shows), {}
    if len(parts) == 1:
        per_show = parts[0].per_show
    else:  # built from a dict of columns as assemble builds it: the same memory layout
        per_show = pd.DataFrame(
            {c: np.concatenate([part.per_show[c].to_numpy() for part in parts]) for c in parts[0].per_show.columns},
            index=pd.Index([name for part in parts for name in part.per_show.index]),
        )
    comps = {key: np.concatenate([part.components[key] for part in parts]) for key in parts[0].components}
    total: dict[str, float] = {key: int(comps[key].sum()) for key in _INT_KEYS if key in comps}
    for key in (key for key in _FLOAT_KEYS if key in comps):  # added show after show
        s = 0.0
        for v in comps[key].tolist():
            s += v
        total[key] = s
    values, nan = unit_metrics({key: np.array([v]) for key, v in total.items()})
    for w in _NAN_WARNINGS if undefined else ():
        if w in nan and nan[w][0]:
            warnings.warn(f"{w} is 0/0 (NaN)", UndefinedValueWarning, stacklevel=user_stacklevel())
    return per_show, {key: float(v[0]) for key, v in values.items()}


def join_unit_parts(parts: Sequence[UnitPart], firsts: Sequence[int]) -> UnitPart:
    """The parts of consecutive shards as one part of the corpus, without its per-show table (empty: the
    result holds it) and with the warnings that name a show left out alone (those of the 0/0 values are
    given for the corpus, :func:`reduce_unit_parts`): what the JSON carries of the unit scores."""
    keys = next((list(part.components) for part in parts if part.components), [])
    return UnitPart(
        pd.DataFrame(),
        {k: np.concatenate([np.asarray(part.components[k]) for part in parts if part.components]) for k in keys},
        np.concatenate([first + np.asarray(part.scored, dtype=np.int64) for part, first in zip(parts, firsts)]),
        [
            (show + first, order, message)
            for part, first in zip(parts, firsts)
            for show, order, message in part.events
            if order < 0
        ],
    )


def unit_rates(components) -> dict:
    """The unit metrics of every row of a components table (rows: shows, or bootstrap resamples' sums),
    :func:`unit_metrics` (NaN for a 0/0, without a warning)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return unit_metrics({k: np.asarray(components[k], dtype=float) for k in components})[0]


def unit_components_table(parts, firsts, n_shows: int) -> pd.DataFrame:
    """The additive unit counts of every show of the corpus (a row per show, zeros for a show not
    scored), from the shards' :class:`UnitPart`: what a bootstrap resample of the shows sums."""
    keys = next((list(part.components) for part in parts if part.components), [])
    table = {k: np.zeros(n_shows) for k in keys}
    for part, first in zip(parts, firsts):
        for k in keys:
            table[k][first + np.asarray(part.scored, dtype=np.int64)] = part.components[k]
    return pd.DataFrame(table)


_CHUNK_ZEROS = (
    ("chunk_precision", "chunk_n_hypothesis", "the hypothesis flags no chunk", "binary_precision"),
    ("chunk_recall", "chunk_n_reference", "the reference flags no chunk", "binary_recall"),
)
_LISTED = 5


def warn_chunk_zeros(name: str, components: pd.DataFrame, scored: np.ndarray, shows: Sequence[str]) -> None:
    """One warning per chunk-flag rate that is 0/0 in some scored show (``components``: the unit counts of
    every show, :func:`unit_components_table`; ``scored``: whether each show is scored), naming the shows:
    there chunkseg's value, 0, is taken, in the show's value and in the means over shows (``chunk_f1``'s too),
    so that they equal chunkseg's. Nothing without the chunk flags' counts (a convention other than
    ``"chunkseg"``)."""
    for key, count, why, theirs in _CHUNK_ZEROS:
        if count not in components:
            continue
        zero = np.flatnonzero(scored & (components[count].to_numpy() == 0))
        if zero.size == 0:
            continue
        named = ", ".join(str(shows[k]) for k in zero[:_LISTED].tolist())
        more = f" and {zero.size - _LISTED} more" if zero.size > _LISTED else ""
        warnings.warn(
            f"{name}: {key} is 0/0 in {zero.size} show{'' if zero.size == 1 else 's'} ({why}: {named}{more}): "
            f"0 there, as chunkseg's {theirs} gives it, in the show's value and in the means over shows",
            UndefinedValueWarning,
            stacklevel=user_stacklevel(),
        )
