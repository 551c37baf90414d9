"""YTSeg (Retkowski & Waibel 2024) read natively, and scored with ``--preset chunkseg`` as chunkseg 0.4.0 scores it.

Each configuration's files are written here in the shape the dataset card documents (``retkowski/ytseg``):
``text`` (``data/partitions/yt_seg.SPLIT.json``, JSON Lines: the transcripts, their binary targets and the
metadata with ``chapter_titles``, ``chapter_timestamps``, ``duration``), ``audio`` (the same fields and the
audio, as ``Dataset.to_json`` writes its rows) and ``titles`` (``yt_seg_titles.SPLIT.json``: one chapter a
record, ``input``, ``input_with_chapters``, ``target``, ``channel_id``, ``video_id``, ``chapter_idx``).
The expected numbers are chunkseg's own (``chunkseg.evaluate`` per video, ``evaluate_batch``'s means).
"""

import json
import math
import random
import warnings
from pathlib import Path

import pandas as pd
import pytest

from tvseg import read_segments
from tvseg.cli import main
from tvseg.errors import InputError
from tvseg.evaluation import DURATION_CLASSES
from tvseg.readers import NO_LABEL, detect_format
from tvseg.retrieval.reductions import show_duration_buckets

chunkseg = pytest.importorskip("chunkseg")

PAIRS = (
    ("pk", "pk"),
    ("windowdiff", "window_diff"),
    ("b", "boundary_similarity"),
    ("ghd", "ghd"),
    ("chunk_precision", "precision"),
    ("chunk_recall", "recall"),
)


def video(rng, k, duration):
    """A video record of the text configuration: its chapters' starts (the first at 0) on a 0.5 s grid."""
    halves = range(1, int(duration * 2))
    # at least a chapter per 3,000 s: segeval's WindowDiff fails on a mean reference segment of 511 chunks or
    # more (test_long_segments_where_chunkseg_fails below), and chunkseg with it
    count = min(max(rng.choice([1, 2, 3, 5, 8, 15]), math.ceil(duration / 3000)), len(halves) + 1)
    starts = [0.0] + [s / 2 for s in sorted(rng.sample(halves, count - 1))]
    sentences = [f"Sentence {i}." for i in range(count * 2)]
    return {
        "text_ref": sentences,
        "text_wt": sentences,
        "text_wl": sentences,
        "target_binary_ref": "".join("1" if i % 2 == 0 and i else "0" for i in range(len(sentences))),
        "target_binary_wt": "0" * len(sentences),
        "target_binary_wl": "0" * len(sentences),
        "target_text_ref": " ".join(sentences),
        "target_text_ts_ref": " ".join(sentences),
        "target_ts": "\n".join(f"{int(s) // 60}:{int(s) % 60:02d} Chapter {i}" for i, s in enumerate(starts)),
        "chapter_titles": [f"Chapter {i}" for i in range(count)],
        "chapter_timestamps": starts,
        "channel_id": f"UC{k % 3}",
        "video_id": f"vid{k:03d}",
        "speaker_category": "single",
        "dominant_speaker_proportion": 0.9,
        "num_speakers": 1,
        "duration": duration,
    }


def prediction(rng, record):
    """A system's chapters for a video, in the same shape: some starts moved, some dropped, some added."""
    duration = record["duration"]
    starts = {s + rng.choice([0, 0, 1.5, -2.0, 7.0]) for s in record["chapter_timestamps"][1:] if rng.random() < 0.8}
    starts |= {rng.randint(1, int(duration) - 1) / 1.0 for _ in range(rng.choice([0, 1, 3]))}
    starts = sorted(s for s in starts if 0 < s < duration)
    return {"video_id": record["video_id"], "duration": duration, "chapter_timestamps": [0.0, *starts]}


def corpus(rng, n=40):
    """Videos whose durations fall in every class of DURATION_CLASSES (some shorter than one chunk)."""
    durations = [rng.choice([3.0, 250.5, 599.5, 600.0, 900.0, 1500.0, 2400.0, 3600.0, 5000.5]) for _ in range(n)]
    references = [video(rng, k, d) for k, d in enumerate(durations)]
    return references, [prediction(rng, r) for r in references]


