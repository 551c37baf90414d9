"""The process settings of :mod:`tvseg.memory` that a command makes: what each changes, and nothing else."""

import gc

import pytest

from tvseg.memory import YOUNG_OBJECTS, tune_collector


@pytest.fixture
def thresholds():
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


@pytest.mark.parametrize("young", [700, 10_000, 200_000])
def test_the_collector_looks_at_young_objects_after_50000_at_least(thresholds, young):
    gc.set_threshold(young, 7, 9)
    tune_collector()
    assert gc.get_threshold() == (max(young, 50_000), 7, 9)  # a higher threshold set by the user is kept
    assert YOUNG_OBJECTS == 50_000
