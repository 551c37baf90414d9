"""Pk and WindowDiff under ``convention="segeval1"``: the 2012 reference implementation (segeval 1.1).

Expected values: hand counts written out below, a literal window count written from the 2012 code's
description (labels per unit, phantom units, windows of units), and segeval 2.0.11's Pk, whose probe
is the 2012 code's (unit i against unit i + k) when both are given the same k.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from tvseg.unit.conventions import geometry
from tvseg.unit.masses import BoundaryPairs, as_masses, to_indicator
from tvseg.unit.windows import default_k, pk, window_counts, windowdiff

segeval = pytest.importorskip("segeval")


def kernel(reference, hypotheses, *, metric="pk", lamprier=False, k=None):
    """The window kernel's counts of many hypotheses of one reference under "segeval1", and the geometry."""
    pairs = BoundaryPairs.against(reference, hypotheses)
    g = geometry(pairs.n, pairs.reference_segments(), k, "segeval1", metric=metric, lamprier=lamprier)
    return window_counts(pairs, g), g


def test_pk_probes_unit_i_against_unit_i_plus_k():
    # reference (20,), hypothesis (1, 19): k = max(2, round_half_up(20 / (2 * 1))) = 10
    # probes (i, i + 10) for units i = 1 .. 10: 20 - 10 = 10 probes
    # the hypothesis separates units 1 and 2 only: probe (1, 11) disagrees, the 9 others agree
    # Pk = 1/10 (the 2012 code's 0.1; windows of k - 1 gaps would give 1/11)
    assert default_k((20,), convention="segeval1") == 10
    assert pk((20,), (1, 19), convention="segeval1") == 0.1
    c, _ = kernel((20,), [(1, 19)])
    assert (c.miss[0], c.false_alarm[0], c.windows[0]) == (0, 1, 10)


def test_pk_hand_count_with_a_miss_and_a_false_alarm():
    # reference (4, 4), hypothesis (2, 6): N = 8, k = max(2, round_half_up(8 / 4)) = 2, 6 probes
    #   probe (i, i+2) spans gaps i, i+1; reference boundary at gap 4, hypothesis at gap 2
    #   i:   1  2  3  4  5  6
    #   ref: .  .  |  |  .  .      (gap 4 in probes 3, 4)
    #   hyp: |  |  .  .  .  .      (gap 2 in probes 1, 2)
    # 2 false alarms + 2 misses over 6 probes
    assert pk((4, 4), (2, 6), convention="segeval1") == pytest.approx(4 / 6)
    c, _ = kernel((4, 4), [(2, 6)])
    assert (c.miss[0], c.false_alarm[0], c.windows[0]) == (2, 2, 6)


def test_pk_equals_segeval_2_with_the_same_k():
    # segeval 2.0.11 keeps the 2012 probe; only its default k rounds half to even
    rng = np.random.default_rng(11)
    for _ in range(400):
        n = int(rng.integers(3, 60))
        ref, hyp = (_random_masses(rng, n) for _ in range(2))
        k = int(rng.integers(1, n))
        want = float(segeval.pk(list(hyp), list(ref), window_size=k))
        assert pk(ref, hyp, k=k, convention="segeval1") == pytest.approx(want, abs=1e-12), (ref, hyp, k)


def test_windowdiff_lamprier_hand_count():
    # reference (3, 3), hypothesis (2, 4): N = 6, k = max(2, round_half_up(6 / 4)) = 2
    # one phantom unit (label 0) at each end of both: max(1, k - 1) = 1
    #   ref labels: 0 | 1 1 1 | 2 2 2 | 0        hyp labels: 0 | 1 1 | 2 2 2 2 | 0
    # windows of k = 2 units: the 7 adjacent pairs of the 8 labels; N + 1 - k + 2 = 7
    # a pair holds a boundary where its labels differ; both have one at the two phantom edges,
    # they differ on pairs (2, 3) (hypothesis only) and (3, 4) (reference only): 2 errors
    assert windowdiff((3, 3), (2, 4), convention="segeval1", lamprier=True) == pytest.approx(2 / 7)
    c, g = kernel((3, 3), [(2, 4)], metric="windowdiff", lamprier=True)
    assert (c.errors[0], g.divisor[0]) == (2, 7)
    # without the correction: the 5 adjacent pairs of the 6 units, the same 2 errors
    assert windowdiff((3, 3), (2, 4), convention="segeval1") == pytest.approx(2 / 5)


