"""An evaluation spread over processes or a Dask cluster, with the numbers of one process (issue 16).

:func:`evaluate_sharded` cuts the sorted shows into consecutive shards. Each shard is prepared and
scored where it is sent (:func:`tvseg.preparation.prepare`, :func:`tvseg.evaluation.score_shard`): a
local process (``jobs``), a worker of a Dask cluster (``dask``), or this process. The shards come back
in show order and :func:`tvseg.evaluation.reduce_shards`, the reduction :func:`tvseg.evaluate` runs on
its one shard, joins them and computes everything pooled: so ``result.to_json()`` is
:func:`tvseg.evaluate`'s, value for value and bit for bit (``tests/test_scale.py``).

Scoring a show reads that show alone, except for three decisions taken for the whole corpus, which
are taken here for the whole corpus too:

- **warnings**: a shard's warnings are recorded where it runs and given here; those that count shows
  of the whole corpus (captions, cropping) come back as facts and are given once
  (:func:`tvseg.preparation.give_notes`), as are the unit metrics' 0/0 and every pooled value's;
- **titles** are scored when some reference segment and some hypothesis segment of the corpus has
  a title: a shard that decided otherwise on its own shows is scored again with the corpus's decision;
- **errors**: the first error of one process is raised. When a shard fails, the whole corpus is
  prepared here (its checks, without scoring) and its error raised; when that passes, the failing
  shard (the first in show order) is scored again here and raises.

Shards are sent with their inputs: pristine :class:`tvseg.columns.SegmentColumns` and
:class:`tvseg.columns.UnitColumns` (what :func:`tvseg.read_segments` and :func:`tvseg.read_units`
return) are cut by :meth:`~tvseg.columns.SegmentColumns.select` without a per-show object; other
mappings are cut show by show. Dask is optional (``pip install tvseg[dask]``); a remote cluster's
workers need tvseg installed.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pandas as pd

from tvseg.errors import InputError, UsageError
from tvseg.evaluation import EvaluationResult, evaluate, reduce_shards, score_shard
from tvseg.preparation import check_systems, give_notes, prepare, warn_extra_shows
from tvseg.retrieval.columnar import is_columnar
from tvseg.retrieval.sweeps import TOLERANCES
from tvseg.retrieval.titles import has_title
from tvseg.settings import Settings

__all__ = ["evaluate_sharded"]

CHUNKS_PER_WORKER = 4
"""Default number of shards per worker: enough to even out shows of unequal cost."""


@dataclass(frozen=True)
class _Failed:
    """A shard that raised an error a user can fix (the error itself is raised again here)."""

    message: str


@dataclass(frozen=True, eq=False)
class _Shard:
    settings: Settings
    systems: dict  # name -> tvseg.evaluation.SystemShard
    flags: dict  # name -> (some reference title, some hypothesis title) on the shard
    columnar: bool  # prepared from columns (the result keeps the reference given)
    reference: dict | None  # the reference as prepared, when cropped to a UEM
    notes: list
    warnings: list  # (category, message), in the order given


def evaluate_sharded(
    reference: Mapping,
    hypotheses: Mapping[str, Mapping],
    *,
    jobs: int | None = None,
    dask=None,
    chunk_shows: int | Sequence[int] | None = None,
    settings: Settings | None = None,
    uem: Mapping | None = None,
    units: Mapping | None = None,
    metadata: pd.DataFrame | None = None,
    sweep_tolerances=TOLERANCES,
    check_time_base: bool = True,
) -> EvaluationResult:
    """:func:`tvseg.evaluate`, its shows scored in shards by several processes: the same result.

    Parameters
    ----------
    reference, hypotheses
        As in :func:`tvseg.evaluate`.
    jobs : int, optional
        Local processes (:class:`concurrent.futures.ProcessPoolExecutor`) when above 1; with
        ``dask="local"``, the cluster's workers (default: the number of CPUs). None or 1 without
        ``dask``: the shards are scored one after the other in this process.
    dask : str or dask.distributed.Client, optional
        ``"local"``: a ``LocalCluster`` of ``jobs`` single-threaded worker processes, closed at the end;
        a scheduler's address (``"tcp://host:8786"``): a ``Client`` of that cluster; or a ``Client``.
        Needs ``pip install tvseg[dask]``.
    chunk_shows : int or sequence of int, optional
        Shows per shard (the last one takes what remains), or each shard's number of shows in order
        (summing to the number of reference shows). Default: :data:`CHUNKS_PER_WORKER` shards per worker.
    settings, uem, units, metadata, sweep_tolerances, check_time_base
        As in :func:`tvseg.evaluate`.

    Returns
    -------
    EvaluationResult
        Equal to :func:`tvseg.evaluate`'s on the same inputs (``to_json()`` bit for bit), with the same
        warnings (given in another order).

    Raises
    ------
    InputError, UsageError
        As :func:`tvseg.evaluate`; a UsageError also for bad ``jobs``, ``dask`` or ``chunk_shows``, or
        when ``dask`` is asked for and not installed.
    """
    kwargs: dict[str, Any] = dict(settings=settings, uem=uem, units=units, check_time_base=check_time_base)
    if jobs is not None and (not isinstance(jobs, int) or jobs < 1):
        raise UsageError(f"jobs must be a whole number of processes, at least 1, not {jobs!r}")
    shows = sorted(reference) if reference else []
    if not shows or not hypotheses:
        return evaluate(reference, hypotheses, metadata=metadata, sweep_tolerances=sweep_tolerances, **kwargs)
    try:
        check_systems(shows, hypotheses)
    except InputError:
        _prepare_quietly(reference, hypotheses, kwargs)
        raise
    workers = (jobs or os.cpu_count() or 1) if dask is not None else (jobs or 1)
    sizes = _sizes(len(shows), chunk_shows, workers)
    tasks, first = [], 0
    for size in sizes:
        names = shows[first : first + size]
        first += size
        tasks.append(
            dict(
                reference=_cut(reference, names),
                hypotheses={n: _cut(h, names) for n, h in hypotheses.items()},
                uem=_cut(uem, names),
                units=_cut(units, names),
                settings=settings,
                check_time_base=check_time_base,
                sweep_tolerances=sweep_tolerances,
                titles=None,
            )
        )
    with _runner(jobs, dask) as run:
        shards = run(tasks)
        failed = [k for k, shard in enumerate(shards) if isinstance(shard, _Failed)]
        if failed:
            _prepare_quietly(reference, hypotheses, kwargs)
            _score_chunk(tasks[failed[0]], quiet=False)  # raises the shard's error here
            raise UsageError(shards[failed[0]].message)  # pragma: no cover - the shard passed here
        titles = {
            name: any(s.flags[name][0] for s in shards) and any(s.flags[name][1] for s in shards) for name in hypotheses
        }
        again = [
            k for k, s in enumerate(shards) if any(s.systems[name].scores.titles != titles[name] for name in hypotheses)
        ]
        if again:
            redone = run([{**tasks[k], "titles": titles} for k in again])
            for k, shard in zip(again, redone):
                shards[k] = shard
    if units is not None:
        warn_extra_shows("units", shows, units)
    for name, hypothesis in hypotheses.items():
        warn_extra_shows(name, shows, hypothesis)
    for shard in shards:
        for category, message in shard.warnings:
            warnings.warn(message, category, stacklevel=2)
    give_notes([note for shard in shards for note in shard.notes])
    if shards[0].columnar:
        kept = reference
    elif shards[0].reference is None:
        kept = {name: reference[name] for name in shows}
    else:
        kept = {name: a for shard in shards for name, a in shard.reference.items()}
    return reduce_shards(
        [shard.systems for shard in shards],
        settings=shards[0].settings,
        reference=kept,
        hypotheses=hypotheses,
        metadata=metadata,
        uem=uem,
        sweep_tolerances=sweep_tolerances,
    )


def _prepare_quietly(reference, hypotheses, kwargs) -> None:
    """Prepare the whole corpus here, warnings silenced: raises the error one process raises first."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prepare(reference, hypotheses, **kwargs)


