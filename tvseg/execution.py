"""Where work runs: this process, local processes or a Dask cluster; the one module that starts them.

A caller maps a plain function over items (ranges of shows, shards, experiments) with an *engine*, with
the same calls whatever runs it: ``submit(function, *args)``, ``gather(futures)`` and ``map(function,
items)``. What comes back is what one process gives: the results in the order of the tasks, the error of
the first task in that order that failed, and a ``stop`` test that holds of a result ends the list there
(the tasks after it are not run, or cancelled). ``each`` is given each result as its task finishes (a
progress bar).

- :class:`Local` with ``jobs=1``: this process, each task run when it is gathered.
- :class:`Local` with ``jobs > 1``: a pool of ``jobs`` processes. A process of the pool dies with the
  process that started it: on Linux the kernel kills it (``PR_SET_PDEATHSIG``), elsewhere it exits at
  its next :func:`exit_if_orphaned`. SIGINT is ignored there and left to the parent (a Ctrl-C reaches the
  whole process group: the parent stops the pool and tidies up), and SIGTERM ends it at once (the
  parent's handler, inherited by a fork, would raise in the middle of a task). When the block that uses
  the pool ends by an error or a signal, its processes are ended at once; otherwise the pool waits for its
  tasks. Functions given as
  ``inherit`` reach the processes by ``fork``, with what they hold in memory: nothing is pickled but
  their arguments.
- :class:`Dask`: tasks on a Dask cluster, their arguments scattered to it first.

:func:`engine` opens the one that ``jobs`` and ``dask`` ask for.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any

from tvseg.errors import UsageError

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

__all__ = ["Local", "Dask", "engine", "default_jobs", "checked_jobs", "can_fork", "chunks", "exit_if_orphaned"]
__all__ += ["inheriting", "CHUNK_MAX"]

CHUNK_MAX = 50
_PR_SET_PDEATHSIG = 1

# The functions of the pool with ``inherit`` open here, or of the pool this process belongs to: set before
# the pool forks, so that its processes inherit them.
_INHERITED: tuple[Callable, ...] = ()
# In a process of a pool: the process that started it.
_PARENT: int | None = None


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
    import multiprocessing  # here: one process needs neither it nor a pool

    return "fork" in multiprocessing.get_all_start_methods()


def chunks(n: int, jobs: int) -> list[tuple[int, int]]:
    """``(start, stop)`` ranges covering ``range(n)``: about 8 per process, at most :data:`CHUNK_MAX` items each."""
    size = max(1, min(CHUNK_MAX, n // (8 * jobs)))
    return [(a, min(a + size, n)) for a in range(0, n, size)]


def inheriting() -> bool:
    """True in a process of a pool with inherited functions, or while such a pool is open here (another
    one cannot be opened: its functions would take the place of the first's)."""
    return bool(_INHERITED)


def exit_if_orphaned() -> None:
    """In a process of a pool whose parent has died: exit now (elsewhere, nothing)."""
    if _PARENT is not None and os.getppid() != _PARENT:
        os._exit(1)


def _guard(parent: int) -> None:
    """Pool initializer: the signal and orphan policy of the module docstring."""
    global _PARENT
    _PARENT = parent
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    exit_if_orphaned()


def _inherited(index: int, *args):
    return _INHERITED[index](*args)


class _Deferred:
    """A task of this process, run when its result is first asked for."""

    def __init__(self, function: Callable, args: tuple):
        self.function, self.args, self.ran, self.value = function, args, False, None

    def result(self):
        if not self.ran:
            self.value, self.ran = self.function(*self.args), True
        return self.value


def _in_order(futures: Sequence, stop, each, *, cancel: Callable = lambda rest: None) -> list:
    """The results of ``futures`` in order, up to the first that ``stop`` holds of (those after it cancelled)."""
    out: list = []
    for k, future in enumerate(futures):
        out.append(future.result())
        getattr(future, "release", lambda: None)()  # a Dask future: the worker keeps nothing
        if each is not None:
            each(out[-1])
        if stop is not None and stop(out[-1]):
            cancel(futures[k + 1 :])
            break
    return out


class Local:
    """This process (``jobs=1``) or a pool of ``jobs`` processes; a context manager that closes the pool.

    Parameters
    ----------
    jobs : int
        The number of processes; 1: tasks run in this process, when gathered.
    inherit : sequence of callables
        Functions that reach the pool's processes by ``fork`` (closures, holding results in memory):
        ``submit`` sends their index and arguments. The pool then needs :func:`can_fork`, and no other pool
        with ``inherit`` may be open (:func:`inheriting`).
    """

    def __init__(self, jobs: int, *, inherit: Sequence[Callable] = ()):
        global _INHERITED
        self.workers = jobs
        self.pool: ProcessPoolExecutor | None = None
        self.inherit = tuple(inherit)
        if jobs == 1:
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = None
        if self.inherit:
            if inheriting() or not can_fork():
                raise RuntimeError("a pool with inherited functions needs fork, and no other such pool open")
            context = multiprocessing.get_context("fork")
        self.pool = ProcessPoolExecutor(
            max_workers=jobs, mp_context=context, initializer=_guard, initargs=(os.getpid(),)
        )
        if self.inherit:  # before the first task, when the pool forks its processes
            _INHERITED = self.inherit

    def submit(self, function: Callable, *args):
        """``function(*args)`` as a task: started now in the pool, or run here when gathered."""
        if self.pool is None:
            return _Deferred(function, args)
        index = next((i for i, f in enumerate(self.inherit) if f is function), None)
        if index is not None:
            return self.pool.submit(_inherited, index, *args)
        return self.pool.submit(function, *args)

    def gather(self, futures: Sequence, *, stop: Callable[[Any], bool] | None = None, each=None) -> list:
        """The results of ``futures`` in order (see the module docstring for ``stop`` and ``each``)."""
        if self.pool is None:
            return _in_order(futures, stop, each)
        from concurrent.futures import FIRST_COMPLETED, wait

        pending = set(futures)
        for future in futures:
            while future in pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for done in finished if each is not None else ():
                    if not done.cancelled() and done.exception() is None:
                        each(done.result())
            value = future.result()  # (the first error in the tasks' order raised as soon as its task ends)
            if stop is not None and stop(value):
                break
        return _in_order(futures, stop, None, cancel=lambda rest: [f.cancel() for f in rest])

    def map(self, function: Callable, items: Iterable, *, stop=None, each=None) -> list:
        """``function(item)`` of each item, gathered (:meth:`gather`)."""
        return self.gather([self.submit(function, item) for item in items], stop=stop, each=each)

    def close(self, *, at_once: bool = False) -> None:
        """Stop the pool: the tasks not started are cancelled, those under way awaited, or ended ``at_once``
        (an error or a signal: what they would give is not wanted)."""
        global _INHERITED
        if self.pool is not None:
            try:
                if at_once:
                    for process in list((getattr(self.pool, "_processes", None) or {}).values()):
                        process.terminate()
                self.pool.shutdown(wait=True, cancel_futures=True)
            finally:
                self.pool = None
                if self.inherit:
                    _INHERITED = ()

    def __enter__(self) -> Local:
        return self

    def __exit__(self, kind, error, traceback) -> None:
        self.close(at_once=kind is not None)


class Dask:
    """Tasks on a Dask cluster (``client``, a ``dask.distributed.Client``); ``jobs``: its number of
    workers, when known (default: those of the scheduler)."""

    def __init__(self, client, jobs: int | None = None):
        self.client = client
        self.workers = jobs or max(1, len(client.scheduler_info().get("workers", {})))

    def submit(self, function: Callable, *args):
        """As :meth:`Local.submit`: the arguments scattered first (sent as data, not in the task graph), each
        under a key of its own (equal data under one key would be released with the first task done)."""
        return self.client.submit(function, *(self.client.scatter(a, hash=False) for a in args), pure=False)

    def gather(self, futures: Sequence, *, stop=None, each=None) -> list:
        """As :meth:`Local.gather`; each future released once back (the workers keep nothing), ``each``
        called in order."""
        return _in_order(futures, stop, each, cancel=self.client.cancel)

    def map(self, function: Callable, items: Iterable, *, stop=None, each=None) -> list:
        """As :meth:`Local.map`."""
        futures = self.client.map(function, self.client.scatter(list(items), hash=False), pure=False)
        return self.gather(futures, stop=stop, each=each)


@contextmanager
def engine(jobs: int | None = None, dask=None):
    """The engine that ``jobs`` and ``dask`` ask for, closed at the end.

    Parameters
    ----------
    jobs : int, optional
        Without ``dask``: :class:`Local` processes (None: 1, this process). With ``dask="local"``: the
        cluster's workers (default: the number of CPUs).
    dask : str or dask.distributed.Client, optional
        ``"local"``: a ``LocalCluster`` of ``jobs`` single-threaded worker processes, closed at the end; a
        scheduler's address (``"tcp://host:8786"``): a ``Client`` of that cluster; or a ``Client``.

    Raises
    ------
    UsageError
        When ``dask`` is asked for and not installed, or is none of the above.
    """
    with ExitStack() as stack:
        if dask is None:
            yield stack.enter_context(Local(jobs or 1))
            return
        if not hasattr(dask, "submit"):  # not a Client: one made here, closed at the end
            try:
                from dask import config, distributed
            except ImportError:
                raise UsageError("dask=... needs dask.distributed: pip install tvseg[dask]") from None
            if not isinstance(dask, str):
                raise UsageError(f"dask must be 'local', a scheduler's address or a Client, not {dask!r}")
            if dask == "local":
                # Dask starts its workers with MALLOC_TRIM_THRESHOLD_ set, which also fixes glibc's mmap
                # threshold: every large array is then mapped and unmapped, and scoring takes three times as long
                stack.enter_context(config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}))
                # no dashboard shows it: a worker's profiler samples its stack every 10 ms
                stack.enter_context(config.set({"distributed.worker.profile.enabled": False}))
                if sys.platform.startswith("linux") and sys.version_info < (3, 12):
                    # forked, the workers hold tvseg, numpy, pandas and dask imported: a spawned worker
                    # imports them again, about 1.3 s of CPU each, a fifth of a 20,000-show evaluation
                    # (Python 3.12 warns when a process running threads forks: spawned there)
                    stack.enter_context(config.set({"distributed.worker.multiprocessing-method": "fork"}))
                n_workers = jobs or os.cpu_count() or 1
                local = distributed.LocalCluster(
                    n_workers=n_workers, processes=True, threads_per_worker=1, dashboard_address=None
                )
                dask = stack.enter_context(local)
            dask = stack.enter_context(distributed.Client(dask))
        yield Dask(dask, jobs)
