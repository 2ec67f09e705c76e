"""Stored deals parsed once per app process: each process parses a record and replays its public plays
once (`DealCache`, keyed by the row's key, record id and creation time, so a key reused after a
deletion cannot serve a stale deal); the drill table and the review read them from memory.

A deal gives the run loop (`trainer.web.drills`) what it needs of a run on it: its plan, the question at a
checkpoint, the table to reveal and the explanation of an answer. A 够级 deal (`trainer.web.gouji.GoujiDealData`)
gives the same, so the run loop never asks which game it runs.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from flask import current_app
from sqlmodel import Session

from trainer.drills.definitions import Drill
from trainer.drills.explain import Explanation
from trainer.drills.modes import plan_run, run_questions
from trainer.drills.questions import Question
from trainer.drills.runs import Asked, RunPlan, position_after, snapshot_after
from trainer.engine.cards import Card
from trainer.records import DealRecord, Position, parse_record, plays_in_order
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import PlayEvent, Snapshot, public_events
from trainer.web.gouji import GoujiDealData
from trainer.web.memo import Memo
from trainer.web.models import Deal
from trainer.web.quiz import explanation
from trainer.web.table import Stretch, TrickPlays, shown_trick, stretch

DealKey = tuple[int, str, datetime]
"""A deal row's identity for the cache: (pk, record id, created)."""


@dataclass(frozen=True)
class DealData:
    """A stored deal, parsed and replayed once: the record, its public events, its plays in order."""

    record: DealRecord
    events: tuple[PlayEvent, ...]
    plays: tuple[tuple[int, int, tuple[Card, ...]], ...]
    """(trick number, seat, cards) for every play, in order."""
    positions: tuple[Position, ...]
    """The position `T.K` after each number of plays (0 … total)."""
    openings: dict[int, dict[str, Any]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def total(self) -> int:
        """How many plays the deal has."""
        return len(self.plays)

    @cached_property
    def trick_starts(self) -> tuple[int, ...]:
        """Plays made before each trick (index 0 is trick 1)."""
        starts, made = [], 0
        for trick in self.record.tricks:
            starts.append(made)
            made += len(trick.plays)
        return tuple(starts)

    @cached_property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The four playing hands at the first lead."""
        return tuple(tuple(hand) for hand in self.record.playing_hands())

    def opening(self, seat: int) -> dict[str, Any]:
        """What `seat` knows before the first play (`facts_json`; every question asked is compared
        with it), computed once per deal and seat."""
        if seat not in self.openings:
            self.openings[seat] = facts_json(self.snapshot(seat, 0), str(self.positions[0]))
        return self.openings[seat]

    def snapshot(self, seat: int, plays: int) -> Snapshot:
        """What `seat` knows after `plays` plays."""
        return snapshot_after(self.record, seat, plays, self.events)

    def hand(self, seat: int, plays: int) -> list[Card]:
        """`seat`'s cards after `plays` plays."""
        left = Counter(self.hands[seat])
        for _trick, who, cards in self.plays[:plays]:
            if who == seat:
                left.subtract(cards)
        return list(left.elements())

    def plan(self, drill: Drill, seed: int) -> RunPlan:
        """The viewer seat and the checkpoints of a run of `drill` on this deal (`modes.plan_run`: any mode)."""
        return plan_run(drill, self.record, seed, self.events)

    def question(self, drill: Drill, seat: int, checkpoints: Sequence[int], seed: int, index: int) -> Asked:
        """The question at checkpoint `index` of a run from `seat` stopping at `checkpoints` (`modes.run_questions`:
        a replay never asks one the run asked before)."""
        return run_questions(drill, self.record, seat, checkpoints, seed, self.events, index + 1)[index]

    def table(self, seat: int, start: int, end: int, drill: Drill) -> Stretch:
        """The drill table from `seat` after `start` plays, with the plays up to `end` to reveal."""
        return stretch(self, seat, start, end)

    def shown_trick(self, seat: int, number: int, plays: int) -> TrickPlays | None:
        """Trick `number` as `seat` saw it within the first `plays` plays (`trainer.web.table.shown_trick`)."""
        return shown_trick(self, seat, number, plays)

    def explanation(self, question: Question, seat: int, plays: int, language: str) -> Explanation:
        """Why the answer to `question`, asked after `plays` plays from `seat`, is right (`quiz.explanation`;
        it reads the language from the request)."""
        return explanation(question, self.snapshot(seat, plays), self.events[:plays])

    @classmethod
    def of(cls, deal: Deal) -> DealData:
        """Parse and replay a stored deal (stored deals were validated on the way in)."""
        record = parse_record(deal.record)
        plays = tuple(plays_in_order(record))
        positions = tuple(position_after(record, count) for count in range(len(plays) + 1))
        return cls(record, tuple(public_events(record)), plays, positions)


class DealCache:
    """The most recently used deals of one app process, parsed (thread-safe, bounded)."""

    def __init__(self, size: int = 512) -> None:
        self._items: Memo[DealKey, Any] = Memo(size)

    def get(self, session: Session | Callable[[], Session], key: DealKey) -> Any:
        """The deal with this key, parsed (a `DealData`, or a `GoujiDealData` for a 够级 deal); loaded
        from the database on a miss (`session` may be a function giving one, called only then)."""
        def load() -> Any:
            deal = (session if isinstance(session, Session) else session()).get(Deal, key[0])
            if deal is None or deal.id != key[1]:
                raise LookupError(f"deal {key[0]} is gone")
            return GoujiDealData.of(deal) if deal.game == "gouji" else DealData.of(deal)
        return self._items.get_or_make(key, load)


def deal_cache() -> DealCache:
    """The current app's deal cache."""
    return current_app.extensions["jipai_deal_cache"]


def deal_key(deal: Deal) -> DealKey:
    """A deal row's cache key."""
    assert deal.pk is not None
    return (deal.pk, deal.id, deal.created)


def plays_at(data: DealData | GoujiDealData, position: str) -> int:
    """The play count of a stored position `T.K` (`R.K` for a 够级 deal: actions in rounds)."""
    trick, _dot, plays = position.partition(".")
    return data.trick_starts[int(trick) - 1] + int(plays)
