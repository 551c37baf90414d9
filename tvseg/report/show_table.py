"""The corpus page's table of shows, as the data its script draws (``templates/shows.js``).

A corpus of 20,000 shows cannot be one HTML row per show (a page of tens of megabytes and a million
elements). The page instead carries one JSON block: the show ids and their page names, each metadata
column coded against its distinct values, and per system and column every show's value as the page
shows it (a percentage with one decimal). The script filters (metadata, id), sorts (worst first),
adds each system's distance to the best system on the show, and draws one page of rows at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from tvseg import metrics
from tvseg.output import distinct_floats
from tvseg.report.model import defined
from tvseg.report.rows import pct
from tvseg.report.svg import script_json

__all__ = ["show_table_json"]


def _shown(values: Sequence | np.ndarray) -> list:
    """Fractions as the page shows them: percentages rounded to one decimal (:func:`tvseg.report.rows.pct`),
    None kept (NaN in a float array). A float array's distinct values are rounded once, and the shows that
    share a value share its object: 200,000 shows hold a few thousand distinct percentages."""
    found = distinct_floats(values) if isinstance(values, np.ndarray) and values.dtype.kind == "f" else None
    if found is not None:
        distinct, where = found
        return np.array([float(pct(v)) if defined(v) else None for v in distinct.tolist()], dtype=object)[
            where
        ].tolist()
    return [float(pct(v)) if defined(v) else None for v in values]


def _coded(texts: list[str]) -> tuple[list[str], list[int]]:
    """The distinct non-empty texts (sorted) and each text's index among them (-1: none)."""
    values = sorted({t for t in texts if t != ""})
    index = {v: i for i, v in enumerate(values)}
    return values, [index.get(t, -1) for t in texts]


def show_table_json(
    show_ids: Sequence[str],
    files: Sequence[str],
    metadata: Sequence[Mapping[str, object]],
    metadata_keys: Sequence[str],
    systems: Sequence[str],
    columns: Sequence[tuple[str, str]],
    values: Sequence[Sequence[Sequence]],
    no_output: Sequence[np.ndarray] | None = None,
) -> str:
    """The JSON block of the shows table.

    Parameters
    ----------
    show_ids, files : sequences of str
        Each show's id and the name of its page (``shows/<file>.html``).
    metadata : sequence of mappings
        Each show's metadata (key -> value); ``metadata_keys`` are the columns shown.
    systems : sequence of str
        The systems' names, in the order of ``values``.
    columns : sequence of (key, label)
        The score columns, each a fraction shown as a percentage.
    values : nested sequence
        ``values[s][j][k]``: system ``s``'s value of column ``j`` on show ``k`` (None: not available).
    no_output : sequence of bool arrays, optional
        Per system, true for the shows it gave no output for (scored as empty).

    Returns
    -------
    str
        JSON (:func:`tvseg.report.svg.script_json`) of ``ids``, ``files``, ``meta`` (``keys``, per key its distinct
        ``values`` and each show's ``codes``), ``systems``, ``columns`` (key, plain label and
        ``lower``, true for an error rate where lower is better), ``values`` and ``no_output`` (per system, the indices of its shows without output).
    """
    meta_values, meta_codes = [], []
    for key in metadata_keys:
        texts = ["" if m.get(key) is None else str(m.get(key)) for m in metadata]
        distinct, codes = _coded(texts)
        meta_values.append(distinct)
        meta_codes.append(codes)
    data = {
        "ids": [str(s) for s in show_ids],
        "files": list(files),
        "meta": {"keys": [str(k) for k in metadata_keys], "values": meta_values, "codes": meta_codes},
        "systems": [str(s) for s in systems],
        "columns": [
            {"key": key, "label": metrics.METRICS[key].label, "lower": metrics.METRICS[key].higher_is_better is False}
            for key, _ in columns
        ],
        "values": [[_shown(column) for column in system] for system in values],
        "no_output": [np.flatnonzero(mask).tolist() for mask in no_output]
        if no_output is not None
        else [[] for _ in systems],
    }
    return script_json(data)
