r"""GHD, S and B of many shows at once: the corpus-wide form of :mod:`tvseg.unit.ghd` and
:mod:`tvseg.unit.similarity`.

A corpus of ``K`` show pairs is given as flat arrays: the boundary positions
(:func:`tvseg.unit.masses.boundary_positions`, ``1 .. N_k - 1``) of show ``k`` are
``ref_pos[ref_offsets[k]:ref_offsets[k + 1]]`` and ``hyp_pos[hyp_offsets[k]:hyp_offsets[k + 1]]``, and
``n_units[k]`` is its number of units ``N_k``. Row ``k`` of every result equals, bit for bit, the
per-show function on that show's masses (``tests/test_edits_batch.py``); no Python loop runs over the
shows, only over the rows of the GHD programme (and over blocks of shows of similar sizes: one block for
a corpus of ordinary shows).

GHD (Bookstein, Kulyukin & Raita 2002; nltk's recursion, :mod:`tvseg.unit.ghd`)
    With hypothesis boundaries :math:`h_1 < \dots < h_H` (rows) and reference boundaries
    :math:`r_1 < \dots < r_R` (columns), :math:`M_{0,j} = c_{ins} j`, :math:`M_{i,0} = c_{del} i`,

    .. math::

        M_{i,j} = \min\bigl(c_{shift}|h_i - r_j| + M_{i-1,j-1},\ t_{i,j}\bigr), \quad
        t_{i,j} = M_{i-1,j-1} \;(h_i = r_j),\ c_{del} + M_{i-1,j} \;(h_i > r_j),\ c_{ins} + M_{i,j-1} \;(h_i < r_j)

    and GHD is :math:`M_{H,R}`. One row ``i`` is computed for all shows at once on arrays padded to the
    largest boundary count (shows sorted by ``H``, so row ``i`` only touches the shows with
    :math:`H \ge i`; a show with far more boundaries than the others gets a block of its own, so that
    no array holds more than about a million values). Within a row, the columns with :math:`r_j \le h_i`
    read the row above only; those with :math:`r_j > h_i` form a suffix :math:`j \ge j_0` where
    :math:`M_{i,j} = \min(a_j, c_{ins} + M_{i,j-1})`, :math:`a_j = c_{shift}|h_i - r_j| + M_{i-1,j-1}`,
    whose solution is a running minimum:

    .. math:: M_{i,j} = c_{ins}\,j + \min_{j_0 - 1 \le l \le j} (a_l - c_{ins}\,l), \qquad a_{j_0 - 1} = M_{i,j_0-1}.

    That rewriting adds the same numbers in another order, so it is used only when every sum is exact
    in float64: each cost is a binary fraction :math:`p / 2^s` (every float is) and every value of the
    programme, at most :math:`(H + R + 1) \max(c_{ins}, c_{del}, c_{shift} N)` (plus :math:`c_{ins} R`
    for the running minimum's terms), stays below :math:`2^{52 - s}` (true of the defaults 2, 2, 1,
    whose GHDs are integers). Otherwise :func:`ghd_many` runs nltk's order exactly, one anti-diagonal
    :math:`i + j = d` at a time for all shows (each cell's operations are the per-show code's, so the
    floats are the same).

S (Fournier & Inkpen 2012) and B (Fournier 2013), ``n = 2``
    A transposition joins two *differences* (a boundary of one side at a position where the other has
    none) of opposite sides one PB apart; differences and matches are found on all shows at once by
    placing show ``k``'s positions at :math:`p + \sum_{k' < k} (N_{k'} + 1)`, so that boundaries of two
    shows are never closer than 2 PBs and never pair. Along a chain of candidate pairs both the paper's
    optimal choice (:func:`tvseg.unit.similarity.similarity_counts`) and segeval 2.0.11's greedy one
    (``pair_counts(..., metric="B", convention="segeval")``) take every other pair from the left, so with
    ``F`` full misses (additions), ``T`` transpositions and ``M`` matches:

    .. math::

        \text{s\_penalty} = F + T, \quad \text{s\_potential} = N - 1, \quad
        \text{b\_penalty} = F + T / 2, \quad \text{b\_denominator} = F + T + M

    (a 2-wise transposition costs ``te(2, 2) = 1`` PB in S and ``|span - 1| / n = 1/2`` in B).

References
----------
.. [1] A. Bookstein, V. A. Kulyukin and T. Raita (2002). Generalized Hamming distance. Information
   Retrieval 5:353-375.
.. [2] C. Fournier and D. Inkpen (2012). Segmentation Similarity and Agreement. NAACL-HLT, 152-161.
.. [3] C. Fournier (2013). Evaluating Text Segmentation using Boundary Edit Distance. ACL, 1702-1712.
"""

