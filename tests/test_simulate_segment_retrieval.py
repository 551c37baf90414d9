"""The segment retrieval study (``tvseg simulate segment-retrieval``): hand-worked cases of each injected
error, the error generators, and the study's qualitative claims (Bouchekif et al. 2015, section 4).

Notation: a segment of duration d split by a boundary at u d (u the larger share) leaves its larger part
correct at gamma = 0.85 when 2 u / (1 + u) > 0.85, i.e. u > 0.85 / 1.15 = 0.73913; a segment whose ends
move inwards or outwards by s seconds in total has coverage between 2 (d - s) / (2 d - s) and
2 d / (2 d + s), so it stays correct when s < 2 d (1 - gamma) / (2 - gamma) = 0.26087 d.
"""

import json
import math

import numpy as np
import pytest

from tvseg.cli import main
from tvseg.simulate import segment_retrieval as sr
from tvseg.simulate.study import experiment_rng

U_MIN = 0.85 / 1.15  # 0.73913: the larger share that keeps a split segment correct
SPOIL_INS = 2 * U_MIN - 1  # P(max(u, 1 - u) <= U_MIN) for u ~ U(0, 1): 0.47826
SHIFT_SAFE = 2 * 0.15 / 1.15  # 0.26087: s / d below which a segment whose ends moved stays correct


def reference(*shows):
    """A Reference from ``(cuts, length)`` per show (all in one trial)."""
    show = np.concatenate([np.full(len(c), i) for i, (c, _) in enumerate(shows)]).astype(int)
    time = np.concatenate([np.asarray(c, float) for c, _ in shows])
    length = np.array([float(n) for _, n in shows])
    segments = sr.hypothesis_segments(show, time, length)
    return sr.Reference(segments=segments, length=length, trial=np.zeros(len(shows), dtype=int))


def scored(ref, cuts):
    hyp = sr.hypothesis_segments(np.zeros(len(cuts), dtype=int), np.asarray(cuts, float), ref.length)
    return sr.score(ref, hyp, gamma=0.85, tolerances=(10.0,)).iloc[0]


# ---------------------------------------------------------------------------------------------
# Hand-worked cases: one injected error in a small show (timelines in seconds).

THREE = ([100, 200], 300)  # R1 [0,100)  R2 [100,200)  R3 [200,300)


def test_insertion_in_the_middle_spoils_its_segment():
    # R: |   R1   |   R2   |   R3   |       H: |   H1   | H2 | H3 |   H4   |
    #    0       100      200      300            0     100  150  200     300
    # R2 <-> H2 (or H3): 2 * 50 / (100 + 50) = 0.667 < 0.85: R2, H2, H3 incorrect.
    # R_N = 2/3, P_N = 2/4, CovN = 2 (2/3)(1/2) / (2/3 + 1/2) = 4/7; R_D = 200/300 = P_D, CovD = 2/3.
    # Boundaries: ref {100, 200}, hyp {100, 150, 200}: R = 1, P = 2/3, F = 0.8.
    m = scored(reference(THREE), [100, 150, 200])
    assert m["recall_n"] == pytest.approx(2 / 3) and m["precision_n"] == pytest.approx(1 / 2)
    assert m["cov_n"] == pytest.approx(4 / 7)
    assert m["cov_d"] == pytest.approx(2 / 3)
    assert m["boundary_f1_10s"] == pytest.approx(0.8)


def test_insertion_near_an_edge_costs_precision_only():
    # H: |   H1   |H2|    H3   |   H4   |   (false boundary at 110, 10 % into R2)
    #    0      100 110       200     300
    # R2 <-> H3: 2 * 90 / (100 + 90) = 0.947 > 0.85: every reference segment is correct, H2 is not.
    # R_N = 3/3, P_N = 3/4, CovN = 2 (3/4) / (7/4) = 6/7; R_D = 1, P_D = 290/300, CovD = 58/59.
    # Boundary F is 0.8, as for the insertion in the middle: it cannot tell the two apart.
    m = scored(reference(THREE), [100, 110, 200])
    assert m["recall_n"] == 1.0 and m["precision_n"] == pytest.approx(3 / 4)
    assert m["cov_n"] == pytest.approx(6 / 7)
    assert m["cov_d"] == pytest.approx(58 / 59)
    assert m["boundary_f1_10s"] == pytest.approx(0.8)


