"""Render a report to a self-contained folder of HTML pages.

What is rendered is a source of pages (:mod:`tvseg.report.pages`): an evaluation result read one
show at a time (:class:`tvseg.report.adapter.ResultPages`) or a :class:`~tvseg.report.model.Report`.

Layout of the folder::

    index.html              the corpus page
    assets/report.css       the style sheet of every page
    assets/timeline.js      the script of the show pages' timelines
    shows/<name>.html       one page per show (``name`` from :func:`tvseg.report.paths.safe_names`)
    data/scores.json        the contract's ``--json`` schema
    data/matches.csv        the match tables of every show, one row per (show, system, reference segment)

Pages use jinja2 templates from ``tvseg/templates`` with autoescaping on, inline SVG, the style sheet
and the timeline's script written once in ``assets/`` (not repeated in thousands of show pages) and
linked by relative paths, and JavaScript only to sort tables and to zoom the timeline; the rows repeated on a page are written by :mod:`tvseg.report.rows`,
the timeline by :mod:`tvseg.report.svg`, the sweep charts by :mod:`tvseg.report.charts` and the
data files by :mod:`tvseg.report.datafiles`. The show page's template runs once per report (and set of
systems): rendered with a marker in place of each part of a page's own (:func:`_skeleton`), it gives the
text between those parts, and each page is that text with its own parts written in. Output is deterministic: the same scores give the same
bytes, whatever the number of processes writing the show pages (:mod:`tvseg.report.workers`), apart
from the version, the date and the run id (``tvseg evaluate``'s, also in its ``--json`` file) in the
footers and in ``scores.json``.

Untrusted text (show ids, system names, titles, metadata) is escaped, and its control characters
and bidirectional-text controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), which
could hide or reorder what a reader sees, are shown as a visible ``<U+202E>`` (in a ``span.cc``
in the text, as plain text in attributes and SVG), never passed raw.

The text cells of the CSV file are kept from running as spreadsheet formulas
(:func:`tvseg.report.datafiles.spreadsheet_safe`); ``scores.json`` keeps every text exactly.

The folder is written and swapped into place by :func:`tvseg.report.paths.replace_directory`:
a kill at any instant leaves the old complete report or the new complete one.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from tvseg import metrics
from tvseg.memory import give_back_memory
from tvseg.output import write_file
from tvseg.report import rows, svg, workers
from tvseg.report.charts import sweep_charts
from tvseg.report.confidence_charts import confidence_section
from tvseg.report.datafiles import MATCHES_HEADER, matches_csv
from tvseg.report.model import Estimate, Report, defined
from tvseg.report.pages import ModelPages, ShowPage
from tvseg.report.paths import inside, plain_stem, replace_directory, safe_names
from tvseg.report.rows import visible
from tvseg.report.show_data import show_data
from tvseg.report.show_table import show_table_json
from tvseg.report.summary import report_sentences, script_note, significance_notes

__all__ = [
    "environment",
    "render_index",
    "render_show",
    "write",
    "visible",
    "RETRIEVAL",
    "DISTANCES",
    "COUNTS",
    "UNIT",
    "TITLING",
    "CHAPTERS",
]

# Column labels come from the metric registry (tvseg.metrics), one per key.
RETRIEVAL = metrics.columns("coverage", "boundary")
DISTANCES = metrics.columns("distance")
COUNTS = metrics.columns(keys_=("n_reference", "n_hypothesis", "n_correct_reference", "n_correct_hypothesis"))
UNIT = metrics.columns("unit")
TITLING = metrics.columns("title")
CHAPTERS = metrics.columns("chapters")
SIGNIFICANCE = metrics.columns(keys_=metrics.COMPARED)
LENGTH = metrics.columns(keys_=("n_reference", "n_hypothesis", "recall_n", "precision_n", "recall_d", "precision_d"))
# a show's story errors (tvseg.retrieval.stories): the reference stories split, merged, shifted, missed; false alarms
STORIES = metrics.columns(
    keys_=("n_reference_split", "n_reference_merged", "n_reference_shifted", "n_reference_missed", "n_false_alarm")
)
FOLD_ROWS = 20
"""A breakdown of more rows than this is folded on the corpus page (its links and sortable headers out of the
way of the keyboard until it is opened)."""
NUMBER_KEYS = metrics.NUMBER_KEYS  # shown as numbers, not percentages
_MISSING = Estimate(None)


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The jinja2 environment on the package's templates, autoescaping every template.

    Templates are compiled once per process and kept (the environment is cached).
    """
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tvseg", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        cache_size=-1,
        auto_reload=False,
    )
    env.filters.update(
        pct=rows.pct,
        points=rows.points,
        count=rows.count,
        pvalue=rows.pvalue,
        sortvalue=rows.sortvalue,
        mmss=svg.mmss,
        clock=svg.clock,
        duration=rows.duration,
        setting=rows.setting,
        visible=visible,
        visible_text=svg.visible_text,
    )
    env.globals.update(number_keys=NUMBER_KEYS, missing=_MISSING, mark_shape=svg.mark_shape)
    return env


