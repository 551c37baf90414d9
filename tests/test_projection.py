"""Time -> units projection and fixed frames. Expected masses are counted by hand on the drawn
timelines."""

import numpy as np
import pandas as pd
import pytest
from pyannote.core import Annotation, Segment, Timeline

from tvseg.errors import InputError
from tvseg.unit.projection import frames, to_masses


def annotation(*spans):
    a = Annotation()
    for i, (s, e) in enumerate(spans):
        a[Segment(s, e)] = f"t{i}"
    return a


def units(*spans):
    return pd.DataFrame({"start": [s for s, _ in spans], "end": [e for _, e in spans]})


def test_midpoint_rule():
    # time    0    2    4    6    8    10   12
    # segs    [---- A ----)[------- B ------)          A = [0, 5), B = [5, 12)
    # units   [0,3) [3,6) [6,8) [8,12)                 midpoints 1.5, 4.5, 7, 10
    # 4.5 < 5: unit 2 is in A although it ends in B  -> masses (2, 2)
    u = units((0, 3), (3, 6), (6, 8), (8, 12))
    assert to_masses(annotation((0, 5), (5, 12)), u).tolist() == [2, 2]
    # moving the boundary to 4: unit 2's midpoint 4.5 is now in B -> (1, 3)
    assert to_masses(annotation((0, 4), (4, 12)), u).tolist() == [1, 3]


def test_a_unit_in_a_gap_joins_the_previous_segment():
    # segs    A = [0, 4)   gap [4, 6)   B = [6, 12)
    # units   mid 1, 3 (A); mid 5 (gap -> A); mid 7, 11 (B)   -> (3, 2)
    u = units((0, 2), (2, 4), (4, 6), (6, 8), (10, 12))
    assert to_masses(annotation((0, 4), (6, 12)), u).tolist() == [3, 2]
    # units before the first segment join the first one: mid 1 precedes A = [2, 6);
    # mid 3, 5 in A; mid 7, 11 in B = [6, 12)  -> (3, 2)
    assert to_masses(annotation((2, 6), (6, 12)), u).tolist() == [3, 2]
    # a Timeline works as well, and no segment at all is one segment
    assert to_masses(Timeline([Segment(0, 4), Segment(6, 12)]), u).tolist() == [3, 2]
    assert to_masses(Annotation(), u).tolist() == [5]


def test_segments_without_units_disappear():
    # B = [4, 4.5) holds no midpoint (units mid 1, 3, 5, 7): A gets 2, C gets 2
    u = units((0, 2), (2, 4), (4, 6), (6, 8))
    assert to_masses(annotation((0, 4), (4, 4.5), (4.5, 8)), u).tolist() == [2, 2]


def test_projection_is_vectorised_and_total_preserved():
    rng = np.random.default_rng(0)
    edges = np.sort(rng.uniform(0, 3600, 200))
    a = annotation(*zip(np.concatenate(([0], edges)), np.concatenate((edges, [3600]))))
    u = frames(Segment(0, 3600), 0.5)
    m = to_masses(a, u)
    assert m.sum() == 7200 and (m > 0).all()


def test_frames():
    f = frames(Segment(10, 15), 2.0)
    # [10,12) [12,14) [14,15)
    assert f["start"].tolist() == [10, 12, 14]
    assert f["end"].tolist() == [12, 14, 15]
    assert len(frames(Segment(0, 6), 2.0)) == 3
    assert len(frames(Segment(0, 0.3), 0.1)) == 3  # no extra sliver frame from 0.3 / 0.1


@pytest.mark.parametrize("frame", [0, -1, float("nan"), float("inf"), True, "2"])
def test_bad_frame_length(frame):
    with pytest.raises(InputError):
        frames(Segment(0, 10), frame)


def test_bad_inputs():
    u = units((0, 2), (2, 4))
    with pytest.raises(InputError, match="overlap"):
        to_masses(annotation((0, 3), (2, 4)), u)
    with pytest.raises(InputError, match="no units"):
        to_masses(annotation((0, 4)), units())
    with pytest.raises(InputError, match="unit 1"):
        to_masses(annotation((0, 4)), units((0, 2), (3, 2)))
    with pytest.raises(InputError, match="sorted"):
        to_masses(annotation((0, 4)), units((2, 4), (0, 2)))
    with pytest.raises(InputError):
        to_masses([(0, 4)], u)
