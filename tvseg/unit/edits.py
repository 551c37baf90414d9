"""Boundary edit distance between two segmentations (Fournier & Inkpen 2012; Fournier 2013).

Two segmentations of the same ``N`` units are compared on their ``N - 1`` potential boundaries (PBs).
A boundary present in one segmentation and not in the other is a *difference*. Differences are
resolved by two kinds of edit:

* a **transposition** (a near miss): a difference of one segmentation and a difference of the other,
  of the same boundary type, less than ``n`` PBs apart (an ``n``-wise transposition spans at most ``n``
  adjacent PBs, so ``n = 2`` allows an offset of one PB);
* a **full miss**, which Fournier & Inkpen 2012 call a *substitution* (their segmentations are not
  designated reference and hypothesis, so insertion and deletion are one operation). With several
  boundary types, a full miss is either an *addition* (a boundary in one segmentation only, segeval
  2.0's ``Addition``) or a *type substitution* (both place a boundary there, of different types).

Positions are boundary positions as in :mod:`tvseg.unit.masses`: the number of units before the
boundary, ``1 .. N-1`` (segeval's boundary-string index plus one).

Everything works on the sorted boundary positions, never on unit positions: the cost grows with the
number of boundaries, not with the number of units.
"""
from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Hashable, NamedTuple

import numpy as np

from tvseg.errors import InputError
from tvseg.unit.masses import as_pair, boundary_positions

__all__ = [
    "Transposition", "FullMiss", "BoundaryEdits", "boundary_edit_distance", "transposition_error",
    "as_boundary_string_pair", "segeval1_edits", "WindowTransposition",
]

SINGLE_TYPE = 1  # the boundary type of a segmentation given as masses (segeval's convention)


class Transposition(NamedTuple):
    """A near miss: the boundary of ``type`` at ``start`` in one segmentation is at ``end`` in the other."""

    start: int
    end: int
    type: Hashable
    side: str  # which segmentation has the boundary at ``start``: "a" or "b"

    @property
    def span(self) -> int:
        """The number of PBs the transposition covers (``n`` in ``te(n, b)``): ``end - start + 1``."""
        return self.end - self.start + 1


class FullMiss(NamedTuple):
    """A full miss at ``position``: ``type_a`` in ``a`` against ``type_b`` in ``b`` (None: no boundary)."""

    position: int
    type_a: Hashable | None
    type_b: Hashable | None

    @property
    def is_addition(self) -> bool:
        """True when only one segmentation has a boundary here (segeval 2.0's addition/deletion)."""
        return self.type_a is None or self.type_b is None


def transposition_error(span, b: int = 2):
    r"""Fournier & Inkpen's (2012, equation 3) transposition error scaling.

    .. math:: \mathrm{te}(n, b) = b - (1/b)^{n-2}, \quad n \ge 2,\ b > 0

    with ``n`` the number of PBs the transposition spans and ``b`` the number of boundaries it moves
    (``b = 2`` for one near miss: one boundary in each segmentation), so that a 2-wise transposition
    costs ``te(2, 2) = 1`` PB and the cost approaches ``b = 2`` PBs, two full misses, as ``n`` grows.
    Accepts a scalar or a numpy array of spans.
    """
    return b - (1.0 / b) ** (np.asarray(span, dtype=float) - 2.0)


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
        return {"substitutions": len(self.substitutions), "additions": n_add,
                "type_substitutions": len(self.substitutions) - n_add,
                "transpositions": len(self.transpositions), "matches": self.matches}


# --------------------------------------------------------------------------------------------
# Input forms


def _is_boundary_string(seq) -> bool:
    if isinstance(seq, np.ndarray):
        return seq.dtype == object
    if isinstance(seq, (str, bytes)) or not isinstance(seq, Sequence) or len(seq) == 0:
        return False
    return isinstance(seq[0], (set, frozenset, list, tuple))


def as_boundary_string_pair(a, b, boundary_types=None):
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
        return (SINGLE_TYPE,), {SINGLE_TYPE: boundary_positions(ma)}, {SINGLE_TYPE: boundary_positions(mb)}, \
            int(ma.sum()) - 1
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
        raise InputError(f"{name} must be masses or a boundary string (a sequence of sets of boundary types)",
                         value=string)
    out: dict = {}
    for i, cell in enumerate(string):
        if isinstance(cell, (str, bytes)) or not isinstance(cell, Iterable):
            raise InputError(f"{name}[{i}] must be a set of boundary types", value=cell)
        for t in cell:
            if t is None:
                raise InputError(f"{name}[{i}] holds None as a boundary type", value=cell)
            out.setdefault(t, []).append(i + 1)
    return out, len(string)


