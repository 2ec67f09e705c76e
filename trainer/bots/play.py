"""A whole hand played by bots: deal and declare, bury, play every trick; the result as a record."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from trainer.bots.bury import choose_burial
from trainer.bots.dealing import deal_hand
from trainer.bots.heuristic import Bot, HeuristicBot, RandomBot
from trainer.engine.cards import RANK_NAMES
from trainer.engine.round import RoundResult, RoundState
from trainer.engine.rules import Rules
from trainer.engine.trump import TrumpContext
from trainer.records import FORMAT
from trainer.signals.conventions import Convention
from trainer.tracking.tracker import last_event

BOTS: dict[str, type[Bot]] = {"heuristic": HeuristicBot, "random": RandomBot}


def play_hand(rng: random.Random, rules: Rules, level: int, banker: int | None, bots: Sequence[str],
              first_seat: int = 0, signals: Convention | None = None,
              signalling_side: str | None = None) -> tuple[dict[str, Any], RoundResult]:
    """Deal, declare, bury and play one hand; `banker` None means the first hand of a game (the first
    declarer becomes banker); heuristic bots follow the convention set `signals` when given (only the
    `banker` or `attackers` side when `signalling_side` says so). Returns the record and its result."""
    deal = deal_hand(rng, rules, level, first_seat)
    if banker is None:
        banker = deal.declarations[0].seat if deal.declarations else first_seat
    ctx = TrumpContext.shared(level, deal.trump, rules)

    def convention(seat: int) -> dict[str, Convention]:
        side = "banker" if (seat - banker) % 2 == 0 else "attackers"
        follows = signals is not None and bots[seat] == "heuristic" and signalling_side in (None, side)
        return {"convention": signals} if follows and signals is not None else {}
    pool = list(deal.hands[banker]) + list(deal.kitty)
    if bots[banker] == "random":
        buried = rng.sample(pool, rules.kitty_size)
    else:
        buried = choose_burial(pool, ctx, convention(banker).get("convention"))
    playing = [list(hand) for hand in deal.hands]
    remaining = list(pool)
    for card in buried:
        remaining.remove(card)
    playing[banker] = remaining
    declared = [(d.seat, d.cards) for d in deal.declarations]
    players = [BOTS[bots[seat]](seat, ctx, banker, playing[seat], buried if seat == banker else None, declared,
                                random.Random(rng.random()), **convention(seat)) for seat in range(4)]
    state = RoundState.start(rules, ctx, banker, playing, buried)
    tricks: list[dict[str, Any]] = []
    while not state.is_over:
        seat = state.next_seat
        if state.current_trick is None:
            cards = players[seat].lead()
            result = state.lead(cards)
            trick: dict[str, Any] = {"leader": seat}
            attempt = None if result.ok else cards
            if attempt is not None:
                trick["attempt"] = [str(c) for c in attempt]
            played = state.tricks[-1].plays[0]
            trick["plays"] = [[str(c) for c in played]]
            tricks.append(trick)
        else:
            played = players[seat].follow()
            state.follow(played)
            attempt = None
            tricks[-1]["plays"].append([str(c) for c in played])
        event = last_event(state, len(state.tricks), played, attempt)
        for player in players:
            player.observe(event)
    record = {
        "format": FORMAT, "rules": rules.to_json(), "level": RANK_NAMES[level],
        "trump": "none" if deal.trump is None else deal.trump.letter, "banker": banker,
        "hands": [[str(c) for c in hand] for hand in deal.hands], "kitty": [str(c) for c in deal.kitty],
        "buried": [str(c) for c in buried], "declarations": [d.to_json() for d in deal.declarations],
        "tricks": tricks,
    }
    if not deal.declarations:
        del record["declarations"]
    return record, state.result()
