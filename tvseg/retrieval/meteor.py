r"""METEOR 1.5 in Python, as pycocoevalcap runs its jar (``meteor-1.5.jar - - -stdio -l en -norm``).

Written from Meteor's Java source (https://github.com/cmu-mtlab/meteor, the classes of the 1.5 jar that
pycocoevalcap 1.2 ships, whose bytecode has the same structure) with the jar's own data, read at run time
from the installed pycocoevalcap (the jar is a zip file: function words, WordNet synsets and exceptions,
non-breaking prefixes; ``data/paraphrase-en.gz`` beside it), once per process. Nothing is downloaded.

pycocoevalcap's ``Meteor.compute_score(gts, res)`` sends, per pair, ``SCORE ||| reference(s) ||| hypothesis``
(``|||`` and double spaces removed from the hypothesis), gets the pair's statistics back, and then sends
``EVAL ||| stats ||| stats ...``: the jar prints each pair's score from its statistics and then the score of
their sums. :func:`compute_score` gives the same numbers; per pair:

1. **Normalisation** (``-norm``, English): Meteor's Moses-based tokeniser keeping punctuation (quotes,
   dashes, dots of abbreviations after its non-breaking prefixes, contractions split before the
   apostrophe), then lower case.
2. **Matches**, between the hypothesis' words (line 1) and the reference's (line 2), by module in order:
   *exact* (equal words), *stem* (Snowball English stems equal, words not), *synonym* (a WordNet synset in
   common, with WordNet's morphology for inflected forms; words not equal), *paraphrase* (a phrase of one
   line in the paraphrase table whose paraphrase occurs in the other, both directions). Words are compared
   by their Java ``hashCode`` as the jar does (two words of equal hash count as equal). When the two lines
   are the same words only exact matches are sought.
3. **Alignment**: a match that is the only one at its place on both sides is fixed; the rest is a beam search
   (beam 40) left to right over the reference's words, paths ranked by more words matched (weights 1, 0.5,
   0.5, 0.5 per module, each partial sum truncated to an integer as Java's ``int += double`` does), then
   fewer chunks, then a smaller distance (with the jar's bookkeeping of it), ties kept in the order the
   paths were made (Java's stable sort). The number of chunks is then counted on the best path's matches.
4. **Statistics**: lengths, function words (the jar's list), matches per module split into content and
   function words, chunks; the score with the English "rank" task's parameters :math:`\alpha = 0.85,
   \beta = 0.2, \gamma = 0.6, \delta = 0.75` and module weights 1, 0.6, 0.8, 0.6:
   :math:`P` and :math:`R` the weighted matches over the weighted lengths (content words weight
   :math:`\delta`, function words :math:`1 - \delta`), :math:`F = PR / (\alpha P + (1 - \alpha) R)`,
   penalty :math:`\gamma (ch / m)^\beta` (:math:`m` the mean of the two sides' matched words; 0 when
   everything matches in one chunk), score :math:`F (1 - penalty)`, 0 for a NaN, at least 0.
5. **Aggregate**: the sums of the pairs' statistics (a pair matched entirely in one chunk adds no chunk),
   scored as one pair.

The arithmetic is Java's in the same order (IEEE doubles), with one exception: the jar's ``Math.pow`` is
HotSpot's, which is not always correctly rounded, where Python's ``math.pow`` is (as Java's ``StrictMath.pow``):
the penalty's :math:`x^{0.2}` then differs by one unit in the last place. Measured against the jar (JDK 17,
x86-64) on 20,000 generated caption pairs in 200 corpora (``tests/test_meteor.py``'s generator, seeds 100-104):
the statistics equal on every pair, the segment scores equal to the jar's printed value on 19,998 pairs and
5.6e-17 away on 2, the 200 corpus scores all equal. So :mod:`tvseg.retrieval.captioning` keeps the jar when
Java is there (no number changes with it) and uses this module without Java. Stems come from the
``snowballstemmer`` package, 2.x (the English stemmer of Snowball 2, which the jar's Java stemmer equals on
all 159,435 words of the jar's synonym, exception and paraphrase vocabularies; Snowball 3 changed the
English rules for, e.g., ``added`` and ``-ologist``).

Reading the data takes about 5 s the first time a process needs them (the paraphrase table: 5.3 million
pairs, 61 MB compressed, kept as its 272 MB of text and the places of its lines: 0.5 GB resident, 1.2 GB at
the peak of the reading); the jar takes 7 to 20 s to start (1.2 GB resident).
"""

