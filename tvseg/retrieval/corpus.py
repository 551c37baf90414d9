r"""Scoring the shows of a corpus: each system's per-show additive components.

A metric is computed from **components** (counts and durations) that add up over shows, as in
pyannote.metrics: the corpus value pools the components of all shows (micro average, as
Bouchekif et al.'s tables are computed), the macro value is the mean of the per-show values; those
reductions and the metrics' formulas are in :mod:`tvseg.retrieval.reductions`.
Everything is vectorised over the corpus: all shows' segments are scored in one pass
(:func:`tvseg.retrieval.coverage.match`, :func:`tvseg.retrieval.matching.match_boundaries`) and summed
per show with ``numpy.bincount``.

Components per show (columns of :attr:`ShowScores.components`):

- ``n_reference, n_hypothesis, n_correct_reference, n_correct_hypothesis`` (segments) and
  ``duration_reference, duration_hypothesis, duration_correct_reference, duration_correct_hypothesis``
  (seconds); the same eight with the suffixes ``_short`` and ``_long``: a reference segment is
  classed by its own duration (recall side), a hypothesis segment by its own duration (precision
  side); *long* means ``duration >= long_threshold``;
- ``boundary_n_reference, boundary_n_hypothesis, boundary_n_matched`` at the settings' tolerance;
- the boundary distances of :mod:`tvseg.retrieval.distances`: ``hit_n_matched_0_5s, hit_n_matched_3s``
  (boundaries matched at 0.5 s and 3 s), ``deviation_r2h_sum, deviation_h2r_sum, deviation_n_shows`` (the
  show's median deviations, and 1 where they are defined) and ``hausdorff_sum, hausdorff_n_shows``;
- the chaptering components of :func:`tvseg.retrieval.chapters.chapter_components`:
  ``chapter_n_shows`` (1 for a show with a reference segment) and the show's own VidChapters rates
  (detection per tIoU threshold, its one-to-one variant, navigation per distance), so that a sum
  over shows divided by ``chapter_n_shows`` is VidChapters' **mean over shows** (videos): the
  corpus values of the ``chapters`` metrics are means over shows, not pooled counts;
- with titles: ``n_untitled_reference`` (reference segments without a title: no title can be
  judged there), ``n_correct_titled_reference`` (correctly retrieved reference segments with a
  title), ``title_correct_reference`` (those whose partner's title is correct), ``title_f1_sum``
  (their title-word F1 summed), ``title_rougeL_sum`` (their title ROUGE-L F summed,
  :mod:`tvseg.retrieval.rouge`), ``title_correct_hypothesis``; and the whole-list title score:
  ``title_list_n_shows`` (1 for a show with a titled reference segment) and ``title_list_rougeL_sum``
  (that show's ROUGE-L F of its reference titles read in time order as one text against its
  hypothesis titles read likewise; untitled segments are skipped, every segment of the show is read,
  not only those of the evaluated region); and chunkseg's temporally matched title score
  (:func:`tvseg.retrieval.chapters.match_in_time`): ``title_matched_n_shows`` (1 for a show with at
  least one matched pair), ``title_matched_rougeL_p_sum``, ``title_matched_rougeL_r_sum``,
  ``title_matched_rougeL_f_sum`` (that show's mean over its matched pairs of ROUGE-L P, R and F) and
  ``title_matched_sum`` (its matched reference chapters over its reference chapters, over
  ``title_list_n_shows``);
- the story classes of :mod:`tvseg.retrieval.stories`: ``n_reference_split, n_reference_merged,
  n_reference_shifted, n_reference_missed`` (reference stories not correctly retrieved, by class) and
  ``n_hypothesis_merging, n_hypothesis_split_part, n_hypothesis_shifted, n_false_alarm``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from functools import cached_property

import numpy as np
import pandas as pd

from tvseg.columns import Segments
from tvseg.exact import tick, ticks
from tvseg.retrieval.boundaries import extract, regions
from tvseg.retrieval.captioning import CAPTIONING_COMPONENTS, captioning_components
from tvseg.retrieval.chapter_llama import chapter_llama_components
from tvseg.retrieval.chapters import chapter_components, chapter_counts, match_in_time, titled_chapters
from tvseg.retrieval.coverage import Matching, correct, match
from tvseg.retrieval.distances import distance_components
from tvseg.retrieval.grounding import grounding_components
from tvseg.retrieval.matching import BoundaryMatching, match_boundaries
from tvseg.retrieval.rouge import rouge_l, rouge_l_list
from tvseg.retrieval.stories import classify, story_counts
from tvseg.retrieval.titles import NO_TITLE, compare_titles, has_title

__all__ = [
    "KERNELS",
    "DISJOINT_KERNELS",
    "ShowScores",
    "score_shows",
    "coverage_components",
    "boundary_components",
    "title_components",
    "story_components",
    "trecvid_components",
]


def _sum(show: np.ndarray, weights, n: int) -> np.ndarray:
    """Per show, the sum of ``weights`` (one per segment; None: the number of segments)."""
    if n == 1 and len(show):  # one show: bincount's sum (it adds the weights one by one from 0), cheaper
        if weights is None or weights.dtype == bool:
            return np.array([float(len(show) if weights is None else np.count_nonzero(weights))])
        return np.add.accumulate(weights, dtype=np.float64)[-1:]
    if weights is None:
        return np.bincount(show, minlength=n).astype(float)
    return np.bincount(show, weights=weights, minlength=n)  # (bincount reads any weights as floats)


@dataclass(eq=False)
class ShowScores:
    """One system scored on every show of a corpus: its segments and settings (:func:`score_shows`),
    and what the component kernels share and give, each computed once, when first read.

    Attributes
    ----------
    shows : list of str
        Show ids, in the order of the rows of ``components``.
    reference, hypothesis : Segments
        The corpus, with the same show order.
    components : pandas.DataFrame
        Additive components per show (index: show id); see the module docstring.
    boundary_matched : pandas.DataFrame
        ``n_matched`` per show (rows) and tolerance (columns), for the tolerances asked.
    titles : bool
        Whether titles are scored (then the title components are present): as asked, else when some
        segment of each side carries one.
    matching : Matching
    correct : tuple of ndarray
        ``(reference, hypothesis)``: whether each segment is correctly retrieved at the settings' gamma.
    region_start, region_end : ndarray
        Each show's evaluated region (UEM extent, else the reference's extent; NaN without one).
    boundaries : tuple of ndarray
        ``(ref_show, ref_time, hyp_show, hyp_time)``: every boundary of each side, sorted.
    pairs : tuple of ndarray
        ``(i, j)``: indices into the reference and hypothesis boundaries of the pairs matched at
        the settings' tolerance.
    reference_title_correct, hypothesis_title_correct, reference_title_f1, reference_title_rougeL : ndarray or None
        Per segment, when titles are scored (``reference_title_rougeL``: ROUGE-L F with the partner's title).
    """

    reference: Segments
    hypothesis: Segments
    shows: list[str]
    gamma: float
    long_threshold: float | None
    tolerance: float
    tolerances: Sequence[float] | np.ndarray = ()
    uem_start: np.ndarray | None = None
    uem_end: np.ndarray | None = None
    title_f1_threshold: float | None = None
    titles_asked: bool | None = None
    title_stemmer: bool = False
    title_match_tolerance: float = 5.0
    captioning: bool = False
    disjoint: bool = True
    trecvid: bool = False

    @property
    def n(self) -> int:
        return len(self.shows)

    @cached_property
    def matching(self) -> Matching:
        return match(self.reference, self.hypothesis)

    @cached_property
    def correct(self) -> tuple[np.ndarray, np.ndarray]:
        return correct(self.matching, self.gamma)

    @cached_property
    def story_classes(self) -> tuple[np.ndarray, np.ndarray]:
        """``(reference, hypothesis)``: each segment's story class code (:mod:`tvseg.retrieval.stories`)."""
        return classify(self.matching, self.reference.duration_ticks, self.hypothesis.duration_ticks, self.correct)

    @cached_property
    def region(self) -> tuple[np.ndarray, np.ndarray]:
        return regions(self.reference, self.uem_start, self.uem_end)

    @cached_property
    def boundaries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        r_show, r_time = extract(self.reference, *self.region)
        h_show, h_time = extract(self.hypothesis, *self.region)
        return r_show, r_time, h_show, h_time

    @cached_property
    def boundary_matching(self) -> BoundaryMatching:
        """The boundaries' pairs (smallest total distance) at the settings' tolerance, and the number
        matched per show there and at every tolerance of the sweep: one kernel run."""
        return match_boundaries(
            *self.boundaries, tolerance=float(self.tolerance), sweep=self.tolerances, n_shows=self.n
        )

    @cached_property
    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        return self.boundary_matching.pairs

    @cached_property
    def boundary_matched(self) -> pd.DataFrame:
        counts = {tol: count.astype(float) for tol, count in self.boundary_matching.matched.items()}
        return pd.DataFrame(counts, index=pd.Index(list(self.shows), name="show"))

    @cached_property
    def components(self) -> pd.DataFrame:
        """Every component kernel of :data:`KERNELS` whose requirements the system meets, run once, in that
        order (without disjoint segments, not those of :data:`DISJOINT_KERNELS`)."""
        comp: dict[str, np.ndarray] = {}
        for kernel in KERNELS:
            if self.disjoint or kernel not in DISJOINT_KERNELS:
                comp.update(kernel(self))
        return pd.DataFrame(comp, index=pd.Index(list(self.shows), name="show"))

    @property
    def region_start(self) -> np.ndarray:
        return self.region[0]

    @property
    def region_end(self) -> np.ndarray:
        return self.region[1]

    @cached_property
    def titles(self) -> bool:
        """Whether titles are scored: as asked, else when some segment of each side carries one."""
        if self.titles_asked is not None:
            return bool(self.titles_asked)
        return all(self.some_titled)

    @cached_property
    def some_titled(self) -> tuple[bool, bool]:
        """``(reference, hypothesis)``: whether some segment has a title (:func:`has_title`)."""
        return _some_title(self.reference.label), _some_title(self.hypothesis.label)

    @cached_property
    def titled(self) -> tuple[np.ndarray, np.ndarray]:
        """``(reference, hypothesis)``: whether each segment has a title (:func:`has_title`)."""
        return _titled(self.reference.label), _titled(self.hypothesis.label)

    @cached_property
    def title_verdicts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """Per segment, when titles are scored: the reference's and the hypothesis's title correct, the
        reference's title-word F1 and ROUGE-L F with its partner's title."""
        if not self.titles:
            return None
        m, (ok_r, ok_h) = self.matching, self.correct
        if not (self.titled[0].any() and self.titled[1].any()):  # every pair has a side without a title
            return np.zeros(len(ok_r), bool), np.zeros(len(ok_h), bool), np.zeros(len(ok_r)), np.zeros(len(ok_r))
        reference, hypothesis = self.reference, self.hypothesis
        partner_r = np.where(m.reference_partner >= 0, m.reference_partner, 0)
        partner_h = np.where(m.hypothesis_partner >= 0, m.hypothesis_partner, 0)
        t_ok_r, f1_r = compare_titles(
            reference.label[ok_r], hypothesis.label[partner_r[ok_r]], f1_threshold=self.title_f1_threshold
        )
        t_ok_h, _ = compare_titles(
            reference.label[partner_h[ok_h]], hypothesis.label[ok_h], f1_threshold=self.title_f1_threshold
        )
        full_r, full_f1, full_h = np.zeros(len(ok_r), bool), np.zeros(len(ok_r)), np.zeros(len(ok_h), bool)
        full_r[ok_r], full_f1[ok_r], full_h[ok_h] = t_ok_r, f1_r, t_ok_h
        rouge_r = _title_rouge(reference.label, hypothesis.label, ok_r, partner_r, self.title_stemmer)
        return full_r, full_h, full_f1, rouge_r

    def _verdict(self, k: int) -> np.ndarray | None:
        return None if self.title_verdicts is None else self.title_verdicts[k]

    reference_title_correct = property(lambda self: self._verdict(0))
    hypothesis_title_correct = property(lambda self: self._verdict(1))
    reference_title_f1 = property(lambda self: self._verdict(2))
    reference_title_rougeL = property(lambda self: self._verdict(3))

    def without_titles(self) -> ShowScores:
        """These scores as if scored without titles: what was computed kept, the title components
        (:data:`TITLE_COMPONENTS`) and verdicts dropped (a shard scored with titles that its corpus
        scores without)."""
        if not self.titles:
            return self
        out = replace(self, titles_asked=False)
        computed = {k: v for k, v in vars(self).items() if k not in {f.name for f in fields(self)}}
        computed.update(titles=False, title_verdicts=None)
        if "components" in computed:
            computed["components"] = without_title_components(computed["components"])
        vars(out).update(computed)
        return out


def _some_title(labels) -> bool:
    """Whether some label is a title (:func:`has_title`); the labels ``"<NA>"`` (most, without titles)
    left out in one comparison (a label of the API compared with ambiguity, ``pandas.NA``: one by one)."""
    labels = np.asarray(labels, dtype=object)
    try:
        labels = labels[labels != NO_TITLE]
    except (TypeError, ValueError):
        pass
    return any(map(has_title, labels))


def _titled(labels) -> np.ndarray:
    """Whether each label is a title, told once for each distinct label (a side has few)."""
    codes, distinct = pd.factorize(np.asarray(labels, dtype=object), use_na_sentinel=False)
    return np.fromiter(map(has_title, distinct), dtype=bool, count=len(distinct))[codes]


def without_title_components(components: pd.DataFrame) -> pd.DataFrame:
    """A components table without :data:`TITLE_COMPONENTS` nor the captioning components (made only with
    titles), built as :meth:`ShowScores.components` is (from a dict of columns: the same memory layout, so
    that its sums add in the same order)."""
    kept = [c for c in components.columns if c not in TITLE_COMPONENTS and c not in CAPTIONING_COMPONENTS]
    return pd.DataFrame({c: components[c].to_numpy() for c in kept}, index=components.index)


def coverage_components(pair: ShowScores) -> dict[str, np.ndarray]:
    """Segment counts and durations, correct or not, of both sides, all and by length class; of a
    hypothesis whose segments overlap, the segment counts only (the coverage matching needs disjoint
    segments)."""
    reference, hypothesis, n = pair.reference, pair.hypothesis, pair.n
    d_r, d_h = reference.duration, hypothesis.duration
    comp: dict[str, np.ndarray] = {}
    classes: list[tuple[str, np.ndarray | None, np.ndarray | None]] = [("", None, None)]
    if pair.long_threshold is not None:  # (None: one show scored by tvseg.coverage, no length class)
        long_r = reference.duration_ticks >= tick(pair.long_threshold)
        long_h = hypothesis.duration_ticks >= tick(pair.long_threshold)
        classes += [("_short", ~long_r, ~long_h), ("_long", long_r, long_h)]
    for suffix, sel_r, sel_h in classes:
        comp["n_reference" + suffix] = _sum(reference.show, sel_r, n)
        comp["n_hypothesis" + suffix] = _sum(hypothesis.show, sel_h, n)
        if not pair.disjoint:
            continue
        ok_r, ok_h = pair.correct
        in_r = ok_r if sel_r is None else sel_r & ok_r
        in_h = ok_h if sel_h is None else sel_h & ok_h
        comp["n_correct_reference" + suffix] = _sum(reference.show, in_r, n)
        comp["n_correct_hypothesis" + suffix] = _sum(hypothesis.show, in_h, n)
        comp["duration_reference" + suffix] = _sum(reference.show, d_r if sel_r is None else d_r * sel_r, n)
        comp["duration_hypothesis" + suffix] = _sum(hypothesis.show, d_h if sel_h is None else d_h * sel_h, n)
        comp["duration_correct_reference" + suffix] = _sum(reference.show, d_r * in_r, n)
        comp["duration_correct_hypothesis" + suffix] = _sum(hypothesis.show, d_h * in_h, n)
    return comp


def trecvid_components(pair: ShowScores) -> dict[str, np.ndarray]:
    """TRECVID 2003-2004 story segmentation's counts (``--preset trecvid``; none otherwise): per show, the
    reference boundaries found (some submitted boundary within the tolerance of it, the closed interval
    ``[T - eps, T + eps]`` of NIST's scorer) and the submitted boundaries that are not false alarms (within
    the tolerance of some reference boundary). Not one to one: two submitted boundaries near one reference
    boundary both count, and one submitted boundary may find two reference boundaries (``formats/trecvid.md``)."""
    if not pair.trecvid:
        return {}
    r_show, r_time, h_show, h_time = pair.boundaries
    r_t, h_t, eps = ticks(r_time), ticks(h_time), tick(float(pair.tolerance))
    found = np.zeros(pair.n)
    correct = np.zeros(pair.n)
    r_edges = np.searchsorted(r_show, np.arange(pair.n + 1))
    h_edges = np.searchsorted(h_show, np.arange(pair.n + 1))
    for k in range(pair.n):
        r, h = r_t[r_edges[k] : r_edges[k + 1]], h_t[h_edges[k] : h_edges[k + 1]]
        found[k] = _near(r, h, eps).sum()
        correct[k] = _near(h, r, eps).sum()
    return {"trecvid_n_found_reference": found, "trecvid_n_correct_hypothesis": correct}


def _near(points: np.ndarray, others: np.ndarray, eps: int) -> np.ndarray:
    """Whether each of ``points`` (sorted ticks) has one of ``others`` (sorted ticks) at most ``eps`` away."""
    if not len(others):
        return np.zeros(len(points), dtype=bool)
    # the number of others in [p - eps, p + eps]
    return np.searchsorted(others, points + eps, side="right") > np.searchsorted(others, points - eps, side="left")


def boundary_components(pair: ShowScores) -> dict[str, np.ndarray]:
    """Boundaries of each side and those matched at the settings' tolerance."""
    r_show, _, h_show, _ = pair.boundaries
    return {
        "boundary_n_reference": np.bincount(r_show, minlength=pair.n).astype(float),
        "boundary_n_hypothesis": np.bincount(h_show, minlength=pair.n).astype(float),
        "boundary_n_matched": pair.boundary_matched[float(pair.tolerance)].to_numpy(),
    }


TITLE_COMPONENTS = (
    "n_untitled_reference",
    "n_correct_titled_reference",
    "title_correct_reference",
    "title_f1_sum",
    "title_correct_hypothesis",
    "title_rougeL_sum",
    "title_list_n_shows",
    "title_list_rougeL_sum",
    "title_matched_n_shows",
    "title_matched_rougeL_p_sum",
    "title_matched_rougeL_r_sum",
    "title_matched_rougeL_f_sum",
    "title_matched_sum",
)
"""The components :func:`title_components` gives, in its order (the columns a system scored without
titles lacks)."""


def title_components(pair: ShowScores) -> dict[str, np.ndarray]:
    """The title components of the module docstring, :data:`TITLE_COMPONENTS` (none when titles are
    not scored)."""
    verdicts = pair.title_verdicts
    if verdicts is None:
        return {}
    t_ok_r, t_ok_h, f1_r, rouge_r = verdicts
    reference, hypothesis, n = pair.reference, pair.hypothesis, pair.n
    ok_r, _ = pair.correct
    titled_r, titled_h = pair.titled
    comp = {
        "n_untitled_reference": _sum(reference.show, ~titled_r, n),
        "n_correct_titled_reference": _sum(reference.show, ok_r & titled_r, n),
        "title_correct_reference": _sum(reference.show, t_ok_r, n),
        "title_f1_sum": _sum(reference.show, f1_r, n),
        "title_correct_hypothesis": _sum(hypothesis.show, t_ok_h, n),
        "title_rougeL_sum": _sum(reference.show, rouge_r, n),
    }
    if not (titled_r.any() and titled_h.any()):  # a side without a title: no list nor chapter to compare
        comp["title_list_n_shows"] = (np.bincount(reference.show, weights=titled_r, minlength=n) > 0).astype(float)
        comp["title_list_rougeL_sum"] = np.zeros(n)
        comp.update({key: np.zeros(n) for key in TITLE_COMPONENTS[8:]})
        return comp
    comp["title_list_n_shows"], comp["title_list_rougeL_sum"] = _title_lists(
        reference, hypothesis, n, pair.title_stemmer
    )
    comp.update(_title_matched(reference, hypothesis, n, pair.title_stemmer, pair.title_match_tolerance))
    return comp


def story_components(pair: ShowScores) -> dict[str, np.ndarray]:
    """Reference stories and hypothesis segments per story class (:mod:`tvseg.retrieval.stories`)."""
    return story_counts(pair.story_classes, pair.reference.show, pair.hypothesis.show, pair.n)


def _chapter_llama(pair: ShowScores) -> dict[str, np.ndarray]:
    return chapter_llama_components(pair.reference, pair.hypothesis, pair.n, *pair.region)


def _distances(pair: ShowScores) -> dict[str, np.ndarray]:
    return distance_components(*pair.boundaries, n_shows=pair.n)


KERNELS = (
    lambda pair: chapter_components(pair.reference, pair.hypothesis, pair.n),
    lambda pair: chapter_counts(pair.reference, pair.hypothesis, pair.n),
    # the captioning metrics, when asked and titles are scored
    lambda pair: (
        captioning_components(pair.reference, pair.hypothesis, pair.n) if pair.captioning and pair.titles else {}
    ),
    _chapter_llama,
    lambda pair: grounding_components(pair.reference, pair.hypothesis, pair.n),
    coverage_components,
    boundary_components,
    title_components,
    story_components,
    _distances,  # last: the columns before it keep their places
    trecvid_components,
)
"""The component kernels :func:`score_shows` runs, once each, in this order (the columns of
:attr:`ShowScores.components`): each a function of a :class:`ShowScores` (both sides and what the kernels
share: the coverage matching, the boundaries, the title verdicts) returning ``{component: per-show array}``,
without other effect. A kernel whose metrics a system's inputs do not meet returns none (titles, captioning,
grounding: :data:`tvseg.metrics.REQUIREMENTS`)."""
DISJOINT_KERNELS = frozenset(
    {_chapter_llama, boundary_components, _distances, title_components, story_components, trecvid_components}
)
"""The kernels whose components only metrics requiring disjoint segments read (:data:`tvseg.metrics.DISJOINT`):
not run for a hypothesis whose segments overlap (:attr:`ShowScores.disjoint`), nor is the coverage matching."""


def score_shows(
    reference: Segments,
    hypothesis: Segments,
    *,
    shows: Sequence[str],
    gamma: float,
    long_threshold: float,
    tolerance: float,
    tolerances: Sequence[float] | np.ndarray = (),
    uem_start: np.ndarray | None = None,
    uem_end: np.ndarray | None = None,
    title_f1_threshold: float | None = None,
    titles: bool | None = None,
    title_stemmer: bool = False,
    title_match_tolerance: float = 5.0,
    captioning: bool = False,
    disjoint: bool = True,
    trecvid: bool = False,
) -> ShowScores:
    """Score one system on a corpus: components per show (see the module docstring), from every
    component kernel of :data:`KERNELS`, each run once.

    Parameters
    ----------
    reference, hypothesis : Segments
        The corpus, with the same show order (``shows``).
    gamma, long_threshold, tolerance, title_f1_threshold
        As in :class:`tvseg.settings.Settings`.
    tolerances : sequence of float
        Extra tolerances whose matched-boundary counts go to ``boundary_matched``.
    uem_start, uem_end : ndarray, optional
        Per-show UEM edges (NaN where a show has no UEM); elsewhere the region is the reference's
        extent (:func:`tvseg.retrieval.boundaries.regions`).
    titles : bool, optional
        Score titles; default: when some reference and some hypothesis segment carry a title.
    title_stemmer : bool
        Title ROUGE-L with Porter stemming (:mod:`tvseg.retrieval.rouge`).
    title_match_tolerance : float
        Seconds within which the starts and the ends of temporally matched chapters must both lie
        (chunkseg's ``tolerance``, 5 s by default).
    captioning : bool
        Also VidChapters' captioning metrics of the titles (METEOR, CIDEr, BLEU, ROUGE-L, SODA_c:
        :mod:`tvseg.retrieval.captioning`; needs ``tvseg[captioning]``).
    disjoint : bool, default True
        False: the hypothesis's segments may overlap (dense-captioning predictions); only the kernels that
        hold for any set of intervals run (:data:`DISJOINT_KERNELS` left out), and no boundary is matched.
    trecvid : bool
        Also TRECVID story segmentation's counts (:func:`trecvid_components`; ``--preset trecvid``).
    """
    scores = ShowScores(
        reference,
        hypothesis,
        list(shows),
        gamma,
        long_threshold,
        tolerance,
        tolerances,
        uem_start,
        uem_end,
        title_f1_threshold,
        titles,
        title_stemmer,
        title_match_tolerance,
        captioning,
        disjoint,
        trecvid,
    )
    _ = scores.components  # every kernel runs here, once (a shard's scores travel computed)
    if disjoint:
        _ = scores.boundary_matched
    return scores


def _title_rouge(ref_labels, hyp_labels, ok_r, partner_r, stemmer: bool) -> np.ndarray:
    """ROUGE-L F of each correctly retrieved reference segment's title with its partner's (0 elsewhere,
    and where either side has no title)."""
    out = np.zeros(len(ok_r))
    for k in np.flatnonzero(ok_r):
        a, b = ref_labels[k], hyp_labels[partner_r[k]]
        if has_title(a) and has_title(b):
            out[k] = rouge_l(a, b, use_stemmer=stemmer).fmeasure
    return out


def _title_lists(reference: Segments, hypothesis: Segments, n: int, stemmer: bool):
    """Per show: 1 when it has a titled reference segment, and its whole-list title ROUGE-L F."""

    def titles(side):
        out = [[] for _ in range(n)]
        for show, label in zip(side.show, side.label):  # sorted by (show, start): time order
            if has_title(label):
                out[show].append(label)
        return out

    ref, hyp = titles(reference), titles(hypothesis)
    shows = np.array([1.0 if ref[s] else 0.0 for s in range(n)])
    f = np.array([rouge_l_list(ref[s], hyp[s], use_stemmer=stemmer).fmeasure if ref[s] else 0.0 for s in range(n)])
    return shows, f


def _title_matched(reference: Segments, hypothesis: Segments, n: int, stemmer: bool, tolerance: float) -> dict:
    """Per show: chunkseg's temporally matched title ROUGE-L (its mean P, R, F over the matched pairs,
    summed in reference order as chunkseg does) and the fraction of its reference chapters matched."""
    show_end = np.zeros(n, dtype=np.int64)
    np.maximum.at(show_end, reference.show, reference.end_ticks)  # chunkseg's duration: the reference's end
    sides = []
    for side in (reference, hypothesis):
        titled = np.fromiter(map(has_title, side.label), dtype=bool, count=len(side))
        sides.append(titled_chapters(side, titled, show_end))
    (r_index, r_show, r_start, r_end), (h_index, h_show, h_start, h_end) = sides
    ref, hyp = match_in_time((r_show, r_start, r_end), (h_show, h_start, h_end), tolerance)
    sums = np.zeros((n, 3))
    pairs = np.zeros(n)
    for k, j in zip(ref.tolist(), hyp.tolist()):
        show = int(r_show[k])
        score = rouge_l(reference.label[r_index[k]], hypothesis.label[h_index[j]], use_stemmer=stemmer)
        sums[show] = [sums[show, 0] + score.precision, sums[show, 1] + score.recall, sums[show, 2] + score.fmeasure]
        pairs[show] += 1
    means = sums / np.maximum(pairs, 1)[:, None]
    n_ref = np.bincount(r_show, minlength=n).astype(float)
    return {
        "title_matched_n_shows": (pairs > 0).astype(float),
        "title_matched_rougeL_p_sum": means[:, 0],
        "title_matched_rougeL_r_sum": means[:, 1],
        "title_matched_rougeL_f_sum": means[:, 2],
        "title_matched_sum": pairs / np.maximum(n_ref, 1),
    }
