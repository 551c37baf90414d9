"""tvseg: evaluate topic segmentation of TV broadcast news and of transcripts.

Time domain (pyannote.core Annotations per show): :func:`read_segments`, :func:`read_units`,
:func:`coverage` (CovN/CovD, Bouchekif et al.), :func:`boundaries` (boundary P/R/F with a tolerance).

Unit domain (masses, segeval's convention): :func:`pk`, :func:`windowdiff`, :func:`winpr`,
:func:`segmentation_similarity`, :func:`boundary_similarity`, :func:`boundary_edit_distance`,
:func:`agreement`.

The public names are resolved lazily (PEP 562), so ``import tvseg`` stays fast and a command that
needs only the readers does not import the metrics.
"""
from __future__ import annotations

import importlib

__version__ = "0.1.0"

_PUBLIC = {
    # readers and writers
    "read_segments": "tvseg.readers",
    "read_units": "tvseg.readers",
    "read_uem": "tvseg.readers",
    "read_metadata": "tvseg.readers",
    "write_segments": "tvseg.writers",
    # segment retrieval (time domain)
    "coverage": "tvseg.retrieval.coverage",
    "boundaries": "tvseg.retrieval.boundaries",
    "evaluate": "tvseg.evaluation",
    # unit domain
    "pk": "tvseg.unit.windows",
    "windowdiff": "tvseg.unit.windows",
    "winpr": "tvseg.unit.winpr",
    "segmentation_similarity": "tvseg.unit.similarity",
    "boundary_similarity": "tvseg.unit.similarity",
    "boundary_edit_distance": "tvseg.unit.similarity",
    "agreement": "tvseg.unit.agreement",
    "cseg": "tvseg.unit.cseg",
    "ghd": "tvseg.unit.ghd",
    # settings and errors
    "Settings": "tvseg.settings",
    "TvsegError": "tvseg.errors",
    "InputError": "tvseg.errors",
    "UsageError": "tvseg.errors",
    "TvsegWarning": "tvseg.errors",
}

__all__ = sorted(_PUBLIC) + ["__version__"]


def __getattr__(name: str):
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'tvseg' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
