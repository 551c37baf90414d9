"""Hypotheses and units on another time base are refused, never scored as zeros or as perfect (issue 11)."""

import pytest

from tvseg.cli import main
from tvseg.errors import InputError
from tvseg.evaluation import evaluate
from tvseg.settings import Settings

LINE = "SEGMENT {show} 1 {start} {dur} <NA> <NA> {label} <NA> <NA>\n"


def rttm(path, rows):
    path.write_text("".join(LINE.format(show=s, start=a, dur=d, label=lab) for s, a, d, lab in rows))
    return path


def corpus(tmp_path, *, offset=0.0, scale=1.0, prefix=""):
    # two shows of 600 s, three segments each; the hypothesis cuts at 190 and 410 (reference 200, 400)
    ref = rttm(
        tmp_path / "ref.rttm",
        [(s, a, d, lab) for s in ("s1", "s2") for a, d, lab in ((0, 200, "a"), (200, 200, "b"), (400, 200, "c"))],
    )
    hyp = rttm(
        tmp_path / "hyp.rttm",
        [
            (prefix + s, a * scale + offset, d * scale, lab)
            for s in ("s1", "s2")
            for a, d, lab in ((0, 190, "a"), (190, 220, "b"), (410, 190, "c"))
        ],
    )
    return ref, hyp


def units_csv(path, *, offset=0.0, scale=1.0, until=600):
    rows = ["show,start,end"]
    for show in ("s1", "s2"):
        rows += [f"{show},{(t * scale + offset):g},{((t + 5) * scale + offset):g}" for t in range(0, until, 5)]
    path.write_text("\n".join(rows) + "\n")
    return path


def run(capsys, ref, hyp, *extra):
    code = main(["evaluate", "--reference", str(ref), "--hypothesis", f"sys={hyp}", "--bootstrap", "0", *extra])
    return code, capsys.readouterr()


def test_no_show_in_common_is_an_error(tmp_path, capsys):
    # every hypothesis show id prefixed x_: nothing to score (it used to print zeros and exit 0)
    ref, hyp = corpus(tmp_path, prefix="x_")
    code, out = run(capsys, ref, hyp)
    assert code == 2
    assert "system 'sys' has no show in common with the reference" in out.err
    assert "x_s1" in out.err and "Traceback" not in out.err


def test_a_timecode_offset_hypothesis_is_refused_with_its_cause(tmp_path, capsys):
    ref, hyp = corpus(tmp_path, offset=36000)
    code, out = run(capsys, ref, hyp)
    assert code == 2
    assert "show 's1'" in out.err and "[36000.000, 36600.000] s" in out.err and "[0.000, 600.000] s" in out.err
    assert "10:00:00" in out.err


def test_a_hypothesis_in_milliseconds_is_refused_or_named(tmp_path, capsys):
    # the hypothesis in ms: [0, 600000] overlaps the region [0, 600] by 600 of 600,000 s (0.1 %)
    ref, hyp = corpus(tmp_path, scale=1000)
    code, out = run(capsys, ref, hyp)
    assert code == 2 and "milliseconds" in out.err and "only 0% of it lies in the evaluated region" in out.err


def test_the_flag_turns_the_error_into_a_warning(tmp_path, capsys):
    ref, hyp = corpus(tmp_path, offset=36000)
    code, out = run(capsys, ref, hyp, "--no-time-base-check")
    assert code == 0 and "does not overlap" in out.err


def test_units_on_a_timecode_base_are_refused(tmp_path, capsys):
    # units with +36,000 s used to give Pk 0, WindowDiff 0, S 100 and exit 0
    ref, hyp = corpus(tmp_path)
    units = units_csv(tmp_path / "units.csv", offset=36000)
    code, out = run(capsys, ref, hyp, "--units", str(units))
    assert code == 2 and "units [36000.000, 36600.000] s do not overlap" in out.err and "10:00:00" in out.err


