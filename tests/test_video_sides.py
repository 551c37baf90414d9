"""Video users' inputs: Chapter-Llama's output folder as a hypothesis (``--preset chapter-llama`` gives Chapter-Llama's
numbers), ``--format`` by side (a YouTube description as the reference, JSON hypotheses), ``--durations FILE``.

Chapter-Llama's layout (https://github.com/lucas-ventura/chapter-llama at d19a77ef): ``src/test/vidchapters.py``
writes ``save_dir / vid_id[:2] / f"{vid_id}.json"`` holding ``{"chapters": {"HH:MM:SS": title}, "output": text}``;
``tools/results/metrics.py`` reads ``exp_dir.glob("*/*.json")``, the video id being the file's stem.
"""

from __future__ import annotations

import json
import random
import warnings

import pytest
from test_chapter_llama import chapter_llama, chapters_json, random_videos

from tvseg.cli import main
from tvseg.errors import InputError
from tvseg.readers import read_segments
from tvseg.readers.durations import read_durations


def hms(seconds: int) -> str:
    """Chapter-Llama's sec_to_hms (src/data/chapters.py): HH:MM:SS of whole seconds."""
    m, s = divmod(seconds, 60)
    h, m = divmod(m, 60)
    return f"{h:02d}:{m:02d}:{s:02d}"


def write_chapter_llama(folder, videos):
    for vid, video in videos.items():
        chapters = {hms(t): f"chapter {k}" for k, t in enumerate(video["pred"])}
        path = folder / vid[:2] / f"{vid}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        output = "\n".join(f"{t} {title}" for t, title in chapters.items())
        path.write_text(json.dumps({"chapters": chapters, "output": output}), encoding="utf-8")


def run(tmp_path, *args) -> dict:
    out = tmp_path / "out.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["evaluate", *map(str, args), "--no-html", "--bootstrap", "0", "--json", str(out)])
    assert code == 0
    return json.loads(out.read_text())["systems"]


def test_a_chapter_llama_output_folder_gives_chapter_llamas_numbers(tmp_path):
    videos = random_videos(random.Random(43), 40)
    (tmp_path / "ref.json").write_text(json.dumps(chapters_json(videos, "ref")), encoding="utf-8")
    write_chapter_llama(tmp_path / "exp", videos)
    (tmp_path / "all.uem").write_text("".join(f"{v} 1 0 {d['duration']}\n" for v, d in videos.items()))
    # the folder of folders is recognised without --format; each video ends where the reference's does
    system = run(
        tmp_path,
        *("--reference", tmp_path / "ref.json", "--hypothesis", f"cl={tmp_path / 'exp'}"),
        *("--uem", tmp_path / "all.uem", "--preset", "chapter-llama"),
    )["cl"]
    theirs = chapter_llama(videos)  # Chapter-Llama's code, transcribed in test_chapter_llama.py
    corpus = system["corpus"]
    assert corpus["cl_f1"] * 100 == pytest.approx(theirs["F1"], rel=1e-12)
    assert corpus["cl_avg_tiou"] * 100 == pytest.approx(theirs["Avg. TIoU"], rel=1e-12)
    assert corpus["chapter_count_mae"] == pytest.approx(theirs["MAE"], rel=1e-12)
    assert [round(corpus[f"chapter_count_{c}"] * 100, 2) for c in ("under", "equal", "over")] == theirs["UEO"]
    for vid in videos:
        one = chapter_llama(videos, only={vid})
        assert system["shows"][vid]["cl_f1"] * 100 == pytest.approx(one["F1"], rel=1e-12, abs=1e-12), vid


