"""pyannote.core's objects recognised without importing pyannote.core.

pyannote.core stays the public interface for segmentations, but importing it costs about 0.4 s on a
machine with matplotlib (its notebook display imports ``matplotlib.pyplot``), more than the rest of
tvseg. The corpus path from files never builds a pyannote object, so no module imports pyannote.core
at its top: the modules that build an Annotation, a Timeline or a Segment import it where they build
one, and a user's object is recognised here. An object cannot be an Annotation unless pyannote.core
has been imported, so looking the class up in ``sys.modules`` is exact.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TypeGuard

if TYPE_CHECKING:
    from pyannote.core import Annotation, Segment, Timeline

__all__ = ["SEGMENT_PRECISION", "is_annotation", "is_timeline", "is_segment", "is_empty"]

SEGMENT_PRECISION = 1e-6
"""pyannote.core's emptiness threshold (``pyannote.core.segment.SEGMENT_PRECISION``): a segment no
longer than this many seconds is empty (``Segment.__bool__``)."""


def _is(obj: object, name: str) -> bool:
    core = sys.modules.get("pyannote.core")
    cls = getattr(core, name, None)
    return cls is not None and isinstance(obj, cls)


def is_annotation(obj: object) -> TypeGuard[Annotation]:
    """True when ``obj`` is a ``pyannote.core.Annotation``."""
    return _is(obj, "Annotation")


def is_timeline(obj: object) -> TypeGuard[Timeline]:
    """True when ``obj`` is a ``pyannote.core.Timeline``."""
    return _is(obj, "Timeline")


def is_segment(obj: object) -> TypeGuard[Segment]:
    """True when ``obj`` is a ``pyannote.core.Segment``."""
    return _is(obj, "Segment")


def is_empty(start: float, end: float) -> bool:
    """True when the segment ``[start, end]`` is empty as pyannote.core has it:
    :math:`\\mathrm{end} - \\mathrm{start} \\le` :data:`SEGMENT_PRECISION` (``not Segment(start, end)``)."""
    return not ((end - start) > SEGMENT_PRECISION)
