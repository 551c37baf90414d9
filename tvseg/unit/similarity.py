"""Segmentation similarity S (Fournier & Inkpen 2012) and boundary similarity B (Fournier 2013).

Both are built on the boundary edit distance of :mod:`tvseg.unit.edits` and work on sorted boundary
positions, so their cost grows with the number of boundaries, not of units.

Where tvseg and segeval 2.0.11 differ
-------------------------------------
* ``segmentation_similarity`` is the 2012 paper's S: a 2-wise transposition costs ``te(2, 2) = 1`` PB.
  segeval 2.0's ``segmentation_similarity`` weighs a transposition by ``|span - 1| / n`` instead
  (0.5 PB for ``n = 2``), so it equals ours with ``weights=(1.0, 0.5)`` and ``n = 2`` (checked in the
  tests); for ``n > 2`` segeval also chooses transpositions differently (see
  :func:`tvseg.unit.edits.boundary_edit_distance`, ``selection``).
* ``boundary_similarity`` reproduces segeval 2.0.11's ``boundary_similarity`` exactly (its transposition
  choice included), for masses with one boundary type.
"""
from __future__ import annotations

from tvseg.unit.edits import (SINGLE_TYPE, BoundaryEdits, _check_options, as_boundary_string_pair,
                              boundary_edit_distance, single_type_penalty)

__all__ = ["segmentation_similarity", "similarity_counts", "boundary_similarity", "boundary_edit_distance",
           "BoundaryEdits"]


def similarity_counts(a, b, *, n: int = 2, weights=(1.0, 1.0), scale_transpositions: bool = True,
                      boundary_types=None) -> tuple[float, int]:
    r"""The two counts S is made of: ``(penalty, potential_boundaries)``.

    ``penalty`` is the weighted boundary edit distance ``d`` in PBs and ``potential_boundaries`` is
    ``t * (mass - 1)``, so that

    .. math:: \mathrm{S} = 1 - \frac{\text{penalty}}{\text{potential\_boundaries}}

    Sums of these counts over several shows give the pooled (micro-averaged) S of a corpus, which is
    how the agreement coefficients pool items (:mod:`tvseg.unit.agreement`). Options as in
    :func:`segmentation_similarity`.
    """
    n, w_sub, w_trp = _check_options(n, weights)
    types, pos_a, pos_b, pbs = as_boundary_string_pair(a, b, boundary_types)
    if types == (SINGLE_TYPE,) and boundary_types is None:
        distance = single_type_penalty(pos_a[SINGLE_TYPE], pos_b[SINGLE_TYPE], n=n, w_sub=w_sub, w_trp=w_trp,
                                       scale=scale_transpositions)[0]
        return float(distance), int(pbs)
    edits = boundary_edit_distance(a, b, n=n, weights=weights, scale_transpositions=scale_transpositions,
                                   boundary_types=boundary_types)
    return edits.distance, edits.potential_boundaries


def segmentation_similarity(a, b, *, n: int = 2, weights=(1.0, 1.0), scale_transpositions: bool = True,
                            boundary_types=None) -> float:
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
        The set ``T`` of boundary types; ``a`` and ``b`` are then boundary strings.

    Returns
    -------
    float

    Examples
    --------
    The near miss of the paper's Figure 8 (one transposition in 13 PBs):

    >>> round(segmentation_similarity((6, 8), (7, 7)), 4)
    0.9231

    References
    ----------
    Fournier, C. and Inkpen, D. (2012). Segmentation Similarity and Agreement. NAACL-HLT, 152-161.
    """
    penalty, pbs = similarity_counts(a, b, n=n, weights=weights, scale_transpositions=scale_transpositions,
                                     boundary_types=boundary_types)
    if pbs == 0:
        return 1.0
    return 1.0 - penalty / pbs


def boundary_similarity(a, b, *, n: int = 2) -> float:
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
    n, _, _ = _check_options(n, (1.0, 1.0))
    types, pos_a, pos_b, _ = as_boundary_string_pair(a, b, None)
    if types != (SINGLE_TYPE,):
        raise ValueError("boundary_similarity takes masses")  # pragma: no cover - masses give one type
    _, additions, transpositions, span_sum, matches = single_type_penalty(
        pos_a[SINGLE_TYPE], pos_b[SINGLE_TYPE], n=n, w_sub=1.0, w_trp=1.0, scale=False, selection="segeval")
    denominator = additions + transpositions + matches
    if denominator == 0:
        return 1.0
    return 1.0 - (additions + span_sum / n) / denominator
