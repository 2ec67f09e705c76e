"""Writes trainer/drills/gouji_priors.py: how often each memory part comes up, by 够级 choice type, subject and
round bucket, over generated deals seen from every seat every few actions (the natural rate the drills'
questions flatten, `trainer.drills.gouji.acceptance`). Uses the drills' own code (`contexts_at`,
`memory_part`); deals from seed 1000 on, apart from the sample's.

    python bench/gouji_priors.py [--deals N] [--every K] [--jobs J]
"""
from __future__ import annotations

import argparse
import os
import pprint
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from trainer.drills.gouji import (NUMBER_SPREAD, QUESTION_TYPES, context, contexts_at, memory_part, round_bucket,
                                  snapshots_after)
from trainer.gouji.generate import generate_gouji_records
from trainer.gouji.records import parse_gouji_record
from trainer.gouji.rules import GoujiRules
from trainer.gouji.tracker import public_events

SEED = 1000
TYPES = [name for name, qtype in QUESTION_TYPES.items()
         if qtype.clip is not None or qtype.spread is not None and qtype.spread < NUMBER_SPREAD]
"""The choice types and the clipped types."""
TIER_2_EVERY = 5
"""The types asked from the opening (tier 2, about 10 ms a position) are counted at every fifth moment only."""
TARGET = Path(__file__).resolve().parent.parent / "trainer" / "drills" / "gouji_priors.py"


def count_deal(task: tuple[dict[str, Any], int]) -> dict[tuple[str, str, int], Counter[int]]:
    """The parts counted on one deal from every seat, every `every` actions."""
    data, every = task
    record = parse_gouji_record(data)
    events = list(public_events(record))
    counts: dict[tuple[str, str, int], Counter[int]] = defaultdict(Counter)
    moments = list(range(1, len(events), every))
    for seat in range(record.rules.players):
        first, *snaps = snapshots_after(record, seat, [0, *moments], events)
        opening = context(first, "1.0")
        for index, (actions, snap) in enumerate(zip(moments, snaps, strict=True)):
            ctx, table = contexts_at(record, seat, actions, events, snap)
            bucket = round_bucket(ctx.facts["at"])
            for name in TYPES:
                qtype = QUESTION_TYPES[name]
                if qtype.base == "opening" and index % TIER_2_EVERY:
                    continue
                for subject in qtype.subjects:
                    question = qtype.build(ctx, subject)
                    base = qtype.build(opening if qtype.base == "opening" else table, subject)
                    if question is None or base is None:
                        continue
                    part = memory_part(question, base, qtype.sign)
                    if part is not None:
                        counts[(name, subject, bucket)][part] += 1
    return dict(counts)


def main() -> None:
    """Count and write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    records = generate_gouji_records(GoujiRules(), SEED, args.deals, jobs=args.jobs)
    total: dict[tuple[str, str, int], Counter[int]] = defaultdict(Counter)
    with ProcessPoolExecutor(args.jobs) as pool:
        for counts in pool.map(count_deal, [(record, args.every) for record in records]):
            for key, parts in counts.items():
                total[key].update(parts)
    table = {key: tuple(total[key][part] for part in range(max(total[key]) + 1)) for key in sorted(total)}
    TARGET.write_text(
        '"""How often each memory part comes up (counts for parts 0, 1, …) by 够级 choice type, subject and round\n'
        f'bucket: written by `python bench/gouji_priors.py --deals {args.deals} --every {args.every}`; do not edit."""\n\n'
        f"PRIORS: dict[tuple[str, str, int], tuple[int, ...]] = {pprint.pformat(table, width=110)}\n",
        encoding="utf-8")
    print(f"{len(table)} cells from {args.deals} deals written to {TARGET}")


if __name__ == "__main__":
    main()