from __future__ import annotations

import math
import re
import zipfile
import zlib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, overload

from tvseg.errors import UsageError

__all__ = ["normalize", "meteor_stats", "stats_score", "aggregate", "compute_score", "jar_path"]

ALPHA, BETA, GAMMA, DELTA = 0.85, 0.20, 0.60, 0.75
"""The English default ("rank") task's parameters of METEOR 1.5."""
MODULE_WEIGHTS = (1.0, 0.6, 0.8, 0.6)
"""Its weights of exact, stem, synonym and paraphrase matches in the score."""
_SEARCH_WEIGHTS = (1.0, 0.5, 0.5, 0.5)
"""The weights the aligner ranks its paths with (``MeteorScorer`` sets them for evaluation)."""
_BEAM = 40
_N_MODULES = 4

# the normaliser's character classes (Meteor's Normalizer: Latin, Latin-1, Cyrillic letters)
_ALPHA = "A-Za-z\u0160\u017d\u0161\u017e\u0178\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e\u0400-\u04ff\u0500-\u0527\ua640-\ua66e\ua67e-\ua697\u1d00-\u1d7f"
_ALNUM = "0-9" + _ALPHA
_JAVA_SPACE = " \t\n\x0b\f\r"  # Java's \s
_SEP_OTHER = re.compile(f"([^{_ALNUM}{_JAVA_SPACE}.'`,\\-\u2018\u2019])")
_MULTI_DOT = re.compile(r"\.([.]+)")
_MULTI_DOT2 = re.compile(r"DOTMULTI\.([^.])")
_COMMA = re.compile(r"([^0-9]),([^0-9])")
_COMMA2 = re.compile(r"([0-9]),([^0-9])")
_COMMA3 = re.compile(r"([^0-9]),([0-9])")
_QUOTE = re.compile("([`\u2018\u2019])")
_QUOTE2 = re.compile("([\u201c\u201d]|'')")
_RM_DASH = re.compile(f"([{_ALNUM}.])-([{_ALNUM}])")
_CONT1 = re.compile(f"([^{_ALPHA}])'([^{_ALPHA}])")
_CONT2 = re.compile(f"([^{_ALPHA}0-9])'([{_ALPHA}])")
_CONT3 = re.compile(f"([{_ALPHA}])'([^{_ALPHA}])")
_CONT4 = re.compile(f"([{_ALPHA}])'([{_ALPHA}])")
_CONT5 = re.compile(r"([0-9])'(s)")
_HAS_ALPHA = re.compile(f"[{_ALPHA}]")
_WHITE = re.compile("[ \u2000-\u200a\u202f\u205f\u3000\u00a0]+")
_TOKENS = re.compile("[^ \t\n\r\f]+")  # Java's StringTokenizer
_JAVA_TRIM = "".join(map(chr, range(33)))  # String.trim() removes every character up to the space
_LINE_BREAK = re.compile("\r\n|\r|\n")  # BufferedReader.readLine

_SUFFIXES = (
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
    ("s", ""),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
    ("er", ""),
    ("est", ""),
    ("er", "e"),
    ("est", "e"),
)
"""WordNet 3's detachment rules (nouns, verbs, adjectives) in the order the jar's synonym module tries them."""


def jar_path() -> Path:
    """The ``meteor-1.5.jar`` of the installed pycocoevalcap (raises ImportError without it)."""
    import pycocoevalcap.meteor.meteor as module

    return Path(module.__file__).with_name(module.METEOR_JAR)


def _lines(data: bytes) -> list[str]:
    text = data.decode("utf-8", errors="replace")
    out = _LINE_BREAK.split(text)
    return out[:-1] if out and out[-1] == "" else out


