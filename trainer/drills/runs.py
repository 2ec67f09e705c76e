"""One drill run as pure functions of the drill, the record and a seed: the plan (viewer seat and
checkpoints), the position after a number of plays, the question asked at each checkpoint, and the
run's result per question type (`summarise`).

Nothing here touches the web or the database, so the app, its tests and the benchmark compute the
same questions: the question at checkpoint `i` depends only on the run's seed and `i`.

>>> from trainer.records import load_record
>>> record = load_record(DRILLS_DIR / "deals" / "deal-2026-00000.json")
>>> str(position_after(record, 0)), str(position_after(record, 4)), str(position_after(record, 5))
('1.0', '1.4', '2.1')
"""
from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from trainer.drills.along import snapshots_along
from trainer.drills.definitions import DRILLS_DIR, Drill
from trainer.drills.questions import Question, QuestionKey, Table, make_question, question_key
from trainer.engine.cards import Card
from trainer.engine.trump import SUIT_NAMES
from trainer.records import DealRecord, Position
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import PlayEvent, Snapshot, public_events, tracker_for

__all__ = [
    "DRILLS_DIR",
    "Asked",
    "RunPlan",
    "TypeResult",
    "asked_again",
    "informative_at",
    "plan_run",
    "position_after",
    "question_at",
    "run_questions",
    "snapshot_after",
    "snapshots_after",
    "summarise",
    "table_at",
    "total_plays",
]


@dataclass(frozen=True, slots=True)
class RunPlan:
    """Where a run is watched from and where it stops (play counts, ascending)."""

    seat: int
    checkpoints: list[int]


def plan_run(drill: Drill, record: DealRecord, seed: int, events: Sequence[PlayEvent] | None = None) -> RunPlan:
    """The viewer seat (`Drill.choose_viewer`) and the checkpoints (`Drill.checkpoints_for`) for `seed`,
    without those where none of the drill's question types is informative (`informative_at`). `events` are
    the record's public events, when the caller has them."""
    rng = random.Random(seed)
    seat = drill.choose_viewer(record, rng)
    events = list(public_events(record)) if events is None else events
    candidates = drill.checkpoints_for(record, rng)
    first, *snaps = snapshots_after(record, seat, [0, *candidates], events)
    opening = facts_json(first, str(position_after(record, 0)))
    return RunPlan(seat, [plays for plays, snap in zip(candidates, snaps, strict=True)
                          if informative_at(drill, record, snap, plays, opening)])


def informative_at(drill: Drill, record: DealRecord, snap: Snapshot, plays: int, opening: dict[str, Any]) -> bool:
    """True when some question type of the drill has an informative question after `plays` plays, where
    the viewer knows `snap`."""
    facts = facts_json(snap, str(position_after(record, plays)))
    table = table_at(record, plays)
    return any(make_question(kind, facts, snap, random.Random(0), opening, table) for kind in drill.questions)


def table_at(record: DealRecord, plays: int) -> Table:
    """What the table shows after `plays` plays (`questions.Table`): the plays of the trick on it and of the
    trick before it, and the voids they show: (seat, suit) for each seat that failed to follow the led suit."""
    position = position_after(record, plays)
    ctx = record.ctx
    voids = set()
    laid: list[tuple[tuple[int, Card], ...]] = []
    for number, count in ((position.trick, position.plays), (position.trick - 1, 4)):
        if number < 1 or not record.tricks:
            laid.append(())
            continue
        trick = record.tricks[number - 1]
        led = ctx.suit_of[trick.plays[0][0].index]
        laid.append(tuple(((trick.leader + k) % 4, card) for k, play in enumerate(trick.plays[:count]) for card in play))
        for k, play in enumerate(trick.plays[1:count], start=1):
            if any(ctx.suit_of[card.index] != led for card in play):
                voids.add(((trick.leader + k) % 4, SUIT_NAMES[led]))
    return Table(laid[0], laid[1], frozenset(voids))


def total_plays(record: DealRecord) -> int:
    """How many plays the record has."""
    return sum(len(trick.plays) for trick in record.tricks)


def position_after(record: DealRecord, plays: int) -> Position:
    """The position `T.K` after `plays` plays; a finished trick stays on the table (`T.4`) until the
    next lead, and the last play of the deal is `T.K` of the last trick, never `end`."""
    if plays <= 0 or not record.tricks:
        return Position(1, 0)
    for number, trick in enumerate(record.tricks, start=1):
        if plays <= len(trick.plays):
            return Position(number, plays)
        plays -= len(trick.plays)
    last = record.tricks[-1]
    return Position(len(record.tricks), len(last.plays))


def snapshot_after(record: DealRecord, seat: int, plays: int, events: Sequence[PlayEvent]) -> Snapshot:
    """What `seat` knows after `plays` plays, from the record's public events (computed once per
    deal by the caller); the same as `track(record, seat, position_after(record, plays))`."""
    tracker = tracker_for(record, seat)
    for event in events[:plays]:
        tracker.observe(event)
    return tracker.snapshot(position_after(record, plays))


def snapshots_after(record: DealRecord, seat: int, counts: Sequence[int], events: Sequence[PlayEvent]
                    ) -> list[Snapshot]:
    """What `seat` knows after each of `counts` plays (ascending), from one replay: `snapshot_after` of each."""
    tracker = tracker_for(record, seat)
    return snapshots_along(tracker, events, counts, lambda plays: tracker.snapshot(position_after(record, plays)))


