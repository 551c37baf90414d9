r"""Unit-domain scores of one show as additive components, and the metrics computed from them.

The evaluate command projects each show's reference and hypothesis onto its units
(:func:`tvseg.unit.projection.to_masses`), keeps the counts of :func:`unit_components`, sums them
over shows for the corpus (micro average, as pyannote.metrics' components) and turns any such sum
into rates with :func:`unit_metrics`.

Component keys (all counts; sums over shows remain meaningful):

======================  ========================================================================
``pk_miss``             Pk windows where only the reference separates the probe's ends
``pk_false_alarm``      Pk windows where only the hypothesis does
``pk_windows``          Pk windows
``wd_errors``           WindowDiff windows in error
``wd_windows``          WindowDiff divisor
``winpr_tp`` ...        WinPR ``tp, tn, fp, fn`` (``winpr_total = k (N - 1)``)
``s_penalty``           boundary edit distance of S (Fournier & Inkpen 2012), in PBs
``s_potential``         potential boundaries ``N - 1``
``cseg_miss``           C_seg probes the reference separates and the hypothesis does not
``cseg_ref_probes``     C_seg probes the reference separates
``cseg_fa``             C_seg probes the hypothesis separates and the reference does not
``cseg_nonref_probes``  C_seg probes the reference does not separate
``ghd_sum``             generalized Hamming distance (nltk's, costs 2, 2, 1)
``ghd_positions``       positions it is normalised by, ``N - 1``
``b_penalty``           B's edits, ``|A| + sum(span) / n`` (segeval 2.0.11, ``n = 2``)
``b_denominator``       B's ``|A| + |T_p| + |B_M|``
======================  ========================================================================

The corpus pools each pair of counts (sum over shows, then divide), for B as segeval 2.0.11 pools
boundary similarity over a dataset in ``actual_agreement_linear`` (sum of numerators over sum of
denominators): the corpus B is :math:`1 - \sum \text{penalty} / \sum \text{denominator}`, not the
mean of the shows' B (that is the ``macro`` value).
"""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING

import pandas as pd

from tvseg.errors import TvsegWarning
from tvseg.rates import rate
from tvseg.unit.cseg import cseg_components, segmentation_cost
from tvseg.unit.ghd import ghd_components
from tvseg.unit.masses import boundary_positions
from tvseg.unit.projection import chunk_masses, to_masses
from tvseg.unit.similarity import pair_counts, similarity_counts
from tvseg.unit.windows import pk_components, windowdiff, windowdiff_components
from tvseg.unit.winpr import winpr

if TYPE_CHECKING:
    from pyannote.core import Segment

__all__ = ["unit_components", "unit_metrics", "UNIT_METRICS"]

UNIT_METRICS = (
    "pk",
    "pk_prime",
    "windowdiff",
    "winpr_precision",
    "winpr_recall",
    "winpr_f1",
    "s",
    "cseg",
    "cseg_norm",
    "ghd",
    "b",
)


def unit_components(
    reference, hypothesis, *, units: pd.DataFrame | None = None, settings, region: Segment | None = None
) -> dict[str, float] | None:
    """Additive unit-domain counts of one show.

    Parameters
    ----------
    reference, hypothesis : pyannote.core.Annotation or Timeline
        The show's segmentations in time.
    units : pandas.DataFrame
        The show's units (``start, end``), sorted by time (not read under ``convention="chunkseg"``).
    settings : tvseg.settings.Settings
        ``k`` (None: the convention's default) and ``convention`` of Pk and WindowDiff. WinPR and
        C_seg's probe distance use ``k`` too, or the paper's default (half the mean reference segment
        size of the show, rounded half up; for WinPR one position more, Scaiano & Inkpen's window,
        :func:`tvseg.unit.conventions.winpr_k`). Under ``"chunkseg"`` the masses are chunkseg's chunks of
        ``settings.frame`` seconds (:func:`tvseg.unit.projection.chunk_masses`).
    region : pyannote.core.Segment
        The show's evaluated region: needed under ``"chunkseg"`` (the grid ends at its end).

    Returns
    -------
    dict of str to float
        The keys of the module docstring; None under ``"chunkseg"`` when the show is shorter than
        one chunk (chunkseg scores no such show).
    """
    k, convention = settings.k, settings.convention
    if convention == "chunkseg":
        ref = chunk_masses(reference, region, settings.frame)
        if ref is None:
            return None
        hyp = chunk_masses(hypothesis, region, settings.frame)
        assert hyp is not None  # None depends on the region and the chunk only, as for the reference
    else:
        assert units is not None  # given outside chunkseg (see units above)
        ref = to_masses(reference, units)
        hyp = to_masses(hypothesis, units)
    out: dict[str, float] = {}
    # a show of one unit, or a k that fits no window, has 0 windows (and 0 errors)
    p = pk_components(ref, hyp, k=k, convention=convention)
    w = windowdiff_components(ref, hyp, k=k, convention=convention)
    out.update(
        pk_miss=p.miss, pk_false_alarm=p.false_alarm, pk_windows=p.windows, wd_errors=w.errors, wd_windows=w.windows
    )
    m = winpr(ref, hyp, k=k)
    out.update(winpr_tp=m.tp, winpr_tn=m.tn, winpr_fp=m.fp, winpr_fn=m.fn)
    penalty, potential = similarity_counts(ref, hyp, n=2)
    out.update(s_penalty=float(penalty), s_potential=float(potential))
    c = cseg_components(ref, hyp, k=k)
    out.update(
        cseg_miss=c.miss, cseg_ref_probes=c.ref_probes, cseg_fa=c.false_alarm, cseg_nonref_probes=c.nonref_probes
    )
    g = ghd_components(ref, hyp)
    out.update(ghd_sum=g.distance, ghd_positions=g.positions)
    b_penalty, b_denominator = pair_counts(
        boundary_positions(ref), boundary_positions(hyp), int(ref.sum()) - 1, metric="B", convention="segeval", n=2
    )
    out.update(b_penalty=float(b_penalty), b_denominator=float(b_denominator))
    if convention == "chunkseg":
        _as_chunkseg(out, ref, hyp, k)
    return out


