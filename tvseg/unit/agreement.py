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

Only one boundary type (masses) is handled here. A dataset is ``{item: {coder: masses}}`` (segeval's
layout): :func:`check_dataset` requires at least one item, the same two or more coders on every item and
the same number of units per item; :func:`check_system` checks a segmenter's ``{item: masses}``
against it (:func:`agreement_with_system`); :func:`check_agreement_options` the metric, the convention
and the chance count. Each raises :class:`tvseg.errors.InputError`. The similarities of every pair of
coders on every item are counted by one call of :func:`tvseg.unit.similarity.pair_counts`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, fields
from itertools import combinations
from typing import Any, TypeAlias

import numpy as np

from tvseg.errors import InputError
from tvseg.unit.edits import check_edit_options
from tvseg.unit.masses import BoundaryPairs, Masses, as_masses, boundary_positions
from tvseg.unit.similarity import pair_counts

__all__ = [
    "Agreement",
    "SystemAgreement",
    "agreement",
    "agreement_with_system",
    "check_dataset",
    "check_system",
    "check_agreement_options",
    "AGREEMENT_CONVENTIONS",
    "CHANCE_COUNTS",
    "METRICS",
]

CHANCE_COUNTS = ("segments", "boundaries")
AGREEMENT_CONVENTIONS = ("paper", "segeval1", "segeval")
METRICS = ("S", "B")
Dataset: TypeAlias = "Mapping[Hashable, Mapping[Hashable, Masses]]"  # {item: {coder: masses}}
Checked: TypeAlias = "dict[Hashable, dict[Hashable, np.ndarray]]"
# what |boundaries(s)| counts, and whether P_e^pi pools PBs (True) or averages per-item proportions
_CHANCE: dict[str, tuple[str, bool]] = {
    "paper": ("segments", True),
    "segeval1": ("segments", False),
    "segeval": ("boundaries", False),
}


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

    coders: tuple[Hashable, ...]
    items: tuple[Hashable, ...]
    n: int
    metric: str
    convention: str
    chance_count: str
    pi_star: float = field(init=False)
    kappa_star: float = field(init=False)
    pi: float | None = field(init=False)
    kappa: float | None = field(init=False)
    bias: float = field(init=False)
    actual: float = field(init=False)
    expected_pi: float = field(init=False)
    expected_kappa: float = field(init=False)
    p_boundary: float
    p_boundary_by_coder: dict[Hashable, float] = field(repr=False)
    pairwise: dict[tuple[Hashable, Hashable], float] = field(repr=False)
    penalty: float
    denominator: float
    potential_boundaries: int

    def __post_init__(self) -> None:
        actual = 1.0 - self.penalty / self.denominator
        by_coder = self.p_boundary_by_coder
        expected_pi = self.p_boundary**2
        expected_kappa = float(np.mean([by_coder[a] * by_coder[b] for a, b in combinations(self.coders, 2)]))
        pi_star, kappa_star = _coefficient(actual, expected_pi), _coefficient(actual, expected_kappa)
        two = len(self.coders) == 2
        computed = {
            "pi_star": pi_star,
            "kappa_star": kappa_star,
            "pi": pi_star if two else None,
            "kappa": kappa_star if two else None,
            "bias": expected_pi - expected_kappa,
            "actual": actual,
            "expected_pi": expected_pi,
            "expected_kappa": expected_kappa,
        }
        for name, value in computed.items():
            object.__setattr__(self, name, value)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values (pairs of coders joined by ``" / "``, under ``pairwise_s``)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out.update(coders=list(self.coders), items=list(self.items), p_boundary_by_coder=dict(self.p_boundary_by_coder))
        pairwise = {f"{a} / {b}": s for (a, b), s in self.pairwise.items()}
        return {("pairwise_s" if k == "pairwise" else k): pairwise if k == "pairwise" else v for k, v in out.items()}


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
    pairs_of_coders = list(combinations(coders, 2))
    sides = [[boundary_positions(data[item][c]) for c in pair for item in items] for pair in zip(*pairs_of_coders)]
    offsets = [np.concatenate(([0], np.cumsum([p.size for p in side]))) for side in sides]
    pairs = BoundaryPairs(
        np.array([pbs_item[item] + 1 for _ in pairs_of_coders for item in items]),
        np.concatenate(sides[0]),
        offsets[0],
        np.concatenate(sides[1]),
        offsets[1],
    )
    penalties, denominators = pair_counts(
        pairs, metric=metric, convention=convention, n=n, w_sub=w_sub, w_trp=w_trp, scale=scale_transpositions
    )
    # per pair of coders, its items' sums in item order, then over the pairs in pair order
    penalty_of = [sum(row) for row in penalties.reshape(len(pairs_of_coders), -1).tolist()]
    denominator_of = [sum(row) for row in denominators.reshape(len(pairs_of_coders), -1).tolist()]
    pairwise = {c: 1.0 - p / d if d else 1.0 for c, p, d in zip(pairs_of_coders, penalty_of, denominator_of)}
    penalty_total, denominator_total = float(sum(penalty_of)), float(sum(denominator_of))
    if denominator_total == 0:
        raise InputError("no coder places any boundary: B has nothing to compare (segeval divides 0 by 0)")
    p_all, by_coder = _chance(data, items, coders, pbs_item, count=chance_count, pooled=pooled)
    return Agreement(
        coders=tuple(coders),
        items=items,
        n=n,
        metric=metric,
        convention=convention,
        chance_count=chance_count,
        p_boundary=p_all,
        p_boundary_by_coder=by_coder,
        pairwise=pairwise,
        penalty=penalty_total,
        denominator=denominator_total,
        potential_boundaries=len(pairs_of_coders) * total_pbs,
    )


