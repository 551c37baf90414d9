r"""Chapter-title captioning metrics as VidChapters' ``dvc_eval`` computes them: METEOR, CIDEr-D,
BLEU-1..4 and ROUGE-L at tIoU 0.3/0.5/0.7/0.9, and SODA_c (METEOR).

VidChapters-7M (Yang et al., NeurIPS 2023) reports dense-video-captioning scores of the chapter titles
with its ``dvc_eval`` package (https://github.com/antoyang/VidChapters, read at commit ``fa3900c6``, as
:mod:`tvseg.retrieval.chapters`): ``eval_dvc.py`` (class ``ANETcaptions``: ``evaluate_tiou``, ``evaluate``; function ``eval_dvc``) and
``eval_soda.py`` with ``SODA/soda.py``, ``SODA/dataset.py``, ``SODA/utils.py`` (SODA, Fujita et al.,
ECCV 2020). The scorers are pycocoevalcap's (PyPI ``pycocoevalcap`` 1.2; ``dvc_eval`` imports
``pycocoevalcap.*``, and its own copies of ``cider`` and ``meteor`` are identical to 1.2's). This module
calls pycocoevalcap's scorers themselves, so it needs the optional extra ``tvseg[captioning]``; nothing else in
tvseg does. :func:`require_captioning` raises :class:`~tvseg.errors.UsageError` naming what the scorecard lacks.

**METEOR: the jar with Java, :mod:`tvseg.retrieval.meteor` without.** METEOR 1.5 is a Java program
(``meteor-1.5.jar``, which pycocoevalcap runs). With ``java`` on the ``PATH`` tvseg runs the jar, as
``dvc_eval`` does; without it, :mod:`tvseg.retrieval.meteor`, METEOR 1.5 in Python from the jar's own data,
gives the same statistics (matches, chunks, lengths) as the jar on every pair of ``tests/test_meteor.py``
and the same scores except where the jar's ``Math.pow`` (HotSpot's, not correctly rounded) differs from
the correctly rounded power by one unit in the last place: a score then differs by about 1e-16. The jar
stays the default with Java so that no number changes with the machine's Java; ``dvc_meteor`` and
``soda_c`` (:data:`METEOR_KEYS`, the registry's ``meteor`` requirement) are left out only when neither is
there (:func:`meteor_missing`: no Java and no ``snowballstemmer`` 2.x, which the extra installs).

**Tokenisation: Java, or its Python equal.** ``dvc_eval`` tokenises every title with pycocoevalcap's ``PTBTokenizer``,
which runs Stanford CoreNLP 3.4.1's ``edu.stanford.nlp.process.PTBTokenizer -preserveLines
-lowerCase`` (the jar shipped in pycocoevalcap) and then drops the tokens in its ``PUNCTUATIONS`` list.
Before that, ``remove_nonascii`` replaces every non-ASCII character by a space (``"élection"`` becomes
the token ``lection``; accented French titles lose their accented letters, as in ``dvc_eval``).
:func:`tokenize` runs the same command on the same jar with pycocoevalcap's ``PUNCTUATIONS``, once for
all the titles of a corpus (the tokenizer reads line by line; ``tests/test_captioning_metrics.py``
compares it with ``PTBTokenizer.tokenize`` called as ``dvc_eval`` calls it), with Java's messages
kept off the terminal and no file written. Without Java, :mod:`tvseg.retrieval.ptb` gives the jar's tokens
for the titles it covers (``tests/test_ptb_tokenizer.py``), and an approximation, with a warning naming a
title, for the others. A segment without a title (:func:`tvseg.retrieval.titles.has_title`)
is the empty sentence.

**Captioning at tIoU** :math:`t` (``evaluate_tiou``), per video (here: per show), predictions in time
order: every pair of a prediction and a reference chapter with :math:`tIoU \ge t` (note ``>=``, where the
detection metrics use ``>``) is a caption pair (hypothesis: the prediction's title; reference: the
chapter's title), several per prediction when it has several such chapters; a prediction with none is
paired with a random string of 10 to 20 lower-case letters (``dvc_eval``'s ``random_string``: a
one-word reference that matches nothing; here drawn from a generator seeded per show, so that runs repeat,
the score being the same whatever the letters). The tIoU is computed in floats as the code does,
``intersection / (union + 1e-8)`` with ``union = min(max end - min start, (len_ref + end_pred) -
start_pred)``, on the segments' times in seconds. Each scorer is run on the show's pairs **as one
corpus** (``scorer.compute_score(gts, res)``): BLEU-n is the corpus BLEU of the show's pairs
(pycocoevalcap's ``option='closest'``), CIDEr-D (pycocoevalcap's ``Cider``: n = 4, sigma 6, clipped,
times 10) takes its document frequencies from the show's pairs only, METEOR (``meteor-1.5.jar -l en
-norm``) is the jar's aggregate over the show's pairs (not a mean of pair scores), ROUGE-L the mean over
the pairs (beta 1.2). A show without a prediction scores 0. Then, as ``evaluate`` and ``eval_dvc`` do,
each score is averaged over the shows and the four thresholds; tvseg keeps per show the mean over the
thresholds (``dvc_*_sum``) and divides their sum by ``dvc_n_shows``: the same value (the two means
commute) up to the rounding of the sums' order.

**SODA_c** (``SODA(soda_type="c", scorer="Meteor")``, ``eval_soda``), per show with predictions
:math:`H_1..H_m` and reference chapters :math:`R_1..R_n`, both in time order: the matrix
:math:`S_{ij} = tIoU(H_j, R_i) \cdot METEOR_{ij}` (``utils.iou`` with its ``union = min(max end - min
start, (len_pred + end_ref) - start_ref)`` and ``+ 1e-8``; no threshold: SODA_c's ``tious`` is
``[0.0]``), where :math:`METEOR_{ij}` is the jar's segment score with **the reference title as the
hypothesis and the predicted title as the reference** (``calc_score_matrix`` calls
``compute_score(res, gt)``, the arguments swapped; METEOR is not symmetric); the largest total
:math:`D` of :math:`S` over the pairs of an order-preserving one-to-one matching (``chased_dp_assignment``:
``dp[i,j] = max(dp[i-1,j], dp[i,j-1], dp[i-1,j-1] + S[i,j])``); :math:`P = D/m`, :math:`R = D/n`,
:math:`F = 2PR/(P+R)` (0 when :math:`P + R = 0`, and for a show without a prediction). ``soda_c`` is the
mean of :math:`F` over the shows. tvseg computes :math:`D` on the overlapping pairs only (the other
entries of :math:`S` are 0): a longest chain of pairs increasing in both indices, each pair's best chain
the pair's score added to the best before it (a prefix maximum over the predictions), which is the same
float as the code's table (the same additions, and maxima of the same values), in
:math:`O(K \log m)` for :math:`K` overlapping pairs instead of the code's :math:`n \times m` table.

**Differences from ``dvc_eval``.** ``chased_dp_assignment`` recurses (a Python recursion of depth
about :math:`n + m`): on a video with about a thousand chapters in all the code's ``RecursionError`` is
caught and its score is 0; tvseg computes it. A show without a reference chapter is left out (NaN;
``evaluate_tiou`` would pair its predictions with random strings and score 0, and SODA divides by
zero). A video missing from the prediction file is skipped by the code, scored as an empty prediction
by tvseg (as in :mod:`tvseg.retrieval.chapters`). Predictions that start together keep tvseg's order
(by start, then end), where SODA sorts them stably by start. A pair of segments overlapping by less than
a microsecond (:mod:`tvseg.exact`) is not a pair here.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import warnings
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from tvseg.columns import Segments
from tvseg.errors import TvsegWarning, UsageError, user_stacklevel
from tvseg.metrics import TIOU_THRESHOLDS
from tvseg.retrieval.chapter_llama import chapter_llama_iou
from tvseg.retrieval.chapters import overlapping_pairs
from tvseg.retrieval.ptb import approximate_line, ptb_lines
from tvseg.retrieval.titles import has_title

__all__ = [
    "CAPTIONING_KEYS",
    "CAPTIONING_COMPONENTS",
    "captioning_missing",
    "java_missing",
    "meteor_missing",
    "require_captioning",
    "remove_nonascii",
    "tokenize",
    "caption_pairs",
    "soda_matching_score",
    "Scorers",
    "captioning_components",
    "wanted",
]

BLEU_KEYS = ("dvc_bleu1", "dvc_bleu2", "dvc_bleu3", "dvc_bleu4")
CAPTIONING_KEYS = ("dvc_meteor", "dvc_cider", *BLEU_KEYS, "dvc_rougeL", "soda_c")
"""The registry keys this module's components give (:mod:`tvseg.metrics`, group ``"captioning"``)."""
CAPTIONING_COMPONENTS = ("dvc_n_shows", *(k + "_sum" for k in CAPTIONING_KEYS))
METEOR_KEYS = ("dvc_meteor", "soda_c")
"""The keys that need METEOR 1.5 (the jar with Java, :mod:`tvseg.retrieval.meteor` without)."""
_INSTALL = 'pip install "tvseg[captioning]"'