def _labels(columns) -> list[tuple[str, Markup]]:
    # column labels are ours (not user input) and carry <sub> markup
    return [(key, Markup(label)) for key, label in columns]


def _present(present: set, columns) -> list:
    """The columns whose key is in ``present`` (some system has a value for it)."""
    return _labels([c for c in columns if c[0] in present])


def _pages(source):
    return ModelPages(source) if isinstance(source, Report) else source


# --- pages ------------------------------------------------------------------------------------


def _index_context(pages, names: Mapping[str, str], present: set, run_id: str | None = None) -> dict:
    report = pages.header
    unit = _present(present, UNIT)
    titling = _present(present, TITLING)
    show_columns = (
        _labels([("cov_n", "CovN"), ("cov_d", "CovD"), ("boundary_f1", "Bound. F")])
        + [c for c in unit if c[0] in ("pk", "windowdiff")]
        + [c for c in titling if c[0] == "title_f1"]
    )

    by_pair: dict[tuple[str, str], dict] = {}
    for c in report.comparisons:
        by_pair.setdefault((c.system_a, c.system_b), {})[c.metric] = c
    compared = {metric for cells in by_pair.values() for metric in cells}
    sig_metrics = [(k, label) for k, label in SIGNIFICANCE if k in compared]
    sig_metrics += [(k, k) for k in sorted(compared - {k for k, _ in SIGNIFICANCE})]
    significance = {
        "metrics": _labels(sig_metrics),
        "rows": [
            {"a": a, "b": b, "cells": [cells.get(m) for m, _ in sig_metrics]} for (a, b), cells in by_pair.items()
        ],
    }

    groups = []
    kinds = sorted({kind for s in report.systems for kind in s.groups})
    for kind in kinds:
        values = sorted({v for s in report.systems for v in s.groups.get(kind, {})})
        group_rows = []
        for v in values:
            scores = [s.groups.get(kind, {}).get(v, {}) for s in report.systems]
            n = next((m["n_reference"] for m in scores if m.get("n_reference") is not None), None)
            group_rows.append({"value": v, "n": n, "systems": scores})
        groups.append({"kind": kind, "rows": group_rows})

    durations = list(dict.fromkeys(label for s in report.systems for label in s.by_show_duration))
    show_durations = []
    for label in durations:
        scores = [s.by_show_duration.get(label, {}) for s in report.systems]
        show_durations.append(
            {
                "label": label,
                "n_shows": next((m["n_shows"] for m in scores if m.get("n_shows") is not None), None),
                "n": next((m["n_reference"] for m in scores if m.get("n_reference") is not None), None),
                "systems": scores,
            }
        )

    # the headline metrics' macro values by show duration, as the JSON's by_duration holds them
    macro_durations = list(dict.fromkeys(label for s in report.systems for label in s.macro_by_duration))
    duration_macro = []
    for label in macro_durations:
        scores = [s.macro_by_duration.get(label, {}) for s in report.systems]
        first = next(m for m in scores if m)
        duration_macro.append({"label": label, "class": first["class"], "n_shows": first["n_shows"], "systems": scores})
    macro_keys = {key for row in duration_macro for scores in row["systems"] for key in scores}
    duration_macro_columns = _present(macro_keys, SIGNIFICANCE)

    charts = sweep_charts(report)

    metadata_keys = sorted({k for meta in pages.metadata for k in meta})
    keys = [key for key, _ in show_columns]
    show_data = show_table_json(
        pages.show_ids,
        [names[s] for s in pages.show_ids],
        pages.metadata,
        metadata_keys,
        [s.name for s in report.systems],
        show_columns,
        pages.show_metrics(keys),
        pages.no_output,
    )
    has_ci = any(e.lo is not None for s in report.systems for e in s.corpus.values())
    resamples = report.settings.get("bootstrap")
    resamples = resamples if isinstance(resamples, int) else int(has_ci or bool(report.comparisons))
    family = [k for k in metrics.HEADLINE if any(c.metric == k for c in report.comparisons)]
    tests = significance_notes(len(pages), resamples=resamples, systems=len(report.systems), family=family)
    if not any(c.p_value_holm is not None for c in report.comparisons):
        tests["correction"] = None  # a hand-built report without Holm's p-values shows the uncorrected ones
    long_threshold = report.settings.get("long_threshold")
    return {
        "report": report,
        "assets": f"{ASSETS}/",
        "n_shows": len(pages),
        "has_ci": has_ci,
        "tests": tests,
        "retrieval_columns": _labels(RETRIEVAL),
        "count_columns": _labels(COUNTS),
        "distance_columns": _present(present, DISTANCES),
        "unit_columns": unit,
        "title_columns": titling,
        # detection and navigation in two tables, so that each fits a 1,280 px screen
        "chapter_columns": [c for c in _present(present, CHAPTERS) if not c[0].startswith("nav_")],
        "navigation_columns": [c for c in _present(present, CHAPTERS) if c[0].startswith("nav_")],
        "significance": significance,
        "by_length": any(s.by_length for s in report.systems),
        "length_columns": _labels(LENGTH),
        "long_threshold": f"{long_threshold:g} s" if isinstance(long_threshold, (int, float)) else "the threshold",
        "groups": groups,
        "fold_rows": FOLD_ROWS,
        "show_durations": show_durations,
        "duration_macro": duration_macro,
        "duration_macro_columns": duration_macro_columns,
        # the shows table's error rates, whose "behind best" reads the other way
        "lower_better": [label for key, label in show_columns if key in ("pk", "windowdiff")],
        # one table per metadata column: the share of stories retrieved (R_N) beside the scores
        "group_columns": _labels(metrics.columns(keys_=("recall_n",))) + show_columns[:3],
        "charts": charts,
        "confidence": confidence_section(pages.result),  # scored boundaries
        "metadata_keys": metadata_keys,
        "show_columns": show_columns,
        "show_data": Markup(show_data),  # JSON made safe in a script element by show_table_json
        # the summary in words, and the retrieval analysis when the source has one (an evaluation result's)
        "summary": report_sentences(report, n_shows=len(pages)),
        "analysis": pages.analysis,
        "failures": pages.failures,
        "title_script_note": script_note(pages.title_scripts) if "title_rougeL_f1" in present else None,
        "show_files": names,
        "run_id": run_id,
        "annotators": _annotators(pages.annotators),
    }


