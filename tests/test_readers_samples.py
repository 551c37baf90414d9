"""Every reader on the committed corpus in data_samples/ (see data_samples/README.md).

Expected values are copied from the sample files' text (quoted in the comments), and the
different files that hold the same reference are checked against each other.
"""

from pathlib import Path

import pytest
from pyannote.core import Segment
from pyannote.database.util import load_rttm
from reader_helpers import segments

from tvseg import read_metadata, read_segments, read_uem, read_units
from tvseg.cli import main
from tvseg.readers import NO_LABEL

SAMPLES = Path(__file__).resolve().parent.parent / "tvseg" / "data_samples"
SHOWS = [
    "finfo_journal18h_2024-03-11",
    "finfo_journal18h_2024-03-12",
    "finfo_nuit_2024-03-12",
    "fr2_journal13h_2024-03-12",
    "fr2_journal20h_2024-03-11",
    "fr3_provence1213_2024-03-12",
    "fr3_rhonealpes1920_2024-03-11",
]
NUIT = "finfo_nuit_2024-03-12"

pytestmark = pytest.mark.skipif(not (SAMPLES / "reference").is_dir(), reason="data_samples/ not there")


def test_reference_chapters_folder():
    reference = read_segments(SAMPLES / "reference" / "chapters")
    assert sorted(reference) == SHOWS
    # reference/chapters/finfo_nuit_2024-03-12.vtt: cues 1-4 ... and 11
    #   00:00:07.846 --> 00:00:59.536 Headlines
    #   00:00:59.536 --> 00:03:16.321 Pension strike: a day of disruption
    #   00:03:16.321 --> 00:05:31.255 The Rhône begins to recede
    #   00:05:31.255 --> 00:05:51.099 In brief: Ligue 1 results
    #   00:10:37.801 --> 00:10:54.684 Goodbye
    nuit = segments(reference[NUIT])
    assert len(nuit) == 11
    assert nuit[:4] == [
        (7.846, 59.536, "Headlines"),
        (59.536, 196.321, "Pension strike: a day of disruption"),
        (196.321, 331.255, "The Rhône begins to recede"),
        (331.255, 351.099, "In brief: Ligue 1 results"),
    ]
    assert nuit[-1] == (637.801, 654.684, "Goodbye")


def test_reference_rttm_equals_the_chapters_with_underscores():
    # reference/reference.rttm: "SEGMENT finfo_nuit_2024-03-12 1 59.536 136.785 <NA> <NA>
    #   Pension_strike:_a_day_of_disruption <NA> <NA>" -> 59.536 + 136.785 = 196.321
    rttm = read_segments(SAMPLES / "reference" / "reference.rttm")
    chapters = read_segments(SAMPLES / "reference" / "chapters")
    assert sorted(rttm) == SHOWS
    assert segments(rttm[NUIT])[1] == (59.536, 196.321, "Pension_strike:_a_day_of_disruption")
    for show in SHOWS:
        assert [(round(a, 3), round(b, 3), label.replace(" ", "_")) for a, b, label in segments(chapters[show])] == [
            (round(a, 3), round(b, 3), label) for a, b, label in segments(rttm[show])
        ]


@pytest.mark.parametrize("name", ["reference/reference.rttm", "hypotheses/system_a.rttm"])
def test_sample_rttm_same_as_pyannote_database(name):
    ours = read_segments(SAMPLES / name, types={"SEGMENT"})
    theirs = load_rttm(str(SAMPLES / name), keep_type="SEGMENT")
    assert sorted(ours) == sorted(theirs)
    for show in theirs:
        # pandas reads the name <NA> as NaN in load_rttm; tvseg keeps it as NO_LABEL ("<NA>")
        expected = sorted(
            (s.start, s.end, NO_LABEL if label != label else label)
            for s, _, label in theirs[show].itertracks(yield_label=True)
        )
        got = segments(ours[show])
        assert [label for *_, label in got] == [label for *_, label in expected]
        assert [t for a, b, _ in got for t in (a, b)] == pytest.approx(
            [t for a, b, _ in expected for t in (a, b)], abs=1e-9
        )


def test_system_a_rttm_with_na_labels():
    # hypotheses/system_a.rttm, show fr2_journal20h_2024-03-11, first two lines:
    #   SEGMENT ... 1 7.220 52.064 <NA> <NA> headlines <NA> <NA>      -> 7.220-59.284
    #   SEGMENT ... 1 59.284 160.878 <NA> <NA> <NA> <NA> <NA>         -> 59.284-220.162, no title
    system_a = read_segments(SAMPLES / "hypotheses" / "system_a.rttm")
    assert sorted(system_a) == SHOWS
    assert segments(system_a["fr2_journal20h_2024-03-11"])[:2] == [
        (7.22, 59.284, "headlines"),
        (59.284, 220.162, NO_LABEL),
    ]


def test_system_b_vtt_folder_without_cue_numbers():
    # hypotheses/system_b/finfo_nuit_2024-03-12.vtt:
    #   00:00:07.846 --> 00:00:40.038 headlines
    #   00:00:40.038 --> 00:01:56.032 Pension strike: a day of disruption
    system_b = read_segments(SAMPLES / "hypotheses" / "system_b")
    assert sorted(system_b) == SHOWS
    assert segments(system_b[NUIT])[:2] == [
        (7.846, 40.038, "headlines"),
        (40.038, 116.032, "Pension strike: a day of disruption"),
    ]


