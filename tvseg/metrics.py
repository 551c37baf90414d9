"""The metric registry: every number tvseg reports, once, with what the views need to show it.

One :class:`Metric` per output key, with the additive per-show **components** it is computed from and
its **formula** (as pyannote.metrics' ``metric_components`` and ``compute_metric``): a metric's value
on a show, on the corpus (the components summed over shows: Bouchekif et al.'s pooled values), on a
group of shows, on a length class or on a bootstrap resample is its formula applied to the components
summed over those shows (:func:`compute`). The components are made per show by **component kernels**,
functions registered here by :func:`component_kernel` where they are written, and run once per system
by :func:`tvseg.retrieval.corpus.score_shows`.

The corpus reduction (:mod:`tvseg.retrieval.reductions`), the bootstrap, the JSON (counts as
integers), the summary table of ``tvseg evaluate`` and the report (column labels, which keys are
counts, which get intervals and p-values) all read this table; ``tests/test_metric_registry.py``
checks that every key an evaluation outputs is here and that every entry here is output by some
evaluation (scikit-learn's scorer registry test is the model).

Adding a metric of the time domain: one entry here (its components and formula) and, when it needs
components no kernel makes yet, its kernel (a function decorated with :func:`component_kernel`).
The unit-domain metrics (``group="unit"``) are computed by :mod:`tvseg.unit` from its own counts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from tvseg.rates import f_measure, rate

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Metric",
    "REGISTRY",
    "METRICS",
    "keys",
    "columns",
    "compute",
    "component_kernel",
    "component_kernels",
    "COUNT_KEYS",
    "NUMBER_KEYS",
    "BOOTSTRAPPED",
    "COMPARED",
    "SUMMARY",
    "SHOW_FLAGS",
    "TIOU_THRESHOLDS",
    "NAV_DISTANCES",
    "threshold_tag",
]

Components: TypeAlias = "Mapping[str, Any] | pd.DataFrame"
"""Components by name: per-show arrays (a DataFrame's columns), or their sums over shows."""
Formula: TypeAlias = "Callable[[Components, dict[str, Any]], Any]"
"""``formula(components, metrics)``: the metric from the components (``metrics``: the metrics before
it in the registry, computed from the same components, e.g. P and R for an F)."""


@dataclass(frozen=True)
class Metric:
    """One reported number.

    Attributes
    ----------
    key : str
        The output key (JSON, DataFrame column), as in the contract.
    label : str
        A short column label (plain text).
    group : str
        ``"coverage"``, ``"boundary"``, ``"count"``, ``"story"`` (the story classes' counts),
        ``"title"``, ``"chapters"``, ``"captioning"`` or ``"unit"``: the computation that makes it (and the report table
        that shows it).
    kind : str
        ``"rate"`` (a fraction, higher is better), ``"error"`` (a fraction or more, lower is better) or
        ``"count"``.
    source : str
        The paper or tool that defines it.
    bootstrap : bool
        Whether the corpus value gets a bootstrap interval.
    compared : bool
        Whether pairs of systems get a paired-bootstrap p-value on it.
    summary : str or None
        Its column label in the summary table of ``tvseg evaluate``, or None when not shown there.
    html : str or None
        Its label in the HTML report where it differs from ``label`` (markup allowed).
    fraction : bool
        Whether its value is a fraction (shown as a percentage); a count, or a mean count, is not.
    components : tuple of str
        The additive per-show components its formula reads (empty for the unit-domain metrics).
    formula : callable or None
        ``formula(components, metrics)``, see :data:`Formula` (None for the unit-domain metrics).
    """

    key: str
    label: str
    group: str
    kind: str
    source: str
    bootstrap: bool = False
    compared: bool = False
    summary: str | None = None
    html: str | None = None
    fraction: bool = True
    components: tuple[str, ...] = ()
    formula: Formula | None = field(default=None, compare=False, repr=False)

    @property
    def higher_is_better(self) -> bool | None:
        return {"rate": True, "error": False}.get(self.kind)


def _array(values: Any) -> Any:
    """``values`` as floats: a float array, or one float for one number (a per-show call's sums, which
    the rates then divide without array machinery)."""
    if isinstance(values, (int, float)):
        return float(values)
    return np.asarray(values, dtype=float)


def _rate(numerator: str, denominator: str) -> dict[str, Any]:
    """A rate of two components (NaN for 0/0)."""
    return {
        "components": (numerator, denominator),
        "formula": lambda c, m: rate(_array(c[numerator]), _array(c[denominator])),
    }


def _f(precision: str, recall: str, *components: str) -> dict[str, Any]:
    """The F-measure of two metrics before it (``components``: what those two read)."""
    return {"components": components, "formula": lambda c, m: f_measure(m[precision], m[recall])}


def _count(key: str) -> dict[str, Any]:
    return {"components": (key,), "formula": lambda c, m: _array(c[key])}


TIOU_THRESHOLDS = (0.3, 0.5, 0.7, 0.9)
"""VidChapters' tIoU thresholds (``eval_dvc(tious=[0.3, 0.5, 0.7, 0.9])``)."""
NAV_DISTANCES = (1, 3, 5, 10, 30, 60)
"""VidChapters' navigation distances in seconds (``distances=[1, 3, 5, 10, 30, 60]``)."""


def threshold_tag(t: float) -> str:
    """A tIoU threshold in a component's name: two digits, ``30`` for 0.3."""
    return f"{round(t * 100):02d}"


def _show_mean(c: Components, key: str) -> Any:
    """A per-show rate's mean over the shows that have one (``chapter_n_shows``)."""
    return rate(_array(c[key]), _array(c["chapter_n_shows"]))


def _detection(prefix: str, side: str) -> dict[str, Any]:
    """VidChapters' detection ``side`` (precision, recall, f1): the mean over the tIoU thresholds of the
    show-averaged P and R, and of the F of those averages (:mod:`tvseg.retrieval.chapters`)."""

    def formula(c: Components, m: dict[str, Any]) -> Any:
        per_t = []
        for t in TIOU_THRESHOLDS:
            p = _show_mean(c, f"{prefix}_precision_{threshold_tag(t)}")
            r = _show_mean(c, f"{prefix}_recall_{threshold_tag(t)}")
            per_t.append({"precision": p, "recall": r, "f1": f_measure(p, r)}[side])
        return np.mean(np.vstack([np.atleast_1d(v) for v in per_t]), axis=0)

    sides = ("precision", "recall") if side == "f1" else (side,)
    names = tuple(f"{prefix}_{s}_{threshold_tag(t)}" for s in sides for t in TIOU_THRESHOLDS)
    return {"components": (*names, "chapter_n_shows"), "formula": formula}


def _navigation(side: str, d: int) -> dict[str, Any]:
    key = f"nav_{side}_{d}"
    return {"components": (key, "chapter_n_shows"), "formula": lambda c, m: np.atleast_1d(_show_mean(c, key))}


_BOUCHEKIF = "Bouchekif et al. 2015"
_DURATIONS = ("duration_correct_hypothesis", "duration_hypothesis", "duration_correct_reference", "duration_reference")
_VIDCHAPTERS = "Yang et al. 2023 (VidChapters-7M), dvc_eval/eval_dvc.py "
_STORIES = "tvseg: story classes from Bouchekif et al.'s coverage matching (tvseg.retrieval.stories)"
_MEAN_OVER_SHOWS = "; corpus value: the mean over shows, as VidChapters averages over videos (not pooled)"
_CHAPTER_LLAMA = "Ventura et al. 2025 (Chapter-Llama), tools/results/metrics_overlap.py "
_VIDCHAPTERS_GROUNDING = "Yang et al. 2023 (VidChapters-7M), moment_detr/standalone_eval/eval.py "
REGISTRY: tuple[Metric, ...] = (
    Metric(
        "recall_n",
        "R_N",
        "coverage",
        "rate",
        _BOUCHEKIF + " eq. 2",
        True,
        summary="R_N",
        html="R<sub>N</sub>",
        **_rate("n_correct_reference", "n_reference"),
    ),
    Metric(
        "precision_n",
        "P_N",
        "coverage",
        "rate",
        _BOUCHEKIF + " eq. 3",
        True,
        summary="P_N",
        html="P<sub>N</sub>",
        **_rate("n_correct_hypothesis", "n_hypothesis"),
    ),
    Metric(
        "cov_n",
        "CovN",
        "coverage",
        "rate",
        _BOUCHEKIF + " eq. 4",
        True,
        True,
        summary="CovN",
        **_f("precision_n", "recall_n", "n_correct_hypothesis", "n_hypothesis", "n_correct_reference", "n_reference"),
    ),
    Metric(
        "recall_d",
        "R_D",
        "coverage",
        "rate",
        _BOUCHEKIF + " eq. 5",
        True,
        html="R<sub>D</sub>",
        **_rate("duration_correct_reference", "duration_reference"),
    ),
    Metric(
        "precision_d",
        "P_D",
        "coverage",
        "rate",
        _BOUCHEKIF + " eq. 5",
        True,
        html="P<sub>D</sub>",
        **_rate("duration_correct_hypothesis", "duration_hypothesis"),
    ),
    Metric(
        "cov_d",
        "CovD",
        "coverage",
        "rate",
        _BOUCHEKIF + " eq. 6",
        True,
        True,
        summary="CovD",
        **_f("precision_d", "recall_d", *_DURATIONS),
    ),
    Metric(
        "boundary_precision",
        "bound. P",
        "boundary",
        "rate",
        _BOUCHEKIF + " section 2",
        True,
        html="Bound. P",
        **_rate("boundary_n_matched", "boundary_n_hypothesis"),
    ),
    Metric(
        "boundary_recall",
        "bound. R",
        "boundary",
        "rate",
        _BOUCHEKIF + " section 2",
        True,
        html="Bound. R",
        **_rate("boundary_n_matched", "boundary_n_reference"),
    ),
    Metric(
        "boundary_f1",
        "bound. F",
        "boundary",
        "rate",
        _BOUCHEKIF + " section 2",
        True,
        True,
        summary="bound. F",
        html="Bound. F",
        **_f(
            "boundary_precision",
            "boundary_recall",
            "boundary_n_matched",
            "boundary_n_hypothesis",
            "boundary_n_reference",
        ),
    ),
    Metric("n_reference", "ref. segs", "count", "count", _BOUCHEKIF, **_count("n_reference")),
    Metric("n_hypothesis", "hyp. segs", "count", "count", _BOUCHEKIF, **_count("n_hypothesis")),
    Metric("n_correct_reference", "correct ref.", "count", "count", _BOUCHEKIF, **_count("n_correct_reference")),
    Metric("n_correct_hypothesis", "correct hyp.", "count", "count", _BOUCHEKIF, **_count("n_correct_hypothesis")),
    # story classes (issue 26): tvseg.retrieval.stories, from the coverage matching; with the correct
    # segments they add up to n_reference and to n_hypothesis
    *(
        Metric(key, label, "story", "count", _STORIES, **_count(key))
        for key, label in (
            ("n_reference_split", "split ref."),
            ("n_reference_merged", "merged ref."),
            ("n_reference_shifted", "shifted ref."),
            ("n_reference_missed", "missed ref."),
            ("n_hypothesis_merging", "merging hyp."),
            ("n_hypothesis_split_part", "split part hyp."),
            ("n_hypothesis_shifted", "shifted hyp."),
            ("n_false_alarm", "false alarms"),
        )
    ),
    Metric(
        "title_accuracy",
        "title acc.",
        "title",
        "rate",
        _BOUCHEKIF + " section 4",
        True,
        summary="title",
        **_rate("title_correct_reference", "n_correct_titled_reference"),
    ),
    Metric(
        "title_f1",
        "title F1",
        "title",
        "rate",
        "Jin & Hauptmann 2001",
        True,
        **_rate("title_f1_sum", "n_correct_titled_reference"),
    ),
    Metric(
        "titled_recall",
        "titled R",
        "title",
        "rate",
        _BOUCHEKIF + " section 4",
        True,
        **_rate("title_correct_reference", "n_reference"),
    ),
    Metric(
        "titled_precision",
        "titled P",
        "title",
        "rate",
        _BOUCHEKIF + " section 4",
        True,
        **_rate("title_correct_hypothesis", "n_hypothesis"),
    ),
    Metric(
        "n_untitled_reference",
        "untitled ref.",
        "title",
        "count",
        "tvseg (titles that cannot be judged)",
        **_count("n_untitled_reference"),
    ),
    Metric("pk", "Pk", "unit", "error", "Pevzner & Hearst 2002", True, True, summary="Pk"),
    Metric("pk_prime", "P'k", "unit", "error", "Pevzner & Hearst 2002 section 4", True, html="P\u2032k"),
    Metric("windowdiff", "WindowDiff", "unit", "error", "Pevzner & Hearst 2002 section 3", True, True, summary="WD"),
    Metric("winpr_precision", "WinP", "unit", "rate", "Scaiano & Inkpen 2012", True),
    Metric("winpr_recall", "WinR", "unit", "rate", "Scaiano & Inkpen 2012", True),
    Metric("winpr_f1", "WinF", "unit", "rate", "Scaiano & Inkpen 2012", True),
    Metric("s", "S", "unit", "rate", "Fournier & Inkpen 2012", True, summary="S"),
    # video chaptering (issue 14): tvseg.retrieval.chapters. Corpus value = mean over shows, as
    # VidChapters averages over videos (not pooled like the metrics above).
    *(
        Metric(
            f"vc_detection_{side}",
            f"VC det. {short}",
            "chapters",
            "rate",
            _VIDCHAPTERS + f"evaluate_detection: {side} averaged over tIoU 0.3/0.5/0.7/0.9 (tIoU > t; not "
            "one-to-one)"
            + (", F per threshold from the show-averaged P and R, then averaged" if side == "f1" else "")
            + _MEAN_OVER_SHOWS,
            bootstrap=True,
            **_detection("vc", side),
        )
        for side, short in (("precision", "P"), ("recall", "R"), ("f1", "F"))
    ),
    *(
        Metric(
            f"detection_{side}_1to1",
            f"1:1 det. {short}",
            "chapters",
            "rate",
            f"tvseg: VidChapters' detection {side} with pairs matched one to one (a maximum matching of "
            "the pairs with tIoU > t), averaged as vc_detection_*" + _MEAN_OVER_SHOWS,
            **_detection("vc11", side),
        )
        for side, short in (("precision", "P"), ("recall", "R"), ("f1", "F"))
    ),
    *(
        Metric(
            f"nav_{side}_{d}s",
            f"nav. {short}@{d}s",
            "chapters",
            "rate",
            _VIDCHAPTERS
            + f"evaluate_navigation: chapter starts less than {d} s apart (not one-to-one)"
            + _MEAN_OVER_SHOWS,
            **_navigation(side, d),
        )
        for d in (1, 3, 5, 10, 30, 60)
        for side, short in (("precision", "P"), ("recall", "R"))
    ),
    Metric(
        "chapter_count_error",
        "count error",
        "chapters",
        "error",
        "Chapter-Llama (Ventura et al. 2025) compares the number of chapters predicted with the reference's: "
        "|#hypothesis - #reference| segments per show" + _MEAN_OVER_SHOWS,
        True,
        fraction=False,
        **_rate("chapter_count_error_sum", "chapter_n_shows"),
    ),
    # Chapter-Llama's numbers (issue 28): tvseg.retrieval.chapter_llama, as its tools/results/metrics_overlap.py
    # computes them (commit d19a77ef); corpus value: the mean over shows, as it averages over videos
    Metric(
        "cl_f1",
        "CL F1",
        "chapters",
        "rate",
        _CHAPTER_LLAMA + "OverlapMetrics.compute_avg_thresholds: per video F1 of the chapters in a pair with tIoU >= t "
        "(not one-to-one), averaged over videos and over t in np.arange(0.5, 0.95 + 0.05, 0.05)" + _MEAN_OVER_SHOWS,
        True,
        **_rate("cl_f1_sum", "chapter_n_shows"),
    ),
    Metric(
        "cl_avg_tiou",
        "CL avg. tIoU",
        "chapters",
        "rate",
        _CHAPTER_LLAMA + "OverlapMetrics.compute_avg_optimal: per video the mean tIoU of the pairs taken greedily "
        "one to one, highest tIoU first" + _MEAN_OVER_SHOWS,
        True,
        **_rate("cl_avg_tiou_sum", "chapter_n_shows"),
    ),
    Metric(
        "chapter_count_mae",
        "count MAE",
        "chapters",
        "error",
        _CHAPTER_LLAMA + "evaluate_chapter_count: |#reference - #predicted| chapters per video (a chapter from the "
        "start added to a side whose first chapter starts later)" + _MEAN_OVER_SHOWS,
        True,
        fraction=False,
        **_rate("cl_count_abs_error", "chapter_n_shows"),
    ),
    *(
        Metric(
            f"chapter_count_{case}",
            f"count {case}",
            "chapters",
            "rate",
            _CHAPTER_LLAMA + f"evaluate_chapter_count: the share of videos with {rule}" + _MEAN_OVER_SHOWS,
            **_rate(f"cl_count_{case}", "chapter_n_shows"),
        )
        for case, rule in (
            ("under", "fewer chapters predicted than the reference's"),
            ("equal", "as many chapters predicted as the reference's"),
            ("over", "more chapters predicted than the reference's"),
        )
    ),
    # VidChapters' chapter grounding (issue 28): tvseg.retrieval.grounding; only for a system that gives one
    # segment per reference title. Corpus value: pooled over the queries, as compute_mr_r1 averages
    *(
        Metric(
            f"grounding_r1_iou_{tag}",
            f"ground. R@1 tIoU {t}",
            "grounding",
            "rate",
            _VIDCHAPTERS_GROUNDING + f"compute_mr_r1: the share of titles whose segment has tIoU >= {t} with "
            "their chapter (pooled over titles)",
            True,
            **_rate(f"grounding_hits_iou_{tag}", "grounding_n_queries"),
        )
        for t, tag in ((0.3, "30"), (0.5, "50"), (0.7, "70"), (0.9, "90"))
    ),
    *(
        Metric(
            f"grounding_r1_{d}s",
            f"ground. R@1 {d}s",
            "grounding",
            "rate",
            _VIDCHAPTERS_GROUNDING + f"compute_mr_r1: the share of titles whose segment starts at most {d} s from "
            "their chapter's start (pooled over titles)",
            True,
            **_rate(f"grounding_hits_{d}s", "grounding_n_queries"),
        )
        for d in (1, 3, 5, 10)
    ),
    # NIST TDT's segmentation cost, the generalized Hamming distance, boundary similarity (issue 14)
    Metric(
        "cseg",
        "C_seg",
        "unit",
        "error",
        "NIST TDT (Doddington 1998; TDT3seg.pl C_miss 1, C_fa 0.3; P_seg 0.3)",
        True,
        html="C<sub>seg</sub>",
    ),
    Metric(
        "cseg_norm",
        "C_seg norm.",
        "unit",
        "error",
        "NIST TDT (normalised by the better trivial segmentation)",
        True,
        html="C<sub>seg</sub> norm.",
    ),
    Metric(
        "ghd",
        "GHD/(N-1)",
        "unit",
        "error",
        "Bookstein, Kulyukin & Raita 2002, as nltk's ghd (costs 2, 2, 1), per potential boundary (raw, "
        "and the corpus value a mean over shows, under conventions 'nltk' and 'chunkseg', as nltk's ghd and "
        "chunkseg report it)",
        True,
    ),
    Metric("b", "B", "unit", "rate", "Fournier 2013, as segeval 2.0.11 (pooled as its actual_agreement_linear)", True),
    # title ROUGE-L (issue 14): tvseg.retrieval.rouge, equal to rouge-score's RougeScorer(["rougeL"])
    Metric(
        "title_rougeL_f1",
        "title ROUGE-L",
        "title",
        "rate",
        "Lin 2004; rouge-score (ROUGE-L F, no stemming, over correctly retrieved titled reference segments)",
        True,
        **_rate("title_rougeL_sum", "n_correct_titled_reference"),
    ),
    Metric(
        "title_list_rougeL_f1",
        "title list ROUGE-L",
        "title",
        "rate",
        "Lin 2004; rouge-score (ROUGE-L F of the show's titles in time order as one text)"
        "; corpus value: the mean over shows with a titled reference segment (not pooled)",
        True,
        **_rate("title_list_rougeL_sum", "title_list_n_shows"),
    ),
    # chunkseg's temporally matched title ROUGE-L (issue 14): tvseg.retrieval.chapters.match_in_time
    *(
        Metric(
            f"title_matched_rougeL_{side}",
            f"matched title ROUGE-L {short}",
            "title",
            "rate",
            f"chunkseg 0.4.0 titles.py; Lin 2004 (tm_rl_{side}: mean ROUGE-L {short} of the chapters paired greedily one to one with start and end within 5 s, over a "
            "show's pairs; no stemming in evaluate, chunkseg stems); corpus value: the mean over shows "
            "with a matched pair (not pooled)",
            True,
            **_rate(f"title_matched_rougeL_{side[0]}_sum", "title_matched_n_shows"),
        )
        for side, short in (("precision", "P"), ("recall", "R"), ("f1", "F"))
    ),
    Metric(
        "title_matched_fraction",
        "matched titles",
        "title",
        "rate",
        "chunkseg 0.4.0 titles.py (tm_matched: reference chapters temporally matched, over the reference "
        "chapters); corpus value: the mean over shows with a titled reference segment (not pooled)",
        True,
        **_rate("title_matched_sum", "title_list_n_shows"),
    ),
    # VidChapters' captioning metrics of the titles (issue 28): tvseg.retrieval.captioning, pycocoevalcap's
    # scorers on dvc_eval's caption pairs; computed only when asked (--preset vidchapters), with
    # tvseg[captioning] and Java. Corpus value: the mean over shows (and tIoU 0.3/0.5/0.7/0.9), not pooled.
    *(
        Metric(
            key,
            label,
            "captioning",
            "rate",
            _VIDCHAPTERS + source + _MEAN_OVER_SHOWS,
            fraction=key != "dvc_cider",
            **_rate(key + "_sum", "dvc_n_shows"),
        )
        for key, label, source in (
            (
                "dvc_meteor",
                "METEOR",
                "evaluate_tiou: METEOR 1.5 (pycocoevalcap, PTB-tokenised) of the title pairs at tIoU >= t",
            ),
            ("dvc_cider", "CIDEr", "evaluate_tiou: CIDEr-D (pycocoevalcap Cider) of the title pairs at tIoU >= t"),
            *(
                (
                    f"dvc_bleu{n}",
                    f"BLEU-{n}",
                    f"evaluate_tiou: BLEU-{n} (pycocoevalcap) of the title pairs at tIoU >= t",
                )
                for n in (1, 2, 3, 4)
            ),
            ("dvc_rougeL", "ROUGE-L (dvc)", "evaluate_tiou: ROUGE-L (pycocoevalcap) of the title pairs at tIoU >= t"),
            ("soda_c", "SODA_c", "eval_soda.py, SODA/soda.py: SODA_c F with METEOR (tIoU x METEOR, its DP matching)"),
        )
    ),
)

STORY_CLASSES = {
    "correct": "n_correct_reference",
    "shifted": "n_reference_shifted",
    "split": "n_reference_split",
    "merged": "n_reference_merged",
    "missed": "n_reference_missed",
    "false_alarm": "n_false_alarm",
}
"""The per-show JSON's ``stories`` object: each reference story's class (and the false alarms) and the count
key that holds it (the contract's names; the counts stay under their own keys too)."""
SHOW_OBJECTS = {"stories": STORY_CLASSES}
"""The objects each per-show row of the JSON gains (:func:`tvseg.output.frame_records`'s ``nested``)."""

METRICS: dict[str, Metric] = {m.key: m for m in REGISTRY}


def keys(group: str) -> tuple[str, ...]:
    """The keys of one group, in registry order."""
    return tuple(m.key for m in REGISTRY if m.group == group)


def columns(*groups: str, keys_: tuple[str, ...] | None = None) -> tuple[tuple[str, str], ...]:
    """``(key, report label)`` of the metrics of ``groups`` (or of ``keys_``), in registry order."""
    chosen = [m for m in REGISTRY if m.group in groups] if keys_ is None else [METRICS[k] for k in keys_]
    return tuple((m.key, m.html or m.label) for m in chosen)


COUNT_KEYS = frozenset(m.key for m in REGISTRY if m.kind == "count")
"""Keys whose values are whole counts (integers in JSON)."""
NUMBER_KEYS = frozenset(m.key for m in REGISTRY if m.kind == "count" or not m.fraction)
"""Keys shown as numbers, not percentages: counts, and means of counts."""
BOOTSTRAPPED = tuple(m.key for m in REGISTRY if m.bootstrap)
COMPARED = tuple(m.key for m in REGISTRY if m.compared)
_SUMMARY_ORDER = ("cov_n", "cov_d", "recall_n", "precision_n", "boundary_f1", "pk", "windowdiff", "s", "title_accuracy")
SUMMARY = tuple((key, METRICS[key].summary) for key in _SUMMARY_ORDER)
"""``(key, label)`` of the summary table's columns, in its order."""
SHOW_FLAGS = ("has_output",)
"""Fields of a per-show row that are not metrics: ``has_output`` (False: the system's input had no
output for the show, scored as an empty hypothesis). Not averaged, pooled nor bootstrapped."""


def compute(components: Components) -> dict[str, Any]:
    """Every metric whose components are all in ``components`` (a table: one value per row; or their
    sums), by its registry formula, in registry order. A table's columns are converted to floats once
    (each formula converts what it reads: a dict, such as one show's sums, is read as it is)."""
    arrays = components if isinstance(components, dict) else _Arrays(components)
    out: dict[str, Any] = {}
    for metric in _computable(frozenset(getattr(components, "columns", components))):
        out[metric.key] = metric.formula(arrays, out)  # type: ignore[misc]  # a formula: chosen for it
    return out


@functools.lru_cache(maxsize=64)
def _computable(present: frozenset[str]) -> tuple[Metric, ...]:
    """The metrics with a formula whose components are all in ``present``, in registry order (a call
    scores the same few sets of components again and again)."""
    return tuple(m for m in REGISTRY if m.formula is not None and set(m.components) <= present)


class _Arrays(dict[str, Any]):
    """The components as float arrays, each converted once, when a formula first reads it."""

    def __init__(self, components: Components) -> None:
        super().__init__()
        self._components = components

    def __missing__(self, key: str) -> Any:
        value = self[key] = _array(self._components[key])
        return value


_KERNELS: list[Callable[..., dict[str, Any]]] = []


def component_kernel(function: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """Register a component kernel: ``function(pair)`` returns per-show components ``{name: array}``
    of one system on a corpus (``pair``: :class:`tvseg.retrieval.corpus.ShowScores`, its segments
    and shared intermediate results); :func:`tvseg.retrieval.corpus.score_shows` runs every kernel
    registered, once."""
    _KERNELS.append(function)
    return function


def component_kernels() -> tuple[Callable[..., dict[str, Any]], ...]:
    """The registered component kernels, in the order they were registered."""
    return tuple(_KERNELS)
