"""Benchmark: whole deal records verified per second (parsing and the legality of every play included).

The fixed set of deals is made in this run by the seeded random player (`trainer.bots.random`),
so every run measures the same work. Prints the machine-speed yardstick (a fixed Python loop), the
single-process figure for two decks and its figure with one process per core, the single-process
figures for one, three and four decks (with their ratio to two decks), then how long refusing
hostile input takes as it grows tenfold (a card name, JSON nesting, an integer's digits): each
figure should grow about tenfold too, never a hundredfold.

    python bench/engine.py [--deals N] [--rounds R]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from trainer.bots.random import random_record
from trainer.engine.errors import JipaiError
from trainer.engine.rules import Rules
from trainer.json_input import read_json
from trainer.records import parse_record, replay, verify_summary


try:
    from bench.machine import calibration
except ImportError:  # run as a script: bench/ itself is on sys.path
    from machine import calibration

OTHER_PRESETS = ("one-deck", "three-deck", "four-deck")
"""The presets measured beside two decks."""


def make_deals(count: int, seed: int = 2026, preset: str = "standard") -> list[str]:
    """The benchmark's deals as JSON text: `count` complete random-legal records."""
    rules = Rules.parse(preset)
    return [json.dumps(random_record(random.Random(seed + n), rules=rules, throw_rate=0.05)) for n in range(count)]


def verify_all(texts: list[str]) -> int:
    """Verify every record from its text; returns the number of plays checked."""
    plays = 0
    for text in texts:
        summary = verify_summary(replay(parse_record(read_json(text))))
        plays += sum(1 for _ in summary["tricks"]) * 4
    return plays


def best_seconds(sets: dict[str, list[str]], rounds: int) -> dict[str, tuple[float, int]]:
    """For each named set of texts, the best time of `rounds` runs verifying it and the plays checked;
    the sets take turns in every round, so a busy spell of a shared machine hurts them alike."""
    best = {name: (float("inf"), 0) for name in sets}
    for _ in range(rounds):
        for name, texts in sets.items():
            start = time.perf_counter()
            plays = verify_all(texts)
            best[name] = (min(best[name][0], time.perf_counter() - start), plays)
    return best


HOSTILE = {
    "card name": lambda n: json.dumps({"format": "jipai-deal/1", "rules": "standard", "level": "2", "trump": "S",
                                       "banker": 0, "hands": [["A" * n]] * 4}),
    "nesting": lambda n: "[" * n + "]" * n,
    "integer digits": lambda n: "[1" + "0" * n + "]",
}
"""Input that must be refused, made at size n."""


def refusal_seconds(text: str) -> float:
    """The time to read and refuse one hostile record text (best of three)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        try:
            parse_record(read_json(text))
        except JipaiError:
            pass
        else:
            raise AssertionError("hostile input was accepted")
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"calibration: a fixed Python loop takes {calibration():.0f} ms here now")
    texts = make_deals(args.deals)
    sets = {"standard": texts, **{preset: make_deals(max(1, args.deals // 4), preset=preset)
                                  for preset in OTHER_PRESETS}}
    best = best_seconds(sets, args.rounds)
    workers = os.cpu_count() or 1
    chunks = [texts[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(verify_all, chunks))
        start = time.perf_counter()
        list(pool.map(verify_all, chunks))
        parallel = time.perf_counter() - start
    seconds, plays = best["standard"]
    two_decks = len(texts) / seconds
    print(f"deals: {len(texts)} random-legal records, {plays} plays")
    print(f"verify, 1 process: {two_decks:,.0f} deals/s ({plays / seconds:,.0f} plays/s, best of {args.rounds})")
    print(f"verify, {workers} processes: {len(texts) / parallel:,.0f} deals/s")
    for preset in OTHER_PRESETS:
        seconds, plays = best[preset]
        rate = len(sets[preset]) / seconds
        print(f"verify {preset}, 1 process: {rate:,.0f} deals/s ({plays / seconds:,.0f} plays/s, "
              f"{rate / two_decks:.0%} of two decks; the presets take turns in each round)")
    for name, make in HOSTILE.items():
        times = ", ".join(f"{n:,}: {refusal_seconds(make(n)) * 1000:.2f} ms" for n in (10_000, 100_000, 1_000_000))
        print(f"refusing a hostile {name} of size {times}")


if __name__ == "__main__":
    main()
