"""Masses: a segmentation in the unit domain as the sizes of its segments (segeval's convention).

``(3, 5, 2)`` is a text of 10 units cut after unit 3 and after unit 8: its boundary positions (the
number of units before each internal boundary) are ``cumsum(masses)[:-1] = (3, 8)``, and its boundary
indicator over the ``N - 1`` gaps between adjacent units is ``0 0 1 0 0 0 0 1 0`` (gap ``g`` lies
after unit ``g + 1``, counting units from 1).

Inputs are checked here, once, with numpy; the metrics trust what these functions return. The one
check is :func:`as_masses` (:func:`as_pair` for two segmentations of the same text,
:func:`pair_positions` for their boundary positions): a fast path for what callers pass most often (a
list, tuple or integer array of positive integers) and a careful path that names what is wrong.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from tvseg.errors import InputError

__all__ = [
    "as_masses",
    "as_pair",
    "pair_positions",
    "boundary_positions",
    "to_indicator",
    "from_indicator",
    "from_positions",
]

_INT64_MAX = 2**63 - 1


def as_masses(masses, *, name: str = "masses") -> np.ndarray:
    """Check and convert a segmentation given as masses.

    Parameters
    ----------
    masses : sequence of int
        Segment sizes in units; each a positive integer (floats equal to integers are accepted).
    name : str
        What to call the argument in an error message.

    Returns
    -------
    numpy.ndarray of int64, 1-D, not empty.

    Raises
    ------
    InputError
        Not 1-D, empty, a non-integer, a zero or negative mass, a mass or a total beyond int64 (it would
        wrap around silently); the message names the position and value.
    """
    fast = _fast_masses(masses)
    if fast is not None:
        return fast
    if isinstance(masses, (str, bytes)) or masses is None:
        raise InputError(f"{name} must be a sequence of positive integers", value=masses)
    if isinstance(masses, (list, tuple)) and any(type(v) is bool for v in masses):
        raise InputError(f"{name} must hold integers, not booleans", value=masses)
    arr = np.asarray(masses)
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"{name} must be a non-empty 1-D sequence of positive integers", value=masses)
    if arr.dtype.kind in "iu":
        if arr.dtype.kind == "u" and (arr > _INT64_MAX).any():
            i = int(np.flatnonzero(arr > _INT64_MAX)[0])
            raise InputError(f"{name}[{i}] is beyond a 64-bit integer", value=int(arr[i]))
        out = arr.astype(np.int64, copy=False)
    elif arr.dtype.kind == "f":
        finite = np.isfinite(arr)
        whole = finite & (arr == np.round(np.where(finite, arr, 0)))
        if not whole.all():
            i = int(np.flatnonzero(~whole)[0])
            raise InputError(f"{name}[{i}] is not a whole number of units", value=arr[i].item())
        huge = np.abs(arr) >= 2.0**63
        if huge.any():
            i = int(np.flatnonzero(huge)[0])
            raise InputError(f"{name}[{i}] is beyond a 64-bit integer", value=arr[i].item())
        out = arr.astype(np.int64)
    elif arr.dtype.kind == "b":
        raise InputError(f"{name} must hold integers, not booleans", value=masses)
    else:
        try:
            out = np.array([_to_int(v, name, i) for i, v in enumerate(masses)], dtype=np.int64)
        except TypeError:
            raise InputError(f"{name} must be a sequence of positive integers", value=masses) from None
    bad = out <= 0
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"{name}[{i}] must be a positive number of units", value=int(out[i]))
    if int(out.max()) > _INT64_MAX // out.size:  # the int64 sum might wrap: add exactly
        total = sum(out.tolist())
        if total > _INT64_MAX:
            raise InputError(f"{name} add up to {total} units, beyond a 64-bit integer")
    return out


def _to_int(v, name, i) -> int:
    if isinstance(v, bool):
        raise InputError(f"{name}[{i}] must be an integer, not a boolean", value=v)
    if isinstance(v, (int, np.integer)):
        return _in_int64(int(v), name, i)
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return _in_int64(int(v), name, i)
    if isinstance(v, Decimal) and v.is_finite() and v == v.to_integral_value():
        return _in_int64(int(v), name, i)
    raise InputError(f"{name}[{i}] is not a whole number of units", value=v)


def _in_int64(v: int, name, i) -> int:
    if not -_INT64_MAX - 1 <= v <= _INT64_MAX:
        raise InputError(f"{name}[{i}] is beyond a 64-bit integer", value=v)
    return v


def _fast_masses(masses):
    """``masses`` as int64 when it plainly is a valid segmentation, else None (the careful path decides).

    Plain means: a 1-D integer array, or a list or tuple of ints, all positive, with a total that
    cannot wrap int64. ``struct`` packs the Python ints of a list straight into a numpy buffer and
    refuses anything that is not an integer (a float, a string, an int beyond int64); a boolean packs
    as 0 or 1, so a 0 sends the input to the careful path, and so does a 1 that is a boolean.
    """
    kind = type(masses)
    if kind is np.ndarray:
        if masses.ndim != 1 or masses.size == 0 or masses.dtype.kind not in "iu" or masses.min() < 1:
            return None
        if masses.dtype.kind == "u" and masses.dtype.itemsize == 8 and masses.max() > _INT64_MAX:
            return None
        out = masses.astype(np.int64, copy=False)
    elif kind is list or kind is tuple:
        out = _packed(masses)
        if out is None:
            return None
    else:
        return None
    if int(out.max()) > _INT64_MAX // out.size:  # the sum might wrap: the careful path adds exactly
        return None
    return out


def _packed(first, second=()):
    """One or two lists (or tuples) of ints packed into one int64 buffer, or None unless ``first`` is
    not empty and every value is a positive int (not a boolean)."""
    na, nb = len(first), len(second)
    if not na:
        return None
    buf = np.empty(na + nb, np.int64)
    try:
        struct.pack_into(f"={na + nb}q", buf, 0, *first, *second)
    except (struct.error, TypeError, ValueError, OverflowError):
        return None
    least = buf.min()
    if least < 1:
        return None
    if least == 1:  # a 1 may be True: look at the type of each value packed as 1
        for i in (buf == 1).nonzero()[0].tolist():
            if type(first[i] if i < na else second[i - na]) is bool:
                return None
    return buf


def as_pair(reference, hypothesis, *, names: Sequence[str] = ("reference", "hypothesis")):
    """Check two segmentations of the same text: both valid masses with the same total.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
    """
    a = as_masses(reference, name=names[0])
    b = as_masses(hypothesis, name=names[1])
    _same_total(int(a.sum()), int(b.sum()), names)
    return a, b


def _same_total(ta: int, tb: int, names=("reference", "hypothesis")) -> None:
    if ta != tb:
        raise InputError(f"{names[0]} and {names[1]} cover different numbers of units ({ta} and {tb})")


Masses: TypeAlias = "Sequence[int] | NDArray[np.integer[Any]]"
"""One segmentation as masses: the number of units in each segment, in order."""


def pair_positions(reference: Masses, hypothesis: Masses) -> tuple[int, int, NDArray[np.int64], NDArray[np.int64]]:
    """A checked pair (:func:`as_pair`) as ``(N, reference segments, reference positions, hypothesis
    positions)``: what the window metrics need.

    Two lists (or tuples) of ints are packed into one buffer and summed by one cumulative sum.
    """
    if type(reference) in (list, tuple) and type(hypothesis) in (list, tuple) and hypothesis:
        buf = _packed(reference, hypothesis)
        if buf is not None and int(buf.max()) <= _INT64_MAX // buf.size:
            na = len(reference)
            ends = np.cumsum(buf)
            ta = int(ends[na - 1])
            tb = int(ends[-1]) - ta
            _same_total(ta, tb)
            return ta, na, ends[: na - 1], ends[na:-1] - ta
    a, b = as_pair(reference, hypothesis)
    return int(a.sum()), int(a.size), boundary_positions(a), boundary_positions(b)


def boundary_positions(masses: np.ndarray) -> np.ndarray:
    """Internal boundary positions: ``cumsum(masses)[:-1]``, strictly increasing, in ``1 .. N-1``."""
    return np.cumsum(masses)[:-1]


def to_indicator(masses: np.ndarray) -> np.ndarray:
    """Boundary indicator over the ``N - 1`` gaps: ``out[p - 1] = True`` for each boundary position ``p``."""
    n = int(masses.sum())
    out = np.zeros(max(n - 1, 0), dtype=bool)
    out[boundary_positions(masses) - 1] = True
    return out


def from_positions(positions, total: int) -> np.ndarray:
    """Masses from sorted internal boundary positions (each in ``1 .. total-1``) and the total."""
    edges = np.concatenate(([0], np.asarray(positions, dtype=np.int64), [total]))
    return np.diff(edges)


def from_indicator(indicator) -> np.ndarray:
    """Masses from a boundary indicator over the ``N - 1`` gaps (inverse of :func:`to_indicator`)."""
    indicator = np.asarray(indicator, dtype=bool)
    return from_positions(np.flatnonzero(indicator) + 1, indicator.size + 1)
