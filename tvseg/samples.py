"""The demo corpus shipped inside the package (``tvseg/data_samples/``: 7 shows of 3 channels).

``tvseg evaluate --demo`` scores its two example systems; :func:`demo_folder` gives its place, wherever
tvseg is installed (a wheel carries it as package data), so that the README's examples run anywhere::

    >>> import tvseg
    >>> from tvseg.samples import demo_folder
    >>> reference = tvseg.read_segments(demo_folder() / "reference" / "chapters")
    >>> len(reference)
    7
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["demo_folder"]


def demo_folder() -> Path:
    """The folder of the demo corpus (``reference/``, ``hypotheses/``, ``units/``, ``corpus.uem``,
    ``metadata.csv``, and ``agreement/coders.json`` for ``tvseg agreement``; described in its ``README.md``)."""
    return Path(__file__).resolve().parent / "data_samples"
