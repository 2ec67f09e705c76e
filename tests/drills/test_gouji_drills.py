"""够级 drills (gouji.md §7): the curriculum, checkpoints where §7 puts them, questions graded against the §6
facts of `deal track`, deterministic plans."""
from __future__ import annotations

import random

import pytest

from trainer.drills.definitions import load_drills
from tests.web.pages import JOKER_WORDS, RAW_NOTATION, spoken_card, spoken_position
from trainer.drills.gouji import QUESTION_TYPES, GoujiDrill, context, explain, make_question, plan_run, question_at
from trainer.engine.errors import MalformedError
from trainer.gouji import GoujiRules
from trainer.gouji.bots import record_hand
from trainer.gouji.facts import facts_json
from trainer.gouji.inference import infer_json
from trainer.gouji.records import GoujiPosition, parse_gouji_record, replay
from trainer.gouji.tracker import public_events, track

DRILLS = load_drills(game="gouji")


def deal(seed: int):
    """A heuristic-bot deal, validated."""
    data, _ = record_hand(random.Random(seed), GoujiRules(), ["heuristic"] * 6, seed % 6)
    record = parse_gouji_record(data)
    replay(record)
    return record


def test_the_gouji_curriculum():
    assert [d.name["zh"] for d in DRILLS.values()] == ["够级·剩几套", "够级·花和钱", "够级·对头剩几张", "够级·压得住吗",
                                                       "够级·全记"]
    assert {kind for drill in DRILLS.values() for kind in drill.questions} == set(QUESTION_TYPES)
    assert all(isinstance(drill, GoujiDrill) and drill.game == "gouji" for drill in DRILLS.values())
    assert "gouji-sets" in load_drills() and "gouji-sets" not in load_drills(game="shengji")


def expected(question, facts, inference, seat):
    """The question's answer read straight from the §6 JSON of `deal track` (tiers 1 and 2)."""
    subject = question.card
    relation = {entry["relation"]: q for q, entry in facts["seats"].items()}
    values = {
        "sets_left": lambda: facts["gouji"][subject]["max_sets_unseen"],
        "sets_played": lambda: facts["gouji"][subject]["sets_played"],
        "rank_unseen": lambda: facts["ranks"][subject]["unseen"],
        "rank_in_hands": lambda: facts["ranks"][subject]["in_hands"],
        "hua_qian_out": lambda: facts["ranks"][subject]["unseen"],
        "hua_qian_in_hands": lambda: facts["ranks"][subject]["in_hands"],
        "cards_left": lambda: facts["hand_sizes"][int(relation[subject])],
        "jokers_shown": lambda: sum(facts["seats"][relation[subject]]["shown"][r] for r in ("BJ", "SJ")),
        "gouji_plays": lambda: len(facts["seats"][relation[subject]]["gouji_plays"]),
        "opened": lambda: "yes" if facts["seats"][relation[subject]]["opened"] else "no",
        "higher_out": lambda: facts["higher_unseen"][subject],
        "can_hold_set": lambda: "yes" if "Q" in inference["can_hold_set"][relation[subject]] else "no",
        "min_threes": lambda: inference["holdings"][relation[subject]]["3"][0],
    }
    return values[question.type]()


@pytest.mark.parametrize("drill_id", list(DRILLS))
def test_every_question_is_graded_against_the_tracker(drill_id):
    drill = DRILLS[drill_id]
    for seed in (3, 4):
        record = deal(seed)
        events = list(public_events(record))
        plan = plan_run(drill, record, seed)
        assert plan == plan_run(drill, record, seed, events)
        assert plan.checkpoints == sorted(set(plan.checkpoints))
        assert 0 < len(plan.checkpoints) <= drill.checkpoint_count
        for index, actions in enumerate(plan.checkpoints):
            asked = question_at(drill, record, plan.seat, actions, seed, index, events)
            position = GoujiPosition.after(actions, record)
            snap = track(record, plan.seat, position)
            facts = facts_json(snap, str(position))
            answer = expected(asked.question, facts, infer_json(snap), plan.seat)
            assert asked.question.answer == (answer if asked.question.kind == "number" else str(answer))
            assert asked.question.grade(str(answer))
            if asked.question.options:
                assert asked.question.answer in [option["value"] for option in asked.question.options]
            assert not asked.question.grade("nonsense")
            assert asked == question_at(drill, record, plan.seat, actions, seed, index, events)


