"""tvseg/unit is the bottom layer of the metrics: it imports no layer above it, and its modules stay
small (issue 12: "small modules with one job")."""

import ast
import importlib
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "tvseg" / "unit"
MODULES = sorted(p for p in UNIT.glob("*.py"))
ABOVE = ("tvseg.settings", "tvseg.evaluation", "tvseg.commands", "tvseg.report", "tvseg.readers", "tvseg.retrieval")
MAX_LINES = 400
REASON = "Longer than 400 lines because"


def module_name(path: Path) -> str:
    return "tvseg.unit" if path.stem == "__init__" else f"tvseg.unit.{path.stem}"


def imported(tree: ast.AST, package: str):
    """``(line, module)`` of every import in ``tree``, relative imports resolved against ``package``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                yield node.lineno, f"{base}.{node.module}" if node.module else base
            else:
                yield node.lineno, node.module


def test_there_are_unit_modules():
    assert {p.stem for p in MODULES} >= {
        "masses",
        "conventions",
        "windows",
        "winpr",
        "batch",
        "edits",
        "similarity",
        "agreement",
        "scores",
        "projection",
    }


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_module_imports_and_imports_no_higher_layer(path):
    importlib.import_module(module_name(path))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wrong = [
        f"{path.name}:{line}: imports {module}"
        for line, module in imported(tree, "tvseg.unit")
        if any(module == above or module.startswith(above + ".") for above in ABOVE)
        or module in ("tvseg.simulate", "tvseg.cli")
        or module.startswith("tvseg.simulate.")
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_module_is_short_or_says_why(path):
    text = path.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    if lines > MAX_LINES:
        docstring = ast.get_docstring(ast.parse(text)) or ""
        assert REASON in " ".join(docstring.split()), (
            f"{path.name} has {lines} lines: split it, or say in its docstring '{REASON} ...'"
        )


def test_no_import_error_fallback_for_modules_that_ship_with_the_package():
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                caught = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)}
                assert not caught & {"ImportError", "ModuleNotFoundError"}, f"{path.name}:{node.lineno}"
