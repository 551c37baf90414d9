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

Conventions (``convention=``, ``metric=``; ``docs/conventions.md``)
------------------------------------------------------------------
``"paper"`` (default)
    The formulas above with the paper's S (``metric="S"`` only: the paper has no B).
``"segeval1"``
    The 2012 reference implementation (segeval 1.1, ``agreement/``): S as its code computes it
    (:func:`tvseg.unit.similarity.segmentation_similarity`, ``convention="segeval1"``), segments
    counted, and :math:`P_e^\pi(seg)` the *mean of the per-item proportions*
    :math:`\frac{1}{\mathbf{c}|I|} \sum_c \sum_i |\mathrm{boundaries}(s_{ic})| / (\mathrm{mass}(i) - 1)`
    instead of equation 8's pooled proportion (the two differ only with several items of different
    sizes). :math:`P_e^\kappa` pools as equation 11. ``metric="S"`` only.
``"segeval"``
    segeval 2.0.11's ``fleiss_pi_linear`` and ``fleiss_kappa_linear`` (Scott's and Cohen's for two
    coders): internal boundaries counted, :math:`P_e^\pi` the mean of per-item proportions as in
    segeval 1.1, and :math:`A_a = \sum \text{numerator} / \sum \text{denominator}` over pairs and
    items of segeval's ``metric``: B (``metric="B"``, segeval's default ``fnc_compare``) with
    denominator :math:`|A| + |T_p| + |B_M|`, or its S (``metric="S"``) with denominator ``mass - 1``.
    Where segeval fails (a pair of codings of an item without any boundary: ``max()`` of no boundary
    type), the pair counts as segeval counts a pair with boundaries of the dataset's one type.

Only one boundary type (masses) is handled here. The dataset and the options are checked by
:mod:`tvseg.unit.agreement_inputs`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from tvseg.errors import InputError
from tvseg.unit.agreement_inputs import Checked, Dataset, check_agreement_options, check_dataset, check_system
from tvseg.unit.edit_inputs import check_edit_options
from tvseg.unit.masses import Masses, boundary_positions
from tvseg.unit.similarity import pair_counts

