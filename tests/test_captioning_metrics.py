"""VidChapters' captioning metrics of chapter titles (tvseg.retrieval.captioning) against dvc_eval's code.

The expected values come from a transcription of VidChapters' ``dvc_eval`` (https://github.com/antoyang/VidChapters,
commit fa3900c6508d53ea9d490a07f079703b163c78ea, the commit tvseg's docs and --help name) written below in plain
Python: ``eval_dvc.py`` (``ANETcaptions.iou``, ``evaluate_tiou``, the averaging of ``evaluate`` and ``eval_dvc``)
and ``SODA/soda.py``, ``SODA/dataset.py``, ``SODA/utils.py``, ``eval_soda.py`` (SODA_c with METEOR), calling
pycocoevalcap's own ``PTBTokenizer``, ``Meteor``, ``Cider``, ``Bleu`` and ``Rouge`` exactly as that code calls them,
on the annotation and prediction files tvseg reads. Most tests need pycocoevalcap (``tvseg[captioning]``) and
Java (the PTB tokenizer and METEOR are Java programs: dvc_eval's numbers are computed with them); without Java they
are skipped with a message naming it. Without Java tvseg computes the scorecard with its Python PTB tokenizer
(tvseg.retrieval.ptb, tests/test_ptb_tokenizer.py) and its Python METEOR (tvseg.retrieval.meteor,
tests/test_meteor.py): the last test compares them with dvc_eval's.
"""

import json
import os
import random
import shutil
import string
import warnings
from pathlib import Path

import numpy as np
import pytest

from tvseg import metrics
from tvseg.cli import main
from tvseg.errors import TvsegWarning, UsageError
from tvseg.retrieval import captioning

needs_java = pytest.mark.skipif(
    shutil.which("java") is None,
    reason="needs Java (`java` on the PATH): pycocoevalcap's PTB tokenizer and METEOR jar (apt-get install "
    "default-jre-headless)",
)
TIOUS = [0.3, 0.5, 0.7, 0.9]  # eval_dvc(tious=[0.3, 0.5, 0.7, 0.9]) in VidChapters' dvc.py

# ---------------------------------------------------------------------------------------------------------------
# dvc_eval, transcribed (one ground-truth file, as VidChapters' dvc.py passes it)


def random_string(string_length):
    letters = string.ascii_lowercase
    return "".join(random.choice(letters) for i in range(string_length))


def remove_nonascii(text):
    return "".join([i if ord(i) < 128 else " " for i in text])


def dvc_iou(interval_1, interval_2):  # ANETcaptions.iou
    start_i, end_i = interval_1[0], interval_1[1]
    start, end = interval_2[0], interval_2[1]
    intersection = max(0, min(end, end_i) - max(start, start_i))
    union = min(max(end, end_i) - min(start, start_i), end - start + end_i - start_i)
    iou = float(intersection) / (union + 1e-8)
    return iou


