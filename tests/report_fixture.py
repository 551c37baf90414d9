"""A synthetic report model, for the rendering tests and the benchmark (no scoring code involved).

Reference segmentations are random; each system perturbs the reference boundaries, drops some and
inserts others. Coverages and correct flags follow Bouchekif et al.'s definitions computed here with
a plain overlap matrix (these are render fixtures, not reference values for the metrics).
"""

from __future__ import annotations

import numpy as np

from tvseg.report.model import (
    BoundaryPair,
    Comparison,
    Estimate,
    MatchRow,
    Report,
    Segment,
    Show,
    SystemShow,
    SystemSummary,
)

__all__ = ["synthetic_report"]

_WORDS = (
    "budget",
    "storm",
    "election",
    "football",
    "strike",
    "museum",
    "trial",
    "summit",
    "weather",
    "markets",
    "health",
    "school",
    "flood",
    "festival",
    "energy",
)


def _segments(bounds: np.ndarray, titles: list[str]) -> list[tuple[float, float, str]]:
    return [(float(a), float(b), t) for a, b, t in zip(bounds[:-1], bounds[1:], titles)]


def _match(ref, hyp, gamma):
    """Best-covering partner of every segment of ``ref`` in ``hyp``, coverages, correct flags."""
    rs = np.array([[a, b] for a, b, _ in ref])
    hs = np.array([[a, b] for a, b, _ in hyp])
    overlap = np.clip(np.minimum(rs[:, None, 1], hs[None, :, 1]) - np.maximum(rs[:, None, 0], hs[None, :, 0]), 0, None)
    rdur, hdur = rs[:, 1] - rs[:, 0], hs[:, 1] - hs[:, 0]
    rows, ref_ok = [], []
    for i in range(len(ref)):
        j = int(np.argmax(overlap[i]))
        r2h, h2r = overlap[i, j] / rdur[i], overlap[i, j] / hdur[j]
        bi = 0.0 if r2h + h2r == 0 else 2 * r2h * h2r / (r2h + h2r)
        rows.append((i, j, r2h, h2r, bi, bi > gamma))
        ref_ok.append(bi > gamma)
    hyp_ok = []
    for j in range(len(hyp)):
        i = int(np.argmax(overlap[:, j]))
        r2h, h2r = overlap[i, j] / rdur[i], overlap[i, j] / hdur[j]
        bi = 0.0 if r2h + h2r == 0 else 2 * r2h * h2r / (r2h + h2r)
        hyp_ok.append(bi > gamma)
    return rows, ref_ok, hyp_ok