class _Lines:
    """Lines of a text by their places: ``lines[k]`` a line, ``lines[a:b]`` a list of them (bytes)."""

    def __init__(self, text: bytes, starts: Any, ends: Any) -> None:
        self.text, self.starts, self.ends = text, starts, ends

    @overload
    def __getitem__(self, k: int) -> bytes: ...
    @overload
    def __getitem__(self, k: slice) -> list[bytes]: ...
    def __getitem__(self, k: int | slice) -> bytes | list[bytes]:
        text = self.text
        if isinstance(k, slice):
            return [text[a:b] for a, b in zip(self.starts[k].tolist(), self.ends[k].tolist())]
        return text[int(self.starts[k]) : int(self.ends[k])]


class _Data:
    """The jar's English resources, read once per process (:func:`_data`)."""

    def __init__(self) -> None:
        jar = jar_path()
        with zipfile.ZipFile(jar) as z:
            self.function_words = frozenset(_lines(z.read("function/english.words")))
            self.prefixes: dict[str, bool] = {}  # prefix -> nonbreaking before numbers only
            for line in _lines(z.read("nonbreaking/english.prefixes")):
                fields = _TOKENS.findall(line)
                if fields and not fields[0].startswith("#"):
                    self.prefixes[fields[0]] = len(fields) > 1 and fields[1] == "#NUMERIC_ONLY#"
            exceptions = _lines(z.read("synonym/english.exceptions"))
            synsets = _lines(z.read("synonym/english.synsets"))
        self.bases: dict[str, list[str]] = {}
        for base, forms in zip(exceptions[0::2], exceptions[1::2]):
            for form in _TOKENS.findall(forms):
                self.bases.setdefault(form, []).append(base)
        self.synsets = {
            word: frozenset(map(int, _TOKENS.findall(sets))) for word, sets in zip(synsets[0::2], synsets[1::2])
        }
        self.paraphrase_file = jar.parent / "data" / "paraphrase-en.gz"
        if not self.paraphrase_file.is_file():
            raise UsageError(
                f"METEOR's paraphrase table is missing: {self.paraphrase_file} (pycocoevalcap 1.2 ships it: "
                'pip install --force-reinstall "pycocoevalcap==1.2")'
            )
        self._paraphrases: tuple[dict[bytes, tuple[int, int]], _Lines, int] | None = None
        self._stems: dict[str, str] = {}
        self._syn: dict[str, frozenset[int]] = {}
        import snowballstemmer

        self._stemmer = snowballstemmer.stemmer("english")

    def paraphrases(self) -> tuple[dict[bytes, tuple[int, int]], _Lines, int]:
        """``({phrase: (first, stop)}, paraphrases, words in the longest phrase)``: the table's paraphrases of a
        phrase are ``paraphrases[first:stop]``, in the file's order (the file lists each phrase's lines
        together: checked). The table is kept as its decompressed text and the places of its lines."""
        if self._paraphrases is None:
            import numpy as np

            with open(self.paraphrase_file, "rb") as f:
                text = zlib.decompress(f.read(), 16 + zlib.MAX_WBITS)
            codes = np.frombuffer(text, dtype=np.uint8)
            ends = np.flatnonzero(codes == 10)  # lines: probability, phrase, paraphrase
            spaces = np.flatnonzero(codes == 32)
            del codes
            longest = int(np.bincount(np.searchsorted(ends, spaces)).max(initial=0)) + 1
            del spaces
            n = len(ends) // 3
            places = np.int32 if len(text) < 2**31 else np.int64
            starts = np.concatenate(([0], ends[: 3 * n - 1] + 1)).astype(places)
            ends = ends[: 3 * n].astype(places)
            phrase_lines = _Lines(text, starts[1::3].copy(), ends[1::3].copy())
            table = _Lines(text, starts[2::3].copy(), ends[2::3].copy())
            del starts, ends
            phrases = phrase_lines[0:n]
            bounds = [0, *(k for k in range(1, n) if phrases[k] != phrases[k - 1]), n]
            del phrases
            index = {phrase_lines[a]: (a, b) for a, b in zip(bounds[:-1], bounds[1:])}
            if len(index) != len(bounds) - 1:
                raise RuntimeError(f"{self.paraphrase_file}: a phrase's paraphrases are not listed together")
            self._paraphrases = (index, table, longest)
        return self._paraphrases

    def stem(self, word: str) -> str:
        out = self._stems.get(word)
        if out is None:
            out = self._stems[word] = self._stemmer.stemWord(word)
        return out

    def synonym_sets(self, word: str) -> frozenset[int]:
        """The synsets of a word and of its base forms (``SynonymMatcher``)."""
        out = self._syn.get(word)
        if out is None:
            bases = self.bases.get(word)
            if bases is not None:
                stem_sets: frozenset[int] = frozenset().union(*(self.synsets.get(b, frozenset()) for b in bases))
            else:
                stem_sets = self.synsets.get(self._morph(word), frozenset())
            out = self._syn[word] = self.synsets.get(word, frozenset()) | stem_sets
        return out

    def _morph(self, word: str) -> str:
        """WordNet's base form of an inflected word as the jar's ``morph`` finds it ("" for none)."""
        end = "ful" if word.endswith("ful") else ""
        if word.endswith("ss") or len(word) <= 2:
            return word
        for suffix, ending in _SUFFIXES:
            if word.endswith(suffix):
                base = word[: len(word) - len(suffix)] + ending
                if base in self.synsets:
                    return base + end
        return ""


