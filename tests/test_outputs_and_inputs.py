"""Where the commands write: ``tvseg convert IN -`` to standard output, never over a file they read, and the
formats ``convert --from`` takes (broadcast captions among them, with a plain message without ttconv)."""

import json
import os
import re
import sys

import pytest

from tvseg.cli import main

RTTM = (
    "SPEAKER news 1 0.000 12.500 <NA> <NA> weather <NA> <NA>\nSPEAKER news 1 12.500 7.250 <NA> <NA> sports <NA> <NA>\n"
)
# news: weather [0, 12.5], sports [12.5, 12.5 + 7.25 = 19.75]
CSV = "show,start,end,label\nnews,0.000,12.500,weather\nnews,12.500,19.750,sports\n"

SEGMENTS = '{"news": [{"start": 0, "end": 10, "title": "a"}, {"start": 10, "end": 20, "title": "b"}]}\n'
"""A JSON segmentation ({show: [{start, end, title}]}) read as a reference or a system."""

TTML = """<?xml version="1.0" encoding="UTF-8"?>
<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en">
  <body>
    <div>
      <p begin="00:00:01.500" end="00:00:04.000">Good evening</p>
      <p begin="5s" dur="2.5s">Second story</p>
    </div>
  </body>
</tt>
"""
# one segment per caption: 00:00:01.500 = 1.5 s to 4 s; 5 s for 2.5 s, to 7.5 s
TTML_CSV = "show,start,end,label\nnews,1.500,4.000,Good evening\nnews,5.000,7.500,Second story\n"


def write(folder, name, text):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def error_of(capsys) -> str:
    return capsys.readouterr().err


# ---- convert IN - ----------------------------------------------------------------------------------


def test_convert_to_standard_output(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "in.rttm", RTTM)
    assert main(["convert", "in.rttm", "-", "--to", "csv"]) == 0
    out, err = capsys.readouterr()
    assert out == CSV
    assert "in.rttm -> standard output: 1 show(s), 2 segment(s)" in err
    assert sorted(os.listdir(tmp_path)) == ["in.rttm"]  # no file named -


