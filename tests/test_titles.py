"""Titles: normalisation, title-word F1 (Jin & Hauptmann 2001) and titled recall/precision."""

import warnings

import pytest
from pyannote.core import Annotation, Segment

from tvseg.errors import TvsegWarning
from tvseg.evaluation import evaluate
from tvseg.retrieval.titles import normalize_title, title_f1, title_match
from tvseg.settings import Settings


def test_normalisation():
    assert normalize_title("Pension_reform:_unions_call_a_strike") == "pension reform unions call a strike"
    assert normalize_title("  ÉTÉ   caniculaire!! ") == "été caniculaire"
    assert normalize_title("ﬁnance") == "finance"  # NFKC unfolds the ligature
    assert normalize_title("Straße") == normalize_title("STRASSE")  # casefold, not lower


def test_title_word_f1_by_hand():
    # ref words {pension, reform, strike} (3), hyp {pension, reform, protest, today} (4):
    # 2 shared -> P = 2/4, R = 2/3, F1 = 2*(1/2)(2/3)/(7/6) = 4/7
    assert title_f1("Pension reform: strike", "pension reform protest today") == pytest.approx(4 / 7)
    # bags count repeats: ref "la la land" (3) vs hyp "la land" (2): shared 2 -> 2*2/5
    assert title_f1("la la land", "la land") == pytest.approx(0.8)
    assert title_f1("weather", "sport") == 0.0
    assert title_match("Sport!", "sport") and not title_match("sport news", "sport")
    assert title_match("sport news", "sport", f1_threshold=0.6)  # F1 = 2*1/3 = 0.667


def ann(*items):
    a = Annotation()
    for s, e, label in items:
        a[Segment(s, e)] = label
    return a


def test_titled_recall_and_precision():
    # ref:  |Headlines 0-60|Pension_reform 60-200|Weather 200-230|Sport 230-300|
    # hyp:  |headlines 0-60|Pension reform! 60-195|Strike 195-300              |
    # correctly retrieved: R1 <-> H1 (1.0), R2 <-> H2 (2*135/275 = 0.98); R3, R4 are not
    # (R4 <-> H3 = 2*70/175 = 0.8). Titles: H1 exact, H2 exact after normalisation -> 2 of 2.
    # title_accuracy = 2/2, titled_recall = 2/4, titled_precision = 2/3.
    ref = ann((0, 60, "Headlines"), (60, 200, "Pension_reform"), (200, 230, "Weather"), (230, 300, "Sport"))
    hyp = ann((0, 60, "headlines"), (60, 195, "Pension reform!"), (195, 300, "Strike"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        c = evaluate({"s": ref}, {"sys": {"s": hyp}}, settings=Settings(bootstrap=0)).systems["sys"].corpus
    assert c["title_accuracy"] == 1.0 and c["title_f1"] == 1.0
    assert c["titled_recall"] == 0.5 and c["titled_precision"] == pytest.approx(2 / 3)
    # with one wrong title: H2 "Pension strike" -> F1 with "pension reform" = 2*1/4 = 0.5
    hyp = ann((0, 60, "headlines"), (60, 195, "Pension strike"), (195, 300, "Strike"))
    for threshold, accuracy in ((None, 0.5), (0.5, 1.0), (0.6, 0.5)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TvsegWarning)
            c = (
                evaluate({"s": ref}, {"sys": {"s": hyp}}, settings=Settings(bootstrap=0, title_f1_threshold=threshold))
                .systems["sys"]
                .corpus
            )
        assert c["title_accuracy"] == accuracy
        assert c["title_f1"] == pytest.approx((1.0 + 0.5) / 2)


def test_no_titles_no_title_metrics():
    ref = ann((0, 60, "<NA>"), (60, 100, "<NA>"))
    hyp = ann((0, 60, "a"), (60, 100, "b"))
    c = evaluate({"s": ref}, {"sys": {"s": hyp}}, settings=Settings(bootstrap=0)).systems["sys"].corpus
    assert "title_accuracy" not in c


def test_untitled_reference_segments_are_left_out_of_title_accuracy_and_f1(tmp_path):
    # ref:  |Alpha 0-100|<NA> 100-200|Gamma 200-300|<NA> 300-400|
    # hyp:  |alpha 0-100|<NA> 100-200|Delta 200-300|Something 300-400|   (identical segments)
    # Every segment is correctly retrieved (coverage 1). Reference segments with a title: Alpha,
    # Gamma (2); without: 2 -> n_untitled_reference = 2.
    # title_accuracy = correct titles among the 2 titled ones = Alpha only = 1/2 (it was 1/4 when
    #   untitled reference segments counted as failures);
    # title_f1 = (F1(Alpha, alpha) = 1 + F1(Gamma, Delta) = 0) / 2 = 1/2;
    # titled_recall = 1 correct title / 4 reference segments = 1/4 (definition kept);
    # titled_precision = 1 / 4 hypothesis segments.
    ref = ann((0, 100, "Alpha"), (100, 200, "<NA>"), (200, 300, "Gamma"), (300, 400, "<NA>"))
    hyp = ann((0, 100, "alpha"), (100, 200, "<NA>"), (200, 300, "Delta"), (300, 400, "Something"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        result = evaluate({"s": ref}, {"sys": {"s": hyp}}, settings=Settings(bootstrap=0))
    c = result.systems["sys"].corpus
    assert c["n_untitled_reference"] == 2
    assert (c["title_accuracy"], c["title_f1"]) == (0.5, 0.5)
    assert (c["titled_recall"], c["titled_precision"]) == (0.25, 0.25)
    data = result.to_json()["systems"]["sys"]
    assert data["corpus"]["n_untitled_reference"] == 2 and data["shows"]["s"]["n_untitled_reference"] == 2
    assert isinstance(data["corpus"]["n_untitled_reference"], int)


def test_title_f1_threshold_is_decided_exactly():
    # "a b c" against "a b d": 2 shared words, F1 = 2 x 2 / (3 + 3) = 2/3. At the threshold written
    # 0.6666666666666666 (the float of 2/3) the match holds only when 2/3 >= that decimal, which it is.
    # At 0.67 it fails.
    assert title_match("a b c", "a b d", f1_threshold=0.6666666666666666)
    assert not title_match("a b c", "a b d", f1_threshold=0.67)
    # "a b c d e" against "a b c d f": F1 = 2 x 4 / 10 = 0.8 exactly, so threshold 0.8 matches
    # (in floats 2 * 4 / 10 is 0.8 too; the exact rule makes it so by construction)
    assert title_match("a b c d e", "a b c d f", f1_threshold=0.8)


def test_title_stemming_is_a_setting_of_evaluate(capsys):
    # "Nations unies" against "nation unie": without stemming ROUGE-L shares no token (F 0); with the
    # Porter stemmer both sides are "nation uni" (F 1), as rouge-score's use_stemmer=True
    ref = ann((0, 60, "Nations unies"), (60, 120, "Sport"))
    hyp = ann((0, 60, "nation unie"), (60, 120, "Sport"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TvsegWarning)
        plain = evaluate({"s": ref}, {"sys": {"s": hyp}}, settings=Settings(bootstrap=0))
        stemmed = evaluate({"s": ref}, {"sys": {"s": hyp}}, settings=Settings(bootstrap=0, title_stemming=True))
    assert plain.systems["sys"].corpus["title_rougeL_f1"] == pytest.approx((0 + 1) / 2)
    assert stemmed.systems["sys"].corpus["title_rougeL_f1"] == pytest.approx((1 + 1) / 2)
    assert "stem:yes" in stemmed.settings.signature() and "stem:no" in plain.settings.signature()
