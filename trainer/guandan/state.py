"""A 掼蛋 hand in play (guandan.md §3): leads, passes, rounds, 接风, places and the end; `act` and `undo`.

>>> from trainer.engine.cards import parse_cards
>>> hands = [parse_cards("3S"), parse_cards("4S 9D"), parse_cards("5S 6D"), parse_cards("7S 8D")]
>>> state = HandState.start(GuandanRules(), Level.parse("2"), hands, leader=0)
>>> _ = state.act(0, parse_cards("3S"))      # seat 0 goes out first (上游)
>>> for seat in (1, 2, 3):
...     _ = state.act(seat, "pass")
>>> state.places, state.leader, state.rounds[-1].jiefeng   # 接风: its partner, seat 2, leads
((0,), 2, True)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Union

from trainer.engine.cards import Card, format_cards
from trainer.engine.errors import IllegalPlayError
from trainer.engine.seats import Seat
from trainer.guandan.level import Level
from trainer.guandan.plays import Play, Reading, follow_words, reading_of
from trainer.guandan.rules import GuandanRules

_FACES = tuple(Card.from_index(index) for index in range(54))
Action = Union[tuple[Card, ...], str]
"""A play's cards in the order laid, or `"pass"`."""


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a round: the seat, its cards or "pass", the play's reading (None for a pass), and
    whether the play emptied the seat's hand."""

    seat: int
    action: Action
    reading: Reading | None
    last: bool = False


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """One round (一轮): its leader, its steps, the owner of its last top (`winner`), whether the next
    leader took over from a finished owner (接风), and whether it stopped before §3.1 ended it."""

    leader: int
    steps: tuple[Step, ...]
    winner: int | None
    jiefeng: bool
    partial: bool