def _annotators(combined) -> dict | None:
    """The corpus page's "human ceiling" section of a run against several annotators
    (:class:`tvseg.annotators.AnnotatorsResult`): per system and for the ceiling, each metric's pooled
    value with its interval, the mean over annotators (over pairs for the ceiling) with its range, and
    the system's share of the ceiling; then each annotator's (each pair's) values."""
    if combined is None:
        return None
    from tvseg.annotators import CEILING, CEILING_METRICS

    keys = [k for k in CEILING_METRICS if defined(combined.ceiling["pooled"].get(k))]

    def cells(values, interval, share):
        """Each key's cells of ``values`` (``pooled``, ``mean``, ``min`` and ``max`` over the annotators)."""
        out = []
        for k in keys:
            ci = interval.get(k) or {}
            out.append(
                {
                    "pooled": rows.pct(values["pooled"].get(k)),
                    "ci": f"[{rows.pct(ci.get('low'))}\u2013{rows.pct(ci.get('high'))}]" if ci else "",
                    "mean": rows.pct(values["mean"].get(k)),
                    "range": f"{rows.pct(values['min'].get(k))}\u2013{rows.pct(values['max'].get(k))}",
                    "share": rows.pct(share.get(k)) if share is not None else "100.0",
                }
            )
        return out

    systems = []
    for name in combined.systems:
        systems.append(
            {
                "name": name,
                "cells": cells(combined.over[name], combined.intervals.get(name, {}), combined.share.get(name, {})),
                "annotators": [
                    (a, [rows.pct(combined.per_annotator[name][a].get(k)) for k in keys]) for a in combined.annotators
                ],
            }
        )
    c = combined.ceiling
    return {
        "names": list(combined.annotators),
        "labels": _labels(metrics.columns(keys_=tuple(keys))),
        "systems": systems,
        "ceiling": cells(c, combined.intervals.get(CEILING, {}), None),
        "pairs": [(pair, [rows.pct(values.get(k)) for k in keys]) for pair, values in c["pairs"].items()],
        "sentences": combined.sentences(),
        "reference": combined.annotators[0],
        "agreement": combined.agreement,
    }


