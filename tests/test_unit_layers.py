"""tvseg/unit is the bottom layer of the metrics: it imports no layer above it, and its modules are cut
by job (issue 23: one module for the window metrics, one for the boundary edit distance, one for S and B,
one for agreement with its input checks, one for the corpus's scores, one for their reduction and one for the DET curve's probes)."""

import ast
import importlib
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "tvseg" / "unit"
MODULES = sorted(p for p in UNIT.glob("*.py"))
ABOVE = ("tvseg.settings", "tvseg.evaluation", "tvseg.commands", "tvseg.report", "tvseg.readers", "tvseg.retrieval")


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
    assert {p.stem for p in MODULES} == {
        "__init__",
        "masses",
        "conventions",
        "windows",
        "edits",
        "similarity",
        "ghd",
        "alignment",
        "agreement",
        "projection",
        "corpus",
        "reduction",
        "probes",
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


def test_no_import_error_fallback_for_modules_that_ship_with_the_package():
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                caught = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)}
                assert not caught & {"ImportError", "ModuleNotFoundError"}, f"{path.name}:{node.lineno}"
