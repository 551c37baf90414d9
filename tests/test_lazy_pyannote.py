"""pyannote.core is imported only where a pyannote object is built or given (issue 13's import phase).

pyannote.core imports ``matplotlib.pyplot`` when matplotlib is installed (about 0.4 s), more than the
rest of tvseg. The corpus path from files (RTTM, CSV, units, no UEM) never builds a pyannote object,
so ``tvseg evaluate --json`` and ``tvseg validate`` must not import it; :mod:`tvseg.pyannote_objects`
recognises a user's objects without it.
"""

import subprocess
import sys

import pyannote.core
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment, Timeline

from tvseg import boundaries, coverage, read_segments
from tvseg.pyannote_objects import SEGMENT_PRECISION, is_annotation, is_empty, is_segment, is_timeline
from tvseg.samples import demo_folder

_PROBE = r"""
import sys
from tvseg.cli import main
rc = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m == "pyannote.core" or m.startswith(("pyannote.core.", "matplotlib")))
print(rc, len(loaded), loaded[:3])
"""


def _modules_loaded_by(*args: str, cwd) -> str:
    run = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True, cwd=cwd)
    return run.stdout.strip().splitlines()[-1]


def _files_corpus(folder):
    ref, hyp = folder / "ref", folder / "hyp.rttm"
    ref.mkdir()
    lines = []
    for k in range(3):
        show = f"show{k}"
        (ref / f"{show}.rttm").write_text(
            f"SEGMENT {show} 1 0.000 60.000 <NA> <NA> a <NA> <NA>\nSEGMENT {show} 1 60.000 40.000 <NA> <NA> b <NA> <NA>\n"
        )
        lines.append(f"SEGMENT {show} 1 0.000 55.000 <NA> <NA> a <NA> <NA>")
        lines.append(f"SEGMENT {show} 1 55.000 45.000 <NA> <NA> b <NA> <NA>")
    hyp.write_text("\n".join(lines) + "\n")
    units = folder / "units.csv"
    rows = ["show,start,end"] + [f"show{k},{t}.0,{t + 5}.0" for k in range(3) for t in range(0, 100, 5)]
    units.write_text("\n".join(rows) + "\n")
    return ref, hyp, units


def test_evaluate_and_validate_from_files_do_not_import_pyannote(tmp_path):
    ref, hyp, units = _files_corpus(tmp_path)
    inputs = ["--reference", str(ref), "--hypothesis", f"a={hyp}", "--units", str(units)]
    out = tmp_path / "out.json"
    assert _modules_loaded_by("evaluate", *inputs, "--json", str(out), "--quiet", cwd=tmp_path) == "0 0 []"
    assert out.stat().st_size > 0
    assert _modules_loaded_by("validate", *inputs, cwd=tmp_path) == "0 0 []"


def _uem_corpus(folder):
    ref, hyp, _ = _files_corpus(folder)
    uem = folder / "corpus.uem"
    uem.write_text("".join(f"show{k} 1 0.000 100.000\n" for k in range(3)))
    return ["--reference", str(ref), "--hypothesis", f"a={hyp}", "--uem", str(uem)]


def test_a_uem_read_from_a_file_builds_no_timeline(tmp_path):
    # read_uem returns the regions as arrays (tvseg.columns.RegionColumns): evaluate and validate crop to them
    # without pyannote
    inputs = _uem_corpus(tmp_path)
    out = tmp_path / "out.json"
    assert _modules_loaded_by("evaluate", *inputs, "--json", str(out), "--quiet", cwd=tmp_path) == "0 0 []"
    assert out.stat().st_size > 0
    assert _modules_loaded_by("validate", *inputs, cwd=tmp_path) == "0 0 []"


def test_the_probe_sees_pyannote_when_a_show_of_the_uem_is_asked_for(tmp_path):
    # the checks above can fail: uem[show] is a pyannote Timeline, built (and pyannote.core imported) at the lookup
    _uem_corpus(tmp_path)
    code = (
        "import sys, tvseg; uem = tvseg.read_uem('corpus.uem'); before = 'pyannote.core' in sys.modules; "
        "t = uem['show1']; print(before, 'pyannote.core' in sys.modules, type(t).__name__, t.extent().end)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert run.stdout.split() == ["False", "True", "Timeline", "100.0"]


def test_segment_precision_is_pyannotes():
    assert SEGMENT_PRECISION == pyannote.core.segment.SEGMENT_PRECISION


_TIMES = st.one_of(
    st.floats(min_value=0, max_value=1e5, allow_nan=False),
    st.sampled_from([0.0, 1e-6, 2e-6, 0.5e-6, 1.000001, 1.0000005, 10.0]),
)


@given(_TIMES, _TIMES)
def test_is_empty_is_pyannotes_emptiness(start, end):
    assert is_empty(start, end) == (not Segment(start, end))


@pytest.mark.parametrize(
    "obj, kinds",
    [
        (Annotation(), {"annotation"}),
        (Timeline([Segment(0, 1)]), {"timeline"}),
        (Segment(0, 1), {"segment"}),
        ([(0.0, 1.0)], set()),
        (None, set()),
        ("Annotation", set()),
    ],
)
def test_objects_are_recognised(obj, kinds):
    got = {
        name
        for name, check in [("annotation", is_annotation), ("timeline", is_timeline), ("segment", is_segment)]
        if check(obj)
    }
    assert got == kinds


def test_read_segments_still_gives_annotations():
    reference = read_segments(demo_folder() / "hypotheses" / "system_a.rttm")
    show = next(iter(reference))
    assert isinstance(reference[show], Annotation) and reference[show].uri == show


def test_the_per_show_api_takes_pyannote_objects_and_arrays_alike():
    # reference boundary at 10, 20; hypothesis at 14: one match within 5 s (|14 - 10| = 4)
    ref = Timeline([Segment(0, 10), Segment(10, 20), Segment(20, 30)])
    hyp = Annotation()
    hyp[Segment(0, 14)] = "x"
    hyp[Segment(14, 30)] = "y"
    as_objects = boundaries(ref, hyp, tolerance=5)
    as_arrays = boundaries([(0, 10), (10, 20), (20, 30)], [(0, 14), (14, 30)], tolerance=5)
    assert (as_objects.n_matched, as_objects.n_reference, as_objects.n_hypothesis) == (1, 2, 1)
    assert (as_arrays.n_matched, as_arrays.n_reference, as_arrays.n_hypothesis) == (1, 2, 1)
    assert coverage(ref, hyp).n_reference == coverage([(0, 10), (10, 20), (20, 30)], [(0, 14), (14, 30)]).n_reference
