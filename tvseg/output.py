"""Writing output files atomically: a failure never leaves a half-written file that looks complete.

Every file tvseg writes (converted segments, ``--json`` results, a folder of WebVTT chapters, the
HTML report) is written under a hidden temporary name in the target's own folder, flushed to disk
with :func:`os.fsync`, and only then moved to its final name with a rename, which is atomic on
POSIX and Windows when both names are on the same file system. The folder is flushed after the
rename, so the new name survives a power cut too.

Temporary names are ``.NAME.tmp-PID-TOKEN`` (and ``.NAME.old-PID-TOKEN`` for a report being
replaced): the writer's process id is in the name, so a later writer of the same NAME removes the
leftovers of a writer that was killed (:func:`remove_leftovers`) and leaves those of a live one alone.

A FIFO or a character device given as the target (``mkfifo``, ``/dev/stdout``, a terminal) is
written in place, never replaced by a regular file. Temporary files are created exclusively
(``O_EXCL``, ``O_NOFOLLOW``): a link planted under a temporary name is never followed.

The outputs of one run carry one run id (:func:`new_run_id`, :func:`with_run_id`), so that a JSON
file and a report written by different runs are visibly a mixed pair.

Any :class:`OSError` while writing (a full disk, a read-only folder, a permission) becomes an
:class:`~tvseg.errors.InputError` naming the path and the system's reason: exit code 2, not a bug.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import re
import shutil
import stat
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tvseg.errors import InputError, UsageError
from tvseg.filesystem import flush_tree, fsync_folder

__all__ = [
    "write_text_atomic",
    "distinct_floats",
    "write_json_atomic",
    "write_folder_atomic",
    "text_pieces",
    "json_safe",
    "frame_records",
    "dumps_json",
    "json_pieces",
    "csv_line",
    "write_file",
    "flush_tree",
    "temporary_path",
    "leftovers",
    "remove_leftovers",
    "remove_path",
    "cannot_write",
    "undone_on_failure",
    "written_in_place",
    "new_run_id",
    "with_run_id",
    "refuse_overwriting_inputs",
    "Records",
    "Array",
    "encoded_rows",
]


_LEFTOVER = re.compile(r"\.(?P<name>.+)\.(?:tmp|old)-(?P<pid>[0-9]+)-[0-9a-f]+")
_CSV_QUOTED = re.compile(r'[",\r\n]')


def csv_line(cells) -> str:
    """One CSV record (RFC 4180) ending in LF: a cell holding a comma, a quote, a CR or an LF is quoted.

    Python's :mod:`csv` writer (and pandas') leaves a cell with a bare CR unquoted when the line
    end is LF, which no reader can read back; this quotes it.
    """
    out = []
    for cell in cells:
        text = "" if cell is None else str(cell)
        out.append('"' + text.replace('"', '""') + '"' if _CSV_QUOTED.search(text) else text)
    return ",".join(out) + "\n"


def cannot_write(path, error: OSError, what: str = "file") -> InputError:
    """The :class:`InputError` for an :class:`OSError` met while writing ``path``."""
    reason = error.strerror or str(error)
    return InputError(f"cannot write the {what} ({reason})", path=path)


@contextlib.contextmanager
def undone_on_failure(path, what: str = "file", undo=None):
    """On any exception in the block, call ``undo()`` (remove what was half written); an
    :class:`OSError` then becomes :func:`cannot_write` for ``path``, anything else goes on as it is."""
    try:
        yield
    except BaseException as error:
        if undo is not None:
            undo()
        if isinstance(error, OSError):
            raise cannot_write(path, error, what) from None
        raise


def write_file(path, text: str | Iterable[str], *, sync: bool = True, exclusive: bool = False) -> None:
    """Create (or truncate) ``path`` and write ``text`` (a ``str`` or its pieces) as UTF-8, line ends as given.

    ``sync``: flush it to disk (:func:`os.fsync`) before returning; a caller that writes many files
    may instead flush them all at once with :func:`flush_tree`. ``exclusive``: the file must not
    exist yet, not even as a symbolic link (``O_EXCL``: nothing is created through a link).
    """
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0)
    flags |= os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) if exclusive else os.O_TRUNC
    fd = os.open(path, flags, 0o666)
    try:
        _write_text(fd, text)
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def _write_text(fd: int, text: str | Iterable[str]) -> None:
    for piece in (text,) if isinstance(text, str) else text:
        view = memoryview(piece.encode("utf-8"))
        while view:
            view = view[os.write(fd, view) :]


def written_in_place(path) -> bool:
    """True when ``path`` is a FIFO or a character device (``mkfifo``, a terminal), following links,
    or a link to one of this process's descriptors (``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``):
    such a target is written as it is, never replaced by a regular file."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or _descriptor_link(path)


