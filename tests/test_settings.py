"""The settings object and its signature (sacrebleu's lesson: no setting may be left out)."""

import dataclasses

import pytest

import tvseg
from tvseg.errors import UsageError
from tvseg.settings import Settings


def test_every_field_is_in_the_signature():
    settings = Settings(level=1)  # the reference's level is in it when given (tests/test_hierarchical_reference.py)
    keys = [part.split(":", 1)[0] for part in settings.signature().split("|")]
    for f in dataclasses.fields(Settings):
        if f.name == "preset":  # the one label: the fields it set are in the signature, not its name
            assert f.metadata["key"] is None
            continue
        assert f.metadata["key"] in keys, f"{f.name} is missing from the signature"
    assert keys[-1] == "version"
    assert len(set(keys)) == len(keys)


@pytest.mark.parametrize(
    "field_name, value",
    [
        ("gamma", 0.5),
        ("tolerance", 3.0),
        ("long_threshold", 60.0),
        ("title_f1_threshold", 0.5),
        ("uem", True),
        ("units", "file"),
        ("k", 7),
        ("convention", "nltk"),
        ("bootstrap", 10),
        ("seed", 3),
        ("confidence", 0.9),
        ("level", 2),
    ],
)
def test_changing_any_setting_changes_the_signature(field_name, value):
    assert Settings(**{field_name: value}).signature() != Settings().signature()


def test_frames_need_a_length_and_change_the_signature():
    assert Settings(units="frames", frame=2.0).signature() != Settings(units="frames", frame=1.0).signature()
    with pytest.raises(UsageError):
        Settings(units="frames")


def test_default_signature_reads_as_documented():
    assert Settings().signature() == (
        "gamma:0.85|tol:10|long:30|title:exact|stem:no|uem:no|units:none|frame:none|k:auto|conv:paper|"
        f"boot:1000|seed:0|ci:0.95|version:{tvseg.__version__}"
    )


@pytest.mark.parametrize(
    "bad",
    [
        dict(gamma=1.5),
        dict(gamma=float("nan")),
        dict(tolerance=-1),
        dict(convention="nltk3"),
        dict(k=0),
        dict(bootstrap=-1),
        dict(units="words"),
        dict(gamma="0.8"),
    ],
)
def test_bad_settings_are_refused(bad):
    with pytest.raises(UsageError):
        Settings(**bad)


def test_settings_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().gamma = 0.5
