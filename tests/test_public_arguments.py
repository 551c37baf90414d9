"""A public function given an argument of the wrong kind refuses it at the call, naming the argument, what it
got and what it accepts (issue 39): before, ``tvseg.evaluate(None, None)`` raised an AttributeError from deep
inside and ``sweep_tolerances=[nan]`` said "cannot convert float NaN to integer"."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pyannote.core import Annotation, Segment, Timeline

import tvseg
from tvseg.errors import InputError, UsageError


def _annotation() -> Annotation:
    a = Annotation()
    a[Segment(0, 10)] = "x"
    a[Segment(10, 20)] = "y"
    return a


REF = {"s": _annotation()}
HYP = {"sys": {"s": _annotation()}}


def _evaluate(**changed):
    arguments = {"reference": REF, "hypotheses": HYP, **changed}
    return lambda: tvseg.evaluate(arguments.pop("reference"), arguments.pop("hypotheses"), **arguments)


# (id, call, error class, the message expected: the argument, what is accepted, what it got)
CASES = [
    (
        "evaluate(None, None)",
        lambda: tvseg.evaluate(None, None),
        InputError,
        "reference must be a mapping {show id: segmentation} (a segmentation: a pyannote.core Annotation or "
        "Timeline, (start, end) pairs, an (n, 2) array or None), got None",
    ),
    (
        "hypotheses a list",
        _evaluate(hypotheses=[REF]),
        InputError,
        "hypotheses must be a mapping {system name: {show id: segmentation}}, got a list",
    ),
    (
        "a system's shows a list",
        _evaluate(hypotheses={"sys": [REF["s"]]}),
        InputError,
        "hypotheses['sys'] must be a mapping {show id: segmentation} (a segmentation: ",
    ),
    (
        "a show's segmentation neither pairs nor an Annotation",
        _evaluate(hypotheses={"sys": {"s": [1]}}),  # one number, not a (start, end) pair
        InputError,
        "hypotheses['sys']['s'] must be a pyannote.core Annotation or Timeline, (start, end) pairs, an (n, 2) "
        "array or None, got a list",
    ),
    (
        "a reference show a str",
        _evaluate(reference={"s": "0 10"}),
        InputError,
        "reference['s'] must be a pyannote.core Annotation or Timeline, (start, end) pairs, an (n, 2) array or "
        "None, got '0 10' (a str)",
    ),
    (
        "settings a dict",
        _evaluate(settings={"gamma": 0.9}),
        UsageError,
        "settings must be a tvseg.Settings or None (for a dict of options, give tvseg.Settings(**options)), got a dict",
    ),
    (
        "units a list",
        _evaluate(units=[1, 2]),
        InputError,
        "units must be a mapping {show id: DataFrame of start, end} (as tvseg.read_units returns) or None, got a list",
    ),
    (
        "uem a str",
        _evaluate(uem="x"),
        InputError,
        "uem must be a mapping {show id: pyannote.core Timeline} (as tvseg.read_uem returns) or None, got 'x' (a str)",
    ),
    (
        "a show's uem an Annotation",
        _evaluate(uem={"s": _annotation()}),
        InputError,
        "uem['s'] must be a pyannote.core Timeline, got an Annotation",
    ),
    (
        "metadata a dict",
        _evaluate(metadata={"s": "TF1"}),
        InputError,
        "metadata must be a pandas DataFrame indexed by show id (as tvseg.read_metadata returns) or None, got a dict",
    ),
    (
        "sweep tolerance NaN",
        _evaluate(sweep_tolerances=[float("nan")]),
        UsageError,
        "sweep_tolerances[0] must be a number of seconds in [0, 2,000,000,000], got nan (a float)",
    ),
    (
        "sweep tolerance negative",
        _evaluate(sweep_tolerances=[0, 5, -1]),
        UsageError,
        "sweep_tolerances[2] must be a number of seconds in [0, 2,000,000,000], got -1 (an int)",
    ),
    (
        "sweep tolerance infinite",
        _evaluate(sweep_tolerances=np.array([1.0, math.inf])),
        UsageError,
        "sweep_tolerances[1] must be a number of seconds in [0, 2,000,000,000], got inf (a float64)",
    ),
    (
        "sweep tolerance a str",
        _evaluate(sweep_tolerances=["5"]),
        UsageError,
        "sweep_tolerances[0] must be a number of seconds in [0, 2,000,000,000], got '5' (a str)",
    ),
    (
        "sweep tolerances one number",
        _evaluate(sweep_tolerances=5),
        UsageError,
        "sweep_tolerances must be a sequence of numbers of seconds in [0, 2,000,000,000], got 5 (an int)",
    ),
    (
        "check_time_base a str",
        _evaluate(check_time_base="no"),
        UsageError,
        "check_time_base must be True or False, got 'no' (a str)",
    ),
    (
        "evaluate_annotators(None, None)",
        lambda: tvseg.evaluate_annotators(None, None),
        InputError,
        "references must be a mapping {annotator name: {show id: segmentation}}, got None",
    ),
    (
        "evaluate_annotators hypotheses a list",
        lambda: tvseg.evaluate_annotators({"a": REF, "b": REF}, [REF]),
        InputError,
        "hypotheses must be a mapping {system name: {show id: segmentation}}, got a list",
    ),
    (
        "evaluate_annotators settings a dict",
        lambda: tvseg.evaluate_annotators({"a": REF, "b": REF}, HYP, settings={"gamma": 0.9}),
        UsageError,
        "settings must be a tvseg.Settings or None",
    ),
    (
        "write_segments(None, path)",
        lambda: tvseg.write_segments(None, "never-written.rttm"),
        InputError,
        "segmentations must be a mapping {show id: pyannote.core Annotation}, got None",
    ),
    (
        "write_segments a Timeline",
        lambda: tvseg.write_segments({"s": Timeline([Segment(0, 1)])}, "never-written.rttm"),
        InputError,
        "segmentations['s'] must be a pyannote.core Annotation, got a Timeline",
    ),
    (
        "write_segments an int show id",
        lambda: tvseg.write_segments({1: REF["s"]}, "never-written.rttm"),
        InputError,
        "a show id of segmentations must be a str, got 1 (an int)",
    ),
    (
        "write_segments path None",
        lambda: tvseg.write_segments(REF, None),
        InputError,
        "path must be a path (a str or a pathlib.Path), got None",
    ),
    (
        "write_segments hypothesis a list",
        lambda: tvseg.write_segments(REF, "never-written.jsonl", hypothesis=[REF["s"]]),
        InputError,
        "hypothesis must be a mapping {show id: pyannote.core Annotation} or None, got a list",
    ),
    (
        "read_segments(None)",
        lambda: tvseg.read_segments(None),
        InputError,
        "path must be a path (a str or a pathlib.Path), got None",
    ),
    (
        "read_segments uem a list",
        lambda: tvseg.read_segments("never-read.rttm", uem=[1]),
        InputError,
        "uem must be a mapping {show id: pyannote.core Timeline} (as tvseg.read_uem returns) or None, got a list",
    ),
    (
        "read_units(bytes)",
        lambda: tvseg.read_units(b"units.csv"),
        InputError,
        "path must be a path (a str or a pathlib.Path), got b'units.csv' (a bytes)",
    ),
    (
        "read_uem(1)",
        lambda: tvseg.read_uem(1),
        InputError,
        "path must be a path (a str or a pathlib.Path), got 1 (an int)",
    ),
    (
        "read_metadata(None)",
        lambda: tvseg.read_metadata(None),
        InputError,
        "path must be a path (a str or a pathlib.Path), got None",
    ),
]


@pytest.mark.parametrize(("call", "error", "message"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_wrong_argument_is_named(call, error, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a relative path that a check let through would land here, not in the checkout
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value).startswith(message), str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "tolerances",
    [[], [0, 2.5, 30], (0.0,), range(0, 3), np.arange(0, 31, dtype=float), np.array([1, 2], dtype=np.int64)],
    ids=["empty", "list", "tuple", "range", "default-like array", "int64 array"],
)
def test_valid_sweep_tolerances_are_taken(tolerances):
    # the sweep's tolerances are keys of the result: each one given is there (hand check: 0 s to 30 s)
    result = tvseg.evaluate(REF, HYP, sweep_tolerances=tolerances)
    swept = result.systems["sys"].tolerance_sweep
    assert [float(t) for t in swept["tolerance"]] == [float(t) for t in tolerances]


def test_what_the_readers_return_is_taken_as_it_is(tmp_path):
    # a reference read from an RTTM and the same file as the hypothesis: a perfect system (CovN = CovD = 1)
    (tmp_path / "ref.rttm").write_text(
        "SPEAKER s 1 0.000 10.000 <NA> <NA> x <NA> <NA>\nSPEAKER s 1 10.000 10.000 <NA> <NA> y <NA> <NA>\n",
        encoding="utf-8",
    )
    (tmp_path / "s.uem").write_text("s 1 0.000 20.000\n", encoding="utf-8")
    reference = tvseg.read_segments(tmp_path / "ref.rttm")
    result = tvseg.evaluate(reference, {"same": reference}, uem=tvseg.read_uem(str(tmp_path / "s.uem")))
    assert result.systems["same"].corpus["cov_n"] == 1.0 and result.systems["same"].corpus["cov_d"] == 1.0