def _descriptor_link(path) -> bool:
    """True when ``path`` is a symbolic link that leads through ``/proc/`` or ``/dev/fd/`` (``/dev/stdout``)."""
    name = os.fspath(path)
    for _ in range(40):  # the system's own limit on a chain of links
        if name.startswith(("/proc/", "/dev/fd/")):
            return True
        if not os.path.islink(name):
            return False
        name = os.path.join(os.path.dirname(name), os.readlink(name))
    return False


def refuse_overwriting_inputs(inputs, *, files=(), folders=()) -> None:
    """Refuse, before anything is read or written, an output that would replace or delete an input.

    Parameters
    ----------
    inputs : iterable of (str, str or os.PathLike or None)
        What the run reads: the option that names it and its path, a file or a folder (standing
        for the files directly in it); a path of None is not given.
    files : iterable of (str, str or os.PathLike or None)
        The files the run writes (an existing one is replaced): each must not be one of the files
        read, under any name (a link, a hard link, another spelling of the path). A FIFO or a
        character device (:func:`written_in_place`) is written in place and never refused.
    folders : iterable of (str, str or os.PathLike or None)
        The folders the run replaces whole (the report): nothing read may lie inside one.

    Raises
    ------
    UsageError
        Naming the output's option and path, and the input's.
    """
    read = [(what, Path(path)) for what, path in inputs if path]
    written = [(what, Path(path)) for what, path in files if path]
    written = [(what, path) for what, path in written if os.path.isfile(path) and not written_in_place(path)]
    if written:
        targets = {(found.st_dev, found.st_ino) for found in (os.stat(path) for _, path in written)}
        identities: dict[tuple[int, int], tuple[str, Path]] = {}  # of the files read that are written
        for what, path in read:
            for file, found in _files_read(path):
                if (found.st_dev, found.st_ino) in targets:
                    identities.setdefault((found.st_dev, found.st_ino), (what, Path(file)))
        for what, path in written:
            found = os.stat(path)
            same = identities.get((found.st_dev, found.st_ino))
            if same is not None:
                raise UsageError(
                    f"{what} {path} is {same[1]}, read as {same[0]}: writing it would replace the input; "
                    "give another path"
                )
    for what, folder in folders:
        if not folder or not os.path.isdir(folder):
            continue
        root = Path(folder).resolve()
        for input_what, path in read:
            resolved = path.resolve()
            if resolved == root or root in resolved.parents:
                raise UsageError(
                    f"{what} {folder} holds {path}, read as {input_what}: writing the report there would "
                    "delete it; give another folder"
                )


def _files_read(path: Path) -> Iterator[tuple[str, os.stat_result]]:
    """``path`` when it is a file, the files directly in it when it is a folder (following links), each
    with its ``os.stat`` (no object made per file of a folder of a corpus's shows but its path)."""
    if not path.is_dir():
        with contextlib.suppress(OSError):
            if path.is_file():
                yield str(path), os.stat(path)
        return
    try:
        with os.scandir(path) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    if entry.is_file():
                        yield entry.path, entry.stat()
    except OSError:
        return


