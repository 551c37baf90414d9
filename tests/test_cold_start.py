"""Cold start (issue 25, item 4): what a short command imports, checked on the modules, not on the time.

``tvseg --version`` and every ``--help`` build the argument parser only: they must import neither numpy,
pandas nor pyannote (numpy and pandas alone take about 0.3 s to import). ``tvseg validate FILE`` reads
a small file with numpy, without pandas, and counts what it read without pyannote.core, which imports
matplotlib (about 0.4 s more); ``--preset chunkseg`` stems titles without nltk. Each command runs as
``python -m tvseg`` in a fresh interpreter (:data:`_PROBE`), which writes the names of the modules it
holds to a file at exit (an :mod:`atexit` function).
"""

import json
import subprocess
import sys

import pytest

from tvseg import __version__

_PROBE = r"""
import atexit, json, runpy, sys
out, sys.argv = sys.argv[1], ["tvseg", *sys.argv[2:]]


def record():
    with open(out, "w") as f:
        json.dump(sorted(sys.modules), f)


atexit.register(record)  # run at exit by Python, and by tvseg.cli.end_process
runpy.run_module("tvseg", run_name="__main__", alter_sys=True)
"""

_PARSER_ONLY = ("numpy", "pandas", "pyannote")
_VALIDATE = ("pyannote", "matplotlib")


def _run(tmp_path, *args: str):
    """``python -m tvseg ARGS`` in a fresh interpreter: (exit code, stdout, stderr, the top-level packages
    imported, with pyannote's sub-packages as ``pyannote.core`` etc.)."""
    record = tmp_path / "modules.json"
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, str(record), *args], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    modules = json.loads(record.read_text())
    packages = {name.split(".")[0] for name in modules}
    _MODULES[tmp_path] = set(modules)
    return run.returncode, run.stdout, run.stderr, packages


_MODULES: dict = {}  # each test folder's modules, every name, as the last run there held them


def _heavy(packages: set, names: tuple) -> list:
    return sorted(p for p in packages if p in names)


def test_version_imports_no_numpy_pandas_or_pyannote(tmp_path):
    code, out, _, packages = _run(tmp_path, "--version")
    assert (code, out) == (0, f"tvseg {__version__}\n")
    assert _heavy(packages, _PARSER_ONLY) == []


@pytest.mark.parametrize(
    "command",
    [
        [],
        ["evaluate"],
        ["validate"],
        ["convert"],
        ["agreement"],
        ["simulate"],
        ["simulate", "pevzner-hearst"],
        ["simulate", "fournier-inkpen"],
        ["simulate", "segment-retrieval"],
    ],
)
def test_help_imports_no_numpy_pandas_or_pyannote(tmp_path, command):
    code, out, _, packages = _run(tmp_path, *command, "--help")
    assert code == 0
    assert out.startswith(f"usage: {' '.join(['tvseg', *command])} ")
    assert _heavy(packages, _PARSER_ONLY) == []


def test_usage_errors_import_no_numpy_pandas_or_pyannote(tmp_path):
    code, out, err, packages = _run(tmp_path, "evaluate", "--convention", "nosuch")
    assert (code, out) == (2, "")
    assert "invalid choice: 'nosuch'" in err
    assert _heavy(packages, _PARSER_ONLY) == []


# Each file's summary is counted by hand from its lines.
_FILES = {
    # 3 SEGMENT lines, shows news1 (2) and news2 (1)
    "ref.rttm": (
        "SEGMENT news1 1 0.000 60.000 <NA> <NA> weather <NA> <NA>\n"
        "SEGMENT news1 1 60.000 40.000 <NA> <NA> sport <NA> <NA>\n"
        "SEGMENT news2 1 0.000 30.000 <NA> <NA> intro <NA> <NA>\n",
        "RTTM, 2 show(s), 3 segment(s)",
    ),
    # 3 regions: news1 two (a gap from 50 to 60 s), news2 one
    "corpus.uem": (
        "news1 1 0.000 50.000\nnews1 1 60.000 100.000\nnews2 1 0.000 30.000\n",
        "UEM, 2 show(s), 3 region(s)",
    ),
    # 3 rows: news1 two units, news2 one
    "units.csv": (
        "show,start,end\nnews1,0.0,5.0\nnews1,5.0,10.0\nnews2,0.0,4.0\n",
        "breath groups, 2 show(s), 3 unit(s)",
    ),
    # 2 cues, the show named by the file
    "news3.vtt": (
        "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nGood evening.\n\n00:00:05.000 --> 00:00:09.500\nThe weather now.\n",
        "VTT captions, 1 show(s), 2 cue(s) read as 2 unit(s) (as --units reads them); as segments: 2 segment(s)",
    ),
    # 3 numbered cues
    "news4.srt": (
        "1\n00:00:00,000 --> 00:00:04,000\nHello.\n\n2\n00:00:04,000 --> 00:00:08,000\nGoodbye.\n\n"
        "3\n00:00:08,000 --> 00:00:10,000\nEnd.\n",
        "SRT captions, 1 show(s), 3 cue(s) read as 3 unit(s) (as --units reads them); as segments: 3 segment(s)",
    ),
}