def test_false_segment_across_a_boundary_spoils_both_neighbours():
    # Bouchekif et al.'s third case (the edge effect): boundary 200 replaced by [170, 230).
    # H: |   H1   |  H2  |  H3  |  H4  |
    #    0      100    170    230    300
    # R2 <-> H2: 2 * 70 / (100 + 70) = 0.824 < 0.85; R3 <-> H4: the same; H3 overlaps R2 and R3 by 30:
    # 2 * 30 / (100 + 60) = 0.375. Only R1/H1 is correct: R_N = 1/3, P_N = 1/4, CovN = 2/7;
    # R_D = 100/300, P_D = 100/300, CovD = 1/3. Boundaries: ref {100, 200}, hyp {100, 170, 230}
    # (30 s from 200, beyond 10 s): R = 1/2, P = 1/3, F = 0.4.
    m = scored(reference(THREE), [100, 170, 230])
    assert m["recall_n"] == pytest.approx(1 / 3) and m["precision_n"] == pytest.approx(1 / 4)
    assert m["cov_n"] == pytest.approx(2 / 7)
    assert m["cov_d"] == pytest.approx(1 / 3)
    assert m["boundary_f1_10s"] == pytest.approx(0.4)


FOUR = ([100, 120, 220], 320)  # R1 [0,100)  R2 [100,120) (a 20-s brief)  R3 [120,220)  R4 [220,320)


def test_missed_short_segment_is_penalised_less_than_missed_long_one():
    # Missing the brief R2 (boundary 120 deleted): H: [0,100) [100,220) [220,320).
    # R3 <-> H2: 2 * 100 / (100 + 120) = 0.909 > 0.85, correct; R2 <-> H2: 2 * 20 / 140 = 0.286.
    # R_N = 3/4, P_N = 3/3, CovN = 2 (3/4) / (7/4) = 6/7; R_D = 300/320, P_D = 1, CovD = 30/31.
    short = scored(reference(FOUR), [100, 220])
    assert short["cov_n"] == pytest.approx(6 / 7)
    assert short["cov_d"] == pytest.approx(30 / 31)
    # Missing R4, merged with R3 (boundary 220 deleted): H: [0,100) [100,120) [120,320).
    # R3 <-> H3 and R4 <-> H3: 2 * 100 / (100 + 200) = 0.667: both lost, and H3 too.
    # R_N = 2/4, P_N = 2/3, CovN = 2 (1/2)(2/3) / (7/6) = 4/7; R_D = P_D = 120/320, CovD = 3/8.
    long = scored(reference(FOUR), [100, 120])
    assert long["cov_n"] == pytest.approx(4 / 7)
    assert long["cov_d"] == pytest.approx(3 / 8)
    # Boundary F: one boundary missed out of three in both cases: R = 2/3, P = 1, F = 0.8.
    assert short["boundary_f1_10s"] == pytest.approx(0.8) == long["boundary_f1_10s"]


def test_pooled_over_shows_and_split_by_length():
    # Two shows in one trial: THREE scored perfectly, FOUR with its brief missed (as above).
    # Pooled: 7 reference segments, 6 correct; 6 hypothesis segments, all correct.
    # R_N = 6/7, P_N = 1; briefs (< 30 s): 1, none correct: R_N<30 = 0; long: 6/6.
    ref = reference(THREE, FOUR)
    hyp = sr.hypothesis_segments(np.array([0, 0, 1, 1]), np.array([100.0, 200, 100, 220]), ref.length)
    m = sr.score(ref, hyp, tolerances=(10.0,), events=np.array([0.0, 1.0])).iloc[0]
    assert m["recall_n"] == pytest.approx(6 / 7) and m["precision_n"] == 1.0
    assert m["recall_n_short"] == 0.0 and m["recall_n_long"] == 1.0
    assert m["errors"] == pytest.approx(1 / 7)


# ---------------------------------------------------------------------------------------------
# The error generators on a fixed reference.


def boundaries_of(segments):
    off = segments.offsets()
    first = np.zeros(len(segments), bool)
    first[off[:-1]] = True
    return segments.show[~first], segments.start[~first]


@pytest.mark.parametrize("errors", ["DEL", "MISS-short", "MISS-long", "INS", "INS-edge", "INS-across", "DEL+INS"])
def test_probability_zero_leaves_the_reference(errors):
    ref = sr.draw_references(np.random.default_rng(1), 20)
    hyp, events = sr.inject(np.random.default_rng(2), ref, errors, 0.0)
    assert np.array_equal(hyp.start, ref.segments.start) and np.array_equal(hyp.end, ref.segments.end)
    assert events.sum() == 0


