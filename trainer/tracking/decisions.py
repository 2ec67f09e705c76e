"""Tier-2 decision facts (training.md §2): is a throw safe, who can still beat my card, who can ruff a
suit, how many trumps a seat can hold, who must hold a card — each exact over the consistent
distributions of `Inference` ("can" = some consistent distribution gives that seat those cards).

A throw (甩牌) is read into units as `combos` reads it; a unit is beaten by a higher unit of its
shape in its suit (`tricks.unit_beaten_by`: a higher single, pair, tractor). Whether one seat can hold
a whole beating combination (a pair, a tractor's pairs) is one feasibility check with lower bounds on
its cells (`Transport.allows`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from trainer.engine.cards import Card
from trainer.engine.combos import Unit, decompose, face_counts
from trainer.engine.trump import TRUMP
from trainer.tracking.inference import KITTY, Inference

PLENTY = 1 << 20
"""An upper bound no cell reaches (a lower bound alone is asked)."""


@dataclass(frozen=True, slots=True)
class ThrowVerdict:
    """A candidate throw read into units, and every (unit, seat, combination) that could beat it."""

    cards: tuple[Card, ...]
    units: tuple[Unit, ...]
    beaten_by: tuple[tuple[int, int, tuple[Card, ...]], ...]

    @property
    def safe(self) -> bool:
        """True when no other seat can beat any unit in any consistent distribution."""
        return not self.beaten_by

    def to_json(self) -> dict[str, Any]:
        """The `throw` object of `deal track --tier 2 --throw` (training.md §2)."""
        return {"cards": [str(c) for c in self.cards], "units": [[str(c) for c in u.cards()] for u in self.units],
                "safe": self.safe,
                "beaten_by": [[index, seat, [str(c) for c in cards]] for index, seat, cards in self.beaten_by]}


def seats_of(inference: Inference) -> list[int]:
    """The other seats (the kitty is no seat: it plays no card)."""
    return [q for q in inference.holders if q != KITTY]


def beating_combinations(unit: Unit, inference: Inference) -> list[dict[int, int]]:
    """Every smallest combination of unseen cards (face → copies) that beats `unit` in its suit, strongest
    first: a higher tuple of its width, or `length` consecutive higher positions of such tuples."""
    ctx = inference.snap.ctx
    suit = ctx.suit_of[unit.faces[0]]
    width = unit.width
    faces = [f for f in ctx.faces_by_suit[suit] if inference.snap.unseen[f] >= width]
    if unit.length == 1:
        return [{f: width} for f in faces if ctx.strength[f] > unit.top]
    by_position: dict[int, list[int]] = {}
    for face in faces:
        by_position.setdefault(ctx.position[face], []).append(face)
    top = ctx.position[unit.faces[0]]
    found = []
    for p in sorted(by_position, reverse=True):
        steps = [p - step for step in range(unit.length)]
        if p > top and all(s in by_position for s in steps):
            found += [{f: width for f in choice} for choice in product(*(by_position[s] for s in steps))]
    return found


def can_hold(inference: Inference, seat: int, combination: dict[int, int]) -> bool:
    """True when some consistent distribution gives `seat` at least these copies of each face."""
    if any((seat, face) not in inference.cells for face in combination):
        return False
    if len(combination) == 1:
        (face, copies), = combination.items()
        return inference.bounds(seat, face)[1] >= copies
    return inference.allows({(seat, face): (copies, PLENTY) for face, copies in combination.items()})


def throw_verdict(inference: Inference, cards: Sequence[Card]) -> ThrowVerdict:
    """The units of a throw of one suit and every other seat's combination that could beat one of them."""
    ctx = inference.snap.ctx
    units = tuple(decompose(face_counts(cards), ctx))
    beaten = []
    for index, unit in enumerate(units):
        combinations = beating_combinations(unit, inference)
        for seat in seats_of(inference):
            for combination in combinations:
                if can_hold(inference, seat, combination):
                    beaten.append((index, seat, tuple(Card.from_index(f) for f, c in combination.items()
                                                      for _ in range(c))))
    return ThrowVerdict(tuple(ctx.sorted(cards)), units, tuple(beaten))


def who_beats(inference: Inference, card: Card) -> list[int]:
    """The seats that can still hold a card of `card`'s suit stronger than it."""
    ctx = inference.snap.ctx
    suit, strength = ctx.suit_of[card.index], ctx.strength[card.index]
    higher = [f for f in ctx.faces_by_suit[suit] if ctx.strength[f] > strength and inference.snap.unseen[f]]
    return [q for q in seats_of(inference) if any(inference.bounds(q, f)[1] >= 1 for f in higher)]


def can_ruff(inference: Inference, seat: int, suit: int) -> bool:
    """True when some consistent distribution leaves `seat` void in side suit `suit` with a trump in hand."""
    ctx = inference.snap.ctx
    if not inference.snap.hand_sizes[seat]:
        return False
    void = {(seat, f): (0, 0) for f in ctx.faces_by_suit[suit] if (seat, f) in inference.cells}
    return inference.allows(void, some=(seat, ctx.faces_by_suit[TRUMP]))


def who_ruffs(inference: Inference, suit: int) -> list[int]:
    """The seats that can be void in side suit `suit` and still hold a trump."""
    return [q for q in seats_of(inference) if can_ruff(inference, q, suit)]


def max_trumps(inference: Inference, seat: int) -> int:
    """The most trumps `seat` can hold (tier 2's upper bound)."""
    return inference.suit_bounds(seat, TRUMP)[1]


def must_hold(inference: Inference) -> dict[int, list[int]]:
    """For each other seat, the faces it holds in every consistent distribution beyond the copies it has
    shown (cards returned by a failed throw, declared cards): what counting, not seeing, proves."""
    constraints = inference.snap.constraints
    found: dict[int, list[int]] = {}
    for q in seats_of(inference):
        shown = {f: max(constraints.returned[q].get(f, 0), constraints.declared[q].get(f, 0)) for f in inference.faces}
        found[q] = [f for f in inference.faces if inference.bounds(q, f)[0] > shown[f]]
    return found


def throw_problem(snap_mine: Sequence[int], cards: Sequence[Card], suit_of: Sequence[int]) -> str | None:
    """Why `cards` cannot be a candidate throw of this hand (not held, not one side suit), or None."""
    if not cards:
        return "no cards given"
    suits = {suit_of[c.index] for c in cards}
    if len(suits) > 1:
        return "the cards are not all of one suit"
    if suits == {TRUMP}:
        return "the cards are trumps: a throw is asked in a side suit"
    for face, copies in face_counts(cards).items():
        if snap_mine[face] < copies:
            held = snap_mine[face]
            return f"the hand holds {held} {Card.from_index(face)}, not {copies}"
    return None


__all__ = ["ThrowVerdict", "beating_combinations", "can_hold", "can_ruff", "max_trumps", "must_hold",
           "seats_of", "throw_problem", "throw_verdict", "who_beats", "who_ruffs"]
