"""The process's memory: how the C library allocates large arrays, and giving freed memory back.

glibc's ``malloc`` maps each block of 128 KiB or more with ``mmap`` and unmaps it when it is freed, until
a freed mapping raises that threshold (up to 32 MiB on 64-bit systems). A command that makes and frees
arrays of some megabytes (a corpus's units, one per column) thus pays the kernel for the pages of each new
array. :func:`tune_allocator` sets the threshold at that upper value from the start, so that arrays up to
32 MiB reuse freed heap memory (the command over 2,000 shows of ``tests/benchmarks/bench_floor.py``: 0.195 s
of system time against 0.210 s, 2 % less CPU in all, in 8 alternating runs); :func:`give_back_memory`
returns what is freed when a process holds much less than it held (shards joined, a report streamed).
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["tune_allocator", "give_back_memory"]

MMAP_THRESHOLD = 32 << 20
"""Bytes from which a block is mapped on its own (glibc's ``DEFAULT_MMAP_THRESHOLD_MAX`` on 64-bit)."""

_M_MMAP_THRESHOLD = -3  # mallopt's parameter (malloc.h)
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
    """Blocks up to :data:`MMAP_THRESHOLD` from the heap, reused once freed (glibc's ``mallopt``; nothing
    under another C library)."""
    mallopt = getattr(_library(), "mallopt", None)
    if mallopt is not None:
        mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)


def give_back_memory() -> None:
    """Return the memory freed to the system (glibc keeps freed heap memory for reuse, and the arrays
    made next often land elsewhere: a process that joins shards, or streams many of them, grows): the
    resident memory is then what is held."""
    trim = getattr(_library(), "malloc_trim", None)
    if trim is not None:
        trim(0)
