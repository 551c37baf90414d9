"""``convention="chunkseg"`` and ``tvseg evaluate --chunkseg``: chunkseg 0.4.0's numbers (issue 14).

chunkseg cuts a show into chunks of 6 s from time 0 (``floor(duration / chunk)`` of them, the last
partial chunk dropped), flags the chunk ``int(b / chunk)`` of each boundary ``b``, and hands the flags
to segeval 2.0.11 (Pk, WindowDiff, B) and nltk (GHD). These tests compare tvseg with chunkseg's own
Python API on random shows, and its collar F1 (greedy) with tvseg's maximum matching.
"""

import json
import math
import random
import warnings

import pytest
from pyannote.core import Annotation, Segment

import tvseg
from tvseg.cli import main
from tvseg.errors import UndefinedValueWarning, UsageError
from tvseg.settings import Settings
from tvseg.unit.projection import chunk_flags, chunk_masses
from tvseg.unit.windows import windowdiff

chunkseg = pytest.importorskip("chunkseg")
from chunkseg.core import build_target_sequence  # noqa: E402
from chunkseg.metrics import collar_boundary_f1  # noqa: E402

PAIRS = (
    ("pk", "pk"),
    ("windowdiff", "window_diff"),
    ("b", "boundary_similarity"),
    ("ghd", "ghd"),
    ("chunk_precision", "precision"),
    ("chunk_recall", "recall"),
)


def segmentation(boundaries, duration) -> Annotation:
    edges = [0.0] + sorted(boundaries) + [duration]
    ann = Annotation()
    for i, (a, b) in enumerate(zip(edges, edges[1:])):
        ann[Segment(a, b)] = f"t{i}"
    return ann


def random_show(rng, step, chunk):
    """A duration and two boundary lists on a grid of ``step`` seconds (times as JSON reads them:
    ``i / 10`` is the float of the decimal ``"i/10"``), some shorter than a chunk, some with
    boundaries on chunk edges."""
    scale = round(1 / step)
    ticks = rng.randint(1, int(300 * chunk * scale))
    duration = ticks / scale

    def side():
        if ticks < 2:
            return []
        count = rng.choice([0, 1, 2, 5, 10, 30, 80])
        picks = set(rng.sample(range(1, ticks), min(count, ticks - 1)))
        edges = int(ticks / (chunk * scale))  # chunk edges on the grid, when chunk is a multiple of step
        if edges and rng.random() < 0.3:
            picks.add(min(ticks - 1, round(rng.randint(1, edges) * chunk * scale)))
        return sorted(p / scale for p in picks if 0 < p < ticks)

    return duration, side(), side()


