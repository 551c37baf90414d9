"""chunkseg's JSONL: the mapping of a line to each side, every refusal with ``PATH:LINE: message``,
the writer, a chapter list and a JSONL line of one show reading to the same segments, ``tvseg
convert`` round trips, and chunkseg 0.4.0 reading what tvseg writes (formats/jsonl.md)."""

import json
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyannote.core import Annotation, Segment
from reader_helpers import segments, write

from tvseg import read_segments
from tvseg.cli import main
from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.readers import NO_LABEL
from tvseg.writers import write_segments

EXAMPLES = Path(__file__).resolve().parent.parent / "formats" / "examples"
LINE = (
    '{"show": "news", "reference": [245, 90, 0], "hypothesis": [88.5], "duration": 900.0, '
    '"reference_titles": [["Headlines", 0], [" Storm ", 90.0], ["", 245]], "hyp_titles": [["Weather", 88.5]]}'
)


def both(path, **options):
    return {
        side: {show: segments(a) for show, a in read_segments(path, which=side, **options).items()}
        for side in ("reference", "hypothesis")
    }


def test_a_line_maps_to_both_sides(tmp_path):
    path = write(tmp_path, "s.jsonl", LINE + "\n\n" + '{"reference": [], "hypothesis": [1e1], "duration": 20}\n')
    assert both(path) == {
        "reference": {
            "news": [(0, 90, "Headlines"), (90, 245, "Storm"), (245, 900, NO_LABEL)],
            "s-3": [(0, 20, NO_LABEL)],
        },
        "hypothesis": {
            "news": [(0, 88.5, NO_LABEL), (88.5, 900, "Weather")],
            "s-3": [(0, 10, NO_LABEL), (10, 20, NO_LABEL)],
        },
    }
    assert read_segments(path).keys() == {"news", "s-3"}  # the reference by default


def test_which_must_be_given_for_a_system(tmp_path):
    path = write(tmp_path, "s.jsonl", LINE + "\n")
    assert segments(read_segments(path, side="reference")["news"])[0] == (0, 90, "Headlines")
    with pytest.raises(UsageError, match="which"):
        read_segments(path, side="system_a")
    assert segments(read_segments(path, side="system_a", which="hypothesis")["news"])[1] == (88.5, 900, "Weather")
    with pytest.raises(UsageError):
        read_segments(path, which="both")


def test_the_chunkseg_readme_example_and_unknown_fields(tmp_path):
    path = EXAMPLES / "jsonl-chunkseg-valid.jsonl"
    reference = read_segments(path)
    assert segments(reference["jsonl-chunkseg-valid-2"]) == [
        (0, 11, NO_LABEL),
        (11, 23, "Wrap text with a span"),
        (23, 34, "Add a background"),
        (34, 50, "Clip background to text"),
    ]
    with pytest.raises(InputError, match="transcript") as error:
        read_segments(path, which="hypothesis")
    assert str(error.value).startswith(f"{path}:3: ")
    other = write(
        tmp_path,
        "o.jsonl",
        '{"reference": [1], "duration": 2, "vidoe_id": "x", "audio": "a.wav"}\n'
        '{"reference": [1], "duration": 2, "refrence_titles": []}\n',
    )
    with pytest.warns(TvsegWarning, match=r"o.jsonl:1: field\(s\) not read .*'vidoe_id', 'refrence_titles'"):
        read_segments(other)
    with pytest.raises(InputError, match="no 'hypothesis'"), pytest.warns(TvsegWarning):
        read_segments(other, which="hypothesis")


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"reference": [1], "duration": 2', "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"reference": [1], "duration": 2, "duration": 3}', "given twice"),
        ('{"reference": [1]}', "no 'duration'"),
        ('{"duration": 5}', "no 'reference'"),
        ('{"reference": [1], "duration": 0}', "duration is zero"),
        ('{"reference": [1], "duration": "5"}', "duration must be a number"),
        ('{"reference": [1], "duration": NaN}', "duration is not a number"),
        ('{"reference": [1], "duration": Infinity}', "duration is not a number"),
        ('{"reference": [1], "duration": 1e999}', "not finite"),
        ('{"reference": [true], "duration": 5}', "must be a number"),
        ('{"reference": [-1], "duration": 5}', "negative"),
        ('{"reference": 1, "duration": 5}', "must be a list"),
        ('{"reference": [1, 1.0], "duration": 5}', "given twice"),
        ('{"reference": [5], "duration": 5}', "at or after the duration"),
        ('{"reference": [1], "hypothesis": [7], "duration": 5}', "hypothesis boundary at or after"),
        ('{"reference": [1], "hypothesis": {}, "duration": 5}', "must be a list"),
        ('{"reference": [1], "duration": 5, "reference_titles": [["A", 2]]}', "no segment start"),
        ('{"reference": [1], "duration": 5, "reference_titles": [["A", 1], ["B", 1]]}', "same time"),
        ('{"reference": [1], "duration": 5, "reference_titles": [["A"]]}', "not \\[title, start\\]"),
        ('{"reference": [1], "duration": 5, "reference_titles": [[1, 1]]}', "not \\[title, start\\]"),
        ('{"reference": [1], "duration": 5, "reference_titles": "A"}', "list of \\[title, start\\] pairs"),
        ('{"reference": [1], "duration": 5, "reference_titles": [["\\ud800", 1]]}', "lone surrogate"),
        ('{"reference": [1], "duration": 5, "show": 3}', "non-empty string"),
        ('{"reference": [1], "duration": 5, "show": " "}', "non-empty string"),
    ],
)
def test_refusals_name_the_line(tmp_path, line, message):
    path = write(tmp_path, "s.jsonl", '{"reference": [], "duration": 1}\n\n' + line + "\n")
    with pytest.raises(InputError, match=message) as error:
        read_segments(path)
    assert str(error.value).startswith(f"{path}:3: ")


