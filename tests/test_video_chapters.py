"""Video chapters (issue 24): VidChapters-7M annotations, ActivityNet-style predictions that overlap,
``{show: [segments]}`` JSON, YouTube descriptions read as VidChapters reads them, ``video_id``/``id`` in
chunkseg JSONL, and the ``anet`` writer.

The expected detection and navigation values come from ``dvc_eval_scores`` below: VidChapters' own
definitions re-implemented from ``dvc_eval/eval_dvc.py`` (class ``ANETcaptions``: ``iou``,
``evaluate_detection``, ``evaluate_navigation``, ``evaluate``; https://github.com/antoyang/VidChapters),
with its float arithmetic, its loops over every (prediction, reference) pair and its averaging, and
nothing of tvseg.
"""

import json
import random
import re
import warnings

import pytest
from reader_helpers import segments, write

from tvseg import evaluate, read_segments
from tvseg.cli import main
from tvseg.errors import InputError, TvsegWarning, UsageError
from tvseg.readers import NO_LABEL
from tvseg.writers import write_segments

TIOUS = (0.3, 0.5, 0.7, 0.9)
DISTANCES = (1, 3, 5, 10, 30, 60)


# --- dvc_eval, re-implemented from its code ----------------------------------------------------------


def _iou(interval_1, interval_2):
    start_i, end_i = interval_1[0], interval_1[1]
    start, end = interval_2[0], interval_2[1]
    intersection = max(0, min(end, end_i) - max(start, start_i))
    union = min(max(end, end_i) - min(start, start_i), end - start + end_i - start_i)
    return float(intersection) / (union + 1e-8)


def _video(preds, refs, close):
    """One video's (precision, recall): every pair tested, a prediction (reference) counted once."""
    ref_covered, pred_covered = set(), set()
    for pred_i, pred in enumerate(preds):
        for ref_i, ref in enumerate(refs):
            if close(pred, ref):
                ref_covered.add(ref_i)
                pred_covered.add(pred_i)
    return len(pred_covered) / max(len(preds), 1), len(ref_covered) / len(refs)


def dvc_eval_scores(ground_truth, prediction):
    """``{video: {key: value}}`` and the corpus values, as ``ANETcaptions.evaluate`` computes them.

    ``ground_truth`` is dvc_eval's shape ``{video: {"timestamps": [[s, e]...]}}``, ``prediction``
    ``{video: [{"timestamp": [s, e]}...]}``. Per video, the values are the means over thresholds (over
    distances for navigation, one value per distance); the corpus P and R are the means over videos and
    thresholds, the corpus F the mean over thresholds of the F of the video-averaged P and R.
    """
    videos = [v for v in ground_truth if v in prediction]
    per_video = {v: {} for v in videos}
    corpus = {}
    p_t, r_t = {}, {}
    for t in TIOUS:
        for v in videos:
            preds = [p["timestamp"] for p in prediction[v]]
            p_t[v, t], r_t[v, t] = _video(preds, ground_truth[v]["timestamps"], lambda a, b, t=t: _iou(a, b) > t)
    for v in videos:
        ps, rs = [p_t[v, t] for t in TIOUS], [r_t[v, t] for t in TIOUS]
        per_video[v]["vc_detection_precision"] = sum(ps) / 4
        per_video[v]["vc_detection_recall"] = sum(rs) / 4
        per_video[v]["vc_detection_f1"] = sum(2 * p * r / (p + r) if p + r else 0.0 for p, r in zip(ps, rs)) / 4
    precisions, recalls, f1s = [], [], []
    for t in TIOUS:
        precision = sum(p_t[v, t] for v in videos) / len(videos)
        recall = sum(r_t[v, t] for v in videos) / len(videos)
        precisions.append(precision)
        recalls.append(recall)
        f1s.append(2 * recall * precision / (recall + precision) if recall + precision else 0.0)
    corpus["vc_detection_precision"] = sum(precisions) / 4
    corpus["vc_detection_recall"] = sum(recalls) / 4
    corpus["vc_detection_f1"] = sum(f1s) / 4
    for d in DISTANCES:
        ps, rs = [], []
        for v in videos:
            preds = [p["timestamp"] for p in prediction[v]]
            p, r = _video(preds, ground_truth[v]["timestamps"], lambda a, b, d=d: abs(a[0] - b[0]) < d)
            per_video[v][f"nav_precision_{d}s"], per_video[v][f"nav_recall_{d}s"] = p, r
            ps.append(p)
            rs.append(r)
        corpus[f"nav_precision_{d}s"], corpus[f"nav_recall_{d}s"] = sum(ps) / len(ps), sum(rs) / len(rs)
    return per_video, corpus


