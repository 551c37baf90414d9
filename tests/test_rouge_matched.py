"""chunkseg's temporally matched title ROUGE-L (issue 14): ``title_matched_rougeL_*`` and
``title_matched_fraction`` equal chunkseg 0.4.0's ``tm_rl_*`` and ``tm_matched``
(``chunkseg/titles.py``, ``compute_title_scores``) on 300 random shows, per show and as the corpus mean,
through chunkseg's own functions; the end-to-end ``tvseg evaluate --chunkseg`` numbers against
``chunkseg.evaluate_batch``; and a hand-counted example (greedy matching, ties, the 5 s edge)."""

import json
import math
import random
import warnings

import numpy as np
import pytest
from pyannote.core import Annotation, Segment
from rouge_score import rouge_scorer

from tvseg.cli import main
from tvseg.columns import from_segmentations
from tvseg.errors import TvsegWarning
from tvseg.evaluation import evaluate
from tvseg.retrieval.chapters import match_in_time
from tvseg.retrieval.corpus import score_shows
from tvseg.retrieval.reductions import corpus_metrics, metric_table
from tvseg.settings import Settings

chunkseg = pytest.importorskip("chunkseg")
from chunkseg import titles as chunkseg_titles  # noqa: E402

KEYS = (
    ("title_matched_rougeL_precision", "tm_rl_precision"),
    ("title_matched_rougeL_recall", "tm_rl_recall"),
    ("title_matched_rougeL_f1", "tm_rl_f1"),
)
WORDS = [
    "storm",
    "storms",
    "weather",
    "forecast",
    "tour",
    "de",
    "France",
    "élections",
    "municipales",
    "sport",
    "sports",
    "running",
    "markets",
    "the",
    "nations",
    "news",
    "2015",
    "Réforme",
    "retraites",
]


class _NoBert:
    """Stands in for bert_score's BERTScorer (not installed; chunkseg asks for it before its ROUGE-L)."""

    def score(self, candidates, references):
        zeros = np.zeros(len(candidates))
        return zeros, zeros, zeros


@pytest.fixture
def no_bert(monkeypatch):
    monkeypatch.setattr(chunkseg_titles, "_get_bert_scorer", lambda lang="en": _NoBert())


def _title(rng, near=None):
    if rng.random() < 0.04:
        return rng.choice(["!!!", "é"])  # a title without a ROUGE token
    if near is not None and rng.random() < 0.6:  # a hypothesis title close to the reference's
        words = near.split()
        words = [w for w in words if rng.random() < 0.8] + [rng.choice(WORDS) for _ in range(rng.randint(0, 2))]
        return " ".join(words) or rng.choice(WORDS)
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5)))


def random_show(rng):
    """A chunkseg line: times on a 0.5 s grid (floats hold them exactly, so chunkseg's float tests and
    tvseg's microseconds agree), hypothesis boundaries near the reference's (within 0-8 s, many at
    exactly 5 s), some missing or added, some segments untitled, some hypotheses without a title."""
    duration = rng.randint(120, 1200) / 2
    step = rng.choice([6, 12, 40, 120])  # short chapters: several candidates per chapter
    reference = sorted({rng.randint(1, int(duration * 2) - 1) / 2 for _ in range(int(duration / step))})
    hypothesis = set()
    for b in reference:
        if rng.random() < 0.85:
            h = b + rng.choice([-1, 1]) * rng.choice([0, 0, 0.5, 2, 4.5, 5, 5, 5.5, 8])
            if 0 < h < duration:
                hypothesis.add(h)
    for _ in range(rng.randint(0, 4)):
        hypothesis.add(rng.randint(1, int(duration * 2) - 1) / 2)
    hypothesis = sorted(hypothesis)

    def titles(bounds, like=None):
        starts = [0.0] + bounds
        out = []
        for s in starts:
            if rng.random() < 0.15:
                continue  # untitled segment
            near = None
            if like:
                near = min(like, key=lambda t: abs(t[1] - s))[0]
            out.append([_title(rng, near), s])
        return out

    ref_titles = titles(reference) if rng.random() > 0.03 else []
    hyp_titles = titles(hypothesis, ref_titles) if rng.random() > 0.08 else []
    line = {"reference": reference, "hypothesis": hypothesis, "duration": duration}
    if ref_titles:
        line["reference_titles"] = ref_titles
    if hyp_titles:
        line["hyp_titles"] = hyp_titles
    return line


def _annotation(bounds, titles, duration):
    labels = {s: t for t, s in titles}
    edges = [0.0] + list(bounds) + [duration]
    ann = Annotation()
    for a, b in zip(edges, edges[1:]):
        ann[Segment(a, b)] = labels.get(a, "<NA>")
    return ann


def tvseg_scores(lines, *, stemmer):
    ref = from_segmentations([_annotation(r["reference"], r.get("reference_titles", []), r["duration"]) for r in lines])
    hyp = from_segmentations([_annotation(r["hypothesis"], r.get("hyp_titles", []), r["duration"]) for r in lines])
    shows = [f"s{i}" for i in range(len(lines))]
    scores = score_shows(
        ref, hyp, shows=shows, gamma=0.85, long_threshold=60.0, tolerance=10.0, titles=True, title_stemmer=stemmer
    )
    return metric_table(scores.components, titles=True), corpus_metrics(scores.components, titles=True)


