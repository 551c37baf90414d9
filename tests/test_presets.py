"""``--preset NAME`` (issue 24): each preset's effective settings and signature, explicit options winning,
the preset's name in the summary and the JSON, and chunkseg's numbers from ``--preset chunkseg`` alone."""

import json
import random
import warnings

import pytest

import tvseg
from tvseg.cli import main
from tvseg.errors import UsageError
from tvseg.presets import PRESETS, preset_settings
from tvseg.settings import Settings

V = tvseg.__version__

# Written out from each tool's values (tvseg/presets.py gives their sources): chunkseg 0.4.0's
# chunk_size=6.0, collar=3.0, its convention and use_stemmer=True; segeval's and nltk's conventions; TDT's
# probes as Pk's paper ones with k half the mean reference segment; VidChapters and Chapter-Llama change no
# field.
SIGNATURES = {
    "chunkseg": "gamma:0.85|tol:3|long:30|title:exact|stem:yes|uem:no|units:frames|frame:6|k:auto|conv:chunkseg|"
    f"boot:1000|seed:0|ci:0.95|version:{V}",
    "vidchapters": "gamma:0.85|tol:10|long:30|title:exact|stem:no|uem:no|units:none|frame:none|k:auto|conv:paper|"
    f"boot:1000|seed:0|ci:0.95|version:{V}",
    "segeval": "gamma:0.85|tol:10|long:30|title:exact|stem:no|uem:no|units:none|frame:none|k:auto|conv:segeval|"
    f"boot:1000|seed:0|ci:0.95|version:{V}",
    "nltk": "gamma:0.85|tol:10|long:30|title:exact|stem:no|uem:no|units:none|frame:none|k:auto|conv:nltk|"
    f"boot:1000|seed:0|ci:0.95|version:{V}",
    "tdt": "gamma:0.85|tol:10|long:30|title:exact|stem:no|uem:no|units:none|frame:none|k:auto|conv:paper|"
    f"boot:1000|seed:0|ci:0.95|version:{V}",
    "chapter-llama": "gamma:0.85|tol:10|long:30|title:exact|stem:no|uem:no|units:none|frame:none|k:auto|conv:paper|"
    f"boot:1000|seed:0|ci:0.95|version:{V}",
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_each_presets_signature(name):
    settings = preset_settings(name)
    assert settings.preset == name
    assert settings.signature() == SIGNATURES[name]
    # the name is a label: without it, the same fields give the same signature
    assert settings.replace(preset=None).signature() == SIGNATURES[name]
    assert settings.as_dict()["preset"] == name and "preset" not in Settings().as_dict()


def test_the_presets_are_the_contracts():
    assert tuple(PRESETS) == ("chunkseg", "vidchapters", "segeval", "nltk", "tdt", "chapter-llama", "trecvid")
    for preset in PRESETS.values():
        assert set(preset.settings) <= set(preset.sources), preset.name  # every value has its source
        assert preset.headline in ("corpus", "macro")


def test_explicit_values_win_in_the_api():
    settings = preset_settings("chunkseg", tolerance=5.0, title_stemming=False, frame=2.0)
    assert (settings.tolerance, settings.title_stemming, settings.frame, settings.units) == (5.0, False, 2.0, "frames")
    assert "tol:5|" in settings.signature() and "frame:2|" in settings.signature()
    assert "|k:50|" in preset_settings("tdt", k=50, frame=1.0).signature()
    assert preset_settings("tdt", frame=1.0).units == "frames"  # a frame length alone asks for frames
    with pytest.raises(UsageError, match="unknown preset"):
        preset_settings("pyannote")
    with pytest.raises(UsageError, match="preset must be one of"):
        Settings(preset="chunk")


def write_jsonl(path, rng, count):
    from test_chunkseg_convention import random_show

    records = []
    for i in range(count):
        duration, reference, hypothesis = random_show(rng, 0.1, 6.0)
        records.append({"show": f"show{i:02d}", "reference": reference, "hypothesis": hypothesis, "duration": duration})
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return records


def run(tmp_path, *options):
    out = tmp_path / "out.json"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["evaluate", *options, "--json", str(out)])
    assert code == 0
    return json.loads(out.read_text())


def test_preset_chunkseg_puts_its_settings_in_the_signature_and_the_json(tmp_path, capsys):
    path = tmp_path / "s.jsonl"
    write_jsonl(path, random.Random(2), 3)
    data = run(tmp_path, "--chunkseg", str(path), "--preset", "chunkseg", "--bootstrap", "0")
    for part in ("tol:3", "frame:6", "conv:chunkseg", "stem:yes"):
        assert f"|{part}|" in data["signature"]
    assert data["settings"]["preset"] == "chunkseg"
    assert Settings(**data["settings"]).signature() == data["signature"]  # the JSON settings read back
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("3 shows; preset chunkseg (chunkseg 0.4.0); settings: gamma:0.85|tol:3|")
    # chunkseg reports means over shows: the macro row comes first, with the system's name
    assert out[2].split()[:2] == ["hypothesis", "macro"] and out[3].split()[0] == "corpus"
    assert "macro first: chunkseg 0.4.0 reports means over shows" in out[-1]


