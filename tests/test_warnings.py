"""tvseg's warnings: its own categories under :class:`tvseg.TvsegWarning`, given through Python's
``warnings`` machinery whoever the caller is (a script file, ``python -c``, a script on stdin, an
IPython shell, the command line), filtered or made errors by category."""

from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap
import warnings

import pytest
from pyannote.core import Annotation, Segment

import tvseg
import tvseg.errors

CATEGORIES = (
    "LenientInputWarning",
    "SuspiciousInputWarning",
    "UndefinedValueWarning",
    "FewShowsWarning",
    "ApproximationWarning",
    "OutputChangedWarning",
)

# WebVTT times without leading zeros: read as if padded, with a warning at the first such cue (line 3)
VTT = "WEBVTT\n\n0:0:1.000 --> 0:0:2.000\nhello\n"
# two segments of show 'a' (lines 1-2); the UEM region 2-15 s shortens the first and leaves out the
# third (line 3, 30-40 s, wholly outside): a warning names a.rttm:3
RTTM = (
    "SPEAKER a 1 0.000 10.000 <NA> <NA> A <NA> <NA>\n"
    "SPEAKER a 1 10.000 5.000 <NA> <NA> B <NA> <NA>\n"
    "SPEAKER a 1 30.000 10.000 <NA> <NA> C <NA> <NA>\n"
)
UEM = "a 1 2.000 15.000\n"
READ_VTT = "import tvseg\ntvseg.read_segments('x.vtt')\nprint('done')\n"
READ_RTTM = "import tvseg\ntvseg.read_segments('a.rttm', uem=tvseg.read_uem('a.uem'))\nprint('done')\n"
CASES = [(READ_VTT, "x.vtt:3: 2 cue time(s) written without leading zeros"), (READ_RTTM, "a.rttm:3: show 'a'")]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "x.vtt").write_text(VTT)
    (tmp_path / "a.rttm").write_text(RTTM)
    (tmp_path / "a.uem").write_text(UEM)
    return tmp_path


def run(args, cwd, stdin=None):
    return subprocess.run(args, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=120)


def check(done, expected):
    assert done.returncode == 0, done.stderr
    assert "done" in done.stdout
    assert expected in done.stderr
    assert "LenientInputWarning" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("code, expected", CASES)
def test_from_a_script_file(files, code, expected):
    (files / "script.py").write_text(code)
    check(run([sys.executable, "script.py"], files), expected)


@pytest.mark.parametrize("code, expected", CASES)
def test_from_python_c(files, code, expected):
    # the caller's module is a `-c` __main__, whose loader (BuiltinImporter) cannot give its source
    check(run([sys.executable, "-c", code], files), expected)


@pytest.mark.parametrize("code, expected", CASES)
def test_from_a_script_on_stdin(files, code, expected):
    check(run([sys.executable, "-"], files, stdin=code), expected)


@pytest.mark.parametrize("code, expected", CASES)
def test_from_an_ipython_shell(files, code, expected):
    pytest.importorskip("IPython")
    # the cell as a notebook runs it: through IPython's InteractiveShell, its warnings shown as IPython shows them
    driver = textwrap.dedent(
        f"""
        import sys, warnings
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        result = shell.run_cell({code!r})
        sys.exit(0 if result.success else 1)
        """
    )
    check(run([sys.executable, "-c", driver], files), expected)


def test_through_the_cli(files):
    for options, expected in (
        (["--reference", "x.vtt", "--hypothesis", "s=x.vtt"], "x.vtt:3: 2 cue time(s)"),
        (["--reference", "a.rttm", "--hypothesis", "s=a.rttm", "--uem", "a.uem"], "a.rttm:3: reference: show 'a'"),
    ):
        done = run([sys.executable, "-m", "tvseg", "evaluate", *options, "--no-html", "--bootstrap", "0"], files)
        assert done.returncode == 0, done.stderr
        assert f"tvseg: warning: {expected}" in done.stderr
        assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_categories_are_public_subclasses_of_the_base():
    for name in CATEGORIES:
        category = getattr(tvseg, name)
        assert category is getattr(tvseg.errors, name)
        assert issubclass(category, tvseg.TvsegWarning) and category is not tvseg.TvsegWarning
        assert name in tvseg.__all__ and name in tvseg.errors.__all__
    assert issubclass(tvseg.TvsegWarning, UserWarning)


