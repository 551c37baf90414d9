"""An evaluation in shards of shows: streamed in one process, or spread over processes or a Dask cluster,
with the numbers of one process (issues 16, 23, 25).

The shows are cut into shards, consecutive ranges of show ids (``lo <= show < hi``). Each shard is sent
where it is worked on (this process, one shard after the other; a local process, ``jobs``; a Dask worker,
``dask``: :mod:`tvseg.execution`) as one task, :func:`_process`, a plain function of the shard that returns what it finds as data:

1. **open** (:func:`_open`): get the shard's inputs, cut them to its shows and prepare them
   (:func:`tvseg.preparation.prepare`, its warnings kept as :class:`~tvseg.preparation.Notice` data). From
   files (:func:`evaluate_files`: ``tvseg evaluate``) the shard reads its own shows
   (:mod:`tvseg.readers.parts`, no file copied): a folder's files named after them, the bytes of an RTTM or
   CSV file sorted by show that hold them (found by bisection), any other file whole, keeping its shows.
   From mappings in memory (:func:`evaluate_sharded`) it is sent its part. Its facts: its shows, the
   systems' shows in common with the reference, its warnings (of reading, and the notices);
2. **score** (in :func:`_process`): :func:`tvseg.evaluation.score_shard`: each system's per-show components,
   titles included, whether each side has a title, its sweep tallies and the warnings of the scoring
   kernels; without ``segments``, the segments and the
   matching are dropped there (:meth:`tvseg.evaluation.SystemShard.lean`), so that memory holds one shard's
   inputs at a time per process, and the components of the shows (about 1 KB a show and system); for the
   HTML report (:func:`evaluate_files_spilled`), they are first written to a file (:class:`SegmentFile`),
   which the report reads back one shard at a time.

Here, when every shard is back, the corpus's decisions are taken: titles are scored when some reference
segment and some hypothesis segment of the corpus has one (every shard is scored once, with titles: those
of a system that the corpus scores without are dropped in the reduction, as if never scored); a system whose
segments overlap in some show is scored as overlapping predictions (:mod:`tvseg.preparation`) in every shard
(each shard decides on the shows of its part of the inputs; when one decided otherwise than the corpus, every
shard is scored again with the corpus's decision); each system must share a show with the reference. The
shards are reduced by :func:`tvseg.evaluation.reduce_shards`, as :func:`tvseg.evaluate` reduces its one shard,
and the warnings are given once, in one process's order (reading, notices, scoring, reduction): the result's
``to_json()`` is :func:`tvseg.evaluate`'s bit for bit, with its warnings (``tests/test_scale.py``).

A shard's error that a user can fix makes this process run the evaluation again, which raises it as one
process does. An input whose parts do not fit the cut (a folder's file holding a show outside its name's
range, a file not sorted by show, a warning about part of a file) is read whole by each shard in another
round. A reference that is neither a folder (a text corpus's folder too: a document a file) nor an RTTM or CSV
file (a JSON dataset, segeval's dataset of documents) gives no cut: the inputs are read here and each shard is
sent its part. A Dask cluster's workers read the files at the paths given (a shared file system) and need tvseg
installed; Dask is optional (``pip install tvseg[dask]``).
"""

from __future__ import annotations

import bisect
import os
import pickle
import warnings
from collections.abc import Mapping, Sequence
from contextlib import chdir
from dataclasses import dataclass, field, replace
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import Any

import pandas as pd

from tvseg.carried import arrays_of, shard_json
from tvseg.columns import Columns
from tvseg.errors import InputError, UsageError, user_stacklevel
from tvseg.evaluation import EvaluationResult, evaluate, reduce_shards, score_shard
from tvseg.execution import engine
from tvseg.memory import give_back_memory
from tvseg.metrics import COUNT_KEYS, SHOW_OBJECTS
from tvseg.output import encoded_blocks, encoded_rows
from tvseg.preparation import Prepared, extra_shows, give_notices, overlapping_systems, prepare
from tvseg.readers.evaluation_inputs import Files, read_files, recorded, show_ends
from tvseg.readers.parts import (
    Part,
    bounds,
    lines_of,
    pieces,
    reading_parts,
    run_pieces,
    show_spans,
    sorted_runs,
    span_pieces,
)
from tvseg.retrieval.sweeps import TOLERANCES
from tvseg.settings import Settings