def test_explicit_options_win_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "s.jsonl"
    write_jsonl(path, random.Random(2), 2)
    data = run(
        tmp_path,
        *("--chunkseg", str(path), "--preset", "chunkseg", "--bootstrap", "0"),
        *("--tolerance", "5", "--no-title-stemming", "--frame", "2", "--gamma", "0.5"),
    )
    assert (
        data["signature"] == "gamma:0.5|tol:5|long:30|title:exact|stem:no|uem:no|units:frames|frame:2|k:auto|"
        f"conv:chunkseg|boot:0|seed:0|ci:0.95|version:{V}"
    )
    data = run(tmp_path, "--chunkseg", str(path), "--preset", "segeval", "--convention", "nltk", "--frame", "6")
    assert "|conv:nltk|" in data["signature"] and data["settings"]["preset"] == "segeval"
    # no preset: the defaults, and no preset in the JSON settings
    data = run(tmp_path, "--chunkseg", str(path), "--bootstrap", "0")
    assert "|tol:10|" in data["signature"] and "|units:none|" in data["signature"]
    assert "preset" not in data["settings"]
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:  # argparse's own refusal of a choice
        main(["evaluate", "--chunkseg", str(path), "--preset", "chunky"])
    assert stop.value.code == 2
    assert "--preset" in capsys.readouterr().err


def test_preset_chunkseg_alone_gives_chunksegs_numbers(tmp_path):
    chunkseg = pytest.importorskip("chunkseg")
    from chunkseg.metrics import collar_boundary_f1
    from test_chunkseg_convention import PAIRS, maximum_matching

    path = tmp_path / "s.jsonl"
    records = write_jsonl(path, random.Random(24), 40)
    system = run(tmp_path, "--chunkseg", str(path), "--preset", "chunkseg", "--bootstrap", "0")["systems"]["hypothesis"]
    shows = system["shows"]
    equal = higher = 0
    for r in records:
        theirs = chunkseg.evaluate(r["hypothesis"], r["reference"], r["duration"])
        ours = shows[r["show"]]
        if not theirs:  # shorter than one chunk
            continue
        for key, their_key in PAIRS:
            assert ours[key] == pytest.approx(theirs[their_key], abs=1e-12), (r["show"], key)
        if not r["reference"] or not r["hypothesis"]:
            continue
        # the 3 s collar: equal to chunkseg's greedy pairing where it is a maximum matching (decided on
        # the 0.1 s grid in integers), higher where it is not
        ticks = [round(t * 10) for t in r["reference"]], [round(t * 10) for t in r["hypothesis"]]
        best = maximum_matching(*ticks, 30)
        collar = collar_boundary_f1(r["reference"], r["hypothesis"], 3.0)
        if round(collar["collar_recall"] * len(r["reference"])) == best:
            assert ours["boundary_f1"] == pytest.approx(collar["collar_f1"], abs=1e-12), r["show"]
            equal += 1
        else:
            assert ours["boundary_f1"] > collar["collar_f1"]
            higher += 1
    assert equal > 20
    batch = chunkseg.evaluate_batch(
        [{k: r[k] for k in ("hypothesis", "reference", "duration")} for r in records], num_bootstrap=1
    )
    for key, their_key in PAIRS:
        assert system["macro"][key] == pytest.approx(batch[their_key]["mean"], abs=1e-12)


def test_preset_vidchapters_shows_the_detection_columns(tmp_path, capsys):
    # one video of 100 s, chapters [0, 50) and [50, 100); predictions [0, 50) (tIoU 1 with the first) and
    # [40, 90) (tIoU with [50, 100): 40 / 60 = 0.667, above 0.3 and 0.5; with [0, 50): 10 / 90):
    # P_t = 2/2, 2/2, 1/2, 1/2 -> 0.75; R_t = 1, 1, 1/2, 1/2 -> 0.75; F_t = 1, 1, 1/2, 1/2 -> 0.75
    (tmp_path / "ann.json").write_text(
        json.dumps({"v1": {"duration": 100.0, "chapters": [{"label": "a", "time": 0}, {"label": "b", "time": 50}]}}),
        encoding="utf-8",
    )
    (tmp_path / "pred.json").write_text(
        json.dumps(
            {"results": {"v1": [{"timestamp": [0, 50], "sentence": "a"}, {"timestamp": [40, 90], "sentence": "b"}]}}
        ),
        encoding="utf-8",
    )
    options = ("--reference", str(tmp_path / "ann.json"), "--hypothesis", f"m={tmp_path / 'pred.json'}")
    data = run(tmp_path, *options, "--preset", "vidchapters", "--bootstrap", "0")
    corpus = data["systems"]["m"]["corpus"]
    assert (corpus["vc_detection_precision"], corpus["vc_detection_recall"]) == (0.75, 0.75)
    out = capsys.readouterr().out.splitlines()
    assert "preset vidchapters" in out[0]
    assert out[1].split()[-9:] == ["VC", "det.", "P", "VC", "det.", "R", "VC", "det.", "F"]
    assert out[2].split()[-3:] == ["75.0", "75.0", "75.0"]


def test_preset_tdt_shows_cseg(tmp_path, capsys):
    path = tmp_path / "s.jsonl"
    write_jsonl(path, random.Random(4), 3)
    data = run(tmp_path, "--chunkseg", str(path), "--preset", "tdt", "--frame", "1", "--bootstrap", "0")
    assert "|conv:paper|" in data["signature"] and "|k:auto|" in data["signature"]
    assert "C_seg" in capsys.readouterr().out.splitlines()[1]


def test_help_names_each_presets_options(capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "chunkseg: chunkseg 0.4.0 (--frame 6 --tolerance 3 --convention chunkseg --title-stemming)" in text
    assert "segeval: segeval 2.0.11 (--convention segeval)" in text
    assert "(--convention paper --k auto)" in text and "--no-title-stemming" in text