def test_the_reimplementation_on_a_case_counted_by_hand():
    # reference [0, 10), [10, 20); predictions [0, 10] and [0, 12] (overlapping), [15, 20]
    # tIoU: P0-R0 1, P1-R0 10/12, P1-R1 2/12, P2-R1 5/10 (not above 0.5), P2-R0 0
    # t=0.3: P0, P1, P2 (0.5 > 0.3) -> P 3/3; R0, R1 -> 2/2.  t=0.5: P0, P1 -> 2/3; R0 -> 1/2
    # t=0.7: the same.  t=0.9: P0 -> 1/3; R0 -> 1/2
    # P = (1 + 2/3 + 2/3 + 1/3) / 4 = 2/3; R = (1 + 1/2 + 1/2 + 1/2) / 4 = 5/8
    per_video, _ = dvc_eval_scores(
        {"v": {"timestamps": [[0, 10], [10, 20]]}},
        {"v": [{"timestamp": [0, 10]}, {"timestamp": [0, 12]}, {"timestamp": [15, 20]}]},
    )
    assert per_video["v"]["vc_detection_precision"] == pytest.approx(2 / 3)
    assert per_video["v"]["vc_detection_recall"] == pytest.approx(5 / 8)
    # navigation at 3 s: starts 0, 0, 15 against 0, 10: P 2/3 (15 is 5 s from 10), R 1/2
    assert per_video["v"]["nav_precision_3s"] == pytest.approx(2 / 3)
    assert per_video["v"]["nav_recall_3s"] == pytest.approx(1 / 2)


# --- generated annotations and overlapping predictions ----------------------------------------------


def _generated(seed, n_videos=12):
    """VidChapters annotations (raw shape), the same in dvc_eval's shape, and overlapping predictions.

    Times are multiples of 1/2 s (exact in binary floats), so that the float tests of dvc_eval and
    tvseg's exact ones decide alike.
    """
    rng = random.Random(seed)
    raw, processed, results = {}, {}, {}
    for k in range(n_videos):
        video = f"vid{k:02d}_{rng.choice('abcXYZ')}"
        duration = rng.randint(60, 400) / 2
        times = sorted({0.0, *(rng.randint(1, int(duration * 2) - 1) / 2 for _ in range(rng.randint(0, 6)))})
        chapters = [{"label": f"chapter {i}", "time": t} for i, t in enumerate(times)]
        raw[video] = {"duration": duration, "chapters": chapters}
        stamps = [[t, times[i + 1] if i + 1 < len(times) else duration] for i, t in enumerate(times)]
        processed[video] = {"duration": duration, "timestamps": stamps, "sentences": [c["label"] for c in chapters]}
        preds = []
        for _ in range(rng.randint(1, 9)):
            if rng.random() < 0.4:  # near a reference chapter
                s, e = rng.choice(stamps)
                s = min(max(0.0, s + rng.randint(-6, 6) / 2), duration - 1)
                e = min(max(s + 0.5, e + rng.randint(-6, 6) / 2), duration)
            else:
                s = rng.randint(0, int(duration * 2) - 2) / 2
                e = rng.randint(int(s * 2) + 1, int(duration * 2)) / 2
            preds.append({"timestamp": [s, e], "sentence": f"event {len(preds)}"})
        if rng.random() < 0.5:  # the same interval twice
            preds.append(dict(preds[0]))
        results[video] = preds
    prediction = {"version": "VERSION 1.0", "results": results, "external_data": {"used": False}}
    return raw, processed, prediction


