"""Text made safe to print on a terminal, whatever the input files hold.

A show id, a title, a system name or a file name comes from the user's files and may hold an
escape sequence: ``ESC[2J`` clears the screen, ``ESC]0;title BEL`` renames the window, a carriage
return overwrites what the line said, a bidi override (U+202E) shows the rest of the line backwards.
Every message tvseg prints (warnings, errors, progress bars, ``validate``'s report, the summary
table) goes through :func:`printable`, which shows such characters escaped as Python writes them
(``\\x1b``, ``\\x9b``, ``\\u202e``), so the message is shown as text and nothing else happens.
"""

from __future__ import annotations

import re

__all__ = ["printable"]

# C0 controls but tab and newline (those two are kept or not by printable), DEL and the C1 controls;
# the bidi embeddings, overrides and isolates, and the implicit marks (they reorder what is shown);
# the line and paragraph separators (some terminals break the line there); lone surrogates (they
# cannot be encoded, and print would fail).
_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_ONE_LINE = re.compile(f"[{_UNSAFE}\t\n]")
_LINES = re.compile(f"[{_UNSAFE}]")


_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object, *, lines: bool = False) -> str:
    """``str(text)`` with every character that could act on a terminal written as an escape.

    Parameters
    ----------
    text : object
        The message, or one part of it (a show id, a path); ``str()`` of anything else.
    lines : bool, default False
        Keep newlines and tabs (a message of several lines that tvseg wrote itself). By default they
        are escaped too (``\\n``, ``\\t``), so that a value cannot start a line that looks like
        tvseg's own (``tvseg: error: ...``).

    Returns
    -------
    str
        The text, with C0 and C1 control characters, DEL, bidi controls, line and paragraph
        separators and lone surrogates as ``\\xHH`` or ``\\uHHHH``; the rest unchanged.

    Examples
    --------
    >>> printable("news\\x1b[2J")
    'news\\\\x1b[2J'
    >>> printable("a\\nb", lines=True)
    'a\\nb'
    """
    text = str(text)
    return (_LINES if lines else _ONE_LINE).sub(_escaped, text)
