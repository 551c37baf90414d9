r"""The size of a maximum boundary matching at every tolerance of a sweep, the windows found once.

:func:`tvseg.retrieval.matching.count_matched` runs, at one tolerance :math:`\tau`, the greedy scan
over the windows :math:`[lo_k, hi_k)` of the hypothesis boundaries within :math:`\tau` of each
reference boundary :math:`k`, found by two binary searches over the whole corpus. A sweep of
tolerances (:data:`tvseg.retrieval.sweeps.TOLERANCES`, 0 to 30 s) needs the same scan at each
tolerance, but not the searches: the windows at the largest tolerance :math:`T` are found once, and
each window at :math:`\tau \le T` is a part of it. Hypotheses are sorted, so within reference
:math:`k`'s window the signed distances :math:`d_{kj} = h_j - r_k` increase with :math:`j`, and

.. math::

    lo_k(\tau) = lo_k(T) + \#\{j : d_{kj} < -\tau\}, \qquad
    hi_k(\tau) = lo_k(T) + \#\{j : d_{kj} \le \tau\},

counted over the candidate pairs :math:`(k, j)` of the :math:`T`-windows, in integer microseconds as
every boundary decision (:mod:`tvseg.exact`). The counts are those of ``count_matched`` at each
tolerance, bit for bit (``tests/test_sweep_counts.py``). When the candidate pairs outnumber the
boundaries many times over (a tolerance spanning much of a show), ``count_matched`` runs per
tolerance instead, :math:`O(N \log N)` each.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from tvseg.exact import tick, ticks
from tvseg.retrieval.matching import _clip, _greedy, _windows, count_matched

__all__ = ["counts_at_tolerances"]

_PAIRS_PER_BOUNDARY = 16
"""Candidate pairs per boundary above which each tolerance gets its own ``count_matched``."""


def counts_at_tolerances(
    ref_show: np.ndarray,
    ref_time: np.ndarray,
    hyp_show: np.ndarray,
    hyp_time: np.ndarray,
    tolerances: Iterable[float],
    *,
    n_shows: int,
) -> dict[float, np.ndarray]:
    """Per show, the size of a maximum matching at each tolerance: ``{tolerance: counts}``.

    Parameters
    ----------
    ref_show, ref_time, hyp_show, hyp_time : ndarray
        Boundaries sorted by ``(show, time)``, as for :func:`tvseg.retrieval.matching.count_matched`.
    tolerances : iterable of float
        Seconds, inclusive.
    n_shows : int
        Length of each count array (at least the largest show index + 1).

    Returns
    -------
    dict of float to ndarray of int64
        ``count_matched(..., tolerance, n_shows=n_shows)`` for each distinct tolerance.

    Examples
    --------
    >>> import numpy as np
    >>> counts = counts_at_tolerances(np.array([0, 0, 1]), np.array([10.0, 18.0, 5.0]),
    ...                               np.array([0, 0]), np.array([15.0, 23.0]), [4, 6], n_shows=2)
    >>> {t: c.tolist() for t, c in counts.items()}
    {4.0: [1, 0], 6.0: [2, 0]}
    """
    wanted = list(dict.fromkeys(map(float, tolerances)))
    ref_show, hyp_show = np.asarray(ref_show), np.asarray(hyp_show)
    r, h = ticks(ref_time), ticks(hyp_time)
    if not wanted:
        return {}
    clipped = {t: _clip(tick(t), r, h) for t in wanted}
    widest = max(clipped.values())
    lo, hi = _windows(ref_show, r, hyp_show, h, widest)
    size = hi - lo
    n_pairs = int(size.sum())
    if n_pairs > _PAIRS_PER_BOUNDARY * max(len(r), len(h)):
        return {t: count_matched(ref_show, ref_time, hyp_show, hyp_time, t, n_shows=n_shows) for t in wanted}
    owner = np.repeat(np.arange(len(r)), size)
    first = np.cumsum(size) - size
    partner = lo[owner] + (np.arange(n_pairs) - first[owner])
    distance = h[partner] - r[owner]
    ends = np.concatenate((first, [n_pairs]))

    def count_per_reference(flags: np.ndarray) -> np.ndarray:
        total = np.concatenate(([0], np.cumsum(flags)))
        return total[ends[1:]] - total[ends[:-1]]

    counts = {}
    for t in wanted:
        tau = clipped[t]
        chosen = _greedy(lo + count_per_reference(distance < -tau), lo + count_per_reference(distance <= tau))
        counts[t] = np.bincount(ref_show[chosen >= 0], minlength=n_shows).astype(np.int64)
    return counts
