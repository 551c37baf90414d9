"""``tvseg.columns.lex_order``, the stable sort of ``(show, value)`` pairs that the kernels use in place of
``numpy.lexsort``: the same permutation as ``numpy.lexsort((value, show))`` (stable, the show first), the
reference being numpy's own function."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tvseg.columns import lex_order

values = st.one_of(
    st.floats(allow_nan=False),  # infinities, -0.0 and subnormals included
    st.sampled_from([0.0, -0.0, 1.5, 1.5, 2.0, 1e-9, 3e9]),  # ties
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), values), max_size=60), st.booleans())
def test_the_same_permutation_as_numpy_lexsort(pairs, sorted_by_show):
    if sorted_by_show:  # as the kernels give it: the shows in order, the values in any order within them
        pairs = sorted(pairs, key=lambda pair: pair[0])
    show = np.array([s for s, _ in pairs], dtype=np.int64)
    value = np.array([v for _, v in pairs], dtype=np.float64)
    assert lex_order(show, value).tolist() == np.lexsort((value, show)).tolist()


def _count_before_by_hand(show_a, t_a, show_q, t_q, inclusive):
    """The definition: the keys ``(show, t)`` before each query (or equal to it, ``inclusive``), compared as
    Python tuples of Python integers."""
    keys = list(zip(show_a.tolist(), t_a.tolist()))
    queries = zip(show_q.tolist(), t_q.tolist())
    return [sum(key < q or (inclusive and key == q) for key in keys) for q in queries]


times = st.one_of(st.integers(-(2**40), 2**40), st.sampled_from([0, 1, 7, 7, -3]), st.integers(2**61, 2**62))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 9), times), max_size=40),
    st.lists(st.tuples(st.integers(0, 11), times), max_size=20),
    st.booleans(),
    st.booleans(),
)
def test_count_before_counts_the_keys_before_each_query(keys, queries, in_order, inclusive):
    """Both ways of counting (the keys packed into one integer when they are in order and the packing is
    exact, else the merge of the two lists) against the definition; float times take the merge."""
    from tvseg.columns import count_before

    if in_order:
        keys = sorted(keys)
    show_a = np.array([s for s, _ in keys], dtype=np.int64)
    t_a = np.array([t for _, t in keys], dtype=np.int64)
    show_q = np.array([s for s, _ in queries], dtype=np.int64)
    t_q = np.array([t for _, t in queries], dtype=np.int64)
    expected = _count_before_by_hand(show_a, t_a, show_q, t_q, inclusive)
    assert count_before(show_a, t_a, show_q, t_q, inclusive=inclusive).tolist() == expected
    small = (np.abs(t_a) < 2**40).all() and (np.abs(t_q) < 2**40).all()
    if small:  # exact as floats too
        floats = count_before(show_a, t_a.astype(float), show_q, t_q.astype(float), inclusive=inclusive)
        assert floats.tolist() == expected
