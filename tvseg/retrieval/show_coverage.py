r"""CovN and CovD of one show, as :func:`tvseg.coverage` gives them (Bouchekif et al., section 3).

The definitions, the tie rule and the exact decision are those of :mod:`tvseg.retrieval.coverage`; a show is
scored by the corpus kernel (:func:`tvseg.retrieval.corpus.coverage_components`) on a corpus of one show,
or, when it has few segments given in order, by the same rules in Python integers
(:func:`tvseg.retrieval.coverage.small_components`). The per-segment match table of the result is
:func:`tvseg.retrieval.stories.match_table`'s.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import cached_property

import pandas as pd

from tvseg.columns import Segmentation, Segments
from tvseg.errors import UndefinedValueWarning, user_stacklevel
from tvseg.rates import f_measure, rate
from tvseg.retrieval.corpus import ShowScores, coverage_components
from tvseg.retrieval.coverage import Matching, SmallShow, check_gamma, small_components, small_show
from tvseg.retrieval.region import evaluated_pair
from tvseg.retrieval.stories import match_table

__all__ = ["coverage", "CoverageResult"]


@dataclass(frozen=True, eq=False)
class CoverageResult:
    """CovN/CovD of one show (rates are fractions; NaN for 0/0, see :mod:`tvseg.rates`).

    Attributes
    ----------
    recall_n, precision_n, cov_n, recall_d, precision_d, cov_d : float
        Equations 2 to 6 of Bouchekif et al. and their harmonic means.
    n_reference, n_hypothesis, n_correct_reference, n_correct_hypothesis : int
        Segment counts.
    duration_reference, duration_hypothesis, duration_correct_reference, duration_correct_hypothesis : float
        Summed (evaluated) durations (s).
    gamma : float
        The threshold used (strict: correct when coverage > gamma).
    matches : pandas.DataFrame
        Per-segment match table (see :func:`match_table`), built on first access.
    """

    recall_n: float
    precision_n: float
    cov_n: float
    recall_d: float
    precision_d: float
    cov_d: float
    n_reference: int
    n_hypothesis: int
    n_correct_reference: int
    n_correct_hypothesis: int
    duration_reference: float
    duration_hypothesis: float
    duration_correct_reference: float
    duration_correct_hypothesis: float
    gamma: float
    _scored: tuple[Segments, Segments, Matching] | SmallShow = field(repr=False)

    @cached_property
    def matches(self) -> pd.DataFrame:
        scored = self._scored
        reference, hypothesis, matching = scored.segments() if isinstance(scored, SmallShow) else scored
        return match_table(reference, hypothesis, matching, gamma=self.gamma)


def coverage(
    reference: Segmentation, hypothesis: Segmentation, *, gamma: float = 0.85, uem: object = None
) -> CoverageResult:
    r"""CovN and CovD of one show's hypothesis against its reference (Bouchekif et al., section 3).

    The show is scored as :func:`tvseg.evaluate` scores it, by the same kernel (:func:`~tvseg.retrieval.coverage.match`,
    :func:`~tvseg.retrieval.coverage.correct`) on a corpus of one show: on its evaluated region, ``uem`` when given, else the
    reference's extent; the hypothesis is cropped to that region (a hypothesis that runs past the
    reference loses what lies outside it, as in :func:`tvseg.evaluate`, which warns about it). A show of
    at most :data:`~tvseg.retrieval.coverage.SMALL_SHOW` segments a side given in order, within the reference's extent, is
    scored by the same rules in Python integers (:func:`~tvseg.retrieval.coverage.small_components`).

    Parameters
    ----------
    reference, hypothesis : pyannote.core.Annotation, Timeline, sequence of (start, end) or (n, 2) array
        Topic segments of one show: disjoint within each side (gaps allowed).
    gamma : float, default 0.85
        A segment is correct when its bidirectional coverage is strictly greater than ``gamma``.
    uem : pyannote.core.Segment, Timeline or sequence of (start, end), optional
        The show's evaluated regions (its UEM). With several regions, a segment that spans a gap
        stays one segment whose evaluated duration is its part inside the regions
        (:mod:`tvseg.retrieval.region`).

    Returns
    -------
    CoverageResult

    Raises
    ------
    InputError
        Overlapping, empty or non-finite segments.

    Warns
    -----
    UndefinedValueWarning
        When one side has no segment (its rates are NaN; see :mod:`tvseg.rates`).

    Notes
    -----
    .. math::

        Cov_{R_i \leftrightarrow H_j} = \frac{2\, |R_i \cap H_j|}{d(R_i) + d(H_j)}, \qquad
        CovN = \frac{2 R_N P_N}{R_N + P_N}, \qquad CovD = \frac{2 R_D P_D}{R_D + P_D}

    See the module docstring for the definitions and the tie rule.

    Examples
    --------
    >>> from pyannote.core import Annotation, Segment
    >>> ref, hyp = Annotation(), Annotation()
    >>> ref[Segment(0, 100)] = "a"; ref[Segment(100, 200)] = "b"
    >>> hyp[Segment(0, 95)] = "x"; hyp[Segment(95, 200)] = "y"
    >>> result = coverage(ref, hyp)
    >>> round(result.cov_n, 4), result.n_correct_reference
    (1.0, 2)
    """
    gamma = check_gamma(gamma)
    small = small_show(reference, hypothesis) if uem is None else None
    if small is not None:
        sums = small_components(small.reference, small.hypothesis, gamma)
        scored: tuple[Segments, Segments, Matching] | SmallShow = small
    else:
        ref, hyp, _ = evaluated_pair(reference, hypothesis, uem=uem)
        for n, side in ((len(ref), "reference"), (len(hyp), "hypothesis")):
            if n == 0:
                warnings.warn(
                    f"the {side} has no segment: its rates are NaN (0/0)",
                    UndefinedValueWarning,
                    stacklevel=user_stacklevel(),
                )
        pair = ShowScores(ref, hyp, shows=[""], gamma=gamma, long_threshold=None, tolerance=0.0)
        sums = {key: float(value[0]) for key, value in coverage_components(pair).items()}  # as evaluate sums a show
        scored = (ref, hyp, pair.matching)
    # the registry's formulas for these metrics (tvseg.metrics), on one show's numbers
    recall_n = rate(sums["n_correct_reference"], sums["n_reference"])
    precision_n = rate(sums["n_correct_hypothesis"], sums["n_hypothesis"])
    recall_d = rate(sums["duration_correct_reference"], sums["duration_reference"])
    precision_d = rate(sums["duration_correct_hypothesis"], sums["duration_hypothesis"])
    return CoverageResult(
        recall_n=recall_n,
        precision_n=precision_n,
        cov_n=f_measure(precision_n, recall_n),
        recall_d=recall_d,
        precision_d=precision_d,
        cov_d=f_measure(precision_d, recall_d),
        n_reference=int(sums["n_reference"]),
        n_hypothesis=int(sums["n_hypothesis"]),
        n_correct_reference=int(sums["n_correct_reference"]),
        n_correct_hypothesis=int(sums["n_correct_hypothesis"]),
        duration_reference=sums["duration_reference"],
        duration_hypothesis=sums["duration_hypothesis"],
        duration_correct_reference=sums["duration_correct_reference"],
        duration_correct_hypothesis=sums["duration_correct_hypothesis"],
        gamma=gamma,
        _scored=scored,
    )