def _as_chunkseg(out: dict, ref, hyp, k) -> None:
    """chunkseg's values of one show where they are not segeval's counts: where segeval counts no
    window or B has no boundary to count, chunkseg reports a value (segeval's Pk 0; for WindowDiff's
    0/0 and B's, 1 for equal segmentations, else 0), kept as one window (one match for B) holding it;
    GHD is chunkseg's raw distance (``ghd_positions`` 1, so the corpus value is the mean over shows)."""
    if out["pk_windows"] == 0:
        out.update(pk_miss=0, pk_false_alarm=0, pk_windows=1)
    if out["wd_windows"] == 0:
        out.update(wd_errors=windowdiff(ref, hyp, k=k, convention="chunkseg"), wd_windows=1)
    if out["b_denominator"] == 0:
        out.update(b_penalty=0.0, b_denominator=1.0)
    out["ghd_positions"] = 1


def _rate(num, den, name):
    """:func:`tvseg.rates.rate`, with the warning the 0/0 policy asks of the caller."""
    value = rate(num, den)
    if math.isnan(value):
        warnings.warn(f"{name} is 0/0 (NaN)", TvsegWarning, stacklevel=3)
    return value


def unit_metrics(components: dict) -> dict[str, float]:
    r"""Unit-domain metrics from (possibly summed) :func:`unit_components`.

    .. math::

        P_k = \frac{\text{miss} + \text{fa}}{\text{windows}}, \quad
        P'_k = \frac{\text{miss} + 2\,\text{fa}}{\text{windows}}, \quad
        \text{WD} = \frac{\text{errors}}{\text{windows}}, \quad
        S = 1 - \frac{\text{penalty}}{\text{potential}}

    and WinPR's :math:`P = TP/(TP+FP)`, :math:`R = TP/(TP+FN)`, :math:`F_1 = 2TP/(2TP+FP+FN)`;
    NIST TDT's :math:`C_{seg}` with TDT's costs (:math:`C_{miss} = 1, C_{FA} = 0.3, P_{seg} = 0.3`,
    :mod:`tvseg.unit.cseg`), raw (``cseg``) and normalised (``cseg_norm``), from
    :math:`P_{miss} = \text{miss} / \text{ref probes}` and :math:`P_{FA} = \text{fa} / \text{nonref probes}`;
    the normalised GHD ``ghd = ghd_sum / ghd_positions`` (nltk's GHD per potential boundary,
    :mod:`tvseg.unit.ghd`); boundary similarity ``b = 1 - b_penalty / b_denominator``.
    A 0/0 (no window, no boundary) gives NaN with a :class:`~tvseg.errors.TvsegWarning`, also for
    ``b`` where :func:`tvseg.boundary_similarity` returns 1 (segeval's choice for two segmentations
    without boundaries). ``s``, ``cseg``, ``cseg_norm``, ``ghd`` and ``b`` are present only when the
    components hold their counts.
    """
    c = components
    tp, fp, fn = c["winpr_tp"], c["winpr_fp"], c["winpr_fn"]
    out = {
        "pk": _rate(c["pk_miss"] + c["pk_false_alarm"], c["pk_windows"], "pk"),
        "pk_prime": _rate(c["pk_miss"] + 2 * c["pk_false_alarm"], c["pk_windows"], "pk_prime"),
        "windowdiff": _rate(c["wd_errors"], c["wd_windows"], "windowdiff"),
        "winpr_precision": _rate(tp, tp + fp, "winpr_precision"),
        "winpr_recall": _rate(tp, tp + fn, "winpr_recall"),
        "winpr_f1": _rate(2 * tp, 2 * tp + fp + fn, "winpr_f1"),
    }
    if "s_penalty" in c:
        out["s"] = 1 - _rate(c["s_penalty"], c["s_potential"], "s")
    if "cseg_miss" in c:
        p_miss = _rate(c["cseg_miss"], c["cseg_ref_probes"], "cseg P_miss")
        p_fa = _rate(c["cseg_fa"], c["cseg_nonref_probes"], "cseg P_fa")
        out["cseg"] = segmentation_cost(p_miss, p_fa, normalized=False)
        out["cseg_norm"] = segmentation_cost(p_miss, p_fa, normalized=True)
    if "ghd_sum" in c:
        out["ghd"] = _rate(c["ghd_sum"], c["ghd_positions"], "ghd")
    if "b_penalty" in c:
        out["b"] = 1 - _rate(c["b_penalty"], c["b_denominator"], "b")
    return out
