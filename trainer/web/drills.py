"""Drills: the curriculum (`/drills`), starting a run, and the run itself (`/runs/<id>`): the table
from the viewer's seat, one play per step, a question at each checkpoint, feedback, the summary.

Everything about a run is in the database (`DrillRun`, `Attempt`): a run resumes after the tab or
the server went away, and any worker can serve any step. An answer is stored before its feedback
is rendered; a checkpoint is answered once (a unique constraint), so a double submit stores one.
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, Flask, abort, current_app, flash, g, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, func, select

from trainer.drills.definitions import DRILLS_DIR, Drill, load_drills
from trainer.drills.questions import Question
from trainer.drills.runs import plan_run, question_at
from trainer.engine.rules import PRESETS
from trainer.web.auth import login_required
from trainer.web.db import get_session
from trainer.web.library import _visible
from trainer.web.models import Attempt, Deal, DrillRun, utcnow
from trainer.web.quiz import AnswerError, answer_text, explanation, question_label, read_answer
from trainer.web.responses import go, render_page
from trainer.web.table import DealCache, DealData, DealKey, deal_cache, table_view

bp = Blueprint("drills", __name__)

DONE = "done"
ACTIVE = "active"


def init_app(app: Flask) -> None:
    """Load the curriculum (`DRILLS_DIR`) and make the app's deal cache."""
    app.extensions["jipai_drills"] = load_drills(Path(app.config.get("DRILLS_DIR") or DRILLS_DIR))
    app.extensions["jipai_deal_cache"] = DealCache(app.config.get("DEAL_CACHE_SIZE", 512))


def drills() -> dict[str, Drill]:
    """The app's curriculum by id, in order."""
    return current_app.extensions["jipai_drills"]


def lang() -> str:
    """The UI language's code for question texts: zh or en."""
    return "en" if str(get_locale() or "zh").startswith("en") else "zh"


# -- the curriculum ----------------------------------------------------------------------------------

@bp.route("/drills")
@login_required
def index() -> Any:
    """The drills, each with a form that starts a run; the user's runs in progress and the last finished."""
    db = get_session()
    runs = db.exec(select(DrillRun).where(DrillRun.user_id == g.user.id)
                   .order_by(col(DrillRun.started).desc(), col(DrillRun.id).desc()).limit(20)).all()
    active = [run for run in runs if run.status == ACTIVE]
    finished = [run for run in runs if run.status == DONE][:10]
    return render_page("drills/index.html", drills=list(drills().values()), drills_by_id=drills(), active=active,
                       finished=finished, lang=lang(), viewer_label=viewer_label)


def viewer_label(viewer: str) -> str:
    """A drill's viewer setting in words."""
    labels = {"any": _("from any seat"), "banker": _("as the banker (庄家)"), "attacker": _("as an attacker (闲家)")}
    return labels.get(viewer, viewer)


@bp.app_template_filter("question_label")
def question_label_filter(kind: str) -> str:
    """A question type's name (a template filter)."""
    return question_label(kind)


@bp.app_template_filter("pretty")
def pretty_card(code: str) -> str:
    """A card code (`10S`, `BJ`) as players write it: 10♠, 大王."""
    from trainer.engine.cards import Card

    return Card.parse(code).pretty


def _candidates(db: Session, drill: Drill) -> list[tuple[int, int]]:
    """(deal pk, runs this user already made on it) for the complete deals visible to the user
    under the drill's rules."""
    custom = drill.rules != PRESETS.get(drill.rules.preset)
    query = select(Deal.pk).where(_visible(g.user.id), col(Deal.complete).is_(True), Deal.rules == drill.rules.preset,
                                  col(Deal.custom_rules).is_(custom)).order_by(col(Deal.pk))
    pks = list(db.exec(query).all())
    used = dict(db.exec(select(DrillRun.deal_pk, func.count()).where(DrillRun.user_id == g.user.id)
                        .group_by(col(DrillRun.deal_pk))).all())
    return [(pk, used.get(pk, 0)) for pk in pks if pk is not None]


