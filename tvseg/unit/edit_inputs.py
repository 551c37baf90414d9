"""The inputs of the boundary edit distance: two segmentations as masses or boundary strings, and the
options ``n`` and ``weights`` (Fournier & Inkpen 2012).

Positions are boundary positions as in :mod:`tvseg.unit.masses`: the number of units before the
boundary, ``1 .. N-1`` (segeval's boundary-string index plus one).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from tvseg.errors import InputError
from tvseg.unit.masses import as_pair, boundary_positions

__all__ = ["SINGLE_TYPE", "as_boundary_string_pair", "check_edit_options"]

SINGLE_TYPE = 1  # the boundary type of a segmentation given as masses (segeval's convention)


def _is_boundary_string(seq) -> bool:
    if isinstance(seq, np.ndarray):
        return seq.dtype == object
    if isinstance(seq, (str, bytes)) or not isinstance(seq, Sequence) or len(seq) == 0:
        return False
    return isinstance(seq[0], (set, frozenset, list, tuple))


Boundaries: TypeAlias = "Sequence[int] | NDArray[np.integer[Any]] | Sequence[Collection[Hashable]]"
"""A segmentation for the edit-based metrics: masses, or a boundary string (a collection of boundary
types per potential boundary)."""
Positions: TypeAlias = "dict[Hashable, NDArray[np.int64]]"


def as_boundary_string_pair(
    a: Boundaries, b: Boundaries, boundary_types: Iterable[Hashable] | None = None
) -> tuple[tuple[Hashable, ...], Positions, Positions, int]:
    """Check two segmentations and return ``(types, positions_a, positions_b, pbs)``.

    ``positions_x`` maps each boundary type to the sorted int64 array of its positions in ``x``; ``pbs``
    is ``N - 1``. ``a`` and ``b`` are masses (one boundary type, labelled 1), or *boundary strings*:
    sequences of ``N - 1`` collections of boundary types, one per potential boundary (segeval's
    ``BoundaryFormat.sets``, e.g. ``[set(), {1}, set(), {1, 2}]``). With ``boundary_types`` given, the
    inputs must be boundary strings whose types all belong to it, and ``t = len(boundary_types)``;
    otherwise ``t`` is the number of types that occur (at least 1).
    """
    if boundary_types is None and not (_is_boundary_string(a) or _is_boundary_string(b)):
        ma, mb = as_pair(a, b, names=("a", "b"))
        return (
            (SINGLE_TYPE,),
            {SINGLE_TYPE: boundary_positions(ma)},
            {SINGLE_TYPE: boundary_positions(mb)},
            int(ma.sum()) - 1,
        )
    if boundary_types is not None:
        if isinstance(boundary_types, (str, bytes)) or not isinstance(boundary_types, Iterable):
            raise InputError("boundary_types must be a collection of boundary type labels", value=boundary_types)
        declared = list(dict.fromkeys(boundary_types))
        if not declared:
            raise InputError("boundary_types must not be empty")
    else:
        declared = None
    pa = _string_positions(a, "a")
    pb = _string_positions(b, "b")
    if pa[1] != pb[1]:
        raise InputError(f"a and b have different numbers of potential boundaries ({pa[1]} and {pb[1]})")
    present = list(dict.fromkeys(list(pa[0]) + list(pb[0])))
    if declared is None:
        try:
            types = tuple(sorted(present)) or (SINGLE_TYPE,)
        except TypeError:
            types = tuple(present) or (SINGLE_TYPE,)
    else:
        unknown = [t for t in present if t not in declared]
        if unknown:
            raise InputError("boundary type not in boundary_types", value=unknown[0])
        types = tuple(declared)
    empty = np.zeros(0, dtype=np.int64)
    pos_a = {t: np.asarray(pa[0].get(t, empty), dtype=np.int64) for t in types}
    pos_b = {t: np.asarray(pb[0].get(t, empty), dtype=np.int64) for t in types}
    return types, pos_a, pos_b, pa[1]


def _string_positions(string, name):
    if isinstance(string, (str, bytes)) or not isinstance(string, (Sequence, np.ndarray)):
        raise InputError(
            f"{name} must be masses or a boundary string (a sequence of sets of boundary types)", value=string
        )
    out: dict = {}
    for i, cell in enumerate(string):
        if isinstance(cell, (str, bytes)) or not isinstance(cell, Iterable):
            raise InputError(f"{name}[{i}] must be a set of boundary types", value=cell)
        for t in cell:
            if t is None:
                raise InputError(f"{name}[{i}] holds None as a boundary type", value=cell)
            out.setdefault(t, []).append(i + 1)
    return out, len(string)


def check_edit_options(n, weights) -> tuple[int, float, float]:
    """``(n, w_sub, w_trp)`` checked: ``n`` an integer >= 1, each weight a number in [0, 1]; else an
    :class:`~tvseg.errors.InputError`."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InputError("n must be an integer >= 1 (the largest transposition span in PBs; 1 allows none)", value=n)
    try:
        w_sub, w_trp = (float(w) for w in weights)
    except (TypeError, ValueError):
        raise InputError("weights must be a pair of numbers (substitution, transposition)", value=weights) from None
    for w in (w_sub, w_trp):
        if not (0.0 <= w <= 1.0):
            raise InputError("weights must lie in [0, 1] (Fournier & Inkpen 2012, section 3.3)", value=weights)
    return int(n), w_sub, w_trp
