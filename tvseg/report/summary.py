"""The summary in words at the top of the corpus page: which system is ahead, on what and how sure.

:func:`summary_sentences` says in two or three sentences which system is ahead, on what and how
sure (the p-values of ``result.pairwise``: an exact sign-flip test up to 12 shows, the paired bootstrap
from 13; Holm-corrected over the headline metrics and the pairs of systems, the family named; a p-value at the
resampling's floor written as a bound, ``p < 0.0001 (10,000 resamples)``), claiming nothing the numbers do not
support: below :data:`~tvseg.significance.MIN_SHOWS` shows, or without a p-value, it says there are not
enough shows to tell, calls nothing significant and gives no p-value beside that verdict (the significance
table gives them) (:mod:`tvseg.significance`).
:func:`report_sentences` says the same from a report's header (:class:`tvseg.report.model.Report`),
and :func:`sentences` from plain corpus values and p-values.

Like :mod:`tvseg.report.analysis`, this module computes no score: it reads the values the result holds.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict

from tvseg.metrics import HEADLINE, METRICS
from tvseg.report.model import defined
from tvseg.retrieval.titles import has_title
from tvseg.significance import MIN_SHOWS, p_text, policy, rounded_up, smallest_p_value, which_test

__all__ = [
    "summary_sentences",
    "report_sentences",
    "sentences",
    "significance_notes",
    "title_script_note",
    "title_scripts",
    "script_note",
]

_NAMES = {"boundary_f1": "boundary F"}  # plain-language names; the registry's label otherwise


def metric_name(metric: str) -> str:
    return _NAMES.get(metric, METRICS[metric].label if metric in METRICS else metric)


def percent(v: float) -> str:
    return f"{100 * v:.1f}\u00a0%"


def joined(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _retrieval(names, corpus) -> str | None:
    """``a retrieves 67.0 % of the 60 reference stories (40) against 37.0 % (22) for b``."""
    have = [n for n in names if defined(corpus[n].get("recall_n"))]
    if not have:
        return None
    ranked = sorted(have, key=lambda n: -corpus[n]["recall_n"])  # stable: ties keep the result's order

    def share(n):
        got = corpus[n].get("n_correct_reference")
        return percent(corpus[n]["recall_n"]) + (f" ({got:.0f})" if defined(got) else "")

    total = corpus[ranked[0]].get("n_reference")
    stories = f"the {total:.0f} reference stories" if defined(total) else "the reference stories"
    rest = [f"{share(n)} for {n}" for n in ranked[1:]]
    return f"{ranked[0]} retrieves {share(ranked[0])} of {stories}" + (" against " + joined(rest) if rest else "") + "."


def _one_system(name: str, values: Mapping) -> list[str]:
    out = [s for s in (_retrieval([name], {name: values}),) if s]
    figures = [f"{metric_name(k)} {percent(values[k])}" for k in HEADLINE if defined(values.get(k))]
    if figures:
        out.append(f"{name} has {joined(figures)}; with one system, there is nothing to compare.")
    return out


def _p_value(pairwise: Sequence[Mapping], a: str, b: str, metric: str) -> tuple:
    """The Holm-corrected p-value of ``a`` and ``b`` on ``metric`` (the uncorrected one where the entry has none)
    and whether it is a bound: ``(None, False)`` without an entry."""
    for c in pairwise:
        if c.get("metric") == metric and {c.get("a"), c.get("b")} == {a, b}:
            key = "p_value_holm" if defined(c.get("p_value_holm")) else "p_value"
            return c.get(key), bool(c.get(key + "_is_bound"))
    return None, False


def sentences(
    corpus: Mapping[str, Mapping[str, float]],
    pairwise: Sequence[Mapping],
    resamples: int | None,
    *,
    n_shows: int | None = None,
) -> list[str]:
    """The summary sentences of corpus values and pairwise p-values (see :func:`summary_sentences`).

    Parameters
    ----------
    corpus : dict
        System name -> corpus metric values (fractions; NaN or None where undefined), in the result's order.
    pairwise : list of dict
        ``{"a", "b", "metric", "difference", "p_value"}`` as :func:`tvseg.significance.paired_bootstrap`
        returns them.
    resamples : int or None
        The bootstrap resamples of the settings (0: none were drawn; None: unknown, read from ``pairwise``).
    n_shows : int, optional
        The shows the p-values rest on: the sentence names them and the test, and below
        :data:`~tvseg.significance.MIN_SHOWS` says there are not enough shows to tell. None
        (unknown): the p-values are read as the paired bootstrap's, over unnamed shows.

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
    metrics = [k for k in HEADLINE if all(defined(corpus[n].get(k)) for n in names)]
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
            leaders.setdefault(best, []).append(metric_name(k))
    if len(leaders) == 1 and not ties:
        ((leader, on),) = leaders.items()
        said = (
            f"{leader} does better than {[n for n in names if n != leader][0]} on {joined(on)}"
            if len(names) == 2
            else f"{leader} does best on {joined(on)}"
        )
    else:
        said = _mixed(leaders, ties, len(names))
    out.append(said + ".")
    tied = [k for on in ties.values() for k in on]
    if len(tied) < len(metrics):
        out.append(_significance(names, ranked, metrics, tied, pairwise, resamples, n_shows))
    return out


