r"""Boundary edit distance between two segmentations (Fournier & Inkpen 2012; Fournier 2013), of many pairs.

Two segmentations of the same ``N`` units are compared on their ``N - 1`` potential boundaries (PBs).
A boundary present in one segmentation and not in the other is a *difference*. Differences are
resolved by two kinds of edit:

* a **transposition** (a near miss): a difference of one segmentation and a difference of the other,
  of the same boundary type, less than ``n`` PBs apart (an ``n``-wise transposition spans at most ``n``
  adjacent PBs, so ``n = 2`` allows an offset of one PB), costing
  :math:`\mathrm{te}(\text{span}, 2) = 2 - (1/2)^{\text{span} - 2}` PBs (equation 3);
* a **full miss**, which Fournier & Inkpen 2012 call a *substitution* (their segmentations are not
  designated reference and hypothesis, so insertion and deletion are one operation). With several
  boundary types, a full miss is either an *addition* (a boundary in one segmentation only, segeval
  2.0's ``Addition``) or a *type substitution* (both place a boundary there, of different types).

Positions are boundary positions as in :mod:`tvseg.unit.masses`: the number of units before the
boundary, ``1 .. N-1`` (segeval's boundary-string index plus one).

:func:`transpositions` is the one kernel: it chooses the transpositions of every pair of
:class:`~tvseg.unit.masses.BoundaryPairs` at once (a corpus of shows, a simulation's hypotheses, the
pairs of coders of an agreement study, or the one pair of :func:`boundary_edit_distance`) among their
:attr:`~tvseg.unit.masses.BoundaryPairs.differences`, which are sorted and never pair across two pairs;
:func:`edit_counts` counts what it chose per pair. Everything works on sorted boundary positions, never
on unit positions: the cost grows with the number of boundaries, not with the number of units.
S and B are in :mod:`tvseg.unit.similarity`.

References
----------
.. [1] C. Fournier and D. Inkpen (2012). Segmentation Similarity and Agreement. NAACL-HLT, 152-161.
.. [2] C. Fournier (2013). Evaluating Text Segmentation using Boundary Edit Distance. ACL, 1702-1712.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Iterator, Sequence
from dataclasses import astuple, dataclass
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from tvseg.errors import InputError
from tvseg.unit.masses import BoundaryPairs, as_pair, boundary_positions

__all__ = [
    "SINGLE_TYPE",
    "Boundaries",
    "BoundaryEdits",
    "EditCounts",
    "FullMiss",
    "Transposition",
    "as_boundary_string_pair",
    "boundary_edit_distance",
    "check_edit_options",
    "edit_counts",
    "transposition_error",
    "transpositions",
]

SINGLE_TYPE = 1  # the boundary type of a segmentation given as masses (segeval's convention)


def transposition_error(span: Any, b: int = 2) -> Any:
    r"""Fournier & Inkpen's (2012, equation 3) transposition error scaling.

    .. math:: \mathrm{te}(n, b) = b - (1/b)^{n-2}, \quad n \ge 2,\ b > 0

    with ``n`` the number of PBs the transposition spans and ``b`` the number of boundaries it moves
    (``b = 2`` for one near miss: one boundary in each segmentation), so that a 2-wise transposition
    costs ``te(2, 2) = 1`` PB and the cost approaches ``b = 2`` PBs, two full misses, as ``n`` grows.
    Accepts a scalar or a numpy array of spans.
    """
    return b - (1.0 / b) ** (np.asarray(span, dtype=float) - 2.0)


# ------------------------------------------------------------------------------------------------
# The edits, as data


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

    def __iter__(self) -> Iterator[Any]:
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

    def __iter__(self) -> Iterator[Any]:
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

    substitutions: tuple[FullMiss, ...]
    transpositions: tuple[Transposition, ...]
    distance: float
    potential_boundaries: int
    matches: int
    n: int

    @property
    def additions(self) -> tuple[FullMiss, ...]:
        """Full misses where only one segmentation has a boundary (segeval 2.0's additions)."""
        return tuple(m for m in self.substitutions if m.is_addition)

    @property
    def type_substitutions(self) -> tuple[FullMiss, ...]:
        """Full misses where both segmentations have a boundary of different types (segeval 2.0's substitutions)."""
        return tuple(m for m in self.substitutions if not m.is_addition)

    @property
    def counts(self) -> dict[str, int]:
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


@dataclass(frozen=True, eq=False)
class EditCounts:
    r"""What :func:`edit_counts` finds for every pair (one boundary type; arrays, one value per pair).

    Attributes
    ----------
    full_misses, transpositions, matches : numpy.ndarray of int64
        Full misses (additions), transpositions, and positions where both sides have a boundary.
    span_sum : numpy.ndarray of int64
        :math:`\sum (\text{span} - 1)` over the transpositions.
    te_sum : numpy.ndarray of float64
        :math:`\sum \mathrm{te}(\text{span}, 2)` over the transpositions.
    """

    full_misses: np.ndarray
    transpositions: np.ndarray
    span_sum: np.ndarray
    te_sum: np.ndarray
    matches: np.ndarray


# ------------------------------------------------------------------------------------------------
# The inputs: masses or boundary strings, and the options


def _is_boundary_string(seq: object) -> bool:
    if isinstance(seq, np.ndarray):
        return bool(seq.dtype == object)
    if isinstance(seq, (str, bytes)) or not isinstance(seq, Sequence) or len(seq) == 0:
        return False
    return isinstance(seq[0], (set, frozenset, list, tuple))


Boundaries: TypeAlias = "Sequence[int] | NDArray[np.integer[Any]] | Sequence[Collection[Hashable]]"
"""A segmentation for the edit-based metrics: masses, or a boundary string (a collection of boundary
types per potential boundary)."""
Positions: TypeAlias = "dict[Hashable, NDArray[np.int64]]"
Keys: TypeAlias = "NDArray[np.int64]"


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
            types = tuple(sorted(present)) or (SINGLE_TYPE,)  # type: ignore[type-var]  # TypeError below
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


def _string_positions(string: object, name: str) -> tuple[dict[Hashable, list[int]], int]:
    if isinstance(string, (str, bytes)) or not isinstance(string, (Sequence, np.ndarray)):
        raise InputError(
            f"{name} must be masses or a boundary string (a sequence of sets of boundary types)", value=string
        )
    out: dict[Hashable, list[int]] = {}
    for i, cell in enumerate(string):
        if isinstance(cell, (str, bytes)) or not isinstance(cell, Iterable):
            raise InputError(f"{name}[{i}] must be a set of boundary types", value=cell)
        for t in cell:
            if t is None:
                raise InputError(f"{name}[{i}] holds None as a boundary type", value=cell)
            out.setdefault(t, []).append(i + 1)
    return out, len(string)


def check_edit_options(n: Any, weights: Any) -> tuple[int, float, float]:
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


# ------------------------------------------------------------------------------------------------
# The kernel: which differences a transposition joins, in every pair at once


def _alternate(linked: np.ndarray) -> np.ndarray:
    """Greedy left-to-right choice in chains of candidate pairs: keep every other one from each chain start.

    ``linked[k]`` says candidate ``k`` shares its first position with the second position of candidate
    ``k - 1`` (so both cannot be taken). Returns a boolean mask of the candidates taken.
    """
    k = np.arange(linked.size)
    starts = ~linked
    start_at = np.maximum.accumulate(np.where(starts, k, 0))
    taken: NDArray[np.bool_] = (k - start_at) % 2 == 0
    return taken


def _adjacent(place: Keys, side: Keys, pair: Keys, n: int) -> Keys:
    """Transpositions between consecutive differences, greedy from the left (a maximum set on each
    chain). Candidate ``k`` joins difference ``k`` and ``k + 1`` (opposite sides, one pair, span < n
    PBs). Returns the indices ``k`` taken."""
    if place.size < 2:
        return np.zeros(0, dtype=np.int64)
    valid = (side[1:] != side[:-1]) & ((place[1:] - place[:-1]) < n) & (pair[1:] == pair[:-1])
    cand: Keys = np.flatnonzero(valid)
    if cand.size == 0:
        return cand
    linked = np.zeros(cand.size, dtype=bool)
    linked[1:] = cand[1:] == cand[:-1] + 1
    taken: Keys = cand[_alternate(linked)]
    return taken


def _optimal(place: Keys, side: Keys, pair: Keys, n: int, w_sub: float, w_trp: float, scale: bool) -> Keys:
    """Minimum weighted edit distance over transpositions of consecutive differences (dynamic programme
    along the differences; a transposition never joins two pairs, so every pair's part is its own
    minimum). Ties go to the solution with more transpositions, then to the one found first from the left.
    """
    e = place.size
    spans = (place[1:] - place[:-1]) + 1
    valid = (side[1:] != side[:-1]) & (spans <= n) & (pair[1:] == pair[:-1])
    cost_t = w_trp * (transposition_error(spans) if scale else np.ones(spans.size))
    best = [(0.0, 0)] * (e + 1)  # (cost, -transpositions)
    took = [False] * (e + 1)
    for k in range(1, e + 1):
        c, t = best[k - 1]
        cand = (c + w_sub, t)
        joined = False
        if k >= 2 and valid[k - 2]:
            c2, t2 = best[k - 2]
            alt = (c2 + float(cost_t[k - 2]), t2 - 1)
            if alt[0] < cand[0] - 1e-12 or (abs(alt[0] - cand[0]) <= 1e-12 and alt[1] <= cand[1]):
                cand, joined = alt, True
        best[k], took[k] = cand, joined
    chosen = []
    k = e
    while k > 0:
        if took[k]:
            chosen.append(k - 2)
            k -= 2
        else:
            k -= 1
    return np.array(chosen[::-1], dtype=np.int64)


def _segeval(place: Keys, side: Keys, pair: Keys, n: int) -> tuple[Keys, Keys]:
    """segeval 2.0.11's choice: spans of 2, then 3, ... n PBs; at each span, left to right, a pair is
    taken when neither of its positions is already in a transposition. Returns (first, second) indices."""
    free = np.ones(place.size, dtype=bool)
    firsts, seconds = [], []
    for d in range(1, n):
        idx = np.flatnonzero(free)
        if idx.size < 2:
            break
        p, s = place[idx], side[idx]
        j = np.searchsorted(p, p + d)
        j_ok = j < p.size
        jc = np.where(j_ok, j, 0)
        valid = j_ok & (p[jc] == p + d) & (s[jc] != s) & (pair[idx][jc] == pair[idx])
        cand = np.flatnonzero(valid)
        if cand.size == 0:
            continue
        # chains of candidates along positions i, i+d, i+2d, ...: group by residue, then by position
        cp = p[cand]
        order = np.lexsort((cp, cp % d))
        cand, cp = cand[order], cp[order]
        linked = np.zeros(cand.size, dtype=bool)
        linked[1:] = (cp[1:] == cp[:-1] + d) & (pair[idx[cand[1:]]] == pair[idx[cand[:-1]]])
        take = _alternate(linked)
        first, second = idx[cand[take]], idx[jc[cand[take]]]
        free[first] = False
        free[second] = False
        firsts.append(first)
        seconds.append(second)
    if not firsts:
        z = np.zeros(0, dtype=np.int64)
        return z, z
    return np.concatenate(firsts), np.concatenate(seconds)


def transpositions(
    pairs: BoundaryPairs,
    *,
    n: int = 2,
    w_sub: float = 1.0,
    w_trp: float = 1.0,
    scale: bool = True,
    selection: str = "optimal",
) -> tuple[np.ndarray, np.ndarray]:
    """The transpositions of every pair: ``(first, second)``, indices into ``pairs.differences`` of the
    two differences each joins (module docstring; one boundary type).

    ``selection="optimal"`` (the paper): transpositions join *consecutive* differences of opposite
    segmentations (so they never overlap), chosen to minimise the weighted distance, ties going to
    more transpositions; for ``n = 2`` (or unscaled, or ``w_trp <= 2 w_sub`` with equal costs) this is
    the leftmost maximum set, found along each chain of candidates at once. ``"segeval"``: segeval
    2.0.11's greedy choice (spans of 2, then 3, ... PBs, each from left to right, any two differences
    of opposite segmentations whose positions are not yet used), which boundary similarity B uses.
    Both agree for ``n = 2``.
    """
    keys = pairs.differences
    if n < 2 or keys.size < 2:
        z = np.zeros(0, dtype=np.int64)
        return z, z
    place, side = keys >> 1, keys & 1  # the pairs' place: pair bits and position
    pair = pairs.pair(keys)
    if selection == "segeval":
        return _segeval(place, side, pair, n)
    if (n == 2 or not scale) and w_trp <= 2.0 * w_sub:
        first = _adjacent(place, side, pair, n)
    else:
        first = _optimal(place, side, pair, n, w_sub, w_trp, scale)
    return first, first + 1


def edit_counts(pairs: BoundaryPairs, chosen: tuple[np.ndarray, np.ndarray]) -> EditCounts:
    """The transpositions ``chosen`` by :func:`transpositions`, counted per pair with what they leave:
    full misses (the differences left), transpositions, their spans and ``te``, and the positions both
    sides share."""
    first, second = chosen
    size = pairs.size
    keys = pairs.differences
    differences = np.diff(pairs.difference_offsets)
    moved: NDArray[Any] = np.zeros(size, np.int64)
    span_sum: NDArray[Any] = np.zeros(size, np.int64)
    te_sum: NDArray[Any] = np.zeros(size)
    if first.size:
        spans = np.abs((keys[second] >> 1) - (keys[first] >> 1)) + 1
        owner = pairs.pair(keys[first])
        moved = np.bincount(owner, minlength=size)
        span_sum = np.bincount(owner, weights=spans - 1, minlength=size).astype(np.int64)
        te_sum = np.bincount(owner, weights=transposition_error(spans), minlength=size)
    both = np.diff(pairs.reference_offsets) + np.diff(pairs.hypothesis_offsets)
    return EditCounts(differences - 2 * moved, moved, span_sum, te_sum, (both - differences) // 2)


# ------------------------------------------------------------------------------------------------
# One pair's edits, as operations


def boundary_edit_distance(
    a: Boundaries,
    b: Boundaries,
    *,
    n: int = 2,
    weights: tuple[float, float] = (1.0, 1.0),
    scale_transpositions: bool = True,
    boundary_types: Iterable[Hashable] | None = None,
    selection: str = "optimal",
) -> BoundaryEdits:
    r"""Boundary edit distance of Fournier & Inkpen (2012, sections 3.2-3.3).

    The edit distance ``d`` is the weighted count of the operations that resolve every difference:

    .. math:: d(s_1, s_2, T) = w_{sub} \cdot |\text{full misses}| + w_{trp} \sum_{t} \mathrm{te}(n_t, 2)

    where ``n_t`` is the span of transposition ``t`` in PBs (``te`` replaced by 1 when
    ``scale_transpositions`` is false).

    Parameters
    ----------
    a, b : masses or boundary strings
        Two segmentations of the same units. Masses (segment sizes, one boundary type) or, for several
        boundary types, boundary strings: sequences of ``N - 1`` sets of boundary types, one per PB
        (segeval's ``BoundaryFormat.sets``).
    n : int
        Largest transposition span, in PBs (``n = 2``: a boundary off by one PB is a near miss; ``n = 1``
        disables transpositions).
    weights : (float, float)
        ``(w_sub, w_trp)``, each in [0, 1].
    scale_transpositions : bool
        Weigh each transposition by :func:`transposition_error` of its span.
    boundary_types : collection, optional
        The boundary types ``T`` (then ``a`` and ``b`` are boundary strings and ``t = |T|``).
    selection : {"optimal", "segeval"}
        How transpositions are chosen (:func:`transpositions`): the paper's minimum, or segeval 2.0.11's
        greedy choice, which boundary similarity B uses.

    Returns
    -------
    BoundaryEdits

    Notes
    -----
    With several boundary types, transpositions are found per type (the paper's footnote 5); the
    differences left at one position are then paired into type substitutions, and the rest are
    additions. Each full miss costs ``w_sub``.
    """
    n, w_sub, w_trp = check_edit_options(n, weights)
    if selection not in ("optimal", "segeval"):
        raise InputError("selection must be 'optimal' or 'segeval'", value=selection)
    types, pos_a, pos_b, pbs = as_boundary_string_pair(a, b, boundary_types)
    found = []
    left_a: dict[int, list[Hashable]] = {}
    left_b: dict[int, list[Hashable]] = {}
    matches = 0
    te_total = 0.0
    for t in types:
        pairs = BoundaryPairs.one(pbs + 1, pos_a[t], pos_b[t])
        first, second = transpositions(
            pairs, n=n, w_sub=w_sub, w_trp=w_trp, scale=scale_transpositions, selection=selection
        )
        keys = pairs.differences
        position, side = keys >> 1, keys & 1
        matches += int(pos_a[t].size + pos_b[t].size - keys.size) // 2
        used = np.zeros(keys.size, dtype=bool)
        used[first] = True
        used[second] = True
        for i, j in zip(first.tolist(), second.tolist()):
            lo, hi = (i, j) if position[i] < position[j] else (j, i)
            found.append(Transposition(int(position[lo]), int(position[hi]), t, "a" if side[lo] == 0 else "b"))
        if first.size:
            spans = np.abs(position[second] - position[first]) + 1
            te_total += float(transposition_error(spans).sum()) if scale_transpositions else float(first.size)
        for p, s in zip(position[~used].tolist(), side[~used].tolist()):
            (left_a if s == 0 else left_b).setdefault(p, []).append(t)
    misses: list[Any] = []
    for p in sorted(set(left_a) | set(left_b)):
        ta, tb = left_a.get(p, []), left_b.get(p, [])
        k = min(len(ta), len(tb))
        misses.extend(FullMiss(p, x, y) for x, y in zip(ta[:k], tb[:k]))
        misses.extend(FullMiss(p, x, None) for x in ta[k:])
        misses.extend(FullMiss(p, None, y) for y in tb[k:])
    found.sort(key=lambda tr: (tr.start, tr.end))
    distance = w_sub * len(misses) + w_trp * te_total
    return BoundaryEdits(
        substitutions=tuple(misses),
        transpositions=tuple(found),
        distance=float(distance),
        potential_boundaries=len(types) * pbs,
        matches=matches,
        n=n,
    )