def captioning_missing() -> str | None:
    """What the whole scorecard lacks here (``None`` when pycocoevalcap and a METEOR are there)."""
    try:
        import pycocoevalcap  # noqa: F401
    except ImportError:
        return f"the Python package pycocoevalcap is not installed ({_INSTALL})"
    return meteor_missing()


def java_missing() -> str | None:
    """Why the jars (PTB tokenizer, METEOR) cannot run here: no Java runtime (``None`` when ``java`` is there)."""
    if shutil.which("java") is None:
        return (
            "Java is not installed (no `java` on the PATH): METEOR 1.5 is a Java program; install a Java runtime "
            "(e.g. apt-get install default-jre-headless)"
        )
    return None


def meteor_missing() -> str | None:
    """Why METEOR (and SODA_c) cannot be computed here: neither Java (the jar) nor ``snowballstemmer`` 2.x
    (the stems of :mod:`tvseg.retrieval.meteor`); ``None`` when one of them is there."""
    if java_missing() is None:
        return None
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        version = installed("snowballstemmer")
    except PackageNotFoundError:
        return f"neither Java nor the Python package snowballstemmer 2.x is installed ({_INSTALL})"
    if not version.startswith("2."):
        return (
            f"Java is not installed and snowballstemmer {version} is (METEOR's stems are Snowball 2's English "
            f'stemmer: pip install "snowballstemmer>=2.2,<3")'
        )
    return None


