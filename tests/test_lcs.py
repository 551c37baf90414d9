"""The LCS length of title ROUGE-L (issue 41): each route (bit-parallel, Hunt-Szymanski, the trimming
and filtering of long sequences) equals a plain O(nm) dynamic programme written here, on random
sequences over small alphabets (many repeats, many matching pairs) and mostly distinct tokens (few);
the bit-parallel table in blocks (many distinct tokens and many pairs) equal to it too."""

import random
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from tvseg.retrieval import rouge
from tvseg.retrieval.rouge import lcs_length, rouge_l_list


def _lcs_table(a, b) -> int:
    """The textbook table: L[i][j] = L[i-1][j-1] + 1 if a[i-1] == b[j-1], else max(L[i-1][j], L[i][j-1])."""
    previous = [0] * (len(b) + 1)
    for x in a:
        row = [0]
        for j, y in enumerate(b):
            row.append(previous[j] + 1 if x == y else max(previous[j + 1], row[j]))
        previous = row
    return previous[-1]


FEW = st.lists(st.sampled_from("abc"), max_size=70)  # 3 symbols: about a third of all pairs match
SOME = st.lists(st.sampled_from([f"w{k}" for k in range(12)]), max_size=70)
# mostly distinct: 501 symbols, so that a sequence of 70 repeats few and shares few with the other
DISTINCT = st.lists(st.integers(0, 500).map(lambda k: f"s{k}"), max_size=70)
SEQUENCES = st.one_of(FEW, SOME, DISTINCT)


@settings(max_examples=300, deadline=None)
@given(a=SEQUENCES, b=SEQUENCES)
def test_every_route_equals_the_table(a, b):
    expected = _lcs_table(a, b)
    assert lcs_length(a, b) == expected  # short: bit-parallel
    if a and b:
        assert rouge._lcs_bits(a, b) == expected
        assert rouge._lcs_sparse(a, b) == expected
    # the long-sequence route (trim, filter, choose) on these short ones: forced to each algorithm
    for pair_cost in (0, 10**9):  # 0: Hunt-Szymanski always; 10**9: bit-parallel always
        with mock.patch.object(rouge, "_LONG", 0), mock.patch.object(rouge, "_PAIR_COST", pair_cost):
            assert lcs_length(a, b) == expected
    # the bit-parallel table in blocks of 1, 3 and 7 positions of a (carries from block to block); in
    # one block as long as a when the rows fit (the default)
    for block in (1, 3, 7):
        with mock.patch.object(rouge, "_ROW_BITS", 0), mock.patch.object(rouge, "_BLOCK", block):
            if a and b:
                assert rouge._lcs_blocks(a, b) == expected
                assert rouge._lcs_blocks(b, a) == expected
    if a and b:
        assert rouge._lcs_blocks(a, b) == expected


@settings(max_examples=200, deadline=None)
@given(
    core=st.lists(st.integers(0, 300), max_size=60),
    edits=st.lists(st.tuples(st.booleans(), st.integers(0, 59), st.integers(0, 300)), max_size=15),
    head=st.lists(st.sampled_from("xy"), max_size=5),
    tail=st.lists(st.sampled_from("xy"), max_size=5),
)
def test_near_copies_with_a_common_head_and_tail(core, edits, head, tail):
    # a hypothesis list that is the reference with a few insertions and deletions, both sharing a head
    # and a tail: the trimmed route, then Hunt-Szymanski or bit-parallel on the middle
    a = [*head, *(f"s{k}" for k in core), *tail]
    middle = [f"s{k}" for k in core]
    for insert, at, k in edits:
        if insert:
            middle.insert(min(at, len(middle)), f"s{k}")
        elif middle:
            del middle[at % len(middle)]
    b = [*head, *middle, *tail]
    expected = _lcs_table(a, b)
    for pair_cost in (0, 10**9):
        with mock.patch.object(rouge, "_LONG", 0), mock.patch.object(rouge, "_PAIR_COST", pair_cost):
            assert lcs_length(a, b) == expected


def test_long_lists_take_the_route_their_matches_call_for():
    rng = random.Random(41)
    # 6,000 titles a side, each at most 3 times: 5,981 matching pairs, and 4,200 / 4,226 tokens a side
    # that the other side has (counted when writing the test): 2500 * 5981 < 4200 * 4226
    distinct_a = [f"S{i + rng.randrange(3)}" for i in range(6000)]
    distinct_b = [f"S{i + rng.randrange(3)}" for i in range(6000)]
    with mock.patch.object(rouge, "_lcs_sparse", wraps=rouge._lcs_sparse) as sparse:
        # expected: the bit-parallel route alone (equal to the table in the tests above)
        assert lcs_length(distinct_a, distinct_b) == rouge._lcs_bits(distinct_a, distinct_b)
    assert sparse.call_count == 1
    # 1,100 titles from 5: about 1100 * 1100 / 5 matching pairs, bit-parallel
    few_a = [f"T{rng.randrange(5)}" for _ in range(1100)]
    few_b = [f"T{rng.randrange(5)}" for _ in range(1100)]
    with mock.patch.object(rouge, "_lcs_sparse") as sparse:
        assert lcs_length(few_a, few_b) == _lcs_table(few_a, few_b)
    sparse.assert_not_called()


def test_whole_list_through_hunt_szymanski_is_rouge_score():
    rng = random.Random(14)
    reference = [f"Story {i + rng.randrange(3)} {rng.choice(['', 'le', 'journal'])}" for i in range(300)]
    hypothesis = [f"story {i + rng.randrange(3)} {rng.choice(['', 'la', 'journal'])}" for i in range(300)]
    expected = rouge_scorer.RougeScorer(["rougeL"]).score(" ".join(reference), " ".join(hypothesis))["rougeL"]
    with mock.patch.object(rouge, "_LONG", 0), mock.patch.object(rouge, "_PAIR_COST", 0):
        with mock.patch.object(rouge, "_lcs_bits") as bits:
            assert tuple(rouge_l_list(reference, hypothesis)) == tuple(expected)
        bits.assert_not_called()
