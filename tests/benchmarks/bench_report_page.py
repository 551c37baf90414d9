"""Benchmark: how heavy the corpus page of a large report is in a browser (issue 26).

    python tests/benchmarks/bench_report_page.py [--shows 2000,20000] [--keep DIR] [--repeat 3]
    python tests/benchmarks/bench_report_page.py --report DIR/index.html [...]

For each corpus size, the report of bench_end_to_end's corpus (two systems, units; made with
``tvseg evaluate ... --html``, the corpus kept under ``--keep DIR/e2e-<shows>`` and reused), or the
report given, is opened in headless chromium (Debian's ``/usr/bin/chromium``) ``--repeat`` times; a
probe added to a copy of ``index.html`` reads, at the page's load event, the navigation timing
(``loadEventStart``: from the start of the navigation to the load event, parsing and the page's
scripts included), the number of elements and the rows the table of shows drew. Printed: the size of
``index.html``, the best and the worst load time, the elements.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))  # tests/: the chromium flags the browser tests use
from chromium import FLAGS, chromium_path  # noqa: E402

PROBE = (
    "<script>window.addEventListener('load',function(){var n=performance.getEntriesByType('navigation')[0];"
    "document.body.setAttribute('data-probe',JSON.stringify({load:n.loadEventStart,"
    "elements:document.getElementsByTagName('*').length,"
    "rows:document.querySelectorAll('#show-table tbody tr').length}));});</script></body>"
)


def chromium() -> str:
    found = chromium_path()
    if found is None:
        sys.exit("chromium is not installed (apt-get install -y chromium)")
    return found


def measure(index: Path, repeat: int) -> dict:
    copy = index.with_name("index-bench-probe.html")
    copy.write_text(index.read_text(encoding="utf-8").replace("</body>", PROBE), encoding="utf-8")
    runs = []
    try:
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as profile:
                done = subprocess.run(
                    [chromium(), *FLAGS, f"--user-data-dir={profile}", "--dump-dom", copy.as_uri()],
                    capture_output=True,
                    text=True,
                    timeout=300,
                )
            found = re.search(r'data-probe="([^"]*)"', done.stdout)
            if not found:
                sys.exit(f"no probe result: {done.stderr[-2000:]}")
            runs.append(json.loads(html.unescape(found.group(1))))
    finally:
        copy.unlink()
    loads = sorted(r["load"] for r in runs)
    return {
        "bytes": index.stat().st_size,
        "best_ms": loads[0],
        "worst_ms": loads[-1],
        "elements": runs[0]["elements"],
        "rows": runs[0]["rows"],
    }


def report_of(shows: int, keep: Path) -> Path:
    sys.path.insert(0, str(HERE.parent))
    from bench_end_to_end import SYSTEMS, generate  # the benchmark's deterministic corpus

    folder = keep / f"e2e-{shows}"
    if not (folder / "ref").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        generate(folder, shows, 13)
    rep = folder / "report"
    if not (rep / "index.html").is_file():
        hypotheses = [x for name in SYSTEMS for x in ("--hypothesis", f"{name}={name}.rttm")]
        subprocess.run(
            [sys.executable, "-m", "tvseg", "evaluate", "--reference", "ref", *hypotheses, "--units", "units.csv"]
            + ["--bootstrap", "0", "--html", "report", "--quiet"],
            cwd=folder,
            check=True,
        )
    return rep / "index.html"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shows", default="2000,20000")
    parser.add_argument("--report", type=Path, help="an index.html to measure instead of generating")
    parser.add_argument("--keep", type=Path, help="where the corpora and their reports are kept")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        keep = args.keep or Path(tmp)
        pages = [(args.report.parent.name, args.report)] if args.report else []
        if not args.report:
            pages = [(f"{int(n):,} shows", report_of(int(n), keep)) for n in args.shows.split(",")]
        print(f"{'report':<16}{'index.html':>12}{'load best':>11}{'worst':>9}{'elements':>10}{'rows drawn':>12}")
        for name, index in pages:
            m = measure(index, args.repeat)
            print(
                f"{name:<16}{m['bytes'] / 1e6:>10.2f} MB{m['best_ms']:>9.0f} ms{m['worst_ms']:>6.0f} ms"
                f"{m['elements']:>10,}{m['rows']:>12}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
