"""The report's words (issue 26, item 6): the time axis says the format of its ticks, no double negative,
and what only a screen can do (click, hover) left out of print."""

import re
import warnings
from pathlib import Path

from pyannote.core import Annotation, Segment

import tvseg
from tvseg.report import write_report

TEMPLATES = Path(__file__).resolve().parents[1] / "tvseg" / "templates"


def _show(bounds):
    a = Annotation()
    for k, (s, e) in enumerate(zip(bounds[:-1], bounds[1:])):
        a[Segment(s, e)] = f"story_{k}"
    return a


def test_the_axis_names_its_ticks_format_and_print_leaves_out_the_screen(tmp_path):
    # a 2-hour show (ticks h:mm:ss from an hour on) and a 20-minute one (mm:ss only)
    reference = {"long": _show([0, 1800, 4000, 7200]), "short": _show([0, 300, 700, 1200])}
    hypothesis = {"long": _show([0, 1810, 3990, 7200]), "short": _show([0, 310, 1200])}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = tvseg.evaluate(reference, {"sys": hypothesis}, settings=tvseg.Settings(bootstrap=0))
        write_report(result, tmp_path / "rep")
    pages = {p.stem: p.read_text() for p in (tmp_path / "rep" / "shows").glob("*.html")}
    assert re.search(r">time \(mm:ss; h:mm:ss from 1 h\)<", pages["long"])
    assert re.search(r">time \(mm:ss\)<", pages["short"])
    # the ticks are drawn by the page's script: h:mm:ss past the hour (tests/test_report_timeline_browser.py)
    css = (TEMPLATES / "report.css").read_text()
    print_rules = css[css.index("@media print") :]
    assert re.search(r"\.screen-only \{ display: none; \}", print_rules)
    for page in (*pages.values(), (tmp_path / "rep" / "index.html").read_text()):
        # the notes' instructions to click or hover sit in screen-only spans (SVG titles are tooltips: never printed)
        for note in re.findall(r'<p class="note">(.*?)</p>', page, re.S):
            printed = re.sub(r'<span class="screen-only">.*?</span>', "", note, flags=re.S)
            assert not re.search(r"\b(?:click|Click|hover|Hover)\b", printed), printed


def test_no_double_negative_in_the_missed_stories():
    index = (TEMPLATES / "index.html").read_text()
    assert "no system does" not in index and "no system retrieves" in index
