"""Drill definitions and questions: the curriculum loads, questions are graded exactly."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from trainer.drills.decide import DECISION_TYPES
from trainer.drills.definitions import DRILLS_DIR, Drill, load_drills, moment_position
from trainer.drills.questions import QUESTION_TYPES, Question, make_question
from trainer.engine.errors import MalformedError
from trainer.records import Position, load_record, replay
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import track

STARTER = sorted((DRILLS_DIR / "deals").glob("*.json"))
"""The starter deals: two-deck ones first (`deal-…`), then `four-deck-…`, `one-deck-…`, `three-deck-…`."""
OTHER_DECKS = [path for path in STARTER if not path.name.startswith(("deal-", "gouji-"))]


def test_curriculum_is_shipped():
    drills = load_drills(game="shengji")
    assert [d.name["zh"] for d in drills.values()] == ["数主", "算分", "记对子", "绝门", "大牌", "决策", "全记", "速记",
                                                       "记三张", "四副牌", "连续数：外面的主", "连续数：闲家得分",
                                                       "连续数：一门还剩几分", "闪记"]
    assert [d.mode for d in drills.values()][-4:] == ["running", "running", "running", "flash"]
    covered = {kind for drill in drills.values() if drill.mode == "replay" for kind in drill.questions}
    assert covered == set(QUESTION_TYPES)
    assert drills["speed"].answer_seconds < drills["trumps"].answer_seconds


@pytest.mark.parametrize("path", STARTER[:6], ids=lambda p: p.name)
def test_every_drill_plans_a_run_on_starter_deals(path):
    record = load_record(path)
    replay(record)
    total = sum(len(t.plays) for t in record.tricks)
    for drill in load_drills(game="shengji").values():
        rng = random.Random(path.name)
        points = drill.checkpoints_for(record, rng)
        assert points == sorted(set(points)) and all(0 < p <= total for p in points)
        assert points, drill.id
        seat = drill.choose_viewer(record, rng)
        if drill.viewer == "banker":
            assert seat == record.banker


def position_after(record, plays: int) -> Position:
    for number, trick in enumerate(record.tricks, start=1):
        if plays <= len(trick.plays):
            return Position(number, plays)
        plays -= len(trick.plays)
    raise AssertionError


@pytest.mark.parametrize("kind", sorted(QUESTION_TYPES))
def test_questions_answer_with_the_exact_fact(kind):
    asked = 0
    for path in STARTER[:8] + OTHER_DECKS[::3]:
        record = load_record(path)
        replay(record)
        total = sum(len(trick.plays) for trick in record.tricks)
        for plays in (p for p in (10, 30, 50) if p <= total):  # a one-deck deal has 48 plays
            position = position_after(record, plays)
            seat = plays % 4
            snap = track(record, seat, position)
            facts = facts_json(snap, str(position))
            question = make_question(kind, facts, snap, random.Random(plays))
            if question is None:
                continue
            asked += 1
            assert question.grade(question.answer)
            again = Question.from_json(question.to_json())
            assert again == question
            if question.kind == "number":
                assert not question.grade(question.answer + 1)
                assert question.grade(str(question.answer))
                assert not question.grade("seven")
            elif question.kind == "multi":
                assert question.grade(list(reversed(question.answer)))
                values = [o["value"] for o in question.options]
                assert set(question.answer) <= set(values)
                wrong = [v for v in values if v not in question.answer][:1] or []
                if wrong:
                    assert not question.grade(list(question.answer) + wrong)
            else:
                other = next(o["value"] for o in question.options if o["value"] != question.answer)
                assert not question.grade(other)
            if question.type not in DECISION_TYPES:  # tier 2: tests/tracking/test_decisions.py
                _check_against_facts(question, facts)
    assert asked


def _check_against_facts(question: Question, facts: dict) -> None:
    suit = facts["suits"].get(question.suit) if question.suit else None
    expected = {
        "trumps_unseen": lambda: facts["trumps"]["unseen"],
        "trumps_played": lambda: facts["trumps"]["played"],
        "constant_trumps_out": lambda: sum(facts["trumps"]["top"].values()),
        "points_unplayed": lambda: suit["points_unplayed"],
        "points_unseen": lambda: suit["points_unseen"],
        "suit_played": lambda: suit["played"],
        "suit_unseen": lambda: suit["unseen"],
        "attackers_score": lambda: facts["score"]["attackers"],
        "to_take_over": lambda: facts["score"]["to_take_over"],
        "live_pairs": lambda: suit["live_pairs"],
        "top_in_play": lambda: next(o["value"] for o in question.options
                                    if set(suit["top_in_play"]) <= set(o["value"].split("/"))),
        "live_tractor": lambda: [face for run in suit["live_tractors"] for face in run],
        "live_triples": lambda: suit["live_triples"],
        "live_triple_tractor": lambda: [face for run in suit["live_triple_tractors"] for face in run],
        "live_quads": lambda: suit["live_quads"],
        "live_quad_tractor": lambda: [face for run in suit["live_quad_tractors"] for face in run],
        "is_boss": lambda: "yes" if suit["higher_than_mine"][question.card] == 0 else "no",
        "voids": lambda: [q for q, s in facts["voids"].items() if question.suit in s],
        "no_pairs": lambda: [q for q, s in facts["no_pairs"].items() if question.suit in s],
        "big_trumps_out": lambda: [f for f, c in facts["trumps"]["top"].items() if c],
        "point_cards_out": lambda: [c for c in dict.fromkeys(suit["unseen_cards"]) if c[:-1] in ("5", "10", "K")],
    }[question.type]()
    assert question.answer == expected


def test_moments():
    record = load_record(STARTER[0])
    assert moment_position(record, "first_trick") == len(record.tricks[0].plays)
    last = moment_position(record, "before_last_trick")
    assert last == sum(len(t.plays) for t in record.tricks[:-1])


@pytest.mark.parametrize(("text", "message"), [
    ('id = "x"\nname = {zh = "x", en = "x"}\n[checkpoints]\nkind = "trick_end"\n[questions]\nnonsense = 1\n',
     "unknown question type"),
    ('id = "x"\nname = {zh = "x", en = "x"}\n[checkpoints]\nkind = "sometimes"\n[questions]\nvoids = 1\n',
     "checkpoints.kind"),
    ('id = "x"\nname = {zh = "x", en = "x"}\nviewer = "kitty"\n[checkpoints]\n[questions]\nvoids = 1\n', "viewer"),
    ('id = "x"\nname = {zh = "x", en = "x"}\n[checkpoints]\n[questions]\nvoids = -1\n', "positive"),
    ('id = "x"\n[checkpoints]\n[questions]\nvoids = 1\n', "missing 'name'"),
    ('id = "x" = 1', "drill bad.toml"),
])
def test_bad_drill_files_name_the_problem(tmp_path: Path, text, message):
    (tmp_path / "bad.toml").write_text(text, encoding="utf-8")
    with pytest.raises(MalformedError, match=message):
        load_drills(tmp_path)


def test_drill_dataclass_roundtrip():
    drill = load_drills()["trumps"]
    assert isinstance(drill, Drill) and drill.rules.preset == "standard"
