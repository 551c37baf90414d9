"""The package's imports follow the layer order written in docs/architecture.md (issue 12)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tvseg"


def layers() -> dict[str, int]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- layers:.*?```\n(.*?)```.*?<!-- end layers -->", text, re.S).group(1)
    return {name: level for level, line in enumerate(block.strip().splitlines()) for name in line.split()}


def part(module: str) -> str:
    """The top-level part of a ``tvseg.x.y`` module name (``x``), or ``""`` for ``tvseg`` itself."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else ""


def imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name


def test_every_part_of_the_package_has_a_layer():
    level = layers()
    parts = {
        p.stem if p.is_file() else p.name
        for p in PACKAGE.iterdir()
        if (p.is_file() and p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").is_file()
    }
    assert parts - set(level) == set(), "give these a layer in docs/architecture.md"


def test_no_module_imports_a_layer_above_or_beside_its_own():
    level = layers()
    wrong = []
    for path in PACKAGE.rglob("*.py"):
        own = part(".".join(path.relative_to(ROOT).with_suffix("").parts))
        if own in ("", "__init__"):
            continue
        for line, module in imports(path):
            if not module.startswith("tvseg"):
                continue
            other = part(module)
            if other in ("", own):  # tvseg itself (its version) or the same package
                continue
            if level[other] >= level[own]:
                wrong.append(
                    f"{path.relative_to(ROOT)}:{line}: {own} (layer {level[own]}) imports {module} "
                    f"(layer {level[other]})"
                )
    assert not wrong, "\n".join(wrong)
