"""The report in a real headless browser (Debian's chromium): no console errors, one timeline lane
per source, a screenshot that is not blank.

Console errors are read from chromium's own log (``--enable-logging=stderr --v=0`` prints every
console message as ``CONSOLE(...)`` and uncaught exceptions as ``Uncaught ...``). The screenshot is
decoded with zlib and struct (no imaging library).
"""

from __future__ import annotations

import struct
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from chromium import chromium_path, console_errors, run_chromium
from report_fixture import synthetic_report

from tvseg.report import write_report

pytestmark = pytest.mark.browser

SYSTEMS = ("baseline", "speech")


CHROMIUM = chromium_path()
if CHROMIUM is None:
    pytest.skip(
        "chromium is not installed (apt-get install -y chromium): browser tests skipped", allow_module_level=True
    )


def test_console_errors_are_caught(tmp_path):
    # the detector itself: a page with a console error and an uncaught exception
    page = tmp_path / "bad.html"
    page.write_text("<html><body><script>console.error('boom'); undefinedFunction();</script></body></html>")
    done = run_chromium(tmp_path / "profile", page.as_uri(), "--dump-dom")
    errors = console_errors(done.stderr)
    assert any("boom" in e for e in errors) and any("Uncaught ReferenceError" in e for e in errors), done.stderr


class Lanes(HTMLParser):
    def __init__(self):
        super().__init__()
        self.lanes: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "g" and "lane" in (a.get("class") or "").split():
            self.lanes.append(a.get("data-source"))


def png_colours(path: Path) -> int:
    """Number of distinct pixel colours of an 8-bit RGB/RGBA, non-interlaced PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:  # every fourth row is plenty to tell a page from a blank one
            colours.update(bytes(line[i : i + bpp]) for i in range(0, stride, bpp * 2))
        prev = line
    return len(colours)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser")
    index = write_report(synthetic_report(6, systems=SYSTEMS, seed=3), root / "rep", progress=False)
    return root, index


def test_pages_load_without_console_errors_and_show_one_lane_per_source(report):
    root, index = report
    show = sorted((index.parent / "shows").glob("*.html"))[0]
    for page in (index, show):
        done = run_chromium(root / f"profile-dom-{page.stem}", page.as_uri(), "--dump-dom")
        assert done.returncode == 0, done.stderr[-2000:]
        assert console_errors(done.stderr) == [], page.name
        assert "<html" in done.stdout
        if page == show:
            parser = Lanes()
            parser.feed(done.stdout)
            assert parser.lanes == ["reference", *SYSTEMS]


def test_sorting_script_runs_without_errors(report):
    # clicking a header runs the sorter; a JavaScript error would show up as "Uncaught" in the log
    root, index = report
    page = index.parent / "probe.html"
    text = index.read_text(encoding="utf-8")
    probe = (
        "<script>window.addEventListener('load',()=>{document.querySelectorAll('table.sortable th')"
        ".forEach(th=>{th.click();th.click();});console.log('probe-done');});</script></body>"
    )
    page.write_text(text.replace("</body>", probe), encoding="utf-8")
    done = run_chromium(root / "profile-probe", page.as_uri(), "--dump-dom")
    page.unlink()
    assert done.returncode == 0
    assert "probe-done" in done.stderr, done.stderr[-2000:]
    assert console_errors(done.stderr) == []


def test_screenshots_are_not_blank(report):
    root, index = report
    show = sorted((index.parent / "shows").glob("*.html"))[0]
    for page in (index, show):
        png = root / f"{page.stem}.png"
        done = run_chromium(
            root / f"profile-png-{page.stem}", page.as_uri(), f"--screenshot={png}", "--window-size=1400,1000"
        )
        assert png.is_file(), done.stderr[-2000:]
        assert png_colours(png) > 10, page.name
    # the counter itself: a blank page has a single colour
    blank = root / "blank.html"
    blank.write_text("<html><body></body></html>")
    png = root / "blank.png"
    run_chromium(root / "profile-png-blank", blank.as_uri(), f"--screenshot={png}", "--window-size=1400,1000")
    assert png_colours(png) <= 10
