"""An evaluation spread over processes or a Dask cluster, with the numbers of one process (issues 16, 23).

The shows are cut into shards, consecutive ranges of show ids (``lo <= show < hi``), and each shard is
worked on where it is sent, a local process (``jobs``) or a worker of a Dask cluster (``dask``), in two
steps that are plain functions of the shard, which return what they find as data:

1. **open** (:func:`_open`): get the shard's inputs, cut them to its shows and prepare them
   (:func:`tvseg.preparation.prepare`, its warnings kept as :class:`~tvseg.preparation.Notice` data).
   From files (:func:`evaluate_files`, what ``tvseg evaluate --jobs N`` and ``--dask`` run) the shard reads
   its own shows: the files of a folder whose name (the show id) falls in its range, the bytes of an RTTM or
   CSV file that hold its shows (the file sorted by show: the cut found by bisection on the show field),
   any other file whole, keeping its shows. From mappings in memory (:func:`evaluate_sharded`) the shard's
   part is sent. The shard is kept where it was opened; its facts come back: its shows, whether each side
   carries a title, its warnings (those of reading, recorded, and the notices);
2. **score** (:func:`_score`): :func:`tvseg.evaluation.score_shard` with the corpus's decisions, taken here
   from the facts (titles are scored when some reference segment and some hypothesis segment of the
   corpus has one; each system must share a show with the reference): every system's per-show
   components, and the warnings of the scoring kernels.

Here the components are joined in show order and reduced by :func:`tvseg.evaluation.reduce_shards`, the
reduction :func:`tvseg.evaluate` runs on its one shard, and the warnings are given once, in one process's
order: reading, the notices (one warning per kind and side however many shards found it), scoring, the
reduction. So ``result.to_json()`` is :func:`tvseg.evaluate`'s, value for value and bit for bit, with the
same warnings (``tests/test_scale.py``).

When a shard meets an error a user can fix, the evaluation is run again in this process, which raises that
error as one process raises it (or, should it pass, gives the result). An input whose parts do not fit the
cut (a folder's file holding a show outside its name's range, a file not sorted by show, a warning about
part of a file) is read whole by each shard in a second round. A reference that is neither a folder nor an
RTTM or CSV file gives no cut: the inputs are read here and each shard is sent its part.

A shard reads its part of a file or a folder with the readers of one process, told the part by
:func:`tvseg.readers.parts.reading_parts`: no file is copied or linked. A Dask cluster's workers read the files at the paths given (a shared file system) and need tvseg installed; Dask
is optional (``pip install tvseg[dask]``).
"""

from __future__ import annotations

import bisect
import os
import uuid
import warnings
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from tvseg.errors import InputError, UsageError
from tvseg.evaluation import EvaluationResult, evaluate, reduce_shards, score_shard
from tvseg.preparation import Notice, Prepared, extra_shows, give_notices, prepare
from tvseg.readers.parts import Part, reading_parts
from tvseg.retrieval.columnar import is_columnar
from tvseg.retrieval.sweeps import TOLERANCES
from tvseg.retrieval.titles import has_title
from tvseg.settings import Settings

__all__ = ["Files", "read_files", "show_ends", "evaluate_files", "evaluate_sharded"]

_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


@dataclass(frozen=True)
class Files:
    """The files of an evaluation, as ``tvseg evaluate`` names them.

    Attributes
    ----------
    reference : str
        A file or a folder of files.
    hypotheses : dict
        System name -> file or folder.
    units, uem, metadata : str, optional
    format, encoding : str, optional
        As :func:`tvseg.read_segments` takes them (``format`` for the segmentations only).
    """

    reference: str
    hypotheses: Mapping[str, str]
    units: str | None = None
    uem: str | None = None
    metadata: str | None = None
    format: str | None = None
    encoding: str | None = None
    columns: Any = None  # a tvseg.readers.mapped_columns.SideColumns
    time_origin: Any = None  # a tvseg.readers.time_origin.TimeOrigins


