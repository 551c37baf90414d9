"""tvseg's Porter stemmer against nltk's ``PorterStemmer()`` (default mode, ``NLTK_EXTENSIONS``), the
stemmer rouge-score uses: the stems must be equal on every word tried.

The words: every distinct run of ``a-z`` in the repository's documentation and code (several thousand
English words, with the French of the demo corpus), the examples of Porter's paper, and random words
made of letters and the suffixes the rules remove (hypothesis).
"""

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tvseg.retrieval.porter import _STEP2, _STEP3, _STEP4, porter_stem

PorterStemmer = pytest.importorskip("nltk.stem.porter").PorterStemmer

ROOT = Path(__file__).resolve().parent.parent
_NLTK = PorterStemmer()


def _repository_words() -> list[str]:
    words: set[str] = set()
    for pattern in ("*.md", "docs/*.md", "formats/*.md", "tvseg/**/*.py", "tests/*.py", "tvseg/data_samples/**/*"):
        for path in ROOT.glob(pattern):
            if path.is_file():
                words.update(re.findall(r"[a-z]+", path.read_text(encoding="utf-8", errors="replace").lower()))
    return sorted(words)


def test_stems_equal_nltk_on_the_repository_words():
    words = _repository_words()
    assert len(words) > 3000
    assert [w for w in words if porter_stem(w) != _NLTK.stem(w)] == []


# words of Porter (1980)'s examples, with their stems through all the steps, worked by hand from the rules
_PAPER = {
    "caresses": "caress",
    "ponies": "poni",
    "cats": "cat",
    "feed": "feed",
    "agreed": "agre",
    "plastered": "plaster",
    "motoring": "motor",
    "sing": "sing",
    "hopping": "hop",
    "falling": "fall",
    "filing": "file",
    "happy": "happi",
    "relational": "relat",
    "conditional": "condit",
    "generalization": "gener",
    "hopefulness": "hope",
    "adoption": "adopt",
    "controll": "control",
    "roll": "roll",
    "connections": "connect",
}


def test_paper_examples():
    assert {w: porter_stem(w) for w in _PAPER} == _PAPER
    assert {w: _NLTK.stem(w) for w in _PAPER} == _PAPER


_SUFFIXES = sorted(
    {s for s, _ in _STEP2}
    | {s for s, _ in _STEP3}
    | set(_STEP4)
    | {"ies", "ied", "eed", "ed", "ing", "s", "sses", "y", "e", "ll"}
)


@given(
    st.text("aeiouybcdglnrstzwx", max_size=6),
    st.lists(st.sampled_from(_SUFFIXES), max_size=2),
    st.booleans(),
)
def test_stems_equal_nltk_on_random_words(start, suffixes, upper):
    word = start + "".join(suffixes)
    word = word.upper() if upper else word
    assert porter_stem(word) == _NLTK.stem(word)
