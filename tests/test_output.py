"""Atomic output: a failed write leaves neither a partial file nor a temporary one behind."""

import csv
import errno
import io
import json
import math
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from tvseg.errors import InputError, UsageError
from tvseg.output import csv_line, write_json_atomic, write_text_atomic


def test_nan_becomes_null_and_the_file_is_complete(tmp_path):
    path = write_json_atomic(tmp_path / "r.json", {"a": math.nan, "b": [1.0, math.inf], "c": "é"})
    assert json.loads(path.read_text(encoding="utf-8")) == {"a": None, "b": [1.0, None], "c": "é"}
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_failure_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "r.json"
    target.write_text("old\n")
    with pytest.raises(TypeError):
        write_json_atomic(target, {"a": object()})  # not serialisable: fails before anything is written
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_missing_folder_is_a_usage_error_unless_asked_to_create(tmp_path):
    with pytest.raises(UsageError):
        write_text_atomic(tmp_path / "no" / "x.txt", "x")
    assert write_text_atomic(tmp_path / "no" / "x.txt", "x", create_folder=True).read_text() == "x"


def test_the_file_is_flushed_to_disk_before_the_rename(tmp_path, monkeypatch):
    import os

    import tvseg.output

    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(tvseg.output.os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(tvseg.output.os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    write_text_atomic(tmp_path / "r.txt", "x\n")
    # the file, then (after the rename) its folder
    assert events == ["fsync", "replace", "fsync"]


@pytest.mark.parametrize("where", ["write_file", "replace"])
def test_a_full_disk_is_an_input_error_naming_the_path_and_keeps_the_old_file(tmp_path, monkeypatch, where):
    import os

    import tvseg.output

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    target = tmp_path / "r.json"
    target.write_text("old\n")
    monkeypatch.setattr(tvseg.output if where == "write_file" else tvseg.output.os, where, no_space)
    with pytest.raises(InputError) as error:
        write_json_atomic(target, {"a": 1})
    assert str(error.value) == f"{target}: cannot write the file (No space left on device)"
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    return int(done.stdout)


def test_temporaries_of_a_killed_writer_are_removed_by_the_next_one(tmp_path):
    import os

    dead, alive = _dead_pid(), os.getppid()
    (tmp_path / f".r.json.tmp-{dead}-0badc0de").write_text("half")
    (tmp_path / f".r.json.tmp-{alive}-0badc0de").write_text("being written")
    (tmp_path / f".other.tmp-{dead}-0badc0de").write_text("not ours")
    write_json_atomic(tmp_path / "r.json", {"a": 1})
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["r.json", f".r.json.tmp-{alive}-0badc0de", f".other.tmp-{dead}-0badc0de"]
    )


def test_csv_line_quotes_what_a_reader_would_split():
    assert csv_line(["a", "", None, 1.5]) == "a,,,1.5\n"
    assert csv_line(["a\rb", "a\nb", 'q"', "x,y"]) == '"a\rb","a\nb","q""",' + '"x,y"\n'
    assert list(csv.reader(io.StringIO(csv_line(["a\rb", 'q"', "x,y"]), newline=""))) == [["a\rb", 'q"', "x,y"]]


@pytest.mark.parametrize("syncfs", [True, False])
def test_flush_tree_flushes_every_file(tmp_path, monkeypatch, syncfs):
    import os

    import tvseg.filesystem
    import tvseg.output

    (tmp_path / "a" / "b").mkdir(parents=True)
    for name in ("x", "a/y", "a/b/z"):
        (tmp_path / name).write_text(name)
    flushed = []
    real = os.fsync
    monkeypatch.setattr(tvseg.output.os, "fsync", lambda fd: (flushed.append(fd), real(fd))[1])
    if not syncfs:
        monkeypatch.setattr(tvseg.filesystem, "_syncfs", lambda root: False)
    tvseg.output.flush_tree(tmp_path)
    if syncfs and sys.platform.startswith("linux"):
        assert flushed == []  # one syncfs(2) for the whole file system
    else:
        assert len(flushed) == 3 + (3 if os.name != "nt" else 0)  # the files, then the folders


# --- the JSON writer of large results (issue 13): same values as the json module's, faster ---------------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**60), 2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=30,
)


