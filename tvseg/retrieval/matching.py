r"""Matching reference and hypothesis boundaries within a tolerance: the pairs (:func:`match_points`)
and their count alone (:func:`count_matched`, :func:`greedy_partners`).

Longer than 400 lines because the proofs that the algorithms are exact (here and in the docstrings of
:func:`greedy_partners`, :func:`_greedy` and :func:`_match_cluster`) stand next to the code they
justify; the code alone is about 210 lines.

**Matching.** A reference boundary :math:`r` and a hypothesis boundary :math:`h` may be paired when
:math:`|r - h| \le \tau` (inclusive), decided on times and tolerance in integer microseconds
(:mod:`tvseg.exact`): boundaries at 6.1 s and 16.1 s are paired at a tolerance of 10 s.
The pairing is one-to-one, has the largest number of pairs (a maximum matching, as
``mir_eval.util.match_events``), and among maximum matchings the smallest total distance
:math:`\sum |r - h|`.

**Why the algorithm is exact.** (1) *Uncrossing*: if :math:`r_1 < r_2` are paired with
:math:`h_2 < h_1` (crossed), pairing :math:`r_1` with :math:`h_2` and :math:`r_2` with :math:`h_1`
keeps both pairs within the tolerance (e.g. if :math:`h_2 \ge r_1` then
:math:`h_2 - r_1 < h_1 - r_1 \le \tau`, else :math:`r_1 - h_2 < r_2 - h_2 \le \tau`; the other pair
likewise) and does not increase the total distance (on a line, :math:`|r_1-h_2| + |r_2-h_1| \le
|r_1-h_1| + |r_2-h_2|` whenever the pairs cross). So some optimal matching (largest, then cheapest)
is order-preserving. (2) *Clusters*: sort all boundaries of a show; where two consecutive ones are
more than :math:`\tau` apart, no pair can straddle the gap, so the clusters between such gaps are
solved independently. (3) A cluster with one boundary of each side is one pair; a cluster with one
boundary of a side pairs it with its nearest neighbour (which is of the other side) when within the
tolerance; any other cluster is solved by a *banded* dynamic programme over the two sorted
sequences (:func:`_match_cluster`), maximising (pairs, -distance) lexicographically over
order-preserving matchings in time and memory proportional to the cluster's **band**, the number of
(reference, hypothesis) pairs within the tolerance, not to the product of its sizes. A cluster whose
band exceeds :data:`BAND_LIMIT` gets the greedy maximum matching of (4) instead, with a
:class:`~tvseg.errors.TvsegWarning`: its count is still exact, its pairs may not have the smallest
total distance. (4) The **size** of a maximum matching alone, which is all a sweep of tolerances
needs, is found by a greedy scan in time order (:func:`count_matched`, :func:`greedy_partners`,
where the exchange argument is given), :math:`O(N \log N)` for :math:`N` boundaries whatever the
tolerance. The tests compare against a brute-force search over all matchings and against
mir_eval's bipartite maximum matching.
"""

from __future__ import annotations

import warnings

import numpy as np

from tvseg.errors import TvsegWarning
from tvseg.exact import tick, ticks
from tvseg.retrieval.segments import lex_order

__all__ = ["match_points", "count_matched", "greedy_partners", "BAND_LIMIT"]


_INT64_SAFE = 2**62

BAND_LIMIT = 5_000_000
"""Largest band (pairs within the tolerance) of one cluster solved by the cheapest-matching dynamic
programme: about 5 MB of back-pointers and about a second; a larger cluster gets the greedy maximum
matching (exact count, pairs not necessarily the cheapest) and a warning."""


def _windows(ref_show, r, hyp_show, h, tolerance: int):
    """For each reference boundary ``k``, hypothesis indices ``[lo[k], hi[k])``: those of its show
    within ``tolerance`` ticks (``int64`` inputs sorted by ``(show, time)``; ``tolerance`` clipped to
    the span of the times, so that no sum overflows).

    Shows are laid out on one ``int64`` axis, show ``s`` at ``s * width`` with ``width`` more than a
    show's span plus the tolerance, so one ``searchsorted`` per bound keeps shows apart and compares
    integers exactly. When that axis would not fit in ``int64`` (sparse show numbers or absurd
    times), show by show.
    """
    if len(r) == 0 or len(h) == 0:
        z = np.zeros(len(r), dtype=np.int64)
        return z, z.copy()
    first = min(int(r.min()), int(h.min()))
    width = max(int(r.max()), int(h.max())) - first + tolerance + 1
    n_shows = max(int(ref_show.max()), int(hyp_show.max())) + 1
    if n_shows * width < 2**62:
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


