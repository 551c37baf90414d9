"""Writing output files atomically: a failure never leaves a half-written file that looks complete.

Every file tvseg writes (converted segments, ``--json`` results) goes to a temporary file in the
target's folder and is moved into place with :func:`os.replace`, which is atomic on POSIX and Windows
when both names are on the same file system.
"""
from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path

from tvseg.errors import InputError, UsageError

__all__ = ["write_text_atomic", "write_json_atomic", "json_safe"]


def write_text_atomic(path, text: str, *, create_folder: bool = False) -> Path:
    """Write ``text`` (UTF-8, LF line ends) to ``path`` through a temporary file and a rename.

    Parameters
    ----------
    path : str or os.PathLike
        The file to (re)place; an existing file keeps its permissions.
    text : str
        The whole content.
    create_folder : bool
        Create the missing parent folders; otherwise a missing folder is a :class:`UsageError`.

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if create_folder:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(f"cannot create the folder ({error.strerror})", path=folder) from None
    elif not folder.is_dir():
        raise UsageError(f"cannot write {path}: no folder {folder}")
    try:
        handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", newline="\n", dir=folder,
                                             prefix=f".{path.name}.", suffix=".tmp", delete=False)
    except OSError as error:
        raise InputError(f"cannot write here ({error.strerror})", path=folder) from None
    try:
        with handle:
            handle.write(text)
        os.chmod(handle.name, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        os.replace(handle.name, path)
    except BaseException as error:
        Path(handle.name).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise InputError(f"cannot write the file ({error.strerror})", path=path) from None
        raise
    return path


def json_safe(value):
    """``value`` with every NaN or infinite float replaced by None (JSON has no NaN: it becomes null)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value


def write_json_atomic(path, data, *, indent: int = 1) -> Path:
    """Write ``data`` as UTF-8 JSON (NaN as null, keys in the given order) to ``path`` atomically."""
    text = json.dumps(json_safe(data), indent=indent, ensure_ascii=False, allow_nan=False) + "\n"
    return write_text_atomic(path, text)
