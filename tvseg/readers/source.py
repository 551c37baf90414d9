"""Reading a file's text, and the warnings readers give about it.

Every reader starts here, so that encodings, empty files and line ends are handled the same way
everywhere:

- UTF-8 with or without a byte order mark (BOM); UTF-16 and UTF-32 (either byte order) with a BOM;
- any other bytes are refused at the line of the first byte that does not decode, with the
  encoding the bytes look like (Windows-1252/Latin-1, UTF-16 without a BOM) and the ``iconv``
  command that converts the file;
- text of which a quarter or more is NUL characters is refused (UTF-16 or UTF-32 without a BOM that
  happens to decode as UTF-8);
- lines end with LF, CRLF or CR (never with U+0085, U+2028 or U+2029, which stay in the text).
"""

from __future__ import annotations

import os
import re
import shlex
import stat
import sys
import warnings
from pathlib import Path

from tvseg.errors import InputError, TvsegWarning

__all__ = ["read_text", "split_lines", "warn"]

_PACKAGE = os.path.dirname(os.path.dirname(__file__)) + os.sep
_LINE_END = re.compile(r"\r\n|\r|\n")
# longest first: the UTF-32-LE mark begins with the UTF-16-LE one
_BOMS = (
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32"),
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32"),
    (b"\xef\xbb\xbf", "utf-8", "UTF-8"),
    (b"\xfe\xff", "utf-16-be", "UTF-16"),
    (b"\xff\xfe", "utf-16-le", "UTF-16"),
)


def read_text(path: str | os.PathLike) -> str:
    """Return the text of ``path``, decoded by its byte order mark (UTF-8 without one).

    Raises
    ------
    InputError
        When the file cannot be opened, does not decode (naming the line of the first bad byte,
        the encoding the file looks like and the ``iconv`` command that converts it), is mostly NUL
        characters (UTF-16 without a byte order mark), or holds nothing but whitespace.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except IsADirectoryError:
        raise InputError("is a folder, expected a file", path=path) from None
    except OSError as error:
        raise InputError(f"cannot read the file ({error.strerror})", path=path) from None
    skip, codec, name = next(
        ((len(bom), codec, name) for bom, codec, name in _BOMS if data.startswith(bom)), (0, "utf-8", "UTF-8")
    )
    try:
        text = data[skip:].decode(codec)
    except UnicodeDecodeError as error:
        line = len(split_lines(data[skip : skip + error.start].decode(codec) + "x"))
        bad = data[skip + error.start : skip + error.end]
        if skip:
            raise InputError(
                f"not {name} text although it starts with a {name} byte order mark (bad bytes)",
                path=path,
                line=line,
                value=bad,
            ) from None
        raise InputError(_not_utf8(data, error.start, path), path=path, line=line, value=bad[:1]) from None
    if "\x00" in text and text.count("\x00") * 4 >= len(text):
        line = len(split_lines(text[: text.index("\x00")] + "x"))
        raise InputError(
            f"NUL characters all over the text: UTF-16 without a byte order mark? convert it: {_iconv('UTF-16', path)}",
            path=path,
            line=line,
            value=b"\x00",
        )
    if not text.strip():
        raise InputError("empty file", path=path, line=1)
    return text


PADDING = 16
"""Zero bytes after the text that :func:`read_plain_ascii` returns (:class:`tvseg.readers.scan.Scan`
reads 16 bytes from any field's start)."""

_NOT_BLANK = re.compile(rb"[^ \t\n\x0b\x0c]")


def read_plain_ascii(path: str | os.PathLike) -> bytearray | None:
    """The text of ``path`` as a fast reader scans it, read once and never copied: its bytes, ``\\n``
    added when the last line has no line end, then :data:`PADDING` zero bytes. Only when
    :func:`read_text` would return those bytes as they are: ASCII (so UTF-8 without a byte order mark)
    with no CR and no NUL, not blank. ``None`` otherwise, and when the file cannot be read:
    :func:`read_text` then reads it and gives its errors.
    """
    try:
        with open(path, "rb") as handle:
            status = os.fstat(handle.fileno())
            if not stat.S_ISREG(status.st_mode):
                return None  # a pipe is read once, by read_text
            size = status.st_size
            data = bytearray(size + 1 + PADDING)
            if handle.readinto(data) != size:
                return None  # the file changed while it was read
    except OSError:
        return None
    if not data.isascii() or data.find(b"\r", 0, size) >= 0 or data.find(b"\x00", 0, size) >= 0:
        return None
    if _NOT_BLANK.search(data, 0, size) is None:
        return None
    if data[size - 1] == 10:
        del data[size]
    else:
        data[size] = 10
    return data


def _not_utf8(data: bytes, start: int, path) -> str:
    """The message for bytes that are not UTF-8: what they look like, and how to convert them."""
    if data.count(0) * 4 >= len(data):
        little = data[1::2].count(0) >= data[0::2].count(0)
        encoding = "UTF-16LE" if little else "UTF-16BE"
        return f"not UTF-8 text: looks like {encoding} without a byte order mark; convert it: {_iconv(encoding, path)}"
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        encoding, shown = "ISO-8859-1", "Latin-1 (ISO-8859-1)"
    else:
        encoding, shown = "WINDOWS-1252", "Windows-1252/Latin-1"
    if not data[:start].isascii():
        return (
            f"not UTF-8 text: UTF-8 before this byte, which looks like {shown}: a file mixing two "
            "encodings? fix the line in a UTF-8 editor (converting the whole file would garble "
            "its UTF-8 text)"
        )
    return f"not UTF-8 text: looks like {shown}; convert it: {_iconv(encoding, path)}"


def _iconv(encoding: str, path) -> str:
    source = Path(path)
    target = source.with_name(f"{source.stem}.utf8{source.suffix}")
    return f"iconv -f {encoding} -t UTF-8 {shlex.quote(str(source))} > {shlex.quote(str(target))}"


def split_lines(text: str) -> list[str]:
    """Split ``text`` on LF, CRLF and CR; a final line end does not make an extra empty line."""
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def warn(message: str, *, path, line: int | None = None) -> None:
    """Give a :class:`~tvseg.errors.TvsegWarning` ``PATH[:LINE]: message`` about an input file.

    The warning is attributed to the first caller outside tvseg (as ``warnings.warn`` with the
    right ``stacklevel`` would), and each call is shown under Python's default filter, even for
    the same file read twice in one process: it goes through :func:`warnings.warn_explicit` with
    a fresh registry, so the once-per-location memory of :func:`warnings.warn` never hides it.
    """
    frame = sys._getframe(1)
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    where = os.fspath(path) + (f":{line}" if line is not None else "")
    warnings.warn_explicit(
        f"{where}: {message}",
        TvsegWarning,
        filename=frame.f_code.co_filename,
        lineno=frame.f_lineno,
        module=frame.f_globals.get("__name__", "tvseg"),
        registry={},
        module_globals=frame.f_globals,
    )
