"""Writes this folder's qrels and runs (deterministic), the inputs on which sh_eval's outputs were taken.

    python tests/data/sh_eval/generate.py

40 queries judged over 6 videos: relevant segments that overlap, touch (one ending where the next starts)
or stand apart, judged non-relevant segments (some inside relevant ones), one query with no relevant
segment, one judged but answered by no run; three runs of up to 60 results a query, in minutes.seconds
(seconds 0 to 60), with repeated results, equal ranks (the file's order decides), segments of length 0
(one at 0.00), a query no judge saw. ``linking`` runs: QUERY Q0 VIDEO START END RANK SCORE RUN; run c is a
``search`` run (a jump-in point after END).
"""

import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
VIDEOS = [f"v2008{m:02d}{d:02d}_bbc_{k}" for k, (m, d) in enumerate([(4, 1), (4, 2), (5, 3), (5, 14), (6, 1), (7, 4)])]


def ms(seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    if rest == 0 and minutes and random.random() < 0.1:  # sh_eval reads 12.60 as 13 minutes
        return f"{minutes - 1}.60"
    return f"{minutes}.{rest:02d}"


def main() -> None:
    random.seed(45)
    qrels, judged = [], {}
    for q in range(1, 41):
        query = f"query_{q}"
        spans = []
        for video in random.sample(VIDEOS, random.randint(1, 4)):
            t = random.randint(0, 300)
            for _ in range(random.randint(1, 5)):
                length = random.randint(5, 200)
                relevance = 0 if q == 7 else int(random.random() < 0.7)
                spans.append((video, t, t + length, relevance))
                t = t + length if random.random() < 0.3 else t + random.randint(-length // 2, 400)
                t = max(t, 0)
        if q == 7:
            spans.append((VIDEOS[0], 10, 50, 0))
        judged[query] = spans
        qrels += [f"{query} Q0 {v} {ms(s)} {ms(e)} {r}" for v, s, e, r in spans]
    (HERE / "qrels.txt").write_text("\n".join(qrels) + "\n")
    for name, kind, noise in (("a", "linking", 0.3), ("b", "linking", 0.7), ("c", "search", 0.5)):
        lines = []
        for q in range(1, 42):
            query = f"query_{q}"
            if q == 40:  # judged, never answered
                continue
            results = []
            for _ in range(random.randint(1, 60)):
                if q != 41 and random.random() > noise:
                    video, s, e, _ = random.choice(judged[query])
                    start = max(0, s + random.randint(-40, 40))
                else:
                    video, start = random.choice(VIDEOS), random.randint(0, 3000)
                end = start + random.choice([0, 0, 10, 30, 60, 120, 300])
                results.append((video, start, end))
            if q == 3:
                results.insert(0, (VIDEOS[0], 0, 0))
            rank = 0
            for k, (video, start, end) in enumerate(results):
                if k == 0 or random.random() > 0.15:  # else: the same rank as the previous line
                    rank += 1
                if random.random() < 0.05:
                    results.append((video, start, end))  # repeated further down
                score = round(1.0 - rank / 100.0, 3)
                jump = f" {ms(start)}" if kind == "search" else ""
                lines.append(f"{query} Q0 {video} {ms(start)} {ms(end)}{jump} {rank} {score} run_{name}")
        lines.append(
            f"query_99 Q0 {VIDEOS[1]} 1.00 2.00" + (" 1.00" if kind == "search" else "") + f" 1 0.5 run_{name}"
        )
        random.shuffle(lines)  # sh_eval orders by rank, keeping the file's order among equal ranks
        (HERE / f"run_{name}.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
