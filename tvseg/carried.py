"""What a result is made of, carried in its JSON (issue 40): the key ``"components"``.

:func:`tvseg.evaluation.reduce_shards` makes every value of a result (pooled, macro, by length, groups,
sweeps, curves, bootstrap intervals, p-values) from each system's shards of shows joined: per show its
additive components and its unit counts, per segment what the sweeps need, per hypothesis boundary what
the curves need. :func:`carried_json` writes these, exactly, so that :mod:`tvseg.merging` rebuilds the
result of several runs over their shows together and :mod:`tvseg.comparison` tests pooled values;
:func:`read_carried` reads them back, checked.

The object (``format`` 1)::

    {"format": 1, "domain": "time", "sweep_tolerances": [0.0, ...], "shows": [...],
     "metadata": null or {column: [value per show, null where none]},
     "systems": {name: {
        "traits": [trait...], "titles": bool, "titled": [reference has a title, hypothesis has one] or null,
        "has_output": [bool per show],
        "columns": {component: {"dtype": "float64", "values": [per show]}},
        "tallies": {"reference_key": {...}, "reference_duration": {...}, "hypothesis_key": {...},
                    "hypothesis_duration": {...}, "matched": {...}},
        "units": null or {"scored": [show index], "columns": {count: {...}}, "left_out": [[show, message]]},
        "confidence": null or {"score": {...}, "accepted": {...}, "n_reference": int,
                               "probes": null or {"separated": {...}, "top": {...}, "count": {...}}}}}}

Every array is a list of exact values with its numpy dtype: integers as integers, floats as the shortest
text that reads back as the same float, the floats JSON has no literal for as ``"NaN"``,
``"Infinity"``, ``"-Infinity"`` (:class:`tvseg.output.Array`). The segments (``tallies``) are in show
order, each show's ``n_reference`` (``n_hypothesis``) of them; the hypothesis boundaries (``score``,
``accepted``) each show's ``boundary_n_hypothesis``; C_seg's probes, whose curve does not depend on their
order, as their distinct ``(separated, top)`` pairs with how many probes each stands for. The metadata
holds the text columns (those that make groups) of the shows scored. ``traits`` are the system's
(:attr:`tvseg.evaluation.SystemResult.traits`): without ``"disjoint"`` its segments overlap
(dense-captioning predictions), it has no sweep tally, unit count nor boundary score, and its components
are those of the metrics that hold for any intervals (with titles, of grounding and captioning too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from tvseg.errors import InputError
from tvseg.metrics import TRAITS
from tvseg.output import Array
from tvseg.retrieval.confidence import ShardConfidence
from tvseg.retrieval.reductions import text_columns
from tvseg.retrieval.sweeps import SweepTallies
from tvseg.unit.reduction import UnitPart

__all__ = ["FORMAT", "CarriedSystem", "Carried", "carried_json", "read_carried", "text_columns"]

FORMAT = 1
_TALLIES = ("reference_key", "reference_duration", "hypothesis_key", "hypothesis_duration", "matched")
_LEFT_OUT = -1  # a unit warning's order when it names a show left out (tvseg.unit.reduction.UnitPart)


@dataclass(frozen=True, eq=False)
class CarriedSystem:
    """One system's shards joined, as a result's JSON carries them (:class:`tvseg.evaluation.SystemShard`'s
    fields: ``components`` indexed by show)."""

    components: pd.DataFrame
    titles: bool
    titled: tuple[bool, bool] | None
    has_output: np.ndarray
    tallies: SweepTallies
    units: UnitPart | None
    confidence: ShardConfidence | None
    traits: frozenset[str]


@dataclass(frozen=True, eq=False)
class Carried:
    """What one result's JSON carries: its settings, its shows in order and each system's components."""

    path: str
    version: str
    signature: str
    settings: dict
    domain: str
    sweep_tolerances: np.ndarray
    shows: list[str]
    metadata: pd.DataFrame | None
    systems: dict[str, CarriedSystem]


def _array(values, stream: bool):
    array = Array(values)
    return array if stream else array.values()


def _typed(values, stream: bool) -> dict:
    values = np.asarray(values)
    return {"dtype": values.dtype.name, "values": _array(values, stream)}


def _probe_pairs(probes) -> dict | None:
    """C_seg's probes as their distinct ``(separated, top)`` pairs, each with its number of probes."""
    if probes is None:
        return None
    separated, top, count = (np.asarray(x) for x in probes)
    order = np.lexsort((top, separated))
    separated, top, count = separated[order], top[order], count[order].astype(np.int64)
    new = np.ones(len(top), dtype=bool)
    new[1:] = (separated[1:] != separated[:-1]) | ~((top[1:] == top[:-1]) | (np.isnan(top[1:]) & np.isnan(top[:-1])))
    starts = np.flatnonzero(new)
    return {
        "separated": separated[starts],
        "top": top[starts],
        "count": np.add.reduceat(count, starts) if len(starts) else count[:0],
    }