@lru_cache(maxsize=1)
def _data() -> _Data:
    return _Data()


_HASHES: dict[str, int] = {}


def _java_hash(word: str) -> int:
    """``String.hashCode()`` (over UTF-16 code units, 32 bits)."""
    out = _HASHES.get(word)
    if out is None:
        h = 0
        units = word.encode("utf-16-be", errors="surrogatepass")
        for k in range(0, len(units), 2):
            h = (31 * h + (units[k] << 8 | units[k + 1])) & 0xFFFFFFFF
        out = _HASHES[word] = h
    return out


@lru_cache(maxsize=1 << 16)
def normalize(line: str) -> str:
    """Meteor's ``-norm`` of a line for English (``Normalizer.normalizeLine``, punctuation kept), then
    lower case: ``The U.S.-based firm's CEO, Mr. Smith...`` becomes ``the us based firm 's ceo , mr. smith ...``
    (``tests/test_meteor.py``). Needs pycocoevalcap (the jar's non-breaking prefixes)."""
    s = _SEP_OTHER.sub(r" \1 ", f" {line} ")
    s = _MULTI_DOT.sub(r" DOTMULTI\1", s)
    while "DOTMULTI." in s:
        s = _MULTI_DOT2.sub(r"DOTDOTMULTI \1", s)
        s = s.replace("DOTMULTI.", "DOTDOTMULTI")
    for pattern in (_COMMA, _COMMA2, _COMMA3):
        s = pattern.sub(r"\1 , \2", s)
    s = _QUOTE.sub("'", s)
    s = _QUOTE2.sub(' " ', s)
    s = s.replace("\u2013", "-").replace("--", "-")
    s = _RM_DASH.sub(r"\1 \2", s)
    for pattern in (_CONT1, _CONT2, _CONT3):
        s = pattern.sub(r"\1 ' \2", s)
    s = _CONT4.sub(r"\1 '\2", s)
    s = _CONT5.sub(r"\1 '\2", s)
    words = _TOKENS.findall(s)
    prefixes = _data().prefixes
    out = []
    for k, word in enumerate(words):
        if len(word) > 1 and word.endswith("."):
            pre = word[:-1]
            numeric_only = prefixes.get(pre)
            following = words[k + 1] if k < len(words) - 1 else ""
            if "." in pre and _HAS_ALPHA.search(pre):
                word = word.replace(".", "")  # U.S. -> US
            elif numeric_only is False or following[:1].isascii() and following[:1].islower():
                pass
            elif numeric_only and following[:1].isascii() and following[:1].isdigit():
                pass
            else:
                word = pre + " ."
        out.append(word + " ")
    s = "".join(out)
    while "DOTDOTMULTI" in s:
        s = s.replace("DOTDOTMULTI", "DOTMULTI.")
    s = s.replace("DOTMULTI", ".")
    return _java_trim(_WHITE.sub(" ", s)).lower()


Match = tuple[int, int, int, int, int]
"""``(start, length, match_start, match_length, module)``: words ``start..`` of line 2 (the reference)
matched to ``match_start..`` of line 1 (the hypothesis)."""