def _check_options(n, weights):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise InputError("n must be an integer >= 1 (the largest transposition span in PBs; 1 allows none)",
                         value=n)
    try:
        w_sub, w_trp = (float(w) for w in weights)
    except (TypeError, ValueError):
        raise InputError("weights must be a pair of numbers (substitution, transposition)", value=weights) from None
    for w in (w_sub, w_trp):
        if not (0.0 <= w <= 1.0):
            raise InputError("weights must lie in [0, 1] (Fournier & Inkpen 2012, section 3.3)", value=weights)
    return int(n), w_sub, w_trp


# --------------------------------------------------------------------------------------------
# One boundary type


def _differences(pa: np.ndarray, pb: np.ndarray):
    """Merge two sorted position arrays: positions and sides (0: a, 1: b) of the differences, and matches."""
    pos = np.concatenate((pa, pb))
    side = np.concatenate((np.zeros(pa.size, dtype=np.int8), np.ones(pb.size, dtype=np.int8)))
    order = np.argsort(pos, kind="stable")
    pos, side = pos[order], side[order]
    same = pos[1:] == pos[:-1]
    both = np.zeros(pos.size, dtype=bool)
    both[1:] |= same
    both[:-1] |= same
    keep = ~both
    return pos[keep], side[keep], int(same.sum())


def _alternate(linked: np.ndarray) -> np.ndarray:
    """Greedy left-to-right choice in chains of candidate pairs: keep every other one from each chain start.

    ``linked[k]`` says candidate ``k`` shares its first position with the second position of candidate
    ``k - 1`` (so both cannot be taken). Returns a boolean mask of the candidates taken.
    """
    k = np.arange(linked.size)
    starts = ~linked
    start_at = np.maximum.accumulate(np.where(starts, k, 0))
    return (k - start_at) % 2 == 0


def _pairs_adjacent_events(pos, side, n):
    """Transpositions between consecutive differences, greedy from the left (maximum on a path).

    Candidate ``k`` pairs difference ``k`` with difference ``k + 1`` (opposite sides, span < n PBs).
    Returns the indices ``k`` taken.
    """
    if pos.size < 2:
        return np.zeros(0, dtype=np.int64)
    valid = (side[1:] != side[:-1]) & ((pos[1:] - pos[:-1]) < n)
    cand = np.flatnonzero(valid)
    if cand.size == 0:
        return cand
    linked = np.zeros(cand.size, dtype=bool)
    linked[1:] = cand[1:] == cand[:-1] + 1
    return cand[_alternate(linked)]


def _pairs_optimal(pos, side, n, w_sub, w_trp, scale):
    """Minimum weighted edit distance over transpositions of consecutive differences (dynamic programme).

    Ties go to the solution with more transpositions, then to the one found first from the left.
    """
    e = pos.size
    spans = (pos[1:] - pos[:-1]) + 1
    valid = (side[1:] != side[:-1]) & (spans <= n)
    cost_t = w_trp * (transposition_error(spans) if scale else np.ones(spans.size))
    best = [(0.0, 0)] * (e + 1)  # (cost, -transpositions)
    took = [False] * (e + 1)
    for k in range(1, e + 1):
        c, t = best[k - 1]
        cand = (c + w_sub, t)
        pair = False
        if k >= 2 and valid[k - 2]:
            c2, t2 = best[k - 2]
            alt = (c2 + float(cost_t[k - 2]), t2 - 1)
            if alt[0] < cand[0] - 1e-12 or (abs(alt[0] - cand[0]) <= 1e-12 and alt[1] <= cand[1]):
                cand, pair = alt, True
        best[k], took[k] = cand, pair
    chosen = []
    k = e
    while k > 0:
        if took[k]:
            chosen.append(k - 2)
            k -= 2
        else:
            k -= 1
    return np.array(chosen[::-1], dtype=np.int64)


def _pairs_segeval(pos, side, n):
    """segeval 2.0.11's choice: spans of 2, then 3, ... n PBs; at each span, left to right, a pair is
    taken when neither of its positions is already in a transposition. Returns (first, second) indices
    into ``pos``."""
    free = np.ones(pos.size, dtype=bool)
    firsts, seconds = [], []
    for d in range(1, n):
        idx = np.flatnonzero(free)
        if idx.size < 2:
            break
        p, s = pos[idx], side[idx]
        j = np.searchsorted(p, p + d)
        j_ok = j < p.size
        jc = np.where(j_ok, j, 0)
        valid = j_ok & (p[jc] == p + d) & (s[jc] != s)
        cand = np.flatnonzero(valid)
        if cand.size == 0:
            continue
        # chains of candidates along positions i, i+d, i+2d, ...: group by residue, then by position
        cp = p[cand]
        order = np.lexsort((cp, cp % d))
        cand, cp = cand[order], cp[order]
        linked = np.zeros(cand.size, dtype=bool)
        linked[1:] = (cp[1:] == cp[:-1] + d)
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