def test_an_error_filter_on_the_base_raises_the_category(files, monkeypatch):
    monkeypatch.chdir(files)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tvseg.TvsegWarning)
        with pytest.raises(tvseg.LenientInputWarning, match=r"x\.vtt:3: "):
            tvseg.read_segments("x.vtt")
        with pytest.raises(tvseg.LenientInputWarning, match=r"a\.rttm:3: "):
            tvseg.read_segments("a.rttm", uem=tvseg.read_uem("a.uem"))


def test_filtering_one_category_leaves_the_others(files, monkeypatch):
    monkeypatch.chdir(files)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", tvseg.LenientInputWarning)
        reference = tvseg.read_segments("x.vtt")  # its warning is filtered out
        assert caught == []
        tvseg.evaluate(reference, {"s": reference}, settings=tvseg.Settings(bootstrap=0))
    # one cue: no boundary on either side, so the boundary rates are 0/0
    assert caught and all(issubclass(w.category, tvseg.UndefinedValueWarning) for w in caught)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tvseg.UndefinedValueWarning)
        warnings.simplefilter("ignore", tvseg.LenientInputWarning)
        with pytest.raises(tvseg.UndefinedValueWarning, match="s: no hypothesis boundary"):
            tvseg.evaluate(reference, {"s": reference}, settings=tvseg.Settings(bootstrap=0))


def test_a_file_read_twice_warns_twice(files, monkeypatch):
    monkeypatch.chdir(files)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        tvseg.read_segments("x.vtt")
        tvseg.read_segments("x.vtt")
    assert [str(w.message)[:6] for w in caught] == ["x.vtt:", "x.vtt:"]
    assert all(w.filename == __file__ for w in caught)  # the caller outside tvseg


def _story(*bounds):
    annotation = Annotation()
    for k, (start, end) in enumerate(zip(bounds[:-1], bounds[1:])):
        annotation[Segment(start, end), k] = f"t{k}"
    return annotation


def test_the_warnings_of_evaluate_name_the_callers_line(files):
    # two shows and a bootstrap (FewShowsWarning: fewer than 10 shows); a hypothesis show the reference
    # lacks, a reference show without hypothesis, a hypothesis past the reference's end (LenientInputWarning);
    # show s2 has no boundary (UndefinedValueWarning); a hypothesis read with a UEM that leaves a segment out
    reference = {"a": _story(0, 5, 15), "s2": _story(0, 100)}
    hypothesis = {"a": _story(0, 6, 20), "extra": _story(0, 10)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the reader's own warnings: test_a_file_read_twice_warns_twice
        read = tvseg.read_segments(files / "a.rttm", uem=tvseg.read_uem(files / "a.uem"))
    calls = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        calls.append(inspect.currentframe().f_lineno + 1)
        tvseg.evaluate(reference, {"sys": hypothesis, "read": read}, settings=tvseg.Settings(bootstrap=20))
        calls.append(inspect.currentframe().f_lineno + 1)
        tvseg.evaluate(reference, {"sys": hypothesis}, uem={"a": tvseg.read_uem(files / "a.uem")["a"]})
    kinds = {w.category for w in caught}
    assert {tvseg.FewShowsWarning, tvseg.LenientInputWarning, tvseg.UndefinedValueWarning} <= kinds
    assert [(w.category.__name__, w.filename, w.lineno) for w in caught if w.filename != __file__] == []
    assert {w.lineno for w in caught} == set(calls)
