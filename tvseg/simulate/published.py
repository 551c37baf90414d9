"""The numbers the papers printed, transcribed by hand from the papers' tables (verbatim excerpts of them are in
the repository's ``tests/data/papers/``, whose README names each paper and the lines copied).

Each table is kept in the paper's own layout (rows = metric, columns = segment size range) so that
a transcription error can be spotted by reading it side by side with the paper.

Pevzner & Hearst (2002), "A Critique and Improvement of an Evaluation Metric for Text
Segmentation", Computational Linguistics 28(1): Table 1 (p = 0.5), Table 2 (p = 0.05 and 0.25),
Table 3 (range (15, 35), p = 0.5, seven error distributions).

Fournier & Inkpen (2012), "Segmentation Similarity and Agreement", NAACL-HLT: Table 1 (WD and S,
mean and standard deviation over the hypotheses, p = 0.5).
"""

from __future__ import annotations

__all__ = ["RANGES", "METRICS", "PEVZNER_HEARST", "FOURNIER_INKPEN", "pevzner_hearst_value"]

#: Segment size ranges, in the order of the papers' columns.
RANGES = ((20, 30), (15, 35), (10, 40), (5, 45))
#: Metric keys in the order of Pevzner & Hearst's rows: P_k, P'_k, WD.
METRICS = ("pk", "pk_prime", "windowdiff")

# Pevzner & Hearst Tables 1 and 2, one line per printed row: table, errors, p, metric, then the
# values over RANGES (the papers' columns). A "#" line names the sub-table as the paper does.
_PH_TABLES_1_2 = """
# Table 1 (a) False negatives, p = 0.5
1  FN   0.5   pk          0.245  0.245  0.240  0.223
1  FN   0.5   pk_prime    0.245  0.245  0.240  0.223
1  FN   0.5   windowdiff  0.245  0.245  0.242  0.237
# Table 1 (b) False positives, p = 0.5
1  FP   0.5   pk          0.128  0.122  0.112  0.107
1  FP   0.5   pk_prime    0.256  0.245  0.225  0.213
1  FP   0.5   windowdiff  0.240  0.241  0.238  0.236
# Table 1 (c) False positives and false negatives, p = 0.5
1  FNP  0.5   pk          0.317  0.309  0.290  0.268
1  FNP  0.5   pk_prime    0.446  0.432  0.403  0.375
1  FNP  0.5   windowdiff  0.376  0.370  0.357  0.343
# Table 2 (a) False negatives, p = 0.05
2  FN   0.05  pk          0.025  0.025  0.024  0.022
2  FN   0.05  pk_prime    0.025  0.025  0.024  0.022
2  FN   0.05  windowdiff  0.025  0.025  0.024  0.024
# Table 2 (b) False positives, p = 0.05
2  FP   0.05  pk          0.013  0.012  0.011  0.011
2  FP   0.05  pk_prime    0.026  0.025  0.023  0.021
2  FP   0.05  windowdiff  0.024  0.024  0.024  0.024
# Table 2 (c) False positives and false negatives, p = 0.05
2  FNP  0.05  pk          0.037  0.036  0.035  0.032
2  FNP  0.05  pk_prime    0.050  0.048  0.046  0.042
2  FNP  0.05  windowdiff  0.048  0.048  0.048  0.047
# Table 2 (d) False negatives, p = 0.25
2  FN   0.25  pk          0.122  0.122  0.121  0.110
2  FN   0.25  pk_prime    0.122  0.122  0.121  0.110
2  FN   0.25  windowdiff  0.122  0.122  0.122  0.121
# Table 2 (e) False positives, p = 0.25
2  FP   0.25  pk          0.064  0.061  0.056  0.053
2  FP   0.25  pk_prime    0.129  0.123  0.112  0.106
2  FP   0.25  windowdiff  0.121  0.121  0.121  0.120
# Table 2 (f) False positives and false negatives, p = 0.25
2  FNP  0.25  pk          0.172  0.168  0.161  0.147
2  FNP  0.25  pk_prime    0.236  0.229  0.217  0.200
2  FNP  0.25  windowdiff  0.215  0.213  0.211  0.205
"""


