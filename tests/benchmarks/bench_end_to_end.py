"""Benchmark: the whole ``tvseg evaluate`` command on a generated corpus, phase by phase (issue 13).

    python tests/benchmarks/bench_end_to_end.py [--shows 2000] [--html] [--keep DIR]
        [--bootstrap 1000] [--pyannote-shows 200] [--seed 13] [--repeat 3] [--baseline REV]

**The corpus** (:func:`generate`, deterministic: show ``k`` draws from ``numpy.random.default_rng((seed, k))``,
so the first shows of a large corpus are the shows of a small one): shows of 10 to 30 minutes cut into 8
to 25 contiguous topic segments (labels ``topic01`` ...); a reference folder ``ref/`` of one RTTM file
per show; two systems, one RTTM file each (``a.rttm``, ``b.rttm``, segments without labels), made from
the reference's boundaries by deleting some (a: 10 %, b: 25 %), moving the others by N(0, 5 s) and
inserting a few at random (a: Poisson(1) per show, b: Poisson(3)), all times in whole milliseconds;
breath-group units of 1 to 6 s (one in five followed by a pause of 0.2 to 1 s) in one CSV
``units.csv`` (``show,start,end``). Written to a temporary folder, or to ``--keep DIR`` (kept, and
reused by a later run with the same ``--shows`` and ``--seed``).

**What is timed**, each in a process of its own (so imports, caches and peak memory are its own):

1. the whole command, as a user runs it::

       python -m tvseg evaluate --reference ref/ --hypothesis a=a.rttm --hypothesis b=b.rttm \\
           --units units.csv --bootstrap 1000 --json out.json [--html reports/command-PID-N]

   wall time, and peak resident memory of that child (``ru_maxrss`` of the ``struct rusage`` that
   ``os.wait4`` returns for it: what ``resource.getrusage(RUSAGE_CHILDREN)`` reports when it is the
   only child waited for);
2. the same work phase by phase through the library: import; ``tvseg.read_segments`` of the
   reference and both systems; ``tvseg.read_units``; ``tvseg.evaluate``; ``result.to_json()``; writing
   the JSON; ``tvseg.report.write_report`` (with ``--html``). Then, for a like-for-like comparison
   with the script of 3, ``tvseg.evaluate`` of system a alone without bootstrap, with and without units.
   Memory: the peak resident set of each phase (``VmHWM`` of ``/proc/self/status``, reset before the
   phase through ``/proc/self/clear_refs``; where that is refused, the process's peak so far);
3. a plain numpy/pandas script (:func:`plain_numpy`) that reads the same files (``pandas.read_csv``)
   and computes, for system a on the pooled corpus, R_N, P_N, CovN, R_D, P_D, CovD at gamma 0.85
   (decided exactly in integer microseconds, 2 |R n H| 20 > 17 (|R| + |H|)), boundary P/R/F at 10 s
   (an exact maximum matching: for equal-width windows on a line the greedy scan that pairs each
   reference boundary with the earliest free hypothesis boundary within reach is maximum) and Pk,
   WindowDiff on the units (Pevzner & Hearst's convention, each unit in the segment holding its
   midpoint, k half the mean reference segment in units, rounded half up). Its numbers are checked
   equal to tvseg's corpus values (within 1e-12) before its times are printed;
4. pyannote.metrics (SegmentationCoverage, SegmentationPurity, SegmentationPrecision and
   SegmentationRecall at tolerance 10 s) on system a of the first ``--pyannote-shows`` shows, from the
   Annotations tvseg read (reading not timed), its time **extrapolated linearly** to the corpus. Its
   purity and coverage are not CovN/CovD and its precision/recall use a greedy matching: the same
   work, not the same numbers.

The ratio column is the numpy script's time over tvseg's for the same phase. tvseg's ``evaluate``
row does more than the script (two systems, every unit metric, by-length and sweep tables, 1,000
bootstrap resamples, the match tables): the like-for-like rows are the ones to compare. Each process runs ``--repeat`` times
(default 3; tvseg's and the script's runs taken in turns, so that a busy moment slows both): a phase's
time is its best run, its memory the largest, and the ratio column also gives the range of the
per-run ratios (run ``i`` of tvseg over run ``i`` of the script). On a shared machine single runs vary
by 10-30 %.

**Against an earlier commit** (``--baseline REV``, with ``--html``): the package ``tvseg/`` of commit
``REV`` is extracted into a temporary folder (``git archive REV tvseg``; no checkout of the work tree)
and the same work is timed with it (``PYTHONPATH`` set to that folder) and with the current code
(``PYTHONPATH`` set to this repository), both compiled to bytecode first, in turns (run ``i`` of the baseline, then run ``i`` of the
current code): the whole command with ``--html``, and what ``--html`` adds to it (run ``i`` of the
command with ``--html`` less run ``i`` without, run just after it), and, in a child process that reads and
evaluates the corpus first, the ``tvseg.report.write_report`` phase alone. Printed: each side's best
time and the ratio baseline / current of the best times, with the range of the per-run ratios (run
``i`` over run ``i``), and the same for the CPU time of ``write_report`` (user + system, of the process and
of its pool), which a busy machine disturbs less than the wall time, split into user time (the code's own work)
and system time (the kernel's, mostly the file writes, which vary on a virtual machine from run to run by a
factor of 3 and more for the same bytes). A ratio of 2 means the current code
takes half the baseline's time.

**Every report is written to a folder of its own** (``reports/`` in the corpus folder: ``--html
reports/command-...``), and these folders are removed only when every run is timed. A run that
replaced the report of the run before it (``--html rep/`` each time) would time the removal of 2,000
or 20,000 files and, worse, the files it creates just after: on an ext4 file system without a
journal (``/proc/fs/jbd2/`` empty: virtual machines often mount their disk so), the kernel gives a
new file the first free inode of its group that was not freed in the last 60 to 300 s
(``recently_deleted`` in ``fs/ext4/ialloc.c``), passing over the recently freed ones one by one for
every file, so that creating n files just after deleting n costs time in n squared. On this 2-core machine that is 0.6 to 1.3 s of system
time for 2,000 pages, against 0.06 s in a fresh folder, the same for both sides of ``--baseline``: it
measures the benchmark, not the report. A user's run that replaces yesterday's report does not meet
it: the old pages are removed after the new ones are written. For the same reason, on such a disk, leave
5 minutes between two runs of this benchmark on one corpus folder: the reports the first removes at its
end slow the first runs of the second.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
REPORTS = "reports"  # in the corpus folder: one subfolder per timed report, removed at the end (module docstring)
GENERATOR = 1  # bump when the corpus generator changes, so that a kept corpus is not reused
SYSTEMS = {"a": {"delete": 0.10, "insert": 1.0, "shift": 5.0}, "b": {"delete": 0.25, "insert": 3.0, "shift": 5.0}}
GAMMA = (17, 20)  # 0.85 as p / q
TOLERANCE = 10_000_000  # 10 s in microseconds
SHOW_SPAN = 1 << 40  # microseconds between two shows' time origins in the pooled keys (12.7 days)
CHECKED = (
    "recall_n",
    "precision_n",
    "cov_n",
    "recall_d",
    "precision_d",
    "cov_d",
    "boundary_precision",
    "boundary_recall",
    "boundary_f1",
    "pk",
    "windowdiff",
)


# ---------------------------------------------------------------------------------------------- corpus


def _ms(value: int) -> str:
    return f"{value // 1000}.{value % 1000:03d}"


def _rttm(show: str, bounds, labels=None) -> str:
    return "".join(
        f"SEGMENT {show} 1 {_ms(a)} {_ms(b - a)} <NA> <NA> {labels[i] if labels else '<NA>'} <NA> <NA>\n"
        for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:]))
    )


def generate(folder: Path, n_shows: int, seed: int) -> dict:
    """Write the corpus of the module docstring into ``folder``; returns its counts."""
    import numpy as np
    import pandas as pd

    folder.mkdir(parents=True, exist_ok=True)
    ref_dir = folder / "ref"
    ref_dir.mkdir(exist_ok=True)
    systems = {name: [] for name in SYSTEMS}
    unit_show, unit_start, unit_end = [], [], []
    counts = {"reference": 0, **{name: 0 for name in SYSTEMS}}
    for k in range(n_shows):
        rng = np.random.default_rng((seed, k))
        show = f"show{k:05d}"
        length = int(rng.integers(600_000, 1_800_001))  # ms
        n_seg = int(rng.integers(8, 26))
        weights = rng.uniform(0.25, 1.0, n_seg)
        cuts = np.rint(np.cumsum(weights)[:-1] / weights.sum() * length).astype(np.int64)
        bounds = [0, *cuts.tolist(), length]
        (ref_dir / f"{show}.rttm").write_text(_rttm(show, bounds, [f"topic{i + 1:02d}" for i in range(n_seg)]))
        counts["reference"] += n_seg
        for name, p in SYSTEMS.items():
            kept = cuts[rng.random(len(cuts)) >= p["delete"]]
            moved = kept + rng.normal(0.0, p["shift"] * 1000, len(kept))
            inserted = rng.uniform(0, length, rng.poisson(p["insert"]))
            hyp = np.unique(np.clip(np.rint(np.concatenate([moved, inserted])), 1000, length - 1000).astype(np.int64))
            if len(hyp) > 1:  # no hypothesis segment shorter than 1 s
                hyp = hyp[np.concatenate(([True], np.diff(hyp) >= 1000))]
            systems[name].append(_rttm(show, [0, *hyp.tolist(), length]))
            counts[name] += len(hyp) + 1
        n_draw = length // 1000 + 1
        duration = rng.integers(1000, 6001, n_draw)
        pause = np.where(rng.random(n_draw) < 0.2, rng.integers(200, 1001, n_draw), 0)
        start = np.concatenate(([0], np.cumsum(duration + pause)[:-1]))
        end = start + duration
        inside = end <= length
        unit_show.append(np.full(int(inside.sum()), k, dtype=np.int32))
        unit_start.append(start[inside])
        unit_end.append(end[inside])
    for name, texts in systems.items():
        (folder / f"{name}.rttm").write_text("".join(texts))
    names = np.array([f"show{k:05d}" for k in range(n_shows)], dtype=object)
    shows = np.concatenate(unit_show)
    units = pd.DataFrame(
        {"show": names[shows], "start": np.concatenate(unit_start) / 1000, "end": np.concatenate(unit_end) / 1000}
    )
    units.to_csv(folder / "units.csv", index=False, float_format="%.3f")
    counts["units"] = len(units)
    return counts


def corpus(folder: Path | None, n_shows: int, seed: int):
    """``(folder, counts, seconds to generate or None when reused, temporary directory or None)``."""
    manifest = {"generator": GENERATOR, "shows": n_shows, "seed": seed}
    tmp = None
    if folder is None:
        tmp = tempfile.TemporaryDirectory(prefix="tvseg-e2e-")
        folder = Path(tmp.name)
    else:
        folder = Path(folder)
        path = folder / "corpus.json"
        if path.is_file():
            saved = json.loads(path.read_text())
            if {k: saved.get(k) for k in manifest} == manifest:
                return folder, saved["counts"], None, None
            raise SystemExit(f"--keep {folder}: holds another corpus ({saved}); give an empty or new folder")
        if folder.exists() and any(folder.iterdir()):
            raise SystemExit(f"--keep {folder}: not empty and not a corpus of this benchmark")
    t0 = time.perf_counter()
    counts = generate(folder, n_shows, seed)
    seconds = time.perf_counter() - t0
    (folder / "corpus.json").write_text(json.dumps({**manifest, "counts": counts}))
    return folder, counts, seconds, tmp


# ------------------------------------------------------------------------------------- measuring tools


class Phases:
    """Wall time and peak resident memory of successive phases of one process."""

    def __init__(self):
        self.rows = []
        self.exact_peak = True

    @staticmethod
    def _hwm_kb() -> int | None:
        try:
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def _reset(self) -> None:
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        except OSError:
            self.exact_peak = False

    def run(self, name: str, function, *args, **kwargs):
        self._reset()
        t0 = time.perf_counter()
        out = function(*args, **kwargs)
        seconds = time.perf_counter() - t0
        peak = self._hwm_kb() if self.exact_peak else None
        if peak is None:
            import resource

            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        self.rows.append({"phase": name, "seconds": seconds, "peak_mb": peak / 1024})
        return out


def fresh_report(folder: Path, what: str) -> Path:
    """A report folder not yet used, ``reports/WHAT-PID-N`` in ``folder`` (its parent created here)."""
    parent = folder / REPORTS
    parent.mkdir(exist_ok=True)
    for n in range(1_000_000):
        path = parent / f"{what}-{os.getpid()}-{n}"
        if not path.exists():
            return path
    raise SystemExit(f"{parent}: no free report name")


def _write(path: str, data: dict) -> None:
    Path(path).write_text(json.dumps(data))


# --------------------------------------------------------------------------- child: tvseg, by phase


def tvseg_phases(folder: Path, out: str, html: bool, bootstrap: int) -> None:
    import warnings

    phases = Phases()
    warnings.simplefilter("ignore")

    def imports():
        import tvseg
        from tvseg.evaluation import evaluate
        from tvseg.readers import read_segments, read_units
        from tvseg.settings import Settings

        return tvseg, evaluate, Settings, read_segments, read_units

    tvseg, evaluate, Settings, read_segments, read_units = phases.run("import", imports)

    def read_systems():
        # as the command reads them (tvseg.scale.read_files)
        reference = read_segments(folder / "ref", side="reference", which="reference")
        from tvseg.scale import show_ends

        ends = show_ends(reference, None)
        hypotheses = {
            name: read_segments(folder / f"{name}.rttm", side=name, which="hypothesis", end=ends) for name in SYSTEMS
        }
        return reference, hypotheses

    reference, hypotheses = phases.run("read reference + systems", read_systems)
    units = phases.run("read units", read_units, folder / "units.csv")
    result = phases.run(
        "evaluate", evaluate, reference, hypotheses, units=units, settings=Settings(bootstrap=bootstrap)
    )
    data = phases.run("to_json", result.to_json)

    def write_json():
        from tvseg.output import write_json_atomic

        write_json_atomic(folder / "phases.json", data, safe=True)  # noqa: F821 (deleted after use)

    phases.run("write JSON", write_json)
    if html:

        def report():
            from tvseg.report import write_report

            return write_report(result, fresh_report(folder, "phases"), progress=False)  # noqa: F821

        phases.run("write_report", report)
    values = {k: result.systems["a"].corpus[k] for k in CHECKED}
    del result, data
    one = {"a": hypotheses["a"]}
    lfl = phases.run(
        "like for like: a, units, no bootstrap", evaluate, reference, one, units=units, settings=Settings(bootstrap=0)
    )
    lfl_values = {k: lfl.systems["a"].corpus[k] for k in CHECKED}
    del lfl
    phases.run("like for like: a, no units, no bootstrap", evaluate, reference, one, settings=Settings(bootstrap=0))
    _write(
        out,
        {"phases": phases.rows, "exact_peak": phases.exact_peak, "values": values, "like_for_like_values": lfl_values},
    )


# ------------------------------------------------------------------- child: the plain numpy script


def plain_numpy(folder: Path, out: str) -> None:
    """The numbers of system a from the files with pandas and numpy only (see the module docstring)."""
    phases = Phases()

    def imports():
        import io

        import numpy
        import pandas

        return io, numpy, pandas

    io, np, pd = phases.run("import", imports)
    columns = {1: "show", 3: "tbeg", 4: "tdur"}

    def read_rttm(text):
        frame = pd.read_csv(io.StringIO(text), sep=r"\s+", header=None, usecols=list(columns), dtype={1: str}).rename(
            columns=columns
        )
        return frame

    def read_systems():
        files = sorted((folder / "ref").glob("*.rttm"))
        reference = read_rttm("".join(p.read_text() for p in files))
        systems = {name: read_rttm((folder / f"{name}.rttm").read_text()) for name in SYSTEMS}
        return reference, systems

    reference, systems = phases.run("read reference + systems", read_systems)

    def read_units():
        return pd.read_csv(folder / "units.csv", usecols=["show", "start", "end"], dtype={"show": str})

    units = phases.run("read units", read_units)

    def segments(frame, shows):
        """Sorted (show code, start, end) in microseconds, shows not in the reference dropped."""
        code = pd.Categorical(frame["show"], categories=shows).codes.astype(np.int64)
        start = np.rint(frame["tbeg"].to_numpy() * 1e6).astype(np.int64)
        end = start + np.rint(frame["tdur"].to_numpy() * 1e6).astype(np.int64)
        keep = code >= 0
        code, start, end = code[keep], start[keep], end[keep]
        order = np.lexsort((start, code))
        return code[order], start[order], end[order]

    def coverage():
        shows = np.unique(reference["show"].to_numpy().astype(str))
        rc, rs, re_ = segments(reference, shows)
        hc, hs, he = segments(systems["a"], shows)
        # hypothesis segments overlapping reference segment i: lo[i]:hi[i] in the pooled (show, time) keys
        lo = np.searchsorted(hc * SHOW_SPAN + he, rc * SHOW_SPAN + rs, side="right")
        hi = np.searchsorted(hc * SHOW_SPAN + hs, rc * SHOW_SPAN + re_, side="left")
        n = np.maximum(hi - lo, 0)
        pr = np.repeat(np.arange(len(rc)), n)
        ph = np.repeat(lo, n) + np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
        overlap = np.minimum(re_[pr], he[ph]) - np.maximum(rs[pr], hs[ph])
        dr, dh = re_ - rs, he - hs

        def best(group, partner, partner_duration, size):
            # largest overlap, then the shortest partner, then the first
            order = np.lexsort((partner, partner_duration, -overlap, group))
            first = np.ones(len(order), dtype=bool)
            first[1:] = group[order][1:] != group[order][:-1]
            chosen = order[first]
            best_partner = np.full(size, -1)
            best_overlap = np.zeros(size, dtype=np.int64)
            best_partner[group[chosen]] = partner[chosen]
            best_overlap[group[chosen]] = overlap[chosen]
            return best_partner, best_overlap

        p_r, o_r = best(pr, ph, dh[ph], len(rc))
        p_h, o_h = best(ph, pr, dr[pr], len(hc))
        p, q = GAMMA
        ok_r = (p_r >= 0) & (2 * o_r * q > p * (dr + dh[np.maximum(p_r, 0)]))
        ok_h = (p_h >= 0) & (2 * o_h * q > p * (dh + dr[np.maximum(p_h, 0)]))
        r_n, p_n = ok_r.sum() / len(rc), ok_h.sum() / len(hc)
        r_d, p_d = dr[ok_r].sum() / dr.sum(), dh[ok_h].sum() / dh.sum()
        values = {
            "recall_n": r_n,
            "precision_n": p_n,
            "cov_n": 2 * p_n * r_n / (p_n + r_n),
            "recall_d": r_d,
            "precision_d": p_d,
            "cov_d": 2 * p_d * r_d / (p_d + r_d),
        }
        return values, shows, (rc, rs, re_), (hc, hs, he)

    values, shows, ref, hyp = phases.run("evaluate: CovN/CovD", coverage)

    def boundary_keys(side, first, last):
        # starts and ends strictly inside the show's region (the reference's extent), once each
        c, s, e = side
        keys = np.concatenate([(c * SHOW_SPAN + s)[s > first[c]], (c * SHOW_SPAN + e)[e < last[c]]])
        return np.unique(keys)

    def boundaries():
        rc, rs, re_ = ref
        first = np.full(len(shows), np.iinfo(np.int64).max)
        last = np.full(len(shows), np.iinfo(np.int64).min)
        np.minimum.at(first, rc, rs)
        np.maximum.at(last, rc, re_)
        r = boundary_keys(ref, first, last).tolist()
        h = boundary_keys(hyp, first, last).tolist()
        # maximum matching within the tolerance: each reference boundary, in time order, takes the
        # earliest free hypothesis boundary within reach (exact for equal windows on a line); the
        # keys of two shows are SHOW_SPAN apart, so no pair crosses shows
        matched, j, n_h = 0, 0, len(h)
        for x in r:
            low = x - TOLERANCE
            while j < n_h and h[j] < low:
                j += 1
            if j < n_h and h[j] <= x + TOLERANCE:
                matched += 1
                j += 1
        bp, br = matched / len(h), matched / len(r)
        return {"boundary_precision": bp, "boundary_recall": br, "boundary_f1": 2 * bp * br / (bp + br)}

    values.update(phases.run("evaluate: boundary P/R/F", boundaries))

    def pk_windowdiff():
        code = pd.Categorical(units["show"], categories=shows).codes.astype(np.int64)
        start, end = units["start"].to_numpy(), units["end"].to_numpy()
        keep = code >= 0
        code, start, end = code[keep], start[keep], end[keep]
        if not (np.all(np.diff(code) >= 0) and np.all((np.diff(start) >= 0) | (np.diff(code) != 0))):
            order = np.lexsort((start, code))  # the file is not sorted by (show, start)
            code, start, end = code[order], start[order], end[order]
        mid = (start + end) / 2
        n_units = np.bincount(code, minlength=len(shows))
        unit_offset = np.cumsum(n_units) - n_units
        unit_bounds = np.append(unit_offset, len(code)).tolist()

        def labels(side):
            # per unit, the last segment of its show starting at or before its midpoint (0 before the
            # first), compared as floats, as the files give them; then the segments that hold units
            # numbered 0, 1, 2 ... (an empty segment leaves no mass)
            c, s, _ = side
            seg_start = s / 1e6
            seg_bounds = np.searchsorted(c, np.arange(len(shows) + 1)).tolist()
            label = np.empty(len(code), dtype=np.int64)
            for i in range(len(shows)):
                u0, u1 = unit_bounds[i], unit_bounds[i + 1]
                label[u0:u1] = np.searchsorted(seg_start[seg_bounds[i] : seg_bounds[i + 1]], mid[u0:u1], side="right")
            np.maximum(label - 1, 0, out=label)
            change = np.ones(len(label), dtype=bool)
            change[1:] = (label[1:] != label[:-1]) | (code[1:] != code[:-1])
            return np.cumsum(change)

        dense_r, dense_h = labels(ref), labels(hyp)
        last = unit_offset + n_units - 1
        masses = np.zeros(len(shows), dtype=np.int64)
        has = n_units > 0
        masses[has] = dense_r[last[has]] - dense_r[unit_offset[has]] + 1
        # k: half the mean reference segment in units, rounded half up, at least 1
        k = np.maximum(1, (2 * n_units + 2 * masses) // np.maximum(4 * masses, 1))
        local = np.arange(len(code)) - unit_offset[code]
        window = local + k[code] < n_units[code]
        i = np.flatnonzero(window)
        j = i + k[code[i]]
        ref_count, hyp_count = dense_r[j] - dense_r[i], dense_h[j] - dense_h[i]
        windows = len(i)
        return {
            "pk": float(np.count_nonzero((ref_count > 0) != (hyp_count > 0)) / windows),
            "windowdiff": float(np.count_nonzero(ref_count != hyp_count) / windows),
        }

    values.update(phases.run("evaluate: Pk/WindowDiff", pk_windowdiff))
    _write(
        out,
        {"phases": phases.rows, "exact_peak": phases.exact_peak, "values": {k: float(v) for k, v in values.items()}},
    )


# ------------------------------------------------------------------ child: pyannote.metrics on a subset


def pyannote_subset(folder: Path, out: str, n_subset: int) -> None:
    import warnings

    warnings.simplefilter("ignore")
    from tvseg import read_segments

    files = sorted((folder / "ref").glob("*.rttm"))[:n_subset]
    reference = {}
    for path in files:
        reference.update(read_segments(path))
    hypothesis = read_segments(folder / "a.rttm")
    shows = sorted(reference)
    t0 = time.perf_counter()
    from pyannote.metrics.segmentation import (
        SegmentationCoverage,
        SegmentationPrecision,
        SegmentationPurity,
        SegmentationRecall,
    )

    imported = time.perf_counter() - t0
    metrics = {
        "coverage": SegmentationCoverage(),
        "purity": SegmentationPurity(),
        "precision": SegmentationPrecision(tolerance=10.0),
        "recall": SegmentationRecall(tolerance=10.0),
    }
    t0 = time.perf_counter()
    for show in shows:
        for metric in metrics.values():
            metric(reference[show], hypothesis[show])
    seconds = time.perf_counter() - t0
    _write(
        out,
        {
            "shows": len(shows),
            "seconds": seconds,
            "import_seconds": imported,
            "values": {name: abs(m) for name, m in metrics.items()},
        },
    )


# ------------------------------------------------------------ child: write_report alone (--baseline)


def report_phase(folder: Path, out: str, bootstrap: int) -> None:
    """Read and evaluate the corpus as the command does, then time ``write_report`` alone."""
    import warnings

    warnings.simplefilter("ignore")
    import tvseg
    from tvseg.report import write_report
    from tvseg.scale import show_ends

    reference = tvseg.read_segments(folder / "ref", side="reference", which="reference")
    ends = show_ends(reference, None)
    hypotheses = {
        name: tvseg.read_segments(folder / f"{name}.rttm", side=name, which="hypothesis", end=ends) for name in SYSTEMS
    }
    units = tvseg.read_units(folder / "units.csv")
    result = tvseg.evaluate(reference, hypotheses, units=units, settings=tvseg.Settings(bootstrap=bootstrap))
    target = fresh_report(folder, "write_report")
    import resource

    def cpu() -> tuple[float, float]:
        used = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        return sum(u.ru_utime for u in used), sum(u.ru_stime for u in used)

    (u0, s0), t0 = cpu(), time.perf_counter()
    write_report(result, target, progress=False)
    seconds, (u1, s1) = time.perf_counter() - t0, cpu()
    phase = {"seconds": seconds, "cpu_seconds": u1 - u0 + s1 - s0, "user_seconds": u1 - u0, "system_seconds": s1 - s0}
    _write(out, {**phase, "tvseg": tvseg.__file__})


# ------------------------------------------------------------------------------------------ parent


def command_argv(bootstrap: int, out: str) -> list[str]:
    """The command as a user runs it in the corpus folder (this Python), its JSON written to ``out``."""
    return [
        sys.executable,
        "-m",
        "tvseg",
        "evaluate",
        "--reference",
        "ref",
        "--hypothesis",
        "a=a.rttm",
        "--hypothesis",
        "b=b.rttm",
        "--units",
        "units.csv",
        "--bootstrap",
        str(bootstrap),
        "--json",
        out,
    ]


def run_command(folder: Path, bootstrap: int, html: bool, env: dict | None = None) -> dict:
    command = command_argv(bootstrap, "out.json")
    if html:
        command += ["--html", str(fresh_report(folder, "command").relative_to(folder))]
    with open(folder / "command.stdout", "w") as stdout, open(folder / "command.stderr", "w") as stderr:
        t0 = time.perf_counter()
        child = subprocess.Popen(command, cwd=folder, stdout=stdout, stderr=stderr, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - t0
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{' '.join(command)}: exit {child.returncode}\n{(folder / 'command.stderr').read_text()}")
    import resource

    return {
        "command": " ".join(command[1:]),
        "seconds": seconds,
        "peak_mb": usage.ru_maxrss / 1024,
        "children_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
        "stdout": (folder / "command.stdout").read_text(),
        "stderr": (folder / "command.stderr").read_text(),
    }


def child(role: str, folder: Path, *extra, env: dict | None = None) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    try:
        subprocess.run(
            [sys.executable, str(HERE), "--_child", role, str(folder), out, *map(str, extra)], check=True, env=env
        )
        return json.loads(Path(out).read_text())
    finally:
        os.unlink(out)


def _fmt_s(seconds) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def check_equal(numpy_values: dict, tvseg_values: dict, what: str) -> float:
    worst = 0.0
    for key in CHECKED:
        diff = abs(numpy_values[key] - tvseg_values[key])
        assert diff <= 1e-12, f"{what}: {key} numpy {numpy_values[key]!r} != tvseg {tvseg_values[key]!r}"
        worst = max(worst, diff)
    return worst


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=2000)
    parser.add_argument("--html", action="store_true", help="also time the HTML report (--html DIR)")
    parser.add_argument("--keep", metavar="DIR", help="write the corpus to DIR and keep it (reused when it matches)")
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--pyannote-shows", type=int, default=200)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each process; the best time is shown")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="with --html: also time the command and write_report with the tvseg/ of git revision REV, "
        "in turns with the current code, and print the ratios baseline / current",
    )
    parser.add_argument("--_child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._child:
        role, folder, out, *extra = args._child
        if role == "report":
            report_phase(Path(folder), out, int(extra[0]))
        elif role == "tvseg":
            tvseg_phases(Path(folder), out, html=extra[0] == "1", bootstrap=int(extra[1]))
        elif role == "numpy":
            plain_numpy(Path(folder), out)
        else:
            pyannote_subset(Path(folder), out, int(extra[0]))
        return 0

    if args.baseline and not args.html:
        parser.error("--baseline times the HTML report: give --html too")
    folder, counts, generated, tmp = corpus(args.keep, args.shows, args.seed)
    try:
        code = report(args, folder, counts, generated)
        if args.baseline:
            compare_baseline(args, folder)
        return code
    finally:
        import shutil

        shutil.rmtree(folder / REPORTS, ignore_errors=True)
        if tmp is not None:
            tmp.cleanup()


def report(args, folder: Path, counts: dict, generated) -> int:

    inputs = [*(folder / "ref").glob("*.rttm"), *(folder / f"{name}.rttm" for name in SYSTEMS), folder / "units.csv"]
    size = sum(p.stat().st_size for p in inputs)
    print(
        f"corpus: {args.shows} shows (seed {args.seed}), {counts['reference']} reference segments, "
        + ", ".join(f"system {n}: {counts[n]} segments" for n in SYSTEMS)
        + f", {counts['units']} units; {size / 1e6:.0f} MB of input; "
        + (f"generated in {generated:.1f} s" if generated is not None else f"reused from {folder}"),
        flush=True,
    )
    load = os.getloadavg()
    print(
        f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at start", flush=True
    )

    runs = max(1, args.repeat)
    wholes = [run_command(folder, args.bootstrap, html=False) for _ in range(runs)]
    with_htmls = [run_command(folder, args.bootstrap, html=True) for _ in range(runs)] if args.html else []
    whole = min(wholes, key=lambda r: r["seconds"])
    with_html = min(with_htmls, key=lambda r: r["seconds"]) if with_htmls else None
    command_json = json.loads((folder / "out.json").read_text())["systems"]["a"]["corpus"]
    print("command output:\n" + "\n".join("    " + line for line in whole["stdout"].splitlines()), flush=True)
    if whole["stderr"].strip():
        lines = whole["stderr"].strip().splitlines()
        print(f"command stderr ({len(lines)} lines), first: {lines[0]}")

    ours_runs, plain_runs = [], []
    for _ in range(runs):
        ours_runs.append(child("tvseg", folder, "1" if args.html else "0", args.bootstrap))
        plain_runs.append(child("numpy", folder))
    ours, plain = best_of(ours_runs), best_of(plain_runs)
    subset = min(args.pyannote_shows, args.shows)
    theirs = child("pyannote", folder, subset) if subset > 0 else None

    # the numbers first: the script's values equal tvseg's (in process, alone, and the command's JSON)
    worst = max(
        check_equal(plain["values"], ours["values"], "in-process evaluate"),
        check_equal(plain["values"], ours["like_for_like_values"], "evaluate of system a alone"),
        check_equal(plain["values"], command_json, "the command's out.json"),
    )
    print("system a, corpus: " + ", ".join(f"{k} {ours['values'][k]:.6f}" for k in CHECKED))
    print(
        f"numpy script = tvseg on all {len(CHECKED)} numbers (largest difference {worst:.1e}; "
        f"checked against the in-process result, system a evaluated alone, and the command's out.json)\n"
    )

    t = {r["phase"]: r for r in ours["phases"]}
    p = {r["phase"]: r for r in plain["phases"]}
    np_eval = sum(p[k]["seconds"] for k in p if k.startswith("evaluate:"))
    np_eval_peak = max(p[k]["peak_mb"] for k in p if k.startswith("evaluate:"))
    np_time_only = p["evaluate: CovN/CovD"]["seconds"] + p["evaluate: boundary P/R/F"]["seconds"]
    rows = [
        ("import", t["import"], p["import"]),
        ("read reference + 2 systems (RTTM)", t["read reference + systems"], p["read reference + systems"]),
        ("read units (CSV)", t["read units"], p["read units"]),
        ("evaluate [1]", t["evaluate"], {"seconds": np_eval, "peak_mb": np_eval_peak}),
        ("to_json", t["to_json"], None),
        ("write JSON", t["write JSON"], None),
    ]
    if args.html:
        rows.append(("write_report (HTML)", t["write_report"], None))
    total_t = sum(r["seconds"] for r in ours["phases"] if not r["phase"].startswith("like for like"))
    total_p = sum(r["seconds"] for r in plain["phases"])
    rows.append(
        (
            "total, in process",
            {"seconds": total_t, "peak_mb": max(r["peak_mb"] for r in ours["phases"])},
            {"seconds": total_p, "peak_mb": max(r["peak_mb"] for r in plain["phases"])},
        )
    )
    rows.append(
        (
            "like for like: system a with units [2]",
            t["like for like: a, units, no bootstrap"],
            {"seconds": np_eval, "peak_mb": np_eval_peak},
        )
    )
    rows.append(
        (
            "like for like: system a, no units [3]",
            t["like for like: a, no units, no bootstrap"],
            {
                "seconds": np_time_only,
                "peak_mb": max(p["evaluate: CovN/CovD"]["peak_mb"], p["evaluate: boundary P/R/F"]["peak_mb"]),
            },
        )
    )
    spread = per_run_ratios(ours_runs, plain_runs)
    width = max(len(r[0]) for r in rows)
    memory = "peak RSS of the phase" if ours["exact_peak"] and plain["exact_peak"] else "peak RSS so far"
    print(f"{args.shows} shows, best of {runs} run(s) of each ({memory} in brackets, the largest)")
    print(f"{'phase':<{width}} | {'tvseg':>18} | {'numpy script':>18} | tvseg / script (per-run range)")
    print(f"{'-' * width}-|-{'-' * 18}-|-{'-' * 18}-|-------------------------------")
    for name, a, b in rows:
        cell_a = f"{_fmt_s(a['seconds'])} ({a['peak_mb']:.0f} MB)"
        cell_b = f"{_fmt_s(b['seconds'])} ({b['peak_mb']:.0f} MB)" if b else "-"
        ratio = f"{a['seconds'] / b['seconds']:.1f}" if b else "-"
        if b and name in spread and runs > 1:
            ratio += f" ({min(spread[name]):.1f}-{max(spread[name]):.1f})"
        print(f"{name:<{width}} | {cell_a:>18} | {cell_b:>18} | {ratio}")
    print(
        f"[1] tvseg: both systems, every metric (CovN/CovD, boundary P/R/F, by length, gamma and tolerance "
        f"sweeps, VidChapters, match tables, Pk, P'k, WD, WinPR, S, B, C_seg, GHD), {args.bootstrap} bootstrap "
        f"resamples and p-values; script: system a, CovN/CovD, boundary P/R/F, Pk, WD"
    )
    print(
        "[2] tvseg.evaluate of system a alone, units given, --bootstrap 0 (still every metric above); "
        "script: the same as [1]"
    )
    print("[3] tvseg.evaluate of system a alone, no units, --bootstrap 0; script: CovN/CovD and boundary P/R/F")
    print("numpy script phases: " + ", ".join(f"{r['phase']} {_fmt_s(r['seconds'])}" for r in plain["phases"]))

    if theirs:
        extrapolated = theirs["seconds"] * args.shows / theirs["shows"]
        lfl = t["like for like: a, no units, no bootstrap"]["seconds"]
        print(
            f"\npyannote.metrics {_pyannote_version()}: coverage, purity, precision, recall (10 s) of system a "
            f"on the first {theirs['shows']} shows: {_fmt_s(theirs['seconds'])}; EXTRAPOLATED linearly to "
            f"{args.shows} shows: {_fmt_s(extrapolated)} (Annotations given, reading not timed) -> "
            f"{extrapolated / lfl:.0f}x tvseg's like-for-like evaluate of system a ({_fmt_s(lfl)}, "
            f"reading not included either), {extrapolated / np_time_only:.0f}x the numpy script's "
            f"CovN/CovD + boundary P/R/F ({_fmt_s(np_time_only)})"
        )
        print(
            "    its values on that subset (other definitions: purity/coverage are not CovN/CovD, greedy "
            "matching): " + ", ".join(f"{k} {v:.4f}" for k, v in theirs["values"].items())
        )

    walls = lambda rs: ", ".join(_fmt_s(r["seconds"]) for r in rs)
    print(f"\nwhole command, subprocess, best of {runs}: python {whole['command']}")
    print(
        f"    wall {_fmt_s(whole['seconds'])} (runs: {walls(wholes)}), peak RSS of the child {whole['peak_mb']:.0f} MB"
    )
    if with_html:
        print(
            f"    with --html: wall {_fmt_s(with_html['seconds'])} (runs: {walls(with_htmls)}), "
            f"peak RSS {max(r['peak_mb'] for r in with_htmls):.0f} MB"
        )
    print(
        f"    resource.getrusage(RUSAGE_CHILDREN).ru_maxrss after the command(s): "
        f"{(with_html or whole)['children_peak_mb']:.0f} MB (largest child waited for so far)"
    )
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if args.keep:
        print(f"corpus kept in {folder}")
    return 0


def _extract(rev: str, into: Path) -> None:
    """The ``tvseg/`` folder of git revision ``rev`` of this repository, written into ``into``."""
    root = HERE.parents[2]
    try:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", rev, "tvseg"], check=True, capture_output=True
        ).stdout
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"--baseline {rev}: git archive failed: {error.stderr.decode().strip()}") from None
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    # compiled now, as the current code's installed modules are: neither side compiles while it is timed
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(into / "tvseg")], check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "tvseg")], check=True)


def compare_baseline(args, folder: Path) -> None:
    """Time the command with --html and write_report, baseline and current code in turns (module docstring)."""
    root = HERE.parents[2]
    runs = max(1, args.repeat)
    with tempfile.TemporaryDirectory(prefix="tvseg-baseline-") as tmp:
        _extract(args.baseline, Path(tmp))
        envs = {
            "baseline": {**os.environ, "PYTHONPATH": tmp},
            "current": {**os.environ, "PYTHONPATH": str(root)},
        }
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(runs):
            for side, env in envs.items():
                times.setdefault(("command", side), []).append(
                    run_command(folder, args.bootstrap, html=True, env=env)["seconds"]
                )
                without = run_command(folder, args.bootstrap, html=False, env=env)["seconds"]
                times.setdefault(("added", side), []).append(times[("command", side)][-1] - without)
            for side, env in envs.items():
                phase = child("report", folder, args.bootstrap, env=env)
                times.setdefault(("write_report", side), []).append(phase["seconds"])
                times.setdefault(("write_report CPU", side), []).append(phase["cpu_seconds"])
                times.setdefault(("write_report user", side), []).append(phase["user_seconds"])
                times.setdefault(("write_report system", side), []).append(phase["system_seconds"])
    print(f"\n--baseline {args.baseline} against the current code, {args.shows} shows, {runs} run(s) each in turns")
    print(f"{'what':<33} | {'baseline':>10} | {'current':>10} | baseline / current (per-run range)")
    for what, label in (
        ("command", "whole command with --html"),
        ("added", "    what --html adds to it"),
        ("write_report", "write_report (in process)"),
        ("write_report CPU", "write_report, CPU s (all processes)"),
        ("write_report user", "    of which user CPU s"),
        ("write_report system", "    of which system CPU s"),
    ):
        base, cur = times[(what, "baseline")], times[(what, "current")]
        ratios = [b / c for b, c in zip(base, cur)]
        print(
            f"{label:<33} | {_fmt_s(min(base)):>10} | {_fmt_s(min(cur)):>10} | {min(base) / min(cur):.2f} "
            f"({min(ratios):.2f}-{max(ratios):.2f})"
        )
        print(f"    runs: baseline {', '.join(_fmt_s(t) for t in base)}; current {', '.join(_fmt_s(t) for t in cur)}")


def best_of(runs: list[dict]) -> dict:
    """The first run, with each phase's best time and largest peak memory over ``runs``."""
    best = dict(runs[0])
    phases = []
    for k, phase in enumerate(runs[0]["phases"]):
        same = [run["phases"][k] for run in runs]
        phases.append({**phase, "seconds": min(p["seconds"] for p in same), "peak_mb": max(p["peak_mb"] for p in same)})
    best["phases"] = phases
    return best


