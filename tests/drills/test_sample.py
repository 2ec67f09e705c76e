"""`trainer drill sample` (training.md §6): the shape of every line, determinism, `visible` recomputed from
the record (the hand and the trick by replaying the rules' state, the opening from the tracker at 1.0), the
questions equal to the web run loop's, and bad usage exiting 2 with the reason."""
from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

import pytest

from trainer.bots.generate import generate_records
from trainer.cli import main
from trainer.drills.questions import QUESTION_TYPES
from trainer.drills.runs import plan_run, run_questions
from trainer.drills.sample import SIGNAL_SET, curriculum, run_seed, sample
from trainer.engine.cards import Card
from trainer.gouji.generate import generate_gouji_records
from trainer.gouji.records import GoujiPosition, parse_gouji_record
from trainer.gouji.records import state_at as gouji_state_at
from trainer.records import Position, parse_record, state_at
from trainer.signals.conventions import find_convention
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import public_events, track

DRILLS = ("voids", "decide", "four-decks", "triples", "top-cards", "gouji-duitou", "gouji-everything", "signal-respond",
          "signal-legal")
SEED, DEALS, RUNS = 5, 2, 2
KEYS = ["drill", "deal", "run", "seat", "position", "checkpoint", "type", "family", "mode", "kind", "subject",
        "prompt", "options", "answer", "visible"]
VISIBLE = ["level", "trump", "hand", "trick", "last_trick", "hand_sizes", "kitty", "opening"]
FAMILIES = {"trumps", "points", "pairs", "voids", "top", "decisions", "signals", "gouji", "guandan"}


@cache
def lines() -> tuple[dict[str, Any], ...]:
    """The sample of the test drills, printed by the command and read back."""
    drills = [curriculum()[name] for name in DRILLS]
    return tuple(json.loads(json.dumps(line, ensure_ascii=False)) for line in sample(drills, DEALS, SEED, RUNS))


@cache
def records(drill_id: str) -> dict[str, Any]:
    """The deals of a drill's rules, generated here again as `trainer deal generate` makes them, by id."""
    drill = curriculum()[drill_id]
    if drill.game == "gouji":
        made = [parse_gouji_record(r) for r in generate_gouji_records(drill.rules, SEED, DEALS)]
    else:
        signals = find_convention(SIGNAL_SET) if drill_id.startswith("signal") else None
        made = [parse_record(r) for r in generate_records(drill.rules, SEED, DEALS, signals=signals)]
    return {record.id: record for record in made}


def test_decision_questions_name_their_subject() -> None:
    """`max_trumps` is about a seat (not the viewer), `throw_safe` about the throw's cards in the viewer's
    hand, a yes/no; `who_beats` about a card of the viewer's."""
    asked = list(sample([curriculum()["decide"]], 6, SEED, RUNS))  # max_trumps is flattened: rarer than the others
    assert {line["type"] for line in asked} >= {"max_trumps", "throw_safe"}
    for line in asked:
        if line["type"] == "max_trumps":
            assert set(line["subject"]) == {"seat"} and line["subject"]["seat"] != line["seat"]
        elif line["type"] == "throw_safe":
            cards = line["subject"]["cards"]
            assert line["kind"] == "yesno" and len(cards) >= 2 and line["answer"] in (True, False)
            assert all(cards.count(card) <= line["visible"]["hand"].count(card) for card in cards)
        elif line["type"] == "who_beats":
            assert line["subject"]["card"] in line["visible"]["hand"]


def test_every_line_has_the_fields_of_section_6() -> None:
    assert {line["drill"] for line in lines()} == set(DRILLS)
    for line in lines():
        assert list(line) == KEYS and list(line["visible"]) == VISIBLE
        assert line["deal"] in records(line["drill"])
        assert 0 <= line["run"] < RUNS and line["mode"] == "replay" and line["family"] in FAMILIES
        assert line["kind"] in ("number", "single", "multi", "yesno", "one_of")
        assert set(line["prompt"]) == {"zh", "en"} and all(line["prompt"].values())
        values = [option["value"] for option in line["options"]]
        assert all(set(option["label"]) == {"zh", "en"} for option in line["options"])
        if line["kind"] == "number":
            assert values == [] and isinstance(line["answer"], int)
        elif line["kind"] in ("multi", "one_of"):
            assert set(line["answer"]) <= set(values)
        elif line["kind"] == "yesno":
            assert sorted(values) == [False, True] and isinstance(line["answer"], bool)
        else:
            assert line["answer"] in values
        assert set(line["subject"]) <= {"suit", "card", "rank", "seat", "cards"}
    by_run = Counter((line["drill"], line["deal"], line["run"]) for line in lines())
    for (drill, deal, run), count in by_run.items():
        checkpoints = [line["checkpoint"] for line in lines() if (line["drill"], line["deal"], line["run"]) ==
                       (drill, deal, run)]
        assert checkpoints == list(range(count))


def test_the_sample_is_deterministic_and_the_seed_matters() -> None:
    drills = [curriculum()["voids"]]
    assert list(sample(drills, 1, 9, 1)) == list(sample(drills, 1, 9, 1))
    assert list(sample(drills, 1, 9, 1)) != list(sample(drills, 1, 10, 1))


