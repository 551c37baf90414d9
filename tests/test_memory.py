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


@pytest.fixture
def collector():
    """The collector's state restored: on, nothing frozen, this process not the program's own."""
    import tvseg.memory

    yield tvseg.memory
    tvseg.memory._OWN_PROCESS.clear()
    gc.unfreeze()
    gc.enable()


def test_the_collector_is_paused_while_the_program_imports_then_what_exists_is_frozen(collector):
    collector.own_process()
    frozen = gc.get_freeze_count()
    made = []
    with collector.collector_paused():
        assert not gc.isenabled()
        made.append([object() for _ in range(10)])  # (containers made during the block)
    assert gc.isenabled()
    assert gc.get_freeze_count() > frozen  # the block's objects (and the others alive) are frozen
    with pytest.raises(KeyError), collector.collector_paused():
        raise KeyError("a command's error")
    assert gc.isenabled()  # on again, whatever ended the block


def test_a_caller_of_main_keeps_its_collector_as_it_is(collector):
    # tvseg.cli.main called from Python: neither paused nor frozen
    frozen = gc.get_freeze_count()
    with collector.collector_paused():
        assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
    gc.disable()  # a caller that turned it off keeps it off
    collector.own_process()
    with collector.collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled() and gc.get_freeze_count() == frozen
