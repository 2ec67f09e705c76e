"""够级 tracking, tier 1 (gouji.md §6): the per-seat observer, kept play by play, and its from-scratch recount.

A `GoujiTracker` starts from its seat's playing hand and the public facts before the first lead (买3
moves, natural openings) and then receives `GoujiEvent`s: the public actions, each with the public view
of the table after it (`PublicView`: round, top, mode, who passed, who acts next, places, burn runs,
openings) as the referee derives it. It never sees another hand, so it cannot peek. Ranks are counted,
not suits (suits never matter in play). `recount` computes the same snapshot from the record alone.

>>> import random
>>> from trainer.gouji.randomplay import random_record
>>> from trainer.gouji.records import GoujiPosition, parse_gouji_record
>>> record = parse_gouji_record(random_record(random.Random(5)))
>>> at = GoujiPosition.parse("#40", record)
>>> track(record, 2, at) == recount(record, 2, at)
True
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from trainer.engine.cards import Card
from trainer.gouji.plays import BIG, SMALL, THREE, THRESHOLDS, VALUE_OF, Play, analyse
from trainer.gouji.records import GoujiPosition, GoujiRecord, RecordedExchange, state_at
from trainer.gouji.rules import GoujiRules
from trainer.gouji.state import HandState, Out

GOUJI_RANKS = tuple(sorted(THRESHOLDS, reverse=True))
"""The ranks with 够级 sets, high to low: A K Q J 10."""


class PublicView(NamedTuple):
    """What every seat sees of the table at a moment: the round, its top and mode, passes, the next
    actor, and the seats' openings, burn runs, outs and places."""

    round: int
    leader: int
    actions: int
    top_seat: int | None
    top_cards: tuple[Card, ...]
    top_gouji: bool
    mode: str
    passed: int
    """A bit per seat that passed in this round."""
    next: int | None
    opened: int
    """A bit per seat that has opened (开点)."""
    runs: tuple[bool, ...]
    out: tuple[Out | None, ...]
    places: tuple[int | None, ...]


def public_view(state: HandState) -> PublicView:
    """The public view of a hand in play."""
    top = state.top
    return PublicView(state.round_no, state.leader, state.round_actions, state.owner,
                      top.cards if top is not None else (), bool(top is not None and top.gouji), state.turn.mode,
                      state.passed, state.turn.actor, state.opened, state.runs, state.out, state.places)


class GoujiEvent(NamedTuple):
    """One public action: round and index in it (from 1), seat, the cards played (empty for a pass or a
    yield), the play (None for a pass or yield) and the public view after it."""

    round: int
    within: int
    seat: int
    cards: tuple[Card, ...]
    play: Play | None
    view: PublicView


def start_state(record: GoujiRecord) -> HandState:
    """The hand at the first lead, replayed without undo information."""
    state = HandState.start(record.rules, record.playing_hands(), record.leader)
    state.keep_undo = False
    return state


def public_events(record: GoujiRecord) -> Iterator[GoujiEvent]:
    """The public actions of a (validated) record, in order, each with the view after it."""
    state = start_state(record)
    rules = record.rules
    for number, rnd in enumerate(record.rounds, start=1):
        for within, (seat, action) in enumerate(rnd.actions, start=1):
            state.act(seat, action)
            if isinstance(action, str):
                yield GoujiEvent(number, within, seat, (), None, public_view(state))
            else:
                cards = tuple(action)
                play = analyse(cards, rules)
                assert isinstance(play, Play)
                yield GoujiEvent(number, within, seat, cards, play, public_view(state))


class PlayView(NamedTuple):
    """A play seen by all: its round and index (`R.K`), seat, cards, and whether it was 够级 / original."""

    round: int
    within: int
    seat: int
    cards: tuple[Card, ...]
    base: int | None
    gouji: bool
    original: bool


class GoujiSnapshot(NamedTuple):
    """Everything the viewer knows at one position, as counts by value (3…17); `trainer.gouji.facts`
    reads it."""

    seat: int
    rules: GoujiRules
    mine: tuple[int, ...]
    unseen: tuple[int, ...]
    played: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    shown: tuple[tuple[int, ...], ...]
    """Per seat, the counts by value of the cards it played."""
    plays: tuple[PlayView, ...]
    sets_played: tuple[int, ...]
    """够级 plays so far by base value (index = value)."""
    original_played: tuple[int, ...]
    exchanges: tuple[RecordedExchange, ...]
    natural: int
    """A bit per seat that opened from the start (natural opening)."""
    view: PublicView


def _value_counts(cards: Sequence[Card]) -> list[int]:
    counts = [0] * (BIG + 1)
    for card in cards:
        counts[VALUE_OF[card.index]] += 1
    return counts


def totals(rules: GoujiRules) -> tuple[int, ...]:
    """Cards of each value in the decks (index = value): 4D for 3…2, D for each joker."""
    return tuple(0 if value < THREE else rules.decks if value >= SMALL else 4 * rules.decks
                 for value in range(BIG + 1))


