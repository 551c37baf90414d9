"""Bad input at the edges of what the readers take (issue 39): refused with ``PATH:LINE: message`` and exit 2,
never an internal error, a traceback or a silently dropped segment; and what lies just inside is read.

Every input is written here by hand; the expected times are computed in the comments.
"""

from __future__ import annotations

import itertools
import json
import os
import threading

import pytest

import tvseg
from tvseg.cli import main
from tvseg.errors import InputError
from tvseg.readers import source
from tvseg.readers.agreement import read_dataset_json
from tvseg.readers.broadcast_captions import read_captions

BIG = "1" * 5000  # a field of 5,000 digits: past the 4,300 that Python's int() converts


def refused(args, capsys, path, line) -> str:
    """Run ``tvseg ARGS``: exit 2, stderr ``PATH:LINE: ...`` on one line, no traceback; return it."""
    assert main([str(a) for a in args]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err
    assert err.startswith(f"{path}:{line}: "), err
    return err


def spans(columns, show):
    rows = columns.rows(show)
    return list(zip(columns.start[rows].tolist(), columns.end[rows].tolist()))


# ---------------------------------------------------------------------------------------------
# 1. digit fields too long to convert


@pytest.mark.parametrize(
    ("name", "text", "line", "fmt"),
    [
        ("cue.vtt", f"WEBVTT\n\n{BIG}:00:00.000 --> 00:00:05.000\nhello\n", 3, None),
        ("cue.srt", f"1\n00:00:00,000 --> {BIG}:00:05,000\nhello\n", 2, None),
        ("chapters.txt", f"00:00 Intro\n{BIG}:01 Next\n", 2, "txt"),
        ("chapters_hours.txt", f"00:00 Intro\n1:{BIG}:01 Next\n", 2, "txt"),
        ("segments.csv", f"show,start,end,label\ns,0,{BIG}:00:05,x\n", 2, None),
        ("masses.tsv", f"coder\tmasses\na\t2\t{BIG}\n", 2, "segeval"),
    ],
)
def test_a_5000_digit_field_is_refused(tmp_path, capsys, name, text, line, fmt):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    err = refused(["validate", *(["--format", fmt] if fmt else []), path], capsys, path, line)
    assert "5,000 digits (at most 100)" in err
    assert len(err) < 400  # the value abbreviated, not 5,000 digits printed
    with pytest.raises(InputError, match="5,000 digits"):
        tvseg.read_segments(path, format=fmt, end=100.0 if fmt == "txt" else None)


def test_a_5000_digit_field_in_evaluate(tmp_path, capsys):
    ref = tmp_path / "show.srt"
    ref.write_text("1\n00:00:00,000 --> 00:00:05,000\nhello\n", encoding="utf-8")
    hyp = tmp_path / "sys" / "show.srt"
    hyp.parent.mkdir()
    hyp.write_text(f"1\n00:00:00,000 --> 00:00:05,000\nhello\n\n2\n{BIG}:00:05,000 --> 1:00:00,000\nx\n")
    refused(["evaluate", "--reference", ref, "--hypothesis", f"sys={hyp}"], capsys, hyp, 6)


def test_a_hundred_digits_are_read(tmp_path):
    # 100 digits of hours (99 zeros, then 1): one hour, 3600 s; 101 are refused
    path = tmp_path / "cue.vtt"
    path.write_text(f"WEBVTT\n\n{'0' * 99}1:00:00.000 --> {'0' * 99}1:00:02.500\nhello\n", encoding="utf-8")
    assert spans(tvseg.read_segments(path), "cue") == [(3600.0, 3602.5)]
    path.write_text(f"WEBVTT\n\n{'0' * 100}1:00:00.000 --> 01:00:02.500\nhello\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"cue\.vtt:3: cue time's hours has 101 digits"):
        tvseg.read_segments(path)
    # a CSV clock time: 100 digits of minutes (99 zeros, then 2) and 7 seconds, 127 s
    table = tmp_path / "t.csv"
    table.write_text(f"show,start,end,label\ns,0,{'0' * 99}2:07,x\n", encoding="utf-8")
    assert spans(tvseg.read_segments(table), "s") == [(0.0, 127.0)]


def test_a_long_tsv_line_of_small_masses_is_read(tmp_path):
    # 70,000 masses of 1: a line of 140,001 characters, past the csv module's field limit (131,072),
    # which bounds a field, not a line: 70,000 segments, the last ending at 70,000
    path = tmp_path / "long.tsv"
    path.write_text("coder\tmasses\na\t" + "\t".join(["1"] * 70_000) + "\n", encoding="utf-8")
    got = spans(tvseg.read_segments(path, format="segeval"), "long")
    assert len(got) == 70_000 and got[0] == (0.0, 1.0) and got[-1] == (69_999.0, 70_000.0)


def test_a_tsv_field_over_the_csv_limit_is_refused(tmp_path, capsys):
    # a coder name opening a quote never closed: one field of 140,001 characters on line 3
    path = tmp_path / "quote.tsv"
    path.write_text('coder\tmasses\na\t2\t3\n"b' + "x" * 140_000 + "\t5\n", encoding="utf-8")
    err = refused(["validate", "--format", "segeval", path], capsys, path, 3)
    assert "not a TSV line of masses (field larger than field limit (131072))" in err


# ---------------------------------------------------------------------------------------------
# 6. JSON datasets in UTF-16 and UTF-32 with a byte order mark

DATASET = {"ch1": {"a": [2, 3], "b": [1, 4]}, "ch2": {"a": [3], "b": [1, 2]}}


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_agreement_json_with_a_byte_order_mark(tmp_path, capsys, encoding):
    text = json.dumps(DATASET, indent=1)
    plain = tmp_path / "plain.json"
    plain.write_text(text, encoding="utf-8")
    marked = tmp_path / "marked.json"
    # "utf-16" and "utf-32" write a byte order mark; utf-16-be is given one by hand
    marked.write_bytes((("\ufeff" if encoding == "utf-16-be" else "") + text).encode(encoding))
    assert read_dataset_json(marked) == DATASET
    assert main(["agreement", str(plain)]) == 0
    expected = capsys.readouterr().out
    assert main(["agreement", str(marked)]) == 0
    assert capsys.readouterr().out == expected


def test_segeval_json_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "data.json"
    path.write_bytes(json.dumps({"items": DATASET}, indent=1).encode("utf-16"))
    # coder a: ch1 masses 2, 3 -> [0, 2], [2, 5]; ch2 mass 3 -> [0, 3]
    columns = tvseg.read_segments(f"{path}#a", format="segeval")
    assert spans(columns, "ch1") == [(0.0, 2.0), (2.0, 5.0)]
    assert spans(columns, "ch2") == [(0.0, 3.0)]


# ---------------------------------------------------------------------------------------------
# 5. devices and endless streams

RTTM_LINE = b"SPEAKER s 1 0 5 <NA> <NA> a <NA> <NA>\n"  # one segment of show s: onset 0, duration 5


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused(capsys):
    # /dev/zero never ends: it was read until the kernel killed the process
    with pytest.raises(InputError, match=r"^/dev/zero: is a device \(character special file\), not a file$"):
        tvseg.read_segments("/dev/zero", format="rttm")
    assert main(["validate", "--format", "rttm", "/dev/zero"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("/dev/zero: is a device") and "Traceback" not in err and "internal error" not in err


def _fifo_writer(path, chunk, times):
    """Write ``chunk`` ``times`` times (forever with None) into the named pipe ``path``, in a thread."""

    def write():
        try:
            with open(path, "wb") as pipe:
                for _ in itertools.repeat(None) if times is None else range(times):
                    pipe.write(chunk)
        except BrokenPipeError:  # the reader stopped
            pass

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_stream_is_read_up_to_its_limit(tmp_path, monkeypatch):
    fifo = tmp_path / "s.rttm"
    os.mkfifo(fifo)
    writer = _fifo_writer(fifo, RTTM_LINE, 1)
    assert spans(tvseg.read_segments(fifo, format="rttm"), "s") == [(0.0, 5.0)]
    writer.join(10)
    # an endless stream stops at the limit (1 GiB, made 10,000 bytes here)
    monkeypatch.setattr(source, "STREAM_LIMIT", 10_000)
    writer = _fifo_writer(fifo, RTTM_LINE * 100, None)
    with pytest.raises(InputError, match=r"s\.rttm: a stream \(a pipe\) of more than 10,000 bytes"):
        tvseg.read_segments(fifo, format="rttm")
    writer.join(10)
    assert not writer.is_alive()


# ---------------------------------------------------------------------------------------------
# 3. SCC time codes out of range, as STL's are refused

SCC = (
    "Scenarist_SCC V1.0\n\n"
    "{start}\t9420 9420 94ae 94ae 9470 9470 c845 4c4c 4f80 942f 942f\n\n"
    "{end}\t942c 942c\n"
)  # a pop-on caption HELLO shown at its 10th word (9 frames after its time code), cleared at {end}


@pytest.mark.parametrize(
    ("start", "end", "line", "code"),
    [
        ("00:00:03;45", "00:00:06;00", 3, "00:00:03;45"),  # frame 45 of 30: was read as 4.5045 s
        ("00:00:01;00", "00:00:75;00", 5, "00:00:75;00"),  # second 75: was read as 75.075 s
        ("00:60:00:00", "00:61:00:00", 3, "00:60:00:00"),
        ("24:00:00:00", "24:00:01:00", 3, "24:00:00:00"),
        ("00:00:01:30", "00:00:02:00", 3, "00:00:01:30"),  # non-drop-frame too
    ],
)
def test_scc_time_codes_out_of_range_are_refused(tmp_path, capsys, start, end, line, code):
    pytest.importorskip("ttconv")
    path = tmp_path / "show.scc"
    path.write_text(SCC.format(start=start, end=end), encoding="utf-8")
    err = refused(["validate", path], capsys, path, line)
    assert "time code out of range at 29.97 frames/s" in err and repr(code) in err
    with pytest.raises(InputError, match=f"show.scc:{line}: time code out of range"):
        tvseg.read_segments(path)


def test_scc_time_codes_at_the_top_of_their_range_are_read(tmp_path):
    pytest.importorskip("ttconv")
    path = tmp_path / "show.scc"
    path.write_text(SCC.format(start="00:00:59:00", end="00:00:59:29"), encoding="utf-8")
    # non-drop-frame at 1001/30000 s a frame: 00:00:59:00 = 59 * 30 = 1770 frames, shown 9 frames later
    # (1779 frames = 59359.3 ms); cleared at 00:00:59:29 = 1799 frames = 60026.633... ms
    ((start, end),) = [(c.start_ms, c.end_ms) for c in read_captions(path, format="scc")]
    assert start == pytest.approx(1779 * 1001 / 30, abs=1e-6)
    assert end == pytest.approx(1799 * 1001 / 30, abs=1e-6)


# ---------------------------------------------------------------------------------------------
# 2. TTML: entities, encodings, nesting, captions that end before they begin or last nothing

TT = '<tt xmlns="http://www.w3.org/ns/ttml"><body><div>\n'  # its own line: the <p> lines follow it
END = "</div></body></tt>\n"


def ttml(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "text", "line", "says"),
    [
        (
            "entity.ttml",
            '<?xml version="1.0"?>\n<!DOCTYPE tt [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
            + TT
            + '<p begin="1s" end="2s">&x;</p>\n'
            + END,
            4,
            "not well-formed XML (undefined entity &x;, column 24)",
        ),
        (
            "encoding.ttml",
            '<?xml version="1.0" encoding="UTF-1"?>\n' + TT + '<p begin="1s" end="2s">hi</p>\n' + END,
            1,
            "the XML declaration names an encoding Python does not know (unknown encoding: UTF-1): 'UTF-1'",
        ),
        # tt, body, div, p are depths 1-4: the 97th span is the 101st element deep, on line 2
        ("deep500.ttml", TT + '<p begin="1s" end="2s">' + "<span>" * 500 + "x" + "</span>" * 500 + "</p>\n" + END, 2,
         "elements nested more than 100 deep"),
        ("deep1000.ttml", TT + '<p begin="1s" end="2s">' + "<span>" * 1000 + "x" + "</span>" * 1000 + "</p>\n" + END,
         2, "elements nested more than 100 deep"),
        ("back.ttml", TT + '<p begin="0s" end="1s">a</p>\n<p begin="9s" end="5s">b</p>\n' + END, 3,
         "caption with end before start: '9 -> 5'"),
    ],
)  # fmt: skip
def test_ttml_refusals_name_the_line(tmp_path, capsys, name, text, line, says):
    pytest.importorskip("ttconv")
    path = ttml(tmp_path, name, text)
    err = refused(["validate", path], capsys, path, line)
    assert says in err and "root:" not in err  # /etc/passwd neither read nor shown
    with pytest.raises(InputError, match=f"{name}:{line}: "):
        tvseg.read_segments(path)


def test_ttml_caption_of_zero_duration_is_refused_as_a_segment_and_skipped_as_a_unit(tmp_path, capsys):
    pytest.importorskip("ttconv")
    path = ttml(tmp_path, "zero.ttml", TT + '<p begin="0s" end="1s">a</p>\n<p begin="5s" end="5s">b</p>\n' + END)
    with pytest.raises(InputError, match="zero.ttml:3: caption of zero duration"):
        tvseg.read_segments(path)
    # validate reads a caption file as --units does: the caption skipped, with the warning, and it says why
    # the file is no segmentation
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "2 cue(s) read as 1 unit(s)" in out and f"not as segments ({path}:3: caption of zero duration" in out
    assert f"{path}:3: 1 zero-duration caption(s) skipped" in err


def test_ttml_nested_a_hundred_deep_is_read(tmp_path):
    pytest.importorskip("ttconv")
    # tt, body, div, p, then 96 spans: depth 100
    path = ttml(
        tmp_path, "deep.ttml", TT + '<p begin="1s" end="2s">' + "<span>" * 96 + "x" + "</span>" * 96 + "</p>\n" + END
    )
    assert [(c.start_ms, c.end_ms, c.text) for c in read_captions(path, format="ttml")] == [(1000.0, 2000.0, "x")]


def test_ttml_end_before_start_in_units(tmp_path):
    pytest.importorskip("ttconv")
    path = ttml(tmp_path, "back.ttml", TT + '<p begin="0s" end="1s">a</p>\n<p begin="9s" end="5s">b</p>\n' + END)
    with pytest.raises(InputError, match=r"back\.ttml:3: caption with end before start"):
        tvseg.read_units(path)


def test_ttml_caption_of_zero_duration_is_skipped_in_units_with_a_warning(tmp_path):
    pytest.importorskip("ttconv")
    # as a WebVTT cue of zero duration: no unit, one warning at its line; the other captions stay
    path = ttml(tmp_path, "zero.ttml", TT + '<p begin="0s" end="1s">a</p>\n<p begin="5s" end="5s">b</p>\n'
                '<p begin="6s" end="7.5s">c</p>\n' + END)  # fmt: skip
    with pytest.warns(tvseg.LenientInputWarning, match=r"zero\.ttml:3: 1 zero-duration caption\(s\) skipped"):
        units = tvseg.read_units(path)["zero"]
    assert list(zip(units["start"], units["end"], units["text"])) == [(0.0, 1.0, "a"), (6.0, 7.5, "c")]


def test_ttml_caption_never_shown_by_its_container_is_named(tmp_path):
    pytest.importorskip("ttconv")
    # the div lasts 0-3 s; its p at 5-6 s is never shown (TTML clips it to its container): left out, with
    # a warning at its line, where it was left out without a word
    path = ttml(
        tmp_path,
        "outside.ttml",
        '<tt xmlns="http://www.w3.org/ns/ttml"><body><div begin="0s" end="3s">\n'
        '<p begin="1s" end="2s">a</p>\n<p begin="5s" end="6s">b</p>\n' + END,
    )
    with pytest.warns(tvseg.LenientInputWarning, match=r"outside\.ttml:3: 1 caption\(s\) never shown"):
        assert spans(tvseg.read_segments(path), "outside") == [(1.0, 2.0)]
