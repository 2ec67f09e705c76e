"""连续数 and 闪记 (training.md §5): their plans, their questions recomputed from the record and the tracker, the
flash time's adaptation and a running count's streak and stop; `trainer drill sample` prints them with their
mode, from the same functions the web app calls."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.bots.generate import generate_records
from flash_tricks import trick_answers
from trainer.cli import main
from trainer.drills.definitions import DRILLS_DIR, Drill, load_drills
from trainer.drills.modes import (FLASH_CHOICES, FLASH_MAX_MS, FLASH_MIN_MS, FLASH_OPTIONS, FlashState,
                                  deal_questions, mode_of, next_flash, plan_run, run_questions, stops_at, streak)
from trainer.drills.sample import curriculum, run_seed, sample
from trainer.engine.errors import MalformedError
from trainer.engine.trump import SUIT_NAMES
from trainer.records import Position, load_record, parse_record
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events, track

STARTER = sorted(path for path in (DRILLS_DIR / "deals").glob("deal-*.json"))[:3]
DRILLS = load_drills(game="shengji")
RUNNING = [key for key, drill in DRILLS.items() if drill.mode == "running"]


def _trick_end_positions(record) -> list[int]:
    ends, plays = [], 0
    for trick in record.tricks:
        plays += len(trick.plays)
        ends.append(plays)
    return ends


@pytest.mark.parametrize("path", STARTER, ids=lambda p: p.name)
@pytest.mark.parametrize("drill_id", RUNNING)
def test_a_running_count_asks_its_one_quantity_after_every_trick(path, drill_id) -> None:
    record, drill = load_record(path), DRILLS[drill_id]
    plan, asked = deal_questions(drill, record, 11)
    assert plan.checkpoints == _trick_end_positions(record)[:-1]
    kind = next(iter(drill.questions))
    suits = {a.question.suit for a in asked}
    assert {a.question.type for a in asked} == {kind} and len(suits) == 1
    if kind == "points_unplayed":
        assert suits.pop() in set("SHCD") - {record.data["trump"]}
    for number, entry in enumerate(asked, start=1):
        position = Position(number, len(record.tricks[number - 1].plays))
        facts = facts_json(track(record, plan.seat, position), str(position))
        expected = {"trumps_unseen": facts["trumps"]["unseen"], "attackers_score": facts["score"]["attackers"],
                    "points_unplayed": facts["suits"][entry.question.suit or ""]["points_unplayed"]
                    if entry.question.suit else None}[kind]
        assert entry.position == position and entry.question.answer == expected


@pytest.mark.parametrize("path", STARTER, ids=lambda p: p.name)
def test_a_flash_asks_what_its_trick_changed(path) -> None:
    """Each answer recomputed from the record's trick itself: its trumps, its points, who did not follow."""
    record, drill = load_record(path), DRILLS["flash"]
    ctx = record.ctx
    for seed in range(6):
        plan, asked = deal_questions(drill, record, seed)
        assert len(plan.checkpoints) == min(drill.checkpoint_count, len(record.tricks))
        assert set(plan.checkpoints) <= set(_trick_end_positions(record))
        for entry in asked:
            trick = record.tricks[entry.position.trick - 1]
            led = ctx.suit_of[trick.plays[0][0].index]
            answers = trick_answers(record, plan.seat, entry.position.trick)
            question = entry.question
            if question.type == "flash_voids":
                assert question.answer == answers[question.type], (question.type, entry.position)
                assert question.suit == SUIT_NAMES[led] and {o["value"] for o in question.options} == {
                    str((plan.seat + k) % 4) for k in (1, 2, 3)}
            else:  # a choice among consecutive values that holds the answer
                assert question.kind == "single" and question.answer == str(answers[question.type])
                shown = sorted(int(o["value"]) for o in question.options)
                step = FLASH_CHOICES[question.type]
                assert question.answer in {o["value"] for o in question.options}
                assert shown == list(range(shown[0], shown[0] + step * FLASH_OPTIONS, step))


def test_a_flash_is_a_function_of_the_seed() -> None:
    record = load_record(STARTER[0])
    events = list(public_events(record))
    drill = DRILLS["flash"]
    plan = plan_run(drill, record, 5, events)
    assert plan == plan_run(drill, record, 5, events)
    first = run_questions(drill, record, plan.seat, plan.checkpoints, 5, events)
    assert [a.question for a in first] == [a.question for a in run_questions(drill, record, plan.seat,
                                                                             plan.checkpoints, 5, events)]
    assert [a.question for a in first[:3]] == [a.question for a in run_questions(
        drill, record, plan.seat, plan.checkpoints, 5, events, 3)]
    assert len({tuple(plan_run(drill, record, seed, events).checkpoints) for seed in range(8)}) > 1