def require_captioning() -> None:
    """Raise :class:`~tvseg.errors.UsageError` naming what is missing for the captioning metrics."""
    missing = captioning_missing()
    if missing is not None:
        raise UsageError(f"the captioning metrics (METEOR, CIDEr, BLEU, SODA_c) need {missing}")


def remove_nonascii(text: str) -> str:
    """``dvc_eval``'s ``remove_nonascii``: every non-ASCII character becomes a space.

    >>> remove_nonascii("Élection à Paris")
    ' lection   Paris'
    """
    return "".join(ch if ord(ch) < 128 else " " for ch in text)


def tokenize(titles: Sequence[str]) -> list[str]:
    """Titles as ``dvc_eval`` tokenises them: :func:`remove_nonascii`, then pycocoevalcap's
    ``PTBTokenizer`` (Stanford PTBTokenizer ``-preserveLines -lowerCase``, punctuation tokens dropped).

    With Java, the jar itself. Without it, :mod:`tvseg.retrieval.ptb`, equal to the jar on the titles it
    covers; a title outside them is tokenised approximately (:func:`~tvseg.retrieval.ptb.approximate_line`)
    with a warning naming it. Needs pycocoevalcap.
    """
    try:
        from pycocoevalcap.tokenizer import ptbtokenizer
    except ImportError:
        require_captioning()
        raise
    lines = [remove_nonascii(t).replace("\n", " ") for t in titles]
    if not lines:
        return []
    drop = set(ptbtokenizer.PUNCTUATIONS)
    if java_missing() is None:
        jar = Path(ptbtokenizer.__file__).with_name(ptbtokenizer.STANFORD_CORENLP_3_4_1_JAR)
        cmd = ["java", "-cp", str(jar), "edu.stanford.nlp.process.PTBTokenizer", "-preserveLines", "-lowerCase"]
        # the same command as PTBTokenizer.tokenize, on standard input instead of a file in the package's folder
        done = subprocess.run(cmd, input="\n".join(lines).encode(), capture_output=True, check=False)
        out = done.stdout.decode().split("\n")
        if done.returncode != 0 or len(out) < len(lines):
            raise UsageError(f"the PTB tokenizer (Java) failed: {done.stderr.decode(errors='replace').strip()[-500:]}")
        out = out[: len(lines)]
    else:
        found = ptb_lines(lines)
        outside = [title for title, line in zip(titles, found) if line is None]
        if outside:
            warnings.warn(
                f"without Java, {len(outside)} title(s) are tokenised approximately (they are outside what tvseg's "
                f"Python PTB tokenizer reproduces exactly), e.g. {outside[0]!r}: their CIDEr-D, BLEU and ROUGE-L "
                "may differ from dvc_eval's; install Java for the exact values",
                TvsegWarning,
                stacklevel=user_stacklevel(),
            )
        out = [approximate_line(line) if got is None else got for line, got in zip(lines, found)]
    return [" ".join(w for w in line.rstrip().split(" ") if w not in drop) for line in out]


