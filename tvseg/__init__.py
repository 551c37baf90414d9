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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the public names' types, for type checkers and editors (imported lazily below)
    from tvseg.annotators import evaluate_annotators
    from tvseg.errors import (
        ApproximationWarning,
        FewShowsWarning,
        InputError,
        LenientInputWarning,
        MissingExtraError,
        OutputChangedWarning,
        SuspiciousInputWarning,
        TvsegError,
        TvsegWarning,
        UndefinedValueWarning,
        UsageError,
    )
    from tvseg.evaluation import evaluate
    from tvseg.merging import merge
    from tvseg.readers import read_metadata, read_segments, read_uem, read_units
    from tvseg.retrieval.boundaries import boundaries
    from tvseg.retrieval.show_coverage import coverage
    from tvseg.settings import Settings
    from tvseg.unit.agreement import agreement
    from tvseg.unit.ghd import ghd
    from tvseg.unit.similarity import boundary_edit_distance, boundary_similarity, segmentation_similarity
    from tvseg.unit.windows import cseg, pk, windowdiff, winpr
    from tvseg.writers import write_segments

__version__ = "0.2.0"

_PUBLIC = {
    # readers and writers
    "read_segments": "tvseg.readers",
    "read_units": "tvseg.readers",
    "read_uem": "tvseg.readers",
    "read_metadata": "tvseg.readers",
    "write_segments": "tvseg.writers",
    # segment retrieval (time domain)
    "coverage": "tvseg.retrieval.show_coverage",
    "boundaries": "tvseg.retrieval.boundaries",
    "evaluate": "tvseg.evaluation",
    "evaluate_annotators": "tvseg.annotators",
    "merge": "tvseg.merging",
    # unit domain
    "pk": "tvseg.unit.windows",
    "windowdiff": "tvseg.unit.windows",
    "winpr": "tvseg.unit.windows",
    "segmentation_similarity": "tvseg.unit.similarity",
    "boundary_similarity": "tvseg.unit.similarity",
    "boundary_edit_distance": "tvseg.unit.similarity",
    "agreement": "tvseg.unit.agreement",
    "cseg": "tvseg.unit.windows",
    "ghd": "tvseg.unit.ghd",
    # settings, errors and warnings
    "Settings": "tvseg.settings",
    "TvsegError": "tvseg.errors",
    "InputError": "tvseg.errors",
    "UsageError": "tvseg.errors",
    "MissingExtraError": "tvseg.errors",
    "TvsegWarning": "tvseg.errors",
    "LenientInputWarning": "tvseg.errors",
    "SuspiciousInputWarning": "tvseg.errors",
    "UndefinedValueWarning": "tvseg.errors",
    "FewShowsWarning": "tvseg.errors",
    "ApproximationWarning": "tvseg.errors",
    "OutputChangedWarning": "tvseg.errors",
}

__all__ = sorted(_PUBLIC) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'tvseg' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
