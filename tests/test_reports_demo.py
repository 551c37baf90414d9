"""The committed reports/demo/ is what the current code renders from tvseg/data_samples/.

Re-render with ``tvseg evaluate --demo --html TMP`` and compare every file byte for byte, after
masking the three things that may legitimately differ: the tvseg version, the date of writing and the
run id (a fresh one each run, in the footers and in ``scores.json``).
To refresh the committed report after a change: ``python scripts/render_demo_report.py``.
"""

import re
from pathlib import Path

import pytest

from tvseg.cli import main

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "reports" / "demo"

_VOLATILE = [
    (re.compile(r'("tvseg_version": ")[^"]*(")'), r"\1VERSION\2"),
    (re.compile(r"(\|version:)[^|\"<\s]+"), r"\1VERSION"),
    (re.compile(r'(<meta name="generator" content="tvseg )[^"]*(")'), r"\1VERSION\2"),
    (re.compile(r'(<span class="version">)[^<]*(</span>)'), r"\1VERSION\2"),
    (re.compile(r'(<time class="date">)[^<]*(</time>)'), r"\1DATE\2"),
    (re.compile(r'("run_id": ")[0-9a-f]{16}(")'), r"\1RUN\2"),
    (re.compile(r'(<code class="run">)[0-9a-f]{16}(</code>)'), r"\1RUN\2"),
]


def _normalised(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    for pattern, replacement in _VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def test_masking_only_touches_version_date_and_run_id():
    # the masks must not hide a score: the committed index still shows CovN values and titles
    text = _normalised(COMMITTED / "index.html")
    assert "VERSION" in text and "DATE" in text and '<code class="run">RUN</code>' in text
    assert '"run_id": "RUN"' in _normalised(COMMITTED / "data" / "scores.json")
    assert "CovN" in text and "system_a" in text


def test_committed_demo_report_is_what_the_code_renders(tmp_path):
    if not (COMMITTED / "index.html").is_file():
        pytest.fail("reports/demo/ is missing: run `python scripts/render_demo_report.py` and commit it")
    out = tmp_path / "demo"
    assert main(["evaluate", "--demo", "--html", str(out)]) == 0
    assert _files(out) == _files(COMMITTED)
    stale = [name for name in _files(out) if _normalised(out / name) != _normalised(COMMITTED / name)]
    assert not stale, f"reports/demo/ is stale (re-run `python scripts/render_demo_report.py`): {stale}"
