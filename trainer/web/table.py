"""The drill table: a deal as one seat sees it after some plays, and a per-app cache of parsed deals.

Deals never change once stored, so each app process parses a record and replays its public plays
once (`DealCache`, keyed by the row's key, record id and creation time, so a key reused after a
deletion cannot serve a stale deal) and every step of every run on that deal reads from memory.
"""
from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from flask import current_app
from sqlmodel import Session

from trainer.drills.runs import position_after, snapshot_after
from trainer.engine.cards import Card
from trainer.records import DealRecord, parse_record, plays_in_order
from trainer.tracking.tracker import PlayEvent, Snapshot, public_events
from trainer.web.display import CardView, SuitGroup, cards_view, combo_label, hand_groups, seat_label, trump_label
from trainer.web.models import Deal

DealKey = tuple[int, str, datetime]
"""A deal row's identity for the cache: (pk, record id, created)."""


@dataclass(frozen=True)
class DealData:
    """A stored deal, parsed and replayed once: the record, its public events, its plays in order."""

    pk: int
    record: DealRecord
    events: tuple[PlayEvent, ...]
    plays: tuple[tuple[int, int, tuple[Card, ...]], ...]
    """(trick number, seat, cards) for every play, in order."""

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

    @classmethod
    def of(cls, deal: Deal) -> DealData:
        """Parse and replay a stored deal (stored deals were validated on the way in)."""
        assert deal.pk is not None
        record = parse_record(deal.record)
        return cls(deal.pk, record, tuple(public_events(record)), tuple(plays_in_order(record)))


class DealCache:
    """The most recently used deals of one app process, parsed (thread-safe, bounded)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._items: OrderedDict[DealKey, DealData] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, session: Session, key: DealKey) -> DealData:
        """The deal with this key, parsed; loaded from the database on a miss."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        deal = session.get(Deal, key[0])
        if deal is None or deal.id != key[1]:
            raise LookupError(f"deal {key[0]} is gone")
        data = DealData.of(deal)
        with self._lock:
            self._items[key] = data
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return data


def deal_cache() -> DealCache:
    """The current app's deal cache."""
    return current_app.extensions["jipai_deal_cache"]


def deal_key(deal: Deal) -> DealKey:
    """A deal row's cache key."""
    assert deal.pk is not None
    return (deal.pk, deal.id, deal.created)


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One chair at the drill table: `place` 0 me (bottom), 1 下家 (right), 2 对家 (top), 3 上家 (left)."""

    seat: int
    place: int
    label: str
    cards_left: int
    play: list[CardView] | None
    leads: bool
    winning: bool
    banker: bool


@dataclass(frozen=True, slots=True)
class TableView:
    """The table from the viewer's seat after `plays` plays: the current trick only (earlier tricks
    are cleared, as in match play), every chair, and the viewer's hand sorted trumps first."""

    plays: int
    total: int
    trick: int
    tricks: int
    complete: bool
    """The trick on the table is finished (all four played)."""
    seats: list[TableSeat]
    hand: list[SuitGroup]
    attempt: list[CardView] | None
    """A failed throw (甩牌失败) on the table: the cards tried."""
    lead_kind: str | None
    trump: str
    level: str
    buried: list[CardView] | None
    """What the banker buried, when the viewer is the banker."""


PLACES = ("me", "right", "top", "left")


def table_view(data: DealData, viewer: int, plays: int) -> TableView:
    """The drill table after `plays` plays, seen from `viewer`."""
    record, ctx = data.record, data.record.ctx
    position = position_after(record, plays)
    trick = record.tricks[position.trick - 1] if record.tricks else None
    shown = position.plays
    on_table: dict[int, tuple[Card, ...]] = {}
    if trick is not None:
        for index, play in enumerate(trick.plays[:shown]):
            on_table[(trick.leader + index) % 4] = play
    winning = data.events[plays - 1].winning if shown and plays else None
    played_by = [0, 0, 0, 0]
    mine: Counter[Card] = Counter(record.playing_hands()[viewer])
    for _number, seat, cards in data.plays[:plays]:
        played_by[seat] += len(cards)
        if seat == viewer:
            mine.subtract(cards)
    start = [len(hand) for hand in record.playing_hands()]
    seats = []
    for place in range(4):
        seat = (viewer + place) % 4
        play = on_table.get(seat)
        seats.append(TableSeat(seat, place, seat_label(seat, record.banker, viewer), start[seat] - played_by[seat],
                               cards_view(play, ctx) if play is not None else None,
                               trick is not None and seat == trick.leader, seat == winning, seat == record.banker))
    attempt = trick.attempt if trick is not None and shown else None
    return TableView(
        plays, data.total, position.trick, len(record.tricks), trick is not None and shown == len(trick.plays) == 4,
        seats, hand_groups(mine.elements(), ctx), cards_view(attempt, ctx) if attempt is not None else None,
        combo_label(attempt or trick.plays[0], ctx) if trick is not None and shown else None,
        trump_label(ctx), str(record.data["level"]).upper(),
        cards_view(ctx.sort_hand(record.buried), ctx) if viewer == record.banker else None)


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
        seats = []
        for index, cards in enumerate(trick.plays[:shown]):
            seat = (trick.leader + index) % 4
            seats.append(TableSeat(seat, (seat - viewer) % 4, seat_label(seat, record.banker, viewer), 0,
                                   cards_view(cards, ctx), index == 0, seat == winner, seat == record.banker))
        points = sum(card.points for cards in trick.plays[:shown] for card in cards)
        tricks.append(PastTrick(number, seats, winner, points,
                                cards_view(trick.attempt, ctx) if trick.attempt is not None else None))
    return tricks
