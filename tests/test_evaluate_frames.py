"""`tvseg evaluate --frame`: time segmentations projected onto fixed frames feed the unit metrics."""

import json

from tvseg.cli import main


def test_one_second_frames_give_the_hand_computed_pk_and_windowdiff(tmp_path):
    # reference |0 ........ 10| ........ 20|   hypothesis |0 .......... 12| ...... 20|
    # 1-s frames: a frame belongs to the segment holding its midpoint, so the masses are
    # reference (10, 10) and hypothesis (12, 8): N = 20 units, boundaries in gaps 10 and 12.
    # paper convention: k = round_half_up(20 / (2 * 2)) = 5, windows i = 1 .. N - k = 15, window i
    # holding gaps i .. i+4. The reference boundary is in windows 6..10, the hypothesis one in 8..12:
    # they disagree in windows 6, 7 (misses) and 11, 12 (false alarms): Pk = WD = 4/15;
    # P'k = (2 + 2 * 2) / 15 = 6/15.
    ref = tmp_path / "ref.rttm"
    hyp = tmp_path / "hyp.rttm"
    ref.write_text("SEGMENT s 1 0.000 10.000 <NA> <NA> A <NA> <NA>\nSEGMENT s 1 10.000 10.000 <NA> <NA> B <NA> <NA>\n")
    hyp.write_text("SEGMENT s 1 0.000 12.000 <NA> <NA> A <NA> <NA>\nSEGMENT s 1 12.000 8.000 <NA> <NA> B <NA> <NA>\n")
    out = tmp_path / "out.json"
    assert (
        main(
            [
                "evaluate",
                "--reference",
                str(ref),
                "--hypothesis",
                f"sys={hyp}",
                "--frame",
                "1",
                "--bootstrap",
                "0",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    show = data["systems"]["sys"]["shows"]["s"]
    assert abs(show["pk"] - 4 / 15) < 1e-12
    assert abs(show["windowdiff"] - 4 / 15) < 1e-12
    assert abs(show["pk_prime"] - 6 / 15) < 1e-12
    assert data["settings"]["units"] == "frames" and data["settings"]["frame"] == 1.0
    assert "units:frames|frame:1" in data["signature"]
