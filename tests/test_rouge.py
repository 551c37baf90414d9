"""Title ROUGE-L (issue 14): equal to rouge-score's RougeScorer(["rougeL"]) on 1,000 random title pairs,
with and without stemming; a hand-computed example; the evaluate integration counted by hand."""

import math
import random
import sys
import warnings

import pytest
from pyannote.core import Annotation, Segment
from rouge_score import rouge_scorer

from tvseg.errors import TvsegWarning
from tvseg.evaluation import evaluate
from tvseg.retrieval import rouge
from tvseg.retrieval.rouge import lcs_length, rouge_l, rouge_l_list, rouge_tokens
from tvseg.settings import Settings

# French and English words, accents and ligatures, case, digits (ASCII and not), Unicode oddities
# whose lower case is ASCII (KELVIN SIGN -> "k", "İ" -> "i" + a combining dot) and words the Porter
# stemmer changes (and some it turns into a shorter or longer token).
WORDS = [
    "le",
    "la",
    "les",
    "de",
    "du",
    "des",
    "à",
    "et",
    "tour",
    "France",
    "france",
    "élections",
    "elections",
    "Élections",
    "municipales",
    "réforme",
    "reforme",
    "retraites",
    "Météo",
    "météo",
    "grève",
    "SNCF",
    "Besançon",
    "cœur",
    "Œuvre",
    "été",
    "ÉTÉ",
    "l'étape",
    "aujourd'hui",
    "2015",
    "2ᵉ",
    "²",
    "٣",
    "1er",
    "10",
    "journal",
    "sport",
    "sports",
    "running",
    "runs",
    "nations",
    "nationalization",
    "generously",
    "flies",
    "ies",
    "sky",
    "news",
    "The",
    "the",
    "\u212aelvin",
    "İstanbul",
    "straße",
    "naïve",
    "x",
    "a1b2",
    "_",
    "AI",
    "Ukraine",
    "ukrainian",
    "conditional",
]
SEPARATORS = [" ", " ", " ", "  ", " : ", "_", "-", ", ", "'", "\t", " !", "\u00a0", "\n", " « ", " » ", "—"]
EMPTY = ["", " ", "   ", "!!!", "<>", "é", "_"]


def _title(rng: random.Random) -> str:
    if rng.random() < 0.06:
        return rng.choice(EMPTY)
    n = rng.randint(30, 80) if rng.random() < 0.1 else rng.randint(1, 12)  # some beyond 64 tokens
    text = rng.choice(WORDS)
    for _ in range(n - 1):
        text += rng.choice(SEPARATORS) + rng.choice(WORDS)
    return text


def _pairs(n=1000, seed=14):
    rng = random.Random(seed)
    return [(_title(rng), _title(rng)) for _ in range(n)]


@pytest.mark.parametrize("stem", [False, True])
def test_equal_to_rouge_score_on_1000_random_title_pairs(stem):
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=stem)
    pairs = _pairs()
    assert sum(1 for a, b in pairs if not rouge_tokens(a) or not rouge_tokens(b)) >= 50  # empty sides tested
    assert sum(1 for a, b in pairs if 0 < rouge_l(a, b).fmeasure < 1) >= 300  # partial overlaps tested
    for a, b in pairs:
        expected = scorer.score(a, b)["rougeL"]
        got = rouge_l(a, b, use_stemmer=stem)
        # equal bit for bit, not approximately
        assert tuple(got) == (expected.precision, expected.recall, expected.fmeasure), (a, b)
        assert list(rouge_tokens(a, stem)) == scorer._tokenizer.tokenize(a), a


def test_lcs_against_the_dynamic_programme():
    rng = random.Random(3)
    for _ in range(500):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 90))]
        b = [rng.choice("abcd") for _ in range(rng.randint(0, 90))]
        table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for i in range(1, len(a) + 1):
            for j in range(1, len(b) + 1):
                table[i][j] = table[i - 1][j - 1] + 1 if a[i - 1] == b[j - 1] else max(table[i - 1][j], table[i][j - 1])
        assert lcs_length(a, b) == table[-1][-1]


def test_by_hand():
    # reference "Le tour de France 2015" -> le tour de france 2015 (5 tokens);
    # hypothesis "Tour de France : l'étape" -> tour de france l tape (5 tokens: "é" separates);
    # LCS = tour de france (3): P = 3/5, R = 3/5, F = 3/5.
    assert rouge_l("Le tour de France 2015", "Tour de France : l'étape") == (0.6, 0.6, 0.6)
    # "Réforme des retraites" -> r forme des retraites (4); "la réforme" -> la r forme (3);
    # LCS = r forme (2): P = 2/3, R = 2/4, F = 2 * (2/3) * (1/2) / (2/3 + 1/2) = 4/7
    p, r, f = rouge_l("Réforme des retraites", "la réforme")
    assert (p, r) == (2 / 3, 0.5) and f == pytest.approx(4 / 7)
    # non-ASCII letters are separators, as in rouge-score: the accent splits the word
    assert rouge_tokens("Élections à Besançon, été 2ᵉ") == ("lections", "besan", "on", "t", "2")
    assert rouge_l("élections", "elections").fmeasure == 0.0
    # empty on either side: all zeros, even both empty
    assert rouge_l("", "") == (0.0, 0.0, 0.0) and rouge_l("Sport", "!!!") == (0.0, 0.0, 0.0)
    # order matters (a subsequence), unlike title-word F1: LCS of "a b c" and "c b a" is 1
    assert rouge_l("a b c", "c b a").fmeasure == pytest.approx(1 / 3)
    # with stemming: "nations" and "nation" share the stem "nation"
    assert rouge_l("United nations", "united nation", use_stemmer=True).fmeasure == 1.0
    assert rouge_l("United nations", "united nation").fmeasure == 0.5


