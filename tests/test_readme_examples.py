"""The README's examples give what the README says (issue 39), run in tmp_path.

``tests/test_cli_help.py`` runs every ``tvseg`` line of the README's bash blocks (exit 0) and its first Python
block, ``tests/test_readme_notebook.py`` the notebook block, ``tests/test_readme_journeys.py`` the journeys
with their numbers. Here: the numbers and files the README states for the examples that run on shipped data
or on segmentations it writes out, each checked against another tool or a hand computation.

Not run here, with the reason: the commands on a user's own files (``ref/``, ``out/mine.rttm``,
``breath_groups.csv``, ``yesterday.json``, ``samples.jsonl``: ``tests/test_cli_help.py`` runs them on copies
of the demo data, exit code only, as no number of them is stated); ``tvseg simulate pevzner-hearst`` at the
paper's size (minutes; ``tests/test_simulate_pevzner_hearst.py`` checks its tables on a smaller run).
"""

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from pyannote.core import Annotation, Segment

import tvseg

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
nltk_segmentation = pytest.importorskip("nltk.metrics.segmentation")
segeval = pytest.importorskip("segeval")


def _annotation(*spans: tuple[float, float]) -> Annotation:
    out = Annotation()
    for i, (start, end) in enumerate(spans):
        out[Segment(start, end)] = f"s{i}"
    return out


def _nltk_string(masses) -> str:
    return "1".join("0" * (m - 1) for m in masses)


def test_the_first_python_block_gives_the_tools_numbers(tmp_path):
    block = re.search(r"```python\n(.*?)```", README, re.S).group(1)
    assert "tvseg.ghd((3, 5, 2), (3, 4, 3))  # = nltk.metrics.segmentation.ghd" in block
    # each line of the block run in a fresh interpreter in tmp_path, the value of each expression printed
    lines = [line.split("  #")[0] for line in block.splitlines() if line.strip()]
    code = "\n".join(f"print(repr({line}))" if line.startswith("tvseg.") else line for line in lines)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    values = [float(v) for v in done.stdout.split()]
    assert len(values) == 6 and list(tmp_path.iterdir()) == []
    pk, wd_nltk, cseg, ghd, cov_n, f1 = values
    ref, hyp = _nltk_string((3, 5, 2)), _nltk_string((3, 4, 3))
    # the nltk convention's windowdiff: k nltk's pk default, round(9 / (2 x 2)) = 2
    assert wd_nltk == pytest.approx(nltk_segmentation.windowdiff(ref, hyp, 2), abs=1e-12)
    assert ghd == nltk_segmentation.ghd(ref, hyp)  # "= nltk.metrics.segmentation.ghd"
    # Pk (paper): N = 10, k = round-half-up(10 / 6) = 2, 8 probes i .. i+2; the reference's boundaries after
    # units 3 and 8, the hypothesis's after 3 and 7: probes (6, 8) and (7, 9) disagree -> 2/8 (hand count)
    assert pk == pytest.approx(float(Fraction(2, 8)), abs=1e-12)
    assert 0 <= cseg and 0 <= cov_n <= 1 and 0 <= f1 <= 1


def test_the_exact_threshold_example():
    assert "Reference\n[0.01, 3.41] [3.41, 4.61] against hypothesis [0.01, 4.61]" in README
    reference, hypothesis = _annotation((0.01, 3.41), (3.41, 4.61)), _annotation((0.01, 4.61))
    # coverage of the first story and the hypothesis: 2 x 3.4 / (3.4 + 4.6) = 6.8 / 8 = 0.85 exactly
    assert Fraction(2 * 34, 34 + 46) == Fraction(85, 100)
    at = tvseg.coverage(reference, hypothesis, gamma=0.85)
    assert (at.recall_n, at.precision_n) == (0.0, 0.0)
    below = tvseg.coverage(reference, hypothesis, gamma=0.849999)
    assert (below.recall_n, below.precision_n) == (0.5, 1.0)
    # the README's note: against the first story alone, the hypothesis is cropped to [0.01, 3.41]: correct
    alone = tvseg.coverage(_annotation((0.01, 3.41)), hypothesis, gamma=0.85)
    assert (alone.recall_n, alone.precision_n) == (1.0, 1.0)
    # "boundaries at 6.1 s and 16.1 s are paired at tolerance 10": 16.1 - 6.1 = 10 exactly, inclusive
    paired = tvseg.boundaries(_annotation((0, 6.1), (6.1, 30)), _annotation((0, 16.1), (16.1, 30)), tolerance=10)
    assert paired.f1 == 1.0


def test_the_uem_with_gaps_example(tmp_path):
    assert "Reference `[0,30] [30,100]`\nagainst hypothesis `[0,70] [70,100]` at tolerance 5 s" in README
    reference, hypothesis = _annotation((0, 30), (30, 100)), _annotation((0, 70), (70, 100))
    for regions in ([(0, 100)], [(0, 40), (60, 100)]):
        uem = Annotation().get_timeline()
        for start, end in regions:
            uem.add(Segment(start, end))
        b = tvseg.boundaries(reference, hypothesis, tolerance=5, uem=uem)
        c = tvseg.coverage(reference, hypothesis, uem=uem)
        # boundaries 30 against 70: 40 s apart, not paired at 5 s. Coverage with 0-100: [0,30]-[0,70]
        # 2 x 30 / (30 + 70) = 0.6, [30,100]-[0,70] 2 x 40 / 140 = 0.57, [30,100]-[70,100] 2 x 30 / 100 = 0.6;
        # with 0-40 + 60-100 (durations inside the regions): 2 x 30 / (30 + 50) = 0.75, 2 x 20 / (50 + 50) = 0.4,
        # 2 x 30 / (50 + 30) = 0.75: none above 0.85
        assert (b.precision, b.recall) == (0.0, 0.0), regions
        assert (c.recall_n, c.precision_n) == (0.0, 0.0), regions


def test_the_agreement_example_equals_segeval(tmp_path):
    assert "--metric B --convention segeval   # = segeval 2.0.11's fleiss_pi_linear" in README
    path = ROOT / "tvseg" / "data_samples" / "agreement" / "coders.json"
    out = tmp_path / "agreement.json"
    done = subprocess.run(
        [sys.executable, "-m", "tvseg", "agreement", str(path), "--metric", "B", "--convention", "segeval"]
        + ["--json", str(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(out.read_text(encoding="utf-8"))
    # segeval's own reader opens files in mode "rU", gone from Python 3.11: its Dataset from the same JSON
    from segeval.data import Dataset

    items = json.loads(path.read_text(encoding="utf-8"))["items"]
    dataset = Dataset({item: {coder: list(m) for coder, m in coders.items()} for item, coders in items.items()})
    assert got["pi_star"] == pytest.approx(float(segeval.fleiss_pi_linear(dataset)), abs=1e-12)
    assert got["kappa_star"] == pytest.approx(float(segeval.fleiss_kappa_linear(dataset)), abs=1e-12)


def test_the_demo_writes_its_report_where_told(tmp_path):
    # the README: `tvseg evaluate --demo` writes tvseg-demo/index.html in the current folder, --html DIR elsewhere
    done = subprocess.run(
        [sys.executable, "-m", "tvseg", "evaluate", "--demo", "--bootstrap", "0", "--html", "elsewhere"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "system_a" in done.stdout and "system_b" in done.stdout
    assert (tmp_path / "elsewhere" / "index.html").is_file() and not (tmp_path / "tvseg-demo").exists()
    # 7 shows from 3 channels
    assert len(list((tmp_path / "elsewhere" / "shows").glob("*.html"))) == 7
