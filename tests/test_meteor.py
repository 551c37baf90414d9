"""METEOR 1.5 in Python (tvseg.retrieval.meteor) against the jar pycocoevalcap ships.

The jar is run as pycocoevalcap's ``Meteor`` runs it (``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en
-norm``, in the jar's folder): a ``SCORE`` line per pair, then an ``EVAL`` line per corpus, whose answers
(each pair's score, then the corpus score) are the expected values. The jar's tests need Java and are
skipped without it; the hand-worked cases do not.
"""

from __future__ import annotations

import math
import random
import shutil
import subprocess

import pytest

pytest.importorskip("pycocoevalcap")
pytest.importorskip("snowballstemmer")

from tvseg.retrieval import meteor  # noqa: E402

needs_java = pytest.mark.skipif(
    shutil.which("java") is None,
    reason="needs Java (`java` on the PATH) to run pycocoevalcap's METEOR jar (apt-get install default-jre-headless)",
)


def score(hypothesis: str, reference: str) -> float:
    return meteor.stats_score(meteor.meteor_stats(hypothesis, [reference]))


def test_hand_worked_cases():
    # English "rank" task: alpha 0.85, beta 0.2, gamma 0.6, delta 0.75; module weights 1, 0.6, 0.8, 0.6.
    # Identical words, one chunk: P = R = 1, F = 1 / (0.15 / 1 + 0.85 / 1) = 1, no penalty (everything
    # matched in one chunk): 1.
    assert score("a man is cooking pasta", "a man is cooking pasta") == 1.0
    # Nothing in common: P = 0, F = 1 / (0.15 / 0 + 0.85 / 0) = 1 / inf = 0: 0.
    assert score("alpha", "bravo") == 0.0
    # Two content words swapped: P = R = 1, F = 1; two chunks of 2 matched words on each side:
    # frag = 2 / ((2 + 2) / 2) = 1, penalty = 0.6 * 1 ** 0.2 = 0.6, score = 1 * (1 - 0.6) = 0.4.
    assert score("piano ocean", "ocean piano") == 1.0 - 0.6
    # A stem match (cooks, cooking: stem "cook"), weight 0.6: P = R = 0.6 * 0.75 / 0.75 = 0.6, F = 0.6; one
    # word matched in one chunk on each side: no penalty: 0.6.
    assert score("cooks", "cooking") == pytest.approx(0.6, abs=1e-15)
    # "the piano" / "a piano": function words the, a (weight 1 - delta = 0.25) unmatched, piano matched:
    # lengths 0.75 + 0.25 = 1, matches 0.75: P = R = F = 0.75; not all matched: frag = 1 / ((1 + 1) / 2) = 1,
    # penalty 0.6: 0.75 * 0.4 = 0.3.
    assert score("the piano", "a piano") == pytest.approx(0.3, abs=1e-15)
    # The statistics of that pair: lengths 2, 2; function words 1, 1; exact content matches 1, 1; 1 chunk;
    # matched words 1, 1.
    stats = meteor.meteor_stats("the piano", ["a piano"])
    assert stats[:8] == [2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0] and stats[20:] == [1.0, 1.0, 1.0]
    # an empty hypothesis: 0; the corpus of the pairs above: their sums scored as one pair
    assert score("", "piano") == 0.0
    gts = {0: ["piano ocean"], 1: ["alpha"]}
    res = {0: ["ocean piano"], 1: ["bravo"]}
    # sums: lengths 3, 3, matches 2, 2, chunks 2 (the first pair's): P = R = 2 * 0.75 / (3 * 0.75) = 2/3,
    # frag = 2 / 2 = 1, penalty 0.6: 2/3 * 0.4
    total, segments = meteor.compute_score(gts, res)
    assert segments == [0.4, 0.0] and total == pytest.approx(2 / 3 * 0.4, abs=1e-15)


def test_normalize():
    # Meteor's -norm: abbreviations of the non-breaking list kept (Mr.), dotted acronyms joined (U.S. -> us),
    # dashes between words split, 's split off, commas separated except inside numbers, a final period split
    assert meteor.normalize("The U.S.-based firm's CEO, Mr. Smith, paid 1,000 dollars.") == (
        "the us based firm 's ceo , mr. smith , paid 1,000 dollars ."
    )


