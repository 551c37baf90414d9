r"""Generalized Hamming distance (GHD) of two segmentations given as masses, as nltk computes it.

Bookstein, Kulyukin & Raita (2002) define the cost of turning the hypothesis into the reference by
inserting, deleting and shifting boundaries; ``nltk.metrics.segmentation.ghd`` computes it with a
dynamic programme over the boundary positions of both sides, and :func:`ghd` reproduces that
programme exactly (same recursion, same floating-point operations, so equal results, not merely
close ones) on masses, through the contract's mapping to nltk's strings: masses ``(a, b, c)`` are
``"0"*(a-1) + "1" + "0"*(b-1) + "1" + "0"*(c-1)``, one character per gap between adjacent units, so a
boundary at position ``p`` (``p`` units before it) is character ``p - 1``.

nltk's recursion, rows ``i`` over the hypothesis boundaries :math:`h_1 < \dots < h_H`, columns ``j``
over the reference boundaries :math:`r_1 < \dots < r_R`, :math:`M_{0,j} = c_{ins}\,j`,
:math:`M_{i,0} = c_{del}\,i` and

.. math::

    M_{i,j} = \min\bigl(c_{shift} |h_i - r_j| + M_{i-1,j-1},\; t_{i,j}\bigr), \qquad
    t_{i,j} = \begin{cases} M_{i-1,j-1} & h_i = r_j \\ c_{del} + M_{i-1,j} & h_i > r_j \\
    c_{ins} + M_{i,j-1} & h_i < r_j \end{cases}

and GHD is :math:`M_{H,R}`.

:func:`ghd_counts` is the one kernel: it runs the programme for many pairs at once
(:class:`~tvseg.unit.masses.BoundaryPairs`: a corpus of shows, or the one pair of :func:`ghd`), one
row ``i`` for all pairs at a time, on arrays padded to the largest boundary count (pairs sorted by
``H``, so row ``i`` only touches the pairs with :math:`H \ge i`; a pair with far more boundaries than
the others gets a block of its own, :func:`tvseg.unit.alignment.blocks`, so that no array holds more
than about a million values). Within a
row, the columns with :math:`r_j \le h_i` read the row above only; those with :math:`r_j > h_i` form a
suffix :math:`j \ge j_0` where :math:`M_{i,j} = \min(a_j, c_{ins} + M_{i,j-1})`,
:math:`a_j = c_{shift}|h_i - r_j| + M_{i-1,j-1}`, whose solution is a running minimum:

.. math:: M_{i,j} = c_{ins}\,j + \min_{j_0 - 1 \le l \le j} (a_l - c_{ins}\,l), \qquad a_{j_0 - 1} = M_{i,j_0-1}.

That rewriting adds the same numbers in another order, so it is used only when every sum is exact
in float64: each cost is a binary fraction :math:`p / 2^s` (every float is) and every value of the
programme, at most :math:`(H + R + 1) \max(c_{ins}, c_{del}, c_{shift} N)` (plus :math:`c_{ins} R`
for the running minimum's terms), stays below :math:`2^{52 - s}` (true of the defaults 2, 2, 1,
whose GHDs are integers). Otherwise it runs nltk's order exactly, one anti-diagonal
:math:`i + j = d` at a time for all pairs (each cell needs the cells above, left and above-left, so the
cells of one anti-diagonal depend only on the two before it; each cell's operations are nltk's, so the
floats are the same). Either way :math:`O(H + R)` memory per pair and :math:`O(HR)` arithmetic (nltk
stores the whole matrix and refuses strings longer than 10,000 characters; tvseg has no such limit).

Normalised GHD: GHD divided by the number of positions where a boundary may be, the ``N - 1`` gaps
of a text of ``N`` units (the length of nltk's string), so that texts of different lengths compare:
neither Bookstein et al. nor nltk normalises, and no source fixing this divisor could be checked here;
tvseg's choice is GHD per potential boundary (issue 14 asks for it as GHD is commonly reported).
``tvseg evaluate`` reports ``ghd`` = sum of GHD / sum of ``N - 1`` over the shows (per show: that
show's GHD / ``N - 1``).

References
----------
.. [1] A. Bookstein, V. A. Kulyukin and T. Raita (2002). Generalized Hamming distance. Information
   Retrieval 5:353-375.
.. [2] nltk 3.10.4, ``nltk.metrics.segmentation.ghd``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from tvseg.unit.alignment import Costs, Ints, alignment_costs, blocks, runs
from tvseg.unit.conventions import check_cost
from tvseg.unit.masses import BoundaryPairs, Masses, check_pair

__all__ = ["ghd", "ghd_counts"]


def ghd(
    reference: Masses,
    hypothesis: Masses,
    *,
    ins_cost: float = 2.0,
    del_cost: float = 2.0,
    shift_cost_coeff: float = 1.0,
) -> float:
    r"""Generalized Hamming distance (Bookstein et al. 2002), equal to nltk's ``ghd``.

    The cost of turning the hypothesis into the reference: a reference boundary the hypothesis
    lacks is inserted (``ins_cost``), a hypothesis boundary the reference lacks is deleted
    (``del_cost``), and a hypothesis boundary ``d`` positions from a reference boundary may be
    shifted onto it instead (``shift_cost_coeff * d``). The recursion is nltk's (module docstring),
    run by :func:`ghd_counts` on this one pair.

    Parameters
    ----------
    reference, hypothesis : sequence of int
        Masses with the same total ``N`` (checked by :func:`tvseg.unit.masses.check_pair`).
    ins_cost, del_cost, shift_cost_coeff : float
        nltk's parameters and defaults (nltk's docstring recommends ``shift_cost_coeff=2`` with
        insertion and deletion costs equal to the mean reference segment size).

    Returns
    -------
    float
        ``nltk.metrics.segmentation.ghd(ref, hyp, ins_cost, del_cost, shift_cost_coeff)`` of the
        strings the masses stand for (``boundary="1"``); 0 for identical segmentations. Not
        normalised: divide by ``N - 1`` for the normalised GHD.

    Raises
    ------
    InputError
        Invalid masses, different totals, or a cost that is negative or not finite.

    Examples
    --------
    nltk's own example ``ghd("1100100000", "1100010000", 1.0, 1.0, 0.5) == 0.5`` in masses:

    >>> ghd((1, 1, 3, 6), (1, 1, 4, 5), ins_cost=1.0, del_cost=1.0, shift_cost_coeff=0.5)
    0.5
    """
    names = ("ins_cost", "del_cost", "shift_cost_coeff")
    costs = Costs(*(check_cost(v, name) for v, name in zip((ins_cost, del_cost, shift_cost_coeff), names)))
    return float(ghd_counts(check_pair(reference, hypothesis), *costs)[0])


def ghd_counts(pairs: BoundaryPairs, ins: float = 2.0, dele: float = 2.0, shift: float = 1.0) -> np.ndarray:
    r"""nltk's generalized Hamming distance :math:`M_{H,R}` of every pair (float64 array; module
    docstring for how the programme runs on all pairs at once), with the costs checked by the caller."""
    costs = Costs(ins, dele, shift)
    n_units = np.broadcast_to(np.asarray(pairs.n, np.int64), (pairs.size,))
    rp, hp = pairs.reference, pairs.hypothesis
    rc, hc = np.diff(pairs.reference_offsets), np.diff(pairs.hypothesis_offsets)
    distance = np.zeros(pairs.size)
    if pairs.size == 0:
        return distance
    if costs.aligns() and _exact(costs, int(hc.max()), int(rc.max()), int(n_units.max())):
        return alignment_costs(pairs, costs)
    size = np.maximum(hc, rc)
    by_size = np.argsort(size, kind="stable")
    r_starts, h_starts = pairs.reference_offsets[:-1], pairs.hypothesis_offsets[:-1]
    for lo, hi in blocks(size[by_size] + 1):
        shows = by_size[lo:hi]
        order = shows[np.argsort(-hc[shows], kind="stable")]  # most hypothesis boundaries first
        h_sorted, r_sorted = hc[order], rc[order]
        hpad = _padded(hp, hc, h_starts, order, int(h_sorted[0]))
        rpad = _padded(rp, rc, r_starts, order, int(r_sorted.max()))
        exact = _exact(costs, hpad.shape[1], rpad.shape[1], int(n_units[order].max()))
        distance[order] = (_ghd_rows if exact else _ghd_diagonals)(hpad, rpad, h_sorted, r_sorted, costs)
    return distance


def _padded(pos: Ints, counts: Ints, starts: Ints, order: NDArray[np.intp], width: int) -> Ints:
    """Positions of the shows in ``order`` (show ``k``'s are ``pos[starts[k]:starts[k] + counts[k]]``),
    one row each, left-aligned and padded with 0 to ``width``."""
    out = np.zeros((order.size, width), dtype=np.int64)
    index, col = runs(starts[order], counts[order])
    out[np.repeat(np.arange(order.size), counts[order]), col] = pos[index]
    return out


def _exact(costs: Costs, h_max: int, r_max: int, n_max: int) -> bool:
    """True when every value of the programme is a float64 computed without rounding (module docstring)."""
    ins, dele, shift = costs
    s = max(int(c.as_integer_ratio()[1]).bit_length() - 1 for c in costs)
    bound = (h_max + r_max + 1) * max(ins, dele, shift * n_max) + r_max * ins
    return bound * 2.0**s < 2.0**52


def _ghd_rows(hpad: Ints, rpad: Ints, h: Ints, r: Ints, costs: Costs) -> NDArray[np.float64]:
    """The programme row by row for all shows (sorted by decreasing ``h``), the suffix of each row
    as a running minimum; exact only under :func:`_exact`."""
    ins, dele, shift = costs
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


def _ghd_diagonals(hpad: Ints, rpad: Ints, h: Ints, r: Ints, costs: Costs) -> NDArray[np.float64]:
    """nltk's programme in its own order of operations, one anti-diagonal for all shows at a time
    (nltk's order, with a pair axis)."""
    ins, dele, shift = costs
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
