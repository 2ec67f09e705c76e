"""Signal quiz kinds as daily skills: a due `signal:<kind>` skill is asked on a fresh position the signal
quizzes plan (under the player's convention set), graded and reviewed like any skill; a wrong signal
answer becomes a mistake card whose retry asks the same question again."""
from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Rating
from sqlmodel import select

from trainer.drills.daily import all_skills
from trainer.drills.questions import Question
from trainer.records import parse_record
from trainer.signals.conventions import load_conventions
from trainer.signals.quiz import QUESTION_TYPES as SIGNAL_TYPES
from trainer.signals.quiz import spots
from trainer.web.daily import review
from trainer.web.models import Attempt, Deal, UserSkill

from .daily_helpers import answer_item, install_clock, run_id_of
from .drilling import run_row, session

SIGNAL_DEALS = Path(__file__).resolve().parents[2] / "drills" / "deals" / "signals"


@pytest.fixture
def app(make_app, tmp_path: Path):
    """The app on the shipped signal deals only (every one a complete standard deal)."""
    folder = tmp_path / "starter"
    folder.mkdir()
    for path in SIGNAL_DEALS.glob("*.json"):
        shutil.copy(path, folder / path.name)
    return make_app(STARTER_DEALS_DIR=str(folder))


def _only_due(app, due_skill: str, now: datetime) -> None:
    """Alice has met every skill: `due_skill` is due now, every other one a week later."""
    with session(app) as db:
        for skill in all_skills():
            card, _due = review(None, Rating.Good, now - timedelta(days=60))
            db.add(UserSkill(user_id=1, skill=skill, card=card,
                             due=now - timedelta(days=1) if skill == due_skill else now + timedelta(days=7)))
        db.commit()


def test_every_signal_kind_is_a_skill() -> None:
    assert set(SIGNAL_TYPES) <= set(all_skills())


@pytest.mark.parametrize("skill", ["signal:respond", "signal:interpret", "signal:legal"])
def test_a_due_signal_skill_is_asked_and_a_miss_becomes_a_mistake_card(app, alice, monkeypatch, skill) -> None:
    clock = install_clock(monkeypatch, datetime(2027, 3, 1, 8, tzinfo=UTC))
    _only_due(app, skill, clock.now)
    run_id = run_id_of(alice.post("/today/start", data={"tz": "UTC"}))
    assert run_id is not None
    run = run_row(app, run_id)
    place = next(i for i, ask in enumerate(run.asks) if ask["kind"] == "skill")
    question, plays = Question.from_json(run.asks[place]["question"]), run.checkpoints[place]
    assert question.type == skill and run.signals == "basic_89JQ" and run.cursor == 0
    if skill != "signal:legal":  # a moment of the deal, seen from the seat the quiz asks
        with session(app) as db:
            record = parse_record(db.get(Deal, run.deal_pk).record)
        here = [s for s in spots(record, load_conventions()[run.signals]) if s.seat == run.seat and s.plays == plays]
        assert here and question.type.removeprefix("signal:") in {s.kind for s in here}
    answer_item(alice, app, run_id, False, clock)
    with session(app) as db:
        attempt = db.exec(select(Attempt).where(Attempt.run_id == run_id, Attempt.checkpoint == place)).one()
        assert not attempt.correct and attempt.skill == skill and attempt.question_type == skill
        assert attempt.due is not None and attempt.card is not None  # a mistake card, due tomorrow
        row = db.get(UserSkill, (1, skill))
        assert row.due.replace(tzinfo=UTC) > clock.now and row.answers == 1 and row.right == 0
    # tomorrow the mistakes come first: the deal replayed from the same seat, the same question at its moment
    clock.advance(days=1)
    retry_id = run_id_of(alice.post("/today/start", data={"tz": "UTC"}))
    retry = run_row(app, retry_id)
    assert retry.daily_kind == "mistake" and retry.seat == run.seat and retry.deal_pk == run.deal_pk
    again = {plays: ask for plays, ask in zip(retry.checkpoints, retry.asks, strict=True)}
    assert again[plays]["retry_of"] == attempt.id and again[plays]["question"] == run.asks[place]["question"]
    assert retry.cursor == 0  # replayed from the first lead: the moment comes as it came
