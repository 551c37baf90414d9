"""Exceptions and warnings that tvseg raises for bad input.

Library code raises; only :func:`tvseg.cli.main` turns these into a message and an exit code
(2 for :class:`TvsegError` and for a warning made an error by the user's filter, 1 for anything else,
which is a bug).
"""

from __future__ import annotations

import os
import sys

__all__ = [
    "TvsegError",
    "InputError",
    "UsageError",
    "MissingExtraError",
    "TvsegWarning",
    "LenientInputWarning",
    "SuspiciousInputWarning",
    "UndefinedValueWarning",
    "FewShowsWarning",
    "ApproximationWarning",
    "OutputChangedWarning",
]

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


class TvsegError(Exception):
    """Base class of the errors a user can fix (bad input or bad usage): exit code 2."""


class InputError(TvsegError, ValueError):
    """A file or a value that tvseg refuses.

    Parameters
    ----------
    message : str
        What is wrong, in a few words.
    path : str or os.PathLike, optional
        The file the value comes from.
    line : int, optional
        The 1-based line number in ``path``.
    value : object, optional
        The offending value (or line); shown with ``repr`` after the message.

    Notes
    -----
    ``str(error)`` is ``PATH:LINE: message: 'value'`` (the parts that are known), the format that
    ``tvseg validate`` prints and that editors and CI logs recognise.
    """

    def __init__(
        self, message: str, *, path: str | os.PathLike[str] | None = None, line: int | None = None, value: object = None
    ):
        self.message = message
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.value = value
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        what = self.message
        if self.value is not None:
            shown = self.value if isinstance(self.value, str) else repr(self.value)
            if len(shown) > 120:
                shown = shown[:117] + "..."
            what += f": {shown!r}" if isinstance(self.value, str) else f": {shown}"
        return where + what


class UsageError(TvsegError, ValueError):
    """Options that do not fit together, or a command line that cannot be carried out."""


class MissingExtraError(TvsegError, ImportError):
    """An optional library that the input or an option needs is not installed; the message names the
    ``pip install 'tvseg[EXTRA]'`` that brings it (exit code 2, printed without the usage)."""


class TvsegWarning(UserWarning):
    """The base of every warning tvseg gives: something about the input, the numbers or the output
    that the user should know of.

    Filter the base class to act on all of them, a subclass for one kind::

        warnings.simplefilter("error", tvseg.TvsegWarning)  # strict: any warning raises
        warnings.simplefilter("ignore", tvseg.LenientInputWarning)  # quiet about repaired input
    """


class LenientInputWarning(TvsegWarning):
    """The input was read leniently: repaired, cropped, or part of it left out (a cue time read as a
    fraction of a second, a segment cropped to the UEM, a field or a file not read, a show the
    reference lacks left out, a show without hypothesis scored as an empty one)."""


class SuspiciousInputWarning(TvsegWarning):
    """The input is read as given but looks like a mistake (captions given as topic segments, a
    hypothesis or units in another time base than the reference's)."""


class UndefinedValueWarning(TvsegWarning):
    """A number is undefined: NaN in Python, ``null`` in the JSON (a 0/0 rate, no window that fits);
    the warning names the metric, the system, where (shows, corpus, macro, ...) and why."""


class FewShowsWarning(TvsegWarning):
    """Too few shows for the statistics asked for: bootstrap intervals and p-values unreliable (or
    absent with one show)."""


class ApproximationWarning(TvsegWarning):
    """A result is computed by an approximation (boundaries matched greedily in a very large cluster:
    the count is exact, the pairs may not be the closest)."""


class OutputChangedWarning(TvsegWarning):
    """What tvseg writes differs from what it was given (a show id made a safe file name, whitespace
    in an RTTM label, chapter starts rounded to whole seconds)."""


def user_stacklevel() -> int:
    """The ``stacklevel`` with which the function calling this one makes :func:`warnings.warn` name the
    user's line: the first caller outside the tvseg package (a script's, a notebook cell's, a test's line,
    however deep in tvseg the warning is given)."""
    frame = sys._getframe(1)  # the caller of warnings.warn: stacklevel 1
    level = 1
    while frame.f_back is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level
