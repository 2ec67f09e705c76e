"""Questions that cannot be gamed: a checkpoint asks only informative questions (the answer is not
what a player who tracked nothing would give), a single choice's answer sits anywhere among its
options, and the voids checkpoint after a ruff asks about the suit ruffed."""
from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from trainer.bots.generate import generate_records
from trainer.drills.definitions import load_drills, moment_position
from trainer.drills.questions import (
    QUESTION_TYPES,
    Question,
    informative,
    make_question,
    strength_classes,
    trivial_question,
)
from trainer.drills.runs import (plan_run, position_after, question_at, run_questions, snapshot_after, table_at,
                                 total_plays)
from trainer.drills.survey import Tally, survey
from trainer.engine.cards import Card
from trainer.engine.rules import Rules
from trainer.engine.trump import TRUMP
from trainer.records import DealRecord, parse_record
from trainer.tracking.facts import facts_json, top_faces
from trainer.tracking.tracker import public_events

DRILLS = {key: drill for key, drill in load_drills(game="shengji").items() if drill.mode == "replay"}


@cache
def deals(count: int = 12, preset: str = "standard") -> list[DealRecord]:
    """Bot-played deals, the same every run."""
    return [parse_record(r) for r in generate_records(Rules.parse(preset), 2026, count)]


def preset_asking(kind: str) -> str:
    """The rules preset of the first drill asking `kind` (triples need three decks, quads four)."""
    return next(drill.rules.preset for drill in DRILLS.values() if kind in drill.questions)


def opening_of(record: DealRecord, seat: int, events: list) -> dict:
    return facts_json(snapshot_after(record, seat, 0, events), "1.0")


def expected_trivial(kind: str, record: DealRecord, seat: int, question) -> object:
    """The trivial answer of tracking.md's opening, worked out from the seat's own hand alone (not the
    tracker), for a seat that is not the banker."""
    ctx = record.ctx
    hand = Counter(c.index for c in record.playing_hands()[seat])
    decks = record.rules.decks
    out = {f: decks - hand[f] for f in range(54)}
    if question.suit is not None:
        suit_faces = ctx.faces_by_suit[("S", "H", "C", "D", "trump").index(question.suit)]
    trumps = ctx.faces_by_suit[TRUMP]
    return {
        "trumps_played": 0, "suit_played": 0, "attackers_score": 0,
        "to_take_over": 2 * record.rules.level_step,
        "trumps_unseen": lambda: sum(out[f] for f in trumps),
        "constant_trumps_out": lambda: sum(out[f] for f in top_faces(ctx)),
        "suit_unseen": lambda: sum(out[f] for f in suit_faces),
        "points_unseen": lambda: sum(out[f] * Card.from_index(f).points for f in suit_faces),
        "points_unplayed": lambda: sum(decks * Card.from_index(f).points for f in suit_faces),
        "voids": [], "no_pairs": [],
        "big_trumps_out": lambda: [o["value"] for o in question.options if out[Card.parse(o["value"]).index]],
        "point_cards_out": lambda: [o["value"] for o in question.options if out[Card.parse(o["value"]).index]],
        "live_pairs": lambda: [str(Card.from_index(f)) for f in suit_faces if out[f] >= 2],
        "live_triples": lambda: [str(Card.from_index(f)) for f in suit_faces if out[f] >= 3],
        "live_quads": lambda: [str(Card.from_index(f)) for f in suit_faces if out[f] >= 4],
        "live_tractor": None, "live_triple_tractor": None, "live_quad_tractor": None,
        "top_in_play": lambda: "/".join(strength_classes_of(record, question.suit)[0]),
        "is_boss": lambda: "no" if any(out[f] for f in suit_faces
                                       if ctx.strength[f] > ctx.strength[Card.parse(question.card).index]) else "yes",
        # tier 2 (trainer.drills.decide): before any play every other seat can beat and ruff
        "throw_safe": "", "must_hold": "",
        "who_beats": lambda: [str(q) for q in range(4) if q != seat] if any(
            out[f] for f in suit_faces if ctx.strength[f] > ctx.strength[Card.parse(question.card).index]) else [],
        "who_ruffs": lambda: [str(q) for q in range(4) if q != seat],
        "max_trumps": lambda: min(record.rules.hand_size, sum(out[f] for f in trumps)),
    }[kind]