def render_index(report, names: Mapping[str, str] | None = None, *, run_id: str | None = None) -> str:
    """The corpus page (``index.html``) of a :class:`Report` or a source of pages (:mod:`tvseg.report.pages`);
    ``run_id``: the run id its footer shows (none by default)."""
    pages = _pages(report)
    names = names if names is not None else safe_names(pages.show_ids)
    return environment().get_template("index.html").render(_index_context(pages, names, pages.present(), run_id))


def _show_columns(present: set) -> list:
    """The groups of a show's score tables: ``(heading, columns)``, one small table each."""
    groups = [
        ("Segment retrieval", _labels(RETRIEVAL[:6] + COUNTS[:2])),
        ("Boundaries", _labels(RETRIEVAL[6:])),
        ("Boundary distances", _present(present, DISTANCES)),
        ("Unit domain", _present(present, UNIT)),
        ("Titling", _present(present, TITLING)),
        ("Story errors", _present(present, STORIES)),
    ]
    return [(heading, tuple(columns)) for heading, columns in groups if columns]


@lru_cache(maxsize=8)
def _score_head(columns: tuple) -> Markup:
    """The header cells of a show's score table (the same on every page of a report)."""
    return Markup("".join(f"<th>{escape(label)}</th>" for _, label in columns))


_MARK = "\x00"  # around a page's own value in a skeleton (never in a template's text, nor in escaped text)


def _mark(name: str) -> Markup:
    return Markup(f"{_MARK}{name}{_MARK}")


_SKELETONS: dict = {}
TIMELINE_MARKS = ("start", "end", "span")  # the timeline's values of each show in the template


def _skeleton(header: Report, columns: tuple, system_names: tuple, run_id: str | None) -> tuple:
    """The show page rendered once with a marker in place of each value of its own: ``(texts, names)``,
    the page being ``texts[0] + value[names[0]] + texts[1] + ...`` (the template runs once per report
    and set of systems, not once per show)."""
    key = (id(header), columns, system_names, run_id)
    cached = _SKELETONS.get(key)
    if cached is not None and cached[0] is header:  # the header is kept, so its id is not reused meanwhile
        return cached[1]
    if len(_SKELETONS) >= 8:
        _SKELETONS.clear()
    skeleton = _render_skeleton(header, columns, system_names, run_id)
    _SKELETONS[key] = (header, skeleton)
    return skeleton


def _render_skeleton(header: Report, columns: tuple, system_names: tuple, run_id: str | None) -> tuple:
    tolerance = header.settings.get("tolerance")
    tolerance = tolerance if isinstance(tolerance, (int, float)) else None
    gamma = header.settings.get("gamma")
    timeline: dict[str, object] = {key: _mark(f"t_{key}") for key in TIMELINE_MARKS}
    figure = svg.frame(system_names, tolerance=tolerance, label=_mark("t_label"), clock=_mark("t_clock"))
    timeline.update(left=svg.LEFT, right=svg.WIDTH - svg.RIGHT, width=svg.WIDTH, svg=Markup(figure))
    page: dict[str, object] = {
        key: _mark(key) for key in ("title_id", "previous", "next", "show_id", "note", "no_output", "data", "f1_head")
    }
    page["timeline"] = timeline
    text = (
        environment()
        .get_template("show.html")
        .render(
            report=header,
            assets=f"../{ASSETS}/",
            page=page,
            score_tables=[
                {"heading": heading, "head": _score_head(group), "rows": _mark(f"scores{i}")}
                for i, (heading, group) in enumerate(columns)
            ],
            systems=[
                {
                    "name": name,
                    "key": f"s{i}",
                    "n_segments": _mark(f"n{i}"),
                    "no_output": _mark(f"no_output{i}"),
                    "silent": _mark(f"silent{i}"),
                }
                for i, name in enumerate(system_names)
            ],
            tolerance=None if tolerance is None else f"{tolerance:g} s",
            gamma=f"{gamma:g}" if isinstance(gamma, (int, float)) else "\u03b3",
            run_id=run_id,
        )
    )
    parts = text.split(_MARK)
    names = tuple(parts[1::2])
    known = set(page) | {f"t_{key}" for key in (*TIMELINE_MARKS, "label", "clock")}
    known |= {f"scores{i}" for i in range(len(columns))}
    known |= {f"{kind}{i}" for kind in ("n", "no_output", "silent") for i in range(len(system_names))}
    if len(parts) % 2 != 1 or not set(names) <= known:  # a marker character in the template's own text
        raise RuntimeError("the show page's template holds the marker character U+0000")
    return tuple(parts[0::2]), names


