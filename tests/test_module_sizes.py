"""Small modules with one job (issue 12): no module of the package is longer than 400 lines unless its
docstring says why."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "tvseg"
LIMIT = 400
REASON = "Longer than 400 lines because"


def test_no_module_is_longer_than_400_lines_without_a_reason():
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > LIMIT and REASON not in (ast.get_docstring(ast.parse(text)) or ""):
            long.append(f"{path.relative_to(PACKAGE.parent)}: {lines} lines")
    assert not long, f"split these by job, or say in the module docstring '{REASON} ...':\n" + "\n".join(long)
