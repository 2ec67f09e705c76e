"""Tier-2 decision facts (training.md §2): hand-made positions with answers worked out by hand, and a
property test over random-legal deals — a throw called safe is never beatable from the true hands,
every "can" answer is witnessed by a consistent distribution the test builds itself (networkx,
`tests/tracking/oracle.py`), every "cannot" has none, and `must_hold` agrees with the true hands."""
from __future__ import annotations

import os
import random
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.bots.random import random_record
from trainer.engine import Card, Rules
from trainer.engine.combos import face_counts
from trainer.engine.tricks import unit_beaten_by
from trainer.engine.trump import TRUMP
from trainer.records import Position, parse_record, replay
from trainer.tracking.decisions import (can_hold, max_trumps, must_hold, throw_problem, throw_verdict, who_beats,
                                        who_ruffs)
from trainer.tracking.inference import Inference
from trainer.tracking.tracker import track

from tests.tracking.oracle import truth, witness
from tests.tracking.test_facts_handmade import base, make, swap, trick

SCALE = float(os.environ.get("JIPAI_PROPERTY_SCALE", "1"))
RULE_SPECS = ["standard", "one-deck", "three-deck", "four-deck", "fixed-twos", {"ace_two_wrap": True},
              {"hollow_tractors": "none"}, {"follow": "loose"}]
RULES = [Rules.parse(spec) for spec in RULE_SPECS]
PLENTY = 99


# -- hand-made positions -----------------------------------------------------------------------------
# The base deal (level 2, no trump; trumps are the jokers and the 2s, the 2s buried): seat 0 (the
# banker) holds the spades + BJ, seat 1 the hearts + BJ, seat 2 the clubs + SJ, seat 3 the diamonds + SJ.

def deal_hearts():
    """Seat 3 holds A♥ and 4♥ (for 3♦ and 4♦ from seat 1). Trick 1: seat 0 leads A♠, seat 1 ruffs with
    BJ, seats 2 and 3 discard; trick 2: seat 1 leads 3♥, seat 2 and seat 0 show out, seat 3 follows 4♥."""
    hands, kitty = base()
    swap(hands, kitty, "AH", 1, "3D", 3)
    swap(hands, kitty, "4H", 1, "4D", 3)
    return make(hands, kitty, kitty, [trick(0, "AS", "BJ", "3C", "5D"), trick(1, "3H", "4C", "4H", "KS")])


def deal_spades():
    """Seat 3 holds K♠ and Q♠ (for 5♦ and 6♦ from seat 0). Trick 1: seat 0 leads A♠, seat 1 ruffs with
    BJ, seat 2 discards, seat 3 follows with Q♠: its K♠ is the only spade out, and seats 1 and 2 are void."""
    hands, kitty = base()
    swap(hands, kitty, "KS", 0, "5D", 3)
    swap(hands, kitty, "QS", 0, "6D", 3)
    return make(hands, kitty, kitty, [trick(0, "AS", "BJ", "3C", "QS")])


def at(record, seat, where):
    """What `seat` knows at position `where`, and its inference."""
    snap = track(record, seat, Position.parse(where, record))
    return snap, Inference(snap)


def cards(text):
    """Cards from space-separated names."""
    return [Card.parse(name) for name in text.split()]


def test_a_throw_only_the_ace_out_beats_is_unsafe_from_every_seat_that_could_hold_it():
    snap, inference = at(deal_hearts(), 1, "1.0")
    verdict = throw_verdict(inference, cards("KH KH QH"))
    assert [[str(c) for c in unit.cards()] for unit in verdict.units] == [["KH", "KH"], ["QH"]]
    assert verdict.to_json()["beaten_by"] == [[1, 0, ["AH"]], [1, 2, ["AH"]], [1, 3, ["AH"]]]
    assert not verdict.safe  # the pair is safe: only one A♥ is out


def test_showing_out_leaves_one_seat_that_can_beat():
    snap, inference = at(deal_hearts(), 1, "2.4")
    verdict = throw_verdict(inference, cards("KH KH QH"))
    assert verdict.to_json() == {"cards": ["KH", "KH", "QH"], "units": [["KH", "KH"], ["QH"]], "safe": False,
                                 "beaten_by": [[1, 3, ["AH"]]]}
    assert who_beats(inference, Card.parse("KH")) == [3]
    assert who_beats(inference, Card.parse("3H")) == [3]


def test_a_throw_of_the_top_cards_is_safe():
    snap, inference = at(deal_hearts(), 1, "2.4")
    assert throw_verdict(inference, cards("KH KH QH QH JH")).safe is False  # A♥ beats J♥
    snap, inference = at(deal_spades(), 0, "1.4")
    verdict = throw_verdict(inference, cards("AS QS"))  # the one K♠ out beats the Q♠, and seat 3 holds it
    assert verdict.to_json()["beaten_by"] == [[1, 3, ["KS"]]]
    assert throw_verdict(inference, cards("AS KS JS JS")).safe  # K♠ out ties my K♠ and cannot beat a pair
    assert throw_verdict(inference, cards("JS JS 10S 10S")).safe  # one K♠ out: no pair can beat a pair