def new_run_id() -> str:
    """A fresh run id: 16 hexadecimal digits, drawn at random, shared by every output of one run."""
    return os.urandom(8).hex()  # what secrets.token_hex(8) gives, without importing hmac and OpenSSL


def with_run_id(document: Mapping, run_id: str | None) -> dict:
    """``document`` (a ``--json`` object) with ``"run_id"`` right after ``"tvseg_version"`` (first
    if there is none); ``document`` itself when ``run_id`` is None."""
    if run_id is None:
        return document  # type: ignore[return-value]
    out: dict = {} if "tvseg_version" in document else {"run_id": run_id}
    for key, value in document.items():
        if key == "run_id":
            continue
        out[key] = value
        if key == "tvseg_version":
            out["run_id"] = run_id
    return out


def temporary_path(path, kind: str = "tmp") -> Path:
    """``.NAME.<kind>-PID-TOKEN`` beside ``path``: hidden, unique, and naming the writing process."""
    path = Path(path)
    return path.parent / f".{path.name}.{kind}-{os.getpid()}-{os.urandom(4).hex()}"


def _writer_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name == "nt":  # os.kill(pid, 0) would terminate the process on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, under another user
        return True
    return True


def leftovers(folder, names) -> list[Path]:
    """Temporary files or folders in ``folder`` for one of ``names`` whose writer process is gone."""
    names = {names} if isinstance(names, str) else set(names)
    found: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return found
    for entry in entries:
        match = _LEFTOVER.fullmatch(entry.name)
        if match and match["name"] in names and not _writer_alive(int(match["pid"])):
            found.append(Path(entry.path))
    return found


def remove_path(path) -> None:
    """Remove a file, a symlink or a whole folder; quietly, as far as it can."""
    path = Path(path)
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


def remove_leftovers(folder, names) -> None:
    """Remove what killed writers of ``names`` left in ``folder`` (see :func:`leftovers`)."""
    for path in leftovers(folder, names):
        remove_path(path)


def _folder_of(path: Path, create_folder: bool) -> Path:
    folder = path.parent if str(path.parent) else Path(".")
    if create_folder:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(f"cannot create the folder ({error.strerror})", path=folder) from None
    elif not folder.is_dir():
        raise UsageError(f"cannot write {path}: no folder {folder}")
    return folder


def write_text_atomic(path, text: str | Iterable[str], *, create_folder: bool = False) -> Path:
    """Write ``text`` (UTF-8, LF line ends) to ``path`` through a temporary file and a rename.

    Parameters
    ----------
    path : str or os.PathLike
        The file to (re)place; an existing file keeps its permissions, a new one gets 0644. A FIFO
        or a character device (:func:`written_in_place`) is written in place, not replaced.
    text : str or iterable of str
        The whole content, or its pieces (written as they come).
    create_folder : bool
        Create the missing parent folders; otherwise a missing folder is a :class:`UsageError`.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    InputError
        The file could not be written (full disk, read-only folder...): ``path`` is unchanged.
    """
    path = Path(path)
    if written_in_place(path):
        with undone_on_failure(path):
            # O_APPEND: a regular file behind /dev/stdout gets the text after what was printed to it
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
            try:
                _write_text(fd, text)
            finally:
                os.close(fd)
        return path
    _replace_files(_folder_of(path, create_folder), {path.name: text}, path, "file")
    return path


def text_pieces(path, *, size: int = 1 << 20) -> Iterator[str]:
    """The text of the UTF-8 file ``path``, ``size`` characters at a time (line ends kept as written)."""
    with open(path, encoding="utf-8", newline="") as file:
        while piece := file.read(size):
            yield piece


