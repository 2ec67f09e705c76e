"""Benchmark: 够级 deal records verified per second in one process (parsing and every rule checked);
with `--part tracking` or `--part bots`, tracking and the bots (below).

The fixed set of complete deals is made in this run by the seeded random legal player
(`trainer.gouji.randomplay`), so every run measures the same work. Prints the figure by wall-clock
and by the process's own CPU time (the machine may be shared: CPU time is what one process costs).
The target (issue 15) is at least 300 deals/s per process.

Tracking: tier 1 for all six seats at every position (each seat's observer fed every public action,
a snapshot taken after each, the events made once per deal and counted in), as deals per second, and
the same snapshots recounted from scratch; tier 2 (`infer_json`) at every 10th position, median and
99th percentile (targets: ≥ 50 deals/s; median ≤ 10 ms). Bots: heuristic deals played per second (≥ 20
per process), and the heuristic team against the random team over seeded deals, seats swapped every
deal (≥ 80 % won), and generated deals verified (1,000/1,000).

    python bench/gouji.py [--deals N] [--rounds R] [--part verify|tracking|bots|all]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from trainer.gouji.bots import record_hand
from trainer.gouji.generate import generate_gouji_records
from trainer.gouji.inference import infer_json
from trainer.gouji.randomplay import random_record
from trainer.gouji.records import GoujiPosition, parse_gouji_record, replay, result_of, verify_summary
from trainer.gouji.rules import GoujiRules
from trainer.gouji.tracker import public_events, recount, start_state, tracker_for
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


def track_all(records: list) -> int:
    """Tier 1 for every seat at every position of each record; returns the snapshots taken."""
    made = 0
    for record in records:
        events = list(public_events(record))
        start = start_state(record)
        for seat in range(record.rules.players):
            tracker = tracker_for(record, seat, start)
            tracker.snapshot()
            for event in events:
                tracker.observe(event)
                tracker.snapshot()
            made += len(events) + 1
    return made


def bench_tracking(deals: int) -> None:
    """Print the tracking figures (tier 1 incremental and recounted, tier 2 per position)."""
    records = [parse_gouji_record(json.loads(text)) for text in make_deals(deals)]
    for record in records:
        replay(record)
    wall, cpu = time.perf_counter(), time.process_time()
    snapshots = track_all(records)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"gouji tracking tier 1: {deals} deals × 6 seats, {snapshots} snapshots")
    print(f"  {deals / wall:8.1f} deals/s (wall clock), {deals / cpu:8.1f} deals/s (CPU time)")
    sample = records[: max(1, deals // 10)]
    start = time.process_time()
    recounted = 0
    for record in sample:
        total = sum(len(rnd.actions) for rnd in record.rounds)
        for seat in range(6):
            for count in range(total + 1):
                recount(record, seat, GoujiPosition.after(count, record))
                recounted += 1
    print(f"  recount from scratch: {len(sample) / (time.process_time() - start):8.2f} deals/s (CPU time), "
          f"{recounted} snapshots")
    times = []
    for number, record in enumerate(records):
        seat = number % 6
        tracker = tracker_for(record, seat)
        for index, event in enumerate(public_events(record)):
            tracker.observe(event)
            if index % 10 == 0:
                snap = tracker.snapshot()
                begin = time.process_time()
                infer_json(snap)
                times.append(time.process_time() - begin)
    times.sort()
    print(f"gouji tracking tier 2: {len(times)} positions, median {statistics.median(times) * 1000:.2f} ms, "
          f"p99 {times[int(len(times) * 0.99)] * 1000:.2f} ms (CPU time)")


def bench_bots(deals: int, matches: int, generated: int) -> None:
    """Print the bots' figures: speed, heuristic teams against random teams, generated deals verified."""
    rules = GoujiRules()
    wall, cpu = time.perf_counter(), time.process_time()
    for n in range(deals):
        record_hand(random.Random(n), rules, ["heuristic"] * 6, n % 6)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"gouji bots: {deals / wall:6.1f} heuristic deals/s (wall clock), {deals / cpu:6.1f} (CPU time)")
    wins = ties = 0
    for n in range(matches):
        kinds = ["heuristic", "random"] * 3 if n % 2 == 0 else ["random", "heuristic"] * 3
        _, state = record_hand(random.Random(f"match:{n}"), rules, kinds, n % 6)
        points = result_of(state)["seat_points"]
        mine = sum(p for seat, p in enumerate(points) if seat % 2 == n % 2)
        wins += mine > sum(points) - mine
        ties += mine == sum(points) - mine
    print(f"  heuristic teams vs random teams (seats swapped): won {wins}/{matches} ({100 * wins / matches:.1f} %), "
          f"tied {ties}")
    records = generate_gouji_records(rules, seed=1, count=generated, jobs=1)
    good = sum(1 for record in records if replay(parse_gouji_record(json.loads(json.dumps(record)))).complete)
    print(f"  generated deals verified complete: {good}/{generated}")


def main() -> None:
    """Make the deals, verify them `--rounds` times, print the best figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--part", choices=("verify", "tracking", "bots", "all"), default="verify")
    parser.add_argument("--matches", type=int, default=1000, help="heuristic-against-random deals (bots)")
    parser.add_argument("--generated", type=int, default=1000, help="generated deals to verify (bots)")
    args = parser.parse_args()
    if args.part in ("tracking", "all"):
        bench_tracking(args.deals)
    if args.part in ("bots", "all"):
        bench_bots(args.deals, args.matches, args.generated)
    if args.part not in ("verify", "all"):
        return
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
