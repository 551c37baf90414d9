"""Segmentation similarity S (Fournier & Inkpen 2012) and boundary similarity B (Fournier 2013).

Both are built on the boundary edit distance of :mod:`tvseg.unit.edits` and work on sorted boundary
positions, so their cost grows with the number of boundaries, not of units. :func:`pair_counts` gives
the penalty and the denominator of S or B of many pairs at once (a corpus of shows, a simulation's
hypotheses, the pairs of coders of every item of an agreement study); :func:`segmentation_similarity`
and :func:`boundary_similarity` call it with one pair.

Conventions of S (``convention=``, ``docs/conventions.md``)
-----------------------------------------------------------
``"paper"`` (default)
    The 2012 paper's S: transpositions join consecutive differences of opposite segmentations, chosen
    to minimise the edit distance; a transposition of span ``n`` costs ``te(n, 2)``, so a 2-wise
    transposition costs 1 PB.
``"segeval1"``
    The 2012 reference implementation (segeval 1.1): transpositions are windows found width by width
    (:func:`segeval1_edits`) and a window moving ``c`` boundaries costs
    ``te(span, 2c)``. Equal to ``"paper"`` for ``n = 2`` (with ``w_trp <= 2 w_sub``); for ``n > 2`` it can
    cost more: ``a = (1,3,1,2,2,2,1,2,1,1)``, ``b = (1,3,1,4,3,1,1,1,1)``, ``n = 5`` give S = 0.6833
    against the paper's 0.8333.
``"segeval"``
    segeval 2.0.11's ``segmentation_similarity``: transpositions chosen as segeval 2.0 chooses them
    (spans of 2, then 3, ... PBs, each from the left) and weighed ``|span - 1| / n`` instead of ``te``
    (0.5 PB for ``n = 2``, so for ``n = 2`` it equals ``"paper"`` with ``weights=(1.0, 0.5)``).

``boundary_similarity`` reproduces segeval 2.0.11's ``boundary_similarity`` exactly (its transposition
choice included), for masses with one boundary type.
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import astuple, dataclass
from typing import Any

import numpy as np

from tvseg.errors import InputError
from tvseg.unit.edits import (
    SINGLE_TYPE,
    Boundaries,
    BoundaryEdits,
    EditCounts,
    as_boundary_string_pair,
    boundary_edit_distance,
    check_edit_options,
    edit_counts,
    transposition_error,
    transpositions,
)
from tvseg.unit.masses import BoundaryPairs

__all__ = [
    "segmentation_similarity",
    "boundary_similarity",
    "boundary_edit_distance",
    "pair_counts",
    "segeval1_edits",
    "BoundaryEdits",
    "WindowTransposition",
    "S_CONVENTIONS",
]

S_CONVENTIONS = ("paper", "segeval1", "segeval")


def pair_counts(
    pairs: BoundaryPairs,
    *,
    metric: str = "S",
    convention: str = "paper",
    n: int = 2,
    w_sub: float = 1.0,
    w_trp: float = 1.0,
    scale: bool = True,
    edits: EditCounts | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""``(penalty, denominator)`` of S or B for every pair (one boundary type; float arrays).

    The similarity is ``1 - penalty / denominator``. For S the denominator is the ``N - 1`` PBs; for B
    (``convention="segeval"`` only) it is :math:`|A| + |T_p| + |B_M|`, the additions, transpositions
    and matches. The penalty is, by convention:

    * ``"paper"``: :math:`w_{sub} |\text{full misses}| + w_{trp} \sum \mathrm{te}(\text{span}, 2)`;
    * ``"segeval1"``: :math:`w_{sub} |\text{set errors left}| + w_{trp} \sum \mathrm{te}(\text{span}, 2c)`
      over the 2012 code's windows (:func:`segeval1_edits`), pair by pair;
    * ``"segeval"``: :math:`w_{sub} |A| + w_{trp} \sum |\text{span} - 1| / n` over segeval 2.0's
      transpositions (each counting 1 instead when ``scale`` is false).

    ``edits``: the :func:`tvseg.unit.edits.edit_counts` of the pairs' transpositions with ``n = 2``,
    when already at hand (for ``n = 2`` the paper's choice of transpositions and segeval's are the same). Sums of both
    counts over items and pairs give the pooled similarity (:mod:`tvseg.unit.agreement`; the corpus B,
    as segeval's ``actual_agreement_linear``).
    """
    potential = (np.asarray(pairs.n) - 1).astype(np.float64) * np.ones(pairs.size)
    if convention == "segeval1":
        penalty = np.empty(pairs.size)
        ro, ho = pairs.reference_offsets, pairs.hypothesis_offsets
        for i in range(pairs.size):
            left, windows = segeval1_edits(pairs.reference[ro[i] : ro[i + 1]], pairs.hypothesis[ho[i] : ho[i + 1]], n=n)
            weight = sum(t.error() for t in windows) if scale else len(windows)
            penalty[i] = w_sub * left + w_trp * weight
        return penalty, potential
    if edits is None:
        selection = "segeval" if convention == "segeval" else "optimal"
        edits = edit_counts(
            pairs, transpositions(pairs, n=n, w_sub=w_sub, w_trp=w_trp, scale=scale, selection=selection)
        )
    if convention == "segeval":
        moved = edits.span_sum / n if scale else edits.transpositions
        penalty = w_sub * edits.full_misses + w_trp * moved
        if metric == "B":
            return penalty, (edits.full_misses + edits.transpositions + edits.matches).astype(np.float64)
        return penalty, potential
    moved = edits.te_sum if scale else edits.transpositions.astype(np.float64)
    return w_sub * edits.full_misses + w_trp * moved, potential