def test_generators_with_probability_one():
    ref = reference(FOUR, THREE)
    rng = np.random.default_rng(3)
    hyp, _ = sr.inject(rng, ref, "DEL", 1.0)
    assert len(hyp) == 2  # one segment per show
    seen = set()
    for _ in range(20):
        # MISS-short: only the brief R2 of show 0 is eligible; one of its boundaries (100 or 120) goes
        hyp, events = sr.inject(rng, ref, "MISS-short", 1.0)
        show, time = boundaries_of(hyp)
        kept = time[show == 0].tolist()
        assert kept in ([120.0, 220.0], [100.0, 220.0]) and events.tolist() == [1, 0]
        seen.add(tuple(kept))
        assert time[show == 1].tolist() == [100.0, 200.0]
        # INS-edge: every segment gets one boundary within 20 % of one of its edges
        hyp, events = sr.inject(rng, ref, "INS-edge", 1.0)
        show, time = boundaries_of(hyp)
        assert events.tolist() == [4, 3] and len(time) == 5 + 7
        for s, (cuts, length) in enumerate((FOUR, THREE)):
            edges = np.array([0, *cuts, length], float)
            new = np.setdiff1d(time[show == s], cuts)
            k = np.searchsorted(edges, new) - 1  # the segment each new boundary falls in
            d = edges[k + 1] - edges[k]
            near = np.minimum(new - edges[k], edges[k + 1] - new)
            assert len(new) == len(cuts) + 1 and (near <= 0.2 * d).all()
        # INS-across: each boundary b replaced by b - a, b + c within the adjacent halves
        hyp, events = sr.inject(rng, ref, "INS-across", 1.0)
        show, time = boundaries_of(hyp)
        t = time[show == 1]  # THREE: boundaries 100 and 200, segments of 100 s
        assert events.tolist() == [3, 2] and len(t) == 4
        assert 50 <= t[0] <= 100 <= t[1] <= 150 <= t[2] <= 200 <= t[3] <= 250
    assert len(seen) == 2  # the brief merged left or right at random (both missed: 2 * 0.5^20)


def test_shift_keeps_boundaries_inside_and_moves_them_by_sigma():
    ref = sr.draw_references(np.random.default_rng(4), 300)
    hyp, _ = sr.inject(np.random.default_rng(5), ref, "SHIFT5", 1.0)
    r_show, r_time = boundaries_of(ref.segments)
    h_show, h_time = boundaries_of(hyp)
    assert len(h_time) == len(r_time)  # no boundary lost (ties have probability zero)
    assert ((h_time > 0) & (h_time < ref.length[h_show])).all()
    # boundaries keep their order when they do not cross (briefs of 10 s rarely cross at sigma 5):
    # the sample sd of the moves, over ~3,000 boundaries, is within 5 % of sigma (its sd is
    # sigma / sqrt(2 n) ~ 1.3 %); crossings and redraws at the show edges shrink it a little
    assert np.std(h_time - r_time) == pytest.approx(5.0, rel=0.05)


def test_same_seed_same_numbers_and_experiments_independent():
    a = sr.run(trials=2, n_shows=10, seed=11, tables=("insertion",))
    b = sr.run(trials=2, n_shows=10, seed=11)
    assert [c for c in b if c.table == "insertion"] == a
    c = sr.run(trials=2, n_shows=10, seed=12, tables=("insertion",))
    assert [x.value for x in c] != [x.value for x in a]


# ---------------------------------------------------------------------------------------------
# Per-error expectations derived by hand, on a large drawn reference.


@pytest.fixture(scope="module")
def big_reference():
    return sr.draw_references(experiment_rng(6, "test", "reference"), 1000)


def spoiled_per_event(ref, errors, p, seed):
    hyp, events = sr.inject(experiment_rng(seed, "test", errors, p), ref, errors, p)
    m = sr.score(ref, hyp, tolerances=(10.0,), events=events).iloc[0]
    n_ref = len(ref.segments)
    return (1 - m["recall_n"]) * n_ref / events.sum(), events.sum(), m


def test_uniform_insertion_spoils_its_segment_with_probability_0478(big_reference):
    # each event splits a different segment at u ~ U(0, 1): spoiled with probability 0.47826; the
    # observed share over n events has sd sqrt(0.478 * 0.522 / n) (n ~ 2,800 here: 0.0095); 4 sd
    per_event, n, _ = spoiled_per_event(big_reference, "INS", 0.25, 1)
    assert abs(per_event - SPOIL_INS) <= 4 * math.sqrt(SPOIL_INS * (1 - SPOIL_INS) / n)


