"""Burying the kitty (埋底) the way seed 000 advises.

With strong trumps the banker voids short side suits (points may go down: the trumps will hold the
last trick); with weak trumps it buries no points. It keeps trumps, As, pairs and tractors, and
buries low cards first.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from trainer.engine.cards import Card
from trainer.engine.trump import TRUMP, TrumpContext


def choose_burial(hand: Sequence[Card], ctx: TrumpContext) -> list[Card]:
    """The `kitty_size` cards the banker puts back, from its hand plus the kitty."""
    size = ctx.rules.kitty_size
    held = Counter(card.index for card in hand)
    trumps = sum(copies for face, copies in held.items() if ctx.suit_of[face] == TRUMP)
    strong = trumps >= 12 or sum(copies for face, copies in held.items()
                                 if ctx.suit_of[face] == TRUMP and ctx.strength[face] >= ctx.strength[52]) >= 3
    by_suit = Counter(ctx.suit_of[card.index] for card in hand)

    def cost(card: Card) -> float:
        face = card.index
        suit = ctx.suit_of[face]
        if suit == TRUMP:
            return 1000 + ctx.strength[face]
        value = float(ctx.strength[face])
        if card.rank == 14:
            value += 200
        if held[face] >= 2:
            value += 60
        if card.points:
            value += 5 if strong else 40 + card.points
        if strong:
            value -= 30 / by_suit[suit]
        return value

    return sorted(hand, key=lambda card: (cost(card), card.index))[:size]