def _single_type_edits(pa, pb, n, w_sub, w_trp, scale, selection):
    """Edits for one boundary type: (diff positions, diff sides, first idx, second idx, matches)."""
    pos, side, matches = _differences(pa, pb)
    if n < 2 or pos.size < 2:
        first = np.zeros(0, dtype=np.int64)
        return pos, side, first, first, matches
    if selection == "segeval":
        first, second = _pairs_segeval(pos, side, n)
    else:
        uniform = n == 2 or not scale
        if uniform and w_trp * 1.0 <= 2.0 * w_sub:
            first = _pairs_adjacent_events(pos, side, n)
        else:
            first = _pairs_optimal(pos, side, n, w_sub, w_trp, scale)
        second = first + 1
    return pos, side, first, second, matches


def single_type_penalty(pa, pb, *, n, w_sub, w_trp, scale, selection="optimal"):
    """Fast path used by the metrics: ``(distance, full misses, transpositions, sum of spans, matches)``."""
    pos, side, first, second, matches = _single_type_edits(pa, pb, n, w_sub, w_trp, scale, selection)
    n_trans = first.size
    full = pos.size - 2 * n_trans
    spans = (pos[second] - pos[first] + 1) if n_trans else np.zeros(0, dtype=np.int64)
    te = transposition_error(spans).sum() if scale else float(n_trans)
    distance = w_sub * full + w_trp * float(te)
    return distance, full, n_trans, int((spans - 1).sum()), matches


# --------------------------------------------------------------------------------------------
# The 2012 reference implementation's choice (segeval 1.1)


class WindowTransposition(NamedTuple):
    """A transposition as the 2012 reference implementation finds it: the PBs ``start .. end`` of ``a``,
    read backwards, are those of ``b``; ``boundaries`` counts the boundaries of ``a`` in that window."""

    start: int
    end: int
    boundaries: int

    @property
    def span(self) -> int:
        """The number of PBs the window covers: ``end - start + 1``."""
        return self.end - self.start + 1

    def error(self) -> float:
        r"""Its cost :math:`\mathrm{te}(\text{span}, 2\,\text{boundaries})` (equation 3 with the paper's
        ``b`` counting the boundaries of both segmentations)."""
        return float(transposition_error(self.span, 2 * self.boundaries))


def _is_window_transposition(in_a, in_b, start: int, width: int) -> bool:
    window_a = tuple(p in in_a for p in range(start, start + width))
    window_b = tuple(p in in_b for p in range(start, start + width))
    return window_a != window_b and window_a[::-1] == window_b


def _keep(kept_start: list, kept_end: list, kept: list, candidate: WindowTransposition) -> None:
    """Keep ``candidate`` unless it overlaps kept transpositions moving as many boundaries or more.

    The kept transpositions never overlap, so sorted by start they are sorted by end too: those that
    share a PB with ``candidate`` are the slice ``lo:hi`` found by bisection.
    """
    lo = bisect.bisect_left(kept_end, candidate.start)
    hi = bisect.bisect_right(kept_start, candidate.end)
    if lo < hi and candidate.boundaries <= sum(t.boundaries for t in kept[lo:hi]):
        return
    kept[lo:hi] = [candidate]
    kept_start[lo:hi] = [candidate.start]
    kept_end[lo:hi] = [candidate.end]