def test_insertion_near_an_edge_never_spoils_a_reference_segment(big_reference):
    # the larger part keeps at least 80 % > 73.9 % of the segment
    per_event, n, m = spoiled_per_event(big_reference, "INS-edge", 0.5, 2)
    assert n > 1000 and m["recall_n"] == 1.0 and per_event == 0.0


def test_false_segment_across_a_boundary_spoils_two_neighbours_per_event(big_reference):
    # The edge effect. A segment cut at one end by a ~ U(0, d/2) stays correct iff a < 0.26087 d:
    # spoiled with probability 1 - 0.26087 / 0.5 = 0.47826. Cut at both ends (a + c < 0.26087 d
    # with a/d, c/d ~ U(0, 1/2)): kept with probability 2 * 0.26087^2 = 0.1361. With n segments in a
    # show (2 at its edges, n - 2 inside, n - 1 boundaries), the expected spoiled segments are
    #   2 p 0.478 + (n - 2) (2 p (1 - p) 0.478 + p^2 (1 - 0.1361)),
    # for p (n - 1) expected events; pooled over the shows this is the expected count per event.
    # Per event the count is 0, 1 or 2 (variance <= 1): 4 sd of the mean is 4 / sqrt(events).
    p = 0.25
    ref = big_reference
    n = np.bincount(ref.segments.show)
    kept_both = 2 * SHIFT_SAFE**2
    expected = (2 * p * SPOIL_INS + (n - 2) * (2 * p * (1 - p) * SPOIL_INS + p * p * (1 - kept_both))).sum()
    expected /= (p * (n - 1)).sum()
    per_event, events, _ = spoiled_per_event(ref, "INS-across", p, 3)
    assert abs(per_event - expected) <= 4 / math.sqrt(events)
    assert expected > 1.9 * SPOIL_INS  # about twice the loss of an insertion inside a segment


def test_insertions_move_boundary_f_alike_whatever_their_position(big_reference):
    # every inserted boundary is one unmatched hypothesis boundary (the reference boundary keeps its
    # exact copy), so R = 1 and P = B / (B + events), F = 2 B / (2 B + events) for B reference boundaries,
    # while CovN tells a split in the middle from a small false segment at an edge
    b = len(big_reference.segments) - big_reference.segments.n_shows
    covn = {}
    for errors in ("INS", "INS-edge"):
        hyp, events = sr.inject(np.random.default_rng(7), big_reference, errors, 0.25)
        m = sr.score(big_reference, hyp, tolerances=(10.0,), events=events).iloc[0]
        assert m["boundary_f1_10s"] == pytest.approx(2 * b / (2 * b + events.sum()))
        covn[errors] = m["cov_n"]
    assert covn["INS-edge"] - covn["INS"] > 0.05


# ---------------------------------------------------------------------------------------------
# The study's claims (section 4 of the paper), on a reduced run.

TRIALS = 5


@pytest.fixture(scope="module")
def cells():
    found = {}
    for c in sr.run(trials=TRIALS, n_shows=150, seed=2015):
        found[c.errors, c.p, c.metric] = c
    return found


def test_the_study_has_every_experiment_and_metric(cells):
    metrics = {*sr.METRICS, "boundary_f1_10s", "boundary_f1_5s", "errors"}
    assert {(e, p) for e, p, _ in cells} == {(e, p) for _, e, p in sr.experiments()}
    assert {m for _, _, m in cells} == metrics
    assert len(cells) == len(sr.experiments()) * len(metrics) == 28 * 11
    assert all(c.published is None and c.range == (10, 240) for c in cells.values())


def test_a_larger_p_never_raises_covn_or_covd(cells):
    # "never raises" within noise: the difference of two means over TRIALS independent trials has
    # standard error sqrt(sd1^2 + sd2^2) / sqrt(TRIALS); allow 4 of them
    for _table, errors, _ in sr.experiments(("deletion", "insertion", "combined")):
        for metric in ("cov_n", "cov_d", "recall_n", "boundary_f1_10s"):
            for lo, hi in ((0.05, 0.25), (0.25, 0.5)):
                a, b = cells[errors, lo, metric], cells[errors, hi, metric]
                slack = 4 * math.hypot(a.sd, b.sd) / math.sqrt(TRIALS)
                assert b.value <= a.value + slack, (errors, metric, lo, hi)
    for metric in ("cov_n", "cov_d", "boundary_f1_10s", "boundary_f1_5s"):
        values = [cells[f"SHIFT{s}", 1.0, metric] for s in sr.SIGMAS]
        for a, b in zip(values, values[1:]):
            assert b.value <= a.value + 4 * math.hypot(a.sd, b.sd) / math.sqrt(TRIALS), metric