from __future__ import annotations

import numpy as np

from tvseg.errors import InputError
from tvseg.unit.edits import _differences, _pairs_adjacent_events
from tvseg.unit.ghd import _cost

__all__ = ["ghd_many", "boundary_edits_many"]


# --------------------------------------------------------------------------------------------
# Inputs


def _flat_side(pos, offsets, n_units, name: str):
    """One side's positions and offsets checked against ``n_units``: (int64 positions, int64 counts)."""
    pos = np.asarray(pos)
    offsets = np.asarray(offsets)
    if pos.ndim != 1 or (pos.size and pos.dtype.kind not in "iu"):
        raise InputError(f"{name}_pos must be a 1-D integer array", value=pos.dtype)
    if offsets.ndim != 1 or offsets.dtype.kind not in "iu" or offsets.size != n_units.size + 1:
        raise InputError(
            f"{name}_offsets must be {n_units.size + 1} integers (one more than the shows)", value=offsets.shape
        )
    offsets = offsets.astype(np.int64)
    counts = np.diff(offsets)
    if offsets[0] != 0 or offsets[-1] != pos.size or (counts < 0).any():
        raise InputError(f"{name}_offsets must rise from 0 to len({name}_pos)")
    pos = pos.astype(np.int64)
    show = np.repeat(np.arange(n_units.size), counts)
    if pos.size:
        if (pos < 1).any() or (pos >= n_units[show]).any():
            k = int(show[np.flatnonzero((pos < 1) | (pos >= n_units[show]))[0]])
            raise InputError(f"{name} boundary positions of show {k} must lie in 1 .. N - 1", value=int(n_units[k]))
        rising = np.diff(pos) > 0
        first = np.zeros(pos.size, dtype=bool)
        first[offsets[:-1][counts > 0]] = True
        bad = ~(rising | first[1:])
        if bad.any():
            k = int(show[np.flatnonzero(bad)[0] + 1])
            raise InputError(f"{name} boundary positions of show {k} must increase strictly")
    return pos, counts, show


def _corpus(ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units):
    n_units = np.asarray(n_units)
    if n_units.ndim != 1 or n_units.dtype.kind not in "iu" or (n_units.size and n_units.min() < 1):
        raise InputError("n_units must be a 1-D array of positive integers (units per show)")
    n_units = n_units.astype(np.int64)
    ref = _flat_side(ref_pos, ref_offsets, n_units, "ref")
    hyp = _flat_side(hyp_pos, hyp_offsets, n_units, "hyp")
    return n_units, ref, hyp


def _padded(pos, counts, starts, order, width):
    """Positions of the shows in ``order`` (show ``k``'s are ``pos[starts[k]:starts[k] + counts[k]]``),
    one row each, left-aligned and padded with 0 to ``width``."""
    out = np.zeros((order.size, width), dtype=np.int64)
    c = counts[order]
    row = np.repeat(np.arange(order.size), c)
    col = np.arange(row.size) - np.repeat(np.cumsum(c) - c, c)
    out[row, col] = pos[np.repeat(starts[order], c) + col]
    return out


# --------------------------------------------------------------------------------------------
# GHD