def _mixed(leaders: Mapping[str, list], ties: Mapping[tuple, list], n_systems: int) -> str:
    """``a is ahead on CovN and CovD, b on boundary F`` (then the metrics where the first two are equal)."""
    lead = "ahead" if n_systems == 2 else "first"
    parts = [
        f"{leader} is {lead} on {joined(on)}" if i == 0 else f"{leader} on {joined(on)}"
        for i, (leader, on) in enumerate(leaders.items())
    ]
    said = ", ".join(parts)
    if len(leaders) > 1:
        said = "The systems rank differently on different metrics: " + said
    for (a, b), on in ties.items():
        tie = f"{a} and {b} are equal on {joined([metric_name(k) for k in on])}"
        said = f"{said}; {tie}" if said else tie
    return said


def _family(pairwise: Sequence[Mapping], n_systems: int) -> str:
    """``, Holm-corrected over the 3 headline metrics (CovN, CovD and boundary F)`` (and the pairs of systems):
    the family the p-values were corrected in, as :func:`tvseg.significance.correct` made it."""
    tested = [k for k in HEADLINE if any(c.get("metric") == k and defined(c.get("p_value")) for c in pairwise)]
    pairs = n_systems * (n_systems - 1) // 2
    if not any(defined(c.get("p_value_holm")) for c in pairwise) or len(tested) * pairs < 2:
        return ""
    metrics = f"{len(tested)} headline metrics ({joined([metric_name(k) for k in tested])})"
    if len(tested) == 1:
        metrics = f"headline metric {metric_name(tested[0])}"
    return f", Holm-corrected over the {metrics}" + (f" and the {pairs} pairs" if pairs > 1 else "")


def _test(n_shows: int | None, pairwise: Sequence[Mapping], n_systems: int) -> str:
    """``Exact sign-flip test over the 7 shows`` (the test behind the p-values, how many shows, the family)."""
    if n_shows is None:
        return "Paired bootstrap over shows" + _family(pairwise, n_systems)
    test = "Paired bootstrap" if which_test(n_shows) == "paired bootstrap" else "Exact sign-flip test"
    return f"{test} over the {n_shows} shows{_family(pairwise, n_systems)}"