def chunkseg_show(line):
    """chunkseg's title metrics of one line, as its evaluate() computes them (no BERTScore)."""
    return chunkseg.evaluate(
        line["hypothesis"],
        line["reference"],
        line["duration"],
        reference_titles=[tuple(p) for p in line["reference_titles"]] if "reference_titles" in line else None,
        hyp_titles=[tuple(p) for p in line.get("hyp_titles", [])] or None,
    )


def test_equal_to_chunksegs_compute_title_scores_on_300_random_shows(no_bert):
    rng = random.Random(14)
    lines = [random_show(rng) for _ in range(300)]
    per_show, corpus = tvseg_scores(lines, stemmer=True)  # chunkseg stems
    theirs = [chunkseg_show(line) for line in lines]
    matched = partial = unmatched_some = 0
    for i, (line, their) in enumerate(zip(lines, theirs)):
        row = per_show.iloc[i]
        for key, their_key in KEYS:
            if their_key in their:
                assert row[key] == their[their_key], (i, key)  # equal bit for bit
            else:
                assert math.isnan(row[key]), (i, key)
        if "reference_titles" in line:
            assert row["title_matched_fraction"] == pytest.approx(their["tm_matched"], abs=1e-15), i
            # the pairing itself, straight from chunkseg's _match_titles_by_time
            if "hyp_titles" in line:
                pairs = chunkseg_titles._match_titles_by_time(
                    [tuple(p) for p in line["hyp_titles"]],
                    [tuple(p) for p in line["reference_titles"]],
                    5.0,
                    line["duration"],
                )
                matched += len(pairs[0])
                unmatched_some += len(pairs[0]) < len(line["reference_titles"])
        else:
            assert math.isnan(row["title_matched_fraction"])
        partial += 0 < their.get("tm_rl_f1", 0) < 1
    assert matched > 2000 and partial > 100 and unmatched_some > 100, (matched, partial, unmatched_some)
    # the corpus value: chunkseg's mean over the shows that have the key
    for key, their_key in (*KEYS, ("title_matched_fraction", "tm_matched")):
        values = [t[their_key] for t in theirs if their_key in t]
        assert corpus[key] == pytest.approx(float(np.mean(values)), abs=1e-12), key
    batch = chunkseg.evaluate_batch(
        [{k: v for k, v in line.items()} for line in lines[:60]], titles=True, num_bootstrap=1
    )
    _, corpus60 = tvseg_scores(lines[:60], stemmer=True)
    for key, their_key in (*KEYS, ("title_matched_fraction", "tm_matched")):
        assert corpus60[key] == pytest.approx(batch[their_key]["mean"], abs=1e-12), key


def test_the_matching_is_chunksegs_greedy_scan_not_a_maximum_one():
    # microseconds; one show. R1 = (2, 5) takes H2 = (3, 6) (distance 1 + 1) over H1 = (0, 3) (2 + 2),
    # and R2 = (5, 9), whose only candidate H2 was, stays unmatched: a maximum matching would pair all three.
    s = 1_000_000
    ref = ([0, 0, 0], [2 * s, 5 * s, 9 * s], [5 * s, 9 * s, 20 * s])
    hyp = ([0, 0, 0], [0, 3 * s, 6 * s], [3 * s, 6 * s, 20 * s])
    r, h = match_in_time(ref, hyp, 5.0)
    assert r.tolist() == [0, 2] and h.tolist() == [1, 2]


def test_evaluate_chunkseg_file_gives_chunksegs_numbers_without_stemming(tmp_path, no_bert, monkeypatch):
    # tvseg evaluate does not stem; chunkseg's scorer without stemming gives the same numbers end to end
    monkeypatch.setattr(chunkseg_titles, "_rouge_scorer", rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False))
    rng = random.Random(5)
    lines = [dict(random_show(rng), show=f"show{i:02d}") for i in range(40)]
    path, out = tmp_path / "s.jsonl", tmp_path / "o.json"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["evaluate", "--chunkseg", str(path), "--json", str(out), "--bootstrap", "0"]) == 0
    system = json.loads(out.read_text())["systems"]["hypothesis"]
    batch = chunkseg.evaluate_batch(
        [{k: v for k, v in line.items() if k != "show"} for line in lines], titles=True, num_bootstrap=1
    )
    for key, their_key in (*KEYS, ("title_matched_fraction", "tm_matched")):
        assert system["corpus"][key] == pytest.approx(batch[their_key]["mean"], abs=1e-12), key
        assert system["macro"][key] == pytest.approx(batch[their_key]["mean"], abs=1e-12), key
    for line in lines:
        their, row = chunkseg_show(line), system["shows"][line["show"]]
        for key, their_key in KEYS:
            assert (row[key] is None) if their_key not in their else row[key] == pytest.approx(their[their_key])


def _ann(*segments):
    a = Annotation()
    for start, end, label in segments:
        a[Segment(start, end)] = label
    return a


