"""Signal quizzes: every question a spot asks is graded as the referee (`trainer signals check`, the rules
module) answers the same position; runs are planned at the viewer's own moments and never ask a question
twice; legal items made from the trick just ended; the deciding plays are the plays that carried the signal."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.bots.generate import generate_records
from trainer.drills.questions import question_key
from trainer.drills.runs import position_after
from trainer.engine.errors import MalformedError
from trainer.engine.rules import Rules
from trainer.records import load_record, parse_record
from trainer.referee import answer
from trainer.signals.conventions import load_conventions
from trainer.signals.quiz import (QUIZ_KINDS, SIGNAL_DRILLS_DIR, SignalDrill, build_question, deciding_plays, explain,
                                  load_signal_drills, plan_signal_run, signal_question, spots)
from trainer.signals.reasons import PASS_EXCEPTIONS
from trainer.signals.referee import OPS
from trainer.tracking.tracker import public_events

SETS = load_conventions()
DRILLS = load_signal_drills()
STARTER = sorted((Path(__file__).resolve().parents[2] / "drills" / "deals" / "signals").glob("*.json"))


def referee(request: dict) -> dict:
    """The referee's answer to a moment's request."""
    return json.loads(json.dumps(answer(json.dumps(request), OPS)))


def check_graded_as_referee(spot, question) -> None:
    """The question's right answer is exactly what the referee says about the spot's position."""
    said = referee(spot.moment.request)
    op = spot.moment.request["op"]
    rule = f"exception_{said['exception']}" if op == "pass" and said.get("exception") else said["rule"]
    assert question.fact.startswith(f"{op}:{rule}:")
    values = [option["value"] for option in question.options]
    assert len(set(values)) == len(values) >= 2
    if op == "respond":
        assert len(question.answer) == 1 and set(question.answer) <= set(said["allowed"]) & set(values)
        assert all(question.grade(v) == (v in said["allowed"]) for v in values) and len(values) == 2
    elif op in ("interpret", "discard_order"):
        assert question.answer == said["meaning"] and question.grade(said["meaning"])
    elif op == "opening_request":
        assert question.answer == (said["request"] or "none")
    elif op == "discard_play":
        orders = {",".join(order) for order in said["orders"]}
        assert all(question.grade(v) == (v in orders) for v in values)
        assert any(question.grade(v) for v in values) and not all(question.grade(v) for v in values)
    else:
        assert op == "pass"
        assert question.answer == ("pass" if said["must_pass"] else "keep")
        assert sum(question.grade(v) for v in values) == 1


@pytest.mark.parametrize("path", STARTER, ids=lambda p: p.name)
def test_every_spot_of_the_signal_starter_deals_is_graded_as_the_referee(path: Path) -> None:
    record = load_record(path)
    convention = SETS[record.data["source"]["signals"]["name"]]
    for spot in spots(record, convention):
        check_graded_as_referee(spot, build_question(spot, record, convention, random.Random(3)))


def test_the_starter_signal_deals_hold_every_quiz_kind_under_every_set() -> None:
    kinds = Counter()
    for path in STARTER:
        record = load_record(path)
        kinds.update(spot.kind for spot in spots(record, SETS[record.data["source"]["signals"]["name"]]))
    assert set(kinds) == {"respond", "interpret", "discard", "pass"} and min(kinds.values()) >= 10
    assert {load_record(p).data["source"]["signals"]["name"] for p in STARTER} == set(SETS)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(sorted(SETS)), other=st.sampled_from(sorted(SETS)))
def test_spots_of_random_signal_deals_are_graded_as_the_referee_under_any_set(seed: int, name: str,
                                                                              other: str) -> None:
    record = parse_record(generate_records(Rules(), seed, 1, signals=SETS[name])[0])
    for convention in (SETS[name], SETS[other]):  # the deal's set, and another one read over it
        for spot in spots(record, convention):
            check_graded_as_referee(spot, build_question(spot, record, convention, random.Random(seed)))


def test_a_respond_question_from_the_seeds_example() -> None:
    """signals.md quiz 1: ♥A led, my ♥ A 9 7 5 3 under basic_89JQ: ♥9 is the only right card."""
    for path in STARTER:
        record = load_record(path)
        convention = SETS[record.data["source"]["signals"]["name"]]
        for spot in spots(record, convention):
            if spot.kind == "respond" and spot.moment.verdict.rule == "answer_A":
                question = build_question(spot, record, convention, random.Random(0))
                signals = [o["value"] for o in question.options if o["value"][:-1] in
                           convention.rank_names("SHCD".index(o["value"][-1]))]
                assert question.answer == signals and question.type == "signal:respond"
                decisive, _account = explain(question, convention, "zh")
                assert decisive[0].startswith("规则 answer_A: 对家出A，你有另一张A：给信号牌（应A）")
                assert decisive[1].startswith(f"你的约定 {convention.name}：{convention.description['zh']}")
                assert explain(question, convention, "en")[0][0].startswith("Rule answer_A: Partner leads the A")
                return
    raise AssertionError("no answer_A spot in the starter deals")


@pytest.mark.parametrize("drill_id", [d for d in DRILLS if DRILLS[d].kinds != ("legal",)])
def test_a_run_stops_only_at_the_viewers_own_spots_of_the_drills_kinds(drill_id: str) -> None:
    drill = DRILLS[drill_id]
    asked = 0
    for path in STARTER[:12]:
        record = load_record(path)
        convention = SETS[record.data["source"]["signals"]["name"]]
        seat, checkpoints = plan_signal_run(drill, record, 7, convention)
        assert checkpoints == sorted(set(checkpoints)) and len(checkpoints) <= drill.checkpoint_count
        places = [s for s in spots(record, convention) if s.kind in drill.kinds]
        assert {(seat, at) for at in checkpoints} <= {(s.seat, s.plays) for s in places}
        if places:
            best = Counter(s.seat for s in {(s.seat, s.plays): s for s in places}.values())
            assert 1 <= len(checkpoints) <= min(best[seat], drill.checkpoint_count)
            assert best[seat] == max(best.values())
        keys = [question_key(signal_question(drill, record, seat, plays, 7, convention,
                                             position_after(record, plays)).question) for plays in checkpoints]
        assert len(set(keys)) == len(keys), "a run never asks the same type, subject and answer twice"
        for index, plays in enumerate(checkpoints):
            one = signal_question(drill, record, seat, plays, 7, convention, position_after(record, plays))
            assert one == signal_question(drill, record, seat, plays, 7, convention, position_after(record, plays))
            assert one.question.type in {f"signal:{kind}" for kind in drill.kinds}
            asked += 1
        with pytest.raises(MalformedError, match="no signal moment"):
            signal_question(drill, record, seat, 10_000, 7, convention, position_after(record, 0))
    assert asked > 0


def test_the_legal_quiz_makes_items_from_the_trick_just_ended_and_never_calls_cheating_legal() -> None:
    drill = DRILLS["signal-legal"]
    convention = SETS["basic_89JQ"]
    answers = Counter()
    for path in STARTER[:10]:
        record = load_record(path)
        seat, checkpoints = plan_signal_run(drill, record, 11, convention)
        assert len(checkpoints) == drill.checkpoint_count
        keys = set()
        for plays in checkpoints:
            question = signal_question(drill, record, seat, plays, 11, convention,
                                       position_after(record, plays)).question
            position = position_after(record, plays)
            trick = record.tricks[position.trick - 1]
            assert position.plays == len(trick.plays) and question.card in {str(p[0]) for p in trick.plays}
            assert question.prompt["zh"].startswith(f"第{position.trick}轮") and question.type == "signal:legal"
            cheat = any(marker in question.prompt["zh"] for marker in ("离开", "拖延", "555", "横着", "叹气", "密约", "飞快"))
            assert question.answer == ("illegal" if cheat else "legal")
            assert "非法信息" in explain(question, convention, "zh")[0][1]
            answers[question.answer] += 1
            keys.add((question.card, question.answer))
        assert len(keys) == len(checkpoints), "no item asked twice in a run"
    assert min(answers.values()) >= sum(answers.values()) * 0.3, answers


def test_signal_drills_name_every_quiz_kind_and_refuse_bad_files(tmp_path: Path) -> None:
    assert {kind for drill in DRILLS.values() for kind in drill.kinds} == set(QUIZ_KINDS)
    assert [d.name["zh"] for d in DRILLS.values()][:4] == ["信号：应A", "信号：看信号", "信号：垫牌", "信号：传牌"]
    assert all(isinstance(d, SignalDrill) and d.checkpoints == "signals" for d in DRILLS.values())
    (tmp_path / "bad.toml").write_text('id = "x"\nname = { zh = "x", en = "x" }\nkinds = ["guess"]\n')
    with pytest.raises(MalformedError, match="bad.toml: kinds must list"):
        load_signal_drills(tmp_path)
    assert SIGNAL_DRILLS_DIR.is_dir()


@pytest.mark.parametrize("path", STARTER[::3], ids=lambda p: p.name)
def test_the_deciding_plays_are_the_plays_that_carried_the_signal(path: Path) -> None:
    record = load_record(path)
    convention = SETS[record.data["source"]["signals"]["name"]]
    events = list(public_events(record))
    checked = Counter()
    for spot in spots(record, convention):
        question = build_question(spot, record, convention, random.Random(1))
        plays = deciding_plays(question, spot.seat, events[:spot.plays])
        moment = spot.moment
        leader = record.tricks[moment.trick - 1].leader
        assert plays and all(line.line.startswith(f"trick {line.trick}: seat {line.seat} played ") for line in plays)
        if moment.kind == "pass":
            first = plays[0]
            assert first.seat == spot.seat and first.trick < moment.trick
            led = record.tricks[first.trick - 1].plays[0]
            assert any(card.rank == 14 and str(card)[-1] == question.suit for card in led)
            assert [p.seat for p in plays] == [spot.seat, (spot.seat + 2) % 4]
        else:
            assert plays[0].trick == moment.trick and plays[0].seat == leader
            partner = [(p.trick, p.seat) for p in plays[1:]]
            reading = moment.kind in ("interpret", "discard_order")
            assert partner == ([(moment.trick, (spot.seat + 2) % 4)] if reading else [])
        checked[moment.kind] += 1
    assert checked, "the deal has moments"


def test_a_kept_pass_names_its_exception_in_the_feedback() -> None:
    named = Counter()
    for path in STARTER:
        record = load_record(path)
        convention = SETS[record.data["source"]["signals"]["name"]]
        for spot in spots(record, convention):
            if spot.kind == "pass":
                question = build_question(spot, record, convention, random.Random(2))
                said = referee(spot.moment.request)
                zh, en = explain(question, convention, "zh")[0][0], explain(question, convention, "en")[0][0]
                if said["must_pass"]:
                    assert zh.startswith("规则 pass: ") and question.answer == "pass"
                else:
                    number = said["exception"]
                    assert zh.startswith(f"规则 exception_{number}: ") and PASS_EXCEPTIONS[number][1] in zh
                    assert f"exception {number} of seed 001" in en and question.answer == "keep"
                    named[number] += 1
    assert len(named) >= 2, named