def agreement_with_system(
    dataset: Dataset, system: Mapping[Hashable, Masses], *, name: str = "system", **options: Any
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
    **options
        The keyword options of :func:`agreement` (``n``, ``weights``, ``scale_transpositions``,
        ``chance_count``, ``metric``, ``convention``), for both agreements.

    Returns
    -------
    SystemAgreement
        ``humans`` and ``with_system`` agreements and the drops of :math:`\\pi^*`, :math:`\\kappa^*` and
        :math:`A_a` when the segmenter is added.
    """
    items = check_system(dataset, system, name)
    humans = agreement(dataset, **options)
    combined = {item: {**dataset[item], name: system[item]} for item in items}
    return SystemAgreement(humans=humans, with_system=agreement(combined, **options), system=name)


# ------------------------------------------------------------------------------------------------
# The checks of the inputs


def check_dataset(dataset: Dataset) -> tuple[tuple[Hashable, ...], tuple[Hashable, ...], Checked]:
    """Check ``{item: {coder: masses}}``: at least one item, the same two or more coders on every item,
    and the same total per item. Returns ``(items, coders, {item: {coder: ndarray}})``."""
    if not isinstance(dataset, Mapping) or not dataset:
        raise InputError("a dataset must be a non-empty mapping {item: {coder: masses}}", value=type(dataset).__name__)
    items = tuple(dataset)
    coders: tuple[Hashable, ...] | None = None
    checked: Checked = {}
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
            raise InputError(f"item {item!r} is not coded by the same coders as item {items[0]!r}", value=missing)
        masses = {c: as_masses(codings[c], name=f"item {item!r}, coder {c!r}") for c in coders}
        totals = {c: int(m.sum()) for c, m in masses.items()}
        if len(set(totals.values())) != 1:
            raise InputError(f"item {item!r}: coders disagree on its number of units", value=totals)
        checked[item] = masses
    return items, coders or (), checked  # coders: set by the first item


def check_agreement_options(metric: str, convention: str, chance_count: str | None) -> tuple[str, bool]:
    """The chance count to use and whether :math:`P_e^\\pi` pools the potential boundaries (else it averages
    the per-item proportions); InputError for options that do not go together."""
    if convention not in AGREEMENT_CONVENTIONS:
        raise InputError(
            f"agreement has no convention {convention!r}; use one of {', '.join(AGREEMENT_CONVENTIONS)}",
            value=convention,
        )
    if metric not in METRICS:
        raise InputError("metric must be 'S' or 'B'", value=metric)
    if metric == "B" and convention != "segeval":
        raise InputError(
            "metric 'B' exists under convention 'segeval' only (B-based agreement is segeval 2.0's; "
            "the 2012 paper and code define agreement on S)",
            value=convention,
        )
    own, pooled = _CHANCE[convention]
    if chance_count is None:
        return own, pooled
    if chance_count not in CHANCE_COUNTS:
        raise InputError("chance_count must be 'segments' or 'boundaries'", value=chance_count)
    if convention != "paper" and chance_count != own:
        raise InputError(
            f"convention {convention!r} counts {own}; chance_count applies to convention 'paper'", value=chance_count
        )
    return chance_count, pooled


def check_system(dataset: Dataset, system: Mapping[Hashable, Masses], name: str) -> tuple[Hashable, ...]:
    """Check a segmenter's ``{item: masses}`` against ``dataset`` (checked too): a mapping that segments
    every item and no other, under a name that is not a coder's. Returns the dataset's items."""
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
    return items
