"""Chapter-Llama's numbers (F1 over tIoU 0.50:0.05:0.95, average tIoU, chapter-count error) and VidChapters'
chapter grounding R@1, against re-implementations written here from the two repositories' code.

Chapter-Llama: https://github.com/lucas-ventura/chapter-llama at commit d19a77efcf583f63771de052267fdeea016510e9,
``tools/results/metrics_overlap.py`` (class ``OverlapMetrics``; ``iou``, ``get_vid_overlaps``,
``vid_overlap_optimal_assignment``, ``vid_overlap_threshold_assignment``, ``evaluate_chapter_count``,
``PRFMetric``), fed as ``tools/results/metrics.py`` (``MetricsExperiment.compute_metrics_overlap``) feeds it: the
segments of ``src/data/chapters.py`` (``Chapters.get_chapters(segments=True)`` and ``get_pred_segments``: each
chapter from its start to the next start, the last to the duration). The transcription below keeps the code's
operations; its one change is ``PRFMetric``'s float32 torch accumulators, here plain floats (tvseg sums in float64).

VidChapters: https://github.com/antoyang/VidChapters at commit fa3900c6508d53ea9d490a07f079703b163c78ea,
``moment_detr/standalone_eval/eval.py`` (``compute_mr_r1``) with ``compute_temporal_iou_batch_paired`` of
``moment_detr/standalone_eval/utils.py``.
"""

from __future__ import annotations

import json
import random
import warnings

import numpy as np
import pytest

from tvseg import metrics
from tvseg.cli import main

N_VIDEOS = 60


# ---------------------------------------------------------------------------------------------------------
# Chapter-Llama's tools/results/metrics_overlap.py, transcribed (no tvseg)


def cl_iou(interval_1, interval_2):
    eps = 1e-8  # to avoid zero division
    (s_1, e_1) = interval_1
    (s_2, e_2) = interval_2
    intersection = max(0.0, min(e_1, e_2) - max(s_1, s_2))
    union = min(max(e_1, e_2) - min(s_1, s_2), e_1 - s_1 + e_2 - s_2)
    return intersection / (union + eps)


def cl_get_vid_overlaps(refs, preds):
    vid_overlaps = {}
    for ref_i, ref in enumerate(refs):
        for pred_j, pred in enumerate(preds):
            iou_ij = cl_iou(ref, pred)
            if iou_ij > 0:
                vid_overlaps[(ref_i, pred_j)] = iou_ij
    return vid_overlaps


def cl_vid_overlap_optimal_assignment(vid_overlaps):
    ref_set_covered = set()
    pred_set_covered = set()
    sorted_vid_overlaps = sorted(vid_overlaps.items(), key=lambda x: x[1], reverse=True)
    connections = {}
    for (ref_i, pred_j), tiou_ij in sorted_vid_overlaps:
        if ref_i not in ref_set_covered and pred_j not in pred_set_covered:
            ref_set_covered.add(ref_i)
            pred_set_covered.add(pred_j)
            connections[(ref_i, pred_j)] = tiou_ij
    return connections


def cl_vid_overlap_threshold_assignment(vid_overlaps, threshold):
    return {k: overlap for k, overlap in vid_overlaps.items() if overlap >= threshold}


def cl_compute_vid_avg_optimal(vid_refs, vid_preds):
    vid_overlaps = cl_get_vid_overlaps(vid_refs, vid_preds)
    vid_overlaps = cl_vid_overlap_optimal_assignment(vid_overlaps)
    return np.mean(list(vid_overlaps.values()))


class CLPRFMetric:
    def __init__(self):
        self.t_precision = self.t_recall = self.t_f1 = self.n = 0.0

    def update(self, vid_p, vid_r):
        self.t_precision += vid_p
        self.t_recall += vid_r
        self.t_f1 += 2 * (vid_p * vid_r) / (vid_p + vid_r) if vid_p + vid_r else 0.0
        self.n += 1

    def compute(self):
        return {
            "precision": self.t_precision * 100 / self.n,
            "recall": self.t_recall * 100 / self.n,
            "f1": self.t_f1 * 100 / self.n,
        }


