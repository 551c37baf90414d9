r"""Unit-domain scores of a whole corpus at once: every show's components and metrics from flat arrays.

:func:`corpus_unit_scores` projects every show's reference and hypothesis onto its units and counts
each show's additive components (the keys of :mod:`tvseg.unit.reduction`) with the kernels, all shows
at once:

* the projection of every show's segments onto its units or frames, and onto chunkseg's grid under
  ``convention="chunkseg"`` (:mod:`tvseg.unit.projection`: its per-show functions are these on a
  corpus of one);
* Pk, P'k, WindowDiff, WinPR and C_seg from the boundary positions of every show
  (:class:`tvseg.unit.masses.BoundaryPairs`), by :func:`tvseg.unit.windows.window_counts`;
* S and B by :func:`tvseg.unit.edits.edit_counts` and :func:`tvseg.unit.similarity.pair_counts`,
  GHD by :func:`tvseg.unit.ghd.ghd_counts`;
* each show's metrics and the corpus's from the summed components (:mod:`tvseg.unit.reduction`).

Where no Pk or WindowDiff window fits a show, its value is the convention's tool's, as the functions
give it (:func:`tvseg.unit.conventions.no_window_value`: segeval's 0, nltk's 0 for ``k > N``), counted
as one window holding it; where the tool gives none (and under ``"paper"`` and ``"segeval1"``) it stays
0/0, undefined. ``convention="chunkseg"`` also applies chunkseg's substitutes for segeval's 0/0 as
masks (:func:`_chunkseg`). Under ``"nltk"`` and ``"chunkseg"`` GHD is the tools' raw distance (its
corpus value the mean over shows), elsewhere per potential boundary.

The counts are integers; S's, B's and GHD's are sums of halves, summed over shows in show order
(``tests/test_unit_corpus.py`` checks every value against a brute-force count written in the test).
"""

from __future__ import annotations

import numpy as np

from tvseg.errors import InputError, UsageError
from tvseg.unit.conventions import geometry, no_window_value, winpr_geometry, winpr_k
from tvseg.unit.edits import edit_counts, transpositions
from tvseg.unit.ghd import ghd_counts
from tvseg.unit.masses import BoundaryPairs
from tvseg.unit.projection import check_projection, chunk_positions, frames_in, unit_keys, unit_positions
from tvseg.unit.reduction import UnitPart, assemble, reduce_unit_parts
from tvseg.unit.similarity import pair_counts
from tvseg.unit.windows import cseg_geometry, window_counts, winpr_counts

__all__ = ["corpus_unit_scores", "chunk_flag_components", "UnitPart", "reduce_unit_parts"]


def corpus_unit_scores(
    ref,
    hyp,
    *,
    unit_show,
    unit_start,
    unit_end,
    shows,
    settings,
    region_start,
    region_end,
    region_ticks,
    name,
    regions=None,
) -> UnitPart | None:
    r"""Unit-domain components and metrics of every show, from flat arrays: one shard of a corpus (or all of it),
    whose parts :func:`~tvseg.unit.reduction.reduce_unit_parts` reduces to the corpus's metrics.

    Parameters
    ----------
    ref, hyp : tvseg.columns.Segments
        Reference and (cropped) hypothesis of the same ``shows`` (show index ``k`` is ``shows[k]``),
        read by duck typing (``show, start, start_ticks, end_ticks, n_shows, offsets()``): ``retrieval``
        is a layer beside ``unit``, which imports nothing from it, not even for type checking
        (``tests/test_unit_layers.py``).
    unit_show, unit_start, unit_end : numpy.ndarray or None
        The units of every show: show index (int, sorted), start and end in seconds (sorted by start
        within a show); None for all three when ``settings.units == "frames"``.
    shows : sequence of str
        The show names.
    settings : tvseg.settings.Settings
        ``units``, ``frame``, ``k`` and ``convention``.
    region_start, region_end : numpy.ndarray of float
        Each show's evaluated region (NaN for a show without one); frames cover it.
    region_ticks : (numpy.ndarray, numpy.ndarray)
        ``region_start`` and ``region_end`` in ticks, 0 for a show without a region
        (:func:`tvseg.unit.projection.edge_ticks`, :attr:`tvseg.preparation.Prepared.region_ticks`).
    name : str
        The system's name, for the warnings.
    regions : tvseg.retrieval.region.Region, optional
        The regions of a UEM with gaps, read by duck typing (``covers(show, ticks)``): frames whose
        midpoint lies in a gap are not evaluated (units from a file come without them already).

    Returns
    -------
    tvseg.unit.reduction.UnitPart or None
        Per show (index ``shows``, NaN rows for shows not scored) the metrics of
        :func:`tvseg.unit.reduction.unit_metrics`, the components behind them and the warnings not yet
        given (a show without units, a show shorter than one chunk under ``"chunkseg"``, each metric's
        first 0/0); None when there are neither units nor frames. :func:`~tvseg.unit.reduction.reduce_unit_parts`
        gives the warnings and the corpus's metrics from the summed components
        (:math:`P_k = \sum(\text{miss} + \text{fa}) / \sum \text{windows}`, and so on).

    Raises
    ------
    InputError
        As :func:`tvseg.unit.projection.to_masses` on the first show in error: overlapping segments,
        a unit with a bad or unordered time span, a frame region that is empty.
    """
    frames_mode = settings.units == "frames"
    if unit_show is None and not frames_mode:
        return None
    n_shows = len(shows)
    region_start = np.asarray(region_start, dtype=float)
    region_end = np.asarray(region_end, dtype=float)
    if settings.convention == "chunkseg":
        if not frames_mode:
            raise UsageError(
                "convention 'chunkseg' counts on chunkseg's chunks (--frame SECONDS, 6 in chunkseg), "
                "not on units from a file"
            )
        return _chunkseg(ref, hyp, shows, settings, region_start, region_end, region_ticks, name)
    events = []
    if frames_mode:
        scored, u_show, u_start, u_end = frames_in(region_start, region_end, settings.frame, regions)
    else:
        u_show = np.asarray(unit_show, dtype=np.int64)
        u_start = np.asarray(unit_start, dtype=float)
        u_end = np.asarray(unit_end, dtype=float)
        if u_show.size and (u_show[0] < 0 or u_show[-1] >= n_shows or (np.diff(u_show) < 0).any()):
            raise InputError(f"unit_show must be show indices in 0 .. {n_shows - 1}, sorted")
    mid = (u_start + u_end) / 2
    count, first, key = unit_keys(u_show, mid, n_shows)
    if not frames_mode:
        scored = np.flatnonzero(count)
        events = [
            (int(k), -1, f"{name}: no units for show {shows[k]}: its unit metrics are left out")
            for k in np.flatnonzero(count == 0).tolist()
        ]
    check_projection((ref, hyp), u_start, u_end, mid, u_show, first, scored, n_shows)
    pr, r_off = unit_positions(ref, key, first, scored, count)
    ph, h_off = unit_positions(hyp, key, first, scored, count)
    comps = _components(BoundaryPairs(count[scored], pr, r_off, ph, h_off), settings)
    return assemble(comps, scored, shows, events)