def synthetic_report(
    n_shows: int = 20,
    systems=("baseline", "speech", "diachronic"),
    *,
    seed: int = 0,
    title_of=None,
    id_of=None,
    gamma: float = 0.85,
    tolerance: float = 10.0,
) -> Report:
    """A :class:`Report` of ``n_shows`` random shows scored for each of ``systems``.

    ``title_of(show, i)`` and ``id_of(show)`` may replace the generated titles and show ids (the
    safety tests pass hostile text through them).
    """
    rng = np.random.default_rng(seed)
    shows = []
    for k in range(n_shows):
        show_id = id_of(k) if id_of else f"show-{k:05d}"
        n_ref = int(rng.integers(6, 16))
        ref_b = np.concatenate([[0.0], np.cumsum(np.round(rng.uniform(8, 180, n_ref), 1))])
        end = float(ref_b[-1])
        ref_titles = [title_of(k, i) if title_of else " ".join(rng.choice(_WORDS, 2)) for i in range(n_ref)]
        reference = _segments(ref_b, ref_titles)
        sys_views = []
        for level, name in enumerate(systems):
            inner = ref_b[1:-1]
            keep = inner[rng.random(inner.size) > 0.15 / (level + 1)]
            moved = keep + rng.normal(0, 4 + 3 * level, keep.size)
            extra = rng.uniform(0, end, int(rng.integers(0, 4)))
            hb = np.unique(np.round(np.clip(np.concatenate([moved, extra]), 1, end - 1), 1))
            hyp_b = np.concatenate([[0.0], hb, [end]])
            hyp_titles = [
                ref_titles[min(int(np.searchsorted(ref_b, (a + b) / 2) - 1), n_ref - 1)]
                if rng.random() > 0.3
                else " ".join(rng.choice(_WORDS, 2))
                for a, b in zip(hyp_b[:-1], hyp_b[1:])
            ]
            hypothesis = _segments(hyp_b, hyp_titles)
            rows, ref_ok, hyp_ok = _match(reference, hypothesis, gamma)
            matched, missed, used = [], [], set()
            for rb in ref_b[1:-1]:
                j = int(np.argmin(np.abs(hb - rb))) if hb.size else -1
                if j >= 0 and j not in used and abs(hb[j] - rb) <= tolerance:
                    used.add(j)
                    matched.append(BoundaryPair(float(rb), float(hb[j])))
                else:
                    missed.append(float(rb))
            false_alarms = tuple(float(h) for j, h in enumerate(hb) if j not in used)
            nr, nh, cr, ch = len(reference), len(hypothesis), sum(ref_ok), sum(hyp_ok)
            rn, pn = cr / nr, ch / nh
            rd = sum(b - a for (a, b, _), ok in zip(reference, ref_ok) if ok) / end
            pd = sum(b - a for (a, b, _), ok in zip(hypothesis, hyp_ok) if ok) / end
            bp = len(matched) / hb.size if hb.size else 0.0
            br = len(matched) / (n_ref - 1) if n_ref > 1 else 0.0

            def f(a, b):
                return 0.0 if a + b == 0 else 2 * a * b / (a + b)

            metrics = {
                "recall_n": rn,
                "precision_n": pn,
                "cov_n": f(rn, pn),
                "recall_d": rd,
                "precision_d": pd,
                "cov_d": f(rd, pd),
                "boundary_precision": bp,
                "boundary_recall": br,
                "boundary_f1": f(bp, br),
                "n_reference": nr,
                "n_hypothesis": nh,
                "n_correct_reference": cr,
                "n_correct_hypothesis": ch,
            }
            matches = tuple(
                MatchRow(
                    reference[i][0],
                    reference[i][1],
                    reference[i][2],
                    hypothesis[j][0],
                    hypothesis[j][1],
                    hypothesis[j][2],
                    float(r2h),
                    float(h2r),
                    float(bi),
                    bool(ok),
                    1.0 if reference[i][2] == hypothesis[j][2] else 0.0,
                )
                for i, j, r2h, h2r, bi, ok in rows
            )
            sys_views.append(
                SystemShow(
                    name=name,
                    metrics=metrics,
                    segments=tuple(Segment(a, b, t, ok) for (a, b, t), ok in zip(hypothesis, hyp_ok)),
                    matched=tuple(matched),
                    missed=tuple(missed),
                    false_alarms=false_alarms,
                    matches=matches,
                )
            )
        shows.append(
            Show(
                show_id=show_id,
                start=0.0,
                end=end,
                reference=tuple(Segment(a, b, t) for a, b, t in reference),
                systems=tuple(sys_views),
                metadata={"channel": ("France 2", "TF1", "Arte")[k % 3]},
            )
        )

    summaries = []
    keys = (
        "recall_n",
        "precision_n",
        "cov_n",
        "recall_d",
        "precision_d",
        "cov_d",
        "boundary_precision",
        "boundary_recall",
        "boundary_f1",
    )
    for level, name in enumerate(systems):
        per_show = [s.systems[level].metrics for s in shows]
        macro = {k: float(np.mean([m[k] for m in per_show])) if per_show else None for k in keys}
        corpus = {
            k: Estimate(v, None if v is None else max(v - 0.03, 0.0), None if v is None else min(v + 0.03, 1.0))
            for k, v in macro.items()
        }
        for k in ("n_reference", "n_hypothesis", "n_correct_reference", "n_correct_hypothesis"):
            corpus[k] = Estimate(float(sum(m[k] for m in per_show)))
        base = macro["cov_n"] or 0.0
        summaries.append(
            SystemSummary(
                name=name,
                corpus=corpus,
                macro=macro,
                by_length={
                    "long": {
                        "recall_n": min(base + 0.15, 1.0),
                        "precision_n": min(base + 0.12, 1.0),
                        "n_reference": 761.0,
                        "n_hypothesis": 700.0,
                    },
                    "short": {
                        "recall_n": base * 0.4,
                        "precision_n": base * 0.5,
                        "n_reference": 236.0,
                        "n_hypothesis": 250.0,
                    },
                },
                groups={
                    "channel": {
                        c: {
                            "cov_n": base - 0.05 * i,
                            "cov_d": base + 0.04 - 0.05 * i,
                            "boundary_f1": min(base + 0.1, 1.0),
                        }
                        for i, c in enumerate(("Arte", "France 2", "TF1"))
                    }
                },
                gamma_sweep=tuple(
                    (g, min(1.0, base * (1.6 - g)), min(1.0, (base + 0.1) * (1.6 - g)))
                    for g in np.round(np.arange(0.5, 1.0001, 0.05), 2).tolist()
                ),
                tolerance_sweep=tuple(
                    (float(t), min(1.0, base * (0.3 + t / 20)) if t <= 14 else min(1.0, base * 1.0))
                    for t in range(0, 31, 2)
                ),
            )
        )
    comparisons = tuple(
        Comparison(a, b, metric, p, d)
        for i, a in enumerate(systems)
        for b in systems[i + 1 :]
        for metric, p, d in (("cov_n", 0.012, -0.05), ("cov_d", 0.2, -0.01), ("boundary_f1", 0.0004, -0.08))
    )
    settings = {"gamma": gamma, "tolerance": tolerance, "long_threshold": 30.0, "bootstrap": 1000, "seed": 0}
    signature = f"gamma:{gamma:g}|tol:{tolerance:g}|long:30|boot:1000|seed:0|version:0.0.0"
    # the contract's --json schema of these invented scores (a real report takes result.to_json())
    scores = {
        "tvseg_version": "0.0.0",
        "signature": signature,
        "settings": dict(settings),
        "systems": {
            s.name: {
                "corpus": {k: e.value for k, e in s.corpus.items()},
                "macro": dict(s.macro),
                "by_length": {part: dict(v) for part, v in s.by_length.items()},
                "shows": {
                    show.show_id: dict(view.metrics) for show in shows for view in show.systems if view.name == s.name
                },
            }
            for s in summaries
        },
    }
    return Report(
        signature=signature,
        version="0.0.0",
        date="2000-01-01",
        systems=tuple(summaries),
        shows=tuple(shows),
        comparisons=comparisons,
        settings=settings,
        scores=scores,
    )
