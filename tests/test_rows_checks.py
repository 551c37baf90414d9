"""The checks of a file's rows (:func:`tvseg.readers.corpus.check_spans`, :meth:`~tvseg.readers.corpus.Rows.first_lines`):
the loop that a small file's rows take first gives what the arrays' path gives, on every input (sorted or
not, sound or not: then the arrays' path decides), checked by hypothesis against that path itself."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tvseg.readers.corpus as corpus
from tvseg.pyannote_objects import SEGMENT_PRECISION
from tvseg.readers.corpus import Rows, check_spans

TIMES = st.one_of(
    st.sampled_from([0.0, 1.0, 1.5, 2.0, 2.0000001, 3.0, -1.0, float("nan"), 2e9, 2e9 + 1]),
    st.integers(0, 30).map(float),
)


@st.composite
def rows(draw):
    names = draw(st.lists(st.sampled_from(["b", "a", "c", "a1", "B"]), min_size=1, max_size=4))
    n = draw(st.integers(0, 12))
    show = draw(st.lists(st.integers(0, len(names) - 1), min_size=n, max_size=n))
    start = draw(st.lists(TIMES, min_size=n, max_size=n))
    lengths = [1.0, 0.5, 0.0, -1.0, 1e-9, 3.0, SEGMENT_PRECISION, 2 * SEGMENT_PRECISION]
    length = draw(st.lists(st.sampled_from(lengths), min_size=n, max_size=n))
    line = draw(st.lists(st.integers(-2, 15), min_size=n, max_size=n))  # (a line 0 or below: as the arrays do)
    if draw(st.booleans()):  # a file's rows as a reader makes them: in order, lines increasing
        order = sorted(range(n), key=lambda i: (sorted(names).index(names[show[i]]), start[i]))
        show, start, length = [show[i] for i in order], [start[i] for i in order], [length[i] for i in order]
        line = list(range(2, n + 2))
    labels = np.empty(n, dtype=object)
    labels[:] = [f"t{i}" for i in range(n)]
    found = Rows(names, ["f.csv"] * len(names), show, start=start, end=np.add(start, length), line=line, label=labels)
    found.overlaps = draw(st.booleans())
    return found


def _same(a, b):
    (rows_a, error_a, k_a), (rows_b, error_b, k_b) = a, b
    assert str(error_a) == str(error_b) and k_a == k_b
    for key in ("show", "start", "end", "line"):
        np.testing.assert_array_equal(getattr(rows_a, key), getattr(rows_b, key))
    np.testing.assert_array_equal(rows_a.texts["label"], rows_b.texts["label"])


@settings(max_examples=400, deadline=None)
@given(rows())
def test_a_small_file_s_rows_are_checked_as_the_arrays_check_them(found):
    small = check_spans(found)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(corpus, "SMALL_ROWS", -1)  # the arrays' path alone
        arrays = check_spans(found)
        arrays_first = found.first_lines()
    _same(small, arrays)
    np.testing.assert_array_equal(found.first_lines(), arrays_first)


def test_the_loop_is_taken_for_a_sorted_sound_file():
    # the law above would hold with no loop at all: this shows the loop gives the result for a usual file
    labels = np.array(["a", "b"], dtype=object)
    found = Rows(["doc"], ["d.ref"], [0, 0], start=[0.0, 2.0], end=[2.0, 5.0], line=[2, 3], label=labels)
    assert corpus._in_order_and_sound(found)
    assert check_spans(found)[1] is None