def _significance(names, ranked, metrics, ties, pairwise, resamples, n_shows) -> str:
    if resamples == 0 or (resamples is None and not pairwise):
        return "No significance was computed (the bootstrap was off: 0 resamples)."
    against = "the difference" if len(names) == 2 else "the difference between the first two"
    if n_shows == 1:
        return "Not enough shows to tell: one show gives no p-value (a test over shows needs two or more)."
    if n_shows is not None and n_shows < MIN_SHOWS:
        # no verdict, so no p-value beside it: the significance table gives them
        return (
            f"Not enough shows to tell: {n_shows} shows, fewer than the {MIN_SHOWS} a verdict needs (with "
            f"{n_shows} shows, no p-value can be below {smallest_p_value(n_shows):.3g}; the p-values are in the "
            "significance table)."
        )
    significant: list[tuple[str, str, bool]] = []
    not_significant: list[tuple[str, str, bool]] = []
    unknown: list[str] = []
    for k in metrics:
        if k in ties:
            continue
        p, bound = _p_value(pairwise, ranked[k][0], ranked[k][1], k)
        if not defined(p):
            unknown.append(metric_name(k))
            continue
        (significant if p < 0.05 else not_significant).append((metric_name(k), p_text(p, bound=bound), bound))
    parts = []
    # a bound says how many resamples it is the floor of
    drawn = f", {resamples:,} resamples" if resamples else ""

    def listed(items):
        ps = {(said, bound) for _, said, bound in items}
        if len(ps) == 1:
            said, bound = ps.pop()
            each = " on each" if len(items) > 1 else ""
            return f"{joined([m for m, _, _ in items])} ({said}{each}{drawn if bound else ''})"
        return joined([f"{m} ({said}{drawn if bound else ''})" for m, said, bound in items])

    if significant:
        parts.append(f"is significant on {listed(significant)}")
    if not_significant:
        parts.append(f"is not significant at 0.05 on {listed(not_significant)}")
    if unknown:
        parts.append(f"has no p-value on {joined(unknown)}")
    return f"{_test(n_shows, pairwise, len(names))}: {against} " + "; it ".join(parts) + "."


def summary_sentences(result) -> list[str]:
    """Which system is ahead, on what, and how sure: two or three sentences from the numbers of ``result``.

    With one system, its figures; with several, the share of reference stories each retrieves
    (R\\ :sub:`N`), which system does better on each compared metric (CovN, CovD, boundary F, and with
    units Pk and WindowDiff, where lower is better; the systems are said to rank differently when the
    leaders differ), and the p-value of each difference between the first two (significant when p < 0.05,
    else "not significant at 0.05"; Holm-corrected over the headline metrics and the pairs, the family named; a
    bound at the resampling's floor written ``p < 0.0001 (10,000 resamples)``), naming the test and how
    many shows it rests on; with fewer than :data:`~tvseg.significance.MIN_SHOWS` shows, that
    there are not enough shows to tell (no verdict and no p-value); with the bootstrap off, that no
    significance was computed.

    Parameters
    ----------
    result : tvseg.evaluation.EvaluationResult

    Returns
    -------
    list of str
    """
    corpus = {name: dict(sr.corpus) for name, sr in result.systems.items()}
    return sentences(corpus, result.pairwise, result.settings.bootstrap, n_shows=len(result.shows))


def report_sentences(report, *, n_shows: int | None = None) -> list[str]:
    """:func:`summary_sentences` of a report's header (:class:`tvseg.report.model.Report`): the same
    sentences from the values the pages show; ``n_shows`` the shows of the report (default: its
    ``n_shows``, else the number of its ``shows`` when it holds some)."""
    corpus = {s.name: {k: e.value for k, e in s.corpus.items()} for s in report.systems}
    pairwise = [{"a": c.system_a, "b": c.system_b, **asdict(c)} for c in report.comparisons]
    resamples = report.settings.get("bootstrap") if report.settings else None
    if n_shows is None:
        n_shows = report.n_shows if report.n_shows is not None else len(report.shows) or None
    return sentences(corpus, pairwise, resamples if isinstance(resamples, int) else None, n_shows=n_shows)


