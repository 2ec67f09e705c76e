"""`trainer daily simulate` (training.md §6): the web app's own daily session, played day after day by a simulated
player against a temporary database, with a frozen clock that starts on 2027-01-04 09:00 UTC and moves one day
per session.

The player goes through the app's views as a browser does (start the day, reveal each stretch, answer, go on), so
the scheduler, the grading and the budget are the app's; it watches every reveal at the item's pace and answers
each question after S seconds, right with the probability of the question's family. One JSON object per day
and a summary (docs/daily.md).
"""
from __future__ import annotations

import random
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, col, select

from trainer.drills.daily import BASE_PACE
from trainer.drills.families import family_of
from trainer.drills.questions import Question

START = datetime(2027, 1, 4, 9, tzinfo=UTC)
"""The simulated clock's first morning."""
HX = {"HX-Request": "true"}
"""The header htmx sends: the player's requests are the browser's."""


@dataclass(frozen=True, slots=True)
class Player:
    """The simulated player: minutes a day, seconds per answer, the chance to be right (per family where given)."""

    minutes: int = 10
    answer_seconds: float = 5.0
    accuracy: float = 0.8
    family_accuracy: Mapping[str, float] = field(default_factory=dict)

    def right(self, family: str, rng: random.Random) -> bool:
        """Whether the next answer, of a question of `family`, is right (one draw of `rng`)."""
        return rng.random() < self.family_accuracy.get(family, self.accuracy)


class Clock:
    """The app's frozen now (`trainer.web.models.utcnow`, as the run loop and the daily training read it)."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on."""
        self.now += timedelta(seconds=seconds)


@contextmanager
def frozen(clock: Clock) -> Iterator[Clock]:
    """The app reads `clock` for now while inside (the modules that keep their own name for it too)."""
    from trainer.web import drills, models

    saved = models.utcnow, drills.utcnow
    models.utcnow = drills.utcnow = clock  # type: ignore[assignment]
    try:
        yield clock
    finally:
        models.utcnow, drills.utcnow = saved  # type: ignore[assignment]


def wrong_answer(question: Question) -> Any:
    """An answer to `question` that is surely wrong (one more for a number; for a choice, another option; for a
    multi-select, the first option toggled)."""
    if question.kind == "number":
        return int(question.answer) + 1
    values = [option["value"] for option in question.options]
    if question.kind == "multi":
        first = values[0]
        return [v for v in question.answer if v != first] + ([] if first in question.answer else [first])
    if question.kind == "one_of":
        return next(v for v in values if v not in question.answer)
    return next(v for v in values if v != question.answer)


def form_values(answer: Any) -> list[str]:
    """An answer as the run form's `answer` values."""
    return [str(v) for v in answer] if isinstance(answer, list) else [str(answer)]


def simulation_app(folder: Path, seed: int, deals_dir: Path | None = None) -> Flask:
    """The app on a new SQLite database in `folder`, the starter library loaded now (`deals_dir` instead of
    the shipped one, when given), the daily items drawn from `seed` (`DAILY_SEED`)."""
    from trainer.web import create_app

    config: dict[str, Any] = {
        "TESTING": True, "SECRET_KEY": "simulation", "INSTANCE_PATH": str(folder / "instance"),
        "DATABASE_URL": f"sqlite:///{folder / 'simulation.sqlite'}", "LIBRARY_LOAD": "sync",
        "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False, "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        "DAILY_SEED": seed}
    if deals_dir is not None:
        config["STARTER_DEALS_DIR"] = str(deals_dir)
    return create_app(config)


def simulate(days: int, player: Player, seed: int, deals_dir: Path | None = None) -> Iterator[dict[str, Any]]:
    """Play `days` daily sessions as `player` (answers drawn from `seed`, the app's items too): one dict per day
    (training.md §6), then `{"summary": ...}`."""
    with tempfile.TemporaryDirectory(prefix="jipai-simulate-") as folder, frozen(Clock(START)) as clock:
        app = simulation_app(Path(folder), seed, deals_dir)
        try:
            client = app.test_client()
            response = client.post("/auth/register", data={"username": "simulated", "password": "simulated player",
                                                           "confirm": "simulated player"})
            if response.status_code not in (302, 303):
                raise RuntimeError(f"the simulated player could not register ({response.status_code})")
            _set_minutes(app, player.minutes)
            rng = random.Random(f"player:{seed}")
            total: Counter[str] = Counter()
            families: Counter[str] = Counter()
            for day in range(1, days + 1):
                clock.now = START + timedelta(days=day - 1)
                line = play_day(app, client, clock, player, rng, day)
                total.update({key: line[key] for key in ("questions", "mistakes_made", "mistakes_reviewed",
                                                         "mistakes_overdue")})
                families.update(line["by_family"])
                yield line
            yield {"summary": {"days": days, "questions": total["questions"], "by_family": dict(families.most_common()),
                               "mistakes_made": total["mistakes_made"], "mistakes_reviewed": total["mistakes_reviewed"],
                               "mistakes_overdue": total["mistakes_overdue"]}}
        finally:
            app.extensions["jipai_engine"].dispose()