class HandState:
    """One hand from the first lead to its end.

    Read-only for callers: `counts` (each hand as copies per face index: a multiset), `sizes`, `turn`
    (the seat to act, None once over),
    `leader` and `round_no` (the current round), `steps` (this round's), `top` and `owner` (its last play
    and player, None before the lead), `passed` (seats that passed since the top, bitmask), `places` (seats
    out, in order), `rounds` (ended rounds), `history` ((round, step) in order), `over`.
    """

    rules: GuandanRules
    level: Level
    counts: list[list[int]]
    sizes: list[int]
    turn: int | None
    leader: int
    round_no: int
    steps: tuple[Step, ...]
    top: Play | None
    owner: int | None
    passed: int
    places: tuple[int, ...]
    rounds: tuple[RoundSummary, ...]
    history: list[tuple[int, Step]]
    over: bool
    keep_undo: bool
    """False (for a fast replay) keeps no undo information."""

    _SAVED = ("sizes", "turn", "leader", "round_no", "steps", "top", "owner", "passed", "places", "rounds", "over")

    @classmethod
    def start(cls, rules: GuandanRules, level: Level, hands: Sequence[Sequence[Card]], leader: int, *,
              keep_undo: bool = True) -> HandState:
        """The hand before the first lead: `hands` the four playing hands (after 进贡/还贡), `leader` leads."""
        state = cls()
        state.rules, state.level, state.keep_undo = rules, level, keep_undo
        state.counts = [[0] * 54 for _ in range(4)]
        for seat, hand in enumerate(hands):
            for card in hand:
                state.counts[seat][card.index] += 1
        state.sizes = [len(hand) for hand in hands]
        state.turn = state.leader = int(Seat.parse(leader))
        state.round_no, state.steps, state.top, state.owner, state.passed = 1, (), None, None, 0
        state.places, state.rounds, state.history, state.over = (), (), [], False
        state._undo: list[tuple[tuple[object, ...], int, tuple[Card, ...]]] = []
        return state

    def is_out(self, seat: int) -> bool:
        """True when `seat` has played its last card."""
        return seat in self.places

    def hand(self, seat: int) -> list[Card]:
        """The cards `seat` holds now, by face."""
        return [_FACES[index] for index, copies in enumerate(self.counts[seat]) for _ in range(copies)]

    def play_reading(self, seat: int, cards: Sequence[Card], declared: Reading | None = None) -> Reading:
        """The reading `seat`'s play would take now, checked (held, a reading, beats the top);
        `IllegalPlayError` says why not."""
        counts = self.counts[seat]
        wanted: dict[int, int] = {}
        for card in cards:
            wanted[card.index] = wanted.get(card.index, 0) + 1
        for index, copies in wanted.items():
            if counts[index] < copies:
                card = _FACES[index]
                raise IllegalPlayError(f"does not hold {card.pretty}" + (f" ×{copies}" if copies > 1 else ""))
        top = self.top.reading if self.top is not None else None
        reading = reading_of(cards, self.level, declared=declared, top=top, wild_reading=self.rules.wild_reading)
        problem = follow_words(reading, top, self.level)
        if problem is not None:
            raise IllegalPlayError(f"{format_cards(cards)} ({reading}) {problem}")
        return reading

    def act(self, seat: int, action: Action | Sequence[Card], declared: Reading | None = None) -> Reading | None:
        """Apply `seat`'s action (cards in the order laid, or `"pass"`); returns the play's reading.
        `IllegalPlayError` when it is not `seat`'s turn, a leader passes, or the play may not be made."""
        if self.over:
            raise IllegalPlayError("the hand is over")
        if seat != self.turn:
            raise IllegalPlayError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        saved = tuple(getattr(self, name) for name in self._SAVED) if self.keep_undo else None
        round_no = self.round_no
        if action == "pass":
            if self.top is None:
                raise IllegalPlayError("the leader must play (a lead cannot be a pass)")
            removed: tuple[Card, ...] = ()
            step = Step(seat, "pass", None)
            self._pass(seat, step)
            reading = None
        elif isinstance(action, str):
            raise IllegalPlayError(f"an action is cards or \"pass\", not {action!r}")
        else:
            removed = tuple(action)
            reading = self.play_reading(seat, removed, declared)
            counts = self.counts[seat]
            for card in removed:
                counts[card.index] -= 1
            self.sizes = self.sizes.copy()
            self.sizes[seat] -= len(removed)
            step = Step(seat, removed, reading, self.sizes[seat] == 0)
            self._play(seat, step)
        if saved is not None:
            self._undo.append((saved, seat, removed))
        self.history.append((round_no, step))
        return reading

    def undo(self) -> None:
        """Take the last action back (`IndexError` when there is none, or `keep_undo` was off)."""
        saved, seat, removed = self._undo.pop()
        self.history.pop()
        for name, value in zip(self._SAVED, saved):
            setattr(self, name, value)
        counts = self.counts[seat]
        for card in removed:
            counts[card.index] += 1

    def _play(self, seat: int, step: Step) -> None:
        self.steps += (step,)
        self.top, self.owner, self.passed = Play(step.action, step.reading), seat, 0  # type: ignore[arg-type]
        if step.last:
            self.places += (seat,)
            if hand_over(self.places):
                self._end_round(None, partial=False)
                self.over, self.turn = True, None
                return
        self.turn = next_in(seat, self.places)

    def _pass(self, seat: int, step: Step) -> None:
        self.steps += (step,)
        self.passed |= 1 << seat
        owner = self.owner
        assert owner is not None
        if not round_over(owner, self.passed, self.places):
            self.turn = next_in(seat, self.places)
            return
        leader, jiefeng = round_leader(owner, self.places)
        self._end_round(leader, partial=False, jiefeng=jiefeng)

    def _end_round(self, next_leader: int | None, *, partial: bool, jiefeng: bool = False) -> None:
        self.rounds += (RoundSummary(self.leader, self.steps, self.owner, jiefeng, partial),)
        if next_leader is not None:
            self.leader = self.turn = int(next_leader)
            self.round_no += 1
            self.steps, self.top, self.owner, self.passed = (), None, None, 0

    def current_round(self) -> RoundSummary | None:
        """The round under way (partial), or None between rounds or once the hand is over."""
        if self.over or not self.steps:
            return None
        return RoundSummary(self.leader, self.steps, self.owner, False, True)


def next_in(seat: int, places: Sequence[int]) -> int:
    """The seat that acts after `seat`: the next in play order still holding cards."""
    seat = (seat + 1) % 4
    while seat in places:
        seat = (seat + 1) % 4
    return seat


def round_over(owner: int, passed: int, places: Sequence[int]) -> bool:
    """§3.1: every seat still holding cards other than the owner has passed since the top (`passed` a bitmask)."""
    return all(s == owner or s in places or passed >> s & 1 for s in range(4))


def round_leader(owner: int, places: Sequence[int]) -> tuple[int, bool]:
    """The next round's leader and whether it is 接风: the owner, or its partner when the owner went out."""
    return (int(Seat(owner).partner), True) if owner in places else (owner, False)


def hand_over(places: Sequence[int]) -> bool:
    """§3.2: both seats of a team are out, or three seats are."""
    return len(places) >= 3 or (len(places) == 2 and Seat(places[0]).partner == places[1])
