r"""Unit-domain scores of a whole corpus at once: every show's components and metrics from flat arrays.

:func:`corpus_unit_scores` projects every show's reference and hypothesis onto its units and counts
each show's additive components (the keys of :mod:`tvseg.unit.reduction`) with the kernels, all shows
at once:

* the projection (:mod:`tvseg.unit.projection`): unit ``u`` of show ``s`` gets the last segment of
  ``s`` whose start is at or before its midpoint :math:`(a_u + b_u) / 2` (floats, as there), the first
  segment when none is. Segment ``j`` thus owns the units from :math:`c_j = \#\{u : m_u < t_j\}` on:
  one ``searchsorted`` of the keys ``(show, segment start)`` among the keys ``(show, midpoint)``,
  compared lexicographically as complex numbers (show the real part, time the imaginary part). The
  boundary positions (:func:`tvseg.unit.masses.boundary_positions` of the masses) are the distinct
  :math:`c_j` in ``1 .. N - 1`` of the show's segments but its first (:func:`_positions`);
* frames (:func:`tvseg.unit.projection.frames`) of every show's region, with the same float operations;
* Pk, P'k, WindowDiff, WinPR and C_seg from the boundary positions of every show
  (:class:`tvseg.unit.masses.BoundaryPairs`), by :func:`tvseg.unit.windows.window_counts`;
* S and B by :func:`tvseg.unit.edits.edit_counts` and :func:`tvseg.unit.similarity.pair_counts`,
  GHD by :func:`tvseg.unit.ghd.ghd_counts`;
* each show's metrics and the corpus's from the summed components (:mod:`tvseg.unit.reduction`).

``convention="chunkseg"`` projects every show onto chunkseg's grid the same way (the chunk flags of
:func:`tvseg.unit.projection.chunk_flags`, element-wise with the same float operations) and applies
chunkseg's substitutes for segeval's 0/0 as masks (:func:`_chunkseg`).

The counts are integers; S's, B's and GHD's are sums of halves, summed over shows in show order
(``tests/test_unit_corpus.py`` checks every value against a brute-force count written in the test).
"""

from __future__ import annotations

import numpy as np

from tvseg.errors import InputError, UsageError
from tvseg.exact import ticks
from tvseg.unit.conventions import geometry, no_window_value, winpr_geometry, winpr_k
from tvseg.unit.edits import edit_counts, transpositions
from tvseg.unit.ghd import ghd_counts
from tvseg.unit.masses import BoundaryPairs
from tvseg.unit.projection import frames
from tvseg.unit.reduction import UnitPart, assemble, reduce_unit_parts
from tvseg.unit.similarity import pair_counts
from tvseg.unit.windows import cseg_geometry, window_counts, winpr_counts

