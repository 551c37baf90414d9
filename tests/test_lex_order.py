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
