"""What tvseg's outputs survive: kills, a full disk, a closed stdout, FIFOs and terminals as targets,
``--json -`` and a link planted where the report's lock goes.

Each test runs ``python -m tvseg`` in a subprocess on a corpus written here (``ref.rttm``: every show
six topics of 60 s; ``hyp.rttm``: the same boundaries 5 s later, or 10 s later for a second run whose
numbers differ). A kill is sent when the report's temporary folder holds its first show page, the
process stopped (SIGSTOP) from the moment it is seen, so that the signal always lands mid-way.
"""

from __future__ import annotations

import json
import os
import select
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals, FIFOs, ptys and rlimits")

TIMEOUT = 60.0


def write_corpus(folder: Path, n_shows: int) -> None:
    """``ref.rttm``: 6 topics of 60 s per show; ``hyp.rttm`` and ``hyp10.rttm``: the boundaries 5 s and 10 s later."""
    ref, hyp5, hyp10 = [], [], []
    for i in range(n_shows):
        for j in range(6):
            ref.append(f"SEGMENT show{i:04d} 1 {j * 60}.000 60.000 <NA> <NA> topic{j} <NA> <NA>")
        for lines, shift in ((hyp5, 5), (hyp10, 10)):
            starts = [0] + [j * 60 + shift for j in range(1, 6)] + [360]
            for j, (a, b) in enumerate(zip(starts, starts[1:])):
                lines.append(f"SEGMENT show{i:04d} 1 {a}.000 {b - a}.000 <NA> <NA> topic{j} <NA> <NA>")
    for name, lines in (("ref.rttm", ref), ("hyp.rttm", hyp5), ("hyp10.rttm", hyp10)):
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def command(folder: Path, *options: str, hypothesis: str = "hyp.rttm") -> list[str]:
    return [
        sys.executable,
        "-m",
        "tvseg",
        "evaluate",
        "--reference",
        str(folder / "ref.rttm"),
        "--hypothesis",
        f"a={folder / hypothesis}",
        "--bootstrap",
        "0",
        "--quiet",
        *options,
    ]


