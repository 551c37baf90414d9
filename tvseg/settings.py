"""The one frozen settings object that feeds the scores, the signature, the JSON and the report.

Every field that changes a number carries a short ``key`` in its metadata; :meth:`Settings.signature`
is generated from the fields, so a new setting cannot be left out of it (sacrebleu's signature once
left out a setting that changes BLEU; tests/test_settings.py checks that no field is missing). The one
field without a key, ``preset``, is a label: the name of the preset (:mod:`tvseg.presets`) that chose
the other fields' values, which hold the effective settings; it changes no number.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tvseg.errors import UsageError
from tvseg.unit.conventions import CONVENTIONS

__all__ = ["Settings", "CONVENTIONS", "check_settings"]

PRESET_NAMES = ("chunkseg", "vidchapters", "segeval", "nltk", "tdt", "chapter-llama", "trecvid")
"""The presets of :mod:`tvseg.presets` (a layer above: it holds their values)."""

MAX_BOOTSTRAP = 100_000
"""Most bootstrap resamples a run may ask for: the resampled scores are held in memory."""


_T = TypeVar("_T")


def _key(default: _T, short: str, doc: str) -> _T:
    return field(default=default, metadata={"key": short, "doc": doc})


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Settings of one evaluation run.

    Attributes
    ----------
    gamma : float
        Bidirectional coverage threshold: a segment is correct when its coverage is strictly
        greater than gamma (Bouchekif et al., section 3.2).
    tolerance : float
        Boundary matching tolerance in seconds, inclusive.
    long_threshold : float
        Segments of at least this many seconds are "long", shorter ones "short".
    title_f1_threshold : float or None
        None: a title is correct on a normalised exact match; a number: on title-word F1 >= it.
    title_stemming : bool
        Title ROUGE-L with the Porter stemmer, as rouge-score's ``use_stemmer=True`` and chunkseg
        (nltk's stems, without nltk: :mod:`tvseg.retrieval.porter`).
    uem : bool
        Whether a UEM cropped the shows (and its edges are the shows' edges).
    units : str
        "none" (no unit metrics), "file" (units read from ``--units``) or "frames".
    frame : float or None
        Frame length in seconds when ``units == "frames"``.
    k : int or None
        Window size of the unit metrics; None is the convention's default.
    convention : str
        One of ``CONVENTIONS``: how Pk and WindowDiff count (see docs of :func:`tvseg.pk`).
    bootstrap : int
        Number of paired bootstrap resamples over shows (0 disables the bootstrap; the default, 1,000, is
        :data:`tvseg.significance.EVALUATE_RESAMPLES`).
    seed : int
        Seed of the bootstrap's random generator.
    confidence : float
        Coverage of the bootstrap confidence intervals.
    level : int or None
        The level of a hierarchical reference the systems are scored at (:mod:`tvseg.readers.levels`):
        the reference is read at it (``read_segments(..., level=N)``; ``tvseg evaluate --level N``). None:
        the reference as it is. In the signature and the JSON settings only when given, so that a run
        without levels keeps its signature.
    preset : str or None
        The preset (:data:`tvseg.presets.PRESETS`) the other fields were taken from, explicit values
        winning: a label shown in the summary and the JSON settings, not in the signature (the fields
        hold the effective values). Build such settings with :func:`tvseg.presets.preset_settings`.
    """

    gamma: float = _key(0.85, "gamma", "coverage threshold")
    tolerance: float = _key(10.0, "tol", "boundary tolerance (s)")
    long_threshold: float = _key(30.0, "long", "short/long split (s)")
    title_f1_threshold: float | None = _key(None, "title", "title match rule")
    title_stemming: bool = _key(False, "stem", "Porter stemming in title ROUGE-L")
    uem: bool = _key(False, "uem", "UEM applied")
    units: str = _key("none", "units", "unit source")
    frame: float | None = _key(None, "frame", "frame length (s)")
    k: int | None = _key(None, "k", "window size")
    convention: str = _key("paper", "conv", "Pk/WindowDiff convention")
    bootstrap: int = _key(1000, "boot", "bootstrap resamples")
    seed: int = _key(0, "seed", "bootstrap seed")
    confidence: float = _key(0.95, "ci", "confidence level")
    level: int | None = _key(None, "level", "reference level (hierarchical reference)")
    preset: str | None = field(default=None, metadata={"key": None, "doc": "preset the values came from (a label)"})

    def __post_init__(self) -> None:
        self._check()

    def _check(self) -> None:
        def finite(name: str, lo: float = -math.inf, hi: float = math.inf, *, low_open: bool = False) -> None:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise UsageError(f"{name} must be a finite number, got {v!r}")
            if v < lo or v > hi or (low_open and v == lo):
                raise UsageError(f"{name} must be in {'(' if low_open else '['}{lo}, {hi}], got {v!r}")

        finite("gamma", 0.0, 1.0)
        finite("tolerance", 0.0)
        finite("long_threshold", 0.0)
        finite("confidence", 0.0, 1.0, low_open=True)
        if self.title_f1_threshold is not None:
            finite("title_f1_threshold", 0.0, 1.0)
        if not isinstance(self.title_stemming, bool):
            raise UsageError(f"title_stemming must be True or False, got {self.title_stemming!r}")
        if self.units not in ("none", "file", "frames"):
            raise UsageError(f"units must be 'none', 'file' or 'frames', got {self.units!r}")
        if self.units == "frames":
            if self.frame is None:
                raise UsageError("units='frames' needs a frame length")
            finite("frame", 0.0, low_open=True)
        if self.k is not None and (isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1):
            raise UsageError(f"k must be a positive integer, got {self.k!r}")
        if self.convention not in CONVENTIONS:
            raise UsageError(f"convention must be one of {', '.join(CONVENTIONS)}, got {self.convention!r}")
        for name in ("bootstrap", "seed"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise UsageError(f"{name} must be a non-negative integer, got {v!r}")
        if self.preset is not None and self.preset not in PRESET_NAMES:
            raise UsageError(f"preset must be one of {', '.join(PRESET_NAMES)}, got {self.preset!r}")
        if self.level is not None and (
            isinstance(self.level, bool) or not isinstance(self.level, int) or self.level < 1
        ):
            raise UsageError(f"level must be a positive integer, got {self.level!r}")
        if self.bootstrap > MAX_BOOTSTRAP:
            raise UsageError(
                f"bootstrap must be at most {MAX_BOOTSTRAP:,} resamples (a 95% interval is stable "
                f"long before), got {self.bootstrap!r}"
            )

    def replace(self, **changes: Any) -> Settings:
        """A copy with some fields changed (validated again)."""
        return Settings(**{**self.as_dict(), **changes})

    def as_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (the JSON ``settings`` object; ``preset`` only when one was used,
        ``level`` only when given)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        for name in _WHEN_GIVEN:
            if out[name] is None:
                del out[name]
        return out

    def signature(self) -> str:
        """One line that encodes every setting that changes a number, and the tvseg version (not the
        preset's name: the fields it set are in the line with their effective values; the reference's
        level only when given).

        Examples
        --------
        >>> Settings().signature()  # doctest: +ELLIPSIS
        'gamma:0.85|tol:10|long:30|title:exact|stem:no|uem:no|units:none|frame:none|k:auto|conv:paper|boot:1000|seed:0|ci:0.95|version:...'
        """
        from tvseg import __version__

        parts = []
        for f in dataclasses.fields(self):
            if f.metadata["key"] is None:  # a label (preset), no number depends on it
                continue
            if f.name in _WHEN_GIVEN and getattr(self, f.name) is None:
                continue
            parts.append(f"{f.metadata['key']}:{_show(f.name, getattr(self, f.name))}")
        parts.append(f"version:{__version__}")
        return "|".join(parts)


_WHEN_GIVEN = ("preset", "level")
"""The fields left out of the JSON settings (and, ``level``, of the signature) when None."""


def _show(name: str, value: object) -> str:
    if name == "title_f1_threshold":
        return "exact" if value is None else f"f1>={value:g}"
    if name == "k" and value is None:
        return "auto"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def check_settings(value: Any) -> None:
    """``value`` is None or a :class:`~tvseg.settings.Settings` (a dict is refused, saying how to make one
    of it: one kind of settings object, checked once, is what the signature and the JSON describe)."""
    if value is not None and not isinstance(value, Settings):
        from tvseg.arguments import refused  # here: it imports numpy, which --help never imports

        hint = " (for a dict of options, give tvseg.Settings(**options))" if isinstance(value, Mapping) else ""
        raise refused("settings", f"a tvseg.Settings or None{hint}", value, option=True)
