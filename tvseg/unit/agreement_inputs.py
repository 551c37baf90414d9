"""The checks of :func:`tvseg.unit.agreement.agreement`'s inputs: the dataset, the system, the options.

A dataset is ``{item: {coder: masses}}`` (segeval's layout): :func:`check_dataset` requires at least
one item, the same two or more coders on every item and the same number of units per item;
:func:`check_system` checks a segmenter's ``{item: masses}`` against it
(:func:`tvseg.unit.agreement.agreement_with_system`); :func:`check_agreement_options` the metric,
the convention and the chance count (module docstring of :mod:`tvseg.unit.agreement`). Each raises
:class:`tvseg.errors.InputError`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeAlias

import numpy as np

from tvseg.errors import InputError
from tvseg.unit.masses import Masses, as_masses

__all__ = [
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
