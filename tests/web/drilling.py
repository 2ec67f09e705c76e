"""Helpers for the drill and review tests: start a run, read its rows, recompute its questions from
the tracker (`track`, `facts_json`, `make_question`) independently of the app, and drive it."""
from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, col, select

from trainer.drills.definitions import load_drills
from trainer.drills.questions import Question, make_question, question_key
from trainer.drills.runs import FALLBACK_TYPES, position_after, table_at
from trainer.records import Position, parse_record
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import track
from trainer.web.models import Attempt, Deal, DrillRun
from trainer.web.simulate import form_values, wrong_answer  # noqa: F401  (the drill tests' answers)

from .pages import visible_text

HX = {"HX-Request": "true"}
DRILLS = load_drills(game="shengji")


def start(client: FlaskClient, drill_id: str) -> int:
    """Start a run of `drill_id` through the form; its id."""
    response = client.post(f"/drills/{drill_id}/start")
    assert response.status_code == 303, response.text
    found = re.fullmatch(r"/runs/(\d+)", response.headers["Location"])
    assert found, response.headers["Location"]
    return int(found.group(1))


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements the app's engine runs inside the block (SQLite's `OFFSET 0`, which its
    dialect adds to every LIMIT, left out)."""
    seen: list[str] = []

    def record(_connection: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        if statement.endswith(" OFFSET ?") and parameters[-1] == 0:
            statement = statement.removesuffix(" OFFSET ?")
        seen.append(statement)

    engine = app.extensions["jipai_engine"]
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def session(app: Flask) -> Session:
    """A session on the app's database (close it after use)."""
    return Session(app.extensions["jipai_engine"], expire_on_commit=False)


def run_row(app: Flask, run_id: int) -> DrillRun:
    """The run's row as stored."""
    with session(app) as db:
        run = db.get(DrillRun, run_id)
        assert run is not None
        return run


def attempts(app: Flask, run_id: int | None = None, user_id: int | None = None) -> list[Attempt]:
    """Stored attempts of a run (or a user), by checkpoint."""
    with session(app) as db:
        query = select(Attempt).order_by(col(Attempt.run_id), col(Attempt.checkpoint))
        if run_id is not None:
            query = query.where(Attempt.run_id == run_id)
        if user_id is not None:
            query = query.where(Attempt.user_id == user_id)
        return list(db.exec(query).all())


def expected_question(app: Flask, run: DrillRun, index: int) -> tuple[Question, str]:
    """The question at checkpoint `index` recomputed from the tracker (a from-scratch `track`, not the
    app's cached events), and its position: never one the run asked at an earlier checkpoint (type,
    subject and answer) nor a void the table shows; when none of the drill's types has one, the first of the
    fallback counts that has (`runs.FALLBACK_TYPES`)."""
    with session(app) as db:
        deal = db.get(Deal, run.deal_pk)
        assert deal is not None
        record = parse_record(deal.record)
    drill = DRILLS[run.drill_id]
    asked = {question_key(expected_question(app, run, earlier)[0]) for earlier in range(index)}
    position = position_after(record, run.checkpoints[index])
    snap = track(record, run.seat, position)
    facts = facts_json(snap, str(position))
    opening = facts_json(track(record, run.seat, Position(1, 0)), "1.0")
    rng = random.Random(f"{run.seed}:{index}")
    picked = drill.pick_type(rng)
    others = sorted((k for k in drill.questions if k != picked), key=lambda k: (-drill.questions[k], k))
    table = table_at(record, run.checkpoints[index])
    for kind in [picked, *others, *FALLBACK_TYPES]:  # the drill's types, then the counts every deal can ask
        question = make_question(kind, facts, snap, rng, opening, table, asked)
        if question is not None:
            return question, str(position)
    question = make_question("trumps_unseen", facts, snap, rng)
    assert question is not None
    return question, str(position)


