"""The per-show loop that computed the unit-domain metrics before ``tvseg.unit.corpus`` (issue 13):
the reference implementation the corpus-wide computation is checked against (``test_unit_corpus.py``,
``benchmarks/bench_unit_corpus.py``). One :func:`tvseg.unit.scores.unit_components` per show on its
Annotations and unit table, summed."""

import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd
from pyannote.core import Annotation, Segment

from tvseg.errors import TvsegWarning
from tvseg.retrieval.boundaries import regions
from tvseg.unit.projection import frames
from tvseg.unit.scores import unit_components, unit_metrics


def _unit_scores(name, shows, ref_anns, hyp_anns, units, settings, uem_start, uem_end, ref, hyp):
    """Unit-domain metrics through ``tvseg.unit.scores`` (None when not asked for)."""
    if units is None and settings.units != "frames":
        return None
    if settings.units == "frames":
        e_start, e_end = regions(ref, uem_start, uem_end)
    rows, total = {}, None
    chunkseg = settings.convention == "chunkseg"
    for k, show in enumerate(shows):
        if settings.units == "frames":
            if np.isnan(e_start[k]):
                continue
            region = Segment(float(e_start[k]), float(e_end[k]))
            # chunkseg's grid is not tvseg's frames (tvseg.unit.projection.chunk_masses)
            table = None if chunkseg else frames(region, settings.frame)
        else:
            table = units.get(show)
            if table is None:
                warnings.warn(
                    f"{name}: no units for show {show}: its unit metrics are left out", TvsegWarning, stacklevel=3
                )
                continue
        comp = unit_components(
            ref_anns[k] if ref_anns[k] is not None else Annotation(),
            hyp_anns[k] if hyp_anns[k] is not None else Annotation(),
            units=table,
            settings=settings,
            region=region if chunkseg else None,
        )
        if comp is None:
            warnings.warn(
                f"{name}: show {show} is shorter than one chunk of {settings.frame:g} s: its unit "
                "metrics are left out (chunkseg scores no such show)",
                TvsegWarning,
                stacklevel=3,
            )
            continue
        rows[show] = dict(unit_metrics(comp))
        total = comp if total is None else _add(total, comp)
    per_show = pd.DataFrame.from_dict(rows, orient="index").reindex(shows)
    corpus = dict(unit_metrics(total)) if total is not None else {}
    return per_show, corpus


def _add(a, b):
    if isinstance(a, Mapping):
        return {k: _add(a[k], b[k]) for k in a}
    return a + b