class CLOverlapMetrics:
    def __init__(self, vid2preds, vid2refs):
        for vid_id, vid_preds in vid2preds.items():
            if isinstance(vid_preds, dict):
                vid2preds[vid_id] = list(vid_preds.keys())
            if vid2preds[vid_id][0][0] != 0:
                vid2preds[vid_id] = [(0, vid2preds[vid_id][0][0])] + vid2preds[vid_id]
        for vid_id, vid_refs in vid2refs.items():
            if isinstance(vid_refs, dict):
                vid2refs[vid_id] = list(vid_refs.keys())
            if vid2refs[vid_id][0][0] != 0:
                vid2refs[vid_id] = [(0, vid2refs[vid_id][0][0])] + vid2refs[vid_id]
        self.vid2preds = vid2preds
        self.vid2refs = vid2refs
        self.vid_ids = list(vid2preds.keys())

    def compute_avg_optimal(self):
        vids_avg = [cl_compute_vid_avg_optimal(self.vid2refs[v], self.vid2preds[v]) for v in self.vid_ids]
        return np.mean(vids_avg) * 100

    def compute_avg_thresholds(self):
        step = 0.05
        tious_thr = np.arange(0.5, 0.95 + step, step)
        thr2prf = {t: CLPRFMetric() for t in tious_thr}
        for vid_id in self.vid_ids:
            vid_refs = self.vid2refs[vid_id]
            vid_preds = self.vid2preds[vid_id]
            vid_overlaps = cl_get_vid_overlaps(vid_refs, vid_preds)
            for t in tious_thr:
                vid_overlaps_t = cl_vid_overlap_threshold_assignment(vid_overlaps, t)
                ref_set_covered = {ref_i for ref_i, _ in vid_overlaps_t}
                pred_set_covered = {pred_j for _, pred_j in vid_overlaps_t}
                vid_p = float(len(pred_set_covered)) / max(len(vid_preds), 1)
                vid_r = float(len(ref_set_covered)) / len(vid_refs)
                thr2prf[t].update(vid_p, vid_r)
        return {
            metric: np.mean([thr2prf[t].compute()[metric] for t in tious_thr])
            for metric in ["precision", "recall", "f1"]
        }

    def evaluate_chapter_count(self):
        return cl_evaluate_chapter_count(self.vid2refs, self.vid2preds)


def cl_evaluate_chapter_count(references, predictions):
    errors = []
    for vid_id in references:
        assert vid_id in predictions, f"Missing video {vid_id} in predictions"
        errors.append(len(references[vid_id]) - len(predictions[vid_id]))
    errors = np.array(errors)
    errors_p = errors[errors > 0]
    errors_n = errors[errors < 0]
    errors_e = errors[errors == 0]
    ueo = [
        round(len(errors_p) * 100 / len(errors), 2),
        round(len(errors_e) * 100 / len(errors), 2),
        round(len(errors_n) * 100 / len(errors), 2),
    ]
    mae = float(sum(abs(errors)) / len(errors))
    return mae, ueo


def cl_segments(starts, duration):
    """Chapters.get_chapters(segments=True) / get_pred_segments: {(start, end): label}, each chapter to the next
    start, the last to the duration."""
    ends = starts[1:] + [duration]
    return {(s, e): f"chapter {k}" for k, (s, e) in enumerate(zip(starts, ends))}


def chapter_llama(videos, only=None):
    """compute_metrics_overlap(metrics=("F1", "Avg. TIoU")) and evaluate_chapter_count, unrounded."""
    ids = [v for v in videos if only is None or v in only]
    preds = {v: cl_segments(videos[v]["pred"], videos[v]["duration"]) for v in ids}
    refs = {v: cl_segments(videos[v]["ref"], videos[v]["duration"]) for v in ids}
    om = CLOverlapMetrics(preds, refs)
    mae, ueo = om.evaluate_chapter_count()
    return {"F1": om.compute_avg_thresholds()["f1"], "Avg. TIoU": om.compute_avg_optimal(), "MAE": mae, "UEO": ueo}


# ---------------------------------------------------------------------------------------------------------
# generated videos, and tvseg on them through its command line


def random_videos(rng: random.Random, n: int) -> dict:
    videos = {}
    for i in range(n):
        duration = rng.randint(40, 1200)
        if rng.random() < 0.5:
            duration += rng.randint(1, 99) / 100  # VidChapters' durations are not whole seconds
        k = rng.randint(1, 10)
        ref = sorted({0, *rng.sample(range(1, int(duration)), min(k - 1, int(duration) - 1))})
        if len(ref) > 1 and rng.random() < 0.15:
            ref = ref[1:]  # no chapter at 0: Chapter-Llama adds one (tvseg: the UEM's start)
        mode = rng.random()
        if mode < 0.2:
            pred = list(ref)  # tIoU 1 everywhere, ties in the greedy order
        elif mode < 0.55:  # the reference's starts moved by a few seconds, some dropped or added
            moved = {min(max(s + rng.randint(-6, 6), 0), int(duration) - 1) for s in ref if rng.random() < 0.85}
            moved |= {rng.randrange(int(duration)) for _ in range(rng.randint(0, 3))}
            pred = sorted(moved or {0})
        else:
            pred = sorted(rng.sample(range(int(duration)), rng.randint(1, min(14, int(duration)))))
        if rng.random() < 0.5 and pred[0] != 0:
            pred = [0, *pred]
        videos[f"vid{i:03d}"] = {"duration": duration, "ref": ref, "pred": pred}
    return videos


