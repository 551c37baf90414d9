"""Hierarchical references (tvseg.readers.levels): a level per reference segment (Wiki-727K's headers, a CSV
column read with ``--columns ...,level=COL``, a JSON segmentation's ``level`` fields) and ``--level N``
(``Settings(level=N)``, ``read_segments(level=N)``): the reference at level N keeps the boundaries of the
segments of level <= N. Expected values are computed by hand (in the comments, with Fractions) or by nltk on
the hand-written boundary strings."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction
from pathlib import Path

import pytest

import tvseg
from tvseg.cli import main
from tvseg.errors import InputError, UsageError
from tvseg.readers import read_segments, segment_levels

nltk_segmentation = pytest.importorskip("nltk.metrics.segmentation")

# A Wiki-727K document with stories (level 1) and sub-stories (level 2); the preface is left out at
# every level. Its 8 sentences, numbered 1..8 after the preface:
#   Alpha (1)          a1 a2          -> sentences 1, 2
#     Alpha sub (2)    a3 a4          -> 3, 4
#   Beta (1)           b1             -> 5
#     Beta one (2)     b2 b3          -> 6, 7
#     Beta two (2)     b4             -> 8
# level 1: Alpha = 1..4, Beta = 5..8            masses 4 4       boundary after sentence 4
# level 2: 1..2, 3..4, 5, 6..7, 8               masses 2 2 1 2 1 boundaries after 2, 4, 5, 7
REFERENCE = """\
========,1,preface.
Intro sentence.
========,1,Alpha.
a1.
a2.
========,2,Alpha sub.
a3.
a4.
========,1,Beta.
b1.
========,2,Beta one.
b2.
b3.
========,2,Beta two.
b4.
"""
# the system's segments: masses 3 5 (a boundary after sentence 3)
HYPOTHESIS = """\
========,1,preface.
Intro sentence.
========,1,x.
a1.
a2.
a3.
========,1,y.
a4.
b1.
b2.
b3.
b4.
"""


def wiki_corpus(tmp_path: Path) -> tuple[Path, Path]:
    ref, hyp = tmp_path / "ref", tmp_path / "hyp"
    ref.mkdir()
    hyp.mkdir()
    (ref / "doc").write_text(REFERENCE, encoding="utf-8")
    (hyp / "doc").write_text(HYPOTHESIS, encoding="utf-8")
    return ref, hyp


def run_json(tmp_path: Path, args: list[str], name: str = "scores.json") -> dict:
    out = tmp_path / name
    assert main(["evaluate", *args, "--bootstrap", "0", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    del data["run_id"]  # one per run
    return data


def masses(columns, show: str) -> list[int]:
    rows = columns.rows(show)
    return [int(b - a) for a, b in zip(columns.start[rows], columns.end[rows])]


def test_wiki727k_reference_at_each_level(tmp_path):
    ref, _ = wiki_corpus(tmp_path)
    assert masses(read_segments(ref, format="wiki727k", level=1), "doc") == [4, 4]
    assert list(read_segments(ref, format="wiki727k", level=1).label) == ["Alpha", "Beta"]
    assert masses(read_segments(ref, format="wiki727k", level=2), "doc") == [2, 2, 1, 2, 1]
    # no level: the loader's reading (levels 1-2); deeper levels than the document has change nothing
    assert masses(read_segments(ref, format="wiki727k"), "doc") == [2, 2, 1, 2, 1]
    assert masses(read_segments(ref, format="wiki727k", level=5), "doc") == [2, 2, 1, 2, 1]
    assert segment_levels(ref, format="wiki727k") == [1, 2]


def test_wiki727k_level_three_header_and_the_preface():
    from tvseg.readers.text_corpora import wiki727k_segments

    lines = [
        "========,1,preface.",
        "p.",
        "========,2,A.",
        "a.",
        "========,3,A1.",
        "b.",
        "========,2,B.",
        "c.",
    ]
    # levels 1-2 (the loader's WikipediaDataSet reading): the level-3 header is removed
    assert wiki727k_segments(lines) == [("A", 4, [4, 6]), ("B", 8, [8])]
    # level 3: it opens a segment (the loader's high_granularity=True reading)
    assert wiki727k_segments(lines, level=3) == [("A", 4, [4]), ("A1", 6, [6]), ("B", 8, [8])]
    # level 1: the first header after the preface opens the one segment, whatever its level
    assert wiki727k_segments(lines, level=1) == [("A", 4, [4, 6, 8])]


def test_wiki727k_pk_windowdiff_at_level_1_and_2(tmp_path):
    ref, hyp = wiki_corpus(tmp_path)
    common = ["--reference", str(ref), "--hypothesis", f"sys={hyp}", "--format", "wiki727k", "--convention", "nltk"]
    hypothesis = "0010000"  # masses 3 5: one character per gap between two sentences
    # level 1: reference "0001000"; nltk's k = round(7 / (2 * 1)) = round(3.5) = 4; the 4 windows
    # [0:4] [1:5] [2:6] [3:7]: a boundary in both, both, both, the reference only -> Pk = 1/4; boundary
    # counts 1 1 1 0 against 1 1 1 1 -> WindowDiff = 1/4
    # level 2: reference "0101101"; k = round(7 / (2 * 4)) = round(0.875) = 1; the 7 gaps differ at
    # positions 1, 2, 3, 4, 6 -> Pk = WindowDiff = 5/7
    for level, reference, pk in (("1", "0001000", Fraction(1, 4)), ("2", "0101101", Fraction(5, 7))):
        data = run_json(tmp_path, [*common, "--level", level], f"level{level}.json")
        got = data["systems"]["sys"]["shows"]["doc"]
        k = int(round(len(reference) / (reference.count("1") * 2.0)))
        assert got["pk"] == pytest.approx(float(pk), abs=1e-12)
        assert got["windowdiff"] == pytest.approx(float(pk), abs=1e-12)
        assert got["pk"] == pytest.approx(nltk_segmentation.pk(reference, hypothesis), abs=1e-12)
        assert got["windowdiff"] == pytest.approx(nltk_segmentation.windowdiff(reference, hypothesis, k), abs=1e-12)
        assert data["settings"]["level"] == int(level)
        assert f"|level:{level}|" in data["signature"]
    # the boundaries the reference holds at each level: 1, then 4
    assert len(read_segments(ref, format="wiki727k", level=1).start) - 1 == 1
    assert len(read_segments(ref, format="wiki727k", level=2).start) - 1 == 4


def test_level_all_gives_each_level_and_the_usual_run(tmp_path, capsys):
    ref, hyp = wiki_corpus(tmp_path)
    common = ["--reference", str(ref), "--hypothesis", f"sys={hyp}", "--format", "wiki727k", "--convention", "nltk"]
    plain = run_json(tmp_path, common, "plain.json")
    every = run_json(tmp_path, [*common, "--level", "all"], "all.json")
    levels = every.pop("levels")
    assert every == plain  # the usual run, unchanged
    assert list(levels) == ["1", "2"]
    for level in ("1", "2"):
        alone = run_json(tmp_path, [*common, "--level", level], f"alone{level}.json")
        assert levels[level]["signature"] == alone["signature"]
        assert levels[level]["shows"] == 1
        assert levels[level]["systems"]["sys"]["corpus"] == alone["systems"]["sys"]["corpus"]
        assert levels[level]["systems"]["sys"]["macro"] == alone["systems"]["sys"]["macro"]
    assert levels["1"]["systems"]["sys"]["corpus"]["pk"] == pytest.approx(1 / 4, abs=1e-12)
    assert levels["2"]["systems"]["sys"]["corpus"]["pk"] == pytest.approx(5 / 7, abs=1e-12)
    out = capsys.readouterr().out
    assert "level 1:" in out and "level 2:" in out


def test_wiki727k_without_level_equals_level_2_but_its_signature(tmp_path):
    ref, hyp = wiki_corpus(tmp_path)
    common = ["--reference", str(ref), "--hypothesis", f"sys={hyp}", "--format", "wiki727k"]
    plain = run_json(tmp_path, common, "plain.json")
    two = run_json(tmp_path, [*common, "--level", "2"], "two.json")
    assert "level" not in plain["settings"] and "level:" not in plain["signature"]
    assert plain["systems"] == two["systems"]
    assert plain["signature"] != two["signature"]


# A time-domain reference with a level column: story B (100-200 s) holds a sub-story from 160 s.
#   level 1: [0, 100) [100, 200) [200, 300)          level 2: [0, 100) [100, 160) [160, 200) [200, 300)
# The system: [0, 100) [100, 200) [200, 300).
# Coverage of a pair = 2 * overlap / (duration + partner's duration), correct when > 0.85.
# level 1: every segment of both sides has an identical partner: R_N = P_N = CovN = 1.
# level 2: reference [100, 160) with [100, 200): 2 * 60 / 160 = 0.75; [160, 200) with [100, 200):
#   2 * 40 / 140 = 0.57; the other two 1 -> R_N = 2/4. System [100, 200)'s best partner (largest
#   overlap) is [100, 160): 0.75 -> P_N = 2/3. CovN = 2 * (1/2) * (2/3) / (1/2 + 2/3) = 4/7.
REFERENCE_CSV = """\
programme,from,to,story,depth
news,0,100,A,1
news,100,160,B,1
news,160,200,B detail,2
news,200,300,C,1
"""
PLAIN_CSV = """\
show,start,end,label
news,0,100,A
news,100,160,B
news,160,200,B detail
news,200,300,C
"""
HYPOTHESIS_CSV = """\
show,start,end,label
news,0,100,x
news,100,200,y
news,200,300,z
"""
MAPPING = "reference:show=programme,start=from,end=to,title=story"


def csv_files(tmp_path: Path) -> tuple[Path, Path, Path]:
    paths = tmp_path / "ref.csv", tmp_path / "plain.csv", tmp_path / "hyp.csv"
    for path, text in zip(paths, (REFERENCE_CSV, PLAIN_CSV, HYPOTHESIS_CSV)):
        path.write_text(text, encoding="utf-8")
    return paths


def test_csv_level_column_covn_at_level_1_and_2(tmp_path):
    ref, _, hyp = csv_files(tmp_path)
    common = ["--reference", str(ref), "--hypothesis", f"sys={hyp}", "--columns", MAPPING + ",level=depth"]
    expected = {"1": (Fraction(1), Fraction(1), Fraction(1)), "2": (Fraction(1, 2), Fraction(2, 3), Fraction(4, 7))}
    for level, (recall, precision, cov_n) in expected.items():
        corpus = run_json(tmp_path, [*common, "--level", level], f"l{level}.json")["systems"]["sys"]["corpus"]
        assert corpus["recall_n"] == pytest.approx(float(recall), abs=1e-12)
        assert corpus["precision_n"] == pytest.approx(float(precision), abs=1e-12)
        assert corpus["cov_n"] == pytest.approx(float(cov_n), abs=1e-12)


def test_no_level_given_the_json_is_that_of_the_file_without_levels(tmp_path):
    ref, plain, hyp = csv_files(tmp_path)
    with_levels = run_json(
        tmp_path,
        ["--reference", str(ref), "--hypothesis", f"sys={hyp}", "--columns", MAPPING + ",level=depth"],
        "a.json",
    )
    without = run_json(tmp_path, ["--reference", str(plain), "--hypothesis", f"sys={hyp}"], "b.json")
    assert with_levels == without
    assert "level" not in without["settings"]


def test_json_level_fields(tmp_path):
    path = tmp_path / "ref.json"
    path.write_text(
        json.dumps(
            {
                "news": [
                    {"start": 0, "end": 50, "title": "A", "level": 1},
                    {"start": 60, "end": 100, "title": "A after the break", "level": 2},
                    {"start": 100, "end": 130, "title": "B", "level": 1},
                ]
            }
        ),
        encoding="utf-8",
    )
    # level 1: the sub-story after a gap joins its story over the gap, keeping the story's label
    level1 = read_segments(path, level=1)
    assert (level1.start.tolist(), level1.end.tolist(), list(level1.label)) == ([0, 100], [100, 130], ["A", "B"])
    level2 = read_segments(path, level=2)
    assert level2.start.tolist() == [0, 60, 100]
    plain = read_segments(path)
    assert plain.start.tolist() == [0, 60, 100] and plain.end.tolist() == [50, 100, 130]
    assert segment_levels(path) == [1, 2]


def test_the_first_segment_of_a_show_opens_it_at_every_level(tmp_path):
    path = tmp_path / "ref.json"
    path.write_text(json.dumps({"s": [{"start": 0, "end": 5, "level": 2}, {"start": 5, "end": 9, "level": 2}]}))
    columns = read_segments(path, level=1)
    assert (columns.start.tolist(), columns.end.tolist()) == ([0], [9])


@pytest.mark.filterwarnings("ignore:sys. no short")  # every segment is long: by_length.short is NaN
def test_settings_and_python_reading_give_the_numbers_of_the_command(tmp_path):
    ref, _, hyp = csv_files(tmp_path)
    reference = read_segments(ref, columns=MAPPING.partition(":")[2] + ",level=depth", level=2)
    result = tvseg.evaluate(
        reference=reference, hypotheses={"sys": read_segments(hyp)}, settings=tvseg.Settings(level=2, bootstrap=0)
    )
    assert result.systems["sys"].corpus["cov_n"] == pytest.approx(4 / 7, abs=1e-12)
    assert "|level:2|" in result.settings.signature()


def test_level_errors(tmp_path, capsys):
    ref, plain, hyp = csv_files(tmp_path)
    # a reference without levels
    assert main(["evaluate", "--reference", str(plain), "--hypothesis", f"sys={hyp}", "--level", "1"]) == 2
    err = capsys.readouterr().err
    assert str(plain) in err and "--level needs a reference with levels" in err
    with pytest.raises(InputError, match="--level needs"):
        read_segments(plain, level=1)
    # a level that is not a positive integer: the file, the line and the value
    bad = tmp_path / "bad.csv"
    bad.write_text(REFERENCE_CSV.replace("160,200,B detail,2", "160,200,B detail,two"), encoding="utf-8")
    with pytest.raises(InputError, match="not a level") as caught:
        read_segments(bad, columns=MAPPING.partition(":")[2] + ",level=depth")
    assert caught.value.line == 4 and "two" in str(caught.value)
    # the option
    for value in ("0", "x", "-1"):
        assert main(["evaluate", "--reference", str(ref), "--hypothesis", f"sys={hyp}", "--level", value]) == 2
        assert "--level must be a positive integer or all" in capsys.readouterr().err
    with pytest.raises(UsageError):
        tvseg.Settings(level=0)
    # a JSON segmentation whose segments do not all have a level
    path = tmp_path / "partial.json"
    path.write_text('{"s": [\n{"start": 0, "end": 5, "level": 1},\n{"start": 5, "end": 9}\n]}\n', encoding="utf-8")
    with pytest.raises(InputError, match="has no 'level'") as caught:
        read_segments(path, level=1)
    assert caught.value.line == 3


# A JSON reference of three levels over two shows, with a UEM that cuts show "s" at 200 s and a time origin:
# the files are read once for every level (read_segment_levels), each level as read_segments reads it alone.
THREE_LEVELS = {
    "s": [
        {"start": 10, "end": 60, "title": "A", "level": 1},
        {"start": 60, "end": 90, "title": "A.1", "level": 2},
        {"start": 90, "end": 120, "title": "A.1.a", "level": 3},
        {"start": 130, "end": 180, "title": "B", "level": 1},
        {"start": 180, "end": 250, "title": "B.1", "level": 3},
    ],
    "t": [
        {"start": 0, "end": 40, "title": "C", "level": 2},
        {"start": 40, "end": 100, "title": "D", "level": 3},
        {"start": 100, "end": 160, "title": "E", "level": 1},
    ],
}


def three_levels(tmp_path: Path) -> tuple[Path, Path, Path]:
    ref, hyp, uem = tmp_path / "ref.json", tmp_path / "hyp.rttm", tmp_path / "s.uem"
    ref.write_text(json.dumps(THREE_LEVELS), encoding="utf-8")
    hyp.write_text(
        "".join(
            f"SPEAKER {show} 1 {a} {b - a} <NA> <NA> x <NA> <NA>\n"
            for show, cuts in (("s", (10, 70, 125, 200)), ("t", (0, 50, 100, 160)))
            for a, b in zip(cuts[:-1], cuts[1:])
        ),
        encoding="utf-8",
    )
    uem.write_text("s 1 10 200\n", encoding="utf-8")
    return ref, hyp, uem


def test_level_all_in_processes_reads_once_and_gives_the_run_of_one_process(tmp_path, count_reads, capsys):
    # --jobs 2 scores each level in shards on the same two processes: the same JSON and warnings as one
    # process, the reference file read once for every level
    import tvseg.readers

    ref, hyp, uem = three_levels(tmp_path)
    reads = count_reads(tvseg.readers, "read_segment_levels")
    common = ["--reference", str(ref), "--hypothesis", f"sys={hyp}", "--hypothesis", f"two={hyp}", "--uem", str(uem)]
    one = resampled_json(tmp_path, [*common, "--level", "all"], "one.json")
    said = capsys.readouterr()
    two = resampled_json(tmp_path, [*common, "--level", "all", "--jobs", "2"], "two.json")
    assert two == one and list(one["levels"]) == ["1", "2", "3"]
    assert capsys.readouterr() == said
    assert reads == {"ref.json": 2}  # once a run


def test_every_level_read_at_once_is_each_level_read_alone(tmp_path):
    from tvseg.readers import read_segment_levels

    ref, _, uem_path = three_levels(tmp_path)
    uem = tvseg.read_uem(str(uem_path))
    for options in ({}, {"uem": uem}, {"time_origin": {"s": 10.0}}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the UEM's warnings, given by each reading
            found = read_segment_levels(ref, **options)
            alone = {level: read_segments(ref, level=level, **options) for level in (None, 1, 2, 3)}
        assert list(found) == [None, 1, 2, 3] and segment_levels(ref) == [1, 2, 3]
        for level, columns in alone.items():
            got = found[level]
            assert list(got.names) == list(columns.names)
            assert got.start.tolist() == columns.start.tolist() and got.end.tolist() == columns.end.tolist()
            assert list(got.label) == list(columns.label)
    # by hand, without options: level 1 joins A's sub-stories (10-120), t's first segment opens it
    one = read_segment_levels(ref)[1]
    assert one.start.tolist() == [10, 130, 0, 100] and one.end.tolist() == [120, 250, 100, 160]


def test_every_level_of_a_reference_without_levels_is_refused(tmp_path):
    from tvseg.readers import read_segment_levels

    _, hyp, _ = three_levels(tmp_path)
    with pytest.raises(InputError, match="--level needs"):
        read_segment_levels(hyp)


def resampled_json(tmp_path: Path, args: list[str], name: str) -> dict:
    """:func:`run_json` with 50 bootstrap resamples."""
    out = tmp_path / name
    assert main(["evaluate", *args, "--bootstrap", "50", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    del data["run_id"]
    return data


def test_level_all_gives_the_runs_of_each_level(tmp_path, capsys):
    ref, hyp, uem = three_levels(tmp_path)
    for extra in ([], ["--uem", str(uem)]):
        common = ["--reference", str(ref), "--hypothesis", f"sys={hyp}", "--hypothesis", f"two={hyp}", *extra]
        every = resampled_json(tmp_path, [*common, "--level", "all"], "all.json")
        levels = every.pop("levels")
        assert every == resampled_json(tmp_path, common, "plain.json")  # the usual run
        assert list(levels) == ["1", "2", "3"]
        for level in levels:
            alone = resampled_json(tmp_path, [*common, "--level", level], f"alone{level}.json")
            assert alone["systems"]["sys"]["bootstrap"]  # intervals drawn
            assert levels[level]["signature"] == alone["signature"]
            assert levels[level]["shows"] == 2
            for name in ("sys", "two"):
                for key in ("corpus", "macro", "bootstrap"):
                    assert levels[level]["systems"][name][key] == alone["systems"][name][key]
    capsys.readouterr()
