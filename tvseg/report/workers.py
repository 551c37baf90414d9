"""The show pages of a report written by a pool of processes, a chunk of shows per task.

:func:`run` calls ``write_show(k)`` for every show ``k``: in this process when ``jobs`` is 1, when
the report is small (fewer than :data:`PARALLEL_MIN_SHOWS` shows, where starting processes costs
more than it saves) or where the system cannot fork; otherwise in ``jobs`` processes forked from
this one, so that they share the evaluation result and the templates already loaded, with nothing
pickled but the numbers of the first and last show of a chunk. Meanwhile this process writes the
corpus page (``meanwhile``). What a page holds depends only on its show, so the bytes written do
not depend on ``jobs`` nor on the order in which the chunks finish.

An error in a process (a full disk) is raised here as it was raised there, after the other
processes have stopped: the caller (:func:`tvseg.report.paths.replace_directory`) then removes the
half-written folder. A process of the pool whose parent dies (killed) dies with it: on Linux the
kernel kills it (``PR_SET_PDEATHSIG``), elsewhere it stops before its next page. A SIGINT or a
SIGTERM stops the parent, which waits for the pages under way and removes the half-written folder.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait

from tvseg.errors import UsageError
from tvseg.progress import Bar
from tvseg.progress import enabled as bars_enabled

__all__ = ["run", "default_jobs", "checked_jobs", "can_fork", "chunks", "PARALLEL_MIN_SHOWS", "PROGRESS_MIN_SHOWS"]

PARALLEL_MIN_SHOWS = 64
PROGRESS_MIN_SHOWS = 36
CHUNK_MAX = 50
_PR_SET_PDEATHSIG = 1

# (write_show, parent pid, other tasks) of the run under way: set before the pool forks, so its processes
# inherit it.
_TASK: tuple[Callable[[int], object], int, tuple[Callable[[], object], ...]] | None = None


def default_jobs() -> int:
    """The number of processes when none is asked for: the machine's cores (:func:`os.cpu_count`)."""
    return os.cpu_count() or 1


def checked_jobs(jobs: int | None) -> int:
    """``jobs``, or :func:`default_jobs` for None; a :class:`~tvseg.errors.UsageError` unless a whole number >= 1."""
    jobs = default_jobs() if jobs is None else jobs
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise UsageError(f"jobs must be a whole number of processes, at least 1, not {jobs!r}")
    return jobs


def can_fork() -> bool:
    """True where processes can be started by ``fork`` (Linux, macOS; not Windows)."""
    return "fork" in multiprocessing.get_all_start_methods()


def chunks(n: int, jobs: int) -> list[tuple[int, int]]:
    """``(start, stop)`` ranges covering ``range(n)``: about 8 per process, at most :data:`CHUNK_MAX` shows each."""
    size = max(1, min(CHUNK_MAX, n // (8 * jobs)))
    return [(a, min(a + size, n)) for a in range(0, n, size)]


def progress_enabled(progress: bool | None, n_shows: int) -> bool:
    """``progress`` if given, else True when there are more than a few dozen shows and bars are drawn
    (:func:`tvseg.progress.enabled`: stderr is a terminal, or ``--progress``)."""
    if progress is not None:
        return bool(progress)
    return bars_enabled(n_shows, PROGRESS_MIN_SHOWS + 1)


def _die_with_parent(parent: int) -> None:
    """Pool initializer: be killed when ``parent`` dies (Linux), or exit now if it already has.

    SIGINT is left to the parent (a Ctrl-C reaches the whole process group: the parent stops the
    pool and removes the half-written folder), and SIGTERM ends a process of the pool at once (the
    parent's handler, inherited by the fork, would raise in the middle of a page).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)


def _chunk(start: int, stop: int) -> int:
    assert _TASK is not None  # set by run() before the pool forks
    write_show, parent, _ = _TASK
    for k in range(start, stop):
        if os.getppid() != parent:  # orphaned: the writer was killed; write nothing more
            os._exit(1)
        write_show(k)
    return stop - start


def _other(i: int) -> int:
    assert _TASK is not None
    _TASK[2][i]()
    return 0


def run(
    write_show,
    n: int,
    *,
    jobs: int | None = None,
    meanwhile=None,
    progress: bool | None = None,
    others: Sequence[Callable[[], object]] = (),
) -> None:
    """Call ``write_show(k)`` for ``k`` in ``range(n)``, in ``jobs`` processes, and ``meanwhile()`` here.

    Parameters
    ----------
    write_show : callable
        Writes the files of show ``k``; in a pool it runs in a forked process, so what it changes
        in memory is lost: it must only write files.
    n : int
        The number of shows.
    jobs : int, optional
        The number of processes (default: :func:`default_jobs`); 1 writes every page here.
    meanwhile : callable, optional
        Called once in this process while the pool works (before the pages without a pool).
    others : sequence of callables
        Tasks that only write files too, each called once in the pool (first, so that the longest starts
        at once) or, without a pool, here after ``meanwhile``: work taken off this process's share.
    progress : bool, optional
        The progress bar (see :func:`progress_enabled`).
    """
    jobs = checked_jobs(jobs)
    with Bar(n, desc="writing report", unit="show", minimum=0, enabled_now=progress_enabled(progress, n)) as bar:
        _run(write_show, n, jobs, meanwhile, bar, tuple(others))


def _run(write_show, n: int, jobs: int, meanwhile, bar: Bar, others: tuple = ()) -> None:
    global _TASK
    parts = chunks(n, jobs)
    if jobs == 1 or n < PARALLEL_MIN_SHOWS or not can_fork() or _TASK is not None:
        if meanwhile is not None:
            meanwhile()
        for other in others:
            other()
        for k in range(n):
            write_show(k)
            bar.update(1)
        return
    _TASK = (write_show, os.getpid(), others)
    try:
        pool = ProcessPoolExecutor(
            max_workers=min(jobs, len(parts)),
            mp_context=multiprocessing.get_context("fork"),
            initializer=_die_with_parent,
            initargs=(os.getpid(),),
        )
        try:
            futures = [pool.submit(_other, i) for i in range(len(others))]
            futures += [pool.submit(_chunk, a, b) for a, b in parts]
            if meanwhile is not None:
                meanwhile()
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, return_when=FIRST_EXCEPTION)
                for future in finished:
                    bar.update(future.result())  # raises the error of a failed chunk
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    finally:
        _TASK = None
