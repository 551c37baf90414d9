"""The edits of the boundary edit distance (:mod:`tvseg.unit.edits`) and what it returns, as data classes.

:class:`Transposition` (a near miss) and :class:`FullMiss` (a full miss: an addition, or with several
boundary types a type substitution) are the edit operations, at boundary positions as in
:mod:`tvseg.unit.masses` (the number of units before the boundary); :class:`BoundaryEdits` holds the
operations that turn one segmentation into the other and their weighted distance
(:func:`tvseg.unit.edits.boundary_edit_distance`); :class:`PairPenalty` only their counts, what the
metrics' fast path (:func:`tvseg.unit.edits.single_type_penalty`) finds for one boundary type.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import astuple, dataclass

__all__ = ["Transposition", "FullMiss", "BoundaryEdits", "PairPenalty"]


@dataclass(frozen=True)
class Transposition:
    """A near miss: the boundary of ``type`` at ``start`` in one segmentation is at ``end`` in the other."""

    start: int
    end: int
    type: Hashable
    side: str  # which segmentation has the boundary at ``start``: "a" or "b"

    @property
    def span(self) -> int:
        """The number of PBs the transposition covers (``n`` in ``te(n, b)``): ``end - start + 1``."""
        return self.end - self.start + 1

    def __iter__(self):
        return iter(astuple(self))


@dataclass(frozen=True)
class FullMiss:
    """A full miss at ``position``: ``type_a`` in ``a`` against ``type_b`` in ``b`` (None: no boundary)."""

    position: int
    type_a: Hashable | None
    type_b: Hashable | None

    @property
    def is_addition(self) -> bool:
        """True when only one segmentation has a boundary here (segeval 2.0's addition/deletion)."""
        return self.type_a is None or self.type_b is None

    def __iter__(self):
        return iter(astuple(self))


@dataclass(frozen=True)
class BoundaryEdits:
    """The edit operations that turn one segmentation into the other, and their weighted distance.

    Attributes
    ----------
    substitutions : tuple of FullMiss
        The full misses (Fournier & Inkpen 2012's *substitutions*), sorted by position. With one
        boundary type every full miss is an addition (``type_a`` or ``type_b`` is None).
    transpositions : tuple of Transposition
        The near misses, sorted by start.
    distance : float
        The weighted edit distance ``d`` in PBs: ``w_sub * len(substitutions) + w_trp * sum(te)``
        (``te`` replaced by 1 when transpositions are not scaled).
    potential_boundaries : int
        ``t * (N - 1)``: the number of boundary types times the number of PBs.
    matches : int
        Boundaries (counted per type) that both segmentations place at the same position.
    n : int
        The largest transposition span allowed, in PBs.
    """

    substitutions: tuple
    transpositions: tuple
    distance: float
    potential_boundaries: int
    matches: int
    n: int

    @property
    def additions(self) -> tuple:
        """Full misses where only one segmentation has a boundary (segeval 2.0's additions)."""
        return tuple(m for m in self.substitutions if m.is_addition)

    @property
    def type_substitutions(self) -> tuple:
        """Full misses where both segmentations have a boundary of different types (segeval 2.0's substitutions)."""
        return tuple(m for m in self.substitutions if not m.is_addition)

    @property
    def counts(self) -> dict:
        """Numbers of operations: ``substitutions`` (all full misses), ``additions``, ``type_substitutions``,
        ``transpositions``, and ``matches``."""
        n_add = sum(1 for m in self.substitutions if m.is_addition)
        return {
            "substitutions": len(self.substitutions),
            "additions": n_add,
            "type_substitutions": len(self.substitutions) - n_add,
            "transpositions": len(self.transpositions),
            "matches": self.matches,
        }


@dataclass(frozen=True)
class PairPenalty:
    r"""What :func:`tvseg.unit.edits.single_type_penalty` finds for one pair of position arrays (one boundary type).

    Attributes
    ----------
    distance : float
        The weighted edit distance in PBs.
    full_misses, transpositions : int
        The numbers of full misses (additions) and of transpositions.
    span_sum : int
        :math:`\sum (\text{span} - 1)` over the transpositions.
    matches : int
        Positions where both segmentations have a boundary.
    """

    distance: float
    full_misses: int
    transpositions: int
    span_sum: int
    matches: int

    def __iter__(self):
        return iter(astuple(self))
