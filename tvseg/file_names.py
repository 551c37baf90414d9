"""File names made from show ids, which come from the input files and can hold anything.

One function, :func:`safe_names`, names the files tvseg writes one per show: the report's show
pages (``shows/<name>.html``) and ``tvseg convert``'s WebVTT, SRT and chapter-list folders
(``<name>.vtt``). A name it gives:

- holds no path separator (``/``, ``\\``), no control, format or bidi character, no newline, and
  none of the characters Windows refuses (``: * ? " < > |``), so it names one file inside the
  output folder and prints as it is;
- does not start with a dot or a dash (``.``, ``..``, hidden files, options; nor with an underscore
  for the report's pages, nor a space for convert), nor end with a dot or a space (Windows drops them);
- is not a device name that Windows reserves whatever the extension (``CON``, ``PRN``, ``AUX``,
  ``NUL``, ``COM1``-``COM9``, ``LPT1``-``LPT9``, ``CONIN$``, ``CONOUT$``, in any case, ``CON.x.vtt``
  included): an underscore is put after the device name (``CON`` -> ``CON_-....``);
- is at most 64 characters (report pages) or 200 bytes of UTF-8 (convert), within the 255 bytes
  that file systems allow with the extension;
- is unique ignoring case and Unicode normalisation (two ids must not share a file on macOS or
  Windows).

An id that is already such a name keeps it. Any other id is reduced to its allowed characters and
suffixed with 8 hex digits of its SHA-256 (``a/b`` -> ``a_b-c2d4....``), so two ids that reduce
to the same text get different names. The names depend only on the set of ids, not on their order:
the ids are named in sorted order, kept names first, and a name already taken (ids differing only
in case, an id written like another's reduced name) gets the hash, then ``-2``, ``-3`` ...
"""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from collections.abc import Iterable

__all__ = ["safe_names"]

_NOT_ASCII_NAME = re.compile(r"[^A-Za-z0-9._-]+")
# the characters Windows refuses in a name, and the separators of every system
_FORBIDDEN = frozenset('/\\:*?"<>|')
# Device names Windows refuses whatever follows after a dot (a report or a folder may be copied there).
_RESERVED = re.compile(
    r"(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$) *(\.|$)", re.I
)
_MAX_ASCII = 64
_MAX_BYTES = 200
_STRIP_START = ".-_"
_STRIP_START_UNICODE = ".- "
_STRIP_END = ". "


def _allowed(char: str) -> bool:
    """A character a file name may hold as it is (keep_unicode): letters, marks, numbers,
    punctuation, symbols and the plain space, except :data:`_FORBIDDEN`."""
    if char == " ":
        return True
    category = unicodedata.category(char)
    return category[0] in "LMNPS" and char not in _FORBIDDEN


def _reduced(show_id: str, *, keep_unicode: bool) -> str:
    """``show_id`` with its disallowed characters as ``_``, its ends trimmed, its length bounded."""
    if keep_unicode:
        text = "".join(
            "".join(run) if allowed else "_" for allowed, run in itertools.groupby(show_id, key=_allowed)
        ).lstrip(_STRIP_START_UNICODE)
        encoded = text.encode("utf-8")
        if len(encoded) > _MAX_BYTES:
            text = encoded[:_MAX_BYTES].decode("utf-8", "ignore")
    else:
        text = unicodedata.normalize("NFKD", show_id).encode("ascii", "ignore").decode("ascii")
        text = _NOT_ASCII_NAME.sub("_", text).lstrip(_STRIP_START)[:_MAX_ASCII]
    text = text.rstrip(_STRIP_END) or "show"
    reserved = _RESERVED.match(text)
    if reserved:  # CON.x -> CON_.x (a suffix after the stem would leave "CON." in front)
        text = text[: reserved.end(1)] + "_" + text[reserved.end(1) :]
    return text


def _digest(show_id: str) -> str:
    return hashlib.sha256(show_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def _key(name: str) -> str:
    """What two names share when a case-insensitive, normalising file system takes them for one."""
    return unicodedata.normalize("NFC", name).casefold()


def safe_names(ids: Iterable[str], *, keep_unicode: bool = False) -> dict[str, str]:
    """Map each show id to a file stem that is safe and unique (see the module's description).

    Parameters
    ----------
    ids : iterable of str
        The show ids (repeats are named once).
    keep_unicode : bool, default False
        False (the report's pages, which are also links): a stem of ``[A-Za-z0-9._-]`` only, at most
        64 characters; an id with any other character (a space, an accent) is reduced (accents
        dropped, others as ``_``) and gets a hash. True (``tvseg convert``, whose files are read back
        with the file stem as the show id): letters, digits, punctuation and symbols of any script
        and inner spaces are kept, so that ordinary ids (``Journal de 20h``, ``émission``) keep their
        names and read back the same.

    Returns
    -------
    dict of str to str
        Show id -> file stem (without extension), in the order of ``ids``.

    Examples
    --------
    >>> names = safe_names(["news", "../etc/passwd", "CON"])
    >>> names["news"], names["../etc/passwd"][:11], names["CON"][:5]
    ('news', 'etc_passwd-', 'CON_-')
    """
    unique = list(dict.fromkeys(ids))
    wanted = {}
    for show_id in unique:
        stem = _reduced(show_id, keep_unicode=keep_unicode)
        wanted[show_id] = (stem, stem == show_id)
    names: dict[str, str] = {}
    used: set[str] = set()
    # kept names first, then in sorted order: the names depend on the set of ids, not on their order
    for show_id in sorted(unique, key=lambda i: (not wanted[i][1], i)):
        stem, kept = wanted[show_id]
        candidate = stem if kept else f"{stem}-{_digest(show_id)}"
        if _key(candidate) in used and kept:
            candidate = f"{stem}-{_digest(show_id)}"
        base, n = candidate, 1
        while _key(candidate) in used:
            n += 1
            candidate = f"{base}-{n}"
        used.add(_key(candidate))
        names[show_id] = candidate
    return {show_id: names[show_id] for show_id in unique}