def _db(app: Flask) -> Session:
    return Session(app.extensions["jipai_engine"])


def _set_minutes(app: Flask, minutes: int) -> None:
    """The player's daily session length (any number of minutes, as the settings row keeps it)."""
    from trainer.web.models import DailySettings, User

    with _db(app) as db:
        user = db.exec(select(User)).one()
        db.add(DailySettings(user_id=user.id, minutes=minutes, timezone="UTC"))
        db.commit()


def _run_id(response: Any) -> int | None:
    location = response.headers.get("HX-Redirect") or response.headers.get("Location") or ""
    head, _slash, tail = location.rpartition("/")
    return int(tail) if head == "/runs" and tail.isdigit() else None


def play_day(app: Flask, client: FlaskClient, clock: Clock, player: Player, rng: random.Random,
             day: int) -> dict[str, Any]:
    """One day's session through the views: start it, then each item's stretches watched at its pace and its
    questions answered after `player.answer_seconds`, until the day's result; what the day did."""
    from trainer.web.daily import day_end, due_now
    from trainer.web.models import DrillRun, User

    with _db(app) as db:
        user_id = db.exec(select(User.id)).one()
        due = due_now(db, user_id, clock.now, day_end(clock.now.date(), "UTC")).mistake_count
    watched = 0.0
    response = client.post("/today/start", headers=HX)
    while (run_id := _run_id(response)) is not None:
        with _db(app) as db:
            run = db.get(DrillRun, run_id)
            assert run is not None
        cursor = run.cursor
        for index, plays in enumerate(run.checkpoints):
            if plays <= cursor:
                continue
            seconds = (plays - cursor) / (run.pace or BASE_PACE)
            clock.advance(seconds)
            watched += seconds
            client.post(f"/runs/{run_id}/step?at={cursor}&to={plays}", headers=HX)
            clock.advance(player.answer_seconds)
            question = Question.from_json(run.asks[index]["question"] if run.asks else run.question or {})
            right = player.right(family_of(question.type), rng)
            given = question.answer if right else wrong_answer(question)
            if question.kind == "one_of" and right:
                given = question.answer[0]
            answered = client.post(f"/runs/{run_id}/answer", data={"checkpoint": index, "answer": form_values(given)},
                                   headers=HX)
            if answered.status_code != 200:
                raise RuntimeError(f"run {run_id}: the answer at checkpoint {index} was refused ({answered.status_code})")
            cursor = plays
        response = client.post(f"/runs/{run_id}/step?at={cursor}", headers=HX)
    return day_line(app, user_id, day, due)


def day_line(app: Flask, user_id: int, day: int, due: int) -> dict[str, Any]:
    """What day `day`'s session did, as `trainer daily simulate` prints it (training.md §6); `due` the mistakes
    due when it started."""
    from trainer.web.daily import day_result, runs_of, session_runs
    from trainer.web.models import Attempt, DailySession

    with _db(app) as db, app.test_request_context():
        daily = db.exec(select(DailySession).where(DailySession.user_id == user_id)
                        .order_by(col(DailySession.day).desc())).first()
        assert daily is not None
        items = session_runs(db, daily)
        result = day_result(db, daily, items)
        answers = [(run, attempt) for run, attempt in items if attempt is not None]
        kinds = Counter((run.asks[a.checkpoint]["kind"] if run.asks else run.daily_kind) for run, a in answers)
        start_of_day = datetime.combine(daily.day, datetime.min.time(), UTC)
        overdue = db.exec(select(Attempt.id).where(Attempt.user_id == user_id, col(Attempt.due).is_not(None),
                                                   col(Attempt.due) < start_of_day)).all()
        runs = runs_of(items)
        paces = [run.pace or BASE_PACE for run in runs]
        return {"day": day, "questions": result.asked, "watch_seconds": round(result.watched, 1),
                "answer_seconds": round(result.seconds, 1), "deals": result.replays,
                "by_family": dict(Counter(family_of(a.question_type) for _r, a in answers).most_common()),
                "by_skill": dict(Counter(a.skill for _r, a in answers).most_common()),
                "new_skills": kinds["new"],
                "mistakes_made": sum(1 for _r, a in answers if a.card is not None),
                "mistakes_due": due, "mistakes_reviewed": kinds["mistake"],
                "mistakes_overdue": len(overdue), "streak": daily.streak,
                "pace": round(sum(paces) / len(paces), 2) if paces else BASE_PACE}
