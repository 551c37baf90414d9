"""Reading a file's text, and the warnings readers give about it.

Every reader starts here, so that encodings, empty files and line ends are handled the same way
everywhere (the policy: ``formats/README.md``): UTF-8 with or without a byte order mark (BOM), UTF-16 and
UTF-32 with one; another encoding when it is declared (:func:`check_encoding`), a BOM and UTF-8 still
winning (:func:`read_text`); any other bytes refused at the line of the first byte that does not decode,
naming the byte and how to declare the encoding or convert the file (an undeclared encoding is never
guessed); lines ending with LF, CRLF or CR; a device refused, a stream read up to :data:`STREAM_LIMIT` bytes.
"""

from __future__ import annotations

import codecs
import os
import re
import shlex
import stat
import sys
import warnings

from tvseg.errors import InputError, LenientInputWarning, TvsegWarning
from tvseg.readers.parts import part_of

__all__ = ["read_text", "read_bytes", "split_lines", "lines_of", "warn", "check_encoding", "STREAM_LIMIT"]

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


EXAMPLES = "gb2312, shift_jis, iso-8859-1 or a Windows code page, cp1250 to cp1258"
"""Encodings the messages give as examples of ``--encoding NAME`` (none singled out as a guess)."""


def check_encoding(encoding: str | None) -> str | None:
    """Return ``encoding`` when it names a text encoding Python knows (``None``: not declared).

    Raises
    ------
    InputError
        When it names none (``"utf8x"``) or a codec that does not read bytes as text (``"base64"``):
        one line, exit 2 on the command line.
    """
    if encoding is None:
        return None
    try:
        info = codecs.lookup(encoding)
    except (LookupError, TypeError):
        info = None
    if info is None or not getattr(info, "_is_text_encoding", True):
        what = "unknown encoding" if info is None else "not a text encoding"
        raise InputError(
            f"{what} {encoding!r} (--encoding, encoding=): give a text encoding Python knows, "
            f"such as utf-8, utf-16-le, big5, koi8-r, {EXAMPLES}"
        )
    return encoding


def read_text(path: str | os.PathLike, *, encoding: str | None = None) -> str:
    """Return the text of ``path``, decoded by its byte order mark, else as UTF-8, else as ``encoding``.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    encoding : str, optional
        The encoding of the files that are not UTF-8, as declared by the user (``--encoding``). A byte
        order mark wins over it, and so does UTF-8 when ``encoding`` reads ASCII as ASCII (cp1251, gb2312,
        latin-1...): a file that decodes as UTF-8 is read as UTF-8, so that a corpus mixing UTF-8 files
        and files in ``encoding`` reads right (text in such an encoding, beyond ASCII, practically never
        decodes as UTF-8). Other encodings (utf-16-le, utf-32...) apply as given.

    Raises
    ------
    InputError
        When ``encoding`` is unknown (:func:`check_encoding`), the file cannot be opened, does not
        decode (naming the line of the first bad byte, the byte, and how to declare the encoding or
        convert the file keeping its name), is mostly NUL characters (UTF-16 without a byte order
        mark), starts with a second byte order mark, or holds nothing but whitespace.
    """
    check_encoding(encoding)
    data = read_bytes(path)
    skip, codec, name = next(
        ((len(bom), codec, name) for bom, codec, name in _BOMS if data.startswith(bom)),
        (0, encoding or "utf-8", encoding or "UTF-8"),
    )
    text = None
    if not skip and encoding is not None and ascii_compatible(encoding):
        try:  # a UTF-8 file among files in the encoding given (text in another encoding is not valid UTF-8)
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    try:
        text = data[skip:].decode(codec) if text is None else text
    except UnicodeError as error:
        if not isinstance(error, UnicodeDecodeError):  # a codec that says no more (idna, punycode)
            raise InputError(f"does not decode as {encoding}, the encoding given ({error})", path=path) from None
        line = len(split_lines(data[skip : skip + error.start].decode(codec, errors="replace") + "x"))
        bad = data[skip + error.start : skip + error.end]
        if skip:
            message = f"not {name} text although it starts with a {name} byte order mark (bad bytes)"
            raise InputError(message, path=path, line=line, value=bad) from None
        if encoding is not None:
            tried = ascii_compatible(encoding) and codecs.lookup(encoding).name != "utf-8"
            also = " (nor as UTF-8)" if tried else ""
            message = f"byte 0x{bad[0]:02X} does not decode as {encoding}, the encoding given{also}: is it the file's?"
            raise InputError(message, path=path, line=line) from None
        raise InputError(_not_utf8(data, error.start, path), path=path, line=line) from None
    if text.startswith("\ufeff"):  # a mark written twice: refused, whatever the format, as every reader reads here
        second = data[skip : skip + len("\ufeff".encode(codec))]
        message = "the text starts with a second byte order mark (U+FEFF) after the first: remove it"
        raise InputError(message, path=path, line=1, value=bytes(second))
    if "\x00" in text and text.count("\x00") * 4 >= len(text):
        line = len(split_lines(text[: text.index("\x00")] + "x"))
        order = _utf16_order(data)
        raise InputError(
            f"NUL characters all over the text: UTF-16 without a byte order mark? give its encoding "
            f"(--encoding utf-16-{order.lower()}, encoding= in Python), or convert it keeping its name: "
            f"{_iconv('UTF-16' + order, path)}",
            path=path,
            line=line,
        )
    if not text.strip():
        raise InputError("empty file", path=path, line=1)
    return text


