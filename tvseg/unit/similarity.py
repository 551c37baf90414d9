"""Segmentation similarity S (Fournier & Inkpen 2012) and boundary similarity B (Fournier 2013).

Both are built on the boundary edit distance of :mod:`tvseg.unit.edits` and work on sorted boundary
positions, so their cost grows with the number of boundaries, not of units.

Conventions of S (``convention=``, ``docs/conventions.md``)
-----------------------------------------------------------
``"paper"`` (default)
    The 2012 paper's S: transpositions join consecutive differences of opposite segmentations, chosen
    to minimise the edit distance; a transposition of span ``n`` costs ``te(n, 2)``, so a 2-wise
    transposition costs 1 PB.
``"segeval1"``
    The 2012 reference implementation (segeval 1.1): transpositions are windows found width by width
    (:func:`tvseg.unit.edits_segeval1.segeval1_edits`) and a window moving ``c`` boundaries costs
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

from collections.abc import Hashable, Iterable

import numpy as np
from numpy.typing import NDArray

from tvseg.errors import InputError
from tvseg.unit.edit_inputs import SINGLE_TYPE, Boundaries, as_boundary_string_pair, check_edit_options
from tvseg.unit.edit_operations import BoundaryEdits
from tvseg.unit.edits import boundary_edit_distance, single_type_penalty
from tvseg.unit.edits_segeval1 import segeval1_edits

__all__ = [
    "segmentation_similarity",
    "similarity_counts",
    "boundary_similarity",
    "boundary_edit_distance",
    "BoundaryEdits",
    "S_CONVENTIONS",
]

S_CONVENTIONS = ("paper", "segeval1", "segeval")


def check_s_convention(convention: str) -> str:
    """``convention`` if S has it (:data:`S_CONVENTIONS`), else an InputError."""
    if convention not in S_CONVENTIONS:
        raise InputError(f"S has no convention {convention!r}; use one of {', '.join(S_CONVENTIONS)}", value=convention)
    return convention


def pair_counts(
    pa: NDArray[np.int64],
    pb: NDArray[np.int64],
    pbs: int,
    *,
    metric: str = "S",
    convention: str = "paper",
    n: int = 2,
    w_sub: float = 1.0,
    w_trp: float = 1.0,
    scale: bool = True,
) -> tuple[float, float]:
    r"""``(penalty, denominator)`` of S or B for one pair of boundary-position arrays (one type).

    The similarity is ``1 - penalty / denominator``. For S the denominator is the ``N - 1`` PBs
    (``pbs``); for B (``convention="segeval"`` only) it is :math:`|A| + |T_p| + |B_M|`, the additions,
    transpositions and matches. The penalty is, by convention:

    * ``"paper"``: :math:`w_{sub} |	ext{full misses}| + w_{trp} \sum \mathrm{te}(	ext{span}, 2)`;
    * ``"segeval1"``: :math:`w_{sub} |	ext{set errors left}| + w_{trp} \sum \mathrm{te}(	ext{span}, 2c)`
      over the 2012 code's windows (:func:`tvseg.unit.edits_segeval1.segeval1_edits`);
    * ``"segeval"``: :math:`w_{sub} |A| + w_{trp} \sum |	ext{span} - 1| / n` over segeval 2.0's
      transpositions (each counting 1 instead when ``scale`` is false).

    Sums of both over items and pairs of coders give the pooled similarity the agreement coefficients
    use (:mod:`tvseg.unit.agreement`).
    """
    if convention == "segeval1":
        left, windows = segeval1_edits(pa, pb, n=n)
        moved = sum(t.error() for t in windows) if scale else len(windows)
        return w_sub * left + w_trp * moved, pbs
    if convention == "segeval":
        p = single_type_penalty(pa, pb, n=n, w_sub=1.0, w_trp=1.0, scale=False, selection="segeval")
        moved = p.span_sum / n if scale else p.transpositions
        penalty = w_sub * p.full_misses + w_trp * moved
        if metric == "B":
            return penalty, p.full_misses + p.transpositions + p.matches
        return penalty, pbs
    return single_type_penalty(pa, pb, n=n, w_sub=w_sub, w_trp=w_trp, scale=scale).distance, pbs


def similarity_counts(
    a: Boundaries,
    b: Boundaries,
    *,
    n: int = 2,
    weights: tuple[float, float] = (1.0, 1.0),
    scale_transpositions: bool = True,
    boundary_types: Iterable[Hashable] | None = None,
    convention: str = "paper",
) -> tuple[float, int]:
    r"""The two counts S is made of: ``(penalty, potential_boundaries)``.

    ``penalty`` is the weighted boundary edit distance ``d`` in PBs and ``potential_boundaries`` is
    ``t * (mass - 1)``, so that

    .. math:: \mathrm{S} = 1 - \frac{\text{penalty}}{\text{potential\_boundaries}}

    Sums of these counts over several shows give the pooled (micro-averaged) S of a corpus, which is
    how the agreement coefficients pool items (:mod:`tvseg.unit.agreement`). Options as in
    :func:`segmentation_similarity`.
    """
    n, w_sub, w_trp = check_edit_options(n, weights)
    check_s_convention(convention)
    types, pos_a, pos_b, pbs = as_boundary_string_pair(a, b, boundary_types)
    if types == (SINGLE_TYPE,) and boundary_types is None:
        penalty, _ = pair_counts(
            pos_a[SINGLE_TYPE],
            pos_b[SINGLE_TYPE],
            int(pbs),
            convention=convention,
            n=n,
            w_sub=w_sub,
            w_trp=w_trp,
            scale=scale_transpositions,
        )
        return float(penalty), int(pbs)
    if convention != "paper":
        raise InputError(
            f"S with several boundary types exists under convention 'paper' only, not {convention!r}", value=list(types)
        )
    edits = boundary_edit_distance(
        a, b, n=n, weights=weights, scale_transpositions=scale_transpositions, boundary_types=boundary_types
    )
    return edits.distance, edits.potential_boundaries


def segmentation_similarity(
    a: Boundaries,
    b: Boundaries,
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
    a, b : masses, or boundary strings
        Segment sizes in units (one boundary type), or, for several boundary types, sequences of
        ``N - 1`` sets of boundary types, one per PB (segeval's boundary string, e.g.
        ``[set(), {1}, set(), {1, 2}]``).
    n : int
        Largest transposition span in PBs (default 2: a boundary one PB away is a near miss costing
        1 PB instead of 2 full misses).
    weights : (float, float)
        ``(w_sub, w_trp)`` in [0, 1]: the cost of a full miss and the scale of a transposition's cost.
    scale_transpositions : bool
        Weigh transpositions with ``te(n, b) = b - (1/b)^(n-2)`` of their span (equation 3); otherwise
        each costs ``w_trp``.
    boundary_types : collection, optional
        The set ``T`` of boundary types; ``a`` and ``b`` are then boundary strings (``"paper"`` only).
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
    penalty, pbs = similarity_counts(
        a,
        b,
        n=n,
        weights=weights,
        scale_transpositions=scale_transpositions,
        boundary_types=boundary_types,
        convention=convention,
    )
    if pbs == 0:
        return 1.0
    return 1.0 - penalty / pbs


def boundary_similarity(a: Boundaries, b: Boundaries, *, n: int = 2) -> float:
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
    a, b : sequence of int
        Masses (segment sizes in units) of two segmentations of the same text.
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
    types, pos_a, pos_b, _ = as_boundary_string_pair(a, b, None)
    if types != (SINGLE_TYPE,):
        raise ValueError("boundary_similarity takes masses")  # pragma: no cover - masses give one type
    p = single_type_penalty(
        pos_a[SINGLE_TYPE], pos_b[SINGLE_TYPE], n=n, w_sub=1.0, w_trp=1.0, scale=False, selection="segeval"
    )
    denominator = p.full_misses + p.transpositions + p.matches
    if denominator == 0:
        return 1.0
    return 1.0 - (p.full_misses + p.span_sum / n) / denominator
