r"""WinPR (Scaiano & Inkpen 2012): a confusion matrix of reference and hypothesis boundaries counted
over windows, with the Lamprier et al. edge correction.

Windows of ``k`` gap positions, padded with ``k - 1`` phantom positions at each end
(:func:`tvseg.unit.conventions.winpr_geometry`); for each window :math:`r_s` and :math:`h_s` count the
reference and hypothesis boundaries it holds, and

=========================  ===========================================================
TP, FP, FN                  :math:`\min(r_s, h_s)`, :math:`(h_s - r_s)^+`, :math:`(r_s - h_s)^+`
=========================  ===========================================================

summed over windows by a sweep over the points where :math:`r_s` or :math:`h_s` changes.

References
----------
.. [1] M. Scaiano and D. Inkpen (2012). Getting more from segmentation evaluation. NAACL-HLT.
.. [2] S. Lamprier, T. Amghar, B. Levrat and F. Saubion (2007). On evaluation methodologies for
   text segmentation algorithms. ICTAI.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from tvseg.rates import rate
from tvseg.unit.conventions import Geometry, check_k, winpr_geometry, winpr_k
from tvseg.unit.masses import Masses, as_pair, boundary_positions

__all__ = ["winpr", "WinPR"]


@dataclasses.dataclass(frozen=True)
class WinPR:
    r"""WinPR confusion matrix (Scaiano & Inkpen 2012, equations 4-7).

    Attributes
    ----------
    tp, tn, fp, fn : int (float in :meth:`normalized` and :meth:`near_miss`)
        The confusion matrix.
    k : int
        Window size: the number of gap positions a window holds.
    n : int
        Number of units ``N``.
    masses : (ndarray, ndarray)
        The reference and hypothesis scored (for :meth:`near_miss`).
    precision, recall, f1 : float
        :math:`TP / (TP + FP)`, :math:`TP / (TP + FN)`, :math:`2TP / (2TP + FP + FN)`, computed once
        when the matrix is made. NaN for 0/0 (no hypothesis boundary, no reference boundary, neither),
        without a warning: the corpus scores of :mod:`tvseg.unit.scores` warn on their pooled 0/0.

    Notes
    -----
    ``tp + tn + fp + fn = k (N - 1)``: every one of the ``N - 1`` gaps is counted ``k`` times
    (:attr:`total`); divided by ``k`` (:meth:`normalized`) the matrix counts gaps.
    """

    tp: float
    tn: float
    fp: float
    fn: float
    k: int
    n: int
    masses: tuple[Any, ...] = dataclasses.field(default=(), repr=False, compare=False)
    precision: float = dataclasses.field(init=False, compare=False)
    recall: float = dataclasses.field(init=False, compare=False)
    f1: float = dataclasses.field(init=False, compare=False)

    def __post_init__(self) -> None:
        tp, fp, fn = self.tp, self.fp, self.fn
        object.__setattr__(self, "precision", rate(tp, tp + fp))
        object.__setattr__(self, "recall", rate(tp, tp + fn))
        object.__setattr__(self, "f1", rate(2 * tp, 2 * tp + fp + fn))

    @property
    def total(self) -> float:
        """``tp + tn + fp + fn``: ``k (N - 1)``, or ``N - 1`` once normalized."""
        return self.tp + self.tn + self.fp + self.fn

    def normalized(self) -> WinPR:
        """The matrix divided by ``k`` (Scaiano & Inkpen's normalized WinPR)."""
        k = self.k
        return dataclasses.replace(self, tp=self.tp / k, tn=self.tn / k, fp=self.fp / k, fn=self.fn / k)

    def near_miss(self) -> WinPR:
        """Contribution of near misses: this normalized matrix minus the ``k = 1`` matrix (which
        counts exact matches only), as Scaiano & Inkpen section 3.1 propose. Its four cells sum to 0."""
        strict = winpr(*self.masses, k=1)
        me = self.normalized()
        return dataclasses.replace(
            me, tp=me.tp - strict.tp, tn=me.tn - strict.tn, fp=me.fp - strict.fp, fn=me.fn - strict.fn
        )


def winpr(reference: Masses, hypothesis: Masses, *, k: int | None = None) -> WinPR:
    r"""WinPR (Scaiano & Inkpen 2012): a confusion matrix counted over windows, with the Lamprier
    et al. correction.

    .. math::

        TP = \sum_{i=1-k}^{N} \min(R_i, C_i), \quad
        TN = -k(k-1) + \sum_{i=1-k}^{N} (k - \max(R_i, C_i)),

        FP = \sum_{i=1-k}^{N} \max(0, C_i - R_i), \quad
        FN = \sum_{i=1-k}^{N} \max(0, R_i - C_i)

    Reading (the paper's indices are not consistent with its own Table 2): a window holds ``k``
    gap positions, and ``k - 1`` phantom positions without boundaries pad each end, so the
    windows start at gaps ``2-k .. N-1`` (``N + k - 2`` windows), every real gap is in exactly
    ``k`` windows and the phantoms add ``k (k-1)`` to :math:`\sum (k - \max)`, which the
    :math:`-k(k-1)` term removes. Hence :math:`TP + TN + FP + FN = k (N - 1)`. Scaiano & Inkpen's
    "window of 3 units" holds 4 positions (their edges are inclusive), i.e. ``k = 4`` here, and their
    window size is half the mean segment size in units (equation 1): so the default ``k`` is that half
    plus one position, and with it their Table 2 is reproduced (``tests/test_windows_papers.py``).

    Parameters
    ----------
    reference, hypothesis : sequence of int
        Masses with the same total ``N``.
    k : int, optional
        Gap positions per window; default Scaiano & Inkpen's window of half the mean reference
        segment size in units (rounded half up, at least 1, as ``convention="paper"``'s ``k``) plus
        one position (:func:`tvseg.unit.conventions.winpr_k`): one more than Pk's default ``k``.

    Returns
    -------
    WinPR
    """
    ref, hyp = as_pair(reference, hypothesis)
    n = int(ref.sum())
    check_k(k, 1)
    k = winpr_k(n, int(ref.size)) if k is None else int(k)
    g = winpr_geometry(n, k)
    lengths, r, h = _pieces(boundary_positions(ref), boundary_positions(hyp), g)
    tp = int((lengths * np.minimum(r, h)).sum())
    sr = k * (ref.size - 1)  # each boundary is in exactly k windows
    sh = k * (hyp.size - 1)
    fp, fn = sh - tp, sr - tp
    tn = k * (n - 1) - tp - fp - fn
    return WinPR(tp=tp, tn=tn, fp=fp, fn=fn, k=k, n=n, masses=(ref, hyp))


def _pieces(pr: np.ndarray, ph: np.ndarray, g: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split the window starts ``lo .. hi`` into runs on which ``(r_s, h_s)`` is constant.

    A boundary at gap ``p`` is in the windows starting at ``p - w + 1 .. p``. Returns the run
    lengths and the counts ``r``, ``h`` on each run (int64 arrays of equal length).
    """
    lo, hi, w = g.lo, g.hi, g.width
    if hi < lo:
        z = np.zeros(0, np.int64)
        return z, z, z
    if w == 0:
        return np.array([hi - lo + 1]), np.zeros(1, np.int64), np.zeros(1, np.int64)
    # one sort of the change points, each tagged in its two low bits with what changes there:
    # 0 reference +1, 1 reference -1, 2 hypothesis +1, 3 hypothesis -1
    top = hi + 1
    nr, nh = pr.size, ph.size
    keys = np.concatenate((pr, pr, ph, ph))
    keys += np.repeat(np.array([1 - w, 1, 1 - w, 1]), (nr, nr, nh, nh))
    np.clip(keys, lo, top, out=keys)
    keys <<= 2
    keys |= np.repeat(_TAGS, (nr, nr, nh, nh))
    keys.sort()
    tag = keys & 3
    pts = np.empty(keys.size + 2, np.int64)
    pts[0] = lo
    pts[1:-1] = keys >> 2
    pts[-1] = top
    r = np.empty(keys.size + 1, np.int64)
    r[0] = 0
    np.cumsum(_DR[tag], out=r[1:])
    h = np.empty(keys.size + 1, np.int64)
    h[0] = 0
    np.cumsum(_DH[tag], out=h[1:])
    return np.diff(pts), r, h


_TAGS = np.arange(4, dtype=np.int64)
_DR = np.array([1, -1, 0, 0], np.int64)
_DH = np.array([0, 0, 1, -1], np.int64)
