"""Benchmark: an evaluation in one process against its shards on local processes and on a local Dask
cluster, each shard reading its own shows (issues 16, 23).

    python tests/benchmarks/bench_scale.py [--shows 2000] [--keep DIR] [--jobs 2] [--bootstrap 1000]
        [--repeat 3] [--no-dask] [--command] [--seed 13]

The corpus is bench_end_to_end.py's (:func:`bench_end_to_end.corpus`: a reference folder of one RTTM file
per show, two systems in one RTTM file each, breath-group units in one CSV file; ``--keep DIR`` reuses one
written before with the same ``--shows`` and ``--seed``). Timed, wall time, reading included:

1. one process: :func:`tvseg.scale.read_files` then :func:`tvseg.evaluate` (reading alone in brackets);
2. ``evaluate_sharded(jobs=J)``: read here, scored in J processes (what ``--jobs`` did before issue 23);
3. ``evaluate_files(jobs=J, segments=False)``: J processes, each reading its shards of the shows (its
   files of the reference folder, the bytes of its shows in the RTTM and CSV files), then scoring them and
   sending back their components (as the command does without ``--html``);
4. ``evaluate_files(dask=client)`` on a ``LocalCluster`` of J single-threaded worker processes: the
   cluster's start, with tvseg imported on its workers, is timed apart (a cluster serves many runs);
5. with ``--command``, once rows 1-4 are done and their cluster closed: the whole ``tvseg evaluate ...
   --json`` command as a user runs it (a process of its own: imports, reading, scoring, JSON), alone, with
   ``--jobs J``, with ``--dask local --jobs J`` (the cluster's start included) and with ``--dask ADDRESS``,
   the scheduler of a LocalCluster of J workers already running in a process of its own (as a Dask user's
   cluster is), in turns, in the environment the script was started with.

Every result's JSON is checked equal to the first's. Each row is run ``--repeat`` times, the rows taken
in turns (so that a busy moment slows them all); the best run is shown, with the range.

Measured 2026-11-27 on 2 CPUs (load 1.3-2.1), J = 2, bootstrap 1000, best of 3, reading included, after
issue 25 (shards of about 32 MB of input, segments dropped once scored, the JSON rows encoded by the
workers), 20,000 shows:

==========================================  =======  =========
row                                         seconds  vs one
==========================================  =======  =========
one process: read, evaluate                 7.14 s   1.00x
evaluate_sharded(jobs=2), read here         8.50 s   0.84x
evaluate_files(jobs=2)                      5.99 s   1.19x
evaluate_files(dask), LocalCluster(2)       6.21 s   1.15x
command, one process                        9.34 s   1.00x
command --jobs 2                            5.63 s   1.66x
command --dask local --jobs 2               7.42 s   1.26x
command --dask ADDRESS (running cluster)    6.15 s   1.52x
==========================================  =======  =========

Issue 41, 2026-12-07, the command alone (``python -m tvseg evaluate --reference ref --hypothesis a=a.rttm
--hypothesis b=b.rttm --units units.csv --bootstrap 1000 --json OUT --quiet`` in the 20,000-show corpus of
``bench_scaling.py --generate-only --keep-root DIR``), CPU as user + system of ``/usr/bin/time`` (the
process and the children it waited for, Dask's workers included), 3 turns. At 7499f41, load 1.6-1.9: one
process 10.9-12.4 s CPU, 10.5-12.0 s wall; ``--jobs 2`` 12.0-12.5 s CPU (-4 % to +14 % of the same turn's
one process), 7.4-7.7 s wall (1.36-1.62x); ``--dask local --jobs 2`` 15.4-16.7 s CPU (+34 % to +41 %),
9.5-10.4 s wall (1.11-1.17x). With its workers forked and the JSON's component arrays encoded by the workers
(70aae8a), load 2.5-3.5 (the machine shared: wall times not comparable): one process 10.8-11.4 s CPU;
``--jobs 2`` 11.4-11.9 s (+3 % to +8 %; 7499f41 in the same turns 11.2-12.1 s), its parent 2.1 s of it
(7499f41: 3.4 s); ``--dask local --jobs 2`` 13.7-14.3 s (+24 % to +30 %; 7499f41 in the same turns
15.3-15.6 s). At 02f6809 (the workers' profiler off too), 5 turns, load 2.3-2.7 in turns 2-5 (the runs'
own included), 4.1 in turn 1: one process 10.6-11.4 s CPU, 10.3-10.9 s wall; ``--jobs 2`` 11.5-11.9 s CPU
(+1 % to +10 %, median +6 %), 6.4-6.6 s wall (1.55-1.70x in turns 2-5; 0.96x in turn 1, the machine busy);
``--dask local --jobs 2`` 12.5-13.6 s CPU (+10 % to +27 %, median +17 %), 7.3-7.9 s wall (1.30-1.50x).
The JSON of each is the one process's, apart from the run id.

Session 8 (before issue 25): command, one process 8.95 s, ``--jobs 2`` 7.14 s (1.25x), ``--dask local``
8.81 s (1.02x). On 2 shared cores the runs vary by 30 % and more: the ranges are printed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_end_to_end import corpus  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _timed(function):
    t0 = time.perf_counter()
    value = function()
    return value, time.perf_counter() - t0


def _command(folder: Path, out: Path, bootstrap: int, extra: list[str]) -> float:
    """Wall time of the whole command in a process of its own (its JSON written to ``out``)."""
    argv = [
        sys.executable,
        "-m",
        "tvseg",
        "evaluate",
        "--reference",
        str(folder / "ref"),
        "--hypothesis",
        f"a={folder / 'a.rttm'}",
        "--hypothesis",
        f"b={folder / 'b.rttm'}",
        "--units",
        str(folder / "units.csv"),
        "--bootstrap",
        str(bootstrap),
        "--json",
        str(out),
        "--quiet",
        *extra,
    ]
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=ENVIRONMENT)
    return time.perf_counter() - t0


ENVIRONMENT = dict(os.environ)
"""The environment this script was started with (Dask changes this process's when it starts a cluster)."""

_CLUSTER_HOST = """
import sys
from dask import config, distributed
if __name__ == "__main__":
    with config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
        with distributed.LocalCluster(n_workers=int(sys.argv[1]), processes=True, threads_per_worker=1,
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as client:
            client.run(__import__, "tvseg.scale")
            print(cluster.scheduler_address, flush=True)
            sys.stdin.read()
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shows", type=int, default=2000)
    parser.add_argument("--keep", metavar="DIR", help="the corpus folder (written when new, reused when it matches)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--command", action="store_true", help="also time the whole tvseg evaluate command")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)
    folder, counts, _, tmp = corpus(args.keep, args.shows, args.seed)
    warnings.simplefilter("ignore")
    import tvseg
    from tvseg.scale import Files, evaluate_files, evaluate_sharded, read_files

    files = Files(
        reference=str(folder / "ref"),
        hypotheses={"a": str(folder / "a.rttm"), "b": str(folder / "b.rttm")},
        units=str(folder / "units.csv"),
    )
    settings = tvseg.Settings(bootstrap=args.bootstrap, units="file")
    times: dict[str, list[float]] = {}
    reading: list[float] = []
    expected = None

    def check(result, name):
        nonlocal expected
        document = json.dumps(result.to_json())
        expected = expected or document
        assert document == expected, f"{name} differs from one process"

    def one():
        inputs, t_read = _timed(lambda: read_files(files))
        reading.append(t_read)
        return tvseg.evaluate(settings=settings, **inputs)

    def sharded_read_here():
        return evaluate_sharded(settings=settings, jobs=args.jobs, **read_files(files))

    rows = [
        ("one process: read, evaluate", one),
        (f"evaluate_sharded(jobs={args.jobs}), read here", sharded_read_here),
        (
            f"evaluate_files(jobs={args.jobs})",
            lambda: evaluate_files(files, jobs=args.jobs, segments=False, settings=settings),
        ),
    ]
    cluster = client = None
    t_start = None
    if not args.no_dask:
        import dask
        from dask import distributed

        def start():
            # as tvseg starts a local cluster (tvseg.scale): workers without Dask's MALLOC_TRIM_THRESHOLD_
            with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
                cluster = distributed.LocalCluster(
                    n_workers=args.jobs, processes=True, threads_per_worker=1, dashboard_address=None
                )
            client = distributed.Client(cluster)
            client.run(importlib.import_module, "tvseg.scale")  # workers start with tvseg imported
            return cluster, client

        (cluster, client), t_start = _timed(start)
        rows.append(
            (
                f"evaluate_files(dask), LocalCluster({args.jobs})",
                lambda: evaluate_files(files, dask=client, segments=False, settings=settings),
            )
        )
    commands = []
    if args.command:
        out = Path(tmp.name if tmp is not None else folder) / "bench_scale.json"
        commands = [
            ("command, one process", []),
            (f"command --jobs {args.jobs}", ["--jobs", str(args.jobs)]),
            (f"command --dask local --jobs {args.jobs}", ["--dask", "local", "--jobs", str(args.jobs)]),
        ]
    for _ in range(args.repeat):
        for name, function in rows:
            result, t = _timed(function)
            check(result, name)
            times.setdefault(name, []).append(t)
    if client is not None:
        client.close()
        cluster.close()
    host = None
    if commands and not args.no_dask:
        # a cluster already running, as a Dask user has one, in a process of its own (a cluster started here
        # would set OPENBLAS_NUM_THREADS=1 in this process's environment, and its idle workers share the cores)
        host = subprocess.Popen(
            [sys.executable, "-c", _CLUSTER_HOST, str(args.jobs)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=ENVIRONMENT,
            cwd=ROOT,
        )
        assert host.stdout is not None
        address = host.stdout.readline().strip()
        commands.append((f"command --dask SCHEDULER (a running LocalCluster({args.jobs}))", ["--dask", address]))
    command_json = None
    for _ in range(args.repeat):  # the commands in turns, in the environment this script was started with
        for name, extra in commands:
            times.setdefault(name, []).append(_command(folder, out, args.bootstrap, extra))
            document = json.loads(out.read_bytes())
            document.pop("run_id", None)  # one per run
            command_json = command_json or document
            assert document == command_json, f"{name} differs from the command in one process"
    if host is not None:
        host.communicate("")  # its stdin closed: it closes its cluster and ends
    if tmp is not None:
        tmp.cleanup()
    print(
        f"{args.shows} shows ({counts['reference']} reference segments, {counts['units']} units), 2 systems, "
        f"bootstrap {args.bootstrap}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; best of {args.repeat} "
        f"(range); reading in one process {min(reading):.2f} s"
    )
    base = min(times[rows[0][0]])
    command_base = min(times[commands[0][0]]) if commands else None
    for name, runs in times.items():
        ref = command_base if name.startswith("command") else base
        extra = f"   (cluster start {t_start:.2f} s, not included)" if name.startswith("evaluate_files(dask)") else ""
        print(f"{name:44s} {min(runs):7.2f} s ({min(runs):.2f}-{max(runs):.2f})  {ref / min(runs):5.2f}x{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
