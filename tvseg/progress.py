"""Progress bars on stderr for long runs: reading many files, scoring, writing report pages.

Drawn by `tqdm <https://tqdm.github.io>`_ on stderr, only when it is a terminal (so nothing is written
into logs, pipes or notebooks' captured output), unless the CLI's ``--progress`` (always) or ``--quiet``
(never) set the mode (:func:`set_mode`). Left to itself, a small job draws nothing: a bar appears only
from ``minimum`` items up; ``--progress`` draws every bar. A bar's description is shown with its control
characters escaped (:func:`tvseg.terminal.printable`), as every message tvseg prints.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from types import TracebackType
from typing import Any, TypeVar

from tvseg.terminal import printable

_T = TypeVar("_T")

__all__ = ["set_mode", "enabled", "iterate", "Bar"]

_mode: bool | None = None


def set_mode(mode: bool | None) -> None:
    """``True``: always draw bars; ``False``: never; ``None`` (default): when stderr is a terminal."""
    global _mode
    _mode = mode


def enabled(count: int | None = None, minimum: int = 0) -> bool:
    """Whether a bar over ``count`` items is drawn now: as :func:`set_mode` says, else when stderr is a
    terminal and there are at least ``minimum`` items."""
    if _mode is not None:
        return _mode
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty()) and (count is None or count >= minimum)


def iterate(
    items: Iterable[_T], *, desc: str, total: int | None = None, unit: str = "file", minimum: int = 100
) -> Iterable[_T]:
    """``items``, with a bar while they are consumed when :func:`enabled` and there are at least
    ``minimum`` of them."""
    total = len(items) if total is None and hasattr(items, "__len__") else total  # type: ignore[arg-type]
    if total is None or not enabled(total, minimum):
        return items
    bar: Iterable[_T] = _tqdm(items, total=total, desc=desc, unit=unit)
    return bar


def _tqdm(items: Iterable[Any] | None, *, total: int, desc: str, unit: str) -> Any:
    from tqdm import tqdm

    return tqdm(
        items,
        desc=f"tvseg: {printable(desc)}",
        total=total,
        unit=unit,
        file=sys.stderr,
        leave=False,
        dynamic_ncols=True,
    )


class Bar:
    """A bar for work counted by hand: ``with Bar(total, desc=...) as bar: ... bar.update(n)``."""

    def __init__(
        self, total: int, *, desc: str, unit: str = "show", minimum: int = 100, enabled_now: bool | None = None
    ) -> None:
        show = enabled(total, minimum) if enabled_now is None else enabled_now
        self._bar: Any = None  # a tqdm bar (tqdm has no type information)
        if show:
            self._bar = _tqdm(None, total=total, desc=desc, unit=unit)

    def update(self, n: int = 1) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def __enter__(self) -> Bar:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self._bar is not None:
            self._bar.close()
