"""Issue 22, declared encodings: ``--encoding NAME`` / ``encoding=``, a refusal that guesses no encoding and
a hint that keeps the file's name (its show id), and a warning naming a units or hypothesis file whose
show the reference lacks.

Every file is written here, in the encoding under test (GB2312 for Chinese, cp1251 for Cyrillic).
"""

import json
import shlex
import shutil
import subprocess

import pytest
from reader_helpers import segments, write

import tvseg
from tvseg.cli import main
from tvseg.errors import InputError, TvsegWarning

TITLES = {"gb2312": ("新闻标题", "天气预报", "体育"), "cp1251": ("Новости", "Погода", "Спорт")}
TIMES = ((0, 300), (300, 600), (600, 900))  # topics, not captions


def srt(titles) -> str:
    return "".join(
        f"{k}\n00:{a // 60:02d}:{a % 60:02d},000 --> 00:{b // 60:02d}:{b % 60:02d},000\n{title}\n\n"
        for k, ((a, b), title) in enumerate(zip(TIMES, titles), 1)
    )


def corpus(tmp_path, encoding):
    """A reference SRT (chapters) in ``encoding``, the same titles as a UTF-8 hypothesis CSV (titles match
    only when the reference is decoded right), breath groups in ``encoding`` with the titles as text."""
    titles = TITLES[encoding]
    reference = write(tmp_path, "news.srt", srt(titles), encoding=encoding)
    rows = "".join(f"news,{a},{b},{t}\n" for (a, b), t in zip(TIMES, titles))
    hypothesis = write(tmp_path, "mine.csv", "show,start,end,label\n" + rows)
    units = write(tmp_path, "units.csv", "show,start,end,text\n" + rows, encoding=encoding)
    return reference, hypothesis, units


def refusal(path, **options) -> InputError:
    with pytest.raises(InputError) as caught:
        tvseg.read_segments(path, **options)
    assert isinstance(caught.value, ValueError)
    return caught.value


@pytest.mark.parametrize("encoding", ["gb2312", "cp1251"])
def test_an_undeclared_file_is_refused_naming_no_wrong_encoding_with_a_hint_that_keeps_its_name(tmp_path, encoding):
    path = write(tmp_path, "news.srt", srt(TITLES[encoding]), encoding=encoding)
    error = refusal(path)
    first = TITLES[encoding][0].encode(encoding)[0]
    assert str(error).startswith(f"{path}:3: not UTF-8 (byte 0x{first:02X})")
    assert "1252" not in str(error) and "Latin" not in str(error) and "looks like" not in str(error)
    assert "--encoding NAME" in error.message and "encoding= in Python" in error.message
    assert f"iconv -f NAME -t UTF-8 {path} > {path}.tmp && mv {path}.tmp {path}" in error.message
    assert "utf8" not in error.message  # no renamed copy (x.utf8.srt), whose show id would be x.utf8


@pytest.mark.skipif(shutil.which("iconv") is None, reason="needs iconv")
@pytest.mark.parametrize("encoding", ["gb2312", "cp1251"])
def test_following_the_hint_keeps_the_show_id(tmp_path, encoding):
    path = write(tmp_path, "news.srt", srt(TITLES[encoding]), encoding=encoding)
    command = refusal(path).message.rpartition("keeping its name: ")[2].replace("NAME", encoding.upper())
    subprocess.run(command, shell=True, check=True)
    assert [p.name for p in tmp_path.iterdir()] == ["news.srt"]
    assert [label for *_, label in segments(tvseg.read_segments(path)["news"])] == list(TITLES[encoding])
    assert shlex.quote(str(path)) in command


