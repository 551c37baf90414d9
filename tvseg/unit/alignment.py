r"""nltk's GHD in linear time: the cheapest alignment of two sets of boundary positions, on a band.

nltk's programme (:mod:`tvseg.unit.ghd`) is a shortest path through the grid of hypothesis boundaries
:math:`h_1 < \dots < h_H` (rows) and reference boundaries :math:`r_1 < \dots < r_R` (columns): a
diagonal step into cell :math:`(i, j)` matches :math:`h_i` with :math:`r_j` at cost
:math:`c_{shift} |h_i - r_j|`, a vertical step deletes :math:`h_i` (:math:`c_{del}`) and is allowed only
when :math:`h_i > r_j`, a horizontal step inserts :math:`r_j` (:math:`c_{ins}`) only when
:math:`h_i < r_j` (row 0 and column 0 are free of those conditions). Every path is an alignment (a
monotone matching, the unmatched boundaries deleted or inserted), so nltk's value is at least the
cheapest alignment. When :math:`c_{shift} > 0` and :math:`c_{ins} + c_{del} > 0` it is exactly that:

1. in a cheapest alignment no match costs more than :math:`c_{ins} + c_{del}` (unmatching both is
   cheaper), so the two boundaries of a match are at most :math:`T = (c_{ins} + c_{del}) / c_{shift}`
   apart;
2. between two consecutive matches :math:`(h_a, r_b)` and :math:`(h_{a'}, r_{b'})`, an unmatched
   hypothesis boundary :math:`h_i` (:math:`a < i < a'`) lies after :math:`r_b` and before
   :math:`r_{b'}`: were :math:`h_a < h_i < r_b`, matching :math:`h_i` with :math:`r_b` and deleting
   :math:`h_a` would be strictly cheaper, and likewise on the other side (the same for an unmatched
   reference boundary); two unmatched boundaries at one position would be cheaper matched (cost 0);
3. so deleting and inserting the unmatched boundaries between two matches in the order of their
   positions is a path nltk allows, and the cheapest alignment is one of nltk's paths.

Along that path, at cell :math:`(i, j)`, fewer than :math:`\lfloor T \rfloor` reference boundaries
after :math:`r_j` lie before :math:`h_i`, and fewer than :math:`\lfloor T \rfloor` hypothesis
boundaries after :math:`h_i` lie before :math:`r_j` (positions are distinct integers, a match spans at
most :math:`T`); the band allows :math:`D - 1` with :math:`D = \lfloor T \rfloor + 1` (one more, for the
rounding of :math:`T`). The programme is therefore run on the cells that meet both conditions, the other cells
taken as unreachable: row :math:`i` holds the columns
:math:`\#\{r < h_i\} - D + 1 \le j \le \#\{r \le h_{i + D}\}`, about :math:`D` plus the reference
boundaries between :math:`h_i` and :math:`h_{i+D}`, so :math:`O(D (H + R))` cells in all instead of
:math:`HR`. Its value is that of a path nltk allows, and at most that of the cheapest alignment's path:
the same number.

Two boundaries more than :math:`T` apart are never matched, so where consecutive boundaries (both
sides merged) are more than :math:`T` apart the alignment falls into independent pieces: each piece
is a pair of its own, and all the pieces of all the pairs run together, one row at a time (a piece of
many rows alone, in Python floats: numpy's call overhead would dominate its narrow rows).

The values are sums of the costs; the caller uses this kernel only when every such sum is exact in
float64 (:func:`tvseg.unit.ghd._exact`), so that the order of the additions, and the band, change no
bit of the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, TypeAlias

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from tvseg.unit.masses import BoundaryPairs

Ints: TypeAlias = NDArray[np.int64]

__all__ = ["Costs", "alignment_costs", "blocks", "runs"]

_CELLS = 1 << 20  # most values of one row of a block of pieces
_LONG = 256  # a piece of this many rows or more runs alone


class Costs(NamedTuple):
    """GHD's costs: of inserting a boundary, of deleting one, and of shifting one by one position."""

    ins: float
    dele: float
    shift: float

    def aligns(self) -> bool:
        """Whether nltk's programme is the cheapest alignment for these costs (module docstring)."""
        return self.shift > 0 and self.ins + self.dele > 0


