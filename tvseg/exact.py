r"""Exact threshold decisions on decimal times: times as integer microseconds.

The readers turn the decimal times people write (``3.41``, ``00:01:06.100``) into floats, and a
float does not hold ``3.41`` exactly: ``2 * 3.40 / (3.40 + 4.60)`` computed in floating point is
``0.8500000000000001``, and ``16.1 - 6.1`` is ``10.000000000000002``. A decision at a threshold
(coverage strictly above gamma, a distance within the tolerance, a duration at least the long
threshold) must not depend on that rounding. tvseg therefore decides on **ticks**: every time and
every setting in seconds is rounded to the nearest microsecond (:data:`TICKS_PER_SECOND`; also
pyannote.core's precision) and held as an ``int64``; thresholds that are ratios (gamma) are taken
as the exact fraction of the decimal the user wrote (``0.85`` is 17/20), and compared without a
division:

.. math::

    Cov_{R \leftrightarrow H} > \gamma \iff 2\,|R \cap H| \cdot q > p \cdot (d(R) + d(H)),
    \qquad \gamma = p / q,

    |r - h| \le \tau \iff |r_\mu - h_\mu| \le \tau_\mu,

all in integers. **The rule**: decisions are exact, as rational arithmetic on the decimal values
would make them, for times and tolerances with at most six decimals and below :data:`MAX_SECONDS`
(where a float still resolves a microsecond); a time with more decimals is decided as its nearest
microsecond. The numbers reported (coverages, durations) are floats computed from the ticks.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["TICKS_PER_SECOND", "MAX_SECONDS", "ticks", "tick", "ratio", "above", "largest_numerator_below"]

TICKS_PER_SECOND = 1_000_000
MAX_SECONDS = 2_000_000_000.0
"""tvseg's time range is ``[0, MAX_SECONDS]``: 2,000,000,000 s (about 63 years), the end included.

Every reader refuses a time, or an end it computes (RTTM TBEG + TDUR), beyond it, naming the file, the
line and the value; the kernels refuse a segment given from Python beyond it. Why this bound: below
``2**51`` microseconds (about 2.25e9 s) a float time still resolves well under half a microsecond, so
that ``round(t * 1e6)`` recovers a time written with six decimals exactly (:func:`ticks`); a round number
under that, and above today's Unix timestamps (1.7e9 s), which some recordings use as times. As ticks it
is 2e15, far inside ``int64`` (9.2e18): a difference or a sum of two times never overflows.
"""

_INT64_SAFE = 2**62
_TICKS_PER_SECOND_FLOAT = float(TICKS_PER_SECOND)
"""(numpy multiplies a float array by a float faster than by an int, to the same products)"""


def ticks(seconds: ArrayLike) -> NDArray[np.int64]:
    """Times in seconds as integer microseconds (nearest; ``int64`` array)."""
    scaled: NDArray[np.float64] = np.asarray(seconds, dtype=float) * _TICKS_PER_SECOND_FLOAT
    return np.rint(scaled).astype(np.int64)


def tick(seconds: float) -> int:
    """One time in seconds as integer microseconds (nearest)."""
    return int(round(float(seconds) * TICKS_PER_SECOND))


@functools.lru_cache(maxsize=256)
def ratio(value: float) -> Fraction:
    """The decimal a user wrote for a float setting, as an exact fraction (``0.85`` -> 17/20).

    ``repr`` of a float is the shortest decimal that reads back as the same float, which is the
    decimal that was written whenever it had 15 significant digits or fewer.
    """
    return Fraction(repr(float(value)))


def above(
    twice_numerator: np.ndarray, denominator: np.ndarray, threshold: Fraction, *, largest: int | None = None
) -> np.ndarray:
    r"""Whether ``twice_numerator / denominator > threshold``, exactly, elementwise.

    Computes :math:`a \cdot q > p \cdot b` for ``threshold`` :math:`= p/q` in ``int64`` when no
    product can overflow, else in Python integers. ``largest``: a bound on every ``|a|`` and ``|b|``
    when the caller knows one (else they are scanned for it).
    """
    a = np.asarray(twice_numerator, dtype=np.int64)
    b = np.asarray(denominator, dtype=np.int64)
    p, q = threshold.numerator, threshold.denominator
    if largest is None:
        largest = max(int(np.abs(a).max(initial=0)), int(np.abs(b).max(initial=0)))
    if max(largest, 1) * max(abs(p), q) < _INT64_SAFE:
        return a * q > p * b
    return np.array([x * q > p * y for x, y in zip(a.tolist(), b.tolist())], dtype=bool)


def largest_numerator_below(twice_numerator: np.ndarray, denominator: np.ndarray, scale: int) -> np.ndarray:
    r"""For each ratio :math:`x = a / b`, the largest integer :math:`g` with :math:`g / s < x`.

    A segment is correct at every threshold :math:`g' / s` with :math:`g' \le g`, so one sort of
    these integers answers a whole sweep of thresholds on the grid :math:`1/s` exactly:
    :math:`g/s < a/b \iff g b < s a \iff g \le \lfloor (s a - 1) / b \rfloor` (``b > 0``).
    """
    a = np.asarray(twice_numerator, dtype=np.int64)
    b = np.asarray(denominator, dtype=np.int64)
    if max(int(np.abs(a).max(initial=0)), 1) * scale >= _INT64_SAFE:
        return np.array([(scale * x - 1) // y for x, y in zip(a.tolist(), b.tolist())], dtype=object)
    return (scale * a - 1) // b