def give_first_question(app: Flask, run_id: int, kind: str) -> DrillRun:
    """Give a run a seed whose first question is of `kind` (number, multi or single), dropping its
    first checkpoints when the deal has no such question there (early in a deal the biggest card
    left is usually still the ace: no single choice is informative); the run."""
    run = run_row(app, run_id)
    planned = list(run.checkpoints)
    for start in range(len(planned)):
        run.checkpoints = planned[start:]
        for seed in range(50):
            run.seed = seed
            if expected_question(app, run, 0)[0].kind == kind:
                with session(app) as db:
                    db.execute(sa.update(DrillRun).where(col(DrillRun.id) == run_id)
                               .values(seed=seed, checkpoints=run.checkpoints))
                    db.commit()
                return run
    raise AssertionError(f"no {kind} question")


def at_value(text: str) -> int:
    """The cursor a step form in this HTML carries."""
    found = re.search(r'/step\?at=(\d+)"', text)
    assert found, text[:500]
    return int(found.group(1))


def right_answer(question: Question) -> Any:
    """The answer that is right (for a question any of whose answers is right, the first)."""
    return question.answer[0] if question.kind == "one_of" else question.answer


def drive(client: FlaskClient, app: Flask, run_id: int, right: Callable[[int], bool],
          headers: dict[str, str] | None = None, stop_after: int | None = None,
          question_of: Callable[[Flask, DrillRun, int], Question] | None = None,
          check: Callable[[str, str, int, Any, Question], None] | None = None) -> list[tuple[int, Any, Question]]:
    """Play a run through the views to its end (or until `stop_after` answers): step until a
    question, answer it right when `right(index)` else wrong, continue. `question_of(app, run, index)`
    recomputes a checkpoint's question (the curriculum's, by default); `check(question page, page after
    the answer, index, given, question)` asserts more after each answer. Returns (index, given,
    recomputed question) for each answer."""
    headers = HX if headers is None else headers
    answered = []
    for _ in range(2000):
        run = run_row(app, run_id)
        if run.status == "done":
            return answered
        page = client.get(f"/runs/{run_id}", headers=headers)
        assert page.status_code == 200, page.text[:300]
        if 'id="answer-form"' in page.text:
            index = int(re.search(r'name="checkpoint" value="(\d+)"', page.text).group(1))
            assert run.checkpoints[index] == run.cursor
            question = question_of(app, run, index) if question_of else expected_question(app, run, index)[0]
            assert question.prompt["zh"] in visible_text(page.text)
            given = right_answer(question) if right(index) else wrong_answer(question)
            response = client.post(f"/runs/{run_id}/answer", data={"checkpoint": index, "answer": form_values(given)},
                                   headers=headers)
            answered.append((index, given, question))
            if headers:
                assert response.status_code == 200 and 'class="verdict"' in response.text, response.text[:300]
            else:
                assert response.status_code == 303
            if stop_after is not None and len(answered) >= stop_after:
                return answered
            question_page, page = page, client.get(f"/runs/{run_id}", headers=headers)
            if check is not None:
                check(question_page.text, page.text, index, given, question)
        response = client.post(f"/runs/{run_id}/step", data={"at": at_value(page.text)}, headers=headers)
        assert response.status_code in (200, 303), response.text[:300]
    raise AssertionError("the run did not end")


class _Frame(HTMLParser):
    """Keeps what a page shows at one step of its reveal (see `frame`)."""

    def __init__(self, step: int) -> None:
        super().__init__(convert_charrefs=False)
        self.step, self.out, self.skipping = step, [], 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if self.skipping:
            self.skipping += tag not in VOID
            return
        start, end = int(values.get("data-from") or 0), values.get("data-to")
        if not (start <= self.step and (end is None or self.step < int(end))):
            self.skipping = tag not in VOID
            return
        text = self.get_starttag_text() or ""
        self.out.append(re.sub(r' (data-from|data-to)="\d+"| hidden(?=[ >])', "", text))

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            self.skipping -= 1
            return
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")


VOID = {"br", "input", "img", "meta", "link", "hr"}


def frame(html: str, step: int) -> str:
    """The markup drill.js shows at `step` of a stretch (0: what shows without JavaScript): every
    element with data-from / data-to outside its steps left out, those attributes dropped."""
    parser = _Frame(step)
    parser.feed(html)
    parser.close()
    return "".join(parser.out)