class _Path:
    """A partial alignment of the beam search (``PartialAlignment``)."""

    __slots__ = ("matches", "used1", "used2", "matches1", "matches2", "chunks", "idx", "last_end", "distance")
    matches: list[Match | None]
    used1: list[bool]
    used2: list[bool]
    matches1: int
    matches2: int
    chunks: int
    idx: int
    last_end: int
    distance: int

    def __init__(self, n1: int, n2: int) -> None:
        self.matches, self.used1, self.used2 = [None] * n2, [False] * n1, [False] * n2
        self.matches1 = self.matches2 = self.chunks = self.idx = self.distance = 0
        self.last_end = -1

    def copy(self) -> _Path:
        new = _Path.__new__(_Path)
        new.matches, new.used1, new.used2 = self.matches[:], self.used1[:], self.used2[:]
        new.matches1, new.matches2, new.chunks = self.matches1, self.matches2, self.chunks
        new.idx, new.last_end, new.distance = self.idx, self.last_end, self.distance
        return new

    def sort_key(self) -> tuple[int, int, int]:
        return (-(self.matches1 + self.matches2), self.chunks, self.distance)


def _find_matches(words1: Sequence[str], words2: Sequence[str]) -> tuple[list[list[Match]], list[int], list[int]]:
    """Every module's matches, by their start in line 2, and how many matches cover each word."""
    data = _data()
    keys1, keys2 = [_java_hash(w) for w in words1], [_java_hash(w) for w in words2]
    n1, n2 = len(words1), len(words2)
    matches: list[list[Match]] = [[] for _ in range(n2)]
    cover1, cover2 = [0] * n1, [0] * n2

    def add(m: Match) -> None:
        matches[m[0]].append(m)
        for k in range(m[3]):
            cover1[m[2] + k] += 1
        for k in range(m[1]):
            cover2[m[0] + k] += 1

    for j in range(n2):
        for i in range(n1):
            if keys1[i] == keys2[j]:
                add((j, 1, i, 1, 0))
    if n1 == n2 and keys1 == keys2:
        return matches, cover1, cover2
    stems1 = [_java_hash(data.stem(w)) for w in words1]
    stems2 = [_java_hash(data.stem(w)) for w in words2]
    for j in range(n2):
        for i in range(n1):
            if stems1[i] == stems2[j] and keys1[i] != keys2[j]:
                add((j, 1, i, 1, 1))
    syn1 = [data.synonym_sets(w) for w in words1]
    syn2 = [data.synonym_sets(w) for w in words2]
    for j in range(n2):
        for i in range(n1):
            if keys1[i] != keys2[j] and not syn1[i].isdisjoint(syn2[j]):
                add((j, 1, i, 1, 2))
    index, paraphrases, longest = data.paraphrases()
    line1 = [w.encode("utf-8", errors="surrogatepass") for w in words1]
    line2 = [w.encode("utf-8", errors="surrogatepass") for w in words2]
    grams1, grams2 = _ngrams(line1, longest), _ngrams(line2, longest)
    for first, (this, grams) in enumerate(((line2, grams1), (line1, grams2))):
        for at in range(len(this)):
            for length in range(1, min(longest, len(this) - at) + 1):
                found = index.get(b" ".join(this[at : at + length]))
                if found is None:
                    continue
                for paraphrase in paraphrases[found[0] : found[1]]:
                    for k in grams.get(paraphrase, ()):  # where the paraphrase occurs in the other line
                        size = paraphrase.count(b" ") + 1
                        add((at, length, k, size, 3) if first == 0 else (k, size, at, length, 3))
    return matches, cover1, cover2


def _ngrams(line: list[bytes], longest: int) -> dict[bytes, list[int]]:
    """Where each phrase of at most ``longest`` words starts in a line, in order."""
    out: dict[bytes, list[int]] = {}
    for k in range(len(line)):
        for size in range(1, min(longest, len(line) - k) + 1):
            out.setdefault(b" ".join(line[k : k + size]), []).append(k)
    return out