def test_a_missed_short_segment_costs_less_than_a_missed_long_one(cells):
    # Per missed segment (the study's err/seg), CovD loses about a brief's duration (<= 30 s) against
    # a report's (>= 60 s) plus, often, its merged neighbour (a 60-240 s report merged with a
    # neighbour of duration e stays correct only if e < 0.353 d): the ratio of the costs is far
    # below 1/2 (about 0.1 in the default run). CovN: a brief merged into a long neighbour loses one
    # segment, a report merged with another report two.
    for p in sr.PROBABILITIES:
        per_error = {
            kind: {
                m: (1 - cells[f"MISS-{kind}", p, m].value) / cells[f"MISS-{kind}", p, "errors"].value
                for m in ("cov_n", "cov_d")
            }
            for kind in ("short", "long")
        }
        assert per_error["short"]["cov_d"] < 0.5 * per_error["long"]["cov_d"], p
        assert per_error["short"]["cov_n"] < per_error["long"]["cov_n"], p


def test_small_shifts_keep_long_segments(cells):
    # A long segment (d >= 60 s) whose two ends move by e1, e2 ~ N(0, sigma) stays correct when
    # |e1| + |e2| < 0.26087 d, i.e. at least 15.65 s; P(|e1| + |e2| >= s) <= 4 P(N(0, 2 sigma^2) >= s):
    # sigma = 2: 4 (1 - Phi(5.53)) ~ 6e-8; sigma = 5: 4 (1 - Phi(2.21)) = 0.054 at worst (d = 60).
    assert cells["SHIFT2", 1.0, "recall_n_long"].value >= 0.999
    assert cells["SHIFT5", 1.0, "recall_n_long"].value >= 1 - 0.054
    # briefs are lost much sooner (their tolerance is 0.26 d <= 7.8 s in total)
    assert cells["SHIFT5", 1.0, "recall_n_short"].value < cells["SHIFT5", 1.0, "recall_n_long"].value - 0.3
    # so CovD, weighted by duration, stays above CovN under shifts
    for s in sr.SIGMAS:
        assert cells[f"SHIFT{s}", 1.0, "cov_d"].value > cells[f"SHIFT{s}", 1.0, "cov_n"].value


# ---------------------------------------------------------------------------------------------
# The command.


def test_command_writes_valid_json(tmp_path, capsys):
    out = tmp_path / "study.json"
    args = ["simulate", "segment-retrieval", "--trials", "2", "--shows", "5", "--seed", "3", "--json", str(out)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "INS-across" in printed and "CovN" in printed
    document = json.loads(out.read_text())
    assert document["study"] == "segment-retrieval"
    assert document["settings"]["trials"] == 2 and document["settings"]["shows"] == 5
    assert document["settings"]["seed"] == 3 and document["settings"]["tolerances"] == [10.0, 5.0]
    assert len(document["cells"]) == 28 * 11
    for cell in document["cells"]:
        assert {"table", "errors", "p", "range", "metric", "value", "published"} <= set(cell)
        assert cell["published"] is None
        if cell["metric"] != "errors":
            assert 0.0 <= cell["value"] <= 1.0
    assert not [p for p in tmp_path.iterdir() if p.name != "study.json"]  # no temporary file left
    again = tmp_path / "again.json"
    assert main(args[:-1] + [str(again)]) == 0
    assert again.read_text() == out.read_text()


@pytest.mark.parametrize(
    "bad",
    [
        ["--trials", "0"],
        ["--shows", "0"],
        ["--gamma", "1.5"],
        ["--seed", "-1"],
        ["--json", "/nonexistent-folder/x.json"],
    ],
)
def test_command_rejects_bad_options(bad, capsys):
    assert main(["simulate", "segment-retrieval", "--trials", "1", "--shows", "2", *bad]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_the_documented_table_is_what_the_command_prints(capsys):
    # docs/segment-retrieval-study.md shows the default run's output; it must not drift from the code
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "segment-retrieval-study.md").read_text()
    start = doc.index("$ tvseg simulate segment-retrieval")
    block = doc[start : doc.index("```", start)].splitlines()[1:]
    assert main(["simulate", "segment-retrieval"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(block) > 40 and printed == block
