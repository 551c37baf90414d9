r"""Window counts of many shows at once: Pk, WindowDiff, WinPR and C_seg over a whole corpus.

The corpus is given as flat arrays: ``n`` (units per show), the reference's and the hypothesis's
internal boundary positions (:func:`tvseg.unit.masses.boundary_positions` of each show's masses,
concatenated, each show's run sorted) and their ``int64`` offsets (show ``s`` owns
``pos[off[s]:off[s + 1]]``). Every function returns one integer per show, equal to what the
single-pair functions of :mod:`tvseg.unit.windows`, :mod:`tvseg.unit.winpr` and :mod:`tvseg.unit.cseg`
count for that show (``tests/test_unit_corpus.py``); the shows are told apart by a composite integer
key ``show * stride + position``, so one sort serves the whole corpus.

Window starts ``s`` run over ``lo .. hi``; a boundary at gap ``p`` lies in the windows of ``w`` gaps
starting at ``p - w + 1 .. p`` (:mod:`tvseg.unit.conventions`).
"""

from __future__ import annotations

import numpy as np

from tvseg.unit.conventions import base_convention

__all__ = ["corpus_k", "covered", "wd_errors", "winpr_tp"]


def _half_up(num, den):
    return (2 * num + den) // (2 * den)


def _half_even(num, den):
    q, r = np.divmod(num, den)
    return q + ((2 * r > den) | ((2 * r == den) & (q % 2 == 1)))


def corpus_k(n: np.ndarray, segments: np.ndarray, convention: str, k: int | None) -> np.ndarray:
    r"""``k`` of every show: ``k`` when given, else the convention's default from the show's reference
    (:func:`tvseg.unit.conventions.convention_k`, the same exact integer rounding, element-wise).

    .. math::

        \text{paper: } \max(1, \lfloor N/(2S) \rceil_{\uparrow}), \quad
        \text{segeval1: } \max(2, \lfloor N/(2S) \rceil_{\uparrow}), \quad
        \text{segeval: } \max(2, \lfloor N/(2S) \rceil_{even}), \quad
        \text{nltk: } \lfloor (N-1)/(2\max(S-1, 1)) \rceil_{even}
    """
    n = np.asarray(n, np.int64)
    if k is not None:
        return np.full(n.size, int(k), np.int64)
    segments = np.asarray(segments, np.int64)
    convention = base_convention(convention)
    if convention == "paper":
        return np.maximum(1, _half_up(n, 2 * segments))
    if convention == "segeval1":
        return np.maximum(2, _half_up(n, 2 * segments))
    if convention == "segeval":
        return np.maximum(2, _half_even(n, 2 * segments))
    return _half_even(n - 1, 2 * np.maximum(segments - 1, 1))


def _show_of(off: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(off.size - 1, dtype=np.int64), np.diff(off))


def _sum_by_show(values: np.ndarray, show: np.ndarray, n_shows: int) -> np.ndarray:
    """Per-show sums of integer ``values`` (exact: an ``add.reduceat`` on the sorted ``show``)."""
    out = np.zeros(n_shows, np.int64)
    if values.size:
        starts = np.flatnonzero(np.r_[True, show[1:] != show[:-1]])
        out[show[starts]] = np.add.reduceat(values.astype(np.int64, copy=False), starts)
    return out


def covered(pos: np.ndarray, off: np.ndarray, width: np.ndarray, hi: np.ndarray) -> np.ndarray:
    r"""Per show, how many window starts ``s`` in ``1 .. hi`` hold a boundary of ``pos``.

    For a show's sorted positions the windows holding :math:`p_i` are
    :math:`[\max(p_i - w + 1, 1), \min(p_i, hi)]`, both ends non-decreasing in ``i``, so the union
    grows at boundary ``i`` by :math:`(\min(p_i, hi) - \max(p_i - w, 0, e_{i-1}))^+`, with
    :math:`e_{i-1} = \min(p_{i-1}, hi)` (0 for a show's first boundary): Pk's and C_seg's probes
    (:func:`tvseg.unit.windows.pk_components`, :func:`tvseg.unit.cseg.cseg_components`).

    Parameters
    ----------
    pos, off : numpy.ndarray
        Boundary positions of every show (each run sorted; duplicates allowed) and offsets.
    width, hi : numpy.ndarray
        Per show: gaps per window and the last window start.
    """
    n_shows = off.size - 1
    show = _show_of(off)
    h = hi[show]
    end = np.minimum(pos, h)
    prev = np.zeros_like(end)
    if end.size > 1:
        prev[1:] = end[:-1]
        prev[off[:-1][off[:-1] < off[1:]]] = 0
    added = end - np.maximum(np.maximum(pos - width[show], 0), prev)
    np.maximum(added, 0, out=added)
    return _sum_by_show(added, show, n_shows)