@hsettings(max_examples=300, deadline=None)
@given(_json)
def test_dumps_json_reads_back_as_the_json_module_writes(data):
    from tvseg.output import dumps_json

    text = dumps_json(data)
    assert json.loads(text) == json.loads(json.dumps(data, ensure_ascii=False))
    assert text == dumps_json(json.loads(text))  # the same value gives the same bytes


def test_dumps_json_puts_a_container_of_scalars_on_one_line():
    from tvseg.output import dumps_json

    text = dumps_json({"a": {"s1": {"x": 1, "y": None}, "s2": {}}, "b": [1, 2]})
    assert text.splitlines() == [
        "{",
        ' "a": {',
        '  "s1": {"x": 1, "y": null},',
        '  "s2": {}',
        " },",
        ' "b": [1, 2]',
        "}",
    ]


def test_frame_records_equal_json_safe_of_to_dict():
    import numpy as np
    import pandas as pd

    from tvseg.output import frame_records, json_safe

    frame = pd.DataFrame(
        {
            "n_reference": [3.0, np.nan, 2.5, 7.0],
            "cov_n": [0.5, np.inf, np.nan, 1.0],
            "count": np.array([1, 2, 3, 4], dtype=np.int64),
            "flag": [True, False, True, True],
            "label": ["a", None, np.float64(np.nan), "é"],
        },
        index=["s1", "s2", "s3", "s4"],
    )
    expected = json_safe(frame.to_dict(orient="index"), integer_keys={"n_reference"})
    got = frame_records(frame, integer_keys={"n_reference"})
    assert got == expected
    assert [[type(v) for v in row.values()] for row in got.values()] == [
        [type(v) for v in row.values()] for row in expected.values()
    ]
    assert got["s1"]["n_reference"] == 3 and type(got["s1"]["n_reference"]) is int


_floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1.0, 0.5, 1 / 3, 0.1 + 0.2, 1e-300, 1e300]),  # repeats, a negative zero
)


@hsettings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(_floats, _floats, st.integers(-5, 5), st.booleans(), st.text(max_size=4), _floats), max_size=12),
    st.booleans(),
)
def test_rows_and_arrays_are_the_text_the_json_module_writes(cells, nested):
    """The rows of a table (one template filled with each column's text, each distinct float of its float
    columns written once)
    and an array's blocks are, byte for byte, what ``json.dumps`` writes of the same values: ``repr`` of each
    float (``-0.0`` kept apart from ``0.0``), null for NaN and infinities in a row, ints for whole counts."""
    import numpy as np
    import pandas as pd

    from tvseg.output import Array, encoded_rows, frame_records

    frame = pd.DataFrame(
        {
            "cov_n": [c[0] for c in cells],
            "n_ref": [c[1] for c in cells],
            "k": np.array([c[2] for c in cells], dtype=np.int64),
            "flag": np.array([c[3] for c in cells], dtype=bool),
            "label {x}": pd.Series([c[4] for c in cells], dtype=object),
            "p_n": [c[5] for c in cells],
        },
        index=[f"s{k}" for k in range(len(cells))],
    )
    objects = {"stories": {"k": "k", "ratio": "cov_n"}} if nested else None
    records = frame_records(frame, integer_keys={"n_ref"}, nested=objects)
    expected = "\n".join(
        json.dumps(i, ensure_ascii=False) + ": " + json.dumps(row, ensure_ascii=False, separators=(", ", ": "))
        for i, row in records.items()
    )
    assert encoded_rows(frame, integer_keys={"n_ref"}, nested=objects) == expected
    values = np.array([c[0] for c in cells], dtype=float)
    if np.isfinite(values).all():
        assert ", ".join(Array(values).blocks()) == json.dumps(values.tolist())[1:-1]
