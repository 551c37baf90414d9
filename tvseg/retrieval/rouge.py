r"""ROUGE-L of titles (Lin 2004), equal to Google's ``rouge-score`` package (``RougeScorer(["rougeL"])``).

Chapter-title work reports ROUGE-L; ``rouge-score`` 0.1.2 is its reference implementation, and
:func:`rouge_l` returns the same precision, recall and F as
``rouge_scorer.RougeScorer(["rougeL"], use_stemmer=...).score(reference, hypothesis)["rougeL"]``
(``tests/test_rouge.py`` checks it on 1,000 random title pairs, with and without stemming). tvseg does
not import ``rouge-score``: it is a test dependency only.

**Tokenisation** (rouge-score's ``DefaultTokenizer``, reimplemented): the text is lower-cased with
Python's ``str.lower``; every run of characters other than the ASCII ``a-z`` and ``0-9`` becomes a
space; the tokens are the pieces between white space; with stemming, a token longer than three
characters is replaced by its Porter stem; a token that is not (or no longer) made of ``a-z0-9`` is
dropped. **Non-ASCII letters are separators**, as in rouge-score: ``"Élections à Besançon"`` gives
``lections``, ``besan``, ``on`` (``"à"`` disappears), so ``"élections"`` and ``"elections"`` do not
match, and an accented French word counts as the pieces around its accents. Non-ASCII digits
(``"²"``, ``"٣"``) are separators too; underscores are separators (an RTTM title's ``_`` reads as a
space). This is not :func:`tvseg.retrieval.titles.normalize_title`'s normalisation (which keeps
accented letters, for exact match and title-word F1): it is kept as rouge-score has it so that the
numbers are comparable with those published with rouge-score.

**ROUGE-L**: with :math:`\ell` the length of a longest common subsequence of the token lists,

.. math:: P = \ell / |hyp|, \quad R = \ell / |ref|, \quad F = 2PR / (P + R)

computed in that order, in floating point, as rouge-score does (so the values are equal bit for bit);
:math:`P = R = F = 0` when either side has no token (even when both are empty), and :math:`F = 0`
when :math:`\ell = 0`. The LCS length is computed bit-parallel (Allison & Dix 1986; Crochemore et
al. 2001) on Python integers: a few operations on a :math:`|ref|`-bit integer per hypothesis token,
:math:`|ref| \cdot |hyp| / 30` digit operations. On long sequences (a whole show's titles) the tokens of
one side absent from the other are dropped first, and when the matching pairs (positions :math:`i, j`
with :math:`ref_i = hyp_j`) are few, as when most titles are distinct, the LCS is the longest strictly
increasing subsequence of their reference positions (Hunt & Szymanski 1977): :math:`O(r \log \ell)`
for :math:`r` pairs. Both give the exact length; the second is chosen only where it costs less. The
bit-parallel table goes in blocks of 65,536 reference positions when the match rows of many distinct
tokens would take more than 256 MB.

**Stemming** (``use_stemmer=True``) gives the stems of nltk's ``PorterStemmer()`` (its default
``NLTK_EXTENSIONS`` mode), as rouge-score does, from :func:`tvseg.retrieval.porter.porter_stem` (nltk is
not a dependency of tvseg, and importing its stemmer takes seconds). The Porter stemmer is for English; on French titles it strips English suffixes (``"nations"`` → ``"nation"``,
but also ``"reformes"`` → ``"reform"``) and is best left off, which is the default.

Hand-computed example: reference ``"Le tour de France 2015"`` gives ``le tour de france 2015`` (5
tokens), hypothesis ``"Tour de France : l'étape"`` gives ``tour de france l tape`` (5 tokens); a
longest common subsequence is ``tour de france`` (:math:`\ell = 3`), so :math:`P = R = F = 3/5`.

References
----------
J. W. Hunt, T. G. Szymanski. A fast algorithm for computing longest common subsequences. CACM 20(5), 1977.
C.-Y. Lin. ROUGE: a package for automatic evaluation of summaries. Text Summarization Branches Out, 2004.
rouge-score 0.1.2 (github.com/google-research/google-research/tree/master/rouge).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from tvseg.retrieval.porter import porter_stem

__all__ = ["RougeScore", "rouge_tokens", "lcs_length", "rouge_l", "rouge_l_list"]

_SEPARATORS = re.compile(r"[^a-z0-9]+")  # after str.lower(): everything else separates tokens
_TOKEN = re.compile(r"[a-z0-9]+")
_LONG = 1 << 20  # |a| * |b| from which the matching pairs are counted (a show's titles, not one title)
_PAIR_COST = 2500  # a matching pair in Hunt-Szymanski costs about as much as 1,300-3,700 bit-parallel cells
_ROW_BITS = 1 << 31  # the tokens' match rows above this many bits in all (256 MB): the table goes by blocks
_BLOCK = 1 << 16  # positions of the long side a block covers then


class RougeScore(NamedTuple):
    """ROUGE-L of one pair (the field names are rouge-score's ``Score``)."""

    precision: float
    recall: float
    fmeasure: float


@lru_cache(maxsize=65536)
def _stem(token: str) -> str:
    return porter_stem(token)


@lru_cache(maxsize=65536)
def rouge_tokens(text: str, use_stemmer: bool = False) -> tuple[str, ...]:
    """rouge-score's default tokens of ``text`` (module docstring).

    >>> rouge_tokens("Élections à Besançon : 2ᵉ tour")
    ('lections', 'besan', 'on', '2', 'tour')
    """
    tokens = _SEPARATORS.sub(" ", text.lower()).split()
    if use_stemmer:
        tokens = [_stem(t) if len(t) > 3 else t for t in tokens]
        tokens = [t for t in tokens if _TOKEN.fullmatch(t)]
    return tuple(tokens)


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    r"""Length of a longest common subsequence of two token sequences.

    Short sequences go bit-parallel (:func:`_lcs_bits`), and so do long ones with many matching pairs
    (:func:`_lcs_blocks`, in blocks of rows when one integer a token would take too much memory); long
    ones with few matching pairs (:math:`2500 r < |a| \cdot |b|`, most tokens distinct) through
    the increasing subsequence of the matches (:func:`_lcs_sparse`). A common first or last token is in
    some longest common subsequence, and a token absent from the other side in none: both are taken out
    of long sequences first.

    >>> lcs_length("le tour de france 2015".split(), "tour de france l tape".split())
    3
    """
    if not a or not b:
        return 0
    if len(a) * len(b) < _LONG:
        return _lcs_bits(a, b)
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    count_a, count_b = Counter(a[head : len(a) - tail]), Counter(b[head : len(b) - tail])
    a = [t for t in a[head : len(a) - tail] if t in count_b]
    b = [t for t in b[head : len(b) - tail] if t in count_a]
    if not a or not b:
        return head + tail
    pairs = sum(n * count_b[t] for t, n in count_a.items())
    if pairs * _PAIR_COST < len(a) * len(b):
        return head + tail + _lcs_sparse(a, b)
    return head + tail + _lcs_blocks(a, b)


def _lcs_bits(a: Sequence[str], b: Sequence[str]) -> int:
    """Bit-parallel LCS length: bit ``i`` of ``v`` is 1 while row ``i`` of the LCS table has not yet
    gained a match; each token of ``b`` turns on the matches of its positions in ``a`` (Crochemore et
    al. 2001). ``u`` is a subset of ``v``'s bits, so ``v ^ u`` is ``v - u`` (and faster in CPython)."""
    positions: dict[str, int] = {}
    for i, token in enumerate(a):
        positions[token] = positions.get(token, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for token in b:
        u = v & positions.get(token, 0)
        v = ((v + u) | (v ^ u)) & full
    return len(a) - v.bit_count()


def _lcs_blocks(a: Sequence[str], b: Sequence[str]) -> int:
    """:func:`_lcs_bits` on long sequences. A token's match row is as wide as its last position in ``a``,
    so with many distinct tokens the rows would take :math:`O(|a|^2)` bits: above ``_ROW_BITS`` the
    positions of ``a`` go in blocks of ``_BLOCK``, each block through all of ``b``, the carry out of a
    block's addition at each token of ``b`` added into the next block's at that token."""
    last = {token: i for i, token in enumerate(a)}
    height = len(a) if sum(last.values()) + len(last) <= _ROW_BITS else _BLOCK
    carries = bytearray(len(b))
    common = 0
    for low in range(0, len(a), height):
        block = a[low : low + height]
        positions = _match_rows(block)
        full = (1 << len(block)) - 1
        v = full
        for j, token in enumerate(b):
            u = v & positions.get(token, 0)
            total = v + u + 1 if carries[j] else v + u
            carries[j] = total >> len(block)
            v = (total | (v ^ u)) & full
        common += len(block) - v.bit_count()
    return common


def _match_rows(a: Sequence[str]) -> dict[str, int]:
    """Each token's positions in ``a`` as the bits of an integer, written as bytes (OR-ing ``1 << i``
    token by token would copy a growing integer at each occurrence)."""
    where: dict[str, list[int]] = {}
    for i, token in enumerate(a):
        where.setdefault(token, []).append(i)
    rows = {}
    for token, positions in where.items():
        row = bytearray(positions[-1] // 8 + 1)
        for i in positions:
            row[i >> 3] |= 1 << (i & 7)
        rows[token] = int.from_bytes(row, "little")
    return rows


def _lcs_sparse(a: Sequence[str], b: Sequence[str]) -> int:
    """Hunt-Szymanski LCS length: the matching pairs, ``b`` in order and for each token of ``b`` its
    positions in ``a`` in decreasing order, have as longest strictly increasing subsequence of ``a``
    positions a longest common subsequence. ``ends[k]`` is the smallest ``a`` position that ends a
    common subsequence of length ``k + 1`` so far."""
    where: dict[str, list[int]] = {}
    for i in range(len(a) - 1, -1, -1):
        where.setdefault(a[i], []).append(i)
    ends: list[int] = []
    for token in b:
        for i in where.get(token, ()):
            k = bisect_left(ends, i)
            if k == len(ends):
                ends.append(i)
            else:
                ends[k] = i
    return len(ends)


def _score(ref: Sequence[str], hyp: Sequence[str]) -> RougeScore:
    if not ref or not hyp:
        return RougeScore(0.0, 0.0, 0.0)
    common = lcs_length(ref, hyp)
    precision = common / len(hyp)
    recall = common / len(ref)
    f = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return RougeScore(precision, recall, f)


def rouge_l(reference: str, hypothesis: str, *, use_stemmer: bool = False) -> RougeScore:
    """ROUGE-L precision, recall and F of a hypothesis title against a reference title.

    Equal to ``RougeScorer(["rougeL"], use_stemmer=use_stemmer).score(reference, hypothesis)["rougeL"]``.

    >>> rouge_l("Le tour de France 2015", "Tour de France : l'étape")
    RougeScore(precision=0.6, recall=0.6, fmeasure=0.6)
    """
    return _score(rouge_tokens(reference, use_stemmer), rouge_tokens(hypothesis, use_stemmer))


def rouge_l_list(reference: Sequence[str], hypothesis: Sequence[str], *, use_stemmer: bool = False) -> RougeScore:
    """Whole-list ROUGE-L: the titles of each side, in time order, read as one text (their tokens
    concatenated, which is what rouge-score gives for the titles joined by a space)."""
    ref = tuple(t for title in reference for t in rouge_tokens(title, use_stemmer))
    hyp = tuple(t for title in hypothesis for t in rouge_tokens(title, use_stemmer))
    return _score(ref, hyp)