def lines(records):
    return "".join(json.dumps(r) + "\n" for r in records)


def theirs(reference, hypothesis):
    return chunkseg.evaluate(hypothesis["chapter_timestamps"], reference["chapter_timestamps"], reference["duration"])


def run(reference, hypothesis, out, *extra):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(
            ["evaluate", "--reference", str(reference), "--hypothesis", f"sys={hypothesis}", "--preset", "chunkseg"]
            + ["--bootstrap", "0", "--json", str(out), *extra]
        )
    assert code == 0
    return json.loads(out.read_text())["systems"]["sys"]


def check_against_chunkseg(system, references, hypotheses):
    shows = system["shows"]
    for r, h in zip(references, hypotheses):
        want = theirs(r, h)
        if not want:  # shorter than one chunk: chunkseg scores nothing, tvseg leaves its unit metrics out
            assert r["duration"] < 6 and all(shows[r["video_id"]][k] is None for k, _ in PAIRS)
            continue
        for key, their_key in PAIRS:
            assert shows[r["video_id"]][key] == pytest.approx(want[their_key], abs=1e-12), (r["video_id"], key)
    batch = chunkseg.evaluate_batch(
        [
            {"hypothesis": h["chapter_timestamps"], "reference": r["chapter_timestamps"], "duration": r["duration"]}
            for r, h in zip(references, hypotheses)
        ],
        num_bootstrap=1,
    )
    for key, their_key in PAIRS:
        assert system["macro"][key] == pytest.approx(batch[their_key]["mean"], abs=1e-12)
    # chunkseg's f1: the harmonic mean of its MEAN precision and MEAN recall (the leaderboard's F1), tvseg's corpus
    # chunk_f1; the corpus precision and recall are those means
    assert system["corpus"]["chunk_f1"] == pytest.approx(batch["f1"]["mean"], abs=1e-12)
    for key in ("precision", "recall"):
        assert system["corpus"][f"chunk_{key}"] == pytest.approx(batch[key]["mean"], abs=1e-12)
    # some video where a side flags no chunk (chunkseg's 0) and some where both flag chunks
    assert any(shows[r["video_id"]]["chunk_precision"] == 0 for r in references)
    assert any(0 < (shows[r["video_id"]]["chunk_recall"] or 0) < 1 for r in references)
    # the classes by duration: chunkseg's means over each class's videos
    # a video's class: how many of the edges 600, 1200, 1800, 3600 s its duration reaches
    classes = [sum(r["duration"] >= edge for edge in (600, 1200, 1800, 3600)) for r in references]
    assert set(system["by_duration"]) == set(DURATION_CLASSES)
    for index, name in enumerate(DURATION_CLASSES):
        members = [(r, h) for r, h, c in zip(references, hypotheses, classes) if c == index]
        assert system["by_duration"][name]["shows"] == len(members) > 0
        samples = [
            {"hypothesis": h["chapter_timestamps"], "reference": r["chapter_timestamps"], "duration": r["duration"]}
            for r, h in members
        ]
        their_class = chunkseg.evaluate_batch(samples, num_bootstrap=1)
        for key, their_key in PAIRS:
            assert system["by_duration"][name]["macro"][key] == pytest.approx(
                their_class[their_key]["mean"], abs=1e-12
            ), (name, key)
        assert system["by_duration"][name]["corpus"]["chunk_f1"] == pytest.approx(
            their_class["f1"]["mean"], abs=1e-12
        ), name


def test_text_configuration_scored_with_the_chunkseg_preset_equals_chunkseg(tmp_path):
    references, hypotheses = corpus(random.Random(44))
    (tmp_path / "yt_seg.test.json").write_text(lines(references), encoding="utf-8")
    # a system's chapters in the same shape, as one JSON array
    (tmp_path / "mine.json").write_text(json.dumps(hypotheses, indent=1), encoding="utf-8")
    system = run(tmp_path / "yt_seg.test.json", tmp_path / "mine.json", tmp_path / "out.json")
    check_against_chunkseg(system, references, hypotheses)