def test_the_last_seat_not_void_must_hold_the_card_for_the_banker():
    snap, inference = at(deal_spades(), 0, "1.4")
    held = must_hold(inference)
    assert [str(Card.from_index(f)) for f in held[3] if Card.from_index(f).suit is not None
            and Card.from_index(f).suit.letter == "S"] == ["KS"]
    assert all(Card.from_index(f) != Card.parse("KS") for q in (1, 2) for f in held[q])


def test_the_kitty_keeps_a_non_banker_from_certainty():
    snap, inference = at(deal_spades(), 1, "1.4")
    assert not any(Card.from_index(f) == Card.parse("KS") for q in (0, 2, 3) for f in must_hold(inference)[q])


def test_who_ruffs_needs_a_void_and_a_trump():
    snap, inference = at(deal_spades(), 0, "1.4")
    assert who_ruffs(inference, 0) == [1, 2]  # seat 3 still holds K♠; SJ SJ are out for seats 1 and 2
    assert max_trumps(inference, 1) == 2 and max_trumps(inference, 3) == 2


def test_a_seat_shown_without_trumps_cannot_ruff():
    hands, kitty = base()
    swap(hands, kitty, "KS", 0, "5D", 3)
    # trick 1: seat 0 leads BJ; seat 1 plays its BJ, seat 2 its SJ, seat 3 its SJ: the jokers are gone and
    # the 2s are buried, so from the banker's seat nobody has a trump left
    record = make(hands, kitty, kitty, [trick(0, "BJ", "BJ", "SJ", "SJ")])
    snap, inference = at(record, 0, "1.4")
    assert who_ruffs(inference, 0) == [] and max_trumps(inference, 2) == 0


def test_a_tractor_needs_both_pairs_in_one_hand():
    hands, kitty = base()
    # seat 1 gets one A♠ and one K♠, seat 2 the other A♠ and K♠: no seat can hold A♠A♠K♠K♠ — but seat 0
    # (the viewer, not the banker now) cannot know who holds which, only that the kitty holds no spade
    swap(hands, kitty, "AS", 0, "3H", 1)
    swap(hands, kitty, "KS", 0, "4H", 1)
    swap(hands, kitty, "AS", 0, "3C", 2)
    swap(hands, kitty, "KS", 0, "4C", 2)
    record = make(hands, kitty, kitty, [], banker=3)
    snap, inference = at(record, 0, "1.0")
    tractor = cards("AS AS KS KS")
    assert can_hold(inference, 1, face_counts(tractor)) and can_hold(inference, 2, face_counts(tractor))
    verdict = throw_verdict(inference, cards("QS QS JS JS"))
    assert [entry[:2] for entry in verdict.to_json()["beaten_by"]] == [[0, 1], [0, 2], [0, 3]]


@pytest.mark.parametrize("text, problem", [
    ("AS KH", "the cards are not all of one suit"),
    ("BJ", "the cards are trumps: a throw is asked in a side suit"),
    ("AH", "the hand holds 0 AH, not 1"),
    ("KS KS KS", "the hand holds 2 KS, not 3"),
    ("", "no cards given"),
])
def test_a_throw_must_be_held_and_of_one_side_suit(text, problem):
    snap, _inference = at(make(*base(), base()[1], []), 0, "1.0")
    assert throw_problem(snap.mine, cards(text), snap.ctx.suit_of) == problem


# -- the property: exact against the true hands and the oracle's witnesses ---------------------------

def beating(unit, snap):
    """Every smallest combination (face → copies) that beats `unit` in its suit, by rules.md §3–4: a
    higher tuple of its width, or as many consecutive higher positions of such tuples."""
    ctx = snap.ctx
    suit = ctx.suit_of[unit.faces[0]]
    faces = [f for f in ctx.faces_by_suit[suit] if snap.unseen[f] >= unit.width]
    if unit.length == 1:
        return [{f: unit.width} for f in faces if ctx.strength[f] > unit.top]
    at_position: dict[int, list[int]] = {}
    for f in faces:
        at_position.setdefault(ctx.position[f], []).append(f)
    top = ctx.position[unit.faces[0]]
    found = []
    for p in at_position:
        run = [p - k for k in range(unit.length)]
        if p > top and all(r in at_position for r in run):
            found += [{f: unit.width for f in choice} for choice in product(*(at_position[r] for r in run))]
    return found


def holds(hand, combination):
    """True when `hand` (face → copies) holds every card of `combination`."""
    return all(hand.get(f, 0) >= copies for f, copies in combination.items())


