"""Build the report model (:mod:`tvseg.report.model`) from a :class:`tvseg.evaluation.EvaluationResult`.

Everything the pages show comes from the result as computed: per-show metrics, pooled and macro
scores with their bootstrap intervals, ``by_length``, groups, sweeps, pairwise tests, the match
tables, the boundaries of each side and the pairs matched among them, as scored. ``data/scores.json`` is ``result.to_json()`` itself.
"""
from __future__ import annotations

import datetime as _dt
import math

import numpy as np

from tvseg.retrieval.titles import has_title
from tvseg.report.model import (BoundaryPair, Comparison, Estimate, MatchRow, Report, Segment, Show,
                                SystemShow, SystemSummary)

__all__ = ["from_evaluation"]


def _value(v):
    """Python scalar, or None for NaN / missing."""
    if v is None:
        return None
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _label(v):
    v = _value(v)
    return None if v is None else str(v)


def _metrics(row: dict) -> dict:
    return {str(k): _value(v) for k, v in row.items()}


def _by_show(show_index: np.ndarray, n_shows: int) -> np.ndarray:
    """``offsets[s]:offsets[s + 1]`` index the rows of show ``s`` (rows sorted by show)."""
    return np.searchsorted(show_index, np.arange(n_shows + 1), side="left")


def _summary(name: str, sr, intervals: dict) -> SystemSummary:
    ci = intervals.get(name, {}) or {}
    corpus = {}
    for key, value in sr.corpus.items():
        bounds = ci.get(key) or {}
        corpus[str(key)] = Estimate(_value(value), _value(bounds.get("low")), _value(bounds.get("high")))
    gamma = tuple((float(r["gamma"]), _value(r.get("cov_n")), _value(r.get("cov_d")))
                  for r in sr.gamma_sweep.sort_values("gamma").to_dict(orient="records"))
    tolerance = tuple((float(r["tolerance"]), _value(r.get("boundary_f1")))
                      for r in sr.tolerance_sweep.sort_values("tolerance").to_dict(orient="records"))
    return SystemSummary(
        name=name, corpus=corpus, macro=_metrics(sr.macro),
        by_length={str(part): _metrics(values) for part, values in sr.by_length.items()},
        groups={str(kind): {str(v): _metrics(m) for v, m in values.items()} for kind, values in sr.groups.items()},
        gamma_sweep=gamma, tolerance_sweep=tolerance)


