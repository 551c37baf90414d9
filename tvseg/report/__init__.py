"""The HTML report: a corpus page, one page per show, and the data behind them.

:func:`write_report` is the entry point (``tvseg evaluate --html DIR`` calls it). The pages of an
evaluation result are written from the result itself, one show at a time
(:class:`tvseg.report.adapter.ResultPages`), or from the files of its shards' segments, one shard at a
time (:class:`tvseg.report.adapter.ShardedPages`: ``tvseg evaluate`` scores in shards and keeps no
segment), by a pool of processes (:mod:`tvseg.report.workers`);
a :class:`~tvseg.report.model.Report` built directly (tests, benchmarks) is rendered the same way.
"""

from __future__ import annotations

import os
from pathlib import Path

from tvseg.report.model import Report

__all__ = ["write_report", "Report"]


def write_report(
    result,
    directory: str | os.PathLike,
    *,
    progress: bool | None = None,
    date: str | None = None,
    jobs: int | None = None,
    run_id: str | None = None,
    annotators=None,
    segments=None,
) -> Path:
    """Write the HTML report of ``result`` into ``directory``; return the path of its index.html.

    Parameters
    ----------
    result : tvseg.evaluation.EvaluationResult or tvseg.report.model.Report
        The scores to show.
    directory : path
        The report folder. It is written beside itself under a temporary name and moved into
        place only when complete; an existing report there is replaced only by a complete new one,
        and an existing folder that is not a tvseg report is never replaced.
    progress : bool, optional
        None (default): a progress bar on stderr when there are more than a few dozen shows and
        stderr is a terminal. True or False force it on or off.
    date : str, optional
        The date the footers show (default: today); ``tvseg evaluate --demo`` takes it from the
        corpus's metadata so that the committed demo report is reproducible byte for byte. Ignored
        for a :class:`~tvseg.report.model.Report`, which carries its own.
    jobs : int, optional
        The number of processes writing the show pages (default: the machine's cores,
        :func:`os.cpu_count`); 1 writes them in this process. Small reports, and systems that
        cannot fork, are written in this process whatever ``jobs``. The files written are the
        same, byte for byte, whatever ``jobs``.
    run_id : str, optional
        The id of the run (:func:`tvseg.output.new_run_id`), shown in the footers and written in
        ``data/scores.json``, as in the run's ``--json`` file; default: none shown.
    segments : list of tvseg.scale.SegmentFile, optional
        ``result`` holds no segment (:func:`tvseg.scale.evaluate_files_spilled`): its shards' segments are
        read from these files, one shard at a time (:class:`tvseg.report.adapter.ShardedPages`); the report
        is the same, byte for byte.
    annotators : tvseg.annotators.AnnotatorsResult, optional
        A run against several annotators: the corpus page opens with each system against every
        annotator and the human ceiling; ``result`` is then the evaluation against one of them (its
        tables and show pages).

    Returns
    -------
    pathlib.Path
        The report's ``index.html``.
    """
    from tvseg.report import render

    if not isinstance(result, Report):
        from tvseg.report.adapter import ResultPages, ShardedPages

        result = ResultPages(result, date=date) if segments is None else ShardedPages(result, segments, date=date)
        result.annotators = annotators
    return render.write(result, directory, progress=progress, jobs=jobs, run_id=run_id)
