"""Why an answer was wrong, from what the tracker knows: a ruff not counted, the kitty (底牌), level
cards counted in their printed suit, the jokers, a pair broken — or another slip.

A number answer is put down to a cause when it is off by exactly what that cause accounts for (the
trumps laid on side-suit leads, the banker's buried cards of the subject, the off-suit level cards
or the jokers of the subject); a choice answer when the options it got wrong are of that kind (a
joker, a level card, a seat shown void by ruffing, a buried card); questions about pairs and
tractors are a pair broken. Pure: the answer route stores the cause with the attempt.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trainer.drills.decide import DECISION_TYPES
from trainer.drills.questions import Question
from trainer.engine.cards import Card
from trainer.engine.trump import SUIT_NAMES, TRUMP
from trainer.tracking.tracker import PlayEvent, Snapshot
from trainer.signals.quiz import QUESTION_TYPES as SIGNAL_TYPES

CAUSES = ("ruff", "kitty", "level", "jokers", "pair", "other")
"""Every cause, in the order a number answer is checked against them."""
PAIR_TYPES = ("live_pairs", "live_tractor", "no_pairs")
FACES = range(54)


def _ruffs(snap: Snapshot, events: Sequence[PlayEvent]) -> list[tuple[str, int, list[Card]]]:
    """The trumps laid on side-suit leads (ruffs, over-ruffs, trumps discarded): (suit led, seat, trumps)."""
    suit_of, found, led = snap.ctx.suit_of, [], {}
    for event in events:
        if event.trick not in led:
            led[event.trick] = suit_of[event.cards[0].index]
            continue
        trumps = [card for card in event.cards if suit_of[card.index] == TRUMP]
        if led[event.trick] != TRUMP and trumps:
            found.append((SUIT_NAMES[led[event.trick]], event.seat, trumps))
    return found


def _amounts(question: Question, snap: Snapshot, events: Sequence[PlayEvent]) -> dict[str, int]:
    """What each cause would put a number answer off by."""
    ctx, kind = snap.ctx, question.type
    counts = snap.played if kind in ("trumps_played", "suit_played", "points_unplayed") else snap.unseen
    points = kind.startswith("points")

    def total(faces: Any, table: Sequence[int] = counts) -> int:
        return sum(table[f] * (Card.from_index(f).points if points else 1) for f in faces)

    jokers = [52, 53]
    if question.fact.startswith("trumps."):
        off_level = [f for f in FACES if f < 52 and Card.from_index(f).rank == ctx.level and ctx.suit_of[f] == TRUMP
                     and Card.from_index(f).suit is not None and ctx.trump != Card.from_index(f).suit]
        ruffed = sum(len(cards) for _suit, _seat, cards in _ruffs(snap, events))
        kitty = sum(snap.kitty_known[f] for f in FACES if ctx.suit_of[f] == TRUMP)
        return {"ruff": ruffed, "kitty": kitty, "level": total(off_level), "jokers": total(jokers)}
    if question.suit in SUIT_NAMES[:4] and question.fact.startswith("suits."):
        printed = SUIT_NAMES.index(question.suit)
        level = [f for f in FACES if f < 52 and Card.from_index(f).rank == ctx.level
                 and int(Card.from_index(f).suit or 0) == printed]
        ruffs = [card for suit, _seat, cards in _ruffs(snap, events) if suit == question.suit for card in cards]
        kitty = [f for f in FACES if ctx.suit_of[f] == printed]
        return {"ruff": sum(card.points if points else 1 for card in ruffs), "kitty": total(kitty, snap.kitty_known),
                "level": total(level)}
    return {}


def mistake_cause(question: Question, given: Any, snap: Snapshot, events: Sequence[PlayEvent]) -> str:
    """The cause of a wrong answer `given` to `question` at the position of `snap` (one of `CAUSES`)."""
    if question.type in PAIR_TYPES:
        return "pair"
    if question.type in SIGNAL_TYPES or question.type == "is_boss":  # a convention misread; a yes/no names no card
        return "other"
    if question.type in DECISION_TYPES and question.kind != "number":  # options are seats or yes/no, not cards
        return "other"
    if question.kind == "number":
        try:
            off = abs(int(str(given).strip()) - int(question.answer))
        except ValueError:
            return "other"
        amounts = _amounts(question, snap, events)
        return next((cause for cause in CAUSES if off and amounts.get(cause) == off), "other")
    wrong = {str(v) for v in (given if isinstance(given, list) else [given])} ^ (
        set(question.answer) if question.kind == "multi" else {str(question.answer)})
    ctx = snap.ctx
    if question.type == "voids":
        ruffers = {str(seat) for suit, seat, _cards in _ruffs(snap, events) if suit == question.suit}
        return "ruff" if wrong & ruffers else "other"
    cards = [Card.parse(code) for value in wrong for code in value.split("/") if value]
    if any(card.suit is None for card in cards):
        return "jokers"
    if any(card.rank == ctx.level for card in cards):
        return "level"
    if any(snap.kitty_known[card.index] for card in cards):
        return "kitty"
    return "other"