def test_units_in_milliseconds_are_refused(tmp_path, capsys):
    ref, hyp = corpus(tmp_path)
    units = units_csv(tmp_path / "units.csv", scale=1000)
    code, out = run(capsys, ref, hyp, "--units", str(units))
    # units in ms: [0, 600000]; the first unit [0, 5000] alone covers the region [0, 600], so the
    # coverage is full, but 600 of the units' 600,000 s (0.1 %) lie in it: refused, cause named
    assert code == 2 and "only 0% of their time lies" in out.err and "milliseconds" in out.err


def test_units_covering_part_of_the_show_are_named(tmp_path, capsys):
    # units over the first 240 s of each 600 s show: 40 % of the region -> a warning naming it
    ref, hyp = corpus(tmp_path)
    units = units_csv(tmp_path / "units.csv", until=240)
    code, out = run(capsys, ref, hyp, "--units", str(units))
    assert code == 0
    assert "show 's1': units [0.000, 240.000] s cover only 40% of the show's evaluated region" in out.err
    assert "show 's2': units" in out.err


def test_frames_and_bootstrap_limits_are_refused_before_work(tmp_path, capsys):
    ref, hyp = corpus(tmp_path)
    code, out = run(capsys, ref, hyp, "--frame", "1e-6")
    assert code == 2 and "more than 2,000,000" in out.err
    with pytest.raises(Exception, match="at most 100,000"):
        Settings(bootstrap=10_000_000)
    code = main(["evaluate", "--reference", str(ref), "--hypothesis", f"sys={hyp}", "--bootstrap", "10000000"])
    assert code == 2


def test_the_api_raises_value_errors():
    from pyannote.core import Annotation, Segment

    ref, hyp = Annotation(), Annotation()
    ref[Segment(0, 100)] = "a"
    hyp[Segment(5000, 5100)] = "a"
    with pytest.raises(InputError, match="does not overlap") as error:
        evaluate({"s": ref}, {"sys": {"s": hyp}}, settings=Settings(bootstrap=0))
    assert isinstance(error.value, ValueError)


def test_caption_warning_flags_the_shows_a_per_show_median_flags():
    # the vectorised medians (one sort) against numpy.median show by show, on random shows mixing
    # caption-like cues (1-5 s) and topic segments (1-10 min)
    import numpy as np

    from tvseg.columns import from_segmentations
    from tvseg.time_base import CAPTION_MEDIAN, CAPTION_RATE, caption_like, captions_message

    rng = np.random.default_rng(5)
    for _ in range(30):
        shows, parts = [], []
        for k in range(int(rng.integers(1, 12))):
            n = int(rng.integers(0, 40))
            scale = 3.0 if rng.random() < 0.5 else 300.0
            bounds = np.concatenate(([0.0], np.cumsum(np.round(rng.uniform(0.5, 2 * scale, n), 3))))
            shows.append(f"s{k}")
            parts.append([(float(a), float(b)) for a, b in zip(bounds[:-1], bounds[1:])])
        segments = from_segmentations(parts, names=shows, side="reference")
        expected = []
        for name, part in zip(shows, parts):
            if len(part) > 1:
                median = float(np.median(segments.duration[segments.show == shows.index(name)]))
                rate = len(part) / ((part[-1][1] - part[0][0]) / 3600.0)
                if median < CAPTION_MEDIAN and rate > CAPTION_RATE:
                    expected.append(name)
        flagged = caption_like(shows, segments)
        assert [show for show, _, _ in flagged] == expected
        if expected:
            message = captions_message("reference", len(flagged), flagged[0])
            assert f"{len(expected)} show(s) look like captions" in message
            assert f"(show {expected[0]!r}:" in message and "--units" in message


