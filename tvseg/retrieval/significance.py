r"""What a comparison over :math:`n` shows can support: the exact sign-flip test, Holm's correction, the policy.

A corpus score pools additive per-show components (:mod:`tvseg.retrieval.corpus`), so the
difference :math:`\delta = m(\sum_s A_s) - m(\sum_s B_s)` between systems A and B on a metric
:math:`m` is a function of the two systems' components show by show. Under the null hypothesis that
the two systems are exchangeable on every show, swapping their components on any set of shows is
as likely as the observed assignment. The **paired randomization (sign-flip) test** (Riezler &
Maxwell 2005's approximate randomization, sacrebleu's ``paired_ar``; exact here, by enumeration)
swaps show :math:`s`'s components when :math:`f_s = 1`:

.. math::

    A^f = \sum_s (1 - f_s) A_s + f_s B_s,\quad B^f = \sum_s f_s A_s + (1 - f_s) B_s,\quad
    \delta^f = m(A^f) - m(B^f),

    p = \frac{\#\{f \in \{0, 1\}^n : |\delta^f| \ge |\delta|\}}{2^n}

over all :math:`2^n` assignments, the identity (:math:`f = 0`, :math:`\delta^0 = \delta`) and the
full swap (:math:`\delta^1 = -\delta`) included: the smallest p-value over :math:`n` shows is
:math:`2 / 2^n` (0.5 with two shows; it reaches 0.05 from six). An assignment where the metric is
undefined (a pooled 0/0) is left out of both counts; :math:`|\delta^f| \ge |\delta|` is taken up to
a rounding tolerance of :math:`10^{-12} \max(1, |\delta|)` (the sums are formed in another order
than the observed one, as ``scipy.stats.permutation_test`` allows for).

Policy (:func:`policy`, the JSON's ``significance`` object), for :math:`n` shows:

- :math:`n = 1`: no interval and no p-value (``null``), with a :class:`~tvseg.errors.TvsegWarning`:
  nothing over shows can vary.
- :math:`2 \le n \le` :data:`EXACT_MAX_SHOWS` (12, :math:`2^{12} = 4096` assignments): the exact
  sign-flip test gives the p-values.
- :math:`n >` :data:`EXACT_MAX_SHOWS`: the paired bootstrap's p-value
  (:mod:`tvseg.retrieval.bootstrap`), never below :math:`2 / 2^n` (which it never is for the default
  1000 resamples, whose smallest p-value is :math:`1/1001 > 2/2^{12}`).
- The bootstrap's percentile intervals are computed from two shows on, and flagged as unreliable
  (``intervals_reliable: false``, a warning, the report's notes) below :data:`MIN_SHOWS` (10) shows;
  below that number the summary sentence says there are not enough shows to tell, whatever the p-value.
- Multiple comparisons: with more than two systems, each pair gets ``p_value_holm`` beside its
  uncorrected ``p_value``: Holm's step-down correction (:func:`holm`) over the pairs of systems, one
  family per metric.

References
----------
Riezler, S. and Maxwell, J. T. (2005). On some pitfalls in automatic evaluation and significance
testing for MT. ACL Workshop on Intrinsic and Extrinsic Evaluation Measures.
Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian Journal of
Statistics 6(2), 65-70.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "MIN_SHOWS",
    "EXACT_MAX_SHOWS",
    "sign_flips",
    "swapped_sums",
    "sign_flip_p_value",
    "smallest_p_value",
    "holm",
    "policy",
]

MIN_SHOWS = 10
"""Fewer shows than this: the bootstrap intervals are flagged unreliable and no difference is called significant."""

EXACT_MAX_SHOWS = 12
"""Up to this many shows, p-values come from the exact sign-flip test over all :math:`2^n` assignments."""

TOLERANCE = 1e-12
"""Relative rounding tolerance of :math:`|\\delta^f| \\ge |\\delta|` (see the module docstring)."""


def sign_flips(n: int) -> np.ndarray:
    """Every assignment :math:`f \\in \\{0, 1\\}^n`: a ``(2**n, n)`` float array, row ``i`` the binary digits of ``i``
    (row 0 the identity, the last row the full swap)."""
    return ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(float)


def swapped_sums(a: np.ndarray, b: np.ndarray, flips: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:math:`A^f` and :math:`B^f` of every assignment (rows of ``flips``) from per-show components ``a``, ``b``
    (``(n, columns)`` arrays, shows in the same order)."""
    keep = 1.0 - flips
    return keep @ a + flips @ b, flips @ a + keep @ b