def _resolve(matches: list[list[Match]], start: _Path) -> _Path:
    """The beam search of ``Aligner.resolve``, its bookkeeping included."""
    weights = _SEARCH_WEIGHTS
    n2 = len(matches)
    next_paths = [start]
    for current in range(n2 + 1):
        paths = sorted(next_paths, key=_Path.sort_key)
        next_paths = []
        for path in paths[:_BEAM]:
            if current == n2:
                if path.last_end != -1:
                    path.chunks += 1
                next_paths.append(path)
                continue
            if path.used2[current]:
                if current < path.idx:
                    next_paths.append(path)
                elif (fixed := path.matches[path.idx]) is not None:
                    _advance(path, fixed, weights)
                    path.distance += abs(fixed[0] - fixed[2])
                    next_paths.append(path)
                continue
            for m in matches[current]:
                j, length, i, match_length, _ = m
                if any(path.used2[j : j + length]) or any(path.used1[i : i + match_length]):
                    continue
                new = path.copy()
                new.used2[j : j + length] = [True] * length
                new.used1[i : i + match_length] = [True] * match_length
                new.matches[current] = m
                _advance(new, m, weights)
                path.distance += abs(j - i)  # the jar adds it to the path it branches from
                next_paths.append(new)
            if path.last_end != -1:
                path.chunks += 1
                path.last_end = -1
            path.idx += 1
            next_paths.append(path)
        if not next_paths:
            next_paths.append(paths[0])
    return min(next_paths, key=_Path.sort_key)


def _advance(path: _Path, m: Match, weights: Sequence[float]) -> None:
    j, length, i, match_length, module = m
    path.matches1 = int(path.matches1 + match_length * weights[module])  # Java's int += double
    path.matches2 = int(path.matches2 + length * weights[module])
    if path.last_end != -1 and i != path.last_end:
        path.chunks += 1
    path.idx = j + length
    path.last_end = i + match_length


@lru_cache(maxsize=1 << 16)
def _align(words1: tuple[str, ...], words2: tuple[str, ...]) -> tuple[float, ...]:
    """The statistics of a normalised hypothesis (``words1``) against a reference (``words2``); remembered
    (a title pair recurs at every tIoU threshold and in SODA_c)."""
    n1, n2 = len(words1), len(words2)
    matches, cover1, cover2 = _find_matches(words1, words2)
    start = _Path(n1, n2)
    for j, here in enumerate(matches):
        if len(here) == 1:
            m = here[0]
            if all(c == 1 for c in cover2[j : j + m[1]]) and all(c == 1 for c in cover1[m[2] : m[2] + m[3]]):
                start.matches[j] = m
                start.used2[j : j + m[1]] = [True] * m[1]
                start.used1[m[2] : m[2] + m[3]] = [True] * m[3]
    best = _resolve(matches, start)
    function_words = _data().function_words
    function1 = [w.lower() in function_words for w in words1]
    function2 = [w.lower() in function_words for w in words2]
    # per module: hypothesis content, reference content, hypothesis function, reference function
    counts = [[0, 0, 0, 0] for _ in range(_N_MODULES)]
    chunks, last_end, idx = 0, -1, 0
    while idx < n2:
        chosen = best.matches[idx]
        if chosen is None:
            if last_end != -1:
                chunks += 1
                last_end = -1
            idx += 1
            continue
        j, length, i, match_length, module = chosen
        for k in range(i, i + match_length):
            counts[module][2 if function1[k] else 0] += 1
        for k in range(j, j + length):
            counts[module][3 if function2[k] else 1] += 1
        if last_end != -1 and i != last_end:
            chunks += 1
        idx, last_end = j + length, i + match_length
    if last_end != -1:
        chunks += 1
    stats = [float(n1), float(n2), float(sum(function1)), float(sum(function2))]
    for row in counts:
        stats.extend(map(float, row))
    stats.append(float(chunks))
    stats.append(float(sum(row[0] + row[2] for row in counts)))
    stats.append(float(sum(row[1] + row[3] for row in counts)))
    return tuple(stats)


