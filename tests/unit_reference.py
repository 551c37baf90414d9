"""An outside oracle for the unit-domain scores of a show and of a corpus, written from the papers'
definitions by brute force, sharing no code with ``tvseg.unit``: every unit placed by a loop over its
midpoint, every window of every metric visited, S and B from segeval 2.0.11's boundary edit distance,
GHD from nltk 3.10.4, chunkseg's grid from chunkseg 0.4.0 itself. Used by ``test_unit_corpus.py``,
``test_bootstrap.py``, ``test_significance.py`` and ``benchmarks/bench_unit_corpus.py``.

:func:`unit_components` gives one show's additive counts (the keys of ``tvseg.unit.reduction``),
:func:`unit_metrics` the metrics of (possibly summed) counts, :func:`unit_scores` a corpus's per-show
table and pooled values as ``tvseg.evaluate`` reports them.
"""

import math
import warnings
from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import pandas as pd
from nltk.metrics.segmentation import ghd as nltk_ghd

C_MISS, C_FA, P_SEG = 1.0, 0.3, 0.3  # NIST TDT3seg.pl's costs, Doddington's prior


def starts_of(annotation):
    """The sorted start times of a segmentation's segments (pyannote Annotation or Timeline)."""
    timeline = annotation.get_timeline() if hasattr(annotation, "get_timeline") else annotation
    return sorted(segment.start for segment in timeline)


def masses_on_units(annotation, units):
    """Unit ``u`` joins the last segment whose start is at or before its midpoint (the first segment
    when none is): the masses are the lengths of the runs of equal segments."""
    starts = starts_of(annotation)
    owners = []
    for a, b in zip(units["start"].tolist(), units["end"].tolist()):
        mid = (a + b) / 2
        owner = 0
        for j, t in enumerate(starts):
            if t <= mid:
                owner = j
        owners.append(owner)
    masses = [1]
    for previous, owner in zip(owners, owners[1:]):
        if owner == previous:
            masses[-1] += 1
        else:
            masses.append(1)
    return masses


def chunk_flags(annotation, region, chunk):
    """chunkseg 0.4.0's grid: its own ``build_target_sequence`` on the boundaries strictly inside the
    region (segment starts and ends), the flags as 0 and 1."""
    from chunkseg.core import build_target_sequence

    timeline = annotation.get_timeline() if hasattr(annotation, "get_timeline") else annotation
    times = sorted({t for s in timeline for t in (s.start, s.end) if region.start < t < region.end})
    return [int(v) for v in build_target_sequence(region.end, [t for t in times if t > 0], chunk)]


def chunk_masses(annotation, region, chunk):
    """:func:`chunk_flags` as segeval's masses; None when no chunk fits."""
    flags = chunk_flags(annotation, region, chunk)
    if not flags:
        return None
    masses = [1]
    for flag in flags:
        if flag:
            masses.append(1)
        else:
            masses[-1] += 1
    return masses


def positions(masses):
    """Boundary positions: the number of units before each internal boundary."""
    out, total = [], 0
    for m in masses[:-1]:
        total += m
        out.append(total)
    return out


def half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def half_even(x: Fraction) -> int:
    return round(x)  # Python rounds a Fraction half to even


def default_k(n, segments, convention):
    """Pk's default window under each convention (docs/conventions.md), in exact fractions."""
    if convention == "paper":
        return max(1, half_up(Fraction(n, 2 * segments)))
    if convention == "segeval1":
        return max(2, half_up(Fraction(n, 2 * segments)))
    if convention in ("segeval", "chunkseg"):
        return max(2, half_even(Fraction(n, 2 * segments)))
    return half_even(Fraction(n - 1, 2 * max(segments - 1, 1)))  # nltk


def window_counts(ref, hyp, n, width, starts):
    """``(r_s, h_s)`` for each window of ``width`` gaps starting at each of ``starts``: boundaries in
    the gaps ``s .. s + width - 1`` that exist (``1 .. n - 1``)."""
    rs, hs = set(ref), set(hyp)
    out = []
    for s in starts:
        gaps = [g for g in range(s, s + width) if 1 <= g <= n - 1]
        out.append((sum(g in rs for g in gaps), sum(g in hs for g in gaps)))
    return out


def edit_statistics(ref_masses, hyp_masses):
    """segeval 2.0.11's additions, transpositions and matches (``n_t = 2``)."""
    import segeval

    if len(ref_masses) == len(hyp_masses) == 1:  # no boundary on either side (segeval fails on it)
        return 0, 0, 0
    stats = segeval.boundary_statistics(tuple(ref_masses), tuple(hyp_masses), n_t=2)
    return len(stats["additions"]), len(stats["transpositions"]), len(stats["matches"])


