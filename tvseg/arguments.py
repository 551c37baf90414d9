"""Checks of what is given to tvseg's public functions, at the call.

A value of the wrong kind (``None`` or a list for a mapping, a dict for a :class:`~tvseg.settings.Settings`,
NaN for a tolerance) is refused where it is given, naming the argument, what it got and what it accepts:
``hypotheses must be a mapping {system name: {show id: segmentation}}, got a list``. Data (segmentations,
UEM, units, metadata, paths) is refused with an :class:`~tvseg.errors.InputError`, options with a
:class:`~tvseg.errors.UsageError`, as the readers and :class:`~tvseg.settings.Settings` refuse their
values; both are ``ValueError``. Only the kind is checked here: the values are checked where they are read.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from tvseg.errors import InputError, UsageError
from tvseg.exact import MAX_SECONDS
from tvseg.pyannote_objects import is_annotation, is_timeline

__all__ = [
    "SEGMENTATION",
    "got",
    "refused",
    "check_path",
    "check_segmentations",
    "check_systems",
    "check_annotations",
    "check_uem",
    "check_units",
    "check_metadata",
    "check_tolerances",
    "check_flag",
    "check_ends",
    "check_end",
]

SEGMENTATION = "a pyannote.core Annotation or Timeline, (start, end) pairs, an (n, 2) array or None"
"""What one show's segmentation may be (:func:`tvseg.columns.from_segmentation` reads each of them)."""


def got(value: Any) -> str:
    """What a refused value is, for a message: ``None``, a short value with its type (``'x' (a str)``,
    ``nan (a float)``), or the type alone (``a list``)."""
    if value is None:
        return "None"
    kind = type(value).__name__
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    if isinstance(value, (bool, int, float, str, bytes, np.generic)):
        shown = repr(value.item() if isinstance(value, np.generic) else value)  # nan, not np.float64(nan)
        return f"{shown if len(shown) <= 60 else shown[:57] + '...'} ({article} {kind})"
    return f"{article} {kind}"


def refused(name: str, accepted: str, value: Any, *, option: bool = False) -> InputError | UsageError:
    """The error for argument ``name``: what it must be, what it got; a ``UsageError`` for an option."""
    message = f"{name} must be {accepted}, got {got(value)}"
    return UsageError(message) if option else InputError(message)


def check_path(name: str, value: Any) -> None:
    """``value`` is a path: a ``str`` or an ``os.PathLike`` (a :class:`pathlib.Path`)."""
    if not isinstance(value, (str, os.PathLike)):
        raise refused(name, "a path (a str or a pathlib.Path)", value)


def _is_segmentation(value: Any) -> bool:
    if value is None or is_annotation(value) or is_timeline(value):
        return True
    if not isinstance(value, (list, tuple, np.ndarray)):
        return False
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return False
    return array.size == 0 or (array.ndim == 2 and array.shape[1] == 2)


def check_segmentations(name: str, value: Any) -> None:
    """``value`` maps show ids to segmentations (:data:`SEGMENTATION`); what :func:`tvseg.read_segments`
    returns is taken as it is."""
    from tvseg.columns import Columns

    accepted = f"a mapping {{show id: segmentation}} (a segmentation: {SEGMENTATION})"
    if not isinstance(value, Mapping):
        raise refused(name, accepted, value)
    if isinstance(value, Columns):
        return
    for show, segmentation in value.items():
        if not _is_segmentation(segmentation):
            raise refused(f"{name}[{show!r}]", SEGMENTATION, segmentation)


def check_systems(name: str, value: Any, *, kind: str = "system") -> None:
    """``value`` maps names (of systems, of annotators: ``kind``) to ``{show id: segmentation}`` mappings."""
    if not isinstance(value, Mapping):
        raise refused(name, f"a mapping {{{kind} name: {{show id: segmentation}}}}", value)
    for system, segmentations in value.items():
        check_segmentations(f"{name}[{system!r}]", segmentations)


