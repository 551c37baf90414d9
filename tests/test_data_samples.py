"""The bundled corpus ``data_samples/`` meets its specification (issue 2).

Every file is parsed here independently of tvseg's readers: plain Python,
pandas, ``pyannote.database.util.load_rttm`` and webvtt-py.  The numbers
checked (3+ channels, 6+ shows of 10 to 30 minutes, 8 to 25 segments, breath
groups of 1 to 6 s, ...) are the specification's, not values read back from
the generator.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import webvtt
from pyannote.database.util import load_rttm

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tvseg" / "data_samples"
SCRIPT = ROOT / "scripts" / "make_data_samples.py"
SHORT = 30.0  # seconds: Bouchekif et al.'s short/long threshold


def ms(seconds: float) -> int:
    return round(seconds * 1000)


def rttm_segments(path: Path) -> dict[str, list[tuple[int, int, object]]]:
    """{show: [(start_ms, end_ms, label)]} through pyannote.database's own RTTM loader."""
    out = {}
    for uri, annotation in load_rttm(path, keep_type="SEGMENT").items():
        out[uri] = sorted((ms(s.start), ms(s.end), label) for s, _, label in annotation.itertracks(yield_label=True))
    return out


def vtt_cues(path: Path) -> list[tuple[int, int, str]]:
    return [(c.start_time.in_milliseconds(), c.end_time.in_milliseconds(), c.text) for c in webvtt.read(str(path))]


def srt_cues(path: Path) -> list[tuple[int, int, str]]:
    return [(c.start_time.in_milliseconds(), c.end_time.in_milliseconds(), c.text) for c in webvtt.from_srt(str(path))]


def assert_no_overlap(segments, where):
    for (s1, e1, *_), (s2, e2, *_) in zip(segments[:-1], segments[1:]):
        assert s1 < e1 <= s2 < e2, f"{where}: [{s1}, {e1}] then [{s2}, {e2}] (ms)"


def boundaries(segments) -> set[int]:
    """Every start and end of a segment list, in ms."""
    return {t for s, e, *_ in segments for t in (s, e)}


@pytest.fixture(scope="module")
def metadata() -> pd.DataFrame:
    return pd.read_csv(DATA / "metadata.csv", dtype=str, keep_default_na=False)


@pytest.fixture(scope="module")
def shows(metadata) -> list[str]:
    return list(metadata["show"])


@pytest.fixture(scope="module")
def reference() -> dict:
    return rttm_segments(DATA / "reference" / "reference.rttm")


@pytest.fixture(scope="module")
def groups() -> pd.DataFrame:
    frame = pd.read_csv(
        DATA / "units" / "breath_groups.csv", dtype={"show": str, "start": str, "end": str}, keep_default_na=False
    )
    # times to integer ms from their decimal text, so nothing is lost to floats
    for column in ("start", "end"):
        assert frame[column].str.fullmatch(r"\d+\.\d{3}").all(), column
        frame[column + "_ms"] = frame[column].str.replace(".", "", regex=False).astype(int)
    return frame


def test_generator_reproduces_the_committed_files_byte_for_byte(tmp_path):
    out = tmp_path / "data_samples"
    subprocess.run([sys.executable, str(SCRIPT), "--out", str(out)], check=True, capture_output=True)
    committed = sorted(p.relative_to(DATA).as_posix() for p in DATA.rglob("*") if p.is_file())
    generated = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert generated == committed
    for relative in committed:
        assert (out / relative).read_bytes() == (DATA / relative).read_bytes(), relative


def test_corpus_is_small():
    total = sum(p.stat().st_size for p in DATA.rglob("*") if p.is_file())
    assert total < 2 * 1024 * 1024, total


def test_metadata_names_at_least_three_channels_and_six_shows(metadata):
    assert list(metadata.columns) == ["show", "channel", "programme", "date"]
    assert metadata["show"].is_unique
    assert metadata["channel"].nunique() >= 3
    assert 6 <= len(metadata) <= 8
    for show in metadata["show"]:
        assert re.fullmatch(r"[a-z0-9_\-]+", show), show
    assert pd.to_datetime(metadata["date"], format="%Y-%m-%d").notna().all()


