"""The tolerance sweep's counts from windows found once (issue 13): equal, bit for bit, to
``count_matched`` at each tolerance, which ``tests/test_boundaries_matching.py`` checks against brute
force and mir_eval."""

import mir_eval
import numpy as np
import pytest

from tvseg.retrieval import sweep_counts
from tvseg.retrieval.matching import count_matched
from tvseg.retrieval.sweep_counts import counts_at_tolerances
from tvseg.retrieval.sweeps import TOLERANCES


def random_corpus(rng, n_shows, grid):
    """Sorted ``(show, time)`` boundaries of both sides, times on a decimal grid (ties included)."""
    sides = []
    for _ in range(2):
        show, time = [], []
        for s in range(n_shows):
            t = np.unique(np.round(rng.uniform(0, 200, rng.integers(0, 40)) / grid) * grid)
            show += [s] * len(t)
            time += t.tolist()
        sides += [np.array(show, np.int64), np.array(time)]
    return tuple(sides)


def test_every_tolerance_of_the_sweep_equals_count_matched():
    rng = np.random.default_rng(5)
    for _ in range(200):
        n_shows = int(rng.integers(1, 6))
        args = random_corpus(rng, n_shows, grid=float(rng.choice([0.1, 0.5, 1.0])))
        tolerances = [*TOLERANCES.tolist(), 0.1, 2.5, 0.3]
        got = counts_at_tolerances(*args, tolerances, n_shows=n_shows)
        assert list(got) == list(dict.fromkeys(map(float, tolerances)))
        for tol in tolerances:
            expected = count_matched(*args, tol, n_shows=n_shows)
            assert got[tol].dtype == np.int64 and got[tol].tolist() == expected.tolist(), (args, tol)


def test_decimal_distances_at_the_tolerance_are_inside():
    # |16.1 - 6.1| = 10 exactly as written, though 16.1 - 6.1 = 10.000000000000002 in floats; 0.3 - 0.1 at 0.2
    r_show, h_show = np.array([0, 1]), np.array([0, 1])
    got = counts_at_tolerances(r_show, np.array([6.1, 0.1]), h_show, np.array([16.1, 0.3]), [0.2, 9.9, 10], n_shows=2)
    assert {t: c.tolist() for t, c in got.items()} == {0.2: [0, 1], 9.9: [0, 1], 10.0: [1, 1]}


def test_dense_windows_fall_back_to_one_scan_per_tolerance(monkeypatch):
    # at 1e9 every pair of a show is a candidate: past the limit, count_matched runs per tolerance
    rng = np.random.default_rng(8)
    args = random_corpus(rng, 3, grid=0.5)
    calls = []
    real = sweep_counts.count_matched
    monkeypatch.setattr(sweep_counts, "count_matched", lambda *a, **k: calls.append(a[4]) or real(*a, **k))
    got = counts_at_tolerances(*args, [5.0, 1e9], n_shows=3)
    assert calls == [5.0, 1e9]
    for tol in (5.0, 1e9):
        assert got[tol].tolist() == count_matched(*args, tol, n_shows=3).tolist()


@pytest.mark.parametrize("empty", ["reference", "hypothesis", "both"])
def test_a_side_without_boundaries_matches_nothing(empty):
    full = (np.array([0, 0]), np.array([10.0, 20.0]))
    none = (np.array([], np.int64), np.array([]))
    ref = none if empty in ("reference", "both") else full
    hyp = none if empty in ("hypothesis", "both") else full
    got = counts_at_tolerances(*ref, *hyp, [0, 5, 30], n_shows=1)
    assert {t: c.tolist() for t, c in got.items()} == {0.0: [0], 5.0: [0], 30.0: [0]}


def test_no_tolerance_no_counts():
    assert counts_at_tolerances(np.array([0]), np.array([1.0]), np.array([0]), np.array([1.0]), [], n_shows=1) == {}


def test_one_show_equals_mir_eval_at_each_tolerance():
    rng = np.random.default_rng(21)
    for _ in range(100):
        args = random_corpus(rng, 1, grid=0.5)
        got = counts_at_tolerances(*args, [0.5, 2.0, 5.0, 15.0], n_shows=1)
        for tol, count in got.items():
            assert int(count.sum()) == len(mir_eval.util.match_events(args[1], args[3], tol))
