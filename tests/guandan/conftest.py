"""Shared helper for the 掼蛋 tests: a record built around chosen cards."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from trainer.engine import full_deck, parse_cards



def build_record(prefix: dict[int, str], rounds: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    """A record whose hands hold the given cards in the given seats, the rest dealt from the top of the
    deck in face order (the big jokers first); by default a first hand at level 2 led by seat 0."""
    hands: list[list[str]] = [[], [], [], []]
    rest = Counter(str(card) for card in full_deck(2))
    for seat, cards in prefix.items():
        for card in parse_cards(cards):
            hands[seat].append(str(card))
            rest[str(card)] -= 1
    pool = list(rest.elements())
    for seat in range(4):
        while len(hands[seat]) < 27:
            hands[seat].append(pool.pop())
    data = {"format": "jipai-deal/1", "game": "guandan", "rules": "standard", "levels": ["2", "2"],
            "dajia": None, "level": "2", "hands": hands, "leader": 0, "rounds": rounds}
    data.update(fields)
    return data


@pytest.fixture
def build() -> Callable[..., dict[str, Any]]:
    """The record builder."""
    return build_record
