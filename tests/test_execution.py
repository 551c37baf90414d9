"""One engine maps a function over items in this process or in processes, with the results and the errors
of one process (issue 40)."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from tvseg import execution
from tvseg.errors import UsageError
from tvseg.execution import Local, chunks, engine

needs_fork = pytest.mark.skipif(not execution.can_fork() or sys.platform == "win32", reason="needs fork")


def _slow_square(x: int) -> int:
    time.sleep(0.05 * (3 - x % 4))  # the later items finish first
    return x * x


def _fail_on_odd(x: int) -> int:
    time.sleep(0.05 * (3 - x % 4))  # 3 fails first, then 1
    if x % 2:
        raise ValueError(f"odd {x}")
    return x


def _signals(_) -> tuple:
    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM), os.getpid()


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_come_back_in_the_order_of_the_items(jobs):
    with Local(jobs) as local:
        # 0, 1, ..., 7 squared, by hand
        assert local.map(_slow_square, range(8)) == [0, 1, 4, 9, 16, 25, 36, 49]


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_result_is_given_once_as_its_task_finishes(jobs):
    given = []
    with Local(jobs) as local:
        local.map(_slow_square, range(6), each=given.append)
    assert sorted(given) == [0, 1, 4, 9, 16, 25]


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_first_error_in_order_is_raised(jobs):
    # 0 passes, 1 is the first odd item: its error, though 3 fails first in time
    with Local(jobs) as local, pytest.raises(ValueError, match="odd 1"):
        local.map(_fail_on_odd, [0, 1, 2, 3])


@pytest.mark.parametrize("jobs", [1, 2])
def test_stop_ends_the_list_at_the_first_result_that_holds(jobs):
    with Local(jobs) as local:
        # squares 0, 1, 4, 9, 16: 9 is the first above 5
        assert local.map(_slow_square, range(5), stop=lambda r: r > 5) == [0, 1, 4, 9]


def test_in_this_process_a_task_after_a_stop_is_not_run():
    ran = []

    def note(x):
        ran.append(x)
        return x

    with Local(1) as local:
        assert local.map(note, [1, 2, 3], stop=lambda r: r == 2) == [1, 2]
    assert ran == [1, 2]


@needs_fork
def test_a_process_of_the_pool_leaves_sigint_to_its_parent_and_ends_at_sigterm():
    with Local(2) as local:
        found = local.map(_signals, range(2))
    for sigint, sigterm, pid in found:
        assert (sigint, sigterm) == (signal.SIG_IGN, signal.SIG_DFL)
        assert pid != os.getpid()


def test_an_error_in_the_block_ends_the_tasks_under_way_at_once():
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), Local(2) as local:
        local.submit(time.sleep, 60)
        local.submit(time.sleep, 60)
        raise KeyboardInterrupt  # a Ctrl-C while the pool sleeps
    assert time.monotonic() - start < 30  # not the 60 s of the tasks


@needs_fork
def test_inherited_functions_reach_the_pool_without_pickling():
    table = {k: f"page {k}" for k in range(5)}  # a closure over it cannot be pickled

    def pages(start, stop):
        return [table[k] for k in range(start, stop)], os.getpid()

    # chunks(5, 1): size max(1, min(50, 5 // 8)) = 1, so five ranges of one item
    with Local(2, inherit=(pages,)) as local:
        assert execution.inheriting()
        out = local.gather([local.submit(pages, a, b) for a, b in chunks(5, 1)])
    assert not execution.inheriting()
    assert [p for part, _ in out for p in part] == [f"page {k}" for k in range(5)]
    assert os.getpid() not in {pid for _, pid in out}


def test_chunks_cover_the_items_in_ranges():
    # 100 items, 2 processes: size max(1, min(50, 100 // 16)) = 6, so 16 ranges of 6 and one of 4
    ranges = chunks(100, 2)
    assert ranges[0] == (0, 6) and ranges[-1] == (96, 100) and len(ranges) == 17
    assert [k for a, b in ranges for k in range(a, b)] == list(range(100))


def test_jobs_must_be_a_whole_number_at_least_1():
    for jobs in (0, -1, 1.5, True):
        with pytest.raises(UsageError):
            execution.checked_jobs(jobs)


def test_dask_not_installed_is_a_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask", None)  # import dask then fails
    with pytest.raises(UsageError, match=r"pip install tvseg\[dask\]"), engine(2, "local"):
        pass