def chapters_json(videos, side):
    return {
        v: {"duration": d["duration"], "chapters": [{"label": f"{side} {k}", "time": t} for k, t in enumerate(d[side])]}
        for v, d in videos.items()
    }


def evaluate_files(tmp_path, reference: dict, hypothesis: dict, *options, uem=None, capture=False):
    (tmp_path / "ref.json").write_text(json.dumps(reference), encoding="utf-8")
    (tmp_path / "hyp.json").write_text(json.dumps(hypothesis), encoding="utf-8")
    args = ["evaluate", "--reference", str(tmp_path / "ref.json"), "--hypothesis", f"m={tmp_path / 'hyp.json'}"]
    if uem is not None:
        (tmp_path / "all.uem").write_text("".join(f"{v} 1 0 {d}\n" for v, d in uem.items()), encoding="utf-8")
        args += ["--uem", str(tmp_path / "all.uem")]
    out = tmp_path / "out.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main([*args, "--no-html", "--bootstrap", "0", "--json", str(out), *options]) == 0
    return json.loads(out.read_text())["systems"]["m"]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    videos = random_videos(random.Random(28), N_VIDEOS)
    tmp = tmp_path_factory.mktemp("chapter_llama")
    system = evaluate_files(
        tmp,
        chapters_json(videos, "ref"),
        chapters_json(videos, "pred"),
        uem={v: d["duration"] for v, d in videos.items()},  # each video's 0 and duration
    )
    return videos, system


def test_the_generated_videos_exercise_each_case(generated):
    videos, _ = generated
    assert len(videos) >= 50
    assert any(d["ref"][0] != 0 for d in videos.values()) and any(d["pred"][0] != 0 for d in videos.values())
    errors = [len(d["ref"]) + (d["ref"][0] != 0) - len(d["pred"]) - (d["pred"][0] != 0) for d in videos.values()]
    assert min(errors) < 0 < max(errors) and 0 in errors


def test_f1_and_average_tiou_equal_chapter_llamas_code_per_video(generated):
    videos, system = generated
    for v in videos:
        theirs = chapter_llama(videos, only={v})
        row = system["shows"][v]
        assert row["cl_f1"] * 100 == pytest.approx(theirs["F1"], rel=1e-12, abs=1e-12), v
        assert row["cl_avg_tiou"] * 100 == pytest.approx(theirs["Avg. TIoU"], rel=1e-12, abs=1e-12), v
        assert row["chapter_count_mae"] == theirs["MAE"], v
        assert [round(row[f"chapter_count_{c}"] * 100, 2) for c in ("under", "equal", "over")] == theirs["UEO"], v


def test_corpus_values_equal_chapter_llamas_averages_over_videos(generated):
    videos, system = generated
    theirs = chapter_llama(videos)
    corpus = system["corpus"]
    assert corpus["cl_f1"] * 100 == pytest.approx(theirs["F1"], rel=1e-12)
    assert corpus["cl_avg_tiou"] * 100 == pytest.approx(theirs["Avg. TIoU"], rel=1e-12)
    assert corpus["chapter_count_mae"] == pytest.approx(theirs["MAE"], rel=1e-12)
    assert [round(corpus[f"chapter_count_{c}"] * 100, 2) for c in ("under", "equal", "over")] == theirs["UEO"]
    # Chapter-Llama's numbers are means over videos: tvseg's macro values are the same numbers
    for key in ("cl_f1", "cl_avg_tiou", "chapter_count_mae"):
        assert system["macro"][key] == pytest.approx(corpus[key], rel=1e-12)