def _overlap(results):
    return any(
        a["timestamp"][0] < b["timestamp"][1] and b["timestamp"][0] < a["timestamp"][1]
        for preds in results.values()
        for i, a in enumerate(preds)
        for b in preds[i + 1 :]
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("shape", ["raw", "processed"])
@pytest.mark.parametrize("preset", [[], ["--preset", "vidchapters"]])
def test_evaluate_gives_dvc_eval_detection_and_navigation_per_video(tmp_path, capsys, seed, shape, preset):
    raw, processed, prediction = _generated(seed)
    assert _overlap(prediction["results"])
    reference = tmp_path / "ann.json"
    reference.write_text(json.dumps(raw if shape == "raw" else processed, indent=2))
    hypothesis = tmp_path / "pred.json"
    hypothesis.write_text(json.dumps(prediction, indent=1))
    out = tmp_path / "out.json"
    code = main(
        ["evaluate", "--reference", str(reference), "--hypothesis", f"dense={hypothesis}", "--json", str(out), *preset]
    )
    assert code == 0
    assert "dense: its segments overlap" in capsys.readouterr().err
    result = json.loads(out.read_text())["systems"]["dense"]
    per_video, corpus = dvc_eval_scores(processed, prediction["results"])
    assert sorted(result["shows"]) == sorted(per_video)
    for video, expected in per_video.items():
        for key, value in expected.items():
            assert result["shows"][video][key] == pytest.approx(value, abs=1e-12), (video, key)
    for key, value in corpus.items():
        assert result["corpus"][key] == pytest.approx(value, abs=1e-12), key
    for scope in ("corpus", "macro"):
        assert not {"cov_n", "boundary_f1", "recall_n", "detection_precision_1to1", "title_accuracy"} & set(
            result[scope]
        )
    assert result["sweeps"] == {"gamma": [], "tolerance": []}


def test_a_segmentation_scored_beside_overlapping_predictions_keeps_every_metric(tmp_path):
    raw, processed, prediction = _generated(5, n_videos=4)
    write(tmp_path, "ann.json", json.dumps(raw))
    write(tmp_path, "pred.json", json.dumps(prediction))
    reference = read_segments(tmp_path / "ann.json")
    with pytest.warns(TvsegWarning, match="dense: its segments overlap"):
        result = evaluate(
            reference, {"dense": read_segments(tmp_path / "pred.json"), "same": read_segments(tmp_path / "ann.json")}
        )
    assert list(result.systems) == ["dense", "same"]
    same = result.systems["same"].corpus
    assert same["cov_n"] == 1.0 and same["vc_detection_precision"] == 1.0
    dense = result.systems["dense"].corpus
    assert "cov_n" not in dense
    _, corpus = dvc_eval_scores(processed, prediction["results"])
    assert dense["vc_detection_recall"] == pytest.approx(corpus["vc_detection_recall"], abs=1e-12)


def test_overlapping_predictions_with_html_or_in_another_format_are_refused(tmp_path):
    raw, _, prediction = _generated(3, n_videos=3)
    write(tmp_path, "ann.json", json.dumps(raw))
    write(tmp_path, "pred.json", json.dumps(prediction))
    args = ["evaluate", "--reference", str(tmp_path / "ann.json"), "--hypothesis", f"s={tmp_path / 'pred.json'}"]
    assert main([*args, "--html", str(tmp_path / "report")]) == 2
    assert not (tmp_path / "report").exists()
    # the same predictions as a {show: [segments]} JSON: a segmentation, whose overlaps are refused
    plain = {
        video: [{"start": p["timestamp"][0], "end": p["timestamp"][1]} for p in preds]
        for video, preds in prediction["results"].items()
    }
    path = write(tmp_path, "plain.json", json.dumps(plain, indent=1))
    with pytest.raises(InputError, match="segments overlap"):
        read_segments(path)


# --- the readers -------------------------------------------------------------------------------------


ANNOTATIONS = """{
  "abc": {
    "duration": 100.5,
    "chapters": [
      {"label": "Intro", "time": 0},
      {"label": " Main part ", "time": 30},
      {"label": "", "time": 80.25}
    ]
  },
  "xyz": {"duration": 60, "chapters": [{"label": "All", "time": 0}]}
}
"""


def test_vidchapters_annotations_raw_and_processed(tmp_path):
    columns = read_segments(write(tmp_path, "a.json", ANNOTATIONS))
    assert segments(columns["abc"]) == [(0, 30, "Intro"), (30, 80.25, "Main part"), (80.25, 100.5, NO_LABEL)]
    assert segments(columns["xyz"]) == [(0, 60, "All")]
    assert columns.line[columns.rows("abc")].tolist() == [5, 6, 7]
    processed = {"abc": {"duration": 100.5, "timestamps": [[0, 30], [30, 80.25]], "sentences": ["a", "b"], "path": "x"}}
    again = read_segments(write(tmp_path, "p.json", json.dumps(processed)), format="vidchapters")
    assert segments(again["abc"]) == [(0, 30, "a"), (30, 80.25, "b")]


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        (
            '{"v": {"duration": 10, "chapters": [\n{"label": "a", "time": 0},\n{"label": "b", "time": "5"}]}}',
            "chapter time must be a number",
            3,
        ),
        (
            '{"v": {"duration": 10, "chapters": [\n{"label": "a", "time": 0},\n{"label": "b", "time": 0}]}}',
            "must increase",
            3,
        ),
        (
            '{"v": {"duration": 10, "chapters": [\n{"label": "a", "time": 0},\n{"label": "b", "time": 10}]}}',
            "at or after the video's duration",
            3,
        ),
        ('{"v": {"chapters": [{"label": "a", "time": 0}]}}', "no 'duration'", 1),
        ('{"v": {"duration": 10, "chapters": []}}', "no chapter", 1),
        # the line of the key's second place in its object: line 3 here
        ('{"v": {"duration": 10,\n "chapters": [{"label": "a", "time": 0}],\n "duration": 3}}', "given twice", 3),
        # "sentence" is in every item (lines 2, 3 and 4): given twice in one item only, the second time on line 4
        (
            '{"results": {"v": [\n{"timestamp": [0, 1], "sentence": "a"},\n{"timestamp": [1, 2], "sentence": "b",\n'
            ' "sentence": "c"}]}}',
            "given twice in one JSON object: 'sentence'",
            4,
        ),
        # a key with an escaped quote, and the same text as a value before it (not a key): line 3
        ('{"v": {"x": "k\\"q",\n"k\\"q": 1,\n"k\\"q": 2}}', "given twice", 3),
        ('{"v": {"duration": 10,\n "chapters": [{"label": "a" "time": 0}]}}', "not JSON", 2),
        ('{"v": {"duration": NaN, "chapters": [{"label": "a", "time": 0}]}}', "duration is not a number", 1),
        ('{"v": {"duration": 10, "timestamps": [[0, 5], [5]], "sentences": ["a", "b"]}}', "pair", 1),
        ('{"v": {"duration": 10, "timestamps": [[0, 5], [4, 10]]}}', "segments overlap", 1),
    ],
)
def test_vidchapters_refusals_name_file_line_and_value(tmp_path, text, message, line):
    path = write(tmp_path, "bad.json", text)
    with pytest.raises(InputError, match=message) as error:
        read_segments(path)
    assert error.value.line == line