def test_windowdiff_lamprier_issue_case():
    # reference (20,), hypothesis (1, 19), k = 10: 9 phantom units at each end, 38 labels,
    # windows of 10 units (9 adjacent pairs each): 38 - 10 + 1 = 29 = 20 + 1 - 10 + 2 * 9
    # the hypothesis boundary, between units 1 and 2, is in the 9 windows that hold both units
    assert windowdiff((20,), (1, 19), convention="segeval1", lamprier=True) == pytest.approx(9 / 29)


def _labels(masses):
    return [segment + 1 for segment, m in enumerate(masses) for _ in range(m)]


def _literal_2012_windowdiff(ref, hyp, k, lamprier):
    """The 2012 code's WindowDiff as its description reads: labels per unit, phantom units labelled 0,
    windows of k units, an error where the two windows hold different numbers of label changes."""
    r, h = _labels(ref), _labels(hyp)
    if lamprier:
        phantom = [0] * max(1, k - 1)
        r, h = phantom + r + phantom, phantom + h + phantom
    windows = len(r) - k + 1
    errors = 0
    for i in range(windows):
        changes_r = sum(r[j] != r[j + 1] for j in range(i, i + k - 1))
        changes_h = sum(h[j] != h[j + 1] for j in range(i, i + k - 1))
        errors += changes_r != changes_h
    return Fraction(errors, windows)


def _random_masses(rng, n):
    gaps = rng.random(n - 1) < rng.random() * 0.5
    return tuple(int(x) for x in np.diff(np.concatenate(([0], np.flatnonzero(gaps) + 1, [n]))))


def test_windowdiff_equals_a_literal_count_of_the_2012_windows():
    rng = np.random.default_rng(12)
    for _ in range(300):
        n = int(rng.integers(2, 40))
        ref, hyp = _random_masses(rng, n), _random_masses(rng, n)
        k = int(rng.integers(1, n + 1)) if rng.random() < 0.5 else default_k(ref, convention="segeval1")
        for lamprier in (False, True):
            want = _literal_2012_windowdiff(ref, hyp, k, lamprier)
            got = windowdiff(ref, hyp, k=k, lamprier=lamprier, convention="segeval1")
            assert got == pytest.approx(float(want), abs=1e-12), (ref, hyp, k, lamprier)


def test_many_hypotheses_keep_the_two_geometries_apart():
    # one kernel pass over several hypotheses: Pk's probes (k gaps) equal segeval 2.0.11's with the
    # same k, WindowDiff's windows (k units: k - 1 gaps) the literal 2012 count
    ref = (4, 4, 7, 5)
    hyps = [(2, 6, 12), (20,), (4, 4, 7, 5), (1,) * 20]
    ind = np.array([to_indicator(as_masses(h)) for h in hyps])
    probes, g_pk = kernel(ref, ind)
    windows, g_wd = kernel(ref, ind, metric="windowdiff")
    # k = 3 (20 / 8 = 2.5, half up): Pk has 20 - 3 probes, WindowDiff 20 + 1 - 3 windows
    assert set(probes.windows) == {17} and set(g_wd.divisor) == {18}
    for i, h in enumerate(hyps):
        want = float(segeval.pk(list(h), list(ref), window_size=3))
        assert (probes.miss[i] + probes.false_alarm[i]) / 17 == pytest.approx(want, abs=1e-12)
        assert windows.errors[i] / 18 == pytest.approx(float(_literal_2012_windowdiff(ref, h, 3, False)), abs=1e-12)
    lamprier, g = kernel(ref, ind, metric="windowdiff", lamprier=True)
    for i, h in enumerate(hyps):
        want = _literal_2012_windowdiff(ref, h, 3, True)
        assert lamprier.errors[i] / g.divisor[i] == pytest.approx(float(want), abs=1e-12)