__all__ = ["corpus_unit_scores", "UnitPart", "reduce_unit_parts"]


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
    name,
    part: bool = False,
    regions=None,
):
    r"""Unit-domain metrics of every show and of the corpus, from flat arrays.

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
    name : str
        The system's name, for the warnings.
    regions : tvseg.retrieval.region.Region, optional
        The regions of a UEM with gaps, read by duck typing (``covers(show, ticks)``): frames whose
        midpoint lies in a gap are not evaluated (units from a file come without them already).
    part : bool
        Return the :class:`UnitPart` of these shows (per-show table, components, warnings not yet
        given) instead: the shows are one shard of a corpus whose parts :func:`reduce_unit_parts`
        joins (:mod:`tvseg.scale`).

    Returns
    -------
    (pandas.DataFrame, dict) or None
        Per show (index ``shows``, NaN rows for shows not scored) the metrics of
        :func:`tvseg.unit.reduction.unit_metrics`, and the corpus's from the summed components
        (:math:`P_k = \sum(\text{miss} + \text{fa}) / \sum \text{windows}`, and so on); None when
        there are neither units nor frames. Warns as the per-show loop: a show without units, a
        show shorter than one chunk (``"chunkseg"``), and each metric that is 0/0 in some show (one
        warning per metric, in the order they first occur) or in the corpus.

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
        return _chunkseg(ref, hyp, shows, settings, region_start, region_end, name, part)
    events = []
    if frames_mode:
        scored = np.flatnonzero(~np.isnan(region_start))
        u_show, u_start, u_end = _frames(region_start[scored], region_end[scored], settings.frame, scored)
        if regions is not None:
            covered = regions.covers(u_show, ticks((u_start + u_end) / 2))
            u_show, u_start, u_end = u_show[covered], u_start[covered], u_end[covered]
    else:
        u_show = np.asarray(unit_show, dtype=np.int64)
        u_start = np.asarray(unit_start, dtype=float)
        u_end = np.asarray(unit_end, dtype=float)
        if u_show.size and (u_show[0] < 0 or u_show[-1] >= n_shows or (np.diff(u_show) < 0).any()):
            raise InputError(f"unit_show must be show indices in 0 .. {n_shows - 1}, sorted")
    count = np.bincount(u_show, minlength=n_shows)
    if not frames_mode:
        scored = np.flatnonzero(count)
        events = [
            (int(k), -1, f"{name}: no units for show {shows[k]}: its unit metrics are left out")
            for k in np.flatnonzero(count == 0).tolist()
        ]
    first = np.concatenate(([0], np.cumsum(count)))  # show k's units: first[k] .. first[k + 1]
    mid = (u_start + u_end) / 2
    _check(ref, hyp, u_start, u_end, mid, u_show, first, scored, n_shows)
    key = np.empty(mid.size, np.complex128)  # (show, midpoint), sorted
    key.real = u_show
    key.imag = mid
    pr, r_off = _positions(ref, key, first, scored, count)
    ph, h_off = _positions(hyp, key, first, scored, count)
    comps = _components(BoundaryPairs(count[scored], pr, r_off, ph, h_off), settings)
    return assemble(comps, scored, shows, events, part)


def _frames(start, end, frame, scored):
    """:func:`tvseg.unit.projection.frames` of every region, concatenated: ``(show, start, end)``."""
    empty = ~(end > start)
    if empty.any():
        i = int(np.flatnonzero(empty)[0])
        from pyannote.core import Segment

        frames(Segment(float(start[i]), float(end[i])), frame)  # raises its InputError
    count = np.maximum(1, np.ceil((end - start) / frame - 1e-9)).astype(np.int64)
    which = np.repeat(np.arange(scored.size), count)
    first = np.cumsum(count) - count
    j = (np.arange(int(count.sum())) - first[which]).astype(float)
    f_start = start[which] + frame * j
    f_end = np.minimum(f_start + frame, end[which])
    f_end[first + count - 1] = end
    return scored[which], f_start, f_end


def _first_overlap(side, scored_mask):
    """``(show, i)`` of the first overlap (in microseconds) among the scored shows, or None."""
    show = np.asarray(side.show, np.int64)
    if show.size < 2:
        return None
    ts, te = side.start_ticks, side.end_ticks
    bad = (ts[1:] < te[:-1]) & (show[1:] == show[:-1]) & scored_mask[show[1:]]
    if not bad.any():
        return None
    i = int(np.flatnonzero(bad)[0])
    return int(show[i]), i


def _check(ref, hyp, u_start, u_end, mid, u_show, first, scored, n_shows):
    """The errors of :func:`tvseg.unit.projection.to_masses`, for the first show in error, in its
    order: the reference's overlaps, the units, the hypothesis's overlaps."""
    failures = []
    mask = np.zeros(n_shows, bool)
    mask[scored] = True
    for order, side in ((0, ref), (2, hyp)):
        hit = _first_overlap(side, mask)
        if hit is not None:
            failures.append((hit[0], order, side, hit[1]))
    bad = ~(np.isfinite(u_start) & np.isfinite(u_end) & (u_end >= u_start))
    back = np.zeros(mid.size, bool)
    back[1:] = (mid[1:] < mid[:-1]) & (u_show[1:] == u_show[:-1])
    for kind, mask_u in (("bad", bad), ("back", back)):
        if mask_u.any():
            u = int(np.flatnonzero(mask_u)[0])
            failures.append((int(u_show[u]), 1, kind, u))
    if not failures:
        return
    show, order, what, i = min(failures, key=lambda f: (f[0], f[1], f[2] != "bad"))
    if order == 1:
        local = int(i - first[show])
        if what == "bad":
            raise InputError(f"unit {local} has no valid [start, end]", value=(u_start[i], u_end[i]))
        raise InputError(
            f"units must be sorted by time; unit {local} starts before unit {local - 1}", value=(u_start[i], u_end[i])
        )
    s, e = what.start, what.end
    raise InputError(
        "segments of a segmentation must not overlap", value=f"[{s[i]}, {e[i]}) and [{s[i + 1]}, {e[i + 1]})"
    )


def _positions(side, key, first, scored, count):
    r"""Boundary positions of one side on the units of every scored show: ``(positions, offsets)``.

    Segment ``j`` of a show owns the units from :math:`c_j = \#\{u : m_u < t_j\}` on (midpoints
    :math:`m_u`, start :math:`t_j`) up to the next segment's :math:`c_{j+1}`: one ``searchsorted`` per
    segment among the ``(show, midpoint)`` keys. A unit starts a new segment when some segment other
    than the show's first has :math:`c_j = u` (units before the first segment join it), so the
    positions are the distinct :math:`c_j` of the later segments in ``1 .. N - 1``.
    """
    seg_show = np.asarray(side.show, np.int64)
    keep = count[seg_show] > 0
    show = seg_show[keep]
    query = np.empty(show.size, np.complex128)
    query.real = show
    query.imag = np.asarray(side.start, float)[keep]
    c = np.searchsorted(key, query, side="left") - first[show]
    later = np.zeros(c.size, bool)
    later[1:] = show[1:] == show[:-1]
    again = np.zeros(c.size, bool)
    again[1:] = later[1:] & later[:-1] & (c[1:] == c[:-1])
    boundary = later & ~again & (c >= 1) & (c < count[show])
    owner = np.searchsorted(scored, show[boundary])
    return c[boundary], np.searchsorted(owner, np.arange(scored.size + 1))


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
    return {
        "pk_miss": pk.miss,
        "pk_false_alarm": pk.false_alarm,
        "pk_windows": pk.windows,
        "wd_errors": wd.errors,
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
        "ghd_positions": pairs.n - 1,
        "b_penalty": b_penalty,
        "b_denominator": b_denominator,
    }


def _chunkseg(ref, hyp, shows, settings, region_start, region_end, name, part=False):
    r"""Under ``"chunkseg"``: every show on chunkseg's grid (:func:`tvseg.unit.projection.chunk_masses`),
    the window counts as segeval's, then chunkseg's substitutes.

    A show of duration :math:`D` (its region's end) has :math:`C = \lfloor D / c \rfloor` chunks of
    ``c`` seconds, :math:`N = C + 1` units; a boundary :math:`t` with :math:`0 < t \le \lfloor D/c \rfloor c`
    flags chunk :math:`\min(\lfloor t / c \rfloor, C - 1)`, a boundary at position ``chunk + 1``. Where
    segeval counts no Pk window, Pk is 0 (one window, no error); no WindowDiff window, WindowDiff is
    1 for equal segmentations when :math:`k = N`, else 0 (one window holding it); no B denominator, B
    is 1 (one match); GHD is raw (``ghd_positions = 1``).
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
    sides = [_chunk_positions(side, region_start, region_end, cut, count, scored, chunk) for side in (ref, hyp)]
    (pr, r_off), (ph, h_off) = sides
    pairs = BoundaryPairs(n, pr, r_off, ph, h_off)
    comps = _components(pairs, settings)
    # where segeval counts no window, chunkseg's value, as one window holding it
    g = geometry(n, pairs.reference_segments(), settings.k, "chunkseg")  # Pk's and WindowDiff's windows
    equal = np.diff(pairs.difference_offsets) == 0
    for metric, key, windows in (("pk", "pk_miss", "pk_windows"), ("windowdiff", "wd_errors", "wd_windows")):
        none = comps[windows] == 0
        comps[key][none] = no_window_value("chunkseg", metric, g.divisor, equal)[none]
        comps[windows][none] = 1
    no_match = comps["b_denominator"] == 0
    comps["b_penalty"][no_match] = 0.0
    comps["b_denominator"][no_match] = 1.0
    comps["ghd_positions"][:] = 1
    return assemble(comps, scored, shows, events, part)


def _chunk_positions(side, region_start, region_end, cut, count, scored, chunk):
    """One side's boundary positions on chunkseg's grid (:func:`tvseg.unit.projection.chunk_flags` of
    :func:`tvseg.unit.projection.chunk_boundaries`): ``(positions, offsets)`` over the scored shows."""
    seg_show = np.asarray(side.show, np.int64)
    keep = count[seg_show] > 0
    show = np.repeat(seg_show[keep], 2)
    times = np.empty(show.size)
    times[0::2] = np.asarray(side.start, float)[keep]
    times[1::2] = np.asarray(side.end, float)[keep]
    tick = np.asarray(side.start_ticks)[keep], np.asarray(side.end_ticks)[keep]
    ticks = np.empty(show.size, np.int64)
    ticks[0::2], ticks[1::2] = tick
    inside = (ticks > _ticks(region_start)[show]) & (ticks < _ticks(region_end)[show])
    show, times, ticks = show[inside], times[inside], ticks[inside]
    again = np.zeros(show.size, bool)  # a start at the previous end: one boundary, the first time
    again[1:] = (ticks[1:] == ticks[:-1]) & (show[1:] == show[:-1])
    show, times = show[~again], times[~again]
    counted = (times > 0.0) & (times <= cut[show])
    show, times = show[counted], times[counted]
    flag = np.minimum(np.floor(times / chunk).astype(np.int64), count[show] - 1)
    again = np.zeros(show.size, bool)
    again[1:] = (flag[1:] == flag[:-1]) & (show[1:] == show[:-1])
    show, flag = show[~again], flag[~again]
    owner = np.searchsorted(scored, show)
    return flag + 1, np.searchsorted(owner, np.arange(scored.size + 1))


def _ticks(seconds):
    return ticks(np.nan_to_num(seconds))