def _uem(files: Files):
    """The UEM of ``files``, read and shifted by its time origin."""
    from tvseg.readers import read_uem
    from tvseg.readers.time_origin import shift_uem

    if not files.uem:
        return None
    uem = read_uem(files.uem, encoding=files.encoding)
    return shift_uem(uem, files.time_origin.of("uem"), path=files.uem) if files.time_origin else uem


def read_files(files: Files) -> dict[str, Any]:
    """Read ``files`` in this process, in the order ``tvseg evaluate`` reads them (UEM, reference, each
    system, units, metadata): the keyword arguments ``reference, hypotheses, uem, units, metadata`` of
    :func:`tvseg.evaluate`.

    Raises
    ------
    InputError
        The first file that breaks the policy of ``formats/README.md``.
    """
    return _read_here(files, _uem(files))


def show_ends(reference, uem) -> dict:
    """Where each reference show with segments ends, for the shows the UEM does not bound (the end of a
    chapter list read as a hypothesis)."""
    import numpy as np

    from tvseg.columns import SegmentColumns

    if isinstance(reference, SegmentColumns):  # from the arrays, no Annotation built
        ends = reference.ends()
        counts = np.diff(reference.offsets)
        return {
            show: ends[show]
            for show, count in zip(reference.names, counts.tolist())
            if count and not (uem and uem.get(show))
        }
    return {
        show: annotation.get_timeline().extent().end
        for show, annotation in reference.items()
        if annotation and not (uem and uem.get(show))
    }


def _read(paths: Mapping[str, str | None], files: Files, uem, *, record: list | None = None) -> dict[str, Any]:
    """Read each input of ``paths`` (role -> path; None: nothing to read), the reference first (the ends
    of chapter lists come from it). ``record``: a list to append the warnings of reading to, as
    ``(index of the role, category, message)``, instead of giving them."""
    from tvseg.readers import read_segments, read_units

    out: dict[str, Any] = {}
    ends: dict = {}
    origins = files.time_origin
    reading = lambda side: {
        "columns": files.columns.of(side) if files.columns else None,
        "time_origin": origins.of(side) if origins else None,
    }
    # which= picks the side of a chunkseg JSONL file (ignored by the other formats); a chapter list as a
    # hypothesis ends where the reference's show ends (where the UEM does not say it)
    for index, (role, path) in enumerate(paths.items()):
        with _recorded(record, index):
            if role == "units":
                out[role] = (
                    read_units(path, encoding=files.encoding, **reading("units"))
                    if path is not None
                    else _empty(units=True)
                )
            elif path is None:
                out[role] = _empty(units=False)
            elif role == "reference":
                out[role] = read_segments(
                    path,
                    format=files.format,
                    uem=uem,
                    side="reference",
                    which="reference",
                    encoding=files.encoding,
                    **reading("reference"),
                )
                ends = show_ends(out[role], uem)
            else:
                out[role] = read_segments(
                    path,
                    format=files.format,
                    uem=uem,
                    side=role.partition(" ")[2],
                    which="hypothesis",
                    end=ends,
                    encoding=files.encoding,
                    **reading(role.partition(" ")[2]),
                )
    return out


@contextmanager
def _recorded(record: list | None, index: int):
    """Warnings given inside appended to ``record`` as ``(index, category, message)`` (None: given)."""
    if record is None:
        yield
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    record.extend((index, w.category, str(w.message)) for w in caught)


def _roles(files: Files) -> dict[str, str]:
    """Each input to read (reference, ``hypothesis NAME``, units) -> its path, in the order of reading."""
    roles = {"reference": files.reference, **{f"hypothesis {n}": p for n, p in files.hypotheses.items()}}
    if files.units:
        roles["units"] = files.units
    return roles


def _sides(read: Mapping[str, Any], files: Files):
    """``(reference, {name: hypothesis}, units or None)`` of what :func:`_read` returned."""
    hypotheses = {name: read[f"hypothesis {name}"] for name in files.hypotheses}
    return read["reference"], hypotheses, read.get("units")


def _empty(*, units: bool):
    """A corpus of no show, of the kind the readers return."""
    from tvseg.columns import SegmentColumns, UnitColumns

    return UnitColumns.from_frames({}) if units else SegmentColumns.from_annotations({})


