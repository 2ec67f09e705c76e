"""掼蛋 candidate plays and bots: every candidate is a legal reading, the heuristic keeps bombs and lets its
partner's top stand, generated deals verify and are deterministic; undo restores any position."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine import parse_cards
from trainer.guandan import GuandanRules, HandState, Level, Reading, beats, readings
from trainer.guandan.bots import deal, generate_records, heuristic_bot, play_hand, random_bot
from trainer.guandan.moves import candidates, legal_plays
from trainer.guandan.records import parse_guandan_record, replay

STANDARD = GuandanRules()


def start(hands: list[str], leader: int = 0, level: str = "2") -> HandState:
    """A hand in play from short hands."""
    return HandState.start(STANDARD, Level.parse(level), [parse_cards(hand) for hand in hands], leader)


def test_candidates_use_wilds_for_missing_cards() -> None:
    """With the wild 2H: KK + W is a triple (and 三带两 with 33), 5 6 7 8 + W a straight flush."""
    level = Level.parse("2")
    found = {str(c.reading) for c in candidates(parse_cards("KS KD 5S 6S 7S 8S 3S 3D 4S 4D 2H"), level)}
    assert {"triple of K", "straight_flush to 9", "straight_flush to 8", "full_house of K", "single of 2"} <= found
    assert "4-card bomb of K" not in found  # KK + one wild is three cards


def test_legal_plays_only_beat_the_top() -> None:
    level = Level.parse("2")
    hand = parse_cards("3S 9S 9D KS KD KC KH 2H")
    top = Reading("pair", 10, 2)
    plays = legal_plays(hand, level, top)
    assert plays and all(beats(p.reading, top, level) and p.reading in readings(p.cards, level) for p in plays)
    assert {str(p.reading) for p in plays} >= {"pair of K", "4-card bomb of K", "5-card bomb of K"}
    assert "pair of 9" not in {str(p.reading) for p in plays}


def test_heuristic_leads_without_breaking_a_bomb_or_spending_a_wild() -> None:
    state = start(["KS KD KC KH 4S 9D 2H", "5S", "6S", "7S"])
    cards, _ = heuristic_bot(state, random.Random(1))
    assert [str(c) for c in cards] == ["4S"]


def test_heuristic_lets_its_partners_top_stand() -> None:
    state = start(["3S 4S", "5S 6S", "AS KD", "7S 8S"])
    state.act(0, parse_cards("3S"))
    state.act(1, "pass")
    assert heuristic_bot(state, random.Random(1)) == ("pass", None)


def test_heuristic_keeps_its_bomb_until_an_opponent_is_close_to_out() -> None:
    many = "3S 3D 4S 4D 5S 5D 6S 6D 7S"
    seven = "8S 8D 10S 10D JS JD QS"
    state = start([f"AS {many}", f"9S 9D 9C 9H {many}", seven, "6C"], leader=0)
    state.act(0, parse_cards("AS"))
    assert heuristic_bot(state, random.Random(1)) == ("pass", None)
    state = start(["AS 3S", "9S 9D 9C 9H 3D", seven, "6C"], leader=0)
    state.act(0, parse_cards("AS"))  # seat 0 now holds one card
    cards, reading = heuristic_bot(state, random.Random(1))
    assert reading is not None and reading.bomb


def test_heuristic_goes_out_when_one_play_empties_its_hand() -> None:
    state = start(["9S 9D 9C 4S 4D", "5S", "6S", "7S"])
    cards, reading = heuristic_bot(state, random.Random(1))
    assert len(cards) == 5 and str(reading) == "full_house of 9"


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000))
def test_random_play_then_undo_restores_every_position(seed: int) -> None:
    """Property: random legal play never fails, conserves the cards, and undo walks back to the start."""
    rng = random.Random(seed)
    hands = deal(rng)
    state = HandState.start(STANDARD, Level.parse(str(rng.choice([2, 7, 10]))), hands, rng.randrange(4))
    snapshots = []
    while not state.over:
        snapshots.append((tuple(tuple(c) for c in state.counts), state.turn, state.places, state.rounds))
        seat = state.turn
        assert seat is not None
        action, reading = random_bot(state, rng)
        state.act(seat, action, reading)
        played = sum(len(step.action) for _, step in state.history if step.action != "pass")
        assert played + sum(state.sizes) == 108
    while snapshots:
        state.undo()
        assert (tuple(tuple(c) for c in state.counts), state.turn, state.places, state.rounds) == snapshots.pop()


def test_heuristic_partners_beat_random_partners() -> None:
    """Over 30 seeded hands, seats swapped each hand, the heuristic team is 上游 in at least 70 %."""
    rng, wins = random.Random(2026), 0
    for number in range(30):
        team = number % 2
        bots = [heuristic_bot if seat % 2 == team else random_bot for seat in range(4)]
        _, state = play_hand(STANDARD, rng, bots)
        wins += state.places[0] % 2 == team
    assert wins >= 21


def test_generated_records_are_deterministic_and_verify() -> None:
    first = generate_records(STANDARD, 5, 3, ["heuristic", "random", "heuristic", "random"])
    assert first == generate_records(STANDARD, 5, 3, ["heuristic", "random", "heuristic", "random"])
    assert all(replay(parse_guandan_record(data)).complete for data in first)
    assert first[0]["source"] == {"kind": "generated", "seed": 5, "hand": 1,
                                  "bots": ["heuristic", "random", "heuristic", "random"]}
