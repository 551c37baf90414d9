"""tvseg.unit.edits_batch: GHD, S and B of many shows at once equal the per-show functions, row by row.

Every row is compared with ``==`` (not a tolerance) to ``ghd_components``, ``similarity_counts(n=2)``
and ``pair_counts(metric="B", convention="segeval", n=2)`` on the same masses; the hand-computed cases
are also checked against nltk 3.10.4's ``ghd`` and segeval 2.0.11 (``boundary_similarity``,
``segmentation_similarity``, ``boundary_statistics``), so that the expected values do not come from
the code under test alone.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.metrics import segmentation as nltk_seg

import tvseg.unit.edits_batch as edits_batch
from tvseg.errors import InputError
from tvseg.unit.edits_batch import boundary_edits_many, ghd_many
from tvseg.unit.ghd import ghd_components
from tvseg.unit.masses import boundary_positions, from_positions
from tvseg.unit.similarity import pair_counts, similarity_counts

segeval = pytest.importorskip("segeval")

KEYS = ("s_penalty", "s_potential", "b_penalty", "b_denominator")


def flat(pairs):
    """``(ref_pos, ref_offsets, hyp_pos, hyp_offsets, n_units)`` of a list of (ref masses, hyp masses)."""
    out = []
    for side in (0, 1):
        pos = [boundary_positions(np.asarray(p[side], dtype=np.int64)) for p in pairs]
        offsets = np.concatenate(([0], np.cumsum([p.size for p in pos]))).astype(np.int64)
        out += [np.concatenate(pos) if pos else np.zeros(0, np.int64), offsets]
    return (*out, np.array([int(np.sum(p[0])) for p in pairs], dtype=np.int64))


def per_show(ref, hyp, costs=(2.0, 2.0, 1.0)):
    ref, hyp = np.asarray(ref, dtype=np.int64), np.asarray(hyp, dtype=np.int64)
    g = ghd_components(ref, hyp, ins_cost=costs[0], del_cost=costs[1], shift_cost_coeff=costs[2])
    s = similarity_counts(ref, hyp, n=2)
    b = pair_counts(
        boundary_positions(ref), boundary_positions(hyp), int(ref.sum()) - 1, metric="B", convention="segeval", n=2
    )
    return g.distance, g.positions, s[0], s[1], b[0], b[1]


def assert_rows_equal(pairs, costs=(2.0, 2.0, 1.0)):
    args = flat(pairs)
    distance, positions = ghd_many(*args, ins_cost=costs[0], del_cost=costs[1], shift_cost_coeff=costs[2])
    counts = boundary_edits_many(*args)
    assert distance.dtype == np.float64 and positions.dtype == np.int64 and distance.shape == (len(pairs),)
    assert all(counts[k].dtype == np.float64 and counts[k].shape == (len(pairs),) for k in KEYS)
    for k, (ref, hyp) in enumerate(pairs):
        expected = per_show(ref, hyp, costs)
        got = (distance[k], positions[k], *(counts[key][k] for key in KEYS))
        assert got == expected, (k, list(ref), list(hyp), got, expected)
        if costs == (2.0, 2.0, 1.0):
            assert distance[k] == int(distance[k])  # integer costs on integer positions
        assert counts["b_denominator"][k] == int(counts["b_denominator"][k])
        assert 2 * counts["b_penalty"][k] == int(2 * counts["b_penalty"][k])
    return distance, positions, counts


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


def nltk_string(masses):
    return "1".join("0" * (m - 1) for m in masses)


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
    distance, positions, counts = assert_rows_equal(pairs)
    for k, (ref, hyp, g, f, t, m) in enumerate(HAND):
        pbs = sum(ref) - 1
        assert (distance[k], positions[k]) == (g, pbs)
        assert tuple(counts[key][k] for key in KEYS) == (f + t, pbs, f + t / 2, f + t + m)
        assert nltk_seg.ghd(nltk_string(ref), nltk_string(hyp)) == g
        stats = segeval.boundary_statistics(ref, hyp, n_t=2)
        assert (len(stats["additions"]), len(stats["transpositions"]), len(stats["matches"])) == (f, t, m)
        assert float(segeval.boundary_similarity(ref, hyp, n_t=2)) == pytest.approx(1 - (f + t / 2) / (f + t + m))
        # segeval's S weighs a 2-wise transposition 1/2 PB: its penalty is B's, over the N - 1 PBs
        assert float(segeval.segmentation_similarity(ref, hyp, n_t=2)) == pytest.approx(1 - (f + t / 2) / pbs)


def test_one_unit_shows_and_an_empty_corpus():
    distance, positions, counts = assert_rows_equal([((1,), (1,)), ((2,), (1, 1)), ((1, 1), (1, 1))])
    assert distance.tolist() == [0.0, 2.0, 0.0] and positions.tolist() == [0, 1, 1]
    assert counts["s_potential"].tolist() == [0.0, 1.0, 1.0] and counts["b_denominator"].tolist() == [0.0, 1.0, 1.0]
    empty = (
        np.zeros(0, np.int64),
        np.zeros(1, np.int64),
        np.zeros(0, np.int64),
        np.zeros(1, np.int64),
        np.zeros(0, np.int64),
    )
    d, p = ghd_many(*empty)
    assert d.shape == p.shape == (0,)
    assert all(v.shape == (0,) for v in boundary_edits_many(*empty).values())


# --------------------------------------------------------------------------------------------
# Random corpora


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_corpora_equal_the_per_show_functions(seed):
    rng = np.random.default_rng(seed)
    assert_rows_equal([random_show(rng) for _ in range(400)])


def test_transpositions_and_matches_equal_segevals_on_a_random_corpus():
    rng = np.random.default_rng(7)
    pairs = [random_show(rng) for _ in range(150)]
    pairs = [(r, h) for r, h in pairs if r.size > 1 or h.size > 1]  # segeval refuses two without boundaries
    counts = boundary_edits_many(*flat(pairs))
    for k, (ref, hyp) in enumerate(pairs):
        stats = segeval.boundary_statistics(tuple(ref.tolist()), tuple(hyp.tolist()), n_t=2)
        a, t, m = len(stats["additions"]), len(stats["transpositions"]), len(stats["matches"])
        assert (counts["b_penalty"][k], counts["b_denominator"][k]) == (a + t / 2, a + t + m)
        assert counts["s_penalty"][k] == a + t


@pytest.mark.parametrize("costs", [(1.0, 1.0, 0.5), (0.5, 3.25, 2.0), (1.7, 0.3, 0.9), (0.1, 2.0, 1.3)])
def test_other_costs(costs):
    rng = np.random.default_rng(11)
    assert_rows_equal([random_show(rng) for _ in range(150)], costs)


def test_both_orders_of_the_ghd_programme_agree(monkeypatch):
    rng = np.random.default_rng(12)
    pairs = [random_show(rng) for _ in range(200)]
    rows, _ = ghd_many(*flat(pairs))
    monkeypatch.setattr(edits_batch, "_exact", lambda *a: False)  # nltk's order, one anti-diagonal at a time
    diagonals, _ = ghd_many(*flat(pairs))
    assert (rows == diagonals).all()
    assert_rows_equal(pairs)


def test_a_show_with_many_boundaries_gets_a_block_of_its_own(monkeypatch):
    assert edits_batch._blocks(np.array([0, 1, 1, 3, 2000]), cells=4000) == [(0, 4), (4, 5)]
    assert edits_batch._blocks(np.array([5000, 5000]), cells=4000) == [(0, 1), (1, 2)]
    assert edits_batch._blocks(np.zeros(0, np.int64)) == []
    rng = np.random.default_rng(13)
    n = 2400
    ref = np.sort(rng.choice(np.arange(1, n), 1100, replace=False))
    hyp = np.unique(np.clip(ref + rng.choice([-1, 0, 1, 5], ref.size), 1, n - 1))
    long_show = (from_positions(ref, n), from_positions(hyp, n))
    pairs = [random_show(rng) for _ in range(120)]
    assert_rows_equal(pairs[:60] + [long_show] + pairs[60:])  # one block: 121 shows x 1,101
    blocks = edits_batch._blocks
    seen = []
    monkeypatch.setattr(edits_batch, "_blocks", lambda size: seen.append(blocks(size, cells=2000)) or seen[-1])
    assert_rows_equal(pairs[:60] + [long_show] + pairs[60:])
    assert len(seen[0]) > 2 and seen[0][-1][1] - seen[0][-1][0] == 1  # the long show alone, last
    assert_rows_equal([long_show, pairs[0]], (1.3, 0.7, 0.2))


def test_exactness_test_of_the_costs():
    assert edits_batch._exact(2.0, 2.0, 1.0, 40, 40, 10**6)
    assert edits_batch._exact(0.5, 1.25, 0.75, 40, 40, 10**6)
    assert not edits_batch._exact(0.1, 2.0, 1.0, 40, 40, 400)  # 0.1 is not a short binary fraction
    assert not edits_batch._exact(2.0, 2.0, 1.0, 40, 40, 2**50)  # sums beyond 2**52


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


@settings(max_examples=150, deadline=None)
@given(
    st.lists(show_pair(), max_size=12),
    st.sampled_from([(2.0, 2.0, 1.0), (1.0, 1.0, 0.5), (1.3, 0.7, 0.2), (0.0, 2.0, 1.0)]),
)
def test_property_rows_equal_the_per_show_functions(pairs, costs):
    assert_rows_equal(pairs, costs)


# --------------------------------------------------------------------------------------------
# Inputs


def test_bad_inputs_raise():
    rp, ro, hp, ho, n = flat([((3, 5, 2), (4, 6)), ((2, 2), (4,))])
    with pytest.raises(InputError, match="ref_offsets"):
        ghd_many(rp, ro[:-1], hp, ho, n)
    with pytest.raises(InputError, match="hyp_offsets"):
        boundary_edits_many(rp, ro, hp, ho + 1, n)
    with pytest.raises(InputError, match="1 .. N - 1"):
        boundary_edits_many(rp, ro, hp, ho, n - 2)
    with pytest.raises(InputError, match="show 0 must increase"):
        ghd_many(rp[[1, 0, 2]], ro, hp, ho, n)  # 8, 3 in show 0
    with pytest.raises(InputError, match="show 1 must increase"):
        ghd_many(rp, ro, np.array([4, 6, 4, 4]), np.array([0, 2, 4]), n + 4)
    with pytest.raises(InputError, match="n_units"):
        ghd_many(rp, ro, hp, ho, n * 0)
    with pytest.raises(InputError, match="ins_cost"):
        ghd_many(rp, ro, hp, ho, n, ins_cost=-1.0)
    with pytest.raises(InputError, match="integer"):
        ghd_many(rp.astype(float), ro, hp, ho, n)