def segmentation_similarity(
    reference: Boundaries,
    hypothesis: Boundaries,
    *,
    n: int = 2,
    weights: tuple[float, float] = (1.0, 1.0),
    scale_transpositions: bool = True,
    boundary_types: Iterable[Hashable] | None = None,
    convention: str = "paper",
) -> float:
    r"""Segmentation similarity S (Fournier & Inkpen 2012, equation 4).

    The proportion of potential boundaries (PBs) left unedited by the boundary edit distance:

    .. math::

        \mathrm{S}(s_{i1}, s_{i2}) = \frac{\mathbf{t} \cdot \mathrm{mass}(i) - \mathbf{t}
            - d(s_{i1}, s_{i2}, T)}{\mathbf{t} \cdot \mathrm{mass}(i) - \mathbf{t}}

    with ``d = w_sub * (full misses) + w_trp * sum(te(span, 2))`` (see
    :func:`tvseg.unit.edits.boundary_edit_distance`) and ``t`` the number of boundary types.
    S is symmetric, in [0, 1], 1 for identical segmentations and 0 for a segmentation with every
    boundary against one with none. A text of one unit has no PB: S is then 1 (nothing can differ).

    Parameters
    ----------
    reference, hypothesis : masses, or boundary strings
        Segment sizes in units (one boundary type), or, for several boundary types, sequences of
        ``N - 1`` sets of boundary types, one per PB (segeval's boundary string, e.g.
        ``[set(), {1}, set(), {1, 2}]``). Reference first, as every metric of tvseg (segeval's functions
        take the hypothesis first); also as keywords, ``reference=``, ``hypothesis=``.
    n : int
        Largest transposition span in PBs (default 2: a boundary one PB away is a near miss costing
        1 PB instead of 2 full misses).
    weights : (float, float)
        ``(w_sub, w_trp)`` in [0, 1]: the cost of a full miss and the scale of a transposition's cost.
    scale_transpositions : bool
        Weigh transpositions with ``te(n, b) = b - (1/b)^(n-2)`` of their span (equation 3); otherwise
        each costs ``w_trp``.
    boundary_types : collection, optional
        The set ``T`` of boundary types; both segmentations are then boundary strings (``"paper"`` only).
    convention : {"paper", "segeval1", "segeval"}
        Whose S (module docstring): the paper's, the 2012 reference implementation's, or segeval
        2.0.11's (its ``segmentation_similarity(a, b, n_t=n)``).

    Returns
    -------
    float

    Raises
    ------
    InputError
        Bad options (``n``, ``weights``, ``convention``), masses that differ in total, or several
        boundary types under a convention other than ``"paper"``.

    Examples
    --------
    The near miss of the paper's Figure 8 (one transposition in 13 PBs):

    >>> round(segmentation_similarity((6, 8), (7, 7)), 4)
    0.9231

    The 2012 code's windows can move several boundaries at a time (module docstring):

    >>> a, b = (1, 3, 1, 2, 2, 2, 1, 2, 1, 1), (1, 3, 1, 4, 3, 1, 1, 1, 1)
    >>> round(segmentation_similarity(a, b, n=5), 4), round(segmentation_similarity(a, b, n=5, convention="segeval1"), 4)
    (0.8333, 0.6833)

    References
    ----------
    Fournier, C. and Inkpen, D. (2012). Segmentation Similarity and Agreement. NAACL-HLT, 152-161.
    """
    n, w_sub, w_trp = check_edit_options(n, weights)
    if convention not in S_CONVENTIONS:
        raise InputError(f"S has no convention {convention!r}; use one of {', '.join(S_CONVENTIONS)}", value=convention)
    a, b = reference, hypothesis
    types, pos_a, pos_b, pbs = as_boundary_string_pair(a, b, boundary_types)
    if types == (SINGLE_TYPE,) and boundary_types is None:
        pairs = BoundaryPairs.one(pbs + 1, pos_a[SINGLE_TYPE], pos_b[SINGLE_TYPE])
        penalty = float(
            pair_counts(pairs, convention=convention, n=n, w_sub=w_sub, w_trp=w_trp, scale=scale_transpositions)[0][0]
        )
    elif convention != "paper":
        raise InputError(
            f"S with several boundary types exists under convention 'paper' only, not {convention!r}", value=list(types)
        )
    else:
        edits = boundary_edit_distance(
            a, b, n=n, weights=weights, scale_transpositions=scale_transpositions, boundary_types=boundary_types
        )
        penalty, pbs = edits.distance, edits.potential_boundaries
    if pbs == 0:
        return 1.0
    return 1.0 - penalty / pbs