def test_the_hand_computed_video_as_chapter_llama_output(tmp_path):
    # the video of test_chapter_llama.test_a_hand_computed_video: reference [0, 50), [50, 100), predicted
    # chapters at 0 and 40 s of a 100 s video: F1 0.65, average tIoU 49/60
    reference = {"v1": {"duration": 100, "chapters": [{"label": "a", "time": 0}, {"label": "b", "time": 50}]}}
    (tmp_path / "ref.json").write_text(json.dumps(reference), encoding="utf-8")
    (tmp_path / "exp" / "v1").mkdir(parents=True)
    chapters = {"chapters": {"00:00:00": "a", "00:00:40": "b"}, "output": "00:00:00 a\n00:00:40 b"}
    (tmp_path / "exp" / "v1" / "v1.json").write_text(json.dumps(chapters), encoding="utf-8")
    row = run(tmp_path, "--reference", tmp_path / "ref.json", "--hypothesis", f"m={tmp_path / 'exp'}")["m"]["shows"][
        "v1"
    ]
    assert row["cl_f1"] == pytest.approx(0.65, abs=1e-9)
    assert row["cl_avg_tiou"] == pytest.approx(49 / 60, abs=1e-9)
    # one file read alone: its last chapter needs the video's end
    with pytest.raises(InputError, match="the end of the last chapter is unknown") as error:
        read_segments(tmp_path / "exp" / "v1" / "v1.json")
    assert error.value.line == 1 and error.value.value == "0:40"
    assert read_segments(tmp_path / "exp" / "v1" / "v1.json", end=100).start.tolist() == [0.0, 40.0]


