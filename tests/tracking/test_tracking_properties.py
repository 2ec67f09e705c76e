"""Property tests of tracking over random-legal deals: incremental = recount, invariants, tier-2 exactness."""
from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.bots.random import random_record
from trainer.engine import Rules, parse_cards, points
from trainer.engine.trump import SUIT_NAMES
from trainer.records import Position, parse_record, replay, state_at
from trainer.tracking.facts import facts_json
from trainer.tracking.inference import KITTY, Inference, infer_json
from trainer.tracking.recount import recount
from trainer.tracking.tracker import public_events, tracker_for, track

RULES = [Rules(), Rules.parse({"follow": "loose"}), Rules.parse("competition"), Rules.parse("fixed-twos")]


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


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, len(RULES) - 1), st.integers(0, 3))
def test_incremental_tracker_equals_recount_everywhere(seed, rules_index, seat):
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


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


def _truth(record, position):
    """The real holdings at a position: each seat's hand and the kitty (face → copies)."""
    state = state_at(record, position)
    hands = {q: dict(state.hands[q]) for q in range(4)}
    hands[KITTY] = {}
    for card in record.buried:
        hands[KITTY][card.index] = hands[KITTY].get(card.index, 0) + 1
    return hands


def _oracle(inference: Inference, forced_cell=None, forced_suit=None) -> bool:
    """Is some distribution consistent with the snapshot, with a cell or a suit total forced to a value?
    Built independently with networkx (network simplex, lower bounds by the demand reduction)."""
    snap = inference.snap
    ctx = snap.ctx
    graph = nx.DiGraph()
    demand: dict[object, int] = {}

    impossible = []

    def edge(u, v, low, high):
        if high < low:
            impossible.append((u, v))
        graph.add_edge(u, v, capacity=high - low)
        demand[u] = demand.get(u, 0) + low
        demand[v] = demand.get(v, 0) - low

    for face in inference.faces:
        demand[("face", face)] = demand.get(("face", face), 0) - snap.unseen[face]
        for q in inference.holders:
            cell = inference.cells[q, face]
            low, high = cell.low, cell.low + inference.flow.cap[cell.arc] + inference.flow.cap[cell.arc ^ 1]
            tail = ("face", face) if cell.tail == inference.face_node[face] else ("group", face)
            if tail[0] == "group" and not graph.has_edge(("face", face), tail):
                group_cap = next(inference.flow.cap[a] + inference.flow.cap[a ^ 1]
                                 for a in inference.flow.out[inference.face_node[face]]
                                 if a % 2 == 0 and inference.flow.head[a] == cell.tail)
                edge(("face", face), tail, 0, group_cap)
            if forced_cell == (q, face):
                low, high = max(low, forced_cell_value[0]), min(high, forced_cell_value[0])
            edge(tail, ("suit", q, ctx.suit_of[face]), low, high)
    for q in inference.holders:
        size = snap.hand_sizes[q] if q != KITTY else ctx.rules.kitty_size
        for suit in range(5):
            low, high = 0, size
            if forced_suit == (q, suit):
                low, high = max(low, forced_suit_value[0]), min(high, forced_suit_value[0])
            edge(("suit", q, suit), ("holder", q), low, high)
        demand[("holder", q)] = demand.get(("holder", q), 0) + size
    if impossible:
        return False
    try:
        for node, value in demand.items():
            graph.add_node(node, demand=value)
        nx.network_simplex(graph)
    except nx.NetworkXUnfeasible:
        return False
    return True


forced_cell_value = [0]
forced_suit_value = [0]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, len(RULES) - 1), st.integers(0, 3), st.integers(4, 96))
def test_tier2_bounds_hold_the_truth_and_are_tight(seed, rules_index, seat, cut):
    record = deal(seed, rules_index)
    spots = positions(record)
    position = spots[min(cut, len(spots) - 1)]
    snap = track(record, seat, position)
    inference = Inference(snap)
    truth = _truth(record, position)
    data = infer_json(snap)
    rng = random.Random(seed)
    for q in inference.holders:
        name = "kitty" if q == KITTY else str(q)
        for face in inference.faces:
            low, high = inference.bounds(q, face)
            held = truth[q].get(face, 0)
            assert low <= held <= high, (q, face)
        for suit_name, (low, high) in data["suit_counts"][name].items():
            suit = SUIT_NAMES.index(suit_name)
            held = sum(c for f, c in truth[q].items() if record.ctx.suit_of[f] == suit)
            assert low <= held <= high
        for suit_name in data["implied_voids"][name]:
            assert not any(record.ctx.suit_of[f] == SUIT_NAMES.index(suit_name) for f in truth[q])
    cells = rng.sample(sorted(inference.cells), min(6, len(inference.cells)))
    for q, face in cells:
        low, high = inference.bounds(q, face)
        for value, expected in ((low, True), (high, True), (low - 1, False), (high + 1, False)):
            if 0 <= value <= snap.unseen[face]:
                forced_cell_value[0] = value
                assert _oracle(inference, forced_cell=(q, face)) is expected, (q, face, value, low, high)
    for q in rng.sample(inference.holders, min(2, len(inference.holders))):
        suit = rng.randrange(5)
        low, high = inference.suit_bounds(q, suit)
        for value, expected in ((low, True), (high, True), (low - 1, False), (high + 1, False)):
            if value >= 0:
                forced_suit_value[0] = value
                assert _oracle(inference, forced_suit=(q, suit)) is expected, (q, suit, value, low, high)


@pytest.mark.parametrize("seed", [1, 2])
def test_tier2_json_shape(seed):
    record = deal(seed, 0)
    snap = track(record, 1 if record.banker != 1 else 2, Position(5, 2))
    data = infer_json(snap)
    assert list(data) == ["holdings", "can_hold_pair", "certain", "implied_voids", "suit_counts"]
    assert "kitty" in data["holdings"]
