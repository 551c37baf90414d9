"""Safe file names for untrusted show ids, and the atomic replacement of a whole report folder."""
from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
import unicodedata
from pathlib import Path
from typing import Callable, Iterable

from tvseg.errors import UsageError

__all__ = ["safe_names", "inside", "replace_directory", "looks_like_report"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
# Names that Windows refuses whatever the extension (a report may be copied there).
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9]|lpt[0-9])$", re.IGNORECASE)
_MAX_STEM = 64


def safe_names(ids: Iterable[str]) -> dict[str, str]:
    """Map each show id to a file stem made of ``[A-Za-z0-9._-]`` only, unique ignoring case.

    An id that is already such a stem keeps its name. Any other id (``../../x``, spaces, accents,
    a reserved device name, more than 64 characters) is reduced to its safe characters and
    suffixed with 8 hex digits of its SHA-256, so two ids that reduce to the same text still get
    different names, whatever their order. A stem never starts with a dot, so it can neither
    be ``.``/``..`` nor hidden.
    """
    names: dict[str, str] = {}
    used: set[str] = set()
    for show_id in ids:
        if show_id in names:
            continue
        ascii_id = unicodedata.normalize("NFKD", show_id).encode("ascii", "ignore").decode("ascii")
        stem = _UNSAFE.sub("_", ascii_id).lstrip(".-_")[:_MAX_STEM].rstrip(".") or "show"
        if stem != show_id or _RESERVED.match(stem.split(".")[0]):
            digest = hashlib.sha256(show_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
            stem = f"{stem}-{digest}"
        candidate, n = stem, 1
        while candidate.casefold() in used:
            n += 1
            candidate = f"{stem}-{n}"
        used.add(candidate.casefold())
        names[show_id] = candidate
    return names


def inside(root: Path, relative: str) -> Path:
    """``root / relative``, refused unless it resolves to a path inside ``root``."""
    root = root.resolve()
    path = (root / relative).resolve()
    if root not in path.parents:
        raise UsageError(f"refusing to write outside the report folder: {relative!r}")
    return path


def looks_like_report(directory: Path) -> bool:
    """True when ``directory`` holds a report written by tvseg (so it may be replaced)."""
    return (directory / "index.html").is_file() and (directory / "data" / "scores.json").is_file()


def replace_directory(directory: str | os.PathLike, fill: Callable[[Path], None]) -> Path:
    """Write a folder with ``fill(tmp)`` beside ``directory``, then move it into place.

    The new folder is built under a hidden temporary name in the same parent (same file system,
    so the final moves are renames). If ``fill`` fails, the temporary folder is removed and
    ``directory`` is untouched. An existing ``directory`` is replaced only by a complete new
    one: it is renamed away, the new one renamed in, then the old one deleted. To avoid wiping a
    folder by mistake (``--html ~``), an existing non-empty folder is replaced only when it
    looks like a tvseg report.
    """
    target = Path(directory).absolute()
    if target.exists() or target.is_symlink():
        if not target.is_dir():
            raise UsageError(f"{target}: exists and is not a folder; refusing to replace it with a report")
        if any(target.iterdir()) and not looks_like_report(target):
            raise UsageError(f"{target}: folder is not empty and does not hold a tvseg report "
                             "(index.html and data/scores.json); refusing to replace it")
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    tmp = parent / f".{target.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}"
    os.mkdir(tmp)  # exclusive, and honours the umask (tempfile.mkdtemp would give 0700)
    try:
        fill(tmp)
        if target.exists() or target.is_symlink():
            old = parent / f".{target.name}.old-{os.getpid()}-{secrets.token_hex(4)}"
            os.rename(target, old)
            try:
                os.rename(tmp, target)
            except BaseException:
                os.rename(old, target)
                raise
            if old.is_dir() and not old.is_symlink():
                shutil.rmtree(old, ignore_errors=True)
            else:
                old.unlink()
        else:
            os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target