__all__ = [
    "Files",
    "read_files",
    "show_ends",
    "evaluate_files",
    "evaluate_files_spilled",
    "evaluate_on",
    "evaluate_sharded",
    "SegmentFile",
    "SegmentsNotWritten",
]


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
        Local processes when above 1; with ``dask="local"``, the cluster's workers (default: the number
        of CPUs). None or 1 without ``dask``: the shards are scored one after the other in this process.
    dask : str or dask.distributed.Client, optional
        ``"local"``: a ``LocalCluster`` of ``jobs`` single-threaded worker processes, closed at the end;
        a scheduler's address (``"tcp://host:8786"``): a ``Client`` of that cluster; or a ``Client``.
        Needs ``pip install tvseg[dask]``.
    chunk_shows : int or sequence of int, optional
        Shows per shard (the last one takes what remains), or each shard's number of shows in order
        (summing to the number of reference shows). Default: one shard per process or Dask worker.
    settings, uem, units, metadata, sweep_tolerances, check_time_base
        As in :func:`tvseg.evaluate`.

    Returns
    -------
    EvaluationResult
        Equal to :func:`tvseg.evaluate`'s on the same inputs (``to_json()`` bit for bit), with the same
        warnings.

    Raises
    ------
    InputError, UsageError
        As :func:`tvseg.evaluate`; a UsageError also for bad ``jobs``, ``dask`` or ``chunk_shows``, or
        when ``dask`` is asked for and not installed.
    """
    _check_count("jobs", jobs)
    inputs: dict[str, Any] = dict(reference=reference, hypotheses=hypotheses, uem=uem, units=units, metadata=metadata)
    options: dict[str, Any] = dict(
        settings=settings, sweep_tolerances=sweep_tolerances, check_time_base=check_time_base
    )
    if not reference or not hypotheses:
        return evaluate(**inputs, **options)
    with engine(jobs, dask) as runner:
        return _sharded(inputs, runner, chunk_shows, runner.workers, options)


def evaluate_on(runner, inputs: Mapping[str, Any], *, segments: bool = True, **options) -> EvaluationResult:
    """:func:`tvseg.evaluate` of ``inputs`` (its keyword arguments: inputs in memory) on an engine already
    started (:func:`tvseg.execution.engine`): in this process with one worker, else in shards of about equal
    numbers of shows, one per worker. Several evaluations of one command (``--level all``, several
    annotators) share the engine, a Dask cluster started once.

    Parameters
    ----------
    runner
        The engine (``runner.workers``: its processes or Dask workers).
    inputs : mapping
        ``reference``, ``hypotheses``, ``uem``, ``units``, ``metadata``, as :func:`tvseg.evaluate` takes them.
    segments : bool, default True
        As in :func:`tvseg.evaluate`.
    **options
        ``settings``, ``check_time_base``, ``sweep_tolerances``, as in :func:`tvseg.evaluate`.

    Returns
    -------
    EvaluationResult
        :func:`tvseg.evaluate`'s (``to_json()`` bit for bit), with its warnings.
    """
    if runner.workers == 1:
        return evaluate(**inputs, segments=segments, **options)
    options = {"sweep_tolerances": TOLERANCES, "check_time_base": True, "settings": None, **options}
    return _sharded(inputs, runner, None, runner.workers, options, segments=segments)


def evaluate_files(
    files: Files,
    *,
    jobs: int | None = None,
    dask=None,
    shards: int | None = None,
    segments: bool = True,
    settings: Settings | None = None,
    sweep_tolerances=TOLERANCES,
    check_time_base: bool = True,
) -> EvaluationResult:
    """:func:`tvseg.evaluate` of ``files``, each shard of shows read, checked and scored where it is
    sent (a local process, a Dask worker, or this process, one shard after the other): the result of
    one process. A text corpus (its documents in sentences) is read and scored in shards as shows are.

    Parameters
    ----------
    files : Files
        What to read (as ``tvseg evaluate`` names it).
    jobs, dask
        As in :func:`evaluate_sharded`.
    shards : int, optional
        How many shards. Default: one per :data:`SHARD_BYTES` of input files (at least one), a multiple
        of the number of processes or Dask workers.
    segments : bool, default True
        Keep each system's segments, matching and match tables (the HTML report draws them). False: each
        shard keeps its components and sweep tallies alone (:meth:`tvseg.evaluation.SystemShard.lean`),
        and the memory holds one shard's inputs at a time per process: every number and the JSON are
        the same.
    settings, sweep_tolerances, check_time_base
        As in :func:`tvseg.evaluate`.

    Returns
    -------
    EvaluationResult
        Equal to :func:`tvseg.evaluate`'s on the same files read by :func:`read_files` (``to_json()`` bit
        for bit), with the same warnings. The inputs are read in the workers and not kept: the result's
        ``reference`` and ``hypotheses`` are empty (unless the files are read here: see the module
        docstring).

    Raises
    ------
    InputError, UsageError
        As :func:`read_files` and :func:`tvseg.evaluate`; a UsageError also for bad ``jobs``, ``dask`` or
        ``shards``, or when ``dask`` is asked for and not installed.
    """
    result, _ = _evaluate_files(
        files,
        jobs=jobs,
        dask=dask,
        shards=shards,
        segments=segments,
        spill=None,
        options=dict(settings=settings, sweep_tolerances=sweep_tolerances, check_time_base=check_time_base),
    )
    return result


def evaluate_files_spilled(
    files: Files,
    folder: str | os.PathLike,
    *,
    jobs: int | None = None,
    dask=None,
    shards: int | None = None,
    settings: Settings | None = None,
    sweep_tolerances=TOLERANCES,
    check_time_base: bool = True,
) -> tuple[EvaluationResult, list[SegmentFile] | None]:
    """:func:`evaluate_files` without segments (``segments=False``), each shard's segments and matching written
    by the process that scored it into a file of ``folder``: what the HTML report draws, read back a shard at
    a time (:class:`tvseg.report.adapter.ShardedPages`), so that no process holds every show's segments.

    Parameters
    ----------
    files : Files
        What to read.
    folder : path
        An existing folder, shared with the processes or Dask workers, for the shards' files (the caller
        removes it).
    jobs, dask, shards, settings, sweep_tolerances, check_time_base
        As in :func:`evaluate_files`.

    Returns
    -------
    result : EvaluationResult
        As :func:`evaluate_files` with ``segments=False``.
    segment_files : list of SegmentFile or None
        Each shard with shows, in show order; None when the evaluation was not made in shards read where they
        were scored (see the module docstring): the result then holds its segments.
    """
    return _evaluate_files(
        files,
        jobs=jobs,
        dask=dask,
        shards=shards,
        segments=False,
        spill=os.path.abspath(folder),
        options=dict(settings=settings, sweep_tolerances=sweep_tolerances, check_time_base=check_time_base),
    )


def _evaluate_files(files: Files, *, jobs, dask, shards, segments: bool, spill: str | None, options: dict):
    """:func:`evaluate_files` (``spill``: :func:`evaluate_files_spilled`'s folder): the result and the
    shards' files of segments (None when none was written)."""
    _check_count("jobs", jobs)
    _check_count("shards", shards)
    uem = files.read_uem()
    reduce = dict(uem=uem, metadata=files.read_metadata, sweep_tolerances=options["sweep_tolerances"], hypotheses={})
    with engine(jobs, dask) as runner:
        whole: set[str] = set()
        # role -> (its cut by ranges of shows, whether exact): a file not sorted by show
        indexed: dict[str, Any] = {}
        n_shards = shards or _shards_for(files, runner.workers)
        overlapping = None  # the corpus's overlapping predictions, when a round found that some shard differs
        # sorted runs, runs of each show, whole: three rounds each; one more for the overlapping predictions
        for round_ in range(3 * len(files.roles()) + 2):
            listing: list = []
            plan = _plan(files, n_shards, uem, listing, whole=whole, indexed=indexed)
            if plan is None:
                break
            tasks = [
                _Task(
                    shows,
                    options,
                    uem,
                    files=files,
                    parts=parts,
                    segments=segments,
                    spill=None if spill is None else os.path.join(spill, f"{round_}-{k}.pickle"),
                    overlapping=overlapping,
                )
                for k, (shows, parts) in enumerate(plan)
            ]
            encoding = _Encoding(runner) if runner.workers > 1 else None
            spilled: list[SegmentFile] = []
            result = _evaluate_shards(
                tasks,
                runner,
                list(files.hypotheses),
                listing,
                kept=lambda names: {},
                per_show_made=encoding,
                spilled=spilled,
                **reduce,
            )
            if isinstance(result, EvaluationResult):
                result = encoding.attach(result) if encoding is not None else result
                return result, (spilled if spill is not None else None)
            if result == _ONE_PROCESS:
                return evaluate(**_read_here(files, uem), **options), None
            if isinstance(result, _Overlapping):
                overlapping = result.systems
                continue
            for role in result:  # a file not sorted by show: each show's runs of lines found; then read whole
                lines = None if indexed.get(role, (None, False))[1] else _cuttable(files, role, uem)
                if lines is None:
                    whole.add(role)
                else:
                    indexed[role] = (partial(span_pieces, show_spans(files.roles()[role], lines), lines), True)
        # read here, each shard sent its part: no shard writes its segments, so the result keeps them for a report
        kept = segments or spill is not None
        return _sharded(_read_here(files, uem), runner, None, n_shards, options, segments=kept), None


class _Encoding:
    """What the JSON writes of each system's per-show rows and of its components' arrays, encoded by the
    runner's workers, a block of shows or a group of arrays each, sent as soon as
    :func:`tvseg.evaluation.reduce_shards` makes them (``per_show_made``), so that they are encoded while
    the bootstrap runs here; :meth:`attach` gives them to the result
    (:attr:`tvseg.evaluation.SystemResult.shows_json` and ``carried_text``)."""

    def __init__(self, runner):
        self.runner, self.pending, self.arrays = runner, {}, {}

    def __call__(self, name: str, frame: pd.DataFrame, carried) -> None:
        step = max(1, -(-len(frame) // (2 * self.runner.workers)))
        self.pending[name] = [
            self.runner.submit(_encoded, frame.iloc[a : a + step]) for a in range(0, len(frame), step)
        ]
        arrays = [array.array for array in arrays_of(shard_json(carried, stream=True))]
        groups: list[list] = [[] for _ in range(2 * self.runner.workers)]
        sizes = [0] * len(groups)
        for array in arrays:  # consecutive arrays in groups of about equal numbers of values
            k = min(len(groups) - 1, sum(sizes) * len(groups) // max(1, sum(len(a) for a in arrays)))
            groups[k].append(array)
            sizes[k] += len(array)
        self.arrays[name] = [self.runner.submit(encoded_blocks, group) for group in groups if group]

    def attach(self, result: EvaluationResult) -> EvaluationResult:
        texts = {name: tuple(self.runner.gather(futures)) for name, futures in self.pending.items()}
        arrays = {name: tuple(t for part in self.runner.gather(f) for t in part) for name, f in self.arrays.items()}
        systems = {
            name: replace(sr, shows_json=texts.get(name), carried_text=arrays.get(name))
            for name, sr in result.systems.items()
        }
        return replace(result, systems=systems)


_encoded = partial(encoded_rows, integer_keys=COUNT_KEYS, nested=SHOW_OBJECTS)


SHARD_BYTES = 32 << 20
"""Bytes of input files per shard when :func:`evaluate_files` chooses the number of shards: about 300 MB
of memory at work on each (measured on the corpus of ``tests/benchmarks/bench_end_to_end.py``, units
included)."""


def _shards_for(files: Files, workers: int) -> int:
    """The number of shards of :func:`evaluate_files`: one per :data:`SHARD_BYTES` of the input files,
    at least one per worker, a multiple of ``workers``."""
    size = 0
    for path in files.roles().values():
        if os.path.isdir(path):  # its number of files times the mean size of 64 of them, spread over the listing
            names = [entry.name for entry in os.scandir(path) if entry.is_file()]
            sample = names[:: max(1, len(names) // 64)]
            size += len(names) * sum(os.path.getsize(os.path.join(path, n)) for n in sample) // max(1, len(sample))
        elif os.path.isfile(path):
            size += os.path.getsize(path)
    blocks = max(1, -(-size // SHARD_BYTES))
    return workers * -(-blocks // workers)


def _read_here(files: Files, uem) -> dict[str, Any]:
    """:func:`read_files` with the UEM read already: every input read in this process."""
    return {**files.sides(files.read(uem)), "uem": uem, "metadata": files.read_metadata()}


# ----------------------------------------------------------------------------------------- the shards


@dataclass(frozen=True)
class _Range:
    """The show ids ``lo <= show < hi`` (None: no bound)."""

    lo: str | None
    hi: str | None

    def __contains__(self, show: object) -> bool:
        return isinstance(show, str) and (self.lo is None or show >= self.lo) and (self.hi is None or show < self.hi)


@dataclass(frozen=True, eq=False)
class _Task:
    """One shard: its range of shows, the options of :func:`tvseg.evaluate`, and its inputs: ``inputs``,
    the part of mappings in memory, and ``uem``'s part; or ``files`` read in ``parts`` (role ->
    :class:`~tvseg.readers.parts.Part`; None: read whole, then cut) with the whole ``uem``, then cut."""

    shows: _Range
    options: Mapping[str, Any]  # settings, sweep_tolerances, check_time_base
    uem: Mapping | None
    inputs: Mapping[str, Any] | None = None
    files: Files | None = None
    parts: Mapping[str, Part | None] = field(default_factory=dict)
    segments: bool = True  # the scores keep their segments (False: SystemShard.lean)
    spill: str | None = None  # a file where the shard's segments are written, the scores kept lean
    folder: str = field(default_factory=os.getcwd)  # where relative paths are read from (a Dask worker's is its own)
    # the systems scored as overlapping predictions, decided on the corpus (None: those whose segments overlap in
    # the shard's part of the inputs, which the parent checks against the corpus's decision)
    overlapping: tuple | None = None


@dataclass(frozen=True, eq=False)
class _Facts:
    """What the parent needs of an opened shard to take the corpus's decisions."""

    shows: list
    settings: Settings | None
    common: dict  # system -> its shows in the shard's range that the reference has
    notices: list  # tvseg.preparation.Notice
    reading: list  # (role index, category, message): the warnings of reading
    misfit: tuple = ()  # the inputs whose parts do not fit the cut (then each shard reads them whole)
    domain: str = "time"  # "units": a text corpus (tvseg.evaluation.evaluate's domain)
    overlaps: tuple = ()  # the systems whose segments overlap in the shard's part of the inputs
    overlapping: tuple = ()  # the systems scored as overlapping predictions (tvseg.preparation.Prepared.overlapping)


def _open(task: _Task) -> tuple[_Facts, Prepared | None] | None:
    """Step 1 of a shard (where it is sent): its facts, and its inputs cut to its shows and prepared (None
    without shows; None alone: an error a user can fix, raised again by one process)."""
    try:
        inputs, reading = (task.inputs, []) if task.files is None else _load_files(task)
        if inputs is None:  # reading: the inputs whose parts do not fit the cut
            return _Facts([], None, {}, [], [], misfit=tuple(reading)), None
        reference, hypotheses, units = inputs["reference"], inputs["hypotheses"], inputs["units"]
        shows = sorted(reference)
        notices = extra_shows("units", shows, units) if units is not None else []
        for name, hypothesis in hypotheses.items():
            notices += extra_shows(name, shows, hypothesis)
        common = {name: sum(show in hypothesis for show in shows) for name, hypothesis in hypotheses.items()}
        domain = getattr(reference, "domain", "time")
        # (every show of the part, those the reference lacks too, as one process decides it on every show)
        overlaps = tuple(overlapping_systems(hypotheses))
        if not shows:
            return _Facts([], None, common, notices, reading, overlaps=overlaps), None
        p = prepare(
            reference,
            {name: _cut(h, shows) for name, h in hypotheses.items()},
            settings=task.options["settings"],
            uem=task.uem if task.files is None else _cut(task.uem, task.shows),
            units=_cut(units, shows),
            check_time_base=task.options["check_time_base"],
            check_systems=False,
            warn=False,
            overlapping=overlaps if task.overlapping is None else task.overlapping,
            domain=domain,
        )
    except (InputError, UsageError):
        return None
    notices += p.notices
    facts = _Facts(
        shows, p.settings, common, notices, reading, domain=domain, overlaps=overlaps, overlapping=p.overlapping
    )
    return facts, p


def _load_files(task: _Task):
    """The shard's inputs read from its parts of the files and the warnings of reading; or None and the
    inputs whose parts do not fit the cut."""
    files, parts = task.files, task.parts
    assert files is not None
    roles = files.roles()
    quoted = [
        role for role, part in parts.items() if part is not None and part.unchecked and part.holds_quote(roles[role])
    ]
    if quoted:  # a CSV file with quotes: a quoted cell may hold a line end, no cut by lines
        return None, quoted
    reading: list = []
    paths = {role: None if (part := parts[role]) is not None and part.empty else path for role, path in roles.items()}
    with reading_parts({path: part for role, path in roles.items() if (part := parts[role]) is not None}):
        read = files.read(task.uem, paths=paths, record=reading)
    misfit = []
    for index, (role, part) in enumerate(parts.items()):
        if part is None:
            read[role] = _cut(read[role], task.shows)
        elif any(show not in task.shows for show in read[role]):
            misfit.append(role)  # a show outside the shard's range: a file named after another show, unsorted lines
        elif part.names is None and any(i == index for i, _, _ in reading):
            misfit.append(role)  # a warning about part of a file (its lines are counted from the part's start)
    return (None, misfit) if misfit else (files.sides(read), reading)


@dataclass(frozen=True, eq=False)
class _Done:
    """A shard opened and scored where it was sent: what comes back. ``systems``: name ->
    :class:`~tvseg.evaluation.SystemShard` (None when the shard has no show)."""

    facts: _Facts
    systems: dict | None = None
    reference: Any = None  # as prepared (annotations cropped to a UEM) when the result keeps it
    given: list = field(default_factory=list)  # the scoring kernels' warnings, (category, message)


@dataclass(frozen=True)
class SegmentFile:
    """One shard's segments and matching, written by the process that scored it
    (:func:`evaluate_files_spilled`): its shows are ``shows`` consecutive shows of the result from index
    ``first``."""

    path: str
    first: int
    shows: int

    def load(self) -> dict[str, tuple[Any, Any]]:
        """System name -> ``(scores, has_output)``: its :class:`tvseg.retrieval.corpus.ShowScores` on the
        shard (show indices local; scored with titles, which the reader drops where the corpus scores none:
        :meth:`~tvseg.retrieval.corpus.ShowScores.without_titles`) and its ``has_output`` (None: every show)."""
        with open(self.path, "rb") as file:
            shows, systems = pickle.load(file)
        if len(shows) != self.shows:
            raise RuntimeError(f"{self.path}: {len(shows)} shows, not the shard's {self.shows}")
        return systems


class SegmentsNotWritten(OSError):
    """A shard's :class:`SegmentFile` could not be written (a full disk): :func:`evaluate_files_spilled`'s
    caller names what it was writing (``tvseg evaluate``: the report)."""


def _write_segments(path: str, shows: list, systems: Mapping[str, Any]) -> None:
    """Write a shard's systems' scores with their segments, and ``has_output``, to ``path`` (a
    :class:`SegmentFile`'s)."""
    data = (list(shows), {name: (shard.scores, shard.has_output) for name, shard in systems.items()})
    try:
        with open(path, "wb") as file:
            pickle.dump(data, file, protocol=pickle.HIGHEST_PROTOCOL)
    except OSError as error:
        raise SegmentsNotWritten(error.errno, error.strerror or str(error), path) from None


def _process(task: _Task) -> _Done | None:
    """A shard's two steps where it is sent (None: an error a user can fix, raised again by one
    process)."""
    with chdir(task.folder):  # relative paths read from the parent's working folder (a Dask worker's is its own)
        opened = _open(task)
    if opened is None:
        return None
    facts, p = opened
    if p is None:
        return _Done(facts)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            # with titles whatever the shard holds: the corpus decides whether they are kept
            titles = dict.fromkeys(p.systems, True)
            systems = score_shard(p, sweep_tolerances=_tolerances(task.options, facts.domain), titles=titles)
    except (InputError, UsageError):
        return None
    given = [(w.category, str(w.message)) for w in caught]
    reference = p.reference if task.files is None and task.uem is not None else None
    if task.spill is not None:
        _write_segments(task.spill, facts.shows, systems)
    if not task.segments or task.spill is not None:
        systems = {name: shard.lean() for name, shard in systems.items()}
        del opened, p
        give_back_memory()
    return _Done(facts, systems, reference, given)


def _tolerances(options: Mapping[str, Any], domain: str):
    """The sweeps' tolerances (seconds: none in the unit domain, as :func:`tvseg.evaluate` has it)."""
    return options["sweep_tolerances"] if domain == "time" else ()


def _cut(mapping, names):
    """The part of ``mapping`` (show id -> value) on ``names`` (a list, or a :class:`_Range`)."""
    if mapping is None:
        return None
    if isinstance(names, _Range):
        names = [name for name in mapping if name in names]
    if isinstance(mapping, Columns) and hasattr(mapping, "select"):
        return mapping.select(names)
    return {name: mapping[name] for name in names if name in mapping}


def _lopsided(parts: list[Part], path: str) -> bool:
    """Whether a part holds more than twice its share of the file (and more than a megabyte): the cut of a
    file not sorted by show (a sorted file's parts follow the shards' shows)."""
    largest = max((part.stop - part.start for part in parts), default=0)
    return len(parts) > 1 and largest > 2 * os.path.getsize(path) / len(parts) + (1 << 20)


def _cuttable(files: Files, role: str, uem, *, quotes: bool = True):
    """How to cut the file of ``role`` by show (:func:`~tvseg.readers.parts.lines_of`; ``quotes``: as
    there), or None: a folder, a file of another format, segments cropped to a UEM as they are read (a
    warning counts the lines of the whole file)."""
    path = files.roles()[role]
    if Path(path).is_dir() or (uem and role != "units"):
        return None
    return lines_of(path, format=files.format_of(role), encoding=files.encoding, units=role == "units", quotes=quotes)


def _cuttable_kind(files: Files) -> bool:
    """Whether the reference is a folder (a text corpus's too: a document a file, named by it) or an RTTM or
    CSV file: the shards can read it (any other reference, such as a JSON dataset of segmentations or segeval's
    dataset of documents, is read whole in this process)."""
    from tvseg.errors import InputError, UsageError
    from tvseg.readers import detect_format

    if Path(files.reference).is_dir():
        return True
    try:
        return detect_format(files.reference, files.format_of("reference")) in ("rttm", "csv")
    except (InputError, UsageError):
        return False


def _plan(files: Files, n_shards: int, uem, record: list, *, whole=frozenset(), indexed=None) -> list | None:
    """Each shard's range of shows and its part of every input (None: read whole, as those of ``whole``;
    for those of ``indexed``, role -> ``(cut, exact)``, the parts ``cut`` gives of the edges between
    ranges: :func:`~tvseg.readers.parts.run_pieces`, or exact, :func:`~tvseg.readers.parts.span_pieces`),
    or None when the reference gives no cheap cut (neither a folder nor an RTTM or CSV file). The warnings
    of listing the folders are appended to ``record`` (as :meth:`Files.read` records them)."""
    from tvseg.readers import list_files

    roles = files.roles()
    if not _cuttable_kind(files):
        return None
    if n_shards == 1:  # one shard reads every file whole: no listing, no cut, no second pass for quotes
        return [(_Range(None, None), dict.fromkeys(roles))]
    listed: dict[str, list[Path]] = {}
    for index, (role, path) in enumerate(roles.items()):
        if Path(path).is_dir():
            with recorded(record, index):
                listed[role] = list_files(path, format=None if role == "units" else files.format_of(role))
    # (the quotes of a CSV file are searched by the shards, in their parts)
    how: dict[str, Any] = dict(format=files.format_of("reference"), encoding=files.encoding, quotes=False)
    reference = None if "reference" in listed else lines_of(files.reference, **how)
    if "reference" in listed:
        stems = sorted(file.stem for file in listed["reference"])
        edges = [stems[len(stems) * k // n_shards] for k in range(1, n_shards)]
    elif reference is not None:
        edges = bounds(files.reference, reference, n_shards)
    else:
        return None
    edges = sorted(set(edges))
    ranges = [_Range(lo, hi) for lo, hi in zip([None, *edges], [*edges, None])]
    cut: dict[str, list] = {}
    for role, path in roles.items():
        lines = None
        if role in listed and role not in whole:
            names: list[list[str]] = [[] for _ in ranges]
            for file in listed[role]:
                names[bisect.bisect_right(edges, file.stem)].append(file.name)
            cut[role] = [Part(names=tuple(chosen)) for chosen in names]
            continue
        if indexed and role in indexed and role not in whole:
            cut[role] = indexed[role][0](edges)
            continue
        if role not in whole and role not in listed:
            lines = reference if role == "reference" and not uem else _cuttable(files, role, uem, quotes=False)
        cut[role] = [None] * len(ranges) if lines is None else pieces(path, lines, edges)
        if lines is not None and indexed is not None and _lopsided(cut[role], path):
            # a file not sorted by show: a part cut by bisection may hold most of it. Its runs sorted by show
            # found from samples of its lines, each cut by bisection; or, in no order, each show's runs of lines
            runs = sorted_runs(path, lines)
            if runs is not None:
                indexed[role] = (partial(run_pieces, path, lines, runs), False)
            else:
                indexed[role] = (partial(span_pieces, show_spans(path, lines), lines), True)
            cut[role] = indexed[role][0](edges)
    return [(shows, {role: cut[role][k] for role in roles}) for k, shows in enumerate(ranges)]


# ----------------------------------------------------------------------------------------- the parent


_ONE_PROCESS = "one process"  # run the evaluation again in this process (it raises the shard's error)


@dataclass(frozen=True)
class _Overlapping:
    """The systems scored as overlapping predictions, decided on the corpus, when some shard decided otherwise
    on its own shows: every shard is scored again with them."""

    systems: tuple


def _evaluate_shards(
    tasks: list[_Task], runner, systems: Sequence[str], reading: list, *, kept, metadata, spilled=None, **reduce
):
    """Open and score every shard, take the corpus's decisions, and reduce the shards: the result, or
    :data:`_ONE_PROCESS`, or the set of inputs whose parts do not fit the cut (then nothing is given).
    ``kept`` (of the shows) and ``metadata`` (of nothing): functions giving what the result keeps;
    ``spilled``: a list to which the :class:`SegmentFile` of each shard with shows is appended, in order
    (the tasks' ``spill``); ``reduce``: what :func:`tvseg.evaluation.reduce_shards` is given besides."""
    done = runner.map(_process, tasks, stop=lambda d: d is None or bool(d.facts.misfit))
    if None in done:
        return _ONE_PROCESS
    misfit = {role for d in done for role in d.facts.misfit}
    if misfit:
        return misfit
    opened = [d for d in done if d.facts.shows]
    # the systems whose segments overlap in some show are scored as overlapping predictions in every shard
    overlapping = tuple(name for name in systems if any(name in d.facts.overlaps for d in done))
    if any(set(d.facts.overlapping) != set(overlapping) for d in opened):
        return _Overlapping(overlapping)
    # no reference show, or a system with no show of the reference
    if not opened or any(not sum(d.facts.common[name] for d in done) for name in systems):
        return _ONE_PROCESS
    # titles when some reference segment and some hypothesis segment of the corpus has one (SystemShard.titled)
    untitled = [n for n in systems if not all(any(d.systems[n].titled[k] for d in opened) for k in (0, 1))]
    # a file read whole by every shard warns in each: once here
    for _, category, message in dict.fromkeys(
        sorted(reading + [r for d in done for r in d.facts.reading], key=itemgetter(0))
    ):
        warnings.warn(message, category, stacklevel=user_stacklevel())
    give_notices([n for d in done for n in d.facts.notices])
    for category, message in dict.fromkeys(w for d in opened for w in d.given):
        warnings.warn(message, category, stacklevel=user_stacklevel())
    if any(d.reference is not None for d in opened):
        reference = {name: a for d in opened for name, a in d.reference.items()}
    else:
        reference = kept([name for d in opened for name in d.facts.shows])
    shards = [{n: s.without_titles() if n in untitled else s for n, s in d.systems.items()} for d in opened]
    settings, domain = opened[0].facts.settings, opened[0].facts.domain
    reduce.update(domain=domain, sweep_tolerances=_tolerances(reduce, domain))
    if spilled is not None:
        first = 0
        for k, d in enumerate(done):
            spill = tasks[k].spill
            if d.facts.shows and spill is not None:
                spilled.append(SegmentFile(spill, first, len(d.facts.shows)))
                first += len(d.facts.shows)
    del done, opened  # reduce_shards takes each system's shards out of ``shards`` as it joins them
    return reduce_shards(shards, settings=settings, reference=reference, metadata=metadata(), **reduce)


def _sharded(
    inputs: Mapping[str, Any], runner, chunk_shows, n_shards: int, options: Mapping[str, Any], *, segments: bool = True
):
    """:func:`evaluate_sharded` of ``inputs`` (its keyword arguments) with ``runner``: ``chunk_shows``, or
    ``n_shards`` shards of about equal numbers of shows (``segments``: as in :func:`tvseg.evaluate`)."""
    reference, hypotheses, uem, units = (inputs[k] for k in ("reference", "hypotheses", "uem", "units"))
    shows = sorted(reference) if reference else []
    if not shows or not hypotheses:
        return evaluate(**inputs, **options, segments=segments)  # (raises the error of one process)
    firsts = _firsts(len(shows), chunk_shows, n_shards)
    edges = [shows[f] for f in firsts[1:]]
    parts = []
    for part in (_Range(lo, hi) for lo, hi in zip([None, *edges], [*edges, None])):
        cut = {"reference": _cut(reference, part), "units": _cut(units, part)}
        cut["hypotheses"] = {name: _cut(h, part) for name, h in hypotheses.items()}
        parts.append((part, cut))
    columnar = uem is None and all(isinstance(m, Columns) for m in (reference, *hypotheses.values()))
    # the reference as tvseg.preparation.prepare keeps it: as given (columns, no UEM), or by show
    kept = (lambda names: reference) if columnar else lambda names: {n: reference[n] for n in names}
    reduce = dict(uem=uem, sweep_tolerances=options["sweep_tolerances"], hypotheses=hypotheses)
    overlapping = None
    for _ in range(2):  # the corpus's overlapping predictions decided by the first round when some shard differs
        tasks = [
            _Task(part, options, _cut(uem, part), inputs=cut, segments=segments, overlapping=overlapping)
            for part, cut in parts
        ]
        encoding = _Encoding(runner) if runner.workers > 1 else None
        result = _evaluate_shards(
            tasks,
            runner,
            list(hypotheses),
            [],
            kept=kept,
            metadata=lambda: inputs["metadata"],
            per_show_made=encoding,
            **reduce,
        )
        if not isinstance(result, _Overlapping):
            break
        overlapping = result.systems
    if isinstance(result, EvaluationResult):
        return encoding.attach(result) if encoding is not None else result
    return evaluate(**inputs, **options, segments=segments)  # raises the shard's error, as one process does


def _check_count(name: str, value) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise UsageError(f"{name} must be a whole number, at least 1, not {value!r}")


def _firsts(n: int, chunk_shows, n_shards: int) -> list[int]:
    """The index of each shard's first show (``chunk_shows``: see :func:`evaluate_sharded`)."""
    if chunk_shows is None:
        k = min(n_shards, n)
        return [n * i // k for i in range(k)]
    if isinstance(chunk_shows, int):
        if chunk_shows < 1:
            raise UsageError(f"chunk_shows must be at least 1, not {chunk_shows}")
        return list(range(0, n, chunk_shows))
    sizes = [int(size) for size in chunk_shows]
    if any(size < 1 for size in sizes) or sum(sizes) != n:
        raise UsageError(f"chunk_shows: sizes of at least 1 that sum to the {n} reference shows, not {sizes}")
    return [sum(sizes[:k]) for k in range(len(sizes))]
