"""Masses: a segmentation in the unit domain as the sizes of its segments (segeval's convention).

``(3, 5, 2)`` is a text of 10 units cut after unit 3 and after unit 8: its boundary positions (the
number of units before each internal boundary) are ``cumsum(masses)[:-1] = (3, 8)``, and its boundary
indicator over the ``N - 1`` gaps between adjacent units is ``0 0 1 0 0 0 0 1 0`` (gap ``g`` lies
after unit ``g + 1``, counting units from 1).

Inputs are checked here, once, with numpy; the metrics trust what these functions return. The one
check is :func:`as_masses` (:func:`as_pair` for two segmentations of the same text,
:func:`check_pair` for a pair as the kernels take it): a fast path for what callers pass most often (a
list, tuple or integer array of positive integers) and a careful path that names what is wrong.

:class:`BoundaryPairs` is what every unit-domain kernel takes: many pairs (reference, hypothesis), a
corpus of shows, a simulation's hypotheses against their reference, or the one pair of a per-pair
function, as flat boundary positions; it merges the two sides of every pair once, and finds the
positions where they differ, for the window metrics (:mod:`tvseg.unit.windows`) and the boundary edit
distance (:mod:`tvseg.unit.edits`).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from decimal import Decimal
from functools import cached_property
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from tvseg.errors import InputError

__all__ = [
    "BoundaryPairs",
    "as_masses",
    "as_pair",
    "check_pair",
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
        _first(arr.dtype.kind == "u" and arr > _INT64_MAX, arr, name, "is beyond a 64-bit integer")
        out = arr.astype(np.int64, copy=False)
    elif arr.dtype.kind == "f":
        finite = np.isfinite(arr)
        _first(~(finite & (arr == np.round(np.where(finite, arr, 0)))), arr, name, "is not a whole number of units")
        _first(np.abs(arr) >= 2.0**63, arr, name, "is beyond a 64-bit integer")
        out = arr.astype(np.int64)
    elif arr.dtype.kind == "b":
        raise InputError(f"{name} must hold integers, not booleans", value=masses)
    else:
        try:
            out = np.array([_to_int(v, name, i) for i, v in enumerate(masses)], dtype=np.int64)
        except TypeError:
            raise InputError(f"{name} must be a sequence of positive integers", value=masses) from None
    _first(out <= 0, out, name, "must be a positive number of units")
    if int(out.max()) > _INT64_MAX // out.size:  # the int64 sum might wrap: add exactly
        total = sum(out.tolist())
        if total > _INT64_MAX:
            raise InputError(f"{name} add up to {total} units, beyond a 64-bit integer")
    return out


def _first(bad: Any, values: np.ndarray, name: str, what: str) -> None:
    """An :class:`~tvseg.errors.InputError` naming the first of ``values`` where ``bad`` holds, if any."""
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"{name}[{i}] {what}", value=values[i].item())


def _to_int(v, name, i) -> int:
    if isinstance(v, bool):
        raise InputError(f"{name}[{i}] must be an integer, not a boolean", value=v)
    whole = isinstance(v, (int, np.integer)) or isinstance(v, (float, np.floating)) and float(v).is_integer()
    if not (whole or isinstance(v, Decimal) and v.is_finite() and v == v.to_integral_value()):
        raise InputError(f"{name}[{i}] is not a whole number of units", value=v)
    if not -_INT64_MAX - 1 <= int(v) <= _INT64_MAX:
        raise InputError(f"{name}[{i}] is beyond a 64-bit integer", value=int(v))
    return int(v)


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
    check_same_total(int(a.sum()), int(b.sum()), names)
    return a, b


def check_same_total(ta: int, tb: int, names: Sequence[str] = ("reference", "hypothesis")) -> None:
    """An :class:`~tvseg.errors.InputError` unless the two segmentations cover as many units."""
    if ta != tb:
        raise InputError(f"{names[0]} and {names[1]} cover different numbers of units ({ta} and {tb})")


Masses: TypeAlias = "Sequence[int] | NDArray[np.integer[Any]]"
"""One segmentation as masses: the number of units in each segment, in order."""


def check_pair(reference: Masses, hypothesis: Masses) -> BoundaryPairs:
    """A checked pair (:func:`as_pair`) as the kernels take it: a :class:`BoundaryPairs` of one pair.

    Two lists (or tuples) of ints are packed into one buffer and summed by one cumulative sum.
    """
    if type(reference) in (list, tuple) and type(hypothesis) in (list, tuple) and hypothesis:
        buf = _packed(reference, hypothesis)
        if buf is not None and int(buf.max()) <= _INT64_MAX // buf.size:
            na = len(reference)
            ends = np.cumsum(buf)
            ta = int(ends[na - 1])
            tb = int(ends[-1]) - ta
            check_same_total(ta, tb)
            return BoundaryPairs(
                ta, ends[: na - 1], np.array([0, na - 1]), ends[na:-1] - ta, np.array([0, len(hypothesis) - 1])
            )
    a, b = as_pair(reference, hypothesis)
    return BoundaryPairs.one(int(a.sum()), boundary_positions(a), boundary_positions(b))


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


class BoundaryPairs:
    """Many pairs (reference, hypothesis), each two segmentations of one text, as flat boundary positions.

    Pair ``i`` is a text of ``n[i]`` units; the boundary positions (:func:`boundary_positions`) of its
    reference are ``reference[reference_offsets[i]:reference_offsets[i + 1]]``, sorted, in
    ``1 .. n[i] - 1``, and those of its hypothesis likewise. The arrays are trusted (int64): the public
    functions check masses (:func:`check_pair`), the corpus builds them from its projection.
    ``shared_reference``: every pair has the same reference (:meth:`against`), whose counts a kernel
    may then take once.

    Both sides of every pair are merged once into :attr:`merged`: one int64 key per boundary,
    ``((i << bits) | position) << 1 | side`` (side 0 the reference, 1 the hypothesis), sorted, so that
    the pairs follow each other and a position of the reference comes before the same position of the
    hypothesis; :attr:`differences` keeps the keys of the positions where only one side has a boundary.
    """

    def __init__(
        self,
        n: Any,
        reference: NDArray[np.int64],
        reference_offsets: NDArray[np.int64],
        hypothesis: NDArray[np.int64],
        hypothesis_offsets: NDArray[np.int64],
        *,
        shared_reference: bool = False,
    ) -> None:
        self.n = n
        self.shared_reference = shared_reference
        self.reference = reference
        self.reference_offsets = reference_offsets
        self.hypothesis = hypothesis
        self.hypothesis_offsets = hypothesis_offsets
        self.size = len(reference_offsets) - 1

    @cached_property
    def bits(self) -> int:
        """A pair's positions lie below ``2**bits``, and those of two pairs at least ``2**bits - N`` apart."""
        n = self.n if type(self.n) is int else int(np.max(self.n, initial=1))
        return (max(n, 1) * 2).bit_length()

    @classmethod
    def one(cls, n: int, reference: NDArray[np.int64], hypothesis: NDArray[np.int64]) -> BoundaryPairs:
        """One pair: ``n`` units (an int), the two sides' sorted boundary positions."""
        return cls(n, reference, np.array([0, reference.size]), hypothesis, np.array([0, hypothesis.size]))

    @classmethod
    def against(cls, reference: Masses, hypotheses: Any) -> BoundaryPairs:
        """Many hypotheses of one reference (checked): ``hypotheses`` a boolean ``(H, N - 1)`` array of
        boundary indicators over the gaps (:func:`to_indicator`), or a sequence of masses."""
        ref = as_masses(reference, name="reference")
        n = int(ref.sum())
        positions = boundary_positions(ref)
        if isinstance(hypotheses, np.ndarray) and hypotheses.ndim == 2:
            if hypotheses.dtype != bool:
                raise InputError(
                    "hypotheses must be a boolean indicator array of shape (H, N-1)", value=str(hypotheses.dtype)
                )
            if hypotheses.shape[1] != n - 1:
                raise InputError(f"hypotheses must have N-1 = {n - 1} columns", value=hypotheses.shape[1])
            count, gaps = hypotheses.shape
            flat = np.flatnonzero(hypotheses)
            offsets = np.zeros(count + 1, np.int64)
            if gaps:
                offsets[1:] = np.searchsorted(flat, gaps * np.arange(1, count + 1))
            hyp = flat  # gap g of row i is flat index i * gaps + g - 1
            hyp -= np.repeat(gaps * np.arange(count) - 1, np.diff(offsets))
        else:
            sides = []
            for i, h in enumerate(hypotheses):
                m = as_masses(h, name=f"hypotheses[{i}]")
                if int(m.sum()) != n:
                    raise InputError(f"hypotheses[{i}] covers {int(m.sum())} units, the reference {n}")
                sides.append(boundary_positions(m))
            count = len(sides)
            offsets = np.concatenate(([0], np.cumsum([s.size for s in sides], dtype=np.int64)))
            hyp = np.concatenate(sides) if sides else np.zeros(0, np.int64)
        reference_offsets = positions.size * np.arange(count + 1)
        return cls(np.full(count, n), np.tile(positions, count), reference_offsets, hyp, offsets, shared_reference=True)

    def reference_segments(self) -> Any:
        """Segments of each reference: its boundaries plus one (an int for one pair)."""
        if self.size == 1:
            return self.reference.size + 1
        return np.diff(self.reference_offsets) + 1

    @cached_property
    def merged(self) -> NDArray[np.int64]:
        """Both sides' boundaries of every pair, merged: sorted keys (class docstring)."""
        nr = self.reference.size
        keys = np.concatenate((self.reference, self.hypothesis))
        pairs = np.arange(self.size, dtype=np.int64) << self.bits  # each position's pair in the high bits
        keys[:nr] |= np.repeat(pairs, np.diff(self.reference_offsets))
        keys[nr:] |= np.repeat(pairs, np.diff(self.hypothesis_offsets))
        keys <<= 1
        keys[nr:] |= 1
        keys.sort(kind="stable")  # two sorted runs: merged
        return keys

    @cached_property
    def merged_offsets(self) -> NDArray[np.int64]:
        """Where each pair's keys start in :attr:`merged`."""
        return self.reference_offsets + self.hypothesis_offsets

    @cached_property
    def _difference_mask(self) -> NDArray[np.bool_]:
        keys = self.merged
        alone = (keys[1:] ^ keys[:-1]) > 1  # not the same place as the next key (but for the side bit)
        keep = np.ones(keys.size, bool)
        keep[1:] &= alone
        keep[:-1] &= alone
        return keep

    @cached_property
    def differences(self) -> NDArray[np.int64]:
        """The keys of :attr:`merged` whose position only one side has, in order."""
        return self.merged[self._difference_mask]

    @cached_property
    def difference_offsets(self) -> NDArray[np.int64]:
        """Where each pair's keys start in :attr:`differences`."""
        kept = np.zeros(self.merged.size + 1, np.int64)
        np.cumsum(self._difference_mask, out=kept[1:])
        return kept[self.merged_offsets]

    def pair(self, keys: NDArray[np.int64]) -> NDArray[np.int64]:
        """The pair of each merged key."""
        return keys >> (self.bits + 1)
