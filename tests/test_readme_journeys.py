"""The README's journeys (issue 24): each command of its "Journeys" block runs as written on the samples of
``data_samples/``, and gives the numbers worked out here from the files, by hand or with segeval."""

import json
import re
import shlex
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data_samples"


def journeys() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- journeys:.*?-->\s*```bash\n(.*?)```", text, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """Each journey run in a folder of its own (``data_samples`` linked there), as a user runs it."""
    folder = tmp_path_factory.mktemp("journeys")
    (folder / "data_samples").symlink_to(SAMPLES, target_is_directory=True)
    out = {}
    for line in journeys():
        argv = shlex.split(line)
        assert argv[0] == "tvseg"
        done = subprocess.run(
            [sys.executable, "-m", "tvseg", *argv[1:]], cwd=folder, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, (line, done.stderr)
        assert "Traceback" not in done.stderr
        target = argv[argv.index("--json") + 1]
        out[target] = json.loads((folder / target).read_text(encoding="utf-8"))
    return out


def test_there_is_a_journey_for_each_community():
    lines = journeys()
    assert len(lines) == 4
    assert any("--format choi" in x for x in lines) and any("--format wiki727k" in x for x in lines)
    assert any("annotations.json" in x for x in lines) and any("stories.csv" in x for x in lines)


def _choi_masses(path: Path) -> tuple[int, ...]:
    sizes, n = [], 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() == "==========":
            if n:
                sizes.append(n)
            n = 0
        elif line.strip():
            n += 1
    return tuple(sizes + ([n] if n else []))


def test_choi_documents_give_segeval_numbers(ran):
    segeval = pytest.importorskip("segeval")
    shows = ran["choi.json"]["systems"]["mine"]["shows"]
    assert sorted(shows) == ["doc01", "doc02", "doc03"]
    for doc, got in shows.items():
        ref = _choi_masses(SAMPLES / "text/choi/reference" / f"{doc}.ref")
        hyp = _choi_masses(SAMPLES / "text/choi/hypothesis" / f"{doc}.ref")
        assert sum(ref) == sum(hyp)
        # segeval takes (hypothesis, reference)
        assert got["pk"] == pytest.approx(float(segeval.pk(hyp, ref)), abs=1e-12)
        assert got["windowdiff"] == pytest.approx(float(segeval.window_diff(hyp, ref)), abs=1e-12)
        assert got["b"] == pytest.approx(float(segeval.boundary_similarity(hyp, ref)), abs=1e-12)
        assert got["s"] == pytest.approx(float(segeval.segmentation_similarity(hyp, ref)), abs=1e-12)


def test_wiki727k_documents_as_the_loader_reads_them(ran):
    segeval = pytest.importorskip("segeval")
    shows = ran["wiki.json"]["systems"]["mine"]["shows"]
    # Lyon, as the authors' loader reads it: the preface (2 sentences) left out; History (3 sentences, its
    # level-3 section "Silk workers" joined: 4), Geography (2, the ***LIST***. line skipped), Economy (2);
    # the hypothesis: 2 | 4 | 2. Seine: 3 | 2 | 2 against 4 | 3.
    for doc, ref, hyp in (("Lyon", (4, 2, 2), (2, 4, 2)), ("Seine", (3, 2, 2), (4, 3))):
        got = shows[doc]
        assert got["pk"] == pytest.approx(float(segeval.pk(hyp, ref)), abs=1e-12)
        assert got["b"] == pytest.approx(float(segeval.boundary_similarity(hyp, ref)), abs=1e-12)


def test_video_chapters_journey(ran):
    model = ran["vidchapters.json"]["systems"]["model"]
    # 7 + 6 + 5 chapters in the annotations, 6 + 4 + 4 predictions
    assert model["corpus"]["n_reference"] == 18 and model["corpus"]["n_hypothesis"] == 14
    assert sorted(model["shows"]) == ["P0wq7nHs4Ee", "Zr8d2mLqYcA", "kx3pQ9bVt1w"]
    assert "cov_n" not in model["corpus"]  # overlapping predictions: no segmentation metric
    assert 0 <= model["corpus"]["vc_detection_f1"] <= 1


def test_broadcast_journey_by_hand(ran):
    c = ran["broadcast.json"]["systems"]["seg"]["corpus"]
    # reference minus its 20:00:00 origin: [0, 252.5] [252.5, 580] [580, 905.2] [905.2, 1170] [1170, 1440];
    # the segmenter: [0, 250] [250, 585] [585, 905.2] [905.2, 1440]. Coverage both ways > 0.85: the first
    # three pairs (250/252.5, 327.5/335, 320.2/325.2), not the fourth (264.8/534.8): R_N = 3/5, P_N = 3/4,
    # CovN = 2/3. Boundaries 252.5, 580, 905.2, 1170 against 250, 585, 905.2 within 10 s: 3 matched,
    # P = 1, R = 3/4, F = 6/7.
    assert c["recall_n"] == pytest.approx(float(Fraction(3, 5)), abs=1e-12)
    assert c["precision_n"] == pytest.approx(float(Fraction(3, 4)), abs=1e-12)
    assert c["cov_n"] == pytest.approx(float(Fraction(2, 3)), abs=1e-12)
    assert c["boundary_f1"] == pytest.approx(float(Fraction(6, 7)), abs=1e-12)
    assert "pk" in c  # the captions, moved to air time by their 10:00:00 origin, are the units
