"""Several runs of ``tvseg evaluate --json`` over parts of one corpus as the run over all of it (``tvseg
merge``, issue 40).

Each result's JSON carries what its values are made of (:mod:`tvseg.carried`): each system's per-show
components, unit counts, sweep tallies and curve data. :func:`merge` puts the runs' shows in the order one
run over all of them scores them (show ids sorted, as :func:`tvseg.preparation.prepare` sorts them),
each show's data with it, and runs the one reduction (:func:`tvseg.evaluation.reduce_shards`): every
value, the bootstrap intervals and the p-values (the same seed drawing over the same shows) are those
of the run over the whole corpus.

Runs that cannot be one run are refused (:class:`~tvseg.errors.UsageError`, exit 2), naming the files:
other settings (the setting and both values), another tvseg version, the same show in two runs, other
systems, other sweep tolerances or metadata columns, a system with other traits (:data:`tvseg.metrics.TRAITS`:
its segments overlapping in one run only, grounding answers or units in one run only; the system and the
trait named), a system whose titles the whole corpus would score and a run did not (or the reverse), a
system with boundary scores in one run only. A system whose segments overlap (dense-captioning
predictions, without :data:`~tvseg.metrics.DISJOINT`) is merged as the others: its components are those of
the metrics it gets. A result without components (written by an older tvseg) is an
:class:`~tvseg.errors.InputError` naming its file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tvseg.carried import Carried, CarriedSystem, read_carried
from tvseg.errors import InputError, UsageError
from tvseg.evaluation import EvaluationResult, ShowComponents, SystemShard, reduce_shards
from tvseg.metrics import DISJOINT, TITLES
from tvseg.retrieval.confidence import ShardConfidence
from tvseg.retrieval.sweeps import SweepTallies
from tvseg.settings import Settings
from tvseg.unit.reduction import UnitPart, assemble

__all__ = ["merge", "read_result", "carried_of"]


def read_result(path: str | Path) -> dict:
    """A result of ``tvseg evaluate --json`` read from ``path`` (an InputError naming it when it cannot
    be read or is not JSON)."""
    from tvseg.readers.json_values import too_deep

    text = ""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        document = json.loads(text)
    except FileNotFoundError:
        raise InputError("no such file", path=str(path)) from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read the file ({error})", path=str(path)) from None
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg}", path=str(path), line=error.lineno) from None
    except RecursionError:
        raise too_deep(text, path=str(path)) from None
    if not isinstance(document, dict):
        raise InputError("not a result of tvseg evaluate --json (not an object)", path=str(path))
    return document


def carried_of(source: Any, label: str) -> Carried:
    """What ``source`` carries: a path to a result's JSON, its parsed object, or an
    :class:`~tvseg.evaluation.EvaluationResult` (``label`` names it in the messages)."""
    if isinstance(source, EvaluationResult):
        return read_carried(source.to_json(), label)
    if isinstance(source, (str, Path)):
        return read_carried(read_result(source), str(source))
    if isinstance(source, Mapping):
        return read_carried(source, label)
    raise UsageError(
        f"{label}: a result is a path, a parsed JSON object or an EvaluationResult, not {type(source).__name__}"
    )


def merge(*results: Any, labels: Sequence[str] | None = None) -> EvaluationResult:
    """The result of one run of ``tvseg evaluate`` over the shows of every one of ``results``.

    Parameters
    ----------
    *results : str, pathlib.Path, dict or EvaluationResult
        Two results or more (one: itself, rebuilt), each a path to ``tvseg evaluate --json``'s file, its
        parsed object or an :class:`~tvseg.evaluation.EvaluationResult`, of the same settings and systems
        over shows that no two of them share.
    labels : sequence of str, optional
        A name for each result in the messages (its file name, when it is given parsed); default: the path,
        or ``result 1``, ``result 2`` ...

    Returns
    -------
    EvaluationResult
        Its ``to_json()`` equal to that of the run over every show, value for value (its ``reference``
        and ``hypotheses`` empty: the runs carry no segment).

    Raises
    ------
    UsageError
        Results that cannot be one run (module docstring), naming them and what differs.
    InputError
        A result that carries no components, or that cannot be read.
    """
    if not results:
        raise UsageError("merge needs one result or more")
    runs = [carried_of(r, labels[k] if labels else f"result {k + 1}") for k, r in enumerate(results)]
    _check_runs(runs)
    first = runs[0]
    names = [s for run in runs for s in run.shows]
    order = sorted(range(len(names)), key=names.__getitem__)
    shows = [names[k] for k in order]
    seen: dict[str, str] = {}
    for run in runs:
        for show in run.shows:
            if show in seen:
                raise UsageError(f"show {show!r} is in {seen[show]} and in {run.path}: runs to merge share no show")
            seen[show] = run.path
    shard = {
        name: _merged_system([run.systems[name] for run in runs], runs, name, order, shows) for name in first.systems
    }
    metadata = None
    if first.metadata is not None:
        joined = pd.concat([run.metadata for run in runs if run.metadata is not None])
        metadata = joined.iloc[order].set_axis(pd.Index(shows, dtype=object))
    return reduce_shards(
        [shard],
        settings=Settings(**first.settings),
        reference={},
        hypotheses={},
        metadata=metadata,
        sweep_tolerances=first.sweep_tolerances,
        domain=first.domain,
    )


def _check_runs(runs: Sequence[Carried]) -> None:
    """Refuse runs that cannot be one run (:mod:`tvseg.merging`'s docstring)."""
    first = runs[0]
    for run in runs[1:]:
        differ = partial(_differ, first.path, run.path)

        for key in list(first.settings) + [k for k in run.settings if k not in first.settings]:
            a, b = first.settings.get(key, "unset"), run.settings.get(key, "unset")
            if a != b:
                raise differ(f"setting {key!r} is", json.dumps(a), json.dumps(b))
        if first.version != run.version:
            raise differ("the tvseg version is", first.version, run.version)
        if first.domain != run.domain:
            raise differ("the domain is", first.domain, run.domain)
        if not np.array_equal(first.sweep_tolerances, run.sweep_tolerances):
            raise differ("the sweep tolerances are", first.sweep_tolerances.tolist(), run.sweep_tolerances.tolist())
        if list(first.systems) != list(run.systems):
            raise differ("the systems are", ", ".join(first.systems), ", ".join(run.systems))
        columns = [list(c.metadata.columns) if c.metadata is not None else None for c in (first, run)]
        if columns[0] != columns[1]:
            raise differ("the metadata's text columns are", columns[0], columns[1])
        for name in first.systems:
            a, b = first.systems[name], run.systems[name]
            # titles: the check below names the decision the whole corpus would take
            for trait in sorted((a.traits ^ b.traits) - {TITLES}):
                has, lacks = (first, run) if trait in a.traits else (run, first)
                raise UsageError(
                    f"{first.path} and {run.path} cannot be merged: system {name!r} has the trait {trait!r} in "
                    f"{has.path} and lacks it in {lacks.path} (one run scores a system with one set of traits"
                    f"{': its segments overlap in some show of ' + lacks.path if trait == DISJOINT else ''})"
                )
            for what, x, y in (
                ("units", a.units is not None, b.units is not None),
                ("boundary scores", a.confidence is not None, b.confidence is not None),
                ("DET probes", _probes(a), _probes(b)),
                ("components", list(a.components.columns), list(b.components.columns)),
            ):
                if x != y and not (what == "components" and a.titles != b.titles):
                    shown = (f"with {what}", f"without {what}") if isinstance(x, bool) else ("some", "others")
                    raise differ(f"system {name!r} is scored", shown[0] if x else shown[1], shown[0] if y else shown[1])
    for name in first.systems:
        titles = [run.systems[name].titles for run in runs]
        titled = [run.systems[name].titled for run in runs]
        if any(t is None for t in titled):
            wanted = titles[0]
        else:
            wanted = any(t[0] for t in titled) and any(t[1] for t in titled)  # type: ignore[index]
        for run, scored in zip(runs, titles):
            if scored != wanted:
                raise UsageError(
                    f"{run.path} cannot be merged: it scores system {name!r} {'with' if scored else 'without'} "
                    f"titles, and one run over all the shows would score it {'with' if wanted else 'without'} them "
                    "(titles are scored when some reference segment and some hypothesis segment has one)"
                )


def _differ(a_path: str, b_path: str, what: str, a: Any, b: Any) -> UsageError:
    return UsageError(f"{a_path} and {b_path} cannot be merged: {what} {a} in {a_path}, {b} in {b_path}")


def _probes(system: CarriedSystem) -> bool:
    return system.confidence is not None and system.confidence.probes is not None


def _regroup(arrays: Sequence[np.ndarray], counts: Sequence[np.ndarray], order: Sequence[int]) -> np.ndarray:
    """The items of every show (``counts[k][s]`` items of show ``s`` of run ``k``, runs' arrays in show
    order), concatenated, in the order ``order`` of the shows of every run."""
    values = np.concatenate(arrays)
    n = np.concatenate([np.asarray(c, dtype=np.int64) for c in counts])
    start = np.concatenate(([0], np.cumsum(n)[:-1]))[list(order)]
    length = n[list(order)]
    first = np.repeat(start - np.concatenate(([0], np.cumsum(length)[:-1])), length)
    return values[first + np.arange(int(length.sum()), dtype=np.int64)]


def _counts(run: Carried, system: CarriedSystem, column: str, size: int, what: str) -> np.ndarray:
    counts = system.components[column].to_numpy()
    if counts.sum() != size:
        raise InputError(f"its {what} do not add up to the components' {column}", path=run.path)
    return counts


def _merged_system(
    systems: Sequence[CarriedSystem], runs: Sequence[Carried], name: str, order: list[int], shows: list[str]
) -> SystemShard:
    """One system of the runs as one shard of every show, in the order ``order`` (of the runs' shows
    concatenated)."""
    index = pd.Index(shows, dtype=object)
    components = pd.concat([s.components for s in systems]).iloc[order].set_axis(index)
    disjoint = DISJOINT in systems[0].traits
    if disjoint:
        n_ref = [_counts(r, s, "n_reference", len(s.tallies.reference_key), "segments") for r, s in zip(runs, systems)]
        n_hyp = [
            _counts(r, s, "n_hypothesis", len(s.tallies.hypothesis_key), "segments") for r, s in zip(runs, systems)
        ]
    else:  # segments that overlap have no sweep tally (tvseg.evaluation.score_shard)
        n_ref = n_hyp = [np.zeros(len(r.shows), dtype=np.int64) for r in runs]
    t = [s.tallies for s in systems]
    tallies = SweepTallies(
        _regroup([x.reference_key for x in t], n_ref, order),
        _regroup([x.reference_duration for x in t], n_ref, order),
        _regroup([x.hypothesis_key for x in t], n_hyp, order),
        _regroup([x.hypothesis_duration for x in t], n_hyp, order),
        np.sum([x.matched for x in t], axis=0) if len(t) > 1 else t[0].matched,
    )
    firsts = np.cumsum([0] + [len(r.shows) for r in runs[:-1]])
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))  # a show's place among ``shows``, from its place in the runs
    units = None
    if systems[0].units is not None:
        parts = [s.units for s in systems if s.units is not None]
        scored = np.concatenate([position[f + p.scored] for p, f in zip(parts, firsts)])
        rank = np.argsort(scored, kind="stable")
        keys = next((list(p.components) for p in parts if p.components), [])
        comps = {k: np.concatenate([p.components[k] for p in parts if p.components])[rank] for k in keys}
        events = sorted(
            (int(position[f + show]), order_, message)
            for p, f in zip(parts, firsts)
            for show, order_, message in p.events
        )
        per_show = assemble(comps, scored[rank], shows, []).per_show
        units = UnitPart(per_show, comps, scored[rank], events)
    confidence = None
    if systems[0].confidence is not None:
        c = [s.confidence for s in systems if s.confidence is not None]
        n_b = [
            _counts(r, s, "boundary_n_hypothesis", len(x.score), "boundary scores") for r, s, x in zip(runs, systems, c)
        ]
        probes = None
        if all(x.probes is not None for x in c):
            probes = tuple(np.concatenate([x.probes[k] for x in c]) for k in range(3))  # type: ignore[index]
        confidence = ShardConfidence(
            _regroup([x.score for x in c], n_b, order),
            _regroup([x.accepted for x in c], n_b, order),
            sum(x.n_reference for x in c),
            probes,  # type: ignore[arg-type]
        )
    titled = [s.titled for s in systems]
    return SystemShard(
        scores=ShowComponents(shows, components, systems[0].titles),
        tallies=tallies,
        units=units,
        has_output=np.concatenate([s.has_output for s in systems])[order],
        confidence=confidence,
        titled=None if None in titled else (any(x[0] for x in titled), any(x[1] for x in titled)),  # type: ignore[index]
        disjoint=disjoint,
    )