def significance_notes(n_shows: int, *, resamples: int, systems: int, family: Sequence[str] = ()) -> dict:
    """What the corpus page's notes say of the intervals and the p-values of ``n_shows`` shows.

    Parameters
    ----------
    n_shows : int
        The shows of the report.
    resamples : int
        The bootstrap resamples (0: none).
    systems : int
        The systems of the report.
    family : sequence of str
        The headline metrics tested (those of the report's comparisons).

    Returns
    -------
    dict
        :func:`tvseg.significance.policy`'s object, with ``intervals_note`` (how many shows the
        intervals rest on, and whether to trust them; None without a bootstrap), ``test_note`` (the test behind
        the p-values, over how many shows), ``holm_note`` (the family Holm's correction adjusts together, named;
        None without a correction) and ``verdict`` (whether a p-value may be called significant: from
        :data:`~tvseg.significance.MIN_SHOWS` shows on).
    """
    out = policy(n_shows, resamples=resamples, systems=systems, family=family)
    holm = None
    if out["correction"] == "holm":
        pairs = systems * (systems - 1) // 2
        named = joined([metric_name(k) for k in out["family"]])
        holm = (
            f"corrected by Holm\u2019s method over the {len(out['family']) * pairs} tests of the headline metrics "
            f"({named}{f'; {pairs} pairs of systems' if pairs > 1 else ''})"
        )
    few = f": fewer than {MIN_SHOWS}, so read them as unreliable" if n_shows < MIN_SHOWS else ""
    shows = "show" if n_shows == 1 else f"{n_shows} shows"
    if resamples <= 0:
        intervals = None
    elif n_shows < 2:
        intervals = "no interval: one show cannot be resampled"
    else:
        intervals = f"resampling the {shows}{few}"
    if out["test"] == "exact sign-flip":
        test = (
            f"Exact sign-flip test over the {shows} (all {2**n_shows:,} ways of swapping two systems' "
            f"scores on some of the shows; no p-value can be below {smallest_p_value(n_shows):.3g})"
        )
    elif out["test"] == "paired bootstrap":
        test = (
            f"Paired bootstrap over the {shows} ({resamples:,} resamples; at their floor a p-value is a bound, "
            f"written < {rounded_up(out['smallest_p_value'])})"
        )
    else:
        test = "One show: no p-value"
    return {**out, "intervals_note": intervals, "test_note": test, "holm_note": holm, "verdict": n_shows >= MIN_SHOWS}


_SCRIPT_NAMES = {"CJK": "Han", "HANGUL": "Hangul", "HIRAGANA": "Japanese kana", "KATAKANA": "Japanese kana"}


def _scripts(title: str) -> set[str]:
    """The non-Latin scripts of the letters of ``title`` (the first word of each letter's Unicode name)."""
    out = set()
    for c in title:
        if c.isalpha() and not c.isascii():
            script = unicodedata.name(c, "").split(" ")[0]
            if script and script != "LATIN":
                out.add(_SCRIPT_NAMES.get(script, script.title()))
    return out


def title_script_note(titles: Iterable) -> str | None:
    """A note for the titling section when reference titles are written in a non-Latin script.

    ROUGE-L's tokeniser (:mod:`tvseg.retrieval.rouge`, rouge-score's) keeps only ``a-z`` and ``0-9``: the
    letters of an Arabic or Chinese title are dropped, and such a title's ROUGE-L (even against an identical
    title) says nothing of its words. Returns None when no reference title has a non-Latin letter.

    Parameters
    ----------
    titles : iterable
        The reference segments' labels (None or NaN without a title).

    Returns
    -------
    str or None
        ``"3 of the 10 reference titles are written in Arabic or Han: ..."``.
    """
    return script_note(title_scripts(titles))


def title_scripts(titles: Iterable) -> tuple[int, int, frozenset]:
    """What :func:`title_script_note` says of ``titles``: ``(titled, n, scripts)``, the number of titles, of
    those with letters of a non-Latin script, and those scripts (summed over parts of a corpus by
    :func:`script_note`'s caller)."""
    titled = [str(t) for t in titles if has_title(t)]
    scripts: dict[str, set[str]] = {}
    for title in set(titled):
        found = _scripts(title)
        if found:
            scripts[title] = found
    n = sum(1 for t in titled if t in scripts)
    return len(titled), n, frozenset(set().union(*scripts.values()))


def script_note(counts: tuple[int, int, frozenset]) -> str | None:
    """:func:`title_script_note`'s text from :func:`title_scripts`' counts."""
    titled, n, found = counts
    if not found:
        return None
    names = sorted(found)
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return (
        f"{n} of the {titled} reference titles are written in {listed}: ROUGE-L reads only the letters a\u2013z "
        f"and the digits 0\u20139 (as rouge-score does) and drops the others, so on these titles it does not "
        f"compare their words (an identical title may score well below 100\u00a0%); title accuracy and title F1 "
        f"keep every letter."
    )
