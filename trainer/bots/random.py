"""A random player: deals a shuffled hand and plays uniformly among legal plays (throws now and then).

It makes the random-legal deals that tests and benchmarks replay.
"""
from __future__ import annotations

import random
from typing import Any

from trainer.engine.cards import Card, full_deck
from trainer.engine.follow import legal_leads, random_follow
from trainer.engine.round import RoundState
from trainer.engine.rules import Rules
from trainer.engine.trump import TrumpContext
from trainer.records import FORMAT

LEVEL_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def random_lead(state: RoundState, rng: random.Random, throw_rate: float = 0.1) -> list[Card]:
    """A random lead for the seat to lead: a single combination, or now and then a throw of one suit."""
    hand = state.hands[state.next_leader]
    ctx = state.ctx
    leads = list(legal_leads(hand, ctx))
    if rng.random() < throw_rate:
        suit = ctx.suit_of[rng.choice(leads)[0].index]
        cards = [Card.from_index(f) for f, c in hand.items() if ctx.suit_of[f] == suit for _ in range(c)]
        if len(cards) >= 2:
            return rng.sample(cards, rng.randint(2, min(len(cards), 6)))
    return rng.choice(leads)


def _declarations(hands: list[list[Card]], banker: int, level: str, trump: str) -> list[dict[str, Any]]:
    """Plausible public declarations: the banker showed its trump level card(s); when it showed a
    pair, another seat may have shown a single of another suit first (反主)."""
    if trump == "none":
        return []
    shown = [c for c in hands[banker] if str(c) == level + trump]
    if not shown:
        return []
    declarations = []
    if len(shown) == 2:
        for seat in range(4):
            single = next((c for c in hands[seat] if str(c)[:-1] == level and str(c) != level + trump), None)
            if seat != banker and single is not None:
                declarations.append({"seat": seat, "cards": [str(single)]})
                break
    declarations.append({"seat": banker, "cards": [str(c) for c in shown]})
    return declarations


def random_record(rng: random.Random, rules: Rules | None = None, throw_rate: float = 0.1,
                  stop_after: int | None = None) -> dict[str, Any]:
    """A complete random-legal deal as a `jipai-deal/1` object (or one cut after `stop_after` plays)."""
    rules = rules or Rules()
    deck = full_deck(rules.decks)
    rng.shuffle(deck)
    size = rules.hand_size
    hands = [deck[i * size:(i + 1) * size] for i in range(4)]
    kitty = deck[4 * size:]
    level = rng.choice(LEVEL_NAMES)
    trump = rng.choice(["S", "H", "C", "D", "S", "H", "C", "D", "none"])
    banker = rng.randrange(4)
    pool = hands[banker] + kitty
    rng.shuffle(pool)
    buried, banker_hand = pool[:rules.kitty_size], pool[rules.kitty_size:]
    declarations = _declarations(hands, banker, level, trump)
    playing = [list(h) for h in hands]
    playing[banker] = banker_hand
    ctx = TrumpContext.parse(level, trump, rules)
    state = RoundState.start(rules, ctx, banker, playing, buried)
    tricks: list[dict[str, Any]] = []
    made = 0
    while not state.is_over and (stop_after is None or made < stop_after):
        if state.current_trick is None:
            cards = random_lead(state, rng, throw_rate)
            result = state.lead(cards)
            trick: dict[str, Any] = {"leader": state.tricks[-1].leader}
            if not result.ok:
                trick["attempt"] = [str(c) for c in cards]
            trick["plays"] = [[str(c) for c in state.tricks[-1].plays[0]]]
            tricks.append(trick)
        else:
            lead = state.current_trick.lead
            assert lead is not None
            cards = random_follow(lead, state.hands[state.next_seat], ctx, rng)
            state.follow(cards)
            tricks[-1]["plays"].append([str(c) for c in cards])
        made += 1
    return {
        "format": FORMAT, "rules": rules.to_json(), "level": level, "trump": trump, "banker": banker,
        "hands": [[str(c) for c in hand] for hand in hands], "kitty": [str(c) for c in kitty],
        "buried": [str(c) for c in buried], "tricks": tricks,
        **({"declarations": declarations} if declarations else {}),
        "source": {"kind": "generated", "generator": "random"},
    }