def _unit_verdicts_show_by_show(shows, units, region_start, region_end):
    """The per-show loop the vectorised check replaced: ("error"|"warn"|"late", show index) in show order,
    "late" for units ending more than LATE_UNITS after the region (and no other message)."""
    import numpy as np

    from tvseg.time_base import LATE_UNITS, MIN_UNIT_COVERAGE, likely_cause

    out = []
    for k, show in enumerate(shows):
        table = units.get(show)
        if table is None or not len(table) or np.isnan(region_start[k]):
            continue
        start, end = np.asarray(table[0], float), np.asarray(table[1], float)
        r0, r1 = float(region_start[k]), float(region_end[k])
        inside = np.clip(np.minimum(end, r1) - np.maximum(start, r0), 0.0, None)
        cause = likely_cause((r0, r1), (float(start.min()), float(end.max())))
        if inside.sum() == 0.0:
            out.append(("error", k))
            continue
        if cause and inside.sum() < 0.5 * (end - start).sum():
            out.append(("error", k))
            continue
        order = np.argsort(start, kind="stable")
        s, e = np.clip(start[order], r0, r1), np.clip(end[order], r0, r1)
        reach = np.maximum.accumulate(e)
        prev = np.concatenate(([r0], reach[:-1]))
        covered = float(np.clip(e - np.maximum(s, prev), 0.0, None).sum())
        if (covered / (r1 - r0) if r1 > r0 else 1.0) < MIN_UNIT_COVERAGE:
            out.append(("warn", k))
        elif float(end.max()) > r1 + LATE_UNITS:
            out.append(("late", k))
    return out


def test_unit_extent_checks_give_the_verdicts_of_a_show_by_show_loop():
    # random shows whose units overlap (roll-up captions), leave gaps, stray outside the region, are
    # shifted by an hour or scaled by 1000, or are missing; the first error and every warning match
    import warnings

    import numpy as np

    from tvseg.errors import InputError, TvsegWarning
    from tvseg.time_base import check_unit_extents

    rng = np.random.default_rng(11)
    for trial in range(200):
        n = int(rng.integers(1, 8))
        shows = [f"s{k}" for k in range(n)]
        region_start = np.round(rng.uniform(0, 50, n), 3)
        region_end = region_start + np.round(rng.uniform(10, 600, n), 3)
        region_start[rng.random(n) < 0.1] = np.nan
        units = {}
        for k in range(n):
            if rng.random() < 0.15:
                continue
            m = int(rng.integers(1, 30))
            start = np.sort(
                np.round(
                    rng.uniform(
                        region_start[k] if not np.isnan(region_start[k]) else 0,
                        (region_end[k] if not np.isnan(region_end[k]) else 100) * 1.2,
                        m,
                    ),
                    3,
                )
            )
            end = start + np.round(rng.uniform(0.5, 8 if rng.random() < 0.5 else 60, m), 3)
            kind = rng.random()
            if kind < 0.1:
                start, end = start + 3600, end + 3600
            elif kind < 0.2:
                start, end = start * 1000, end * 1000
            units[shows[k]] = (start, end)
        expected = _unit_verdicts_show_by_show(shows, units, region_start, region_end)
        flat = [(k, s, e) for k, show in enumerate(shows) if show in units for s, e in zip(*units[show])]
        unit_show = np.array([f[0] for f in flat], dtype=np.int64)
        unit_start = np.array([f[1] for f in flat], dtype=float)
        unit_end = np.array([f[2] for f in flat], dtype=float)
        if trial % 2:  # units in any order: the check sorts them
            shuffle = rng.permutation(len(unit_show))
            unit_show, unit_start, unit_end = unit_show[shuffle], unit_start[shuffle], unit_end[shuffle]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                check_unit_extents(shows, unit_show, unit_start, unit_end, region_start, region_end)
                error = None
            except InputError as e:
                error = str(e)
        first_error = next((k for v, k in expected if v == "error"), None)
        if first_error is None:
            assert error is None
        else:
            assert error is not None and error.startswith(f"show {shows[first_error]!r}: units")
        warned = [w for w in caught if issubclass(w.category, TvsegWarning)]
        before_error = [(v, k) for v, k in expected if v != "error" and (first_error is None or k < first_error)]
        messages = [str(w.message) for w in warned]
        assert [m.split(":")[0] for m in messages] == [f"show {shows[k]!r}" for _, k in before_error]
        for (verdict, _), message in zip(before_error, messages):
            assert ("s after the show's evaluated region" in message) == (verdict == "late"), message