def test_convert_to_standard_output_one_show_as_webvtt(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "in.rttm", RTTM)
    assert main(["convert", "in.rttm", "-", "--to", "vtt"]) == 0
    assert capsys.readouterr().out == (
        "WEBVTT\n\n00:00:00.000 --> 00:00:12.500\nweather\n\n00:00:12.500 --> 00:00:19.750\nsports\n"
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ([], "OUT - writes to standard output: give its format with --to"),
        # two shows: a WebVTT file holds one, so they need a folder
        (["--to", "vtt"], "2 shows cannot go to one WebVTT file on standard output: give a folder"),
        (["--to", "txt"], "2 shows cannot go to one chapter list file on standard output: give a folder"),
    ],
)
def test_convert_to_standard_output_refused_where_a_folder_is_written(tmp_path, monkeypatch, capsys, options, message):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "in.rttm", RTTM + "SPEAKER other 1 0.000 5.000 <NA> <NA> x <NA> <NA>\n")
    assert main(["convert", "in.rttm", "-", *options]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert message in err and "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == ["in.rttm"]


# ---- an output that is an input -------------------------------------------------------------------


def test_evaluate_json_that_is_the_reference_is_refused(tmp_path, capsys):
    reference = write(tmp_path, "in.json", SEGMENTS)
    system = write(tmp_path, "sys.json", SEGMENTS)
    code = main(["evaluate", "--reference", str(reference), "--hypothesis", f"m={system}", "--json", str(reference)])
    assert code == 2
    err = error_of(capsys)
    assert f"--json {reference} is {reference}, read as --reference" in err
    assert reference.read_text(encoding="utf-8") == SEGMENTS


def test_evaluate_json_that_is_a_system_file_in_a_folder_by_another_name_is_refused(tmp_path, capsys):
    reference = write(tmp_path, "in.json", SEGMENTS)
    system = write(tmp_path, "systems/mine/news.json", SEGMENTS)
    os.link(system, tmp_path / "hard-link.json")  # the same file under another name
    for output in (tmp_path / "systems" / "mine" / ".." / "mine" / "news.json", tmp_path / "hard-link.json"):
        code = main(
            ["evaluate", "--reference", str(reference), "--hypothesis", f"m={system.parent}", "--json", str(output)]
        )
        assert code == 2
        assert "read as --hypothesis m: writing it would replace the input" in error_of(capsys)
        assert system.read_text(encoding="utf-8") == SEGMENTS


def test_evaluate_json_of_a_units_or_uem_file_is_refused(tmp_path, capsys):
    reference = write(tmp_path, "in.json", SEGMENTS)
    uem = write(tmp_path, "shows.uem", "news 1 0.000 20.000\n")
    code = main(["evaluate", "--reference", str(reference), "--hypothesis", f"m={reference}", "--uem", str(uem)]
                + ["--json", str(uem)])  # fmt: skip
    assert code == 2
    assert f"--json {uem} is {uem}, read as --uem" in error_of(capsys)
    assert uem.read_text(encoding="utf-8") == "news 1 0.000 20.000\n"


def test_evaluate_html_folder_holding_an_input_is_refused(tmp_path, capsys):
    report = tmp_path / "report"
    write(report, "index.html", "<p>an old report</p>\n")  # looks like a report: it would be replaced whole
    write(report, "data/scores.json", "{}\n")
    reference = write(report, "in.json", SEGMENTS)
    code = main(["evaluate", "--reference", str(reference), "--hypothesis", f"m={reference}", "--html", str(report)])
    assert code == 2
    err = error_of(capsys)
    assert f"--html {report} holds {reference}, read as --reference: writing the report there would delete it" in err
    assert reference.read_text(encoding="utf-8") == SEGMENTS
    assert (report / "index.html").read_text(encoding="utf-8") == "<p>an old report</p>\n"


def test_evaluate_writes_beside_its_inputs(tmp_path, capsys):
    # the check refuses the same file only: a new file in the folder of the inputs is written
    reference = write(tmp_path, "in.json", SEGMENTS)
    assert main(["evaluate", "--reference", str(reference), "--hypothesis", f"m={reference}", "--json", str(tmp_path / "out.json")]) == 0  # fmt: skip
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["systems"]["m"]["corpus"]["cov_d"] == 1.0


def test_convert_output_that_is_the_input_is_refused(tmp_path, capsys):
    rttm = write(tmp_path, "in.rttm", RTTM)
    assert main(["convert", str(rttm), str(rttm)]) == 2
    assert f"OUT {rttm} is {rttm}, read as IN" in error_of(capsys)
    assert rttm.read_text(encoding="utf-8") == RTTM


def test_convert_folder_onto_itself_is_refused(tmp_path, capsys):
    chapters = tmp_path / "chapters"
    vtt = write(chapters, "news.vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:10.000\nHeadlines\n")
    before = vtt.read_bytes()
    assert main(["convert", str(chapters), str(chapters), "--to", "vtt"]) == 2
    assert f"OUT {vtt} is {vtt}, read as IN" in error_of(capsys)
    assert vtt.read_bytes() == before


def test_convert_hypothesis_file_as_output_is_refused(tmp_path, capsys):
    reference = write(tmp_path, "ref.rttm", RTTM)
    hypothesis = write(tmp_path, "hyp.rttm", RTTM)
    assert main(["convert", str(reference), str(hypothesis), "--to", "jsonl", "--hypothesis", str(hypothesis)]) == 2
    assert f"OUT {hypothesis} is {hypothesis}, read as --hypothesis" in error_of(capsys)
    assert hypothesis.read_text(encoding="utf-8") == RTTM


def _result(tmp_path, name):
    reference = write(tmp_path, "in.json", SEGMENTS)
    assert main(["evaluate", "--reference", str(reference), "--hypothesis", f"m={reference}", "--json", str(tmp_path / name)]) == 0  # fmt: skip
    return tmp_path / name


def test_compare_outputs_that_are_inputs_are_refused(tmp_path, capsys):
    old = _result(tmp_path, "old.json")
    new = _result(tmp_path, "new.json")
    before = new.read_bytes()
    capsys.readouterr()
    assert main(["compare", str(old), str(new), "--json", str(new)]) == 2
    assert f"--json {new} is {new}, read as RESULT.json" in error_of(capsys)
    page = tmp_path / "page"
    page.mkdir()
    os.replace(new, page / "index.html")  # a result stored as DIR/index.html, the page --html DIR writes
    assert main(["compare", str(old), str(page / "index.html"), "--html", str(page)]) == 2
    assert f"--html {page / 'index.html'} is {page / 'index.html'}, read as RESULT.json" in error_of(capsys)
    assert (page / "index.html").read_bytes() == before


def test_agreement_json_that_is_the_dataset_is_refused(tmp_path, capsys):
    # segeval's dataset: one item, two coders, masses in units
    dataset = write(tmp_path, "coders.json", '{"items": {"a": {"c1": [2, 3], "c2": [2, 3]}}}\n')
    assert main(["agreement", str(dataset), "--json", str(dataset)]) == 2
    assert f"--json {dataset} is {dataset}, read as PATH" in error_of(capsys)
    assert dataset.read_text(encoding="utf-8") == '{"items": {"a": {"c1": [2, 3], "c2": [2, 3]}}}\n'


def test_agreement_json_that_is_a_coder_file_is_refused(tmp_path, capsys):
    first = write(tmp_path, "a.rttm", RTTM)
    second = write(tmp_path, "b.rttm", RTTM)
    assert main(["agreement", f"one={first}", f"two={second}", "--frame", "1", "--json", str(second)]) == 2
    assert f"--json {second} is {second}, read as PATH" in error_of(capsys)
    assert second.read_text(encoding="utf-8") == RTTM


# ---- convert --from ----------------------------------------------------------------------------------


def _help(capsys) -> str:
    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    return re.sub(r"\s+", " ", capsys.readouterr().out)


def test_every_format_read_by_extension_is_a_from_choice_named_in_help(capsys):
    from tvseg.readers import FORMATS

    text = _help(capsys)
    choices = re.search(r"--from \{([a-z0-9_,-]+)\}", text)  # mp3, mp4, chapter-llama, src_sgm
    assert choices is not None
    by_extension = set(FORMATS.values())  # the readers' extension map: rttm, vtt, srt, csv, jsonl, json, ttml, scc, stl
    assert {"ttml", "scc", "stl"} <= by_extension
    assert by_extension <= set(choices.group(1).split(","))
    for extension in FORMATS:  # .ttml, .dfxp, .xml, .scc, .stl ... each said in the description
        assert extension in text, extension


def test_from_ttml(tmp_path, monkeypatch, capsys):
    pytest.importorskip("ttconv", reason="the broadcast extra is not installed (pip install 'tvseg[broadcast]')")
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "news.captions", TTML)  # an extension that names no format: --from says it
    assert main(["convert", "news.captions", "-", "--from", "ttml", "--to", "csv"]) == 0
    assert capsys.readouterr().out == TTML_CSV


