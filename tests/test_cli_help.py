"""The command line as people read it (issue 17): help without internal markup, usage errors that
name the subcommand, every example of the README and of --help runnable, the README's table naming
keys that exist."""

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tvseg import metrics
from tvseg.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tvseg" / "data_samples"
README = (ROOT / "README.md").read_text(encoding="utf-8")
MARKUP = re.compile(r":func:|:class:|:mod:|:meth:|:data:|``")


def command_parsers(parser=None, prefix=("tvseg",)):
    """``(argv prefix, parser)`` of every command and subcommand."""
    import argparse

    parser = parser or build_parser()
    yield prefix, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from command_parsers(sub, prefix + (name,))


@pytest.mark.parametrize("argv", [p for p, _ in command_parsers()], ids=" ".join)
def test_help_has_no_internal_markup(argv):
    text = dict(command_parsers())[argv].format_help()
    assert not MARKUP.search(text), MARKUP.search(text).group()
    assert "contract" not in text


def test_simulate_help_offers_only_its_own_options():
    parsers = dict(command_parsers())
    assert "--as-published" not in parsers[("tvseg", "simulate", "pevzner-hearst")].format_help()
    assert "--as-published" in parsers[("tvseg", "simulate", "fournier-inkpen")].format_help()


@pytest.mark.parametrize("argv", [p for p, _ in command_parsers()], ids=" ".join)
def test_help_offers_only_options_the_command_takes(argv):
    # issue 22: `tvseg validate --help` offered --html / --no-html (in --demo's help, shared with
    # evaluate), which validate refuses; every --option a command's help names must be its own
    parser = dict(command_parsers())[argv]
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", parser.format_help()))
    assert named <= set(parser._option_string_actions), sorted(named - set(parser._option_string_actions))


def test_validate_help_is_true_to_validate(capsys):
    text = dict(command_parsers())[("tvseg", "validate")].format_help()
    assert "--html" not in text and "report" not in text
    assert "--demo" in text
    with pytest.raises(SystemExit) as exit_:
        main(["validate", "--demo", "--html", "x"])  # refused, as the help now says
    assert exit_.value.code == 2
    assert "unrecognized arguments: --html" in capsys.readouterr().err


