r"""Each story's error named: every reference story and hypothesis segment classified from the coverage matching.

A segment that is correctly retrieved (:func:`tvseg.retrieval.coverage.correct`, coverage above gamma)
is **correct**. The others are classified from the best partners of :func:`tvseg.retrieval.coverage.match`
(each segment's partner is the segment of the other side it overlaps most). A segment lies **mostly
inside** its partner when their overlap is at least half its own (evaluated) duration, decided exactly
in integer microseconds: :math:`2\,|A \cap B| \ge d(A)`. Only a segment's partner is considered, so a
segment lies mostly inside at most one segment of the other side.

A reference story that is not correct is, in this order:

- **split** when at least two hypothesis segments lie mostly inside it;
- **merged** when it lies mostly inside its partner and at least one other reference story does too
  (its partner holds two stories or more);
- **shifted** when it and its partner are each other's partner (one to one, boundaries off);
- **missed** otherwise (its partner, if any, belongs to another story).

A hypothesis segment that is not correct is, in this order:

- **merging** when at least two reference stories lie mostly inside it;
- **split part** when it lies mostly inside a reference story classified as split;
- **shifted** when it and its partner are each other's partner;
- **false alarm** otherwise.

The classes of each side are mutually exclusive and cover every segment, so per show
``n_correct_reference + n_reference_split + n_reference_merged + n_reference_shifted +
n_reference_missed == n_reference`` and ``n_correct_hypothesis + n_hypothesis_merging +
n_hypothesis_split_part + n_hypothesis_shifted + n_false_alarm == n_hypothesis``. A reference story
and its partner are shifted together: a mutual pair has one coverage, so both are correct or neither.

Cost: a few ``numpy.bincount`` over the segments of all shows at once (linear).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tvseg.columns import Segments
from tvseg.retrieval.coverage import Matching, correct

__all__ = [
    "REFERENCE_CLASSES",
    "HYPOTHESIS_CLASSES",
    "REFERENCE_COMPONENTS",
    "HYPOTHESIS_COMPONENTS",
    "classify",
    "class_names",
    "story_counts",
    "match_table",
]

CORRECT, SPLIT, MERGED, SHIFTED, MISSED = 0, 1, 2, 3, 4
MERGING, SPLIT_PART, FALSE_ALARM = 1, 2, 4  # a hypothesis segment's SHIFTED is 3, as a reference story's

REFERENCE_CLASSES = ("correct", "split", "merged", "shifted", "missed")
"""A reference story's class names, indexed by its class code."""
HYPOTHESIS_CLASSES = ("correct", "merging", "split part", "shifted", "false alarm")
"""A hypothesis segment's class names, indexed by its class code."""

REFERENCE_COMPONENTS = (
    (SPLIT, "n_reference_split"),
    (MERGED, "n_reference_merged"),
    (SHIFTED, "n_reference_shifted"),
    (MISSED, "n_reference_missed"),
)
"""``(class code, component)`` of the reference stories' classes counted per show (correct ones are
``n_correct_reference``)."""
HYPOTHESIS_COMPONENTS = (
    (MERGING, "n_hypothesis_merging"),
    (SPLIT_PART, "n_hypothesis_split_part"),
    (SHIFTED, "n_hypothesis_shifted"),
    (FALSE_ALARM, "n_false_alarm"),
)
"""``(class code, component)`` of the hypothesis segments' classes counted per show."""


