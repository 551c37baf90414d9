"""Copy the real caption files of other projects into tests/data/real_captions/ (how that corpus was made).

Usage: ``python scripts/collect_real_captions.py PROJECT=GIT_DIR ...`` with a clone (a bare one will do)
of each project: ``pycaption`` (github.com/pbs/pycaption), ``pysubs2`` (tkarabela/pysubs2), ``ttconv``
(sandflow/ttconv, which also holds the W3C web-platform-tests WebVTT files, written to ``wpt``),
``webvtt-py`` (glut23/webvtt-py), ``pysrt`` (byroot/pysrt), ``srt`` (cdown/srt). Each project's files
are read at the clone's HEAD and written as they are, with the project's licence and a README naming the
repository and the commit. Caption files that a project keeps inside its Python tests (pycaption's
fixtures, ttconv's SCC reader tests) are written one file per string: a pycaption fixture is the string
its fixture function returns (the file named after the function), a ttconv test string is the
triple-quoted string starting ``Scenarist_SCC`` (named after its test). Formats tvseg does not read
(SAMI, MicroDVD, SBV) are left out.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "real_captions"
REPOSITORIES = {
    "pycaption": "pbs/pycaption",
    "pysubs2": "tkarabela/pysubs2",
    "ttconv": "sandflow/ttconv",
    "webvtt-py": "glut23/webvtt-py",
    "pysrt": "byroot/pysrt",
    "srt": "cdown/srt",
}
CAPTIONS = (".srt", ".vtt", ".scc", ".ttml", ".dfxp", ".stl")
PYCAPTION_FIXTURES = {"scc": ".scc", "translated_scc": ".scc", "dfxp": ".dfxp", "srt": ".srt", "webvtt": ".vtt"}


def git(repo: str, *args: str) -> bytes:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def files(repo: str) -> list[str]:
    return git(repo, "ls-tree", "-r", "HEAD", "--name-only").decode().splitlines()


def show(repo: str, path: str) -> bytes:
    return git(repo, "show", f"HEAD:{path}")


def write(project: str, name: str, data: bytes, sources: list[str], source: str) -> None:
    target = OUT / project / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    sources.append(f"| `{name}` | `{source}` |")


def string_functions(source: str) -> dict[str, str]:
    """The string each function of a module returns as a literal (a pycaption fixture)."""
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef):
            for statement in node.body:
                if isinstance(statement, ast.Return) and isinstance(statement.value, ast.Constant):
                    if isinstance(statement.value.value, str):
                        found[node.name] = statement.value.value
    return found


def scc_strings(source: str) -> dict[str, str]:
    """The SCC documents written as string literals in a test module, named after their test."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            strings = [
                n.value
                for n in ast.walk(node)
                if isinstance(n, ast.Constant) and isinstance(n.value, str) and "Scenarist_SCC" in n.value[:40]
            ]
            for k, text in enumerate(strings):
                found[node.name + (f"_{k + 1}" if len(strings) > 1 else "")] = text
    return found


def collect(project: str, repo: str) -> None:
    commit = git(repo, "rev-parse", "HEAD").decode().strip()
    paths = files(repo)
    sources: dict[str, list[str]] = {}
    licence = next(p for p in paths if "/" not in p and p.upper().startswith(("LICEN", "COPYING")))
    if project == "pycaption":
        rows = sources.setdefault(project, [])
        for module, extension in PYCAPTION_FIXTURES.items():
            path = f"tests/fixtures/{module}.py"
            for name, text in string_functions(show(repo, path).decode()).items():
                write(project, name + extension, text.encode(), rows, f"{path}::{name}")
        for path in paths:
            if path.startswith("examples/example.") and path.endswith((".scc", ".srt", ".vtt", ".xml")):
                write(project, Path(path).name, show(repo, path), rows, path)
    elif project == "ttconv":
        rows = sources.setdefault(project, [])
        wpt = sources.setdefault("wpt", [])
        for path in paths:
            if not path.startswith("src/test/resources/") or not path.endswith(CAPTIONS):
                continue
            if "/wpt-tests/" in path:
                name = path.split("/wpt-tests/", 1)[1].replace("/", "_")
                write("wpt", name, show(repo, path), wpt, path)
            else:
                name = path.removeprefix("src/test/resources/").replace("/", "_")
                write(project, name, show(repo, path), rows, path)
        path = "src/test/python/test_scc_reader.py"
        for name, text in scc_strings(show(repo, path).decode()).items():
            write(project, f"{name}.scc", text.encode(), rows, f"{path}::{name}")
        wpt_licence = "src/test/resources/vtt/wpt-tests/LICENSE.md"
        (OUT / "wpt" / "LICENSE.md").write_bytes(show(repo, wpt_licence))
        readme("wpt", "web-platform-tests/wpt", commit, wpt_licence, wpt)
    else:
        rows = sources.setdefault(project, [])
        for path in paths:
            if "test" in path and path.endswith(CAPTIONS):
                write(project, Path(path).name, show(repo, path), rows, path)
    (OUT / project / licence).write_bytes(show(repo, licence))
    readme(project, REPOSITORIES[project], commit, licence, sources[project])


def readme(project: str, repository: str, commit: str, licence: str, rows: list[str]) -> None:
    copied = (
        " (the WebVTT tests, as copied into sandflow/ttconv's `src/test/resources/vtt/wpt-tests/`)"
        if project == "wpt"
        else ""
    )
    (OUT / project / "README.md").write_text(
        f"# Caption files of {repository}{copied}\n\n"
        f"Copied unchanged from https://github.com/{'sandflow/ttconv' if project == 'wpt' else repository} "
        f"at commit `{commit}` by `scripts/collect_real_captions.py`, under that project's licence "
        f"(`{Path(licence).name}`, here). They are tvseg's test data only (not in the package). A source written "
        "`module.py::name` is a string of that test module, written as it stands: the string that function "
        "returns (pycaption's fixtures), or the SCC document written in that test (ttconv).\n\n"
        "| file here | source in that repository |\n|---|---|\n" + "\n".join(sorted(rows)) + "\n"
    )


def main(arguments: list[str]) -> None:
    for argument in arguments:
        project, repo = argument.split("=", 1)
        collect(project, repo)


if __name__ == "__main__":
    main(sys.argv[1:])
