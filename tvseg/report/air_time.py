"""Air time: a show's times on the clock when its reference has a time origin (``--time-origin``, a
metadata ``time_origin`` column; :mod:`tvseg.readers.time_origin`).

The origins go into the result's metadata as the number column ``time_origin`` (seconds; a number column
is not a group), from which a show page writes the show's air time beside its relative times, and into
the JSON as ``time_origins``.
"""

from __future__ import annotations

import dataclasses

import pandas as pd

from tvseg.readers.time_origin import TimeOrigins, clock_text

__all__ = ["with_time_origins", "origins_json", "air_time"]


def with_time_origins(result, origins: TimeOrigins):
    """``result`` with its metadata holding each show's reference origin (column ``time_origin``)."""
    by_show = origins.by_show("reference", result.shows)
    metadata = result.metadata.copy() if result.metadata is not None else pd.DataFrame(index=pd.Index([], name="show"))
    metadata = metadata.reindex(metadata.index.union(pd.Index(list(result.shows))))
    metadata["time_origin"] = [by_show.get(str(show), 0.0) for show in metadata.index]
    return dataclasses.replace(result, metadata=metadata)


def origins_json(origins: TimeOrigins, shows, *, systems, units: bool, uem: bool) -> dict:
    """``{"reference": {show: seconds}, "hypotheses": {system: {...}}, "units": {...}, "uem": {...}}``: each
    side's non-zero origins of ``shows`` (units and UEM when read)."""
    shows = list(shows)
    out: dict = {"reference": origins.by_show("reference", shows)}
    out["hypotheses"] = {name: origins.by_show(name, shows) for name in systems}
    if units:
        out["units"] = origins.by_show("units", shows)
    if uem:
        out["uem"] = origins.by_show("uem", shows)
    return out


def air_time(metadata: dict, start: float, end: float) -> dict:
    """A show page's metadata with ``time_origin`` (seconds, as text) replaced by the show's air time
    (``air time: 20:00:00–20:30:00``) when it is not 0."""
    if "time_origin" not in metadata:
        return metadata
    out = dict(metadata)
    origin = float(out.pop("time_origin"))
    if origin:
        out["air time"] = f"{clock_text(origin + start)}\u2013{clock_text(origin + end)}"
    return out
