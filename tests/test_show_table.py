"""The corpus page's table of shows (tvseg.report.show_table): each show's value as the page shows it."""

import numpy as np
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st


@hsettings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.floats(min_value=-2, max_value=2),
            st.just(float("nan")),
            st.sampled_from([0.0, -0.0, 0.5, 1 / 3, 0.00049, 0.0005, 0.9995, 1.0]),  # repeats, ties of rounding
        ),
        max_size=40,
    )
)
def test_a_float_column_is_shown_as_each_value_is(values):
    """A column given as a float array (its distinct values rounded once, NaN not available) is shown as the
    same values one by one: ``f"{100 * v:.1f}"`` read back as a float, None for NaN, -0.0 kept."""
    from tvseg.report.show_table import _shown

    expected = [None if v != v else float(f"{100 * v:.1f}") for v in values]
    got = _shown(np.array(values, dtype=float))
    assert [repr(v) for v in got] == [repr(v) for v in expected]
    assert [repr(v) for v in _shown(values)] == [repr(v) for v in expected]