# ------------------------------------------------------------------------------------------- the shards


@dataclass(frozen=True)
class _Range:
    """The show ids ``lo <= show < hi`` (None: no bound)."""

    lo: str | None
    hi: str | None

    def __contains__(self, show: object) -> bool:
        return isinstance(show, str) and (self.lo is None or show >= self.lo) and (self.hi is None or show < self.hi)


@dataclass(frozen=True)
class _Part:
    """What one shard reads of one input: ``"files"`` (the ``names`` of the folder ``path``), ``"bytes"``
    (``header`` and the bytes ``start:stop`` of the file ``path``), ``"whole"`` (``path``, then kept to the
    shard's range) or ``"none"``."""

    mode: str
    path: str = ""
    names: tuple[str, ...] = ()
    header: bytes = b""
    start: int = 0
    stop: int = 0


@dataclass(frozen=True, eq=False)
class _Task:
    """One shard: its range of shows and where its inputs come from (``parts``, role -> :class:`_Part`,
    with ``files``; or ``inputs``, the part of mappings in memory)."""

    shows: _Range
    settings: Settings | None
    check_time_base: bool
    sweep_tolerances: Any
    files: Files | None = None
    parts: Mapping[str, _Part] = field(default_factory=dict)
    uem: Mapping | None = None  # the shard's part (prepared with it)
    inputs: Mapping[str, Any] | None = None
    read_uem: Mapping | None = None  # the whole UEM (files are read with it, as one process reads them)


@dataclass(frozen=True, eq=False)
class _Facts:
    """What the parent needs of an opened shard to take the corpus's decisions."""

    shows: list
    settings: Settings | None
    titled: dict  # system -> (some reference title, some hypothesis title)
    common: dict  # system -> its shows in the shard's range that the reference has
    notices: list  # tvseg.preparation.Notice
    reading: list  # (role index, category, message): the warnings of reading
    misfit: tuple = ()  # the inputs whose parts do not fit the cut (then each shard reads them whole)


@dataclass(frozen=True)
class _Failed:
    """A shard that raised an error a user can fix (raised again by one process)."""

    message: str


@dataclass(frozen=True, eq=False)
class _Opened:
    """A shard after step 1: its facts, and what step 2 scores (kept where it was opened)."""

    facts: _Facts
    prepared: Prepared | None = None
    sweep_tolerances: Any = None
    keep_reference: bool = False


def _open(task: _Task) -> _Opened | _Failed:
    """Step 1 of a shard (where it is sent): its inputs, cut to its shows, prepared."""
    try:
        if task.files is not None:
            loaded = _load_files(task)
            if isinstance(loaded, _Facts):
                return _Opened(loaded)
            reference, hypotheses, units, reading = loaded
        else:
            assert task.inputs is not None
            reference, hypotheses, units = task.inputs["reference"], task.inputs["hypotheses"], task.inputs["units"]
            reading = []
        shows = sorted(reference)
        notices: list[Notice] = []
        for side, mapping in ((("units", units),) if units is not None else ()) + tuple(hypotheses.items()):
            notices += extra_shows(side, shows, mapping)
        common = {name: sum(show in hypothesis for show in shows) for name, hypothesis in hypotheses.items()}
        if not shows:
            return _Opened(_Facts([], None, {}, common, notices, reading))
        p = prepare(
            reference,
            {name: _cut(h, shows) for name, h in hypotheses.items()},
            settings=task.settings,
            uem=task.uem,
            units=_cut(units, shows),
            check_time_base=task.check_time_base,
            check_systems=False,
            warn=False,
        )
    except (InputError, UsageError) as error:
        return _Failed(str(error))
    ref_titled = any(map(has_title, p.reference_segments.label))
    titled = {name: (ref_titled, any(map(has_title, hyp.label))) for name, hyp in p.systems.items()}
    facts = _Facts(shows, p.settings, titled, common, notices + p.notices, reading)
    keep = task.files is None and task.uem is not None and isinstance(p.reference, dict)
    return _Opened(facts, p, sweep_tolerances=task.sweep_tolerances, keep_reference=keep)


