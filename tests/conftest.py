"""Test configuration shared by every test module.

Hypothesis: no per-example deadline (a shared 2-core machine makes timings meaningless), and under CI
(``CI=true``) a derandomized run, so that a red CI is reproducible from its log; locally the search
stays random, which is how new counter-examples are found.

A test writes only under its ``tmp_path``: the run snapshots the repository's files and the current
folder's names when it starts and compares them when it ends; a file created, changed or removed there
(a ``./tvseg-demo/`` report, a ``build/`` folder, a JSON written under a relative name) fails the run,
named. Tool caches (``.hypothesis/``, ``.pytest_cache/``, ``__pycache__/``, mypy's and ruff's) are not
counted.
"""

import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
_CACHES = {".git", ".venv", ".ci-venv", ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache", "__pycache__"}
_BEFORE = pytest.StashKey[dict[str, tuple[int, int]]]()


def _snapshot() -> dict[str, tuple[int, int]]:
    """Each file of the repository (caches left out) with its size and mtime, and the current folder's names."""
    files: dict[str, tuple[int, int]] = {}
    for folder, names, file_names in os.walk(ROOT):
        names[:] = [n for n in names if n not in _CACHES and not n.endswith(".egg-info")]
        for name in file_names:
            path = Path(folder) / name
            stat = path.lstat()
            files[str(path.relative_to(ROOT))] = (stat.st_size, stat.st_mtime_ns)
    cwd = Path.cwd()
    if cwd != ROOT:
        for path in cwd.iterdir():
            if path.name not in _CACHES:
                files[f"(current folder) {path.name}"] = (0, 0)
    return files


def pytest_sessionstart(session):
    session.config.stash[_BEFORE] = _snapshot()


def pytest_sessionfinish(session, exitstatus):
    before = session.config.stash.get(_BEFORE, None)
    if before is None:
        return
    after = _snapshot()
    changed = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
    if changed:
        shown = ", ".join(changed[:10]) + (f" and {len(changed) - 10} more" if len(changed) > 10 else "")
        message = f"tests wrote outside their tmp_path (created, changed or removed): {shown}"
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(message, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


settings.register_profile("tvseg", deadline=None, print_blob=True)
settings.register_profile("tvseg-ci", deadline=None, print_blob=True, derandomize=True)
settings.load_profile("tvseg-ci" if os.environ.get("CI") == "true" else "tvseg")


@pytest.fixture
def second_write_fails(monkeypatch):
    """Make the second file that ``tvseg.output.write_file`` writes fail with ENOSPC (a full disk);
    returns the list of paths it was asked to write."""
    import tvseg.output

    real, calls = tvseg.output.write_file, []

    def failing(path, text, **options):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(path, text, **options)

    monkeypatch.setattr(tvseg.output, "write_file", failing)
    return calls


@pytest.fixture
def count_reads(monkeypatch):
    """``count_reads(module, name)``: replace ``module.name`` (a reader taking a path first) by one that counts
    its calls by the file's name, and return the :class:`collections.Counter` it fills."""
    import collections

    def count(module, name: str) -> collections.Counter:
        real, reads = getattr(module, name), collections.Counter()

        def counted(path, *args, **kwargs):
            reads[Path(path).name] += 1
            return real(path, *args, **kwargs)

        monkeypatch.setattr(module, name, counted)
        return reads

    return count