@pytest.mark.parametrize("encoding", ["gb2312", "cp1251"])
def test_encoding_on_read_segments_read_units_and_read_uem(tmp_path, encoding):
    reference, _, units = corpus(tmp_path, encoding)
    titles = TITLES[encoding]
    read = tvseg.read_segments(reference, encoding=encoding)
    assert list(read) == ["news"]
    assert segments(read["news"]) == [(float(a), float(b), t) for (a, b), t in zip(TIMES, titles)]
    frame = tvseg.read_units(units, encoding=encoding)["news"]
    assert list(frame["text"]) == list(titles) and list(frame["start"]) == [0.0, 300.0, 600.0]
    captions = tvseg.read_units(reference, encoding=encoding)["news"]  # a caption file as units
    assert list(captions["text"]) == list(titles)
    show = titles[0]  # a show id in the encoding (a file stem may be one)
    uem = write(tmp_path, "shows.uem", f"{show} 1 0 15\n", encoding=encoding)
    assert list(tvseg.read_uem(uem, encoding=encoding)) == [show]
    with pytest.raises(InputError, match="--encoding NAME"):
        tvseg.read_uem(uem)


def test_every_reader_takes_the_encoding(tmp_path):
    title = TITLES["cp1251"][0]
    files = {
        "a.rttm": f"SEGMENT a 1 0 5 <NA> <NA> {title} <NA> <NA>\n",
        "b.vtt": f"WEBVTT\n\n00:00:00.000 --> 00:00:05.000\n{title}\n",
        "c.csv": f"show,start,end,label\nc,0,5,{title}\n",
        "d.jsonl": json.dumps(
            {"show": "d", "duration": 10, "reference": [5], "reference_titles": [[title, 0], ["x", 5]]}
        )
        + "\n",
    }
    folder = tmp_path / "folder"
    folder.mkdir()
    for name, text in files.items():
        write(folder, name, text, encoding="cp1251")
    read = tvseg.read_segments(folder, encoding="cp1251")
    assert {show: segments(a)[0][2] for show, a in read.items()} == dict.fromkeys("abcd", title)
    for name in files:  # one file at a time too
        show = name[0]
        assert segments(tvseg.read_segments(folder / name, encoding="cp1251")[show])[0][2] == title
    chapters = write(tmp_path, "e.txt", f"0:00 {title}\n0:05 Погода\n", encoding="cp1251")
    assert segments(tvseg.read_segments(chapters, format="txt", end=9, encoding="cp1251")["e"])[0][2] == title
    metadata = write(tmp_path, "meta.csv", f"show,channel,programme\na,{title},x\n", encoding="cp1251")
    assert tvseg.read_metadata(metadata, encoding="cp1251").loc["a", "channel"] == title


def test_bytes_that_do_not_decode_as_the_declared_encoding(tmp_path):
    path = write(tmp_path, "news.srt", srt(TITLES["gb2312"]), encoding="gb2312")
    error = refusal(path, encoding="utf-8")
    assert str(error).startswith(f"{path}:3: byte 0xD0 does not decode as utf-8, the encoding given")
    path = write(tmp_path, "units.csv", "show,start,end,text\nnews,0,5,ok\nnews,5,10,Новости\n", encoding="cp1251")
    with pytest.raises(InputError) as caught:
        tvseg.read_units(path, encoding="ascii")
    assert str(caught.value).startswith(f"{path}:3: byte 0xCD does not decode as ascii")


def test_a_byte_order_mark_wins_over_the_declaration_and_utf16_without_one(tmp_path):
    title = TITLES["cp1251"][0]
    path = write(tmp_path, "news.srt", srt(TITLES["cp1251"]), bom=True)
    assert segments(tvseg.read_segments(path, encoding="cp1251")["news"])[0][2] == title
    path = write(tmp_path, "units.csv", f"show,start,end,text\nnews,0,5,{title}\n", encoding="utf-16-le")
    error = pytest.raises(InputError, tvseg.read_units, path).value  # certain: mostly NULs
    assert "UTF-16 without a byte order mark" in error.message and "--encoding utf-16-le" in error.message
    assert list(tvseg.read_units(path, encoding="utf-16-le")["news"]["text"]) == [title]
    ascii_units = write(tmp_path, "ascii.csv", "show,start,end\nnews,0,5\n", encoding="utf-16-le")
    assert len(tvseg.read_units(ascii_units, encoding="utf-16-le")["news"]) == 1  # not the fast ASCII path


