"""Benchmark (issue 13): GHD, S and B of a whole corpus at once against the per-show calls of ``evaluate``.

2,000 shows of 200-460 units (330 on average), 8-25 reference segments (about 16 boundaries), and two
systems as in ``bench_end_to_end.py`` (a: 10 % of the reference boundaries deleted, 1 inserted per show;
b: 25 %, 3), each kept boundary moved by a normal draw of 1.5 units: 4,000 show pairs. The per-show side
calls the public functions once per pair (``tvseg.ghd``, ``tvseg.segmentation_similarity``,
``tvseg.boundary_similarity``), the corpus side the kernels once for every pair
(:func:`tvseg.unit.ghd.ghd_counts`, :func:`tvseg.unit.edits.transpositions` and
:func:`tvseg.unit.edits.edit_counts`, :func:`tvseg.unit.similarity.pair_counts`), as ``tvseg evaluate``
does. Both are checked equal (``==``) first. Best of repeated runs in one process.

    python tests/benchmarks/bench_unit_edits_batch.py [--shows 2000] [--repeat 5]

Target: the batch side under 0.25 s for the 4,000 pairs.
"""

from __future__ import annotations

import argparse
import timeit

import numpy as np

import tvseg
from tvseg.unit.edits import edit_counts, transpositions
from tvseg.unit.ghd import ghd_counts
from tvseg.unit.masses import BoundaryPairs, boundary_positions, from_positions
from tvseg.unit.similarity import pair_counts

SYSTEMS = {"a": {"delete": 0.10, "insert": 1.0}, "b": {"delete": 0.25, "insert": 3.0}}
SHIFT = 1.5  # units


def corpus(n_shows: int, seed: int):
    """Masses of every (reference, hypothesis) pair: system a of every show, then system b."""
    pairs = {name: [] for name in SYSTEMS}
    for k in range(n_shows):
        rng = np.random.default_rng((seed, k))
        n = int(rng.integers(200, 461))
        cuts = np.sort(rng.choice(np.arange(1, n), int(rng.integers(8, 26)) - 1, replace=False))
        ref = from_positions(cuts, n)
        for name, p in SYSTEMS.items():
            kept = cuts[rng.random(cuts.size) >= p["delete"]]
            moved = np.rint(kept + rng.normal(0.0, SHIFT, kept.size)).astype(np.int64)
            inserted = rng.integers(1, n, rng.poisson(p["insert"]))
            hyp = np.unique(np.clip(np.concatenate([moved, inserted]), 1, n - 1))
            pairs[name].append((ref, from_positions(hyp, n)))
    return [pair for name in SYSTEMS for pair in pairs[name]]


def flat(pairs):
    ref = [boundary_positions(r) for r, _ in pairs]
    hyp = [boundary_positions(h) for _, h in pairs]
    offsets = [np.concatenate(([0], np.cumsum([p.size for p in side]))).astype(np.int64) for side in (ref, hyp)]
    n_units = np.array([int(r.sum()) for r, _ in pairs], dtype=np.int64)
    return n_units, np.concatenate(ref), offsets[0], np.concatenate(hyp), offsets[1]


def ghd_all(args):
    return ghd_counts(BoundaryPairs(*args))


def s_and_b_all(args):
    pairs = BoundaryPairs(*args)
    edits = edit_counts(pairs, transpositions(pairs, n=2))
    return pair_counts(pairs, edits=edits), pair_counts(pairs, metric="B", convention="segeval", edits=edits)


def per_show(pairs):
    g = [tvseg.ghd(r, h) for r, h in pairs]
    s = [tvseg.segmentation_similarity(r, h) for r, h in pairs]
    b = [tvseg.boundary_similarity(r, h) for r, h in pairs]
    return g, s, b


def best(f, number, repeat):
    return min(timeit.repeat(f, number=number, repeat=repeat)) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shows", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()

    pairs = corpus(args.shows, args.seed)
    args_flat = flat(pairs)
    distance = ghd_all(args_flat)
    (s_penalty, s_potential), (b_penalty, b_denominator) = s_and_b_all(args_flat)
    g, s, b = per_show(pairs)
    assert distance.tolist() == g
    assert (1.0 - s_penalty / s_potential).tolist() == s
    assert [1.0 - p / d if d else 1.0 for p, d in zip(b_penalty.tolist(), b_denominator.tolist())] == b

    ref_b = np.diff(args_flat[2]).mean()
    hyp_b = np.diff(args_flat[4]).mean()
    print(
        f"{len(pairs):,} show pairs ({args.shows:,} shows x {len(SYSTEMS)} systems), "
        f"{args_flat[0].mean():.0f} units, {ref_b:.1f} reference and {hyp_b:.1f} hypothesis boundaries "
        f"per show on average; best of {args.repeat} runs"
    )
    loop_s = lambda: [tvseg.segmentation_similarity(r, h) for r, h in pairs]  # noqa: E731
    loop_b = lambda: [tvseg.boundary_similarity(r, h) for r, h in pairs]  # noqa: E731
    rows = [
        ("GHD", [lambda: [tvseg.ghd(r, h) for r, h in pairs]], lambda: ghd_all(args_flat)),
        ("S and B", [loop_s, loop_b], lambda: s_and_b_all(args_flat)),
    ]
    print(f"{'metric':<8} {'per show (s)':>13} {'batch (s)':>10} {'ratio':>8}")
    total_loop = total_batch = 0.0
    for name, loops, one_call in rows:
        t_loop = sum(best(f, 1, max(2, args.repeat // 2)) for f in loops)
        t_batch = best(one_call, 5, args.repeat)
        total_loop += t_loop
        total_batch += t_batch
        print(f"{name:<8} {t_loop:>13.3f} {t_batch:>10.4f} {t_loop / t_batch:>7.0f}x")
    print(f"{'total':<8} {total_loop:>13.3f} {total_batch:>10.4f} {total_loop / total_batch:>7.0f}x")


if __name__ == "__main__":
    main()