def test_validate_a_chapter_llama_folder(tmp_path, capsys):
    chapters = {"chapters": {"00:00:00": "a", "00:00:40": "b", "00:01:05.5": "c"}, "output": ""}
    (tmp_path / "exp" / "v1").mkdir(parents=True)
    (tmp_path / "exp" / "v1" / "v1.json").write_text(json.dumps(chapters), encoding="utf-8")
    assert main(["validate", str(tmp_path / "exp")]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{tmp_path / 'exp' / 'v1' / 'v1.json'}: ok: chapter list, 3 chapter(s) (the last ends at the show's end)",
        f"{tmp_path / 'exp' / 'v1'}: ok: folder of chapter lists, 1 show(s), 3 chapter(s) (each ends at its show's end)",
    ]
    # 00:01:05.5 is 65.5 s (hms_to_sec keeps the fraction)
    assert read_segments(tmp_path / "exp", end={"v1": 70}).start.tolist() == [0.0, 40.0, 65.5]


@pytest.mark.parametrize(
    "chapters, message, value",
    [
        ({"00:00:00": "a", "00:00:00.0": "b"}, "the chapter times do not increase", "00:00:00.0"),
        ({"00:00:00": "a", "00:61:00": "b"}, r"not HH:MM:SS \(minutes and seconds under 60\)", "00:61:00"),
        ({"00:00:00": "a", "1:2:x": "b"}, "not HH:MM:SS", "1:2:x"),
    ],
)
def test_bad_chapter_llama_files_name_file_line_value(tmp_path, chapters, message, value):
    path = tmp_path / "v.json"
    path.write_text(json.dumps({"chapters": chapters, "output": ""}, indent=1), encoding="utf-8")
    with pytest.raises(InputError, match=message) as error:
        read_segments(path, format="chapter-llama", end=100)
    assert (error.value.path, error.value.line, error.value.value) == (str(path), 4, value)


DESCRIPTION = "My video\n\nChapters:\n0:00 Intro\n1:30 Main part\n4:00 Outro\n"
HYPOTHESIS = {"vid1": [{"start": 0, "end": 95, "title": "a"}, {"start": 95, "end": 300, "title": "b"}]}


def test_format_by_side_and_durations(tmp_path, capsys):
    (tmp_path / "refs").mkdir()
    (tmp_path / "refs" / "vid1.txt").write_text(DESCRIPTION, encoding="utf-8")
    (tmp_path / "hyp.json").write_text(json.dumps(HYPOTHESIS), encoding="utf-8")
    (tmp_path / "durations.csv").write_text("show,duration\nvid1,5:00\n", encoding="utf-8")
    common = ("--reference", tmp_path / "refs", "--hypothesis", f"m={tmp_path / 'hyp.json'}")
    # reference chapters [0, 90), [90, 240), [240, 300) (the last to the duration, 5:00 = 300 s); hypothesis
    # [0, 95), [95, 300). Boundaries strictly inside [0, 300]: reference {90, 240}, hypothesis {95}; 95 is 5 s
    # from 90 (tolerance 10 s): precision 1/1, recall 1/2, F1 2/3.
    system = run(tmp_path, *common, "--format", "reference:youtube", "--durations", tmp_path / "durations.csv")
    show = system["m"]["shows"]["vid1"]
    assert (show["boundary_precision"], show["boundary_recall"]) == (1.0, 0.5)
    assert show["boundary_f1"] == pytest.approx(2 / 3, rel=1e-15)
    # the same reference written as a segments table with its ends: the same numbers
    table = "show,start,end,label\nvid1,0,90,Intro\nvid1,90,240,Main part\nvid1,240,300,Outro\n"
    (tmp_path / "ref.csv").write_text(table, encoding="utf-8")
    assert run(tmp_path, "--reference", tmp_path / "ref.csv", "--hypothesis", f"m={tmp_path / 'hyp.json'}") == system
    # the durations as JSON, {show: seconds} or VidChapters' {video: {"duration": d, ...}}
    for durations in ({"vid1": 300}, {"vid1": {"duration": 300, "chapters": []}}):
        (tmp_path / "d.json").write_text(json.dumps(durations), encoding="utf-8")
        assert run(tmp_path, *common, "--format", "reference:youtube", "--durations", tmp_path / "d.json") == system
    # --format youtube for every side reads the JSON hypothesis as a description too: refused
    args = ["evaluate", *map(str, common), "--format", "youtube", "--durations", str(tmp_path / "durations.csv")]
    assert main([*args, "--no-html"]) == 2
    assert "hyp.json" in capsys.readouterr().err
    # without a duration, the message names the option
    assert main(["evaluate", *map(str, common), "--format", "reference:youtube", "--no-html"]) == 2
    assert "--durations FILE" in capsys.readouterr().err
    # a side that is no side, a format that is no format
    assert main(["evaluate", *map(str, common), "--format", "nobody:youtube", "--no-html"]) == 2
    assert "'nobody' is not a side (choose from reference, m)" in capsys.readouterr().err
    assert main(["evaluate", *map(str, common), "--format", "reference:tube", "--no-html"]) == 2
    assert "unknown format 'tube'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "name, text, line, value, message",
    [
        ("d.csv", "show,length\nvid1,300\n", 1, "duration", "needs the columns show,duration"),
        ("d.csv", "show,duration\nvid1,300\nvid2,-4\n", 3, "-4", "duration is negative"),
        ("d.csv", "show,duration\nvid1,300\nvid1,301\n", 3, "vid1", r"given twice \(line 2\)"),
        ("d.csv", "show,duration\nvid1,0\n", 2, "0", "duration must be positive"),
        ("d.json", '{\n"vid1": 300,\n"vid2": "5:00"\n}', 3, '"5:00"', "must be a number of seconds"),
    ],
)
def test_bad_durations_name_file_line_value(tmp_path, capsys, name, text, line, value, message):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as error:
        read_durations(path)
    assert (error.value.path, error.value.line, error.value.value) == (str(path), line, value)
    (tmp_path / "v.txt").write_text(DESCRIPTION, encoding="utf-8")
    args = ["evaluate", "--reference", tmp_path / "v.txt", "--hypothesis", f"m={tmp_path / 'v.txt'}"]
    assert main([*map(str, args), "--format", "youtube", "--durations", str(path), "--no-html"]) == 2
    assert f"{path}:{line}: " in capsys.readouterr().err
