"""The real caption files of other projects (tests/data/real_captions/), per format: how many their owner library
reads, how many tvseg reads with the owner's times (identical, or after tvseg's overlap rules), and the files it
does not, one line each (``tests/real_captions.py`` says how each file is read and compared).

Run: ``python tests/benchmarks/real_captions_table.py [--all]`` (``--all`` also lists the files their owner does not
read).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from real_captions import CORPUS, files, rate, read, table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="also list the files their owner does not read")
    options = parser.parse_args()
    outcomes = [read(path) for path in files()]
    header = ("format", "files", "owner reads", "identical", "after rules", "mismatch", "refused", "traceback", "rate")
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for row in table(outcomes):
        print(" | ".join(str(value) for value in row) + f" | {float(rate(outcomes, row[0])):.1%}")
    print()
    shown = ("mismatch", "refused", "traceback") + (("owner",) if options.all else ())
    for outcome in sorted(outcomes, key=lambda o: (o.format, o.verdict, str(o.path))):
        if outcome.verdict in shown:
            why = outcome.why.strip().splitlines()[-1].replace(f"{CORPUS}/", "")
            print(f"{outcome.format} {outcome.verdict}: {outcome.path.relative_to(CORPUS)}: {why}")


if __name__ == "__main__":
    main()