def shard_json(shard: Any, *, stream: bool = False) -> dict:
    """The arrays of a system's object in ``"components"`` (those of its joined shard, a
    :class:`tvseg.evaluation.SystemShard`): ``has_output``, ``columns``, ``tallies``, ``units`` and
    ``confidence``."""
    components = shard.scores.components
    units = None
    if shard.units is not None:
        part = shard.units
        units = {
            "scored": _array(np.asarray(part.scored, dtype=np.int64), stream),
            "columns": {str(k): _typed(v, stream) for k, v in part.components.items()},
            "left_out": [[int(show), str(message)] for show, order, message in part.events if order == _LEFT_OUT],
        }
    confidence = None
    if shard.confidence is not None:
        c = shard.confidence
        pairs = _probe_pairs(c.probes)
        confidence = {
            "score": _typed(c.score, stream),
            "accepted": _typed(c.accepted, stream),
            "n_reference": int(c.n_reference),
            "probes": None if pairs is None else {k: _typed(v, stream) for k, v in pairs.items()},
        }
    return {
        "has_output": _array(np.asarray(shard.has_output, dtype=bool), stream),
        "columns": {str(c): _typed(components[c].to_numpy(), stream) for c in components.columns},
        "tallies": {k: _typed(getattr(shard.tallies, k), stream) for k in _TALLIES},
        "units": units,
        "confidence": confidence,
    }


def arrays_of(data) -> list[Array]:
    """The :class:`~tvseg.output.Array` objects in ``data`` (nested dicts, as :func:`shard_json` makes
    them with ``stream``), in order."""
    if isinstance(data, Array):
        return [data]
    if isinstance(data, dict):
        return [array for value in data.values() for array in arrays_of(value)]
    return []


def carried_json(result: Any, *, stream: bool = False) -> dict | None:
    """The ``"components"`` object of ``result`` (an :class:`tvseg.evaluation.EvaluationResult`); None
    when a system does not carry its shards. Streamed, a system's arrays take the text its
    ``carried_text`` holds when given (encoded elsewhere, :func:`tvseg.output.encoded_blocks`)."""
    systems = {}
    for name, sr in result.systems.items():
        shard = sr.carried
        if shard is None:
            return None
        arrays = shard_json(shard, stream=stream)
        if stream and sr.carried_text is not None:
            for array, text in zip(arrays_of(arrays), sr.carried_text, strict=True):
                array.encoded = text
        systems[str(name)] = {
            "traits": sorted(sr.traits),
            "titles": bool(shard.scores.titles),
            "titled": None if shard.titled is None else [bool(t) for t in shard.titled],
            **arrays,
        }
    metadata = None
    if result.metadata is not None:
        metadata = {}
        for column in text_columns(result.metadata):
            values = result.metadata[column].reindex(pd.Index(result.shows)).astype(object)
            cells = [None if pd.isna(v) else str(v) for v in values.tolist()]
            metadata[str(column)] = _array(np.asarray(cells, dtype=object), stream)
    return {
        "format": FORMAT,
        "domain": result.domain,
        "sweep_tolerances": [float(t) for t in result.sweep_tolerances],
        "shows": _array(np.asarray(result.shows, dtype=object), stream),
        "metadata": metadata,
        "systems": systems,
    }


