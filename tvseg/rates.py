"""Rates and F-measures from counts, with tvseg's explicit 0/0 policy.

Policy (the same everywhere in tvseg, documented in the README):

- a rate whose denominator is 0 (a recall with no reference segment, a precision with no hypothesis
  segment, a class with no segment) is **NaN** (``null`` in JSON), never 1.0 and never an exception;
  callers warn with :class:`~tvseg.errors.TvsegWarning` where they create one;
- the F-measure (harmonic mean) of a precision and a recall is 0 when either is 0, whatever the
  other (``2PR/(P+R)`` tends to 0 as one factor does: a system that outputs nothing for a show scores
  F = 0 there, as scikit-learn's ``2tp / (2tp + fp + fn)`` does), NaN when either is NaN and
  neither is 0, and ``2PR/(P+R)`` otherwise.
"""

from __future__ import annotations

import math
from typing import Any, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["rate", "f_measure", "detection_cost"]


def _scalar(x: ArrayLike) -> bool:
    """Whether ``x`` is one number (``numpy.ndim`` without its cost on a Python number)."""
    return isinstance(x, (int, float)) or np.ndim(x) == 0


@overload
def rate(numerator: float, denominator: float) -> float: ...
@overload
def rate(numerator: NDArray[Any], denominator: ArrayLike) -> NDArray[np.float64]: ...
@overload
def rate(numerator: ArrayLike, denominator: NDArray[Any]) -> NDArray[np.float64]: ...
@overload
def rate(numerator: ArrayLike, denominator: ArrayLike) -> float | NDArray[np.float64]: ...
def rate(numerator: ArrayLike, denominator: ArrayLike) -> float | NDArray[np.float64]:
    """``numerator / denominator``, NaN where the denominator is 0 (arrays or scalars)."""
    if _scalar(numerator) and _scalar(denominator):  # one show's rate: no array machinery
        d = float(denominator)  # type: ignore[arg-type]  # one number, checked above
        return float(numerator) / d if d > 0 else math.nan  # type: ignore[arg-type]
    num = np.asarray(numerator, dtype=float)
    den = np.asarray(denominator, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return out if out.ndim else float(out)


@overload
def f_measure(precision: float, recall: float) -> float: ...
@overload
def f_measure(precision: NDArray[Any], recall: ArrayLike) -> NDArray[np.float64]: ...
@overload
def f_measure(precision: ArrayLike, recall: NDArray[Any]) -> NDArray[np.float64]: ...
@overload
def f_measure(precision: ArrayLike, recall: ArrayLike) -> float | NDArray[np.float64]: ...
def f_measure(precision: ArrayLike, recall: ArrayLike) -> float | NDArray[np.float64]:
    r"""Harmonic mean of precision and recall under the 0/0 policy of this module.

    .. math:: F = \frac{2 P R}{P + R}
    """
    if _scalar(precision) and _scalar(recall):
        p, r = float(precision), float(recall)  # type: ignore[arg-type]  # numbers, checked above
        return 0.0 if p == 0 or r == 0 else 2.0 * p * r / (p + r)
    pa = np.asarray(precision, dtype=float)
    ra = np.asarray(recall, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = 2.0 * pa * ra / (pa + ra)
    f = np.where((pa == 0) | (ra == 0), 0.0, f)
    return f if f.ndim else float(f)


def detection_cost(p_miss: Any, p_fa: Any, *, c_miss: float, c_fa: float, p_seg: float, normalized: bool) -> Any:
    r"""NIST TDT's detection cost of a miss rate and a false-alarm rate (element-wise; NaN in, NaN out):
    :math:`C = C_{miss} P_{miss} P_{seg} + C_{FA} P_{FA} (1 - P_{seg})`, divided by
    :math:`\min(C_{miss} P_{seg}, C_{FA} (1 - P_{seg}))` when ``normalized`` (the costs are checked by the
    caller, :func:`tvseg.unit.windows.cseg`)."""
    cost = c_miss * p_miss * p_seg + c_fa * p_fa * (1 - p_seg)
    if normalized:
        cost /= min(c_miss * p_seg, c_fa * (1 - p_seg))
    return cost