def test_whole_list_is_rouge_score_on_the_titles_joined():
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    rng = random.Random(5)
    for _ in range(100):
        ref = [_title(rng) for _ in range(rng.randint(0, 8))]
        hyp = [_title(rng) for _ in range(rng.randint(0, 8))]
        expected = scorer.score(" ".join(ref), " ".join(hyp))["rougeL"]
        assert tuple(rouge_l_list(ref, hyp)) == tuple(expected)


def test_stemming_needs_no_nltk(monkeypatch):
    rouge.rouge_tokens.cache_clear()
    rouge._stem.cache_clear()
    monkeypatch.setitem(sys.modules, "nltk", None)  # any import of nltk fails
    try:
        # "connected" and "connection" both stem to "connect" (Porter 1980's own example): one token each,
        # equal, so P = R = F = 1
        assert rouge_l("Connected", "connection", use_stemmer=True) == (1.0, 1.0, 1.0)
    finally:
        rouge.rouge_tokens.cache_clear()
        rouge._stem.cache_clear()


def _ann(*segments):
    a = Annotation()
    for start, end, label in segments:
        a[Segment(start, end)] = label
    return a


def test_evaluate_title_rouge_counted_by_hand():
    # show a: identical segments, all correctly retrieved.
    #   ref |Élections municipales|Le tour de France 2015|<NA>  |La météo|
    #   hyp |Élections, municipales !|Tour de France : l'étape|Bourse|<NA>  |
    #   titled reference segments correctly retrieved: 1, 2, 4 (3 has no title) -> 3
    #   ROUGE-L F: 1 (same tokens), 0.6 (the hand example above), 0 (hypothesis without title)
    #   -> show a: 1.6 / 3. Whole list: ref tokens lections municipales le tour de france 2015
    #   la m t o (11), hyp lections municipales tour de france l tape bourse (8), LCS 5
    #   -> P = 5/8, R = 5/11, F = 10/19.
    # show b: ref |Sport 0-100|Weather 100-200|, hyp |sport 0-150|Weather 150-200|: no segment is
    #   correctly retrieved (100/150 and 50/100 < 0.85) -> title_rougeL_f1 NaN (0/0); whole list
    #   "sport weather" both sides -> 1.
    # show c: no reference title -> not judged (NaN), left out of both.
    # corpus: title_rougeL_f1 = 1.6 / 3 (pooled over segments); title_list_rougeL_f1 = mean over
    #   shows a and b = (10/19 + 1) / 2.
    ref = {
        "a": _ann(
            (0, 100, "Élections municipales"),
            (100, 200, "Le tour de France 2015"),
            (200, 300, "<NA>"),
            (300, 400, "La météo"),
        ),
        "b": _ann((0, 100, "Sport"), (100, 200, "Weather")),
        "c": _ann((0, 100, "<NA>")),
    }
    hyp = {
        "a": _ann(
            (0, 100, "Élections, municipales !"),
            (100, 200, "Tour de France : l'étape"),
            (200, 300, "Bourse"),
            (300, 400, "<NA>"),
        ),
        "b": _ann((0, 150, "sport"), (150, 200, "Weather")),
        "c": _ann((0, 100, "Something")),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        result = evaluate(ref, {"sys": hyp}, settings=Settings(bootstrap=50))
    sr = result.systems["sys"]
    assert sr.corpus["title_rougeL_f1"] == pytest.approx(1.6 / 3)
    assert sr.corpus["title_list_rougeL_f1"] == pytest.approx((10 / 19 + 1) / 2)
    shows = sr.shows
    assert shows.loc["a", "title_rougeL_f1"] == pytest.approx(1.6 / 3)
    assert math.isnan(shows.loc["b", "title_rougeL_f1"]) and math.isnan(shows.loc["c", "title_rougeL_f1"])
    assert list(shows["title_list_rougeL_f1"].iloc[:2]) == pytest.approx([10 / 19, 1.0])
    assert math.isnan(shows.loc["c", "title_list_rougeL_f1"])
    assert sr.macro["title_rougeL_f1"] == pytest.approx(1.6 / 3)
    assert sr.macro["title_list_rougeL_f1"] == pytest.approx((10 / 19 + 1) / 2)
    assert list(sr.scores.reference_title_rougeL[:4]) == [1.0, 0.6, 0.0, 0.0]
    # the title-word F1 of the same pairs, for contrast: ("le tour de france 2015", "tour de france l
    # étape") share 3 of 5 + 5 words -> 0.6 too; ROUGE-L differs from it on accents and word order
    assert sr.corpus["title_f1"] == pytest.approx(1.6 / 3)
    data = result.to_json()["systems"]["sys"]
    assert {"title_rougeL_f1", "title_list_rougeL_f1"} <= set(data["bootstrap"])