# Pevzner & Hearst Table 3: range (15, 35), p = 0.5; columns FN FP1 FP2 FP3 FNP1 FNP2 FNP3.
_PH_TABLE3_COLUMNS = ("FN", "FP1", "FP2", "FP3", "FNP1", "FNP2", "FNP3")
_PH_TABLE3 = {
    "pk": (0.245, 0.122, 0.091, 0.112, 0.308, 0.267, 0.304),
    "pk_prime": (0.245, 0.244, 0.182, 0.224, 0.431, 0.354, 0.416),
    "windowdiff": (0.245, 0.240, 0.236, 0.211, 0.370, 0.341, 0.363),
}


def _rows(text: str) -> list[list[str]]:
    """The fields of each line of a transcribed table (``#`` lines name the paper's sub-tables)."""
    return [line.split() for line in text.strip().splitlines() if not line.startswith("#")]


def _flatten_pevzner_hearst() -> dict:
    out: dict[tuple, float] = {}
    for table, errors, p, metric, *row in _rows(_PH_TABLES_1_2):
        for size_range, printed in zip(RANGES, row, strict=True):
            out[(table, errors, float(p), size_range, metric)] = float(printed)
    for metric, values in _PH_TABLE3.items():
        for errors, value in zip(_PH_TABLE3_COLUMNS, values, strict=True):
            out[("3", errors, 0.5, (15, 35), metric)] = value
    return out


#: ``{(table, errors, p, (lo, hi), metric): value}`` for every number of Tables 1-3 (in the papers' order).
PEVZNER_HEARST: dict[tuple, float] = _flatten_pevzner_hearst()


def pevzner_hearst_value(table: str, errors: str, p: float, size_range: tuple[int, int], metric: str):
    """The published value of one cell, or ``None`` when the paper prints none."""
    return PEVZNER_HEARST.get((str(table), errors, p, tuple(size_range), metric))


# Fournier & Inkpen Table 1, p = 0.5, one line per scenario and metric: Scenario 1 = FN, Scenario 2 = FP,
# Scenario 3 = "FP and FN" (FNP); WD is WindowDiff (not 1 - WD); then the mean and the standard
# deviation for each of RANGES (the paper prints "mean ± sd" in two blocks of two ranges).
_FI_TABLE_1 = """
FN   windowdiff  0.2340 0.0113  0.2292 0.0104  0.2297 0.0105  0.2206 0.0079
FN   s           0.9801 0.0006  0.9801 0.0006  0.9799 0.0007  0.9796 0.0007
FP   windowdiff  0.2265 0.0114  0.2265 0.0111  0.2256 0.0102  0.2184 0.0069
FP   s           0.9800 0.0006  0.9800 0.0006  0.9800 0.0006  0.9796 0.0007
FNP  windowdiff  0.3635 0.0126  0.3599 0.0117  0.3516 0.0110  0.3254 0.0087
FNP  s           0.9605 0.0009  0.9603 0.0009  0.9606 0.0010  0.9598 0.0011
"""


def _fournier_inkpen() -> dict:
    out: dict = {}
    for errors, metric, *row in _rows(_FI_TABLE_1):
        pairs = zip(RANGES, row[::2], row[1::2], strict=True)
        out.setdefault(errors, {})[metric] = {size_range: (float(mean), float(sd)) for size_range, mean, sd in pairs}
    return out


#: ``{scenario: {metric: {range: (mean, standard deviation)}}}`` of Fournier & Inkpen's Table 1.
FOURNIER_INKPEN: dict[str, dict[str, dict[tuple[int, int], tuple[float, float]]]] = _fournier_inkpen()
