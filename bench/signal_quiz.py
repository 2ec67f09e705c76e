"""Benchmark: the signal quizzes over deals the bots played under a convention set.

Per quiz kind: the quiz spots per deal (informative questions a run can stop at), and per drill of
`drills/signal_drills/` the share of deals a run can start on and the mean questions per run; the time
`spots` takes per deal (a signal question is recomputed from it on each request of a run). With `--pool`:
per shipped convention set, the moments of its pool (`trainer.signals.pool`) by quiz kind instead.

    python bench/signal_quiz.py [--deals N] [--set NAME] [--pool]
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

from trainer.bots.generate import generate_records
from trainer.engine.rules import Rules
from trainer.records import parse_record
from trainer.signals.conventions import find_convention, load_conventions
from trainer.signals.pool import pool_moments, read_pool
from trainer.signals.quiz import load_signal_drills, plan_signal_run, spots


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--set", default="basic_89JQ")
    parser.add_argument("--pool", action="store_true", help="the shipped pools' moments per set")
    args = parser.parse_args()
    if args.pool:
        for name, convention in sorted(load_conventions().items()):
            moments = pool_moments(read_pool(name), convention)
            kinds = Counter(spot.kind for _deal, spot in moments)
            print(f"  {name:15} {len(moments):4} moments: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
        return
    convention = find_convention(args.set)
    records = [parse_record(r) for r in generate_records(Rules(), 2026, args.deals, signals=convention)]
    kinds: Counter[str] = Counter()
    started = time.perf_counter()
    for record in records:
        kinds.update(spot.kind for spot in spots(record, convention))
    elapsed = time.perf_counter() - started
    print(f"{len(records)} deals under {args.set}: spots() {elapsed / len(records) * 1000:.1f} ms per deal")
    for kind, count in sorted(kinds.items()):
        print(f"  {kind:10} {count / len(records):.2f} spots per deal")
    for drill in load_signal_drills().values():
        plans = [plan_signal_run(drill, record, seed, convention)[1] for seed, record in enumerate(records)]
        usable = [plan for plan in plans if plan]
        mean = sum(map(len, usable)) / len(usable) if usable else 0.0
        print(f"  drill {drill.id:17} runs start on {len(usable) / len(plans):.0%} of deals, "
              f"{mean:.1f} questions per run")


if __name__ == "__main__":
    main()
