"""Reading an agreement dataset: segeval's JSON ``{"items": {item: {coder: masses}}}``, or the bare
``{item: {coder: masses}}``.

A dataset is refused (``PATH:LINE: message``) rather than read in part: bytes that do not decode, a key
repeated in one object (JSON would keep the last silently), nesting too deep to parse, an integer too
long to be a number of units, masses that are not positive integers, an item of more than
:data:`MAX_UNITS` units; and whatever the ``check`` given to :func:`read_dataset_json` refuses (the
command passes :func:`tvseg.unit.agreement.check_dataset`: the coders of every item, their totals).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tvseg.errors import InputError
from tvseg.readers.json_values import MAX_DEPTH, DuplicateKey, repeated_key_line, too_deep, unique_pairs
from tvseg.readers.source import read_text
from tvseg.readers.validation import MAX_DIGITS

__all__ = ["read_dataset_json", "MAX_UNITS", "MAX_DEPTH"]


# An item of more units than this is no segmentation of a real text or show (10^9 one-second frames
# are 31 years); refused before any work, which also keeps every sum of masses far inside int64.
MAX_UNITS = 10**9
_INT64_MAX = 2**63 - 1


class _LongInteger(Exception):
    """An integer literal of more than ``MAX_DIGITS`` characters (raised inside :func:`json.loads`)."""

    def __init__(self, digits: str):
        super().__init__(digits[:20])
        self.digits = digits


def read_dataset_json(path, check=None) -> dict:
    """Read a segeval JSON dataset (``{"items": ...}`` or bare ``{item: {coder: masses}}``) and check it.

    Parameters
    ----------
    path : str or os.PathLike
        JSON in UTF-8 (with or without a byte order mark), or in UTF-16 or UTF-32 with one.
    check : callable, optional
        Run on the dataset once its masses are checked (``tvseg agreement`` passes
        :func:`tvseg.unit.agreement.check_dataset`); an :class:`InputError` it raises is raised again
        with the file and the line of the item its message names.

    Returns
    -------
    dict
        ``{item: {coder: [int, ...]}}``.

    Raises
    ------
    InputError
        With the file and, where it can be found, the line of the fault: bytes that do not decode, a
        JSON syntax error, a key repeated in one object (JSON would keep the last silently), nesting
        too deep to parse, masses that are not positive integers, an item of more than
        :data:`MAX_UNITS` units, or what ``check`` refuses.
    """
    path = Path(path)
    text = read_text(path)
    data = _parse(text, path)
    if isinstance(data, dict) and "items" in data:
        fmt = data.get("segmentation_type", "linear")
        if fmt != "linear":
            raise InputError(
                "only linear segmentations are supported",
                path=path,
                line=_find_line(text, "segmentation_type"),
                value=fmt,
            )
        data = data["items"]
    if not isinstance(data, dict) or not data:
        raise InputError('expected a non-empty object {item: {coder: masses}} (or {"items": ...})', path=path, line=1)
    for item, codings in data.items():
        if not isinstance(codings, dict):
            raise InputError(
                f"item {item!r} must map coders to masses", path=path, line=_find_line(text, item), value=codings
            )
        for coder, masses in codings.items():
            _check_masses(
                masses, f"item {item!r}, coder {coder!r}", path=path, line=_find_line(text, coder, after=item)
            )
    try:
        if check is not None:
            check(data)
    except InputError as error:
        raise InputError(
            error.message, path=path, line=_find_line(text, _first_key(error.message)), value=error.value
        ) from None
    return data


def _parse(text: str, path: Path):
    """``json.loads`` that refuses repeated keys, deep nesting and endless integers with file and line."""
    try:
        return json.loads(text, object_pairs_hook=unique_pairs, parse_int=_parse_int)
    except json.JSONDecodeError as error:
        raise InputError(
            f"invalid JSON: {error.msg} (column {error.colno})",
            path=path,
            line=error.lineno,
            value=_line(text, error.lineno),
        ) from None
    except DuplicateKey as repeated:
        line = repeated_key_line(text, None)
        raise InputError(
            "a key is repeated in one object (JSON would keep only its last value)",
            path=path,
            line=line,
            value=str(repeated),
        ) from None
    except RecursionError:  # ``{"items": {item: {coder: [masses]}}}`` needs 4 levels
        raise too_deep(text, path=path) from None
    except _LongInteger as long:
        found = text.find(long.digits)
        raise InputError(
            f"an integer of {len(long.digits)} digits cannot be a number of units",
            path=path,
            line=text.count("\n", 0, found) + 1 if found >= 0 else None,
            value=long.digits[:20] + "...",
        ) from None


def _parse_int(digits: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise _LongInteger(digits)
    return int(digits)


def _check_masses(masses, name: str, *, path, line) -> None:
    """Refuse masses that are not a non-empty list of positive integers, or too many units in all."""
    message = f"{name}: masses must be a list of positive integers"
    if not isinstance(masses, list) or not masses:
        raise InputError(message, path=path, line=line, value=masses)
    for k, m in enumerate(masses):
        if isinstance(m, bool):
            problem = "a boolean"
        elif isinstance(m, float):
            problem = "not an integer"
        elif m is None or isinstance(m, str):
            problem = "not a number"
        elif not isinstance(m, int):
            raise InputError(
                f"{message} (mass {k + 1} is a JSON {'object' if isinstance(m, dict) else 'array'})",
                path=path,
                line=line,
                value=masses,
            )
        elif m <= 0:
            problem = "not positive"
        elif m > _INT64_MAX:
            problem = "beyond a 64-bit integer"
        else:
            continue
        raise InputError(
            f"{message} (mass {k + 1} is {_short(json.dumps(m))}, {problem})", path=path, line=line, value=masses
        )
    total = sum(masses)
    if total > MAX_UNITS:
        raise InputError(
            f"{name}: {total:,} units in all, more than the {MAX_UNITS:,} an item may have",
            path=path,
            line=line,
            value=masses,
        )


def _short(shown: str) -> str:
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _line(text: str, number: int) -> str:
    lines = text.splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else ""


def _find_line(text: str, key, *, after=None) -> int | None:
    """Best-effort line of ``"key":`` in ``text`` (after the first ``"after":`` when given)."""
    if key is None:
        return None
    start = 0
    if after is not None:
        found = re.search(re.escape(json.dumps(str(after))) + r"\s*:", text)
        if found:
            start = found.end()
    found = re.compile(re.escape(json.dumps(str(key))) + r"\s*:").search(text, start)
    return text.count("\n", 0, found.start()) + 1 if found else None


def _first_key(message: str):
    found = re.search(r"item '([^']*)'", message)
    return found.group(1) if found else None