def deal(seed, rules_index):
    """A validated random-legal deal under RULES[rules_index]."""
    record = parse_record(random_record(random.Random(seed), RULES[rules_index], throw_rate=0.2))
    replay(record)
    return record


@pytest.mark.parametrize("rules_index", range(len(RULES)), ids=[str(s) for s in RULE_SPECS])
@settings(max_examples=max(1, round(3 * SCALE)), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 3), st.integers(4, 96))
def test_decisions_are_exact_and_hold_the_truth(rules_index, seed, seat, cut):
    record = deal(seed, rules_index)
    plays = [Position(1, 0)] + [Position(n, k) for n, t in enumerate(record.tricks, start=1)
                                for k in range(1, len(t.plays) + 1)]
    position = plays[min(cut, len(plays) - 1)]
    snap = track(record, seat, position)
    ctx = snap.ctx
    inference = Inference(snap)
    hands = truth(record, position)
    seats = [q for q in range(4) if q != seat]
    sides = [s for s in range(4) if any(snap.mine[f] for f in ctx.faces_by_suit[s])]
    for suit in sides:
        mine = [Card.from_index(f) for f in ctx.faces_by_suit[suit] for _ in range(snap.mine[f])]
        verdict = throw_verdict(inference, mine)
        listed = {(index, q, tuple(sorted(face_counts(combo).items()))) for index, q, combo in verdict.beaten_by}
        if verdict.safe:
            assert not any(unit_beaten_by(unit, hands[q], ctx) for unit in verdict.units for q in seats)
        for index, unit in enumerate(verdict.units):
            for q in seats:
                for combination in beating(unit, snap):
                    found = witness(snap, [(q, f, c, PLENTY) for f, c in combination.items()])
                    key = (index, q, tuple(sorted(combination.items())))
                    assert (found is not None) is (key in listed), (key, found is not None)
                    if found is not None:
                        assert holds(found[q], combination) and unit_beaten_by(unit, found[q], ctx)
                    if holds(hands[q], combination):
                        assert key in listed
        top = mine[0]
        higher = [f for f in ctx.faces_by_suit[suit] if snap.unseen[f] and ctx.strength[f] > ctx.strength[top.index]]
        beaters = who_beats(inference, top)
        for q in seats:
            witnesses = [w for f in higher if (w := witness(snap, [(q, f, 1, PLENTY)])) is not None]
            assert bool(witnesses) is (q in beaters), (q, str(top))
            if any(hands[q].get(f) for f in higher):
                assert q in beaters
    for suit in (s for s in range(4) if ctx.trump is None or s != int(ctx.trump)):
        ruffers = who_ruffs(inference, suit)
        for q in seats:
            found = witness(snap, suits=[(q, suit, 0, 0), (q, TRUMP, 1, PLENTY)])
            assert (found is not None) is (q in ruffers), (q, suit)
            if found is not None:
                assert not any(ctx.suit_of[f] == suit for f in found[q])
                assert any(ctx.suit_of[f] == TRUMP for f in found[q])
            held = hands[q]
            if not any(ctx.suit_of[f] == suit for f in held) and any(ctx.suit_of[f] == TRUMP for f in held):
                assert q in ruffers
    for q in seats:
        most = max_trumps(inference, q)
        attained = witness(snap, suits=[(q, TRUMP, most, most)])
        assert attained is not None and sum(c for f, c in attained[q].items() if ctx.suit_of[f] == TRUMP) == most
        assert witness(snap, suits=[(q, TRUMP, most + 1, PLENTY)]) is None
        assert sum(c for f, c in hands[q].items() if ctx.suit_of[f] == TRUMP) <= most
    for q, faces in must_hold(inference).items():
        for face in faces:
            shown = max(snap.constraints.returned[q].get(face, 0), snap.constraints.declared[q].get(face, 0))
            assert hands[q].get(face, 0) > shown
            assert witness(snap, [(q, face, 0, shown)]) is None


def test_void_and_a_trump_at_once_is_one_question_not_two():
    """Seat 2 has shown out of ♥ and ♦ and holds one card: it must be the SJ. Seats 1 and 3 can each be void
    in ♥ (holding 3♦) and could each hold a trump as far as their own cells go, but not both at once."""
    snap = track(make(*base(), base()[1], []), 0, Position(1, 0))
    unseen = [0] * 54
    for name in ("AH", "SJ", "3D"):
        unseen[Card.parse(name).index] = 1
    voids = [0, 0, 1 << 1 | 1 << 3, 0]
    snap = snap._replace(unseen=tuple(unseen), hand_sizes=(1, 1, 1, 1), revealed_voids=tuple(voids))
    inference = Inference(snap)
    assert who_ruffs(inference, 1) == [2]
    assert [max_trumps(inference, q) for q in (1, 2, 3)] == [0, 1, 0]
    assert {q: [str(Card.from_index(f)) for f in faces] for q, faces in must_hold(inference).items()} == {
        1: [], 2: ["SJ"], 3: []}
