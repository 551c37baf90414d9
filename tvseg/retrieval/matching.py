r"""Boundary matching within a tolerance: one kernel, :func:`match_boundaries`, for the pairs and for
the counts of a tolerance sweep, on a whole corpus at once.

A reference boundary :math:`r` and a hypothesis boundary :math:`h` of the same show may be paired
when :math:`|r - h| \le \tau` (inclusive), decided on times and tolerance in integer microseconds
(:mod:`tvseg.exact`): boundaries at 6.1 s and 16.1 s are paired at a tolerance of 10 s. The pairing
is one-to-one and has the largest number of pairs (a maximum matching, as
``mir_eval.util.match_events``); the pairs are, among maximum matchings, one with the smallest total
distance :math:`\sum |r - h|`. Each step below is written once and serves every tolerance.

1. **Windows.** With both sides sorted by ``(show, time)``, reference boundary :math:`k` may pair with
   the hypothesis boundaries :math:`[lo_k, hi_k)`; all windows have the same width, so both bounds
   are nondecreasing in :math:`k`. Two binary searches find them at the widest tolerance :math:`T`
   asked; at :math:`\tau < T` they are counted among those candidates: the signed distances
   :math:`d_{kj} = h_j - r_k` increase with :math:`j`, so :math:`lo_k(\tau) = lo_k(T) + \#\{j : d_{kj}
   < -\tau\}` and :math:`hi_k(\tau) = lo_k(T) + \#\{j : d_{kj} \le \tau\}` (:func:`_windows`; where
   the candidates outnumber the boundaries 16 times, the searches run again at each tolerance).
2. **A maximum matching, at every tolerance: the greedy scan.** Each reference boundary, in time
   order, takes the earliest hypothesis boundary of its window not taken yet (:func:`_greedy`). It is
   maximum (exchange argument): let a maximum matching :math:`M` agree with the scan on the
   references before :math:`r_k`. If the scan leaves :math:`r_k` unmatched, no free hypothesis lies
   in its window and :math:`M` leaves it unmatched too. Else the scan takes :math:`g`, the earliest
   free one in its window. If :math:`M` leaves :math:`g` free, give :math:`g` to :math:`r_k` in
   :math:`M` (replacing its partner, if any: same size, or larger). If :math:`M` pairs :math:`g` with
   a later :math:`r_m` and :math:`r_k` with nothing, move :math:`g` to :math:`r_k`; if :math:`r_k` with
   :math:`h'`, then :math:`g \le h'` and swapping gives :math:`(r_k, g), (r_m, h')`, within the
   tolerance since :math:`g \le h' \le r_k + \tau \le r_m + \tau` and :math:`h' \ge g \ge r_m - \tau`.
   Either way a maximum matching agrees on :math:`r_k` too. Its size per show is the count. (The
   scan serves every tolerance because it costs :math:`O(N \log N)` for :math:`N` boundaries whatever
   the tolerance, where step 3 costs the band; and a count cannot be read from the pairs at another
   tolerance: at 6 s the pairs of references 0, 6 and hypotheses 5, 11 are (0, 5), (6, 11), at 1 s
   neither, though 6 and 5 pair.)
3. **The cheapest of them, at the settings' tolerance.** *Uncrossing*: if :math:`r_1 < r_2` are paired
   with :math:`h_2 < h_1`, pairing :math:`r_1` with :math:`h_2` and :math:`r_2` with :math:`h_1` keeps
   both pairs within the tolerance (e.g. if :math:`h_2 \ge r_1` then :math:`h_2 - r_1 < h_1 - r_1 \le
   \tau`, else :math:`r_1 - h_2 < r_2 - h_2 \le \tau`; the other pair likewise) and does not increase
   the total distance (on a line, :math:`|r_1-h_2| + |r_2-h_1| \le |r_1-h_1| + |r_2-h_2|` whenever the
   pairs cross), so some optimal matching is order-preserving. *Clusters*: where a window starts at
   or past the previous one's end (:math:`lo_k \ge hi_{k-1}`, where the scan restarts) no hypothesis
   boundary is shared, so the clusters of references between such restarts are independent. A
   cluster with at most one candidate pair keeps the scan's pair; any other is solved by a banded
   dynamic programme (:func:`_match_cluster`) maximising (pairs, -distance) lexicographically over
   order-preserving matchings, in time and memory proportional to its **band** (its candidate pairs).
   A cluster whose band exceeds :data:`BAND_LIMIT` keeps the scan's pairs, with a
   :class:`~tvseg.errors.TvsegWarning`: still a maximum matching, not necessarily the cheapest.

The tests compare the counts with mir_eval's bipartite maximum matching and the counts and total
distances with a search over all matchings.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from tvseg.errors import ApproximationWarning, user_stacklevel
from tvseg.exact import _INT64_SAFE, tick, ticks

__all__ = ["match_boundaries", "BoundaryMatching", "BAND_LIMIT"]


BAND_LIMIT = 5_000_000
"""Largest band (pairs within the tolerance) of one cluster solved by the cheapest-matching dynamic
programme: about 5 MB of back-pointers and about a second; a larger cluster keeps the greedy scan's
maximum matching (exact count, pairs not necessarily the cheapest) and a warning."""

_WIDE_ROW = 48
"""Rows of the dynamic programme with at least this many cells are computed with numpy."""
_PAIRS_PER_BOUNDARY = 16
"""Candidate pairs per boundary above which the windows are searched again at each tolerance."""
_FEW_CLUSTERS = 16
"""Clusters to solve up to which the cheapest-matching step slices them one by one (a show has a few:
that costs less than gathering them all at once)."""


@dataclass(frozen=True, eq=False)
class BoundaryMatching:
    """What :func:`match_boundaries` finds.

    Attributes
    ----------
    pairs : tuple of ndarray
        ``(i, j)``: indices into the reference and hypothesis boundaries of the pairs matched at the
        tolerance, ``i`` increasing.
    matched : dict of float to ndarray of int64
        Per show, the size of a maximum matching, at the tolerance (first key) and at each tolerance
        of the sweep.
    """

    pairs: tuple[np.ndarray, np.ndarray]
    matched: dict[float, np.ndarray]


def match_boundaries(
    ref_show: np.ndarray,
    ref_time: np.ndarray,
    hyp_show: np.ndarray,
    hyp_time: np.ndarray,
    *,
    tolerance: float,
    sweep: Iterable[float] = (),
    n_shows: int | None = None,
    in_ticks: tuple[np.ndarray, np.ndarray] | None = None,
) -> BoundaryMatching:
    """Maximum matchings of a corpus's boundaries: the pairs at ``tolerance``, the counts at each
    tolerance of ``sweep`` too (module docstring).

    Parameters
    ----------
    ref_show, ref_time, hyp_show, hyp_time : ndarray
        Boundaries of each side sorted by ``(show, time)``: integer show indices, times in seconds.
    tolerance : float
        Seconds, inclusive: the pairs are those of a maximum matching with the smallest total
        distance (except in a cluster past :data:`BAND_LIMIT`, with a warning).
    sweep : iterable of float
        More tolerances (seconds) at which only the number of pairs is wanted.
    n_shows : int, optional
        Length of each count array (at least the largest show index + 1).
    in_ticks : tuple of ndarray, optional
        ``ref_time`` and ``hyp_time`` in integer microseconds (:func:`tvseg.exact.ticks`), when the
        caller has them already.

    Returns
    -------
    BoundaryMatching

    Examples
    --------
    Show 0: references 10 and 18, hypotheses 15 and 23; show 1: a reference at 5 alone. At 6 s the
    maximum matching pairs 10 with 15 and 18 with 23 (pairing 18 with the nearer 15 would leave 10
    alone); at 4 s only 18 and 15 (3 apart) can pair.

    >>> import numpy as np
    >>> m = match_boundaries(np.array([0, 0, 1]), np.array([10.0, 18.0, 5.0]),
    ...                      np.array([0, 0]), np.array([15.0, 23.0]), tolerance=6, sweep=[4], n_shows=2)
    >>> [x.tolist() for x in m.pairs], {t: c.tolist() for t, c in m.matched.items()}
    ([[0, 1], [0, 1]], {6.0: [2, 0], 4.0: [1, 0]})
    """
    ref_show, hyp_show = np.asarray(ref_show), np.asarray(hyp_show)
    r, h = (ticks(ref_time), ticks(hyp_time)) if in_ticks is None else in_ticks
    asked = [float(tolerance), *map(float, sweep)]
    if len(asked) > 1:
        asked = list(dict.fromkeys(asked))
    if n_shows is None:
        n_shows = int(max(ref_show.max(initial=-1), hyp_show.max(initial=-1))) + 1
    span = _span(r, h, in_order=n_shows == 1)  # one show: its boundaries are sorted by time
    clipped = [_clip(tick(t), span) for t in asked]
    matched = {}
    for t, tau, (lo, hi) in zip(asked, clipped, _windows(ref_show, r, hyp_show, h, clipped, span, n_shows)):
        restart = _restarts(lo, hi)
        partner = _greedy(lo, hi, restart)
        found = partner >= 0
        if n_shows == 1:
            matched[t] = np.array([np.count_nonzero(found)], dtype=np.int64)
        else:
            matched[t] = np.bincount(ref_show[found], minlength=n_shows).astype(np.int64, copy=False)
        if t == asked[0]:
            cheapest = _cheapest(r, h, lo, hi, partner, tau, restart)
            if cheapest is not partner:  # (else the scan's pairs are the cheapest already)
                found = cheapest >= 0
            i = found.nonzero()[0]
            pairs = (i, cheapest[i])
    return BoundaryMatching(pairs=pairs, matched=matched)


def _span(r: np.ndarray, h: np.ndarray, *, in_order: bool = False) -> tuple[int, int] | None:
    """The earliest and the latest time of both sides (ticks; ``in_order``: each side sorted by time);
    None when a side has none."""
    if not len(r) or not len(h):
        return None
    if in_order:
        return min(int(r[0]), int(h[0])), max(int(r[-1]), int(h[-1]))
    return min(int(r.min()), int(h.min())), max(int(r.max()), int(h.max()))


def _clip(tolerance: int, span: tuple[int, int] | None) -> int:
    """A tolerance in ticks no larger than the ``span`` of the times (a larger one pairs nothing more,
    and no sum of a time and the tolerance overflows)."""
    if span is None:
        return min(tolerance, 0)
    return min(tolerance, span[1] - span[0])


def _search(ref_show, r, hyp_show, h, tolerance: int, span: tuple[int, int] | None, n_shows: int):
    """The windows ``lo, hi`` at one tolerance (ticks), by binary search.

    Shows are laid out on one ``int64`` axis, show ``s`` at ``s * width`` with ``width`` more than a
    show's span plus the tolerance, so one ``searchsorted`` per bound keeps shows apart and compares
    integers exactly. When that axis would not fit in ``int64`` (thousands of shows on a clock far
    from zero, such as Unix times), show by show.
    """
    if span is None:
        z = np.zeros(len(r), dtype=np.int64)
        return z, z.copy()
    if n_shows == 1:
        return h.searchsorted(r - tolerance, side="left"), h.searchsorted(r + tolerance, side="right")
    first = span[0]
    width = span[1] - first + tolerance + 1
    if n_shows * width < _INT64_SAFE:
        h_key = (h - first) + hyp_show.astype(np.int64) * width
        r_key = (r - first) + ref_show.astype(np.int64) * width
        return (
            np.searchsorted(h_key, r_key - tolerance, side="left"),
            np.searchsorted(h_key, r_key + tolerance, side="right"),
        )
    lo, hi = np.empty(len(r), dtype=np.int64), np.empty(len(r), dtype=np.int64)
    r_cut = np.flatnonzero(np.diff(ref_show, prepend=ref_show[0] - 1, append=ref_show[-1] + 1)).tolist()
    for a, b in zip(r_cut[:-1], r_cut[1:]):
        c = int(np.searchsorted(hyp_show, ref_show[a], side="left"))
        d = int(np.searchsorted(hyp_show, ref_show[a], side="right"))
        lo[a:b] = c + np.searchsorted(h[c:d], r[a:b] - tolerance, side="left")
        hi[a:b] = c + np.searchsorted(h[c:d], r[a:b] + tolerance, side="right")
    return lo, hi


def _windows(
    ref_show, r, hyp_show, h, tolerances: list[int], span: tuple[int, int] | None, n_shows: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The windows ``lo, hi`` at each tolerance (ticks), in turn: searched at the widest, counted
    among its candidates at the others (step 1), or searched again where the candidates are dense."""
    widest = max(tolerances)
    lo, hi = _search(ref_show, r, hyp_show, h, widest, span, n_shows)
    if min(tolerances) == widest:
        for _ in tolerances:
            yield lo, hi
        return
    size = hi - lo
    n_pairs = int(size.sum())
    if n_pairs > _PAIRS_PER_BOUNDARY * max(len(r), len(h)):
        for tau in tolerances:
            yield (lo, hi) if tau == widest else _search(ref_show, r, hyp_show, h, tau, span, n_shows)
        return
    owner = np.repeat(np.arange(len(r)), size)
    first = np.cumsum(size) - size
    distance = h[lo[owner] + (np.arange(n_pairs) - first[owner])] - r[owner]

    def per_reference(flags: np.ndarray) -> np.ndarray:
        return np.bincount(owner, weights=flags, minlength=len(r)).astype(np.int64)

    for tau in tolerances:
        yield (lo, hi) if tau == widest else (lo + per_reference(distance < -tau), lo + per_reference(distance <= tau))