def _divide(a: float, b: float) -> float:
    """Java's double division (no exception: infinities and NaN)."""
    if b != 0.0:
        return a / b
    if a == 0.0 or math.isnan(a):
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def stats_score(stats: Sequence[float]) -> float:
    """The score of a list of 23 statistics (``MeteorScorer.computeMetrics``, in its order of operations)."""
    test_len, ref_len, test_fn, ref_fn = stats[:4]
    stages = [stats[4 + 4 * k : 8 + 4 * k] for k in range(_N_MODULES)]
    chunks, test_words, ref_words = stats[20:23]
    test_total = ref_total = 0.0
    for content1, content2, function1, function2 in stages:
        test_total += content1
        test_total += function1
        ref_total += content2
        ref_total += function2
    test_weighted_len = DELTA * (test_len - test_fn) + (1.0 - DELTA) * test_fn
    ref_weighted_len = DELTA * (ref_len - ref_fn) + (1.0 - DELTA) * ref_fn
    test_matches = ref_matches = 0.0
    for k in range(_N_MODULES):
        test_matches += stages[k][0] * MODULE_WEIGHTS[k] * DELTA
    for k in range(_N_MODULES):
        ref_matches += stages[k][1] * MODULE_WEIGHTS[k] * DELTA
    for k in range(_N_MODULES):
        test_matches += stages[k][2] * MODULE_WEIGHTS[k] * (1.0 - DELTA)
    for k in range(_N_MODULES):
        ref_matches += stages[k][3] * MODULE_WEIGHTS[k] * (1.0 - DELTA)
    precision = _divide(test_matches, test_weighted_len)
    recall = _divide(ref_matches, ref_weighted_len)
    f_mean = _divide(1.0, _divide(1.0 - ALPHA, precision) + _divide(ALPHA, recall))
    if test_total == test_len and ref_total == ref_len and chunks == 1:
        frag = 0.0
    else:
        frag = _divide(chunks, (test_words + ref_words) / 2)
    penalty = GAMMA * math.pow(frag, BETA)
    score = f_mean * (1.0 - penalty)
    return 0.0 if math.isnan(score) else max(score, 0.0) + 0.0


def aggregate(all_stats: Sequence[Sequence[float]]) -> list[float]:
    """The sum of pairs' statistics (``MeteorStats.addStats``: a pair matched whole in one chunk adds no chunk)."""
    total = [0.0] * 23
    for stats in all_stats:
        perfect = sum(stats[4:20:2]) == stats[0] and sum(stats[5:20:2]) == stats[1] and stats[20] == 1.0
        for k in range(23):
            if k != 20 or not perfect:
                total[k] += stats[k]
    return total


def _java_trim(text: str) -> str:
    return text.strip(_JAVA_TRIM)


def meteor_stats(hypothesis: str, references: Sequence[str]) -> list[float]:
    """The jar's answer to pycocoevalcap's ``SCORE`` line for a hypothesis and its references: the 23
    statistics of the best-scoring reference (the first of equal scores)."""
    hypothesis = hypothesis.replace("|||", "").replace("  ", " ")
    line = " ||| ".join(("SCORE", " ||| ".join(references), hypothesis))
    parts = line.split("|||")
    while parts and parts[-1] == "":
        parts.pop()  # Java's String.split drops trailing empty strings
    if len(parts) < 3:
        raise ValueError(f"METEOR needs a hypothesis and at least one reference: {line!r}")
    words1 = tuple(_TOKENS.findall(normalize(_java_trim(parts[-1]))))
    best: list[float] | None = None
    best_score = -1.0
    for reference in parts[1:-1]:
        stats = list(_align(words1, tuple(_TOKENS.findall(normalize(_java_trim(reference))))))
        score = stats_score(stats) if len(parts) > 3 else 0.0  # the score chooses among several references
        if score > best_score:
            best, best_score = stats, score
    assert best is not None
    return best


def compute_score(gts: dict, res: dict) -> tuple[float, list[float]]:
    """pycocoevalcap's ``Meteor().compute_score(gts, res)`` without Java: ``(aggregate, [segment scores])``
    over the keys of ``gts`` in order (``res[k]``: a list of one hypothesis; ``gts[k]``: its references)."""
    if gts.keys() != res.keys():
        raise ValueError("gts and res must have the same keys")
    all_stats = []
    for key in gts:
        if len(res[key]) != 1:
            raise ValueError(f"METEOR scores one hypothesis per key: {key!r} has {len(res[key])}")
        all_stats.append(meteor_stats(res[key][0], gts[key]))
    return stats_score(aggregate(all_stats)), [stats_score(s) for s in all_stats]