def test_usage_errors_name_the_subcommand(capsys):
    with pytest.raises(SystemExit) as exit_:  # argparse's own error: exit 2
        main(["evaluate", "--bogus"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: tvseg evaluate") and "tvseg evaluate: error: unrecognized arguments: --bogus" in err
    assert main(["evaluate"]) == 2  # a UsageError raised by the command
    err = capsys.readouterr().err
    assert err.startswith("usage: tvseg evaluate") and err.strip().endswith("--reference is required (or --demo)")
    with pytest.raises(SystemExit):
        main(["simulate", "pevzner-hearst", "--as-published"])
    assert capsys.readouterr().err.startswith("usage: tvseg simulate pevzner-hearst")


@pytest.mark.parametrize(
    "argv, error",
    [
        (["evaluate", "--bogus"], "tvseg evaluate: error: unrecognized arguments: --bogus"),  # argparse's
        (["evaluate"], "tvseg evaluate: error: --reference is required (or --demo)"),  # a UsageError
        (["evaluate", "--demo", "--gamma", "x"], "tvseg evaluate: error: argument --gamma: invalid float value: 'x'"),
        ([], "tvseg: error: the following arguments are required: COMMAND"),
        (["validate"], "tvseg validate: error: give files or folders to check"),
        (["simulate", "pevzner-hearst", "--as-published"], "tvseg simulate pevzner-hearst: error: unrecognized"),
    ],
    ids=lambda x: " ".join(x) if isinstance(x, list) else "",
)
def test_a_usage_error_is_two_lines(argv, error):
    # issue 22: a usage error printed argparse's whole usage (14 lines for evaluate); now the command's
    # short usage line, pointing to --help, and the error; exit 2 (the real command line, a subprocess)
    result = subprocess.run([sys.executable, "-m", "tvseg", *argv], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    prog = " ".join(["tvseg", *[a for a in argv[:2] if not a.startswith("-")]])
    assert lines[0] == f"usage: {prog} [-h] ... (see {prog} --help)"
    assert len(lines) == 2 and lines[1].startswith(error), result.stderr


def test_html_needs_its_folder(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["evaluate", "--demo", "--html"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    # the short usage points to the help, which says --html DIR
    assert "argument --html: expected one argument" in err and "(see tvseg evaluate --help)" in err
    assert "--html DIR" in dict(command_parsers())[("tvseg", "evaluate")].format_help()


def test_the_vidchapters_preset_names_the_commit_the_readme_names():
    # the README's table names the commit of VidChapters' dvc_eval that tvseg's metrics were read at
    named = re.findall(r"VidChapters-7M `dvc_eval` captioning \(.*; commit ([0-9a-f]{8})\)", README)
    assert named == ["fa3900c6"]
    text = " ".join(dict(command_parsers())[("tvseg", "evaluate")].format_help().split())
    assert re.findall(r"vidchapters: VidChapters-7M dvc_eval \(commit ([0-9a-f]+)\)", text) == named


def test_format_option_reads_a_file_whose_extension_does_not_say(tmp_path, capsys):
    path = tmp_path / "sysa.txt"
    shutil.copy(ROOT / "formats" / "examples" / "rttm-valid.rttm", path)
    assert main(["validate", str(path)]) == 2
    assert main(["validate", "--format", "rttm", str(path)]) == 0
    assert "RTTM" in capsys.readouterr().out


def test_captions_given_as_chapters_get_a_hint(capsys):
    code = main(
        [
            "evaluate",
            "--reference",
            str(SAMPLES / "units" / "captions" / "fr2_journal20h_2024-03-11.srt"),
            "--hypothesis",
            f"a={SAMPLES / 'hypotheses' / 'system_a.rttm'}",
            "--bootstrap",
            "0",
        ]
    )
    err = capsys.readouterr().err
    assert code == 0
    assert "reference: 1 show(s) look like captions" in err and "--units" in err


def readme_commands() -> list[str]:
    """Every ``tvseg`` command line of the README's bash blocks (continuations joined, comments cut)."""
    out = []
    for block in re.findall(r"```bash\n(.*?)```", README, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split(" # ")[0].split("  #")[0].strip()
            if line.startswith("tvseg "):
                out.append(line)
    return out


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder holding the files the README's examples name, made from the bundled data."""
    work = tmp_path_factory.mktemp("readme")
    shutil.copytree(SAMPLES / "reference" / "chapters", work / "ref")
    (work / "out").mkdir()
    shutil.copy(SAMPLES / "hypotheses" / "system_a.rttm", work / "out" / "mine.rttm")
    shutil.copytree(SAMPLES / "hypotheses" / "system_b", work / "out" / "base")
    shutil.copy(SAMPLES / "units" / "breath_groups.csv", work / "breath_groups.csv")
    shutil.copy(SAMPLES / "corpus.uem", work / "shows.uem")
    shutil.copy(SAMPLES / "metadata.csv", work / "shows.csv")
    shutil.copy(SAMPLES / "reference" / "reference.rttm", work / "ref.rttm")
    shutil.copy(SAMPLES / "annotators" / "annotator_b.rttm", work / "ref_b.rttm")  # a second annotator
    shutil.copy(ROOT / "formats" / "examples" / "jsonl-valid.jsonl", work / "samples.jsonl")
    (work / "data_samples").symlink_to(ROOT / "data_samples", target_is_directory=True)  # the journeys' samples
    shows = sorted(path.name for path in (work / "ref").iterdir())
    for part, kept in (("part1", shows[::2]), ("part2", shows[1::2])):  # two parts of a corpus for tvseg merge
        (work / part).mkdir()
        for name in kept:
            shutil.copy(work / "ref" / name, work / part)
        run = ["evaluate", "--reference", f"{part}/", "--hypothesis", "mine=out/mine.rttm", "--bootstrap", "0"]
        subprocess.run(
            [sys.executable, "-m", "tvseg", *run, "--json", f"{part}.json"], cwd=work, check=True, capture_output=True
        )
    for name, gamma in (("yesterday.json", "0.85"), ("today.json", "0.7")):  # two runs for tvseg compare
        run = ["evaluate", "--reference", "ref/", "--hypothesis", "mine=out/mine.rttm", "--bootstrap", "0"]
        subprocess.run(
            [sys.executable, "-m", "tvseg", *run, "--gamma", gamma, "--json", name],
            cwd=work,
            check=True,
            capture_output=True,
        )
    return work


@pytest.mark.parametrize("line", readme_commands())
def test_every_readme_command_runs(line, workdir):
    # a path into the clone (tvseg/data_samples/agreement/coders.json) is the clone's: the README's
    # commands run from its root (a tvseg/ folder in the work folder would hide the package from -m)
    argv = [str(ROOT / a) if a.startswith("tvseg/data_samples/") else a for a in shlex.split(line)]
    if argv[:3] == ["tvseg", "simulate", "pevzner-hearst"]:
        argv += ["--trials", "1", "--hypotheses", "2"]  # the same command, a smaller run
    result = subprocess.run(
        [sys.executable, "-m", "tvseg", *argv[1:]], cwd=workdir, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, (line, result.stderr[-2000:])


def test_every_help_example_runs(workdir):
    examples = []
    for _, parser in command_parsers():
        for line in (parser.epilog or "").splitlines():
            if line.strip().startswith("tvseg "):
                examples.append(line.strip())
    assert examples, "no example in any --help"
    for line in examples:
        argv = shlex.split(line)
        result = subprocess.run(
            [sys.executable, "-m", "tvseg", *argv[1:]], cwd=workdir, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, (line, result.stderr[-2000:])


def test_the_readme_python_example_runs(tmp_path):
    code = re.search(r"```python\n(.*?)```", README, re.S).group(1)
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]


def test_the_numbers_table_names_keys_that_exist():
    section = README.split("## What the numbers mean", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in section.splitlines() if line.startswith("|") and not line.startswith("|---")][1:]
    assert rows
    import tvseg

    for row in rows:
        where = row.rstrip("|").rsplit("|", 1)[-1]
        for name in re.findall(r"`([^`]+)`", where):
            for token in re.split(r"[,\s]+", name):
                token = token.strip()
                if not token or "..." in token or "(" in token or "=" in token or token.startswith("-"):
                    continue
                if token.startswith("tvseg."):
                    assert hasattr(tvseg, token.split(".")[1].split("(")[0]), token
                elif token.endswith("*"):
                    assert any(k.startswith(token[:-1]) for k in metrics.METRICS), token
                elif "<d>" in token:
                    assert all(token.replace("<d>", str(d)) in metrics.METRICS for d in (1, 3, 5, 10, 30, 60)), token
                elif re.fullmatch(r"[a-z_0-9]+", token) and token not in ("by_length",):
                    assert token in metrics.METRICS, (row[:40], token)


def test_validate_reads_a_chapter_list_with_its_format(capsys):
    examples = ROOT / "formats" / "examples" / "txt"
    assert main(["validate", "--format", "txt", str(examples / "chapter_list-valid.txt")]) == 0
    assert "chapter list, 5 chapter(s)" in capsys.readouterr().out
    assert main(["validate", "--format", "txt", str(examples / "chapter_list-invalid.txt")]) == 2
    assert "chapter_list-invalid.txt:3: chapter times must increase" in capsys.readouterr().err


def test_every_row_of_the_coming_from_table_names_a_test_that_exists():
    section = README.split("**Coming from another tool", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| coming")]
    assert len(rows) >= 8
    for row in rows:
        tests = re.findall(r"`(tests/[^`]+\.py)`", row.rstrip("|").rsplit("|", 1)[-1])
        assert tests, row
        for path in tests:
            assert (ROOT / path).is_file(), path
        # a test named by its function (`test_...`) is one of the files named in the row
        for name in re.findall(r"`(test_\w+)`", row.rstrip("|").rsplit("|", 1)[-1]):
            assert any(f"def {name}(" in (ROOT / path).read_text() for path in tests), name


def test_agreement_takes_the_format_of_its_segment_files(tmp_path, capsys):
    # two coders' RTTM files named .txt: refused without --format, read with it
    for k, name in enumerate(("a", "b")):
        shutil.copy(
            SAMPLES / "hypotheses" / "system_a.rttm" if k else SAMPLES / "reference" / "reference.rttm",
            tmp_path / f"{name}.txt",
        )
    args = ["agreement", f"a={tmp_path / 'a.txt'}", f"b={tmp_path / 'b.txt'}", "--frame", "10"]
    assert main(args) == 2
    capsys.readouterr()
    assert main(args + ["--format", "rttm"]) == 0
    assert "segeval 2.0" not in dict(command_parsers())[("tvseg", "agreement")].format_help().split("--chance-count")[1]


def test_the_version_comes_from_one_place(capsys):
    # tvseg --version, the package's metadata (pyproject reads tvseg.__version__) and the settings'
    # signature all say the same version
    from importlib.metadata import version

    import tvseg
    from tvseg.settings import Settings

    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"tvseg {tvseg.__version__}"
    assert version("tvseg") == tvseg.__version__
    assert Settings().signature().endswith(f"version:{tvseg.__version__}")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and 'version = {attr = "tvseg.__version__"}' in pyproject