def run(args, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(args, timeout=TIMEOUT, text=True, **kwargs)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (hidden ones included) and its bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def temporaries(folder: Path) -> list[str]:
    """What tvseg's writers leave only while they run: ``.NAME.tmp-*``, ``.NAME.old-*``, ``.NAME.lock``."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def no_traceback(stderr: str) -> None:
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    write_corpus(folder, 400)
    return folder


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("small")
    write_corpus(folder, 3)
    return folder


def wait_for(condition, what: str, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if process is not None and process.poll() is not None:
            pytest.fail(f"the run ended (exit {process.returncode}) before {what}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.001)


# --- kills ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "code", "jobs"),
    [(signal.SIGINT, 130, "1"), (signal.SIGTERM, 143, "1"), (signal.SIGTERM, 143, "2")],
    ids=["SIGINT", "SIGTERM", "SIGTERM-2-processes"],
)
def test_a_killed_html_run_leaves_the_old_outputs_and_no_temporary_folder(tmp_path, corpus, sent, code, jobs):
    out = tmp_path / "out"
    out.mkdir()
    first = run(command(corpus, "--json", str(out / "x.json"), "--html", str(out / "rep")))
    assert first.returncode == 0, first.stderr
    old = snapshot(out)
    old_id = json.loads(old["x.json"])["run_id"]
    assert f'<code class="run">{old_id}</code>' in old["rep/index.html"].decode()
    # The swap exchanges the two folders' names: the temporary name then holds the old report, being removed.
    # Its pages are not the new run's: only a temporary folder other than the old report counts below.
    old_folder = (out / "rep").stat().st_ino

    # the second run's numbers differ (boundaries 10 s late): its pages cannot be taken for the old ones
    process = subprocess.Popen(
        command(
            corpus, "--json", str(out / "x.json"), "--html", str(out / "rep"), "--jobs", jobs, hypothesis="hyp10.rttm"
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A test run started in the background by a shell without job control ignores SIGINT, and a child
        # inherits that (Python then raises no KeyboardInterrupt): the run under test gets the default back.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:

        def first_page_written() -> bool:
            for tmp in out.glob(".rep.tmp-*"):
                try:
                    if tmp.stat().st_ino != old_folder and any((tmp / "shows").glob("*.html")):
                        return True
                except FileNotFoundError:  # removed meanwhile
                    continue
            return False

        wait_for(first_page_written, "the first show page", process)
        process.send_signal(signal.SIGSTOP)
        assert list(out.glob(".rep.tmp-*")), "the report was still being written when stopped"
        assert (out / "rep").stat().st_ino == old_folder, "stopped after the new report took the old one's place"
        process.send_signal(sent)
        process.send_signal(signal.SIGCONT)
        _, stderr = process.communicate(timeout=TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == code, stderr
    no_traceback(stderr)
    assert temporaries(out) == []  # the temporary folder of the report is gone, no lock left
    assert snapshot(out) == old  # the old JSON and the old report, byte for byte
    assert json.loads((out / "x.json").read_text(encoding="utf-8"))["run_id"] == old_id


def test_the_leftovers_of_a_sigkill_are_removed_by_the_next_run(tmp_path, corpus):
    out = tmp_path / "out"
    out.mkdir()
    process = subprocess.Popen(
        command(corpus, "--html", str(out / "rep"), "--jobs", "1"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for(lambda: any(out.glob(".rep.tmp-*/shows/*.html")), "the first show page", process)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    # a SIGKILL cannot be handled: the report's temporary folder is left, and that of the shards' segments
    assert [name.split("-")[0] for name in temporaries(out)] == [".rep.tmp", ".rep.tmp"]
    again = run(command(corpus, "--html", str(out / "rep"), "--jobs", "1"))
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in out.iterdir()) == ["rep"]


# --- a full disk (RLIMIT_FSIZE) ------------------------------------------------------------------


def _limit_file_size(size: int):
    def preexec() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return preexec


def test_a_full_disk_fails_with_exit_2_naming_the_path_and_keeps_the_old_outputs(tmp_path, small):
    out = tmp_path / "out"
    out.mkdir()
    first = run(command(small, "--json", str(out / "x.json"), "--html", str(out / "rep")))
    assert first.returncode == 0, first.stderr
    old = snapshot(out)
    # a file may not grow past 4,096 bytes: the report's index.html (tens of kB) cannot be written
    full = run(
        command(small, "--json", str(out / "x.json"), "--html", str(out / "rep"), hypothesis="hyp10.rttm"),
        preexec_fn=_limit_file_size(4096),
    )
    assert full.returncode == 2, full.stderr
    no_traceback(full.stderr)
    assert f"{out / 'rep'}: cannot write the report (" in full.stderr
    assert snapshot(out) == old and temporaries(out) == []
    # the JSON alone (3 shows: more than 4,096 bytes), after the report
    assert len(old["x.json"]) > 4096
    full = run(
        command(small, "--json", str(out / "x.json"), hypothesis="hyp10.rttm"), preexec_fn=_limit_file_size(4096)
    )
    assert full.returncode == 2, full.stderr
    assert f"{out / 'x.json'}: cannot write the file (" in full.stderr
    assert snapshot(out) == old and temporaries(out) == []


# --- a closed stdout -----------------------------------------------------------------------------


def closed_pipe() -> int:
    """The writing end of a pipe whose reader has already gone: every write fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    return write


def test_a_closed_stdout_still_writes_the_json_and_the_report_and_exits_0(tmp_path, small):
    stdout = closed_pipe()
    try:
        done = run(command(small, "--json", str(tmp_path / "x.json"), "--html", str(tmp_path / "rep")), stdout=stdout)
    finally:
        os.close(stdout)
    assert done.returncode == 0, done.stderr
    no_traceback(done.stderr)
    assert json.loads((tmp_path / "x.json").read_text(encoding="utf-8"))["systems"]["a"]["corpus"]
    assert (tmp_path / "rep" / "index.html").is_file()


def test_a_reader_that_takes_one_line_does_not_stop_the_run(tmp_path, small):
    # `tvseg evaluate ... | head -1`: whether the reader leaves before or after the summary is written,
    # the JSON is written and the exit code is 0
    process = subprocess.Popen(
        command(small, "--json", str(tmp_path / "x.json")), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b"3 shows; ")
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=TIMEOUT) == 0, stderr
    no_traceback(stderr)
    assert json.loads((tmp_path / "x.json").read_text(encoding="utf-8"))["systems"]["a"]["corpus"]


def test_validate_exits_2_on_an_invalid_file_whether_stdout_is_read_or_closed(tmp_path):
    (tmp_path / "good.rttm").write_text("SEGMENT s1 1 0.000 60.000 <NA> <NA> t1 <NA> <NA>\n", encoding="utf-8")
    (tmp_path / "bad.rttm").write_text("SEGMENT s1 1 zero 60.000 <NA> <NA> t1 <NA> <NA>\n", encoding="utf-8")
    args = [sys.executable, "-m", "tvseg", "validate", str(tmp_path)]
    read = run(args)
    stdout = closed_pipe()
    try:
        closed = run(args, stdout=stdout)
    finally:
        os.close(stdout)
    assert read.returncode == closed.returncode == 2, (read.stderr, closed.stderr)
    assert f"{tmp_path / 'bad.rttm'}:1:" in closed.stderr
    no_traceback(closed.stderr)


