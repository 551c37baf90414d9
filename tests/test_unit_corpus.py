"""tvseg.unit.corpus.corpus_unit_scores, the unit-domain scores of a corpus, against the brute-force
oracle of tests/unit_reference.py (every unit placed by a loop, every window visited, S and B from
segeval 2.0.11, GHD from nltk 3.10.4, chunkseg's grid from chunkseg 0.4.0): the same components show by
show (exactly), the same metrics per show and pooled, the warnings a reader expects, and the errors,
on random corpora in every convention, with units and with frames."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment
from unit_reference import unit_scores

from tvseg.columns import Segments, from_segmentations
from tvseg.errors import InputError
from tvseg.settings import Settings
from tvseg.unit.conventions import CONVENTIONS
from tvseg.unit.corpus import corpus_unit_scores
from tvseg.unit.projection import edge_ticks
from tvseg.unit.reduction import reduce_unit_parts

METRICS = ("pk", "pk_prime", "windowdiff", "winpr_precision", "winpr_recall", "winpr_f1", "s", "cseg", "cseg_norm")
METRICS += ("ghd", "b")
CHUNK_METRICS = ("chunk_precision", "chunk_recall", "chunk_f1")


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
    return result, {str(w.message) for w in caught}


def region_of(annotation, uem):
    """A show's evaluated region: its UEM where given, else its reference's first start to last end."""
    if uem is not None and not math.isnan(uem[0]):
        return Segment(*uem)
    if annotation is None or not len(annotation):
        return None
    segments = sorted(annotation.get_timeline())
    return Segment(segments[0].start, segments[-1].end)


def scores(shows, ref_anns, hyp_anns, units, st_, uem=(None, None), part=False):
    """tvseg's corpus_unit_scores on flat arrays: its part (``part``: the shard's components), or the part
    reduced to the per-show table and the corpus metrics, with the warnings."""
    ref = from_segmentations(ref_anns, names=shows, side="reference")
    hyp = from_segmentations(hyp_anns, names=shows, side="hypothesis")
    regions = [region_of(a, None if uem[0] is None else (uem[0][k], uem[1][k])) for k, a in enumerate(ref_anns)]
    r_start = np.array([np.nan if r is None else r.start for r in regions])
    r_end = np.array([np.nan if r is None else r.end for r in regions])
    u_show, u_start, u_end = (
        flat_units(shows, units) if st_.units != "frames" and units is not None else (None, None, None)
    )

    def scored():
        found = corpus_unit_scores(
            ref,
            hyp,
            unit_show=u_show,
            unit_start=u_start,
            unit_end=u_end,
            shows=shows,
            settings=st_,
            region_start=r_start,
            region_end=r_end,
            region_ticks=edge_ticks(r_start, r_end),
            name="sys",
        )
        return found if part or found is None else reduce_unit_parts([found], [0], list(shows))

    return recorded(scored)


def oracle(shows, ref_anns, hyp_anns, units, st_, uem=(None, None)):
    refs = {s: a if a is not None else Annotation() for s, a in zip(shows, ref_anns)}
    hyps = {s: a if a is not None else Annotation() for s, a in zip(shows, hyp_anns)}
    regions = {
        s: region_of(a, None if uem[0] is None else (uem[0][k], uem[1][k]))
        for k, (s, a) in enumerate(zip(shows, ref_anns))
    }
    return unit_scores(shows, refs, hyps, units or {}, st_, regions)


def expected_warnings(shows, units, st_, per_show, corpus, comps):
    """What a reader is told: each show left out (no units; shorter than one chunk), and each metric
    that is 0/0 in some show or in the corpus."""
    out = set()
    for show in shows:
        if show not in comps and st_.units != "frames" and units is not None and show not in units:
            out.add(f"sys: no units for show {show}: its unit metrics are left out")
    for metric in METRICS if comps else ():
        if metric.startswith("cseg"):
            continue
        if per_show.loc[list(comps), metric].isna().any() or (corpus and math.isnan(corpus[metric])):
            out.add(f"{metric} is 0/0 (NaN)")
    for rate, denominator in (("P_miss", "cseg_ref_probes"), ("P_fa", "cseg_nonref_probes")):
        if any(c[denominator] == 0 for c in comps.values()):  # then the corpus's may be too
            out.add(f"cseg {rate} is 0/0 (NaN)")
    return out


def check(shows, ref_anns, hyp_anns, units, st_, uem=(None, None)):
    if st_.units != "frames" and units is None:
        assert scores(shows, ref_anns, hyp_anns, units, st_, uem)[0] is None
        return
    per_show, corpus, comps = oracle(shows, ref_anns, hyp_anns, units, st_, uem)
    (got_table, got_corpus), got_warnings = scores(shows, ref_anns, hyp_anns, units, st_, uem)
    part, _ = scores(shows, ref_anns, hyp_anns, units, st_, uem, part=True)
    assert [shows[k] for k in part.scored] == list(comps)
    for i, show in enumerate(comps):
        assert {key: part.components[key][i] for key in comps[show]} == comps[show], show
    assert got_corpus.keys() == set(corpus) if corpus else got_corpus == {}
    for key, value in corpus.items():
        assert got_corpus[key] == pytest.approx(value, abs=1e-12, nan_ok=True), key
    if comps:
        # under "chunkseg" also the chunk flags' precision, recall and F1 (chunkseg's own, unit_reference)
        columns = list(METRICS) + [c for c in CHUNK_METRICS if st_.convention == "chunkseg"]
        assert set(got_table.columns) == set(columns)
        expected = per_show[columns].to_numpy(float)
        np.testing.assert_allclose(got_table[columns].to_numpy(float), expected, rtol=0, atol=1e-12)
    chunk_warnings = {w for w in got_warnings if "shorter than one chunk" in w}
    assert got_warnings - chunk_warnings == expected_warnings(shows, units, st_, per_show, corpus, comps)
    if st_.convention == "chunkseg":
        left_out = {s for s in shows if s not in comps and region_of(ref_anns[shows.index(s)], None) is not None}
        assert {w.split()[2] for w in chunk_warnings} <= left_out


UNIT_CONVENTIONS = [c for c in CONVENTIONS if c != "chunkseg"]


@pytest.mark.parametrize("convention", UNIT_CONVENTIONS)
@pytest.mark.parametrize("k", [None, 1, 2, 5])
@pytest.mark.parametrize("seed", range(12))
def test_units_equal_the_oracle(seed, k, convention):
    shows, ref_anns, hyp_anns, units = corpus(seed)
    check(shows, ref_anns, hyp_anns, units, Settings(units="file", k=k, convention=convention))


@pytest.mark.parametrize("convention", CONVENTIONS)
@pytest.mark.parametrize("frame", [0.5, 1.0, 3.0, 7.0])
@pytest.mark.parametrize("seed", range(6))
def test_frames_equal_the_oracle(seed, frame, convention):
    shows, ref_anns, hyp_anns, _ = corpus(100 + seed)
    st_ = Settings(units="frames", frame=frame, convention=convention, k=None if seed % 2 else 3)
    check(shows, ref_anns, hyp_anns, None, st_)


def test_frames_with_a_uem():
    shows, ref_anns, hyp_anns, _ = corpus(7, 6)
    uem_start = np.array([0.0, np.nan, 1.5, 0.0, 2.0, np.nan])
    uem_end = np.array([30.0, np.nan, 9.0, 80.0, 2.5, np.nan])
    for convention in CONVENTIONS:
        st_ = Settings(units="frames", frame=1.0, convention=convention)
        check(shows, ref_anns, hyp_anns, None, st_, (uem_start, uem_end))


def test_no_units_at_all_and_no_scored_show():
    shows, ref_anns, hyp_anns, _ = corpus(3, 4)
    check(shows, ref_anns, hyp_anns, None, Settings(units="file"))  # None
    check(shows, ref_anns, hyp_anns, {}, Settings(units="file"))  # warnings only


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
        check(shows, ref_anns, hyp_anns, units, Settings(units="file", convention=convention))


@hsettings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.sampled_from([None, 1, 3, 8, 40]),
    convention=st.sampled_from(UNIT_CONVENTIONS),
    grid=st.sampled_from([0.25, 0.5, 1.0]),
)
def test_random_corpora(seed, k, convention, grid):
    shows, ref_anns, hyp_anns, units = corpus(seed, grid=grid)
    check(shows, ref_anns, hyp_anns, units, Settings(units="file", k=k, convention=convention))


def raised(shows, units, ref, hyp, st_):
    """The message of the InputError corpus_unit_scores raises."""
    u_show, u_start, u_end = flat_units(shows, units)
    with pytest.raises(InputError) as error:
        corpus_unit_scores(
            ref,
            hyp,
            unit_show=u_show,
            unit_start=u_start,
            unit_end=u_end,
            shows=shows,
            settings=st_,
            region_start=np.zeros(len(shows)),
            region_end=np.full(len(shows), 60.0),
            region_ticks=edge_ticks(np.zeros(len(shows)), np.full(len(shows), 60.0)),
            name="sys",
        )
    return str(error.value)


@pytest.mark.filterwarnings("ignore::tvseg.errors.TvsegWarning")
@pytest.mark.parametrize(
    "case, message",
    [
        ("nan", "unit 2 has no valid [start, end]"),
        ("reversed", "unit 1 has no valid [start, end]"),
        ("unsorted", "units must be sorted by time; unit 2 starts before unit 1"),
        # the first show in error decides; in it, a unit without a valid span before an unsorted one
        ("unsorted_then_bad", "unit 3 has no valid [start, end]"),
    ],
)
def test_bad_units_raise_an_error_naming_the_unit(case, message):
    shows, ref_anns, hyp_anns, _ = corpus(11, 3)
    table = pd.DataFrame({"start": [0.0, 2.0, 4.0, 6.0], "end": [1.0, 3.0, 5.0, 7.0]})
    if case == "nan":
        table.loc[2, "end"] = np.nan
    elif case == "reversed":
        table.loc[1, "end"] = 1.5
    elif case == "unsorted":
        table.loc[2, ["start", "end"]] = [0.5, 0.7]  # midpoint 0.6, before unit 1's 2.5
    else:
        table.loc[1, ["start", "end"]] = [0.1, 0.2]  # unsorted: midpoint 0.15 before unit 0's 0.5
        table.loc[3, "end"] = -1.0  # and bad
    units = {"show00": pd.DataFrame({"start": [0.0], "end": [1.0]}), "show01": table, "show02": table}
    ref = from_segmentations(ref_anns, names=shows)
    hyp = from_segmentations(hyp_anns, names=shows)
    assert raised(shows, units, ref, hyp, Settings(units="file")).startswith(message)


@pytest.mark.filterwarnings("ignore::tvseg.errors.TvsegWarning")
@pytest.mark.parametrize("side", ["reference", "hypothesis"])
def test_overlapping_segments_raise_an_error(side):
    shows = ["a", "b"]
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
    pair = (broken, clean) if side == "reference" else (clean, broken)
    assert raised(shows, units, *pair, Settings(units="file")).startswith("segments of a segmentation must not overlap")


@hsettings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.sampled_from([None, 1, 2, 6]),
    convention=st.sampled_from(CONVENTIONS),
    frame=st.sampled_from([0.25, 0.5, 1.0, 1.5, 2.0, 6.0, 0.3]),
)
def test_random_corpora_in_frames(seed, k, convention, frame):
    shows, ref_anns, hyp_anns, _ = corpus(seed)
    check(shows, ref_anns, hyp_anns, None, Settings(units="frames", frame=frame, k=k, convention=convention))


def test_chunkseg_needs_frames():
    shows, ref_anns, hyp_anns, units = corpus(5, 3)
    ref = from_segmentations(ref_anns, names=shows)
    u_show, u_start, u_end = flat_units(shows, units)
    r_start, r_end = np.zeros(len(shows)), np.full(len(shows), 60.0)
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
            region_ticks=edge_ticks(r_start, r_end),
            name="sys",
        )
