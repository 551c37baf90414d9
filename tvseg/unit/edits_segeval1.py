"""The transpositions of the 2012 reference implementation of S (segeval 1.1): windows of PBs found
width by width, which may move several boundaries (Fournier & Inkpen 2012's code, not their text).

The paper's reading is :func:`tvseg.unit.edits.boundary_edit_distance`; ``convention="segeval1"`` of
:func:`tvseg.unit.similarity.segmentation_similarity` uses this one.
"""

from __future__ import annotations

import bisect
from dataclasses import astuple, dataclass

import numpy as np

from tvseg.unit.edits import transposition_error

__all__ = ["WindowTransposition", "segeval1_edits"]


@dataclass(frozen=True)
class WindowTransposition:
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

    def __iter__(self):
        return iter(astuple(self))


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
