"""A survey of the questions the drills ask over many deals: per type, how many are asked, how many
have the trivial answer (`questions.informative` fails), how many would have it without the rule,
and where a single choice's answer stands.

Pure: bench/questions.py prints it over generated deals, the tests check its figures.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from trainer.drills.definitions import Drill
from trainer.drills.questions import informative, make_question, trivial_question
from trainer.drills.runs import plan_run, position_after, question_at, snapshot_after
from trainer.records import DealRecord
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events


@dataclass
class Tally:
    """What the survey found for one question type."""

    asked: int = 0
    trivial: int = 0
    positions: Counter[int] = field(default_factory=Counter)
    """For single choices: how often the answer was option 1, 2, … (0-based)."""
    option_counts: Counter[int] = field(default_factory=Counter)
    """For single choices: how many options the questions had."""
    natural: Counter[int] = field(default_factory=Counter)
    """For single choices: where the answer stands in the options' natural (unshuffled) order."""
    unruled: int = 0
    """At the same checkpoints, questions of this type drawn without the informative rule…"""
    unruled_trivial: int = 0
    """… and how many of those had the trivial answer."""

    @property
    def trivial_share(self) -> float:
        """The share of asked questions whose answer is the trivial one."""
        return self.trivial / self.asked if self.asked else 0.0

    @property
    def unruled_share(self) -> float:
        """The share of trivial answers among questions drawn without the rule."""
        return self.unruled_trivial / self.unruled if self.unruled else 0.0


def survey(drills: Iterable[Drill], records: Iterable[DealRecord], runs: int = 1) -> dict[str, Tally]:
    """Every checkpoint question of `runs` runs of each drill on each record (run seeds 0, 1, 2, … in
    turn over the records and drills), tallied by type."""
    tallies: dict[str, Tally] = {}
    drills = list(drills)
    seeds = iter(range(1 << 62))
    for record in records:
        events = list(public_events(record))
        for drill in drills:
            for seed in (next(seeds) for _ in range(runs)):
                plan = plan_run(drill, record, seed)
                opening_snap = snapshot_after(record, plan.seat, 0, events)
                opening = facts_json(opening_snap, str(position_after(record, 0)))
                for index, plays in enumerate(plan.checkpoints):
                    asked = question_at(drill, record, plan.seat, plays, seed, index, events)
                    question = asked.question
                    tally = tallies.setdefault(question.type, Tally())
                    tally.asked += 1
                    trivial = trivial_question(question, opening, asked.snapshot)
                    tally.trivial += not informative(question, trivial)
                    for kind in drill.questions:
                        unruled = make_question(kind, asked.facts, asked.snapshot, random.Random(f"{seed}:{index}"))
                        if unruled is not None:
                            other = tallies.setdefault(kind, Tally())
                            other.unruled += 1
                            other.unruled_trivial += not informative(unruled, trivial_question(unruled, opening,
                                                                                              asked.snapshot))
                    position = question.answer_position()
                    if position is not None:
                        tally.positions[position] += 1
                        tally.option_counts[len(question.options)] += 1
                        tally.natural[[o["value"] for o in trivial.options].index(question.answer)] += 1
    return tallies
