"""Paired bootstrap over shows: seeds, intervals, p-values."""

import numpy as np
import pandas as pd
import pytest

from tvseg.significance import paired_bootstrap


def components(correct, n=10, shows=20):
    """Per-show components where each show has n reference and n hypothesis segments (and boundaries)."""
    correct = np.asarray(correct, float)
    c = {
        "n_reference": np.full(shows, n),
        "n_hypothesis": np.full(shows, n),
        "n_correct_reference": correct,
        "n_correct_hypothesis": correct,
        "duration_reference": np.full(shows, 100.0 * n),
        "duration_hypothesis": np.full(shows, 100.0 * n),
        "duration_correct_reference": 100.0 * correct,
        "duration_correct_hypothesis": 100.0 * correct,
        "boundary_n_reference": np.full(shows, n - 1),
        "boundary_n_hypothesis": np.full(shows, n - 1),
        "boundary_n_matched": np.minimum(correct, n - 1),
    }
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


def test_unit_metrics_get_intervals_from_the_same_resamples():
    # the unit metrics' intervals recomputed independently: each show's unit counts from the per-show
    # brute-force oracle (tests/unit_reference.py's unit_components), summed with the resample weights drawn
    # as the module docstring says (S uniform draws of a show, counted), then unit_metrics and
    # numpy.quantile
    import warnings

    import numpy as np
    from pyannote.core import Annotation, Segment
    from unit_reference import unit_components, unit_metrics

    import tvseg

    rng = np.random.default_rng(3)
    ref, hyp, units = {}, {}, {}
    for k in range(6):
        show = f"s{k}"
        cuts = np.sort(rng.choice(np.arange(20, 580, 10), size=int(rng.integers(2, 6)), replace=False))
        bounds = [0.0, *map(float, cuts), 600.0]
        moved = [0.0, *sorted({float(min(590, max(10, c + rng.integers(-30, 31)))) for c in cuts}), 600.0]
        for side, b in ((ref, bounds), (hyp, moved)):
            a = Annotation(uri=show)
            for i, (x, y) in enumerate(zip(b[:-1], b[1:])):
                a[Segment(x, y), i] = f"t{i}"
            side[show] = a
        starts = np.arange(0.0, 600.0, 4.0)
        units[show] = __import__("pandas").DataFrame({"start": starts, "end": starts + 4.0})
    settings = tvseg.Settings(bootstrap=300, seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(ref, {"sys": hyp}, units=units, settings=settings)
        shows = sorted(ref)
        comps = [unit_components(ref[s], hyp[s], units=units[s], settings=result.settings) for s in shows]
    keys = list(comps[0])
    table = np.array([[c[k] for k in keys] for c in comps], dtype=float)
    draws = np.random.default_rng(5)
    values = {m: [] for m in ("pk", "windowdiff", "s", "b", "ghd")}
    n = len(shows)
    for done in range(0, 300, 200):
        b = min(200, 300 - done)
        drawn = draws.integers(0, n, size=(b, n))
        for row in drawn:
            weights = np.bincount(row, minlength=n).astype(float)
            totals = dict(zip(keys, weights @ table))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                metrics = unit_metrics(totals)
            for m in values:
                values[m].append(metrics[m])
    got = result.intervals["sys"]
    for m, v in values.items():
        v = np.asarray(v, dtype=float)
        v = v[~np.isnan(v)]
        low, high = np.quantile(v, [0.025, 0.975])
        assert got[m]["low"] == pytest.approx(low, abs=1e-12) and got[m]["high"] == pytest.approx(high, abs=1e-12)
        corpus = result.systems["sys"].corpus[m]
        assert low <= corpus + 1e-12 and corpus - 1e-12 <= high or np.isnan(corpus)


def test_pk_and_windowdiff_get_paired_p_values_from_the_same_resamples():
    # Pk and WindowDiff are compared between systems (with units): the p-value recomputed independently
    # from the per-show reference loop's unit counts, the module docstring's draws (the same for both
    # systems), the resampled differences centred on their mean, and p = (1 + #{|d_b - mean| >= |delta|}) / (1 + B).
    # 14 shows: from 13 shows on the p-value is the bootstrap's (up to 12, the exact sign-flip test's:
    # tests/test_significance.py)
    import warnings

    import numpy as np
    import pandas as pd
    from pyannote.core import Annotation, Segment
    from unit_reference import unit_components, unit_metrics

    import tvseg

    rng = np.random.default_rng(8)
    ref, systems, units = {}, {"close": {}, "far": {}}, {}
    for k in range(14):
        show = f"s{k}"
        cuts = np.sort(rng.choice(np.arange(20, 580, 10), size=int(rng.integers(2, 6)), replace=False))
        bounds = [0.0, *map(float, cuts), 600.0]
        sides = {"ref": bounds}
        for name, spread in (("close", 10), ("far", 60)):
            moved = {float(min(590, max(10, c + rng.integers(-spread, spread + 1)))) for c in cuts}
            sides[name] = [0.0, *sorted(moved), 600.0]
        for name, b in sides.items():
            a = Annotation(uri=show)
            for i, (x, y) in enumerate(zip(b[:-1], b[1:])):
                a[Segment(x, y), i] = f"t{i}"
            (ref if name == "ref" else systems[name])[show] = a
        starts = np.arange(0.0, 600.0, 4.0)
        units[show] = pd.DataFrame({"start": starts, "end": starts + 4.0})
    settings = tvseg.Settings(bootstrap=300, seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(ref, systems, units=units, settings=settings)
        shows = sorted(ref)
        tables = {}
        for name, hyp in systems.items():
            comps = [unit_components(ref[s], hyp[s], units=units[s], settings=result.settings) for s in shows]
            keys = list(comps[0])
            tables[name] = (keys, np.array([[c[k] for k in keys] for c in comps], dtype=float))
    draws = np.random.default_rng(5)
    n = len(shows)
    resampled = {name: {"pk": [], "windowdiff": []} for name in systems}
    for done in range(0, 300, 200):
        for row in draws.integers(0, n, size=(min(200, 300 - done), n)):
            weights = np.bincount(row, minlength=n).astype(float)
            for name, (keys, table) in tables.items():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    metrics = unit_metrics(dict(zip(keys, weights @ table)))
                for m in ("pk", "windowdiff"):
                    resampled[name][m].append(metrics[m])
    for m in ("pk", "windowdiff"):
        observed = {name: unit_metrics(dict(zip(keys, table.sum(axis=0))))[m] for name, (keys, table) in tables.items()}
        delta = observed["close"] - observed["far"]
        d = np.asarray(resampled["close"][m]) - np.asarray(resampled["far"][m])
        d = d[~np.isnan(d)]
        p = (1 + np.sum(np.abs(d - d.mean()) >= abs(delta))) / (1 + len(d))
        (entry,) = [e for e in result.pairwise if e["metric"] == m]
        assert (entry["a"], entry["b"]) == ("close", "far")
        assert entry["difference"] == pytest.approx(delta, abs=1e-12)
        corpus = result.systems["close"].corpus[m] - result.systems["far"].corpus[m]
        assert entry["difference"] == pytest.approx(corpus, abs=1e-12)
        assert entry["p_value"] == pytest.approx(p, abs=1e-12)


def test_without_units_pk_and_windowdiff_are_not_compared():
    c = components([5, 6, 7, 8] * 5)
    _, pairwise = paired_bootstrap({"a": c, "b": c}, resamples=50, seed=0)
    assert {e["metric"] for e in pairwise} == {"cov_n", "cov_d", "boundary_f1"}
