"""Every reference story and hypothesis segment classified (tvseg.retrieval.stories): hand-counted
cases checked in the JSON of tvseg.evaluate, in to_frame() and in the match table; and, on random
corpora, the vectorised classes equal a per-segment loop over the definitions and add up to the
segment counts."""

import json
import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment

import tvseg
from tvseg.columns import from_segmentations
from tvseg.errors import TvsegWarning
from tvseg.retrieval.corpus import score_shows
from tvseg.retrieval.coverage import correct, match
from tvseg.retrieval.stories import HYPOTHESIS_CLASSES, REFERENCE_CLASSES, classify
from tvseg.settings import Settings


def _annotation(*spans):
    out = Annotation()
    for k, (start, end) in enumerate(spans):
        out[Segment(start, end)] = f"t{k}"
    return out


# Show "a" (seconds), gamma 0.85; coverage = 2 |R n H| / (|R| + |H|):
#   reference                      hypothesis
#   A [0, 100)                     [0, 100)     A: coverage 1: correct; hyp correct
#   B [100, 200)                   [100, 150), [150, 200): both halves lie mostly inside B (50 >= 50/2):
#                                  B split (coverage 100/150); both hyp split parts
#   C [200, 260), D [260, 300)     [200, 300): C (60 >= 60/2) and D (40 >= 40/2) lie mostly inside it:
#                                  both merged (coverage 120/160, 80/140); the hyp merging
#   E [300, 400)                   [330, 430): overlaps E 70, F 30; partner E, E's partner it (mutual),
#                                  coverage 140/200 = 0.7: E shifted, the hyp shifted
#   F [400, 500)                   (nothing in [430, 480)); F overlaps [330, 430) by 30, [480, 600) by 20:
#                                  partner [330, 430), whose partner is E, and no hyp lies mostly
#                                  inside F, F lies mostly inside nothing: F missed
#   G [500, 600)                   [480, 600): overlap 100, coverage 200/220 > 0.85: both correct
#   H [600, 700)                   [600, 700): correct
#   (gap [700, 750))               [700, 740): overlaps no reference: false alarm
#   I [750, 850)                   [750, 850): correct
#   J [850, 1000)                  [850, 990): coverage 280/290 > 0.85: both correct
#                                  [990, 1000): its partner J is correct and paired with [850, 990):
#                                  false alarm
# Reference (10): correct 5 (A G H I J), split 1 (B), merged 2 (C D), shifted 1 (E), missed 1 (F).
# Hypothesis (11): correct 5, split part 2, merging 1, shifted 1, false alarm 2.
#
# Show "b": reference [0, 50), [50, 100); hypothesis [0, 100): both stories lie mostly inside it
# (coverage 100/150 each, not correct): 2 merged, 1 merging, nothing else.
REFERENCE = {
    "a": _annotation(
        (0, 100),
        (100, 200),
        (200, 260),
        (260, 300),
        (300, 400),
        (400, 500),
        (500, 600),
        (600, 700),
        (750, 850),
        (850, 1000),
    ),
    "b": _annotation((0, 50), (50, 100)),
}
HYPOTHESIS = {
    "a": _annotation(
        (0, 100),
        (100, 150),
        (150, 200),
        (200, 300),
        (330, 430),
        (480, 600),
        (600, 700),
        (700, 740),
        (750, 850),
        (850, 990),
        (990, 1000),
    ),
    "b": _annotation((0, 100)),
}
SHOW_A = {
    "n_reference": 10,
    "n_correct_reference": 5,
    "n_reference_split": 1,
    "n_reference_merged": 2,
    "n_reference_shifted": 1,
    "n_reference_missed": 1,
    "n_hypothesis": 11,
    "n_correct_hypothesis": 5,
    "n_hypothesis_split_part": 2,
    "n_hypothesis_merging": 1,
    "n_hypothesis_shifted": 1,
    "n_false_alarm": 2,
}
SHOW_B = {
    "n_reference": 2,
    "n_correct_reference": 0,
    "n_reference_split": 0,
    "n_reference_merged": 2,
    "n_reference_shifted": 0,
    "n_reference_missed": 0,
    "n_hypothesis": 1,
    "n_correct_hypothesis": 0,
    "n_hypothesis_split_part": 0,
    "n_hypothesis_merging": 1,
    "n_hypothesis_shifted": 0,
    "n_false_alarm": 0,
}


def _evaluate():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)  # NaN title metrics, cropped segments: not the subject
        return tvseg.evaluate(REFERENCE, {"sys": HYPOTHESIS}, settings=Settings(bootstrap=0))


