"""Atomic output: a failed write leaves neither a partial file nor a temporary one behind."""
import json
import math

import pytest

from tvseg.errors import UsageError
from tvseg.output import write_json_atomic, write_text_atomic


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