@pytest.mark.parametrize("name", sorted(_FILES))
def test_validate_of_a_file_imports_no_pyannote_or_matplotlib(tmp_path, name):
    text, summary = _FILES[name]
    (tmp_path / name).write_text(text, encoding="utf-8")
    code, out, err, packages = _run(tmp_path, "validate", name)
    assert (code, out, err) == (0, f"{name}: ok: {summary}\n", "")
    assert _heavy(packages, _VALIDATE) == []
    # the probe sees what a command imports: validate reads a small file with numpy, without pandas
    # (issue 41: its import takes longer than reading the file)
    assert "numpy" in packages
    assert "pandas" not in packages


def test_validate_of_a_bad_uem_reports_it_without_pyannote(tmp_path):
    # lines 1 and 2 of one show overlap from 40 to 50 s
    (tmp_path / "overlap.uem").write_text("news1 1 0.000 50.000\nnews1 1 40.000 100.000\n", encoding="utf-8")
    code, out, err, packages = _run(tmp_path, "validate", "overlap.uem")
    assert (code, out) == (2, "")
    assert err == "overlap.uem:2: UEM regions overlap (lines 1 and 2): '0-50 and 40-100'\n"
    assert _heavy(packages, _VALIDATE) == []


def test_chunkseg_stemmed_titles_import_no_nltk(tmp_path):
    # --preset chunkseg stems the titles for ROUGE-L: with tvseg's Porter stemmer, not nltk's, whose
    # import pulls in all of nltk (and scipy.stats, scikit-learn)
    row = (
        '{"show": "news", "reference": [11.0, 23.0], "hypothesis": [24.2], "duration": 50.0, '
        '"reference_titles": [["Opening", 0], ["Wrapping texts", 11.0], ["Backgrounds", 23.0]], '
        '"hyp_titles": [["Openings", 0], ["Clipped backgrounds", 24.2]]}\n'
    )
    (tmp_path / "chunks.jsonl").write_text(row, encoding="utf-8")
    code, out, err, packages = _run(
        tmp_path, "evaluate", "--chunkseg", "chunks.jsonl", "--preset", "chunkseg", "--no-html"
    )
    assert code == 0, err
    assert "stem:yes" in out  # the settings signature: titles stemmed
    assert "nltk" not in packages


# The readers of formats a command does not read (tvseg.readers.formats): imported only for a file of theirs.
_OTHER_READERS = {
    f"tvseg.readers.{name}"
    for name in (
        "broadcast_captions",
        "subtitles",
        "webvtt",
        "chapter_list",
        "jsonl",
        "mapped_columns",
        "podcast",
        "text_corpora",
        "trecvid",
        "video_chapters",
        "ytseg",
        "durations",
    )
}


def test_evaluate_of_rttm_and_csv_imports_no_reader_of_another_format(tmp_path):
    for name in ("ref.rttm", "units.csv"):
        (tmp_path / name).write_text(_FILES[name][0], encoding="utf-8")
    hypothesis = (
        "SEGMENT news1 1 0.000 55.000 <NA> <NA> a <NA> <NA>\nSEGMENT news1 1 55.000 45.000 <NA> <NA> b <NA> <NA>\n"
    )
    (tmp_path / "a.rttm").write_text(hypothesis + "SEGMENT news2 1 0.000 30.000 <NA> <NA> c <NA> <NA>\n")
    code, _, err, _ = _run(
        tmp_path, "evaluate", "--reference", "ref.rttm", "--hypothesis", "a=a.rttm", "--units", "units.csv", "--no-html"
    )
    assert code == 0, err
    assert sorted(_MODULES[tmp_path] & _OTHER_READERS) == []


def test_a_caption_file_imports_its_reader(tmp_path):
    # the other side of the rule above: the WebVTT reader is imported when a WebVTT file is read
    (tmp_path / "news3.vtt").write_text(_FILES["news3.vtt"][0], encoding="utf-8")
    code, out, err, _ = _run(tmp_path, "validate", "news3.vtt")
    assert code == 0, err
    assert "tvseg.readers.webvtt" in _MODULES[tmp_path]
    assert "tvseg.readers.ytseg" not in _MODULES[tmp_path]
