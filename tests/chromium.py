"""Headless chromium for the tests that read the report's pages as a browser draws them.

:func:`run_chromium` opens one URL (``--dump-dom`` prints the document after its scripts ran,
``--screenshot`` saves a PNG); :func:`console_errors` reads the console messages and uncaught
exceptions from chromium's log; :func:`drawn` gives a page's document as its script leaves it, for
the tests of show pages, whose timeline and tables the page's script draws from its data. A test
that needs chromium where it is missing is skipped with a message; the benchmarks use :data:`FLAGS`
and :func:`chromium_path` without pytest.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def chromium_path() -> str | None:
    """Debian's chromium, or the first ``chromium`` / ``chromium-browser`` on the PATH (None: none)."""
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Headless, no sandbox (a container's root), nothing fetched from the network."""


def run_chromium(profile: Path, url: str, *extra: str) -> subprocess.CompletedProcess:
    """Open ``url`` in headless chromium with the profile folder ``profile`` (its log on stderr)."""
    binary = chromium_path()
    if binary is None:
        import pytest

        pytest.skip("chromium is not installed (apt-get install -y chromium): browser test skipped")
    args = [
        binary,
        *FLAGS,
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        *extra,
        url,
    ]
    return subprocess.run(args, capture_output=True, text=True, timeout=60)


def console_errors(stderr: str, *, allowed: str = "probe-done") -> list[str]:
    """Console messages and uncaught exceptions in chromium's log.

    Headless chromium logs every console message (whatever its level) as an ``INFO:CONSOLE`` line,
    so any such line counts: the report's pages write nothing to the console. ``allowed`` is the
    marker our own probe logs.
    """
    return [line for line in stderr.splitlines() if ("Uncaught" in line or ":CONSOLE" in line) and allowed not in line]


def drawn(page: Path, profile: Path) -> str:
    """The document of ``page`` as chromium serialises it once the page's scripts ran, with no console
    error (the segment tables, the match tables and the timeline of a show page drawn)."""
    done = run_chromium(profile, page.as_uri(), "--dump-dom", "--window-size=1280,1600")
    assert done.returncode == 0, done.stderr[-2000:]
    assert console_errors(done.stderr) == [], page.name
    return done.stdout