def ghd_many(
    ref_pos,
    ref_offsets,
    hyp_pos,
    hyp_offsets,
    n_units,
    *,
    ins_cost: float = 2.0,
    del_cost: float = 2.0,
    shift_cost_coeff: float = 1.0,
):
    r"""Generalized Hamming distance (nltk's) of many show pairs, and the ``N - 1`` it is normalised by.

    Row ``k`` equals ``tvseg.unit.ghd.ghd_components(ref_k, hyp_k, ...)`` for the masses of show ``k``
    (module docstring for the recursion and how it runs on all shows at once).

    Parameters
    ----------
    ref_pos, hyp_pos : array of int
        Every show's boundary positions (:func:`tvseg.unit.masses.boundary_positions` of its masses),
        show after show; each show's strictly increasing and in ``1 .. N_k - 1``.
    ref_offsets, hyp_offsets : array of int, shape (K + 1,)
        Show ``k``'s positions are ``pos[offsets[k]:offsets[k + 1]]``.
    n_units : array of int, shape (K,)
        ``N_k``, the number of units of show ``k`` (the sum of its masses).
    ins_cost, del_cost, shift_cost_coeff : float
        nltk's costs (:func:`tvseg.unit.ghd.ghd`).

    Returns
    -------
    distance : numpy.ndarray of float64, shape (K,)
        :math:`M_{H,R}` of each show.
    positions : numpy.ndarray of int64, shape (K,)
        ``N_k - 1``.

    Raises
    ------
    InputError
        Offsets that do not fit the positions, positions out of ``1 .. N_k - 1`` or not increasing,
        a cost that is negative or not finite.
    """
    ins = _cost(ins_cost, "ins_cost")
    dele = _cost(del_cost, "del_cost")
    shift = _cost(shift_cost_coeff, "shift_cost_coeff")
    n_units, (rp, rc, _), (hp, hc, _) = _corpus(ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units)
    distance = np.zeros(n_units.size)
    if n_units.size == 0:
        return distance, n_units - 1
    size = np.maximum(hc, rc)
    by_size = np.argsort(size, kind="stable")
    r_starts, h_starts = np.cumsum(rc) - rc, np.cumsum(hc) - hc
    for lo, hi in _blocks(size[by_size]):
        shows = by_size[lo:hi]
        order = shows[np.argsort(-hc[shows], kind="stable")]  # most hypothesis boundaries first
        h_sorted, r_sorted = hc[order], rc[order]
        hpad = _padded(hp, hc, h_starts, order, int(h_sorted[0]))
        rpad = _padded(rp, rc, r_starts, order, int(r_sorted.max()))
        if _exact(ins, dele, shift, hpad.shape[1], rpad.shape[1], int(n_units[order].max())):
            distance[order] = _ghd_rows(hpad, rpad, h_sorted, r_sorted, ins, dele, shift)
        else:
            distance[order] = _ghd_diagonals(hpad, rpad, h_sorted, r_sorted, ins, dele, shift)
    return distance, n_units - 1


def _blocks(size, cells: int = 1 << 20):
    """``(lo, hi)`` slices of shows sorted by increasing ``size`` (their larger boundary count) whose
    padded arrays hold at most ``cells`` values each (one show at least): one block for a corpus of
    ordinary shows, and no show padded to the width of a much longer one."""
    lo, out = 0, []
    while lo < size.size:
        width = size[lo : lo + cells] + 1
        fits = np.arange(1, width.size + 1) * width <= cells  # shows lo .. lo + i in one block
        hi = lo + max(int(np.searchsorted(~fits, True)), 1)
        out.append((lo, hi))
        lo = hi
    return out


def _exact(ins: float, dele: float, shift: float, h_max: int, r_max: int, n_max: int) -> bool:
    """True when every value of the programme is a float64 computed without rounding (module docstring)."""
    s = max(int(c.as_integer_ratio()[1]).bit_length() - 1 for c in (ins, dele, shift))
    bound = (h_max + r_max + 1) * max(ins, dele, shift * n_max) + r_max * ins
    return bound * 2.0**s < 2.0**52


def _ghd_rows(hpad, rpad, h, r, ins, dele, shift):
    """The programme row by row for all shows (sorted by decreasing ``h``), the suffix of each row
    as a running minimum; exact only under :func:`_exact`."""
    k_all, r_max = rpad.shape
    out = np.empty(k_all)
    cols = np.arange(r_max + 1)
    ins_cols = ins * cols
    prev = np.broadcast_to(ins_cols, (k_all, r_max + 1))  # M[0, j] = ins * j
    done = h == 0
    out[done] = prev[done, r[done]]
    active = np.searchsorted(-h, -np.arange(h[0] + 1), side="right")  # shows with h >= i
    widest = np.maximum.accumulate(r)
    for i in range(1, int(h[0]) + 1):
        m = int(active[i])
        w = int(widest[m - 1])
        hv = hpad[:m, i - 1, None]
        d = rpad[:m, :w] - hv  # r_j - h_i, columns 1 .. w
        diag = prev[:m, :w]  # M[i-1, j-1]
        a = shift * np.abs(d) + diag
        c = np.minimum(np.where(d < 0, dele + prev[:m, 1 : w + 1], diag), a)
        after = d > 0  # r_j > h_i: reads M[i, j-1] (a suffix)
        row = np.empty((m, w + 1))
        row[:, 0] = dele * i
        row[:, 1:] = np.where(after, a, c)
        lt = np.zeros((m, w + 2), dtype=bool)
        lt[:, 1 : w + 1] = after
        keys = np.where(lt[:, :-1] | lt[:, 1:], row - ins_cols[: w + 1], np.inf)
        scan = np.minimum.accumulate(keys, axis=1) + ins_cols[: w + 1]
        row = np.where(lt[:, :-1], scan, row)
        ends = np.flatnonzero(h[:m] == i)
        out[ends] = row[ends, r[ends]]
        prev = row
    return out


