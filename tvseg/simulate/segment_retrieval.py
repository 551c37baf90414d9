r"""A simulation study of CovN, CovD and boundary F on broadcast-like shows (``tvseg simulate segment-retrieval``).

No paper printed this study: it is the kind of study Pevzner & Hearst (2002, section 4) ran for Pk and
WindowDiff, applied to the segment retrieval metrics of Bouchekif et al. (2015) and to boundary
precision/recall with a tolerance, to show numerically the behaviours their section 4 describes
with figures: an insertion's edge effect and the small penalty for a missed small segment.

**References.** A show lasts ``L ~ U(600, 1800)`` s (10 to 30 minutes). Its topic segments follow
one another without gaps from 0 to the end of the last segment that ends before ``L``; each is, with
probability 0.3, a brief of ``U(10, 30)`` s, otherwise a report of ``U(60, 240)`` s (Bouchekif et
al.'s corpus has 24 % segments under 30 s; the bundled ``data_samples/`` about 40 %). Mean segment:
111 s, about 11 segments per show. A trial is ``shows`` such shows; the references of a trial are
shared by every experiment (common random numbers), and each experiment draws its errors from its own
random stream (:func:`tvseg.simulate.study.experiment_rng`), so that running a subset of the
experiments gives the same numbers.

**Errors** (a boundary is the start of any segment but the first of its show; each event is drawn
independently with probability ``p``):

``DEL``
    each reference boundary is deleted (its two neighbours merge).
``MISS-short``, ``MISS-long``
    each short (< 30 s) or long reference segment is missed: one of its two boundaries, chosen at
    random (the inner one for the first or last segment of a show), is deleted, merging it into a
    neighbour (Bouchekif et al.'s Figure 3).
``INS``
    each reference segment receives a false boundary at a uniform position inside it.
``INS-edge``
    each reference segment receives a false boundary near one of its edges (chosen at random), at a
    distance uniform on ``[0, 0.2 d]`` from it: a small false segment.
``INS-across``
    each reference boundary ``b`` between segments of durations ``d_1`` and ``d_2`` is replaced by a
    false segment across it, ``[b - a, b + c)`` with ``a ~ U(0, d_1/2)``, ``c ~ U(0, d_2/2)``: the
    paper's third case, whose edge effect spoils both neighbours.
``SHIFTs``
    every boundary is moved by ``N(0, s)`` seconds (``p`` is then 1); a shift that would leave the
    show is drawn again; boundaries that cross are re-sorted.
``A+B(+SHIFTs)``
    the errors drawn independently and combined (deletions and insertions with probability ``p``,
    then every remaining boundary shifted).

**Scoring.** CovN and CovD (:mod:`tvseg.retrieval.coverage`) at ``gamma``, boundary F
(:mod:`tvseg.retrieval.boundaries`) at each tolerance, pooled over the shows of a trial (micro
average, as Bouchekif et al.'s tables), computed for the whole study at once by
:func:`tvseg.retrieval.corpus.score_shows`. A cell is the mean over trials of the pooled value; its
``sd`` is the standard deviation over trials. ``recall_n_short`` and ``recall_n_long`` are
:math:`R_N` over the reference segments shorter than, and at least, 30 s; ``errors`` is the number of
deletion and insertion events per reference segment (one per missed segment, one per false segment
across a boundary; shifts are not counted), so that error types can be compared per error.

A split of a segment of duration :math:`d` at :math:`u d` leaves the larger part correct when
:math:`2 u / (1 + u) > \gamma`, i.e. :math:`u > \gamma / (2 - \gamma)` (0.739 at 0.85): a uniform
insertion spoils the segment with probability 0.478, an insertion within 20 % of an edge never does.

References
----------
A. Bouchekif, D. Charlet, G. Damnati, N. Camelin, Y. Estève. Evaluating automatic topic segmentation
as a segment retrieval task. Interspeech 2015, sections 3 and 4.
L. Pevzner, M. Hearst. A critique and improvement of an evaluation metric for text segmentation.
Computational Linguistics 28(1), 2002, section 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np
import pandas as pd

from tvseg.simulate.study import Cell, experiment_rng

if TYPE_CHECKING:
    from tvseg.columns import Segments

__all__ = ["STUDY", "Reference", "draw_references", "hypothesis_segments", "inject", "score", "experiments", "run"]
__all__ += ["format_table", "as_json", "METRICS"]

STUDY = "segment-retrieval"
SHOW_RANGE = (600.0, 1800.0)
BRIEF_SHARE = 0.3
BRIEF_RANGE = (10.0, 30.0)
REPORT_RANGE = (60.0, 240.0)
LONG_THRESHOLD = 30.0
EDGE_SHARE = 0.2
#: Segments drawn per show before cutting at the show's length (60 x 10 s > 1800 s, so always enough).
MAX_SEGMENTS = 180
PROBABILITIES = (0.05, 0.25, 0.5)
SIGMAS = (2, 5, 10, 20)
TABLES = ("deletion", "insertion", "shift", "combined")
ERRORS = {
    "deletion": ("DEL", "MISS-short", "MISS-long"),
    "insertion": ("INS", "INS-edge", "INS-across"),
    "shift": tuple(f"SHIFT{s}" for s in SIGMAS),
    "combined": ("DEL+INS", "DEL+INS+SHIFT5"),
}
#: The metrics of every experiment (the boundary F-measures are added per tolerance).
METRICS = ("cov_n", "cov_d", "recall_n", "precision_n", "recall_d", "precision_d", "recall_n_short", "recall_n_long")


@dataclass(frozen=True, eq=False)
class Reference:
    """The reference shows of a study, as flat arrays sorted by show and time.

    Attributes
    ----------
    segments : tvseg.columns.Segments
        Every segment of every show (no gaps: each show runs from 0 to ``length``).
    length : ndarray
        Duration of each show.
    trial : ndarray of int
        Trial of each show.
    """

    segments: Segments
    length: np.ndarray
    trial: np.ndarray

    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """Whether each segment is the first, and whether it is the last, of its show."""
        offsets = self.segments.offsets()
        first, last = np.zeros((2, len(self.segments)), dtype=bool)
        first[offsets[:-1]] = True
        last[offsets[1:] - 1] = True
        return first, last

    @property
    def boundary_segment(self) -> np.ndarray:
        """Index of the segment that starts at each boundary (every segment but a show's first)."""
        return np.flatnonzero(~self.edges()[0])


def _segments(show: np.ndarray, start: np.ndarray, end: np.ndarray, n_shows: int):
    from tvseg.columns import Segments, check

    check(start, end, what="simulated segmentation", show=show)
    label = np.full(len(start), None, dtype=object)
    return Segments(show=show.astype(np.int64), start=start, end=end, label=label, n_shows=n_shows)


def draw_references(rng: np.random.Generator, n_shows: int, *, trials: int = 1) -> Reference:
    """Draw ``trials x n_shows`` broadcast-like reference shows (see the module docstring)."""
    total = trials * n_shows
    target = rng.uniform(*SHOW_RANGE, total)
    brief = rng.random((total, MAX_SEGMENTS)) < BRIEF_SHARE
    durations = np.where(
        brief, rng.uniform(*BRIEF_RANGE, (total, MAX_SEGMENTS)), rng.uniform(*REPORT_RANGE, (total, MAX_SEGMENTS))
    )
    ends = np.cumsum(durations, axis=1)
    keep = ends <= target[:, None]
    keep[:, 0] = True  # a show has at least one segment (never needed: the first is at most 240 s)
    counts = keep.sum(axis=1)
    show = np.repeat(np.arange(total), counts)
    starts = np.concatenate([np.zeros((total, 1)), ends[:, :-1]], axis=1)  # each start is the previous end
    start, end = starts[keep], ends[keep]
    length = end[np.cumsum(counts) - 1]
    return Reference(segments=_segments(show, start, end, total), length=length, trial=np.arange(total) // n_shows)


def hypothesis_segments(show: np.ndarray, time: np.ndarray, length: np.ndarray):
    """The segmentation cut at the given boundaries: each show from 0 to ``length[show]``.

    Boundaries must lie strictly inside their show; repeated boundaries count once.
    """
    n = len(length)
    if len(time) and not ((time > 0) & (time < length[show])).all():
        raise ValueError("a boundary lies outside its show")
    pts_show = np.concatenate([np.arange(n), show, np.arange(n)])
    pts_time = np.concatenate([np.zeros(n), time, length])
    order = np.lexsort((pts_time, pts_show))
    pts_show, pts_time = pts_show[order], pts_time[order]
    fresh = np.ones(len(pts_time), dtype=bool)
    fresh[1:] = (pts_time[1:] != pts_time[:-1]) | (pts_show[1:] != pts_show[:-1])
    pts_show, pts_time = pts_show[fresh], pts_time[fresh]
    same = pts_show[1:] == pts_show[:-1]
    return _segments(pts_show[:-1][same], pts_time[:-1][same], pts_time[1:][same], n)


def _shift(rng, show, time, length, sigma):
    moved = time.copy()
    out = np.ones(len(time), dtype=bool)
    while out.any():
        moved[out] = time[out] + rng.normal(0.0, sigma, int(out.sum()))
        out = (moved <= 0) | (moved >= length[show])
    return moved


def inject(rng: np.random.Generator, reference: Reference, errors: str, p: float):
    """Draw one hypothesis of every reference show with the given errors.

    Returns
    -------
    hypothesis : Segments
    events : ndarray
        Number of deletion and insertion events per show (shifts are not counted).
    """
    seg = reference.segments
    n_shows = seg.n_shows
    b_seg = reference.boundary_segment  # segment starting at each boundary
    b_show, b_time = seg.show[b_seg], seg.start[b_seg]
    keep = np.ones(len(b_seg), dtype=bool)
    extra_show, extra_time = [], []
    event_show = [np.zeros(0, dtype=np.int64)]
    d = seg.duration
    is_first, is_last = reference.edges()
    shift = None
    for part in errors.split("+"):
        if part == "DEL":
            hit = rng.random(len(b_seg)) < p
            keep &= ~hit
            event_show.append(b_show[hit])
        elif part in ("MISS-short", "MISS-long"):
            short = d < LONG_THRESHOLD
            eligible = (short if part == "MISS-short" else ~short) & ~(is_first & is_last)
            hit = eligible & (rng.random(len(seg)) < p)
            left = rng.random(len(seg)) < 0.5
            left = np.where(is_first, False, np.where(is_last, True, left))
            i = np.flatnonzero(hit)
            # boundary index of segment i's start is i - show - 1 (one first segment per show before it)
            j = i - seg.show[i] - np.where(left[i], 1, 0)
            keep[j] = False
            event_show.append(seg.show[i])
        elif part in ("INS", "INS-edge"):
            hit = rng.random(len(seg)) < p
            i = np.flatnonzero(hit)
            u = rng.random(len(i))
            if part == "INS":
                t = seg.start[i] + u * d[i]
            else:
                x = u * EDGE_SHARE * d[i]
                t = np.where(rng.random(len(i)) < 0.5, seg.start[i] + x, seg.end[i] - x)
            t = np.clip(t, seg.start[i], seg.end[i])
            inside = (t > 0) & (t < reference.length[seg.show[i]])
            extra_show.append(seg.show[i][inside])
            extra_time.append(t[inside])
            event_show.append(seg.show[i])
        elif part == "INS-across":
            hit = rng.random(len(b_seg)) < p
            nxt = b_seg[hit]
            a = rng.random(len(nxt)) * d[nxt - 1] / 2
            c = rng.random(len(nxt)) * d[nxt] / 2
            keep[np.flatnonzero(hit)] = False
            extra_show += [seg.show[nxt], seg.show[nxt]]
            extra_time += [b_time[hit] - a, b_time[hit] + c]
            event_show.append(seg.show[nxt])
        elif part.startswith("SHIFT") and part[5:].replace(".", "", 1).isdigit():
            shift = float(part[5:])
        else:
            raise ValueError(f"unknown error type {part!r} in {errors!r}")
    show = np.concatenate([b_show[keep], *extra_show])
    time = np.concatenate([b_time[keep], *extra_time])
    if shift is not None:
        time = _shift(rng, show, time, reference.length, shift)
    inside = (time > 0) & (time < reference.length[show])  # a zero-width false segment at a show edge
    events = np.bincount(np.concatenate(event_show), minlength=n_shows).astype(float)
    return hypothesis_segments(show[inside], time[inside], reference.length), events


def score(
    reference: Reference, hypothesis, *, gamma: float = 0.85, tolerances=(10.0, 5.0), events: np.ndarray | None = None
) -> pd.DataFrame:
    """Pooled metrics of each trial (rows: trials; columns: :data:`METRICS`, ``boundary_f1_<t>s``
    per tolerance and, with ``events``, ``errors``)."""
    from tvseg.rates import rate
    from tvseg.retrieval.corpus import score_shows
    from tvseg.retrieval.reductions import metric_table

    seg = reference.segments
    shows = list(range(seg.n_shows))
    scores = score_shows(
        seg,
        hypothesis,
        shows=cast(Sequence[str], shows),  # the show indices serve as names
        gamma=gamma,
        long_threshold=LONG_THRESHOLD,
        tolerance=float(tolerances[0]),
        tolerances=tuple(map(float, tolerances[1:])),
        titles=False,
    )
    trial = pd.Index(reference.trial, name="trial")
    per_trial = scores.components.set_axis(trial).groupby(level=0).sum()
    table = metric_table(per_trial)
    out: dict[str, np.ndarray | float] = {k: table[k].to_numpy(float) for k in METRICS[:6]}
    out["recall_n_short"] = rate(per_trial["n_correct_reference_short"], per_trial["n_reference_short"])
    out["recall_n_long"] = rate(per_trial["n_correct_reference_long"], per_trial["n_reference_long"])
    matched = scores.boundary_matched.set_axis(trial).groupby(level=0).sum()
    for tol in dict.fromkeys(map(float, tolerances)):
        c = per_trial.copy()
        c["boundary_n_matched"] = matched[tol]
        out[f"boundary_f1_{tol:g}s"] = metric_table(c)["boundary_f1"].to_numpy(float)
    if events is not None:
        out["errors"] = np.bincount(reference.trial, weights=events) / per_trial["n_reference"].to_numpy(float)
    return pd.DataFrame({k: np.asarray(v, dtype=float) for k, v in out.items()}, index=per_trial.index)


def experiments(tables=TABLES) -> list[tuple[str, str, float]]:
    """The experiments ``(table, errors, p)`` of the study, table by table."""
    out = []
    for table in tables:
        for errors in ERRORS[table]:
            for p in (1.0,) if table == "shift" else PROBABILITIES:
                out.append((table, errors, p))
    return out


def run(
    *, trials: int = 10, n_shows: int = 200, seed: int = 0, gamma: float = 0.85, tolerances=(10.0, 5.0), tables=TABLES
) -> list[Cell]:
    """Run the study; one :class:`~tvseg.simulate.study.Cell` per experiment and metric.

    ``range`` is the range of the reference segment durations, ``(10, 240)`` s; ``published`` is
    None (no paper printed this study); ``sd`` is the standard deviation over trials.
    """
    reference = draw_references(experiment_rng(seed, STUDY, "reference"), n_shows, trials=trials)
    seg_range = (int(BRIEF_RANGE[0]), int(REPORT_RANGE[1]))
    cells = []
    for table, errors, p in experiments(tables):
        rng = experiment_rng(seed, STUDY, table, errors, p)
        hypothesis, events = inject(rng, reference, errors, p)
        values = score(reference, hypothesis, gamma=gamma, tolerances=tolerances, events=events)
        for metric in values.columns:
            column = values[metric].to_numpy(float)
            sd = float(column.std(ddof=1)) if len(column) > 1 else 0.0
            cells.append(
                Cell(
                    table=table,
                    errors=errors,
                    p=p,
                    range=seg_range,
                    metric=metric,
                    value=float(np.nanmean(column)),
                    published=None,
                    sd=sd,
                )
            )
    return cells


_HEADERS = {
    "cov_n": "CovN",
    "cov_d": "CovD",
    "recall_n": "R_N",
    "precision_n": "P_N",
    "recall_d": "R_D",
    "precision_d": "P_D",
    "recall_n_short": "R_N<30",
    "recall_n_long": "R_N>=30",
    "errors": "err/seg",
}


def format_table(cells: list[Cell]) -> str:
    """One block per table: a row per experiment ``(errors, p)``, a column per metric."""
    metrics = list(dict.fromkeys(c.metric for c in cells))
    heads = [_HEADERS.get(m, m.replace("boundary_f1_", "F@")) for m in metrics]
    lines = []
    for table in dict.fromkeys(c.table for c in cells):
        rows: dict[tuple[str, float], dict[str, float]] = {}
        for c in cells:
            if c.table == table:
                rows.setdefault((c.errors, c.p), {})[c.metric] = c.value
        width = max(len("errors"), *(len(e) for e, _ in rows))
        lines.append(f"{table}")
        lines.append("  ".join(["errors".ljust(width), "   p"] + [h.rjust(7) for h in heads]))
        for (errors, p), values in rows.items():
            lines.append(
                "  ".join([errors.ljust(width), f"{p:4g}"] + [f"{values.get(m, float('nan')):7.3f}" for m in metrics])
            )
        lines.append("")
    return "\n".join(lines).rstrip()


def as_json(cells: list[Cell], *, trials: int, n_shows: int, seed: int, gamma: float, tolerances) -> dict:
    """The ``--json`` document (the contract's simulate schema; settings name this study's design)."""
    from tvseg.simulate.report import as_json as document

    return document(
        STUDY,
        cells,
        trials=trials,
        shows=n_shows,
        seed=seed,
        gamma=gamma,
        tolerances=[float(t) for t in tolerances],
        long_threshold=LONG_THRESHOLD,
        show_range=list(SHOW_RANGE),
        brief_share=BRIEF_SHARE,
        brief_range=list(BRIEF_RANGE),
        report_range=list(REPORT_RANGE),
        edge_share=EDGE_SHARE,
    )