def write_folder_atomic(folder, files: dict[str, str]) -> list[Path]:
    """Write several files into ``folder``, all or none.

    Parameters
    ----------
    folder : str or os.PathLike
        A missing folder is built complete under a temporary name beside it and renamed into
        place. In an existing folder, every file is first written to a temporary name there and
        flushed; only then are they renamed to their names (existing files of those names are
        replaced, other files are left alone). A failure before the renames leaves the folder as
        it was.
    files : dict of str to str
        File name (no folder part) to content.

    Returns
    -------
    list of pathlib.Path
        The files written, in the order of ``files``.

    Raises
    ------
    InputError
        The files could not be written (full disk, read-only folder...).
    UsageError
        ``folder`` exists and is not a folder.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: exists and is not a folder")
    if not folder.is_dir():
        parent = _folder_of(folder, True)
        remove_leftovers(parent, folder.name)
        tmp = temporary_path(folder)
        with undone_on_failure(folder, "folder", undo=lambda: remove_path(tmp)):
            os.mkdir(tmp)
            for name, text in files.items():
                write_file(tmp / name, text, sync=False)
            flush_tree(tmp)
            os.rename(tmp, folder)
            fsync_folder(parent)
    else:
        _replace_files(folder, files, folder, "folder")
    return [folder / name for name in files]


def _replace_files(folder: Path, files: Mapping[str, str | Iterable[str]], path: Path, what: str) -> None:
    """Write ``files`` to temporary names in ``folder`` (keeping an existing file's permissions, 0644 if
    new), flush, then rename each; a failure before the renames leaves ``folder`` as it was."""
    remove_leftovers(folder, files)
    staged: dict[Path, Path] = {}

    def remove_staged() -> None:
        for staged_tmp in staged:
            remove_path(staged_tmp)

    with undone_on_failure(path, what, undo=remove_staged):
        for name, text in files.items():
            target = folder / name
            tmp = temporary_path(target)
            staged[tmp] = target
            write_file(tmp, text, exclusive=True)
            os.chmod(tmp, target.stat().st_mode & 0o777 if target.exists() else 0o644)
        for tmp, target in list(staged.items()):
            os.replace(tmp, target)
            del staged[tmp]
        fsync_folder(folder)


def json_safe(value: Any, *, integer_keys: Collection[Any] = frozenset(), key: Any = None) -> Any:
    """A copy of ``value`` that JSON can hold: numpy scalars as Python ones, NaN and infinities as None
    (JSON has no NaN: it becomes null), mapping keys as strings, and the whole-number values of the
    ``integer_keys`` (counts) as integers. A :class:`pandas.DataFrame` becomes ``{index: {column:
    value}}`` (:func:`frame_records`). The one conversion behind ``--json`` and the report."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool) or value is None or isinstance(value, (int, str, Records, Array)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return int(value) if key in integer_keys and value.is_integer() else value
    if isinstance(value, Mapping):
        return {str(k): json_safe(v, integer_keys=integer_keys, key=k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v, integer_keys=integer_keys) for v in value]
    if isinstance(value, pd.DataFrame):
        return frame_records(value, integer_keys=integer_keys)
    return value


def _column_values(name, values: np.ndarray, integer_keys) -> list:
    """One column as JSON-safe Python values (what :func:`json_safe` gives for each cell)."""
    if values.dtype.kind == "f":
        finite = np.isfinite(values)
        cells = values.tolist()
        if name in integer_keys:
            whole = finite & (values == np.floor(np.where(finite, values, 0.0)))
            return [int(v) if w else (v if f else None) for v, w, f in zip(cells, whole.tolist(), finite.tolist())]
        if finite.all():
            return cells
        return [v if f else None for v, f in zip(cells, finite.tolist())]
    if values.dtype.kind in "iub":
        return values.tolist()
    return [json_safe(v, integer_keys=integer_keys, key=name) for v in values.tolist()]


def frame_records(
    frame: pd.DataFrame, *, integer_keys=frozenset(), nested: Mapping[str, Mapping[str, str]] | None = None
) -> dict:
    """``{str(index): {column: value}}`` of a table, each value as :func:`json_safe` makes it, converted
    column by column (a corpus has thousands of shows).

    ``nested``: objects added at the end of each row, ``{name: {field: column}}``, each field the value of
    its column (a name is left out when the table lacks one of its columns).
    """
    names = [str(c) for c in frame.columns]
    columns = [_column_values(c, frame[c].to_numpy(), integer_keys) for c in frame.columns]
    records = {str(index): dict(zip(names, row)) for index, row in zip(frame.index.tolist(), zip(*columns))}
    for name, fields in (nested or {}).items():
        if not set(fields.values()) <= set(names):
            continue
        rows = list(records.values())
        values = [columns[names.index(column)] for column in fields.values()]
        for row, cells in zip(rows, zip(*values)):
            row[name] = dict(zip(fields, cells))
    return records