def check_annotations(name: str, value: Any, *, optional: bool = False) -> None:
    """``value`` maps show ids (texts) to pyannote.core Annotations (what a writer writes); None when ``optional``."""
    accepted = "a mapping {show id: pyannote.core Annotation}" + (" or None" if optional else "")
    if value is None and optional:
        return
    if not isinstance(value, Mapping):
        raise refused(name, accepted, value)
    for show, annotation in value.items():
        if not isinstance(show, str):
            raise refused(f"a show id of {name}", "a str", show)
        if not is_annotation(annotation):
            raise refused(f"{name}[{show!r}]", "a pyannote.core Annotation", annotation)


def check_uem(value: Any) -> None:
    """``value`` is None or maps show ids to pyannote.core Timelines (what :func:`tvseg.read_uem` returns)."""
    accepted = "a mapping {show id: pyannote.core Timeline} (as tvseg.read_uem returns) or None"
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise refused("uem", accepted, value)
    from tvseg.columns import RegionColumns

    if isinstance(value, RegionColumns):  # what read_uem returns, checked as it was read
        return
    for show, timeline in value.items():
        if timeline is not None and not is_timeline(timeline):
            raise refused(f"uem[{show!r}]", "a pyannote.core Timeline", timeline)


def check_units(value: Any) -> None:
    """``value`` is None or maps show ids to units (each checked where it is read)."""
    if value is not None and not isinstance(value, Mapping):
        raise refused(
            "units", "a mapping {show id: DataFrame of start, end} (as tvseg.read_units returns) or None", value
        )


def check_metadata(value: Any) -> None:
    """``value`` is None or a pandas DataFrame (as :func:`tvseg.read_metadata` returns)."""
    import pandas as pd

    if value is not None and not isinstance(value, pd.DataFrame):
        raise refused(
            "metadata", "a pandas DataFrame indexed by show id (as tvseg.read_metadata returns) or None", value
        )


def check_tolerances(name: str, value: Any) -> None:
    """``value`` is a sequence of tolerances: finite numbers of seconds in ``[0, MAX_SECONDS]``."""
    one = f"a number of seconds in [0, {MAX_SECONDS:,.0f}]"
    if not isinstance(value, (list, tuple, range, np.ndarray)) or (isinstance(value, np.ndarray) and value.ndim != 1):
        raise refused(name, f"a sequence of numbers of seconds in [0, {MAX_SECONDS:,.0f}]", value, option=True)
    for i, tolerance in enumerate(value):
        if isinstance(tolerance, (bool, np.bool_)) or not isinstance(tolerance, numbers.Real):
            raise refused(f"{name}[{i}]", one, tolerance, option=True)
        if not math.isfinite(tolerance) or not 0 <= float(tolerance) <= MAX_SECONDS:
            raise refused(f"{name}[{i}]", one, tolerance, option=True)


def check_flag(name: str, value: Any) -> None:
    """``value`` is True or False."""
    if not isinstance(value, (bool, np.bool_)):
        raise refused(name, "True or False", value, option=True)


def check_ends(end, *, folder: bool):
    """``end=`` as given to ``read_segments``: ``None``, one number (not for a folder), or ``{show: seconds}``."""
    if end is None:
        return None
    if isinstance(end, Mapping):
        return {key: check_end(value, what=f"end of show {key!r}") for key, value in end.items()}
    if folder:
        raise UsageError("end= as one number is the end of a single chapter list: give {show: end} for a folder")
    return check_end(end)


def check_end(value, *, what: str = "end") -> float:
    """A show's end given by the caller, as float seconds (a finite, non-negative number)."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise UsageError(f"{what} must be a number of seconds, not {value!r}") from None
    if isinstance(value, bool) or not math.isfinite(seconds) or seconds <= 0 or seconds > MAX_SECONDS:
        raise UsageError(
            f"{what} must be a positive number of seconds up to {MAX_SECONDS:,.0f} (tvseg's time range), not {value!r}"
        )
    return seconds