def _ghd_diagonals(hpad, rpad, h, r, ins, dele, shift):
    """nltk's programme in its own order of operations, one anti-diagonal for all shows at a time
    (as :func:`tvseg.unit.ghd._ghd`, with a show axis)."""
    k_all = hpad.shape[0]
    h_max, r_max = hpad.shape[1], rpad.shape[1]
    total = h + r
    out = np.zeros(k_all)
    rrev = rpad[:, ::-1]
    two_back = np.zeros((k_all, h_max + 1))
    one_back = np.empty((k_all, h_max + 1))
    one_back[:, 0] = ins * 1
    if h_max:
        one_back[:, 1] = dele * 1
    ends = np.flatnonzero(total == 1)
    out[ends] = one_back[ends, h[ends]]
    for d in range(2, h_max + r_max + 1):
        current = np.empty((k_all, h_max + 1))
        lo, hi = max(1, d - r_max), min(h_max, d - 1)
        if lo <= hi:
            hv = hpad[:, lo - 1 : hi]  # h_i, i = lo .. hi
            rv = rrev[:, r_max - d + lo : r_max - d + hi + 1]  # r_j, j = d - i
            diag = two_back[:, lo - 1 : hi]
            shifted = shift * np.abs(hv - rv) + diag
            t = np.where(hv > rv, dele + one_back[:, lo - 1 : hi], ins + one_back[:, lo : hi + 1])
            t = np.where(hv == rv, diag, t)
            current[:, lo : hi + 1] = np.minimum(t, shifted)
        if d <= r_max:
            current[:, 0] = ins * d
        if d <= h_max:
            current[:, d] = dele * d
        ends = np.flatnonzero(total == d)
        out[ends] = current[ends, h[ends]]
        two_back, one_back = one_back, current
    return out


# --------------------------------------------------------------------------------------------
# S and B


def boundary_edits_many(ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units):
    r"""S's and B's counts (``n = 2``) of many show pairs, from their boundary positions.

    Row ``k`` equals, for the masses of show ``k``, ``similarity_counts(ref_k, hyp_k, n=2)``
    (``s_penalty, s_potential``) and ``pair_counts(boundary_positions(ref_k), boundary_positions(hyp_k),
    N_k - 1, metric="B", convention="segeval", n=2)`` (``b_penalty, b_denominator``): module docstring.

    Parameters
    ----------
    ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units
        As in :func:`ghd_many`.

    Returns
    -------
    dict of str to numpy.ndarray of float64, shape (K,)
        ``s_penalty`` :math:`F + T`, ``s_potential`` :math:`N - 1`, ``b_penalty`` :math:`F + T/2` and
        ``b_denominator`` :math:`F + T + M`, with ``F`` full misses, ``T`` 2-wise transpositions and
        ``M`` matches.

    Raises
    ------
    InputError
        As :func:`ghd_many`.
    """
    n_units, (rp, rc, rs), (hp, hc, hs) = _corpus(ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units)
    k_all = n_units.size
    base = np.cumsum(n_units + 1) - (n_units + 1)  # show k's positions start after base[k]
    pos, side, _ = _differences(rp + base[rs], hp + base[hs])
    show = np.searchsorted(base, pos, side="left") - 1  # base[k] < pos < base[k] + N_k
    taken = _pairs_adjacent_events(pos, side, 2)
    differences = np.bincount(show, minlength=k_all)
    transpositions = np.bincount(show[taken], minlength=k_all)
    matches = (rc + hc - differences) // 2
    full = differences - 2 * transpositions
    return {
        "s_penalty": full.astype(np.float64) + transpositions.astype(np.float64),
        "s_potential": (n_units - 1).astype(np.float64),
        "b_penalty": full.astype(np.float64) + transpositions / 2,
        "b_denominator": (full + transpositions + matches).astype(np.float64),
    }
