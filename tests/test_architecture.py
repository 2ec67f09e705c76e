"""The architecture's promises: a pure engine, and an observer that cannot peek."""
from __future__ import annotations

import random
import subprocess
import sys

from trainer.bots.random import random_record
from trainer.engine.round import RoundState
from trainer.records import DealRecord, parse_record
from trainer.tracking.tracker import tracker_for


def test_engine_and_tracking_import_no_web_code():
    code = ("import sys, trainer.engine, trainer.records, trainer.tracking.tracker, trainer.tracking.inference; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'sqlmodel', 'sqlalchemy', 'jinja2')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _reachable(root: object) -> list[object]:
    """Every object reachable from the tracker through attributes and containers."""
    seen, stack, found = set(), [root], []
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (int, str, bool, float, type(None))):
            continue
        seen.add(id(item))
        found.append(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif hasattr(item, "__dict__"):
            stack.extend(vars(item).values())
        elif hasattr(item, "__slots__"):
            stack.extend(getattr(item, name) for name in item.__slots__ if hasattr(item, name))
    return found


def test_tracker_holds_only_what_its_seat_may_see():
    record = parse_record(random_record(random.Random(9)))
    for seat in range(4):
        tracker = tracker_for(record, seat)
        reachable = _reachable(tracker)
        assert not any(isinstance(item, (DealRecord, RoundState)) for item in reachable)
        own = record.playing_hands()[seat]
        assert sum(tracker.mine) == len(own)
        for other in range(4):
            if other != seat:
                for card in record.playing_hands()[other]:
                    assert tracker.mine[card.index] <= own.count(card)
        if seat != record.banker:
            assert sum(tracker.kitty_known) == 0
        else:
            assert sum(tracker.kitty_known) == len(record.buried)