def test_a_hand_computed_video(tmp_path):
    # 100 s; reference chapters [0, 50), [50, 100); predicted [0, 40), [40, 100).
    # tIoU (ref, pred): (0, 0) 40/50 = 0.8, (0, 1) 10/100, (1, 1) 50/60 = 0.833; each minus ~1e-10 (the + 1e-8).
    # F1 at t: both 0.8 and 0.833 pairs for t = 0.5 ... 0.75 (6 thresholds): P = R = 1, F = 1; at
    # 0.8000000000000003 only (1, 1): P = R = 1/2, F = 1/2; at 0.85 ... 0.95 none: 0. Mean: (6 + 0.5) / 10 = 0.65.
    # Average tIoU: greedy takes (1, 1) then (0, 0): (5/6 + 4/5) / 2 = 49/60. Counts 2 and 2: equal, error 0.
    reference = {"v": {"duration": 100, "chapters": [{"label": "a", "time": 0}, {"label": "b", "time": 50}]}}
    predicted = {"v": {"duration": 100, "chapters": [{"label": "a", "time": 0}, {"label": "b", "time": 40}]}}
    row = evaluate_files(tmp_path, reference, predicted)["shows"]["v"]
    assert row["cl_f1"] == pytest.approx(0.65, abs=1e-9)
    assert row["cl_avg_tiou"] == pytest.approx(49 / 60, abs=1e-9)
    assert (row["chapter_count_mae"], row["chapter_count_equal"]) == (0, 1)
    # predicted chapters from 10 s: Chapter-Llama adds [0, 10), so 3 chapters against 2: over by one (tvseg's
    # chapter_count_error counts the 2 segments as they are: 0)
    predicted = {"v": {"duration": 100, "chapters": [{"label": "a", "time": 10}, {"label": "b", "time": 50}]}}
    row = evaluate_files(tmp_path, reference, predicted)["shows"]["v"]
    assert (row["chapter_count_mae"], row["chapter_count_over"], row["chapter_count_error"]) == (1, 1, 0)
    # tIoU: ref 0 with [0, 10) 10/50 and with [10, 50) 40/50 (= 0.8 - 1e-10), ref 1 with [50, 100) 1.
    # F1 (P = covered / 3, R = covered / 2): t <= 0.75: 2 of 3 and 2 of 2, F = 2 (2/3) / (5/3) = 0.8 (6 times);
    # t >= 0.8000000000000003: 1 of 3 and 1 of 2, F = 2 (1/6) / (5/6) = 0.4 (4 times). Mean (4.8 + 1.6) / 10 = 0.64.
    # Average tIoU: greedy takes 1, 0.8 (then [0, 10) has no free reference): (1 + 0.8) / 2 = 0.9.
    assert row["cl_f1"] == pytest.approx(0.64, abs=1e-9)
    assert row["cl_avg_tiou"] == pytest.approx(0.9, abs=1e-9)


def test_preset_chapter_llama_shows_its_columns(tmp_path, capsys):
    reference = {"v": {"duration": 100, "chapters": [{"label": "a", "time": 0}, {"label": "b", "time": 50}]}}
    predicted = {"v": {"duration": 100, "chapters": [{"label": "a", "time": 0}, {"label": "b", "time": 40}]}}
    evaluate_files(tmp_path, reference, predicted, "--preset", "chapter-llama")
    out = capsys.readouterr().out.splitlines()
    assert "preset chapter-llama (Chapter-Llama tools/results (commit d19a77ef))" in out[0]
    assert " ".join(out[1].split()[-11:]) == "CL F1 CL avg. tIoU count under count equal count over"
    # 0.65, 49/60, and the one video's count equal to the reference's (the hand-computed video above)
    assert out[2].split()[-5:] == ["65.0", "81.7", "0.0", "100.0", "0.0"]


# ---------------------------------------------------------------------------------------------------------
# grounding: VidChapters' compute_mr_r1, as a plain loop (no tvseg)

IOU_THRESHOLDS = [float(f"{e:.2f}") for e in np.linspace(0.3, 0.95, 14)]  # compute_mr_r1's iou_thds
DISTANCES = [1, 3, 5, 10]


def r1_hits(pred, gt):
    """compute_temporal_iou_batch_paired and compute_mr_r1's two tests, for one query."""
    intersection = max(0, min(pred[1], gt[1]) - max(pred[0], gt[0]))
    union = max(pred[1], gt[1]) - min(pred[0], gt[0])  # "not the correct union though"
    iou = intersection / union if union != 0 else 0.0
    hits = {f"iou_{round(t * 100)}": iou >= t for t in IOU_THRESHOLDS if round(t * 100) in (30, 50, 70, 90)}
    hits.update({f"{d}s": abs(pred[0] - gt[0]) <= d for d in DISTANCES})
    return hits