def per_run_ratios(ours_runs: list[dict], plain_runs: list[dict]) -> dict[str, list[float]]:
    """The ratio tvseg / script of each run pair, for the phases both time."""
    out: dict[str, list[float]] = {}
    names = {
        "import": "import",
        "read reference + systems": "read reference + 2 systems (RTTM)",
        "read units": "read units (CSV)",
    }
    for ours, plain in zip(ours_runs, plain_runs):
        t = {r["phase"]: r["seconds"] for r in ours["phases"]}
        p = {r["phase"]: r["seconds"] for r in plain["phases"]}
        for key, row in names.items():
            out.setdefault(row, []).append(t[key] / p[key])
        np_eval = sum(v for k, v in p.items() if k.startswith("evaluate:"))
        out.setdefault("evaluate [1]", []).append(t["evaluate"] / np_eval)
        out.setdefault("like for like: system a with units [2]", []).append(
            t["like for like: a, units, no bootstrap"] / np_eval
        )
        out.setdefault("like for like: system a, no units [3]", []).append(
            t["like for like: a, no units, no bootstrap"] / (p["evaluate: CovN/CovD"] + p["evaluate: boundary P/R/F"])
        )
    return out


def _pyannote_version() -> str:
    try:
        from importlib.metadata import version

        return version("pyannote.metrics")
    except Exception:  # noqa: BLE001 - only a label
        return ""


if __name__ == "__main__":
    sys.exit(main())
