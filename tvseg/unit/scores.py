r"""Unit-domain scores of one show as additive components, and the metrics computed from them.

The evaluate command projects each show's reference and hypothesis onto its units
(:func:`tvseg.unit.projection.to_masses`), keeps the counts of :func:`unit_components`, sums them
over shows for the corpus (micro average, as pyannote.metrics' components) and turns any such sum
into rates with :func:`unit_metrics`.

Component keys (all counts; sums over shows remain meaningful):

=====================  ========================================================================
``pk_miss``            Pk windows where only the reference separates the probe's ends
``pk_false_alarm``     Pk windows where only the hypothesis does
``pk_windows``         Pk windows
``wd_errors``          WindowDiff windows in error
``wd_windows``         WindowDiff divisor
``winpr_tp`` ...       WinPR ``tp, tn, fp, fn`` (``winpr_total = k (N - 1)``)
``s_penalty``          boundary edit distance of S (Fournier & Inkpen 2012), in PBs
``s_potential``        potential boundaries ``N - 1``
=====================  ========================================================================
"""
from __future__ import annotations

import math
import warnings

import pandas as pd

from tvseg.errors import TvsegWarning
from tvseg.rates import rate
from tvseg.unit.projection import to_masses
from tvseg.unit.similarity import similarity_counts
from tvseg.unit.windows import pk_components, windowdiff_components
from tvseg.unit.winpr import winpr

__all__ = ["unit_components", "unit_metrics", "UNIT_METRICS"]

UNIT_METRICS = ("pk", "pk_prime", "windowdiff", "winpr_precision", "winpr_recall", "winpr_f1", "s")


def unit_components(reference, hypothesis, *, units: pd.DataFrame, settings) -> dict[str, float]:
    """Additive unit-domain counts of one show.

    Parameters
    ----------
    reference, hypothesis : pyannote.core.Annotation or Timeline
        The show's segmentations in time.
    units : pandas.DataFrame
        The show's units (``start, end``), sorted by time.
    settings : tvseg.settings.Settings
        ``k`` (None: the convention's default) and ``convention`` of Pk and WindowDiff. WinPR uses
        ``k`` too, or the paper's default.

    Returns
    -------
    dict of str to float
        The keys of the module docstring.
    """
    ref = to_masses(reference, units)
    hyp = to_masses(hypothesis, units)
    k, convention = settings.k, settings.convention
    out: dict[str, float] = {}
    # a show of one unit, or a k that fits no window, has 0 windows (and 0 errors)
    p = pk_components(ref, hyp, k=k, convention=convention)
    w = windowdiff_components(ref, hyp, k=k, convention=convention)
    out.update(pk_miss=p.miss, pk_false_alarm=p.false_alarm, pk_windows=p.windows, wd_errors=w.errors,
               wd_windows=w.windows)
    m = winpr(ref, hyp, k=k)
    out.update(winpr_tp=m.tp, winpr_tn=m.tn, winpr_fp=m.fp, winpr_fn=m.fn)
    penalty, potential = similarity_counts(ref, hyp, n=2)
    out.update(s_penalty=float(penalty), s_potential=float(potential))
    return out


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

    and WinPR's :math:`P = TP/(TP+FP)`, :math:`R = TP/(TP+FN)`, :math:`F_1 = 2TP/(2TP+FP+FN)`.
    A 0/0 (no window, no boundary) gives NaN with a :class:`~tvseg.errors.TvsegWarning`.
    ``s`` is present only when the components hold S's counts.
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
    return out
