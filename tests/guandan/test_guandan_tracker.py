"""掼蛋 tracking, tier 1 (guandan.md §7): exact facts for a built deal, and the incremental observer equal
to a recount at every position of random deals (a property test)."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.guandan import GuandanRules, HandState
from trainer.guandan.bots import generate_records
from trainer.guandan.records import GuandanRecord, Position, parse_guandan_record, replay
from trainer.guandan.tracker import public_events, recount, track, tracker_for

Builder = Callable[..., dict[str, Any]]
"""The `build` fixture (conftest.py): a record around chosen cards."""

SEAT1 = ("AS AS AH AH AC AC AD AD KS KS KH KH KC KC KD KD QS QS QH QH QC QC QD QD JS JS JH")


def test_a_wild_bomb_of_eights_seen_from_the_next_seat(build: Builder) -> None:
    """Seat 0 leads 8♠ 8♦ 8♣ + the wild 2♥: what seat 1 (holding eight A, K, Q and JS JS JH) counts."""
    data = build({0: "8S 8D 8C 2H", 1: SEAT1}, [{"leader": 0, "actions": [[0, ["8S", "8D", "8C", "2H"]]]}])
    record = parse_guandan_record(data)
    replay(record)
    facts = track(record, 1, Position.parse("1.1", record))
    assert facts["ranks"]["8"] == {"total": 8, "played": 3, "mine": 0, "unseen": 5, "in_hands": 5}
    assert facts["ranks"]["2"] == {"total": 8, "played": 1, "mine": 0, "unseen": 7, "in_hands": 7}
    assert facts["wilds"] == {"total": 2, "played": 1, "mine": 0, "unseen": 1}
    assert facts["bombs"]["8"] == {"played": 1, "max_unseen": 6, "max_count": 1}  # 5 eights + 1 wild
    assert facts["bombs"]["A"] == {"played": 0, "max_unseen": 0, "max_count": 0}  # seat 1 holds all eight
    assert facts["bombs"]["2"] == {"played": 0, "max_unseen": 7, "max_count": 1}  # L counts its wilds once
    assert facts["higher_unseen"]["A"] == 7 + 2 + 2  # the level 2s (wild included), SJ, BJ
    assert facts["higher_unseen"]["BJ"] == 0
    assert facts["tianzha"] == {"possible": True, "played": False}
    assert facts["straight_flushes"] == {"S": ["5", "6", "7", "8", "9", "10", "J"],
                                         "H": ["6", "7", "8", "9", "10", "J", "Q"],
                                         "C": ["5", "6", "7", "8", "9", "10", "J", "Q"],
                                         "D": ["5", "6", "7", "8", "9", "10", "J", "Q"]}
    assert facts["largest_sf"] == {"top": "Q", "suits": ["H", "C", "D"]}
    assert facts["hand_sizes"] == [23, 27, 27, 27]
    assert facts["round"] == {"number": 1, "leader": 0, "actions": 1, "next": 1,
                              "top": {"seat": 0, "cards": ["8S", "8D", "8C", "2H"],
                                      "reading": {"type": "bomb", "rank": "8"}}}
    assert [s["relation"] for s in facts["seats"]] == ["上家", "me", "下家", "对家"]
    assert facts["seats"][0]["bombs"] == [["1.1", ["8S", "8D", "8C", "2H"], {"type": "bomb", "rank": "8"}]]
    assert list(facts["ranks"])[:4] == ["BJ", "SJ", "2", "A"]


def test_tianzha_played_and_no_longer_possible(build: Builder) -> None:
    data = build({0: "SJ SJ BJ BJ"}, [{"leader": 0, "actions": [[0, ["SJ", "SJ", "BJ", "BJ"]], [1, "pass"]]}])
    record = parse_guandan_record(data)
    replay(record)
    facts = track(record, 2, Position.parse("end", record))
    assert facts["tianzha"] == {"possible": False, "played": True}
    assert facts["seats"][0]["bombs"][0][2] == {"type": "joker_bomb", "rank": None}
    before = track(record, 2, Position.parse("0.0", record))
    assert before["tianzha"]["possible"] and before["round"]["top"] is None


def check_invariants(facts: dict[str, Any]) -> None:
    """§7 invariants: per rank played + mine + unseen = total; Σ sizes + Σ played = 108; Σ unseen = others'."""
    for counts in facts["ranks"].values():
        assert counts["played"] + counts["mine"] + counts["unseen"] == counts["total"]
    played = sum(c["played"] for c in facts["ranks"].values())
    assert sum(facts["hand_sizes"]) + played == 108
    seat = facts["seat"]
    others = sum(size for q, size in enumerate(facts["hand_sizes"]) if q != seat)
    assert sum(c["unseen"] for c in facts["ranks"].values()) == others


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["random", "heuristic"]))
def test_incremental_equals_recount_at_every_position(seed: int, bots: str) -> None:
    """Property: the observer fed one event at a time equals a from-scratch recount at every position."""
    for data in generate_records(GuandanRules(), seed, 2, bots):
        record = parse_guandan_record(data)
        seat = seed % 4
        tracker = tracker_for(record, seat)
        events = list(public_events(record))
        for count in range(len(events) + 1):
            if count:
                tracker.observe(events[count - 1])
            facts = tracker.snapshot()
            assert facts == recount(record, seat, Position.parse(f"#{count}", record))
            check_invariants(facts)
        assert facts["places_so_far"] == data["places"]
        assert facts["exchanges"] == data.get("tribute", {}).get("exchanges", [])


def test_tracker_holds_only_what_its_seat_may_see(reachable: Callable[[object], list[object]]) -> None:
    """The observer cannot peek: nothing it can reach is the record or the hand in play, and the only
    cards it counts as held are its own."""
    record = parse_guandan_record(generate_records(GuandanRules(), 4, 2)[1])
    for seat in range(4):
        tracker = tracker_for(record, seat)
        for event in public_events(record):
            tracker.observe(event)
        objects = reachable(tracker)
        assert not any(isinstance(item, (GuandanRecord, HandState)) for item in objects)
        own = record.playing_hands()[seat]
        played = sum(len(event.cards) for event in public_events(record) if event.seat == seat)
        assert sum(tracker.mine) == len(own) - played


def test_the_engine_imports_no_web_code() -> None:
    code = ("import sys, trainer.guandan, trainer.guandan.records, trainer.guandan.tracker, trainer.guandan.bots; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'sqlmodel', 'sqlalchemy', 'jinja2')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
