"""掼蛋 tracking, tier 1 (guandan.md §7): the per-seat observer, kept action by action, and its recount.

A `GuandanTracker` starts from its seat's playing hand and the public facts before the first lead (the
进贡/还贡 cards, the 抗贡 jokers shown) and then receives `GuandanEvent`s: the public actions, each with the
public view of the table after it (round, top, next actor, places) as the referee derives it. It never
sees another hand, so it cannot peek. `recount` computes the same snapshot from the record alone.

>>> from trainer.guandan.bots import generate_records
>>> from trainer.guandan.rules import GuandanRules
>>> from trainer.guandan.records import Position, parse_guandan_record
>>> record = parse_guandan_record(generate_records(GuandanRules(), seed=5, count=1)[0])
>>> at = Position.parse("#30", record)
>>> track(record, 2, at) == recount(record, 2, at)
True
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from trainer.engine.cards import SMALL_JOKER, Card, Suit
from trainer.guandan.level import ACE, Level, rank_text
from trainer.guandan.plays import Reading
from trainer.guandan.records import Exchange, GuandanRecord, Position, recorded_actions, state_at
from trainer.guandan.state import HandState
from trainer.guandan.tribute import tribute_plan

RELATIONS = ("me", "下家", "对家", "上家")
"""Seats seen from a viewer at offsets 0…3 in play order."""
FACES = [Card.from_index(index) for index in range(54)]


class PublicView(NamedTuple):
    """What every seat sees of the table at a moment: the round, its top, the next actor, the places."""

    round: int
    leader: int
    actions: int
    top_seat: int | None
    top_cards: tuple[Card, ...]
    top_reading: Reading | None
    next: int | None
    places: tuple[int, ...]


def public_view(state: HandState) -> PublicView:
    """The public view of a hand in play."""
    top = state.top
    return PublicView(state.round_no, state.leader, len(state.steps), state.owner,
                      top.cards if top is not None else (), top.reading if top is not None else None,
                      state.turn, state.places)


class GuandanEvent(NamedTuple):
    """One public action: its position label `R.K`, the seat, its cards (empty for a pass), its reading,
    and the public view after it."""

    label: str
    seat: int
    cards: tuple[Card, ...]
    reading: Reading | None
    view: PublicView


def public_events(record: GuandanRecord) -> Iterator[GuandanEvent]:
    """The public actions of a (valid) record, in order."""
    state = HandState.start(record.rules, record.level, record.playing_hands(), record.leader, keep_undo=False)
    for number, index, action in recorded_actions(record):
        reading = state.act(action.seat, action.action, action.declared)
        cards = () if action.action == "pass" else tuple(action.action)
        yield GuandanEvent(f"{number}.{index}", action.seat, cards, reading, public_view(state))


def _reading_json(reading: Reading | None) -> dict[str, Any] | None:
    return None if reading is None else reading.to_json()


class GuandanTracker:
    """The tier-1 facts one seat may know, updated with each public event (incremental)."""

    def __init__(self, seat: int, level: Level, hand: Sequence[Card], exchanges: Sequence[Exchange],
                 resist: Sequence[int], leader: int) -> None:
        """Start from `seat`'s playing hand and the public moves before the first lead."""
        self.seat, self.level = seat, level
        self.mine = [0] * 54
        for card in hand:
            self.mine[card.index] += 1
        self.played = [0] * 54
        self.sizes = [27, 27, 27, 27]
        self.plays: list[list[list[Any]]] = [[], [], [], []]
        self.bomb_plays: Counter[int] = Counter()
        self.tianzha_played = False
        self.exchanges = [exchange.to_json() for exchange in exchanges]
        self.resist = sorted(resist)
        self.view = PublicView(1, leader, 0, None, (), None, leader, ())

    def observe(self, event: GuandanEvent) -> None:
        """Take in one public action."""
        if event.cards:
            for card in event.cards:
                self.played[card.index] += 1
                if event.seat == self.seat:
                    self.mine[card.index] -= 1
            self.sizes[event.seat] -= len(event.cards)
            reading = event.reading
            assert reading is not None
            self.plays[event.seat].append([event.label, [str(c) for c in event.cards], reading.to_json()])
            if reading.type == "bomb":
                self.bomb_plays[reading.rank] += 1  # type: ignore[index]
            self.tianzha_played |= reading.type == "joker_bomb"
        self.view = event.view

    def snapshot(self) -> dict[str, Any]:
        """The §7 fields as JSON (keys fixed; ranks in level order high first, suits S H C D)."""
        return facts(self.seat, self.level, self.played, self.mine, self.sizes, self.plays, self.bomb_plays,
                     self.tianzha_played, self.view, self.exchanges, self.resist)


class _Layout(NamedTuple):
    """What a level fixes for the snapshot: ranks high first with their names and face indices, and per
    suit the faces of natural positions 1 (the ace) … 14, None for the wild's slot (never open)."""

    order: tuple[tuple[int, str, tuple[int, ...]], ...]
    slots: tuple[tuple[str, tuple[int | None, ...]], ...]


_LAYOUTS: dict[int, _Layout] = {}


def _layout(level: Level) -> _Layout:
    found = _LAYOUTS.get(level.rank)
    if found is None:
        order = tuple((rank, rank_text(rank), tuple(c.index for c in FACES if c.rank == rank))
                      for rank in level.ranks_high_first())
        slots = tuple((suit.letter, tuple(None if level.is_wild(card) else card.index for card in
                                          (Card(ACE if p == 1 else p, suit) for p in range(1, ACE + 1))))
                      for suit in Suit)
        found = _LAYOUTS[level.rank] = _Layout(order, slots)
    return found


