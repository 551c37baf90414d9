"""Render the repository's demo report, ``reports/demo/``, from the demo corpus (``tvseg/data_samples/``).

    python scripts/render_demo_report.py

is ``tvseg evaluate --demo --html reports/demo`` run from the repository's root (a user's
``tvseg evaluate --demo`` writes ``./tvseg-demo/`` where it is run). The report is dated from its
data, so the committed copy is reproduced byte for byte; ``tests/test_reports_demo.py`` checks it.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    from tvseg.cli import main

    sys.exit(main(["evaluate", "--demo", "--html", str(REPO / "reports" / "demo")]))