@bp.route("/drills/<drill_id>/start", methods=("POST",))
@login_required
def start(drill_id: str) -> Any:
    """Start a run: a deal the user has drilled least (ties broken by the run's seed), the viewer
    seat and the checkpoints from the same seed."""
    drill = drills().get(drill_id)
    if drill is None:
        abort(404)
    db = get_session()
    seed = secrets.randbelow(2**31)
    rng = random.Random(seed)
    candidates = _candidates(db, drill)
    rng.shuffle(candidates)
    candidates.sort(key=lambda item: item[1])
    for pk, _used in candidates[:8]:
        deal = db.get(Deal, pk)
        assert deal is not None
        data = deal_cache().get(db, (pk, deal.id, deal.created))
        if drill.rules != data.record.rules:
            continue
        plan = plan_run(drill, data.record, seed)
        if not plan.checkpoints:
            continue
        run = DrillRun(user_id=g.user.id, drill_id=drill.id, deal_pk=pk, seat=plan.seat, seed=seed,
                       checkpoints=plan.checkpoints)
        db.add(run)
        db.commit()
        return go(url_for("drills.run_page", run_id=run.id))
    flash(_("No complete deal under the %(rules)s rules in your library to drill on. Generate some in the deal "
            "library first.", rules=drill.rules.preset))
    return go(url_for("drills.index"))


# -- a run -------------------------------------------------------------------------------------------

@dataclass
class Stage:
    """Where a run stands: the checkpoint at the cursor (if any) and its attempt (if answered)."""

    run: DrillRun
    drill: Drill
    data: DealData
    index: int | None
    attempt: Attempt | None

    @property
    def phase(self) -> str:
        """`play` (cards coming), `question` (a checkpoint to answer) or `feedback` (answered)."""
        if self.index is None:
            return "play"
        return "question" if self.attempt is None else "feedback"

    @property
    def last(self) -> bool:
        """The cursor is at the run's last checkpoint."""
        return self.index is not None and self.index == len(self.run.checkpoints) - 1


def _load(run_id: int) -> tuple[DrillRun, DealKey]:
    """The user's run and its deal's cache key; another user's run is a 404."""
    row = get_session().exec(
        select(DrillRun, Deal.id, Deal.created).join(Deal, col(Deal.pk) == DrillRun.deal_pk)
        .where(DrillRun.id == run_id, DrillRun.user_id == g.user.id)).first()
    if row is None:
        abort(404)
    run, deal_id, created = row
    return run, (run.deal_pk, deal_id, created)


def _stage(run: DrillRun, key: DealKey) -> Stage:
    drill = drills().get(run.drill_id)
    if drill is None:
        abort(404)
    data = deal_cache().get(get_session(), key)
    index = run.checkpoints.index(run.cursor) if run.cursor in run.checkpoints else None
    attempt = None
    if index is not None:
        attempt = get_session().exec(select(Attempt).where(Attempt.run_id == run.id,
                                                           Attempt.checkpoint == index)).first()
    return Stage(run, drill, data, index, attempt)


def _asked(stage: Stage) -> Any:
    run = stage.run
    assert stage.index is not None
    return question_at(stage.drill, stage.data.record, run.seat, run.cursor, run.seed, stage.index, stage.data.events)


RUNS = DrillRun.__table__  # type: ignore[attr-defined]
"""The runs table: the hot paths update it with Core statements (no ORM bookkeeping)."""


def _mark_shown(run: DrillRun) -> None:
    """The question at the cursor is being shown now: its answer time counts from here."""
    now = utcnow()
    db = get_session()
    db.connection().execute(sa.update(RUNS).where(RUNS.c.id == run.id).values(shown_at=now))
    db.commit()
    set_committed_value(run, "shown_at", now)