@dataclass(frozen=True, slots=True)
class Asked:
    """A checkpoint's question with what it was computed from."""

    question: Question
    snapshot: Snapshot
    facts: dict[str, Any]
    position: Position


FALLBACK_TYPES = ("trumps_unseen", "suit_unseen", "points_unplayed", "trumps_played", "suit_played")
"""The counts every 升级 deal can ask, tried (informative and not asked before in the run) when none of a
drill's own types has a question at a checkpoint."""


def question_at(drill: Drill, record: DealRecord, seat: int, plays: int, seed: int, index: int,
                events: Sequence[PlayEvent], snap: Snapshot | None = None,
                opening: dict[str, Any] | None = None, asked: Collection[QuestionKey] = ()) -> Asked:
    """The question at checkpoint `index` (after `plays` plays): a type drawn by the drill's weights
    from a generator seeded by (seed, index); when that type has no informative question here (one
    whose answer is not the opening's, `questions.informative`, the table does not show, and that is not
    one of the run's questions `asked` before, `questions.question_key`), the drill's other types by weight
    (heaviest first); when none has, the first of `FALLBACK_TYPES` that has, else `trumps_unseen` as it is. `snap` is what `seat` knows then, when
    the caller has it (`snapshot_after`); `opening` what it knew before the first play (`facts_json`),
    when the caller has it."""
    position = position_after(record, plays)
    if snap is None:
        snap = snapshot_after(record, seat, plays, events)
    facts = facts_json(snap, str(position))
    if opening is None:
        opening = facts_json(snapshot_after(record, seat, 0, events), str(position_after(record, 0)))
    rng = random.Random(f"{seed}:{index}")
    picked = drill.pick_type(rng)
    others = sorted((kind for kind in drill.questions if kind != picked), key=lambda k: (-drill.questions[k], k))
    table = table_at(record, plays)
    for kind in [picked, *others]:
        question = make_question(kind, facts, snap, rng, opening, table, asked)
        if question is not None:
            return Asked(question, snap, facts, position)
    for kind in FALLBACK_TYPES:
        question = make_question(kind, facts, snap, rng, opening, table, asked)
        if question is not None:
            return Asked(question, snap, facts, position)
    fallback = make_question("trumps_unseen", facts, snap, rng)
    assert fallback is not None, "trumps_unseen always applies"
    return Asked(fallback, snap, facts, position)


def run_questions(drill: Drill, record: DealRecord, seat: int, checkpoints: Sequence[int], seed: int,
                  events: Sequence[PlayEvent], count: int | None = None) -> list[Asked]:
    """The questions of a run at its first `count` checkpoints (all by default), in order: each the
    `question_at` of its checkpoint, never one asked before in the run. The web run loop asks the last of
    these at a checkpoint; `trainer drill sample` prints them all."""
    chosen = list(checkpoints[:count] if count is not None else checkpoints)
    first, *snaps = snapshots_after(record, seat, [0, *chosen], events)
    opening = facts_json(first, str(position_after(record, 0)))
    found: list[Asked] = []
    for index, (plays, snap) in enumerate(zip(chosen, snaps, strict=True)):
        found.append(question_at(drill, record, seat, plays, seed, index, events, snap, opening,
                                 {question_key(a.question) for a in found}))
    return found


def asked_again(question: Question, record: DealRecord, seat: int, plays: int, events: Sequence[PlayEvent]) -> Asked:
    """A question fixed in advance (a daily item's, a mistake's) asked after `plays` plays from `seat`,
    with what `seat` knows then."""
    position = position_after(record, plays)
    snap = snapshot_after(record, seat, plays, events)
    return Asked(question, snap, facts_json(snap, str(position)), position)


class Answer(Protocol):
    """What a run's summary reads of an answer (an `Attempt` of the web app)."""

    question_type: str
    correct: bool
    ms: int


@dataclass(frozen=True, slots=True)
class TypeResult:
    """How a run went on one question type (`kind`; "all" for the whole run): answers, right ones, time."""

    kind: str
    asked: int
    right: int
    ms: int

    @property
    def accuracy(self) -> float:
        """Right answers as a share of those asked."""
        return self.right / self.asked if self.asked else 0.0

    @property
    def mean_seconds(self) -> float:
        """Mean answer time."""
        return self.ms / self.asked / 1000 if self.asked else 0.0


def summarise(answers: Sequence[Answer]) -> tuple[list[TypeResult], TypeResult]:
    """Per question type (in the order first asked) and in all: asked, right, time.

    >>> from types import SimpleNamespace as A
    >>> per_type, total = summarise([A(question_type="voids", correct=True, ms=2000),
    ...                              A(question_type="trumps_unseen", correct=False, ms=4000),
    ...                              A(question_type="voids", correct=False, ms=3000)])
    >>> [(t.kind, t.right, t.asked) for t in per_type], total.accuracy, total.mean_seconds
    ([('voids', 1, 2), ('trumps_unseen', 0, 1)], 0.3333333333333333, 3.0)
    """
    kinds: dict[str, list[Answer]] = {}
    for answer in answers:
        kinds.setdefault(answer.question_type, []).append(answer)

    def result(kind: str, items: Sequence[Answer]) -> TypeResult:
        return TypeResult(kind, len(items), sum(a.correct for a in items), sum(a.ms for a in items))

    return [result(kind, items) for kind, items in kinds.items()], result("all", answers)