def test_every_file_covers_the_same_shows(shows, reference, groups):
    assert set(reference) == set(shows)
    assert {p.stem for p in (DATA / "reference" / "chapters").glob("*.vtt")} == set(shows)
    assert {p.stem for p in (DATA / "hypotheses" / "system_b").glob("*.vtt")} == set(shows)
    assert set(rttm_segments(DATA / "hypotheses" / "system_a.rttm")) == set(shows)
    assert set(groups["show"]) == set(shows)


def test_rttm_lines_follow_the_layout():
    pattern = re.compile(r"SEGMENT [a-z0-9_\-]+ 1 \d+\.\d{3} \d+\.\d{3} <NA> <NA> \S+ <NA> <NA>")
    for path in (DATA / "reference" / "reference.rttm", DATA / "hypotheses" / "system_a.rttm"):
        text = path.read_text(encoding="utf-8")
        assert text.endswith("\n") and "\r" not in text
        for number, line in enumerate(text.splitlines(), 1):
            assert pattern.fullmatch(line), f"{path.name}:{number}: {line!r}"


def test_reference_shows_are_10_to_30_minutes_with_8_to_25_segments(reference):
    for show, segments in reference.items():
        assert_no_overlap(segments, show)
        extent = (segments[-1][1] - segments[0][0]) / 1000
        assert 600 <= extent <= 1800, (show, extent)
        assert 8 <= len(segments) <= 25, (show, len(segments))
        durations = [(e - s) / 1000 for s, e, _ in segments]
        assert any(d < SHORT for d in durations), show
        assert any(d >= SHORT for d in durations), show
        assert all(isinstance(label, str) and label for _, _, label in segments), show


def test_reference_mixes_briefs_long_reports_and_gaps(reference):
    durations = [(e - s) / 1000 for segments in reference.values() for s, e, _ in segments]
    assert any(d >= 90 for d in durations) and any(10 <= d < 30 for d in durations)
    gaps = sum(1 for segments in reference.values() for a, b in zip(segments[:-1], segments[1:]) if b[0] > a[1])
    assert gaps >= 1


def test_chapters_vtt_equal_the_rttm_reference_to_the_millisecond(reference):
    for show, segments in reference.items():
        cues = vtt_cues(DATA / "reference" / "chapters" / f"{show}.vtt")
        expected = [(s, e, label.replace("_", " ")) for s, e, label in segments]
        assert cues == expected, show


def test_titles_use_unicode(reference):
    labels = [label for segments in reference.values() for _, _, label in segments]
    assert any(not label.isascii() for label in labels)


def test_uem_is_the_extent_of_each_reference_show(shows, reference):
    lines = (DATA / "corpus.uem").read_text(encoding="utf-8").splitlines()
    uem = {}
    for line in lines:
        show, channel, start, end = line.split()
        assert channel == "1" and re.fullmatch(r"\d+\.\d{3}", start) and re.fullmatch(r"\d+\.\d{3}", end)
        uem[show] = (ms(float(start)), ms(float(end)))
    assert list(uem) == shows
    for show, segments in reference.items():
        start, end = uem[show]
        # the evaluated region holds the whole reference, at most a few seconds wider
        assert start <= segments[0][0] and segments[-1][1] <= end, show
        assert segments[0][0] - start <= 5000 and end - segments[-1][1] <= 5000, show


def test_breath_groups_last_1_to_6_seconds_and_carry_text(groups):
    assert list(groups.columns[:6]) == ["show", "start", "end", "text", "speaker", "topic"]
    duration = groups["end_ms"] - groups["start_ms"]
    assert duration.between(1000, 6000).all(), groups[~duration.between(1000, 6000)]
    for column in ("text", "speaker", "topic"):
        assert (groups[column].str.strip() != "").all(), column
    assert groups["text"].nunique() > 300  # plausible text, not one sentence repeated