def test_audio_configuration_rows_equal_chunkseg(tmp_path):
    references, hypotheses = corpus(random.Random(7), n=25)
    rows = [
        {"audio": {"path": f"{r['video_id']}.mp3", "sampling_rate": 16000}, **r} for r in references
    ]  # the audio column as Dataset.to_json writes an undecoded Audio feature
    (tmp_path / "test.jsonl").write_text(lines(rows), encoding="utf-8")
    (tmp_path / "mine.jsonl").write_text(lines(hypotheses), encoding="utf-8")
    assert detect_format(tmp_path / "test.jsonl") == "ytseg"  # by its shape, not as chunkseg's JSONL
    system = run(tmp_path / "test.jsonl", tmp_path / "mine.jsonl", tmp_path / "out.json", "--format", "ytseg")
    check_against_chunkseg(system, references, hypotheses)


def test_audio_configuration_parquet_equals_chunkseg(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    references, hypotheses = corpus(random.Random(9), n=20)
    # the audio configuration's file: its features, the audio an Audio feature (bytes and path)
    audio = [{"bytes": b"ID3 not really audio", "path": f"{r['video_id']}.mp3"} for r in references]
    table = pa.Table.from_pylist([{"audio": a, **r} for a, r in zip(audio, references)])
    folder = tmp_path / "audio"
    folder.mkdir()
    pq.write_table(table, folder / "test-00000-of-00001.parquet")
    (tmp_path / "mine.jsonl").write_text(lines(hypotheses), encoding="utf-8")
    assert detect_format(folder / "test-00000-of-00001.parquet") == "ytseg"
    system = run(folder, tmp_path / "mine.jsonl", tmp_path / "out.json")
    check_against_chunkseg(system, references, hypotheses)
    # a row in error is named by its number, a file that is not Parquet refused
    rows = [{"video_id": "a", "duration": 60.0, "chapter_timestamps": [0.0]}]
    rows.append({"video_id": "b", "duration": 60.0, "chapter_timestamps": [0.0, 61.0]})
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "bad.parquet")
    with pytest.raises(InputError, match="at or after the duration") as caught:
        read_segments(tmp_path / "bad.parquet")
    assert caught.value.line == 2
    (tmp_path / "broken.parquet").write_bytes(b"PAR1 not parquet")
    with pytest.raises(InputError, match="not a readable Parquet file"):
        read_segments(tmp_path / "broken.parquet")


def test_titles_configuration_titles_the_chapters_of_its_partition(tmp_path):
    # the text file without chapter_titles, and the titles file of the same split beside it
    references = [video(random.Random(k), k, 900.0) for k in range(3)]
    for r in references:
        del r["chapter_titles"]
    titles = [
        {
            "input": "text",
            "input_with_chapters": "text",
            "target": f"  {r['video_id']} part {i} ",
            "channel_id": r["channel_id"],
            "video_id": r["video_id"],
            "chapter_idx": i,
        }
        for r in references
        for i in range(len(r["chapter_timestamps"]))
        if i != 1  # chapter 1 untitled
    ]
    folder = tmp_path / "partitions"
    folder.mkdir()
    (folder / "yt_seg.test.json").write_text(lines(references), encoding="utf-8")
    (folder / "yt_seg_titles.test.json").write_text(lines(titles[::-1]), encoding="utf-8")
    read = read_segments(folder)
    assert sorted(read) == [r["video_id"] for r in references]
    for r in references:
        labels = [label for _, _, label in read[r["video_id"]].itertracks(yield_label=True)]
        want = [f"{r['video_id']} part {i}" if i != 1 else NO_LABEL for i in range(len(r["chapter_timestamps"]))]
        assert labels == want
    # the text file alone beside it is titled the same; the titles file alone is refused: it has no times
    assert read_segments(folder / "yt_seg.test.json")[references[0]["video_id"]] == read[references[0]["video_id"]]
    with pytest.raises(InputError, match="no times"):
        read_segments(folder / "yt_seg_titles.test.json", format="ytseg")