def _render(stage: Stage, status: int = 200, error: str | None = None, given: Sequence[str] = ()) -> Any:
    """The run page, or for htmx the `#run` fragment, in the stage's phase."""
    run, drill = stage.run, stage.drill
    language = lang()
    context: dict[str, Any] = {
        "run": run, "drill": drill, "lang": language, "phase": stage.phase, "last": stage.last,
        "table": table_view(stage.data, run.seat, run.cursor), "error": error,
        "delay": max(50, round(1000 / drill.cards_per_second)),
    }
    if stage.phase == "question":
        if error is None:
            _mark_shown(run)
        context.update(question=_asked(stage).question, given=set(given), number=len(run.checkpoints))
    elif stage.phase == "feedback":
        assert stage.attempt is not None
        context.update(feedback(stage.attempt, stage.data, language), number=len(run.checkpoints))
    return render_page("runs/show.html", "runs/_run.html", status, **context)


def feedback(attempt: Attempt, data: DealData, language: str) -> dict[str, Any]:
    """What the feedback (and the review) shows about an attempt: the question, both answers in
    words, the explanation from the tracker, the time."""
    question = Question.from_json(attempt.question)
    plays = _plays_at(data, attempt.position)
    snap = data.snapshot(attempt.seat, plays)
    return {"attempt": attempt, "question": question,
            "expected_text": answer_text(question, attempt.expected, language),
            "given_text": answer_text(question, attempt.given, language),
            "explanation": explanation(question, snap, data.events[:plays]),
            "seconds": attempt.ms / 1000}


def _plays_at(data: DealData, position: str) -> int:
    """The play count of a stored position `T.K`."""
    trick, _dot, plays = position.partition(".")
    return data.trick_starts[int(trick) - 1] + int(plays)


@bp.route("/runs/<int:run_id>")
@login_required
def run_page(run_id: int) -> Any:
    """A run where it stands (resumes an interrupted run); a finished run shows its summary."""
    run, key = _load(run_id)
    if run.status == DONE:
        return go(url_for("drills.summary", run_id=run.id))
    return _render(_stage(run, key))


@bp.route("/runs/<int:run_id>/step", methods=("POST",))
@login_required
def step(run_id: int) -> Any:
    """One more play (the Next button, or htmx after 1/cards_per_second seconds), or past an
    answered checkpoint (Continue). `at` is the cursor the page showed: a repeated or stale step
    changes nothing and shows where the run stands."""
    run, key = _load(run_id)
    if run.status == DONE:
        return go(url_for("drills.summary", run_id=run.id))
    at = request.form.get("at", type=int)
    stage = _stage(run, key)
    if at == run.cursor and stage.phase != "question":
        if stage.last:
            _finish(run)
            return go(url_for("drills.summary", run_id=run.id))
        _advance(run)
        stage = _stage(run, key)
    if not htmx_request():
        return go(url_for("drills.run_page", run_id=run.id))
    return _render(stage)


def htmx_request() -> bool:
    """True when htmx sent the request (it gets a fragment, not a redirect)."""
    from trainer.web.responses import wants_fragment

    return wants_fragment()


def _advance(run: DrillRun) -> None:
    """Move the cursor one play on, unless another request moved it first."""
    db = get_session()
    values: dict[str, Any] = {"cursor": run.cursor + 1}
    if run.cursor + 1 in run.checkpoints:
        values["shown_at"] = utcnow()
    moved = db.connection().execute(sa.update(RUNS).where(RUNS.c.id == run.id, RUNS.c.cursor == run.cursor)
                                    .values(**values)).rowcount
    db.commit()
    if moved:
        for name, value in values.items():
            set_committed_value(run, name, value)
    else:
        db.refresh(run)


def _finish(run: DrillRun) -> None:
    db = get_session()
    db.connection().execute(sa.update(RUNS).where(RUNS.c.id == run.id, RUNS.c.status == ACTIVE)
                            .values(status=DONE, finished=utcnow()))
    db.commit()