def merged(pr: np.ndarray, r_off: np.ndarray, ph: np.ndarray, h_off: np.ndarray, stride: int):
    """Both sides' positions merged, each show's run sorted: ``(positions, offsets)``."""
    keys = np.concatenate((_show_of(r_off) * stride + pr, _show_of(h_off) * stride + ph))
    keys.sort(kind="stable")
    return keys % stride, r_off + h_off


def wd_errors(pr, r_off, ph, h_off, width, lo, hi) -> np.ndarray:
    r"""WindowDiff's windows in error of every show, :math:`\#\{s \in lo..hi : r_s \neq h_s\}`.

    A sweep over :math:`d_s = r_s - h_s` (:func:`tvseg.unit.windows.windowdiff_components`): a
    reference boundary at ``p`` adds 1 from ``s = p - w + 1`` and takes it back from ``p + 1``, a
    hypothesis boundary the opposite; the event starts are clipped to ``lo .. hi + 1``. Each event
    is one key ``2 (show \cdot stride + start) + bit`` (``bit`` 1 for -1): one sort of the corpus
    gives the runs of constant :math:`d_s` and their values by a cumulative sum. A show's events sum
    to 0, so the run from one show's last event to the next show's first counts nothing.
    """
    n_shows = r_off.size - 1
    rs, hs = _show_of(r_off), _show_of(h_off)
    live_r, live_h = (hi >= lo)[rs], (hi >= lo)[hs]
    rs, pr, hs, ph = rs[live_r], pr[live_r], hs[live_h], ph[live_h]
    if rs.size + hs.size == 0:
        return np.zeros(n_shows, np.int64)
    top = hi + 1
    stride = int(np.max(top - lo)) + 2 if top.size else 2

    def key(show, at, bit):
        at = np.clip(at, lo[show], top[show]) - lo[show]
        return ((show * stride + at) << 1) | bit

    keys = np.concatenate(
        (key(rs, pr - width[rs] + 1, 0), key(rs, pr + 1, 1), key(hs, ph - width[hs] + 1, 1), key(hs, ph + 1, 0))
    )
    keys.sort()
    d = np.cumsum(1 - 2 * (keys & 1))[:-1]
    keys >>= 1
    run = np.diff(keys) * (d != 0)
    return _sum_by_show(run, keys[:-1] // stride, n_shows)


def winpr_tp(pr, r_off, ph, h_off, k, n) -> np.ndarray:
    r"""WinPR's true positives of every show, :math:`TP = \sum_s \min(r_s, h_s)` over the windows of
    ``k`` gaps starting at ``2 - k .. N - 1`` (:func:`tvseg.unit.winpr.winpr`).

    Every boundary lies whole inside these windows, so no start is clipped; positions are shifted by
    ``k`` to keep the keys positive. A sweep as :func:`wd_errors`, with two low bits saying which
    count changes (0 reference +1, 1 reference -1, 2 hypothesis +1, 3 hypothesis -1).
    """
    n_shows = r_off.size - 1
    rs, hs = _show_of(r_off), _show_of(h_off)
    if rs.size == 0 or hs.size == 0:
        return np.zeros(n_shows, np.int64)
    stride = int(np.max(n + k)) + 2
    base_r, base_h = rs * stride + k[rs], hs * stride + k[hs]
    keys = np.concatenate(
        (
            ((base_r + pr - k[rs] + 1) << 2),
            ((base_r + pr + 1) << 2) | 1,
            ((base_h + ph - k[hs] + 1) << 2) | 2,
            ((base_h + ph + 1) << 2) | 3,
        )
    )
    keys.sort()
    tag = keys & 3
    r = np.cumsum(np.array([1, -1, 0, 0], np.int64)[tag])[:-1]
    h = np.cumsum(np.array([0, 0, 1, -1], np.int64)[tag])[:-1]
    keys >>= 2
    run = np.diff(keys) * np.minimum(r, h)
    return _sum_by_show(run, keys[:-1] // stride, n_shows)