class GoujiTracker:
    """The tier-1 observer of one seat: counts kept up to date action by action."""

    def __init__(self, seat: int, rules: GoujiRules, hand: Sequence[Card], exchanges: Sequence[RecordedExchange],
                 natural: int, view: PublicView) -> None:
        self.seat = seat
        self.rules = rules
        self.mine = _value_counts(hand)
        total = totals(rules)
        self.unseen = [total[v] - self.mine[v] for v in range(BIG + 1)]
        self.played = [0] * (BIG + 1)
        self.hand_sizes = [rules.hand_size] * rules.players
        self.hand_sizes[seat] = len(hand)
        self.shown = [[0] * (BIG + 1) for _ in range(rules.players)]
        self.plays: list[PlayView] = []
        self.sets_played = [0] * (BIG + 1)
        self.original_played = [0] * (BIG + 1)
        self.exchanges = tuple(exchanges)
        self.natural = natural
        self.view = view
        for exchange in exchanges:  # public moves: sizes follow them (a paid card goes back the other way)
            if exchange.paid is None:
                self.hand_sizes[exchange.seller] -= 1
                self.hand_sizes[exchange.buyer] += 1
        self.hand_sizes[seat] = len(hand)

    def observe(self, event: GoujiEvent) -> None:
        """Take in one public action."""
        self.view = event.view
        play = event.play
        if play is None:
            return
        seat = event.seat
        counts = self.mine if seat == self.seat else self.unseen
        played, shown = self.played, self.shown[seat]
        for card in event.cards:
            value = VALUE_OF[card.index]
            played[value] += 1
            counts[value] -= 1
            shown[value] += 1
        self.hand_sizes[seat] -= len(event.cards)
        base = play.base
        if play.gouji and base is not None:
            self.sets_played[base] += 1
            if play.original:
                self.original_played[base] += 1
        self.plays.append(PlayView(event.round, event.within, seat, event.cards, base, play.gouji, play.original))

    def snapshot(self) -> GoujiSnapshot:
        """What the seat knows now."""
        return GoujiSnapshot(self.seat, self.rules, tuple(self.mine), tuple(self.unseen), tuple(self.played),
                             tuple(self.hand_sizes), tuple(map(tuple, self.shown)), tuple(self.plays),
                             tuple(self.sets_played), tuple(self.original_played), self.exchanges, self.natural,
                             self.view)


def tracker_for(record: GoujiRecord, seat: int, start: HandState | None = None) -> GoujiTracker:
    """A tracker for `seat` holding only what that seat may see: its playing hand, the public 买3 moves
    and the public view before the first lead (`start`, the hand at the first lead, saves a replay)."""
    state = start if start is not None else start_state(record)
    return GoujiTracker(seat, record.rules, record.playing_hands()[seat], record.exchanges, state.natural,
                        public_view(state))


def track(record: GoujiRecord, seat: int, position: GoujiPosition) -> GoujiSnapshot:
    """The viewer's knowledge at `position` of a validated record, computed incrementally."""
    tracker = tracker_for(record, seat)
    remaining = position.actions
    if remaining:
        for event in public_events(record):
            tracker.observe(event)
            remaining -= 1
            if not remaining:
                break
    return tracker.snapshot()


def recount(record: GoujiRecord, seat: int, position: GoujiPosition) -> GoujiSnapshot:
    """The same snapshot computed from scratch: every count summed again from the record's plays."""
    rules = record.rules
    hands = record.playing_hands()
    mine = _value_counts(hands[seat])
    played = [0] * (BIG + 1)
    shown = [[0] * (BIG + 1) for _ in range(rules.players)]
    sizes = [len(hand) for hand in hands]
    plays = []
    sets = [0] * (BIG + 1)
    originals = [0] * (BIG + 1)
    for number, within, actor, action in _numbered(record)[:position.actions]:
        if isinstance(action, str):
            continue
        play = analyse(action, rules)
        assert isinstance(play, Play)
        for card in action:
            value = VALUE_OF[card.index]
            played[value] += 1
            shown[actor][value] += 1
            if actor == seat:
                mine[value] -= 1
        sizes[actor] -= len(action)
        if play.gouji and play.base is not None:
            sets[play.base] += 1
            originals[play.base] += play.original
        plays.append(PlayView(number, within, actor, tuple(action), play.base, play.gouji, play.original))
    total = totals(rules)
    unseen = tuple(total[v] - played[v] - mine[v] for v in range(BIG + 1))
    state = state_at(record, position)
    return GoujiSnapshot(seat, rules, tuple(mine), unseen, tuple(played), tuple(sizes), tuple(map(tuple, shown)),
                         tuple(plays), tuple(sets), tuple(originals), record.exchanges, state.natural,
                         public_view(state))


def _numbered(record: GoujiRecord) -> list[tuple[int, int, int, Sequence[Card] | str]]:
    return [(number, within, seat, action) for number, rnd in enumerate(record.rounds, start=1)
            for within, (seat, action) in enumerate(rnd.actions, start=1)]
