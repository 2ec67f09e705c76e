"""The decision questions (training.md §2) as the drills ask them: answers equal the tier-2 facts,
throw_safe's yes and no each come up on 30–70 % of the questions asked, the 决策 drill and 全记 ask
them, and the explanation names who can hold the deciding cards."""
from __future__ import annotations

import random
from functools import cache

from trainer.bots.generate import generate_records
from trainer.drills.decide import DECISION_TYPES, certain_cards, subject_cards
from trainer.drills.definitions import load_drills
from trainer.drills.explain import explain_question
from trainer.drills.questions import make_question
from trainer.drills.runs import position_after, snapshot_after
from trainer.engine.rules import Rules
from trainer.records import parse_record, replay
from trainer.tracking.decisions import max_trumps, throw_verdict, who_beats, who_ruffs
from trainer.tracking.facts import facts_json
from trainer.tracking.inference import Inference
from trainer.tracking.tracker import public_events


@cache
def asked() -> list:
    """Every decision question asked at the trick ends of 8 bot-played deals from every seat, with its snapshot
    and the plays before it."""
    found = []
    for data in generate_records(Rules.parse("standard"), 22, 8):
        record = parse_record(data)
        replay(record)
        events = list(public_events(record))
        plays = 0
        for trick in record.tricks[:-1]:
            plays += len(trick.plays)
            for seat in range(4):
                opening = facts_json(snapshot_after(record, seat, 0, events), "1.0")
                snap = snapshot_after(record, seat, plays, events)
                facts = facts_json(snap, str(position_after(record, plays)))
                for kind in DECISION_TYPES:
                    question = make_question(kind, facts, snap, random.Random(plays + seat), opening)
                    if question is not None:
                        found.append((question, snap, events[:plays]))
    return found


def test_every_type_is_asked_and_answers_with_the_tier_two_fact():
    kinds = set()
    for question, snap, _events in asked():
        kinds.add(question.type)
        inference = Inference(snap)
        assert question.grade(question.answer)
        if question.type == "throw_safe":
            assert question.answer == ("yes" if throw_verdict(inference, subject_cards(question)).safe else "no")
            assert len(subject_cards(question)) >= 2 and not question.grade("yes" if question.answer == "no" else "no")
        elif question.type == "who_beats":
            card = subject_cards(question)[0]
            assert card.rank >= 12 and question.answer == [str(q) for q in who_beats(inference, card)]
        elif question.type == "who_ruffs":
            assert question.answer == [str(q) for q in who_ruffs(inference, "SHCD".index(question.suit))]
        elif question.type == "max_trumps":
            assert question.answer == max_trumps(inference, question.seat) < snap.hand_sizes[question.seat]
        else:
            face = subject_cards(question)[0].index
            assert question.answer == str(certain_cards(snap)[face])
        assert question.prompt["zh"] and question.prompt["en"]
    assert kinds == set(DECISION_TYPES)


def test_throw_safe_says_yes_and_no_each_on_30_to_70_percent():
    answers = [question.answer for question, _snap, _events in asked() if question.type == "throw_safe"]
    assert len(answers) > 50
    assert 0.3 <= answers.count("yes") / len(answers) <= 0.7


def test_the_decide_drill_and_everything_ask_the_decision_types():
    drills = load_drills(game="shengji")
    assert set(drills["decide"].questions) == set(DECISION_TYPES)
    assert drills["decide"].name == {"zh": "决策", "en": "Decide"}
    assert set(DECISION_TYPES) <= set(drills["everything"].questions)


def test_the_deciding_lines_name_the_seats_that_can_hold_the_cards():
    for question, snap, events in asked():
        lines = explain_question(question, snap, events).decisive
        assert lines
        if question.type == "throw_safe":
            assert lines[0].startswith("Safe: " if question.answer == "yes" else "Not safe: seat ")
        if question.type == "who_beats":
            assert lines[0] == "Could beat " + subject_cards(question)[0].pretty + ": " + ", ".join(
                f"seat {q}" for q in question.answer)
        if question.type == "must_hold":
            card = subject_cards(question)[0].pretty
            assert lines[0] == f"{card}: seat {question.answer} holds it in every consistent distribution"
            assert f"seat {question.answer}" in lines[1]  # a second copy may lie elsewhere
