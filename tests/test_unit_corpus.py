"""tvseg.unit.corpus.corpus_unit_scores (issue 13) equals the per-show loop of the per-show loop of tests/unit_reference.py:
same per-show table, same corpus dict, same warnings, same errors, on random corpora in every convention,
with units and with frames."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment
from unit_reference import _unit_scores

from tvseg.errors import InputError
from tvseg.retrieval.boundaries import regions
from tvseg.retrieval.segments import Segments, from_segmentations
from tvseg.settings import Settings
from tvseg.unit.conventions import CONVENTIONS
from tvseg.unit.corpus import corpus_unit_scores


def segmentation(rng, t0, t1, *, grid):
    """An Annotation over [t0, t1] with gaps, segments on a grid (so unit midpoints hit starts)."""
    a = Annotation()
    cuts = np.unique(np.round(rng.uniform(t0, t1, rng.integers(0, 10)) / grid) * grid)
    edges = np.concatenate(([t0], cuts[(cuts > t0) & (cuts < t1)], [t1]))
    for i, (s, e) in enumerate(zip(edges[:-1], edges[1:])):
        if rng.random() < 0.2 and e - s > 2 * grid:  # a gap: the segment ends early
            e = s + grid
        if rng.random() < 0.1:  # a hole: no segment at all
            continue
        a[Segment(float(s), float(e))] = f"T{i}"
    return a


def units_of(rng, t0, t1):
    """Sorted units with gaps: 0, 1 or many (some 0-length, some tiny)."""
    kind = rng.random()
    if kind < 0.1:
        return None
    count = 1 if kind < 0.2 else int(rng.integers(2, 60))
    lengths = rng.choice([0.0, 0.25, 0.5, 1.0, 1.5, 3.0], size=count)
    gaps = rng.choice([0.0, 0.0, 0.25, 2.0], size=count)
    start = t0 - 1.0 + np.cumsum(gaps + np.concatenate(([0.0], lengths[:-1])))
    end = start + lengths
    return pd.DataFrame({"start": start, "end": end})


def corpus(seed, n_shows=None, *, grid=0.5):
    rng = np.random.default_rng(seed)
    n_shows = int(rng.integers(1, 12)) if n_shows is None else n_shows
    shows = [f"show{i:02d}" for i in range(n_shows)]
    ref_anns, hyp_anns, units = [], [], {}
    for show in shows:
        t0 = float(rng.integers(0, 5))
        t1 = t0 + float(rng.integers(2, 60))
        ref_anns.append(None if rng.random() < 0.1 else segmentation(rng, t0, t1, grid=grid))
        hyp_anns.append(None if rng.random() < 0.1 else segmentation(rng, t0, t1, grid=grid))
        table = units_of(rng, t0, t1)
        if table is not None:
            units[show] = table
    return shows, ref_anns, hyp_anns, units


def flat_units(shows, units):
    show, start, end = [], [], []
    for k, name in enumerate(shows):
        if name in units:
            show.append(np.full(len(units[name]), k))
            start.append(units[name]["start"].to_numpy(float))
            end.append(units[name]["end"].to_numpy(float))
    if not show:
        return np.zeros(0, np.int64), np.zeros(0), np.zeros(0)
    return np.concatenate(show), np.concatenate(start), np.concatenate(end)


def recorded(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    seen, out = set(), []
    for w in caught:  # what the default filter shows: once per message and line
        key = (str(w.message), w.filename, w.lineno)
        if key not in seen:
            seen.add(key)
            out.append(str(w.message))
    return result, out


def both(shows, ref_anns, hyp_anns, units, st_, uem=(None, None)):
    ref = from_segmentations(ref_anns, names=shows, side="reference")
    hyp = from_segmentations(hyp_anns, names=shows, side="hypothesis")
    old, old_w = recorded(lambda: _unit_scores("sys", shows, ref_anns, hyp_anns, units, st_, *uem, ref, hyp))
    r_start, r_end = regions(ref, *uem)
    u_show, u_start, u_end = (
        flat_units(shows, units) if st_.units != "frames" and units is not None else (None, None, None)
    )
    new, new_w = recorded(
        lambda: corpus_unit_scores(
            ref,
            hyp,
            unit_show=u_show,
            unit_start=u_start,
            unit_end=u_end,
            shows=shows,
            settings=st_,
            region_start=r_start,
            region_end=r_end,
            name="sys",
        )
    )
    return old, new, old_w, new_w


def assert_same(old, new, old_w, new_w):
    assert new_w == old_w
    if old is None:
        assert new is None
        return
    pd.testing.assert_frame_equal(new[0], old[0], check_exact=True)
    assert new[1].keys() == old[1].keys()
    for key, value in old[1].items():
        assert new[1][key] == value or (np.isnan(value) and np.isnan(new[1][key])), key


UNIT_CONVENTIONS = [c for c in CONVENTIONS if c != "chunkseg"]


@pytest.mark.parametrize("convention", UNIT_CONVENTIONS)
@pytest.mark.parametrize("k", [None, 1, 2, 5])
@pytest.mark.parametrize("seed", range(12))
def test_units_equal_the_per_show_loop(seed, k, convention):
    shows, ref_anns, hyp_anns, units = corpus(seed)
    assert_same(*both(shows, ref_anns, hyp_anns, units, Settings(units="file", k=k, convention=convention)))


@pytest.mark.parametrize("convention", CONVENTIONS)
@pytest.mark.parametrize("frame", [0.5, 1.0, 3.0, 7.0])
@pytest.mark.parametrize("seed", range(6))
def test_frames_equal_the_per_show_loop(seed, frame, convention):
    shows, ref_anns, hyp_anns, _ = corpus(100 + seed)
    st_ = Settings(units="frames", frame=frame, convention=convention, k=None if seed % 2 else 3)
    assert_same(*both(shows, ref_anns, hyp_anns, None, st_))


def test_frames_with_a_uem():
    shows, ref_anns, hyp_anns, _ = corpus(7, 6)
    uem_start = np.array([0.0, np.nan, 1.5, 0.0, 2.0, np.nan])
    uem_end = np.array([30.0, np.nan, 9.0, 80.0, 2.5, np.nan])
    for convention in CONVENTIONS:
        st_ = Settings(units="frames", frame=1.0, convention=convention)
        assert_same(*both(shows, ref_anns, hyp_anns, None, st_, (uem_start, uem_end)))


def test_no_units_at_all_and_no_scored_show():
    shows, ref_anns, hyp_anns, _ = corpus(3, 4)
    assert_same(*both(shows, ref_anns, hyp_anns, None, Settings(units="file")))  # None
    assert_same(*both(shows, ref_anns, hyp_anns, {}, Settings(units="file")))  # warnings only


def test_one_unit_shows_and_shows_without_reference():
    shows = ["a", "b", "c"]
    ref_anns = [None, Annotation(), None]
    ref_anns[1][Segment(0, 5)] = "x"
    hyp_anns = [None, None, None]
    units = {
        "a": pd.DataFrame({"start": [1.0], "end": [2.0]}),
        "b": pd.DataFrame({"start": [0.0], "end": [1.0]}),
        "c": pd.DataFrame({"start": [0.0, 1.0], "end": [1.0, 2.0]}),
    }
    for convention in UNIT_CONVENTIONS:
        assert_same(*both(shows, ref_anns, hyp_anns, units, Settings(units="file", convention=convention)))


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.sampled_from([None, 1, 3, 8, 40]),
    convention=st.sampled_from(UNIT_CONVENTIONS),
    grid=st.sampled_from([0.25, 0.5, 1.0]),
)
def test_random_corpora(seed, k, convention, grid):
    shows, ref_anns, hyp_anns, units = corpus(seed, grid=grid)
    assert_same(*both(shows, ref_anns, hyp_anns, units, Settings(units="file", k=k, convention=convention)))


def errors(shows, ref_anns, hyp_anns, units, ref, hyp, st_):
    with pytest.raises(InputError) as old:
        _unit_scores("sys", shows, ref_anns, hyp_anns, units, st_, None, None, ref, hyp)
    u_show, u_start, u_end = flat_units(shows, units)
    r_start, r_end = regions(ref)
    with pytest.raises(InputError) as new:
        corpus_unit_scores(
            ref,
            hyp,
            unit_show=u_show,
            unit_start=u_start,
            unit_end=u_end,
            shows=shows,
            settings=st_,
            region_start=r_start,
            region_end=r_end,
            name="sys",
        )
    assert str(new.value) == str(old.value)


@pytest.mark.filterwarnings("ignore::tvseg.errors.TvsegWarning")
@pytest.mark.parametrize("case", ["nan", "reversed", "unsorted", "unsorted_then_bad"])
def test_bad_units_raise_the_same_error(case):
    shows, ref_anns, hyp_anns, _ = corpus(11, 3)
    table = pd.DataFrame({"start": [0.0, 2.0, 4.0, 6.0], "end": [1.0, 3.0, 5.0, 7.0]})
    if case == "nan":
        table.loc[2, "end"] = np.nan
    elif case == "reversed":
        table.loc[1, "end"] = 1.5
    elif case == "unsorted":
        table.loc[2, ["start", "end"]] = [0.5, 0.7]
    else:
        table.loc[1, ["start", "end"]] = [0.1, 0.2]
        table.loc[3, "end"] = -1.0
    units = {"show00": pd.DataFrame({"start": [0.0], "end": [1.0]}), "show01": table, "show02": table}
    ref = from_segmentations(ref_anns, names=shows)
    hyp = from_segmentations(hyp_anns, names=shows)
    errors(shows, ref_anns, hyp_anns, units, ref, hyp, Settings(units="file"))


@pytest.mark.filterwarnings("ignore::tvseg.errors.TvsegWarning")
@pytest.mark.parametrize("side", ["reference", "hypothesis"])
def test_overlapping_segments_raise_the_same_error(side):
    shows = ["a", "b"]
    good, bad = Annotation(), Annotation()
    good[Segment(0, 4)] = "x"
    good[Segment(4, 9)] = "y"
    bad[Segment(0, 5)] = "x"
    bad[Segment(4, 9), "t2"] = "y"
    clean = Segments(
        show=np.array([0, 0, 1, 1]),
        start=np.array([0.0, 4.0, 0.0, 4.0]),
        end=np.array([4.0, 9.0, 4.0, 9.0]),
        label=np.array(["x", "y", "x", "y"], object),
        n_shows=2,
    )
    broken = Segments(
        show=np.array([0, 0, 1, 1]),
        start=np.array([0.0, 4.0, 0.0, 4.0]),
        end=np.array([4.0, 9.0, 5.0, 9.0]),
        label=np.array(["x", "y", "x", "y"], object),
        n_shows=2,
    )
    units = {s: pd.DataFrame({"start": np.arange(9.0), "end": np.arange(9.0) + 1}) for s in shows}
    anns_bad = [good, bad]
    if side == "reference":
        errors(shows, anns_bad, [good, good], units, broken, clean, Settings(units="file"))
    else:
        errors(shows, [good, good], anns_bad, units, clean, broken, Settings(units="file"))


@hsettings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.sampled_from([None, 1, 2, 6]),
    convention=st.sampled_from(CONVENTIONS),
    frame=st.sampled_from([0.25, 0.5, 1.0, 1.5, 2.0, 6.0, 0.3]),
)
def test_random_corpora_in_frames(seed, k, convention, frame):
    shows, ref_anns, hyp_anns, _ = corpus(seed)
    assert_same(
        *both(shows, ref_anns, hyp_anns, None, Settings(units="frames", frame=frame, k=k, convention=convention))
    )


def test_chunkseg_needs_frames():
    shows, ref_anns, hyp_anns, units = corpus(5, 3)
    ref = from_segmentations(ref_anns, names=shows)
    u_show, u_start, u_end = flat_units(shows, units)
    r_start, r_end = regions(ref)
    with pytest.raises(Exception, match="chunkseg"):
        corpus_unit_scores(
            ref,
            ref,
            unit_show=u_show,
            unit_start=u_start,
            unit_end=u_end,
            shows=shows,
            settings=Settings(units="file", convention="chunkseg"),
            region_start=r_start,
            region_end=r_end,
            name="sys",
        )