def facts(seat: int, level: Level, played: Sequence[int], mine: Sequence[int], sizes: Sequence[int],
          plays: Sequence[Sequence[list[Any]]], bomb_plays: Counter[int], tianzha_played: bool, view: PublicView,
          exchanges: list[dict[str, Any]], resist: list[int]) -> dict[str, Any]:
    """The §7 snapshot from the counts per face (played, mine) and the public record of plays."""
    layout = _layout(level)
    unseen = [2 - p - m for p, m in zip(played, mine)]
    wild = level.wild.index
    unseen_wilds = unseen[wild]
    ranks, higher, bombs = {}, {}, {}
    above = 0
    for rank, name, faces in layout.order:
        count = 2 if rank >= SMALL_JOKER else 8
        gone = sum([played[i] for i in faces])
        held = sum([mine[i] for i in faces])
        out = count - gone - held
        ranks[name] = {"total": count, "played": gone, "mine": held, "unseen": out, "in_hands": count - gone}
        higher[name] = above
        above += out
        if rank < SMALL_JOKER:
            n = out + (unseen_wilds if rank != level.rank else 0)
            bombs[name] = {"played": bomb_plays[rank], "max_unseen": n if n >= 4 else 0, "max_count": n // 4}
    flushes: dict[str, list[int]] = {}
    for letter, slots in layout.slots:
        closed = [1 if index is None or not unseen[index] else 0 for index in slots]
        window = sum(closed[:5])
        tops = [5] if window <= unseen_wilds else []
        for top in range(6, ACE + 1):  # slide the window one position up: top-4 … top
            window += closed[top - 1] - closed[top - 6]
            if window <= unseen_wilds:
                tops.append(top)
        flushes[letter] = tops
    best = max((tops[-1] for tops in flushes.values() if tops), default=None)
    largest = None if best is None else {"top": rank_text(best), "suits": [s for s, tops in flushes.items()
                                                                           if tops and tops[-1] == best]}
    seats = []
    for q in range(4):
        seat_plays = list(plays[q])  # the entries are never changed once made
        seats.append({"seat": q, "relation": RELATIONS[(q - seat) % 4], "team": q % 2, "plays": seat_plays,
                      "bombs": [play for play in seat_plays if play[2]["type"] in _BOMBS],
                      "out": view.places.index(q) + 1 if q in view.places else None})
    top = None if view.top_seat is None else {"seat": view.top_seat, "cards": [str(c) for c in view.top_cards],
                                              "reading": _reading_json(view.top_reading)}
    return {
        "seat": seat, "level": str(level), "wild": str(level.wild), "ranks": ranks,
        "wilds": {"total": 2, "played": played[wild], "mine": mine[wild], "unseen": unseen_wilds},
        "higher_unseen": higher, "bombs": bombs,
        "tianzha": {"possible": ranks["SJ"]["unseen"] + ranks["BJ"]["unseen"] == 4, "played": tianzha_played},
        "straight_flushes": {s: [rank_text(t) for t in tops] for s, tops in flushes.items()},
        "largest_sf": largest, "hand_sizes": list(sizes), "seats": seats,
        "round": {"number": view.round, "leader": view.leader, "actions": view.actions, "top": top,
                  "next": view.next},
        "exchanges": exchanges, "resist": resist, "places_so_far": list(view.places),
    }


_BOMBS = ("bomb", "straight_flush", "joker_bomb")


def tracker_for(record: GuandanRecord, seat: int) -> GuandanTracker:
    """A tracker for `seat` at the first lead of a (valid) record."""
    plan = tribute_plan(record.previous, record.hands, record.level)
    return GuandanTracker(seat, record.level, record.playing_hands()[seat], record.exchanges, plan.resist,
                          record.leader)


def track(record: GuandanRecord, seat: int, position: Position) -> dict[str, Any]:
    """The tier-1 snapshot for `seat` at `position`, kept incrementally."""
    tracker = tracker_for(record, seat)
    for number, event in enumerate(public_events(record)):
        if number >= position.actions:
            break
        tracker.observe(event)
    return tracker.snapshot()


def recount(record: GuandanRecord, seat: int, position: Position) -> dict[str, Any]:
    """The same snapshot computed from scratch: every play before `position` counted anew."""
    state = state_at(record, position)
    played, mine = [0] * 54, [0] * 54
    for card in record.playing_hands()[seat]:
        mine[card.index] += 1
    sizes = [27] * 4
    bomb_plays: Counter[int] = Counter()
    for number, step in state.history:
        if step.action == "pass":
            continue
        for card in step.action:
            played[card.index] += 1
            if step.seat == seat:
                mine[card.index] -= 1
        sizes[step.seat] -= len(step.action)
        reading = step.reading
        assert reading is not None
        if reading.type == "bomb":
            bomb_plays[reading.rank] += 1  # type: ignore[index]
    labels = [f"{number}.{index}" for number, index, _ in recorded_actions(record)[:position.actions]]
    listed: list[list[list[Any]]] = [[], [], [], []]
    for label, (_, step) in zip(labels, state.history):
        if step.action != "pass":
            listed[step.seat].append([label, [str(c) for c in step.action], step.reading.to_json()])  # type: ignore
    tianzha = any(step.reading is not None and step.reading.type == "joker_bomb" for _, step in state.history)
    plan = tribute_plan(record.previous, record.hands, record.level)
    return facts(seat, record.level, played, mine, sizes, listed, bomb_plays, tianzha, public_view(state),
                 [e.to_json() for e in record.exchanges], sorted(plan.resist))
