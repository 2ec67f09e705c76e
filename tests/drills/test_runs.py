"""A run's plan and questions are pure functions of the drill, the record and the seed."""
from __future__ import annotations

import pytest

from trainer.drills.definitions import DRILLS_DIR, load_drills
from trainer.drills.runs import plan_run, position_after, question_at, snapshot_after, total_plays
from trainer.records import Position, load_record, replay
from trainer.tracking.tracker import public_events, track

ALL_STARTER = sorted(path for path in (DRILLS_DIR / "deals").glob("*.json") if not path.name.startswith("gouji-"))
STARTER = ALL_STARTER[:4]


@pytest.mark.parametrize("path", STARTER, ids=lambda p: p.name)
def test_the_cached_snapshot_is_the_trackers(path) -> None:
    record = load_record(path)
    replay(record)
    events = list(public_events(record))
    for plays in range(0, total_plays(record) + 1, 7):
        for seat in range(4):
            assert snapshot_after(record, seat, plays, events) == track(record, seat, position_after(record, plays))


def test_positions_keep_a_finished_trick_on_the_table() -> None:
    record = load_record(STARTER[0])
    first = len(record.tricks[0].plays)
    assert position_after(record, 0) == Position(1, 0)
    assert position_after(record, first) == Position(1, first)
    assert position_after(record, first + 1) == Position(2, 1)
    last = record.tricks[-1]
    assert position_after(record, total_plays(record)) == Position(len(record.tricks), len(last.plays))


@pytest.mark.parametrize("drill_id", [key for key, drill in load_drills(game="shengji").items()
                                      if drill.mode == "replay"])
def test_questions_depend_only_on_the_seed_and_the_checkpoint(drill_id) -> None:
    drill = load_drills()[drill_id]
    record = load_record(next(path for path in ALL_STARTER[1:] if load_record(path).rules == drill.rules))
    events = list(public_events(record))
    plan = plan_run(drill, record, 77)
    assert plan == plan_run(drill, record, 77) and plan.checkpoints
    for index, plays in enumerate(plan.checkpoints):
        asked = question_at(drill, record, plan.seat, plays, 77, index, events)
        again = question_at(drill, record, plan.seat, plays, 77, index, events)
        assert asked.question == again.question and asked.position == position_after(record, plays)
        assert asked.question.type in drill.questions or asked.question.type == "trumps_unseen"
        assert asked.question.grade(asked.question.answer)
