"""The chapter-count error (Chapter-Llama compares the number of chapters predicted with the reference's)."""

import warnings

import pytest
from pyannote.core import Annotation, Segment

import tvseg
from tvseg.settings import Settings


def annotation(bounds):
    ann = Annotation()
    for k, (a, b) in enumerate(zip(bounds, bounds[1:])):
        ann[Segment(a, b)] = f"c{k}"
    return ann


def test_chapter_count_error_by_hand():
    # show a: reference 3 chapters, hypothesis 5 -> |5 - 3| = 2
    # show b: reference 4, hypothesis 4 -> 0
    # show c: reference 2, hypothesis 1 -> 1
    # corpus (mean over the 3 shows, as VidChapters' metrics): (2 + 0 + 1) / 3 = 1
    reference = {
        "a": annotation([0, 10, 20, 30]),
        "b": annotation([0, 5, 10, 15, 20]),
        "c": annotation([0, 50, 100]),
    }
    hypothesis = {
        "a": annotation([0, 6, 12, 18, 24, 30]),
        "b": annotation([0, 4, 11, 16, 20]),
        "c": annotation([0, 100]),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(reference, {"sys": hypothesis}, settings=Settings(bootstrap=0))
    system = result.systems["sys"]
    assert system.shows["chapter_count_error"].to_dict() == {"a": 2.0, "b": 0.0, "c": 1.0}
    assert system.corpus["chapter_count_error"] == pytest.approx(1.0)
    assert system.macro["chapter_count_error"] == pytest.approx(1.0)
