"""Property tests over random legal play (gouji.md §3): cards conserved, turn order, undo, records verify.

Two sources of hands: whole random deals under every preset, and small end-game hands rich in jokers, 2s
and high ranks, where burns, counter-burns, 二杀一 and 闷 happen often.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine import Card, parse_cards
from trainer.gouji import PRESETS, GoujiRules, HandState
from trainer.gouji.randomplay import random_record, random_step
from trainer.gouji.records import parse_gouji_record, replay, result_of, verify_summary

RICH = parse_cards("BJ BJ BJ BJ SJ SJ SJ SJ 2S 2H 2C 2D AS AH AD KS KH KD QS QH QD JS JH 10S 10H 9S 8S 7S")
THREES = parse_cards("3S 3H 3C 3D 3S 3H")


def endgame(rng: random.Random, rules: GoujiRules) -> list[list[Card]]:
    """Six short hands from a pool rich in jokers (at most `decks` copies of a face), each with one 3."""
    pool = list(RICH)
    rng.shuffle(pool)
    hands = [[THREES[seat]] for seat in range(rules.players)]
    for card in pool[:rng.randint(8, len(pool))]:
        hands[rng.randrange(rules.players)].append(card)
    return hands


def snapshot(state: HandState) -> dict[str, Any]:
    """Everything in the state, lists copied (the undo test compares before and after)."""
    return {key: [list(item) for item in value] if key in ("faces", "counts") else
            list(value) if isinstance(value, list) else value for key, value in state.__dict__.items()}


def play_out(state: HandState, rng: random.Random) -> None:
    """Play random legal actions to the end, checking conservation, turn order and undo at every step."""
    start_cards = Counter(card for seat in range(state.players) for card in state.hand(seat))
    played: Counter[Card] = Counter()
    while not state.over:
        turn = state.turn
        before = snapshot(state)
        seat, action = random_step(state, rng)
        if isinstance(action, str):
            assert seat == turn.actor                                          # a pass or yield: the actor's
        else:
            assert seat == turn.actor or seat in turn.may_burn                 # a play: the actor's, or a burn
            played.update(action)
        state.undo()
        assert snapshot(state) == before
        state.act(seat, action)
        held = Counter(card for q in range(state.players) for card in state.hand(q))
        assert held + played == start_cards
        assert sum(state.sizes) + sum(played.values()) == sum(start_cards.values())
    assert sorted(seat for seat in state.places if seat is not None) == list(range(state.players))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(sorted(PRESETS)))
def test_endgames_conserve_cards_keep_turns_and_undo(seed: int, preset: str) -> None:
    rng = random.Random(seed)
    rules = GoujiRules.parse({"preset": preset, "natural_open": False, "decks": 4})
    state = HandState.start(rules, endgame(rng, rules), rng.randrange(rules.players))
    play_out(state, rng)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(sorted(PRESETS)))
def test_whole_deals_conserve_cards_keep_turns_and_undo(seed: int, preset: str) -> None:
    rng = random.Random(seed)
    record = parse_gouji_record(random_record(rng, GoujiRules.parse(preset), stop_after=0))
    state = HandState.start(record.rules, record.playing_hands(), record.leader)
    play_out(state, rng)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(sorted(PRESETS)), st.none() | st.integers(0, 300))
def test_generated_records_verify_and_summaries_agree(seed: int, preset: str, stop: int | None) -> None:
    data = random_record(random.Random(seed), GoujiRules.parse(preset), stop_after=stop)
    rep = replay(parse_gouji_record(data))
    summary = verify_summary(rep)
    assert sum(r["actions"] for r in summary["rounds"]) == sum(len(r["actions"]) for r in data["rounds"])
    assert [r["leader"] for r in summary["rounds"]] == [r["leader"] for r in data["rounds"]]
    assert all(not r["partial"] for r in summary["rounds"][:-1])
    assert summary["complete"] == ("places" in data)
    if summary["complete"]:
        assert summary["places"] == data["places"] and summary["result"] is not None
        team_raw = [sum(p for s, p in enumerate(summary["result"]["seat_points"]) if s % 2 == t) for t in (0, 1)]
        if rep.record.rules.team_total == "sum" and not summary["result"]["chuan_san_hu"]:
            assert summary["result"]["team_points"] == team_raw
    else:
        assert summary["result"] is None


def test_endgames_reach_burns_counter_burns_kills_and_men() -> None:
    """The end-game source really exercises the rare rules (so the properties above cover them)."""
    seen: Counter[str] = Counter()
    for seed in range(200):
        rng = random.Random(seed)
        rules = GoujiRules.parse({"preset": "bisai", "natural_open": False})
        state = HandState.start(rules, endgame(rng, rules), rng.randrange(6))
        while not state.over:
            random_step(state, rng)
        seen.update(burns=len(state.burns), counter=sum(b.counter for b in state.burns),
                    success=sum(b.success is True for b in state.burns), kills=len(state.kills), men=len(state.men))
        assert result_of(state) is not None
    assert all(seen[key] > 0 for key in ("burns", "counter", "success", "kills", "men")), seen


def test_ten_seats_play_to_the_end() -> None:
    """Seats, teams and decks come from the rules: ten seats with five decks play and verify too."""
    rules = GoujiRules.parse({"players": 10, "decks": 5})
    rep = replay(parse_gouji_record(random_record(random.Random(1), rules)))
    assert rep.complete and sorted(rep.state.places) == list(range(10))
    assert len(rep.record.hands[0]) == 27 and rules.duitou(7) == 2
