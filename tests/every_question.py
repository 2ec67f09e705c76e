"""Test helper: every question the drills can ask from one seat at one moment of a deal."""
from __future__ import annotations

import random
from collections.abc import Iterator

from trainer.drills.questions import QUESTION_TYPES, Question, make_question
from trainer.records import DealRecord, Position
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import Snapshot, track


def every_question(record: DealRecord, seat: int, position: Position) -> Iterator[tuple[Question, Snapshot]]:
    """Each question type that applies at `position` from `seat` (its subject drawn by a generator
    seeded with the plays made), with what the seat knows then."""
    snap = track(record, seat, position)
    facts = facts_json(snap, str(position))
    for kind in QUESTION_TYPES:
        question = make_question(kind, facts, snap, random.Random(position.plays_before(record)))
        if question is not None:
            yield question, snap