def test_anet_predictions_keep_their_overlaps_and_lines(tmp_path):
    text = (
        '{"version": "VERSION 1.0",\n'
        ' "results": {\n'
        '  "v1": [{"timestamp": [0, 35.5], "sentence": "intro"},\n'
        '         {"timestamp": [10, 90], "sentence": "x", "score": 0.3},\n'
        '         {"timestamp": [10, 90], "sentence": "y"}],\n'
        '  "v2": []},\n'
        ' "external_data": {}}\n'
    )
    columns = read_segments(write(tmp_path, "pred.json", text))
    assert segments(columns["v1"]) == [(0, 35.5, "intro"), (10, 90, "x"), (10, 90, "y")]
    assert columns.line[columns.rows("v1")].tolist() == [3, 4, 5]
    assert len(columns["v2"]) == 0
    bad = write(tmp_path, "bad.json", '{"results": {"v1": [\n{"timestamp": [5, 2], "sentence": "x"}]}}')
    with pytest.raises(InputError, match="end before start") as error:
        read_segments(bad)
    assert error.value.line == 2
    with pytest.raises(InputError, match="has the shape of anet"):
        read_segments(tmp_path / "pred.json", format="vidchapters")


def test_plain_json_and_unknown_shapes(tmp_path):
    path = write(
        tmp_path,
        "s.json",
        '{"news": [\n{"start": 0, "end": 12.5, "title": "Headlines"},\n{"start": 12.5, "end": 60, "kind": "x"}]}',
    )
    with pytest.warns(TvsegWarning, match=r"s.json:3: field\(s\) not read .*'kind'"):
        columns = read_segments(path)
    assert segments(columns["news"]) == [(0, 12.5, "Headlines"), (12.5, 60, NO_LABEL)]
    with pytest.raises(InputError, match="no known shape"):
        read_segments(write(tmp_path, "u.json", '{"videos": {"a": [[1, 2]]}}'))
    # segeval's top level ({"items": ...}) is its dataset, refused by its reader at the item
    with pytest.raises(InputError, match="item 'a' must map coders to masses"):
        read_segments(write(tmp_path, "v.json", '{"items": {"a": [[1, 2]]}}'))
    with pytest.raises(InputError, match="holds segments, not transcript units"):
        from tvseg import read_units

        read_units(path)