def _neighbour(show_ids, names, i: int, rel: str) -> str:
    if not 0 <= i < len(show_ids):
        return (
            '<span class="disabled">&larr; first show</span>'
            if rel == "prev"
            else ('<span class="disabled">last show &rarr;</span>')
        )
    show_id = show_ids[i]
    link = f'<a href="{svg.escape_text(names[show_id])}.html" rel="{rel}">'
    if rel == "prev":
        return f"{link}&larr; previous: {visible(show_id)}</a>"
    return f"{link}next: {visible(show_id)} &rarr;</a>"


def _metadata_key(item):
    key = item[0]
    return key.lower() if isinstance(key, str) else key


def _show_html(
    header: Report, show_ids, k: int, page: ShowPage, names: Mapping[str, str], columns, run_id: str | None = None
) -> str:
    texts, marks = _skeleton(header, tuple(columns), tuple(s.name for s in page.systems), run_id)
    named = [(s.name, s.metrics) for s in page.systems]
    show_id = page.show_id
    metadata = "".join(
        f" &middot; {visible(key)}: <b>{visible(value)}</b>"
        for key, value in sorted(page.metadata.items(), key=_metadata_key)
    )
    silent = [visible(s.name) for s in page.systems if not s.has_output]
    values = {
        "no_output": (
            '<p class="note missing-output" id="no-output">No output for this show from '
            + ", ".join(f"<b>{name}</b>" for name in silent)
            + ": scored as empty (an empty hypothesis: nothing retrieved, every reference boundary missed).</p>"
            if silent
            else ""
        ),
        "title_id": svg.escape_text(svg.visible_text(show_id)),
        "previous": _neighbour(show_ids, names, k - 1, "prev"),
        "next": _neighbour(show_ids, names, k + 1, "next"),
        "show_id": visible(show_id),
        "note": f"{svg.mmss(page.start)}&ndash;{svg.mmss(page.end)} ({rows.duration(page.end - page.start)}) &middot; "
        f"{len(page.ref_start)} reference segments{metadata}",
        "t_start": repr(float(page.start)),
        "t_end": repr(float(page.end)),
        "t_span": f"{svg.mmss(page.start)}\u2013{svg.mmss(page.end)}",
        "t_label": svg.timeline_label(page),
        "t_clock": svg.clock_format(page),
    }
    data = show_data(page)
    values["data"] = svg.script_json(data)
    values["f1_head"] = "<th>title F1</th>" if data["f1"] else ""
    for i, (_, group) in enumerate(columns):
        values[f"scores{i}"] = rows.score_rows(named, [key for key, _ in group])
    for i, s in enumerate(page.systems):
        values[f"n{i}"] = str(len(s.seg_start))
        values[f"no_output{i}"] = (
            "" if s.has_output else ' <span class="missing-output">(no output for this show: scored as empty)</span>'
        )
        values[f"silent{i}"] = "" if s.has_output else rows.SILENT
    pieces = [texts[0]]
    for name, text in zip(marks, texts[1:]):
        pieces.append(values[name])
        pieces.append(text)
    return "".join(pieces)