def test_breath_groups_as_units():
    units = read_units(SAMPLES / "units" / "breath_groups.csv")
    assert sorted(units) == SHOWS
    nuit = units[NUIT]
    assert list(nuit.columns) == ["start", "end", "text", "speaker", "topic"]
    assert len(nuit) == 242  # grep -c '^finfo_nuit' breath_groups.csv
    # first rows: 7.846,8.846,good evening,Farid Mansouri,Headlines
    #             8.846,10.565,strike against the pension reform,Farid Mansouri,Headlines
    assert nuit.iloc[0].to_dict() == {
        "start": 7.846,
        "end": 8.846,
        "text": "good evening",
        "speaker": "Farid Mansouri",
        "topic": "Headlines",
    }
    assert nuit.iloc[1][["start", "end", "text"]].tolist() == [8.846, 10.565, "strike against the pension reform"]
    assert sum(len(frame) for frame in units.values()) == 2548  # data lines in the file


def test_breath_group_topics_give_back_the_reference():
    # the README: "topic is the reference title, so consecutive rows with one topic form a
    # reference segment" (and breath groups tile each reference segment exactly)
    from_topics = read_segments(SAMPLES / "units" / "breath_groups.csv")
    chapters = read_segments(SAMPLES / "reference" / "chapters")
    for show in SHOWS:
        assert [(round(a, 3), round(b, 3), label) for a, b, label in segments(from_topics[show])] == [
            (round(a, 3), round(b, 3), label) for a, b, label in segments(chapters[show])
        ]


def test_captions_srt_and_vtt():
    # units/captions/fr2_journal20h_2024-03-11.srt, cue 1:
    #   00:00:07,220 --> 00:00:10,460 "Good evening and welcome to Journal de" / "20h"
    # units/captions/finfo_journal18h_2024-03-12.vtt, cue 1:
    #   00:00:03.329 --> 00:00:04.329 "<v Zoé Lambert>Good evening"
    captions = read_units(SAMPLES / "units" / "captions")
    assert sorted(captions) == [
        "finfo_journal18h_2024-03-12",
        "fr2_journal20h_2024-03-11",
        "fr3_rhonealpes1920_2024-03-11",
    ]
    srt = captions["fr2_journal20h_2024-03-11"]
    assert list(srt.columns) == ["start", "end", "text"]
    assert srt.iloc[0].tolist() == [7.22, 10.46, "Good evening and welcome to Journal de 20h"]
    assert srt.iloc[1].tolist() == [10.46, 12.081, "In the Rhône valley"]
    vtt = captions["finfo_journal18h_2024-03-12"]
    assert vtt.iloc[0].tolist() == [3.329, 4.329, "Good evening", "Zoé Lambert"]
    assert list(vtt.columns) == ["start", "end", "text", "speaker"]


def test_uem_and_metadata():
    uem = read_uem(SAMPLES / "corpus.uem")
    assert sorted(uem) == SHOWS
    assert list(uem[NUIT]) == [Segment(7.846, 654.684)]  # "finfo_nuit_2024-03-12 1 7.846 654.684"
    metadata = read_metadata(SAMPLES / "metadata.csv")
    assert sorted(metadata.index) == SHOWS
    assert metadata.loc[NUIT].to_dict() == {
        "channel": "franceinfo",
        "programme": "Le journal de la nuit",
        "date": "2024-03-12",
    }


def test_uem_cropping_keeps_the_reference():
    # the UEM is the reference's extent: cropping changes nothing and warns about nothing
    reference = read_segments(SAMPLES / "reference" / "chapters")
    cropped = read_segments(SAMPLES / "reference" / "chapters", uem=read_uem(SAMPLES / "corpus.uem"))
    assert {show: segments(a) for show, a in cropped.items()} == {show: segments(a) for show, a in reference.items()}


def test_validate_every_sample_file(capsys):
    paths = [
        SAMPLES / "metadata.csv",
        SAMPLES / "corpus.uem",
        SAMPLES / "reference" / "chapters",
        SAMPLES / "reference",
        SAMPLES / "hypotheses",
        SAMPLES / "hypotheses" / "system_b",
        SAMPLES / "units",
        SAMPLES / "units" / "captions",
    ]
    assert main(["validate", *map(str, paths)]) == 0
    out = capsys.readouterr().out
    # one line per file, one per folder read as evaluate reads it, sub-folders validated too:
    # metadata 1, uem 1; reference/chapters 7 files + the folder = 8; reference: reference.rttm,
    # the folder, chapters again (8) = 10; hypotheses: system_a.rttm, the folder, system_b (7 + 1) = 10;
    # hypotheses/system_b 8; units: breath_groups.csv, the folder, captions (3 + 1) = 6; units/captions 4
    assert out.count(": ok: ") == 1 + 1 + 8 + 10 + 10 + 8 + 6 + 4


def test_convert_reference_chapters_to_the_sample_rttm(tmp_path, capsys):
    # the two sample files hold the same reference (data_samples/README.md); converting the
    # chapters gives the committed RTTM line for line (shows come out in sorted order)
    assert main(["convert", str(SAMPLES / "reference" / "chapters"), str(tmp_path / "ref.rttm")]) == 0
    assert "label(s) hold whitespace" in capsys.readouterr().err
    ours = (tmp_path / "ref.rttm").read_text(encoding="utf-8").splitlines()
    committed = (SAMPLES / "reference" / "reference.rttm").read_text(encoding="utf-8").splitlines()
    assert sorted(ours) == sorted(line for line in committed if line and not line.startswith(";;"))