def test_chunkseg_jsonl_takes_video_id_or_id_as_the_show(tmp_path):
    path = write(
        tmp_path,
        "c.jsonl",
        '{"video_id": "yt_abc", "reference": [5], "duration": 10}\n'
        '{"id": 42, "reference": [5], "duration": 10}\n'
        '{"show": "named", "video_id": "other", "reference": [5], "duration": 10}\n'
        '{"reference": [5], "duration": 10}\n',
    )
    assert sorted(read_segments(path)) == ["42", "c-4", "named", "yt_abc"]
    with pytest.raises(InputError, match="'video_id' must be a non-empty string"):
        read_segments(write(tmp_path, "d.jsonl", '{"video_id": "", "reference": [5], "duration": 10}\n'))


# --- YouTube descriptions ------------------------------------------------------------------------------


DESCRIPTION = """Thanks for watching! Links below.
Follow me at https://example.com/watch?t=1:23 and subscribe
(0:00) Intro
0:45 - The setup
Main course 2:05
1:02:03 Late part!!
Timestamp with three digits 100:00 is skipped
:-) 3:3 is no time
"""


def test_a_youtube_description_read_as_vidchapters_reads_it(tmp_path):
    # hand-read with VidChapters' rules: lines 1 and 8 hold no D:DD; line 2's only time is in a URL
    # (removed); line 7 has three digits before a colon (skipped); titles stripped of what is not
    # alphanumeric at both ends: "Late part!!" -> "Late part"
    path = write(tmp_path, "talk.txt", DESCRIPTION)
    columns = read_segments(path, format="youtube", end=4000)
    assert segments(columns["talk"]) == [
        (0, 45, "Intro"),
        (45, 125, "The setup"),
        (125, 3723, "Main course"),
        (3723, 4000, "Late part"),
    ]
    assert columns.line[columns.rows("talk")].tolist() == [3, 4, 5, 6]
    with pytest.raises(InputError, match="not a chapter line"):
        read_segments(path, format="txt", end=4000)  # the strict chapter list stays strict
    with pytest.raises(InputError, match="do not increase"):
        read_segments(write(tmp_path, "back.txt", "0:00 Alpha\n5:00 Beta\n4:00 Gamma\n"), format="youtube", end=600)
    with pytest.raises(InputError, match="fewer than two"):
        read_segments(write(tmp_path, "one.txt", "Hello\n0:00 Only\n"), format="youtube", end=600)


def test_youtube_descriptions_end_where_the_reference_ends(tmp_path):
    write(
        tmp_path,
        "ann.json",
        '{"talk": {"duration": 300, "chapters": [{"label": "Intro", "time": 0}, {"label": "B", "time": 45}]}}',
    )
    write(tmp_path, "talk.txt", "(0:00) Intro\n0:45 - B\n")
    out = tmp_path / "out.json"
    code = main(
        [
            "evaluate",
            "--reference",
            str(tmp_path / "ann.json"),
            "--hypothesis",
            f"desc={tmp_path / 'talk.txt'}",
            "--format",
            "youtube",
            "--json",
            str(out),
        ]
    )
    # --format applies to both sides: the annotations are not a description
    assert code == 2
    hyp = read_segments(tmp_path / "talk.txt", format="youtube", end=read_segments(tmp_path / "ann.json").ends())
    assert segments(hyp["talk"]) == [(0, 45, "Intro"), (45, 300, "B")]


# --- the anet writer ------------------------------------------------------------------------------------


def test_anet_writer_round_trip_and_convert(tmp_path):
    raw, _, prediction = _generated(7, n_videos=3)
    source = write(tmp_path, "pred.json", json.dumps(prediction))
    assert main(["convert", str(source), str(tmp_path / "back.json"), "--to", "anet"]) == 0
    written = json.loads((tmp_path / "back.json").read_text())
    assert set(written) == {"version", "results", "external_data"}
    assert written["results"] == {
        video: sorted(
            ({"timestamp": p["timestamp"], "sentence": p["sentence"]} for p in preds),
            key=lambda p: (p["timestamp"], p["sentence"]),
        )
        for video, preds in prediction["results"].items()
    }
    annotations = write(tmp_path, "ann.json", json.dumps(raw))
    write_segments(read_segments(annotations), tmp_path / "gt.json", format="anet")
    again = read_segments(tmp_path / "gt.json")
    assert {v: segments(a) for v, a in again.items()} == {v: segments(a) for v, a in read_segments(annotations).items()}
    with pytest.raises(UsageError, match="anet"):
        write_segments(read_segments(annotations), tmp_path / "gt2.json")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main(["validate", str(source)]) == 0