def _score(opened: _Opened, titles: Mapping[str, bool]):
    """Step 2 of a shard (where it was opened): every system's components, the reference as prepared when
    the result keeps it (annotations cropped to a UEM), and the warnings of the scoring kernels as
    ``(category, message)``."""
    p = opened.prepared
    assert p is not None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            systems = score_shard(p, sweep_tolerances=opened.sweep_tolerances, titles=titles)
    except (InputError, UsageError) as error:
        return _Failed(str(error))
    given = [(w.category, str(w.message)) for w in caught]
    return systems, (p.reference if opened.keep_reference else None), given


def _cut(mapping, names):
    """The part of ``mapping`` (show id -> value) on ``names`` (a list, or a :class:`_Range`)."""
    if mapping is None:
        return None
    if isinstance(names, _Range):
        names = [name for name in mapping if name in names]
    if is_columnar(mapping) and hasattr(mapping, "select"):
        return mapping.select(names)
    return {name: mapping[name] for name in names if name in mapping}


# ----------------------------------------------------------------------------- reading a shard's files


def _load_files(task: _Task):
    """The shard's inputs read from its parts of the files: ``(reference, hypotheses, units, warnings of
    reading)``, or :class:`_Facts` saying why the files do not fit the cut."""
    files = task.files
    assert files is not None
    reading: list = []
    paths: dict[str, str | None] = {}
    parts: dict[str, Part] = {}
    for role, part in task.parts.items():
        paths[role] = None if part.mode == "none" else part.path
        if part.mode == "files":
            parts[part.path] = Part(names=part.names)
            paths[role] = part.path if part.names else None
        elif part.mode == "bytes":
            parts[part.path] = Part(header=part.header, start=part.start, stop=part.stop)
            paths[role] = part.path if part.start < part.stop else None
    with reading_parts(parts):
        read = _read(paths, files, task.read_uem, record=reading)
    misfit = []
    for index, (role, part) in enumerate(task.parts.items()):
        if part.mode == "whole":
            read[role] = _cut(read[role], task.shows)
        elif any(show not in task.shows for show in read[role]):
            misfit.append(role)  # a show outside the shard's range: a file named after another show, unsorted lines
        elif part.mode == "bytes" and any(i == index for i, _, _ in reading):
            misfit.append(role)  # a warning about part of a file (its lines are counted from the part's start)
    if misfit:
        return _Facts([], None, {}, {}, [], [], misfit=tuple(misfit))
    reference, hypotheses, units = _sides(read, files)
    return reference, hypotheses, units, reading


# ------------------------------------------------------------------------------ cutting the files (parent)


@dataclass(frozen=True)
class _Lines:
    """How to find the show of a line of a file sorted by show: the field ``field`` (``separator``: a
    CSV's comma; None: an RTTM's white space), the lines from byte ``start`` on (after a CSV's ``header``)."""

    field: int
    separator: bytes | None
    start: int
    header: bytes


