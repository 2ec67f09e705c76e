"""Benchmark: bot deal generation speed and bot strength.

Speed: complete deals (deal, declare, bury, play) generated per second in one process, for each
deck count's preset; then how many of N generated deals of each verify.
Strength: over N seeded deals with swapped seats (the same cards and banker each time), the
attackers' mean score for heuristic attackers vs random attackers against the same heuristic
bankers, and for random attackers against heuristic vs random bankers; plus how often the banker
side held and the mean level change in heuristic-only play.

    python bench/bots.py [--deals N] [--speed-deals M] [--presets standard three-deck …]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from trainer.bots.generate import generate_records
from trainer.bots.play import play_hand
from trainer.engine.rules import Rules
from trainer.records import parse_record, replay

try:
    from bench.machine import calibration
except ImportError:  # run as a script: bench/ itself is on sys.path
    from machine import calibration


def seats(banker_kind: str, attacker_kind: str, banker: int) -> list[str]:
    """Bot kinds by seat: the banker side one kind, the attackers another."""
    return [banker_kind if (seat - banker) % 2 == 0 else attacker_kind for seat in range(4)]


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--speed-deals", type=int, default=200)
    parser.add_argument("--presets", nargs="+", default=["standard", "one-deck", "three-deck", "four-deck"])
    args = parser.parse_args()
    print(f"calibration: a fixed Python loop takes {calibration():.0f} ms here now")
    rules = Rules()
    for preset in args.presets:
        for kind in ("heuristic", "random"):
            start = time.perf_counter()
            generate_records(Rules.parse(preset), seed=1, count=args.speed_deals, bots=kind)
            elapsed = time.perf_counter() - start
            print(f"generation {preset}, {kind} bots: {args.speed_deals / elapsed:,.1f} deals/s per process")
    for preset in args.presets:
        generated = generate_records(Rules.parse(preset), seed=2, count=args.deals, jobs=2)
        valid = sum(1 for record in generated if replay(parse_record(record)).complete)
        print(f"verified {preset}: {valid}/{len(generated)} generated deals are complete and legal")
    scores: dict[tuple[str, str], list[int]] = {}
    held = 0
    level_changes = []
    for banker_kind, attacker_kind in (("heuristic", "heuristic"), ("heuristic", "random"),
                                       ("random", "random"), ("random", "heuristic")):
        results = scores[banker_kind, attacker_kind] = []
        for number in range(args.deals):
            banker = number % 4
            _, result = play_hand(random.Random(f"strength:{number}"), rules, 2, banker,
                                  seats(banker_kind, attacker_kind, banker))
            results.append(result.attackers_score)
            if (banker_kind, attacker_kind) == ("heuristic", "heuristic"):
                held += result.side == "banker"
                level_changes.append(result.levels if result.side == "banker" else -result.levels)
    mean = {key: statistics.mean(values) for key, values in scores.items()}
    print(f"strength over {args.deals} deals (same cards and banker in every pairing):")
    for (banker_kind, attacker_kind), value in mean.items():
        print(f"  {attacker_kind:9} attackers vs {banker_kind:9} bankers: attackers' mean score {value:6.1f}")
    print(f"heuristic minus random as attackers (vs heuristic bankers): "
          f"{mean['heuristic', 'heuristic'] - mean['heuristic', 'random']:+.1f} points")
    print(f"random attackers' score vs heuristic bankers minus vs random bankers: "
          f"{mean['heuristic', 'random'] - mean['random', 'random']:+.1f} points")
    print(f"heuristic-only play: banker side held {held / args.deals:.0%} of hands; mean level change "
          f"{statistics.mean(level_changes):+.2f} (banker side positive)")


if __name__ == "__main__":
    main()
