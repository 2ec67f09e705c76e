"""Test helper: what one trick of a record held, counted from the record's cards (not from the tracker): the
answers a flash (闪记) about that trick must give."""
from __future__ import annotations

from typing import Any

from trainer.engine.trump import TRUMP
from trainer.records import DealRecord


def trick_answers(record: DealRecord, seat: int, number: int) -> dict[str, Any]:
    """Trick `number`'s trumps, its points, and the other seats (as option values) that did not follow its led
    suit, by flash question type, seen from `seat`."""
    ctx = record.ctx
    trick = record.tricks[number - 1]
    cards = [card for play in trick.plays for card in play]
    led = ctx.suit_of[trick.plays[0][0].index]
    failed = [str((trick.leader + k) % 4) for k, play in enumerate(trick.plays)
              if any(ctx.suit_of[c.index] != led for c in play) and (trick.leader + k) % 4 != seat]
    return {"flash_trumps": sum(ctx.suit_of[c.index] == TRUMP for c in cards),
            "flash_points": sum(c.points for c in cards), "flash_voids": sorted(failed)}
