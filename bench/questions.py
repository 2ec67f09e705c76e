"""Benchmark: are the drills' questions informative? Over generated deals, every drill's run asks its
checkpoint questions; per question type this prints how many were asked, the share whose answer is
the trivial one (what a player who tracked nothing would say; target below 10 %), and for single
choices where the answer stood among the options as shown (uniform is the aim: the order leaks
nothing) and in the options' natural order (what the answer is: the 2nd class is the K).

    python bench/questions.py [--deals N] [--runs R] [--seed K]
"""
from __future__ import annotations

import argparse
import time

from trainer.bots.generate import generate_records
from trainer.drills.definitions import load_drills
from trainer.drills.survey import survey
from trainer.engine.rules import Rules
from trainer.records import parse_record

TARGET = 0.10


def main() -> None:
    """Print the survey's figures per question type."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--runs", type=int, default=2, help="runs per drill and deal")
    parser.add_argument("--seed", type=int, default=11, help="seed of the generated deals")
    args = parser.parse_args()
    records = [parse_record(r) for r in generate_records(Rules.parse("standard"), args.seed, args.deals)]
    started = time.perf_counter()
    tallies = survey(load_drills().values(), records, args.runs)
    seconds = time.perf_counter() - started
    print(f"{args.deals} generated deals × 7 drills × {args.runs} runs ({seconds:.1f} s)")
    print(f"{'type':<22}{'asked':>7}{'trivial':>9}  ok   without the rule: trivial")
    worst = 0.0
    for kind, tally in sorted(tallies.items()):
        worst = max(worst, tally.trivial_share)
        verdict = "yes" if tally.trivial_share < TARGET else "NO "
        print(f"{kind:<22}{tally.asked:>7}{tally.trivial_share:>8.1%}  {verdict}  {tally.unruled_share:>8.1%}"
              f" of {tally.unruled}")
    print(f"worst trivial share: {worst:.1%} (target < {TARGET:.0%})")
    for kind, tally in sorted(tallies.items()):
        if tally.positions:
            total = sum(tally.positions.values())
            shares = " ".join(f"{p + 1}:{n / total:.0%}" for p, n in sorted(tally.positions.items()))
            sizes = ", ".join(f"{size} options ×{n}" for size, n in sorted(tally.option_counts.items()))
            natural = " ".join(f"{p + 1}:{n / total:.0%}" for p, n in sorted(tally.natural.items()))
            print(f"{kind}: answer position (single choice) {shares}; {sizes}")
            print(f"{kind}: the answer's place in the natural order (unshuffled, strongest first) {natural}")


if __name__ == "__main__":
    main()
