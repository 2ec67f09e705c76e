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
