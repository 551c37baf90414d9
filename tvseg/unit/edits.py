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
number of boundaries, not with the number of units. The inputs are read by
:mod:`tvseg.unit.edit_inputs`; the edits found and their counts are the data classes of
:mod:`tvseg.unit.edit_operations`; the 2012 reference implementation's own transpositions are in
:mod:`tvseg.unit.edits_segeval1`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np

from tvseg.errors import InputError
from tvseg.unit.edit_inputs import Boundaries, as_boundary_string_pair, check_edit_options
from tvseg.unit.edit_operations import BoundaryEdits, FullMiss, PairPenalty, Transposition

__all__ = [
    "boundary_edit_distance",
    "transposition_error",
    "single_type_penalty",
]


def transposition_error(span, b: int = 2):
    r"""Fournier & Inkpen's (2012, equation 3) transposition error scaling.

    .. math:: \mathrm{te}(n, b) = b - (1/b)^{n-2}, \quad n \ge 2,\ b > 0

    with ``n`` the number of PBs the transposition spans and ``b`` the number of boundaries it moves
    (``b = 2`` for one near miss: one boundary in each segmentation), so that a 2-wise transposition
    costs ``te(2, 2) = 1`` PB and the cost approaches ``b = 2`` PBs, two full misses, as ``n`` grows.
    Accepts a scalar or a numpy array of spans.
    """
    return b - (1.0 / b) ** (np.asarray(span, dtype=float) - 2.0)


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
        linked[1:] = cp[1:] == cp[:-1] + d
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


def single_type_penalty(pa, pb, *, n, w_sub, w_trp, scale, selection="optimal") -> PairPenalty:
    """The metrics' fast path: the penalty of one pair of sorted position arrays, without the edits."""
    pos, side, first, second, matches = _single_type_edits(pa, pb, n, w_sub, w_trp, scale, selection)
    n_trans = first.size
    full = pos.size - 2 * n_trans
    spans = (pos[second] - pos[first] + 1) if n_trans else np.zeros(0, dtype=np.int64)
    te = transposition_error(spans).sum() if scale else float(n_trans)
    distance = w_sub * full + w_trp * float(te)
    return PairPenalty(distance, full, n_trans, int((spans - 1).sum()), matches)


# --------------------------------------------------------------------------------------------
# Public entry point


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
    n, w_sub, w_trp = check_edit_options(n, weights)
    if selection not in ("optimal", "segeval"):
        raise InputError("selection must be 'optimal' or 'segeval'", value=selection)
    types, pos_a, pos_b, pbs = as_boundary_string_pair(a, b, boundary_types)
    transpositions = []
    left_a: dict = {}
    left_b: dict = {}
    matches = 0
    te_total = 0.0
    for t in types:
        pos, side, first, second, m = _single_type_edits(
            pos_a[t], pos_b[t], n, w_sub, w_trp, scale_transpositions, selection
        )
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
    misses: list[Any] = []
    for p in sorted(set(left_a) | set(left_b)):
        ta, tb = left_a.get(p, []), left_b.get(p, [])
        k = min(len(ta), len(tb))
        misses.extend(FullMiss(p, x, y) for x, y in zip(ta[:k], tb[:k]))
        misses.extend(FullMiss(p, x, None) for x in ta[k:])
        misses.extend(FullMiss(p, None, y) for y in tb[k:])
    transpositions.sort(key=lambda tr: (tr.start, tr.end))
    distance = w_sub * len(misses) + w_trp * te_total
    return BoundaryEdits(
        substitutions=tuple(misses),
        transpositions=tuple(transpositions),
        distance=float(distance),
        potential_boundaries=len(types) * pbs,
        matches=matches,
        n=n,
    )
