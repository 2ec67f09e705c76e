"""Benchmark: 够级 deal records verified per second in one process (parsing and every rule checked).

The fixed set of complete deals is made in this run by the seeded random legal player
(`trainer.gouji.randomplay`), so every run measures the same work. Prints the figure by wall-clock
and by the process's own CPU time (the machine may be shared: CPU time is what one process costs).
The target (issue 15) is at least 300 deals/s per process.

    python bench/gouji.py [--deals N] [--rounds R]
"""
from __future__ import annotations

import argparse
import json
import random
import time

from trainer.gouji.randomplay import random_record
from trainer.gouji.records import parse_gouji_record, replay, verify_summary
from trainer.json_input import read_json


def make_deals(count: int, seed: int = 2026) -> list[str]:
    """The benchmark's deals as JSON text: `count` complete random-legal Gouji records."""
    return [json.dumps(random_record(random.Random(seed + n)), ensure_ascii=False) for n in range(count)]


def verify_all(texts: list[str]) -> int:
    """Verify every record from its text; returns the number of actions checked."""
    actions = 0
    for text in texts:
        summary = verify_summary(replay(parse_gouji_record(read_json(text))))
        actions += sum(rnd["actions"] for rnd in summary["rounds"])
    return actions


def main() -> None:
    """Make the deals, verify them `--rounds` times, print the best figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    texts = make_deals(args.deals)
    best_wall = best_cpu = float("inf")
    actions = 0
    for _ in range(args.rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        actions = verify_all(texts)
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    print(f"gouji verify: {args.deals} deals, {actions} actions each pass")
    print(f"  {args.deals / best_wall:8.0f} deals/s per process (wall clock)")
    print(f"  {args.deals / best_cpu:8.0f} deals/s per process (CPU time)")
    print(f"  {best_cpu / actions * 1e6:8.1f} µs CPU per action")


if __name__ == "__main__":
    main()