def render_show(
    report,
    index: int,
    names: Mapping[str, str] | None = None,
    *,
    run_id: str | None = None,
    _page: ShowPage | None = None,
    _columns=None,
) -> str:
    """The page of show ``index`` of a :class:`Report` or a source of pages, with links to its neighbours
    (``run_id``: the run id its footer shows, none by default).

    :func:`write` passes the page it built (``_page``, also written as CSV) and the score columns.
    """
    pages = _pages(report)
    names = names if names is not None else safe_names(pages.show_ids)
    page = _page if _page is not None else pages.page(index)
    columns = _columns if _columns is not None else _show_columns(pages.present())
    return _show_html(pages.header, pages.show_ids, index, page, names, columns, run_id)


# --- the folder -------------------------------------------------------------------------------

ASSETS = "assets"
ASSET_FILES = ("report.css", "timeline.js")
"""The style sheet of every page and the script of the show pages, written once into the report's
``assets/`` folder and linked from each page (not repeated in 2,000 show pages)."""


def asset_text(name: str) -> str:
    """The text of one of :data:`ASSET_FILES`, as the package's templates hold it."""
    loader = environment().loader
    assert loader is not None
    return loader.get_source(environment(), name)[0]


def _extend(text: list, part) -> None:
    """``text`` extended by the match tables of a shard's pages (:class:`tvseg.report.adapter.ShardPages`)."""
    text.extend(matches_csv(part, header=False))


def _put(path: Path, text) -> None:
    """Write ``text`` (a ``str``, or its pieces) to ``path``; replace_directory flushes the whole folder at once."""
    write_file(path, text, sync=False)


def write(
    report, directory, *, progress: bool | None = None, jobs: int | None = None, run_id: str | None = None
) -> Path:
    """Write the whole report into ``directory`` atomically; return the path of its index.html.

    ``report`` is a :class:`Report` or a source of pages (:class:`tvseg.report.adapter.ResultPages`).
    ``progress``: None draws a progress bar on stderr when there are more than a few dozen shows
    and stderr is a terminal; True or False force it on or off. ``jobs``: the number of processes
    writing the show pages (:func:`tvseg.report.workers.run`; default: the machine's cores; 1: this
    process alone). The bytes written do not depend on it. ``run_id``: the run id
    (:func:`tvseg.output.new_run_id`) the footers show and ``data/scores.json`` holds; none by default.
    """
    jobs = workers.checked_jobs(jobs)
    pages = _pages(report)
    n = len(pages)
    names = safe_names(pages.show_ids)
    present = pages.present()
    columns = _show_columns(present)
    show_ids = pages.show_ids
    for template in ("show.html", "index.html"):  # compiled once, here, before any process forks
        environment().get_template(template)
    svg.no_label()

    def fill(root: Path) -> None:
        shows, data, assets = inside(root, "shows"), inside(root, "data"), inside(root, ASSETS)
        shows.mkdir()
        data.mkdir()  # workers create no folder: none can recreate a removed one
        assets.mkdir()
        for name in ASSET_FILES:
            _put(assets / name, asset_text(name))

        def corpus() -> None:
            _put(inside(root, "data/scores.json"), pages.scores_json(run_id))
            give_back_memory()
            context = _index_context(pages, names, present, run_id)
            _put(inside(root, "index.html"), environment().get_template("index.html").render(context))

        def writer(part, first: int = 0):
            def write_show(k: int) -> None:
                page = part.page(k)
                name = plain_stem(names[show_ids[first + k]])
                html = render_show(pages, first + k, names, run_id=run_id, _page=page, _columns=columns)
                _put(shows / f"{name}.html", html)

            return write_show

        if not hasattr(pages, "shards"):

            def matches() -> None:  # the longest of the corpus's files: written by the pool, beside the pages
                _put(data / "matches.csv", matches_csv(pages))

            workers.run(writer(pages), n, jobs=jobs, meanwhile=corpus, progress=progress, others=(matches,))
            return

        def streamed():
            """The match tables' text, a shard at a time; each shard's pages written by the pool meanwhile."""
            yield MATCHES_HEADER
            with workers.Parts(n, jobs=jobs, progress=progress) as parts:
                for part in pages.shards():
                    text: list[str] = []
                    parts.run(writer(part, part.first), len(part), meanwhile=partial(_extend, text, part))
                    yield from text
                    del text, part
                    give_back_memory()  # a shard's pages and text freed: the next one's land where they were

        _put(data / "matches.csv", streamed())  # every shard read: the corpus's counts are complete
        corpus()

    return replace_directory(directory, fill) / "index.html"