def evaluate_tiou(ground_truths, prediction, tiou, tokenizer, scorers):
    res = {}
    gts = {}
    gt_vid_ids = list(set(vid for gt in ground_truths for vid in gt))
    unique_index = 0
    vid2capid = {}
    cur_res = {}
    cur_gts = {}
    for vid_id in gt_vid_ids:
        if vid_id not in prediction:
            continue
        else:
            vid2capid[vid_id] = []
            for pred in prediction[vid_id]:
                has_added = False
                for gt in ground_truths:
                    if vid_id not in gt:
                        continue
                    gt_captions = gt[vid_id]
                    for caption_idx, caption_timestamp in enumerate(gt_captions["timestamps"]):
                        if dvc_iou(pred["timestamp"], caption_timestamp) >= tiou:
                            cur_res[unique_index] = [{"caption": remove_nonascii(pred["sentence"])}]
                            cur_gts[unique_index] = [
                                {"caption": remove_nonascii(gt_captions["sentences"][caption_idx])}
                            ]
                            vid2capid[vid_id].append(unique_index)
                            unique_index += 1
                            has_added = True
                if not has_added:
                    cur_res[unique_index] = [{"caption": remove_nonascii(pred["sentence"])}]
                    cur_gts[unique_index] = [{"caption": random_string(random.randint(10, 20))}]
                    vid2capid[vid_id].append(unique_index)
                    unique_index += 1
    output = {}
    per_video = {}
    for scorer, method in scorers:
        all_scores = {}
        tokenize_res = tokenizer.tokenize(cur_res)
        tokenize_gts = tokenizer.tokenize(cur_gts)
        for vid in vid2capid.keys():
            res[vid] = {index: tokenize_res[index] for index in vid2capid[vid]}
            gts[vid] = {index: tokenize_gts[index] for index in vid2capid[vid]}
        for vid_id in gt_vid_ids:
            if vid_id not in prediction:
                continue
            if len(res[vid_id]) == 0 or len(gts[vid_id]) == 0:
                if type(method) == list:  # noqa: E721 (as written in dvc_eval)
                    score = [0] * len(method)
                else:
                    score = 0
            else:
                quiet = {"verbose": 0} if type(method) == list else {}  # noqa: E721 (Bleu prints otherwise)
                score, scores = scorer.compute_score(gts[vid_id], res[vid_id], **quiet)
            all_scores[vid_id] = score
        if type(method) == list:  # noqa: E721
            scores = np.mean(list(all_scores.values()), axis=0)
            for m in range(len(method)):
                output[method[m]] = scores[m]
                per_video[method[m]] = {v: s[m] for v, s in all_scores.items()}
        else:
            output[method] = np.mean(list(all_scores.values()))
            per_video[method] = dict(all_scores)
    return output, per_video


def eval_dvc_captioning(ground_truth, submission, tokenizer, meteor):
    """ANETcaptions.evaluate's language part and eval_dvc's avg_eval_score (the mean over the tIoUs)."""
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    scorers = [
        (meteor, "METEOR"),
        (Cider(), "CIDEr"),
        (Rouge(), "Rouge-L"),
        (Bleu(4), ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"]),
    ]
    prediction = {vid: submission["results"][vid][:1000] for vid in submission["results"]}
    all_scores, per_video = {}, {}
    for tiou in TIOUS:
        scores, videos = evaluate_tiou([ground_truth], prediction, tiou, tokenizer, scorers)
        for metric, score in scores.items():
            all_scores.setdefault(metric, []).append(score)
            for vid, s in videos[metric].items():
                per_video.setdefault(metric, {}).setdefault(vid, []).append(s)
    average = {key: np.array(value).mean() for key, value in all_scores.items()}
    return average, {m: {v: float(np.mean(s)) for v, s in videos.items()} for m, videos in per_video.items()}


def soda_iou(interval_1, interval_2):  # SODA/utils.iou
    eps = 1e-8
    (s_1, e_1) = interval_1
    (s_2, e_2) = interval_2
    intersection = max(0.0, min(e_1, e_2) - max(s_1, s_2))
    union = min(max(e_1, e_2) - min(s_1, s_2), e_1 - s_1 + e_2 - s_2)
    iou = intersection / (union + eps)
    return iou


def chased_dp_assignment(scores):  # SODA.chased_dp_assignment
    M, N = scores.shape
    dp = -np.ones((M, N))
    path = np.zeros((M, N))

    def transition(i, j):
        if dp[i, j] >= 0:
            return dp[i, j]
        elif i == 0 and j == 0:
            state = [-1, -1, scores[i, j]]
        elif i == 0:
            state = [-1, transition(i, j - 1), scores[i, j]]
        elif j == 0:
            state = [transition(i - 1, j), -1, scores[i, j]]
        else:
            state = [transition(i - 1, j), transition(i, j - 1), transition(i - 1, j - 1) + scores[i, j]]
        dp[i, j] = np.max(state)
        path[i, j] = np.argmax(state)
        return dp[i, j]

    def get_pairs(i, j):
        p = np.where(path[i][: j + 1] == 2)[0]
        if i != 0 and len(p) == 0:
            return get_pairs(i - 1, j)
        elif i == 0 or p[-1] == 0:
            return [(i, p[-1])]
        else:
            return get_pairs(i - 1, p[-1] - 1) + [(i, p[-1])]

    N, M = scores.shape
    max_score = transition(N - 1, M - 1)
    pairs = get_pairs(N - 1, M - 1)
    return max_score, pairs


def eval_soda_c(ground_truth, submission, tokenizer, meteor):
    """eval_soda(p, [ref]): ANETCaptions.from_load_files (multi_reference=False), preprocess, SODA(soda_type='c',
    tious=None -> [0.0], scorer='Meteor').evaluate(); returns soda_c and each video's F."""
    gt = {}
    for vid in ground_truth:  # load_ground_truth, multi_reference=False: sorted by start
        t, s = list(ground_truth[vid]["timestamps"]), list(ground_truth[vid]["sentences"])
        sort_t, sort_s = list(zip(*sorted(zip(t, s), key=lambda x: x[0][0])))
        gt[vid] = {"timestamps": sort_t, "sentences": sort_s}
    preds = {vid: sorted(submission["results"][vid], key=lambda x: x["timestamp"][0]) for vid in submission["results"]}
    gt_vids = list(set(v for v in gt if v in preds))
    # preprocess
    p_spliter, g_spliter, times, cur_preds, cur_gts = [0], [0], {}, {}, {}
    for i, vid in enumerate(gt_vids):
        cur_preds.update(
            {j + p_spliter[-1]: [{"caption": remove_nonascii(p["sentence"])}] for j, p in enumerate(preds[vid])}
        )
        times[i] = [p["timestamp"] for p in preds[vid]]
        p_spliter.append(p_spliter[-1] + len(times[i]))
        cur_gts.update(
            {j + g_spliter[-1]: [{"caption": remove_nonascii(p)}] for j, p in enumerate(gt[vid]["sentences"])}
        )
        g_spliter.append(g_spliter[-1] + len(gt[vid]["sentences"]))
    tokenize_preds = tokenizer.tokenize(cur_preds)
    tokenize_gts = tokenizer.tokenize(cur_gts)
    for i, vid in enumerate(gt_vids):
        preds[vid] = {
            "timestamps": times[i],
            "sentences": [tokenize_preds[j] for j in range(p_spliter[i], p_spliter[i + 1])],
        }
        gt[vid]["sentences"] = [tokenize_gts[j] for j in range(g_spliter[i], g_spliter[i + 1])]
    # SODA.evaluate, one tIoU (0.0), one ground truth
    f_best = {}
    for vid in gt_vids:
        pred, gold = preds[vid], gt[vid]
        if not pred["sentences"]:
            f_best[vid] = 0
            continue
        _iou = np.array([[soda_iou(p, ct) for p in pred["timestamps"]] for ct in gold["timestamps"]])
        res = {index: p for index, p in enumerate(pred["sentences"])}  # calc_score_matrix
        gts = [{index: g for index in range(len(pred["sentences"]))} for g in gold["sentences"]]
        scores = np.array([meteor.compute_score(res, g)[1] for g in gts])
        iou = np.copy(_iou)
        iou[iou < 0.0] = 0.0
        try:
            max_score, pairs = chased_dp_assignment(iou * scores)
        except Exception:  # RecursionError (the code's bare except)
            max_score = 0.0
        (n_g, n_p) = iou.shape
        p = max_score / n_p
        r = max_score / n_g
        f_best[vid] = 2 * p * r / (p + r) if p + r > 0 else 0
    return float(np.mean(list(f_best.values()))), f_best


# ---------------------------------------------------------------------------------------------------------------
# generated videos

VOCABULARY = ["the", "News", "weather", "report", "sports", "élection", "results", "cooking", "pasta", "Intro",
              "l'été", "final", "scores", "(live)", "Q&A", "recap", "how", "to", "make", "bread"]  # fmt: skip


def title(rng):
    words = [rng.choice(VOCABULARY) for _ in range(rng.randint(1, 5))]
    text = " ".join(words)
    return text + rng.choice(["", "", "!", " ?", ".", ", part 2"])


def cuts(rng, duration, n):
    """n - 1 distinct cut points in (0, duration) on a half-second grid (so that tIoUs of exactly 0.5 occur)."""
    grid = list(range(1, int(duration * 2)))
    return sorted(x / 2 for x in rng.sample(grid, n - 1))


def generate(seed, n_videos=60):
    rng = random.Random(seed)
    annotations, chapters_pred, dense_pred = {}, {}, {}
    for v in range(n_videos):
        vid = f"v{v:03d}"
        duration = float(rng.randint(30, 400))
        n = rng.randint(1, 9)
        edges = [0.0, *cuts(rng, duration, n), duration]
        ref_titles = [title(rng) for _ in range(n)]
        annotations[vid] = {
            "duration": duration,
            "timestamps": [[a, b] for a, b in zip(edges[:-1], edges[1:])],
            "sentences": ref_titles,
        }
        # a partition of the video: the reference's cuts, some kept (moved by 0, 1/2, 1 or 5 s), some added
        kept = [
            min(max(c + rng.choice([0, 0, 0.5, -0.5, 1, -5]), 0.5), duration - 0.5)
            for c in edges[1:-1]
            if rng.random() < 0.7
        ]
        added = [rng.randint(1, int(duration * 2) - 1) / 2 for _ in range(rng.randint(0, 3))]
        hyp_edges = [0.0, *sorted(set(kept + added)), duration]
        sentences = []
        for a, b in zip(hyp_edges[:-1], hyp_edges[1:]):
            near = [t for (s, e), t in zip(annotations[vid]["timestamps"], ref_titles) if s < b and e > a]
            sentences.append(rng.choice(near) if near and rng.random() < 0.5 else title(rng))
        chapters_pred[vid] = [
            {"timestamp": [a, b], "sentence": s} for a, b, s in zip(hyp_edges[:-1], hyp_edges[1:], sentences)
        ]
        # dense-captioning predictions: overlapping events, sorted by start
        events = []
        for _ in range(rng.randint(1, 8)):
            a = rng.randint(0, int(duration) - 2)
            b = rng.randint(a + 1, int(duration))
            near = [t for (s, e), t in zip(annotations[vid]["timestamps"], ref_titles) if s < b and e > a]
            sentence = rng.choice(near) if near and rng.random() < 0.5 else title(rng)
            events.append({"timestamp": [float(a), float(b)], "sentence": sentence})
        dense_pred[vid] = sorted(events, key=lambda e: (e["timestamp"][0], e["timestamp"][1]))
    chapters_pred["v000"] = []  # a video without a prediction: every score 0
    dense_pred["v001"] = []
    return annotations, {"results": chapters_pred}, {"results": dense_pred}


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    if captioning.captioning_missing() is not None:
        pytest.skip(f"needs {captioning.captioning_missing()}")
    from pycocoevalcap.meteor.meteor import Meteor
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    folder = tmp_path_factory.mktemp("captioning")
    annotations, chapters_pred, dense_pred = generate(28)
    (folder / "gt.json").write_text(json.dumps(annotations), encoding="utf-8")
    (folder / "chapters.json").write_text(json.dumps(chapters_pred), encoding="utf-8")
    (folder / "dense.json").write_text(json.dumps(dense_pred), encoding="utf-8")
    out = folder / "scores.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)  # a video without prediction, dense predictions
        code = main(
            ["evaluate", "--reference", str(folder / "gt.json"), "--hypothesis", f"chapters={folder / 'chapters.json'}",
             "--hypothesis", f"dense={folder / 'dense.json'}", "--preset", "vidchapters", "--bootstrap", "0",
             "--no-html", "--json", str(out)]
        )  # fmt: skip
    assert code == 0
    systems = json.loads(out.read_text())["systems"]
    tokenizer, meteor = Memo(PTBTokenizer()), Meteor()
    expected = {}
    for name, submission in (("chapters", chapters_pred), ("dense", dense_pred)):
        dvc, dvc_videos = eval_dvc_captioning(annotations, submission, tokenizer, meteor)
        soda, soda_videos = eval_soda_c(annotations, submission, tokenizer, meteor)
        expected[name] = (dvc, dvc_videos, soda, soda_videos)
    return systems, expected, annotations, chapters_pred


class Memo:
    """PTBTokenizer.tokenize, remembered: dvc_eval tokenises the same captions once per scorer (Java each time)."""

    def __init__(self, tokenizer):
        self.tokenizer, self.done = tokenizer, {}

    def tokenize(self, captions):
        key = tuple((k, c["caption"]) for k, v in captions.items() for c in v)
        if key not in self.done:
            self.done[key] = self.tokenizer.tokenize(captions)
        return self.done[key]


KEYS = {
    "dvc_meteor": "METEOR",
    "dvc_cider": "CIDEr",
    "dvc_rougeL": "Rouge-L",
    "dvc_bleu1": "Bleu_1",
    "dvc_bleu2": "Bleu_2",
    "dvc_bleu3": "Bleu_3",
    "dvc_bleu4": "Bleu_4",
}


@needs_java
@pytest.mark.parametrize("system", ["chapters", "dense"])
def test_meteor_cider_bleu_rouge_equal_dvc_eval_on_60_videos(scored, system):
    systems, expected, annotations, _ = scored
    dvc, dvc_videos, _, _ = expected[system]
    corpus, shows = systems[system]["corpus"], systems[system]["shows"]
    assert len(shows) == len(annotations) == 60
    assert set(captioning.CAPTIONING_KEYS) == set(metrics.keys("captioning")) <= set(corpus)
    for key, theirs in KEYS.items():
        assert corpus[key] == pytest.approx(float(dvc[theirs]), rel=1e-12, abs=1e-15), key
        for vid, value in dvc_videos[theirs].items():
            assert shows[vid][key] == pytest.approx(value, rel=1e-12, abs=1e-15), (key, vid)
    # the generated data exercise the scores: matched pairs at every threshold, some titles equal
    assert 0.05 < corpus["dvc_meteor"] < 1 and corpus["dvc_cider"] > 0.05 and corpus["dvc_bleu4"] > 0
    empty = "v000" if system == "chapters" else "v001"
    assert all(shows[empty][key] == 0 for key in KEYS)


@needs_java
@pytest.mark.parametrize("system", ["chapters", "dense"])
def test_soda_c_equals_dvc_eval_on_60_videos(scored, system):
    systems, expected, _, _ = scored
    _, _, soda, soda_videos = expected[system]
    corpus, shows = systems[system]["corpus"], systems[system]["shows"]
    assert corpus["soda_c"] == pytest.approx(soda, rel=1e-12, abs=1e-15)
    for vid, f in soda_videos.items():
        assert shows[vid]["soda_c"] == pytest.approx(f, rel=1e-12, abs=1e-15), vid
    assert 0.05 < soda < 1


@needs_java
def test_tokenize_equals_pycocoevalcaps_ptb_tokenizer(scored):
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    _, _, annotations, chapters_pred = scored
    titles = [t for a in annotations.values() for t in a["sentences"]]
    titles += [p["sentence"] for preds in chapters_pred["results"].values() for p in preds]
    titles += ["Élections : le 2ᵉ tour", "", "...", 'He said "hi" (twice) -- U.S.']
    theirs = PTBTokenizer().tokenize({k: [{"caption": remove_nonascii(t)}] for k, t in enumerate(titles)})
    assert captioning.tokenize(titles) == [theirs[k][0] for k in range(len(titles))]


def test_soda_matching_score_equals_chased_dp_assignment():
    # SODA's DP (transcribed above) on random sparse score matrices; tvseg's chain over the non-zero entries
    # gives the same float
    rng = np.random.default_rng(5)
    for _ in range(400):
        n, m = rng.integers(1, 9, size=2)
        dense = rng.random((n, m)) * (rng.random((n, m)) < 0.4)
        ref, hyp = np.nonzero(dense)
        theirs, _ = chased_dp_assignment(dense)
        assert captioning.soda_matching_score(ref, hyp, dense[ref, hyp], int(m)) == theirs


def test_without_java_nor_snowballstemmer_the_preset_warns_and_the_extra_raises(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pycocoevalcap")
    import importlib.metadata

    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(captioning.shutil, "which", lambda name: None)
    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert "snowballstemmer" in captioning.captioning_missing() and "Java" in captioning.java_missing()
    with pytest.raises(UsageError, match="snowballstemmer"):
        captioning.require_captioning()
    annotations, chapters_pred, _ = generate(3, n_videos=2)
    (tmp_path / "gt.json").write_text(json.dumps(annotations), encoding="utf-8")
    (tmp_path / "p.json").write_text(json.dumps(chapters_pred), encoding="utf-8")
    out = tmp_path / "s.json"
    argv = ["evaluate", "--reference", str(tmp_path / "gt.json"), "--hypothesis", f"m={tmp_path / 'p.json'}",
            "--preset", "vidchapters", "--bootstrap", "0", "--no-html", "--json", str(out)]  # fmt: skip
    assert main(argv) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "warning: METEOR and SODA_c of --preset vidchapters are not computed: neither Java nor" in err
    corpus = json.loads(out.read_text())["systems"]["m"]["corpus"]
    assert set(captioning.CAPTIONING_KEYS) & set(corpus) == set(captioning.CAPTIONING_KEYS) - {"dvc_meteor", "soda_c"}
    assert "vc_detection_f1" in corpus


def test_without_java_snowballstemmer_3_is_refused(monkeypatch):
    pytest.importorskip("pycocoevalcap")
    import importlib.metadata

    monkeypatch.setattr(captioning.shutil, "which", lambda name: None)
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "3.0.1")
    assert "snowballstemmer 3.0.1" in captioning.meteor_missing()
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "2.2.0")
    assert captioning.meteor_missing() is None and captioning.captioning_missing() is None


@needs_java
def test_without_java_the_scorecard_equals_dvc_eval_run_with_java(scored, tmp_path, monkeypatch, capsys):
    # the same 60 videos scored with the PATH stripped of `java`: tvseg's Python PTB tokenizer and Python METEOR
    # (tvseg.retrieval.meteor), against dvc_eval's numbers computed with Java (the fixture's transcription):
    # CIDEr-D, BLEU, ROUGE-L to 1e-9; METEOR and SODA_c to 1e-12 (tests/test_meteor.py: the same statistics as
    # the jar, scores within two units in the last place)
    systems_java, expected, annotations, chapters_pred = scored
    _, _, dense_pred = generate(28)
    (tmp_path / "gt.json").write_text(json.dumps(annotations), encoding="utf-8")
    (tmp_path / "chapters.json").write_text(json.dumps(chapters_pred), encoding="utf-8")
    (tmp_path / "dense.json").write_text(json.dumps(dense_pred), encoding="utf-8")
    path = os.environ["PATH"].split(os.pathsep)
    monkeypatch.setenv("PATH", os.pathsep.join(d for d in path if not (Path(d) / "java").exists()))
    assert shutil.which("java") is None
    out = tmp_path / "scores.json"
    capsys.readouterr()
    code = main(
        ["evaluate", "--reference", str(tmp_path / "gt.json"), "--hypothesis", f"chapters={tmp_path / 'chapters.json'}",
         "--hypothesis", f"dense={tmp_path / 'dense.json'}", "--preset", "vidchapters", "--bootstrap", "0",
         "--no-html", "--json", str(out)]
    )  # fmt: skip
    assert code == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "not computed" not in err
    assert "approximately" not in err  # every title in the subset the Python tokenizer reproduces
    systems = json.loads(out.read_text())["systems"]
    for system in ("chapters", "dense"):
        dvc, dvc_videos, soda, soda_videos = expected[system]
        corpus, shows = systems[system]["corpus"], systems[system]["shows"]
        for key, theirs in KEYS.items():
            tol = 1e-12 if key == "dvc_meteor" else 1e-9
            assert corpus[key] == pytest.approx(float(dvc[theirs]), rel=tol, abs=tol), (system, key)
            assert corpus[key] == pytest.approx(systems_java[system]["corpus"][key], rel=tol, abs=tol)
            for vid, value in dvc_videos[theirs].items():
                assert shows[vid][key] == pytest.approx(value, rel=tol, abs=tol), (system, key, vid)
        assert corpus["soda_c"] == pytest.approx(soda, rel=1e-12, abs=1e-12)
        for vid, f in soda_videos.items():
            assert shows[vid]["soda_c"] == pytest.approx(f, rel=1e-12, abs=1e-12), (system, vid)
        assert 0.05 < corpus["dvc_meteor"] < 1 and 0.05 < corpus["soda_c"] < 1
