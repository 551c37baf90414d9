"""Paths inside a report folder, and the atomic replacement of the whole folder.

The show pages are named by :func:`tvseg.file_names.safe_names` (re-exported here), the one function
that also names ``tvseg convert``'s files.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from tvseg.errors import UsageError
from tvseg.file_names import safe_names
from tvseg.filesystem import exchange, flush_tree, fsync_folder, locked
from tvseg.output import leftovers, remove_path, temporary_path, undone_on_failure

__all__ = ["safe_names", "inside", "plain_stem", "replace_directory", "looks_like_report"]


def inside(root: Path, relative: str) -> Path:
    """``root / relative``, refused unless it resolves to a path inside ``root``."""
    root = root.resolve()
    path = (root / relative).resolve()
    if root not in path.parents:
        raise UsageError(f"refusing to write outside the report folder: {relative!r}")
    return path


_STEM = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")


def plain_stem(name: str) -> str:
    """``name`` if it is a file stem of :func:`safe_names` (no separator, no leading dot), else refused.

    A cheap check for the many pages of a report (:func:`inside` resolves the path on disk).
    """
    if _STEM.fullmatch(name) is None:
        raise UsageError(f"refusing to write outside the report folder: {name!r}")
    return name


def looks_like_report(directory: Path) -> bool:
    """True when ``directory`` holds a report written by tvseg (so it may be replaced)."""
    return (directory / "index.html").is_file() and (directory / "data" / "scores.json").is_file()


def _check_replaceable(target: Path) -> None:
    if target.exists() or target.is_symlink():
        if not target.is_dir():
            raise UsageError(f"{target}: exists and is not a folder; refusing to replace it with a report")
        if any(target.iterdir()) and not looks_like_report(target):
            raise UsageError(
                f"{target}: folder is not empty and does not hold a tvseg report "
                "(index.html and data/scores.json); refusing to replace it"
            )


def _tidy(target: Path) -> None:
    """Undo what killed writers of ``target`` left: put a report back, remove their temporary folders.

    Only a writer that could not swap folders atomically (see :func:`replace_directory`) can have
    been killed between its two renames, leaving no ``target`` but the old report under
    ``.NAME.old-PID-TOKEN``: that report is renamed back first.
    """
    found = leftovers(target.parent, target.name)
    if not (target.exists() or target.is_symlink()):
        old = [p for p in found if ".old-" in p.name and looks_like_report(p)]
        if old:
            latest = max(old, key=lambda p: p.stat().st_mtime)
            os.rename(latest, target)
            found.remove(latest)
    for path in found:
        remove_path(path)


def replace_directory(directory: str | os.PathLike, fill: Callable[[Path], None]) -> Path:
    """Write a folder with ``fill(tmp)`` beside ``directory``, then swap it into place.

    At every instant ``directory`` is either the old complete folder (or absent, if there was
    none) or the new complete one, even if the process is killed:

    1. The new folder is built by ``fill`` under ``.NAME.tmp-PID-TOKEN`` in the same parent
       (same file system), then flushed to disk (:func:`tvseg.filesystem.flush_tree`).
    2. Under a lock shared by tvseg writers (:func:`tvseg.filesystem.locked`, on ``.NAME.lock``), the
       two folders swap names in one atomic step (:func:`tvseg.filesystem.exchange`: Linux's
       ``renameat2(RENAME_EXCHANGE)``, macOS's ``renamex_np(RENAME_SWAP)``); a missing
       ``directory`` is simply renamed to.
    3. The old report, now under the temporary name, is deleted.

    Where the system or file system cannot swap (Windows, some network file systems), the old
    folder is renamed to ``.NAME.old-PID-TOKEN`` and the new one renamed in: a kill between these
    two renames leaves no ``directory``, and the next writer renames the old report back before
    anything else.

    Before writing, the leftovers of killed writers of the same ``directory`` (temporary folders
    whose process id no longer runs) are removed. Concurrent writers each build their own
    temporary folder; the lock serialises the swaps, so the last to swap wins and none fails.
    (Writers must see each other's process ids: two containers with their own process ids writing
    one shared folder would take each other's temporary folders for leftovers.)

    If ``fill`` fails, the temporary folder is removed and ``directory`` is untouched. To avoid
    wiping a folder by mistake (``--html ~``), an existing non-empty folder is replaced only when
    it looks like a tvseg report. An :class:`OSError` (a full disk, a read-only folder) becomes an
    :class:`~tvseg.errors.InputError` naming ``directory`` and the system's reason.
    """
    target = Path(directory).absolute()
    parent = target.parent
    with undone_on_failure(target, "report"):
        _check_replaceable(target)
        parent.mkdir(parents=True, exist_ok=True)
        with locked(target):
            _tidy(target)
        tmp = temporary_path(target)
        os.mkdir(tmp)  # honours the umask (tempfile.mkdtemp would give 0700)
    old = None

    def undo():
        if old is None:
            remove_path(tmp)

    try:
        with undone_on_failure(target, "report", undo):
            fill(tmp)
            flush_tree(tmp)
            with locked(target):
                _check_replaceable(target)
                if not (target.exists() or target.is_symlink()):
                    os.rename(tmp, target)
                elif exchange(tmp, target):
                    old = tmp
                else:
                    aside = temporary_path(target, "old")
                    os.rename(target, aside)
                    try:
                        os.rename(tmp, target)
                    except BaseException:
                        os.rename(aside, target)
                        raise
                    old = aside
                fsync_folder(parent)
    finally:
        if old is not None:
            remove_path(old)
    return target