def test_hand_counted_classes_in_the_json_and_the_frame():
    result = _evaluate()
    system = json.loads(json.dumps(result.to_json()))["systems"]["sys"]  # as written
    for show, expected in (("a", SHOW_A), ("b", SHOW_B)):
        got = {key: system["shows"][show][key] for key in expected}
        assert got == expected, show
        assert all(isinstance(v, int) for v in got.values())  # counts: integers in the JSON
    # the contract's per-show "stories" object, by class: show a's 10 reference stories are 5 correct,
    # 1 shifted, 1 split, 2 merged, 1 missed, and 2 hypothesis segments are false alarms; show b's 2 are merged
    assert system["shows"]["a"]["stories"] == {
        "correct": 5,
        "shifted": 1,
        "split": 1,
        "merged": 2,
        "missed": 1,
        "false_alarm": 2,
    }
    assert system["shows"]["b"]["stories"] == {
        "correct": 0,
        "shifted": 0,
        "split": 0,
        "merged": 2,
        "missed": 0,
        "false_alarm": 0,
    }
    pooled = {key: SHOW_A[key] + SHOW_B[key] for key in SHOW_A}  # 4 merged, 2 merging ...
    assert {key: system["corpus"][key] for key in pooled} == pooled
    assert system["macro"]["n_reference_merged"] == 2.0  # (2 + 2) / 2 shows
    assert system["macro"]["n_false_alarm"] == 1.0  # (2 + 0) / 2

    frame = result.to_frame()
    rows = frame[(frame.system == "sys") & (frame.scope == "show") & (frame.show == "a")]
    assert dict(zip(rows.metric, rows.value)) | SHOW_A == dict(zip(rows.metric, rows.value))
    corpus = frame[(frame.system == "sys") & (frame.scope == "corpus")]
    assert corpus.set_index("metric").value["n_hypothesis_split_part"] == 2.0


def test_hand_counted_classes_in_the_match_table():
    matches = _evaluate().systems["sys"].matches
    a = matches[matches.show == "a"]
    ref, hyp = a[a.side == "reference"], a[a.side == "hypothesis"]
    assert ref.story.tolist() == [
        "correct",  # A
        "split",  # B
        "merged",  # C
        "merged",  # D
        "shifted",  # E
        "missed",  # F
        "correct",  # G
        "correct",  # H
        "correct",  # I
        "correct",  # J
    ]
    assert hyp.story.tolist() == [
        "correct",  # [0, 100)
        "split part",  # [100, 150)
        "split part",  # [150, 200)
        "merging",  # [200, 300)
        "shifted",  # [330, 430)
        "correct",  # [480, 600)
        "correct",  # [600, 700)
        "false alarm",  # [700, 740)
        "correct",  # [750, 850)
        "correct",  # [850, 990)
        "false alarm",  # [990, 1000)
    ]
    assert ((a.story == "correct") == a.correct).all()


def test_a_segment_exactly_half_inside_counts_as_mostly_inside():
    # reference [0, 100), [100, 200); hypothesis [50, 150): overlaps 50 each, exactly half of each
    # reference story (2 * 50 >= 100): the partner of both is [50, 150) (tie: equal overlap, same
    # partner), both stories lie mostly inside it: 2 merged, 1 merging. With the hypothesis [49, 150)
    # the first story overlaps it by 51 and the second by 50: still both mostly inside (102 >= 100,
    # 100 >= 100). With [51, 150): the first overlaps 49 (98 < 100): not inside; the second merges
    # with nothing, so it and the hypothesis are mutual partners: shifted; the first is missed.
    for hyp, ref_classes, hyp_classes in (
        ((50, 150), ["merged", "merged"], ["merging"]),
        ((49, 150), ["merged", "merged"], ["merging"]),
        ((51, 150), ["missed", "shifted"], ["shifted"]),
    ):
        reference = from_segmentations([[(0, 100), (100, 200)]])
        hypothesis = from_segmentations([[hyp]])
        matching = match(reference, hypothesis)
        ref, hyp_codes = classify(
            matching, reference.duration_ticks, hypothesis.duration_ticks, correct(matching, 0.85)
        )
        assert [REFERENCE_CLASSES[c] for c in ref] == ref_classes, hyp
        assert [HYPOTHESIS_CLASSES[c] for c in hyp_codes] == hyp_classes, hyp


