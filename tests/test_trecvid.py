"""TRECVID 2003-2004 story segmentation: the ``.src_sgm`` reference, the XML submission and ``--preset trecvid``.

The expected values are computed by hand in the comments, with NIST's counting as formats/trecvid.md states
it: a reference boundary T is found when some submitted boundary lies in [T - 5, T + 5]; a submitted boundary
in no such interval is a false alarm; recall = found / reference boundaries, precision = (submitted - false
alarms) / submitted; not one to one.
"""

from __future__ import annotations

import json
import re
import warnings
from fractions import Fraction

import pytest

from tvseg import metrics
from tvseg.cli import main
from tvseg.errors import InputError
from tvseg.readers import read_segments

V1 = """<DOC>
<DOCNO> v1.0000 </DOCNO>
<DOCTYPE> MISCELLANEOUS </DOCTYPE>
<BOUNDARY Bsec=0 Esec=30>
<TEXT>
good evening
</TEXT>
</DOC>
<DOC>
<DOCNO> v1.0030 </DOCNO>
<DOCTYPE> NEWS </DOCTYPE>
<BOUNDARY Bsec=30 Esec=100>
</DOC>
<DOC>
<DOCNO> v1.0100 </DOCNO>
<DOCTYPE> NEWS </DOCTYPE>
<BOUNDARY Bsec="100" Esec="160">
</DOC>
<DOC>
<DOCNO> v1.0160 </DOCNO>
<DOCTYPE> MISCELLANEOUS </DOCTYPE>
<BOUNDARY Bsec=160 Esec=200>
</DOC>
"""
V2 = """<DOC>
<DOCNO> v2.0000 </DOCNO>
<DOCTYPE> NEWS </DOCTYPE>
<BOUNDARY Bsec=0 Esec=50>
</DOC>
<DOC>
<DOCNO> v2.0050 </DOCNO>
<DOCTYPE> NEWS </DOCTYPE>
<BOUNDARY Bsec=50 Esec=120>
</DOC>
"""
SUBMISSION = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE storySegmentationSubmission SYSTEM "storySegmentationSubmission.dtd">
<storySegmentationSubmission>
<storySegmentationRunResult sysId="demo_1">
<videoStorySegmentationResult fileName="v1.mpg">
<storyBoundary time="0" type="misc"/>
<storyBoundary time="26" type="news"/>
<storyBoundary time="34" type="news"/>
<storyBoundary time="105" type="news"/>
<storyBoundary time="140" type="news"/>
</videoStorySegmentationResult>
<videoStorySegmentationResult fileName="v2.mpg">
<storyBoundary time="44.9" type="news"/>
<storyBoundary time="52" type="news"/>
<storyBoundary time="80" type="news"/>
</videoStorySegmentationResult>
</storySegmentationRunResult>
</storySegmentationSubmission>
"""


def write_inputs(tmp_path, submission: str = SUBMISSION):
    ref = tmp_path / "ref"
    ref.mkdir(parents=True)
    (ref / "v1.src_sgm").write_text(V1, encoding="utf-8")
    (ref / "v2.src_sgm").write_text(V2, encoding="utf-8")
    (tmp_path / "run.xml").write_text(submission, encoding="utf-8")
    # NIST's length table as a UEM: each video's [0, length]
    (tmp_path / "length.uem").write_text("v1 1 0 200\nv2 1 0 120\n", encoding="utf-8")
    return ref, tmp_path / "run.xml", tmp_path / "length.uem"


def evaluate(tmp_path, *options):
    ref, run, uem = write_inputs(tmp_path)
    out = tmp_path / "out.json"
    args = ["evaluate", "--reference", str(ref), "--hypothesis", f"demo={run}"]
    args += ["--uem", str(uem), "--no-html", "--bootstrap", "0", "--json", str(out), *options]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(args) == 0
    return json.loads(out.read_text())


def test_preset_trecvid_gives_nists_precision_and_recall_computed_by_hand(tmp_path):
    data = evaluate(tmp_path, "--preset", "trecvid")
    corpus = data["systems"]["demo"]["corpus"]
    # Reference boundaries (story starts strictly inside each video): v1 30, 100, 160; v2 50 -> 4.
    # Submitted boundaries (0 is the video's start, not a boundary): v1 26, 34, 105, 140; v2 44.9, 52, 80 -> 7.
    # Found reference boundaries: 30 (26 and 34 are 4 s away), 100 (105 is 5 s away: the interval is closed),
    #   50 (52); 160 is not (140 is 20 s away) -> 3.
    # Submitted boundaries that are not false alarms: 26 and 34 (both near 30: not one to one), 105, 52 -> 4;
    #   140, 44.9 (5.1 s from 50) and 80 are false alarms.
    recall, precision = Fraction(3, 4), Fraction(4, 7)
    assert corpus["trecvid_recall"] == pytest.approx(float(recall), abs=1e-12)
    assert corpus["trecvid_precision"] == pytest.approx(float(precision), abs=1e-12)
    # F = 2PR / (P + R) = 2 (4/7)(3/4) / (4/7 + 3/4) = (6/7) / (37/28) = 24/37
    assert corpus["trecvid_f1"] == pytest.approx(float(2 * precision * recall / (precision + recall)), abs=1e-12)
    assert 2 * precision * recall / (precision + recall) == Fraction(24, 37)
    # the one-to-one boundary P of the same tolerance pairs 30 with one of 26, 34 only: 3 pairs of 7 submitted
    assert corpus["boundary_precision"] == pytest.approx(3 / 7, abs=1e-12)
    assert data["settings"]["tolerance"] == 5.0
    assert {key for key in corpus if key.startswith("trecvid_")} == set(metrics.keys("trecvid"))


def test_the_preset_runs_on_the_one_pipeline_in_processes_too(tmp_path):
    whole = evaluate(tmp_path / "a", "--preset", "trecvid")["systems"]["demo"]
    jobs = evaluate(tmp_path / "b", "--preset", "trecvid", "--jobs", "2")["systems"]["demo"]
    assert jobs["corpus"] == whole["corpus"] and jobs["shows"] == whole["shows"]
    # per video: v1 found 30, 100 of 30, 100, 160; correct 26, 34, 105 of 26, 34, 105, 140
    assert whole["shows"]["v1"]["trecvid_recall"] == pytest.approx(2 / 3)
    assert whole["shows"]["v1"]["trecvid_precision"] == pytest.approx(3 / 4)


def test_without_the_preset_no_trecvid_key_is_computed(tmp_path):
    corpus = evaluate(tmp_path)["systems"]["demo"]["corpus"]
    assert not any(key.startswith("trecvid_") for key in corpus)


def test_the_reference_stories_carry_their_type(tmp_path):
    ref, _, _ = write_inputs(tmp_path)
    stories = read_segments(ref)["v1"]
    assert [(s.start, s.end, label) for s, _, label in stories.itertracks(yield_label=True)] == [
        (0.0, 30.0, "MISCELLANEOUS"),
        (30.0, 100.0, "NEWS"),
        (100.0, 160.0, "NEWS"),
        (160.0, 200.0, "MISCELLANEOUS"),
    ]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        # V2's second story: <DOC> at line 6, <DOCTYPE> at 8, <BOUNDARY> at 9
        (V2.replace("NEWS </DOCTYPE>\n<BOUNDARY Bsec=50", "SPORTS </DOCTYPE>\n<BOUNDARY Bsec=50"), 8, "NEWS or MISC"),
        (V2.replace("Bsec=50 Esec=120", "Bsec=5O Esec=120"), 9, "not a number"),
        (V2.replace("Bsec=50 Esec=120", "Esec=120"), 6, re.escape("start (Bsec=)")),
        (V2.replace("Bsec=50 Esec=120", "Bsec=130 Esec=120"), 6, re.escape("ends (Esec) before")),
        (V2.rsplit("</DOC>", 1)[0], 6, "not closed"),
    ],
)
def test_src_sgm_errors_name_file_line_and_value(tmp_path, text, line, message):
    path = tmp_path / "v2.src_sgm"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as error:
        read_segments(path)
    assert error.value.path == str(path) and error.value.line == line


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ('time="52"', 'time="40"', 14, "must increase"),
        ('time="80" type="news"', 'time="80" type="sports"', 15, "'news' or 'misc'"),
        ('fileName="v2.mpg"', 'fileName="v1.mpg"', 12, "given twice"),
        ('<storyBoundary time="26"', '<storyBoundry time="26"', 7, "storyBoundry"),
        ('time="105"', 'time="abc"', 9, "not a number"),
        ("</storySegmentationRunResult>", "</storySegmentationRunResul>", 17, "not well-formed"),
        (
            "</storySegmentationRunResult>",
            '</storySegmentationRunResult>\n<storySegmentationRunResult sysId="demo_2">\n</storySegmentationRunResult>',
            18,
            "a second run",
        ),
        ('SYSTEM "storySegmentationSubmission.dtd"', '[<!ENTITY x "y">]', 2, "entity declaration"),
    ],
)
def test_submission_errors_name_file_line_and_value(tmp_path, old, new, line, message):
    _, run, uem = write_inputs(tmp_path, SUBMISSION.replace(old, new, 1))
    with pytest.raises(InputError, match=message) as error:
        read_segments(run, format="trecvid", uem=read_uem_file(uem))
    assert error.value.path == str(run) and error.value.line == line


def test_a_submission_ends_at_the_length_given_else_at_the_reference_end_else_is_refused(tmp_path):
    _, run, uem = write_inputs(tmp_path)
    # the length table (a UEM) ends v2's last story, 80 to 120
    stories = read_segments(run, uem=read_uem_file(uem))["v2"]
    assert [(s.start, s.end) for s in stories.itersegments()] == [(0, 44.9), (44.9, 52), (52, 80), (80, 120)]
    assert [(s.start, s.end) for s in read_segments(run, end={"v1": 300, "v2": 90})["v2"].itersegments()][-1] == (
        80,
        90,
    )
    with pytest.raises(InputError, match="length table") as error:
        read_segments(run)
    assert error.value.line == 10  # v1's last boundary (140 s)


def read_uem_file(path):
    from tvseg.readers import read_uem

    return read_uem(path)