def test_keys_written_with_escapes_python_would_not_write(tmp_path):
    # "vidé" written with an upper-case escape: found neither as "vidé" nor as "vid\u00e9" (its errors
    # would name line 1, the enclosing object's); the video still reads, its chapters at their own lines
    text = '{"vid\\u00E9": {"duration": 10, "chapters": [\n{"label": "a", "time": 0},\n{"label": "b", "time": 4}]}}'
    columns = read_segments(write(tmp_path, "e.json", text))
    assert segments(columns["vidé"]) == [(0, 4, "a"), (4, 10, "b")]
    assert columns.line[columns.rows("vidé")].tolist() == [2, 3]


@pytest.mark.parametrize("jobs", [[], ["--jobs", "2"]])
def test_html_refuses_overlapping_predictions_whether_read_here_or_in_shards(tmp_path, capsys, jobs):
    # ActivityNet-style predictions that overlap cannot be drawn as a segmentation: exit 2 and the reason,
    # whether the shows are read here or by the processes that score them (--jobs 2), and no report
    from tvseg.cli import main

    (tmp_path / "ref.rttm").write_text(
        "SEGMENT s 1 0 30 <NA> <NA> a <NA> <NA>\nSEGMENT s 1 30 30 <NA> <NA> b <NA> <NA>\n", encoding="utf-8"
    )
    dense = {"results": {"s": [{"timestamp": [0, 40], "sentence": "a"}, {"timestamp": [20, 60], "sentence": "b"}]}}
    (tmp_path / "dense.json").write_text(json.dumps(dense), encoding="utf-8")
    args = ["evaluate", "--reference", str(tmp_path / "ref.rttm"), "--hypothesis", f"d={tmp_path / 'dense.json'}"]
    assert main([*args, "--html", str(tmp_path / "rep"), *jobs]) == 2
    err = capsys.readouterr().err
    assert "--html draws segmentations; the predictions of d overlap: drop --html" in err
    assert "internal error" not in err and not (tmp_path / "rep").exists()
    assert main(args) == 0  # without --html, the predictions are scored


# --- overlapping predictions in the one pipeline (issue 40) -------------------------------------------

# s1: three reference chapters; s2: none (a show where no chapter metric is defined)
ONE_PASS_REFERENCE = {"s1": [(0.0, 40.0), (40.0, 95.0), (95.0, 130.0)], "s2": []}
# overlapping predictions: [95, 140] ends 10 s after the reference (cropped to [95, 130]); [100, 110] is short
ONE_PASS_DENSE = {"s1": [(0.0, 50.0), (30.0, 90.0), (95.0, 140.0)], "s2": [(0.0, 70.0), (60.0, 100.0), (100.0, 110.0)]}
ONE_PASS_SEGMENTATION = {"s1": [(0.0, 42.0), (42.0, 130.0)], "s2": [(0.0, 100.0)]}