def _loop_classes(matching, d_ref, d_hyp, ok_ref, ok_hyp):
    """The definitions of tvseg.retrieval.stories written segment by segment (the oracle)."""
    p_r, p_h = matching.reference_partner.tolist(), matching.hypothesis_partner.tolist()
    o_r, o_h = matching.reference.overlap_ticks.tolist(), matching.hypothesis.overlap_ticks.tolist()
    inside_r = [p_r[i] >= 0 and 2 * o_r[i] >= int(d_ref[i]) for i in range(len(p_r))]
    inside_h = [p_h[j] >= 0 and 2 * o_h[j] >= int(d_hyp[j]) for j in range(len(p_h))]
    ref = []
    for i in range(len(p_r)):
        n_parts = sum(1 for j in range(len(p_h)) if inside_h[j] and p_h[j] == i)
        if ok_ref[i]:
            ref.append("correct")
        elif n_parts >= 2:
            ref.append("split")
        elif inside_r[i] and sum(1 for k in range(len(p_r)) if inside_r[k] and p_r[k] == p_r[i]) >= 2:
            ref.append("merged")
        elif p_r[i] >= 0 and p_h[p_r[i]] == i:
            ref.append("shifted")
        else:
            ref.append("missed")
    hyp = []
    for j in range(len(p_h)):
        if ok_hyp[j]:
            hyp.append("correct")
        elif sum(1 for i in range(len(p_r)) if inside_r[i] and p_r[i] == j) >= 2:
            hyp.append("merging")
        elif inside_h[j] and ref[p_h[j]] == "split":
            hyp.append("split part")
        elif p_h[j] >= 0 and p_r[p_h[j]] == j:
            hyp.append("shifted")
        else:
            hyp.append("false alarm")
    return ref, hyp


def _segments(cuts_and_gaps):
    """Disjoint (start, end) spans from sorted distinct cut points, every third span left out as a gap."""
    points = sorted(set(cuts_and_gaps))
    spans = list(zip(points[:-1], points[1:]))
    return [span for k, span in enumerate(spans) if k % 3 != 2 or len(spans) < 3]


shows = st.lists(st.integers(0, 400), min_size=2, max_size=14, unique=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(shows, shows), min_size=1, max_size=4), st.sampled_from([0.3, 0.5, 0.85]))
def test_every_segment_gets_one_class_and_the_counts_add_up(corpus, gamma):
    ref_spans = [_segments(r) for r, _ in corpus]
    hyp_spans = [_segments(h) for _, h in corpus]
    reference, hypothesis = from_segmentations(ref_spans), from_segmentations(hyp_spans)
    matching = match(reference, hypothesis)
    ok_ref, ok_hyp = correct(matching, gamma)
    ref, hyp = classify(matching, reference.duration_ticks, hypothesis.duration_ticks, (ok_ref, ok_hyp))
    want_ref, want_hyp = _loop_classes(matching, reference.duration_ticks, hypothesis.duration_ticks, ok_ref, ok_hyp)
    assert [REFERENCE_CLASSES[c] for c in ref] == want_ref
    assert [HYPOTHESIS_CLASSES[c] for c in hyp] == want_hyp

    scores = score_shows(
        reference,
        hypothesis,
        shows=[str(k) for k in range(len(corpus))],
        gamma=gamma,
        long_threshold=30.0,
        tolerance=10.0,
    )
    c = scores.components
    ref_total = c[
        ["n_correct_reference", "n_reference_split", "n_reference_merged", "n_reference_shifted", "n_reference_missed"]
    ]
    hyp_total = c[
        [
            "n_correct_hypothesis",
            "n_hypothesis_merging",
            "n_hypothesis_split_part",
            "n_hypothesis_shifted",
            "n_false_alarm",
        ]
    ]
    np.testing.assert_array_equal(ref_total.sum(axis=1).to_numpy(), c["n_reference"].to_numpy())
    np.testing.assert_array_equal(hyp_total.sum(axis=1).to_numpy(), c["n_hypothesis"].to_numpy())
    np.testing.assert_array_equal(c["n_reference"].to_numpy(), [len(s) for s in ref_spans])
    for k, spans in enumerate(ref_spans):  # per show, from the oracle's classes
        first = sum(len(s) for s in ref_spans[:k])
        mine = want_ref[first : first + len(spans)]
        assert c["n_reference_missed"].iloc[k] == mine.count("missed")
        assert c["n_reference_merged"].iloc[k] == mine.count("merged")
    for k, spans in enumerate(hyp_spans):
        first = sum(len(s) for s in hyp_spans[:k])
        mine = want_hyp[first : first + len(spans)]
        assert c["n_false_alarm"].iloc[k] == mine.count("false alarm")
        assert c["n_hypothesis_split_part"].iloc[k] == mine.count("split part")


def test_a_held_and_a_streamed_json_are_the_same_text():
    # each show's row, with its stories object, on one line whichever way the JSON is written
    from tvseg.output import dumps_json

    result = _evaluate()
    held, streamed = dumps_json(result.to_json()), dumps_json(result.to_json(stream=True))
    assert held == streamed
    row = next(line for line in held.splitlines() if line.lstrip().startswith('"a": {"recall_n"'))
    assert row.rstrip(",").endswith(
        '"stories": {"correct": 5, "shifted": 1, "split": 1, "merged": 2, "missed": 1, "false_alarm": 2}}'
    )
