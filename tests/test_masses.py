import numpy as np
import pytest

from tvseg.errors import InputError
from tvseg.unit.masses import as_masses, as_pair, boundary_positions, from_indicator, to_indicator


def test_indicator_of_the_contract_example():
    # (3, 5, 2): 10 units cut after unit 3 and after unit 8 -> gaps 1..9, boundaries at gaps 3 and 8
    m = as_masses((3, 5, 2))
    assert boundary_positions(m).tolist() == [3, 8]
    assert to_indicator(m).astype(int).tolist() == [0, 0, 1, 0, 0, 0, 0, 1, 0]
    assert from_indicator(to_indicator(m)).tolist() == [3, 5, 2]


def test_single_segment_and_single_unit():
    assert to_indicator(as_masses([1])).size == 0
    assert from_indicator(np.zeros(0, bool)).tolist() == [1]


@pytest.mark.parametrize("bad", [[], [3, 0], [2, -1], [1.5, 2], ["a"], [[1, 2]], "12", None, [True, 2], [float("nan")]])
def test_bad_masses_are_refused(bad):
    with pytest.raises(InputError):
        as_masses(bad)


def test_pair_totals_must_agree():
    with pytest.raises(InputError, match="10 and 9"):
        as_pair((3, 5, 2), (4, 5))
