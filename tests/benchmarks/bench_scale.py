"""Benchmark: ``tvseg.evaluate`` in one process against ``tvseg.scale.evaluate_sharded`` on local processes
and on a local Dask cluster (issue 16).

    python tests/benchmarks/bench_scale.py [--shows 2000] [--keep DIR] [--jobs 2] [--bootstrap 1000]
        [--chunk-shows N] [--no-dask] [--seed 13]

The corpus is bench_end_to_end.py's (:func:`bench_end_to_end.corpus`: a reference folder, two systems,
breath-group units; ``--keep DIR`` reuses one written before with the same ``--shows`` and ``--seed``).
It is read once (``tvseg.read_segments``, ``tvseg.read_units``: timed, the same for every row), then
scored, wall time each:

1. ``tvseg.evaluate`` in this process;
2. ``evaluate_sharded(jobs=J)``: a pool of J processes, started inside the timing;
3. ``evaluate_sharded(dask=client)`` on a ``LocalCluster`` of J single-threaded worker processes: the
   cluster's start, with tvseg imported on its workers, is timed apart (a cluster is started once and
   serves many runs).

Every result's ``to_json()`` is checked equal to the first's. The speed-up is one process's
read + evaluate over each row's read + evaluate (the reading stays in one process). Single runs: on a
shared machine they vary by 10-30 %.

Measured 2026-11-23 on 2 CPUs shared with other work (load 1.5-2.2 before the runs), J = 2, default
shards (4 per worker), bootstrap 1000:

=============  ========  ======================  ======================  =========================
corpus         reading   evaluate, 1 process     evaluate_sharded(2)     dask LocalCluster(2)
=============  ========  ======================  ======================  =========================
2,000 shows    1.0 s     0.7-0.8 s               0.8 s (0.9-1.06x)       1.4-1.9 s (0.4-0.5x)
20,000 shows   6-9 s     6.3-7.8 s               5.0 s (1.26-1.55x)      10.8-11.4 s (0.55-0.7x)
=============  ========  ======================  ======================  =========================

Local processes pay off from about 10,000 shows, on the scoring alone (reading stays in one process,
so read + score gains 1.1-1.2x on 2 cores); under 5,000 shows the pool's start, the shards' transfer
and the reduction in one process (a fifth of the scoring) take what the second core gives. Dask on
one machine is slower (its scheduler and nannies share the same 2 cores, the shards travel over TCP):
it is for a cluster of more cores than this machine has.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_end_to_end import corpus  # noqa: E402


def _timed(function):
    t0 = time.perf_counter()
    value = function()
    return value, time.perf_counter() - t0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=2000)
    parser.add_argument("--keep", metavar="DIR", help="the corpus folder (written when new, reused when it matches)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--chunk-shows", type=int, default=None)
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)
    folder, counts, _, tmp = corpus(args.keep, args.shows, args.seed)
    warnings.simplefilter("ignore")
    import tvseg
    from tvseg.scale import evaluate_sharded

    def read():
        systems = {name: tvseg.read_segments(folder / f"{name}.rttm") for name in ("a", "b")}
        return tvseg.read_segments(folder / "ref"), systems, tvseg.read_units(folder / "units.csv")

    (reference, hypotheses, units), t_read = _timed(read)
    settings = tvseg.Settings(bootstrap=args.bootstrap)
    options = dict(units=units, settings=settings)
    rows = []
    one, t = _timed(lambda: tvseg.evaluate(reference, hypotheses, **options))
    expected = one.to_json()
    rows.append(("evaluate, 1 process", t, None))
    result, t = _timed(
        lambda: evaluate_sharded(reference, hypotheses, jobs=args.jobs, chunk_shows=args.chunk_shows, **options)
    )
    assert result.to_json() == expected, "evaluate_sharded(jobs) differs from evaluate"
    rows.append((f"evaluate_sharded(jobs={args.jobs})", t, None))
    if not args.no_dask:
        from dask import distributed

        def start():
            cluster = distributed.LocalCluster(
                n_workers=args.jobs, processes=True, threads_per_worker=1, dashboard_address=None
            )
            client = distributed.Client(cluster)
            client.run(importlib.import_module, "tvseg.scale")  # workers start with tvseg imported
            return cluster, client

        (cluster, client), t_start = _timed(start)
        with cluster, client:
            result, t = _timed(
                lambda: evaluate_sharded(reference, hypotheses, dask=client, chunk_shows=args.chunk_shows, **options)
            )
            assert result.to_json() == expected, "evaluate_sharded(dask) differs from evaluate"
            rows.append((f"dask LocalCluster, {args.jobs} workers", t, t_start))
    if tmp is not None:
        tmp.cleanup()
    print(
        f"{args.shows} shows ({counts['reference']} reference segments, {counts['units']} units), 2 systems, "
        f"bootstrap {args.bootstrap}; {os.cpu_count()} CPUs; reading {t_read:.2f} s (one process, every row)"
    )
    print(f"{'':36s} {'scoring':>9s} {'read+score':>11s} {'speed-up':>9s}  {'scoring speed-up':>16s}")
    base = rows[0][1]
    for name, t, start in rows:
        extra = f"   (cluster start {start:.2f} s, not included)" if start is not None else ""
        print(
            f"{name:36s} {t:8.2f}s {t_read + t:10.2f}s {(t_read + base) / (t_read + t):8.2f}x  {base / t:15.2f}x{extra}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