def _values(data: Any, dtype: str | None = None) -> np.ndarray:
    """An array written by :func:`_typed` (or a bare list, of ``dtype``)."""
    if dtype is None:
        dtype, data = data["dtype"], data["values"]
    if not isinstance(data, list):
        raise TypeError("not a list")
    kind = np.dtype(dtype).kind
    if kind == "f" and any(isinstance(v, str) for v in data):
        data = [float(v) if isinstance(v, str) and v in ("NaN", "Infinity", "-Infinity") else v for v in data]
    if kind in "iufb" and any(isinstance(v, str) or v is None for v in data):
        raise ValueError("a value that is not a number")
    return np.asarray(data, dtype=dtype) if kind != "O" else np.asarray(data + [None], dtype=object)[:-1]


def read_carried(document: Mapping[str, Any], path: str) -> Carried:
    """The components a result's JSON carries (``path``: its file, for the messages).

    Raises
    ------
    InputError
        No ``"components"`` object (a result written before tvseg carried them), or one that is not as
        :func:`carried_json` writes it; naming ``path``.
    """
    if not isinstance(document, Mapping) or not isinstance(document.get("systems"), Mapping):
        raise InputError("not a result of tvseg evaluate --json (no 'systems' object)", path=path)
    version = str(document.get("tvseg_version", "unknown"))
    data = document.get("components")
    if not isinstance(data, Mapping):
        raise InputError(
            f"carries no components (written by tvseg {version}): run tvseg evaluate --json again with this version",
            path=path,
        )
    if data.get("format") != FORMAT:
        raise InputError(f"components of format {data.get('format')!r}; this tvseg reads format {FORMAT}", path=path)
    try:
        shows = [str(s) for s in _values(data["shows"], "object").tolist()]
        index = pd.Index(shows, dtype=object)
        systems = {}
        for name, s in data["systems"].items():
            units = None
            if s["units"] is not None:
                u = s["units"]
                events = [(int(show), _LEFT_OUT, str(message)) for show, message in u["left_out"]]
                comps = {k: _values(v) for k, v in u["columns"].items()}
                units = UnitPart(pd.DataFrame(), comps, _values(u["scored"], "int64"), events)
            confidence = None
            if s["confidence"] is not None:
                c = s["confidence"]
                probes = c["probes"]
                confidence = ShardConfidence(
                    _values(c["score"]),
                    _values(c["accepted"]),
                    int(c["n_reference"]),
                    None if probes is None else tuple(_values(probes[k]) for k in ("separated", "top", "count")),  # type: ignore[arg-type]
                )
            columns = {str(k): _values(v) for k, v in s["columns"].items()}
            if any(len(v) != len(shows) for v in columns.values()):
                raise ValueError(f"system {name!r}: a column whose length is not the number of shows")
            titled = s["titled"]
            traits = s["traits"]
            if not isinstance(traits, list) or not set(traits) <= set(TRAITS):
                raise ValueError(f"system {name!r}: traits {traits!r}, not a list of {', '.join(TRAITS)}")
            systems[str(name)] = CarriedSystem(
                components=pd.DataFrame(columns, index=index),
                titles=bool(s["titles"]),
                titled=None if titled is None else (bool(titled[0]), bool(titled[1])),
                has_output=_values(s["has_output"], "bool"),
                tallies=SweepTallies(*(_values(s["tallies"][k]) for k in _TALLIES)),
                units=units,
                confidence=confidence,
                traits=frozenset(traits),
            )
        metadata = None
        if data["metadata"] is not None:
            metadata = pd.DataFrame({k: _values(v, "object") for k, v in data["metadata"].items()}, index=index)
        tolerances = np.asarray([float(t) for t in data["sweep_tolerances"]], dtype=float)
        settings = document["settings"]
        if not isinstance(settings, Mapping):
            raise TypeError("'settings' is not an object")
        return Carried(
            path=path,
            version=version,
            signature=str(document.get("signature")),
            settings=dict(settings),
            domain=str(data["domain"]),
            sweep_tolerances=tolerances,
            shows=shows,
            metadata=metadata,
            systems=systems,
        )
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        what = f"'{error.args[0]}' missing" if isinstance(error, KeyError) else str(error)
        raise InputError(f"its components are not as tvseg writes them ({what})", path=path) from None
