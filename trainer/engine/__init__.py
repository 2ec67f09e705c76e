"""The rules engine of 升级 / 拖拉机: pure Python, no web imports.

Cards and hands, the trump context, combinations, following, throws and tricks, scoring and the
state of a hand in play, re-exported here.
"""
from __future__ import annotations

from trainer.engine.cards import Card, Hand, Suit, format_cards, full_deck, parse_cards, pretty_cards
from trainer.engine.combos import Combination, Unit, describe
from trainer.engine.errors import IllegalPlayError, JipaiError, MalformedError
from trainer.engine.follow import Lead, follow_problem, legal_follows, legal_leads, random_follow
from trainer.engine.round import RoundResult, RoundState, Trick
from trainer.engine.rules import PRESETS, Rules
from trainer.engine.scoring import kitty_multiplier, level_result, next_banker, points, throw_penalty
from trainer.engine.seats import Seat
from trainer.engine.tricks import ThrowResult, check_throw, trick_winner
from trainer.engine.trump import TRUMP, TrumpContext

__all__ = [
    "Card", "Hand", "Suit", "format_cards", "full_deck", "parse_cards", "pretty_cards",
    "Combination", "Unit", "describe", "IllegalPlayError", "JipaiError", "MalformedError",
    "Lead", "follow_problem", "legal_follows", "legal_leads", "random_follow",
    "RoundResult", "RoundState", "Trick", "PRESETS", "Rules",
    "kitty_multiplier", "level_result", "next_banker", "points", "throw_penalty",
    "Seat", "ThrowResult", "check_throw", "trick_winner", "TRUMP", "TrumpContext",
]