def assert_hoped_boss(record: DealRecord, seat: int, snap, card: str) -> None:
    """`card` is the highest the seat holds in its suit, of rank Q or above unless it is a trump."""
    ctx, face = record.ctx, Card.parse(card).index
    suit = ctx.suit_of[face]
    held = [f for f in range(54) if snap.mine[f] and ctx.suit_of[f] == suit]
    assert ctx.strength[face] == max(ctx.strength[f] for f in held)
    assert suit == TRUMP or Card.parse(card).rank >= 12


def strength_classes_of(record: DealRecord, suit: str) -> list[list[str]]:
    return strength_classes(snapshot_after(record, 0, 0, list(public_events(record))), suit)


@pytest.mark.parametrize("kind", sorted(QUESTION_TYPES))
def test_every_asked_question_is_informative_and_its_trivial_answer_is_the_openings(kind) -> None:
    asked = 0
    for record in deals(6, preset_asking(kind)):
        events = list(public_events(record))
        seat = (record.banker + 1) % 4
        opening = opening_of(record, seat, events)
        for plays in range(4, total_plays(record), 6):
            snap = snapshot_after(record, seat, plays, events)
            facts = facts_json(snap, str(position_after(record, plays)))
            question = make_question(kind, facts, snap, random.Random(plays), opening)
            if question is None:
                continue
            asked += 1
            trivial = trivial_question(question, opening, snap)
            assert QUESTION_TYPES[kind].worth_asking(question, trivial)
            if kind == "is_boss":  # about a card that was not the boss at the opening: yes or no (training.md §1)
                assert trivial.answer == "no" and question.answer in ("yes", "no")
                assert_hoped_boss(record, seat, snap, question.card)
            else:
                assert informative(question, trivial) and question.answer != trivial.answer
            if question.kind == "multi":
                assert question.answer and set(question.answer) != {o["value"] for o in question.options}
            expected = expected_trivial(kind, record, seat, trivial)
            if expected is not None:
                expected = expected() if callable(expected) else expected
                same = set(trivial.answer) == set(expected) if question.kind == "multi" else trivial.answer == expected
                assert same, (kind, trivial.answer, expected)
    assert asked, f"{kind} was never informative"


def test_the_drills_trivial_share_is_below_ten_percent_for_every_type() -> None:
    tallies: dict[str, Tally] = {}
    for preset in sorted({drill.rules.preset for drill in DRILLS.values()}):
        drills = [drill for drill in DRILLS.values() if drill.rules.preset == preset]
        for kind, tally in survey(drills, deals(12 if preset == "standard" else 4, preset), runs=1).items():
            total = tallies.setdefault(kind, Tally())
            total.asked += tally.asked
            total.trivial += tally.trivial
    assert set(tallies) == set(QUESTION_TYPES)
    for kind, tally in tallies.items():
        if kind == "is_boss":  # yes/no about a card not boss at the opening: "no" is its natural share
            assert 0.25 <= tally.trivial_share <= 0.75, tally
        else:
            assert tally.trivial_share < 0.10, (kind, tally)


def test_a_single_choice_answer_sits_anywhere_among_its_options() -> None:
    tallies = survey([DRILLS["top-cards"]], deals(), runs=4)
    positions = tallies["top_in_play"].positions
    total = sum(positions.values())
    assert total >= 30
    assert positions[0] / total < 0.25 and max(positions.values()) / total < 0.3
    assert len(positions) >= 8


def test_single_choices_are_one_answer_questions_with_the_suits_ranks_as_options() -> None:
    record = deals()[0]
    events = list(public_events(record))
    drill = DRILLS["top-cards"]
    seen = 0
    for seed in range(40):
        plan = plan_run(drill, record, seed)
        for index, plays in enumerate(plan.checkpoints):
            question = question_at(drill, record, plan.seat, plays, seed, index, events).question
            assert question == question_at(drill, record, plan.seat, plays, seed, index, events).question
            if question.type == "top_in_play":
                seen += 1
                assert question.kind == "single"
                classes = strength_classes_of(record, question.suit)
                assert sorted(o["value"] for o in question.options) == sorted("/".join(c) for c in classes)
                assert question.answer != "/".join(classes[0])
            assert question.kind in ("number", "single", "multi")
    assert seen


