"""The metric registry: every number tvseg reports, once, with what the views need to show it.

One :class:`Metric` per output key, with the additive per-show **components** it is computed from and
its **formula** (as pyannote.metrics' ``metric_components`` and ``compute_metric``): a metric's value
on a show, on the corpus (the components summed over shows: Bouchekif et al.'s pooled values), on a
group of shows, on a length class or on a bootstrap resample is its formula applied to the components
summed over those shows (:func:`compute`). The components are made per show by **component kernels**,
functions written where their job is and listed in :data:`tvseg.retrieval.corpus.KERNELS`, which
:func:`tvseg.retrieval.corpus.score_shows` runs once per system.

The corpus reduction (:mod:`tvseg.retrieval.reductions`), the bootstrap, the JSON (counts as
integers), the summary table of ``tvseg evaluate`` and the report (column labels, which keys are
counts, which get intervals and p-values) all read this table; ``tests/test_metric_registry.py``
checks that every key an evaluation outputs is here and that every entry here is output by some
evaluation (scikit-learn's scorer registry test is the model).

Each entry also states when it is undefined and why (:class:`Undefined`: a denominator that is 0, and the
words of the warning naming the values) and what it **requires** of a system's inputs (:data:`REQUIREMENTS`:
segments in time, disjoint segments, units, titles, answers to the grounding queries, the captioning
scorers): a system gets exactly the
entries whose requirements its inputs meet (:func:`eligible`), whatever the kind of input.

Adding a metric: one entry here (its components, formula, 0/0 rule and requirements) and, when it needs
components no kernel makes yet, its kernel (a function of a :class:`tvseg.retrieval.corpus.ShowScores`, added to
:data:`tvseg.retrieval.corpus.KERNELS`). The
unit-domain entries (``group="unit"``) read the counts of :mod:`tvseg.unit` (the keys of
:mod:`tvseg.unit.reduction`), which :func:`tvseg.unit.reduction.unit_metrics` gives their formulas.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from tvseg.rates import detection_cost, f_measure, rate

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Metric",
    "Undefined",
    "REGISTRY",
    "TIME",
    "DISJOINT",
    "UNITS",
    "TITLES",
    "GROUNDING",
    "CAPTIONING",
    "TRECVID",
    "CHUNKS",
    "METEOR",
    "SCORES",
    "LEVELS",
    "ANNOTATORS",
    "REQUIREMENTS",
    "TRAITS",
    "DENOMINATOR_REASONS",
    "eligible",
    "unit_warnings",
    "METRICS",
    "keys",
    "columns",
    "compute",
    "COUNT_KEYS",
    "NUMBER_KEYS",
    "BOOTSTRAPPED",
    "COMPARED",
    "HEADLINE",
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


TIME = "time"
"""The reference and the system are segments in time (seconds): every input but a text corpus, whose
documents are sentences without times (:mod:`tvseg.readers.text_corpora`)."""
DISJOINT = "disjoint"
"""The system's segments do not overlap within a show: a segmentation. Dense-captioning predictions
that overlap (ActivityNet-style, ``format="anet"``) lack it (:func:`tvseg.preparation.overlapping_systems`
decides it), and so are not scored by the metrics whose matching or units assume a partition: they are
scored, in the same pass as every other system, with the entries of :data:`_ANY_SEGMENTS` and those of the
grounding and captioning groups (VidChapters' ``dvc_eval`` defines these on any predictions), on their own
segments, checked against and cropped to each show's evaluated region as every hypothesis is. Every other
entry (coverage, boundaries, the counts of correct segments and the story classes, the one-to-one detection
variant, Chapter-Llama's, the title and the unit metrics) is left out of such a system's results (per show,
corpus, macro, length classes, groups, bootstrap; it has no sweep, match table nor boundary pair), with one
warning naming them; the other systems of the run keep theirs. Pairwise tests compare systems of one kind
(segmentations with segmentations, overlapping predictions with overlapping predictions). A UEM with several
regions in a show is refused for such a system."""
UNITS = "units"
"""Units to score on: units given (``units=``, ``--units FILE``), frames (``--units frames``), or the
sentences of a text corpus."""
TITLES = "titles"
"""Titles are scored: asked, or some reference segment and some hypothesis segment carry one
(:attr:`tvseg.retrieval.corpus.ShowScores.titles`)."""
GROUNDING = "grounding"
"""The system answers VidChapters' grounding queries: one segment per titled reference segment, with its
title, in every show where it has segments (:func:`tvseg.retrieval.grounding.grounding_pairs`)."""
CAPTIONING = "captioning"
"""VidChapters' captioning scorers run: ``--preset vidchapters``, with pycocoevalcap there
(:func:`tvseg.retrieval.captioning.wanted`)."""
METEOR = "meteor"
"""METEOR 1.5 runs, for ``dvc_meteor`` and ``soda_c``: its jar (Java there) or :mod:`tvseg.retrieval.meteor`."""
SCORES = "scores"
"""The system gives boundary scores (a ``score`` column). No registry entry requires it: the scores add the
precision-recall curve, average precision and best-threshold F beside the metrics (``boundary_curve``,
``average_precision``, ``best_threshold_f1`` of the system's JSON), not entries of this table."""
LEVELS = "levels"
"""A hierarchical reference scored level by level (``--level``). No entry requires it: each level is an
evaluation of timed segments, with the entries that input gets."""
ANNOTATORS = "annotators"
"""Several annotators' references (``--reference A B ...``). No entry requires it: each annotator's
evaluation, and the pooled one, has the entries its input gets."""
TRECVID = "trecvid"
"""TRECVID 2003-2004 story segmentation's counts are made: ``--preset trecvid``
(:func:`tvseg.retrieval.corpus.trecvid_components`)."""
CHUNKS = "chunks"
"""The unit metrics are counted on chunkseg's chunks (``convention="chunkseg"``, ``--preset chunkseg``), which
makes the chunk flags' precision and recall (:func:`tvseg.unit.corpus.chunk_flag_components`)."""
REQUIREMENTS = (TIME, DISJOINT, UNITS, TITLES, GROUNDING, CAPTIONING, TRECVID, CHUNKS, METEOR)
"""The requirements entries of :data:`REGISTRY` state."""
TRAITS = (*REQUIREMENTS, SCORES, LEVELS, ANNOTATORS)
"""Every trait a system's inputs may have (:func:`eligible`); those of :data:`REQUIREMENTS` decide which
entries it gets."""


@dataclass(frozen=True)
class Undefined:
    """One way a metric is undefined: one of its denominators is 0.

    Attributes
    ----------
    denominator : tuple of str
        The components whose (weighted) sum is the denominator.
    reason : str
        What its being 0 means, in the warning that names the values (``{cls}``: ``"short "`` or
        ``"long "`` for a length class, else empty).
    weights : tuple of int, optional
        The weight of each component in the sum (default 1 each).
    warning : str, optional
        For the unit-domain metrics: the name in the warning that a corpus or a show of
        :func:`tvseg.unit.corpus.corpus_unit_scores` is 0/0 (``"pk is 0/0 (NaN)"``).
    """

    denominator: tuple[str, ...]
    reason: str
    weights: tuple[int, ...] | None = None
    warning: str | None = None

    def total(self, components: Components) -> Any:
        """The denominator of ``components`` (columns or their sums), as floats."""
        w = self.weights or (1,) * len(self.denominator)
        return sum(k * np.asarray(components[key], dtype=float) for k, key in zip(w, self.denominator))


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
        ``"distance"`` (boundary distances and hit rates), ``"title"``, ``"chapters"``, ``"captioning"`` or ``"unit"``: the computation that makes it (and the report table
        that shows it).
    kind : str
        ``"rate"`` (a fraction, higher is better), ``"error"`` (a fraction or more, lower is better) or
        ``"count"``.
    source : str
        The paper or tool that defines it.
    bootstrap : bool
        Whether the corpus value gets a bootstrap interval.
    compared : bool
        Whether it is a **headline** metric (:data:`HEADLINE`): pairs of systems (``tvseg evaluate``) and two
        runs (``tvseg compare``) get a p-value on it, and Holm's correction adjusts these p-values together as
        one family (:mod:`tvseg.significance`), named on the page and in the summary.
    summary : str or None
        Its column label in the summary table of ``tvseg evaluate``, or None when not shown there.
    html : str or None
        Its label in the HTML report where it differs from ``label`` (markup allowed).
    fraction : bool
        Whether its value is a fraction (shown as a percentage); a count, or a mean count, is not.
    better : str or None
        ``"higher"`` or ``"lower"``: which way a change is an improvement, where ``kind`` does not say it (a
        count of errors, a share of shows with too few chapters); None: from ``kind`` (see
        :attr:`higher_is_better`).
    components : tuple of str
        The additive per-show components its formula reads (empty for the unit-domain metrics).
    formula : callable or None
        ``formula(components, metrics)``, see :data:`Formula`.
    requires : frozenset of str
        What a system's inputs must have for it to be computed (:data:`REQUIREMENTS`): a system gets
        exactly the entries whose requirements its traits meet (:func:`eligible`).
    undefined : tuple of Undefined
        When it is undefined (0/0, NaN) and why: each of its denominators, with the words of the warning
        that names the values it makes undefined (:mod:`tvseg.undefined_values`), in the order they are
        tested.
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
    better: str | None = None
    components: tuple[str, ...] = ()
    formula: Formula | None = field(default=None, compare=False, repr=False)
    requires: frozenset[str] = frozenset()
    undefined: tuple[Undefined, ...] = ()

    @property
    def higher_is_better(self) -> bool | None:
        """True for a rate or ``better="higher"``, False for an error or ``better="lower"``, None: no direction (a
        count of segments)."""
        if self.better is not None:
            return self.better == "higher"
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


def _unit(
    numerator: dict[str, int], denominator: dict[str, int], reason: str, *, complement: bool = False
) -> dict[str, Any]:
    """A unit-domain ratio of two weighted sums of components (``{component: weight}``), undefined where the
    denominator is 0; ``complement``: one minus it (S and B). Its warning is named by its key (:func:`_completed`)."""

    def formula(c: Components, m: dict[str, Any]) -> Any:
        value = rate(_weighted(c, numerator), _weighted(c, denominator))
        return 1 - value if complement else value

    weights = tuple(denominator.values())
    undefined = Undefined(tuple(denominator), reason, weights=None if set(weights) == {1} else weights)
    return {
        "components": tuple(dict.fromkeys((*numerator, *denominator))),
        "formula": formula,
        "undefined": (undefined,),
    }


def _weighted(c: Components, terms: dict[str, int]) -> Any:
    first, *rest = terms.items()
    total = c[first[0]] if first[1] == 1 else first[1] * c[first[0]]
    for key, weight in rest:
        total = total + (c[key] if weight == 1 else weight * c[key])
    return total


TDT_COSTS = {"c_miss": 1.0, "c_fa": 0.3, "p_seg": 0.3}
"""NIST TDT's costs of C_seg (``TDT3seg.pl``)."""


def _cseg(*, normalized: bool) -> dict[str, Any]:
    r"""NIST TDT's :math:`C_{seg}` with TDT's costs from :math:`P_{miss} = \text{miss} / \text{ref probes}`
    and :math:`P_{FA} = \text{fa} / \text{nonref probes}` (:func:`tvseg.unit.windows.cseg`)."""

    def formula(c: Components, m: dict[str, Any]) -> Any:
        p_miss = rate(c["cseg_miss"], c["cseg_ref_probes"])
        p_fa = rate(c["cseg_fa"], c["cseg_nonref_probes"])
        return detection_cost(p_miss, p_fa, normalized=normalized, **TDT_COSTS)

    return {
        "components": ("cseg_miss", "cseg_ref_probes", "cseg_fa", "cseg_nonref_probes"),
        "formula": formula,
        "undefined": tuple(
            Undefined(
                (f"cseg_{probes}",),
                f"no probe pair that the reference {what} (C_seg's {rate_} is 0/0)",
                warning=f"cseg {rate_}",
            )
            for probes, what, rate_ in (
                ("ref_probes", "separates", "P_miss"),
                ("nonref_probes", "leaves together", "P_fa"),
            )
        ),
    }


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
_MIR_EVAL = "mir_eval.segment."
_MEAN_OF_DEFINED = "; corpus value: the mean over the shows where it is defined (not pooled: a median is not additive)"
_COUNTS = ("n_correct_hypothesis", "n_hypothesis", "n_correct_reference", "n_reference")
_MATCHED = "boundary_n_matched"
_BOUNDARIES = (_MATCHED, "boundary_n_hypothesis", "boundary_n_reference")
_TITLED = "n_correct_titled_reference"
_PH = "Pevzner & Hearst 2002"
_TRECVID = "NIST TRECVID 2003-2004 story segmentation (formats/trecvid.md), not one-to-one: "
_SCAIANO = "Scaiano & Inkpen 2012"
_TDT = "NIST TDT"
_PK_WINDOWS = {"pk_windows": 1}
_NO_PK_WINDOW = "no Pk window fits in the units"
_TP = {"winpr_tp": 1}
_ONE_UNIT = "one unit only, so no potential boundary"
_CHUNKSEG = "chunkseg 0.4.0 metrics.py, on the chunk flags (6 s chunks under --preset chunkseg); "
_CHUNK_MEAN = "; corpus value: the mean over shows (chunkseg's mean over videos, not pooled)"
_ENTRIES: tuple[Metric, ...] = (
    # Bouchekif et al.'s coverage and boundary metrics (tvseg.retrieval.coverage, tvseg.retrieval.boundaries)
    *(
        Metric(key, label, group, "rate", _BOUCHEKIF + source, True, **parts)
        for key, label, group, source, parts in (
            ("recall_n", "R_N", "coverage", " eq. 2", _rate("n_correct_reference", "n_reference")),
            ("precision_n", "P_N", "coverage", " eq. 3", _rate("n_correct_hypothesis", "n_hypothesis")),
            ("cov_n", "CovN", "coverage", " eq. 4", _f("precision_n", "recall_n", *_COUNTS)),
            ("recall_d", "R_D", "coverage", " eq. 5", _rate("duration_correct_reference", "duration_reference")),
            ("precision_d", "P_D", "coverage", " eq. 5", _rate("duration_correct_hypothesis", "duration_hypothesis")),
            ("cov_d", "CovD", "coverage", " eq. 6", _f("precision_d", "recall_d", *_DURATIONS)),
            ("boundary_precision", "bound. P", "boundary", " section 2", _rate(_MATCHED, "boundary_n_hypothesis")),
            ("boundary_recall", "bound. R", "boundary", " section 2", _rate(_MATCHED, "boundary_n_reference")),
            (
                "boundary_f1",
                "bound. F",
                "boundary",
                " section 2",
                _f("boundary_precision", "boundary_recall", *_BOUNDARIES),
            ),
        )
    ),
    # boundary distances and hit rates (issue 44): tvseg.retrieval.distances. The hit rates pooled as the
    # boundary P/R/F; the deviations and the Hausdorff distance (seconds) the mean over shows where defined
    *(
        Metric(
            f"hit_{side}_{tag}",
            f"hit {short}@{label}",
            "distance",
            "rate",
            _MIR_EVAL + f"detection(window={window:g}): boundary {side} of a maximum one-to-one matching within "
            f"{window:g} s (tvseg's boundary {side} at that tolerance; pooled over shows)",
            True,
            **parts,
        )
        for tag, label, window in (("0_5s", "0.5s", 0.5), ("3s", "3s", 3.0))
        for side, short, parts in (
            ("precision", "P", _rate(f"hit_n_matched_{tag}", "boundary_n_hypothesis")),
            ("recall", "R", _rate(f"hit_n_matched_{tag}", "boundary_n_reference")),
            (
                "f1",
                "F",
                _f(
                    f"hit_precision_{tag}",
                    f"hit_recall_{tag}",
                    f"hit_n_matched_{tag}",
                    "boundary_n_hypothesis",
                    "boundary_n_reference",
                ),
            ),
        )
    ),
    *(
        Metric(key, label, "distance", "error", source + _MEAN_OF_DEFINED, True, fraction=False, **_rate(total, n))
        for key, label, source, total, n in (
            (
                "median_deviation_ref_to_hyp",
                "med. dev. ref->hyp",
                _MIR_EVAL + "deviation (Turnbull et al. 2007): median over the reference boundaries of the "
                "distance (s) to the nearest hypothesis boundary",
                "deviation_r2h_sum",
                "deviation_n_shows",
            ),
            (
                "median_deviation_hyp_to_ref",
                "med. dev. hyp->ref",
                _MIR_EVAL + "deviation (Turnbull et al. 2007): median over the hypothesis boundaries of the "
                "distance (s) to the nearest reference boundary",
                "deviation_h2r_sum",
                "deviation_n_shows",
            ),
            (
                "hausdorff",
                "Hausdorff",
                "ruptures and skchange's hausdorff: the largest distance (s) from a boundary of one side to the "
                "nearest boundary of the other (0 when neither side has one)",
                "hausdorff_sum",
                "hausdorff_n_shows",
            ),
        )
    ),
    *(
        Metric(key, label, "count", "count", _BOUCHEKIF, **_count(key))
        for key, label in (
            ("n_reference", "ref. segs"),
            ("n_hypothesis", "hyp. segs"),
            ("n_correct_reference", "correct ref."),
            ("n_correct_hypothesis", "correct hyp."),
        )
    ),
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
    *(
        Metric(key, label, "title", "rate", source, True, **_rate(numerator, denominator))
        for key, label, source, numerator, denominator in (
            ("title_accuracy", "title acc.", _BOUCHEKIF + " section 4", "title_correct_reference", _TITLED),
            ("title_f1", "title F1", "Jin & Hauptmann 2001", "title_f1_sum", _TITLED),
            ("titled_recall", "titled R", _BOUCHEKIF + " section 4", "title_correct_reference", "n_reference"),
            ("titled_precision", "titled P", _BOUCHEKIF + " section 4", "title_correct_hypothesis", "n_hypothesis"),
        )
    ),
    Metric(
        "n_untitled_reference",
        "untitled ref.",
        "title",
        "count",
        "tvseg (titles that cannot be judged)",
        **_count("n_untitled_reference"),
    ),
    # the unit domain (tvseg.unit): formulas of the additive counts of tvseg.unit.reduction's table
    *(
        Metric(key, label, "unit", kind, source, True, **parts)
        for key, label, kind, source, parts in (
            ("pk", "Pk", "error", _PH, _unit({"pk_miss": 1, "pk_false_alarm": 1}, _PK_WINDOWS, _NO_PK_WINDOW)),
            (
                "pk_prime",
                "P'k",
                "error",
                _PH + " section 4",
                _unit({"pk_miss": 1, "pk_false_alarm": 2}, _PK_WINDOWS, _NO_PK_WINDOW),
            ),
            (
                "windowdiff",
                "WindowDiff",
                "error",
                _PH + " section 3",
                _unit({"wd_errors": 1}, {"wd_windows": 1}, "no WindowDiff window fits in the units"),
            ),
            (
                "winpr_precision",
                "WinP",
                "rate",
                _SCAIANO,
                _unit(_TP, {**_TP, "winpr_fp": 1}, "no window where the hypothesis has a boundary (WinPR)"),
            ),
            (
                "winpr_recall",
                "WinR",
                "rate",
                _SCAIANO,
                _unit(_TP, {**_TP, "winpr_fn": 1}, "no window where the reference has a boundary (WinPR)"),
            ),
            (
                "winpr_f1",
                "WinF",
                "rate",
                _SCAIANO,
                _unit(
                    {"winpr_tp": 2},
                    {"winpr_tp": 2, "winpr_fp": 1, "winpr_fn": 1},
                    "no window with a boundary on either side (WinPR)",
                ),
            ),
            (
                "s",
                "S",
                "rate",
                "Fournier & Inkpen 2012",
                _unit({"s_penalty": 1}, {"s_potential": 1}, _ONE_UNIT + " (S)", complement=True),
            ),
        )
    ),
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
    *(
        Metric(key, label, "unit", kind, source, True, **parts)
        for key, label, kind, source, parts in (
            (
                "cseg",
                "C_seg",
                "error",
                _TDT + " (Doddington 1998; TDT3seg.pl C_miss 1, C_fa 0.3; P_seg 0.3)",
                _cseg(normalized=False),
            ),
            (
                "cseg_norm",
                "C_seg norm.",
                "error",
                _TDT + " (normalised by the better trivial segmentation)",
                _cseg(normalized=True),
            ),
            (
                "ghd",
                "GHD/(N-1)",
                "error",
                "Bookstein, Kulyukin & Raita 2002, as nltk's ghd (costs 2, 2, 1), per potential boundary (raw, "
                "and the corpus value a mean over shows, under conventions 'nltk' and 'chunkseg', as nltk's ghd and "
                "chunkseg report it)",
                _unit({"ghd_sum": 1}, {"ghd_positions": 1}, _ONE_UNIT + " (GHD)"),
            ),
            (
                "b",
                "B",
                "rate",
                "Fournier 2013, as segeval 2.0.11 (pooled as its actual_agreement_linear)",
                _unit({"b_penalty": 1}, {"b_denominator": 1}, "no boundary on either side (B)", complement=True),
            ),
        )
    ),
    # chunkseg's binary precision, recall and F1 of the chunks flagged as boundaries (issue 44): computed only
    # under convention "chunkseg" (tvseg.unit.corpus.chunk_flag_components); per show chunkseg's P and R,
    # the corpus value the mean over shows (chunkseg's mean), F1 the harmonic mean of those means
    *(
        Metric(
            key,
            label,
            "unit",
            "rate",
            _CHUNKSEG + source,
            True,
            components=components,
            formula=formula,
            undefined=(Undefined(("chunk_n_shows",), "no show scored on chunkseg's chunks"),),
        )
        for key, label, source, components, formula in (
            (
                "chunk_precision",
                "chunk P",
                "binary_precision: chunks flagged by both sides / chunks the hypothesis flags (0 when it flags "
                "none, as chunkseg gives it)" + _CHUNK_MEAN,
                ("chunk_precision_sum", "chunk_n_shows"),
                lambda c, m: rate(_array(c["chunk_precision_sum"]), _array(c["chunk_n_shows"])),
            ),
            (
                "chunk_recall",
                "chunk R",
                "binary_recall: chunks flagged by both sides / chunks the reference flags (0 when it flags "
                "none, as chunkseg gives it)" + _CHUNK_MEAN,
                ("chunk_recall_sum", "chunk_n_shows"),
                lambda c, m: rate(_array(c["chunk_recall_sum"]), _array(c["chunk_n_shows"])),
            ),
            (
                "chunk_f1",
                "chunk F",
                "aggregate_metrics' f1: the harmonic mean of chunk_precision and chunk_recall (0 when both are "
                "0); per show of the show's P and R; corpus value of the MEAN P and the MEAN R over shows, "
                "chunkseg's f1 (the YTSeg leaderboard's F1), not the mean of the shows' F1 (that is the macro value)",
                ("chunk_precision_sum", "chunk_recall_sum", "chunk_n_shows"),
                lambda c, m: f_measure(m["chunk_precision"], m["chunk_recall"]),
            ),
        )
    ),
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
    # tvseg[captioning] (METEOR: the jar with Java, tvseg.retrieval.meteor without). Corpus value: the mean over shows (and tIoU
    # 0.3/0.5/0.7/0.9), not pooled.
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
    # TRECVID 2003-2004 story segmentation (issue 45): computed only under --preset trecvid
    # (tvseg.retrieval.corpus.trecvid_components); pooled over the videos, as tvseg pools boundary P and R.
    Metric(
        "trecvid_recall",
        "TRECVID R",
        "trecvid",
        "rate",
        _TRECVID + "recall: reference boundaries with a submitted boundary within eps / reference boundaries",
        True,
        **_rate("trecvid_n_found_reference", "boundary_n_reference"),
    ),
    Metric(
        "trecvid_precision",
        "TRECVID P",
        "trecvid",
        "rate",
        _TRECVID + "precision: (submitted boundaries - false alarms) / submitted boundaries, a false alarm "
        "being a submitted boundary within eps of no reference boundary",
        True,
        **_rate("trecvid_n_correct_hypothesis", "boundary_n_hypothesis"),
    ),
    Metric(
        "trecvid_f1",
        "TRECVID F",
        "trecvid",
        "rate",
        "tvseg: the harmonic mean of trecvid_precision and trecvid_recall",
        True,
        **_f(
            "trecvid_precision",
            "trecvid_recall",
            "trecvid_n_found_reference",
            "boundary_n_reference",
            "trecvid_n_correct_hypothesis",
            "boundary_n_hypothesis",
        ),
    ),
)

DENOMINATOR_REASONS: dict[str, str] = {
    "n_reference": "no {cls}reference segment",
    "n_hypothesis": "no {cls}hypothesis segment",
    "duration_reference": "no {cls}reference segment",
    "duration_hypothesis": "no {cls}hypothesis segment",
    "boundary_n_reference": "no reference boundary",
    "boundary_n_hypothesis": "no hypothesis boundary",
    "n_correct_titled_reference": "no correctly retrieved reference segment with a title",
    "chapter_n_shows": "no show with a reference segment",
    "title_list_n_shows": "no reference segment with a title",
    "title_matched_n_shows": "no pair of chapters matched in time (start and end within 5 s)",
    "deviation_n_shows": "no boundary on one side or both (no median to take: mir_eval's deviation is NaN there)",
    "hausdorff_n_shows": "boundaries on one side only (the Hausdorff distance is infinite there, as skchange "
    "gives it: the show is left out of the mean over shows)",
}
"""The denominators among the time-domain components and what their being 0 means: a time-domain entry is
undefined where one of the components it reads that is here is 0 (tested in the order it reads them)."""

_GROUP_REQUIRES: dict[str, frozenset[str]] = {
    "coverage": frozenset({TIME, DISJOINT}),
    "boundary": frozenset({TIME, DISJOINT}),
    "distance": frozenset({TIME, DISJOINT}),
    "count": frozenset({TIME, DISJOINT}),
    "story": frozenset({TIME, DISJOINT}),
    "title": frozenset({TIME, DISJOINT, TITLES}),
    "chapters": frozenset({TIME, DISJOINT}),
    "grounding": frozenset({TIME, GROUNDING}),
    "captioning": frozenset({TIME, TITLES, CAPTIONING}),
    "trecvid": frozenset({TIME, DISJOINT, TRECVID}),
    "unit": frozenset({UNITS, DISJOINT}),
}
_NEED_CHUNKS = ("chunk_precision", "chunk_recall", "chunk_f1")
"""The unit entries computed only on chunkseg's chunks (:data:`CHUNKS`)."""
"""What each group's entries require, before :data:`_ANY_SEGMENTS` and :data:`_NEED_METEOR`."""
_NEED_METEOR = ("dvc_meteor", "soda_c")
"""The captioning entries that need METEOR 1.5 (the jar, or snowballstemmer 2.x) besides the group's requirements."""
_ANY_SEGMENTS = (
    "n_reference",
    "n_hypothesis",
    *(f"vc_detection_{side}" for side in ("precision", "recall", "f1")),
    *(f"nav_{side}_{d}s" for d in NAV_DISTANCES for side in ("precision", "recall")),
    "chapter_count_error",
)
"""The entries of groups that require disjoint segments whose definitions hold for any set of intervals
(each prediction and each reference chapter counts when some partner is close enough, whatever the other
predictions): VidChapters' ``dvc_eval`` scores overlapping predictions with them, and so does tvseg
(:data:`DISJOINT`)."""


_SUMMARY = {
    "cov_n": "CovN",
    "cov_d": "CovD",
    "recall_n": "R_N",
    "precision_n": "P_N",
    "boundary_f1": "bound. F",
    "pk": "Pk",
    "windowdiff": "WD",
    "s": "S",
    "title_accuracy": "title",
}
"""The summary table of ``tvseg evaluate``: its columns' keys and labels (:attr:`Metric.summary`), in its order."""
_HTML = {
    "recall_n": "R<sub>N</sub>",
    "precision_n": "P<sub>N</sub>",
    "recall_d": "R<sub>D</sub>",
    "precision_d": "P<sub>D</sub>",
    "boundary_precision": "Bound. P",
    "boundary_recall": "Bound. R",
    "boundary_f1": "Bound. F",
    "pk_prime": "P\u2032k",
    "cseg": "C<sub>seg</sub>",
    "cseg_norm": "C<sub>seg</sub> norm.",
    "median_deviation_ref_to_hyp": "med. dev. ref&rarr;hyp",
    "median_deviation_hyp_to_ref": "med. dev. hyp&rarr;ref",
}
"""The HTML report's labels that differ from the plain ones (:attr:`Metric.html`)."""
_BETTER = {
    "n_correct_reference": "higher",
    "n_correct_hypothesis": "higher",
    **dict.fromkeys((m.key for m in _ENTRIES if m.group == "story"), "lower"),
    "chapter_count_under": "lower",
    "chapter_count_over": "lower",
}
"""Which way a change is better for the entries whose ``kind`` does not say it (:attr:`Metric.better`): the
correct segments (more), the story errors and the shares of shows with too few or too many chapters (fewer).
The other counts (``ref. segs``, ``hyp. segs``, ``untitled ref.``) have no direction."""
_COMPARED = ("cov_n", "cov_d", "boundary_f1", "pk", "windowdiff")
"""The entries pairs of systems get a p-value on (:attr:`Metric.compared`)."""


def _completed(metric: Metric) -> Metric:
    """An entry with what the tables above say of it: its requirements, labels, whether it is compared, and
    when it is undefined (time domain: its denominators; unit domain: the warning named by its key)."""
    requires = _GROUP_REQUIRES[metric.group] - ({DISJOINT} if metric.key in _ANY_SEGMENTS else set())
    if metric.key in _NEED_METEOR:
        requires |= {METEOR}
    if metric.key in _NEED_CHUNKS:
        requires |= {CHUNKS}
    undefined = tuple(replace(u, warning=u.warning or metric.key) for u in metric.undefined) or tuple(
        Undefined((key,), DENOMINATOR_REASONS[key]) for key in metric.components if key in DENOMINATOR_REASONS
    )
    return replace(
        metric,
        requires=requires,
        undefined=undefined,
        summary=_SUMMARY.get(metric.key),
        html=_HTML.get(metric.key),
        better=_BETTER.get(metric.key, metric.better),
        compared=metric.key in _COMPARED,
    )


REGISTRY: tuple[Metric, ...] = tuple(_completed(metric) for metric in _ENTRIES)
"""Every metric, in the order the outputs list them."""


def eligible(traits: Iterable[str]) -> tuple[Metric, ...]:
    """The entries a system whose inputs have ``traits`` (of :data:`TRAITS`) gets: those whose
    requirements are all among them, in registry order.

    Raises
    ------
    ValueError
        A trait not in :data:`TRAITS`.
    """
    have = frozenset(traits)
    unknown = sorted(have - set(TRAITS))
    if unknown:
        raise ValueError(f"unknown traits {unknown}: the traits are {', '.join(TRAITS)}")
    return tuple(m for m in REGISTRY if m.requires <= have)


def unit_warnings() -> tuple[str, ...]:
    """The names of the unit domain's 0/0 warnings (:attr:`Undefined.warning`), in the order they are given:
    registry order, each once."""
    names = (u.warning for m in REGISTRY if m.group == "unit" for u in m.undefined if u.warning is not None)
    return tuple(dict.fromkeys(names))


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
HEADLINE = tuple(m.key for m in REGISTRY if m.compared)
"""The headline metrics (:attr:`Metric.compared`): CovN, CovD, boundary F, and Pk and WindowDiff with units; the
family of tests Holm's correction adjusts together (those a run scored). The counts are shown, never tested."""
COMPARED = HEADLINE
"""The headline metrics under their earlier name."""
SUMMARY = tuple(_SUMMARY.items())
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
        self._columns: dict[str, np.ndarray] | None = None

    def __missing__(self, key: str) -> Any:
        if self._columns is None:  # a table of numbers: every column of one float array, read once
            self._columns = {}
            to_numpy, columns = getattr(self._components, "to_numpy", None), getattr(self._components, "columns", None)
            if to_numpy is not None and columns is not None and columns.is_unique:  # a DataFrame
                try:
                    values = np.ascontiguousarray(to_numpy(dtype=float).T)
                except (TypeError, ValueError):
                    pass
                else:
                    self._columns = dict(zip(columns, values))
        column = self._columns.get(key)
        value = self[key] = _array(self._components[key]) if column is None else column
        return value
