"""Property tests of tracking over random-legal deals: incremental = recount, invariants, tier-2 exactness.

Every rule set the engine plays is covered (each preset, one to four decks, and each option that
changes what can be seen); `JIPAI_PROPERTY_SCALE=20` multiplies the examples for a long bug hunt. The tier-2
oracle rebuilds every constraint from the record (through `recount`, which borrows nothing from the
tracker) and decides feasibility with networkx (`tests/tracking/oracle.py`), sharing no code with `Inference`.
"""
from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.bots.random import random_record
from trainer.engine import Card, Rules, parse_cards, points
from trainer.engine.combos import pair_structure
from trainer.engine.rules import PRESETS
from trainer.engine.trump import SUIT_NAMES
from trainer.records import Position, parse_record, replay
from trainer.tracking.facts import facts_json
from trainer.tracking.inference import KITTY, Inference, infer_json
from trainer.tracking.recount import recount
from trainer.tracking.tracker import public_events, tracker_for, track

from tests.tracking.oracle import feasible, holders as _holders, truth as _truth

RULE_SPECS = [*PRESETS, {"preset": "three-deck", "follow": "protect_longer"},
              {"preset": "four-deck", "follow": "protect_longer_tractor_on_tractor_only"},
              {"preset": "three-deck", "follow": "loose", "fixed_twos": True},
              {"follow": "loose"}, {"follow": "lenient"}, {"follow": "protect_longer"},
              {"follow": "tractor_on_tractor_only", "fixed_twos": True}, {"ace_two_wrap": True},
              {"hollow_tractors": "none"}, {"hollow_tractors": "side_only"}, {"forced_play": "single_card"}]
RULES = [Rules.parse(spec) for spec in RULE_SPECS]
RULE_IDS = [spec if isinstance(spec, str) else "-".join(f"{k}={v}" if k != "preset" else v for k, v in spec.items())
            for spec in RULE_SPECS]
SCALE = float(os.environ.get("JIPAI_PROPERTY_SCALE", "1"))
"""Multiplies every test's example count (as in tests/engine/test_properties.py)."""
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def examples(count: int) -> int:
    return max(1, round(count * SCALE))


def positions(record):
    """Every position of a record in order, as (Position, text)."""
    found = [Position(1, 0)]
    for number, trick in enumerate(record.tricks, start=1):
        found += [Position(number, k) for k in range(1, len(trick.plays) + 1)]
    found.append(Position.parse("end", record))
    return found


def deal(seed: int, rules_index: int, stop_after: int | None = None):
    record = parse_record(random_record(random.Random(seed), RULES[rules_index], throw_rate=0.2,
                                        stop_after=stop_after))
    replay(record)
    return record


@pytest.mark.parametrize("rules_index", range(len(RULES)), ids=RULE_IDS)
@settings(max_examples=examples(3), **SETTINGS)
@given(st.integers(0, 10**6), st.integers(0, 3))
def test_incremental_tracker_equals_recount_everywhere(rules_index, seed, seat):
    record = deal(seed, rules_index)
    tracker = tracker_for(record, seat)
    events = list(public_events(record))
    spots = positions(record)
    assert recount(record, seat, spots[0]) == tracker.snapshot(spots[0])
    for event, position in zip(events, spots[1:-1]):
        tracker.observe(event)
        assert tracker.snapshot(position) == recount(record, seat, position), str(position)
        if position.plays == 4 or (position.plays == len(record.tricks[position.trick - 1].plays)
                                   and position.trick < len(record.tricks)):
            following = Position(position.trick + 1, 0)
            if following.trick <= len(record.tricks):
                assert tracker.snapshot(following) == recount(record, seat, following), str(following)
    assert track(record, seat, spots[-1]) == recount(record, seat, spots[-1])


@settings(max_examples=examples(10), **SETTINGS)
@given(st.integers(0, 10**6), st.integers(0, len(RULES) - 1), st.integers(1, 100))
def test_counts_and_points_add_up(seed, rules_index, cut):
    record = deal(seed, rules_index, stop_after=cut)
    decks = record.rules.decks
    for seat in range(4):
        tracker = tracker_for(record, seat)
        for event in public_events(record):
            tracker.observe(event)
            snap = tracker.snapshot()
            facts = facts_json(snap, "x")
            suits = facts["suits"]
            assert sum(s["points_unplayed"] for s in suits.values()) == facts["score"]["unplayed"]
            trick = facts["trick"]
            table = 0 if len(trick["plays"]) == 4 else sum(points(parse_cards(p)) for p in trick["plays"])
            assert sum(facts["points_won"]) + table + facts["score"]["unplayed"] == 100 * decks
            for name, faces in ((SUIT_NAMES[s], record.ctx.faces_by_suit[s]) for s in range(5)):
                if name not in suits:
                    continue
                known = sum(snap.kitty_known[f] for f in faces)
                entry = suits[name]
                assert entry["played"] + entry["mine"] + entry["unseen"] + known == decks * len(faces)
            assert facts["trumps"]["unseen"] == suits["trump"]["unseen"] == len(facts["trumps"]["unseen_cards"])