_FLAT = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


class Records:
    """A table that JSON holds as ``{index: {column: value}}`` (what :func:`frame_records` makes of it),
    converted and written a block of rows at a time (:func:`json_pieces`), never held whole as Python
    objects: the per-show tables of a corpus of many shows. :func:`json_safe` leaves it as it is."""

    BLOCK = 512  # rows: about 1 MB of text, so that writing holds a few such blocks at a time

    def __init__(
        self,
        frame: pd.DataFrame,
        *,
        integer_keys: Collection[Any] = frozenset(),
        nested: Mapping[str, Mapping[str, str]] | None = None,
        encoded: Sequence[str] | None = None,
    ):
        self.frame, self.integer_keys, self.nested, self.encoded = frame, integer_keys, nested, encoded

    def __len__(self) -> int:
        return len(self.frame)

    def blocks(self):
        """The text of consecutive blocks of rows (:func:`encoded_rows`): ``encoded`` when given (made
        elsewhere, by :func:`encoded_rows` of the same table, in order)."""
        if self.encoded is not None:
            yield from self.encoded
            return
        for start in range(0, len(self.frame), self.BLOCK):
            yield encoded_rows(
                self.frame.iloc[start : start + self.BLOCK], integer_keys=self.integer_keys, nested=self.nested
            )


class Array:
    """A one-dimensional array that JSON holds as a list, its values exact: integers and booleans as
    they are, each float as the shortest text that reads back as the same float (``repr``), and the
    floats JSON has no literal for as the strings ``"NaN"``, ``"Infinity"`` and ``"-Infinity"``
    (``float()`` reads them back). :func:`json_pieces` writes it a block of values at a time;
    :meth:`values` gives the list (what ``to_json()`` holds when not streamed); ``encoded``: the text of
    :meth:`blocks` made elsewhere (:func:`encoded_blocks` of the same values)."""

    BLOCK = 65536

    def __init__(self, array, *, encoded: Sequence[str] | None = None):
        self.array = np.asarray(array)
        self.encoded = encoded

    def __len__(self) -> int:
        return len(self.array)

    def values(self, start: int = 0, stop: int | None = None) -> list:
        """The values from ``start`` to ``stop`` as JSON-safe Python values."""
        part = self.array[start:stop]
        cells = part.tolist()
        if part.dtype.kind == "f" and not np.isfinite(part).all():
            return [v if math.isfinite(v) else _NON_FINITE[str(v)] for v in cells]
        if part.dtype.kind == "O":
            return [json_safe(v) for v in cells]
        return cells

    def blocks(self):
        """The text of consecutive blocks of values, without the brackets."""
        if self.encoded is not None:
            yield from self.encoded
            return
        for start in range(0, len(self.array), self.BLOCK):
            part = self.array[start : start + self.BLOCK]
            texts = _float_texts(part) if part.dtype.kind == "f" and np.isfinite(part).all() else None
            yield (
                ", ".join(texts.tolist())
                if texts is not None
                else _FLAT.encode(self.values(start, start + self.BLOCK))[1:-1]
            )


_NON_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def encoded_blocks(arrays: Sequence) -> list[tuple[str, ...]]:
    """:meth:`Array.blocks` of each of ``arrays``: their JSON text, made where they are sent."""
    return [tuple(Array(array).blocks()) for array in arrays]