def test_visible_is_what_the_seat_sees() -> None:
    checked = 0
    for line in lines():
        if line["drill"].startswith("gouji"):
            continue
        record = records(line["drill"])[line["deal"]]
        position = Position.parse(line["position"], record)
        state, seat, seen = state_at(record, position), line["seat"], line["visible"]
        hand = Counter(str(Card.from_index(face)) for face, copies in state.hands[seat].items() for _ in range(copies))
        assert Counter(seen["hand"]) == hand
        assert seen["hand_sizes"] == [sum(state.hands[q].values()) for q in range(4)]
        tricks = state.tricks
        on_table = tricks[-1] if tricks else None
        assert seen["trick"] == ([[on_table.seat_of(i), [str(c) for c in play]] for i, play in enumerate(on_table.plays)]
                                 if on_table else [])
        if len(tricks) >= 2:
            before = tricks[-2]
            assert seen["last_trick"] == [[before.seat_of(i), [str(c) for c in play]]
                                          for i, play in enumerate(before.plays)]
        else:
            assert seen["last_trick"] is None
        assert seen["kitty"] == ([str(c) for c in record.ctx.sort_hand(list(record.buried))]
                                 if seat == record.banker else None)
        assert (seen["level"], seen["trump"]) == (str(record.data["level"]), record.data["trump"])
        if line["drill"].startswith("signal"):
            assert seen["opening"] is None
        else:
            snap = track(record, seat, Position(1, 0))
            about = line["subject"]
            card = str(about["seat"]) if "seat" in about else ",".join(about["cards"]) if "cards" in about else about.get("card")
            opening = QUESTION_TYPES[line["type"]].build(facts_json(snap, "1.0"), snap, (about.get("suit"), card)).answer
            assert seen["opening"] == (opening == "yes" if line["kind"] == "yesno" else opening)
        checked += 1
    assert checked > 20


def test_gouji_visible_is_what_the_seat_sees() -> None:
    checked = 0
    for line in lines():
        if not line["drill"].startswith("gouji"):
            continue
        record = records(line["drill"])[line["deal"]]
        state = gouji_state_at(record, GoujiPosition.parse(line["position"], record))
        seen = line["visible"]
        assert len(seen["hand"]) == state.sizes[line["seat"]]
        assert all(size is None or size == state.sizes[q] for q, size in enumerate(seen["hand_sizes"] or []))
        assert seen["last_trick"] is None and seen["level"] is None and seen["kitty"] is None
        if line["type"] == "cards_left":  # never a count the table shows
            assert seen["hand_sizes"] is None or seen["hand_sizes"][line["subject"]["seat"]] is None
        if seen["trick"]:
            assert seen["trick"][-1][0] == state.history[-1][1] or state.history[-1][2] in ("pass", "yield")
        checked += 1
    assert checked > 10


def test_the_questions_are_the_web_run_loops() -> None:
    """A 升级 run's lines are the questions `runs.run_questions` (what the web's `DealData.question` asks) gives
    at the checkpoints of `runs.plan_run`, in order."""
    drill = curriculum()["top-cards"]
    found = [line for line in lines() if line["drill"] == "top-cards"]
    assert found
    for number, (deal, record) in enumerate(records("top-cards").items()):
        events = list(public_events(record))
        for run in range(RUNS):
            seed = run_seed(SEED, drill.id, number, run)
            plan = plan_run(drill, record, seed, events)
            asked = run_questions(drill, record, plan.seat, plan.checkpoints, seed, events)
            mine = [line for line in found if (line["deal"], line["run"]) == (deal, run)]
            assert [line["answer"] for line in mine] == [a.question.answer == "yes" if line["kind"] == "yesno"
                                                         else a.question.answer for line, a in zip(mine, asked)]
            assert [line["prompt"] for line in mine] == [a.question.prompt for a in asked]
            assert [line["position"] for line in mine] == [str(a.position) for a in asked]
            assert all(line["seat"] == plan.seat for line in mine)


def test_no_run_repeats_a_question() -> None:
    seen: dict[tuple[str, str, int], set[str]] = {}
    for line in lines():
        if line["drill"] == "signal-legal":
            continue
        asked = seen.setdefault((line["drill"], line["deal"], line["run"]), set())
        same = json.dumps([line["type"], line["subject"], line["answer"]], sort_keys=True)
        assert same not in asked, line
        asked.add(same)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`trainer ARGS` in-process: (exit status, stdout, stderr)."""
    try:
        status = main(list(args))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_prints_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "drill", "sample", "--drill", "voids", "--deals", "1", "--seed", "3")
    assert status == 0 and err == ""
    printed = [json.loads(text) for text in out.splitlines()]
    assert printed and all(line["drill"] == "voids" and line["run"] == 0 for line in printed)
    assert printed == [json.loads(json.dumps(line)) for line in sample([curriculum()["voids"]], 1, 3, 1)]


@pytest.mark.parametrize(("args", "reason"), [
    (["--drill", "nosuch"], "unknown drill 'nosuch'"),
    ([], "--all"),
    (["--all", "--deals", "0"], "--deals"),
    (["--all", "--runs", "x"], "--runs"),
    (["--all", "--seed", "-1"], "--seed"),
])
def test_bad_usage_exits_2_with_the_reason(capsys: pytest.CaptureFixture[str], args: list[str], reason: str) -> None:
    status, out, err = run_cli(capsys, "drill", "sample", *args)
    assert status == 2 and out == "" and reason in err and "Traceback" not in err


def test_help_names_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = run_cli(capsys, "drill", "sample", "--help")
    assert status == 0
    assert all(option in out for option in ("--drill", "--all", "--deals", "--seed", "--runs"))