@given(st.lists(st.booleans(), max_size=60), st.integers(FLASH_MIN_MS, FLASH_MAX_MS))
def test_the_flash_time_adapts_within_its_range(answers, start) -> None:
    state = FlashState(start)
    rights = 0
    for correct in answers:
        after = next_flash(state, correct)
        assert FLASH_MIN_MS <= after.ms <= FLASH_MAX_MS
        rights = rights + 1 if correct else 0
        if not correct:
            assert after == FlashState(min(FLASH_MAX_MS, round(state.ms * 1.25)), 0)
        elif state.in_row == 2:
            assert after == FlashState(max(FLASH_MIN_MS, round(state.ms * 0.8)), 0)
        else:
            assert after == FlashState(state.ms, state.in_row + 1)
        state = after


def test_three_right_in_a_row_shorten_the_flash_and_a_miss_lengthens_it() -> None:
    state = FlashState()
    for correct in (True, True, True):
        state = next_flash(state, correct)
    assert state.ms == 1200
    assert next_flash(next_flash(state, True), False) == FlashState(1500, 0)


def test_a_running_count_stops_at_the_first_miss_unless_set_to_go_on() -> None:
    assert stops_at(DRILLS["running-trumps"], False) and not stops_at(DRILLS["running-trumps"], True)
    assert not stops_at(DRILLS["running-suit-points"], False)
    assert not stops_at(DRILLS["trumps"], False)


@given(st.lists(st.booleans()))
def test_the_streak_is_the_right_answers_since_the_last_miss(answers) -> None:
    graded = [type("A", (), {"correct": c})() for c in answers]
    length = streak(graded)
    assert all(answers[len(answers) - length:]) and (length == len(answers) or not answers[-length - 1])


@pytest.mark.parametrize(("table", "reason"), [
    ({"mode": "blitz"}, "mode must be one of"),
    ({"mode": "running", "questions": {"trumps_unseen": 1, "attackers_score": 1}}, "one quantity"),
    ({"mode": "running", "questions": {"voids": 1}}, "unknown question type"),
    ({"mode": "flash", "questions": {"trumps_unseen": 1}}, "unknown question type"),
])
def test_a_mode_drill_file_with_a_mistake_is_refused_with_the_reason(table, reason) -> None:
    data = {"id": "x", "name": {"zh": "x", "en": "x"}, "checkpoints": {"kind": "trick_end"},
            "questions": {"trumps_unseen": 1}, **table}
    with pytest.raises(MalformedError, match=reason):
        Drill.from_toml(data, "x.toml")


def test_other_drills_are_replays() -> None:
    assert mode_of(DRILLS["voids"]) == "replay" == mode_of(curriculum()["gouji-duitou"])
    assert mode_of(curriculum()["signal-respond"]) == "replay"


def test_the_sample_prints_the_modes_questions_as_the_run_asks_them(capsys) -> None:
    drills = [curriculum()[name] for name in ("running-score", "running-suit-points", "flash")]
    lines = list(sample(drills, 2, 3, 2))
    assert main(["drill", "sample", "--drill", "running-score", "--drill", "running-suit-points", "--drill", "flash",
                 "--deals", "2", "--seed", "3", "--runs", "2", "--jobs", "1"]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == json.loads(json.dumps(lines, ensure_ascii=False))
    assert {line["mode"] for line in lines if line["drill"] == "flash"} == {"flash"}
    assert {line["mode"] for line in lines if line["drill"] != "flash"} == {"running"}
    for line in lines:
        if line["mode"] == "flash":  # the trick has cleared; nothing is known before the first play
            assert line["visible"]["trick"] == [] and line["visible"]["last_trick"] is None
            assert line["visible"]["opening"] is None and line["family"] in ("trumps", "points", "voids")
        else:
            assert line["visible"]["opening"] is not None and line["position"].endswith(".4")
    by_run: dict[tuple[str, str, int], list[dict]] = {}
    for line in lines:
        by_run.setdefault((line["drill"], line["deal"], line["run"]), []).append(line)
    records = {}
    for (drill_id, deal, run), asked in by_run.items():
        drill = curriculum()[drill_id]
        number = sorted({line["deal"] for line in lines if line["drill"] == drill_id}, key=[
            line["deal"] for line in lines if line["drill"] == drill_id].index).index(deal)
        record = records.setdefault(deal, next(r for r in _deals(drill) if r.id == deal))
        events = list(public_events(record))
        seed = run_seed(3, drill_id, number, run)
        plan = plan_run(drill, record, seed, events)
        questions = run_questions(drill, record, plan.seat, plan.checkpoints, seed, events)
        assert [line["answer"] for line in asked] == [a.question.answer for a in questions]
        assert {line["seat"] for line in asked} == {plan.seat}


def _deals(drill: Drill) -> list:
    """The sample's deals of the drill's rules, generated again as `trainer deal generate` makes them."""
    return [parse_record(r) for r in generate_records(drill.rules, 3, 2)]


def test_the_suit_of_a_points_count_is_drawn_by_the_run_seed() -> None:
    record = load_record(STARTER[1])
    drill = DRILLS["running-suit-points"]
    suits = {deal_questions(drill, record, seed)[1][0].question.suit for seed in range(12)}
    assert len(suits) > 1 and record.data["trump"] not in suits