def from_evaluation(result, *, date: str | None = None) -> Report:
    """The report model of an evaluation result.

    Parameters
    ----------
    result : tvseg.evaluation.EvaluationResult
    date : str, optional
        Shown in the footers (default: today, ISO format).

    Returns
    -------
    Report
    """
    from tvseg import __version__

    shows = list(result.shows)
    n = len(shows)
    names = list(result.systems)
    systems = [result.systems[name] for name in names]

    # The reference is the same Segments object for every system; take it from the first.
    reference = systems[0].scores.reference if systems else None
    ref_off = reference.offsets() if reference is not None else np.zeros(n + 1, dtype=np.int64)

    per_system = []
    show_start = np.full(n, np.inf)
    show_end = np.full(n, -np.inf)
    for name, sr in zip(names, systems):
        scores = sr.scores
        hyp = scores.hypothesis
        show_start = np.fmin(show_start, scores.region_start)
        show_end = np.fmax(show_end, scores.region_end)
        r_show, r_time, h_show, h_time = scores.boundaries
        pair_i, pair_j = scores.pairs
        ref_missed = np.ones(len(r_time), dtype=bool)
        ref_missed[pair_i] = False
        hyp_false = np.ones(len(h_time), dtype=bool)
        hyp_false[pair_j] = False
        m = sr.matches
        ref_rows = m[m["side"] == "reference"]
        hyp_rows = m[m["side"] == "hypothesis"]
        pairs = sr.boundary_pairs
        pair_show = pairs["show"].map({s: k for k, s in enumerate(shows)}).to_numpy(dtype=np.int64) \
            if len(pairs) else np.empty(0, dtype=np.int64)
        order = np.argsort(pair_show, kind="stable")
        per_system.append({
            "name": name, "sr": sr, "hyp": hyp, "hyp_off": hyp.offsets(),
            "ref_rows": ref_rows.reset_index(drop=True), "hyp_correct": hyp_rows["correct"].to_numpy(dtype=bool),
            "title_f1": scores.reference_title_f1,
            "r_time": r_time, "r_missed": ref_missed, "r_off": _by_show(r_show, n),
            "h_time": h_time, "h_false": hyp_false, "h_off": _by_show(h_show, n),
            "pairs_ref": pairs["reference"].to_numpy(dtype=float)[order],
            "pairs_hyp": pairs["hypothesis"].to_numpy(dtype=float)[order],
            "p_off": _by_show(pair_show[order], n),
            "metrics": sr.shows.to_dict(orient="index"),
        })

    metadata = {}
    if result.metadata is not None and len(result.metadata):
        frame = result.metadata
        for show, row in frame.to_dict(orient="index").items():
            metadata[str(show)] = {str(k): str(v) for k, v in row.items() if _value(v) is not None}

    out_shows = []
    for k, show in enumerate(shows):
        a, b = int(ref_off[k]), int(ref_off[k + 1])
        ref_segments = tuple(Segment(float(reference.start[i]), float(reference.end[i]), _label(reference.label[i]))
                             for i in range(a, b)) if reference is not None else ()
        views = []
        for p in per_system:
            hyp, ho = p["hyp"], p["hyp_off"]
            ha, hb = int(ho[k]), int(ho[k + 1])
            segments = tuple(Segment(float(hyp.start[j]), float(hyp.end[j]), _label(hyp.label[j]),
                                     bool(p["hyp_correct"][j])) for j in range(ha, hb))
            pa, pb = int(p["p_off"][k]), int(p["p_off"][k + 1])
            matched_ref, matched_hyp = p["pairs_ref"][pa:pb], p["pairs_hyp"][pa:pb]
            ra, rb = int(p["r_off"][k]), int(p["r_off"][k + 1])
            xa, xb = int(p["h_off"][k]), int(p["h_off"][k + 1])
            missed = tuple(float(t) for t in p["r_time"][ra:rb][p["r_missed"][ra:rb]])
            false_alarms = tuple(float(t) for t in p["h_time"][xa:xb][p["h_false"][xa:xb]])
            rows = p["ref_rows"].iloc[a:b]
            f1 = p["title_f1"]
            matches = tuple(
                MatchRow(ref_start=float(r.start), ref_end=float(r.end), ref_label=_label(r.label),
                         hyp_start=_value(r.partner_start), hyp_end=_value(r.partner_end),
                         hyp_label=_label(r.partner_label), cov_ref_to_hyp=float(r.cov_to),
                         cov_hyp_to_ref=float(r.cov_from), cov_bidirectional=float(r.coverage),
                         correct=bool(r.correct),
                         # titles are judged on correctly retrieved, titled reference segments only
                         title_f1=_value(f1[a + i]) if f1 is not None and bool(r.correct)
                         and has_title(r.label) else None)
                for i, r in enumerate(rows.itertuples(index=False)))
            views.append(SystemShow(
                name=p["name"], metrics=_metrics(p["metrics"].get(show, {})), segments=segments,
                matched=tuple(BoundaryPair(float(x), float(y)) for x, y in zip(matched_ref, matched_hyp)),
                missed=missed, false_alarms=false_alarms, matches=matches))
        start = float(show_start[k]) if np.isfinite(show_start[k]) else 0.0
        end = float(show_end[k]) if np.isfinite(show_end[k]) else start
        out_shows.append(Show(show_id=str(show), start=start, end=end, reference=ref_segments,
                              systems=tuple(views), metadata=metadata.get(str(show), {})))

    comparisons = tuple(Comparison(str(c["a"]), str(c["b"]), str(c["metric"]), _value(c.get("p_value")),
                                   _value(c.get("difference"))) for c in result.pairwise)
    return Report(
        signature=result.settings.signature(), version=__version__,
        date=date or _dt.date.today().isoformat(),
        systems=tuple(_summary(name, sr, result.intervals) for name, sr in zip(names, systems)),
        shows=tuple(out_shows), comparisons=comparisons, settings=dict(result.settings.as_dict()),
        scores=result.to_json())