def alignment_costs(pairs: BoundaryPairs, costs: Costs) -> NDArray[np.float64]:
    """nltk's GHD of every pair, as the cheapest alignment on the band (module docstring); only where
    :meth:`Costs.aligns` and the sums are exact."""
    ins, dele, shift = costs
    n_pairs = pairs.size
    band = int((ins + dele) / shift) + 1  # the farthest match, floor(T), and one for the rounding of T
    sides = ((pairs.reference, pairs.reference_offsets), (pairs.hypothesis, pairs.hypothesis_offsets))
    counts = [np.diff(offsets) for _, offsets in sides]
    # both sides of every pair merged, (pair, position, side) sorted
    pair = np.concatenate([np.repeat(np.arange(n_pairs), c) for c in counts])
    pos = np.concatenate([p[runs(offsets[:-1], c)[0]] for (p, offsets), c in zip(sides, counts)])
    side = np.repeat(np.arange(2, dtype=np.int8), [int(c.sum()) for c in counts])
    order = np.lexsort((side, pos, pair))
    pair, pos, side = pair[order], pos[order], side[order]
    # a new piece where the pair changes or the boundaries are more than T apart
    cut = np.ones(pos.size, dtype=bool)
    cut[1:] = (pair[1:] != pair[:-1]) | (shift * (pos[1:] - pos[:-1]).astype(float) > ins + dele)
    piece = np.cumsum(cut) - 1
    n_pieces = int(piece[-1]) + 1 if piece.size else 0
    distance = np.zeros(n_pairs)
    if n_pieces == 0:
        return distance
    owner = pair[cut]
    is_h = side == 1
    h_piece, h_pos = piece[is_h], pos[is_h]
    r_piece, r_pos = piece[~is_h], pos[~is_h]
    h_count = np.bincount(h_piece, minlength=n_pieces)
    r_count = np.bincount(r_piece, minlength=n_pieces)
    value = _pieces(h_pos, h_count, r_pos, r_count, band, costs)
    np.add.at(distance, owner, value)
    return distance


def runs(starts: Ints, counts: Ints) -> tuple[Ints, Ints]:
    """Runs of ``counts[i]`` elements from ``starts[i]`` (runs may repeat or overlap): the index of
    every element, run after run, and its place in its run."""
    place = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    return np.repeat(starts, counts) + place, place


def blocks(width: Ints, cells: int = _CELLS) -> list[tuple[int, int]]:
    """``(lo, hi)`` slices of rows sorted by increasing ``width`` whose padded arrays hold at most
    ``cells`` values each (one row at least): no row padded to the width of a much wider one."""
    lo, out = 0, []
    while lo < width.size:
        fits = np.arange(1, min(width.size - lo, cells) + 1) * width[lo : lo + cells] <= cells
        hi = lo + max(int(np.searchsorted(~fits, True)), 1)
        out.append((lo, hi))
        lo = hi
    return out


def _pieces(h_pos: Ints, h_count: Ints, r_pos: Ints, r_count: Ints, band: int, costs: Costs) -> NDArray[np.float64]:
    """The cheapest alignment of every piece (its boundaries sorted, pieces in order)."""
    n = h_count.size
    h_first = np.cumsum(h_count) - h_count
    r_first = np.cumsum(r_count) - r_count
    # the band of row i (0 .. H) of each piece, rows flattened piece after piece
    rows = h_count + 1
    row_piece = np.repeat(np.arange(n), rows)
    row_first = np.cumsum(rows) - rows
    i = np.arange(int(rows.sum())) - row_first[row_piece]
    # positions as keys comparable across pieces: piece * stride + position
    stride = int(max(h_pos.max(initial=0), r_pos.max(initial=0))) + 2
    r_key = np.repeat(np.arange(n, dtype=np.int64), r_count) * stride + r_pos
    row_base = row_piece.astype(np.int64) * stride
    h_ext = np.append(h_pos, 0)  # a last entry read where a row has no h_i or no h_{i + D}
    h_at = np.where(i >= 1, h_ext[np.minimum(h_first[row_piece] + i - 1, h_pos.size)], -1)
    lo = np.where(i >= 1, np.searchsorted(r_key, row_base + h_at, side="left") - r_first[row_piece] - band + 1, 0)
    lo = np.maximum(lo, 0)
    ahead = i + band <= h_count[row_piece]
    h_ahead = h_ext[np.minimum(h_first[row_piece] + i + band - 1, h_pos.size)]
    hi = np.where(
        ahead,
        np.searchsorted(r_key, row_base + h_ahead, side="right") - r_first[row_piece],
        r_count[row_piece],
    )
    hi = np.minimum(hi, r_count[row_piece])
    width = hi - lo + 1
    widest = np.maximum.reduceat(width, row_first)
    out = np.empty(n)
    # a long piece row by row in Python (numpy's call overhead would dominate its narrow rows), the
    # others in blocks of pieces of similar width, most rows first within a block
    long = np.flatnonzero(h_count >= _LONG)
    for k in long.tolist():
        rows_k = slice(row_first[k], row_first[k] + h_count[k] + 1)
        h = h_pos[h_first[k] : h_first[k] + h_count[k]].tolist()
        r = r_pos[r_first[k] : r_first[k] + r_count[k]].tolist()
        out[k] = _one(h, r, lo[rows_k].tolist(), width[rows_k].tolist(), costs)
    short = np.ones(n, dtype=bool)
    short[long] = False
    by_width = np.flatnonzero(short)[np.argsort(widest[short], kind="stable")]
    for lo_block, hi_block in blocks(widest[by_width]):
        members = by_width[lo_block:hi_block]
        members = members[np.argsort(-h_count[members], kind="stable")]
        out[members] = _block(
            members, widest, h_pos, h_first, h_count, r_pos, r_first, r_count, row_first, lo, width, costs
        )
    return out