_BOUNDARY = st.one_of(
    st.decimals(min_value=-3, max_value=12, places=3, allow_nan=False).map(str),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-0", "0", "1.0", "1", "2000000001"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_BOUNDARY, st.just(True), st.just("text")), max_size=8), st.sampled_from(["5", "10.5"]))
def test_a_side_read_at_once_is_read_as_value_by_value(values, duration):
    # the law: a side's boundaries taken all at once (every one a number in [0, duration), none twice) are
    # the times the reading value by value gives, which finds and names the first value it refuses
    from tvseg.readers.json_values import Number
    from tvseg.readers.jsonl import _checked_times, _plain_times

    boundaries = [Number(v) if isinstance(v, str) and v != "text" else v for v in values]
    at_once = _plain_times(boundaries, float(duration))
    try:
        one_by_one = _checked_times(boundaries, float(duration), path="s.jsonl", line=1, side="reference")
    except InputError:
        assert at_once is None
    else:
        assert at_once is None or at_once == one_by_one
        # a list of plain numbers in range and distinct is always taken at once
        assert at_once is not None or not all(isinstance(v, Number) for v in boundaries)


def test_a_show_on_two_lines_is_refused(tmp_path):
    path = write(
        tmp_path,
        "s.jsonl",
        '{"show": "a", "reference": [], "duration": 1}\n{"show": "a", "reference": [], "duration": 1}\n',
    )
    with pytest.raises(InputError, match="show already read from line 1") as error:
        read_segments(path)
    assert str(error.value).startswith(f"{path}:2: ")


def test_a_chapter_list_and_a_jsonl_line_of_one_show_read_to_the_same_segments():
    chapters = read_segments(EXAMPLES / "txt" / "chapter_list-valid.txt", format="txt", end=900, show="news")["news"]
    separators = read_segments(
        EXAMPLES / "txt" / "chapter_list-separators-valid.txt", format="txt", end=900, show="news"
    )["news"]
    jsonl = read_segments(EXAMPLES / "jsonl-valid.jsonl")["news"]
    assert segments(chapters) == segments(jsonl) == segments(separators)
    assert chapters == jsonl


def annotation(show, rows):
    result = Annotation(uri=show)
    for track, (start, end, label) in enumerate(rows):
        result[Segment(start, end), track] = label
    return result


def test_writer_lines(tmp_path):
    reference = {
        "n1": annotation("n1", [(0, 12.345, "Intro"), (12.345, 20, NO_LABEL), (20, 30.5, "Sport")]),
        "n2": annotation("n2", [(0, 7, NO_LABEL)]),
    }
    hypothesis = {"n1": annotation("n1", [(0, 30.5, "All")]), "n2": annotation("n2", [(0, 1, "A"), (1, 7, "B")])}
    out = tmp_path / "out.jsonl"
    write_segments(reference, out, hypothesis=hypothesis)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines == [
        {
            "show": "n1",
            "reference": [12.345, 20.0],
            "hypothesis": [],
            "duration": 30.5,
            "reference_titles": [["Intro", 0.0], ["Sport", 20.0]],
            "hyp_titles": [["All", 0.0]],
        },
        {"show": "n2", "reference": [], "hypothesis": [1.0], "duration": 7.0, "hyp_titles": [["A", 0.0], ["B", 1.0]]},
    ]
    assert both(out) == {
        "reference": {s: segments(a) for s, a in reference.items()},
        "hypothesis": {s: segments(a) for s, a in hypothesis.items()},
    }
    write_segments(reference, out)
    assert "hypothesis" not in out.read_text()


@pytest.mark.parametrize(
    "reference, hypothesis, message",
    [
        ({"a": [(0, 1, "A"), (2, 3, "B")]}, None, "a gap"),
        ({"a": [(1, 3, "A")]}, None, "starts later"),
        ({"a": []}, None, "without segments"),
        ({"a": [(0, 3, "A")]}, {"a": [(0, 2, "A")]}, "end where the reference ends"),
        ({"a": [(0, 3, "A")]}, {"b": [(0, 3, "A")]}, "same shows"),
    ],
)
def test_writer_refuses_what_a_line_cannot_hold(tmp_path, reference, hypothesis, message):
    def shows(rows):
        return {show: annotation(show, r) for show, r in rows.items()}

    with pytest.raises(InputError, match=message):
        write_segments(
            shows(reference), tmp_path / "x.jsonl", hypothesis=None if hypothesis is None else shows(hypothesis)
        )
    assert not (tmp_path / "x.jsonl").exists()
    with pytest.raises(UsageError):
        write_segments(shows(reference), tmp_path / "x.rttm", hypothesis=shows(reference))


RTTM = (
    "SEGMENT n1 1 0.000 12.345 <NA> <NA> Intro <NA> <NA>\n"
    "SEGMENT n1 1 12.345 7.655 <NA> <NA> <NA> <NA> <NA>\n"
    "SEGMENT n1 1 20.000 0.999 <NA> <NA> Storm <NA> <NA>\n"
    "SEGMENT n2 1 0.000 61.500 <NA> <NA> Sport <NA> <NA>\n"
)


def test_convert_round_trips(tmp_path, capsys):
    (tmp_path / "in.rttm").write_text(RTTM)
    assert main(["convert", str(tmp_path / "in.rttm"), str(tmp_path / "out.jsonl")]) == 0
    assert main(["convert", str(tmp_path / "out.jsonl"), str(tmp_path / "back.rttm")]) == 0
    assert (tmp_path / "back.rttm").read_text() == RTTM
    # RTTM fields hold no whitespace: a chapter list with one-word titles goes through RTTM unchanged
    chapters = "0:00 Headlines\n1:30 Storm_in_Brittany\n4:05 Elections:results\n12:40\n1:02:03 Late\n"
    write(tmp_path, "news.txt", chapters)
    assert (
        main(["convert", str(tmp_path / "news.txt"), str(tmp_path / "news.rttm"), "--from", "txt", "--end", "3900"])
        == 0
    )
    assert main(["convert", str(tmp_path / "news.rttm"), str(tmp_path / "again.txt")]) == 0
    written = "0:00:00 Headlines\n0:01:30 Storm_in_Brittany\n0:04:05 Elections:results\n0:12:40\n1:02:03 Late\n"
    assert (tmp_path / "again.txt").read_text() == written
    (tmp_path / "news.txt").write_text(written)
    assert (
        main(["convert", str(tmp_path / "news.txt"), str(tmp_path / "news.rttm"), "--from", "txt", "--end", "3900"])
        == 0
    )
    assert main(["convert", str(tmp_path / "news.rttm"), str(tmp_path / "again.txt")]) == 0
    assert (tmp_path / "again.txt").read_text() == written
    # through CSV and JSONL, titles keep their spaces
    chapters = "0:00 Headlines\n1:30 - Storm in Brittany\n4:05 Elections: the results\n12:40\n"
    write(tmp_path, "news.txt", chapters)
    for middle in ("news.csv", "news.jsonl"):
        assert (
            main(["convert", str(tmp_path / "news.txt"), str(tmp_path / middle), "--from", "txt", "--end", "900"]) == 0
        )
        assert main(["convert", str(tmp_path / middle), str(tmp_path / "again2.txt")]) == 0
        assert (tmp_path / "again2.txt").read_text() == chapters.replace(" - ", " ")
    # a chapter list and a reference to one chunkseg file, the hypothesis ending where the reference ends
    hyp = tmp_path / "hyp"
    hyp.mkdir()
    write(hyp, "news.txt", "0:00 Headlines\n2:00 Storm\n")
    assert (
        main(
            [
                "convert",
                str(tmp_path / "news.txt"),
                str(tmp_path / "both.jsonl"),
                "--from",
                "txt",
                "--end",
                "900",
                "--hypothesis",
                str(hyp),
            ]
        )
        == 0
    )
    assert main(["convert", str(tmp_path / "both.jsonl"), str(tmp_path / "h.txt"), "--which", "hypothesis"]) == 0
    assert (tmp_path / "h.txt").read_text() == "0:00 Headlines\n2:00 Storm\n"
    assert main(["convert", str(tmp_path / "news.txt"), str(tmp_path / "x.rttm"), "--from", "txt"]) == 2
    assert "news.txt:4: the end of the last chapter is unknown" in capsys.readouterr().err


def test_chunkseg_reads_and_scores_what_tvseg_writes(tmp_path):
    pytest.importorskip("jiwer")
    chunkseg_cli = pytest.importorskip("chunkseg.cli")
    from chunkseg import evaluate_batch

    reference = {"n1": annotation("n1", [(0, 12.345, "Intro"), (12.345, 60, "Storm"), (60, 90, "Sport")])}
    hypothesis = {"n1": annotation("n1", [(0, 13, "Intro"), (13, 90, "Rest")])}
    out = tmp_path / "out.jsonl"
    write_segments(reference, out, hypothesis=hypothesis)
    result = tmp_path / "result.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chunkseg_cli.main([str(out), "--output", str(result), "--num-bootstrap", "2"])
    scores = json.loads(result.read_text())
    assert scores["collar_recall"]["mean"] == pytest.approx(0.5)  # 13 within 3 s of 12.345; 60 missed
    samples = [json.loads(line) for line in out.read_text().splitlines()]
    assert samples[0]["reference"] == [12.345, 60.0] and samples[0]["duration"] == 90.0
    assert evaluate_batch(samples, num_bootstrap=2)["collar_precision"]["mean"] == pytest.approx(1.0)


def test_a_file_is_read_once_for_both_sides_and_again_when_it_changes(tmp_path, monkeypatch):
    # chunkseg's file holds both sides: reading its reference then its hypothesis parses it once (the warning of
    # its reading is issued at each of the two reads, as two readings would); after the file is rewritten (another
    # size), it is read again and its new hypothesis is returned.
    import tvseg.readers.jsonl as jsonl

    calls = []
    real = jsonl.read_jsonl
    monkeypatch.setattr(jsonl, "read_jsonl", lambda path, **kw: calls.append(path) or real(path, **kw))
    path = write(tmp_path, "c.jsonl", '{"show": "s", "reference": [10], "hypothesis": [12], "duration": 30, "x": 1}\n')
    with pytest.warns(TvsegWarning, match="not read"):
        reference = read_segments(path, which="reference")
    with pytest.warns(TvsegWarning, match="not read"):
        hypothesis = read_segments(path, which="hypothesis")
    assert len(calls) == 1
    assert segments(reference["s"]) == [(0, 10, NO_LABEL), (10, 30, NO_LABEL)]
    assert segments(hypothesis["s"]) == [(0, 12, NO_LABEL), (12, 30, NO_LABEL)]
    write(tmp_path, "c.jsonl", '{"show": "s", "reference": [10], "hypothesis": [12.5], "duration": 30}\n')
    assert segments(read_segments(path, which="hypothesis")["s"]) == [(0, 12.5, NO_LABEL), (12.5, 30, NO_LABEL)]
    assert len(calls) == 2