def random_grounding(rng: random.Random, n: int):
    reference, predictions, queries = {}, {}, {}
    for i in range(n):
        duration = rng.randint(60, 900)
        starts = sorted({0, *rng.sample(range(1, duration), rng.randint(0, 8))})
        ends = starts[1:] + [duration]
        titles = [rng.choice(["intro", "recap", "part one", "part two", "outro", "q&a"]) for _ in starts]
        video = f"vid{i:03d}"
        reference[video] = {"duration": duration, "chapters": [{"label": t, "time": s} for t, s in zip(titles, starts)]}
        answers = []
        for t, s, e in zip(titles, starts, ends):
            mode = rng.random()
            if mode < 0.3:  # a start exactly 1, 3, 5 or 10 s off (inclusive in compute_mr_r1)
                ps = min(max(s + rng.choice([-10, -5, -3, -1, 1, 3, 5, 10]), 0), duration - 1)
                pe = min(max(e + rng.randint(-3, 3), ps + 1), duration)
            elif mode < 0.5:
                ps, pe = s, e
            else:
                ps = rng.randrange(duration)
                pe = rng.randint(ps + 1, duration)
            if rng.random() < 0.2:  # half seconds: exact in floats
                ps, pe = ps + 0.5 if ps + 0.5 < pe else ps, pe
            answers.append((t, ps, pe))
            queries.setdefault(video, []).append(((s, e), (ps, pe)))
        rng.shuffle(answers)  # a submission's order is free: the k-th "intro" answers the k-th "intro"
        predictions[video] = [{"timestamp": [ps, pe], "sentence": t} for t, ps, pe in answers]
    return reference, {"results": predictions}, queries


def test_grounding_r1_equals_vidchapters_definition(tmp_path):
    reference, predictions, queries = random_grounding(random.Random(2028), N_VIDEOS)
    # the k-th query of a title in time order is answered by the k-th prediction of that title by (start, end)
    for video, pairs in queries.items():
        titles = [c["label"] for c in reference[video]["chapters"]]
        answers = sorted(
            ((p["timestamp"][0], p["timestamp"][1], p["sentence"]) for p in predictions["results"][video]),
        )
        by_title = {t: [(s, e) for s, e, u in answers if u == t] for t in set(titles)}
        taken = {t: 0 for t in by_title}
        for k, title in enumerate(titles):
            pairs[k] = (pairs[k][0], by_title[title][taken[title]])
            taken[title] += 1
    system = evaluate_files(tmp_path, reference, predictions)
    keys = {
        **{f"iou_{t}": f"grounding_r1_iou_{t}" for t in (30, 50, 70, 90)},
        **{f"{d}s": f"grounding_r1_{d}s" for d in DISTANCES},
    }
    totals = {k: 0 for k in keys}
    n = 0
    for video, pairs in queries.items():
        hits = [r1_hits(pred, gt) for gt, pred in pairs]
        for k, key in keys.items():
            count = sum(h[k] for h in hits)
            assert system["shows"][video][key] == pytest.approx(count / len(hits), abs=1e-15), (video, key)
            totals[k] += count
        n += len(pairs)
    for k, key in keys.items():
        assert system["corpus"][key] == pytest.approx(totals[k] / n, abs=1e-15), key  # pooled over the queries
    assert 0 < totals["1s"] < totals["10s"] < n and 0 < totals["iou_90"] < totals["iou_30"] <= n


