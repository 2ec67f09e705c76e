"""A random legal player and random complete deals, for property tests and benches (not a bot that plays well).

>>> record = random_record(random.Random(3))
>>> record["game"], len(record["hands"]), sorted(record["places"])
('gouji', 6, [0, 1, 2, 3, 4, 5])
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from trainer.engine.cards import Card
from trainer.engine.errors import IllegalPlayError
from trainer.gouji.deal import choose_moves, deal, with_exchanges
from trainer.gouji.plays import BIG, SMALL, THREE, TWO, VALUE_OF, Play
from trainer.gouji.rules import GoujiRules
from trainer.gouji.state import Action, HandState


def _by_value(state: HandState, seat: int) -> dict[int, list[Card]]:
    cards: dict[int, list[Card]] = {}
    for card in state.hand(seat):
        cards.setdefault(VALUE_OF[card.index], []).append(card)
    return cards


def _beating_candidates(state: HandState, seat: int, top: Play) -> list[list[Card]]:
    """Plays of `seat` whose key could beat `top` (one per base, jokers and 2s split), unchecked."""
    held = _by_value(state, seat)
    size = top.size
    big, small, twos = held.get(BIG, []), held.get(SMALL, []), held.get(TWO, [])
    found = []
    for base in [None, *range(THREE + 1, TWO + 1)]:
        for b in range(min(len(big), size) + 1):
            for s in range(min(len(small), size - b) + 1):
                need = size - b - s
                if base is None:
                    if need:
                        continue
                    rest: list[Card] = []
                elif base == TWO:
                    if not need or need > len(twos):
                        continue
                    rest = twos[:need]
                else:
                    own = held.get(base, [])
                    if not own:
                        continue
                    k = min(len(own), need)
                    if not k or need - k > len(twos):
                        continue
                    rest = own[:k] + twos[:need - k]
                key = (BIG,) * b + (SMALL,) * s + ((base,) * need if base is not None else ())
                if all(p > t for p, t in zip(key, top.key)):
                    found.append(big[:b] + small[:s] + rest)
    if top.big and state.rules.two_kill_one and len(big) >= 2 * top.big:   # 二杀一: two BJ for each BJ
        pair = big[:2 * top.big]
        if top.size == top.big:
            found.append(pair)
        else:
            rest_top = top._replace(key=top.key[top.big:], cards=top.cards[top.big:], big=0)
            found += [pair + cards for cards in _beating_candidates(state, seat, rest_top)
                      if sum(1 for card in cards if card in pair) + 2 * top.big <= len(big)]
    return found


def _lead_candidates(state: HandState, seat: int, rng: random.Random) -> Iterator[list[Card]]:
    """Leads for `seat`, random ones first, then every single-rank set with and without a joker."""
    held = _by_value(state, seat)
    jokers = held.get(BIG, []) + held.get(SMALL, [])
    plain = [v for v in held if v < SMALL]
    for _ in range(3):
        value = rng.choice(plain) if plain else None
        if value is not None:
            cards = held[value][:rng.randint(1, len(held[value]))]
            if jokers and rng.random() < 0.15:
                cards = cards + [rng.choice(jokers)]
            yield cards
    yield state.hand(seat)
    for value in plain:
        for extra in ([], jokers[:1]):
            yield held[value] + extra
            if TWO in held and value != TWO:
                yield held[value] + held[TWO] + extra
    for joker in jokers:
        yield [joker]


def _try(state: HandState, seat: int, action: Action) -> bool:
    try:
        state.act(seat, action)
    except IllegalPlayError:
        return False
    return True


def random_step(state: HandState, rng: random.Random) -> tuple[int, Action]:
    """Apply one random legal action (a burn now and then, beats, passes, yields) and return it."""
    turn = state.turn
    assert turn.actor is not None and state.owner is not None or turn.leading
    if turn.leading:
        seat = turn.actor
        assert seat is not None
        for cards in _lead_candidates(state, seat, rng):
            if _try(state, seat, cards):
                return seat, cards
        raise RuntimeError(f"seat {seat} has no legal lead")
    top = state.top
    assert top is not None and turn.actor is not None
    if turn.may_burn and rng.random() < 0.4:
        for burner in rng.sample(turn.may_burn, len(turn.may_burn)):
            candidates = _beating_candidates(state, burner, top)
            rng.shuffle(candidates)
            for cards in candidates:
                if _try(state, burner, cards):
                    return burner, cards
    seat = turn.actor
    if turn.may_yield and rng.random() < 0.2:
        state.act(seat, "yield")
        return seat, "yield"
    if rng.random() < 0.6:
        candidates = _beating_candidates(state, seat, top)
        rng.shuffle(candidates)
        for cards in candidates:
            if _try(state, seat, cards):
                return seat, cards
    state.act(seat, "pass")
    return seat, "pass"


def random_record(rng: random.Random, rules: GoujiRules | None = None, stop_after: int | None = None
                  ) -> dict[str, Any]:
    """A random legal Gouji record (`jipai-deal/1`), complete unless `stop_after` actions cut it short."""
    rules = rules or GoujiRules()
    hands = deal(rng, rules)
    leader = rng.randrange(rules.players)
    moves = choose_moves(hands, leader, rules)
    state = HandState.start(rules, with_exchanges(hands, moves), leader)
    while not state.over and (stop_after is None or state.action_count() < stop_after):
        random_step(state, rng)
    return record_of(rules, hands, moves, leader, state)


def record_of(rules: GoujiRules, hands: list[list[Card]], moves: list[tuple[int, int, Card, Card | None]],
              leader: int, state: HandState) -> dict[str, Any]:
    """The record of a hand played in `state` from the dealt `hands`, 买3 `moves` and first `leader`."""
    rounds: list[dict[str, Any]] = []
    for round_no, seat, action in state.history:
        if len(rounds) < round_no:
            rounds.append({"leader": seat, "actions": []})
        rounds[-1]["actions"].append([seat, action if isinstance(action, str) else [str(c) for c in action]])
    record: dict[str, Any] = {
        "format": "jipai-deal/1", "game": "gouji", "rules": rules.to_json(),
        "hands": [[str(card) for card in hand] for hand in hands],
        "exchanges": [{"from": seller, "to": buyer, "card": str(three), "paid": str(paid) if paid else None}
                      for seller, buyer, three, paid in moves],
        "leader": leader, "rounds": rounds,
    }
    if state.over:
        record["places"] = list(state.places)
    return record

