"""Benchmark: tracking at every position of a deal (tier 1) and the tier-2 inference per position.

For each rules preset asked (by default two decks, then one, three and four):
(a) Tier 1: for each deal, all 4 seats, a snapshot of the seat's knowledge at every position
    (start, then after every play): deals per second with the incremental observer, and the same
    snapshots recomputed from scratch at each position (`recount`), with the ratio of the two.
    The full tracking.md JSON is also timed for one seat's positions (what `deal track` prints).
(b) Tier 2: the inference facts (`infer_json`) at sampled positions: median and 99th percentile.
Other deck counts' tier-1 rates are also given as a share of the two-deck rate (issue 14 asks ≥ 50 %).

    python bench/tracking.py [--deals N] [--tier2-positions P] [--rules standard,four-deck]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from trainer.bots.random import random_record
from trainer.engine.rules import Rules
from trainer.records import Position, parse_record, replay
from trainer.tracking.facts import facts_json
from trainer.tracking.inference import infer_json
from trainer.tracking.recount import recount
from trainer.tracking.tracker import public_events, track, tracker_for


def make_deals(count: int, rules: Rules, seed: int = 7) -> list:
    """`count` validated random-legal records under `rules` with their public events."""
    deals = []
    for n in range(count):
        record = parse_record(json.loads(json.dumps(random_record(random.Random(seed + n), rules, throw_rate=0.05))))
        replay(record)
        deals.append((record, list(public_events(record))))
    return deals


def incremental(deals: list) -> int:
    """Snapshots at every position for every seat, observing play by play; returns the count."""
    made = 0
    for record, events in deals:
        for seat in range(4):
            tracker = tracker_for(record, seat)
            tracker.snapshot()
            for event in events:
                tracker.observe(event)
                tracker.snapshot()
            made += len(events) + 1
    return made


def positions_of(record) -> list[Position]:
    """The start and the position after every play."""
    found = [Position(1, 0)]
    for number, trick in enumerate(record.tricks, start=1):
        found += [Position(number, k) for k in range(1, len(trick.plays) + 1)]
    return found


def from_scratch(deals: list) -> int:
    """The same snapshots, each recomputed from the record alone."""
    made = 0
    for record, _ in deals:
        for seat in range(4):
            for position in positions_of(record):
                recount(record, seat, position)
                made += 1
    return made


def bench(preset: str, count: int, tier2_positions: int) -> float:
    """Print one preset's figures; return its tier-1 incremental rate in deals per CPU second (CPU time
    is steadier than the wall clock on a shared machine)."""
    deals = make_deals(count, Rules.parse(preset))
    start, cpu = time.perf_counter(), time.process_time()
    snapshots = incremental(deals)
    fast, fast_cpu = time.perf_counter() - start, time.process_time() - cpu
    sample = deals[: max(1, count // 10)]
    start = time.perf_counter()
    from_scratch(sample)
    slow = (time.perf_counter() - start) * len(deals) / len(sample)
    start = time.perf_counter()
    full = 0
    for record, events in sample:
        tracker = tracker_for(record, 0)
        for event, position in zip(events, positions_of(record)[1:]):
            tracker.observe(event)
            facts_json(tracker.snapshot(position), str(position))
            full += 1
    json_time = (time.perf_counter() - start) / full
    print(f"[{preset}] tier 1: {len(deals)} deals, {snapshots} seat-positions "
          f"({snapshots / len(deals) / 4:.0f} positions × 4 seats per deal)")
    print(f"[{preset}] tier 1 incremental: {len(deals) / fast:,.0f} deals/s ({snapshots / fast:,.0f} snapshots/s); "
          f"by CPU time {len(deals) / fast_cpu:,.0f} deals/s ({snapshots / fast_cpu:,.0f} snapshots/s)")
    print(f"[{preset}] tier 1 from scratch: {len(deals) / slow:,.1f} deals/s (measured on {len(sample)} deals)")
    print(f"[{preset}] tier 1 ratio incremental / from scratch: {slow / fast:,.0f}x")
    print(f"[{preset}] tier 1 full JSON (deal track's object) per position: {json_time * 1000:.3f} ms")
    rng = random.Random(11)
    times, cpu_times = [], []
    for _ in range(tier2_positions):
        record, _ = rng.choice(deals)
        spots = positions_of(record)
        position = spots[rng.randrange(len(spots))]
        snap = track(record, rng.randrange(4), position)
        start, cpu = time.perf_counter(), time.process_time()
        infer_json(snap)
        times.append((time.perf_counter() - start) * 1000)
        cpu_times.append((time.process_time() - cpu) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"[{preset}] tier 2 per position over {len(times)} positions: median {statistics.median(times):.2f} ms, "
          f"p99 {p99:.2f} ms; by CPU time median {statistics.median(cpu_times):.2f} ms")
    return len(deals) / fast_cpu


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--tier2-positions", type=int, default=400)
    parser.add_argument("--rules", default="standard,one-deck,three-deck,four-deck",
                        help="comma-separated rules presets (the first is the base of the shares)")
    args = parser.parse_args()
    presets = args.rules.split(",")
    rates = {preset: bench(preset, args.deals, args.tier2_positions) for preset in presets}
    base = presets[0]
    for preset in presets[1:]:
        print(f"tier 1 incremental {preset} / {base}: {rates[preset] / rates[base]:.0%} of the deals/s (CPU time)")


if __name__ == "__main__":
    main()
