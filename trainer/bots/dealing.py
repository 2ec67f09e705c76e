"""Dealing one card at a time with bots declaring trump (亮主, 反主, 自保/自反, 无主), rules.md §8.

>>> deal = deal_hand(random.Random(1), Rules(), level=2)
>>> [len(h) for h in deal.hands], len(deal.kitty)
([25, 25, 25, 25], 8)
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from trainer.engine.cards import BIG_JOKER, SMALL_JOKER, Card, Suit, full_deck
from trainer.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class Declaration:
    """Cards a seat showed to name trump: one or two level cards of a suit, or a joker pair (no trump)."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def strength(self) -> int:
        """What it takes to overturn it: 1 a single level card, 2 a level pair, 3 a 小王 pair, 4 a 大王 pair."""
        if self.cards[0].is_joker:
            return 3 if self.cards[0].rank == SMALL_JOKER else 4
        return len(self.cards)

    @property
    def trump(self) -> Suit | None:
        """The trump suit it names (None for no trump)."""
        return self.cards[0].suit

    def to_json(self) -> dict[str, object]:
        """The record form: `{"seat": s, "cards": [...]}`."""
        return {"seat": self.seat, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Deal:
    """The outcome of dealing: hands, kitty, final trump (None = no trump) and every declaration."""

    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    trump: Suit | None
    declarations: tuple[Declaration, ...]


def suit_strength(hand: Sequence[Card], suit: Suit | None, level: int) -> float:
    """How good `suit` looks as trump for a partial hand: its cards, level cards and jokers, high ones more."""
    score = 0.0
    for card in hand:
        if card.is_joker or card.rank == level:
            score += 1.5
        elif card.suit == suit:
            score += 1.0 + (0.5 if card.rank >= 12 else 0.0)
    return score


def choose_declaration(seat: int, hand: Sequence[Card], level: int, current: Declaration | None,
                       partner_declared: bool) -> Declaration | None:
    """A bot's declaration after receiving a card, or None: it names a suit it is long in, overturns an
    opponent with a pair (or a joker pair for no trump), reinforces its own single into a pair."""
    held = Counter(hand)
    need = max(3.0, 0.42 * len(hand))
    options: list[Declaration] = []
    for suit in Suit:
        level_card = Card(level, suit)
        copies = held[level_card]
        if copies and suit_strength(hand, suit, level) >= need:
            options.append(Declaration(seat, (level_card,) * min(copies, 2)))
    for joker in (SMALL_JOKER, BIG_JOKER):
        if held[Card(joker)] >= 2 and sum(1 for c in hand if c.rank in (level, 14) or c.is_joker) >= 0.4 * len(hand):
            options.append(Declaration(seat, (Card(joker),) * 2))
    if current is not None:
        if current.seat == seat:
            options = [o for o in options if o.strength > current.strength]
        elif partner_declared:
            options = [o for o in options if o.strength > current.strength and o.strength >= 3]
        else:
            options = [o for o in options if o.strength > current.strength]
    if not options:
        return None
    return max(options, key=lambda o: (o.strength, suit_strength(hand, o.trump, level)))


def fallback_trump(kitty: Sequence[Card], rules: Rules) -> Suit | None:
    """The trump when nobody declared (rules.md §9 `no_declaration`)."""
    style = rules.no_declaration
    if style == "no_trump":
        return None
    if style == "most_common_kitty_suit":
        counts = Counter(c.suit for c in kitty if c.suit is not None)
        if not counts:
            return None
        best = max(counts.values())
        return next(s for s in Suit if counts[s] == best)
    for card in kitty:
        if not card.is_joker:
            return card.suit
        if style == "first_kitty_card":
            return None
    return None


def deal_hand(rng: random.Random, rules: Rules, level: int, first_seat: int = 0) -> Deal:
    """Shuffle and deal one card at a time from `first_seat`, the bots declaring as cards arrive."""
    deck = full_deck(rules.decks)
    rng.shuffle(deck)
    size = rules.hand_size
    hands: list[list[Card]] = [[], [], [], []]
    declarations: list[Declaration] = []
    for index, card in enumerate(deck[:4 * size]):
        seat = (first_seat + index) % 4
        hands[seat].append(card)
        current = declarations[-1] if declarations else None
        partner = current is not None and current.seat == (seat + 2) % 4
        declared = choose_declaration(seat, hands[seat], level, current, partner)
        if declared is not None:
            declarations.append(declared)
    kitty = tuple(deck[4 * size:])
    trump = declarations[-1].trump if declarations else fallback_trump(kitty, rules)
    return Deal(tuple(tuple(h) for h in hands), kitty, trump, tuple(declarations))