@pytest.mark.parametrize("rules_index", range(len(RULES)), ids=RULE_IDS)
@settings(max_examples=examples(2), **SETTINGS)
@given(st.integers(0, 10**6))
def test_no_pairs_and_no_tractors_hold_the_hidden_truth(rules_index, seed):
    """A seat listed in `no_pairs` (`no_tractors`) for a suit really holds no pair (no tractor: two
    consecutive positions with two or more copies each, rules.md §3) of it at every later position, and
    `no_pairs` ⊆ `no_tractors`; the fact is public, so every viewer has the same bits."""
    record = deal(seed, rules_index)
    ctx = record.ctx
    trackers = [tracker_for(record, seat) for seat in range(4)]
    for event, position in zip(public_events(record), positions(record)[1:-1]):
        for tracker in trackers:
            tracker.observe(event)
        snaps = [tracker.snapshot(position) for tracker in trackers]
        hands = _truth(record, position)
        for q in range(4):
            shown = {snap.no_tractors[q] for snap in snaps if snap.seat != q}
            assert len(shown) == 1 and snaps[(q + 1) % 4].no_pairs[q] & ~shown.pop() == 0
            for suit in range(5):
                held = {f: c for f, c in hands[q].items() if c and ctx.suit_of[f] == suit}
                pairs, runs = pair_structure(held, ctx)
                viewer = snaps[(q + 1) % 4]
                if viewer.no_pairs[q] >> suit & 1:
                    assert pairs == 0, (str(position), q, suit)
                if viewer.no_tractors[q] >> suit & 1:
                    assert not runs, (str(position), q, suit, held)


def constrained_cells(snap):
    """The cells some tier-2 constraint beyond voids bears on: returned, capped or declared faces."""
    cells = set()
    for q in _holders(snap):
        if q == KITTY:
            continue
        for part in (snap.constraints.returned, snap.constraints.caps, snap.constraints.declared):
            cells |= {(q, f) for f in part[q] if snap.unseen[f]}
            if q == snap.banker and KITTY in _holders(snap):
                cells |= {(KITTY, f) for f in part[q] if snap.unseen[f]}
    return sorted(cells)


@pytest.mark.parametrize("rules_index", range(len(RULES)), ids=RULE_IDS)
@settings(max_examples=examples(4), **SETTINGS)
@given(st.integers(0, 10**6), st.integers(0, 3), st.integers(4, 96))
def test_tier2_bounds_hold_the_truth_and_are_tight(rules_index, seed, seat, cut):
    record = deal(seed, rules_index)
    spots = positions(record)
    position = spots[min(cut, len(spots) - 1)]
    snap = track(record, seat, position)
    oracle_snap = recount(record, seat, position)
    assert snap == oracle_snap
    inference = Inference(snap)
    truth = _truth(record, position)
    data = infer_json(snap)
    rng = random.Random(seed)
    order = sorted(inference.faces, key=record.ctx.sort_key.__getitem__)
    assert inference.holders == _holders(oracle_snap)
    for q in inference.holders:
        name = "kitty" if q == KITTY else str(q)
        holdings = data["holdings"][name]
        assert list(holdings) == [str(Card.from_index(f)) for f in order]
        for face in inference.faces:
            low, high = holdings[str(Card.from_index(face))]
            assert low <= truth[q].get(face, 0) <= high, (q, face)
        assert data["can_hold_pair"][name] == [card for card, (low, high) in holdings.items() if high >= 2]
        assert data["certain"][name] == [card for card, (low, high) in holdings.items() for _ in range(low)]
        tier1 = set() if q == KITTY else set(facts_json(snap, "x")["voids"][name])
        for suit_name, (low, high) in data["suit_counts"][name].items():
            suit = SUIT_NAMES.index(suit_name)
            held = sum(c for f, c in truth[q].items() if record.ctx.suit_of[f] == suit)
            assert low <= held <= high
            # implied_voids, exactly: the suits no consistent distribution gives q, beyond tier 1
            could = suit_name not in tier1 and feasible(oracle_snap, suit=(q, suit, 1, 99))
            assert (suit_name in data["implied_voids"][name]) is (suit_name not in tier1 and not could), suit_name
    picked = constrained_cells(oracle_snap)
    picked += rng.sample(sorted(inference.cells), min(6, len(inference.cells)))
    for q, face in picked[:14]:
        name = "kitty" if q == KITTY else str(q)
        low, high = data["holdings"][name][str(Card.from_index(face))]
        for value, expected in ((low, True), (high, True), (low - 1, False), (high + 1, False)):
            if 0 <= value <= snap.unseen[face]:
                assert feasible(oracle_snap, cell=(q, face, value, value)) is expected, (q, face, value, low, high)
    for q in rng.sample(inference.holders, min(2, len(inference.holders))):
        suit = rng.randrange(5)
        low, high = inference.suit_bounds(q, suit)
        for value, expected in ((low, True), (high, True), (low - 1, False), (high + 1, False)):
            if value >= 0:
                assert feasible(oracle_snap, suit=(q, suit, value, value)) is expected, (q, suit, value, low, high)


@pytest.mark.parametrize("seed", [1, 2])
def test_tier2_json_shape(seed):
    record = deal(seed, 0)
    snap = track(record, 1 if record.banker != 1 else 2, Position(5, 2))
    data = infer_json(snap)
    assert list(data) == ["holdings", "can_hold_pair", "certain", "implied_voids", "suit_counts"]
    assert "kitty" in data["holdings"]
