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


def test_tracker_holds_only_what_its_seat_may_see(reachable):
    record = parse_record(random_record(random.Random(9)))
    for seat in range(4):
        tracker = tracker_for(record, seat)
        objects = reachable(tracker)
        assert not any(isinstance(item, (DealRecord, RoundState)) for item in objects)
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
