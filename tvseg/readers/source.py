"""Reading a file's text: UTF-8 with or without a byte order mark, LF, CRLF or CR line ends.

Every reader starts here, so that a file that is not UTF-8 or that is empty is refused the same
way everywhere, with the line of the first bad byte.
"""
from __future__ import annotations

import os
import re

from tvseg.errors import InputError

__all__ = ["read_text", "split_lines"]

_LINE_END = re.compile(r"\r\n|\r|\n")
_BOM = "\ufeff"


def read_text(path: str | os.PathLike) -> str:
    """Return the text of ``path`` decoded as UTF-8, without its byte order mark.

    Raises
    ------
    InputError
        When the file cannot be opened, is not valid UTF-8 (naming the line of the first bad
        byte), or holds nothing but whitespace.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except IsADirectoryError:
        raise InputError("is a folder, expected a file", path=path) from None
    except OSError as error:
        raise InputError(f"cannot read the file ({error.strerror})", path=path) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = len(split_lines(data[:error.start].decode("utf-8") + "x"))
        raise InputError("not UTF-8 text (bad byte)", path=path, line=line,
                         value=data[error.start:error.start + 1]) from None
    if text.startswith(_BOM):
        text = text[1:]
    if not text.strip():
        raise InputError("empty file", path=path, line=1)
    return text


def split_lines(text: str) -> list[str]:
    """Split ``text`` on LF, CRLF and CR; a final line end does not make an extra empty line."""
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines
