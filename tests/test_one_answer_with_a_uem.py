"""The same files give one answer on every path with a UEM (issue 39, item 1).

``tvseg evaluate --uem`` crops each segment to the UEM as it is read (``read_segments(uem=)``);
``tvseg.evaluate(uem=)`` crops the segments it is given. A segment's score is the confidence of the
boundary at its start, and a boundary that only ends a segment takes the next segment's score
(``tvseg/retrieval/confidence.py``, README "Boundary confidences"): the next segment as written in the
file, even when the UEM leaves it out. Both paths attach the scores to the boundaries before any crop, so
they give the same JSON, value for value.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np

import tvseg
from tvseg.cli import main
from tvseg.retrieval.confidence import boundary_scores, start_scores

RUN_FIELDS = ("run_id",)  # a new id at each run; everything else must be equal


def cli_json(tmp_path: Path, argv: list[str], capsys) -> dict:
    """The JSON of ``tvseg evaluate ARGV`` run in this process (``--json`` into ``tmp_path``)."""
    out = tmp_path / "out.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["evaluate", *argv, "--json", str(out), "--no-html", "--bootstrap", "0", "--quiet"])
    err = capsys.readouterr().err
    assert code == 0, err
    result = json.loads(out.read_text(encoding="utf-8"))
    out.unlink()
    return {k: v for k, v in result.items() if k not in RUN_FIELDS}


def api_json(reference: Path, hypotheses: dict[str, Path], uem: Path | None, **settings) -> dict:
    """The JSON of ``tvseg.evaluate`` on the files read without a UEM, the UEM given to it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(
            tvseg.read_segments(reference),
            {name: tvseg.read_segments(path) for name, path in hypotheses.items()},
            uem=None if uem is None else tvseg.read_uem(uem),
            settings=tvseg.Settings(bootstrap=0, **settings),
        )
    data = json.loads(json.dumps(result.to_json(), allow_nan=False))
    return {k: v for k, v in data.items() if k not in RUN_FIELDS}


# --- the reproducer, by hand -------------------------------------------------------------------


def test_a_segment_outside_the_uem_still_scores_the_boundary_before_it(tmp_path, capsys):
    ref = tmp_path / "ref.csv"
    ref.write_text("show,start,end,label\ns1,0,50,A\ns1,50,100,B\n", encoding="utf-8")
    hyp = tmp_path / "hyp.csv"
    hyp.write_text("show,start,end,label,score\ns1,0,50,a,0.9\ns1,50,60,b,0.8\ns1,110,120,c,0.1\n", encoding="utf-8")
    uem = tmp_path / "shows.uem"
    uem.write_text("s1 1 0.000 100.000\n", encoding="utf-8")
    # By hand, tolerance 10 s. Reference boundary: 50. Hypothesis boundaries inside the UEM [0, 100]:
    # 50 (the start of [50, 60]: 0.8) and 60 (an end where no segment starts: the next segment's score,
    # [110, 120]'s 0.1, though the UEM leaves that segment out). 0 is the show's start; 110 and 120 are
    # outside the UEM.
    # t = 0.8: {50}, 1 matched: P = 1, R = 1, F = 1.
    # t = 0.1: {50, 60}, 1 matched (one reference boundary): P = 1/2, R = 1, F = 2 (1/2) / (3/2) = 2/3.
    # AP = (1 - 0) 1 + (1 - 1) 1/2 = 1; best F 1 at 0.8.
    hand = {
        "boundary_curve": {"thresholds": [0.8, 0.1], "precision": [1.0, 0.5], "recall": [1.0, 1.0], "f1": [1.0, 2 / 3]},
        "average_precision": 1.0,
        "best_threshold_f1": {"f1": 1.0, "threshold": 0.8},
    }
    argv = ["--reference", str(ref), "--hypothesis", f"sys={hyp}"]
    with_uem = cli_json(tmp_path, [*argv, "--uem", str(uem)], capsys)
    system = with_uem["systems"]["sys"]
    assert {key: system[key] for key in hand} == hand
    assert with_uem == api_json(ref, {"sys": hyp}, uem)
    # without the UEM the region is the reference's extent, [0, 100]: the same boundaries, the same curve
    without = cli_json(tmp_path, argv, capsys)["systems"]["sys"]
    assert {key: without[key] for key in hand} == hand


def test_the_scores_of_boundaries_at_ends_and_of_cropped_starts():
    # show 0 as read: [0, 10] 0.1, [10, 20] 0.7, [30, 40] 0.4 (then left out by a UEM), [50, 60] 0.2;
    # after the crop: [0, 10], [10, 20], [50, 60], with the end scores attached as read: 0.7, 0.4 (the
    # left-out segment's), 0.2 (touching: the next start's), NaN (nothing after)
    seg_show, start, end, score = [0, 0, 0], [0.0, 10.0, 50.0], [10.0, 20.0, 60.0], [0.1, 0.7, 0.2]
    end_score = [0.7, 0.4, math.nan]
    # 10: the start of the 0.7 segment; 20: an end, the segment left out gave 0.4; 50: a start, 0.2; 60: none
    got = boundary_scores(seg_show, start, end, score, [0, 0, 0, 0], [10.0, 20.0, 50.0, 60.0], end_score=end_score)
    assert got.tolist() == [0.7, 0.4, 0.2, math.inf]
    # without end scores, the end at 20 takes the next segment given, [50, 60]'s 0.2
    assert boundary_scores(seg_show, start, end, score, [0], [20.0]).tolist() == [0.2]
    # a segment [45, 80] of score 0.6 cropped by a UEM gap 40-60 to [60, 80]: its start keeps 0.6, whether
    # the segments are given cropped or as read
    assert start_scores([0, 0], [0.0, 45.0], [0.1, 0.6], [0], [60.0]).tolist() == [0.6]
    assert start_scores([0, 0], [0.0, 60.0], [0.1, 0.6], [0], [60.0]).tolist() == [0.6]


# --- 200 random corpora with gapped UEMs -------------------------------------------------------------

WORDS = ["weather", "sport", "news", "the economy", "politics", "culture", "<NA>"]


def _seconds(ms: int) -> str:
    return f"{ms // 1000}.{ms % 1000:03d}"


def _random_corpus(rng: np.random.Generator, folder: Path) -> None:
    """A reference CSV with titles, a UEM of 1 to 3 regions per show (gaps between them), and one system
    as a CSV (``label`` and ``score``, some cells empty) and as RTTM (NAME and CONF): segments with gaps
    between them, across the UEM's gaps and edges, wholly in a gap, before the UEM and past its end."""
    ref, csv, rttm, uem = ["show,start,end,label"], ["show,start,end,label,score"], [], []
    for k in range(int(rng.integers(1, 4))):
        show = f"s{k}"
        length = int(rng.integers(60, 300)) * 1000
        inner = sorted(set(rng.integers(1, length // 1000, int(rng.integers(1, 8))).tolist()))
        cuts = [0, *(c * 1000 for c in inner), length]
        ref += [f"{show},{_seconds(a)},{_seconds(b)},{rng.choice(WORDS[:-1])}" for a, b in zip(cuts[:-1], cuts[1:])]
        edges = sorted(set(rng.integers(0, length // 1000 + 1, 2 * int(rng.integers(1, 4))).tolist()))
        edges = edges[: len(edges) // 2 * 2] if len(edges) >= 2 else [0, length // 1000]
        uem += [f"{show} 1 {a}.000 {b}.000" for a, b in zip(edges[0::2], edges[1::2])]
        t = int(rng.integers(0, 20)) * 500
        end = length + (int(rng.integers(1, 40)) * 1000 if rng.random() < 0.3 else 0)
        while t < end - 1000:
            b = min(t + int(rng.integers(2, 60)) * 500, end)
            score = "" if rng.random() < 0.1 else f"{rng.integers(0, 10) / 10:.1f}"  # ties, and none
            title = str(rng.choice(WORDS))
            csv.append(f"{show},{_seconds(t)},{_seconds(b)},{'' if title == '<NA>' else title},{score}")
            name = title.replace(" ", "_")
            rttm.append(f"SEGMENT {show} 1 {_seconds(t)} {_seconds(b - t)} <NA> <NA> {name} {score or '<NA>'} <NA>")
            t = b + (int(rng.integers(1, 20)) * 500 if rng.random() < 0.3 else 0)
    for name, lines in (("ref.csv", ref), ("c.csv", csv), ("r.rttm", rttm), ("shows.uem", uem)):
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_command_and_the_api_give_one_json_on_random_gapped_uems(tmp_path, capsys):
    differing = []
    curves = 0
    for seed in range(200):
        folder = tmp_path / f"c{seed}"
        folder.mkdir()
        _random_corpus(np.random.default_rng(seed), folder)
        # one system in each file format in turn; frames (and so the DET curve) on every third corpus
        system = {"c": folder / "c.csv"} if seed % 2 else {"r": folder / "r.rttm"}
        frames = seed % 3 == 0
        argv = ["--reference", str(folder / "ref.csv"), "--uem", str(folder / "shows.uem")]
        argv += [f"--hypothesis={name}={path}" for name, path in system.items()]
        cli = cli_json(folder, argv + (["--frame", "5"] if frames else []), capsys)
        api = api_json(
            folder / "ref.csv", system, folder / "shows.uem", **({"units": "frames", "frame": 5.0} if frames else {})
        )
        curves += all("boundary_curve" in s for s in cli["systems"].values())
        if cli != api:
            differing.append(seed)
    assert differing == []
    assert curves >= 190  # nearly every corpus has scores (a system may lack them on every show it keeps)
