"""The type checker in the test run (issue 16): mypy with the project's configuration (pyproject.toml's
[tool.mypy]: the package checked, strict on the public modules) passes, and fails on a type error."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")


def _mypy(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_mypy_passes():
    result = _mypy()
    assert result.returncode == 0, f"mypy found errors:\n{result.stdout}\n{result.stderr}"


def test_mypy_fails_on_a_type_error(tmp_path):
    bad = tmp_path / "tvseg_typing_probe.py"
    bad.write_text("def half(x: int) -> int:\n    return x / 2\n\n\ndef untyped(y):\n    return y\n",
                   encoding="utf-8")
    result = _mypy("--config-file", "pyproject.toml", "--strict", "--cache-dir", str(tmp_path / "cache"), str(bad))
    assert result.returncode != 0, result.stdout
    assert "Incompatible return value type" in result.stdout, result.stdout
    assert "[no-untyped-def]" in result.stdout, result.stdout
