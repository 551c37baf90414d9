"""Test configuration shared by every test module.

Hypothesis: no per-example deadline (a shared 2-core machine makes timings meaningless), and under CI
(``CI=true``) a derandomized run, so that a red CI is reproducible from its log; locally the search
stays random, which is how new counter-examples are found.
"""

import os

import pytest
from hypothesis import settings

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
