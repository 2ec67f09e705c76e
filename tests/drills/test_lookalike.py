"""Lookalikes (training.md §4): the renamed deal verifies, keeps its structure, and the tracker's facts carry over."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.bots.random import random_record
from trainer.engine import Card, Rules
from trainer.engine.cards import Suit
from trainer.engine.errors import MalformedError
from trainer.engine.rules import PRESETS
from trainer.records import DealRecord, InvalidRecordError, Position, parse_record, replay, verify_summary
from trainer.drills.lookalike import (Renaming, carried_question, carried_subject, lookalike, lookalike_renaming, rename_card,
                                      renamings)
from trainer.drills.questions import QUESTION_TYPES, Question, make_question
from trainer.drills.runs import position_after, snapshot_after
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events, track

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in [*ROOT.glob("drills/deals/*.json"), *ROOT.glob("tests/data/decks/*.json")]
                  if json.loads(p.read_text()).get("game", "shengji") == "shengji")
RULES = [Rules.parse(spec) for spec in (*PRESETS, {"ace_two_wrap": True}, {"fixed_twos": True},
                                         {"forced_play": "single_card"}, {"follow": "protect_longer"})]


def example(path: Path) -> DealRecord:
    return parse_record(json.loads(path.read_text()))


def cards_of(record: DealRecord) -> Counter[Card]:
    """Every card the record names, counted (hands, kitty, buried, plays, attempts, declarations)."""
    found: Counter[Card] = Counter()
    for group in (*record.hands, record.kitty, record.buried, *(c for _, c in record.declarations)):
        found.update(group)
    for trick in record.tricks:
        for play in trick.plays:
            found.update(play)
        found.update(trick.attempt or ())
    return found


def renamed_text(value: Any, renaming: Renaming) -> Any:
    """A facts value with every card and suit letter renamed; lists of names as sorted lists (equal cards of
    different suits, such as the off-suit level cards in trump, are listed in suit order)."""
    if isinstance(value, dict):
        return {renamed_text(k, renaming): renamed_text(v, renaming) for k, v in value.items()}
    if isinstance(value, list):
        items = [renamed_text(v, renaming) for v in value]
        return sorted(items) if all(isinstance(v, str) for v in items) else items
    if isinstance(value, str):
        if value in ("S", "H", "C", "D"):
            return renaming[Suit.parse(value)].letter
        try:
            return str(rename_card(Card.parse(value), renaming))
        except MalformedError:
            return value
    return value


def same_text(value: Any) -> Any:
    """The facts value with lists of names sorted, as `renamed_text` gives them."""
    return renamed_text(value, tuple(Suit))  # type: ignore[arg-type]


def check_lookalike(record: DealRecord, seed: int, seats: tuple[int, ...]) -> None:
    replay(record)
    look = lookalike(record, seed)
    assert look is not None
    renaming = lookalike_renaming(look)
    assert renaming is not None and renaming != tuple(Suit) and renaming in renamings(seed)
    assert look.id != record.id and look.data["source"]["of"] == record.id
    assert look.ctx.level == record.ctx.level
    assert look.ctx.trump == (None if record.ctx.trump is None else renaming[record.ctx.trump])
    # cards conserved per mapped suit, jokers untouched
    assert cards_of(look) == Counter({rename_card(c, renaming): n for c, n in cards_of(record).items()})
    # verified by the engine with the same winners, points and result
    original, renamed = verify_summary(replay(record)), verify_summary(replay(parse_record(look.to_json())))
    assert renamed.pop("id") == look.id
    original.pop("id")
    assert renamed == original
    # the tracker's facts at every trick boundary are the original's, renamed
    positions = [Position(number, 0) for number in range(1, len(record.tricks) + 1)] + [Position.parse("end", record)]
    for seat in seats:
        for position in positions[::3] + positions[-1:]:
            before = facts_json(track(record, seat, position), str(position))
            after = facts_json(track(look, seat, position), str(position))
            assert same_text(after) == renamed_text(before, renaming)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_lookalikes(path):
    check_lookalike(example(path), seed=len(path.stem), seats=(example(path).banker, (example(path).banker + 1) % 4))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, len(RULES) - 1), st.integers(0, 10**6), st.integers(0, 3))
def test_generated_lookalikes(deal_seed, rules_index, seed, seat):
    record = parse_record(random_record(random.Random(deal_seed), RULES[rules_index], throw_rate=0.3))
    check_lookalike(record, seed, (seat,))


def test_seed_picks_the_renaming():
    record = example(EXAMPLES[0])
    assert len(set(renamings(7))) == 23 and tuple(Suit) not in renamings(7)
    chosen = {lookalike_renaming(lookalike(record, seed)) for seed in range(12)}
    assert len(chosen) > 1
    assert lookalike(record, 5).to_json() == lookalike(record, 5).to_json()


def test_a_record_that_does_not_verify_has_no_lookalike():
    data = json.loads(EXAMPLES[0].read_text())
    data["tricks"][0]["leader"] = (data["banker"] + 1) % 4
    with pytest.raises(InvalidRecordError, match="verifies"):
        lookalike(parse_record(data), 1)


def test_no_trump_renames_all_four_suits():
    record = next(r for r in map(example, EXAMPLES) if r.ctx.trump is None)
    look = lookalike(record, 3)
    assert look.ctx.trump is None
    renaming = lookalike_renaming(look)
    assert any(renaming[s] != s for s in Suit)
    assert look.hands != record.hands


@pytest.mark.parametrize("path", EXAMPLES[::4], ids=[p.stem for p in EXAMPLES[::4]])
def test_questions_carry_over_with_the_tracker_answer(path):
    """Every tracker question asked at trick ends of a deal, carried over to its lookalike: the same type
    and fact about the renamed subject, answered as the tracker answers on the lookalike, which is the
    original's answer renamed."""
    record = example(path)
    look = lookalike(record, 11)
    renaming = lookalike_renaming(look)
    seat, carried = (record.banker + 1) % 4, 0
    events = list(public_events(record))
    for plays in range(4, 4 * len(record.tricks), 12):
        snap = snapshot_after(record, seat, plays, events)
        facts = facts_json(snap, str(position_after(record, plays)))
        for kind, qtype in QUESTION_TYPES.items():
            question = make_question(kind, facts, snap, random.Random(plays))
            if question is None:
                continue
            moved = carried_question(question, look, seat, plays, renaming, random.Random(1))
            assert moved is not None, kind
            assert (moved.type, moved.fact, moved.kind) == (question.type, question.fact, question.kind)
            assert moved.suit == renamed_text(question.suit, renaming)
            assert same_text(tractor_parts(moved.card)) == renamed_text(tractor_parts(question.card), renaming)
            look_snap = track(look, seat, position_after(look, plays))
            rebuilt = qtype.build(facts_json(look_snap, ""), look_snap, carried_subject(question, renaming))
            assert moved.answer == rebuilt.answer
            assert same_text(tractor_parts(moved.answer)) == renamed_text(tractor_parts(question.answer), renaming)
            assert sorted(o["value"] for o in moved.options) == sorted(o["value"] for o in rebuilt.options)
            carried += 1
    assert carried > 0


def tractor_parts(answer: Any) -> Any:
    """An answer with each tractor ("QS,JS") as the list of its cards."""
    if isinstance(answer, list):
        return [tractor_parts(a) for a in answer]
    return answer.split(",") if isinstance(answer, str) and "," in answer else answer


def test_a_signal_quiz_is_not_carried_over():
    record = example(EXAMPLES[0])
    look = lookalike(record, 2)
    question = Question("signal:lead", "number", {"zh": "?", "en": "?"}, 1, "signal")
    assert carried_question(question, look, 0, 4, lookalike_renaming(look), random.Random(0)) is None