def test_overlapping_predictions_are_scored_in_the_pass_of_every_system():
    import warnings

    from tvseg.metrics import DISJOINT
    from tvseg.settings import Settings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate(
            ONE_PASS_REFERENCE,
            {"dense": ONE_PASS_DENSE, "seg": ONE_PASS_SEGMENTATION},
            settings=Settings(bootstrap=0),
        )
    messages = [str(w.message) for w in caught]
    dense, seg = result.systems["dense"], result.systems["seg"]
    assert DISJOINT not in dense.traits and DISJOINT in seg.traits
    assert "cov_n" in seg.corpus and "cov_n" not in dense.corpus
    # s1 by hand: tIoU of [0, 50] with [0, 40] 40/50 = 0.8, of [30, 90] with [40, 95] 50/65 = 0.77, of
    # [95, 130] (cropped) with [95, 130] 1: above 0.3, 0.5 and 0.7 every prediction and chapter counts, above
    # 0.9 one of three: precision = recall = (1 + 1 + 1 + 1/3) / 4 = 5/6
    assert dense.shows.loc["s1", "vc_detection_precision"] == pytest.approx(5 / 6, abs=1e-12)
    assert dense.shows.loc["s1", "vc_detection_recall"] == pytest.approx(5 / 6, abs=1e-12)
    # the crop, worded as for every system: 140 - 130 = 10 s removed from s1
    assert (
        "dense: hypothesis cropped to the reference's extent (no UEM for these shows): 10.000 s removed from "
        "1 show(s) (s1)" in messages
    )
    # s2 has no reference chapter: its chapter values are NaN, named by one warning
    assert all(v != v for v in dense.shows.loc["s2", ["vc_detection_precision", "nav_recall_60s"]])
    undefined = [m for m in messages if m.startswith("dense: no show with a reference segment")]
    assert len(undefined) == 1 and "vc_detection_precision" in undefined[0] and "(1 show: s2)" in undefined[0]
    assert sum(m.startswith("dense: its segments overlap") for m in messages) == 1
    # the length classes hold the counts (which need no disjoint segments): reference 40, 55, 35 s, all long;
    # predictions 50, 60, 35, 70, 40 s long and 10 s short (long: 30 s and up)
    assert dense.by_length == {
        "short": {"n_reference": 0.0, "n_hypothesis": 1.0},
        "long": {"n_reference": 3.0, "n_hypothesis": 5.0},
    }
    assert dense.gamma_sweep.empty and dense.tolerance_sweep.empty and dense.matches.empty


def test_overlapping_predictions_refuse_a_uem_with_gaps():
    from pyannote.core import Segment, Timeline

    uem = {"s1": Timeline([Segment(0, 50), Segment(60, 130)], uri="s1")}
    message = (
        "a UEM with several regions in a show ('s1') is not supported for overlapping predictions (dense): "
        "give one region per show"
    )
    with pytest.raises(UsageError, match=re.escape(message)):
        evaluate(ONE_PASS_REFERENCE, {"dense": ONE_PASS_DENSE}, uem=uem)


def test_pairwise_tests_and_their_warning_leave_overlapping_predictions_out():
    import warnings

    from tvseg.settings import Settings

    reference = {f"s{k}": [(0.0, 40.0), (40.0, 95.0), (95.0, 130.0)] for k in range(4)}
    shifted = {show: [(0.0, 50.0), (30.0, 90.0), (95.0, 130.0)] for show in reference}
    other = {show: [(0.0, 45.0), (2.0, 100.0), (90.0, 130.0)] for show in reference}
    # no metric compared between systems (CovN, CovD, boundary F, Pk, WindowDiff) holds for overlapping
    # predictions: two of them and a segmentation get no p-value, and the warning about 4 shows says none
    for hypotheses, pairs in (
        ({"p": shifted, "q": other, "a": {show: [(0.0, 42.0), (42.0, 130.0)] for show in reference}}, set()),
        ({"p": shifted, "a": {s: [(0.0, 42.0), (42.0, 130.0)] for s in reference}, "b": dict(reference)}, {("a", "b")}),
    ):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = evaluate(reference, hypotheses, settings=Settings(bootstrap=200))
        assert {(e["a"], e["b"]) for e in result.pairwise} == pairs
        few = [str(w.message) for w in caught if str(w.message).startswith("the bootstrap intervals rest on 4 shows")]
        assert len(few) == 1 and ("p-values" in few[0]) == bool(pairs), few


def test_validate_accepts_overlapping_predictions_as_evaluate_does(tmp_path, capsys):
    (tmp_path / "ref.rttm").write_text(
        "SEGMENT s 1 0 30 <NA> <NA> a <NA> <NA>\nSEGMENT s 1 30 30 <NA> <NA> b <NA> <NA>\n", encoding="utf-8"
    )
    dense = {"results": {"s": [{"timestamp": [0, 40], "sentence": "a"}, {"timestamp": [20, 60], "sentence": "b"}]}}
    (tmp_path / "dense.json").write_text(json.dumps(dense), encoding="utf-8")
    args = ["--reference", str(tmp_path / "ref.rttm"), "--hypothesis", f"d={tmp_path / 'dense.json'}"]
    assert main(["evaluate", *args, "--bootstrap", "0"]) == 0
    capsys.readouterr()
    assert main(["validate", *args]) == 0
    assert "ok: tvseg evaluate would score 1 system(s) on 1 show(s)" in capsys.readouterr().out