def components_of_masses(ref, hyp, *, k=None, convention="paper"):
    """One show's additive counts from its masses, every window visited."""
    n = sum(ref)
    pr, ph = positions(ref), positions(hyp)
    kk = default_k(n, len(ref), convention) if k is None else k
    probes = window_counts(pr, ph, n, kk, range(1, n - kk + 1))
    out = {
        "pk_miss": sum(r > 0 and h == 0 for r, h in probes),
        "pk_false_alarm": sum(r == 0 and h > 0 for r, h in probes),
        "pk_windows": len(probes),
    }
    if convention == "segeval1":  # windows of k units: k - 1 gaps, N + 1 - k of them
        windows = window_counts(pr, ph, n, kk - 1, range(1, n + 2 - kk))
    else:
        windows = probes
    out.update(wd_errors=sum(r != h for r, h in windows), wd_windows=len(windows))
    # WinPR: windows of k positions, k - 1 phantom positions at each end (Scaiano & Inkpen)
    kw = default_k(n, len(ref), "paper") + 1 if k is None else k
    win = window_counts(pr, ph, n, kw, range(2 - kw, n))
    out.update(
        winpr_tp=sum(min(r, h) for r, h in win),
        winpr_fp=sum(max(0, h - r) for r, h in win),
        winpr_fn=sum(max(0, r - h) for r, h in win),
    )
    out["winpr_tn"] = kw * (n - 1) - out["winpr_tp"] - out["winpr_fp"] - out["winpr_fn"]
    # C_seg: Pk's probes with the paper's k, conditioned on the reference
    kp = default_k(n, len(ref), "paper") if k is None else k
    cseg = window_counts(pr, ph, n, kp, range(1, n - kp + 1))
    out.update(
        cseg_miss=sum(r > 0 and h == 0 for r, h in cseg),
        cseg_ref_probes=sum(r > 0 for r, _ in cseg),
        cseg_fa=sum(r == 0 and h > 0 for r, h in cseg),
        cseg_nonref_probes=sum(r == 0 for r, _ in cseg),
    )
    additions, transpositions, matches = edit_statistics(ref, hyp)
    # S: a 2-wise transposition costs te(2, 2) = 1 PB (the paper; segeval 1.1's windows cost the same for
    # n = 2), segeval 2.0.11's |span - 1| / n = 1/2 under "segeval"; B: |span - 1| / n = 1/2
    moved = transpositions / 2 if convention == "segeval" else transpositions
    out.update(s_penalty=float(additions + moved), s_potential=float(n - 1))
    out.update(b_penalty=additions + transpositions / 2, b_denominator=float(additions + transpositions + matches))
    strings = ["".join("1" if g in set(positions(x)) else "0" for g in range(1, n)) for x in (ref, hyp)]
    out.update(ghd_sum=float(nltk_ghd(strings[0], strings[1], 2.0, 2.0, 1.0)), ghd_positions=n - 1)
    return out


def unit_components(reference, hypothesis, *, units=None, settings, region=None):
    """One show's additive counts (None under ``"chunkseg"`` when no chunk fits)."""
    convention = settings.convention
    if convention == "chunkseg":
        ref = chunk_masses(reference, region, settings.frame)
        if ref is None:
            return None
        hyp = chunk_masses(hypothesis, region, settings.frame)
    else:
        ref, hyp = masses_on_units(reference, units), masses_on_units(hypothesis, units)
    out = components_of_masses(ref, hyp, k=settings.k, convention=convention)
    if convention == "chunkseg":  # chunkseg's values where segeval counts nothing
        n, kk = sum(ref), default_k(sum(ref), len(ref), "segeval") if settings.k is None else settings.k
        if out["pk_windows"] == 0:
            out.update(pk_miss=0, pk_false_alarm=0, pk_windows=1)
        if out["wd_windows"] == 0:
            out.update(wd_errors=int(n == kk and ref == hyp), wd_windows=1)
        if out["b_denominator"] == 0:
            out.update(b_penalty=0.0, b_denominator=1.0)
        out["ghd_positions"] = 1
        # chunkseg's own binary precision and recall of the flags (0 where a side flags none)
        from chunkseg.metrics import binary_precision, binary_recall

        ref_flags = np.array(chunk_flags(reference, region, settings.frame))
        hyp_flags = np.array(chunk_flags(hypothesis, region, settings.frame))
        out.update(
            chunk_precision_sum=binary_precision(hyp_flags, ref_flags),
            chunk_recall_sum=binary_recall(hyp_flags, ref_flags),
            chunk_n_shows=1,
            chunk_n_hypothesis=int(hyp_flags.sum()),
            chunk_n_reference=int(ref_flags.sum()),
        )
    n = sum(ref)
    kk = default_k(n, len(ref), convention) if settings.k is None else settings.k
    if convention == "segeval":  # segeval.window: pk's "if measurements > 0 else 0"; window_diff's
        if out["pk_windows"] == 0:  # Decimal(0) / (N - k), 0 for k > N (0/0 for k = N raises)
            out.update(pk_miss=0, pk_false_alarm=0, pk_windows=1)
        if kk > n:
            out.update(wd_errors=0, wd_windows=1)
    if convention == "nltk":  # nltk's pk divides 0 errors by N - k < 0 for k > N (0/0 for k = N raises);
        if kk > n:  # its windowdiff refuses k > N - 1; its ghd is the raw distance
            out.update(pk_miss=0, pk_false_alarm=0, pk_windows=1)
        out["ghd_positions"] = 1
    return out