def boundary_similarity(reference: Boundaries, hypothesis: Boundaries, *, n: int = 2) -> float:
    r"""Boundary similarity B (Fournier 2013), as segeval 2.0.11's ``boundary_similarity``.

    .. math::

        \mathrm{B}(s_1, s_2) = 1 - \frac{|A| + \sum_{t \in T_p} |\mathrm{end}_t - \mathrm{start}_t| / n}
                                         {|A| + |T_p| + |B_M|}

    with ``A`` the additions (boundaries in one segmentation only, after transpositions), ``T_p`` the
    transpositions chosen as segeval 2.0 chooses them (spans of 2, then 3, ... ``n`` PBs, each from
    the left) and ``B_M`` the boundaries both place at the same position. When neither segmentation
    has any boundary the denominator is 0 and B is 1 (segeval's choice).

    Parameters
    ----------
    reference, hypothesis : sequence of int
        Masses (segment sizes in units) of two segmentations of the same text; reference first (segeval's
        functions take the hypothesis first), also as keywords ``reference=``, ``hypothesis=``.
    n : int
        segeval's ``n_t``: the largest transposition span in PBs.

    Returns
    -------
    float

    References
    ----------
    Fournier, C. (2013). Evaluating Text Segmentation using Boundary Edit Distance. ACL, 1702-1712.
    """
    n, _, _ = check_edit_options(n, (1.0, 1.0))
    types, pos_a, pos_b, pbs = as_boundary_string_pair(reference, hypothesis, None)
    if types != (SINGLE_TYPE,):
        raise ValueError("boundary_similarity takes masses")  # pragma: no cover - masses give one type
    pairs = BoundaryPairs.one(pbs + 1, pos_a[SINGLE_TYPE], pos_b[SINGLE_TYPE])
    penalty, denominator = pair_counts(pairs, metric="B", convention="segeval", n=n)
    if denominator[0] == 0:
        return 1.0
    return 1.0 - float(penalty[0]) / float(denominator[0])


# ------------------------------------------------------------------------------------------------
# The 2012 reference implementation's transpositions (segeval 1.1), pair by pair


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

    def __iter__(self) -> Iterator[Any]:
        return iter(astuple(self))


def _is_window_transposition(in_a: set[int], in_b: set[int], start: int, width: int) -> bool:
    window_a = tuple(p in in_a for p in range(start, start + width))
    window_b = tuple(p in in_b for p in range(start, start + width))
    return window_a != window_b and window_a[::-1] == window_b


def _keep(
    kept_start: list[int], kept_end: list[int], kept: list[WindowTransposition], candidate: WindowTransposition
) -> None:
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


def segeval1_edits(pa: np.ndarray, pb: np.ndarray, *, n: int) -> tuple[int, tuple[WindowTransposition, ...]]:
    r"""The edits the 2012 reference implementation (segeval 1.1) finds between two segmentations.

    Its procedure, on boundary positions ``1 .. N-1`` of one boundary type:

    1. the *set errors* are the positions where exactly one segmentation has a boundary;
    2. for each width ``w = 2, 3, ... n`` in turn, and each window of ``w`` PBs from the left, the window
       is a transposition when ``b``'s window starts or ends with a boundary, differs from ``a``'s, and
       equals ``a``'s read backwards; its weight is the number of boundaries of ``a`` in it;
    3. a transposition is kept if it overlaps (shares a PB with) no kept one, or replaces those it
       overlaps when its weight is larger than the sum of theirs;
    4. the set errors inside a kept transposition are dropped.

    Unlike the paper's reading (:func:`tvseg.unit.edits.boundary_edit_distance`), a window may move several boundaries
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
    kept_start: list[int] = []
    kept_end: list[int] = []
    kept: list[WindowTransposition] = []
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