def test_missing_broadcast_extra_is_a_plain_message(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ttconv", None)  # import ttconv now raises ImportError
    path = write(tmp_path, "news.ttml", TTML)
    assert main(["convert", str(path), str(tmp_path / "out.csv")]) == 2
    err = capsys.readouterr().err
    assert err == (
        "tvseg: error: reading TTML captions needs the ttconv library: pip install 'tvseg[broadcast]' "
        "(or pip install ttconv)\n"
    )
    assert not (tmp_path / "out.csv").exists()


def test_reader_docstrings_name_every_format():
    from tvseg import read_segments, read_units
    from tvseg.readers import READ_FORMATS

    segments_line = re.search(r"format : \{(.*?)\}, optional", read_segments.__doc__, re.S)
    assert segments_line is not None
    assert set(re.findall(r'"([a-z0-9_-]+)"', segments_line.group(1))) == set(READ_FORMATS)
    units_line = re.search(r"format : \{(.*?)\}, optional", read_units.__doc__, re.S)
    assert units_line is not None
    # read_units: captions and breath groups; JSON only as records through columns=
    subtitles = {"sbv", "ass", "ssa", "microdvd", "mpl2", "tmp", "sami"}
    expected = {"vtt", "srt", "csv", "ttml", "scc", "stl", "json", *subtitles}
    assert set(re.findall(r'"([a-z0-9-]+)"', units_line.group(1))) == expected
