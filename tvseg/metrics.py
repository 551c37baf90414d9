"""The metric registry: every number tvseg reports, once, with what the views need to show it.

One :class:`Metric` per output key. The corpus reduction (:mod:`tvseg.retrieval.reductions`), the
bootstrap, the JSON (counts as integers), the summary table of ``tvseg evaluate`` and the report
(column labels, which keys are counts, which get intervals and p-values) all read this table;
``tests/test_metric_registry.py`` checks that every key an evaluation outputs is here and that every
entry here is output by some evaluation (scikit-learn's scorer registry test is the model).

Adding a metric: one entry here, and its formula where its group is computed (see
``docs/architecture.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Metric", "REGISTRY", "METRICS", "keys", "columns", "COUNT_KEYS", "BOOTSTRAPPED", "COMPARED", "SUMMARY"]


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
        ``"coverage"``, ``"boundary"``, ``"count"``, ``"title"`` or ``"unit"``: the computation that
        makes it (and the report table that shows it).
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

    @property
    def higher_is_better(self) -> bool | None:
        return {"rate": True, "error": False}.get(self.kind)


_BOUCHEKIF = "Bouchekif et al. 2015"
_VIDCHAPTERS = "Yang et al. 2023 (VidChapters-7M), dvc_eval/eval_dvc.py "
_MEAN_OVER_SHOWS = "; corpus value: the mean over shows, as VidChapters averages over videos (not pooled)"
REGISTRY: tuple[Metric, ...] = (
    Metric("recall_n", "R_N", "coverage", "rate", _BOUCHEKIF + " eq. 2", True, summary="R_N", html="R<sub>N</sub>"),
    Metric("precision_n", "P_N", "coverage", "rate", _BOUCHEKIF + " eq. 3", True, summary="P_N", html="P<sub>N</sub>"),
    Metric("cov_n", "CovN", "coverage", "rate", _BOUCHEKIF + " eq. 4", True, True, summary="CovN"),
    Metric("recall_d", "R_D", "coverage", "rate", _BOUCHEKIF + " eq. 5", True, html="R<sub>D</sub>"),
    Metric("precision_d", "P_D", "coverage", "rate", _BOUCHEKIF + " eq. 5", True, html="P<sub>D</sub>"),
    Metric("cov_d", "CovD", "coverage", "rate", _BOUCHEKIF + " eq. 6", True, True, summary="CovD"),
    Metric("boundary_precision", "bound. P", "boundary", "rate", _BOUCHEKIF + " section 2", True, html="Bound. P"),
    Metric("boundary_recall", "bound. R", "boundary", "rate", _BOUCHEKIF + " section 2", True, html="Bound. R"),
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
    ),
    Metric("n_reference", "ref. segs", "count", "count", _BOUCHEKIF),
    Metric("n_hypothesis", "hyp. segs", "count", "count", _BOUCHEKIF),
    Metric("n_correct_reference", "correct ref.", "count", "count", _BOUCHEKIF),
    Metric("n_correct_hypothesis", "correct hyp.", "count", "count", _BOUCHEKIF),
    Metric("title_accuracy", "title acc.", "title", "rate", _BOUCHEKIF + " section 4", True, summary="title"),
    Metric("title_f1", "title F1", "title", "rate", "Jin & Hauptmann 2001", True),
    Metric("titled_recall", "titled R", "title", "rate", _BOUCHEKIF + " section 4", True),
    Metric("titled_precision", "titled P", "title", "rate", _BOUCHEKIF + " section 4", True),
    Metric("n_untitled_reference", "untitled ref.", "title", "count", "tvseg (titles that cannot be judged)"),
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
        )
        for d in (1, 3, 5, 10, 30, 60)
        for side, short in (("precision", "P"), ("recall", "R"))
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
        "and the corpus value a mean over shows, under convention 'chunkseg', as chunkseg reports it)",
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
    ),
    Metric(
        "title_list_rougeL_f1",
        "title list ROUGE-L",
        "title",
        "rate",
        "Lin 2004; rouge-score (ROUGE-L F of the show's titles in time order as one text)"
        "; corpus value: the mean over shows with a titled reference segment (not pooled)",
        True,
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
    ),
)

METRICS: dict[str, Metric] = {m.key: m for m in REGISTRY}


def keys(group: str) -> tuple[str, ...]:
    """The keys of one group, in registry order."""
    return tuple(m.key for m in REGISTRY if m.group == group)


def columns(*groups: str, keys_: tuple[str, ...] | None = None) -> tuple[tuple[str, str], ...]:
    """``(key, report label)`` of the metrics of ``groups`` (or of ``keys_``), in registry order."""
    chosen = [m for m in REGISTRY if m.group in groups] if keys_ is None else [METRICS[k] for k in keys_]
    return tuple((m.key, m.html or m.label) for m in chosen)


COUNT_KEYS = frozenset(m.key for m in REGISTRY if m.kind == "count")
BOOTSTRAPPED = tuple(m.key for m in REGISTRY if m.bootstrap)
COMPARED = tuple(m.key for m in REGISTRY if m.compared)
_SUMMARY_ORDER = ("cov_n", "cov_d", "recall_n", "precision_n", "boundary_f1", "pk", "windowdiff", "s", "title_accuracy")
SUMMARY = tuple((key, METRICS[key].summary) for key in _SUMMARY_ORDER)
"""``(key, label)`` of the summary table's columns, in its order."""
