"""The drill table as data for `templates/drills/_table.html`: a stretch of plays seen from one seat,
each thing on the table with the steps it is shown for; and a per-app cache of parsed deals.

Deals never change once stored, so each app process parses a record and replays its public plays
once (`DealCache`, keyed by the row's key, record id and creation time, so a key reused after a
deletion cannot serve a stale deal).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from flask import current_app
from sqlmodel import Session

from trainer.drills.runs import position_after, snapshot_after
from trainer.engine.cards import Card
from trainer.records import DealRecord, Position, parse_record, plays_in_order
from trainer.tracking.tracker import PlayEvent, Snapshot, public_events
from trainer.web.display import CardView, SuitGroup, cards_view, combo_label, hand_groups, seat_label, trump_label
from trainer.web.memo import Memo
from trainer.web.models import Deal

DealKey = tuple[int, str, datetime]
"""A deal row's identity for the cache: (pk, record id, created)."""


@dataclass(frozen=True)
class DealData:
    """A stored deal, parsed and replayed once: the record, its public events, its plays in order."""

    pk: int
    key: DealKey
    record: DealRecord
    events: tuple[PlayEvent, ...]
    plays: tuple[tuple[int, int, tuple[Card, ...]], ...]
    """(trick number, seat, cards) for every play, in order."""
    positions: tuple[Position, ...]
    """The position `T.K` after each number of plays (0 … total)."""

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

    def snapshot(self, seat: int, plays: int) -> Snapshot:
        """What `seat` knows after `plays` plays."""
        return snapshot_after(self.record, seat, plays, self.events)

    def hand(self, seat: int, plays: int) -> list[Card]:
        """`seat`'s cards after `plays` plays."""
        left = Counter(self.record.playing_hands()[seat])
        for _trick, who, cards in self.plays[:plays]:
            if who == seat:
                left.subtract(cards)
        return list(left.elements())

    @classmethod
    def of(cls, deal: Deal) -> DealData:
        """Parse and replay a stored deal (stored deals were validated on the way in)."""
        assert deal.pk is not None
        record = parse_record(deal.record)
        plays = tuple(plays_in_order(record))
        positions = tuple(position_after(record, count) for count in range(len(plays) + 1))
        return cls(deal.pk, deal_key(deal), record, tuple(public_events(record)), plays, positions)


class DealCache:
    """The most recently used deals of one app process, parsed (thread-safe, bounded)."""

    def __init__(self, size: int = 512) -> None:
        self._items: Memo[DealKey, DealData] = Memo(size)

    def get(self, session: Session | Callable[[], Session], key: DealKey) -> DealData:
        """The deal with this key, parsed; loaded from the database on a miss (`session` may be a
        function giving one, called only then)."""
        def load() -> DealData:
            deal = (session if isinstance(session, Session) else session()).get(Deal, key[0])
            if deal is None or deal.id != key[1]:
                raise LookupError(f"deal {key[0]} is gone")
            return DealData.of(deal)
        return self._items.get_or_make(key, load)


def deal_cache() -> DealCache:
    """The current app's deal cache."""
    return current_app.extensions["jipai_deal_cache"]


def deal_key(deal: Deal) -> DealKey:
    """A deal row's cache key."""
    assert deal.pk is not None
    return (deal.pk, deal.id, deal.created)


@dataclass(frozen=True, slots=True)
class Shown:
    """A value on the table from step `start` of a stretch until step `end` (None: to its end)."""

    start: int
    end: int | None
    value: Any


def spans(values: Sequence[Any]) -> list[Shown]:
    """Per-step values as the runs of equal ones, nothing (None or False) left out."""
    out: list[Shown] = []
    for step, value in enumerate(values):
        if step and value == values[step - 1] and type(value) is type(values[step - 1]):
            continue
        if out and out[-1].end is None:
            out[-1] = Shown(out[-1].start, step, out[-1].value)
        if value is not None and value is not False:
            out.append(Shown(step, None, value))
    return out


@dataclass(frozen=True, slots=True)
class Chair:
    """A chair at the table: `place` 0 me (bottom), 1 下家 (right), 2 对家 (top), 3 上家 (left)."""

    place: str
    label: str
    banker: bool
    left: list[Shown]
    """Cards in the hand."""
    play: list[Shown]
    """The cards laid in the trick on the table (CardViews)."""
    leads: list[Shown]
    wins: list[Shown]


@dataclass(frozen=True, slots=True)
class Stretch:
    """The table after `start` plays and every play up to `start + steps`: what each step shows."""

    start: int
    steps: int
    chairs: list[Chair]
    trick: list[Shown]
    """(trick number, lead kind, failed throw's cards or None)."""
    counter: list[Shown]
    last_trick: list[Shown]
    """The previous trick's plays: (seat label, cards, won it)."""
    hand: list[tuple[str, list[tuple[CardView, int | None]]]]
    """My hand by suit, trumps first: each card with the step it is played at (None: kept)."""
    tricks: int
    total: int
    level: str
    trump: str
    buried: list[CardView] | None


