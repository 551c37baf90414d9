r"""Inter-coder agreement on segmentations, with segmentation similarity S as the agreement measure.

Fournier & Inkpen (2012, section 3.5) adapt Scott's :math:`\pi`, Cohen's :math:`\kappa`, Fleiss's
multi-:math:`\pi` (:math:`\pi^*`) and multi-:math:`\kappa` (:math:`\kappa^*`) to segmentation. All have
the form

.. math:: \frac{A_a - A_e}{1 - A_e}

with the actual agreement :math:`A_a` the pairwise mean S pooled over items (equations 6, 9, 12, 14)
and the chance agreement :math:`A_e` built from the probability that a coder places a boundary at a
potential boundary (one category per boundary type, :math:`K = \{seg_t\}`):

.. math::

    P_e^\pi(seg) = \frac{\sum_c \sum_i |\mathrm{boundaries}(s_{ic})|}{\mathbf{c} \sum_i (\mathrm{mass}(i) - 1)},
    \qquad A_e^{\pi^*} = P_e^\pi(seg)^2 \quad \text{(equations 8, 7, 13)}

    P_e^\kappa(seg | c) = \frac{\sum_i |\mathrm{boundaries}(s_{ic})|}{\sum_i (\mathrm{mass}(i) - 1)},
    \qquad A_e^{\kappa^*} = \frac{1}{\binom{\mathbf{c}}{2}} \sum_{m < n} P_e^\kappa(seg|c_m) P_e^\kappa(seg|c_n)
    \quad \text{(equations 11, 10, 15)}

and the annotator bias :math:`B = A_e^{\pi^*} - A_e^{\kappa^*}` (equation 16, Artstein & Poesio 2008).

Readings chosen to reproduce the paper's Table 2
------------------------------------------------
* :math:`A_a` pools the potential boundaries: :math:`1 - \sum_{pairs, items} d / \sum_{pairs, items} (\mathrm{mass}(i) - 1)`.
  Equation 6 weighs S by :math:`\mathrm{mass}(i)` and equation 12 mixes :math:`\mathrm{mass}(i)` and
  :math:`\mathrm{mass}(i) - 1` (a misprint: it can exceed 1); the 2012 reference implementation (segeval 1.x)
  pooled the PB counts, which for one item is the pairwise mean S.
* :math:`|\mathrm{boundaries}(s_{ic})|` is the **number of segments** (internal boundaries + 1) by default,
  ``chance_count="segments"``: segeval 1.x counted ``len(masses)``, and Table 2's column ``|b|`` (13 for
  chapter 1, whose four coders drew 4 + 2 + 5 + 2 segments) counts the same thing. With it, every
  :math:`\pi^*_S`, :math:`\kappa^*_S` and :math:`B_S` of Table 2 that segeval bundles the data of is
  reproduced to 4 decimals (tests/test_agreement.py); counting internal boundaries only
  (``chance_count="boundaries"``, segeval 2.0's choice) does not reproduce them. The bias B is the same
  under both (it does not change when every coder's count moves by the same amount per item).

Only one boundary type (masses) is handled here.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from tvseg.errors import InputError
from tvseg.unit.edits import _check_options, single_type_penalty
from tvseg.unit.masses import as_masses, boundary_positions

__all__ = ["Agreement", "SystemAgreement", "agreement", "agreement_with_system", "check_dataset"]

CHANCE_COUNTS = ("segments", "boundaries")


@dataclass(frozen=True)
class Agreement:
    r"""Agreement coefficients of a multiply-coded dataset and the quantities they are built from.

    Attributes
    ----------
    pi_star, kappa_star : float
        Fleiss's multi-:math:`\pi` and multi-:math:`\kappa` adapted to S (NaN when :math:`A_e = 1`).
    pi, kappa : float or None
        Scott's :math:`\pi` and Cohen's :math:`\kappa`; they are defined for two coders only (then equal to
        ``pi_star`` and ``kappa_star``), so they are None with more than two coders.
    bias : float
        :math:`A_e^{\pi^*} - A_e^{\kappa^*}`.
    actual : float
        :math:`A_a`, the pooled pairwise S.
    expected_pi, expected_kappa : float
        :math:`A_e^{\pi^*}` (:math:`= A_e^\pi` for two coders) and :math:`A_e^{\kappa^*}` (:math:`= A_e^\kappa`).
    p_boundary : float
        :math:`P_e^\pi(seg)`.
    p_boundary_by_coder : dict
        :math:`P_e^\kappa(seg|c)` per coder.
    pairwise : dict
        Pooled S per pair of coders ``(c_m, c_n)``.
    penalty, potential_boundaries : float, int
        Sums over pairs and items of the edit distance d and of ``mass - 1``: ``actual = 1 - penalty /
        potential_boundaries``.
    coders, items : tuple
    n : int
        Transposition span of S.
    chance_count : str
        What :math:`|\mathrm{boundaries}(s)|` counts: ``"segments"`` or ``"boundaries"``.
    """

    pi_star: float
    kappa_star: float
    pi: float | None
    kappa: float | None
    bias: float
    actual: float
    expected_pi: float
    expected_kappa: float
    p_boundary: float
    p_boundary_by_coder: dict = field(repr=False)
    pairwise: dict = field(repr=False)
    penalty: float
    potential_boundaries: int
    coders: tuple
    items: tuple
    n: int
    chance_count: str

    def as_dict(self) -> dict:
        """Plain JSON-ready values (pairs of coders joined by ``" / "``)."""
        return {
            "coders": list(self.coders), "items": list(self.items), "n": self.n,
            "chance_count": self.chance_count,
            "pi_star": self.pi_star, "kappa_star": self.kappa_star, "pi": self.pi, "kappa": self.kappa,
            "bias": self.bias, "actual": self.actual, "expected_pi": self.expected_pi,
            "expected_kappa": self.expected_kappa, "p_boundary": self.p_boundary,
            "p_boundary_by_coder": dict(self.p_boundary_by_coder),
            "pairwise_s": {f"{a} / {b}": s for (a, b), s in self.pairwise.items()},
            "penalty": self.penalty, "potential_boundaries": self.potential_boundaries,
        }


@dataclass(frozen=True)
class SystemAgreement:
    """Agreement of the human coders without and with an automatic segmenter (section 3.4).

    A drop (positive ``drop_pi_star``) means the segmenter agrees with the coders less than they agree
    with each other.
    """

    humans: Agreement
    with_system: Agreement
    system: str

    @property
    def drop_pi_star(self) -> float:
        return self.humans.pi_star - self.with_system.pi_star

    @property
    def drop_kappa_star(self) -> float:
        return self.humans.kappa_star - self.with_system.kappa_star

    @property
    def drop_actual(self) -> float:
        return self.humans.actual - self.with_system.actual

    def as_dict(self) -> dict:
        return {"system": self.system, "humans": self.humans.as_dict(),
                "with_system": self.with_system.as_dict(),
                "drop_pi_star": self.drop_pi_star, "drop_kappa_star": self.drop_kappa_star,
                "drop_actual": self.drop_actual}


def check_dataset(dataset) -> tuple[tuple, tuple, dict]:
    """Check ``{item: {coder: masses}}``: at least one item, the same two or more coders on every item,
    and the same total per item. Returns ``(items, coders, {item: {coder: ndarray}})``."""
    if not isinstance(dataset, Mapping) or not dataset:
        raise InputError("a dataset must be a non-empty mapping {item: {coder: masses}}",
                         value=type(dataset).__name__)
    items = tuple(dataset)
    coders = None
    checked = {}
    for item in items:
        codings = dataset[item]
        if not isinstance(codings, Mapping):
            raise InputError(f"item {item!r} must map coders to masses", value=codings)
        names = tuple(codings)
        if coders is None:
            coders = names
            if len(coders) < 2:
                raise InputError(f"item {item!r} has fewer than two coders", value=list(coders))
        elif set(names) != set(coders):
            missing = sorted(map(str, set(coders) ^ set(names)))
            raise InputError(f"item {item!r} is not coded by the same coders as item {items[0]!r}",
                             value=missing)
        masses = {c: as_masses(codings[c], name=f"item {item!r}, coder {c!r}") for c in coders}
        totals = {c: int(m.sum()) for c, m in masses.items()}
        if len(set(totals.values())) != 1:
            raise InputError(f"item {item!r}: coders disagree on its number of units", value=totals)
        checked[item] = masses
    return items, coders, checked


def _coefficient(actual, expected):
    if expected == 1.0:
        return math.nan  # every PB a boundary for every coder: chance explains everything, 0/0
    return (actual - expected) / (1.0 - expected)


def agreement(dataset, *, n: int = 2, weights=(1.0, 1.0), scale_transpositions: bool = True,
              chance_count: str = "segments") -> Agreement:
    r"""S-based Scott's :math:`\pi`, Cohen's :math:`\kappa`, Fleiss's :math:`\pi^*` and :math:`\kappa^*`, and bias.

    .. math::

        \pi^*, \kappa^* = \frac{A_a - A_e}{1 - A_e}, \qquad
        A_a = 1 - \frac{\sum_{m<n} \sum_i d(s_{im}, s_{in})}{\binom{\mathbf{c}}{2} \sum_i (\mathrm{mass}(i) - 1)},
        \qquad B = A_e^{\pi^*} - A_e^{\kappa^*}

    (Fournier & Inkpen 2012, section 3.5; the expected agreements are in the module docstring).

    Parameters
    ----------
    dataset : mapping
        ``{item: {coder: masses}}``: every coder codes every item (segeval's dataset layout).
    n, weights, scale_transpositions
        Options of S (:func:`tvseg.unit.similarity.segmentation_similarity`).
    chance_count : {"segments", "boundaries"}
        What :math:`|\mathrm{boundaries}(s)|` counts in the chance agreement: the number of segments
        (default; how the paper's Table 2 was computed) or of internal boundaries.

    Returns
    -------
    Agreement

    References
    ----------
    Fournier, C. and Inkpen, D. (2012). Segmentation Similarity and Agreement. NAACL-HLT, 152-161.
    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    Computational Linguistics 34(4), 555-596.
    """
    n, w_sub, w_trp = _check_options(n, weights)
    if chance_count not in CHANCE_COUNTS:
        raise InputError("chance_count must be 'segments' or 'boundaries'", value=chance_count)
    items, coders, data = check_dataset(dataset)
    pbs_item = {item: int(next(iter(data[item].values())).sum()) - 1 for item in items}
    total_pbs = sum(pbs_item.values())
    if total_pbs == 0:
        raise InputError("every item has a single unit: there is no potential boundary to agree on")
    positions = {item: {c: boundary_positions(m) for c, m in data[item].items()} for item in items}

    pairwise = {}
    penalty_total = 0.0
    for cm, cn in combinations(coders, 2):
        penalty = 0.0
        for item in items:
            penalty += single_type_penalty(positions[item][cm], positions[item][cn], n=n, w_sub=w_sub,
                                           w_trp=w_trp, scale=scale_transpositions)[0]
        pairwise[(cm, cn)] = 1.0 - penalty / total_pbs
        penalty_total += penalty
    n_pairs = len(coders) * (len(coders) - 1) // 2
    all_pbs = n_pairs * total_pbs
    actual = 1.0 - penalty_total / all_pbs

    extra = 1 if chance_count == "segments" else 0
    counts = {c: sum(len(data[item][c]) - 1 + extra for item in items) for c in coders}
    by_coder = {c: counts[c] / total_pbs for c in coders}
    p_all = sum(counts.values()) / (len(coders) * total_pbs)
    expected_pi = p_all ** 2
    expected_kappa = float(np.mean([by_coder[a] * by_coder[b] for a, b in combinations(coders, 2)]))
    pi_star = _coefficient(actual, expected_pi)
    kappa_star = _coefficient(actual, expected_kappa)
    two = len(coders) == 2
    return Agreement(
        pi_star=pi_star, kappa_star=kappa_star, pi=pi_star if two else None, kappa=kappa_star if two else None,
        bias=expected_pi - expected_kappa, actual=actual, expected_pi=expected_pi,
        expected_kappa=expected_kappa, p_boundary=p_all, p_boundary_by_coder=by_coder, pairwise=pairwise,
        penalty=penalty_total, potential_boundaries=all_pbs, coders=tuple(coders), items=items, n=n,
        chance_count=chance_count)


def agreement_with_system(dataset, system, *, name: str = "system", n: int = 2, weights=(1.0, 1.0),
                          scale_transpositions: bool = True, chance_count: str = "segments") -> SystemAgreement:
    """Agreement of the coders without and with an automatic segmenter as one more coder (section 3.4).

    Parameters
    ----------
    dataset : mapping
        ``{item: {coder: masses}}`` of the human coders.
    system : mapping
        ``{item: masses}``: the segmenter's output for every item of ``dataset``.
    name : str
        The segmenter's coder name (must not be a human coder's).
    n, weights, scale_transpositions, chance_count
        As in :func:`agreement`.

    Returns
    -------
    SystemAgreement
        ``humans`` and ``with_system`` agreements and the drops of :math:`\\pi^*`, :math:`\\kappa^*` and
        :math:`A_a` when the segmenter is added.
    """
    if not isinstance(system, Mapping):
        raise InputError("system must be a mapping {item: masses}", value=type(system).__name__)
    items, coders, _ = check_dataset(dataset)
    if name in coders:
        raise InputError("the system's name is already a coder's", value=name)
    missing = [item for item in items if item not in system]
    if missing:
        raise InputError("the system did not segment every item", value=missing[:5])
    extra = [item for item in system if item not in dataset]
    if extra:
        raise InputError("the system segmented items that the coders did not", value=extra[:5])
    options = dict(n=n, weights=weights, scale_transpositions=scale_transpositions, chance_count=chance_count)
    humans = agreement(dataset, **options)
    combined = {item: {**dataset[item], name: system[item]} for item in items}
    return SystemAgreement(humans=humans, with_system=agreement(combined, **options), system=name)
