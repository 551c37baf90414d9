"""The GHD and edit-distance kernels over many pairs at once (a corpus of shows): every row equals
nltk 3.10.4's ``ghd`` and segeval 2.0.11's additions, transpositions and matches of that pair
(``boundary_statistics``), exactly, and the hand-computed cases below."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.metrics import segmentation as nltk_seg

from tvseg.unit.edits import edit_counts, transpositions
from tvseg.unit.ghd import ghd_counts
from tvseg.unit.masses import BoundaryPairs, boundary_positions, from_positions
from tvseg.unit.similarity import pair_counts

segeval = pytest.importorskip("segeval")

KEYS = ("s_penalty", "s_potential", "b_penalty", "b_denominator")


def as_pairs(pairs):
    """The pairs of masses ``[(ref, hyp), ...]`` as the kernels take them."""
    sides = [[boundary_positions(np.asarray(p[side], dtype=np.int64)) for p in pairs] for side in (0, 1)]
    offsets = [np.concatenate(([0], np.cumsum([p.size for p in side]))).astype(np.int64) for side in sides]
    positions = [np.concatenate(side) if side else np.zeros(0, np.int64) for side in sides]
    n = np.array([int(np.sum(p[0])) for p in pairs], dtype=np.int64)
    return BoundaryPairs(n, positions[0], offsets[0], positions[1], offsets[1])


def kernels(pairs, costs=(2.0, 2.0, 1.0)):
    """GHD, and S's and B's counts (n = 2), of every pair in one call each."""
    flat = as_pairs(pairs)
    distance = ghd_counts(flat, *costs)
    edits = edit_counts(flat, transpositions(flat, n=2))
    s = pair_counts(flat, edits=edits)
    b = pair_counts(flat, metric="B", convention="segeval", edits=edits)
    return distance, dict(zip(KEYS, (*s, *b)))


def nltk_string(masses):
    return "1".join("0" * (m - 1) for m in masses)


def statistics(ref, hyp):
    """segeval's additions, transpositions and matches (it refuses two segmentations without any
    boundary, which have none of the three)."""
    if len(ref) == len(hyp) == 1:
        return 0, 0, 0
    stats = segeval.boundary_statistics(tuple(int(x) for x in ref), tuple(int(x) for x in hyp), n_t=2)
    return len(stats["additions"]), len(stats["transpositions"]), len(stats["matches"])


def assert_rows_equal_the_tools(pairs, costs=(2.0, 2.0, 1.0)):
    distance, counts = kernels(pairs, costs)
    assert distance.dtype == np.float64 and distance.shape == (len(pairs),)
    assert all(counts[k].dtype == np.float64 and counts[k].shape == (len(pairs),) for k in KEYS)
    for k, (ref, hyp) in enumerate(pairs):
        want = nltk_seg.ghd(nltk_string(ref), nltk_string(hyp), *costs) if sum(ref) > 1 else 0.0
        assert distance[k] == want, (k, list(ref), list(hyp), distance[k], want)
        a, t, m = statistics(ref, hyp)
        # S: a 2-wise transposition costs te(2, 2) = 1 PB; B: |span - 1| / 2 = 1/2
        assert tuple(counts[key][k] for key in KEYS) == (a + t, sum(ref) - 1, a + t / 2, a + t + m), k
    return distance, counts


def random_show(rng):
    """One show pair of the kinds the issue lists: 1 or 2 units, no boundary, identical, near misses."""
    kind = rng.choice(["tiny", "empty", "same", "near", "free", "dense"])
    n = int(rng.integers(1, 3)) if kind == "tiny" else int(rng.integers(3, 420))
    cap = min(n - 1, 40)
    ref = np.sort(rng.choice(np.arange(1, n), int(rng.integers(0, cap + 1)), replace=False)) if n > 1 else []
    ref = np.asarray(ref, dtype=np.int64)
    if kind == "empty":
        hyp, ref = (ref, np.zeros(0, np.int64)) if rng.random() < 0.5 else (np.zeros(0, np.int64), ref)
    elif kind == "same":
        hyp = ref.copy()
    elif kind in ("near", "dense"):
        moved = ref + rng.choice([-2, -1, 0, 0, 1, 1], ref.size)
        extra = rng.integers(1, n, int(rng.integers(0, 4))) if n > 1 else []
        hyp = np.unique(np.clip(np.concatenate([moved, extra]), 1, max(n - 1, 1))).astype(np.int64)
        hyp = hyp[(hyp >= 1) & (hyp <= n - 1)][:40]
        if kind == "dense":  # every PB of a stretch: long chains of candidate transpositions
            lo = int(rng.integers(1, max(n - 20, 2)))
            ref = np.arange(lo, min(lo + 20, n), 2)
            hyp = np.arange(lo + 1, min(lo + 21, n), 2 if rng.random() < 0.7 else 1)
    else:
        hyp = np.sort(rng.choice(np.arange(1, n), int(rng.integers(0, cap + 1)), replace=False)) if n > 1 else []
    return from_positions(ref, n), from_positions(hyp, n)


# --------------------------------------------------------------------------------------------
# Hand-computed cases, checked against nltk and segeval as well


HAND = [  # ref masses, hyp masses, GHD (costs 2, 2, 1), F additions, T transpositions, M matches
    # ref (3, 5, 2): boundaries at 3, 8 of N = 10; hyp (4, 3, 1, 2): 4, 7, 8.
    # S/B: 8 matches (M = 1); 3 (ref) and 4 (hyp) are one PB apart: a transposition (T = 1); 7 is an
    # addition (F = 1). S penalty F + T = 2 of 9 PBs; B penalty F + T/2 = 1.5 over F + T + M = 3 (B = 0.5).
    # GHD, rows h = 4, 7, 8 and columns r = 3, 8, M[0, j] = 2j, M[i, 0] = 2i:
    #   M[1,1] = min(1 + 0, 2 + M[0,1]=2) = 1      M[1,2] = min(4 + M[0,1]=2, 2 + M[1,1]) = 3
    #   M[2,1] = min(4 + M[1,0]=2, 2 + M[1,1]) = 3  M[2,2] = min(1 + M[1,1], 2 + M[2,1]) = 2
    #   M[3,1] = min(5 + M[2,0]=4, 2 + M[2,1]) = 5  M[3,2] = M[2,1] = 3   (h = r)      -> GHD 3
    ((3, 5, 2), (4, 3, 1, 2), 3.0, 1, 1, 1),
    # ref (2, 2, 2): 2, 4 of N = 6; hyp (3, 3): 3. Two candidate transpositions share 3; the leftmost,
    # (2, 3), is taken and 4 is an addition: F = 1, T = 1, M = 0; B = 1 - 1.5 / 2 = 0.25.
    # GHD: M[1,1] = min(1 + 0, 2 + 2) = 1, M[1,2] = min(1 + M[0,1]=2, 2 + M[1,1]) = 3.
    ((2, 2, 2), (3, 3), 3.0, 1, 1, 0),
    # no reference boundary, one hypothesis boundary: one addition; GHD deletes it (cost 2)
    ((5,), (2, 3), 2.0, 1, 0, 0),
    # identical: nothing to edit; B counts the two matches
    ((1, 4, 2), (1, 4, 2), 0.0, 0, 0, 2),
    # 1, 3 against 2, 4 (N = 5): a chain of three candidates, (1,2) and (3,4) taken, (2,3) not: T = 2.
    # GHD: M[1,1] = 1, M[1,2] = min(1 + M[0,1]=2, 2 + 1) = 3, M[2,1] = min(3 + M[1,0]=2, 2 + 1) = 3,
    # M[2,2] = min(1 + M[1,1], 2 + M[2,1]) = 2
    ((1, 2, 2), (2, 2, 1), 2.0, 0, 2, 0),
]


def test_hand_computed_cases_and_nltk_and_segeval_agree():
    pairs = [(ref, hyp) for ref, hyp, *_ in HAND]
    distance, counts = assert_rows_equal_the_tools(pairs)
    for k, (ref, hyp, g, f, t, m) in enumerate(HAND):
        pbs = sum(ref) - 1
        assert distance[k] == g
        assert tuple(counts[key][k] for key in KEYS) == (f + t, pbs, f + t / 2, f + t + m)
        assert nltk_seg.ghd(nltk_string(ref), nltk_string(hyp)) == g
        stats = segeval.boundary_statistics(ref, hyp, n_t=2)
        assert (len(stats["additions"]), len(stats["transpositions"]), len(stats["matches"])) == (f, t, m)
        assert float(segeval.boundary_similarity(ref, hyp, n_t=2)) == pytest.approx(1 - (f + t / 2) / (f + t + m))
        # segeval's S weighs a 2-wise transposition 1/2 PB: its penalty is B's, over the N - 1 PBs
        assert float(segeval.segmentation_similarity(ref, hyp, n_t=2)) == pytest.approx(1 - (f + t / 2) / pbs)


def test_one_unit_shows_and_an_empty_corpus():
    distance, counts = assert_rows_equal_the_tools([((1,), (1,)), ((2,), (1, 1)), ((1, 1), (1, 1))])
    assert distance.tolist() == [0.0, 2.0, 0.0]
    assert counts["s_potential"].tolist() == [0.0, 1.0, 1.0] and counts["b_denominator"].tolist() == [0.0, 1.0, 1.0]
    distance, counts = kernels([])
    assert distance.shape == (0,) and all(v.shape == (0,) for v in counts.values())


# --------------------------------------------------------------------------------------------
# Random corpora


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_corpora_equal_the_tools(seed):
    rng = np.random.default_rng(seed)
    assert_rows_equal_the_tools([random_show(rng) for _ in range(300)])


@pytest.mark.parametrize("costs", [(1.0, 1.0, 0.5), (0.5, 3.25, 2.0), (1.7, 0.3, 0.9), (0.1, 2.0, 1.3)])
def test_other_costs(costs):
    # costs that are short binary fractions run the programme row by row, the others in nltk's own
    # order (module docstring of tvseg.unit.ghd): equal to nltk either way
    rng = np.random.default_rng(11)
    assert_rows_equal_the_tools([random_show(rng) for _ in range(150)], costs)


def test_a_show_with_many_boundaries_among_many_short_ones():
    # 1,400 short shows and one of 800 boundaries: padded to one width they would hold more than a
    # million values, so the long show is run on its own; every row still equals nltk's
    rng = np.random.default_rng(13)
    n = 2000
    ref = np.sort(rng.choice(np.arange(1, n), 800, replace=False))
    hyp = np.unique(np.clip(ref + rng.choice([-1, 0, 1, 5], ref.size), 1, n - 1))
    long_show = (from_positions(ref, n), from_positions(hyp, n))
    short = [(from_positions([2, 5], 9), from_positions([3, 5, 7], 9)), (from_positions([], 4), from_positions([1], 4))]
    pairs = short * 700 + [long_show]
    for costs in ((2.0, 2.0, 1.0), (1.3, 0.7, 0.2)):
        distance = ghd_counts(as_pairs(pairs), *costs)
        want = [nltk_seg.ghd(nltk_string(r), nltk_string(h), *costs) for r, h in short + [long_show]]
        assert distance[:2].tolist() == want[:2] and (distance[:-1].reshape(-1, 2) == want[:2]).all()
        assert distance[-1] == want[-1]


@st.composite
def show_pair(draw):
    n = draw(st.integers(1, 60))
    gaps = st.integers(1, max(n - 1, 1))
    ref = sorted(draw(st.sets(gaps, max_size=min(n - 1, 40)))) if n > 1 else []
    kind = draw(st.sampled_from(["free", "near", "same"]))
    if kind == "same":
        hyp = list(ref)
    elif kind == "near":
        moves = draw(st.lists(st.integers(-2, 2), min_size=len(ref), max_size=len(ref)))
        hyp = sorted({min(max(p + d, 1), n - 1) for p, d in zip(ref, moves)})
    else:
        hyp = sorted(draw(st.sets(gaps, max_size=min(n - 1, 40)))) if n > 1 else []
    return from_positions(ref, n), from_positions(hyp, n)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(show_pair(), max_size=12),
    st.sampled_from([(2.0, 2.0, 1.0), (1.0, 1.0, 0.5), (1.3, 0.7, 0.2), (0.0, 2.0, 1.0)]),
)
def test_property_rows_equal_the_tools(pairs, costs):
    assert_rows_equal_the_tools(pairs, costs)