PLACES = ("me", "right", "across", "left")


def stretch(data: DealData, viewer: int, start: int, end: int) -> Stretch:
    """The table seen from `viewer` after `start` plays, with every play up to `end` to reveal."""
    record, ctx = data.record, data.record.ctx
    frames = range(start, end + 1)
    sizes = [[len(data.hand(seat, plays)) for seat in range(4)] for plays in frames]
    chairs = []
    for place in range(4):
        seat = (viewer + place) % 4
        on_table, leads, wins = [], [], []
        for plays in frames:
            position = data.positions[plays]
            first = plays - position.plays
            laid = [n for n in range(first, plays) if data.plays[n][1] == seat]
            on_table.append(tuple(cards_view(data.plays[laid[0]][2], ctx)) if laid else None)
            leads.append(bool(position.plays) and record.tricks[position.trick - 1].leader == seat)
            wins.append(bool(position.plays) and data.events[plays - 1].winning == seat)
        chairs.append(Chair(PLACES[place], seat_label(seat, record.banker, viewer), seat == record.banker,
                            spans([size[seat] for size in sizes]), spans(on_table), spans(leads), spans(wins)))
    labels = {}

    def trick_at(plays: int) -> tuple[int, str | None, tuple[CardView, ...] | None]:
        position = data.positions[plays]
        trick = record.tricks[position.trick - 1] if record.tricks else None
        if trick is None or not position.plays:
            return (position.trick, None, None)
        kind = labels.setdefault(position.trick, combo_label(trick.attempt or trick.plays[0], ctx))
        return (position.trick, kind, tuple(cards_view(trick.attempt, ctx)) if trick.attempt else None)

    def last_at(plays: int) -> tuple[tuple[str, tuple[CardView, ...], bool], ...] | None:
        number = data.positions[plays].trick - 1
        if number < 1:
            return None
        trick, begin = record.tricks[number - 1], data.trick_starts[number - 1]
        winner = data.events[begin + len(trick.plays) - 1].winning
        return tuple((seat_label(seat, record.banker, viewer), tuple(cards_view(cards, ctx)), seat == winner)
                     for _t, seat, cards in data.plays[begin:begin + len(trick.plays)])

    mine = Counter[Card]()
    gone: dict[Card, list[int]] = {}
    for step, (_trick, seat, cards) in enumerate(data.plays[start:end], start=1):
        if seat == viewer:
            for card in cards:
                gone.setdefault(card, []).append(step)
    hand = []
    for group in hand_groups(data.hand(viewer, start), ctx):
        if group.key != "trump" or group.cards:
            cards = []
            for view in group.cards:
                card = Card.parse(view.code)
                steps = gone.get(card, [])
                cards.append((view, steps[mine[card]] if mine[card] < len(steps) else None))
                mine[card] += 1
            hand.append((group.label, cards))
    return Stretch(start, end - start, chairs, spans([trick_at(p) for p in frames]),
                   spans([(p, data.total) for p in frames]), spans([last_at(p) for p in frames]), hand,
                   len(record.tricks), data.total, str(record.data["level"]).upper(), trump_label(ctx),
                   cards_view(ctx.sort_hand(record.buried), ctx) if viewer == record.banker else None)


def hand_view(data: DealData, viewer: int, plays: int) -> list[SuitGroup]:
    """`viewer`'s hand after `plays` plays, grouped by suit, trumps first."""
    return hand_groups(data.hand(viewer, plays), data.record.ctx)


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One seat's play in a trick of the review's history."""

    seat: int
    label: str
    play: list[CardView]
    winning: bool


@dataclass(frozen=True, slots=True)
class PastTrick:
    """One trick of the history on the review page: its plays from the leader, the winner, the points."""

    number: int
    plays: list[TableSeat]
    winner: int | None
    """The seat that won it; None while it is unfinished."""
    points: int
    attempt: list[CardView] | None


def history(data: DealData, viewer: int, plays: int) -> list[PastTrick]:
    """Every trick up to `plays` plays (the last one perhaps unfinished) with the seats named from
    `viewer`: the review page shows the whole history."""
    record, ctx = data.record, data.record.ctx
    tricks: list[PastTrick] = []
    for number, trick in enumerate(record.tricks, start=1):
        start = data.trick_starts[number - 1]
        if start >= plays:
            break
        shown = min(len(trick.plays), plays - start)
        finished = shown == len(trick.plays) == 4
        winner = data.events[start + shown - 1].winning if finished else None
        seats = [TableSeat((trick.leader + index) % 4, seat_label((trick.leader + index) % 4, record.banker, viewer),
                           cards_view(cards, ctx), (trick.leader + index) % 4 == winner)
                 for index, cards in enumerate(trick.plays[:shown])]
        points = sum(card.points for cards in trick.plays[:shown] for card in cards)
        tricks.append(PastTrick(number, seats, winner, points,
                                cards_view(trick.attempt, ctx) if trick.attempt is not None else None))
    return tricks