def tvseg_values(shows, chunk):
    """tvseg evaluate's per-show values of ``shows`` (``(duration, reference, hypothesis)`` each) on
    chunkseg's chunks, in one corpus: a dict per show, None for a show it leaves out."""
    names = [f"s{i}" for i in range(len(shows))]
    settings = Settings(units="frames", frame=chunk, convention="chunkseg", bootstrap=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(
            {name: segmentation(r, d) for name, (d, r, _) in zip(names, shows)},
            {"sys": {name: segmentation(h, d) for name, (d, _, h) in zip(names, shows)}},
            settings=settings,
        )
    table = result.systems["sys"].shows
    return [None if math.isnan(table.loc[name, "pk"]) else table.loc[name].to_dict() for name in names]


def test_the_grid_is_chunksegs():
    rng = random.Random(1)
    for _ in range(2000):
        chunk = rng.choice([6.0, 6.0, 2.5, 0.7, 0.3, 10.0])
        duration = rng.randint(1, 3000) / 10
        bounds = [rng.randint(0, 3100) / 10 for _ in range(rng.randint(0, 20))]
        assert (
            chunk_flags(bounds, duration, chunk).tolist()
            == build_target_sequence(duration, [b for b in bounds if b > 0], chunk).astype(bool).tolist()
        )


def test_random_shows_equal_chunkseg_for_pk_windowdiff_b_ghd():
    rng = random.Random(14)
    compared = short = 0
    by_chunk = {}
    for _ in range(1000):
        chunk = rng.choice([6.0] * 7 + [2.5, 0.7, 10.0])
        by_chunk.setdefault(chunk, []).append(random_show(rng, 0.1, chunk))
    for chunk, shows in by_chunk.items():
        for (duration, reference, hypothesis), ours in zip(shows, tvseg_values(shows, chunk)):
            theirs = chunkseg.evaluate(hypothesis, reference, duration, chunk_size=chunk)
            if not theirs:  # shorter than one chunk: chunkseg scores nothing, tvseg leaves the show out
                assert ours is None
                short += 1
                continue
            for key, their_key in PAIRS:
                want = theirs[their_key]
                assert ours[key] == pytest.approx(want, abs=1e-12), (key, duration, reference, hypothesis)
            compared += 1
    assert compared > 900 and short > 0
    assert len(by_chunk[6.0]) > 600


def test_one_chunk_and_no_boundary_are_chunksegs_substitutes():
    # one chunk: segeval counts no Pk window (0) and divides 0 by 0 for WindowDiff (chunkseg: 1 if
    # equal, else 0); no boundary on either side: B has nothing to count (chunkseg: 1)
    # chunk precision and recall: 0 where the hypothesis (the reference) flags no chunk, as chunkseg gives them
    shows = [
        (7.0, [], []),
        (7.0, [3.0], []),
        (11.9, [3.0], [4.0]),
        (60.0, [], []),
        (60.0, [], [13.0]),
        (60.0, [7.0], []),
    ]
    for (duration, reference, hypothesis), ours in zip(shows, tvseg_values(shows, 6.0)):
        theirs = chunkseg.evaluate(hypothesis, reference, duration)
        assert {k: ours[k] for k, _ in PAIRS} == {k: theirs[t] for k, t in PAIRS}
    assert windowdiff((1, 1), (1, 1), convention="chunkseg") == 1.0
    assert windowdiff((1, 1), (2,), convention="chunkseg") == 0.0
    with pytest.warns(tvseg.TvsegWarning):  # segeval's own 0/0, which chunkseg replaces
        assert math.isnan(windowdiff((1, 1), (2,), convention="segeval"))


def test_masses_are_segevals_conversion_of_the_flags():
    import segeval

    ann = segmentation([5.9, 6.0, 13.0, 29.99], 31.0)
    flags = build_target_sequence(31.0, [5.9, 6.0, 13.0, 29.99], 6.0)
    assert tuple(chunk_masses(ann, Segment(0.0, 31.0), 6.0)) == segeval.convert_nltk_to_masses(
        "".join(str(int(v)) for v in flags)
    )


def maximum_matching(reference, hypothesis, tolerance):
    """Points on a line matched within a tolerance: the left-to-right sweep is a maximum matching."""
    i = j = count = 0
    while i < len(reference) and j < len(hypothesis):
        if abs(reference[i] - hypothesis[j]) <= tolerance:
            count, i, j = count + 1, i + 1, j + 1
        elif hypothesis[j] < reference[i]:
            j += 1
        else:
            i += 1
    return count


def test_collar_f1_maximum_matching_against_chunksegs_greedy():
    rng = random.Random(3)
    equal = better = 0
    for _ in range(1000):
        duration = rng.randint(20, 240) / 2  # a 0.5 s grid: float distances are exact
        ticks = int(duration * 2)
        reference = sorted(t / 2 for t in rng.sample(range(1, ticks), rng.randint(1, min(25, ticks - 1))))
        hypothesis = sorted(t / 2 for t in rng.sample(range(1, ticks), rng.randint(1, min(25, ticks - 1))))
        theirs = collar_boundary_f1(reference, hypothesis, 3.0)
        greedy = round(theirs["collar_recall"] * len(reference))
        ours = tvseg.boundaries(segmentation(reference, duration), segmentation(hypothesis, duration), tolerance=3)
        best = maximum_matching(reference, hypothesis, 3.0)
        assert ours.n_matched == best >= greedy
        f1 = ours.f1 if ours.n_matched else 0.0
        if greedy == best:
            assert f1 == pytest.approx(theirs["collar_f1"], abs=1e-12)
            equal += 1
        else:
            assert f1 > theirs["collar_f1"]
            better += 1
    assert equal > 500 and better > 10, (equal, better)


def write_jsonl(path, rng, count):
    records = []
    for i in range(count):
        duration, reference, hypothesis = random_show(rng, 0.1, 6.0)
        records.append({"show": f"show{i:02d}", "reference": reference, "hypothesis": hypothesis, "duration": duration})
    records.append({"show": "short", "reference": [2.0], "hypothesis": [], "duration": 5.5})
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return records


def test_evaluate_chunkseg_file_gives_chunksegs_numbers(tmp_path):
    path, out = tmp_path / "samples.jsonl", tmp_path / "out.json"
    records = write_jsonl(path, random.Random(7), 30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(
            [
                "evaluate",
                "--chunkseg",
                str(path),
                "--frame",
                "6",
                "--convention",
                "chunkseg",
                "--json",
                str(out),
                "--bootstrap",
                "0",
            ]
        )
    assert code == 0
    system = json.loads(out.read_text())["systems"]["hypothesis"]
    shows = system["shows"]
    theirs = {}
    for r in records:
        theirs[r["show"]] = chunkseg.evaluate(r["hypothesis"], r["reference"], r["duration"])
        if not theirs[r["show"]]:
            assert r["show"] == "short" and all(shows["short"].get(k) is None for k, _ in PAIRS)
            continue
        for key, their_key in PAIRS:
            assert shows[r["show"]][key] == pytest.approx(theirs[r["show"]][their_key], abs=1e-12), (r["show"], key)
    # chunkseg's reported means (over the shows it scores) are tvseg's macro values
    batch = chunkseg.evaluate_batch(
        [{k: r[k] for k in ("hypothesis", "reference", "duration")} for r in records], num_bootstrap=1
    )
    for key, their_key in PAIRS:
        assert system["macro"][key] == pytest.approx(batch[their_key]["mean"], abs=1e-12)
    assert system["corpus"]["ghd"] == pytest.approx(batch["ghd"]["mean"], abs=1e-12)
    # chunkseg's f1 is the harmonic mean of the mean precision and the mean recall: tvseg's corpus chunk_f1
    assert system["corpus"]["chunk_f1"] == pytest.approx(batch["f1"]["mean"], abs=1e-12)
    assert system["macro"]["chunk_f1"] != pytest.approx(batch["f1"]["mean"], abs=1e-6)


def test_chunkseg_option_excludes_reference_and_hypothesis(tmp_path, capsys):
    path = tmp_path / "s.jsonl"
    write_jsonl(path, random.Random(0), 2)
    assert main(["evaluate", "--chunkseg", str(path), "--reference", str(path)]) == 2
    assert main(["evaluate", "--chunkseg", str(path), "--hypothesis", f"x={path}"]) == 2
    assert "--chunkseg" in capsys.readouterr().err


def test_a_jsonl_hypothesis_is_read_on_its_hypothesis_side(tmp_path):
    path, out = tmp_path / "s.jsonl", tmp_path / "o.json"
    records = write_jsonl(path, random.Random(5), 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert (
            main(
                [
                    "evaluate",
                    "--reference",
                    str(path),
                    "--hypothesis",
                    f"mine={path}",
                    "--frame",
                    "6",
                    "--convention",
                    "chunkseg",
                    "--json",
                    str(out),
                    "--bootstrap",
                    "0",
                ]
            )
            == 0
        )
    shows = json.loads(out.read_text())["systems"]["mine"]["shows"]
    r = records[0]
    assert shows[r["show"]]["pk"] == pytest.approx(
        chunkseg.evaluate(r["hypothesis"], r["reference"], r["duration"])["pk"]
    )


def test_chunkseg_convention_refuses_units_from_a_file():
    ref = {"a": segmentation([10.0], 30.0)}
    units = {"a": __import__("pandas").DataFrame({"start": [0.0, 10.0, 20.0], "end": [10.0, 20.0, 30.0]})}
    with pytest.raises(UsageError, match="chunkseg"):
        tvseg.evaluate(ref, {"h": ref}, units=units, settings=Settings(convention="chunkseg", bootstrap=0))


def test_grid_from_zero_to_the_regions_end():
    # a region starting after 0 (a UEM): the chunks still start at 0, as chunkseg's, and end at its end
    ann = segmentation([20.0, 40.0], 61.0)
    masses = chunk_masses(ann.crop(Segment(15.0, 61.0)), Segment(15.0, 61.0), 6.0)
    assert tuple(masses) == (4, 3, 4)  # 10 chunks (61 // 6), boundaries in chunks 3 and 6


def test_a_side_without_a_flagged_chunk_is_named_and_scored_as_chunkseg_scores_it():
    # s0: the reference flags chunks 2 and 6, the hypothesis 2 (P 1, R 1/2); s1: the hypothesis flags none
    # (P 0/0), s2: the reference none (R 0/0): chunkseg's 0 in each, named by one warning per metric; s3: the
    # reference flags chunk 2, the hypothesis 2 and 6 (P 1/2, R 1)
    shows = {
        "s0": (60.0, [13.0, 40.0], [14.0]),
        "s1": (60.0, [13.0], []),
        "s2": (60.0, [], [13.0]),
        "s3": (60.0, [13.0], [13.0, 40.0]),
    }
    settings = Settings(units="frames", frame=6.0, convention="chunkseg", bootstrap=0)
    with pytest.warns(UndefinedValueWarning) as caught:
        result = tvseg.evaluate(
            {name: segmentation(r, d) for name, (d, r, _) in shows.items()},
            {"sys": {name: segmentation(h, d) for name, (d, _, h) in shows.items()}},
            settings=settings,
        )
    messages = [str(w.message) for w in caught]
    assert (
        "sys: chunk_precision is 0/0 in 1 show (the hypothesis flags no chunk: s1): 0 there, as chunkseg's "
        "binary_precision gives it, in the show's value and in the means over shows" in messages
    )
    assert any(m.startswith("sys: chunk_recall is 0/0 in 1 show (the reference flags no chunk: s2)") for m in messages)
    table = result.systems["sys"].shows
    assert table["chunk_precision"].tolist() == [1.0, 0.0, 0.0, 0.5]
    assert table["chunk_recall"].tolist() == [0.5, 0.0, 0.0, 1.0]
    # mean P = mean R = 3/8, so chunkseg's f1 is 3/8 (the corpus value); the shows' own F are 2/3, 0, 0, 2/3,
    # their mean 1/3 (the macro value)
    corpus = result.systems["sys"].corpus
    assert corpus["chunk_precision"] == corpus["chunk_recall"] == 3 / 8
    assert corpus["chunk_f1"] == pytest.approx(3 / 8, abs=1e-15)
    assert result.systems["sys"].macro["chunk_f1"] == pytest.approx(1 / 3, abs=1e-15)
    batch = chunkseg.evaluate_batch(
        [{"hypothesis": h, "reference": r, "duration": d} for d, r, h in shows.values()], num_bootstrap=1
    )
    assert corpus["chunk_f1"] == pytest.approx(batch["f1"]["mean"], abs=1e-12)
    # under another convention there are no chunk flags: no such entry
    other = Settings(units="frames", frame=6.0, convention="segeval", bootstrap=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = tvseg.evaluate(
            {name: segmentation(r, d) for name, (d, r, _) in shows.items()},
            {"sys": {name: segmentation(h, d) for name, (d, _, h) in shows.items()}},
            settings=other,
        )
    assert not {"chunk_precision", "chunk_recall", "chunk_f1"} & set(plain.systems["sys"].corpus)
