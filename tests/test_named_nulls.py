"""Every undefined value of an evaluation (null in the JSON, NaN in ``to_frame()``) is named by one
warning: its system, where (shows, corpus, macro, by_length, groups, sweeps, bootstrap, pairwise),
its metric and why; no warning is given twice.

The inputs are written by hand so that each kind of null happens:

- show ``alpha`` (issue 30's reproducer): the reference is one segment (0-2000 s, "Alpha"), system A
  splits it in two (0-1000 "Alpha", 1000-2000 "Beta"): no reference boundary (boundary_recall 0/0),
  the reference segment is not correctly retrieved (1000/2000 < 0.85: title accuracy, F1, ROUGE-L 0/0)
  and no chapter pair matches in time (ends 2000 and 1000 are 1000 s apart: matched title ROUGE-L 0/0);
- show ``bravo``: system A has no hypothesis (precision_n, boundary_precision 0/0) and one unit
  covers the show (no Pk window, no potential boundary: the unit metrics 0/0);
- show ``charlie``: no units, so no unit metric for it;
- system B has no short segment (under 30 s: its shortest is charlie's 0-40), so its short class has
  no precision (0/0);
- metadata groups: ``channel=c1`` holds ``alpha`` alone, whose nulls are the group's too.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tvseg
from tvseg.undefined_values import UNKNOWN

REFERENCE = """show,start,end,label
alpha,0,2000,Alpha
bravo,0,100,News
bravo,100,110,Short
bravo,110,300,Sport
charlie,0,10,X
charlie,10,40,Y
"""
SYSTEM_A = """show,start,end,label
alpha,0,1000,Alpha
alpha,1000,2000,Beta
charlie,0,10,X
charlie,10,40,Y
"""
SYSTEM_B = """show,start,end,label
alpha,0,2000,Alpha
bravo,0,300,News
charlie,0,40,X
"""
UNITS = """show,start,end
alpha,0,500
alpha,500,1000
alpha,1000,1500
alpha,1500,2000
bravo,0,300
"""
METADATA = """show,channel
alpha,c1
bravo,c2
charlie,c2
"""
HEAD = re.compile(r"^(?P<system>.+?): (?P<reason>.+?), so each value named here is NaN \(0/0\) \(null in the JSON\): ")
ONE_SHOW = "1 show: no bootstrap interval and no p-value (null in the JSON)"


@pytest.fixture
def inputs(tmp_path):
    for name, text in (
        ("ref.csv", REFERENCE),
        ("a.csv", SYSTEM_A),
        ("b.csv", SYSTEM_B),
        ("units.csv", UNITS),
        ("meta.csv", METADATA),
    ):
        (tmp_path / name).write_text(text)
    return tmp_path


def parse(messages):
    """``{(system, scope): [(reason, text after the scope)]}`` of the warnings naming nulls."""
    out: dict = {}
    for message in messages:
        head = HEAD.match(message)
        if head is None:
            continue
        for part in message[head.end() :].split("; "):
            scope, _, rest = part.partition(": ")
            out.setdefault((head["system"], scope), []).append((head["reason"], rest))
    return out


def rows_of(rest: str, metric: str) -> str | None:
    """The rows listed for ``metric`` in a scope's text (``""`` when none are listed), None if it is
    not named there."""
    found = re.search(rf"(?<![\w]){re.escape(metric)}(?![\w])", rest)
    if found is None:
        return None
    listed = re.match(r"[\w, ]*?\(([^)]*)\)", rest[found.end() :])
    return listed.group(1) if listed else ""


def named(parsed, system, scope, metric, row=None) -> bool:
    for _, rest in parsed.get((system, scope), []):
        rows = rows_of(rest, metric)
        if rows is not None and (row is None or re.search(rf"(?<![\w]){re.escape(row)}(?![\w])", rows)):
            return True
    return False


def nulls(document):
    """``(system, scope, metric, row)`` of every null among the systems' values and the comparisons."""
    out = []
    for system, values in document["systems"].items():
        for scope in ("corpus", "macro"):
            out += [(system, scope, k, None) for k, v in values[scope].items() if v is None]
        for show, metrics in values["shows"].items():
            out += [(system, "shows", k, show) for k, v in metrics.items() if v is None]
        for cls, metrics in values["by_length"].items():
            out += [(system, f"by_length.{cls}", k, None) for k, v in metrics.items() if v is None]
        for column, groups in values["groups"].items():
            for value, metrics in groups.items():
                out += [(system, "groups", k, f"{column}={value}") for k, v in metrics.items() if v is None]
        for sweep, rows in values["sweeps"].items():
            out += [(system, f"sweeps.{sweep}", k, None) for row in rows for k, v in row.items() if v is None]
        for metric, interval in values["bootstrap"].items():
            out += [(system, "bootstrap", metric, None) for v in interval.values() if v is None]
    for entry in document["pairwise"]:
        for key in ("difference", "p_value", "p_value_holm"):
            if entry[key] is None:
                out.append((f"{entry['a']} vs {entry['b']}", "pairwise", f"{entry['metric']} {key}", None))
    return out


def check_named(document, messages):
    assert len(messages) == len(set(messages)), "a warning is repeated"
    assert not any(UNKNOWN in m for m in messages)
    parsed = parse(messages)
    one_show = any(ONE_SHOW in m for m in messages)
    found = nulls(document)
    for system, scope, metric, row in found:
        if one_show and scope in ("bootstrap", "pairwise"):
            continue  # the bootstrap's own warning: no interval, no p-value at all
        assert named(parsed, system, scope, metric, row), (system, scope, metric, row)
    return found