def test_a_utf8_file_among_files_in_the_declared_encoding_is_read_as_utf8(tmp_path):
    # one --encoding for a run whose reference is cp1251 and whose system output is UTF-8: Cyrillic in
    # cp1251 is never valid UTF-8, and UTF-8 read as cp1251 would be garbled without an error
    title = TITLES["cp1251"][0]
    utf8 = write(tmp_path, "a.csv", f"show,start,end,label\na,0,5,{title}\n")
    cp1251 = write(tmp_path, "b.csv", f"show,start,end,label\nb,0,5,{title}\n", encoding="cp1251")
    for path, show in ((utf8, "a"), (cp1251, "b")):
        assert segments(tvseg.read_segments(path, encoding="cp1251")[show]) == [(0.0, 5.0, title)]
    ascii_text = write(tmp_path, "c.csv", "show,start,end,label\nc,0,5,x\n", encoding="utf-16-le")
    assert segments(tvseg.read_segments(ascii_text, encoding="utf-16-le")["c"]) == [(0.0, 5.0, "x")]  # as given


@pytest.mark.parametrize("encoding", ["nope", "base64", "rot13"])
def test_an_unknown_encoding_is_refused(tmp_path, encoding):
    path = write(tmp_path, "news.srt", srt(TITLES["cp1251"]), encoding="cp1251")
    for reader in (tvseg.read_segments, tvseg.read_units, tvseg.read_uem):
        with pytest.raises(ValueError, match=f"encoding {encoding!r}"):
            reader(path, encoding=encoding)
    with pytest.raises(ValueError, match="encoding 'nope'"):
        tvseg.read_segments(tmp_path / "missing.srt", encoding="nope")  # the option first, then the files