def caption_pairs(n_hyp: int, pair_hyp: np.ndarray, pair_ref: np.ndarray, iou: np.ndarray, tiou: float):
    """``evaluate_tiou``'s caption pairs of one show: ``[(j, i or None), ...]``, predictions in order,
    each with its reference chapters of ``iou >= tiou`` in order, or ``None`` (the random string).

    ``pair_hyp``, ``pair_ref``, ``iou``: the overlapping pairs of the show (indices within the show).
    """
    ok = iou >= tiou
    order = np.lexsort((pair_ref[ok], pair_hyp[ok]))
    hyp, ref = pair_hyp[ok][order].tolist(), pair_ref[ok][order].tolist()
    out: list[tuple[int, int | None]] = []
    k = 0
    for j in range(n_hyp):
        start = k
        while k < len(hyp) and hyp[k] == j:
            out.append((j, ref[k]))
            k += 1
        if k == start:
            out.append((j, None))
    return out


def soda_matching_score(pair_ref: np.ndarray, pair_hyp: np.ndarray, score: np.ndarray, n_hyp: int) -> float:
    """SODA's ``chased_dp_assignment`` value on a sparse score matrix: the largest sum of ``score`` over
    pairs increasing in both the reference and the hypothesis index (0.0 for none); the entries not
    given are 0. Pairs in any order; ``O(K log n_hyp)`` (a Fenwick tree of prefix maxima)."""
    tree = [0.0] * (n_hyp + 1)
    best = 0.0
    order = np.lexsort((pair_hyp, pair_ref))
    r, h, s = pair_ref[order].tolist(), pair_hyp[order].tolist(), score[order].tolist()
    k = 0
    while k < len(r):
        group = k
        while k < len(r) and r[k] == r[group]:
            k += 1
        values = []
        for q in range(group, k):  # chains ending at a reference before this one, hypothesis before h[q]
            prefix, x = 0.0, h[q]
            while x > 0:
                prefix = max(prefix, tree[x])
                x -= x & -x
            values.append(prefix + s[q])
        for q, v in zip(range(group, k), values):
            best = max(best, v)
            x = h[q] + 1
            while x <= n_hyp:
                tree[x] = max(tree[x], v)
                x += x & -x
    return best