# --- --json -, FIFOs and terminals ---------------------------------------------------------------


def test_json_dash_writes_the_json_alone_to_stdout_and_the_summary_to_stderr(tmp_path, small):
    done = run(command(small, "--json", "-"))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)  # nothing but the JSON on stdout
    # show0000: reference boundaries 60..300, hypothesis 65..305: all 5 within 10 s, so P = R = 1
    assert data["systems"]["a"]["corpus"]["boundary_f1"] == 1.0
    assert "3 shows; " in done.stderr
    # piped into a reader that parses it (as `| jq .`)
    reader = subprocess.Popen(
        [sys.executable, "-c", "import json, sys; print(sorted(json.load(sys.stdin)['systems']))"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert reader.stdin is not None
    assert reader.stdout is not None
    writer = run(command(small, "--json", "-"), stdout=reader.stdin)
    reader.stdin.close()
    assert reader.stdout.read() == "['a']\n"
    assert writer.returncode == 0 and reader.wait(timeout=TIMEOUT) == 0


def test_json_dash_into_a_closed_stdout_is_an_error(small):
    stdout = closed_pipe()
    try:
        done = run(command(small, "--json", "-"), stdout=stdout)
    finally:
        os.close(stdout)
    assert done.returncode == 2
    assert "<stdout>: cannot write the JSON" in done.stderr
    no_traceback(done.stderr)


def test_an_empty_json_path_is_a_usage_error(small):
    done = run(command(small, "--json", ""))
    assert done.returncode == 2
    assert "--json needs a file name" in done.stderr


def _read_all(fd_path: Path, into: list) -> None:
    with open(fd_path, "rb") as fifo:
        into.append(fifo.read())


@pytest.mark.parametrize("convert", [False, True], ids=["evaluate --json", "convert"])
def test_a_fifo_target_is_written_in_place(tmp_path, small, convert):
    fifo = tmp_path / ("out.csv" if convert else "x.json")
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=_read_all, args=(fifo, got), daemon=True)
    reader.start()
    if convert:
        args = [sys.executable, "-m", "tvseg", "convert", str(small / "ref.rttm"), str(fifo)]
    else:
        args = command(small, "--json", str(fifo))
    try:
        done = run(args)
    finally:
        if reader.is_alive():  # the writer never opened the FIFO: let the reader see an end
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the FIFO, not a regular file
    assert sorted(os.listdir(tmp_path)) == [fifo.name]
    text = got[0].decode()
    if convert:
        assert text.splitlines()[:2] == ["show,start,end,label", "show0000,0.000,60.000,topic0"]
    else:
        assert json.loads(text)["systems"]["a"]["corpus"]["boundary_f1"] == 1.0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal at /dev/pts")
def test_a_terminal_target_is_written_in_place(small):
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)  # no line-end translation
    terminal = os.ttyname(slave)
    chunks: list[bytes] = []
    finished = threading.Event()

    def drain() -> None:
        while True:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                chunks.append(os.read(master, 1 << 16))
            elif finished.is_set():
                return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        done = run(command(small, "--json", terminal))
    finally:
        finished.set()  # what the run wrote is already queued: the reader drains it, then stops
        reader.join(TIMEOUT)
        os.close(slave)
        os.close(master)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.stat(terminal).st_mode) if os.path.exists(terminal) else True
    assert json.loads(b"".join(chunks).decode())["systems"]["a"]["corpus"]["boundary_f1"] == 1.0


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")
def test_a_link_to_a_descriptor_is_written_through_not_replaced(tmp_path, small):
    # `--json /dev/stdout > out.txt` (here /proc/self/fd/1, which a regression could not replace):
    # the JSON goes after the summary into the file the shell opened
    out = tmp_path / "out.txt"
    with open(out, "w") as stdout:
        done = run(command(small, "--json", "/proc/self/fd/1"), stdout=stdout)
    assert done.returncode == 0, done.stderr
    summary, _, text = out.read_text(encoding="utf-8").partition("\n{")
    assert summary.startswith("3 shows; ")
    assert json.loads("{" + text)["systems"]["a"]["corpus"]["boundary_f1"] == 1.0
    assert sorted(os.listdir(tmp_path)) == ["out.txt"]


# --- a link planted as the lock ------------------------------------------------------------------


def test_a_symlink_planted_as_the_lock_file_creates_nothing_at_its_target(tmp_path, small):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / ".rep.lock").symlink_to(elsewhere / "created")
    done = run(command(small, "--html", str(tmp_path / "rep")))
    assert done.returncode == 2
    assert f"{tmp_path / '.rep.lock'} is a symbolic link, not a lock file tvseg made" in done.stderr
    no_traceback(done.stderr)
    assert list(elsewhere.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [".rep.lock", "elsewhere"]  # no report, no temporary