def test_duitou_checkpoints_come_before_the_viewer_answers_a_gouji_play():
    """§7: "before v answers as 对头 in 够级 mode"."""
    drill = GoujiDrill.from_toml({"id": "t", "name": {"zh": "t", "en": "t"}, "questions": {"cards_left": 1},
                                  "checkpoints": {"kinds": ["duitou"]}}, "t.toml")
    record = deal(5)
    events = list(public_events(record))
    rules = record.rules
    found = 0
    for seat in range(6):
        for actions in drill.candidates(record, seat, events):
            view = events[actions - 1].view
            assert view.mode == "gouji" and view.next == seat and rules.duitou(view.top_seat) == seat
            found += 1
    assert found


def test_jokers_checkpoints_follow_a_joker_or_a_two():
    drill = GoujiDrill.from_toml({"id": "t", "name": {"zh": "t", "en": "t"}, "questions": {"hua_qian_out": 1},
                                  "checkpoints": {"kinds": ["jokers"]}}, "t.toml")
    record = deal(6)
    events = list(public_events(record))
    points = drill.candidates(record, 0, events)
    assert points
    for actions in points:
        assert any(str(card) in ("BJ", "SJ") or str(card).startswith("2") for card in events[actions - 1].cards)


def test_a_question_about_a_relation_names_the_seat_from_the_viewer():
    record = deal(7)
    position = GoujiPosition.after(30, record)
    ctx = context(track(record, 2, position), str(position))
    question = make_question("cards_left", ctx, random.Random(0))
    assert question is not None and question.card == "对头"
    assert question.answer == ctx.facts["hand_sizes"][5]
    assert "对头" in question.prompt["zh"] and "opposite" in question.prompt["en"]


def test_bad_gouji_drills_are_refused_with_the_field():
    base = {"id": "t", "name": {"zh": "t", "en": "t"}, "questions": {"cards_left": 1}, "checkpoints": {}}
    with pytest.raises(MalformedError, match="unknown 够级 question type"):
        GoujiDrill.from_toml(dict(base, questions={"voids": 1}), "t.toml")
    with pytest.raises(MalformedError, match="checkpoints.kinds"):
        GoujiDrill.from_toml(dict(base, checkpoints={"kinds": ["trick_end"]}), "t.toml")
    with pytest.raises(MalformedError, match="hand_sizes"):
        GoujiDrill.from_toml(dict(base, hand_sizes="sometimes"), "t.toml")


SEAT_KINDS = ("cards_left", "jokers_shown", "gouji_plays", "opened")
"""The question types explained by what the seat asked about has played."""