def _sizes(n: int, chunk_shows, workers: int) -> list[int]:
    """Each shard's number of shows."""
    if chunk_shows is None:
        chunk_shows = max(1, -(-n // (CHUNKS_PER_WORKER * workers)))
    if isinstance(chunk_shows, int):
        if chunk_shows < 1:
            raise UsageError(f"chunk_shows must be at least 1, not {chunk_shows}")
        return [min(chunk_shows, n - k) for k in range(0, n, chunk_shows)]
    sizes = [int(size) for size in chunk_shows]
    if any(size < 1 for size in sizes) or sum(sizes) != n:
        raise UsageError(f"chunk_shows: sizes of at least 1 that sum to the {n} reference shows, not {sizes}")
    return sizes


def _cut(mapping, names):
    """The part of ``mapping`` (show id -> value) on ``names``."""
    if mapping is None:
        return None
    if is_columnar(mapping) and hasattr(mapping, "select"):
        return mapping.select(names)
    return {name: mapping[name] for name in names if name in mapping}


def _score_chunk(task: dict, quiet: bool = True):
    """Prepare and score one shard (where it is sent): a :class:`_Shard`, or :class:`_Failed` when
    it raises an error a user can fix (``quiet=False``: raise it)."""
    notes: list = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            p = prepare(
                task["reference"],
                task["hypotheses"],
                settings=task["settings"],
                uem=task["uem"],
                units=task["units"],
                check_time_base=task["check_time_base"],
                notes=notes,
            )
            systems = score_shard(p, sweep_tolerances=task["sweep_tolerances"], titles=task["titles"])
        except (InputError, UsageError) as error:
            if not quiet:
                raise
            return _Failed(str(error))
    ref_titled = any(map(has_title, p.reference_segments.label))
    flags = {name: (ref_titled, any(map(has_title, hyp.label))) for name, hyp in p.systems.items()}
    columnar = not isinstance(p.reference, dict)
    kept = p.reference if isinstance(p.reference, dict) and task["uem"] is not None else None
    return _Shard(
        settings=p.settings,
        systems=systems,
        flags=flags,
        columnar=columnar,
        reference=kept,
        notes=notes,
        warnings=[(w.category, str(w.message)) for w in caught],
    )


@contextmanager
def _runner(jobs, dask):
    """A function that scores a list of shards (in order) where they are to run."""
    if dask is not None:
        with _dask_client(dask, jobs) as client:
            yield lambda tasks: client.gather(client.map(_score_chunk, client.scatter(tasks), pure=False))
    elif jobs is not None and jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            yield lambda tasks: list(pool.map(_score_chunk, tasks))
    else:
        yield lambda tasks: [_score_chunk(task) for task in tasks]


@contextmanager
def _dask_client(dask, jobs):
    """A Dask client for ``dask`` (see :func:`evaluate_sharded`), closed at the end when made here."""
    if hasattr(dask, "submit"):
        yield dask
        return
    try:
        from dask import distributed
    except ImportError:
        raise UsageError("dask=... needs dask.distributed: pip install tvseg[dask]") from None
    if not isinstance(dask, str):
        raise UsageError(f"dask must be 'local', a scheduler's address or a Client, not {dask!r}")
    if dask == "local":
        with (
            distributed.LocalCluster(
                n_workers=jobs or os.cpu_count() or 1, processes=True, threads_per_worker=1, dashboard_address=None
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            yield client
    else:
        with distributed.Client(dask) as client:
            yield client
