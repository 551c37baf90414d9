"""GHD, S and B of many shows, one show after another: the per-show fallback behind
:mod:`tvseg.unit.corpus`, with the signatures of the batch functions of ``tvseg.unit.edits_batch``.

Positions are each show's :func:`tvseg.unit.masses.boundary_positions`, concatenated, with ``int64``
offsets of length ``n_shows + 1``; ``n_units`` is each show's ``N``.
"""
from __future__ import annotations

import numpy as np

from tvseg.unit.ghd import ghd_components
from tvseg.unit.masses import from_positions
from tvseg.unit.similarity import pair_counts, similarity_counts

__all__ = ["ghd_many", "boundary_edits_many"]


def _pairs(ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units):
    for s, n in enumerate(np.asarray(n_units).tolist()):
        yield (ref_pos[ref_offsets[s]:ref_offsets[s + 1]], hyp_pos[hyp_offsets[s]:hyp_offsets[s + 1]], n)


def ghd_many(ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units):
    """nltk's GHD (costs 2, 2, 1) of every show and the ``N - 1`` positions it is normalised by:
    :func:`tvseg.unit.ghd.ghd_components` per show. Returns ``(distance, positions)`` arrays."""
    distance, positions = [], []
    for pr, ph, n in _pairs(ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units):
        g = ghd_components(from_positions(pr, n), from_positions(ph, n))
        distance.append(g.distance)
        positions.append(g.positions)
    return np.array(distance, float), np.array(positions, np.int64)


def boundary_edits_many(ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units):
    """S's ``(penalty, potential)`` (:func:`tvseg.unit.similarity.similarity_counts`, ``n = 2``) and B's
    ``(penalty, denominator)`` (:func:`tvseg.unit.similarity.pair_counts`, segeval 2.0.11) per show:
    a dict of arrays ``s_penalty, s_potential, b_penalty, b_denominator``."""
    out = {key: [] for key in ("s_penalty", "s_potential", "b_penalty", "b_denominator")}
    for pr, ph, n in _pairs(ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units):
        penalty, potential = similarity_counts(from_positions(pr, n), from_positions(ph, n), n=2)
        b_penalty, b_denominator = pair_counts(pr, ph, n - 1, metric="B", convention="segeval", n=2)
        out["s_penalty"].append(float(penalty))
        out["s_potential"].append(float(potential))
        out["b_penalty"].append(float(b_penalty))
        out["b_denominator"].append(float(b_denominator))
    return {key: np.array(v, float) for key, v in out.items()}