def sign_flip_p_value(differences: np.ndarray, observed: float) -> float:
    """Two-sided p-value of the observed difference among the differences of every assignment.

    Parameters
    ----------
    differences : numpy.ndarray
        :math:`\\delta^f` for every assignment (NaN where undefined: left out).
    observed : float
        :math:`\\delta`.

    Returns
    -------
    float
        :math:`\\#\\{f : |\\delta^f| \\ge |\\delta| - \\epsilon\\} / \\#\\{f : \\delta^f \\text{ defined}\\}`, with
        :math:`\\epsilon = 10^{-12} \\max(1, |\\delta|)`; NaN when :math:`\\delta` or every :math:`\\delta^f` is NaN.
    """
    d = np.asarray(differences, dtype=float)
    d = d[~np.isnan(d)]
    if math.isnan(observed) or not len(d):
        return float("nan")
    margin = TOLERANCE * max(1.0, abs(observed))
    return float(np.sum(np.abs(d) >= abs(observed) - margin) / len(d))


def smallest_p_value(n_shows: int) -> float:
    """:math:`2 / 2^n`, the smallest p-value a sign-flip test over ``n_shows`` shows can give (1 for one show;
    0.0 once it underflows, past 1,074 shows)."""
    return 1.0 if n_shows <= 1 else math.ldexp(1.0, 1 - n_shows)


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm 1979).

    With the :math:`m` defined p-values sorted, :math:`p_{(1)} \\le \\dots \\le p_{(m)}`,

    .. math:: \\tilde p_{(i)} = \\max_{j \\le i} \\min\\bigl(1, (m - j + 1)\\, p_{(j)}\\bigr);

    rejecting where :math:`\\tilde p < \\alpha` controls the family-wise error rate at :math:`\\alpha`.

    Parameters
    ----------
    p_values : array-like of float
        One family; NaN values are left out of it (and stay NaN).

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the order given.
    """
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    defined = np.flatnonzero(~np.isnan(p))
    m = len(defined)
    if not m:
        return out
    order = defined[np.argsort(p[defined], kind="stable")]
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(scaled)
    return out


def which_test(n_shows: int) -> str | None:
    """The test the p-values of ``n_shows`` shows come from: ``"exact sign-flip"`` up to
    :data:`EXACT_MAX_SHOWS` shows, ``"paired bootstrap"`` beyond, None for one show."""
    return None if n_shows < 2 else "exact sign-flip" if n_shows <= EXACT_MAX_SHOWS else "paired bootstrap"


def _floor(test: str, n_shows: int, resamples: int) -> float:
    if test == "exact sign-flip":
        return smallest_p_value(n_shows)
    return max(smallest_p_value(n_shows), 1.0 / (resamples + 1))


def policy(n_shows: int, *, resamples: int, systems: int) -> dict:
    """The JSON's ``significance`` object: what the intervals and p-values of ``n_shows`` shows rest on.

    Parameters
    ----------
    n_shows : int
        Shows scored.
    resamples : int
        The settings' bootstrap resamples (0: no interval and no p-value at all).
    systems : int
        Systems compared.

    Returns
    -------
    dict
        ``shows``, ``min_shows`` (:data:`MIN_SHOWS`), ``intervals`` (``"percentile bootstrap"``, or None when
        there are none), ``intervals_reliable``, ``test`` (``"exact sign-flip"``, ``"paired bootstrap"`` or
        None), ``smallest_p_value`` and ``correction`` (``"holm"`` with more than two systems, else None).
    """
    off = resamples <= 0 or n_shows < 2
    test = None if off else which_test(n_shows)
    return {
        "shows": n_shows,
        "min_shows": MIN_SHOWS,
        "intervals": None if off else "percentile bootstrap",
        "intervals_reliable": not off and n_shows >= MIN_SHOWS,
        "test": test if systems > 1 else None,
        "smallest_p_value": None if test is None or systems < 2 else _floor(test, n_shows, resamples),
        "correction": "holm" if systems > 2 and test else None,
    }
