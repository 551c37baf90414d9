r"""Titles of correctly retrieved segments (Bouchekif et al., section 4; Jin & Hauptmann 2001).

Topic titling is judged only on segments that segmentation retrieved correctly: for each correctly
retrieved reference segment, its title is compared with the title of its matched hypothesis segment.

**Normalisation** (:func:`normalize_title`): Unicode NFKC, case folding, underscores read as spaces
(RTTM stores a title's spaces as ``_``), punctuation (Unicode categories ``P*``) replaced by a
space, whitespace collapsed and stripped. ``"Élections_municipales : le 2nd tour"`` and
``"élections municipales, le 2nd tour"`` are the same title.

**Exact match**: the normalised titles are equal.

**Title-word F1** (:func:`title_f1`, Jin & Hauptmann 2001's measure for broadcast-news titles):
the normalised titles as bags (multisets) of words; with :math:`c` the number of words they share
(counted with multiplicity),

.. math:: P = c / |hyp|, \quad R = c / |ref|, \quad F_1 = 2PR / (P + R)

No stop word is removed (none by default: a stop-word list is language-specific and would change
the numbers silently). Two titles that normalise to the same string (even empty) have F1 = 1; F1 is
0 when they share no word.

A label equal to :data:`tvseg.readers.NO_LABEL` (``"<NA>"``), None, or only white space means "no
title". A reference segment without a title cannot be judged: it is left out of title accuracy and
title F1 and counted on its own (``n_untitled_reference``, :mod:`tvseg.retrieval.corpus`).

**Threshold.** With ``f1_threshold``, a title is correct when :math:`F_1 \ge` the threshold, decided
exactly: :math:`2c \cdot q \ge p\,(|ref| + |hyp|)` for a threshold written :math:`p/q`.

References
----------
R. Jin, A. G. Hauptmann. Automatic title generation for spoken broadcast news. HLT 2001.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from fractions import Fraction
from functools import lru_cache

import numpy as np

__all__ = ["NO_TITLE", "has_title", "normalize_title", "title_f1", "title_match", "compare_titles"]

NO_TITLE = "<NA>"  # equal to tvseg.readers.NO_LABEL (not imported: retrieval must not need the readers)
_SPACES = re.compile(r"\s+")


def has_title(label) -> bool:
    """Whether a segment label is a title (a string, not ``"<NA>"``, not only white space)."""
    return isinstance(label, str) and label != NO_TITLE and not label.isspace() and label != ""


@lru_cache(maxsize=65536)
def normalize_title(title: str) -> str:
    """NFKC, casefold, ``_`` as space, punctuation as space, whitespace collapsed (module docstring).

    >>> normalize_title("Élections_municipales : le 2ᵉ tour !")
    'élections municipales le 2e tour'
    """
    text = unicodedata.normalize("NFKC", title).casefold().replace("_", " ")
    text = "".join(" " if unicodedata.category(ch).startswith("P") else ch for ch in text)
    return _SPACES.sub(" ", text).strip()


def title_f1(reference: str, hypothesis: str) -> float:
    r"""Title-word F1 of two titles (bags of normalised words; see the module docstring).

    .. math:: F_1 = \frac{2 c}{|ref| + |hyp|}

    (equal to :math:`2PR/(P+R)` with :math:`P = c/|hyp|`, :math:`R = c/|ref|`).

    >>> title_f1("Le Tour de France", "tour de France 2015")
    0.75
    """
    twice_shared, words = _f1_parts(reference, hypothesis)
    return twice_shared / words


def _f1_parts(reference: str, hypothesis: str) -> tuple[int, int]:
    """``(2c, |ref| + |hyp|)`` of :func:`title_f1` (``(1, 1)`` for equal normalised titles)."""
    a, b = normalize_title(reference), normalize_title(hypothesis)
    if a == b:
        return 1, 1
    wa, wb = Counter(a.split()), Counter(b.split())
    return 2 * sum((wa & wb).values()), sum(wa.values()) + sum(wb.values())


def title_match(reference: str, hypothesis: str, *, f1_threshold: float | None = None) -> bool:
    """Whether a hypothesis title is correct: exact normalised match, or ``title_f1 >= f1_threshold``."""
    if f1_threshold is None:
        return normalize_title(reference) == normalize_title(hypothesis)
    twice_shared, words = _f1_parts(reference, hypothesis)
    threshold = Fraction(repr(float(f1_threshold)))
    return twice_shared * threshold.denominator >= threshold.numerator * words


def compare_titles(reference_labels, hypothesis_labels, *, f1_threshold: float | None = None):
    """``(correct, f1)`` arrays for pairs of labels; a pair where either side has no title is
    incorrect with F1 0."""
    n = len(reference_labels)
    correct = np.zeros(n, dtype=bool)
    f1 = np.zeros(n)
    for k, (a, b) in enumerate(zip(reference_labels, hypothesis_labels)):
        if has_title(a) and has_title(b):
            f1[k] = title_f1(a, b)
            correct[k] = title_match(a, b, f1_threshold=f1_threshold)
    return correct, f1
