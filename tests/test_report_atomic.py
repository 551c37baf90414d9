"""The report folder under kills and concurrent writers: always the old or the new complete report.

The writers here are forked processes (no interpreter start-up per trial), killed with SIGKILL at
random instants; see :func:`tvseg.report.paths.replace_directory` for the scheme.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from report_fixture import synthetic_report

from tvseg.report import paths, write_report

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32", reason="needs fork and SIGKILL")

OLD = synthetic_report(6, seed=1, id_of=lambda k: f"old-{k}")
NEW = synthetic_report(20, seed=2, id_of=lambda k: f"new-{k}")


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(Path(d, f).relative_to(root)): Path(d, f).read_bytes() for d, _, files in os.walk(root) for f in files}


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    base = tmp_path_factory.mktemp("versions")
    return {
        name: snapshot(write_report(report, base / name, progress=False).parent)
        for name, report in (("old", OLD), ("new", NEW))
    }


def _write(report, out) -> None:
    write_report(report, out, progress=False)


def _fork(report, out):
    process = multiprocessing.get_context("fork").Process(target=_write, args=(report, out))
    process.start()
    return process


def state(out: Path, versions) -> str:
    """``old`` or ``new`` if ``out`` is exactly one of them (every file listed present and equal)."""
    found = snapshot(out)
    for name, files in versions.items():
        if found == files:
            return name
    missing = {name: sorted(set(files) - set(found))[:3] for name, files in versions.items()}
    pytest.fail(f"{out} is neither the old nor the new complete report (missing: {missing})")


def test_a_writer_killed_at_any_instant_leaves_the_old_or_the_new_report(tmp_path, versions):
    out = tmp_path / "site" / "rep"
    write_report(OLD, out, progress=False)
    t0 = time.perf_counter()
    _fork(NEW, out).join()
    duration = time.perf_counter() - t0  # from the fork to the end, old report deleted
    rng = random.Random(11)
    trials = 15
    seen = []
    for trial in range(trials):
        write_report(OLD, out, progress=False)  # the next run: it tidies what the killed one left
        assert sorted(os.listdir(out.parent)) == ["rep"], trial
        assert state(out, versions) == "old"
        process = _fork(NEW, out)
        time.sleep((trial + rng.random()) / trials * 1.3 * duration)  # spread over the whole write
        os.kill(process.pid, signal.SIGKILL)
        process.join()
        seen.append(state(out, versions))
    write_report(NEW, out, progress=False)
    assert state(out, versions) == "new"
    assert sorted(os.listdir(out.parent)) == ["rep"]
    print(f"write {duration:.2f} s; after the kills: {seen.count('old')} old, {seen.count('new')} new")


def test_a_kill_during_the_swap_leaves_a_complete_report(tmp_path, versions, monkeypatch):
    # the instants around the swap, made certain: die right before or right after it
    out = tmp_path / "rep"
    for when in ("before", "after"):
        write_report(OLD, out, progress=False)
        real = paths.exchange

        def dying_exchange(a, b, when=when, real=real):
            if when == "before":
                os.kill(os.getpid(), signal.SIGKILL)
            done = real(a, b)
            os.kill(os.getpid(), signal.SIGKILL)
            return done

        monkeypatch.setattr(paths, "exchange", dying_exchange)
        process = _fork(NEW, out)
        process.join()
        monkeypatch.undo()
        assert process.exitcode == -signal.SIGKILL
        assert state(out, versions) == ("old" if when == "before" else "new")
        hidden = [name for name in os.listdir(tmp_path) if name.startswith(".")]
        assert sorted(n.split("-")[0] for n in hidden) == [".rep.lock", ".rep.tmp"], hidden
    write_report(OLD, out, progress=False)
    assert sorted(os.listdir(tmp_path)) == ["rep"]


def test_concurrent_writers_of_one_folder_all_succeed(tmp_path, versions):
    out = tmp_path / "rep"
    write_report(OLD, out, progress=False)
    processes = [_fork(NEW if i % 2 else OLD, out) for i in range(6)]
    for process in processes:
        process.join(timeout=120)
    assert [p.exitcode for p in processes] == [0] * 6
    assert state(out, versions) in ("old", "new")
    assert sorted(os.listdir(tmp_path)) == ["rep"]


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    return int(done.stdout)


def test_leftovers_of_killed_writers_are_removed_and_those_of_live_ones_kept(tmp_path, versions):
    out = tmp_path / "rep"
    write_report(OLD, out, progress=False)
    dead, alive = _dead_pid(), os.getppid()
    for name in (
        f".rep.tmp-{dead}-0123abcd",
        f".rep.old-{dead}-0123abcd",
        f".rep.tmp-{alive}-0123abcd",
        f".other.tmp-{dead}-0123abcd",
    ):
        (tmp_path / name / "shows").mkdir(parents=True)
        (tmp_path / name / "shows" / "x.html").write_text("partial")
    (tmp_path / ".rep.lock").write_text("")  # left by a holder that was killed
    write_report(NEW, out, progress=False)
    assert sorted(os.listdir(tmp_path)) == sorted(["rep", f".rep.tmp-{alive}-0123abcd", f".other.tmp-{dead}-0123abcd"])
    assert state(out, versions) == "new"


def test_without_an_atomic_swap_a_kill_between_the_renames_is_undone_by_the_next_run(tmp_path, versions, monkeypatch):
    # where renameat2/renamex_np are missing: old folder aside, new one in; a kill in between
    # leaves the old report under .rep.old-PID-*, which the next writer puts back first
    monkeypatch.setattr(paths, "exchange", lambda a, b: False)
    out = tmp_path / "rep"
    write_report(OLD, out, progress=False)
    write_report(NEW, out, progress=False)
    assert state(out, versions) == "new" and sorted(os.listdir(tmp_path)) == ["rep"]
    write_report(OLD, out, progress=False)
    os.rename(out, tmp_path / f".rep.old-{_dead_pid()}-0123abcd")
    (tmp_path / f".rep.tmp-{_dead_pid()}-4567abcd").mkdir()

    def broken(root):
        raise RuntimeError("killed later")

    with pytest.raises(RuntimeError):
        paths.replace_directory(out, broken)
    assert state(out, versions) == "old"
    assert sorted(os.listdir(tmp_path)) == ["rep"]


def test_the_new_folder_is_flushed_to_disk_before_the_swap(tmp_path, monkeypatch):
    events = []
    real_flush, real_exchange = paths.flush_tree, paths.exchange
    monkeypatch.setattr(paths, "flush_tree", lambda root: (events.append("flush"), real_flush(root))[1])
    monkeypatch.setattr(paths, "exchange", lambda a, b: (events.append("swap"), real_exchange(a, b))[1])
    out = tmp_path / "rep"
    write_report(OLD, out, progress=False)
    assert events == ["flush"]  # nothing to swap with: a plain rename
    write_report(NEW, out, progress=False)
    assert events == ["flush", "flush", "swap"]
