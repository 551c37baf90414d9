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


def test_frames_take_the_segment_at_their_midpoint(tmp_path):
    # docs/conventions.md's frame rule, by hand. 2-s frames over [0, 20): frame 5 is [8, 10), midpoint
    # 9; frame 6 is [10, 12), midpoint 11. A frame belongs to the last segment starting at or before its
    # midpoint, so a start in a frame's first half (midpoint included) cuts before that frame, one in
    # its second half after it:
    #   start 8.5 (first half of frame 5)   -> frames 1-4 | 5-10 -> masses (4, 6)
    #   start 9.0 (frame 5's midpoint)      -> (4, 6)
    #   start 9.5 (second half of frame 5)  -> frames 1-5 | 6-10 -> (5, 5)
    #   start 10.4 (first half of frame 6)  -> (5, 5)
    # ("the gap before the frame holding the start" would give (4, 6) for 9.5 and (5, 5) for 10.4.)
    from pyannote.core import Annotation, Segment

    from tvseg.unit.projection import frames, to_masses

    grid = frames(Segment(0, 20), 2.0)
    for start, masses in ((8.5, [4, 6]), (9.0, [4, 6]), (9.5, [5, 5]), (10.4, [5, 5])):
        a = Annotation()
        a[Segment(0, start)] = "A"
        a[Segment(start, 20)] = "B"
        assert to_masses(a, grid).tolist() == masses, start

    # The same through `tvseg evaluate --frame 2`: reference cut at 9.5 s -> (5, 5); system "near" cut
    # at 10.4 s -> (5, 5), the same gap: Pk = WindowDiff = 0. System "early" cut at 8.5 s -> (4, 6).
    # N = 10, paper k = round_half_up(10 / 4) = 3, windows i = 1 .. 7 hold gaps i .. i+2: gap 5 is in
    # windows 3-5, gap 4 in 2-4; they differ in windows 2 (false alarm) and 5 (miss): Pk = WD = 2/7.
    def rttm(path, cut):
        line = "SEGMENT s 1 {:.3f} {:.3f} <NA> <NA> {} <NA> <NA>\n"
        path.write_text(line.format(0, cut, "A") + line.format(cut, 20 - cut, "B"))
        return path

    ref = rttm(tmp_path / "ref.rttm", 9.5)
    near = rttm(tmp_path / "near.rttm", 10.4)
    early = rttm(tmp_path / "early.rttm", 8.5)
    out = tmp_path / "out.json"
    args = ["evaluate", "--reference", str(ref), "--hypothesis", f"near={near}", "--hypothesis", f"early={early}"]
    assert main([*args, "--frame", "2", "--bootstrap", "0", "--json", str(out)]) == 0
    shows = {name: s["shows"]["s"] for name, s in json.loads(out.read_text())["systems"].items()}
    assert shows["near"]["pk"] == 0 and shows["near"]["windowdiff"] == 0
    assert abs(shows["early"]["pk"] - 2 / 7) < 1e-12
    assert abs(shows["early"]["windowdiff"] - 2 / 7) < 1e-12
