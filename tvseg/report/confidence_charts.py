"""The corpus page's boundary confidences: each scored system's precision-recall curve of boundary detection
over its score thresholds (:mod:`tvseg.retrieval.confidence`), drawn by :func:`tvseg.report.charts.line_chart`,
with its average precision and best-threshold F."""

from __future__ import annotations

from typing import Any

from tvseg.report.charts import line_chart

__all__ = ["confidence_section"]


def confidence_section(result: Any) -> dict | None:
    """``{"charts": [PR chart layout], "rows": [{name, average_precision, best_f1, threshold, det}]}`` of
    the systems of ``result`` (an :class:`tvseg.evaluation.EvaluationResult`) whose hypothesis has boundary
    scores; None when none has (or ``result`` is None)."""
    systems = getattr(result, "systems", None) or {}
    scored = [(name, sr.confidence) for name, sr in systems.items() if getattr(sr, "confidence", None) is not None]
    if not scored:
        return None
    ticks = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    chart = line_chart(
        title="Boundary precision against recall",
        x_label="recall",
        y_label="precision",
        series=[(name, list(zip(c.curve.recall.tolist(), c.curve.precision.tolist()))) for name, c in scored],
        x_range=(0.0, 1.0),
        x_ticks=ticks,
        x_format="{:.0%}",
    )
    rows = [
        {
            "name": name,
            "average_precision": c.curve.average_precision,
            "best_f1": c.curve.best_f1,
            "threshold": c.curve.best_threshold,
            "thresholds": len(c.curve.thresholds),
            "det": c.det is not None,
        }
        for name, c in scored
    ]
    return {"charts": [chart], "rows": rows}