def evaluate_in_python(inputs, **options):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tvseg.evaluate(
            tvseg.read_segments(inputs / "ref.csv"),
            {"A": tvseg.read_segments(inputs / "a.csv"), "B": tvseg.read_segments(inputs / "b.csv")},
            units=tvseg.read_units(inputs / "units.csv"),
            metadata=tvseg.read_metadata(inputs / "meta.csv"),
            settings=tvseg.Settings(bootstrap=200),
            **options,
        )
    return result, [str(w.message) for w in caught if issubclass(w.category, tvseg.TvsegWarning)]


def test_every_null_of_the_json_is_named_once(inputs):
    result, messages = evaluate_in_python(inputs)
    found = check_named(result.to_json(), messages)
    kinds = {(scope, metric) for _, scope, metric, _ in found}
    # each null of the issue's reproducer, and the others the inputs are built for, happens
    for metric in (
        "boundary_recall",
        "title_accuracy",
        "title_f1",
        "title_rougeL_f1",
        "title_matched_rougeL_precision",
        "title_matched_rougeL_recall",
        "title_matched_rougeL_f1",
        "precision_n",
        "boundary_precision",
        "pk",
        "windowdiff",
        "s",
        "cseg_norm",
        "b",
    ):
        assert ("shows", metric) in kinds, metric
    assert {"shows", "corpus", "macro", "groups", "sweeps.tolerance"} <= {scope for scope, _ in kinds}
    assert any(scope.startswith("by_length") for scope, _ in kinds)
    # the reasons, as worked out in the module docstring
    parsed = parse(messages)
    reasons = {reason for entries in parsed.values() for reason, _ in entries}
    assert {
        "no reference boundary",
        "no hypothesis boundary",
        "no hypothesis segment",
        "no correctly retrieved reference segment with a title",
        "no pair of chapters matched in time (start and end within 5 s)",
        "no Pk window fits in the units",
        "the show is not scored by the unit metrics (no units for it, or shorter than one chunk)",
    } <= reasons
    assert named(parsed, "A", "shows", "boundary_recall", "alpha")
    assert named(parsed, "A", "shows", "precision_n", "bravo")
    assert named(parsed, "A", "shows", "pk", "charlie") and named(parsed, "A", "shows", "pk", "bravo")


def test_every_nan_of_to_frame_is_named(inputs):
    result, messages = evaluate_in_python(inputs)
    parsed = parse(messages)
    frame = result.to_frame()
    scopes = {"show": "shows", "corpus": "corpus", "macro": "macro"}
    undefined = frame[np.isnan(frame["value"].to_numpy(float))]
    assert len(undefined)
    for row in undefined.itertuples():
        if row.scope == "by_length":
            assert named(parsed, row.system, f"by_length.{row.group}", row.metric), row
        elif row.scope == "group":
            assert named(parsed, row.system, "groups", row.metric, row.group), row
        else:
            assert named(parsed, row.system, scopes[row.scope], row.metric, row.show if row.scope == "show" else None)
    with_interval = frame[(frame["scope"] == "corpus") & ~np.isnan(frame["value"].to_numpy(float))]
    for row in with_interval[np.isnan(with_interval["low"].to_numpy(float))].itertuples():
        if row.metric in result.intervals[row.system]:  # counts get no interval
            assert named(parsed, row.system, "bootstrap", row.metric), row


def test_the_issue_reproducer_alone(inputs):
    # one show, one system: the nulls of issue 30, and the bootstrap's one-show warning for the intervals
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tvseg.evaluate(
            {"alpha": tvseg.read_segments(inputs / "ref.csv")["alpha"]},
            {"A": {"alpha": tvseg.read_segments(inputs / "a.csv")["alpha"]}},
        )
    messages = [str(w.message) for w in caught]
    found = check_named(result.to_json(), messages)
    assert {m for _, scope, m, _ in found if scope == "corpus"} == {
        "boundary_recall",
        "title_accuracy",
        "title_f1",
        "title_rougeL_f1",
        "title_matched_rougeL_precision",
        "title_matched_rougeL_recall",
        "title_matched_rougeL_f1",
        # the reference of alpha has no boundary: its hit recalls are 0/0 like boundary_recall, and its deviations
        # and Hausdorff distance (one side without a boundary) are undefined, so their means over the shows too
        "hit_recall_0_5s",
        "hit_recall_3s",
        "median_deviation_ref_to_hyp",
        "median_deviation_hyp_to_ref",
        "hausdorff",
    }
    assert any(ONE_SHOW in m for m in messages)


def test_the_cli_names_every_null(inputs):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tvseg",
            "evaluate",
            "--reference",
            "ref.csv",
            "--hypothesis",
            "A=a.csv",
            "--hypothesis",
            "B=b.csv",
            "--units",
            "units.csv",
            "--metadata",
            "meta.csv",
            "--bootstrap",
            "200",
            "--no-html",
            "--json",
            "out.json",
        ],
        cwd=inputs,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    messages = [
        line[len("tvseg: warning: ") :] for line in done.stderr.splitlines() if line.startswith("tvseg: warning: ")
    ]
    found = check_named(json.loads((inputs / "out.json").read_text()), messages)
    assert len(found) > 20