@pytest.mark.parametrize("command", ["evaluate", "validate", "convert"])
def test_an_unknown_encoding_on_the_command_line_exits_2_with_one_line(tmp_path, capsys, command):
    path = write(tmp_path, "news.srt", srt(TITLES["cp1251"]))
    argv = {
        "evaluate": ["evaluate", "--reference", str(path), "--hypothesis", f"a={path}"],
        "validate": ["validate", str(path)],
        "convert": ["convert", str(path), str(tmp_path / "out.csv")],
    }[command]
    assert main([*argv, "--encoding", "nope"]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("tvseg: error: unknown encoding 'nope'"), err
    assert "Traceback" not in err and not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("encoding", ["gb2312", "cp1251"])
def test_evaluate_with_the_encoding_reads_the_show_under_its_own_id(tmp_path, capsys, encoding):
    reference, hypothesis, units = corpus(tmp_path, encoding)
    out = tmp_path / "scores.json"
    argv = ["evaluate", "--reference", str(reference), "--hypothesis", f"mine={hypothesis}", "--units", str(units)]
    assert main([*argv, "--json", str(out), "--bootstrap", "0"]) == 2  # UTF-8 by default: refused
    assert f"{reference}:3: not UTF-8" in capsys.readouterr().err
    assert main([*argv, "--encoding", encoding, "--json", str(out), "--bootstrap", "0"]) == 0
    err = capsys.readouterr().err
    assert "not in the reference" not in err and "no units" not in err and "no hypothesis" not in err, err
    shows = json.loads(out.read_text(encoding="utf-8"))["systems"]["mine"]["shows"]
    assert list(shows) == ["news"]
    assert shows["news"]["title_accuracy"] == 1.0  # the UTF-8 hypothesis's titles match: decoded right
    assert shows["news"]["pk"] == 0.0 and shows["news"]["cov_n"] == 1.0


@pytest.mark.parametrize("encoding", ["gb2312", "cp1251"])
def test_validate_with_the_encoding(tmp_path, capsys, encoding):
    reference, hypothesis, units = corpus(tmp_path, encoding)
    assert main(["validate", str(reference), str(units)]) == 2
    err = capsys.readouterr().err
    assert f"{reference}:3: not UTF-8" in err and f"{units}:2: not UTF-8" in err
    assert main(["validate", str(reference), str(units), "--encoding", encoding]) == 0
    out = capsys.readouterr().out
    assert f"{reference}: ok: SRT captions, 1 show(s), 3 cue(s) read as 3 unit(s)" in out
    assert f"{units}: ok: breath groups" in out
    argv = ["validate", "--reference", str(reference), "--hypothesis", f"mine={hypothesis}", "--units", str(units)]
    assert main([*argv, "--encoding", encoding]) == 0
    assert "ok: tvseg evaluate would score 1 system(s) on 1 show(s)" in capsys.readouterr().out


@pytest.mark.parametrize("encoding", ["gb2312", "cp1251"])
def test_convert_with_the_encoding_writes_utf8_under_the_same_show_id(tmp_path, capsys, encoding):
    reference, _, _ = corpus(tmp_path, encoding)
    out = tmp_path / "out.csv"
    assert main(["convert", str(reference), str(out)]) == 2
    assert f"{reference}:3: not UTF-8" in capsys.readouterr().err
    assert main(["convert", str(reference), str(out), "--encoding", encoding]) == 0
    rows = out.read_text(encoding="utf-8").splitlines()[1:]
    assert [row.split(",")[0] for row in rows] == ["news"] * 3
    assert [row.split(",")[-1] for row in rows] == list(TITLES[encoding])


def test_units_whose_show_is_not_in_the_reference_are_named_with_their_file(tmp_path, capsys):
    # the old hint's copy (news.utf8.srt) read as units: its show id is news.utf8, not news
    reference, hypothesis, _ = corpus(tmp_path, "cp1251")
    reference = write(tmp_path, "news.srt", srt(TITLES["cp1251"]))
    units = write(tmp_path, "news.utf8.srt", srt(TITLES["cp1251"]))
    argv = ["evaluate", "--reference", str(reference), "--hypothesis", f"mine={hypothesis}", "--units", str(units)]
    assert main([*argv, "--bootstrap", "0"]) == 0
    err = capsys.readouterr().err
    assert f"units: show(s) not in the reference, left out: news.utf8 (from {units})" in err
    with pytest.warns(TvsegWarning, match=r"units: show\(s\) not in the reference, left out: news\.utf8 \(from "):
        tvseg.evaluate(
            tvseg.read_segments(reference), {"mine": tvseg.read_segments(hypothesis)}, units=tvseg.read_units(units)
        )


def test_hypothesis_shows_not_in_the_reference_are_named_with_their_file(tmp_path):
    reference, hypothesis, _ = corpus(tmp_path, "cp1251")
    other = write(tmp_path, "other.csv", "show,start,end,label\nnews,0,900,a\nnews.utf8,0,900,b\n")
    with pytest.warns(TvsegWarning) as caught:
        tvseg.evaluate(
            tvseg.read_segments(reference, encoding="cp1251"),
            {"mine": tvseg.read_segments(hypothesis), "other": tvseg.read_segments(other)},
            settings=tvseg.Settings(bootstrap=0),
        )
    messages = [str(w.message) for w in caught]
    assert f"other: show(s) not in the reference, left out: news.utf8 (from {other})" in messages


def test_the_sharded_run_gives_the_same_units_warning(tmp_path):
    from tvseg.scale import evaluate_sharded

    reference, hypothesis, units = corpus(tmp_path, "cp1251")
    extra = write(tmp_path, "more.csv", "show,start,end\nnews,0,900\nnews.utf8,0,900\n")
    inputs = dict(
        reference=tvseg.read_segments(reference, encoding="cp1251"),
        hypotheses={"mine": tvseg.read_segments(hypothesis)},
        units=tvseg.read_units(extra),
        settings=tvseg.Settings(bootstrap=0),
    )
    expected = f"units: show(s) not in the reference, left out: news.utf8 (from {extra})"
    for run in (tvseg.evaluate, lambda **kw: evaluate_sharded(chunk_shows=1, **kw)):
        with pytest.warns(TvsegWarning) as caught:
            run(**inputs)
        assert expected in [str(w.message) for w in caught]
