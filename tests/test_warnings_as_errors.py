"""Strict mode is the user's choice: a warning that ``python -W error`` or ``PYTHONWARNINGS=error`` turns into
an exception stops the command with one line naming the warning's class and message, exit code 2, no
traceback, and no output written (issue 39; it was reported as an internal error, exit 1)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import pytest

from tvseg.cli import main

# The demo corpus has 7 shows (7 file ids in tvseg/data_samples/reference/reference.rttm): fewer than the 10 that
# the bootstrap asks for, so its first warning is the FewShowsWarning naming 7 shows.
FEW_SHOWS = "tvseg: error: FewShowsWarning raised as an error (a warnings filter 'error'): the bootstrap intervals rest on 7 shows"


def _strict_demo(tmp_path, *, flag: bool):
    """``tvseg evaluate --demo --json OUT`` in tmp_path, warnings made errors by ``-W error`` or by the environment."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONWARNINGS"}
    command = [sys.executable, "-m", "tvseg", "evaluate", "--demo", "--json", "OUT.json"]
    if flag:
        command[1:1] = ["-W", "error"]
    else:
        env["PYTHONWARNINGS"] = "error"
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("flag", [True, False], ids=["-W error", "PYTHONWARNINGS=error"])
def test_the_demo_in_strict_mode_stops_on_its_first_warning(tmp_path, flag):
    run = _strict_demo(tmp_path, flag=flag)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and run.stderr.startswith(FEW_SHOWS), run.stderr
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr
    # neither the JSON nor the demo's report (./tvseg-demo/) nor a temporary file of either is left
    assert sorted(os.listdir(tmp_path)) == []


def test_a_warning_made_an_error_writes_no_file(tmp_path, capsys):
    # a chapter list holds whole seconds: the start 1.5 s of show 'a' is rounded to 0:02 (a YouTube chapter time) with an
    # OutputChangedWarning, which the filter makes an error before the file is written
    source = tmp_path / "a.rttm"
    source.write_text(
        "SPEAKER a 1 0.000 1.500 <NA> <NA> x <NA> <NA>\nSPEAKER a 1 1.500 3.000 <NA> <NA> y <NA> <NA>\n",
        encoding="utf-8",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code = main(["convert", str(source), str(tmp_path / "a.txt")])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (
        "tvseg: error: OutputChangedWarning raised as an error (a warnings filter 'error'): show 'a': 1 chapter "
        "start(s) rounded to whole seconds (a chapter list holds whole seconds), e.g. 1.500 -> 0:02\n"
    )
    assert sorted(os.listdir(tmp_path)) == ["a.rttm"]