def _rate(num, den):
    return num / den if den > 0 else math.nan


def unit_metrics(c):
    """The metrics of (possibly summed) components, NaN for 0/0."""
    tp, fp, fn = c["winpr_tp"], c["winpr_fp"], c["winpr_fn"]
    p_miss = _rate(c["cseg_miss"], c["cseg_ref_probes"])
    p_fa = _rate(c["cseg_fa"], c["cseg_nonref_probes"])
    cost = C_MISS * p_miss * P_SEG + C_FA * p_fa * (1 - P_SEG)
    return {
        "pk": _rate(c["pk_miss"] + c["pk_false_alarm"], c["pk_windows"]),
        "pk_prime": _rate(c["pk_miss"] + 2 * c["pk_false_alarm"], c["pk_windows"]),
        "windowdiff": _rate(c["wd_errors"], c["wd_windows"]),
        "winpr_precision": _rate(tp, tp + fp),
        "winpr_recall": _rate(tp, tp + fn),
        "winpr_f1": _rate(2 * tp, 2 * tp + fp + fn),
        "s": 1 - _rate(c["s_penalty"], c["s_potential"]),
        "cseg": cost,
        "cseg_norm": cost / min(C_MISS * P_SEG, C_FA * (1 - P_SEG)),
        "ghd": _rate(c["ghd_sum"], c["ghd_positions"]),
        "b": 1 - _rate(c["b_penalty"], c["b_denominator"]),
        **(chunk_metrics(c) if "chunk_n_shows" in c else {}),
    }


def chunk_metrics(c):
    """chunkseg's means of the shows' chunk precision and recall, and its f1 of those means
    (``aggregate_metrics``: 0 when both are 0)."""
    p = _rate(c["chunk_precision_sum"], c["chunk_n_shows"])
    r = _rate(c["chunk_recall_sum"], c["chunk_n_shows"])
    return {"chunk_precision": p, "chunk_recall": r, "chunk_f1": 2 * p * r / (p + r) if p + r > 0 else 0.0}


def frames(region, frame):
    """Frames of ``frame`` seconds from the region's start; the last one ends at the region's end."""
    count = max(1, math.ceil((region.end - region.start) / frame - 1e-9))
    start = [region.start + frame * i for i in range(count)]
    end = [min(s + frame, region.end) for s in start]
    end[-1] = region.end
    return pd.DataFrame({"start": start, "end": end})


def unit_scores(shows, references, hypotheses, units, settings, regions):
    """Per-show metrics (a DataFrame indexed by ``shows``, NaN rows where not scored), the pooled
    metrics, and each scored show's components: a show without units (or with no region) is left
    out; with frames, each show is cut into frames of its region (``regions[show]``, a pyannote
    Segment, or None)."""
    rows, total, comps = {}, None, {}
    for show in shows:
        region = regions.get(show)
        if settings.units == "frames":
            if region is None:
                continue
            table = None if settings.convention == "chunkseg" else frames(region, settings.frame)
        else:
            table = units.get(show)
            if table is None:
                continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            comp = unit_components(references[show], hypotheses[show], units=table, settings=settings, region=region)
        if comp is None:
            continue
        comps[show] = comp
        rows[show] = unit_metrics(comp)
        total = comp if total is None else {key: total[key] + comp[key] for key in comp}
    per_show = pd.DataFrame.from_dict(rows, orient="index").reindex(shows)
    return per_show, (unit_metrics(total) if total is not None else {}), comps


def summed(components: Mapping, weights):
    """The components of several shows summed with ``weights`` (a bootstrap resample's counts)."""
    keys = list(next(iter(components.values())))
    return {key: sum(w * comp[key] for w, comp in zip(weights, components.values())) for key in keys}