@lru_cache(maxsize=1)
def _meteor():
    """pycocoevalcap's ``Meteor``: one Java process for the whole run (it loads its paraphrase table when
    first asked, about 20 s); it ends with the Python process (its standard input closes)."""
    from pycocoevalcap.meteor.meteor import Meteor

    return Meteor()


class Scorers:
    """pycocoevalcap's scorers; METEOR the jar with Java (shared by the whole run: :func:`_meteor`), else
    :mod:`tvseg.retrieval.meteor` (None when :func:`meteor_missing`)."""

    def __init__(self) -> None:
        try:
            from pycocoevalcap.bleu.bleu import Bleu
            from pycocoevalcap.cider.cider import Cider
            from pycocoevalcap.rouge.rouge import Rouge
        except ImportError:
            require_captioning()
            raise

        self.bleu, self.cider, self.rouge = Bleu(4), Cider(), Rouge()
        self.meteor: Any = None
        if java_missing() is None:
            self.meteor = _meteor()
        elif meteor_missing() is None:
            from tvseg.retrieval import meteor

            self.meteor = meteor

    def show_scores(self, gts: dict, res: dict) -> dict[str, float]:
        """``dvc_eval``'s scores of one show's caption pairs (``{k: [tokenised]}`` dicts); METEOR when there is one."""
        keys = ("dvc_meteor", "dvc_cider", *BLEU_KEYS, "dvc_rougeL")
        if not res:
            return {key: 0.0 for key in keys if self.meteor is not None or key != "dvc_meteor"}
        bleu, _ = self.bleu.compute_score(gts, res, verbose=0)
        out = {
            "dvc_cider": float(self.cider.compute_score(gts, res)[0]),
            "dvc_rougeL": float(self.rouge.compute_score(gts, res)[0]),
        }
        if self.meteor is not None:
            out["dvc_meteor"] = float(self.meteor.compute_score(gts, res)[0])
        out.update({key: float(b) for key, b in zip(BLEU_KEYS, bleu)})
        return out

    def meteor_segments(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        """METEOR's segment score of each (hypothesis, reference) pair (needs a METEOR: :func:`meteor_missing`)."""
        assert self.meteor is not None
        if not hypotheses:
            return np.zeros(0)
        gts = {k: [r] for k, r in enumerate(references)}
        res = {k: [h] for k, h in enumerate(hypotheses)}
        return np.asarray(self.meteor.compute_score(gts, res)[1], dtype=float)


def _titles(side: Segments) -> list[str]:
    return [label if has_title(label) else "" for label in side.label]


def captioning_components(reference: Segments, hypothesis: Segments, n_shows: int, *, seed: int = 0) -> dict:
    """Per-show components of the captioning metrics (module docstring): ``dvc_n_shows`` (1 for a show
    with a reference segment) and ``<key>_sum`` for each key of :data:`CAPTIONING_KEYS`, the show's
    value (its mean over the tIoU thresholds for the ``dvc_*`` keys; 0 where ``dvc_n_shows`` is 0); none for
    :data:`METEOR_KEYS` when :func:`meteor_missing`.

    Needs pycocoevalcap (:func:`tokenize` without Java: its Python PTB tokenizer).
    """
    meteor = meteor_missing() is None
    ref_titles, hyp_titles = _titles(reference), _titles(hypothesis)
    unique = sorted(set(ref_titles) | set(hyp_titles))
    tokens = dict(zip(unique, tokenize(unique)))
    ref_tok = [tokens[t] for t in ref_titles]
    hyp_tok = [tokens[t] for t in hyp_titles]

    pair_ref, pair_hyp, _, _ = overlapping_pairs(reference, hypothesis, union=False)
    rs, re_, hs, he = reference.start, reference.end, hypothesis.start, hypothesis.end
    # ANETcaptions.iou(pred, gt) of eval_dvc.py and SODA/utils.iou(pred, gold) are Chapter-Llama's iou in the same
    # float operations, the reference first for the one, the prediction first for the other
    iou_dvc = chapter_llama_iou(rs[pair_ref], re_[pair_ref], hs[pair_hyp], he[pair_hyp])
    iou_soda = chapter_llama_iou(hs[pair_hyp], he[pair_hyp], rs[pair_ref], re_[pair_ref])
    r_first = np.searchsorted(reference.show, np.arange(n_shows + 1))
    h_first = np.searchsorted(hypothesis.show, np.arange(n_shows + 1))
    p_first = np.searchsorted(reference.show[pair_ref], np.arange(n_shows + 1))  # pairs sorted by reference

    kept = [key for key in CAPTIONING_COMPONENTS if meteor or key.removesuffix("_sum") not in METEOR_KEYS]
    comp = {key: np.zeros(n_shows) for key in kept}
    scorers = Scorers()
    for show in range(n_shows):
        r0, r1, h0, h1 = r_first[show], r_first[show + 1], h_first[show], h_first[show + 1]
        if r1 == r0:
            continue
        comp["dvc_n_shows"][show] = 1.0
        if h1 == h0:
            continue  # no prediction: every score 0
        sel = slice(p_first[show], p_first[show + 1])
        p_ref, p_hyp = pair_ref[sel] - r0, pair_hyp[sel] - h0
        rng = random.Random(f"{seed}:{show}")
        per_t: dict[str, list[float]] = {}
        for tiou in TIOU_THRESHOLDS:
            gts, res = {}, {}
            for k, (j, i) in enumerate(caption_pairs(h1 - h0, p_hyp, p_ref, iou_dvc[sel], tiou)):
                res[k] = [hyp_tok[h0 + j]]
                if i is None:
                    letters = "abcdefghijklmnopqrstuvwxyz"
                    gts[k] = ["".join(rng.choice(letters) for _ in range(rng.randint(10, 20)))]
                else:
                    gts[k] = [ref_tok[r0 + i]]
            for key, value in scorers.show_scores(gts, res).items():
                per_t.setdefault(key, []).append(value)
        for key, values in per_t.items():
            comp[key + "_sum"][show] = float(np.mean(values))
        if not meteor:
            continue
        # SODA_c: METEOR with the reference title as the hypothesis, the prediction's as the reference
        meteor_scores = scorers.meteor_segments([ref_tok[r0 + i] for i in p_ref], [hyp_tok[h0 + j] for j in p_hyp])
        best = soda_matching_score(p_ref, p_hyp, iou_soda[sel] * meteor_scores, int(h1 - h0))
        p, r = best / (h1 - h0), best / (r1 - r0)
        comp["soda_c_sum"][show] = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return comp


def wanted(preset: str | None) -> bool:
    """Whether an evaluation computes the captioning metrics: under the ``vidchapters`` preset, when
    pycocoevalcap is there (else a warning names it, and the other metrics are computed as usual); without
    a METEOR (:func:`meteor_missing`), a warning says that METEOR and SODA_c are left out. Without Java the
    titles are tokenised by tvseg's Python PTB tokenizer and METEOR is :mod:`tvseg.retrieval.meteor`."""
    if preset != "vidchapters":
        return False
    try:
        import pycocoevalcap  # noqa: F401
    except ImportError:
        warnings.warn(
            f"the captioning metrics of --preset vidchapters (METEOR, CIDEr, BLEU, ROUGE-L, SODA_c) are not "
            f"computed: {captioning_missing()}",
            TvsegWarning,
            stacklevel=user_stacklevel(),
        )
        return False
    missing = meteor_missing()
    if missing is not None:
        warnings.warn(
            f"METEOR and SODA_c of --preset vidchapters are not computed: {missing}; CIDEr-D, BLEU-1..4 and "
            "ROUGE-L are, with tvseg's Python PTB tokenizer (equal to the Java one on the titles it covers)",
            TvsegWarning,
            stacklevel=user_stacklevel(),
        )
    return True