def run_jar(corpora: list[list[tuple[str, list[str]]]]) -> list[tuple[list[str], list[float], float]]:
    """Per corpus: the jar's statistics lines, segment scores and corpus score (pycocoevalcap's protocol, one
    line answered at a time)."""
    jar = meteor.jar_path()
    command = ["java", "-jar", "-Xmx2G", jar.name, "-", "-", "-stdio", "-l", "en", "-norm"]
    process = subprocess.Popen(
        command, cwd=jar.parent, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert process.stdin is not None and process.stdout is not None

    def ask(line: str, n_answers: int) -> list[str]:
        process.stdin.write(line + "\n")
        process.stdin.flush()
        return [process.stdout.readline().strip() for _ in range(n_answers)]

    out = []
    try:
        for pairs in corpora:
            stats = []
            for hypothesis, references in pairs:
                hypothesis = hypothesis.replace("|||", "").replace("  ", " ")
                stats += ask(" ||| ".join(("SCORE", " ||| ".join(references), hypothesis)), 1)
            scores = [float(x) for x in ask("EVAL ||| " + " ||| ".join(stats), len(pairs) + 1)]
            out.append((stats, scores[:-1], scores[-1]))
    finally:
        process.stdin.close()
        process.wait()
    return out


def generated_corpora(seed: int, n_corpora: int, size: int) -> list[list[tuple[str, list[str]]]]:
    """Caption-like pairs whose words meet every module: equal words, inflections (stems, WordNet's
    exceptions), synonyms of WordNet, phrases of the paraphrase table and their paraphrases, function words,
    punctuation and case (the normaliser), pairs of equal captions, a second reference, long captions."""
    rng = random.Random(seed)
    data = meteor._data()
    index, paraphrases, _ = data.paraphrases()
    phrases = sorted(p for p in index if len(p) < 40)
    function_words = sorted(data.function_words)
    words = sorted(w for w in data.synsets if "_" not in w and w.isascii() and w.isalpha())
    by_synset: dict[int, list[str]] = {}
    for w in rng.sample(words, 30000):
        for s in data.synsets[w]:
            by_synset.setdefault(s, []).append(w)
    synonyms: dict[str, list[str]] = {}
    for group in by_synset.values():
        for w in group:
            synonyms.setdefault(w, []).extend(x for x in group if x != w)
    with_synonyms = sorted(w for w, others in synonyms.items() if others)
    inflected = sorted(data.bases)
    common = (
        "the a man woman dog runs running ran walks walked walking house houses big small red blue car cars "
        "drive driving introduction conclusion overview setup install installing installation part chapter "
        "final review results test testing tests cooking cook cooked recipe recipes how to make build building"
    ).split()
    punctuation = [
        ",",
        ".",
        "'s",
        "-",
        "!",
        "?",
        ":",
        "(",
        ")",
        "'",
        '"',
        "...",
        "&",
        "1",
        "3.5",
        "1,000",
        "u.s.",
        "mr.",
    ]

    def phrase() -> list[str]:
        r = rng.random()
        if r < 0.25:
            return [rng.choice(common)]
        if r < 0.4:
            return [rng.choice(function_words)]
        if r < 0.55:
            return [rng.choice(with_synonyms)]
        if r < 0.6:
            return [rng.choice(punctuation)]
        if r < 0.67:
            return [rng.choice(inflected)]
        if r < 0.78:
            return [rng.choice(words)]
        return rng.choice(phrases).decode().split(" ")

    def variant(p: list[str]) -> list[str]:
        r = rng.random()
        if r < 0.45:
            return p
        if r < 0.55:
            return []
        if r < 0.68 and len(p) == 1 and synonyms.get(p[0]):
            return [rng.choice(synonyms[p[0]])]
        if r < 0.78 and len(p) == 1:
            return [p[0] + rng.choice(["s", "ed", "ing", "es", "er", "ly"])]
        found = index.get(" ".join(p).encode())
        if found is not None:
            return paraphrases[rng.randrange(*found)].decode().split(" ")
        return [rng.choice(common)] if r < 0.9 else p + phrase()

    corpora = []
    for _ in range(n_corpora):
        pairs = []
        for _ in range(size):
            longest = 40 if rng.random() < 0.1 else 10
            ref = [phrase() for _ in range(rng.randint(0 if rng.random() < 0.02 else 1, longest))]
            hyp = [variant(p) for p in ref]
            if rng.random() < 0.3 and len(hyp) > 2:
                a, b = rng.randrange(len(hyp)), rng.randrange(len(hyp))
                hyp[a], hyp[b] = hyp[b], hyp[a]
            if rng.random() < 0.2:
                hyp.insert(rng.randrange(len(hyp) + 1), phrase())
            r, h = " ".join(w for p in ref for w in p), " ".join(w for p in hyp for w in p)
            if rng.random() < 0.1:
                h = r
            if rng.random() < 0.1:
                h, r = h.title(), r.upper() if rng.random() < 0.5 else r
            references = [r] if rng.random() < 0.9 else [r, " ".join(w for _ in range(4) for w in phrase())]
            pairs.append((h, references))
        corpora.append(pairs)
    return corpora


def written_corpora(seed: int, n_corpora: int, size: int) -> list[list[tuple[str, list[str]]]]:
    """Titles as people write them, for the normaliser: case, abbreviations, dotted acronyms, contractions,
    quotes of every kind, dashes, commas in numbers, repeated dots, brackets, symbols, accented and Cyrillic
    letters, non-breaking spaces, tabs."""
    rng = random.Random(seed)
    atoms = [
        "The", "U.S.", "U.S.-based", "Mr.", "Dr.", "No.", "No. 5", "Inc.", "etc.", "e.g.", "A.", "it's", "don't",
        "can't", "students'", "'90s", "1990's", "rock'n'roll", "'quoted'", "\u2018single\u2019", "\u201cdouble\u201d",
        "``tex''", "a--b", "x\u2013y", "well-known", "3.5", "1,000", "a,b", "1,a", "a,1", "wait...", "what?!", "Hi!",
        "(paren)", "[b]", "{c}", "$5", "50%", "#tag", "@user", "a/b", "c&d", "x+y", "3:45", "end.", "Hello.", "World",
        "caf\u00e9", "na\u00efve", "\u00c9COLE", "\u043c\u043e\u0441\u043a\u0432\u0430", "\u00a0nbsp", "tab\there",
        "...", "..", ". . .", "'", "''", "`", "-", "--", "---", "_under_", "x.y.z", "v1.2.3", "St.", "Jan.", "pp. 12",
        "Art. 3", "cooking", "cooks", "Running", "ran", "houses", "dogs", "car", "automobile", "big", "large",
    ]  # fmt: skip
    corpora = []
    for _ in range(n_corpora):
        pairs = []
        for _ in range(size):
            ref = " ".join(rng.choice(atoms) for _ in range(rng.randint(1, 12)))
            if rng.random() < 0.5:
                hyp = " ".join(rng.choice(atoms) for _ in range(rng.randint(1, 12)))
            else:
                hyp = ref.replace(rng.choice(atoms), rng.choice(atoms))
            if rng.random() < 0.3:
                hyp = "".join(c if rng.random() < 0.95 else rng.choice(" .,'-\u2019\"") for c in hyp)
            pairs.append((hyp, [ref]))
        corpora.append(pairs)
    return corpora


@needs_java
def test_equal_to_the_jar_on_generated_caption_pairs():
    # 4,000 caption-like pairs in 40 corpora, and 1,000 written titles in 10
    corpora = generated_corpora(44, 40, 100) + written_corpora(45, 10, 100)
    jar = run_jar(corpora)
    n_pairs = n_exact = 0
    used = [0, 0, 0, 0]
    for pairs, (jar_stats, jar_segments, jar_total) in zip(corpora, jar):
        total, segments = meteor.compute_score(
            {k: refs for k, (_, refs) in enumerate(pairs)}, {k: [h] for k, (h, _) in enumerate(pairs)}
        )
        for (hypothesis, references), line, theirs, ours in zip(pairs, jar_stats, jar_segments, segments):
            stats = meteor.meteor_stats(hypothesis, references)
            # the statistics (lengths, function words, matches per module, chunks) are the jar's
            assert stats == [float(x) for x in line.split()], (hypothesis, references)
            for module in range(4):
                used[module] += sum(stats[4 + 4 * module : 8 + 4 * module]) > 0
            # the score: the jar's printed value, or one or two units in the last place away (the jar's
            # Math.pow is HotSpot's, not always correctly rounded: x ** 0.2 may differ by one unit)
            n_pairs += 1
            n_exact += ours == theirs
            assert abs(ours - theirs) <= 2 * math.ulp(theirs), (hypothesis, references, ours, theirs)
        assert abs(total - jar_total) <= 2 * math.ulp(jar_total)
    assert n_pairs == 5000 and n_exact >= 0.99 * n_pairs
    # every module matched something in many pairs
    assert min(used) > 300, used
