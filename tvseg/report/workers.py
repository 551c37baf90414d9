"""The show pages of a report written by a pool of processes, a chunk of shows per task.

:func:`run` calls ``write_show(k)`` for every show ``k``: in this process when ``jobs`` is 1, when
the report is small (fewer than :data:`PARALLEL_MIN_SHOWS` shows, where starting processes costs
more than it saves) or where the system cannot fork; otherwise in ``jobs`` processes forked from
this one (:class:`tvseg.execution.Local`, ``inherit``), so that they share the evaluation result and
the templates already loaded, with nothing pickled but the numbers of the first and last show of a
chunk. Meanwhile this process writes the corpus page (``meanwhile``). What a page holds depends only
on its show, so the bytes written do not depend on ``jobs`` nor on the order in which the chunks finish.

An error in a process (a full disk) is raised here as it was raised there, after the other
processes have stopped: the caller (:func:`tvseg.report.paths.replace_directory`) then removes the
half-written folder. A process of the pool whose parent dies (killed) dies with it, and a SIGINT or a
SIGTERM stops the parent, which ends the pool's processes and removes the half-written folder (the
policy of :mod:`tvseg.execution`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tvseg.execution import Local, can_fork, checked_jobs, chunks, exit_if_orphaned, inheriting
from tvseg.progress import Bar
from tvseg.progress import enabled as bars_enabled

__all__ = [
    "run",
    "Parts",
    "checked_jobs",
    "can_fork",
    "chunks",
    "PARALLEL_MIN_SHOWS",
    "PROGRESS_MIN_SHOWS",
]

PARALLEL_MIN_SHOWS = 64
PROGRESS_MIN_SHOWS = 36


def progress_enabled(progress: bool | None, n_shows: int) -> bool:
    """``progress`` if given, else True when there are more than a few dozen shows and bars are drawn
    (:func:`tvseg.progress.enabled`: stderr is a terminal, or ``--progress``)."""
    if progress is not None:
        return bool(progress)
    return bars_enabled(n_shows, PROGRESS_MIN_SHOWS + 1)


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
        The number of processes (default: :func:`tvseg.execution.default_jobs`); 1 writes every page here.
    meanwhile : callable, optional
        Called once in this process while the pool works (before the pages without a pool).
    others : sequence of callables
        Tasks that only write files too, each called once in the pool (first, so that the longest starts
        at once) or, without a pool, here after ``meanwhile``: work taken off this process's share.
    progress : bool, optional
        The progress bar (see :func:`progress_enabled`).
    """
    with Parts(n, jobs=jobs, progress=progress) as parts:
        parts.run(write_show, n, meanwhile=meanwhile, others=others)


class Parts:
    """:func:`run` over the shows of a report given a part at a time (the shards of
    :class:`tvseg.report.adapter.ShardedPages`): one progress bar over the ``n`` shows; each :meth:`run` writes
    one part's pages as :func:`run` does (a pool of ``jobs`` processes forked for it, ``meanwhile`` here)."""

    def __init__(self, n: int, *, jobs: int | None = None, progress: bool | None = None):
        self.jobs = checked_jobs(jobs)
        self.bar = Bar(n, desc="writing report", unit="show", minimum=0, enabled_now=progress_enabled(progress, n))

    def __enter__(self) -> Parts:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.bar.__exit__(*exc)

    def run(self, write_show, n: int, *, meanwhile=None, others: Sequence[Callable[[], object]] = ()) -> None:
        """Call ``write_show(k)`` for ``k`` in ``range(n)`` (the part's shows), ``meanwhile()`` here and each of
        ``others`` (see :func:`run`)."""
        jobs, bar = self.jobs, self.bar

        def write(start: int, stop: int) -> int:
            for k in range(start, stop):
                exit_if_orphaned()  # the writer was killed: write nothing more
                write_show(k)
            return stop - start

        def other(i: int) -> int:
            others[i]()
            return 0

        def written(shows: int) -> None:
            if shows:
                bar.update(shows)

        pooled = jobs > 1 and n >= PARALLEL_MIN_SHOWS and can_fork() and not inheriting()
        parts = chunks(n, jobs) if pooled else [(k, k + 1) for k in range(n)]
        with Local(min(jobs, len(parts)) if pooled else 1, inherit=(write, other)) as engine:
            futures = [engine.submit(other, i) for i in range(len(others))]
            futures += [engine.submit(write, a, b) for a, b in parts]
            if meanwhile is not None:
                meanwhile()
            engine.gather(futures, each=written)
