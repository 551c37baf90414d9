"""tvseg's Pk and WindowDiff under the tools' conventions equal the tools themselves.

Expected values come from nltk 3.10.4 (``nltk.metrics.segmentation``) and segeval 2.0.11 run on the
same random pairs. nltk takes a string with one character per gap between adjacent units (the
contract's mapping of masses); segeval takes masses, hypothesis first.
"""

import math
import warnings

import numpy as np
import pytest
import segeval
from nltk.metrics import segmentation as nltk_seg

from tvseg.errors import TvsegWarning
from tvseg.unit.conventions import geometry
from tvseg.unit.masses import BoundaryPairs
from tvseg.unit.windows import default_k, pk, window_counts, windowdiff

PAIRS = 1000


def nltk_string(masses):
    # (a, b, c) -> "0"*(a-1) + "1" + "0"*(b-1) + "1" + "0"*(c-1): one character per gap
    return "1".join("0" * (m - 1) for m in masses)


def random_pair(rng):
    n = int(rng.integers(2, 60))

    def cut():
        p = rng.random() * 0.6
        gaps = rng.random(n - 1) < p
        edges = np.concatenate(([0], np.flatnonzero(gaps) + 1, [n]))
        return np.diff(edges).tolist()

    return cut(), cut()


def pairs(seed):
    rng = np.random.default_rng(seed)
    return [random_pair(rng) + (int(rng.integers(0, 8)),) for _ in range(PAIRS)]


def test_nltk_string_of_the_contract_example():
    assert nltk_string((3, 5, 2)) == "001000010"


def test_pk_equals_nltk_default_and_explicit_k():
    checked = 0
    for ref, hyp, k in pairs(1):
        a, b = nltk_string(ref), nltk_string(hyp)
        assert pk(ref, hyp, convention="nltk") == pytest.approx(nltk_seg.pk(a, b), abs=1e-12), (ref, hyp)
        if k <= len(a):  # nltk divides by len - k + 1
            assert pk(ref, hyp, k=k, convention="nltk") == pytest.approx(nltk_seg.pk(a, b, k=k), abs=1e-12)
            checked += 1
    assert checked > PAIRS // 2


def test_windowdiff_equals_nltk_explicit_k_and_nltk_pk_default():
    checked = 0
    for ref, hyp, k in pairs(2):
        a, b = nltk_string(ref), nltk_string(hyp)
        kk = default_k(ref, convention="nltk")
        # nltk's windowdiff has no default k; the convention borrows nltk pk's default
        for kx in {k, kk}:
            if kx <= len(a):  # nltk refuses k > len
                for weighted in (False, True):
                    want = nltk_seg.windowdiff(a, b, kx, weighted=weighted)
                    got = windowdiff(ref, hyp, k=kx, weighted=weighted, convention="nltk")
                    assert got == pytest.approx(want, abs=1e-12), (ref, hyp, kx, weighted)
                checked += 1
        if kk <= len(a):
            assert windowdiff(ref, hyp, convention="nltk") == pytest.approx(nltk_seg.windowdiff(a, b, kk))
    assert checked > PAIRS


def test_pk_equals_segeval_default_and_explicit_k():
    for ref, hyp, k in pairs(3):
        want = float(segeval.pk(hyp, ref))
        assert pk(ref, hyp, convention="segeval") == pytest.approx(want, abs=1e-12), (ref, hyp)
        want = float(segeval.pk(hyp, ref, window_size=k))
        assert pk(ref, hyp, k=k, convention="segeval") == pytest.approx(want, abs=1e-12), (ref, hyp, k)


def _segeval_wd(ref, hyp, **kw):
    try:
        return float(segeval.window_diff(hyp, ref, **kw))
    except ArithmeticError:  # 0/0: segeval's Decimal division when no window fits
        return math.nan


def test_windowdiff_equals_segeval_default_and_explicit_k_with_and_without_lamprier():
    for ref, hyp, k in pairs(4):
        for lam in (False, True):
            for kx in (None, k):
                kw = {"lamprier_et_al_2007_fix": lam}
                if kx is not None:
                    kw["window_size"] = kx
                want = _segeval_wd(ref, hyp, **kw)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", TvsegWarning)
                    got = windowdiff(ref, hyp, k=kx, lamprier=lam, convention="segeval")
                if math.isnan(want):
                    assert math.isnan(got), (ref, hyp, kx, lam)
                else:
                    assert got == pytest.approx(want, abs=1e-12), (ref, hyp, kx, lam)


def test_segeval_window_size_default():
    for ref, _, _ in pairs(5)[:300]:
        assert default_k(ref, convention="segeval") == segeval.compute_window_size(ref)


def test_many_hypotheses_in_one_kernel_pass_equal_the_tools_too():
    rng = np.random.default_rng(6)
    ref = [5, 9, 3, 12, 7, 4]
    n = sum(ref)
    hyps = rng.random((50, n - 1)) < 0.2
    a = nltk_string(ref)
    strings = ["".join("1" if x else "0" for x in row) for row in hyps]
    pairs = BoundaryPairs.against(ref, hyps)
    g = geometry(pairs.n, pairs.reference_segments(), None, "nltk", metric="pk")
    c = window_counts(pairs, g)
    want = [nltk_seg.pk(a, s) for s in strings]
    np.testing.assert_allclose((c.miss + c.false_alarm) / g.divisor, want)
    g = geometry(pairs.n, pairs.reference_segments(), 4, "nltk")
    want = [nltk_seg.windowdiff(a, s, 4) for s in strings]
    np.testing.assert_allclose(window_counts(pairs, g).errors / g.divisor, want)
    want = [nltk_seg.windowdiff(a, s, 4, weighted=True) for s in strings]
    np.testing.assert_allclose(window_counts(pairs, g).differences / g.divisor, want)
