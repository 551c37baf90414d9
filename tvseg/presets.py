"""Presets: the settings that make tvseg's numbers equal another tool's (``--preset NAME``).

A preset is a mapping of :class:`~tvseg.settings.Settings` fields to values, taken from the tool's own
code or paper, plus how the summary of ``tvseg evaluate`` shows the run (which of the corpus and macro
rows comes first, which extra columns): that is a view and changes no number. Options given explicitly
with a preset win over it; the signature shows the effective values (it is generated from the fields;
the preset's name is a label in the summary and in the JSON ``settings``, not in the signature).

========== ============================================ ======== =============================================
preset     fields set                                   headline source
========== ============================================ ======== =============================================
chunkseg   units=frames, frame=6, tolerance=3,          macro    chunkseg 0.4.0 ``evaluate.py``
           convention=chunkseg, title_stemming=True              (``chunk_size=6.0``, ``collar=3.0``),
                                                                 ``titles.py`` (``use_stemmer=True``),
                                                                 ``metrics.aggregate_metrics`` (means)
vidchapters (none: the metrics are computed as             corpus   VidChapters ``dvc_eval/eval_dvc.py``
           ``dvc_eval`` does whatever the settings)                 (commit fa3900c6)
segeval    convention=segeval                           macro    segeval 2.0.11 (``segeval.window``,
                                                                 ``segeval.similarity``)
nltk       convention=nltk                              macro    nltk ``nltk/metrics/segmentation.py``
tdt        convention=paper, k=None (C_seg's costs are  corpus   NIST ``TDT3seg.pl`` (C_miss=1, C_fa=0.3);
           fixed: 1, 0.3, P_seg=0.3)                             Doddington 1998 (P_seg=0.3)
chapter-   (none: the metrics are computed as             corpus   Chapter-Llama ``tools/results/
llama      ``metrics_overlap.py`` does whatever the              metrics_overlap.py`` (commit d19a77ef)
           settings)
trecvid    tolerance=5 (TRECVID's counting: the          corpus   NIST TRECVID 2003-2004 story segmentation
           trecvid_* entries)                                    scorer's README (``evaluate.sh eps``);
                                                                 ``formats/trecvid.md``
========== ============================================ ======== =============================================

What stays different is listed in each preset's ``differences`` (and in the README's "coming from
another tool" table).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from tvseg.errors import UsageError
from tvseg.settings import PRESET_NAMES, Settings

__all__ = ["Preset", "PRESETS", "preset_settings", "effective_settings"]


@dataclass(frozen=True)
class Preset:
    """One preset.

    Attributes
    ----------
    name : str
        Its ``--preset`` name.
    tool : str
        The tool (and version) whose numbers it reproduces.
    settings : Mapping[str, Any]
        Settings fields and their values.
    sources : Mapping[str, str]
        Where each value comes from (the tool's code or paper), by field name.
    headline : {"corpus", "macro"}
        The row the summary prints first for each system: the one the tool reports (a view).
    columns : tuple of str
        Metric keys the summary adds as columns when some system has them (a view).
    needs : str
        What the preset cannot set and the command still needs ("" when nothing).
    differences : tuple of str
        What stays different from the tool with the preset.
    """

    name: str
    tool: str
    settings: Mapping[str, Any]
    sources: Mapping[str, str]
    headline: str = "corpus"
    columns: tuple[str, ...] = ()
    needs: str = ""
    differences: tuple[str, ...] = field(default=())


def _preset(**kw: Any) -> Preset:
    kw["settings"] = MappingProxyType(dict(kw["settings"]))
    kw["sources"] = MappingProxyType(dict(kw["sources"]))
    return Preset(**kw)


_PRESETS = (
    _preset(
        name="chunkseg",
        tool="chunkseg 0.4.0",
        settings={"units": "frames", "frame": 6.0, "tolerance": 3.0, "convention": "chunkseg", "title_stemming": True},
        sources={
            "units": "chunkseg scores chunks of time, not units read from a file (core.build_target_sequence)",
            "frame": "evaluate(chunk_size=6.0), evaluate.py; the CLI's --chunk-size default",
            "tolerance": "evaluate(collar=3.0) for collar_boundary_f1, evaluate.py; the CLI's --collar default",
            "convention": "segeval 2.0.11's Pk, WindowDiff, B and nltk's GHD on the chunk flags, with chunkseg's "
            "substitutes where they return nothing (metrics.compute_metrics)",
            "title_stemming": 'titles._get_rouge_scorer: RougeScorer(["rougeL"], use_stemmer=True)',
            "headline": "metrics.aggregate_metrics: each metric's mean over the samples it scores",
        },
        headline="macro",
        columns=("b",),
        differences=(
            "collar boundary F: chunkseg pairs boundaries greedily (closest pair first), tvseg by a maximum "
            "matching; they agree whenever the greedy pairing is maximum, else tvseg's F is higher",
            "a show with no boundary on either side: chunkseg's collar P, R, F are 1, tvseg's undefined (left "
            "out of the means, with a warning)",
            "chunkseg's BERTScore title metrics (gc_bs_*, tm_bs_*) and WER are not computed",
            "a show whose mean reference segment is 511 chunks or more (51 min at 6 s): segeval 2.0.11's "
            "window_diff fails there (it tests `len(window) is window_size + 1`, an identity of ints past CPython's "
            "cached ones), and chunkseg gives WindowDiff 1 for equal segmentations and fails for others; tvseg "
            "counts the windows (0 for equal ones)",
            "confidence intervals: chunkseg bootstraps each mean on its own (unseeded), tvseg pairs its "
            "resamples over shows (seeded)",
        ),
    ),
    _preset(
        name="vidchapters",
        tool="VidChapters-7M dvc_eval (commit fa3900c6)",
        settings={},
        sources={
            "headline": "eval_dvc: Precision, Recall at tIoU 0.3/0.5/0.7/0.9 averaged over videos, then over "
            "thresholds (tvseg's corpus value of vc_detection_*)",
            "captioning": "eval_dvc's evaluate_tiou (METEOR, CIDEr-D, BLEU-1..4, ROUGE-L of the title pairs at tIoU "
            ">= t after pycocoevalcap's Java PTB tokenisation, per video, then averaged over videos and thresholds) "
            "and eval_soda (SODA_c, METEOR), read at commit fa3900c6",
        },
        columns=("vc_detection_precision", "vc_detection_recall", "vc_detection_f1"),
        differences=(
            "a video missing from the prediction file: dvc_eval skips it, tvseg scores it as an empty "
            "prediction list (P = R = 0, as VidChapters' dvc.py writes every video), with a warning",
            "predictions past a video's end: dvc_eval keeps them as they are, tvseg crops them to the video "
            "(with a warning); their tIoU can differ",
            "dvc_eval keeps only the first 1,000 predictions of a video (max_proposals), tvseg all of them",
            "tvseg decides tIoU > t exactly, dvc_eval in floats with + 1e-8 in the union (tvseg.retrieval.chapters)",
            "the captioning metrics of the titles (dvc_meteor, dvc_cider, dvc_bleu1..4, dvc_rougeL: eval_dvc's "
            "evaluate_tiou averaged over tIoU 0.3/0.5/0.7/0.9; soda_c: eval_soda's SODA_c with METEOR) are computed "
            "only with tvseg[captioning] (else a warning names what is missing); without Java the titles are tokenised by tvseg.retrieval.ptb, equal to the Java tokenizer on the titles it covers, approximately with a warning on the others, and METEOR is tvseg.retrieval.meteor, equal to the jar's statistics and within 1e-16 of its scores; a video's unmatched "
            "predictions meet seeded random strings where dvc_eval's are unseeded (no score depends on the "
            "letters); SODA_c's DP on a video of about 1,000 chapters: dvc_eval's recursion fails and scores 0, "
            "tvseg computes it (tvseg.retrieval.captioning)",
        ),
    ),
    _preset(
        name="segeval",
        tool="segeval 2.0.11",
        settings={"convention": "segeval"},
        sources={
            "convention": "segeval.window (pk, window_diff: window size round-half-even, at least 2; where no "
            "window fits, pk's 0 and window_diff's 0 for k > N), segeval.similarity (S with transpositions "
            "weighed |span - 1| / n; B)",
            "headline": "segeval scores document by document; a corpus figure is the mean of its values",
        },
        headline="macro",
        columns=("b",),
        needs="units: a text corpus (--format choi, wiki727k, segeval), --units or --frame",
        differences=(
            "segeval takes (hypothesis, reference), tvseg (reference, hypothesis): the preset changes no "
            "argument order of the Python functions",
            "where segeval raises, tvseg gives a value or null: window_diff with k = N (a document of 2 "
            "sentences: Decimal 0/0) is null; S of a document with no boundary on either side (segeval's "
            "ValueError) is 1 (null for 1 sentence); B there is null",
        ),
    ),
    _preset(
        name="nltk",
        tool="nltk (nltk.metrics.segmentation)",
        settings={"convention": "nltk"},
        sources={
            "convention": "nltk.metrics.segmentation.pk (k = round((N-1) / (2 (S-1))) half-even, its windows) "
            "and windowdiff (its N - k windows); ghd with its default costs 2, 2, 1, the raw distance per "
            "document (its corpus value the mean over documents)",
            "headline": "nltk scores one pair at a time; a corpus figure is the mean of its values",
        },
        headline="macro",
        needs="units: a text corpus (--format nltk, choi, ...), --units or --frame",
        differences=("nltk's windowdiff needs k given; tvseg gives it the convention's k unless --k",),
    ),
    _preset(
        name="tdt",
        tool="NIST TDT story segmentation (TDT3seg.pl)",
        settings={"convention": "paper", "k": None},
        sources={
            "convention": "C_seg's probes are Pk's as Beeferman et al. and Pevzner & Hearst write them (the "
            "'paper' convention), so Pk and C_seg count the same probes",
            "k": "half the mean reference segment (the paper default), as tvseg.cseg; TDT fixed it in words "
            "(give --k on word units)",
            "costs": "C_miss=1, C_fa=0.3 (TDT3seg.pl's defaults), P_seg=0.3 (Doddington 1998): the values "
            "evaluate always uses for cseg",
        },
        columns=("cseg",),
        needs="units: --units or --frame (C_seg counts probes on units)",
        differences=(
            "TDT fixed the probe distance in words (or seconds for audio; not verified here): tvseg's default "
            "is half the mean reference segment, give --k for a fixed distance in units",
        ),
    ),
    _preset(
        name="chapter-llama",
        tool="Chapter-Llama tools/results (commit d19a77ef)",
        settings={},
        sources={
            "headline": "OverlapMetrics (tools/results/metrics_overlap.py): F1 over tIoU 0.50:0.05:0.95, the average "
            "tIoU and the chapter-count error, each averaged over videos (tvseg's corpus value of cl_f1, "
            "cl_avg_tiou, chapter_count_mae, chapter_count_under / equal / over: tvseg.retrieval.chapter_llama)",
        },
        # the summary is in percent: the count MAE (chapter_count_mae, in chapters) is in the JSON
        columns=("cl_f1", "cl_avg_tiou", "chapter_count_under", "chapter_count_equal", "chapter_count_over"),
        differences=(
            "Chapter-Llama prints percentages rounded to two decimals and sums P, R, F in float32; tvseg gives "
            "unrounded fractions summed in float64",
            "a video without a predicted chapter: Chapter-Llama's code fails, tvseg scores F1 0 and average tIoU 0",
            "a video's start (Chapter-Llama's 0) is the show's evaluated region's start, its duration the region's "
            "end; a chapter ends where the next one starts (a gap after a segment belongs to it)",
            "Chapter-Llama's SODA and CIDEr columns (tools/results/metrics_soda.py, metrics_caption.py) are not "
            "computed by this preset",
        ),
    ),
    _preset(
        name="trecvid",
        tool="NIST TRECVID 2003-2004 story segmentation scorer (Executable-Linux-v7-2004)",
        settings={"tolerance": 5.0},
        sources={
            "tolerance": "the scorer's README: './evaluate.sh eps nameDir', submission times matched against a "
            "truth time T in [T-eps, T+eps]; the guidelines' evaluations used eps = 5 s",
            "headline": "TRECVID's run tables give each run's boundary recall and precision over the test "
            "collection (tvseg pools the counts over the videos)",
            "counting": "a reference boundary is found when at least one submitted boundary lies in its interval; "
            "a submitted boundary in no reference interval is a false alarm (not one-to-one): trecvid_recall, "
            "trecvid_precision, trecvid_f1 (tvseg.retrieval.corpus.trecvid_components)",
        },
        columns=("trecvid_precision", "trecvid_recall", "trecvid_f1"),
        differences=(
            "the scorer's Java source and the submission DTD were not reachable: the counting rule, the XML "
            "element names and which boundaries count (every story start strictly inside the evaluated region, "
            "MISCELLANEOUS stories' included) are tvseg's reading, stated in formats/trecvid.md",
            "NIST's alignment table (alignment.txt.final: an offset per video between the reference's clock and "
            "the MPEG file's) is not read: give each video's offset as the reference's time origin (a time_origin "
            "column of --metadata; formats/trecvid.md)",
            "NIST's length table (lengthTableTestCollection.txt) is a UEM in tvseg: each video's [0, length]; the "
            "submission's last story ends there",
            "NIST's scorer clips the reference and the submission to the part both cover (its clipping points); "
            "tvseg scores the reference's extent, or the UEM",
        ),
    ),
)

PRESETS: Mapping[str, Preset] = MappingProxyType({p.name: p for p in _PRESETS})
"""Preset name -> :class:`Preset`."""
assert tuple(PRESETS) == PRESET_NAMES


def _get(name: str) -> Preset:
    if name not in PRESETS:
        raise UsageError(f"unknown preset {name!r}: one of {', '.join(PRESETS)}")
    return PRESETS[name]


def effective_settings(name: str | None, given: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """Settings fields of a run: ``defaults``, then the preset's values, then ``given`` (explicit values win).

    Parameters
    ----------
    name : str or None
        The preset, or None for none.
    given : Mapping[str, Any]
        The fields given explicitly.
    defaults : Mapping[str, Any]
        The fields' values when neither the preset nor ``given`` sets them.

    Returns
    -------
    dict
        Keyword arguments of :class:`~tvseg.settings.Settings` (with ``preset``).
    """
    chosen = dict(defaults)
    if name is not None:
        chosen.update(_get(name).settings)
        if "frame" in given and given["frame"] is not None and "units" not in given:
            chosen["units"] = "frames"
    chosen.update(given)
    if chosen.get("units") != "frames":
        chosen["frame"] = None
    chosen["preset"] = name
    return chosen


def preset_settings(name: str, /, **overrides: Any) -> Settings:
    """The :class:`~tvseg.settings.Settings` of preset ``name``, with ``overrides`` winning.

    Examples
    --------
    >>> preset_settings("chunkseg").signature()  # doctest: +ELLIPSIS
    'gamma:0.85|tol:3|long:30|title:exact|stem:yes|uem:no|units:frames|frame:6|k:auto|conv:chunkseg|boot:1000|...'
    >>> preset_settings("chunkseg", tolerance=5.0).tolerance
    5.0
    """
    return Settings(**effective_settings(name, overrides, {}))
