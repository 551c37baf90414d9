"""The Porter stemmer (Porter 1980, "An algorithm for suffix stripping", Program 14(3)) as nltk's
``PorterStemmer()`` applies it in its default mode (``NLTK_EXTENSIONS``), which rouge-score stems with.

Written here from the paper and from nltk's list of its departures, so that stemming imports no nltk
(``import nltk.stem.porter`` imports all of nltk, scipy.stats and scikit-learn: seconds).
``tests/test_porter.py`` checks every stem equal to nltk's on thousands of words. nltk's departures:

- a word is lower-cased first; some irregular forms are looked up (:data:`_IRREGULAR`); a word of at most
  two letters is kept as it is;
- step 1a: ``ies`` is ``ie`` in a word of four letters (``dies``); step 1b: ``ied`` is ``ie`` there and
  ``i`` elsewhere, before the ``eed`` rule;
- step 1c: a final ``y`` becomes ``i`` only after a consonant that is not the word's first letter;
- step 2: ``alli`` becomes ``al`` and step 2 runs again; ``bli`` (not ``abli``) becomes ``ble``; ``fulli``
  becomes ``ful`` and ``logi`` ``log`` (when the measure of the stem with its ``l`` is positive);
- the condition ``*o`` (the stem ends consonant-vowel-consonant) also holds for a stem of two letters,
  a vowel then a consonant.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["porter_stem"]

_VOWELS = frozenset("aeiou")

_IRREGULAR = {
    **{form: "sky" for form in ("sky", "skies")},
    "dying": "die",
    "lying": "lie",
    "tying": "tie",
    "news": "news",
    **{form: "inning" for form in ("innings", "inning")},
    **{form: "outing" for form in ("outings", "outing")},
    **{form: "canning" for form in ("cannings", "canning")},
    **{word: word for word in ("howe", "proceed", "exceed", "succeed")},
}
"""The forms nltk stems by looking them up, not by the rules."""

_STEP2 = (
    ("ational", "ate"),
    ("tional", "tion"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("izer", "ize"),
    ("bli", "ble"),
    ("alli", "al"),
    ("entli", "ent"),
    ("eli", "e"),
    ("ousli", "ous"),
    ("ization", "ize"),
    ("ation", "ate"),
    ("ator", "ate"),
    ("alism", "al"),
    ("iveness", "ive"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("aliti", "al"),
    ("iviti", "ive"),
    ("biliti", "ble"),
    ("fulli", "ful"),
    ("logi", "log"),
)
_STEP3 = (("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""), ("ness", ""))
_STEP4 = tuple("al ance ence er ic able ible ant ement ment ent ion ou ism ate iti ous ive ize".split())


def _kinds(word: str) -> str:
    """``c`` (consonant) or ``v`` (vowel) for each letter: ``y`` is a vowel after a consonant, else a consonant."""
    kinds: list[str] = []
    for letter in word:
        vowel = letter in _VOWELS or (letter == "y" and kinds[-1:] == ["c"])
        kinds.append("v" if vowel else "c")
    return "".join(kinds)


def _measure(stem: str) -> int:
    """The paper's m: the number of vowel-consonant sequences, the stem being ``[C](VC){m}[V]``."""
    return _kinds(stem).count("vc")


def _ends_cvc(stem: str) -> bool:
    """The paper's ``*o``, with nltk's two-letter case."""
    kinds = _kinds(stem)
    return (kinds[-3:] == "cvc" and stem[-1] not in "wxy") or kinds == "vc"


def _first_rule(word: str, rules: tuple[tuple[str, str], ...], condition: Callable[[str], bool]) -> str:
    """The rule of the first suffix of ``word`` among ``rules``: the suffix replaced when its stem meets
    ``condition``, else the word unchanged (the later rules are not tried)."""
    for suffix, replacement in rules:
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            return stem + replacement if condition(stem) else word
    return word


def _step1ab(word: str) -> str:
    if word.endswith("ies") and len(word) == 4:
        word = word[:-1]
    elif word.endswith("sses") or word.endswith("ies"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith("ied"):
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        return word[:-1] if _measure(word[:-3]) > 0 else word
    for suffix in ("ed", "ing"):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and "v" in _kinds(stem):
            break
    else:
        return word
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"
    if len(stem) >= 2 and stem[-1] == stem[-2] and _kinds(stem)[-1] == "c":
        return stem if stem[-1] in "lsz" else stem[:-1]
    return stem + "e" if _measure(stem) == 1 and _ends_cvc(stem) else stem


def _step2(word: str) -> str:
    if word.endswith("alli") and _measure(word[:-4]) > 0:
        return _step2(word[:-2])
    if word.endswith("logi"):  # the condition is on the stem with the suffix's first letter
        return word[:-1] if _measure(word[:-3]) > 0 else word
    return _first_rule(word, _STEP2, lambda stem: _measure(stem) > 0)


def _step4(word: str) -> str:
    for suffix in _STEP4:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            removed = _measure(stem) > 1 and (suffix != "ion" or stem[-1:] in ("s", "t"))
            return stem if removed else word
    return word


def porter_stem(word: str) -> str:
    """The Porter stem of ``word``, as ``nltk.stem.porter.PorterStemmer().stem(word)`` gives it.

    >>> [porter_stem(w) for w in ("Relational", "ponies", "hopping", "happy", "skies", "generalization")]
    ['relat', 'poni', 'hop', 'happi', 'sky', 'gener']
    """
    lower = word.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower]
    if len(word) <= 2:
        return lower
    stem = _step1ab(lower)
    if stem.endswith("y") and len(stem) > 2 and _kinds(stem)[-2] == "c":
        stem = stem[:-1] + "i"
    stem = _step2(stem)
    stem = _first_rule(stem, _STEP3, lambda s: _measure(s) > 0)
    stem = _step4(stem)
    if stem.endswith("e"):
        m = _measure(stem[:-1])
        if m > 1 or (m == 1 and not _ends_cvc(stem[:-1])):
            stem = stem[:-1]
    if stem.endswith("ll") and _measure(stem[:-1]) > 1:
        stem = stem[:-1]
    return stem
