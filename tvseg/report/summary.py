"""The summary in words at the top of the corpus page: which system is ahead, on what and how sure.

:func:`summary_sentences` says in two or three sentences which system is ahead, on what and how
sure (the paired-bootstrap p-values of ``result.pairwise``), claiming nothing the numbers do not
support; :func:`report_sentences` says the same from a report's header
(:class:`tvseg.report.model.Report`), and :func:`sentences` from plain corpus values and p-values.

Like :mod:`tvseg.report.analysis`, this module computes no score: it reads the values the result holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tvseg.metrics import COMPARED, METRICS

__all__ = ["summary_sentences", "report_sentences", "sentences"]

_NAMES = {"boundary_f1": "boundary F"}  # plain-language names; the registry's label otherwise


def _name(metric: str) -> str:
    return _NAMES.get(metric, METRICS[metric].label if metric in METRICS else metric)


def _pct(v: float) -> str:
    return f"{100 * v:.1f}\u00a0%"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _join(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _defined(v) -> bool:
    return v is not None and v == v


def _retrieval(names, corpus) -> str | None:
    """``a retrieves 67.0 % of the 60 reference stories (40) against 37.0 % (22) for b``."""
    have = [n for n in names if _defined(corpus[n].get("recall_n"))]
    if not have:
        return None
    ranked = sorted(have, key=lambda n: -corpus[n]["recall_n"])  # stable: ties keep the result's order

    def share(n):
        got = corpus[n].get("n_correct_reference")
        return _pct(corpus[n]["recall_n"]) + (f" ({got:.0f})" if _defined(got) else "")

    total = corpus[ranked[0]].get("n_reference")
    stories = f"the {total:.0f} reference stories" if _defined(total) else "the reference stories"
    rest = [f"{share(n)} for {n}" for n in ranked[1:]]
    return f"{ranked[0]} retrieves {share(ranked[0])} of {stories}" + (" against " + _join(rest) if rest else "") + "."


def _one_system(name: str, values: Mapping) -> list[str]:
    out = [s for s in (_retrieval([name], {name: values}),) if s]
    figures = [f"{_name(k)} {_pct(values[k])}" for k in COMPARED if _defined(values.get(k))]
    if figures:
        out.append(f"{name} has {_join(figures)}; with one system, there is nothing to compare.")
    return out


def _p_value(pairwise: Sequence[Mapping], a: str, b: str, metric: str):
    for c in pairwise:
        if c.get("metric") == metric and {c.get("a"), c.get("b")} == {a, b}:
            return c.get("p_value")
    return None


def sentences(
    corpus: Mapping[str, Mapping[str, float]], pairwise: Sequence[Mapping], resamples: int | None
) -> list[str]:
    """The summary sentences of corpus values and pairwise p-values (see :func:`summary_sentences`).

    Parameters
    ----------
    corpus : dict
        System name -> corpus metric values (fractions; NaN or None where undefined), in the result's order.
    pairwise : list of dict
        ``{"a", "b", "metric", "difference", "p_value"}`` as :func:`tvseg.retrieval.bootstrap.paired_bootstrap`
        returns them.
    resamples : int or None
        The bootstrap resamples of the settings (0: none were drawn; None: unknown, read from ``pairwise``).

    Returns
    -------
    list of str
    """
    names = list(corpus)
    if not names:
        return []
    if len(names) == 1:
        return _one_system(names[0], corpus[names[0]])
    out = [s for s in (_retrieval(names, corpus),) if s]
    metrics = [k for k in COMPARED if all(_defined(corpus[n].get(k)) for n in names)]
    if not metrics:
        return out
    # per metric, the systems from best to worst (higher is better for every compared metric but errors)
    ranked = {}
    for k in metrics:
        sign = -1.0 if METRICS[k].higher_is_better is not False else 1.0
        ranked[k] = sorted(names, key=lambda n: sign * corpus[n][k])
    leaders: dict[str, list[str]] = {}
    ties: dict[tuple[str, str], list[str]] = {}  # the first two of a metric, when equal on it
    for k in metrics:
        best, second = ranked[k][0], ranked[k][1]
        if corpus[best][k] == corpus[second][k]:
            ties.setdefault((best, second), []).append(k)
        else:
            leaders.setdefault(best, []).append(_name(k))
    if len(leaders) == 1 and not ties:
        ((leader, on),) = leaders.items()
        said = (
            f"{leader} does better than {[n for n in names if n != leader][0]} on {_join(on)}"
            if len(names) == 2
            else f"{leader} does best on {_join(on)}"
        )
    else:
        said = _mixed(leaders, ties, len(names))
    out.append(said + ".")
    tied = [k for on in ties.values() for k in on]
    if len(tied) < len(metrics):
        out.append(_significance(names, ranked, metrics, tied, pairwise, resamples))
    return out


def _mixed(leaders: Mapping[str, list], ties: Mapping[tuple, list], n_systems: int) -> str:
    """``a is ahead on CovN and CovD, b on boundary F`` (then the metrics where the first two are equal)."""
    lead = "ahead" if n_systems == 2 else "first"
    parts = [
        f"{leader} is {lead} on {_join(on)}" if i == 0 else f"{leader} on {_join(on)}"
        for i, (leader, on) in enumerate(leaders.items())
    ]
    said = ", ".join(parts)
    if len(leaders) > 1:
        said = "The systems rank differently on different metrics: " + said
    for (a, b), on in ties.items():
        tie = f"{a} and {b} are equal on {_join([_name(k) for k in on])}"
        said = f"{said}; {tie}" if said else tie
    return said


def _significance(names, ranked, metrics, ties, pairwise, resamples) -> str:
    if resamples == 0 or (resamples is None and not pairwise):
        return "No significance was computed (the bootstrap was off: 0 resamples)."
    against = "the difference" if len(names) == 2 else "the difference between the first two"
    significant, not_significant, unknown = [], [], []
    for k in metrics:
        if k in ties:
            continue
        p = _p_value(pairwise, ranked[k][0], ranked[k][1], k)
        if not _defined(p):
            unknown.append(_name(k))
        elif p < 0.05:
            significant.append((_name(k), p))
        else:
            not_significant.append((_name(k), p))
    parts = []

    def listed(items):
        ps = {_p(p) for _, p in items}
        if len(ps) == 1:
            return f"{_join([m for m, _ in items])} ({ps.pop()}{' on each' if len(items) > 1 else ''})"
        return _join([f"{m} ({_p(p)})" for m, p in items])

    if significant:
        parts.append(f"is significant on {listed(significant)}")
    if not_significant:
        parts.append(f"is not significant at 0.05 on {listed(not_significant)}")
    if unknown:
        parts.append(f"has no p-value on {_join(unknown)}")
    return f"Paired bootstrap over shows: {against} " + "; it ".join(parts) + "."


def summary_sentences(result) -> list[str]:
    """Which system is ahead, on what, and how sure: two or three sentences from the numbers of ``result``.

    With one system, its figures; with several, the share of reference stories each retrieves
    (R\\ :sub:`N`), which system does better on each compared metric (CovN, CovD, boundary F, and with
    units Pk and WindowDiff, where lower is better; the systems are said to rank differently when the
    leaders differ), and the paired-bootstrap p-value
    of each difference between the first two (significant when p < 0.05, else "not significant at
    0.05"); with the bootstrap off, that no significance was computed.

    Parameters
    ----------
    result : tvseg.evaluation.EvaluationResult

    Returns
    -------
    list of str
    """
    corpus = {name: dict(sr.corpus) for name, sr in result.systems.items()}
    return sentences(corpus, result.pairwise, result.settings.bootstrap)


def report_sentences(report) -> list[str]:
    """:func:`summary_sentences` of a report's header (:class:`tvseg.report.model.Report`): the same
    sentences from the values the pages show."""
    corpus = {s.name: {k: e.value for k, e in s.corpus.items()} for s in report.systems}
    pairwise = [
        {"a": c.system_a, "b": c.system_b, "metric": c.metric, "difference": c.difference, "p_value": c.p_value}
        for c in report.comparisons
    ]
    resamples = report.settings.get("bootstrap") if report.settings else None
    return sentences(corpus, pairwise, resamples if isinstance(resamples, int) else None)