def test_breath_groups_tile_every_reference_segment(groups, reference):
    """Consecutive rows with one topic form exactly the reference segment of that title."""
    for show, frame in groups.groupby("show", sort=False):
        rows = list(zip(frame["start_ms"], frame["end_ms"], frame["topic"]))
        assert_no_overlap(rows, show)
        runs = []
        for start, end, topic in rows:
            if runs and runs[-1][2] == topic:
                assert runs[-1][1] == start, f"{show}: hole inside topic {topic!r} at {start} ms"
                runs[-1][1] = end
            else:
                runs.append([start, end, topic])
        expected = [[s, e, label.replace("_", " ")] for s, e, label in reference[show]]
        assert runs == expected, show


def test_system_a_covers_the_reference_extent_and_is_close_to_it(reference, groups):
    system_a = rttm_segments(DATA / "hypotheses" / "system_a.rttm")
    near = total = on_edges = n_boundaries = 0
    n_na = n_same_title = n_segments = 0
    for show, ref in reference.items():
        hyp = system_a[show]
        assert_no_overlap(hyp, show)
        assert (hyp[0][0], hyp[-1][1]) == (ref[0][0], ref[-1][1]), show
        assert hyp != ref, show
        edges = set(groups.loc[groups["show"] == show, "start_ms"]) | set(groups.loc[groups["show"] == show, "end_ms"])
        inner = sorted(boundaries(hyp) - {hyp[0][0], hyp[-1][1]})
        on_edges += sum(t in edges for t in inner)
        n_boundaries += len(inner)
        reference_inner = sorted(boundaries(ref) - {ref[0][0], ref[-1][1]})
        near += sum(any(abs(r - h) <= 10000 for h in inner) for r in reference_inner)
        total += len(reference_inner)
        titles = {label for _, _, label in ref}
        for _, _, label in hyp:
            n_segments += 1
            # load_rttm reads <NA> as a missing value
            n_na += isinstance(label, float) and math.isnan(label)
            n_same_title += label in titles
    assert near / total >= 0.8  # most reference boundaries have a system A boundary within 10 s
    assert near < total  # but not all
    assert on_edges / n_boundaries >= 0.8 and on_edges < n_boundaries
    assert n_na >= 3
    assert n_same_title / n_segments >= 0.5 and n_same_title + n_na < n_segments


def test_system_b_covers_the_reference_extent_and_is_worse_than_a(reference):
    system_a = rttm_segments(DATA / "hypotheses" / "system_a.rttm")

    def near_fraction(system):
        near = total = 0
        for show, ref in reference.items():
            inner = boundaries(system[show]) - {ref[0][0], ref[-1][1]}
            for r in boundaries(ref) - {ref[0][0], ref[-1][1]}:
                near += any(abs(r - h) <= 10000 for h in inner)
                total += 1
        return near / total

    system_b, wrong_titles = {}, 0
    for show, ref in reference.items():
        cues = vtt_cues(DATA / "hypotheses" / "system_b" / f"{show}.vtt")
        assert_no_overlap(cues, show)
        assert (cues[0][0], cues[-1][1]) == (ref[0][0], ref[-1][1]), show
        assert all(text.strip() for _, _, text in cues), show
        titles = {label.replace("_", " ") for _, _, label in ref}
        wrong_titles += sum(text not in titles for _, _, text in cues)
        system_b[show] = cues
    assert wrong_titles >= 5
    assert near_fraction(system_b) < near_fraction(system_a)


def test_caption_files_are_units_that_topic_boundaries_fall_between(reference, shows):
    folder = DATA / "units" / "captions"
    srt = sorted(folder.glob("*.srt"))
    vtt = sorted(folder.glob("*.vtt"))
    assert len(srt) == 2 and len(vtt) == 1
    assert len({p.stem for p in srt + vtt}) == 3 and {p.stem for p in srt + vtt} <= set(shows)
    for path in srt + vtt:
        cues = srt_cues(path) if path.suffix == ".srt" else vtt_cues(path)
        assert_no_overlap(cues, path.name)
        assert all(0 < e - s <= 6000 and text.strip() for s, e, text in cues), path.name
        ref = reference[path.stem]
        assert cues[0][0] == ref[0][0] and cues[-1][1] == ref[-1][1], path.name
        assert boundaries(ref) <= boundaries(cues), path.name
