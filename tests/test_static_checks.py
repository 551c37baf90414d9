"""The type checker, the linter and the formatter in the test run (issue 16): mypy with the project's
configuration (pyproject.toml's [tool.mypy]: the package checked, strict on the public modules) and ruff
(pyproject.toml's [tool.ruff]: lint rules and formatting of the whole tree) pass, and fail when they find
something."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _mypy(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_mypy_passes():
    result = _mypy()
    assert result.returncode == 0, f"mypy found errors:\n{result.stdout}\n{result.stderr}"


def test_mypy_fails_on_a_type_error(tmp_path):
    bad = tmp_path / "tvseg_typing_probe.py"
    bad.write_text("def half(x: int) -> int:\n    return x / 2\n\n\ndef untyped(y):\n    return y\n", encoding="utf-8")
    result = _mypy("--config-file", "pyproject.toml", "--strict", "--cache-dir", str(tmp_path / "cache"), str(bad))
    assert result.returncode != 0, result.stdout
    assert "Incompatible return value type" in result.stdout, result.stdout
    assert "[no-untyped-def]" in result.stdout, result.stdout


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_lint_passes():
    result = _ruff("check", ".")
    assert result.returncode == 0, f"ruff check found problems:\n{result.stdout}\n{result.stderr}"


def test_ruff_format_leaves_the_tree_unchanged():
    result = _ruff("format", "--check", ".")
    assert result.returncode == 0, f"ruff format would change files (run `ruff format .`):\n{result.stdout}"


def test_ruff_fails_on_a_lint_error_and_a_formatting_error(tmp_path):
    bad = tmp_path / "probe.py"
    bad.write_text("import os\nx = {'a':1}\n", encoding="utf-8")
    config = str(ROOT / "pyproject.toml")
    lint = _ruff("check", "--config", config, "--no-cache", str(bad))
    assert lint.returncode != 0 and "F401" in lint.stdout, lint.stdout
    form = _ruff("format", "--config", config, "--check", "--no-cache", str(bad))
    assert form.returncode != 0, form.stdout
