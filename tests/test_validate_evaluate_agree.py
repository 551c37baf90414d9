"""``tvseg validate`` gives the verdict ``tvseg evaluate`` gives, on the same inputs (issue 11)."""

from pathlib import Path

import pytest

from tvseg.cli import main

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tvseg" / "data_samples"
LINE = "SEGMENT {show} 1 {start} {dur} <NA> <NA> {label} <NA> <NA>\n"


def rttm(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(LINE.format(show=s, start=a, dur=d, label=lab) for s, a, d, lab in rows))
    return path


def three(show, offset=0):
    return [(show, a + offset, d, lab) for a, d, lab in ((0, 200, "a"), (200, 200, "b"), (400, 200, "c"))]


def scenario(tmp_path, kind):
    ref = tmp_path / "ref"
    hyp = tmp_path / "hyp"
    rttm(ref / "s1.rttm", three("s1"))
    rttm(ref / "s2.rttm", three("s2"))
    rttm(hyp / "all.rttm", three("s1") + three("s2"))
    extra = []
    if kind == "same show in two files":
        rttm(hyp / "again.rttm", three("s1"))
    elif kind == "no show in common":
        rttm(hyp / "all.rttm", three("x_s1") + three("x_s2"))
    elif kind == "timecode origin":
        rttm(hyp / "all.rttm", three("s1", 36000) + three("s2", 36000))
    elif kind == "overlapping segments":
        rttm(hyp / "all.rttm", three("s1") + [("s2", 0, 300, "a"), ("s2", 200, 400, "b")])
    elif kind == "units off the time base":
        units = tmp_path / "units.csv"
        units.write_text(
            "show,start,end\n" + "".join(f"s{k},{36000 + t},{36005 + t}\n" for k in (1, 2) for t in range(0, 600, 5))
        )
        extra = ["--units", str(units)]
    elif kind == "too many frames":
        extra = ["--frame", "0.0001"]
    return ["--reference", str(ref), "--hypothesis", f"sys={hyp}", *extra]


KINDS = [
    "fine",
    "same show in two files",
    "no show in common",
    "timecode origin",
    "overlapping segments",
    "units off the time base",
    "too many frames",
]


@pytest.mark.parametrize("kind", KINDS)
def test_same_verdict(tmp_path, capsys, kind):
    options = scenario(tmp_path, kind)
    evaluated = main(["evaluate", *options, "--bootstrap", "0"])
    evaluate_err = capsys.readouterr().err
    validated = main(["validate", *options])
    validate_err = capsys.readouterr().err
    assert validated == evaluated, (kind, evaluate_err, validate_err)
    assert (evaluated == 0) == (kind == "fine")
    if evaluated:
        # the same first error line
        assert validate_err.splitlines()[0].split("error: ")[-1] in evaluate_err


def test_validate_a_folder_as_evaluate_reads_it(tmp_path, capsys):
    # the same show in two files of one folder: each file is fine alone, the folder is not
    scenario(tmp_path, "same show in two files")
    code = main(["validate", str(tmp_path / "hyp")])
    err = capsys.readouterr().err
    assert code == 2 and "again.rttm" in err and "all.rttm" in err


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="no data_samples/")
def test_same_verdict_on_the_demo(tmp_path, capsys):
    assert main(["validate", "--demo"]) == 0
    out = capsys.readouterr().out
    assert "tvseg evaluate would score 2 system(s) on 7 show(s)" in out


def test_roll_up_captions_validate_as_units(tmp_path, capsys):
    # cues overlap (roll-up captions): not a chapter file, but valid units; validate says so, exit 0
    path = tmp_path / "rollup.vtt"
    path.write_text(
        "WEBVTT\n\n00:00:00.000 --> 00:00:04.000\none\n\n00:00:02.000 --> 00:00:06.000\ntwo\n\n"
        "00:00:04.000 --> 00:00:08.000\nthree\n"
    )
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "VTT captions, 1 show(s), 3 cue(s) read as 3 unit(s)" in out and "not as segments" in out
    assert main(["validate", str(tmp_path)]) == 0
    assert "as --units only" in capsys.readouterr().out


def test_metadata_beside_chapters_same_verdict(tmp_path, capsys):
    # a metadata CSV in the reference folder: evaluate skips it with a warning, and so does validate
    options = scenario(tmp_path, "fine")
    (tmp_path / "ref" / "metadata.csv").write_text("show,channel\ns1,fr2\ns2,fr3\n")
    assert main(["evaluate", *options, "--bootstrap", "0"]) == 0
    assert "not read as segments" in capsys.readouterr().err
    assert main(["validate", *options]) == 0
    assert main(["validate", str(tmp_path / "ref")]) == 0