def _restarts(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Where the greedy scan restarts, and a cluster begins: the first reference, and each one whose
    window starts at or past the previous one's end (always the case across shows)."""
    restart = np.empty(len(lo), dtype=bool)
    restart[:1] = True
    np.greater_equal(lo[1:], hi[:-1], out=restart[1:])
    return restart


def _greedy(lo: np.ndarray, hi: np.ndarray, restart: np.ndarray) -> np.ndarray:
    r"""Hypothesis partner of each reference boundary in the greedy scan (-1: none), vectorised
    (``restart``: :func:`_restarts`).

    The scan keeps a pointer :math:`P` into the hypotheses: reference :math:`k` first skips the ones
    out of its reach, :math:`P \leftarrow \max(P, lo_k)`, then takes hypothesis :math:`P` if
    :math:`P < hi_k`. With :math:`G_k` the pointer after reference :math:`k` (:math:`G_{-1} = 0`, and
    :math:`G_{k-1} \le hi_{k-1} \le hi_k`),

    .. math::

        G_k = \min(\max(G_{k-1}, lo_k) + 1, hi_k), \qquad
        H_k = G_k - k - 1 = \min(\max(H_{k-1}, lo_k - k), hi_k - k - 1),

    so :math:`H_k` is the previous value passed through a *clamp* :math:`x \mapsto \min(\max(x, l),
    u)`. Clamps compose into clamps (:math:`c_2 \circ c_1` has bounds :math:`c_2(l_1), c_2(u_1)`), so
    the prefix compositions are found by doubling (Hillis-Steele): after pass :math:`p` each entry
    holds the composition of the :math:`2^p` clamps ending at it; one that has become a constant is
    final and leaves the work set. Where the scan restarts (:math:`lo_k \ge hi_{k-1}`, always across
    shows), :math:`G_{k-1} \le lo_k` and the clamp is the constant :math:`\min(lo_k - k, hi_k - k -
    1)`. Passes: :math:`\lceil \log_2 L \rceil` for the longest run :math:`L` without restart.
    """
    n = len(lo)
    if np.count_nonzero(restart) == n:  # (no reference shares a candidate: each takes its window's first)
        pointer = lo.copy()
    else:
        pointer = _pointers(lo, hi, restart)
    pointer[pointer >= hi] = -1
    return pointer


def _pointers(lo: np.ndarray, hi: np.ndarray, restart: np.ndarray) -> np.ndarray:
    r"""The pointer :math:`\max(G_{k-1}, lo_k)` of :func:`_greedy`'s scan when reference :math:`k` comes."""
    n = len(lo)
    k = np.arange(n, dtype=np.int64)
    up = hi - k - 1
    down = np.minimum(lo - k, up)
    np.copyto(up, down, where=restart)
    open_ = (down < up).nonzero()[0]
    step = 1
    while len(open_):
        earlier = open_ - step
        d_in, u_in = down[earlier], up[earlier]
        d_out, u_out = down[open_], up[open_]
        d_new = np.minimum(np.maximum(d_in, d_out), u_out)
        u_new = np.minimum(np.maximum(u_in, d_out), u_out)
        down[open_], up[open_] = d_new, u_new
        open_ = open_[d_new < u_new]
        step *= 2
    before = np.empty(n, dtype=np.int64)  # G_{k-1}, the pointer when reference k comes
    before[0] = 0
    np.add(down[:-1], k[1:], out=before[1:])
    pointer: np.ndarray = np.maximum(before, lo, out=before)
    return pointer


def _cheapest(r, h, lo, hi, partner: np.ndarray, tolerance: int, restart: np.ndarray) -> np.ndarray:
    """The scan's ``partner`` made the cheapest maximum matching, cluster by cluster (step 3;
    ``restart``: :func:`_restarts`, where each cluster begins)."""
    if np.count_nonzero(restart) == len(lo) and not np.count_nonzero(hi - lo > 1):
        # every cluster has at most one candidate pair (a cluster of two references or more has two:
        # the second's window starts before the first's ends): the scan's is the cheapest
        return partner
    first = restart.nonzero()[0]
    band = np.add.reduceat(hi - lo, first)
    big = band > BAND_LIMIT
    if np.count_nonzero(big):
        size = np.diff(first, append=len(lo))
        n_h = hi[first + size - 1] - lo[first]
        warnings.warn(
            f"{int((size + n_h)[big].sum())} boundaries (in {int(big.sum())} cluster(s) with more than "
            f"{BAND_LIMIT:,} reference-hypothesis pairs within the tolerance) are matched greedily: the "
            f"number of matched boundaries is exact (a maximum matching), but the pairs may not have the "
            f"smallest total distance",
            ApproximationWarning,
            stacklevel=user_stacklevel(),
        )
    solve = ((band > 1) & ~big).nonzero()[0]
    if not len(solve):
        return partner
    few = len(solve) <= _FEW_CLUSTERS
    clusters = (_sliced if few else _gathered)(r, h, lo, hi, first, solve)
    partner = partner.copy()
    rows, partners = [], []
    for f, e, g0, a, b, row_lo, row_hi in clusters:
        partner[f:e] = -1
        for i, j in _match_cluster(a, b, row_lo, row_hi, tolerance):
            rows.append(f + i)
            partners.append(g0 + j)
    partner[rows] = partners
    return partner


def _sliced(r, h, lo, hi, first, solve) -> Iterator[tuple]:
    """:func:`_cheapest`'s clusters ``solve`` (indices into their ``first`` rows), each as ``(first row,
    end row, first hypothesis, reference times, hypothesis times, windows' starts and ends from the
    first hypothesis)``, lists of ints sliced out cluster by cluster (few clusters)."""
    for k in solve.tolist():
        f = int(first[k])
        e = int(first[k + 1]) if k + 1 < len(first) else len(lo)
        g0, g1 = int(lo[f]), int(hi[e - 1])
        yield f, e, g0, r[f:e].tolist(), h[g0:g1].tolist(), (lo[f:e] - g0).tolist(), (hi[f:e] - g0).tolist()


def _gathered(r, h, lo, hi, first, solve) -> Iterator[tuple]:
    """:func:`_sliced`'s clusters, gathered from the arrays at once (many clusters)."""
    size = np.diff(first, append=len(lo))
    n_h = hi[first + size - 1] - lo[first]
    chosen = np.zeros(len(first), dtype=bool)
    chosen[solve] = True
    in_solved = chosen.repeat(size)
    base = lo[first].repeat(size)[in_solved]  # each row's cluster's first hypothesis
    a, row_lo, row_hi = r[in_solved].tolist(), (lo[in_solved] - base).tolist(), (hi[in_solved] - base).tolist()
    first, size, n_h, g = first[solve], size[solve], n_h[solve], lo[first[solve]]
    b_first = n_h.cumsum() - n_h
    b = h[(g - b_first).repeat(n_h) + np.arange(int(b_first[-1] + n_h[-1]))].tolist()
    at = 0
    for f, c, g0, b0, m in zip(first.tolist(), size.tolist(), g.tolist(), b_first.tolist(), n_h.tolist()):
        yield f, f + c, g0, a[at : at + c], b[b0 : b0 + m], row_lo[at : at + c], row_hi[at : at + c]
        at += c


def _wide_row(up: np.ndarray, gain: np.ndarray, codes: bytearray) -> list:
    """One band row at once: ``up`` is the previous row on the band's columns ``[lo, hi]``,
    ``gain`` the packed value of each pair; appends the back-pointers to ``codes``, returns the row."""
    best = np.maximum.accumulate(np.concatenate([up[:1], np.maximum(up[1:], up[:-1] + gain)]))
    step = np.where(best[1:] == up[1:], 0, np.where(best[1:] == best[:-1], 1, 2))
    codes += step.astype(np.uint8).tobytes()
    return best.tolist()


def _match_cluster(a: list, b: list, lo: list, hi: list, tolerance: int) -> list[tuple[int, int]]:
    r"""Largest, then cheapest, order-preserving matching of sorted ``a`` and ``b`` (banded DP).

    Parameters
    ----------
    a, b : list of int
        Reference and hypothesis times of one cluster, in ticks, sorted.
    lo, hi : list of int
        Reference ``i`` may pair with hypotheses ``lo[i] <= j < hi[i]`` (those within the
        tolerance; at least one, both bounds nondecreasing).
    tolerance : int
        Ticks; bounds every pair's distance.

    Returns
    -------
    list of (int, int)
        Index pairs, in order.

    Notes
    -----
    :math:`F(i, j)`, the best matching of the first :math:`i` references and :math:`j`
    hypotheses, is packed as :math:`\mathit{pairs} \cdot W - \mathit{distance}` with :math:`W`
    more than any total distance, so comparing integers compares (pairs, -distance)
    lexicographically (``int64`` when no packed value can reach :math:`2^{62}`, else Python
    integers). The recurrence is the full table's, :math:`F(i, j) = \max(F(i-1, j), F(i, j-1),
    F(i-1, j-1) + W - |a_i - b_j|)`, the last term only for :math:`lo_i < j \le hi_i` (prefix
    lengths); along a row that is a running maximum, which is how a row of at least
    :data:`_WIDE_ROW` cells is computed at once (numpy), a narrower one in a loop. Outside the band a
    row adds nothing and is not stored: left of it, :math:`F(i, j) = F(i-1, j)`, and only
    :math:`j = lo_i` is read again (the next row's band starts no earlier); right of it,
    :math:`F(i, j) = F(i, hi_i)`, as the bands' ends are nondecreasing. So row :math:`i` is stored on
    :math:`[lo_i, hi_i]` and read past its end as its last value; only two rows of values are kept,
    plus one back-pointer byte per band cell (up, left, pair), decided with the same preference as
    a backtrack over the full :math:`(a+1) \times (b+1)` table (up if it equals, else left, else the
    pair), so the pairs are the full table's. Time and memory: :math:`O(\text{band} + a)`.
    """
    if len(a) == 1:  # one reference: the nearest hypothesis of its window, the first of equals (as the table's)
        x, j = a[0], lo[0]
        nearest = abs(x - b[j])
        for k in range(j + 1, hi[0]):
            if abs(x - b[k]) < nearest:
                j, nearest = k, abs(x - b[k])
        return [(0, j)]
    weight = min(len(a), len(b)) * tolerance + 1
    dtype = np.int64 if weight * (min(len(a), len(b)) + 1) < _INT64_SAFE else object
    b_array = None
    prev_lo, prev = 0, [0]
    offsets = []  # of each row's back-pointers in codes
    codes = bytearray()
    for x, l, h in zip(a, lo, hi):
        up_row = prev[l - prev_lo : h - prev_lo + 1]
        up_row += [prev[-1]] * (h - l + 1 - len(up_row))
        offsets.append(len(codes))
        if h - l >= _WIDE_ROW:
            if b_array is None:
                b_array = np.array(b, dtype=np.int64)
            row = _wide_row(np.array(up_row, dtype=dtype), weight - np.abs(x - b_array[l:h]).astype(dtype), codes)
        else:
            row = [up_row[0]]
            left = up_row[0]
            for diag, up, y in zip(up_row, up_row[1:], b[l:h]):
                if up >= left:
                    best, code = up, 0
                else:
                    best, code = left, 1
                d = x - y if x >= y else y - x
                diag += weight - d
                if diag > best:
                    best, code = diag, 2
                row.append(best)
                codes.append(code)
                left = best
        prev_lo, prev = l, row
    pairs = []
    j = len(b)
    for i in range(len(a) - 1, -1, -1):
        j = min(j, hi[i])
        while j > lo[i]:
            code = codes[offsets[i] + j - lo[i] - 1]
            if code == 0:
                break
            j -= 1
            if code == 2:
                pairs.append((i, j))
                break
    return pairs[::-1]
