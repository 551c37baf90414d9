"""The process's memory: how the C library allocates large arrays, when Python looks for reference
cycles, and giving freed memory back.

glibc's ``malloc`` maps each block of 128 KiB or more with ``mmap`` and unmaps it when it is freed, until
a freed mapping raises that threshold (up to 32 MiB on 64-bit systems). A command that makes and frees
arrays of some megabytes (a corpus's units, one per column) thus pays the kernel for the pages of each new
array. :func:`tune_allocator` sets the threshold at that upper value from the start, so that arrays up to
32 MiB reuse freed heap memory (the command over 2,000 shows of ``tests/benchmarks/bench_floor.py``: 0.195 s
of system time against 0.210 s, 2 % less CPU in all, in 8 alternating runs). Heap memory freed at its top
is given back as soon as more than 128 KiB of it is free (``M_TRIM_THRESHOLD``), and asked for again by the
next arrays, whose pages the kernel then provides anew: :func:`tune_allocator` keeps up to
:data:`TRIM_THRESHOLD` of it (the command of ``tests/benchmarks/bench_jobs.py`` over 20,000 shows: 455,000
page faults against 211,000, 1.6-1.9 s of system time against 1.0-1.2 s, the peak 314 MB against 319 MB;
over 200,000 shows, ``tests/benchmarks/bench_report_memory.py``'s: 112.5 s of CPU, against 98.5-99.5 s
with settings of the same effect given through glibc's environment variables in the same hour, and 105 s
with this function in that benchmark's later run; the peak the same, 1,105 MiB). :func:`give_back_memory`
returns what is freed when a process holds much less than it held (shards joined, a report streamed).

Python's cycle collector runs each time 700 more container objects (tuples, lists, dicts) have been made
than freed; reading 2,000 shows makes hundreds of thousands that live until the corpus is scored, so the
collector ran 189 times in that command, found about 1,000 objects in cycles and took 0.04-0.08 s of its CPU.
:func:`tune_collector` has it run after 50,000 (2 runs, about 0.02 s); the garbage in cycles it then
leaves for longer is bounded by the same count. Those two runs came while numpy, pandas and tvseg's modules
were imported, looking at about 100,000 objects that live as long as the process (functions, classes, their
dictionaries): in the program's own process (:func:`own_process`), :func:`collector_paused` leaves the
collector off while a command imports what it uses, then puts what exists into the permanent generation
(``gc.freeze``), which the collector does not look at again.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["tune_allocator", "tune_collector", "give_back_memory", "own_process", "collector_paused"]

MMAP_THRESHOLD = 32 << 20
"""Bytes from which a block is mapped on its own (glibc's ``DEFAULT_MMAP_THRESHOLD_MAX`` on 64-bit)."""

TRIM_THRESHOLD = 256 << 20
"""Bytes of free memory at the top of the heap that ``free`` keeps rather than give back (glibc's default:
128 KiB)."""

_M_TRIM_THRESHOLD = -1  # mallopt's parameters (malloc.h)
_M_MMAP_THRESHOLD = -3
_LIBRARY: Any = None


def _library() -> Any:
    """The C library's symbols this process has loaded (``ctypes.util.find_library`` would start
    ``ldconfig``: a fork of this process); False where there is none to ask."""
    global _LIBRARY
    if _LIBRARY is None:
        import ctypes

        _LIBRARY = ctypes.CDLL(None) if os.name == "posix" else False
    return _LIBRARY


def tune_allocator() -> None:
    """Blocks up to :data:`MMAP_THRESHOLD` from the heap, reused once freed, and up to
    :data:`TRIM_THRESHOLD` of free memory at its top kept for the next arrays (glibc's ``mallopt``; nothing
    under another C library)."""
    mallopt = getattr(_library(), "mallopt", None)
    if mallopt is not None:
        mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)


YOUNG_OBJECTS = 50_000
"""Container objects made (less those freed) after which the cycle collector looks at the youngest
generation (Python's default: 700)."""


def tune_collector() -> None:
    """The cycle collector's first threshold at :data:`YOUNG_OBJECTS`, the others as they are."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_OBJECTS), middle, old)


_OWN_PROCESS: list[bool] = []


def own_process() -> None:
    """Mark this process as the ``tvseg`` program's own (:func:`tvseg.cli.run`; not a caller of
    :func:`tvseg.cli.main` from Python, whose objects :func:`collector_paused` leaves alone)."""
    _OWN_PROCESS[:] = [True]


@contextmanager
def collector_paused() -> Iterator[None]:
    """In the program's own process, the cycle collector off inside the block (a command importing the modules
    it uses), and what exists at its end frozen (``gc.freeze``: never looked at again); elsewhere nothing."""
    if not _OWN_PROCESS or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def give_back_memory() -> None:
    """Return the memory freed to the system (glibc keeps freed heap memory for reuse, and the arrays
    made next often land elsewhere: a process that joins shards, or streams many of them, grows): the
    resident memory is then what is held."""
    trim = getattr(_library(), "malloc_trim", None)
    if trim is not None:
        trim(0)