def _components(pairs: BoundaryPairs, settings) -> dict:
    """The additive counts of every scored show (arrays; the keys of :mod:`tvseg.unit.reduction`):
    Pk and WindowDiff in the settings' convention and ``k``; WinPR and C_seg with ``k`` or their own
    defaults (Scaiano & Inkpen's window, :func:`tvseg.unit.conventions.winpr_k`; Pk's paper default);
    S in the settings' convention when S has it (``"segeval"``, ``"segeval1"``), else the paper's, as
    :func:`tvseg.segmentation_similarity` with that convention; B (segeval 2.0.11's, ``n = 2``) and GHD
    (nltk's costs 2, 2, 1)."""
    n, segments = pairs.n, pairs.reference_segments()
    convention, k = settings.convention, settings.k
    g_pk = geometry(n, segments, k, convention, metric="pk")
    g_wd = geometry(n, segments, k, convention)
    same = convention != "segeval1"  # the same windows for Pk and WindowDiff
    pk = window_counts(pairs, g_pk, sweep=same, summed=False)
    wd = pk if same else window_counts(pairs, g_wd, probes=False, summed=False)
    cseg = pk if convention == "paper" else window_counts(pairs, cseg_geometry(pairs, k), sweep=False)
    tp, tn, fp, fn = winpr_counts(pairs, winpr_geometry(n, winpr_k(n, segments) if k is None else k))
    edits = edit_counts(pairs, transpositions(pairs, n=2))
    s_convention = convention if convention in ("segeval", "segeval1") else "paper"
    s_penalty, s_potential = pair_counts(pairs, convention=s_convention, edits=edits)
    b_penalty, b_denominator = pair_counts(pairs, metric="B", convention="segeval", edits=edits)
    comps = {
        "pk_miss": np.array(pk.miss),
        "pk_false_alarm": pk.false_alarm,
        "pk_windows": np.array(pk.windows),
        "wd_errors": np.array(wd.errors),
        "wd_windows": np.maximum(g_wd.divisor, 0),
        "winpr_tp": tp,
        "winpr_tn": tn,
        "winpr_fp": fp,
        "winpr_fn": fn,
        "cseg_miss": cseg.miss,
        "cseg_ref_probes": cseg.in_reference,
        "cseg_fa": cseg.false_alarm,
        "cseg_nonref_probes": cseg.windows - cseg.in_reference,
        "s_penalty": s_penalty,
        "s_potential": s_potential,
        "ghd_sum": ghd_counts(pairs),
        # nltk's ghd (and chunkseg's, which calls it) is the raw distance: one position per show, so that
        # the corpus value is the mean over shows
        "ghd_positions": np.ones_like(pairs.n) if convention in ("nltk", "chunkseg") else pairs.n - 1,
        "b_penalty": b_penalty,
        "b_denominator": b_denominator,
    }
    # where no window fits, the tool's own value (segeval's Pk 0, its WindowDiff 0 for k > N...), as one
    # window holding it, as tvseg.pk and tvseg.windowdiff give it; NaN (0/0) where the tool gives none
    equal = np.diff(pairs.difference_offsets) == 0
    for metric, key, windows, g in (
        ("pk", "pk_miss", "pk_windows", g_pk),
        ("windowdiff", "wd_errors", "wd_windows", g_wd),
    ):
        value = no_window_value(convention, metric, np.broadcast_to(g.divisor, np.shape(comps[windows])), equal)
        given = (comps[windows] == 0) & ~np.isnan(value)
        comps[key][given] = value[given]
        comps[windows][given] = 1
    return comps


