"""Helpers for the daily training tests: a clock the app reads, and driving one daily item (or a
retry) through the run loop's views, answering right or wrong from the questions stored on the run."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from trainer.drills.daily import BASE_PACE
from trainer.drills.questions import Question

from .drilling import HX, form_values, right_answer, run_row, wrong_answer


class Clock:
    """The app's now (`trainer.web.models.utcnow` as the run loop and the daily training read it)."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        """Move the clock on."""
        self.now += timedelta(**delta)


def install_clock(monkeypatch: Any, start: datetime | None = None) -> Clock:
    """Freeze the app's clock at `start` (noon UTC on 2027-03-01 by default)."""
    clock = Clock(start or datetime(2027, 3, 1, 12, tzinfo=UTC))
    monkeypatch.setattr("trainer.web.models.utcnow", clock)
    monkeypatch.setattr("trainer.web.drills.utcnow", clock)
    return clock


def run_id_of(response: Any) -> int | None:
    """The run a redirect (303 or HX-Redirect) goes to, or None."""
    location = response.headers.get("HX-Redirect") or response.headers.get("Location") or ""
    found = re.fullmatch(r"/runs/(\d+)", location)
    return int(found.group(1)) if found else None


def item_questions(run: Any) -> list[Question]:
    """A daily item's questions, one per checkpoint (`DrillRun.asks`; a retry's one question)."""
    if run.asks:
        return [Question.from_json(ask["question"]) for ask in run.asks]
    assert run.question is not None and len(run.checkpoints) == 1
    return [Question.from_json(run.question)]


def answer_item(client: FlaskClient, app: Flask, run_id: int, right: bool | Callable[[int], bool],
                clock: Clock | None = None, seconds: float = 8, headers: dict[str, str] | None = None) -> Any:
    """Reveal a daily item (or a retry) to each checkpoint in turn (the clock moved on as the reveal takes)
    and answer there (right or wrong, `right`
    itself or `right(index)`, `seconds` after the question shows), then continue; the response of the last
    step (the redirect to what comes next)."""
    headers = HX if headers is None else headers
    at = answer_only(client, app, run_id, right, clock, seconds, headers)
    return client.post(f"/runs/{run_id}/step?at={at}", headers=headers)


def answer_only(client: FlaskClient, app: Flask, run_id: int, right: bool | Callable[[int], bool],
                clock: Clock | None = None, seconds: float = 8, headers: dict[str, str] | None = None) -> int:
    """`answer_item` without the last continue: the last checkpoint (plays), answered."""
    headers = HX if headers is None else headers
    run = run_row(app, run_id)
    cursor = run.cursor
    for index, (plays, question) in enumerate(zip(run.checkpoints, item_questions(run), strict=True)):
        if clock is not None:  # the reveal, at the item's pace
            clock.advance(seconds=(plays - cursor) / (run.pace or BASE_PACE))
        response = client.post(f"/runs/{run_id}/step?at={cursor}&to={plays}", headers=headers)
        assert response.status_code in (200, 303)
        if clock is not None:
            clock.advance(seconds=seconds)
        good = right(index) if callable(right) else right
        given = right_answer(question) if good else wrong_answer(question)
        response = client.post(f"/runs/{run_id}/answer", data={"checkpoint": index, "answer": form_values(given)},
                               headers=headers)
        assert response.status_code in (200, 303), (response.status_code, response.text[:3000])
        cursor = plays
    return cursor