def test_grounding_keys_only_for_one_segment_per_title(tmp_path):
    reference = {"v": {"duration": 100, "chapters": [{"label": "a", "time": 0}, {"label": "b", "time": 50}]}}
    grounded = {"results": {"v": [{"timestamp": [0, 60], "sentence": "a"}, {"timestamp": [45, 100], "sentence": "b"}]}}
    system = evaluate_files(tmp_path, reference, grounded)
    assert set(metrics.keys("grounding")) <= set(system["corpus"])
    # [0, 60] vs [0, 50): 50/60 = 0.83; [45, 100] vs [50, 100): 50/55 = 0.91; starts 0 and 5 s off
    assert [system["corpus"][f"grounding_r1_iou_{t}"] for t in (30, 50, 70, 90)] == [1, 1, 1, 0.5]
    assert [system["corpus"][f"grounding_r1_{d}s"] for d in (1, 3, 5, 10)] == [0.5, 0.5, 1, 1]
    # disjoint answers (scored with every other metric too): [0, 45] vs [0, 50): 0.9; [53, 100] vs [50, 100): 0.94,
    # its start 3 s off
    disjoint = {"results": {"v": [{"timestamp": [0, 45], "sentence": "a"}, {"timestamp": [53, 100], "sentence": "b"}]}}
    system = evaluate_files(tmp_path, reference, disjoint)
    assert "cov_n" in system["corpus"]
    assert [system["corpus"][f"grounding_r1_iou_{t}"] for t in (30, 50, 70, 90)] == [1, 1, 1, 1]
    assert [system["corpus"][f"grounding_r1_{d}s"] for d in (1, 3, 5, 10)] == [0.5, 1, 1, 1]
    # other titles, or one title missing: a chaptering, not a grounding submission
    for entries in (
        [{"timestamp": [0, 60], "sentence": "a"}, {"timestamp": [45, 100], "sentence": "c"}],
        [{"timestamp": [0, 60], "sentence": "a"}],
    ):
        system = evaluate_files(tmp_path, reference, {"results": {"v": entries}})
        assert not set(metrics.keys("grounding")) & set(system["corpus"])


def _greedy_scan(pair_ref, pair_hyp, iou) -> set:
    """vid_overlap_optimal_assignment's loop: the pairs by decreasing tIoU (ties by reference, then
    prediction), each taken when neither side is taken yet."""
    taken_ref, taken_hyp, chosen = set(), set(), set()
    for k in sorted(range(len(iou)), key=lambda k: (-iou[k], pair_ref[k], pair_hyp[k])):
        if pair_ref[k] not in taken_ref and pair_hyp[k] not in taken_hyp:
            taken_ref.add(pair_ref[k])
            taken_hyp.add(pair_hyp[k])
            chosen.add(k)
    return chosen


@pytest.mark.parametrize("rounds", [0, 1, 2, 16])
def test_the_greedy_pairs_in_rounds_are_those_of_the_scan(rounds, monkeypatch):
    from tvseg.retrieval import chapter_llama as cl

    monkeypatch.setattr(cl, "_ROUNDS", rounds)  # 0: the scan alone; 1, 2: rounds, then the scan
    rng = np.random.default_rng(40)
    for trial in range(400):
        n = int(rng.integers(0, 40))
        pair_ref = rng.integers(0, int(rng.integers(1, 12)), n)
        pair_hyp = rng.integers(0, int(rng.integers(1, 12)), n)
        # ties in half the trials (a few tIoU values), distinct values in the others
        iou = rng.choice([0.25, 0.5, 1.0], n) if trial % 2 else rng.random(n)
        show = pair_ref % 3
        chosen = sorted(_greedy_scan(pair_ref.tolist(), pair_hyp.tolist(), iou.tolist()))
        total, count = cl._greedy_mean(show, pair_ref, pair_hyp, iou, 3)
        assert count.tolist() == np.bincount(show[chosen], minlength=3).tolist()
        assert total.tolist() == pytest.approx(np.bincount(show[chosen], weights=iou[chosen], minlength=3).tolist())


def test_the_segments_covered_at_each_threshold_are_those_of_the_threshold_loop():
    """``vid_overlap_threshold_assignment`` at each threshold ``t`` (a segment counts when one of its pairs
    has ``iou >= t``), counted per show by its own loop, against each segment's best tIoU placed once among
    the thresholds; tIoUs equal to a threshold (``>=``, not ``>``) in every trial."""
    from tvseg.retrieval import chapter_llama as cl

    rng = np.random.default_rng(41)
    thresholds = list(cl.CL_TIOU_THRESHOLDS)
    near = thresholds + [np.nextafter(t, 0) for t in thresholds] + [0.01, 1.0]
    for _ in range(300):
        n, n_shows, n_pairs = int(rng.integers(0, 12)), int(rng.integers(1, 4)), int(rng.integers(0, 30))
        show = np.sort(rng.integers(0, n_shows, n))
        pair_side = rng.integers(0, n, n_pairs) if n else np.zeros(0, dtype=np.int64)
        iou = rng.choice(near, len(pair_side)) if rng.random() < 0.7 else rng.random(len(pair_side))
        expected = np.zeros((n_shows, len(thresholds)), dtype=np.int64)
        for k, t in enumerate(thresholds):
            for segment in range(n):
                if any(iou[j] >= t for j in range(len(pair_side)) if pair_side[j] == segment):
                    expected[show[segment], k] += 1
        assert cl._covered(show, pair_side, iou, n, n_shows).tolist() == expected.tolist()