def _plan(
    files: Files, n_shards: int, uem, record: list, *, whole=frozenset()
) -> tuple[list[_Range], list[dict[str, _Part]]] | None:
    """Each shard's range of shows and its part of every input (those of ``whole`` read whole), or None
    when the reference gives no cheap cut (neither a folder nor an RTTM or CSV file). The warnings of
    listing the folders are appended to ``record`` (as :func:`_read` records them)."""
    from tvseg.readers import list_files

    roles = _roles(files)
    listed: dict[str, list[Path] | None] = {}
    for index, (role, path) in enumerate(roles.items()):
        listed[role] = None
        if Path(path).is_dir():
            with _recorded(record, index):
                listed[role] = list_files(path, format=None if role == "units" else files.format)
    reference = listed["reference"]
    if reference is not None:
        stems = sorted(file.stem for file in reference)
        bounds = [stems[len(stems) * k // n_shards] for k in range(1, n_shards)]
    else:
        lines = _lines_of(files.reference, files, units=False)
        if lines is None:
            return None
        bounds = _bounds_in_file(files.reference, lines, n_shards)
    bounds = sorted(set(bounds))
    edges: list[str | None] = [None, *bounds, None]
    ranges = [_Range(lo, hi) for lo, hi in zip(edges[:-1], edges[1:])]
    parts: list[dict[str, _Part]] = [{} for _ in ranges]
    for role, path in roles.items():
        folder = listed[role]
        if role in whole:
            for k in range(len(ranges)):
                parts[k][role] = _Part("whole", path)
            continue
        if folder is not None:
            names: list[list[str]] = [[] for _ in ranges]
            for file in folder:
                names[bisect.bisect_right(bounds, file.stem)].append(file.name)
            for k, chosen in enumerate(names):
                parts[k][role] = _Part("files", path, names=tuple(chosen))
            continue
        lines = _lines_of(path, files, units=role == "units")
        if lines is None or (uem and role != "units"):  # segments cropped as read: the warning counts the file
            for k in range(len(ranges)):
                parts[k][role] = _Part("whole", path)
            continue
        for k, (start, stop) in enumerate(_pieces(path, lines, bounds)):
            parts[k][role] = _Part("bytes", path, header=lines.header, start=start, stop=stop)
    return ranges, parts


def _lines_of(path: str, files: Files, *, units: bool) -> _Lines | None:
    """How to cut the file ``path`` by show, or None when it is read whole: not an RTTM or CSV file
    (units: a CSV file) in UTF-8 (no encoding declared, no byte order mark), a CSV file with quotes or
    without a ``show`` column."""
    from tvseg.readers import detect_format

    try:
        kind = detect_format(path, None if units else files.format)
    except (InputError, UsageError):
        return None
    if files.encoding is not None or kind not in (("csv",) if units else ("rttm", "csv")):
        return None
    with open(path, "rb") as f:
        head = f.read(4)
        if any(head.startswith(bom) for bom in _BOMS):
            return None
        if kind == "rttm":
            return _Lines(1, None, 0, b"")
        f.seek(0)
        header = f.readline()
        while header and not header.strip():
            header = f.readline()
        start = f.tell()
    try:
        names = [name.strip() for name in header.decode("utf-8").split(",")]
    except UnicodeDecodeError:
        return None
    if b'"' in header or "show" not in names or _has_quote(path):
        return None
    return _Lines(names.index("show"), b",", start, header)


def _has_quote(path: str) -> bool:
    """Whether the file holds a ``"`` (a quoted cell may hold a line end: no cut by lines)."""
    import mmap

    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return False
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return data.find(b'"') >= 0


def _show_of(line: bytes, lines: _Lines) -> str | None:
    """The show of a line (None: a blank or comment line, or one too short to name a show)."""
    cells = line.split(lines.separator) if lines.separator else line.split()
    if len(cells) <= lines.field or not line.strip() or (lines.separator is None and cells[0].startswith(b";;")):
        return None
    return cells[lines.field].strip().decode("utf-8", errors="replace")


def _line_at(f, offset: int, lines: _Lines) -> tuple[int, str | None]:
    """The first line that names a show and starts at ``offset`` or after: its start and its show
    (the file's size and None at its end)."""
    f.seek(max(offset - 1, 0))
    if offset > 0:
        f.readline()  # to the end of the line holding byte offset - 1
    while True:
        where = f.tell()
        line = f.readline()
        if not line:
            return where, None
        show = _show_of(line, lines)
        if show is not None:
            return where, show


def _bounds_in_file(path: str, lines: _Lines, n_shards: int) -> list[str]:
    """Shows at equal steps of the file's bytes: the edges of shards of about equal size."""
    size = os.path.getsize(path)
    bounds = []
    with open(path, "rb") as f:
        for k in range(1, n_shards):
            show = _line_at(f, lines.start + (size - lines.start) * k // n_shards, lines)[1]
            if show is not None:
                bounds.append(show)
    return bounds


def _pieces(path: str, lines: _Lines, bounds: Sequence[str]) -> list[tuple[int, int]]:
    """The bytes of each shard of a file sorted by show: for each edge, the start of the first line
    whose show is not before it (by bisection on the bytes). A piece without a line naming a show is
    empty."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        cuts = [lines.start]
        for bound in bounds:
            lo, hi = cuts[-1], size
            while lo < hi:
                mid = (lo + hi) // 2
                show = _line_at(f, mid, lines)[1]
                if show is None or show >= bound:
                    hi = mid
                else:
                    lo = mid + 1
            cuts.append(_line_at(f, lo, lines)[0])
        cuts.append(size)
        return [(a, b) if _line_at(f, a, lines)[0] < b else (a, a) for a, b in zip(cuts[:-1], cuts[1:])]


# ------------------------------------------------------------------------------------ where shards run


class _Here:
    """The shards one after the other in this process."""

    workers = 1

    def open(self, tasks):
        self._opened = [_open(task) for task in tasks]
        return [_facts_of(o) for o in self._opened]

    def score(self, shards, titles):
        return [_score(self._opened[k], titles) for k in shards]


_KEPT: dict = {}
"""The shards opened in a worker process of :class:`_Pinned`, until scored."""


def _open_kept(key, task):
    opened = _open(task)
    if isinstance(opened, _Opened):
        _KEPT[key] = opened
    return _facts_of(opened)


def _score_kept(key, titles):
    return _score(_KEPT.pop(key), titles)


def _facts_of(opened):
    return opened if isinstance(opened, _Failed) else opened.facts


class _Pinned:
    """``jobs`` local processes, shard ``k`` opened and scored in process ``k % jobs`` (one executor
    of one process each), which keeps it between the two steps."""

    def __init__(self, jobs: int, stack: ExitStack):
        self.workers = jobs
        self.pools = [stack.enter_context(ProcessPoolExecutor(max_workers=1)) for _ in range(jobs)]
        self.run = uuid.uuid4().hex

    def open(self, tasks):
        done = [self.pools[k % self.workers].submit(_open_kept, (self.run, k), t) for k, t in enumerate(tasks)]
        return [future.result() for future in done]

    def score(self, shards, titles):
        done = [self.pools[k % self.workers].submit(_score_kept, (self.run, k), titles) for k in shards]
        return [future.result() for future in done]


class _Dask:
    """The shards as Dask tasks: step 2 runs where step 1 left the shard."""

    def __init__(self, client, jobs: int | None):
        self.client = client
        self.workers = jobs or max(1, len(client.scheduler_info().get("workers", {})))

    def open(self, tasks):
        self.opened = self.client.map(_open, tasks, pure=False)
        return self.client.gather(self.client.map(_facts_of, self.opened, pure=False))

    def score(self, shards, titles):
        chosen = [self.opened[k] for k in shards]
        return self.client.gather(self.client.map(_score, chosen, titles=titles, pure=False))


@contextmanager
def _runner(jobs, dask):
    """Where the shards run (see :func:`evaluate_sharded`)."""
    with ExitStack() as stack:
        if dask is not None:
            yield _Dask(stack.enter_context(_dask_client(dask, jobs)), jobs)
        elif jobs is not None and jobs > 1:
            yield _Pinned(jobs, stack)
        else:
            yield _Here()


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
        import dask as dask_config

        # Dask starts its workers with MALLOC_TRIM_THRESHOLD_ set, which also fixes glibc's mmap threshold:
        # every large array is then mapped and unmapped, and scoring takes three times as long
        unset = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
        with (
            dask_config.config.set(unset),
            distributed.LocalCluster(
                n_workers=jobs or os.cpu_count() or 1, processes=True, threads_per_worker=1, dashboard_address=None
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            yield client
    else:
        with distributed.Client(dask) as client:
            yield client


# ----------------------------------------------------------------------------------------- the parent


_ONE_PROCESS = "one process"  # run the evaluation again in this process (it raises the shard's error)


def _evaluate_shards(
    tasks: list[_Task],
    runner,
    *,
    systems: Sequence[str],
    uem,
    metadata,
    sweep_tolerances,
    reading: list,
    kept: Any,
    hypotheses: Mapping,
):
    """Open every shard, take the corpus's decisions, score the shards and reduce them: the result, or
    :data:`_ONE_PROCESS`, or the set of inputs whose parts do not fit the cut (then nothing is given)."""
    facts = runner.open(tasks)
    misfit = {role for f in facts if not isinstance(f, _Failed) for role in f.misfit}
    if misfit:
        return misfit
    if any(isinstance(f, _Failed) for f in facts):
        return _ONE_PROCESS
    shards = [k for k, f in enumerate(facts) if f.shows]
    if not shards:
        return _ONE_PROCESS  # the reference has no show
    if any(not sum(f.common[name] for f in facts) for name in systems):
        return _ONE_PROCESS  # a system with no show of the reference
    opened = [facts[k] for k in shards]
    titles = {
        name: any(f.titled[name][0] for f in opened) and any(f.titled[name][1] for f in opened) for name in systems
    }
    scored = runner.score(shards, titles)
    if any(isinstance(s, _Failed) for s in scored):
        return _ONE_PROCESS
    # a file read whole by every shard warns in each: once here
    for _, category, message in dict.fromkeys(sorted(reading + [r for f in facts for r in f.reading], key=_role)):
        warnings.warn(message, category, stacklevel=3)
    give_notices([n for f in facts for n in f.notices], stacklevel=3)
    for category, message in dict.fromkeys(w for _, _, found in scored for w in found):
        warnings.warn(message, category, stacklevel=3)
    references = [reference for _, reference, _ in scored]
    if any(reference is not None for reference in references):
        kept = {name: a for reference in references for name, a in reference.items()}
    elif callable(kept):
        kept = kept([name for f in opened for name in f.shows])
    return reduce_shards(
        [systems_of for systems_of, _, _ in scored],
        settings=opened[0].settings,
        reference=kept,
        hypotheses=hypotheses,
        metadata=metadata() if callable(metadata) else metadata,
        uem=uem,
        sweep_tolerances=sweep_tolerances,
    )


def _role(record) -> int:
    return record[0]


def evaluate_files(
    files: Files,
    *,
    jobs: int | None = None,
    dask=None,
    shards: int | None = None,
    settings: Settings | None = None,
    sweep_tolerances=TOLERANCES,
    check_time_base: bool = True,
) -> EvaluationResult:
    """:func:`tvseg.evaluate` of ``files``, each shard of shows read, checked and scored by a process of
    its own: the result of one process.

    Parameters
    ----------
    files : Files
        What to read (as ``tvseg evaluate`` names it).
    jobs, dask
        As in :func:`evaluate_sharded`.
    shards : int, optional
        How many shards (default: one per process or Dask worker).
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
    from tvseg.readers import read_metadata

    _check_jobs(jobs)
    if shards is not None and (not isinstance(shards, int) or shards < 1):
        raise UsageError(f"shards must be a whole number, at least 1, not {shards!r}")
    options: dict[str, Any] = dict(
        settings=settings, sweep_tolerances=sweep_tolerances, check_time_base=check_time_base
    )
    uem = _uem(files)
    with _runner(jobs, dask) as runner:
        whole: set[str] = set()
        for _ in range(len(_roles(files)) + 1):  # an input read whole fits any cut: a round at most each
            listing: list = []
            plan = _plan(files, shards or runner.workers, uem, listing, whole=whole)
            if plan is None:
                break
            tasks = [
                _Task(
                    shows,
                    settings,
                    check_time_base,
                    sweep_tolerances,
                    files=files,
                    parts=parts,
                    uem=_cut(uem, shows),
                    read_uem=uem,
                )
                for shows, parts in zip(*plan)
            ]
            result = _evaluate_shards(
                tasks,
                runner,
                systems=list(files.hypotheses),
                uem=uem,
                metadata=lambda: read_metadata(files.metadata, encoding=files.encoding) if files.metadata else None,
                sweep_tolerances=sweep_tolerances,
                reading=listing,
                kept={},
                hypotheses={},
            )
            if isinstance(result, EvaluationResult):
                return result
            if result == _ONE_PROCESS:
                return evaluate(**_read_here(files, uem), **options)
            whole |= result  # each shard reads these inputs whole and keeps its shows
        inputs = _read_here(files, uem)
        return _sharded(inputs, runner, chunk_shows=shards and _even(len(inputs["reference"]), shards), **options)


def _read_here(files: Files, uem) -> dict[str, Any]:
    """:func:`read_files` with the UEM read already."""
    from tvseg.readers import read_metadata

    reference, hypotheses, units = _sides(_read(_roles(files), files, uem), files)
    metadata = read_metadata(files.metadata, encoding=files.encoding) if files.metadata else None
    return {"reference": reference, "hypotheses": hypotheses, "uem": uem, "units": units, "metadata": metadata}


def _even(n: int, shards: int) -> list[int] | None:
    """``shards`` sizes of about equal numbers of shows summing to ``n``."""
    if n < 1:
        return None
    k = min(shards, n)
    return [n * (i + 1) // k - n * i // k for i in range(k)]


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
    _check_jobs(jobs)
    inputs: dict[str, Any] = dict(reference=reference, hypotheses=hypotheses, uem=uem, units=units, metadata=metadata)
    options: dict[str, Any] = dict(
        settings=settings, sweep_tolerances=sweep_tolerances, check_time_base=check_time_base
    )
    if not reference or not hypotheses:
        return evaluate(**inputs, **options)
    with _runner(jobs, dask) as runner:
        return _sharded(inputs, runner, chunk_shows=chunk_shows, **options)


def _sharded(inputs: Mapping[str, Any], runner, *, chunk_shows, settings, sweep_tolerances, check_time_base):
    """:func:`evaluate_sharded` of ``inputs`` (its keyword arguments) with ``runner``."""
    reference, hypotheses, uem, units = (inputs[k] for k in ("reference", "hypotheses", "uem", "units"))
    options: dict[str, Any] = dict(
        settings=settings, sweep_tolerances=sweep_tolerances, check_time_base=check_time_base
    )
    shows = sorted(reference) if reference else []
    if not shows or not hypotheses:
        return evaluate(**inputs, **options)
    sizes = _sizes(len(shows), chunk_shows, runner.workers)
    firsts = [sum(sizes[:k]) for k in range(len(sizes))]
    edges: list[str | None] = [None, *(shows[f] for f in firsts[1:]), None]
    tasks = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        part = _Range(lo, hi)
        tasks.append(
            _Task(
                part,
                settings,
                check_time_base,
                sweep_tolerances,
                uem=_cut(uem, part),
                inputs={
                    "reference": _cut(reference, part),
                    "hypotheses": {name: _cut(h, part) for name, h in hypotheses.items()},
                    "units": _cut(units, part),
                },
            )
        )
    result = _evaluate_shards(
        tasks,
        runner,
        systems=list(hypotheses),
        uem=uem,
        metadata=inputs["metadata"],
        sweep_tolerances=sweep_tolerances,
        reading=[],
        kept=reference if _columnar(reference, hypotheses, uem) else lambda names: {n: reference[n] for n in names},
        hypotheses=hypotheses,
    )
    if isinstance(result, EvaluationResult):
        return result
    return evaluate(**inputs, **options)  # raises the shard's error, as one process does


def _columnar(reference, hypotheses, uem) -> bool:
    """Whether :func:`tvseg.preparation.prepare` keeps the reference as given (columns, no UEM)."""
    return uem is None and is_columnar(reference) and all(is_columnar(h) for h in hypotheses.values())


def _check_jobs(jobs) -> None:
    if jobs is not None and (not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1):
        raise UsageError(f"jobs must be a whole number of processes, at least 1, not {jobs!r}")


def _sizes(n: int, chunk_shows, workers: int) -> list[int]:
    """Each shard's number of shows."""
    if chunk_shows is None:
        chunk_shows = max(1, -(-n // workers))
    if isinstance(chunk_shows, int):
        if chunk_shows < 1:
            raise UsageError(f"chunk_shows must be at least 1, not {chunk_shows}")
        return [min(chunk_shows, n - k) for k in range(0, n, chunk_shows)]
    sizes = [int(size) for size in chunk_shows]
    if any(size < 1 for size in sizes) or sum(sizes) != n:
        raise UsageError(f"chunk_shows: sizes of at least 1 that sum to the {n} reference shows, not {sizes}")
    return sizes