def segeval1_edits(pa: np.ndarray, pb: np.ndarray, *, n: int) -> tuple[int, tuple]:
    r"""The edits the 2012 reference implementation (segeval 1.1) finds between two segmentations.

    Its procedure, on boundary positions ``1 .. N-1`` of one boundary type:

    1. the *set errors* are the positions where exactly one segmentation has a boundary;
    2. for each width ``w = 2, 3, ... n`` in turn, and each window of ``w`` PBs from the left, the window
       is a transposition when ``b``'s window starts or ends with a boundary, differs from ``a``'s, and
       equals ``a``'s read backwards; its weight is the number of boundaries of ``a`` in it;
    3. a transposition is kept if it overlaps (shares a PB with) no kept one, or replaces those it
       overlaps when its weight is larger than the sum of theirs;
    4. the set errors inside a kept transposition are dropped.

    Unlike the paper's reading (:func:`boundary_edit_distance`), a window may move several boundaries
    and may hold positions where both segmentations agree: ``a = |-||`` against ``b = ||-|`` over PBs
    ``11 .. 13`` of a longer text is one transposition of weight 2 for ``n >= 3``.

    Only windows whose first and last PBs are boundaries of opposite segmentations qualify, so the
    candidates are the windows starting or ending at a boundary of ``b``: :math:`O(|B| n^2)` checks.
    The procedure is symmetric in ``a`` and ``b``.

    Parameters
    ----------
    pa, pb : numpy.ndarray of int
        Sorted boundary positions of the two segmentations.
    n : int
        Largest window width in PBs (``n < 2``: no transposition).

    Returns
    -------
    (int, tuple of WindowTransposition)
        The number of set errors left and the kept transpositions, sorted by start.

    References
    ----------
    Fournier, C. and Inkpen, D. (2012). Segmentation Similarity and Agreement. NAACL-HLT, 152-161
    (segeval 1.1 beta, ``similarity/distance/MultipleBoundaryDistance.py``).
    """
    in_a, in_b = set(pa.tolist()), set(pb.tolist())
    kept_start: list = []
    kept_end: list = []
    kept: list = []
    for width in range(2, n + 1):
        starts = sorted({s for p in in_b for s in (p, p - width + 1)})
        for start in starts:
            if _is_window_transposition(in_a, in_b, start, width):
                boundaries = sum(1 for p in range(start, start + width) if p in in_a)
                _keep(kept_start, kept_end, kept, WindowTransposition(start, start + width - 1, boundaries))
    left = 0
    for p in in_a ^ in_b:
        i = bisect.bisect_right(kept_start, p) - 1
        if i < 0 or kept_end[i] < p:
            left += 1
    return left, tuple(kept)


# --------------------------------------------------------------------------------------------
# Public entry point


def boundary_edit_distance(a, b, *, n: int = 2, weights=(1.0, 1.0), scale_transpositions: bool = True,
                           boundary_types=None, selection: str = "optimal") -> BoundaryEdits:
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
        How transpositions are chosen. ``"optimal"`` (the paper): transpositions join *consecutive*
        differences of opposite segmentations (so they never overlap), chosen to minimise ``d``, ties
        going to more transpositions; for ``n = 2`` this is the leftmost maximum set. ``"segeval"``:
        segeval 2.0.11's greedy choice (spans of 2, then 3, ... PBs, each from left to right, any two
        differences of opposite segmentations whose positions are not yet used), which boundary
        similarity B uses. Both agree for ``n = 2``.

    Returns
    -------
    BoundaryEdits

    Notes
    -----
    With several boundary types, transpositions are found per type (the paper's footnote 5); the
    differences left at one position are then paired into type substitutions, and the rest are
    additions. Each full miss costs ``w_sub``.

    References
    ----------
    Fournier, C. and Inkpen, D. (2012). Segmentation Similarity and Agreement. NAACL-HLT, 152-161.
    Fournier, C. (2013). Evaluating Text Segmentation using Boundary Edit Distance. ACL, 1702-1712.
    """
    n, w_sub, w_trp = _check_options(n, weights)
    if selection not in ("optimal", "segeval"):
        raise InputError("selection must be 'optimal' or 'segeval'", value=selection)
    types, pos_a, pos_b, pbs = as_boundary_string_pair(a, b, boundary_types)
    transpositions = []
    left_a: dict = {}
    left_b: dict = {}
    matches = 0
    te_total = 0.0
    for t in types:
        pos, side, first, second, m = _single_type_edits(pos_a[t], pos_b[t], n, w_sub, w_trp,
                                                         scale_transpositions, selection)
        matches += m
        used = np.zeros(pos.size, dtype=bool)
        used[first] = True
        used[second] = True
        for i, j in zip(first.tolist(), second.tolist()):
            lo, hi = (i, j) if pos[i] < pos[j] else (j, i)
            transpositions.append(Transposition(int(pos[lo]), int(pos[hi]), t, "a" if side[lo] == 0 else "b"))
        if first.size:
            spans = np.abs(pos[second] - pos[first]) + 1
            te_total += float(transposition_error(spans).sum()) if scale_transpositions else float(first.size)
        for p, s in zip(pos[~used].tolist(), side[~used].tolist()):
            (left_a if s == 0 else left_b).setdefault(p, []).append(t)
    misses = []
    for p in sorted(set(left_a) | set(left_b)):
        ta, tb = left_a.get(p, []), left_b.get(p, [])
        k = min(len(ta), len(tb))
        misses.extend(FullMiss(p, x, y) for x, y in zip(ta[:k], tb[:k]))
        misses.extend(FullMiss(p, x, None) for x in ta[k:])
        misses.extend(FullMiss(p, None, y) for y in tb[k:])
    transpositions.sort(key=lambda tr: (tr.start, tr.end))
    distance = w_sub * len(misses) + w_trp * te_total
    return BoundaryEdits(substitutions=tuple(misses), transpositions=tuple(transpositions),
                         distance=float(distance), potential_boundaries=len(types) * pbs,
                         matches=matches, n=n)
