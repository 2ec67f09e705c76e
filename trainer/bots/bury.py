"""Burying the kitty (埋底) the way seed 000 advises.

With strong trumps the banker voids short side suits (points may go down: the trumps will hold the
last trick); with weak trumps it buries no points. It keeps trumps, As, pairs and tractors, and
buries low cards first.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from trainer.engine.cards import Card
from trainer.engine.combos import decompose, face_counts
from trainer.engine.trump import TRUMP, TrumpContext
from trainer.signals.conventions import Convention


def choose_burial(hand: Sequence[Card], ctx: TrumpContext, convention: Convention | None = None) -> list[Card]:
    """The `kitty_size` cards the banker puts back, from its hand plus the kitty (signal cards by
    `convention`, the basic 8 9 J Q by default)."""
    size = ctx.rules.kitty_size
    held = Counter(card.index for card in hand)
    trumps = sum(copies for face, copies in held.items() if ctx.suit_of[face] == TRUMP)
    strong = trumps >= 6 * ctx.rules.decks or sum(copies for face, copies in held.items()
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

    order = sorted(hand, key=lambda card: (cost(card), card.index))
    planned: list[Card] = []
    if strong:
        side = {}
        for card in hand:
            suit = ctx.suit_of[card.index]
            if suit != TRUMP and card.rank != 14:
                side.setdefault(suit, []).append(card)
        for suit in sorted(side, key=lambda s: (len(side[s]), s)):
            tractor = any(u.length > 1 for u in decompose(face_counts(side[suit]), ctx))
            if not tractor and len(planned) + len(side[suit]) <= size:
                planned += side[suit]
    rest = list(order)
    for card in planned:
        rest.remove(card)
    buried = planned + rest[:size - len(planned)]
    kept = rest[size - len(planned):]
    return _keep_a_non_signal_card(buried, kept, ctx, convention or Convention())


def _keep_a_non_signal_card(buried: list[Card], kept: list[Card], ctx: TrumpContext,
                            convention: Convention) -> list[Card]:
    """Where a side suit without an A would be left with only signal cards (8 9 J Q), keep one of its
    non-signal cards back so a partner's A can be answered without a false signal (seed 000 5.2.4)."""
    for suit in {ctx.suit_of[c.index] for c in kept} - {TRUMP}:
        left = [c for c in kept if ctx.suit_of[c.index] == suit]
        if any(c.rank == 14 for c in left) or not all(convention.is_signal(c, ctx) for c in left):
            continue
        spare = [c for c in buried if ctx.suit_of[c.index] == suit and not convention.is_signal(c, ctx)]
        swap = [c for c in kept if ctx.suit_of[c.index] != TRUMP and ctx.suit_of[c.index] != suit
                and c.rank != 14 and not c.points]
        if spare and swap:
            back, down = spare[0], min(swap, key=lambda c: ctx.strength[c.index])
            buried.remove(back)
            buried.append(down)
            kept.remove(down)
            kept.append(back)
    return buried