@pytest.mark.parametrize("kind", list(QUESTION_TYPES))
def test_explanations_name_cards_and_positions_as_players_do(kind):
    """Every 够级 explanation, in both languages, names no card or position in record notation (`BJ`, `JS`, `1.5`):
    a seat's plays read 第R轮第K手 / round R, play K with their cards as J♠ 大王 (the web names the jokers in the
    reader's language), a rank's counts 大王 / 小王 for the jokers."""
    record = deal(8)
    events = list(public_events(record))
    qtype = QUESTION_TYPES[kind]
    explained = 0
    for seat, actions in ((1, len(events) // 3), (4, 2 * len(events) // 3), (0, len(events) - 1)):
        position = GoujiPosition.after(actions, record)
        ctx = context(track(record, seat, position), str(position))
        for subject in qtype.subjects:
            question = qtype.build(ctx, subject)
            if question is None:
                continue
            lines = explain(question, ctx)
            for language in ("zh", "en"):
                text = "\n".join(lines[language])
                assert not RAW_NOTATION.search(text), (language, RAW_NOTATION.findall(text))
                if subject in JOKER_WORDS["zh"]:
                    assert text.startswith(JOKER_WORDS["zh"][subject] + ("：共" if language == "zh" else ": "))
                if kind in SEAT_KINDS:
                    entry = ctx.facts["seats"][str(ctx.seat_of(subject))]
                    between = " " if language == "zh" else ": "
                    for play in entry["gouji_plays" if kind == "gouji_plays" else "plays"]:
                        cards = " ".join(spoken_card(code, JOKER_WORDS["zh"]) for code in play["cards"])
                        assert f"{spoken_position(play['at'], language)}{between}{cards}" in text
            explained += 1
    assert explained


RULE_DEALS = 16
"""Deals the informativeness test generates (a few seconds)."""


def _rule_sample():
    """Every question the 够级 drills ask on `RULE_DEALS` generated deals (two runs each), with the no-memory
    answer (the same question with what left the table forgotten) and the opening's."""
    from trainer.drills.gouji import QUESTION_TYPES as TYPES, contexts_at, memory_part, run_questions
    found = []
    for seed in range(RULE_DEALS):
        record = deal(100 + seed)
        events = list(public_events(record))
        for drill in DRILLS.values():
            for run in range(2):
                plan = plan_run(drill, record, seed * 7 + run, events)
                opening = context(track(record, plan.seat, GoujiPosition.after(0, record)), "1.0")
                for actions, asked in zip(plan.checkpoints, run_questions(
                        drill, record, plan.seat, plan.checkpoints, seed * 7 + run, events), strict=True):
                    question, qtype = asked.question, TYPES[asked.question.type]
                    if qtype.spread is None:
                        continue
                    _, table = contexts_at(record, plan.seat, actions, events, asked.snapshot)
                    ctx = context(asked.snapshot, str(asked.position))
                    base = qtype.build(opening if qtype.base == "opening" else table, question.card)
                    number = qtype.build(ctx, question.card)
                    found.append((question, memory_part(number, base, qtype.sign), base))
    return found


def test_every_spread_type_draws_the_memory_part_evenly():
    """training.md §1 per 够级 type: over generated deals, the answer read off the table (memory part 0) and
    every other part come up alike; a choice shows every answer the parts give, so the no-memory answer and
    each option are right on about 1 question in k, under the limit max(15 %, 1.5/k)."""
    from collections import Counter, defaultdict
    from trainer.drills.gouji import NUMBER_SPREAD
    by_type = defaultdict(list)
    for question, part, base in _rule_sample():
        by_type[question.type].append((question, part, base))
        spread = QUESTION_TYPES[question.type].spread
        assert part is not None
        if question.kind == "single" and spread < NUMBER_SPREAD:
            assert len(question.options) == spread
            assert part < spread
    assert {"sets_left", "sets_played", "hua_qian_out", "opened", "rank_in_hands"} <= set(by_type)
    for kind, items in by_type.items():
        if len(items) < 30:
            continue
        spread = QUESTION_TYPES[kind].spread
        k = len(items[0][0].options) or None
        limit = max(0.15, 1.5 / k) if k else 0.15
        bound = limit + 2 * (limit * (1 - limit) / len(items)) ** 0.5  # two standard errors of a share at the limit
        parts = Counter(part for _, part, _ in items)
        answers = Counter(str(question.answer) for question, _, _ in items)
        assert max(parts.values()) / len(items) <= bound, (kind, parts)
        assert max(answers.values()) / len(items) <= bound, (kind, answers)
        if spread < NUMBER_SPREAD:
            positions = Counter([o["value"] for o in q.options].index(q.answer) for q, _, _ in items)
            assert max(positions.values()) / len(items) <= bound, (kind, positions)
        assert parts[0] > 0, kind


@pytest.mark.parametrize("language", ["zh", "en"])
def test_deciding_plays_name_the_round_and_the_seat(language):
    """training.md §3 for 够级: an explanation's deciding plays are real plays of earlier rounds (the round on
    the table shows the rest), earliest first, each saying its 轮 and the seat by relation: 第3轮 对头出了… /
    round 3: your opposite (对头) played …; for a rank count, plays of that rank by the other seats."""
    from trainer.drills.gouji import DECIDING_MAX, deciding_plays
    record = deal(8)
    events = list(public_events(record))
    actions = 2 * len(events) // 3
    position = GoujiPosition.after(actions, record)
    seat = 1
    ctx = context(track(record, seat, position), str(position))
    played = {(event.round, event.seat, tuple(map(str, event.cards))) for event in events[:actions] if event.cards}
    checked = 0
    for kind, qtype in QUESTION_TYPES.items():
        for subject in qtype.subjects:
            question = qtype.build(ctx, subject)
            if question is None:
                continue
            plays = deciding_plays(question, ctx, language)
            assert len(plays) <= DECIDING_MAX
            assert [play.trick for play in plays] == sorted(play.trick for play in plays)
            for play in plays:
                assert play.trick < position.round
                relation = record.rules.relation(play.seat, seat)
                if language == "zh":
                    assert play.line.startswith(f"第{play.trick}轮 {'自己' if relation == 'me' else relation}出了")
                else:
                    assert play.line.startswith(f"round {play.trick}: ")
                assert not RAW_NOTATION.search(play.line), play.line
                assert any(r == play.trick and q == play.seat for r, q, _ in played)
                if kind == "rank_unseen":
                    assert play.seat != seat
            checked += bool(plays)
            if kind == "rank_unseen":
                rounds = {e.round for e in events[:actions] if e.seat != seat and e.round < position.round
                          and any(str(c)[:-1] == subject for c in e.cards)}
                assert bool(plays) == bool(rounds)
    assert checked
