"""Before play (gouji.md §2): dealing, 买3 (buying a 3) and 开点 from the start.

>>> from trainer.engine.cards import parse_cards
>>> rules = GoujiRules()
>>> hands = [parse_cards(text) for text in ("2S", "3S", "3H", "3C 3C 3D", "3D", "3S")]
>>> [(e.seller, e.buyer, e.paid) for e in buy_threes([value_counts(hand) for hand in hands], 0, rules)]
[(3, 0, 15)]
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from trainer.engine.cards import Card, full_deck
from trainer.engine.errors import IllegalPlayError
from trainer.gouji.plays import BIG, SMALL, THREE, THRESHOLDS, TWO, VALUE_OF
from trainer.gouji.rules import GoujiRules

if TYPE_CHECKING:  # only the annotations name it; `deal verify` needs no random numbers
    import random


@dataclass(frozen=True, slots=True)
class Exchange:
    """One 买3 move: `seller` gives a 3 to `buyer`, who pays a card of value `paid` (15 a 2, 16 SJ, 17 BJ)
    or nothing (None: a teammate's gift, or an opponent's when the buyer has nothing to pay)."""

    seller: int
    buyer: int
    paid: int | None


def buy_threes(counts: Sequence[Sequence[int]], leader: int, rules: GoujiRules) -> list[Exchange]:
    """The 买3 moves of gouji.md §2.2 from each seat's `value_counts` (only 3s, 2s and jokers matter):
    buyers in play order from `leader`; the seller is the first of 对头, teammates, other opponents holding
    two or more 3s then; an opponent is paid a 2, else SJ, else BJ, else nothing; a teammate gives."""
    if not rules.biesan:
        return []
    n = rules.players
    threes = [seat_counts[THREE] for seat_counts in counts]
    payable = [{v: seat_counts[v] for v in (TWO, SMALL, BIG)} for seat_counts in counts]
    exchanges = []
    for buyer in ((leader + k) % n for k in range(n)):
        if threes[buyer]:
            continue
        seller = next((s for s in rules.seller_order(buyer) if threes[s] >= 2), None)
        if seller is None:
            raise IllegalPlayError(f"no seat holds two 3s to sell one to seat {buyer}")
        paid = None
        if rules.team(seller) != rules.team(buyer):
            paid = next((v for v in (TWO, SMALL, BIG) if payable[buyer][v]), None)
        threes[seller] -= 1
        threes[buyer] += 1
        if paid is not None:
            payable[buyer][paid] -= 1
            payable[seller][paid] += 1
        exchanges.append(Exchange(seller, buyer, paid))
    return exchanges


def value_counts(cards: Sequence[Card]) -> list[int]:
    """Counts of a hand's cards by 够级 value: a list indexed by value (3…17), 18 long."""
    counts = [0] * 18
    for card in cards:
        counts[VALUE_OF[card.index]] += 1
    return counts


def natural_openers(counts: Sequence[Sequence[int]], rules: GoujiRules) -> list[int]:
    """Seats whose playing hand (its `value_counts`) has fewer than t(r) of every rank 10…A: opened from the
    start (gouji.md §3.7)."""
    if not rules.natural_open:
        return []
    return [seat for seat, hand in enumerate(counts) if all(hand[r] < t for r, t in THRESHOLDS.items())]


def deal(rng: random.Random, rules: GoujiRules) -> list[list[Card]]:
    """Shuffle the decks and deal every card, 54·D/N to each seat."""
    cards = full_deck(rules.decks)
    rng.shuffle(cards)
    size = rules.hand_size
    return [cards[seat * size:(seat + 1) * size] for seat in range(rules.players)]


def with_exchanges(hands: Sequence[Sequence[Card]], moves: Sequence[tuple[int, int, Card, Card | None]]
                   ) -> list[list[Card]]:
    """The playing hands: dealt hands with each (seller, buyer, 3, paid card) move applied in order."""
    result = [list(hand) for hand in hands]
    for seller, buyer, three, paid in moves:
        result[seller].remove(three)
        result[buyer].append(three)
        if paid is not None:
            result[buyer].remove(paid)
            result[seller].append(paid)
    return result


def choose_moves(hands: Sequence[Sequence[Card]], leader: int, rules: GoujiRules
                 ) -> list[tuple[int, int, Card, Card | None]]:
    """The 买3 moves with cards chosen (the first matching face of each hand), for generated deals."""
    playing = [list(hand) for hand in hands]
    moves = []
    for exchange in buy_threes([value_counts(hand) for hand in hands], leader, rules):
        three = next(card for card in playing[exchange.seller] if VALUE_OF[card.index] == THREE)
        paid = (next(card for card in playing[exchange.buyer] if VALUE_OF[card.index] == exchange.paid)
                if exchange.paid is not None else None)
        move = (exchange.seller, exchange.buyer, three, paid)
        playing = with_exchanges(playing, [move])
        moves.append(move)
    return moves
