"""The transcribed tables in tvseg/simulate/published.py against the paper texts.

An independent reading of the same source: the Markdown tables are parsed here and every number
compared with the hand transcription. The tables are verbatim excerpts of the paper texts kept in
``tests/data/papers/`` (its README names each paper and the lines they were copied from), so that a
plain clone runs this test with nothing beside it.
"""

import re
from pathlib import Path

from tvseg.simulate.published import FOURNIER_INKPEN, PEVZNER_HEARST, RANGES

PAPERS = Path(__file__).resolve().parent / "data" / "papers"
PH = PAPERS / "pevzner-hearst-2002-tables-1-3.md"
FI = PAPERS / "fournier-inkpen-2012-table-1.md"
ROW = {"$P_k$": "pk", "$P'_k$": "pk_prime", "WD": "windowdiff"}


def test_the_excerpts_are_in_the_repository_and_name_their_source():
    assert PH.is_file() and FI.is_file()
    provenance = (PAPERS / "README.md").read_text(encoding="utf-8")
    for source in ("pevzner-hearst-2002-windowdiff.md", "fournier-inkpen-2012-segmentation-similarity.md"):
        assert source in provenance


def test_pevzner_hearst_tables_match_the_paper_text():
    text = PH.read_text(encoding="utf-8")
    found = {}
    # Tables 1 and 2: "<b>(x) False negatives, <math>p = 0.5</math></b>" then a header and three rows
    blocks = re.findall(
        r"<b>\((\w)\) (False negatives|False positives|False positives and false negatives), "
        r"<math>p = ([0-9.]+)</math></b>\s*\n[^\n]*\n((?:[^\n]*\n){3})",
        text,
    )
    assert len(blocks) == 9
    for index, (_letter, kind, p, rows) in enumerate(blocks):
        table = "1" if index < 3 else "2"
        errors = {"False negatives": "FN", "False positives": "FP", "False positives and false negatives": "FNP"}[kind]
        for line in rows.strip().splitlines():
            name, *values = line.split("\t")
            for size_range, value in zip(RANGES, values, strict=True):
                found[(table, errors, float(p), size_range, ROW[name.strip()])] = float(value)
    # Table 3: header "FN FP1 ..." then three rows of ".245" style values
    header = re.search(r"\n\tFN\tFP1\tFP2\tFP3\tFNP1\tFNP2\tFNP3\n((?:[^\n]*\n){3})", text)
    for line in header.group(1).strip().splitlines():
        name, *values = line.split("\t")
        for errors, value in zip(("FN", "FP1", "FP2", "FP3", "FNP1", "FNP2", "FNP3"), values, strict=True):
            found[("3", errors, 0.5, (15, 35), ROW[name.strip()])] = float(value)
    assert len(found) == 36 * 3 + 21
    assert found == PEVZNER_HEARST


def test_fournier_inkpen_table_matches_the_paper_text():
    text = FI.read_text(encoding="utf-8")
    pairs = re.compile(r"\$([0-9.]+) \\pm ([0-9.]+)\$")
    found = {}
    lines = [line for line in text.splitlines() if re.match(r"\s*(WD|S)\t\$", line)]
    assert len(lines) == 4
    for block, range_pair in ((lines[0:2], ((20, 30), (15, 35))), (lines[2:4], ((10, 40), (5, 45)))):
        for line in block:
            metric = "windowdiff" if line.lstrip().startswith("WD") else "s"
            values = pairs.findall(line)
            assert len(values) == 6
            for i, (mean, sd) in enumerate(values):
                errors = ("FN", "FP", "FNP")[i // 2]
                found[(errors, metric, range_pair[i % 2])] = (float(mean), float(sd))
    ours = {
        (e, m, r): v for e, metrics in FOURNIER_INKPEN.items() for m, rows in metrics.items() for r, v in rows.items()
    }
    assert found == ours
