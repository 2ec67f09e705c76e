"""Explanations name the cards behind each tier-1 fact, and agree with the facts."""
from __future__ import annotations

import random
import re

import pytest

from trainer.bots.random import random_record
from trainer.engine.cards import parse_cards, pretty_cards
from trainer.records import Position, parse_record, replay
from trainer.tracking.explain import explain, played_where
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events, track


def setting(seed: int, seat: int, at: str):
    record = parse_record(random_record(random.Random(seed), throw_rate=0.2))
    replay(record)
    position = Position.parse(at, record)
    events = list(public_events(record))[:position.plays_before(record)]
    snap = track(record, seat, position)
    return snap, events, facts_json(snap, at)


def counted(lines: list[str], part: str) -> int:
    line = next(line for line in lines if line.startswith(part))
    return int(re.search(r"\((\d+)\)", line).group(1))


@pytest.mark.parametrize(("seed", "seat", "at"), [(1, 0, "5.2"), (2, 1, "9.3"), (3, 3, "14.0"), (4, 2, "end")])
def test_accounts_agree_with_the_counts(seed, seat, at):
    snap, events, facts = setting(seed, seat, at)
    lines = explain(snap, events, "trumps.played")
    assert counted(lines, "played") == facts["trumps"]["played"]
    assert counted(lines, "mine") == facts["trumps"]["mine"]
    assert counted(lines, "unseen") == facts["trumps"]["unseen"]
    for suit, entry in facts["suits"].items():
        if suit == "trump":
            continue
        lines = explain(snap, events, "suits.unseen", suit)
        assert counted(lines, "played") == entry["played"]
        assert counted(lines, "unseen") == entry["unseen"]
        unseen_line = next(line for line in lines if line.startswith("unseen"))
        expected = pretty_cards(parse_cards(entry["unseen_cards"])) or "none"
        assert unseen_line.endswith(": " + expected)


def test_played_where_groups_by_trick():
    snap, events, _ = setting(5, 0, "6.0")
    everything = played_where(events, lambda face: True)
    assert everything.startswith("trick 1 ")
    assert everything.count("trick ") == 5


def test_revealed_void_is_explained_by_its_trick():
    for seed in range(40):
        snap, events, facts = setting(seed, 0, "end")
        for seat, suits in facts["revealed_voids"].items():
            if suits and seat != "0":
                lines = explain(snap, events, "revealed_voids", seat=int(seat))
                assert any("void in" in line for line in lines)
                return
    pytest.fail("no revealed void in 40 deals")


def test_points_explanation_adds_up():
    snap, events, facts = setting(6, 1, "end")
    lines = explain(snap, events, "points_won")
    won = [0, 0, 0, 0]
    for line in lines:
        found = re.match(r"trick \d+: seat (\d) \(.*\) won (\d+)", line)
        if found:
            won[int(found.group(1))] += int(found.group(2))
    assert won == facts["points_won"]


def test_unknown_field_is_refused():
    snap, events, _ = setting(1, 0, "3.1")
    with pytest.raises(ValueError):
        explain(snap, events, "nonsense")
