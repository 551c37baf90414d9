"""A built wheel carries the demo (issue 16): installed in a fresh virtual environment, ``tvseg evaluate
--demo`` run in an empty folder exits 0 and writes its report there.

The wheel is built from this checkout with pip; the fresh environment gets it with ``--no-deps``, and finds
the dependencies (numpy, pandas, pyannote.core...) of the running test environment through a ``.pth`` file,
so that the test needs no download. The editable install of the test environment is not visible there (a
path added by a ``.pth`` file is not a site folder: its own ``.pth`` hooks do not run), so the ``tvseg``
that runs is the wheel's.
"""

import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_NOT_SOURCE = (".git", ".venv", ".ci-venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis")


def test_the_wheel_runs_the_demo_from_an_empty_folder(tmp_path):
    # pip builds a source folder in place (setuptools' build/ and *.egg-info/ beside pyproject.toml): build a
    # copy of the checkout in tmp_path, so that the test writes nothing into the repository
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*_NOT_SOURCE))
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("tvseg-*.whl")
    env = tmp_path / "env"
    venv.EnvBuilder(with_pip=True).create(env)
    python = env / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "test_environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "-q", str(wheel)], capture_output=True, text=True
    )
    assert install.returncode == 0, install.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    run = subprocess.run(
        [str(env / "bin" / "tvseg"), "evaluate", "--demo", "--bootstrap", "50"],
        cwd=empty,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "system_a" in run.stdout and "system_b" in run.stdout
    assert (empty / "tvseg-demo" / "index.html").is_file()
    where = subprocess.run(
        [str(python), "-c", "import tvseg; print(tvseg.__file__)"],
        cwd=empty,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(env) in where and str(ROOT) not in where  # the wheel's tvseg ran, not the checkout's