@bp.route("/runs/<int:run_id>/answer", methods=("POST",))
@login_required
def answer(run_id: int) -> Any:
    """Grade the answer to the current checkpoint against the tracker, store it, then show the
    feedback. A second submit of the same checkpoint stores nothing and shows the same feedback."""
    run, key = _load(run_id)
    if run.status == DONE:
        return go(url_for("drills.summary", run_id=run.id))
    stage = _stage(run, key)
    checkpoint = request.form.get("checkpoint", type=int)
    if stage.phase != "question" or checkpoint != stage.index:
        return _current(stage)
    asked = _asked(stage)
    values = request.form.getlist("answer")
    try:
        given = read_answer(asked.question, values)
    except AnswerError as error:
        return _render(stage, 422, str(error), values)
    now = datetime.now(UTC)
    shown = run.shown_at or now
    attempt = Attempt(run_id=run.id, user_id=g.user.id, checkpoint=checkpoint, question=asked.question.to_json(),
                      question_type=asked.question.type, suit=asked.question.suit, expected=asked.question.answer,
                      given=given, correct=asked.question.grade(given),
                      ms=max(0, round((now - shown).total_seconds() * 1000)), position=str(asked.position),
                      seat=run.seat, deal_pk=run.deal_pk, created=now)
    db = get_session()
    db.add(attempt)
    try:
        db.commit()
    except sa.exc.IntegrityError:
        db.rollback()
    stage = _stage(run, key)
    return _current(stage)


def _current(stage: Stage) -> Any:
    """After a POST that may have changed nothing: htmx gets the run where it stands, a form post
    is sent to the run page."""
    if not htmx_request():
        return go(url_for("drills.run_page", run_id=stage.run.id))
    return _render(stage)


@bp.route("/runs/<int:run_id>/finish", methods=("POST",))
@login_required
def finish(run_id: int) -> Any:
    """End a run early; the summary counts the checkpoints answered."""
    run, _key = _load(run_id)
    _finish(run)
    return go(url_for("drills.summary", run_id=run.id))


@dataclass(frozen=True, slots=True)
class TypeResult:
    """One question type's line in a run summary."""

    kind: str
    label: str
    asked: int
    right: int
    ms: int

    @property
    def accuracy(self) -> float:
        """Right answers as a share of those asked."""
        return self.right / self.asked if self.asked else 0.0

    @property
    def mean_seconds(self) -> float:
        """Mean answer time."""
        return self.ms / self.asked / 1000 if self.asked else 0.0


def summarise(attempts: Sequence[Attempt]) -> tuple[list[TypeResult], TypeResult]:
    """Per question type (in the order first asked) and in all: asked, right, time."""
    kinds: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        kinds.setdefault(attempt.question_type, []).append(attempt)

    def result(kind: str, label: str, items: Sequence[Attempt]) -> TypeResult:
        return TypeResult(kind, label, len(items), sum(a.correct for a in items), sum(a.ms for a in items))

    return ([result(kind, question_label(kind), items) for kind, items in kinds.items()],
            result("all", _("All questions"), attempts))


@bp.route("/runs/<int:run_id>/summary")
@login_required
def summary(run_id: int) -> Any:
    """A run's result: accuracy per question type, total and mean time, each answer."""
    run, _key = _load(run_id)
    if run.status != DONE:
        return go(url_for("drills.run_page", run_id=run.id))
    attempts = get_session().exec(select(Attempt).where(Attempt.run_id == run.id)
                                  .order_by(col(Attempt.checkpoint))).all()
    per_type, total = summarise(attempts)
    drill = drills().get(run.drill_id)
    language = lang()
    answers = [(a, Question.from_json(a.question)) for a in attempts]
    return render_page("runs/summary.html", run=run, drill=drill, per_type=per_type, total=total, answers=answers,
                       lang=language, answer_text=answer_text, question_label=question_label,
                       unanswered=len(run.checkpoints) - len(attempts))
