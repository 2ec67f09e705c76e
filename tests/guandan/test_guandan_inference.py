"""掼蛋 tracking, tier 2 (guandan.md §7): the true hands are always a consistent assignment (a property
test over random generated deals), and each field on small handmade positions with a tribute."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import BIG_JOKER, SMALL_JOKER
from trainer.guandan import GuandanRules
from trainer.guandan.bots import generate_records
from trainer.guandan.inference import WILD, face_order, infer_json, track_inference
from trainer.guandan.records import Position, parse_guandan_record, replay, state_at
from trainer.guandan.tracker import FACES, public_events, tracker_for

Builder = Callable[..., dict[str, Any]]
"""The `build` fixture (conftest.py): a record around chosen cards."""


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["random", "heuristic"]), st.integers(0, 3))
def test_the_true_hands_are_consistent(seed: int, bots: str, seat: int) -> None:
    """Property: at every tenth position of a match's hands (tribute ones included), every other seat's
    true holding lies within the bounds, contains its certain cards, and respects max_single, bomb_max
    and can_tianzha."""
    for data in generate_records(GuandanRules(), seed, 3, bots):
        record = parse_guandan_record(data)
        tracker = tracker_for(record, seat)
        events = list(public_events(record))
        for count in range(len(events) + 1):
            if count:
                tracker.observe(events[count - 1])
            if count % 10 and count != len(events):
                continue
            inference = infer_json(tracker)
            hands = state_at(record, Position.parse(f"#{count}", record)).counts
            for q in range(4):
                if q == seat:
                    assert str(q) not in inference["holdings"]
                    continue
                held = dict.fromkeys([face for face, _ in face_order(tracker)], 0)
                for card in FACES:
                    held[WILD if card is tracker.level.wild else card.rank] += hands[q][card.index]
                names = dict(face_order(tracker))
                bounds = inference["holdings"][str(q)]
                for face, copies in held.items():
                    low, high = bounds.get(names[face], [0, 0])
                    assert low <= copies <= high
                for name in set(inference["certain"][str(q)]):
                    face = next(f for f, n in names.items() if n == name)
                    assert held[face] >= inference["certain"][str(q)].count(name)
                top = next((names[f] for f, _ in face_order(tracker) if held[f]), None)
                top = str(tracker.level) if top == "W" else top
                singles = [str(tracker.level) if n == "W" else n for _, n in face_order(tracker)]
                if top is not None:
                    assert singles.index(inference["max_single"][str(q)]) <= singles.index(top)
                for face, name in face_order(tracker):
                    if face not in (WILD, SMALL_JOKER, BIG_JOKER):
                        size = held[face] + held[WILD]
                        assert inference["bomb_max"][str(q)][name] >= (size if size >= 4 else 0)
                if held[SMALL_JOKER] == held[BIG_JOKER] == 2:
                    assert inference["can_tianzha"][str(q)]


SEAT1 = "3H 3H 5S 5S 5H 5H 5C 5C 5D 5D 6S 6S 6H 6H 6C 6C 6D 6D 7S 7S 7H 7H 7C 7C 7D 7D 8D"
"""The viewer: both wilds of level 3, no A, no joker."""
SEAT2 = "AS AH AC AD KS KH KC KD QS QH QC QD JS JH JC JD 10S 10H 10C 10D 9S 9H 9C 9D 8S 8H 8C"
"""The 下游 of the previous hand (1-4: 0, 1, 3 out): its highest is an A."""


def tribute_record(build: Builder, actions: list[Any]) -> Any:
    """Level 3 after a 1-4: seat 2 pays AS to seat 0, which returns 4C; seat 2 leads `actions`."""
    rounds = [{"leader": 2, "actions": actions}] if actions else []
    data = build({0: "4C", 1: SEAT1, 2: SEAT2}, rounds, levels=["3", "2"], dajia=0, level="3",
                 previous={"places": [0, 1, 3]}, leader=2,
                 tribute={"kind": "single", "exchanges": [{"from": 2, "to": 0, "card": "AS", "returned": "4C"}]})
    record = parse_guandan_record(data)
    replay(record)
    return record


def test_a_payer_holds_nothing_above_its_tribute(build: Builder) -> None:
    """Seat 2 paid an A: seen from seat 1 (both wilds in hand) it holds no level card, joker or wild, so its
    highest single is an A, it cannot make 天炸, and its biggest A bomb is the 7 As seat 0 does not keep."""
    record = tribute_record(build, [])
    facts = track_inference(record, 1, Position.parse("0.0", record))
    inference = facts["inference"]
    assert inference["holdings"]["2"]["SJ"] == [0, 0] and inference["holdings"]["2"]["BJ"] == [0, 0]
    assert inference["holdings"]["2"]["3"] == [0, 0]
    assert "W" not in inference["holdings"]["2"]  # no wild is unseen
    assert inference["max_single"] == {"0": "BJ", "2": "A", "3": "BJ"}
    assert inference["can_tianzha"] == {"0": True, "2": False, "3": True}
    assert inference["bomb_max"]["2"]["A"] == 7 and inference["bomb_max"]["2"]["3"] == 0
    assert inference["bomb_max"]["0"]["A"] == 8
    assert inference["holdings"]["0"]["A"][0] == 1 and inference["holdings"]["2"]["4"][0] == 1
    assert inference["certain"]["0"] == ["A"] and inference["certain"]["2"] == ["4"]
    assert facts["level"] == "3" and facts["wild"] == "3H"
    assert facts["wilds"] == {"total": 2, "played": 0, "mine": 2, "unseen": 0}
    assert facts["exchanges"] == [{"from": 2, "to": 0, "card": "AS", "returned": "4C"}]
    assert facts["resist"] == [] and facts["places_so_far"] == []


def test_a_received_card_played_is_no_longer_certain(build: Builder) -> None:
    """Seat 2 leads the 4C it received: its 4s are no longer certain, and its hand is one card smaller."""
    record = tribute_record(build, [[2, ["4C"]]])
    inference = track_inference(record, 1, Position.parse("1.1", record))["inference"]
    assert inference["holdings"]["2"]["4"][0] == 0 and inference["certain"]["2"] == []
    assert inference["certain"]["0"] == ["A"]


def test_resisting_seat_keeps_its_big_jokers(build: Builder) -> None:
    """抗贡: seat 2 showed both BJ; seen from seat 1 it holds them, and only it can make 天炸."""
    data = build({1: SEAT1, 2: "BJ BJ " + SEAT2.split(" ", 2)[2]}, [],
                 levels=["3", "2"], dajia=0, level="3", previous={"places": [0, 1, 3]}, leader=0,
                 tribute={"kind": "resist"})
    record = parse_guandan_record(data)
    replay(record)
    facts = track_inference(record, 1, Position.parse("0.0", record))
    assert facts["resist"] == [2]
    inference = facts["inference"]
    assert inference["holdings"]["2"]["BJ"] == [2, 2] and inference["certain"]["2"] == ["BJ", "BJ"]
    assert inference["holdings"]["0"]["BJ"] == [0, 0]
    assert inference["can_tianzha"] == {"0": False, "2": True, "3": False}
    assert inference["max_single"]["2"] == "BJ"
