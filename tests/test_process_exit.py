"""The ``tvseg`` program's process (:func:`tvseg.cli.run`): BLAS started on one thread unless the user set its
threads; the end (:func:`tvseg.cli.end_process`) with the exit code :func:`tvseg.cli.main` gives, its output
flushed and the :mod:`atexit` functions run, the interpreter's teardown left out; as Python ends when a thread
or a child process is still at work or a stream cannot be flushed, and when a tool (a profiler) runs the program
and waits for it to return."""

import json
import os
import subprocess
import sys
import threading

import pytest

import tvseg.cli as cli

_NORMAL_EXIT = "import sys; from tvseg.cli import main; sys.exit(main(sys.argv[1:]))"


class _Ended(Exception):
    def __init__(self, code):
        self.code = code


@pytest.fixture
def ending(monkeypatch):
    """``os._exit`` raising :class:`_Ended` and ``atexit._run_exitfuncs`` recorded, not run (pytest's own
    functions stay registered)."""
    calls = []
    monkeypatch.setattr(
        cli.os, "_exit", lambda code: (calls.append(("exit", code)), (_ for _ in ()).throw(_Ended(code)))
    )
    monkeypatch.setattr(cli.atexit, "_run_exitfuncs", lambda: calls.append(("atexit",)))
    return calls


class _Stream:
    def __init__(self, fails=False):
        self.flushes, self.fails = 0, fails

    def flush(self):
        self.flushes += 1
        if self.fails:
            raise BrokenPipeError(32, "Broken pipe")


def test_ends_with_the_code_after_flushing_and_the_atexit_functions(ending, monkeypatch):
    out, err = _Stream(), _Stream()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    with pytest.raises(_Ended) as ended:
        cli.end_process(2)
    assert ended.value.code == 2
    assert ending == [("atexit",), ("exit", 2)]
    assert out.flushes == 2 and err.flushes == 2  # before the atexit functions, and after what they printed


def test_a_thread_still_at_work_ends_the_process_as_python_does(ending):
    release = threading.Event()
    worker = threading.Thread(target=release.wait)
    worker.start()
    try:
        with pytest.raises(SystemExit) as stop:
            cli.end_process(3)
    finally:
        release.set()
        worker.join()
    assert stop.value.code == 3
    assert ending == []  # Python runs the atexit functions once the thread is done


def test_a_stream_that_cannot_be_flushed_ends_the_process_as_python_does(ending, monkeypatch):
    monkeypatch.setattr(sys, "stdout", _Stream(fails=True))
    with pytest.raises(SystemExit) as stop:
        cli.end_process(0)
    assert stop.value.code == 0 and ending == []


def _program(tmp_path, code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )


def _without_run_id(path) -> dict:
    data = json.loads(path.read_text())
    data.pop("run_id", None)
    return data


def test_the_program_gives_what_main_gives_with_python_s_exit(tmp_path):
    # the demo: its summary on stdout, its JSON; a missing file: exit code 2 and the error on stderr
    program = "import sys; from tvseg.cli import run; sys.argv[0] = 'tvseg'; run()"
    ours = _program(tmp_path, program, "evaluate", "--demo", "--json", "ours.json")
    usual = _program(tmp_path, _NORMAL_EXIT, "evaluate", "--demo", "--json", "usual.json")
    assert (ours.returncode, ours.stdout, ours.stderr) == (usual.returncode, usual.stdout, usual.stderr)
    assert ours.returncode == 0 and "CovN" in ours.stdout
    assert _without_run_id(tmp_path / "ours.json") == _without_run_id(tmp_path / "usual.json")
    missing = ["evaluate", "--reference", "nowhere.rttm", "--hypothesis", "a=nowhere.rttm"]
    ours, usual = _program(tmp_path, program, *missing), _program(tmp_path, _NORMAL_EXIT, *missing)
    assert (ours.returncode, ours.stdout, ours.stderr) == (usual.returncode, usual.stdout, usual.stderr)
    assert ours.returncode == 2 and "nowhere.rttm" in ours.stderr


def test_the_atexit_functions_run_when_the_program_ends(tmp_path):
    (tmp_path / "ref.rttm").write_text("SPEAKER show 1 0.000 10.000 <NA> <NA> topic <NA> <NA>\n")
    program = (
        "import atexit, sys; from tvseg.cli import run\n"
        "atexit.register(lambda: open('ran', 'w').write('yes'))\n"
        "sys.argv[0] = 'tvseg'; run()"
    )
    ended = _program(tmp_path, program, "validate", "ref.rttm")
    assert ended.returncode == 0, ended.stderr
    assert (tmp_path / "ran").read_text() == "yes"


_BLAS_PROBE = (
    "import atexit, json, os, sys\n"
    "from tvseg.cli import run\n"
    "def record():\n"
    "    from threadpoolctl import threadpool_info\n"
    "    blas = [i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas']\n"
    "    json.dump({'blas': blas, 'env': os.environ.get('OPENBLAS_NUM_THREADS')}, open('blas.json', 'w'))\n"
    "atexit.register(record)\n"
    "sys.argv[0] = 'tvseg'; run()"
)


@pytest.mark.parametrize("given", [None, "2"])
def test_blas_starts_on_one_thread_unless_the_user_says(tmp_path, monkeypatch, given):
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    if given is not None:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", given)
    ended = _program(tmp_path, _BLAS_PROBE, "evaluate", "--demo")
    assert ended.returncode == 0, ended.stderr
    found = json.loads((tmp_path / "blas.json").read_text())
    assert found["env"] == (given or "1")
    if given is None:
        assert set(found["blas"]) <= {1}  # NumPy's BLAS (OpenBLAS in its wheels) on one thread


_SENTINEL = """import sys


class _Sentinel:
    def __init__(self):
        self.stream = sys.stderr  # held: the teardown may have taken sys.stderr away when this is freed

    def __del__(self):
        self.stream.write("torn down\\n")
        self.stream.flush()


sys._tvseg_test_sentinel = _Sentinel()
"""


def _with_sentinel(tmp_path, *command: str) -> subprocess.CompletedProcess:
    """``command`` run with a module-level object whose finaliser writes "torn down" when Python's teardown
    frees it (a ``sitecustomize`` module on the path)."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(_SENTINEL)
    paths = [str(tmp_path / "site"), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    return subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)


def test_python_m_tvseg_leaves_the_teardown_out(tmp_path):
    ended = _with_sentinel(tmp_path, sys.executable, "-m", "tvseg", "evaluate", "--demo", "--quiet")
    assert ended.returncode == 0, ended.stderr
    assert "torn down" not in ended.stderr


def test_a_profiler_that_runs_the_program_gets_it_back(tmp_path):
    # python -m cProfile -m tvseg: the profiler writes its file once the program returns, then Python exits
    ended = _with_sentinel(
        tmp_path, sys.executable, "-m", "cProfile", "-o", "run.prof", "-m", "tvseg", "evaluate", "--demo", "--quiet"
    )
    assert ended.returncode == 0, ended.stderr
    assert (tmp_path / "run.prof").stat().st_size > 0
    assert "torn down" in ended.stderr
