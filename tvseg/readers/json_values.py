"""JSON values as the readers of JSON formats take them (chunkseg's JSONL, the JSON shapes of video
chapters, records read through ``--columns``).

Numbers are kept as the text written (:class:`Number`), so that a time is read from its digits as every
reader reads one (:func:`json_time`); a key given twice in one object is refused (:class:`DuplicateKey`);
a value of the wrong JSON type is refused with the value as written (:func:`expect`).
"""

from __future__ import annotations

import json
import math
import re

from tvseg.errors import InputError
from tvseg.readers.source import warn
from tvseg.readers.validation import MAX_SECONDS, parse_time

__all__ = [
    "SURROGATE",
    "no_surrogate",
    "Number",
    "DuplicateKey",
    "MAX_DEPTH",
    "loads",
    "unique_pairs",
    "too_deep",
    "repeated_key_line",
    "dumps",
    "json_time",
    "json_score",
    "expect",
    "warn_unread",
]

SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate: what a broken ``\\u`` escape leaves in a string."""


def no_surrogate(text: str, what: str, *, path, line: int) -> str:
    """``text``, refused when it holds a lone surrogate (``"{what} holds a lone surrogate ..."``)."""
    if SURROGATE.search(text):
        raise InputError(f"{what} holds a lone surrogate (a broken \\u escape)", path=path, line=line, value=repr(text))
    return text


class Number(str):
    """A JSON number (or constant) kept as the text written in the file."""

    __slots__ = ()  # no instance dictionary: made for every number of a file, this halves the parse's cost


class DuplicateKey(Exception):
    """A key given twice in one JSON object (raised inside :func:`loads`)."""


def unique_pairs(pairs: list, *, first_repeated: bool = False) -> dict:
    """The ``object_pairs_hook`` of :func:`loads`: raises :class:`DuplicateKey` for a key given twice."""
    result = dict(pairs)
    if len(result) != len(pairs):
        keys = [key for key, _ in pairs]
        if first_repeated:
            raise DuplicateKey(next(key for key in result if keys.count(key) > 1))
        seen: set = set()
        for key in keys:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return result


def _unique_pairs_first_repeated(pairs: list) -> dict:
    return unique_pairs(pairs, first_repeated=True)


def loads(text: str, *, first_repeated: bool = False):
    """``json.loads`` keeping numbers as :class:`Number` and raising :class:`DuplicateKey` for a key given
    twice in an object: the key whose second occurrence comes first, or (``first_repeated``) the first
    key in the object that is given again."""
    return json.loads(
        text,
        parse_float=Number,
        parse_int=Number,
        parse_constant=Number,
        # called once per object: unique_pairs itself, with no wrapper around it (a tenth of a large file's parse)
        object_pairs_hook=_unique_pairs_first_repeated if first_repeated else unique_pairs,
    )


def json_line(raw: str, *, path, line: int, unit: str = "line", limit: int | None = None):
    """One line of a JSON Lines file parsed by :func:`loads` (``first_repeated``), its failures as an
    :class:`InputError` naming ``path`` and ``line``: a key given twice in this ``unit`` (``"line"``,
    ``"record"``), not JSON (the line, cut at ``limit`` characters, as the value), nested too deep."""
    try:
        return loads(raw, first_repeated=True)
    except DuplicateKey as duplicate:
        raise InputError(f"a field is given twice in this {unit}", path=path, line=line, value=str(duplicate)) from None
    except json.JSONDecodeError as error:
        raise InputError(
            f"not JSON ({error.msg} at column {error.colno})", path=path, line=line, value=raw[:limit]
        ) from None
    except RecursionError:
        raise too_deep(raw, path=path, line=line) from None


MAX_DEPTH = 64
"""How deep a JSON file is said to be nested when Python's parser cannot follow it: a file nested beyond
what the parser reaches (about a thousand levels under the default recursion limit; the formats tvseg
reads need a few) is refused, naming the line of its first bracket deeper than this."""

# a JSON string (an unterminated one runs to the end, so the scan stays linear) or a bracket
_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')


def too_deep(text: str, *, path, line: int = 1) -> InputError:
    """The error for a JSON ``text`` that ``json.loads`` could not follow (:class:`RecursionError`).

    Parameters
    ----------
    text : str
        The JSON text that was parsed.
    path : str or os.PathLike
        The file it comes from.
    line : int, default 1
        The line of ``path`` on which ``text`` starts (a JSONL file's line).

    Returns
    -------
    InputError
        ``PATH:LINE: JSON nested too deeply to read (more than MAX_DEPTH levels)``, LINE that of the
        first bracket deeper than :data:`MAX_DEPTH`.
    """
    depth = 0
    for token in _BRACKET.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line += text.count("\n", 0, token.start())
                break
        elif bracket in "]}":
            depth -= 1
    return InputError(f"JSON nested too deeply to read (more than {MAX_DEPTH} levels)", path=path, line=line)


_STRINGS = json.JSONDecoder()  # raw_decode at a quote reads one string: its text and where it ends


def repeated_key_line(text: str, key: str | None) -> int | None:
    """The line (from 1) where ``key`` (None: any key) is first given a second time in one object of the
    JSON ``text``: the place :func:`loads` refused (None when it is not found, as in a text that is not JSON)."""
    stack: list = []  # per open container: the keys seen in an object, None for an array
    i, n = 0, len(text)
    try:
        while i < n:
            c = text[i]
            if c == '"':
                value, end = _STRINGS.raw_decode(text, i)
                j = end
                while j < n and text[j] in " \t\r\n":
                    j += 1
                if j < n and text[j] == ":" and stack and stack[-1] is not None:
                    if (key is None or value == key) and value in stack[-1]:
                        return text.count("\n", 0, i) + 1
                    stack[-1].add(value)
                i = end
                continue
            if c == "{":
                stack.append(set())
            elif c == "[":
                stack.append(None)
            elif c in "}]" and stack:
                stack.pop()
            i += 1
    except ValueError:  # a string that is not JSON
        return None
    return None


def dumps(value, *, limit: int | None = 120) -> str:
    """A value as JSON writes it (non-ASCII as it is), cut at ``limit`` characters, for a message."""
    return json.dumps(value, ensure_ascii=False)[:limit]


def json_time(value, *, path, line: int, field: str, limit: int | None = 120) -> float:
    """A time in seconds: a JSON number, read from its digits (:func:`~tvseg.readers.validation.parse_time`)."""
    if not isinstance(value, Number):
        raise InputError(f"{field} must be a number of seconds", path=path, line=line, value=dumps(value, limit=limit))
    seconds = float(value)  # JSON's number grammar is a part of validation.DECIMAL: its digits read as parse_time does
    if 0 <= seconds <= MAX_SECONDS:
        return seconds
    return parse_time(value, path=path, line=line, field=field)


def json_score(value, *, path, line: int, field: str = "score") -> float:
    """A segment's score: a JSON number, finite; NaN for ``null`` or a missing value (``None``)."""
    if value is None:
        return math.nan
    number = float(value) if isinstance(value, Number) else math.nan
    if not math.isfinite(number):
        raise InputError(f"'{field}' must be a finite number (or null)", path=path, line=line, value=dumps(value))
    return number


def expect(value, kind: type, message: str, *, path, line: int):
    """``value`` when it is a ``kind`` (``dict``, ``list``), else an :class:`InputError` with ``message``."""
    if not isinstance(value, kind):
        raise InputError(message, path=path, line=line, value=dumps(value))
    return value


def warn_unread(unread: dict[str, int], reads: str, *, path) -> None:
    """One warning naming the fields not read (``unread``: field -> the line it was first seen on)."""
    if unread:
        names = sorted(unread, key=unread.__getitem__)
        warn(
            f"field(s) not read (tvseg reads {reads}): {', '.join(map(repr, names))}", path=path, line=unread[names[0]]
        )