STREAM_LIMIT = 1 << 30
"""The most bytes read from a stream (a named pipe, a socket, ``/dev/stdin`` fed by a pipe), 1 GiB: a stream
has no size to check, and one that never ends would fill the memory."""


def read_bytes(path: str | os.PathLike) -> bytes:
    """The bytes of ``path`` (of its part, in a shard: :func:`~tvseg.readers.parts.part_of`).

    A regular file is read whole; a stream (a named pipe, a socket) up to :data:`STREAM_LIMIT` bytes.

    Raises
    ------
    InputError
        A folder, a device (``/dev/zero``, a terminal, a disk: no file to read), a stream of more than
        :data:`STREAM_LIMIT` bytes, or a file that cannot be read.
    """
    part = part_of(path)
    try:
        if part is not None:
            return part.read(path)
        with open(path, "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if stat.S_ISREG(mode):
                return handle.read()
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
                kind = "character" if stat.S_ISCHR(mode) else "block"
                raise InputError(f"is a device ({kind} special file), not a file", path=path)
            data = handle.read(STREAM_LIMIT + 1)
            if len(data) > STREAM_LIMIT:
                raise InputError(
                    f"a stream (a pipe) of more than {STREAM_LIMIT:,} bytes, the most read from one: write it to a file",
                    path=path,
                )
            return data
    except IsADirectoryError:
        raise InputError("is a folder, expected a file", path=path) from None
    except OSError as error:
        raise InputError(f"cannot read the file ({error.strerror})", path=path) from None


def ascii_compatible(encoding: str | None) -> bool:
    """Whether bytes below 128 mean their ASCII characters in ``encoding`` (``None``: UTF-8, yes)."""
    if encoding is None:
        return True
    ascii = bytes(range(128))
    try:
        return ascii.decode(encoding) == ascii.decode("ascii")
    except (UnicodeDecodeError, LookupError):
        return False


PADDING = 16
"""Zero bytes after the text that :func:`read_plain_ascii` returns (:class:`tvseg.readers.scan.Scan`
reads 16 bytes from any field's start)."""

_NOT_BLANK = re.compile(rb"[^ \t\n\x0b\x0c]")


def read_plain_ascii(path: str | os.PathLike, *, encoding: str | None = None) -> bytearray | None:
    """The text of ``path`` as a fast reader scans it, read once and never copied: its bytes, ``\\n``
    added when the last line has no line end, then :data:`PADDING` zero bytes. Only when
    :func:`read_text` would return those bytes as they are: ASCII (so UTF-8 without a byte order mark,
    or any ``encoding`` in which ASCII bytes are ASCII) with no CR and no NUL, not blank. ``None``
    otherwise, and when the file cannot be read: :func:`read_text` then reads it and gives its errors.
    """
    if not ascii_compatible(encoding):
        return None
    part = part_of(path)
    try:
        if part is not None:
            data = bytearray(part.read(path))
            size = len(data)
            data.extend(bytes(1 + PADDING))
        else:
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
    """The message for undeclared bytes that are not UTF-8: the byte, and how to declare the encoding or
    convert the file (an encoding is named only when it is certain: mostly NULs are UTF-16)."""
    if data.count(0) * 4 >= len(data):
        order = _utf16_order(data)
        encoding = f"UTF-16{order}"
        return (
            f"not UTF-8 text: looks like {encoding} without a byte order mark; give its encoding "
            f"(--encoding utf-16-{order.lower()}, encoding= in Python), "
            f"or convert it keeping its name: {_iconv(encoding, path)}"
        )
    declare = (
        f"give its encoding with --encoding NAME (encoding= in Python; for example {EXAMPLES}), "
        f"or convert it keeping its name: {_iconv('NAME', path)}"
    )
    byte = f"byte 0x{data[start]:02X}"
    if not data[:start].isascii():
        return (
            f"not UTF-8 ({byte}), although the text before it is: a file mixing two encodings? fix "
            "this line in a UTF-8 editor (converting the whole file would garble its UTF-8 text); "
            f"or a file in another encoding: {declare}"
        )
    return f"not UTF-8 ({byte}); {declare}"


def _utf16_order(data: bytes) -> str:
    """``"LE"`` or ``"BE"``: the byte order of UTF-16 bytes without a byte order mark (ASCII text has
    its NULs after each character in little-endian order)."""
    return "LE" if data[1::2].count(0) >= data[0::2].count(0) else "BE"


def _iconv(encoding: str, path) -> str:
    """The command that converts ``path`` from ``encoding`` to UTF-8 in place: its name, and so its show
    id, unchanged."""
    source = shlex.quote(os.fspath(path))
    temporary = shlex.quote(os.fspath(path) + ".tmp")
    return f"iconv -f {encoding} -t UTF-8 {source} > {temporary} && mv {temporary} {source}"


def split_lines(text: str) -> list[str]:
    """Split ``text`` on LF, CRLF and CR; a final line end does not make an extra empty line."""
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def lines_of(text: str) -> str:
    """The text with every line ending with ``\\n`` (CRLF and CR made LF: the same lines)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


def warn(message: str, *, path, line: int | None = None, category: type[TvsegWarning] = LenientInputWarning) -> None:
    """Give a warning ``PATH[:LINE]: message`` about an input file (of ``category``, by default
    :class:`~tvseg.errors.LenientInputWarning`: the readers warn about what they repaired or left out).

    The warning is attributed to the first caller outside tvseg (as ``warnings.warn`` with the
    right ``stacklevel`` would), and each call is shown under Python's default filter, even for
    the same file read twice in one process: it goes through :func:`warnings.warn_explicit` with
    a fresh registry, so the once-per-location memory of :func:`warnings.warn` never hides it.
    The caller's globals are not passed on (``module_globals``): Python would then ask the caller's
    module loader for its source, and the loader of a ``python -c`` or stdin ``__main__`` raises
    ImportError instead of answering (the source line is then read from the file, as ``warnings.warn``
    reads it).
    """
    frame = sys._getframe(1)
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    where = os.fspath(path) + (f":{line}" if line is not None else "")
    module = frame.f_globals.get("__name__")
    warnings.warn_explicit(
        f"{where}: {message}",
        category,
        filename=frame.f_code.co_filename,
        lineno=frame.f_lineno,
        module=module if isinstance(module, str) else "tvseg",
        registry={},
    )