def _hypothesis_messages_show_by_show(name, shows, segments, region_start, region_end):
    """(verdict, message) per show in order, from per-show sums as a show-by-show loop takes them."""
    import numpy as np

    from tvseg.time_base import _extent_text, likely_cause

    out = []
    for k, show in enumerate(shows):
        if show not in segments or np.isnan(region_start[k]):
            continue
        start, end = segments[show]
        r0, r1 = float(region_start[k]), float(region_end[k])
        inside = float(np.clip(np.minimum(end, r1) - np.maximum(start, r0), 0.0, None).sum())
        total = float((end - start).sum())
        extent = (float(start[0]), float(end[-1]))
        where = f"show {show!r}: system {name!r}'s hypothesis {_extent_text(*extent)}"
        if inside == 0.0:
            out.append(("error", f"{where} does not overlap the show's evaluated region {_extent_text(r0, r1)}"))
        elif inside < 0.5 * total:
            cause = likely_cause((r0, r1), extent)
            text = (
                f"{where}: only {100 * inside / total:.0f}% of it lies in the evaluated region {_extent_text(r0, r1)}"
            )
            out.append(("error" if cause else "warn", text))
    return out


def test_hypothesis_extent_checks_give_the_verdicts_of_a_show_by_show_loop():
    # the sums are taken for all shows at once; the verdicts, their order and their messages are those
    # of per-show sums, including hypotheses exactly half inside their region (not flagged)
    import warnings

    import numpy as np

    from tvseg.columns import Segments
    from tvseg.errors import InputError, TvsegWarning
    from tvseg.time_base import check_hypothesis_extents

    rng = np.random.default_rng(4)
    for _ in range(300):
        n = int(rng.integers(1, 8))
        shows = [f"s{k}" for k in range(n)]
        region_start = np.round(rng.uniform(0, 50, n), 1)
        region_end = region_start + np.round(rng.uniform(10, 300, n), 1)
        region_start[rng.random(n) < 0.1] = np.nan
        segments = {}
        for k in range(n):
            if rng.random() < 0.15:
                continue
            cuts = np.unique(np.round(rng.uniform(0, 400, int(rng.integers(2, 12))), 1))
            if len(cuts) < 2:
                continue
            start, end = cuts[:-1], cuts[1:]
            kind = rng.random()
            if kind < 0.15 and not np.isnan(region_start[k]):  # exactly half inside: [r0 - w, r0 + w]
                w = round(float(region_end[k] - region_start[k]) / 4, 1)
                start, end = np.array([region_start[k] - w]), np.array([region_start[k] + w])
            elif kind < 0.3:
                start, end = start + 3600, end + 3600
            elif kind < 0.4:
                start, end = start * 1000, end * 1000
            segments[shows[k]] = (start, end)
        rows = [(k, s, e) for k, show in enumerate(shows) if show in segments for s, e in zip(*segments[show])]
        hypothesis = Segments(
            show=np.array([r[0] for r in rows], dtype=np.int64),
            start=np.array([r[1] for r in rows], dtype=float),
            end=np.array([r[2] for r in rows], dtype=float),
            label=np.full(len(rows), None, dtype=object),
            n_shows=n,
        )
        expected = _hypothesis_messages_show_by_show("a", shows, segments, region_start, region_end)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_hypothesis_extents("a", shows, hypothesis, region_start, region_end, strict=False)
        got = [str(w.message) for w in caught if issubclass(w.category, TvsegWarning)]
        assert [g.split(" (")[0].split(";")[0] for g in got] == [m.split(" (")[0].split(";")[0] for _, m in expected]
        first_error = next((m for v, m in expected if v == "error"), None)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", TvsegWarning)
                check_hypothesis_extents("a", shows, hypothesis, region_start, region_end)
            error = None
        except InputError as e:
            error = str(e)
        assert (error is None) == (first_error is None)
        if error is not None:
            assert error.startswith(first_error.split(" (")[0].split(";")[0])
