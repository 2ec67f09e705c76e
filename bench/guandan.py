"""Benchmark: 掼蛋 deal records verified per second in one process (parsing, tribute and every rule
checked); with `--part tracking`, `--part tier2` or `--part bots`, tracking and the bots (below).

The fixed set of complete deals is made in this run by the seeded heuristic bots
(`trainer.guandan.bots`), one match of `--deals` hands, so every run measures the same work. Prints the
figure by wall-clock and by the process's own CPU time (the machine may be shared). Targets (issue 24):
verify ≥ 500 deals/s; tracking tier 1 × 4 seats ≥ 100 deals/s; tier 2 median ≤ 10 ms a position
(every position of every deal, one seat per deal in turn, the tier-2 object built by max-flow);
bots ≥ 30 deals/s, heuristic partners beating random partners in ≥ 80 % of hands, every generated deal verifying.

    python bench/guandan.py [--deals N] [--part verify|tracking|tier2|bots|all]
"""
from __future__ import annotations

import argparse
import json
import random
import time

import statistics

from trainer.guandan.bots import BOTS, generate_records, play_hand
from trainer.guandan.inference import infer_json
from trainer.guandan.records import parse_guandan_record, replay, verify_summary
from trainer.guandan.rules import GuandanRules
from trainer.guandan.tracker import public_events, tracker_for
from trainer.json_input import read_json


def timed(label: str, count: int, unit: str, work: object) -> None:
    """Run `work()` once and print `count / time` by wall-clock and by CPU time."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()  # type: ignore[operator]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label}: {count / wall:,.0f} {unit}/s wall, {count / cpu:,.0f} {unit}/s CPU ({count} in {wall:.2f} s)")


def verify_all(texts: list[str]) -> None:
    """Verify every record from its JSON text."""
    for text in texts:
        verify_summary(replay(parse_guandan_record(read_json(text))))


def track_all(texts: list[str]) -> None:
    """Tier 1 for all four seats at every position: every event observed, a snapshot after each."""
    for text in texts:
        record = parse_guandan_record(read_json(text))
        events = list(public_events(record))
        for seat in range(4):
            tracker = tracker_for(record, seat)
            for event in events:
                tracker.observe(event)
                tracker.snapshot()


def tier2_times(texts: list[str]) -> list[float]:
    """Seconds to build the tier-2 object at each position of each deal, seen by seat (deal number mod 4)."""
    times = []
    for number, text in enumerate(texts):
        record = parse_guandan_record(read_json(text))
        tracker = tracker_for(record, number % 4)
        for event in public_events(record):
            tracker.observe(event)
            start = time.process_time()
            infer_json(tracker)
            times.append(time.process_time() - start)
    return times


def duel(hands: int, seed: int) -> float:
    """The share of hands the heuristic team wins (上游) against the random team, seats swapped each hand."""
    rules, rng, wins = GuandanRules(), random.Random(seed), 0
    for number in range(hands):
        heuristic_team = number % 2
        bots = [BOTS["heuristic"] if seat % 2 == heuristic_team else BOTS["random"] for seat in range(4)]
        _, state = play_hand(rules, rng, bots)
        wins += state.places[0] % 2 == heuristic_team
    return wins / hands


def main() -> None:
    """Parse the arguments and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--part", choices=("verify", "tracking", "tier2", "bots", "all"), default="verify")
    args = parser.parse_args()
    texts = [json.dumps(r, ensure_ascii=False) for r in generate_records(GuandanRules(), 2026, args.deals)]
    if args.part in ("verify", "all"):
        timed("verify", len(texts), "deals", lambda: verify_all(texts))
    if args.part in ("tracking", "all"):
        timed("tracking tier 1 x 4 seats", len(texts), "deals", lambda: track_all(texts))
    if args.part in ("tier2", "all"):
        times = tier2_times(texts)
        print(f"tier 2 per position (CPU): median {statistics.median(times) * 1000:.2f} ms, "
              f"90th percentile {statistics.quantiles(times, n=10)[-1] * 1000:.2f} ms, max {max(times) * 1000:.2f} ms "
              f"({len(times)} positions)")
    if args.part in ("bots", "all"):
        timed("heuristic bots", args.deals, "deals", lambda: generate_records(GuandanRules(), 7, args.deals))
        records = generate_records(GuandanRules(), 8, args.deals, "random")
        ok = sum(1 for r in records if replay(parse_guandan_record(r)).complete)
        print(f"generated deals verifying: {ok}/{len(records)}")
        print(f"heuristic partners beat random partners: {duel(args.deals, 9):.0%} of {args.deals} hands")


if __name__ == "__main__":
    main()
