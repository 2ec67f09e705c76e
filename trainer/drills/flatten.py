"""The keep shares of the answer flattening (training.md §1, `questions.kept`), measured on generated deals.

A player who tracks nothing still sees how far the deal has gone, the opening value, the suit and their own top
card; given those, a count or a top card has a few common answers. Over the deals of each rules preset, every
position from every seat, this counts the coded answers (`questions.answer_cell`) of the questions a checkpoint
could ask (`questions.candidates`), a checkpoint's candidates sharing one vote, and gives each (cell, answer) the
probability of being kept that makes the commonest answer of a cell at most `CAP` of the cell's questions kept
(each coding of the answer alone; a question is kept with the least probability of its codes).
A cell with too few distinct answers for that is flattened as far as it goes and then kept less often, so that
over the type the commonest answer of each cell is right on at most `TYPE_CAP` of the questions asked.

    python -m trainer.drills.flatten [--deals N] [--seed K]   (rewrites drills/flatten.json)
"""
from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Iterable

from trainer.bots.generate import generate_records
from trainer.drills.questions import FLATTENED, SHARES_FILE, answer_cell, candidates
from trainer.drills.runs import position_after, snapshots_after, table_at, total_plays
from trainer.engine.rules import Rules
from trainer.records import DealRecord, parse_record
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events

CAP = 0.09
"""The share of its cell's kept questions the commonest answer may have (the §1 limit is 15 %: a margin for
strategies that see finer than the cells)."""
TYPE_CAP = 0.10
"""Over a type, the share of the questions its cells' commonest answers may have (cells with few distinct
answers are kept less often until they fit: the §1 limit is 15 %)."""
PRESETS = ("standard", "three-deck", "four-deck")
"""The rules presets whose deals the shares are measured on (the 升级 drills' presets)."""
SPREAD = 0.75
"""A cell with fewer than 1 / `CAP` distinct answers is flattened until its effective number of answers is this
share of its distinct ones (full flattening would drop nearly every question for one rare answer)."""

Counts = dict[str, Counter[tuple[str, ...]]]
"""Per cell, how often each tuple of codes (`questions.answer_cell`) comes up."""


def natural(records: Iterable[DealRecord]) -> Counts:
    """Per cell, the coded answers of the questions checkpoints could ask (every second play, every seat), each
    checkpoint's candidates of one type sharing one vote."""
    counts: Counts = defaultdict(Counter)
    for record in records:
        events = list(public_events(record))
        plays = list(range(2, total_plays(record), 2))
        for seat in range(4):
            first, *snaps = snapshots_after(record, seat, [0, *plays], events)
            opening = facts_json(first, str(position_after(record, 0)))
            for count, snap in zip(plays, snaps, strict=True):
                facts = facts_json(snap, str(position_after(record, count)))
                table = table_at(record, count)
                for kind in FLATTENED:
                    pairs = candidates(kind, facts, snap, opening, table)
                    for question, trivial in pairs:
                        found = answer_cell(question, trivial, snap, table)
                        if found is not None:
                            counts[found[0]][found[1]] += 1 / len(pairs)
    return counts


def _clip(shares: list[float], effective: float) -> float:
    """The clip level f at which the shares min(p, f) / f add up to `effective` answers (bisection)."""
    low, high = min(shares), max(shares)
    for _ in range(60):
        middle = (low + high) / 2
        if sum(min(p, middle) for p in shares) / middle >= effective:
            low = middle
        else:
            high = middle
    return low


def _flattened(answers: Counter[str]) -> dict[str, float]:
    """Keep probabilities that bring the commonest of `answers` to `CAP` of those kept (or as near as `SPREAD`
    lets a cell with few distinct answers go)."""
    total = sum(answers.values())
    shares = {code: n / total for code, n in answers.items()}
    if max(shares.values()) <= CAP:
        return {code: 1.0 for code in shares}
    effective = 1 / CAP if len(shares) >= 1 / CAP else SPREAD * len(shares)
    clip = _clip(list(shares.values()), effective)
    return {code: min(1.0, clip / p) for code, p in shares.items()}


def keep_shares(counts: Counts) -> dict[str, dict[str, float]]:
    """Per cell and code, the probability of keeping a question (see the module's text): each way of coding the
    answer flattened alone, a question kept with the least probability of its codes."""
    found: dict[str, dict[str, float]] = {}
    by_type: dict[str, list[tuple[str, float, float]]] = defaultdict(list)
    for cell, answers in counts.items():
        views: dict[int, Counter[str]] = defaultdict(Counter)
        for codes, n in answers.items():
            for view, code in enumerate(codes):
                views[view][code] += n
        found[cell] = {code: share for view in views.values() for code, share in _flattened(view).items()}
        kept = {codes: n * min(found[cell][code] for code in codes) for codes, n in answers.items()}
        mass = sum(kept.values())
        hit = 0.0
        for view in views:
            shares: Counter[str] = Counter()
            for codes, n in kept.items():
                shares[codes[view]] += n
            hit = max(hit, max(shares.values()) / mass)
        by_type[cell.split("|")[0]].append((cell, mass, hit))
    for cells in by_type.values():
        wide = [(mass, hit) for _cell, mass, hit in cells if hit <= TYPE_CAP]
        narrow = [(cell, mass, hit) for cell, mass, hit in cells if hit > TYPE_CAP]
        over = sum(mass * (hit - TYPE_CAP) for _cell, mass, hit in narrow)
        room = sum(mass * (TYPE_CAP - hit) for mass, hit in wide)
        scale = 1.0 if over <= room else max(0.0, room / over)
        for cell, _mass, _hit in narrow:
            found[cell] = {code: share * scale for code, share in found[cell].items()}
    return dict(sorted(found.items()))


def main() -> None:
    """Measure the shares on generated deals and write `SHARES_FILE`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=80, help="deals per rules preset")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1, help="processes to generate the deals in")
    args = parser.parse_args()
    counts: Counts = defaultdict(Counter)
    for preset in PRESETS:
        records = [parse_record(r) for r in generate_records(Rules.parse(preset), args.seed, args.deals,
                                                                jobs=args.jobs)]
        for cell, answers in natural(records).items():
            counts[cell].update(answers)
    shares = {cell: {code: round(share, 4) for code, share in sorted(answers.items())}
              for cell, answers in keep_shares(counts).items()}
    SHARES_FILE.write_text(json.dumps({"cap": CAP, "deals": args.deals, "seed": args.seed, "cells": shares},
                                      ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
