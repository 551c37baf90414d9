"""The report's colours (issue 26): contrast and colour-blind distance, computed from the style sheet.

Contrast is WCAG 2.1's ratio of relative luminances, (L1 + 0.05) / (L2 + 0.05), checked on its own definition's
values (21:1 for black on white, 4.48:1 for #777 on white). Colour distance is CIEDE2000 (Sharma, Wu & Dalal
2005), checked on the first pair of their test data (2.0425). Deuteranopia and protanopia are simulated with
Machado, Oliveira & Fernandes 2009's matrices at severity 1 (applied to linear RGB).

What is required (WCAG 2.1, 1.4.11 non-text contrast; 1.4.3 text):
- each segment fill (reference, correct, wrong) 3:1 against the lane's background, and the segment labels'
  ink 4.5:1 on each fill and on the wrong segments' hatching;
- correct and wrong segments (the hatching's mean colour) at least 10 CIEDE2000 apart for normal vision,
  deuteranopia and protanopia (the hatching is a second cue, not the only one);
- every chart series colour 3:1 against the page's white.
"""

import math
import re
from pathlib import Path

import numpy as np
import pytest

from tvseg.report import svg
from tvseg.report.charts import SERIES_STYLES

TEMPLATES = Path(__file__).resolve().parents[1] / "tvseg" / "templates"
CSS = (TEMPLATES / "report.css").read_text()
# the show page: its template, and the timeline figure that tvseg.report.svg writes into it
SHOW = (TEMPLATES / "show.html").read_text() + svg.frame(["system"], tolerance=10.0, label="s", clock="mm:ss")

DEUTERANOPIA = np.array(
    [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
)
PROTANOPIA = np.array(
    [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
)


def _rgb(colour: str) -> np.ndarray:
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return np.array([int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)])


def _linear(c):
    c = np.asarray(c, dtype=float)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _encoded(c):
    c = np.clip(c, 0, 1)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def luminance(colour) -> float:
    r, g, b = _linear(_rgb(colour) if isinstance(colour, str) else colour)
    return float(0.2126 * r + 0.7152 * g + 0.0722 * b)


def contrast(a, b) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def lab(rgb) -> tuple[float, float, float]:
    m = np.array(
        [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
    )
    x, y, z = m @ _linear(rgb) / np.array([0.95047, 1.0, 1.08883])

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(lab1, lab2) -> float:
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c, d_h = l2 - l1, c2 - c1, 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    rotation = (
        -math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
        * 2
        * math.sqrt(c_mean**7 / (c_mean**7 + 25**7))
    )
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + rotation * (d_c / s_c) * (d_h / s_h))


def seen(rgb, vision):
    return rgb if vision is None else _encoded(vision @ _linear(rgb))


def distance(a, b, vision=None) -> float:
    return ciede2000(lab(seen(a, vision)), lab(seen(b, vision)))


def css_colour(selector_or_variable: str) -> str:
    if selector_or_variable.startswith("--"):
        return re.search(re.escape(selector_or_variable) + r":\s*(#[0-9a-fA-F]{3,6})", CSS).group(1)
    rule = re.search(re.escape(selector_or_variable) + r"\s*\{([^}]*)\}", CSS).group(1)
    value = re.search(r"fill:\s*([^;]+);", rule).group(1).strip()
    return css_colour(value[4:-1]) if value.startswith("var(") else value


def test_the_formulas_on_their_published_values():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.005)
    assert ciede2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    # Machado's matrices keep grey grey (each row sums to 1)
    assert np.allclose(DEUTERANOPIA.sum(axis=1), 1, atol=1e-5) and np.allclose(PROTANOPIA.sum(axis=1), 1, atol=1e-5)


def test_segments_stand_out_and_apart_for_every_vision():
    background = css_colour("svg .lane-bg")
    ink = re.search(r"svg text\.seg-label \{[^}]*fill:\s*(#[0-9a-fA-F]{3,6})", CSS).group(1)
    hatch = re.search(r'<pattern id="tvseg-hatch".*?</pattern>', SHOW).group(0)
    wrong = re.search(r'<rect [^>]*fill="(#[0-9a-fA-F]{6})"', hatch).group(1)
    stripe = re.search(r'stroke="(#[0-9a-fA-F]{6})" stroke-width="([0-9.]+)"', hatch)
    width = float(re.search(r'width="([0-9.]+)"', hatch).group(1))
    share = float(stripe.group(2)) / width  # the stripes' share of the pattern's area
    mean = _encoded((1 - share) * _linear(_rgb(wrong)) + share * _linear(_rgb(stripe.group(1))))
    fills = {"reference": css_colour("--ref"), "correct": css_colour("svg rect.ok"), "wrong": wrong}
    figures = {}
    for name, fill in fills.items():
        figures[name] = (contrast(fill, background), contrast(fill, ink))
        assert figures[name][0] >= 3.0, (name, fill, figures[name])
        assert figures[name][1] >= 4.5, (name, fill, figures[name])
    assert contrast(stripe.group(1), ink) >= 4.5
    correct = _rgb(fills["correct"])
    apart = {
        v: distance(correct, mean, m) for v, m in (("normal", None), ("deutan", DEUTERANOPIA), ("protan", PROTANOPIA))
    }
    assert min(apart.values()) >= 10, apart
    print("contrast on the lane, ink on the fill:", figures, "correct vs wrong, CIEDE2000:", apart)


@pytest.mark.parametrize("style", SERIES_STYLES, ids=[s["colour"] for s in SERIES_STYLES])
def test_every_chart_colour_is_3_to_1_on_white(style):
    assert contrast(style["colour"], "#ffffff") >= 3.0


def test_the_legend_shows_the_timeline_colours():
    legend = re.search(r'<ul class="legend".*?</ul>', SHOW, re.S).group(0)
    swatch = dict(re.findall(r'fill="(#[0-9a-fA-F]{6})" stroke="#1d2430"/></svg>(reference|correct) segment', legend))
    assert {v: k for k, v in swatch.items()} == {"reference": css_colour("--ref"), "correct": css_colour("svg rect.ok")}
    patterns = re.findall(r'<pattern id="(?:tvseg|legend)-hatch".*?</pattern>', SHOW)
    assert len(patterns) == 2 and len({re.sub(r'id="[^"]*"', "", p) for p in patterns}) == 1
