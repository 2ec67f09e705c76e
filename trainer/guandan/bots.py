"""掼蛋 bots and deal generation: a random bot, a heuristic bot (keeps bombs, plays its partner's way,
uses wilds), and whole hands played out into records that verify (deterministic for a seed).

>>> record = generate_records(GuandanRules(), seed=7, count=1)[0]
>>> record["game"], len(record["hands"]), bool(record["places"])
('guandan', 4, True)
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from trainer.engine.cards import Card, full_deck
from trainer.engine.seats import Seat
from trainer.guandan.level import Level, rank_text
from trainer.guandan.moves import Candidate, legal_plays
from trainer.guandan.plays import Reading, strength
from trainer.guandan.records import Exchange, write_record
from trainer.guandan.rules import GuandanRules
from trainer.guandan.scoring import level_gain
from trainer.guandan.state import Action, HandState
from trainer.guandan.tribute import return_reason, tribute_plan

Move = tuple[Action, Reading | None]
Bot = Callable[[HandState, random.Random], Move]


def _top(state: HandState) -> Reading | None:
    return state.top.reading if state.top is not None else None


def random_bot(state: HandState, rng: random.Random) -> Move:
    """Any legal action, uniformly: a play (declared) or, when following, a pass."""
    assert state.turn is not None
    plays = legal_plays(state.hand(state.turn), state.level, _top(state))
    if state.top is not None and rng.randrange(len(plays) + 1) == len(plays):
        return "pass", None
    choice = rng.choice(plays)
    return choice.cards, choice.reading


def _cost(candidate: Candidate, level: Level, ranks: Counter[int]) -> tuple[int, int, int, tuple[int, int, int], int]:
    """How much a play spends: a bomb, a bomb broken (cards of a rank held 4+ times, not all played),
    wilds, then strength (low first) and length (long first)."""
    wilds = sum(1 for card in candidate.cards if level.is_wild(card))
    used = Counter(card.rank for card in candidate.cards if not level.is_wild(card))
    broken = sum(1 for rank, count in used.items() if ranks[rank] >= 4 and count < ranks[rank])
    return (candidate.reading.bomb, broken, wilds, strength(candidate.reading, level), -len(candidate.cards))


def heuristic_bot(state: HandState, rng: random.Random) -> Move:
    """Lead the cheapest play (no bomb, no bomb broken, few wilds, low, long); follow an opponent with the
    cheapest play that beats, bombing only when an opponent is close to going out (6 cards or fewer);
    let the partner's top stand; go out when one play empties the hand."""
    seat = state.turn
    assert seat is not None
    hand = state.hand(seat)
    level = state.level
    plays = legal_plays(hand, level, _top(state))
    finishing = [play for play in plays if len(play.cards) == len(hand)]
    if finishing:
        return finishing[0].cards, finishing[0].reading
    ranks = Counter(card.rank for card in hand if not level.is_wild(card) and not card.is_joker)
    plays.sort(key=lambda play: _cost(play, level, ranks))
    if state.top is None:
        best = plays[0]
        return best.cards, best.reading
    owner = state.owner
    assert owner is not None
    if owner == Seat(seat).partner:
        return "pass", None
    danger = min(state.sizes[s] for s in range(4) if s % 2 != seat % 2 and not state.is_out(s)) <= 6
    for play in plays:
        if not play.reading.bomb or danger:
            return play.cards, play.reading
    return "pass", None


BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}
"""The bots by name."""


def deal(rng: random.Random) -> list[list[Card]]:
    """Shuffle two decks and deal 27 cards to each seat, sorted by face."""
    cards = full_deck(2)
    rng.shuffle(cards)
    return [sorted(cards[seat * 27:(seat + 1) * 27], key=lambda card: card.index) for seat in range(4)]


def _return_card(hand: Sequence[Card], level: Level, rules: GuandanRules) -> Card:
    """A bot's 还贡: its lowest card by level value (always allowed)."""
    card = min(hand, key=lambda c: (level.lv(c), c.index))
    assert return_reason(hand, card, level, rules)[0]
    return card


def play_hand(rules: GuandanRules, rng: random.Random, bots: Sequence[Bot], levels: tuple[int, int] = (2, 2),
              dajia: int | None = None, a_failures: tuple[int, int] = (0, 0),
              previous: Sequence[int] | None = None) -> tuple[dict[str, Any], HandState]:
    """Deal, pay and return tribute, and play one hand with `bots` (one per seat); its record and end state."""
    level = Level.parse(rank_text(levels[dajia]) if dajia is not None else "2")
    hands = deal(rng)
    plan = tribute_plan(previous, hands, level)
    playing = [list(hand) for hand in hands]
    exchanges = []
    for due in plan.tributes:
        card = due.cards[0]
        playing[due.payer].remove(card)
        playing[due.receiver].append(card)
    for due in plan.tributes:
        returned = _return_card(playing[due.receiver], level, rules)
        playing[due.receiver].remove(returned)
        playing[due.payer].append(returned)
        exchanges.append(Exchange(due.payer, due.receiver, due.cards[0], returned))
    leader = plan.leader if plan.leader is not None else rng.randrange(4)
    state = HandState.start(rules, level, playing, leader, keep_undo=False)
    while not state.over:
        seat = state.turn
        assert seat is not None
        action, reading = bots[seat](state, rng)
        state.act(seat, action, reading)
    record = write_record(rules, levels, dajia, hands, state, previous=previous, a_failures=a_failures,
                          tribute_kind=plan.kind, exchanges=exchanges)
    return record, state


def generate_records(rules: GuandanRules, seed: int, count: int, bots: str | Sequence[str] = "heuristic"
                     ) -> list[dict[str, Any]]:
    """`count` hands of one match from `seed`, each following the last (levels, 打家, tribute); a new
    match starts when one is won. Deterministic for the seed."""
    names = [bots] * 4 if isinstance(bots, str) else list(bots)
    players = [BOTS[name] for name in names]
    rng = random.Random(seed)
    records = []
    levels, dajia, failures, previous = (2, 2), None, (0, 0), None
    for number in range(count):
        record, state = play_hand(rules, rng, players, levels, dajia, failures, previous)
        record["source"] = {"kind": "generated", "seed": seed, "hand": number + 1, "bots": names}
        records.append(record)
        result = level_gain(state.places, levels, dajia, failures, rules)
        if result.match_over:
            levels, dajia, failures, previous = (2, 2), None, (0, 0), None
        else:
            levels, dajia, failures, previous = result.levels, result.next_dajia, result.a_failures, state.places
    return records
