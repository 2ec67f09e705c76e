"""Mistake causes, checked against counts taken straight from the record and the tracker's facts:
an answer off by the trumps laid on side-suit leads is a ruff not counted, off by the jokers still
out is the jokers, pairs questions are a pair broken, a void missed in a ruffing seat is a ruff."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.bots.random import random_record
from trainer.drills.causes import mistake_cause
from trainer.drills.questions import Question, make_question
from trainer.drills.runs import position_after, snapshot_after
from trainer.engine.trump import TRUMP
from trainer.records import parse_record
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events


def _position(seed: int, fraction: float):
    record = parse_record(random_record(random.Random(seed)))
    events = list(public_events(record))
    plays = max(1, int(len(events) * fraction))
    seat = seed % 4
    snap = snapshot_after(record, seat, plays, events)
    return record, events[:plays], snap, facts_json(snap, str(position_after(record, plays)))


def _trumps_on_side_leads(record, plays: int) -> int:
    ctx, count, made = record.ctx, 0, 0
    for trick in record.tricks:
        led = ctx.suit_of[trick.plays[0][0].index]
        for index, play in enumerate(trick.plays):
            if made >= plays:
                return count
            made += 1
            if index and led != TRUMP:
                count += sum(1 for card in play if ctx.suit_of[card.index] == TRUMP)
    return count


def _ask(kind: str, facts, snap) -> Question:
    question = make_question(kind, facts, snap, random.Random(0))
    assert question is not None
    return question


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.2, 0.95))
def test_an_answer_off_by_the_ruffs_is_a_ruff_not_counted(seed: int, fraction: float) -> None:
    record, events, snap, facts = _position(seed, fraction)
    ruffs = _trumps_on_side_leads(record, len(events))
    for kind in ("trumps_unseen", "trumps_played"):
        question = _ask(kind, facts, snap)
        if ruffs:
            wrong = question.answer + ruffs if kind == "trumps_unseen" else question.answer - ruffs
            assert mistake_cause(question, str(wrong), snap, events) == "ruff"
        assert mistake_cause(question, str(question.answer + 100), snap, events) == "other"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.1, 0.9))
def test_an_answer_off_by_the_jokers_out_is_the_jokers(seed: int, fraction: float) -> None:
    record, events, snap, facts = _position(seed, fraction)
    question = _ask("trumps_unseen", facts, snap)
    jokers = facts["trumps"]["top"].get("BJ", 0) + facts["trumps"]["top"].get("SJ", 0)
    level_out = sum(copies for name, copies in facts["trumps"]["top"].items() if name not in ("BJ", "SJ")
                    and not name.endswith(str(record.data["trump"])))
    kitty = sum(1 for card in record.buried if record.ctx.suit_of[card.index] == TRUMP) if snap.seat == record.banker \
        else 0
    if jokers and jokers not in (_trumps_on_side_leads(record, len(events)), kitty, level_out):
        assert mistake_cause(question, str(question.answer - jokers), snap, events) == "jokers"


def test_pairs_questions_are_a_pair_broken_and_a_missed_ruffer_is_a_ruff() -> None:
    for seed in range(30):
        record, events, snap, facts = _position(seed, 0.6)
        question = make_question("live_pairs", facts, snap, random.Random(0))
        if question is not None:
            assert mistake_cause(question, [], snap, events) == "pair"
        voids = make_question("voids", facts, snap, random.Random(0))
        if voids is None or not voids.answer or voids.suit == "trump":
            continue
        ctx = record.ctx
        ruffers = {str(event.seat) for event in events
                   for lead in [next(e for e in events if e.trick == event.trick)]
                   if lead is not event and ctx.suit_of[lead.cards[0].index] != TRUMP
                   and ctx.suit_of[lead.cards[0].index] == "SHCD".index(voids.suit)
                   and any(ctx.suit_of[c.index] == TRUMP for c in event.cards)}
        missed = [seat for seat in voids.answer if seat in ruffers]
        if missed:
            given = [seat for seat in voids.answer if seat != missed[0]]
            assert mistake_cause(voids, given, snap, events) == "ruff"
