"""The page of ``tvseg compare --html DIR``: what changed between runs, for a team deciding from it.

A view of the comparison (:func:`tvseg.comparison.compare_results`) and of the runs' results, nothing scored
here: the metrics of the last two runs with each change coloured **and** worded (better, worse, within noise)
by the metric's direction in the registry (:attr:`tvseg.metrics.Metric.higher_is_better`); the shows that got
worse and those that got better on the ranked metric (:func:`show_changes`), each linked to its page in both
runs' reports when they are known (:func:`report_of`); with three runs or more, a table and a chart of the
headline metrics across the runs (:data:`HEADLINE`). One self-contained file: the report's style sheet inlined,
the chart an SVG drawn by the report's chart macro (:func:`tvseg.report.charts.line_chart`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape

from tvseg.comparison import per_show_values
from tvseg.file_names import safe_names
from tvseg.metrics import COMPARED, METRICS
from tvseg.report.charts import line_chart
from tvseg.report.paths import looks_like_report
from tvseg.report.svg import visible_text

__all__ = ["HEADLINE", "ALPHA", "SAME_NUMBER", "show_changes", "report_of", "show_links", "href", "page"]

HEADLINE = COMPARED
"""The metrics drawn across the runs: those ``tvseg evaluate`` tests between systems."""
ALPHA = 0.05
"""A change whose Holm-corrected p-value is this or more is shown as within noise, neither better nor worse."""
SAME_NUMBER = (("chapter_count_error", "chapter_count_mae"),)
"""Entries that are one number under two names (Chapter-Llama's count MAE and tvseg's count error agree unless
a side's first chapter starts late): one row when their values agree in both runs."""


def _value(x: Any) -> float:
    return float(x) if isinstance(x, (int, float)) and not isinstance(x, bool) else math.nan


def show_changes(
    old_shows: Mapping[str, Mapping[str, Any]],
    new_shows: Mapping[str, Mapping[str, Any]],
    metric: str,
    *,
    directions: Mapping[str, bool | None] | None = None,
) -> dict[str, Any]:
    """Every show whose value of ``metric`` changed between two systems' per-show values (the ``shows`` of a
    result's system; or the per-query values of two search runs), by the metric's direction: the registry's
    (:attr:`tvseg.metrics.Metric.higher_is_better`), or ``directions[metric]`` when given.

    Returns
    -------
    dict
        ``metric``, ``direction`` (``"higher"`` or ``"lower"`` is better; None: the metric has none),
        ``worse`` and ``better`` (with a direction; without one, ``down`` and ``up``): ``{show, old, new,
        difference}`` each, the largest change first (ties in the old result's show order); ``unchanged``
        and ``undefined`` (shows in both where the value is equal, or missing or null in either).
    """
    common = [show for show in old_shows if show in new_shows]
    old = per_show_values(old_shows, common, [metric])[:, 0]
    new = per_show_values(new_shows, common, [metric])[:, 0]
    if directions is not None:
        higher = directions.get(metric)
    else:
        higher = METRICS[metric].higher_is_better if metric in METRICS else None
    rows: dict[str, list[dict[str, Any]]] = {"down": [], "up": []}
    unchanged = undefined = 0
    for show, o, n in zip(common, old.tolist(), new.tolist()):
        if math.isnan(o) or math.isnan(n):
            undefined += 1
        elif o == n:
            unchanged += 1
        else:
            rows["up" if n > o else "down"].append({"show": show, "old": o, "new": n, "difference": n - o})
    for side in rows.values():
        side.sort(key=lambda row: -abs(row["difference"]))  # stable: ties keep the show order
    out: dict[str, Any] = {"metric": metric, "direction": None if higher is None else ("lower", "higher")[higher]}
    if higher is None:
        out.update(down=rows["down"], up=rows["up"])
    else:
        out.update(worse=rows["down" if higher else "up"], better=rows["up" if higher else "down"])
    return {**out, "unchanged": unchanged, "undefined": undefined}


def report_of(result_path: str) -> str | None:
    """The report a result file belongs to: ``DIR`` when the file is ``DIR/data/scores.json`` of a report that
    ``tvseg evaluate --html DIR`` wrote (else None)."""
    path = Path(result_path).absolute()
    if path.name == "scores.json" and path.parent.name == "data" and looks_like_report(path.parent.parent):
        return str(path.parent.parent)
    return None


def show_links(report: str | None, shows: Sequence[str], *, page_folder: str) -> dict[str, str]:
    """The link from ``page_folder`` to each show's page in ``report`` (``shows/NAME.html``, NAME from
    :func:`tvseg.file_names.safe_names` over ``shows``, the shows of the run the report was written for), for
    the pages that exist; empty without a report."""
    if report is None:
        return {}
    names = safe_names(shows)
    return {
        show: href(Path(report, "shows", names[show] + ".html"), page_folder=page_folder)
        for show in shows
        if Path(report, "shows", names[show] + ".html").is_file()
    }


def href(target: str | Path, *, page_folder: str) -> str:
    """The relative URL of the file ``target`` from a page in ``page_folder`` (each part percent-encoded)."""
    relative = os.path.relpath(Path(target).absolute(), Path(page_folder).absolute())
    return "/".join(quote(part) for part in Path(relative).as_posix().split("/"))


# --- what the page writes --------------------------------------------------------------------------------


def _label(key: str, label: str | None = None) -> Markup:
    """A metric's label as the report writes it (the registry's HTML label, our own markup); ``label``, escaped,
    for a measure outside the registry (a search measure), else its key."""
    metric = METRICS.get(key)
    return Markup(metric.html or metric.label) if metric else escape(label or key)


def _shown(entry: Mapping[str, Any], value: float, *, signed: bool = False) -> str:
    """A value as the page writes it: a fraction in percent, a count as an integer, else 3 figures; a
    minus sign (U+2212) and, with ``signed``, a plus."""
    if math.isnan(value):
        return "\u2013"
    if entry["fraction"]:
        text = f"{100 * value:.1f}"
    elif entry["kind"] == "count" and float(value).is_integer():
        text = f"{value:.0f}"
    else:
        text = f"{value:.3g}"
    if text.startswith("-"):
        return "\u2212" + text[1:]
    return "+" + text if signed and value != 0 else text


def _p(entry: Mapping[str, Any], key: str) -> str:
    """``entry[key]``, a p-value, to 3 figures; ``< `` its floor rounded up when it is a bound (``key + "_is_bound"``:
    the paired bootstrap's floor, :func:`tvseg.significance.at_floor`), never the floor as if exact."""
    from tvseg.significance import p_figures

    return p_figures(_value(entry.get(key)), bound=bool(entry.get(key + "_is_bound")), missing="\u2013")


def verdict(direction: bool | None, change: float, p_holm: float = math.nan) -> str:
    """``better``, ``worse``, ``noise`` (a tested change whose Holm p-value is :data:`ALPHA` or more) or ``""``
    (no change, or a metric without a direction)."""
    if direction is None or math.isnan(change) or change == 0:
        return ""
    if not math.isnan(p_holm) and p_holm >= ALPHA:
        return "noise"
    return "better" if (change > 0) == direction else "worse"


_WORDS = {"better": "better", "worse": "worse", "noise": "within noise", "": ""}


def _change_cell(entry: Mapping[str, Any], change: float, p_holm: float = math.nan) -> dict[str, str]:
    if "higher_is_better" in entry:  # a search measure: its direction in the entry
        direction = entry["higher_is_better"]
    else:
        direction = METRICS[entry["metric"]].higher_is_better if entry["metric"] in METRICS else None
    cls = verdict(direction, change, p_holm)
    return {"text": _shown(entry, change, signed=True), "cls": cls, "word": _WORDS[cls]}


def _same(x: float, y: float) -> bool:
    return x == y or (math.isnan(x) and math.isnan(y))


def _metric_rows(metrics: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per number: the entries of :data:`SAME_NUMBER` whose values agree made one row."""
    by_key = {m["metric"]: m for m in metrics}
    merged: dict[str, list[str]] = {}
    for first, *others in SAME_NUMBER:
        for other in others:
            a, b = by_key.get(first), by_key.get(other)
            fields = ("old", "new", "mean_difference")
            if a and b and all(_same(_value(a[f]), _value(b[f])) for f in fields):
                merged.setdefault(first, [first]).append(other)
    dropped = {k for keys in merged.values() for k in keys[1:]}
    rows = []
    for m in metrics:
        if m["metric"] in dropped:
            continue
        pooled_holm = _value(m.get("p_value_pooled_holm"))
        # outside Holm's family (the headline metrics), a rate or an error is judged by its own p-value
        holm = _value(m.get("p_value_holm"))
        judged = holm if not math.isnan(holm) else _value(m.get("p_value"))
        keys = merged.get(m["metric"], [m["metric"]])
        rows.append(
            {
                "label": Markup(" = ").join(_label(k, by_key[k].get("label")) for k in keys),
                "old": _shown(m, m["old"]),
                "new": _shown(m, m["new"]),
                "change": _change_cell(m, m["difference"], pooled_holm if not math.isnan(pooled_holm) else judged),
                "shows": m["shows"],
                "mean_change": _change_cell(m, m["mean_difference"], judged),
                "p": _p(m, "p_value"),
                "holm": _p(m, "p_value_holm"),
                "test": m.get("test") or "none",
                "pooled_p": _p(m, "p_value_pooled"),
                "pooled_holm": _p(m, "p_value_pooled_holm"),
            }
        )
    return rows


def _links(hrefs: Sequence[str | None]) -> list[tuple[str, str]]:
    """``(href, which report)`` of a show's pages in the old and the new run's reports; one when both runs are
    of one report (two systems of one run)."""
    if len(hrefs) == 2 and hrefs[0] is not None and hrefs[0] == hrefs[1]:
        return [(hrefs[0], "page")]
    return [(href, which) for href, which in zip(hrefs, ("old", "new")) if href is not None]


def _show_rows(
    rows: Sequence[Mapping[str, Any]], entry: Mapping[str, Any], links: Sequence[Mapping[str, str]]
) -> list[dict[str, Any]]:
    return [
        {
            "show": visible_text(row["show"]),
            "old": _shown(entry, row["old"]),
            "new": _shown(entry, row["new"]),
            "change": _change_cell(entry, row["difference"]),
            "links": _links([link.get(row["show"]) for link in links]),
        }
        for row in rows
    ]


def _across(runs: Sequence[Mapping[str, Any]], metrics: Sequence[Mapping[str, Any]], family: Sequence[str]):
    """The headline metrics of every run (the comparison's ``family``: :data:`HEADLINE` that the last two runs
    hold, :data:`tvseg.search.HEADLINE` for search results): a table, and a line chart of each (run number
    against the value, the y axis spanning its values)."""
    described = {m["metric"]: m for m in metrics}
    keys = [k for k in family if all(k in run["corpus"] for run in runs)]
    if len(runs) < 3 or not keys:
        return None

    def about(k: str) -> dict[str, Any]:
        if k in METRICS:
            html = METRICS[k].html
            name = html if html and "<" not in html else METRICS[k].label  # as the report's tables write it
            return {"metric": k, "fraction": METRICS[k].fraction, "kind": METRICS[k].kind, "name": name}
        entry = described.get(k, {"fraction": False, "kind": "unknown", "label": k})
        return {"metric": k, "fraction": entry["fraction"], "kind": entry["kind"], "name": entry["label"]}

    entries = [about(k) for k in keys]
    values = [[_value(run["corpus"][k]) for run in runs] for k in keys]
    charts = []
    for e, row in zip(entries, values):
        name = e["name"]
        shown = [v for v in row if not math.isnan(v)]
        if not e["fraction"] or not shown:  # the chart's axis is a percentage
            continue
        pad = max((max(shown) - min(shown)) * 0.15, 0.005)
        charts.append(
            line_chart(
                title=f"{name} across the runs",
                x_label="run",
                y_label=name,
                series=[(name, [(i + 1, None if math.isnan(v) else v) for i, v in enumerate(row)])],
                x_range=(1.0, float(len(runs))),
                x_ticks=list(range(1, len(runs) + 1)),
                y_range=(max(0.0, min(shown) - pad), min(1.0, max(shown) + pad)),
            )
        )
    rows = [
        {"label": _label(e["metric"], e["name"]), "cells": [_shown(e, v) for v in row]}
        for e, row in zip(entries, values)
    ]
    return {"rows": rows, "charts": charts}


def page(
    comparison: Mapping[str, Any],
    *,
    runs: Sequence[Mapping[str, Any]],
    changes: Mapping[str, Any],
    links: Sequence[Mapping[str, str]],
) -> str:
    """The compare page (every text escaped).

    Parameters
    ----------
    comparison : Mapping
        :func:`tvseg.comparison.compare_results`'s, of the last two runs.
    runs : sequence of Mapping
        Every run in order: ``file``, ``system``, ``corpus`` (its corpus values) and ``report`` (the relative
        link to its report's ``index.html``, or None).
    changes : Mapping
        :func:`show_changes` of the last two runs on the ranked metric.
    links : sequence of Mapping
        The links to the show pages of the old and of the new run's report (:func:`show_links`).
    """
    from tvseg.report.render import environment

    key = changes["metric"]
    entry = next((m for m in comparison["metrics"] if m["metric"] == key), {"metric": key})
    entry = {"fraction": False, "kind": "unknown", **entry}
    if key is None:
        lists = []
    elif changes["direction"] is None:
        lists = [("down", "went down", changes["down"]), ("up", "went up", changes["up"])]
    else:
        lists = [("worse", "got worse", changes["worse"]), ("better", "got better", changes["better"])]
    tests = sorted({m["test"] for m in comparison["metrics"] if m.get("test")}) or ["none"]
    labels = {k: METRICS[k].label for k in comparison.get("family", ()) if k in METRICS}
    labels.update({m["metric"]: m["label"] for m in comparison["metrics"] if m["metric"] not in METRICS})
    unit = comparison.get("unit", "show")
    units = {"show": "shows", "query": "queries"}[unit]
    style = resources.files("tvseg").joinpath("templates", "report.css").read_text(encoding="utf-8")
    return (
        environment()
        .get_template("compare.html")
        .render(
            style=Markup(style),
            runs=[{**run, "file": visible_text(run["file"]), "system": visible_text(run["system"])} for run in runs],
            common=comparison["shows"]["common"],
            warnings=comparison["warnings"],
            metrics=_metric_rows(comparison["metrics"]),
            ranked=_label(key, entry.get("label")),
            direction=changes["direction"],
            lists=[(slug, words, _show_rows(rows, entry, links)) for slug, words, rows in lists],
            unchanged=changes["unchanged"],
            undefined=changes["undefined"],
            linked=[bool(link) for link in links],
            across=_across(runs, comparison["metrics"], comparison.get("family", ())),
            tests=", ".join(tests),
            family=", ".join(visible_text(labels.get(k, k)) for k in comparison.get("family", ())),
            unit=unit,
            units=units,
            counted={"show": "show(s)", "query": "queries"}[unit],
            alpha=ALPHA,
        )
    )