def test_a_voids_question_is_never_answered_by_the_table() -> None:
    """training.md §1: a void is asked once the trick that showed it has left the table and the last-trick
    look does not show it (some seat of the answer was shown void earlier)."""
    drill = DRILLS["voids"]
    checked = 0
    for number, record in enumerate(deals()):
        events = list(public_events(record))
        for seed in range(number * 10, number * 10 + 10):
            plan = plan_run(drill, record, seed, events)
            for plays, asked in zip(plan.checkpoints, run_questions(drill, record, plan.seat, plan.checkpoints, seed,
                                                                    events), strict=True):
                if asked.question.type != "voids":
                    continue
                table = {str(q) for q, suit in table_at(record, plays).voids if suit == asked.question.suit}
                assert not set(asked.question.answer) <= table, (asked.question, table)
                checked += 1
    assert checked >= 20


def test_the_table_voids_are_the_seats_that_did_not_follow_in_the_trick_and_the_last() -> None:
    record = deals()[0]
    ctx = record.ctx
    shown: list[set[tuple[int, str]]] = []
    plays = 0
    for trick in record.tricks:
        plays += len(trick.plays)
        led = ctx.suit_of[trick.plays[0][0].index]
        shown.append({((trick.leader + k) % 4, ("S", "H", "C", "D", "trump")[led]) for k, play in enumerate(trick.plays)
                      if any(ctx.suit_of[c.index] != led for c in play)})
        assert table_at(record, plays).voids == shown[-1] | (shown[-2] if len(shown) > 1 else set())
    assert any(shown)


def test_a_question_has_one_of_three_answer_kinds() -> None:
    with pytest.raises(ValueError, match="answer kind 'checkbox'"):
        Question("voids", "checkbox", {"zh": "", "en": ""}, [], "voids")


def test_to_take_over_is_asked_only_while_the_attackers_still_need_points() -> None:
    """tracking.md: the fact is never below 0 and the drill does not ask it at 0 (no "80 − 90 = −10")."""
    asked = skipped = 0
    for record in deals(6):
        events = list(public_events(record))
        seat = (record.banker + 1) % 4
        threshold = 2 * record.rules.level_step
        for plays in range(0, total_plays(record) + 1, 4):
            snap = snapshot_after(record, seat, plays, events)
            facts = facts_json(snap, str(position_after(record, plays)))
            attackers = facts["score"]["attackers"]
            assert facts["score"]["to_take_over"] == max(threshold - attackers, 0)
            question = make_question("to_take_over", facts, snap, random.Random(plays))
            if attackers >= threshold:
                assert question is None
                skipped += 1
            else:
                assert question is not None and question.answer == threshold - attackers > 0
                asked += 1
    assert asked and skipped


def test_a_count_is_never_the_opening_less_what_the_table_shows() -> None:
    """training.md §1: `points_unplayed` is never the opening's points less those on the table (the trick and
    the last one), nor `suit_played` what the table shows of the suit."""
    checked = 0
    for number, record in enumerate(deals()):
        events = list(public_events(record))
        for drill in (DRILLS["points"], DRILLS["top-cards"]):
            for seed in range(number * 4, number * 4 + 4):
                plan = plan_run(drill, record, seed, events)
                for plays, asked in zip(plan.checkpoints, run_questions(drill, record, plan.seat, plan.checkpoints,
                                                                        seed, events), strict=True):
                    question = asked.question
                    if question.type not in ("points_unplayed", "suit_played"):
                        continue
                    table = table_at(record, plays)
                    suit = ("S", "H", "C", "D", "trump").index(question.suit)
                    for laid in (table.now, table.now + table.last):
                        shown = [card for _seat, card in laid if record.ctx.suit_of[card.index] == suit]
                        if question.type == "suit_played":
                            assert question.answer != len(shown)
                        else:
                            side = question.suit != "trump" and record.ctx.level not in (5, 10, 13)
                            if side:  # a side suit holds 50 points (two decks) when no point rank is the level
                                opening = 50
                                assert question.answer != opening - sum(card.points for card in shown)
                    checked += 1
    assert checked >= 20