def test_a_chapter_list_is_segments_from_each_start_to_the_next():
    # hand-read: starts 12 and 300 of a 3700 s video -> [0, 12) untitled, [12, 300), [300, 3700)
    path = Path(__file__).resolve().parent.parent / "formats" / "examples" / "ytseg-valid.json"
    read = read_segments(path)
    assert [(s.start, s.end, label) for s, _, label in read["vid_talk"].itertracks(yield_label=True)] == [
        (0.0, 12.0, NO_LABEL),
        (12.0, 300.0, "Cold open"),
        (300.0, 3700.0, "Interview"),
    ]
    assert [(s.start, s.end) for s, _ in read["vid_tides"].itertracks()] == [(0, 95.5), (95.5, 410), (410, 725.25)]


@pytest.mark.parametrize(
    "record, message, line",
    [
        ({"video_id": "a", "duration": 60, "chapter_timestamps": [0, 30, 20]}, "must increase", 2),
        ({"video_id": "a", "duration": 60, "chapter_timestamps": [0, 60]}, "at or after the duration", 2),
        (
            {"video_id": "a", "duration": 60, "chapter_timestamps": [0, 30], "chapter_titles": ["x"]},
            "1 chapter titles",
            2,
        ),
        ({"video_id": "a", "chapter_timestamps": [0, 30]}, "no 'duration'", 2),
        ({"video_id": "a", "text_ref": ["s."], "target_binary_ref": "0"}, "'target_binary_ref' marks sentences", 2),
        ({"video_id": "", "duration": 60, "chapter_timestamps": [0]}, "video_id", 2),
        ({"video_id": "v0", "duration": 60, "chapter_timestamps": [0]}, "already read from line 1", 2),
        ({"video_id": "a", "duration": 60, "chapter_timestamps": ["5"]}, "chapter timestamp", 2),
    ],
)
def test_refused_naming_the_line(tmp_path, record, message, line):
    path = tmp_path / "yt_seg.val.json"
    path.write_text(lines([{"video_id": "v0", "duration": 10.0, "chapter_timestamps": [0.0]}, record]))
    with pytest.raises(InputError, match=message) as caught:
        read_segments(path, format="ytseg")
    assert caught.value.line == line and caught.value.path == str(path)


def test_long_segments_where_chunkseg_fails():
    # segeval 2.0.11's window_diff asserts `len(window) is window_size + 1`: an identity test of ints, false
    # past CPython's cached small ints (256), so from a window of 256 chunks (a mean reference segment of 511
    # chunks, 51 min at 6 s) it raises; chunkseg then gives 1.0 when the two segmentations are equal, and
    # fails otherwise. tvseg counts the windows: 0 errors for equal segmentations (presets.py's differences).
    assert chunkseg.evaluate([0.0], [0.0], 3600.0)["window_diff"] == 1.0
    with pytest.raises(AssertionError):
        chunkseg.evaluate([0.0, 1800.0], [0.0], 3600.0)
    from tvseg import windowdiff

    assert windowdiff((600,), (600,), convention="chunkseg") == 0.0


def test_duration_classes_by_hand():
    # under 10 min is [0, 600), 10-20 min [600, 1200), ..., 60 min and over [3600, inf), decided exactly
    seconds = [0.5, 599.999999, 600.0, 1199.0, 1200.0, 1800.0, 3599.5, 3600.0, 36000.0]
    buckets = show_duration_buckets(pd.DataFrame({"duration_reference": seconds}))
    assert [DURATION_CLASSES[i] for i in buckets] == [
        "under 10 min",
        "under 10 min",
        "10-20 min",
        "10-20 min",
        "20-30 min",
        "30-60 min",
        "30-60 min",
        "60 min and over",
        "60 min and over",
    ]
