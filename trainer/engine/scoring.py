"""Points, the kitty bonus (抠底), throw penalties and the level change (升级), rules.md §4, §6, §7.

>>> kitty_multiplier(Lead.of(parse_cards("4S 4S 5S 5S 6S 6S"), TrumpContext.parse("2", "H")), Rules())
16
>>> level_result(75, Rules()), level_result(80, Rules()), level_result(-40, Rules())
(('banker', 1), ('attackers', 0), ('banker', 4))
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from trainer.engine.cards import Card, parse_cards
from trainer.engine.combos import Unit
from trainer.engine.follow import Lead
from trainer.engine.rules import Rules
from trainer.engine.trump import TrumpContext


def points(cards: Iterable[Card]) -> int:
    """Points in the cards: 5s are worth 5, 10s and Ks 10."""
    return sum(card.points for card in cards)


def kitty_multiplier(lead: Lead, rules: Rules) -> int:
    """The kitty multiplier set by the last trick's lead (its largest unit; rules.md §6, §9)."""
    unit = lead.units[lead.deciding]
    width, length, size = unit.width, unit.length, unit.size
    style = rules.kitty_multiplier
    if style == "doubling":
        return 2 ** (length + width - 1)
    if style == "power_cards":
        return min(2 ** size, 64)
    if style == "times_cards":
        return 2 * size
    if style == "cards_in_lead":
        return lead.size if len(lead.units) == 1 else 2 * size
    if style == "linear_throw3" and width == 1 and len(lead.units) > 1:
        return 3
    return 2 if width == 1 else 2 * (length + width - 1)


def throw_penalty(rules: Rules, attempted: Sequence[Card], forced: Sequence[Card], beaten: Sequence[Unit]) -> int:
    """Points a failed throw costs its thrower's side (rules.md §9 `throw_penalty`)."""
    style = rules.throw_penalty
    return {
        "none": 0,
        "per_card_10": 10 * len(attempted),
        "per_extra_card_10": 10 * (len(attempted) - 1),
        "per_returned_card_10": 10 * (len(attempted) - len(forced)),
        "per_beaten_card_10": 10 * sum(unit.size for unit in beaten),
        "flat_10": 10,
        "flat_5": 5,
    }[style]


def level_result(attackers_score: int, rules: Rules) -> tuple[str, int]:
    """(side that is banker next, levels it goes up) for an attackers' score (rules.md §7)."""
    step = rules.level_step
    score = attackers_score
    if score >= 2 * step:
        return "attackers", (score - 2 * step) // step
    if score >= step:
        return "banker", 1
    if score > 0:
        return "banker", 2
    extra = 1 if rules.levels == "seed001" and score < 0 else 0
    return "banker", 3 + (-score) // step + extra


def next_banker(banker: int, side: str) -> int:
    """The next hand's banker: the banker's partner if the banker side held, else the banker's 下家."""
    return (banker + 2) % 4 if side == "banker" else (banker + 1) % 4


__all__ = ["points", "kitty_multiplier", "throw_penalty", "level_result", "next_banker", "parse_cards",
           "TrumpContext"]