def classify(
    matching: Matching,
    reference_ticks: np.ndarray,
    hypothesis_ticks: np.ndarray,
    correct: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """The class code of every reference story and every hypothesis segment (see the module docstring).

    Parameters
    ----------
    matching : Matching
        Best partners of both sides (:func:`tvseg.retrieval.coverage.match`).
    reference_ticks, hypothesis_ticks : ndarray
        Each segment's (evaluated) duration in integer microseconds (``Segments.duration_ticks``).
    correct : tuple of ndarray
        ``(reference, hypothesis)``: whether each segment is correctly retrieved.

    Returns
    -------
    tuple of ndarray
        ``(reference, hypothesis)`` class codes (int8): indices into :data:`REFERENCE_CLASSES` and
        :data:`HYPOTHESIS_CLASSES`.
    """
    n_r, n_h = len(reference_ticks), len(hypothesis_ticks)
    p_r, p_h = matching.reference_partner, matching.hypothesis_partner
    has_r, has_h = p_r >= 0, p_h >= 0
    inside_r = has_r & (2 * matching.reference.overlap_ticks >= reference_ticks)  # mostly inside its partner
    inside_h = has_h & (2 * matching.hypothesis.overlap_ticks >= hypothesis_ticks)
    # index n_h (n_r) stands for "no partner": a sentinel entry past the end of each per-segment array
    safe_r, safe_h = np.where(has_r, p_r, n_h), np.where(has_h, p_h, n_r)
    held = np.bincount(p_r[inside_r], minlength=n_h + 1)  # per hypothesis segment: stories mostly inside it
    holds = np.bincount(p_h[inside_h], minlength=n_r + 1)  # per reference story: hypothesis segments mostly inside it
    mutual_r = np.append(p_h, -1)[safe_r] == np.arange(n_r)
    mutual_h = np.append(p_r, -1)[safe_h] == np.arange(n_h)

    ref = np.full(n_r, MISSED, dtype=np.int8)  # the classes from last to first: a later one overrides
    ref[mutual_r] = SHIFTED
    ref[inside_r & (held[safe_r] >= 2)] = MERGED
    ref[holds[:n_r] >= 2] = SPLIT
    ref[correct[0]] = CORRECT

    hyp = np.full(n_h, FALSE_ALARM, dtype=np.int8)
    hyp[mutual_h] = SHIFTED
    hyp[inside_h & (np.append(ref, -1)[safe_h] == SPLIT)] = SPLIT_PART
    hyp[held[:n_h] >= 2] = MERGING
    hyp[correct[1]] = CORRECT
    return ref, hyp


def class_names(codes: np.ndarray, *, side: str) -> np.ndarray:
    """The class names of ``codes`` (object array) for ``side`` ``"reference"`` or ``"hypothesis"``."""
    names = np.asarray(REFERENCE_CLASSES if side == "reference" else HYPOTHESIS_CLASSES, dtype=object)
    return names[codes] if len(codes) else np.empty(0, dtype=object)


def story_counts(
    classes: tuple[np.ndarray, np.ndarray], reference_show: np.ndarray, hypothesis_show: np.ndarray, n: int
) -> dict[str, np.ndarray]:
    """Per show, the number of segments of each class but correct (:data:`REFERENCE_COMPONENTS`,
    :data:`HYPOTHESIS_COMPONENTS`), as floats like the other components."""
    out: dict[str, np.ndarray] = {}
    for codes, show, components in (
        (classes[0], reference_show, REFERENCE_COMPONENTS),
        (classes[1], hypothesis_show, HYPOTHESIS_COMPONENTS),
    ):
        table = np.bincount(show.astype(np.int64) * 5 + codes, minlength=5 * n).reshape(n, 5)
        for code, name in components:
            out[name] = table[:, code].astype(float)
    return out


def match_table(
    reference: Segments,
    hypothesis: Segments,
    matching: Matching,
    *,
    gamma: float,
    show_names: Sequence[str] | None = None,
) -> pd.DataFrame:
    """One row per reference segment, then one per hypothesis segment, with its best partner.

    Columns: ``show`` (when ``show_names`` is given), ``side`` ("reference"/"hypothesis"),
    ``start, end, label``, ``partner_start, partner_end, partner_label`` (NaN/None without a
    partner), ``overlap`` (s), ``cov_to`` (this -> partner: the share of this segment that the
    partner covers), ``cov_from`` (partner -> this), ``coverage`` (bidirectional), ``correct`` and
    ``story``: the segment's story class (:func:`classify`: ``correct``, ``split``,
    ``merged``, ``shifted``, ``missed`` for a reference story; ``correct``, ``merging``, ``split part``,
    ``shifted``, ``false alarm`` for a hypothesis segment).
    """
    verdicts = correct(matching, gamma)
    classes = classify(matching, reference.duration_ticks, hypothesis.duration_ticks, verdicts)
    frames = []
    for side, own, other, best, ok, codes in (
        ("reference", reference, hypothesis, matching.reference, verdicts[0], classes[0]),
        ("hypothesis", hypothesis, reference, matching.hypothesis, verdicts[1], classes[1]),
    ):
        partner, overlap = best.partner, best.overlap
        has = partner >= 0
        safe = np.where(has, partner, 0)
        p_start = np.where(has, other.start[safe] if len(other) else np.nan, np.nan)
        p_end = np.where(has, other.end[safe] if len(other) else np.nan, np.nan)
        p_label = np.empty(len(own), dtype=object)
        if len(other):
            p_label[has] = other.label[partner[has]]
        p_dur = p_end - p_start if other.region is None else np.where(has, other.duration[safe], np.nan)
        columns = {}
        if show_names is not None:
            columns["show"] = np.asarray(show_names, dtype=object)[own.show] if len(own) else np.empty(0, object)
        columns.update(
            {
                "side": np.full(len(own), side, dtype=object),
                "start": own.start,
                "end": own.end,
                "label": own.label,
                "partner_start": p_start,
                "partner_end": p_end,
                "partner_label": p_label,
                "overlap": overlap,
                "cov_to": overlap / own.duration if len(own) else np.empty(0),
                "cov_from": np.where(has, overlap / np.where(has, p_dur, 1.0), 0.0),
                "coverage": best.coverage,
                "correct": ok,
                "story": class_names(codes, side=side),
            }
        )
        frames.append(pd.DataFrame(columns))
    return pd.concat(frames, ignore_index=True)