__all__ = [
    "Agreement",
    "SystemAgreement",
    "agreement",
    "agreement_with_system",
]


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
        Pooled S (or B) per pair of coders ``(c_m, c_n)``.
    penalty, denominator : float
        Sums over pairs and items of the penalty and the denominator of S or B
        (:func:`tvseg.unit.similarity.pair_counts`): ``actual = 1 - penalty / denominator``.
    potential_boundaries : int
        The sum over pairs and items of ``mass - 1`` (the denominator of S).
    coders, items : tuple
    n : int
        Transposition span of S or B.
    chance_count : str
        What :math:`|\mathrm{boundaries}(s)|` counts: ``"segments"`` or ``"boundaries"``.
    metric : str
        ``"S"`` or ``"B"``: the similarity :math:`A_a` is built on.
    convention : str
        ``"paper"``, ``"segeval1"`` or ``"segeval"`` (module docstring).
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
    p_boundary_by_coder: dict[Hashable, float] = field(repr=False)
    pairwise: dict[tuple[Hashable, Hashable], float] = field(repr=False)
    penalty: float
    potential_boundaries: int
    coders: tuple[Hashable, ...]
    items: tuple[Hashable, ...]
    n: int
    chance_count: str
    metric: str = "S"
    convention: str = "paper"
    denominator: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values (pairs of coders joined by ``" / "``)."""
        return {
            "coders": list(self.coders),
            "items": list(self.items),
            "n": self.n,
            "metric": self.metric,
            "convention": self.convention,
            "chance_count": self.chance_count,
            "pi_star": self.pi_star,
            "kappa_star": self.kappa_star,
            "pi": self.pi,
            "kappa": self.kappa,
            "bias": self.bias,
            "actual": self.actual,
            "expected_pi": self.expected_pi,
            "expected_kappa": self.expected_kappa,
            "p_boundary": self.p_boundary,
            "p_boundary_by_coder": dict(self.p_boundary_by_coder),
            "pairwise_s": {f"{a} / {b}": s for (a, b), s in self.pairwise.items()},
            "penalty": self.penalty,
            "denominator": self.denominator,
            "potential_boundaries": self.potential_boundaries,
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

    def as_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "humans": self.humans.as_dict(),
            "with_system": self.with_system.as_dict(),
            "drop_pi_star": self.drop_pi_star,
            "drop_kappa_star": self.drop_kappa_star,
            "drop_actual": self.drop_actual,
        }


def _coefficient(actual: float, expected: float) -> float:
    if expected == 1.0:
        return math.nan  # every PB a boundary for every coder: chance explains everything, 0/0
    return (actual - expected) / (1.0 - expected)


def _chance(
    data: Checked,
    items: tuple[Hashable, ...],
    coders: tuple[Hashable, ...],
    pbs_item: dict[Hashable, int],
    *,
    count: str,
    pooled: bool,
) -> tuple[float, dict[Hashable, float]]:
    """``(P_e^pi(seg), {coder: P_e^kappa(seg|c)})`` (equations 8 and 11, or the tools' readings)."""
    extra = 1 if count == "segments" else 0
    counts = {c: {item: len(data[item][c]) - 1 + extra for item in items} for c in coders}
    total_pbs = sum(pbs_item.values())
    by_coder = {c: sum(counts[c].values()) / total_pbs for c in coders}
    if pooled:
        return sum(by_coder.values()) / len(coders), by_coder
    empty = [item for item in items if pbs_item[item] == 0]
    if empty:
        raise InputError(
            "item of a single unit: the per-item boundary proportion of this convention is 0/0", value=empty[0]
        )
    proportions = [counts[c][item] / pbs_item[item] for c in coders for item in items]
    return math.fsum(proportions) / len(proportions), by_coder


def agreement(
    dataset: Dataset,
    *,
    n: int = 2,
    weights: tuple[float, float] = (1.0, 1.0),
    scale_transpositions: bool = True,
    chance_count: str | None = None,
    metric: str = "S",
    convention: str = "paper",
) -> Agreement:
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
        Options of S (:func:`tvseg.unit.similarity.segmentation_similarity`), or of B under
        ``"segeval"`` (``weights`` scale its additions and transpositions).
    chance_count : {"segments", "boundaries"}, optional
        What :math:`|\mathrm{boundaries}(s)|` counts in the chance agreement: the number of segments
        or of internal boundaries. Default: the convention's (segments under ``"paper"``, how the
        paper's Table 2 was computed, and ``"segeval1"``; boundaries under ``"segeval"``). Only
        ``"paper"`` takes the other count.
    metric : {"S", "B"}
        The similarity :math:`A_a` is built on; B (Fournier 2013) under ``convention="segeval"`` only.
    convention : {"paper", "segeval1", "segeval"}
        The paper's formulas, the 2012 reference implementation, or segeval 2.0.11 (module
        docstring). ``metric="B", convention="segeval"`` is segeval 2.0.11's ``fleiss_pi_linear`` and
        ``fleiss_kappa_linear`` with their defaults; ``metric="S", convention="segeval"`` the same
        with ``fnc_compare=segmentation_similarity``.

    Returns
    -------
    Agreement

    Raises
    ------
    InputError
        A malformed dataset, or options that do not exist or do not go together.

    References
    ----------
    Fournier, C. and Inkpen, D. (2012). Segmentation Similarity and Agreement. NAACL-HLT, 152-161.
    Fournier, C. (2013). Evaluating Text Segmentation using Boundary Edit Distance. ACL, 1702-1712.
    Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
    Computational Linguistics 34(4), 555-596.
    """
    n, w_sub, w_trp = check_edit_options(n, weights)
    chance_count, pooled = check_agreement_options(metric, convention, chance_count)
    items, coders, data = check_dataset(dataset)
    pbs_item = {item: int(next(iter(data[item].values())).sum()) - 1 for item in items}
    total_pbs = sum(pbs_item.values())
    if total_pbs == 0:
        raise InputError("every item has a single unit: there is no potential boundary to agree on")
    positions = {item: {c: boundary_positions(m) for c, m in data[item].items()} for item in items}
    options: dict[str, Any] = dict(
        metric=metric, convention=convention, n=n, w_sub=w_sub, w_trp=w_trp, scale=scale_transpositions
    )

    pairwise = {}
    penalty_total = denominator_total = 0.0
    for cm, cn in combinations(coders, 2):
        penalty = denominator = 0.0
        for item in items:
            p, d = pair_counts(positions[item][cm], positions[item][cn], pbs_item[item], **options)
            penalty += p
            denominator += d
        pairwise[(cm, cn)] = 1.0 - penalty / denominator if denominator else 1.0
        penalty_total += penalty
        denominator_total += denominator
    if denominator_total == 0:
        raise InputError("no coder places any boundary: B has nothing to compare (segeval divides 0 by 0)")
    n_pairs = len(coders) * (len(coders) - 1) // 2
    actual = 1.0 - penalty_total / denominator_total

    p_all, by_coder = _chance(data, items, coders, pbs_item, count=chance_count, pooled=pooled)
    expected_pi = p_all**2
    expected_kappa = float(np.mean([by_coder[a] * by_coder[b] for a, b in combinations(coders, 2)]))
    pi_star = _coefficient(actual, expected_pi)
    kappa_star = _coefficient(actual, expected_kappa)
    two = len(coders) == 2
    return Agreement(
        pi_star=pi_star,
        kappa_star=kappa_star,
        pi=pi_star if two else None,
        kappa=kappa_star if two else None,
        bias=expected_pi - expected_kappa,
        actual=actual,
        expected_pi=expected_pi,
        expected_kappa=expected_kappa,
        p_boundary=p_all,
        p_boundary_by_coder=by_coder,
        pairwise=pairwise,
        penalty=penalty_total,
        potential_boundaries=n_pairs * total_pbs,
        coders=tuple(coders),
        items=items,
        n=n,
        chance_count=chance_count,
        metric=metric,
        convention=convention,
        denominator=denominator_total,
    )


def agreement_with_system(
    dataset: Dataset,
    system: Mapping[Hashable, Masses],
    *,
    name: str = "system",
    n: int = 2,
    weights: tuple[float, float] = (1.0, 1.0),
    scale_transpositions: bool = True,
    chance_count: str | None = None,
    metric: str = "S",
    convention: str = "paper",
) -> SystemAgreement:
    """Agreement of the coders without and with an automatic segmenter as one more coder (section 3.4).

    Parameters
    ----------
    dataset : mapping
        ``{item: {coder: masses}}`` of the human coders.
    system : mapping
        ``{item: masses}``: the segmenter's output for every item of ``dataset``.
    name : str
        The segmenter's coder name (must not be a human coder's).
    n, weights, scale_transpositions, chance_count, metric, convention
        As in :func:`agreement`.

    Returns
    -------
    SystemAgreement
        ``humans`` and ``with_system`` agreements and the drops of :math:`\\pi^*`, :math:`\\kappa^*` and
        :math:`A_a` when the segmenter is added.
    """
    items = check_system(dataset, system, name)
    options: dict[str, Any] = dict(
        n=n,
        weights=weights,
        scale_transpositions=scale_transpositions,
        chance_count=chance_count,
        metric=metric,
        convention=convention,
    )
    humans = agreement(dataset, **options)
    combined = {item: {**dataset[item], name: system[item]} for item in items}
    return SystemAgreement(humans=humans, with_system=agreement(combined, **options), system=name)