REF = {
    "a": _ann((0, 30, "Storm warning"), (30, 32, "<NA>"), (32, 60, "Tour de France"), (60, 100, "Weather")),
    "b": _ann((0, 2, "<NA>"), (2, 5, "Sport"), (5, 9, "Markets"), (9, 20, "Weather")),
    "c": _ann((0, 2, "<NA>"), (2, 8, "Alpha"), (8, 20, "Beta")),
    "d": _ann((0, 50, "Sport"), (50, 100, "News")),
    "e": _ann((0, 100, "<NA>")),
}
HYP = {
    "a": _ann((0, 27, "storm"), (27, 58, "The Tour de France stage"), (58, 64, "Tour"), (64, 100, "Weather forecast")),
    "b": _ann((0, 3, "Sport news"), (3, 6, "Markets"), (6, 20, "Weather")),
    "c": _ann((0, 5, "Gamma"), (5, 10, "Alpha"), (10, 20, "Beta")),
    "d": _ann((0, 50, "<NA>"), (50, 100, "<NA>")),
    "e": _ann((0, 100, "Something")),
}


def test_counted_by_hand(no_bert):
    # Chapters: the titled segments, each to the next title's start (chunkseg), the last to the show's end.
    # a: ref Storm warning (0, 32) [the untitled 30-32 is part of it], Tour de France (32, 60), Weather
    #    (60, 100); hyp storm (0, 27), The Tour de France stage (27, 58), Tour (58, 64), Weather forecast
    #    (64, 100). Storm: hyp 1 (|0-0| + |27-32| = 5, the end exactly 5 s away: within) -> "storm warning"
    #    vs "storm": LCS 1, P 1, R 1/2, F 2/3. Tour: hyp 2 (start 5 s away, end 2) -> "tour de france"
    #    vs "the tour de france stage": LCS 3, P 3/5, R 1, F 3/4. Weather: hyp 3 ((58, 64) ends 36 s off)
    #    -> "weather" vs "weather forecast": P 1/2, R 1, F 2/3.
    #    a: P = (1 + 3/5 + 1/2) / 3 = 0.7, R = (1/2 + 1 + 1) / 3 = 5/6, F = (2/3 + 3/4 + 2/3) / 3 = 25/36;
    #    all 3 reference chapters matched.
    # b: ref Sport (2, 5), Markets (5, 9), Weather (9, 20); hyp Sport news (0, 3), Markets (3, 6),
    #    Weather (6, 20). Greedy: Sport takes "Markets" (1 + 1 < 2 + 2), so Markets, whose only candidate
    #    it was, stays unmatched; Weather takes Weather (3 + 0). Pairs: (Sport, Markets) 0, (Weather,
    #    Weather) 1 -> P = R = F = 1/2; 2 of 3 matched.
    # c: ref Alpha (2, 8), Beta (8, 20); hyp Gamma (0, 5) and Alpha (5, 10) tie for Alpha (2 + 3 = 3 + 2):
    #    the earlier, Gamma, is taken (score 0); Beta-Beta 1 -> P = R = F = 1/2; 2 of 2 matched.
    # d: the hypothesis has no title: no pair (NaN), 0 matched. e: no reference title: not scored.
    # corpus: the means over shows a, b, c (with a pair), and over a, b, c, d for the fraction.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        result = evaluate(REF, {"sys": HYP}, settings=Settings(bootstrap=50))
    sr = result.systems["sys"]
    shows = sr.shows
    expected = {"a": (0.7, 5 / 6, 25 / 36, 1.0), "b": (0.5, 0.5, 0.5, 2 / 3), "c": (0.5, 0.5, 0.5, 1.0)}
    names = [k for k, _ in KEYS] + ["title_matched_fraction"]
    for show, values in expected.items():
        assert [shows.loc[show, k] for k in names] == pytest.approx(list(values)), show
    assert all(math.isnan(shows.loc["d", k]) for k, _ in KEYS) and shows.loc["d", "title_matched_fraction"] == 0
    assert all(math.isnan(shows.loc["e", k]) for k in names)
    corpus = [sr.corpus[k] for k in names]
    assert corpus == pytest.approx([(0.7 + 1) / 3, (5 / 6 + 1) / 3, (25 / 36 + 1) / 3, (1 + 2 / 3 + 1 + 0) / 4])
    assert [sr.macro[k] for k in names] == pytest.approx(corpus)
    assert set(names) <= set(result.to_json()["systems"]["sys"]["bootstrap"])
    # chunkseg's own function on the same chapters agrees
    for show, (p, r, f, m) in expected.items():
        ref = [(label, seg.start) for seg, _, label in REF[show].itertracks(yield_label=True) if label != "<NA>"]
        hyp = [(label, seg.start) for seg, _, label in HYP[show].itertracks(yield_label=True) if label != "<NA>"]
        end = REF[show].get_timeline().extent().end
        theirs = chunkseg_titles.compute_title_scores(hyp, ref, duration=end)
        assert [theirs[k] for _, k in KEYS] + [theirs["tm_matched"]] == pytest.approx([p, r, f, m]), show
