"""Paired bootstrap over shows: seeds, intervals, p-values."""
import numpy as np
import pandas as pd
import pytest

from tvseg.retrieval.bootstrap import paired_bootstrap


def components(correct, n=10, shows=20):
    """Per-show components where each show has n reference and n hypothesis segments (and boundaries)."""
    correct = np.asarray(correct, float)
    zeros = np.zeros(shows)
    c = {"n_reference": np.full(shows, n), "n_hypothesis": np.full(shows, n),
         "n_correct_reference": correct, "n_correct_hypothesis": correct,
         "duration_reference": np.full(shows, 100.0 * n), "duration_hypothesis": np.full(shows, 100.0 * n),
         "duration_correct_reference": 100.0 * correct, "duration_correct_hypothesis": 100.0 * correct,
         "boundary_n_reference": np.full(shows, n - 1), "boundary_n_hypothesis": np.full(shows, n - 1),
         "boundary_n_matched": np.minimum(correct, n - 1)}
    return pd.DataFrame(c)


def test_same_seed_same_numbers_and_identical_systems_have_p_one():
    rng = np.random.default_rng(1)
    a = components(rng.integers(0, 11, 20))
    ci1, pw1 = paired_bootstrap({"a": a, "b": a.copy()}, resamples=300, seed=5)
    ci2, pw2 = paired_bootstrap({"a": a, "b": a.copy()}, resamples=300, seed=5)
    assert ci1 == ci2 and pw1 == pw2
    # identical systems: every resampled difference is 0 = the observed one -> p = (1+B)/(1+B) = 1
    assert all(p["p_value"] == 1.0 and p["difference"] == 0.0 for p in pw1)


def test_constant_shows_give_a_degenerate_interval():
    # every show has 7 of 10 correct: any resample pools to R_N = 0.7 exactly
    ci, _ = paired_bootstrap({"a": components(np.full(20, 7))}, resamples=100, seed=0)
    assert ci["a"]["recall_n"] == {"low": pytest.approx(0.7), "high": pytest.approx(0.7)}


def test_a_large_paired_difference_has_the_smallest_p_value():
    rng = np.random.default_rng(2)
    base = rng.integers(2, 6, 20)
    a, b = components(base + 5), components(base)
    B = 500
    _, pw = paired_bootstrap({"a": a, "b": b}, resamples=B, seed=0)
    cov_n = next(p for p in pw if p["metric"] == "cov_n")
    # A beats B by 5 segments of 10 on every show: the centred resampled differences never reach 0.5
    assert cov_n["difference"] == pytest.approx(0.5)
    assert cov_n["p_value"] == pytest.approx(1 / (B + 1))


def test_interval_covers_the_corpus_value_on_noisy_shows():
    rng = np.random.default_rng(3)
    c = components(rng.integers(0, 11, 50), shows=50)
    ci, _ = paired_bootstrap({"a": c}, resamples=1000, seed=0, confidence=0.95)
    pooled = c["n_correct_reference"].sum() / c["n_reference"].sum()
    assert ci["a"]["recall_n"]["low"] < pooled < ci["a"]["recall_n"]["high"]