def _clip(tolerance: int, *times: np.ndarray) -> int:
    """A tolerance in ticks no larger than the span of ``times`` (a larger one pairs nothing more)."""
    present = [t for t in times if len(t)]
    if not present:
        return min(tolerance, 0)
    span = max(int(t.max()) for t in present) - min(int(t.min()) for t in present)
    return min(tolerance, span)


def _greedy(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    r"""Hypothesis partner of each reference boundary in the greedy maximum matching (-1: none).

    Reference ``k`` (in ``(show, time)`` order) may pair with hypotheses ``[lo[k], hi[k])``, both
    bounds nondecreasing in ``k``. The greedy scan keeps a pointer :math:`P` into the hypotheses:
    reference :math:`k` first skips the ones out of its reach, :math:`P \leftarrow \max(P, lo_k)`,
    then takes hypothesis :math:`P` if :math:`P < hi_k`. With :math:`G_k` the pointer after
    reference :math:`k` (:math:`G_{-1} = 0`, and :math:`G_{k-1} \le hi_{k-1} \le hi_k`),

    .. math::

        G_k = \min(\max(G_{k-1}, lo_k) + 1, hi_k), \qquad
        H_k = G_k - k - 1 = \min(\max(H_{k-1}, lo_k - k), hi_k - k - 1),

    so :math:`H_k` is the previous value passed through a *clamp* :math:`x \mapsto
    \min(\max(x, l), u)`. Clamps compose into clamps (:math:`c_2 \circ c_1` has bounds
    :math:`c_2(l_1), c_2(u_1)`), so the prefix compositions are found by doubling (Hillis-Steele)
    in numpy: after pass :math:`p` each entry holds the composition of the :math:`2^p` clamps
    ending at it. A composition that has become a constant is final and leaves the work set. A
    reference whose window starts at or past the previous one's end (:math:`lo_k \ge hi_{k-1}`,
    always true across shows and clusters) restarts the scan: :math:`G_{k-1} \le hi_{k-1} \le lo_k`,
    so its clamp is the constant :math:`\min(lo_k - k, hi_k - k - 1)`. Passes:
    :math:`\lceil \log_2 L \rceil` for the longest run :math:`L` without restart, each
    :math:`O(\text{entries still open})`; in practice a few, and :math:`O(N \log N)` at worst.
    """
    n = len(lo)
    if n == 0:
        return np.empty(0, dtype=np.int64)
    k = np.arange(n, dtype=np.int64)
    up = hi - k - 1
    down = np.minimum(lo - k, up)
    restart = np.ones(n, dtype=bool)
    restart[1:] = lo[1:] >= hi[:-1]
    up = np.where(restart, down, up)
    open_ = np.flatnonzero(down < up)
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
    before[1:] = down[:-1] + k[1:]
    pointer = np.maximum(before, lo)
    return np.where(pointer < hi, pointer, -1)


def greedy_partners(
    ref_show: np.ndarray, ref_time: np.ndarray, hyp_show: np.ndarray, hyp_time: np.ndarray, tolerance: float
) -> np.ndarray:
    r"""For each reference boundary, its hypothesis partner in a maximum matching (-1: unmatched).

    Parameters
    ----------
    ref_show, ref_time, hyp_show, hyp_time : ndarray
        Boundaries of each side, sorted by ``(show, time)`` (integer shows, times in seconds).
    tolerance : float
        Seconds; a reference :math:`r` and a hypothesis :math:`h` of the same show may pair when
        :math:`|r - h| \le \tau`, decided on integer microseconds.

    Returns
    -------
    ndarray of int64
        Index into ``hyp_time`` of each reference boundary's partner, or -1.

    Notes
    -----
    **The greedy scan.** Each reference boundary, in time order, takes the earliest hypothesis
    boundary not yet taken that is within the tolerance; hypotheses earlier than
    :math:`r - \tau` are skipped for good, since every later reference is further from them.
    Vectorised as a composition of clamps (:func:`_greedy`).

    **Why it is a maximum matching (exchange argument).** All windows :math:`[r - \tau, r + \tau]`
    have the same width, so references sorted by time have windows sorted by both ends. Let the
    greedy scan pair reference :math:`r_k` with :math:`g_k` (or nothing), and suppose a maximum
    matching :math:`M` agrees with it on :math:`r_1, \dots, r_{k-1}`; we build a maximum matching
    that also agrees on :math:`r_k`. The hypotheses free for :math:`r_k, r_{k+1}, \dots` are the
    same in both. *Greedy leaves* :math:`r_k` *unmatched*: no free hypothesis lies in its window,
    so :math:`M` leaves it unmatched too. *Greedy pairs* :math:`r_k` *with* :math:`g`, the earliest
    free hypothesis in its window. If :math:`M` pairs :math:`r_k` with :math:`g`, done. If
    :math:`g` is free in :math:`M`, replace :math:`r_k`'s pair in :math:`M` (if any; if none,
    :math:`M` plus :math:`(r_k, g)` would be larger) by :math:`(r_k, g)`. Otherwise :math:`M` pairs
    :math:`g` with a later :math:`r_m` (:math:`m > k`). If :math:`r_k` is unmatched in :math:`M`,
    give :math:`g` to :math:`r_k` instead: same size. If :math:`M` pairs :math:`r_k` with
    :math:`h'`, then :math:`h'` is free and in :math:`r_k`'s window, so :math:`g \le h'` (greedy
    took the earliest); swap to :math:`(r_k, g), (r_m, h')`: :math:`h' \ge g \ge r_m - \tau` and
    :math:`h' \le r_k + \tau \le r_m + \tau`, so :math:`(r_m, h')` is within the tolerance and the
    size is unchanged. By induction the greedy matching is itself maximum. (It need not have the
    smallest total distance: that is what :func:`match_points` adds.)
    """
    r = ticks(ref_time)
    h = ticks(hyp_time)
    tol = _clip(tick(tolerance), r, h)
    lo, hi = _windows(np.asarray(ref_show), r, np.asarray(hyp_show), h, tol)
    return _greedy(lo, hi)


def count_matched(
    ref_show: np.ndarray,
    ref_time: np.ndarray,
    hyp_show: np.ndarray,
    hyp_time: np.ndarray,
    tolerance: float,
    n_shows: int | None = None,
) -> np.ndarray:
    r"""Per show, the size of a maximum matching of its boundaries within ``tolerance``.

    The count of :func:`match_points` (``len`` of its pairs, per show) without the pairs: the
    greedy scan of :func:`greedy_partners`, whose exchange argument shows it is maximum. Time and
    memory :math:`O(N \log N)` for :math:`N` boundaries, whatever the tolerance, so a sweep of
    tolerances costs one such scan each.

    Parameters
    ----------
    ref_show, ref_time, hyp_show, hyp_time : ndarray
        Boundaries sorted by ``(show, time)``, as for :func:`match_points`.
    tolerance : float
        Seconds, inclusive, decided on integer microseconds.
    n_shows : int, optional
        Length of the result (at least the largest show index + 1).

    Returns
    -------
    ndarray of int64
        Matched pairs per show index.

    Examples
    --------
    >>> import numpy as np
    >>> count_matched(np.array([0, 0, 1]), np.array([10.0, 18.0, 5.0]),
    ...               np.array([0, 0]), np.array([15.0, 23.0]), 6, n_shows=2).tolist()
    [2, 0]
    """
    ref_show = np.asarray(ref_show)
    partner = greedy_partners(ref_show, ref_time, hyp_show, hyp_time, tolerance)
    return np.bincount(ref_show[partner >= 0], minlength=n_shows or 0).astype(np.int64)


def _wide_row(up: np.ndarray, gain: np.ndarray, codes: bytearray) -> list:
    """One band row at once: ``up`` is the previous row on the band's columns ``[lo, hi]``,
    ``gain`` the packed value of each pair; appends the back-pointers to ``codes``, returns the row."""
    best = np.maximum.accumulate(np.concatenate([up[:1], np.maximum(up[1:], up[:-1] + gain)]))
    step = np.where(best[1:] == up[1:], 0, np.where(best[1:] == best[:-1], 1, 2))
    codes += step.astype(np.uint8).tobytes()
    return best.tolist()


def _match_cluster(a: list, b: list, lo: list, hi: list, tolerance: int, wide: int = 48) -> list[tuple[int, int]]:
    r"""Largest, then cheapest, order-preserving matching of sorted ``a`` and ``b`` (banded DP).

    Parameters
    ----------
    a, b : list of int
        Reference and hypothesis times of one cluster, in ticks, sorted.
    lo, hi : list of int
        Reference ``i`` may pair with hypotheses ``lo[i] <= j < hi[i]`` (those within the
        tolerance; both bounds nondecreasing).
    tolerance : int
        Ticks; bounds every pair's distance.
    wide : int, default 48
        Rows whose band has at least this many cells are computed with numpy (``int64`` when no
        packed value can reach :math:`2^{62}`, else Python integers), narrower ones in a loop; both
        give the same values and back-pointers.

    Returns
    -------
    list of (int, int)
        Index pairs, in order.

    Notes
    -----
    :math:`F(i, j)`, the best matching of the first :math:`i` references and :math:`j`
    hypotheses, is packed as :math:`\mathit{pairs} \cdot W - \mathit{distance}` with :math:`W`
    more than any total distance, so comparing integers compares (pairs, -distance)
    lexicographically; Python integers, so nothing overflows. The recurrence is the full
    table's, :math:`F(i, j) = \max(F(i-1, j), F(i, j-1), F(i-1, j-1) + W - |a_i - b_j|)`, the last
    term only for pairs within the tolerance, i.e. for :math:`lo_i < j \le hi_i` (prefix lengths);
    along a row that is a running maximum of :math:`\max(F(i-1, j), F(i-1, j-1) + W - |a_i - b_j|)`,
    which is how a wide row is computed at once.
    Outside that band the row adds nothing, and it need not be stored:

    - left of it, :math:`F(i, j) = F(i-1, j)` for :math:`j \le lo_i`; only :math:`j = lo_i` is ever
      read again (the next row's band starts no earlier);
    - right of it, :math:`F(i, j) = F(i, hi_i)` for :math:`j \ge hi_i`: no row up to :math:`i`
      can pair with a later hypothesis, as the bands' ends are nondecreasing.

    So row :math:`i` is stored on :math:`[lo_i, hi_i]` and read past its end as its last value;
    rows with an empty band equal the previous one and are skipped. Only two rows of values are
    kept, plus one back-pointer byte per band cell (up, left, pair), decided with the same
    preference as a backtrack over the full table (up if it equals, else left, else the pair),
    so the pairs are those of the full :math:`(a+1) \times (b+1)` table. Time and memory:
    :math:`O(\text{band} + a)`.
    """
    weight = min(len(a), len(b)) * tolerance + 1
    dtype = np.int64 if weight * (min(len(a), len(b)) + 1) < _INT64_SAFE else object
    b_array = None
    prev_lo, prev, prev_total = 0, [0], 0
    rows = []  # per non-empty row: (i, lo, hi, offset into codes, its total, previous row's total)
    codes = bytearray()
    for i, (x, l, h) in enumerate(zip(a, lo, hi)):
        if l >= h:
            continue
        up_row = prev[l - prev_lo : h - prev_lo + 1]
        up_row += [prev_total] * (h - l + 1 - len(up_row))
        offset = len(codes)
        if h - l >= wide:
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
        left = row[-1]
        rows.append((i, l, h, offset, left, prev_total))
        prev_lo, prev, prev_total = l, row, left
    pairs = []
    j = len(b)
    for i, l, h, offset, total, above in reversed(rows):
        if j > h:
            if total == above:
                continue
            j = h
        while j > l:
            code = codes[offset + j - l - 1]
            if code == 0:
                break
            j -= 1
            if code == 2:
                pairs.append((i, j))
                break
    return pairs[::-1]


def match_points(
    ref_show: np.ndarray, ref_time: np.ndarray, hyp_show: np.ndarray, hyp_time: np.ndarray, tolerance: float
) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` of the matched pairs ``(ref_time[i], hyp_time[j])``, shows kept apart.

    Both inputs sorted by ``(show, time)`` (seconds). Times and tolerance are compared in integer
    microseconds. A maximum matching, and among those the one with the smallest total distance,
    except in a cluster whose band exceeds :data:`BAND_LIMIT` (a warning says so). For the count
    alone, :func:`count_matched` is faster. See the module docstring for the algorithm.
    """
    n_r = len(ref_time)
    show = np.concatenate([ref_show, hyp_show])
    time = ticks(np.concatenate([ref_time, hyp_time]))
    tolerance = _clip(tick(tolerance), time)
    is_hyp = np.arange(len(time)) >= n_r
    order = lex_order(show, time)  # stable: on equal times the reference boundary comes first
    if len(order) == 0:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    s, t, h = show[order], time[order], is_hyp[order]
    new = np.ones(len(t), dtype=bool)
    new[1:] = (s[1:] != s[:-1]) | ((t[1:] - t[:-1]) > tolerance)
    cluster = np.cumsum(new) - 1
    n_hyp = np.bincount(cluster, weights=h).astype(np.int64)
    n_all = np.bincount(cluster).astype(np.int64)
    n_ref = n_all - n_hyp
    first = np.flatnonzero(new)
    # one reference and one hypothesis boundary: consecutive, so within the tolerance
    simple = np.flatnonzero((n_ref == 1) & (n_hyp == 1))
    a, b = order[first[simple]], order[first[simple] + 1]
    out_r = [np.where(a < n_r, a, b)]
    out_h = [np.where(a < n_r, b, a) - n_r]
    # one boundary of a side among several of the other: its nearest neighbour in the sorted
    # cluster (necessarily of the other side) is its partner, when within the tolerance
    lone_cluster = (n_all > 2) & ((n_ref == 1) | (n_hyp == 1))
    lone_ref_side = n_ref == 1
    pos = np.flatnonzero(lone_cluster[cluster] & (h != lone_ref_side[cluster]))
    if len(pos):
        c = cluster[pos]
        last = first[c] + n_all[c] - 1
        left = np.where(pos > first[c], pos - 1, pos)
        right = np.where(pos < last, pos + 1, pos)
        far = np.iinfo(np.int64).max
        d_left = np.where(pos > first[c], t[pos] - t[left], far)
        d_right = np.where(pos < last, t[right] - t[pos], far)
        nearest = np.where(d_left <= d_right, left, right)
        ok = np.minimum(d_left, d_right) <= tolerance
        a, b = order[pos[ok]], order[nearest[ok]]
        out_r.append(np.where(a < n_r, a, b))
        out_h.append(np.where(a < n_r, b, a) - n_r)
    several = np.flatnonzero((n_ref >= 2) & (n_hyp >= 2))
    if len(several):
        out_r_several, out_h_several = _match_several(
            ref_show, time[:n_r], hyp_show, time[n_r:], tolerance, order, n_r, first[several], n_all[several]
        )
        out_r.append(out_r_several)
        out_h.append(out_h_several)
    i = np.concatenate(out_r).astype(np.int64)
    j = np.concatenate(out_h).astype(np.int64)
    keep = np.argsort(i, kind="stable")
    return i[keep], j[keep]


def _match_several(ref_show, r, hyp_show, h, tolerance: int, order, n_r: int, starts, sizes):
    """Pairs of the clusters with at least two boundaries of each side (``starts``, ``sizes`` in
    the merged ``order``): the banded DP, or the greedy matching past :data:`BAND_LIMIT`."""
    lo, hi = _windows(np.asarray(ref_show), r, np.asarray(hyp_show), h, tolerance)
    # a cluster's members are contiguous in each side's (show, time) order
    ref_before = np.concatenate([[0], np.cumsum(order < n_r)])
    r_first = ref_before[starts]
    r_count = ref_before[starts + sizes] - r_first
    h_first = starts - r_first
    band_before = np.concatenate([[0], np.cumsum(hi - lo)])
    band = band_before[r_first + r_count] - band_before[r_first]
    big = band > BAND_LIMIT
    pair_r, pair_h = [], []
    if big.any():
        partner = _greedy(lo, hi)
        for f, c in zip(r_first[big].tolist(), r_count[big].tolist()):
            refs = np.arange(f, f + c)
            refs = refs[partner[f : f + c] >= 0]
            pair_r.append(refs)
            pair_h.append(partner[refs])
        n_big = int(sizes[big].sum())
        warnings.warn(
            f"{n_big} boundaries (in {int(big.sum())} cluster(s) with more than {BAND_LIMIT:,} reference-"
            f"hypothesis pairs within the tolerance) are matched greedily: the number of matched "
            f"boundaries is exact (a maximum matching), but the pairs may not have the smallest total "
            f"distance",
            TvsegWarning,
            stacklevel=3,
        )
    r_l, h_l, lo_l, hi_l = r.tolist(), h.tolist(), lo.tolist(), hi.tolist()
    small_r, small_h = [], []
    for f, c, g, m in zip(
        r_first[~big].tolist(), r_count[~big].tolist(), h_first[~big].tolist(), (sizes[~big] - r_count[~big]).tolist()
    ):
        for pi, pj in _match_cluster(
            r_l[f : f + c],
            h_l[g : g + m],
            [x - g for x in lo_l[f : f + c]],
            [x - g for x in hi_l[f : f + c]],
            tolerance,
        ):
            small_r.append(f + pi)
            small_h.append(g + pj)
    pair_r.append(np.array(small_r, dtype=np.int64))
    pair_h.append(np.array(small_h, dtype=np.int64))
    return np.concatenate(pair_r), np.concatenate(pair_h)