def _chunkseg(ref, hyp, shows, settings, region_start, region_end, edges, name):
    r"""Under ``"chunkseg"``: every show on chunkseg's grid (:func:`tvseg.unit.projection.chunk_masses`),
    the window counts as segeval's, then chunkseg's substitutes.

    A show of duration :math:`D` (its region's end) has :math:`C = \lfloor D / c \rfloor` chunks of
    ``c`` seconds, :math:`N = C + 1` units; a boundary :math:`t` with :math:`0 < t \le \lfloor D/c \rfloor c`
    flags chunk :math:`\min(\lfloor t / c \rfloor, C - 1)`, a boundary at position ``chunk + 1``. Where
    segeval counts no Pk window, Pk is 0 (one window, no error); no WindowDiff window, WindowDiff is
    1 for equal segmentations when :math:`k = N`, else 0 (one window holding it); no B denominator, B
    is 1 (one match); GHD is raw (``ghd_positions = 1``). Also chunkseg's binary precision and recall of
    the chunk flags (:func:`chunk_flag_components`), computed under this convention only.
    """
    chunk = settings.frame
    has = ~np.isnan(region_start)
    duration = np.where(has, region_end, 0.0)
    cut = np.floor(duration / chunk) * chunk
    count = np.where(has & (duration > 0.0), np.floor(cut / chunk), 0).astype(np.int64)
    short = np.flatnonzero(has & (count == 0))
    events = [
        (
            int(k),
            -1,
            f"{name}: show {shows[k]} is shorter than one chunk of {settings.frame:g} s: its unit "
            "metrics are left out (chunkseg scores no such show)",
        )
        for k in short.tolist()
    ]
    scored = np.flatnonzero(count > 0)
    n = count[scored] + 1
    sides = [chunk_positions(side, edges, cut, count, scored, chunk) for side in (ref, hyp)]
    (pr, r_off), (ph, h_off) = sides
    pairs = BoundaryPairs(n, pr, r_off, ph, h_off)
    comps = _components(pairs, settings)  # with chunkseg's Pk and WindowDiff where segeval counts no window
    no_match = comps["b_denominator"] == 0
    comps["b_penalty"][no_match] = 0.0
    comps["b_denominator"][no_match] = 1.0
    comps.update(chunk_flag_components(pairs))
    return assemble(comps, scored, shows, events)


def chunk_flag_components(pairs: BoundaryPairs) -> dict:
    r"""chunkseg 0.4.0's binary precision and recall of the chunks flagged as boundaries, per show
    (``metrics.binary_precision``, ``binary_recall``): with :math:`TP` the chunks both sides flag,
    :math:`P = TP / \#\text{hypothesis flags}` and :math:`R = TP / \#\text{reference flags}`, 0 where the
    side flags no chunk (chunkseg's value for that 0/0). A flagged chunk is a boundary position of
    ``pairs`` (one per chunk). The components of ``chunk_precision``, ``chunk_recall`` and ``chunk_f1``
    (:mod:`tvseg.unit.reduction`), whose corpus values are means over shows."""
    n_reference = np.diff(pairs.reference_offsets)
    n_hypothesis = np.diff(pairs.hypothesis_offsets)
    pair = np.arange(pairs.size, dtype=np.int64)
    reference = (np.repeat(pair, n_reference) << pairs.bits) | pairs.reference
    hypothesis_pair = np.repeat(pair, n_hypothesis)
    hypothesis = (hypothesis_pair << pairs.bits) | pairs.hypothesis
    both = np.bincount(hypothesis_pair[np.isin(hypothesis, reference)], minlength=pairs.size)
    zeros = np.zeros(pairs.size)
    return {
        "chunk_precision_sum": np.divide(both, n_hypothesis, out=zeros.copy(), where=n_hypothesis > 0),
        "chunk_recall_sum": np.divide(both, n_reference, out=zeros, where=n_reference > 0),
        "chunk_n_shows": np.ones(pairs.size, dtype=np.int64),
        "chunk_n_hypothesis": n_hypothesis,
        "chunk_n_reference": n_reference,
    }
