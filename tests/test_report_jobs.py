"""The report written by a pool of processes (issue 13): the same bytes whatever the number of
processes, an error in a process raised as it would be in one, and no process left writing after
the writer is killed."""

from __future__ import annotations

import concurrent.futures
import errno
import multiprocessing
import os
import signal
import sys
import time
import warnings
from pathlib import Path

import pytest
from report_fixture import synthetic_report

from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.report import render, workers, write_report

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tvseg" / "data_samples"
needs_fork = pytest.mark.skipif(not workers.can_fork() or sys.platform == "win32", reason="needs fork")


def files(root: Path) -> dict[str, bytes]:
    return {str(Path(d, f).relative_to(root)): Path(d, f).read_bytes() for d, _, names in os.walk(root) for f in names}


@pytest.fixture
def pools(monkeypatch):
    """Every report, however small, goes to a pool; returns the pools started (in this process)."""
    started = []

    class Counted(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            started.append(kwargs.get("max_workers"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(workers, "PARALLEL_MIN_SHOWS", 2)
    # the pool is imported where it is opened (tvseg.execution.Local): patched at its source
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counted)
    return started


def _demo_result():
    from tvseg.evaluation import evaluate
    from tvseg.readers import read_metadata, read_segments, read_uem, read_units
    from tvseg.settings import Settings

    uem = read_uem(str(SAMPLES / "corpus.uem"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        return evaluate(
            read_segments(str(SAMPLES / "reference" / "chapters"), uem=uem),
            {
                "system_a": read_segments(str(SAMPLES / "hypotheses" / "system_a.rttm"), uem=uem),
                "system_b": read_segments(str(SAMPLES / "hypotheses" / "system_b"), uem=uem),
            },
            uem=uem,
            units=read_units(str(SAMPLES / "units" / "breath_groups.csv")),
            metadata=read_metadata(str(SAMPLES / "metadata.csv")),
            settings=Settings(uem=True, units="file", bootstrap=50),
        )


@needs_fork
def test_one_or_several_processes_write_the_same_bytes(tmp_path, pools):
    report = synthetic_report(45, seed=5)
    one = files(write_report(report, tmp_path / "one", progress=False, jobs=1).parent)
    assert pools == []
    two = files(write_report(report, tmp_path / "two", progress=False, jobs=2).parent)
    three = files(write_report(report, tmp_path / "three", progress=False, jobs=3).parent)
    assert pools == [2, 3]
    assert len(one) == 45 + 1 + 2 + 2 and one == two == three  # pages, matches.csv, index, scores.json, 2 assets


@needs_fork
@pytest.mark.skipif(not (SAMPLES / "reference").is_dir(), reason="needs data_samples/")
def test_an_evaluation_result_gives_the_same_bytes_in_one_or_two_processes(tmp_path, pools):
    result = _demo_result()
    one = files(write_report(result, tmp_path / "one", progress=False, jobs=1, date="2000-01-01").parent)
    two = files(write_report(result, tmp_path / "two", progress=False, jobs=2, date="2000-01-01").parent)
    assert pools == [2]
    assert len(one) == len(result.shows) + 1 + 2 + 2 and one == two


@needs_fork
@pytest.mark.parametrize("refused", ["show-00007.html", "matches.csv"])
def test_an_error_in_a_process_is_raised_and_leaves_no_report(tmp_path, pools, monkeypatch, refused):
    # a page or data/matches.csv, each written by a process of the pool
    target = tmp_path / "rep"
    write_report(synthetic_report(3), target, progress=False, jobs=1)
    before = files(target)
    real = render.write_file
    parent = os.getpid()

    def full_disk(path, text, **options):
        if Path(path).name == refused:
            assert os.getpid() != parent  # written in the pool, not here
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, text, **options)

    monkeypatch.setattr(render, "write_file", full_disk)
    with pytest.raises(InputError, match="cannot write the report"):
        write_report(synthetic_report(30, seed=7), target, progress=False, jobs=2)
    assert pools == [2]
    assert files(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


def test_jobs_must_be_a_positive_whole_number(tmp_path):
    for jobs in (0, -1, 1.5, True):
        with pytest.raises(UsageError):
            write_report(synthetic_report(2), tmp_path / "rep", progress=False, jobs=jobs)
    assert not (tmp_path / "rep").exists()


def test_the_command_takes_jobs(tmp_path, capsys):
    from tvseg.cli import main

    ref, hyp = tmp_path / "ref.rttm", tmp_path / "hyp.rttm"
    ref.write_text("SEGMENT s 1 0 30 <NA> <NA> a <NA> <NA>\nSEGMENT s 1 30 30 <NA> <NA> b <NA> <NA>\n")
    hyp.write_text("SEGMENT s 1 0 25 <NA> <NA> a <NA> <NA>\nSEGMENT s 1 25 35 <NA> <NA> b <NA> <NA>\n")
    args = ["evaluate", "--reference", str(ref), "--hypothesis", f"sys={hyp}", "--bootstrap", "0"]
    assert main(args + ["--html", str(tmp_path / "rep"), "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err
    assert main(args + ["--html", str(tmp_path / "rep"), "--jobs", "2"]) == 0
    assert (tmp_path / "rep" / "shows" / "s.html").is_file()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def _slow_writer(report, out, log):
    real = render.write_file

    def slow(path, text, **options):
        with open(log, "a") as f:
            f.write(f"{os.getpid()}\n")
        time.sleep(0.02)
        real(path, text, **options)

    render.write_file = slow
    workers.PARALLEL_MIN_SHOWS = 2
    write_report(report, out, progress=False, jobs=2)


@needs_fork
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_no_process_of_the_pool_outlives_a_killed_writer(tmp_path):
    out, log = tmp_path / "rep", tmp_path / "pids"
    old = synthetic_report(4, seed=1, id_of=lambda k: f"old-{k}")
    write_report(old, out, progress=False, jobs=1)
    before = files(out)
    writer = multiprocessing.get_context("fork").Process(
        target=_slow_writer, args=(synthetic_report(60, seed=2), out, log)
    )
    writer.start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # wait until the pool's processes write pages
        pids = set(log.read_text().split()) if log.exists() else set()
        if len(pids - {str(writer.pid)}) >= 2:
            break
        time.sleep(0.01)
    os.kill(writer.pid, signal.SIGKILL)
    writer.join()
    pool = {int(p) for p in log.read_text().split()} - {writer.pid}
    assert len(pool) == 2
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pool) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not any(_alive(pid) for pid in pool)
    assert files(out) == before  # the old report, whole
    write_report(old, out, progress=False, jobs=1)  # the next run tidies what the killed one left
    assert sorted(os.listdir(tmp_path)) == ["pids", "rep"]