def encoded_rows(
    frame: pd.DataFrame,
    *,
    integer_keys: Collection[Any] = frozenset(),
    nested: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """The rows of a table as JSON text, ``"index": {"column": value, ...}`` each, one a line (as
    :func:`dumps_json` writes a row of :func:`frame_records`: the C encoder; a line end never occurs
    inside JSON text, where it is escaped)."""
    encode = _FLAT.encode
    names = [str(c) for c in frame.columns]
    objects = {name: fields for name, fields in (nested or {}).items() if set(fields.values()) <= set(names)}
    if len(set(names)) < len(names) or set(objects) & set(names) or not frame.index.is_unique:  # as dicts keep them
        return "\n".join(
            encode(i) + ": " + encode(row)
            for i, row in frame_records(frame, integer_keys=integer_keys, nested=nested).items()
        )
    # every row has the same keys: one template for all, filled with the encoder's text of each cell
    cells = _columns_texts(list(frame.columns), [frame[c].to_numpy() for c in frame.columns], integer_keys)
    pieces = [_literal(encode(name) + ": ") + "{}" for name in names]
    for name, fields in objects.items():
        inner = ", ".join(_literal(encode(field) + ": ") + "{}" for field in fields)
        pieces.append(_literal(encode(name) + ": {") + inner + "}}")
        cells += [cells[names.index(column)] for column in fields.values()]
    template = "{{" + ", ".join(pieces) + "}}"
    rows = zip(*cells) if cells else itertools.repeat((), len(frame))
    return "\n".join(encode(str(i)) + ": " + template.format(*row) for i, row in zip(frame.index.tolist(), rows))


def _literal(text: str) -> str:
    """``text`` as the literal part of a ``str.format`` template."""
    return text.replace("{", "{{").replace("}", "}}")


_SCALARS = frozenset((float, int, bool, type(None)))


def _columns_texts(names: list, columns: list[np.ndarray], integer_keys) -> list[list[str]]:
    """The JSON text of each cell of each column, as :func:`_column_values` and :func:`_cell_texts` make it:
    the float columns' distinct values made text once for all of them (the columns of a table share many
    values: 0, 1, ratios of small counts), a column at a time when a zero among them is negative."""
    floats = [k for k, values in enumerate(columns) if values.dtype.kind == "f" and names[k] not in integer_keys]
    finite = {k: np.isfinite(columns[k]) for k in floats}
    kept = {k: columns[k] if finite[k].all() else columns[k][finite[k]] for k in floats}
    joint = _float_texts(np.concatenate(list(kept.values()))) if floats else None
    if joint is not None:
        parts: list[np.ndarray | None] = list(np.split(joint, np.cumsum([len(kept[k]) for k in floats])[:-1]))
    else:
        parts = [_float_texts(kept[k]) for k in floats]
    out: list[list[str] | None] = [None] * len(columns)
    for k, texts in zip(floats, parts):
        if texts is None:
            continue
        if len(texts) < len(columns[k]):  # null where the column is not finite
            cells = np.full(len(columns[k]), "null", dtype=object)
            cells[finite[k]] = texts
            texts = cells
        out[k] = texts.tolist()
    return [
        _cell_texts(_column_values(names[k], columns[k], integer_keys)) if cells is None else cells
        for k, cells in enumerate(out)
    ]


def distinct_floats(values: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """A float array's distinct values (sorted; NaN once) and each value's index among them, so that what is
    made of a value (its text) is made once per distinct value: per-show ratios repeat (a third of them are
    distinct in a corpus of 2,000 shows). None when a zero is negative: it equals 0.0 but is written ``-0.0``."""
    zeros = values == 0.0
    if zeros.any() and np.signbit(values[zeros]).any():
        return None
    return np.unique(values, return_inverse=True)


def _float_texts(values: np.ndarray) -> np.ndarray | None:
    """The shortest text of each of finite ``values`` (``repr``, as the C encoder writes a float), an object
    array, each distinct value's made once (:func:`distinct_floats`; None where it gives None)."""
    found = distinct_floats(values)
    if found is None:
        return None
    distinct, where = found
    if not len(distinct):
        return np.empty(0, dtype=object)
    return np.array(_FLAT.encode(distinct.tolist())[1:-1].split(", "), dtype=object)[where]


def _cell_texts(values: list) -> list[str]:
    """The JSON text of each of ``values`` (JSON-safe), as the C encoder writes it inside a row: numbers,
    booleans and nulls encoded as one list and cut at its separators (none occurs inside them)."""
    if values and set(map(type, values)) <= _SCALARS:
        return _FLAT.encode(values)[1:-1].split(", ")
    return [_FLAT.encode(v) for v in values]


def dumps_json(data, *, indent: int = 1) -> str:
    """JSON text of JSON-safe ``data``: nested containers indented, one per line, and a container that
    holds only scalars written on one line (``{"show": "s1", "cov_n": 0.5}``) by the C encoder, so
    that a corpus of thousands of shows is written in a fraction of a second and read line by line."""
    return "".join(json_pieces(data, indent=indent))


def json_pieces(data, *, indent: int = 1, size: int = 1 << 20):
    """:func:`dumps_json` of ``data`` in pieces of about ``size`` characters or more, made as they are
    written: a :class:`Records` table a block of rows at a time."""
    parts: list[str] = []
    held = 0
    for piece in _pieces(data, 0, indent):
        parts.append(piece)
        held += len(piece)
        if held >= size:
            yield "".join(parts)
            parts, held = [], 0
    if parts:
        yield "".join(parts)


def _holds_containers(values) -> bool:
    # the distinct types first (one pass in C): a corpus has thousands of rows of scalars
    return any(issubclass(t, (Mapping, list, tuple, Records, Array)) for t in set(map(type, values)))


def _is_row(value: Mapping) -> bool:
    """True for a row of values with objects of scalars among them (a show's row and its ``stories``):
    written on one line, as :func:`encoded_rows` writes it."""
    objects = [v for v in value.values() if isinstance(v, Mapping)]
    return (
        len(objects) < len(value)
        and not _holds_containers([v for v in value.values() if not isinstance(v, Mapping)])
        and not any(_holds_containers(o.values()) for o in objects)
    )


def _pieces(value, depth: int, indent: int):
    pad = "\n" + " " * (indent * (depth + 1))
    end = "\n" + " " * (indent * depth)
    if isinstance(value, Array):  # as _FLAT writes a list of scalars: one line
        yield "["
        for k, values in enumerate(value.blocks()):
            yield (", " if k else "") + values
        yield "]"
        return
    if isinstance(value, Records):
        if not len(value):
            yield "{}"
            return
        sep = "," + pad
        for k, rows in enumerate(value.blocks()):
            yield ("{" + pad if k == 0 else sep) + rows.replace("\n", sep)
        yield end + "}"
        return
    if isinstance(value, Mapping):
        items = list(value.items())
        nested = _holds_containers(value.values()) and not _is_row(value)
    elif isinstance(value, (list, tuple)):
        items = None
        nested = _holds_containers(value)
    else:
        nested = False
    if not nested:
        yield _FLAT.encode(value)
        return
    if items is not None:
        yield "{"
        for i, (k, v) in enumerate(items):
            if not isinstance(k, str):
                raise TypeError(f"keys must be str, not {type(k).__name__}")
            yield ("," if i else "") + pad + _FLAT.encode(k) + ": "
            yield from _pieces(v, depth + 1, indent)
        yield end + "}"
    else:
        yield "["
        for i, v in enumerate(value):
            yield ("," if i else "") + pad
            yield from _pieces(v, depth + 1, indent)
        yield end + "]"


def write_json_atomic(path, data, *, indent: int = 1, safe: bool = False) -> Path:
    """Write ``data`` as UTF-8 JSON (NaN as null, keys in the given order) to ``path`` atomically
    (:func:`dumps_json`); ``safe=True`` says ``data`` is already :func:`json_safe` (not converted again)."""
    pieces = json_pieces(data if safe else json_safe(data), indent=indent)
    return write_text_atomic(path, itertools.chain(pieces, ["\n"]))