def _one(h: list, r: list, lo: list, width: list, costs: Costs) -> float:
    """The programme on the band for one piece, in Python floats (the same exact sums)."""
    ins, dele, shift = costs
    inf = float("inf")
    prev = [ins * j for j in range(width[0])]  # row 0 starts at column 0
    prev_lo = 0
    for i in range(1, len(h) + 1):
        first, hv = lo[i], h[i - 1]
        current = [inf] * width[i]
        left = inf
        size = len(prev)
        for c in range(width[i]):
            j = first + c
            k = j - prev_lo  # column j in the previous row
            best = prev[k] + dele if k < size else inf
            if j >= 1 and 0 < k <= size:
                diagonal = prev[k - 1] + shift * abs(hv - r[j - 1])
                if diagonal < best:
                    best = diagonal
            if left + ins < best:
                best = left + ins
            current[c] = left = best
        prev, prev_lo = current, first
    return float(prev[len(r) - prev_lo])


def _block(members, widest, h_pos, h_first, h_count, r_pos, r_first, r_count, row_first, lo, width, costs):
    """The programme on the band, row by row for the pieces ``members`` (most rows first)."""
    ins, dele, shift = costs
    m_all = members.size
    heights = h_count[members]
    base = row_first[members]
    span = int(widest[members].max())
    cols = np.arange(span)
    inf = np.inf
    # row 0: M[0, j] = ins * j inside the band
    lo_prev = lo[base]
    w_prev = width[base]
    prev = np.where(cols[None, :] < w_prev[:, None], ins * (lo_prev[:, None] + cols[None, :]), inf)
    out = np.empty(m_all)
    done = heights == 0
    out[done] = prev[done, r_count[members][done] - lo_prev[done]]
    active = np.searchsorted(-heights, -np.arange(int(heights[0]) + 1 if m_all else 1), side="right")
    r_last = max(r_pos.size - 1, 0)
    for row in range(1, int(heights[0]) + 1 if m_all else 1):
        m = int(active[row])
        at = base[:m] + row
        lo_cur, w_cur = lo[at], width[at]
        shift_cols = (lo_cur - lo_prev[:m])[:, None]
        up_index = cols[None, :] + shift_cols  # column j in the previous row's band
        j = lo_cur[:, None] + cols[None, :]
        valid = cols[None, :] < w_cur[:, None]
        wp = w_prev[:m, None]
        p = prev[:m]
        up = np.where(up_index < wp, np.take_along_axis(p, np.minimum(up_index, span - 1), axis=1), inf)
        d_index = up_index - 1
        diag_ok = (d_index >= 0) & (d_index < wp)
        diag = np.where(diag_ok, np.take_along_axis(p, np.clip(d_index, 0, span - 1), axis=1), inf)
        h = h_pos[h_first[members[:m]] + row - 1][:, None]
        r = r_pos[np.clip(r_first[members[:m]][:, None] + j - 1, 0, r_last)] if r_pos.size else np.zeros_like(j)
        cand = np.minimum(np.where(j >= 1, diag + shift * np.abs(h - r), inf), up + dele)
        cand = np.where(valid, cand, inf)
        run = ins * j
        current = np.minimum.accumulate(cand - run, axis=1) + run
        current[~valid] = inf
        ends = np.flatnonzero(heights[:m] == row)
        out[ends] = current[ends, r_count[members[ends]] - lo_cur[ends]]
        prev, lo_prev, w_prev = current, lo_cur, w_cur
    return out
