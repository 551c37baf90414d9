"""Test configuration shared by every test module.

Hypothesis: no per-example deadline (a shared 2-core machine makes timings meaningless), and under CI
(``CI=true``) a derandomized run, so that a red CI is reproducible from its log; locally the search
stays random, which is how new counter-examples are found.
"""
import os

from hypothesis import settings

settings.register_profile("tvseg", deadline=None, print_blob=True)
settings.register_profile("tvseg-ci", deadline=None, print_blob=True, derandomize=True)
settings.load_profile("tvseg-ci" if os.environ.get("CI") == "true" else "tvseg")
