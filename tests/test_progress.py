"""Progress bars (issue 16): on stderr only when asked or on a terminal, never in the output."""

import pytest

from tvseg import progress
from tvseg.cli import main
from tvseg.samples import demo_folder


@pytest.fixture(autouse=True)
def _reset_mode():
    yield
    progress.set_mode(None)


def _rttm_folder(folder, n):
    folder.mkdir()
    for k in range(n):
        (folder / f"s{k:03d}.rttm").write_text(
            f"SEGMENT s{k:03d} 1 0.000 60.000 <NA> <NA> t <NA> <NA>\n"
            f"SEGMENT s{k:03d} 1 60.000 60.000 <NA> <NA> u <NA> <NA>\n"
        )


def test_the_bar_is_drawn_with_progress_and_not_with_quiet(tmp_path, capsys):
    _rttm_folder(tmp_path / "ref", 150)  # more files than the 100 a bar needs
    args = [
        "evaluate",
        "--reference",
        str(tmp_path / "ref"),
        "--hypothesis",
        f"a={tmp_path / 'ref'}",
        "--bootstrap",
        "0",
    ]
    assert main(args + ["--progress"]) == 0
    drawn = capsys.readouterr()
    assert "tvseg: reading RTTM files" in drawn.err and "tvseg: reading" not in drawn.out
    assert "tvseg: scoring 150 shows" in drawn.err
    assert main(args + ["--quiet"]) == 0
    assert "tvseg: reading" not in capsys.readouterr().err


def test_no_bar_when_stderr_is_not_a_terminal(tmp_path, capsys):
    _rttm_folder(tmp_path / "ref", 150)
    assert (
        main(
            [
                "evaluate",
                "--reference",
                str(tmp_path / "ref"),
                "--hypothesis",
                f"a={tmp_path / 'ref'}",
                "--bootstrap",
                "0",
            ]
        )
        == 0
    )
    err = capsys.readouterr().err  # pytest's captured stderr is not a terminal
    assert "tvseg: reading" not in err and "tvseg: scoring" not in err


def test_progress_and_quiet_exclude_each_other(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", "--demo", "--progress", "--quiet"])
    assert exit_info.value.code == 2


def test_the_report_bar_counts_every_show(tmp_path, capsys):
    assert (
        main(["evaluate", "--demo", "--html", str(tmp_path / "rep"), "--progress", "--jobs", "1", "--bootstrap", "0"])
        == 0
    )
    err = capsys.readouterr().err
    # the demo has 7 shows: a bar of 7 shows is drawn (forced, though a report this small draws none
    # by itself), and cleared at the end (tqdm's leave=False)
    assert "tvseg: writing report" in err and "/7 [" in err
    assert demo_folder().is_dir()
