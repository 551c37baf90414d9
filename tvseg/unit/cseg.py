r"""NIST TDT's story segmentation cost :math:`C_{seg}`, on masses.

The Topic Detection and Tracking evaluations (TDT2 1998 to TDT 2004; Doddington's TDT2 evaluation
plan, NIST's ``TDT3seg.pl`` scorer) scored story segmentation with a detection cost built on
Beeferman et al.'s probes: two points a fixed distance ``k`` apart, and whether a segmentation puts
them in different segments (it *separates* them). Conditioned on the reference, as every TDT
detection error rate is:

.. math::

    P_{miss} = \frac{\#\{\text{probes the reference separates and the hypothesis does not}\}}
                    {\#\{\text{probes the reference separates}\}}, \qquad
    P_{FA} = \frac{\#\{\text{probes the hypothesis separates and the reference does not}\}}
                  {\#\{\text{probes the reference does not separate}\}}

.. math::

    C_{seg} = C_{miss}\,P_{miss}\,P_{seg} + C_{FA}\,P_{FA}\,(1 - P_{seg}), \qquad
    (C_{seg})_{norm} = \frac{C_{seg}}{\min\bigl(C_{miss}\,P_{seg},\; C_{FA}\,(1 - P_{seg})\bigr)}

Unlike Pk, which divides misses and false alarms by all probes, each rate here has its own
denominator. The normalisation divides by the cost of the better of the two trivial segmentations:
no boundary at all has :math:`P_{miss} = 1, P_{FA} = 0` (cost :math:`C_{miss} P_{seg}`), a boundary
at every gap has :math:`P_{miss} = 0, P_{FA} = 1` (cost :math:`C_{FA} (1 - P_{seg})`); the better one
scores 1 and a system worth keeping scores below 1. With the defaults (``c_miss=1.0, c_fa=0.3,
p_seg=0.3``) the two cost 0.3 and 0.21: a boundary everywhere scores 1, no boundary 0.3 / 0.21 = 1.4286.

Defaults and sources
--------------------
* ``c_miss=1.0, c_fa=0.3``: the defaults of NIST's ``TDT3seg.pl`` (its user manual, option ``-C``,
  TDT3eval 2.6 package).
* ``p_seg=0.3``: the prior of the TDT evaluation plans, as reported by Rosenberg & Hirschberg
  (HLT-NAACL 2006), "Cseg (Pseg = 0.3) (Doddington, 1998)".
* Probes: probe ``i`` joins unit ``i`` and unit ``i + k``, ``i = 1 .. N - k`` (Pk's probes as Pevzner &
  Hearst write them, the ``"paper"`` convention of :mod:`tvseg.unit.conventions`); a segmentation
  separates it when it has a boundary in one of the gaps ``i .. i + k - 1``.
* ``k``: the TDT evaluation plans fix the probe distance in words (characters for Mandarin), not as
  a fraction of the mean story. What could be checked (2026-11): NIST's TDT3eval revision history
  (version 1.0, May 1999) says ``TDT3seg.pl``'s "default evaluation frame size" became 75 when the
  source language is Mandarin, so the scorer has a fixed default frame; the English value and the
  time-based distance of the audio condition could not be read in the sources available here. The
  figures commonly quoted for TDT2/TDT3 are **50 words** for text and **15 seconds** for audio; they are
  *not verified* here. tvseg's units are breath groups, cues or frames, not words, so no fixed
  distance in words applies: ``k=None`` is Pk's paper default, half the mean reference segment size
  in units (:func:`tvseg.unit.windows.default_k`, ``"paper"``), Beeferman et al.'s choice for Pk,
  so that :math:`C_{seg}` and Pk count the same probes (Rosenberg & Hirschberg likewise report
  :math:`C_{seg}`, Pk and WindowDiff with one ``k``, ``k = 5``, for all three). Give ``k=50`` on word
  units to follow the commonly quoted TDT setting.
* 0/0: a rate whose denominator is 0 (a reference that separates no probe, or every probe; no probe
  at all when ``k >= N``) is NaN with a :class:`~tvseg.errors.TvsegWarning` (``docs/conventions.md``).

References
----------
.. [1] G. Doddington (1998). The Topic Detection and Tracking Phase 2 (TDT2) evaluation plan.
   DARPA Broadcast News Transcription and Understanding Workshop.
.. [2] NIST, TDT3eval 2.6 (2004), ``TDT3seg.pl`` user manual and revision history.
.. [3] A. Rosenberg and J. Hirschberg (2006). Story segmentation of broadcast news in English,
   Mandarin and Arabic. HLT-NAACL, 125-128.
.. [4] D. Beeferman, A. Berger and J. Lafferty (1999). Statistical models for text segmentation.
   Machine Learning 34:177-210.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterator
from dataclasses import astuple, dataclass
from typing import Any

import numpy as np

from tvseg.errors import InputError, TvsegWarning
from tvseg.rates import rate
from tvseg.unit.conventions import check_k, convention_k
from tvseg.unit.masses import Masses, pair_positions

__all__ = ["cseg", "cseg_components", "segmentation_cost", "CsegComponents"]


@dataclass(frozen=True)
class CsegComponents:
    """The additive counts of :math:`C_{seg}` for one pair (sums over shows pool them).

    Attributes
    ----------
    miss : int
        Probes the reference separates and the hypothesis does not.
    ref_probes : int
        Probes the reference separates (the denominator of :math:`P_{miss}`).
    false_alarm : int
        Probes the hypothesis separates and the reference does not.
    nonref_probes : int
        Probes the reference does not separate (the denominator of :math:`P_{FA}`).
    k : int
        The probe distance used (not additive).
    """

    miss: int
    ref_probes: int
    false_alarm: int
    nonref_probes: int
    k: int

    def __iter__(self) -> Iterator[Any]:
        return iter(astuple(self))


def _separated(positions: np.ndarray, k: int, last: int) -> int:
    """Number of probe starts ``s`` in ``1 .. last`` with a boundary in gaps ``s .. s + k - 1``.

    A boundary at gap ``p`` separates the probes ``max(1, p - k + 1) .. min(p, last)``; for sorted
    positions both ends of these intervals increase, so each adds what lies after the previous end.
    """
    if positions.size == 0 or last < 1:
        return 0
    start = np.maximum(positions - k + 1, 1)
    end = np.minimum(positions, last)
    before = np.empty_like(end)
    before[0] = 0
    before[1:] = end[:-1]
    added = end - np.maximum(start, before + 1) + 1
    return int(np.maximum(added, 0).sum())


def cseg_components(reference: Masses, hypothesis: Masses, *, k: int | None = None) -> CsegComponents:
    """The counts of :math:`C_{seg}` (module docstring) for one pair of masses.

    Parameters
    ----------
    reference, hypothesis : sequence of int
        Masses with the same total ``N``.
    k : int, optional
        Probe distance in units (>= 1); None is half the mean reference segment size, rounded half
        up (Pk's ``"paper"`` default).

    Returns
    -------
    CsegComponents
        ``ref_probes + nonref_probes = max(N - k, 0)``, the number of probes.
    """
    check_k(k, 1)
    n, segments, pr, ph = pair_positions(reference, hypothesis)
    k = convention_k(n, segments, "paper") if k is None else int(k)
    last = n - k
    probes = max(last, 0)
    in_r = _separated(pr, k, last)
    in_h = _separated(ph, k, last)
    either = np.concatenate((pr, ph))
    either.sort(kind="stable")
    in_any = _separated(either, k, last)
    return CsegComponents(in_any - in_h, in_r, in_any - in_r, probes - in_r, k)


def _check_costs(c_miss: object, c_fa: object, p_seg: object, normalized: object) -> tuple[float, float, float]:
    out = []
    for name, value in (("c_miss", c_miss), ("c_fa", c_fa), ("p_seg", p_seg)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < 0:
            raise InputError(f"{name} must be a finite number >= 0", value=value)
        out.append(float(value))
    c_miss, c_fa, p_seg = out
    if p_seg > 1:
        raise InputError("p_seg must be a probability in [0, 1]", value=p_seg)
    if normalized and min(c_miss * p_seg, c_fa * (1 - p_seg)) <= 0:
        raise InputError(
            "the normalised C_seg divides by min(c_miss * p_seg, c_fa * (1 - p_seg)), which is 0 "
            "here: use normalized=False"
        )
    return c_miss, c_fa, p_seg


def segmentation_cost(
    p_miss: float, p_fa: float, *, c_miss: float = 1.0, c_fa: float = 0.3, p_seg: float = 0.3, normalized: bool = True
) -> float:
    r""":math:`C_{seg}` (or :math:`(C_{seg})_{norm}`) from the two rates (module docstring); NaN in, NaN out."""
    c_miss, c_fa, p_seg = _check_costs(c_miss, c_fa, p_seg, normalized)
    cost = c_miss * p_miss * p_seg + c_fa * p_fa * (1 - p_seg)
    if normalized:
        cost /= min(c_miss * p_seg, c_fa * (1 - p_seg))
    return cost


def cseg(
    reference: Masses,
    hypothesis: Masses,
    *,
    k: int | None = None,
    c_miss: float = 1.0,
    c_fa: float = 0.3,
    p_seg: float = 0.3,
    normalized: bool = True,
) -> float:
    r"""NIST TDT's segmentation cost :math:`C_{seg}`, normalised by default.

    .. math::

        C_{seg} = C_{miss}\,P_{miss}\,P_{seg} + C_{FA}\,P_{FA}\,(1 - P_{seg}), \qquad
        (C_{seg})_{norm} = C_{seg} / \min(C_{miss} P_{seg}, C_{FA} (1 - P_{seg}))

    with :math:`P_{miss}` the share of the probes the reference separates that the hypothesis
    does not separate, and :math:`P_{FA}` the share of the probes the reference does not separate
    that the hypothesis separates (probes of ``k`` units, as Pk's; module docstring for the
    definitions, the sources and what is known of TDT's probe distance).

    Parameters
    ----------
    reference, hypothesis : sequence of int
        Masses with the same total ``N``.
    k : int, optional
        Probe distance in units; None is Pk's paper default (half the mean reference segment size,
        rounded half up). TDT fixed it in words; pass it when the units are words.
    c_miss, c_fa : float
        Costs of a miss and of a false alarm (``TDT3seg.pl``'s defaults 1.0 and 0.3).
    p_seg : float
        Prior probability that a probe crosses a story boundary (0.3, TDT's).
    normalized : bool
        Divide by the cost of the better trivial segmentation (no boundary, or a boundary at every gap).

    Returns
    -------
    float
        In ``[0, c_miss * p_seg + c_fa * (1 - p_seg)]``, so in ``[0, max(c_miss, c_fa)]``, when not
        normalised; 0 for a hypothesis equal to the reference. NaN with a
        :class:`~tvseg.errors.TvsegWarning` when a rate is 0/0 (no probe the reference separates, or
        none it does not separate, or ``k >= N``).

    Raises
    ------
    InputError
        Invalid masses or costs (negative, not finite, ``p_seg`` outside [0, 1], a normalisation by 0).
    UsageError
        ``k`` not an integer >= 1.

    Examples
    --------
    >>> cseg((5, 5), (5, 5))
    0.0
    >>> round(cseg((5, 5), (10,)), 4)          # no boundary: misses every separated probe
    1.4286
    >>> cseg((5, 5), (1,) * 10)                 # a boundary at every gap: the better trivial one
    1.0
    """
    c_miss, c_fa, p_seg = _check_costs(c_miss, c_fa, p_seg, normalized)
    c = cseg_components(reference, hypothesis, k=k)
    p_miss = rate(c.miss, c.ref_probes)
    p_fa = rate(c.false_alarm, c.nonref_probes)
    if math.isnan(p_miss) or math.isnan(p_fa):
        warnings.warn(
            f"cseg: {'P_miss' if math.isnan(p_miss) else 'P_fa'} is 0/0 with k={c.k} (NaN)", TvsegWarning, stacklevel=2
        )
        return math.nan
    return segmentation_cost(p_miss, p_fa, c_miss=c_miss, c_fa=c_fa, p_seg=p_seg, normalized=normalized)
