"""Drills: the curriculum (`/drills`), starting a run, and the run itself (`/runs/<id>`): the table
from the viewer's seat, one play per step, a question at each checkpoint, feedback, the summary.

Everything about a run is in the database (`DrillRun`, `Attempt`): a run resumes after the tab or
the server went away, and any worker can serve any step. An answer is stored before its feedback
is rendered; a checkpoint is answered once (a unique constraint), so a double submit stores one.
"""
from __future__ import annotations

import bisect
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, Flask, abort, current_app, flash, g, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from sqlmodel import Session, col, func, select

from trainer.drills.definitions import DRILLS_DIR, Drill, load_drills
from trainer.drills.questions import Question
from trainer.drills.runs import Asked, plan_run, question_at
from trainer.engine.rules import PRESETS
from trainer.tracking.tracker import Snapshot
from trainer.web.auth import current_user_id, login_required, signed_in
from trainer.web.cursors import CursorWriter
from trainer.web.db import get_connection, get_session, make_engine, write_lock
from trainer.web.extensions import limiter
from trainer.web.library import _visible
from trainer.web.memo import Memo
from trainer.web.models import Attempt, Deal, DrillRun, utcnow
from trainer.web.quiz import AnswerError, answer_text, explanation, question_label, read_answer
from trainer.web.responses import go, render_page, wants_fragment
from trainer.web.table import DealCache, DealData, DealKey, deal_cache, drawn_table, play_section, step_form, words

bp = Blueprint("drills", __name__)

DONE = "done"
ACTIVE = "active"


def init_app(app: Flask) -> None:
    """Load the curriculum (`DRILLS_DIR`) and make the app's deal cache."""
    app.extensions["jipai_drills"] = load_drills(Path(app.config.get("DRILLS_DIR") or DRILLS_DIR))
    app.extensions["jipai_deal_cache"] = DealCache(app.config.get("DEAL_CACHE_SIZE", 512))
    app.extensions["jipai_drawn_tables"] = Memo(app.config.get("DRAWN_TABLES", 16384))
    app.extensions["jipai_questions"] = Memo(app.config.get("QUESTIONS", 1024))
    app.extensions["jipai_snapshots"] = Memo(app.config.get("SNAPSHOTS", 2048))
    plans: Memo[int, RunMemory] = Memo(app.config.get("RUN_PLAN_CACHE_SIZE", 4096))
    app.extensions["jipai_run_plans"] = plans
    app.extensions["jipai_cursors"] = CursorWriter(make_engine(app.config["DATABASE_URL"], pool_size=1),
                                                   app.extensions["jipai_write_lock"], app.config["CURSOR_WRITE_DELAY"],
                                                   on_stale=plans.pop)


def drills() -> dict[str, Drill]:
    """The app's curriculum by id, in order."""
    return current_app.extensions["jipai_drills"]


def lang(locale: str | None = None) -> str:
    """The UI language's code for question texts: zh or en."""
    return "en" if (locale or str(get_locale() or "zh")).startswith("en") else "zh"


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


CANDIDATES = 8
"""How many deals starting a run reads, to find one whose plan has a checkpoint."""


def _candidates(db: Session, drill: Drill, seed: int) -> list[DealKey]:
    """The cache keys of the complete deals visible to the user under the drill's rules (not hidden)
    that they have drilled least, ties in an order drawn from `seed` (a rotation of a fixed
    shuffle): one query, reading `CANDIDATES` rows; the user's runs are counted per deal by index."""
    custom = drill.rules != PRESETS.get(drill.rules.preset)
    runs = (select(func.count()).select_from(DrillRun)
            .where(DrillRun.user_id == g.user.id, DrillRun.deal_pk == Deal.pk).scalar_subquery())
    shuffle = (sa.cast(col(Deal.pk), sa.BigInteger) * 2654435761 + seed) % 2147483647
    query = (select(Deal.pk, Deal.id, Deal.created)
             .where(_visible(g.user.id), col(Deal.complete).is_(True), Deal.rules == drill.rules.preset,
                    col(Deal.custom_rules).is_(custom))
             .order_by(runs, shuffle).limit(CANDIDATES))
    return [(pk, deal_id, created) for pk, deal_id, created in db.exec(query).all() if pk is not None]


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
    for key in _candidates(db, drill, seed):
        data = deal_cache().get(db, key)
        if drill.rules != data.record.rules:
            continue
        plan = plan_run(drill, data.record, seed)
        if not plan.checkpoints:
            continue
        run = DrillRun(user_id=g.user.id, drill_id=drill.id, deal_pk=key[0], seat=plan.seat, seed=seed,
                       checkpoints=plan.checkpoints)
        db.add(run)
        with write_lock().held():
            db.commit()
        return go(url_for("drills.run_page", run_id=run.id))
    flash(_("No complete deal under the %(rules)s rules in your library to drill on. Generate some in the deal "
            "library first.", rules=drill.rules.preset))
    return go(url_for("drills.index"))


# -- a run -------------------------------------------------------------------------------------------

@dataclass
class Stage:
    """Where a run stands: the checkpoint at the cursor (if any) and its attempt (if answered)."""

    run: RunRow
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


RUNS = DrillRun.__table__  # type: ignore[attr-defined]
DEALS = Deal.__table__  # type: ignore[attr-defined]
"""The tables, for the Core statements of the hot paths (no ORM bookkeeping on a drill step)."""


@dataclass(slots=True)
class RunRow:
    """A run as the views use it (read with one Core query; see `DrillRun` for the fields)."""

    id: int
    user_id: int
    drill_id: str
    deal_pk: int
    seat: int
    seed: int
    checkpoints: list[int]
    cursor: int
    status: str
    shown_at: datetime | None


RUN_COLUMNS = [RUNS.c[name] for name in RunRow.__dataclass_fields__]
LOAD_RUN = (sa.select(*RUN_COLUMNS, DEALS.c.id.label("deal_id"), DEALS.c.created.label("deal_created"))
            .join(DEALS, DEALS.c.pk == RUNS.c.deal_pk)
            .where(RUNS.c.id == sa.bindparam("run"), RUNS.c.user_id == sa.bindparam("user")))
THE_RUN = sa.and_(RUNS.c.id == sa.bindparam("run"), RUNS.c.user_id == sa.bindparam("user"),
                  RUNS.c.seed == sa.bindparam("run_seed"))
"""The run a process remembers, and no other: a run id freed by a deletion may be given to a new run
(SQLite reuses the highest), so the writes made from memory also match the owner and the seed."""
TO_QUESTION = (sa.update(RUNS).where(THE_RUN, RUNS.c.cursor < sa.bindparam("to"), RUNS.c.status == ACTIVE)
               .values(cursor=sa.bindparam("to"), shown_at=sa.bindparam("now")))
"""Show a run's next question: the cursor moves on to its checkpoint, and its showing time starts."""
FINISH = sa.update(RUNS).where(THE_RUN, RUNS.c.status == ACTIVE).values(status=DONE, finished=sa.bindparam("now"))
"""End a run, its cursor where it is."""


@dataclass(frozen=True, slots=True)
class RunPlan:
    """What never changes about a run once started: whose it is, the drill, the deal, the seat, the
    seed, the checkpoints, and the address of its steps (`?at=N` is added per step)."""

    user_id: int
    drill_id: str
    deal_pk: int
    seat: int
    seed: int
    checkpoints: tuple[int, ...]
    deal_key: DealKey
    step_path: str

    def row(self, run_id: int, cursor: int, shown_at: datetime | None = None) -> RunRow:
        """The active run `run_id` of this plan with its cursor at `cursor`, as if read."""
        return RunRow(run_id, self.user_id, self.drill_id, self.deal_pk, self.seat, self.seed, list(self.checkpoints),
                      cursor, ACTIVE, shown_at)


@dataclass(slots=True)
class RunMemory:
    """What one app process knows of a run: its plan, and how many of its checkpoints are answered
    (they are answered in order, and an answer is never taken back, so the count only grows)."""

    plan: RunPlan
    passed: int

    def may_pass(self, at: int) -> bool:
        """Every checkpoint up to play `at` is answered: a step from `at` may go on."""
        return at >= 0 and bisect.bisect_right(self.plan.checkpoints, at) <= self.passed


def run_plans() -> Memo[int, RunMemory]:
    """What the current app process knows of recently seen runs: a drill step that just moves a run
    on needs no read of the database."""
    return current_app.extensions["jipai_run_plans"]


def cursors() -> CursorWriter:
    """The current app's cursor writer."""
    return current_app.extensions["jipai_cursors"]


def _load(run_id: int) -> tuple[RunRow, DealKey]:
    """The signed-in user's run as stored (after writing this process's pending cursor moves) and
    its deal's cache key; another user's run is a 404. What the process knows of the run is renewed."""
    cursors().flush(run_id)
    connection = get_connection()
    row = connection.execute(LOAD_RUN, {"run": run_id, "user": current_user_id()}).first()
    connection.commit()  # ends the read (SQLAlchemy began a transaction for it)
    if row is None:
        abort(404)
    run = RunRow(*row[:len(RUN_COLUMNS)])
    key = (run.deal_pk, row.deal_id, row.deal_created)
    if run.status == ACTIVE:
        run_plans().put(run.id, _memory_of(run, key))
    else:
        run_plans().pop(run.id)
    return run, key


def _memory_of(run: RunRow, key: DealKey) -> RunMemory:
    """What a process knows of an active run from its row: the checkpoints before the cursor are answered."""
    plan = RunPlan(run.user_id, run.drill_id, run.deal_pk, run.seat, run.seed, tuple(run.checkpoints), key,
                   url_for("drills.step", run_id=run.id))
    return RunMemory(plan, bisect.bisect_left(plan.checkpoints, run.cursor))


def _stage(run: RunRow, key: DealKey, answered: bool | None = None) -> Stage:
    """Where `run` stands; the attempt at its checkpoint is looked up unless `answered` is False
    (the run has just reached it)."""
    drill = drills().get(run.drill_id)
    if drill is None:
        abort(404)
    data = deal_cache().get(get_session, key)
    index = run.checkpoints.index(run.cursor) if run.cursor in run.checkpoints else None
    attempt = None
    if index is not None and answered is not False:
        attempt = get_session().exec(select(Attempt).where(Attempt.run_id == run.id,
                                                           Attempt.checkpoint == index)).first()
        if attempt is not None:
            _passed(run.id, index + 1)
    return Stage(run, drill, data, index, attempt)


def _passed(run_id: int, count: int) -> None:
    """The first `count` checkpoints of the run are answered."""
    memory = run_plans().get(run_id)
    if memory is not None and memory.passed < count:
        memory.passed = count


def _asked(stage: Stage) -> Asked:
    """The question at the stage's checkpoint (a pure function of the deal, seat, play, seed and
    checkpoint: each process works it out once, for the showing and the answer)."""
    run = stage.run
    assert stage.index is not None
    key = (stage.data.key, stage.drill.id, run.seat, run.cursor, run.seed, stage.index)
    memo: Memo[tuple[Any, ...], Asked] = current_app.extensions["jipai_questions"]
    return memo.get_or_make(key, lambda: question_at(stage.drill, stage.data.record, run.seat, run.cursor, run.seed,
                                                     stage.index, stage.data.events,
                                                     snapshot_at(stage.data, run.seat, run.cursor)))


def snapshot_at(data: DealData, seat: int, plays: int) -> Snapshot:
    """What `seat` knows after `plays` plays of `data` (the tracker's snapshot), worked out once per
    process: every run on the deal from that seat asks at the same trick ends."""
    memo: Memo[tuple[DealKey, int, int], Snapshot] = current_app.extensions["jipai_snapshots"]
    return memo.get_or_make((data.key, seat, plays), lambda: data.snapshot(seat, plays))


def _mark_shown(run: RunRow) -> None:
    """The question at the cursor is being shown now: its answer time counts from here."""
    run.shown_at = utcnow()
    connection = get_connection()
    with write_lock().held():
        connection.execute(sa.update(RUNS).where(RUNS.c.id == run.id).values(shown_at=run.shown_at))
        connection.commit()


def _render(stage: Stage, status: int = 200, error: str | None = None, given: Sequence[str] = (),
            shown: bool = False, step_path: str | None = None) -> Any:
    """The run page, or for htmx the `#run` fragment, in the stage's phase. A question's showing
    time is set now, unless `shown` (the step that reached it set it) or it comes back with an error.
    `step_path` is the run's step address when the caller knows it."""
    run = stage.run
    fragment = wants_fragment()
    if stage.phase == "play" and fragment:
        return _play_html(stage, step_path, fragment), status
    context = table_context(stage, step_path)
    context["error"] = error
    language = context["lang"]
    if stage.phase == "question":
        if error is None and not shown:
            _mark_shown(run)
        context.update(question=_asked(stage).question, given=set(given), number=len(run.checkpoints))
    elif stage.phase == "feedback":
        assert stage.attempt is not None
        context.update(feedback(stage.attempt, stage.data, language), number=len(run.checkpoints))
    if stage.phase == "play":
        context["play_html"] = _play_html(stage, step_path, fragment)
    if not fragment:
        return render_template("runs/show.html", **context), status
    context["fragment"] = True  # htmx sends the CSRF token in a header: the forms need no copy of it
    return render_template("runs/_run.html", **context), status


def _play_html(stage: Stage, step_path: str | None, fragment: bool) -> Markup:
    """The `#run` section between questions: the table as this process drew it for the deal, seat,
    play and language, and the step form (with the CSRF token on a page; htmx sends it in a header)."""
    run = stage.run
    locale = str(get_locale())
    form = step_form(words(locale), _step_url(run, step_path), step_delay(stage.drill), run.cursor, stage.data.total,
                     None if fragment else generate_csrf())
    return Markup(play_section(drawn_table(stage.data, run.seat, run.cursor, locale), form))


def table_context(stage: Stage, step_path: str | None = None) -> dict[str, Any]:
    """What `runs/_run.html` needs in every phase: the run, the drill, the table, the step URL, the words."""
    run, drill = stage.run, stage.drill
    locale = str(get_locale())
    return {"run": run, "drill": drill, "lang": lang(locale), "phase": stage.phase, "last": stage.last,
            "table_html": drawn_table(stage.data, run.seat, run.cursor, locale),
            "step_url": _step_url(run, step_path), "w": words(locale)}


def step_delay(drill: Drill) -> int:
    """How long a play stays before htmx asks for the next, in ms (the drill's cards per second)."""
    return max(50, round(1000 / drill.cards_per_second))


def _step_url(run: RunRow, step_path: str | None) -> str:
    """The address of the step from where the run stands (`step_path` is its base, when known)."""
    return f"{step_path or url_for('drills.step', run_id=run.id)}?at={run.cursor}"


def feedback(attempt: Attempt, data: DealData, language: str) -> dict[str, Any]:
    """What the feedback (and the review) shows about an attempt: the question, both answers in
    words, the explanation from the tracker, the time."""
    question = Question.from_json(attempt.question)
    plays = plays_at(data, attempt.position)
    snap = snapshot_at(data, attempt.seat, plays)
    return {"attempt": attempt, "question": question,
            "expected_text": answer_text(question, attempt.expected, language),
            "given_text": answer_text(question, attempt.given, language),
            "explanation": explanation(question, snap, data.events[:plays]),
            "seconds": attempt.ms / 1000}


def plays_at(data: DealData, position: str) -> int:
    """The play count of a stored position `T.K`."""
    trick, _dot, plays = position.partition(".")
    return data.trick_starts[int(trick) - 1] + int(plays)


@bp.route("/runs/<id:run_id>")
@signed_in
def run_page(run_id: int) -> Any:
    """A run where it stands (resumes an interrupted run); a finished run shows its summary. It
    writes nothing: a question's showing time was set by the step that reached it, so reloading
    the page does not restart the answer timer."""
    run, key = _load(run_id)
    if run.status == DONE:
        return go(url_for("drills.summary", run_id=run.id))
    return _render(_stage(run, key), shown=True)


@bp.route("/runs/<id:run_id>/step", methods=("POST",))
@limiter.exempt
@signed_in
def step(run_id: int) -> Any:
    """The play after `at` (the Next button, or htmx after 1/cards_per_second seconds), or past an
    answered checkpoint (Continue). `at` is the cursor the page showed; a step may go on from it when
    every checkpoint up to it is answered, else it shows where the run stands. The usual step is
    answered from what this process knows of the run, its cursor move written behind
    (`trainer.web.cursors`). (`at` comes in the URL, so that an htmx step posts no body at all.)"""
    at = request.args.get("at", type=int)
    if at is None:
        at = request.form.get("at", type=int)
    memory = run_plans().get(run_id)
    if memory is None or memory.plan.user_id != current_user_id() or at is None or not memory.may_pass(at):
        run, key = _load(run_id)
        if run.status == DONE:
            return go(url_for("drills.summary", run_id=run.id))
        stage = _stage(run, key)  # notes an answered checkpoint at the cursor
        memory = run_plans().get(run_id) or _memory_of(run, key)
        if stage.attempt is not None and stage.index is not None:
            memory.passed = max(memory.passed, stage.index + 1)
        if at is None or not memory.may_pass(at):
            return _current(stage)
    return _step_on(run_id, memory.plan, at)


def _step_on(run_id: int, plan: RunPlan, at: int) -> Any:
    """Go on from play `at` (every checkpoint up to it answered): to the next play, to the next
    question, or past the last checkpoint to the summary."""
    if at >= plan.checkpoints[-1]:
        _finish(run_id, plan)
        return go(url_for("drills.summary", run_id=run_id))
    to = at + 1
    if to in plan.checkpoints:
        return _to_question(run_id, plan, to)
    try:
        data = deal_cache().get(get_session, plan.deal_key)
    except LookupError:  # the deal (and so the run) was deleted: the run as it stands is a 404
        run_plans().pop(run_id)
        return _current(_stage(*_load(run_id)))
    cursors().move(run_id, plan.user_id, plan.seed, to)
    if not wants_fragment():
        cursors().flush(run_id)  # the page it redirects to may be served by another process
        return go(url_for("drills.run_page", run_id=run_id))
    stage = Stage(plan.row(run_id, to), drills()[plan.drill_id], data, None, None)
    return _play_html(stage, plan.step_path, fragment=True)  # the hot path: every drill step answers this


def _to_question(run_id: int, plan: RunPlan, to: int) -> Any:
    """Move the run to the checkpoint at play `to` and show its question, its showing time starting
    now (a repeated step shows it again, from where it stands)."""
    now = utcnow()
    connection = get_connection()
    with write_lock().held():  # a pending move of this run (to an earlier play) will change nothing
        moved = connection.execute(TO_QUESTION, {"run": run_id, "user": plan.user_id, "run_seed": plan.seed, "to": to,
                                                 "now": now}).rowcount
        connection.commit()
    if moved:  # the run was before this checkpoint: its question is new, unanswered
        cursors().drop(run_id)
        return _current(_stage(plan.row(run_id, to, now), plan.deal_key, answered=False), shown=True)
    run, key = _load(run_id)
    if run.status == DONE:
        return go(url_for("drills.summary", run_id=run.id))
    return _current(_stage(run, key))


def _finish(run_id: int, run: RunPlan | RunRow) -> None:
    """End the run (its cursor where it is) and forget it, so that no step goes on from memory."""
    connection = get_connection()
    with write_lock().held():
        connection.execute(FINISH, {"run": run_id, "user": run.user_id, "run_seed": run.seed, "now": utcnow()})
        connection.commit()
    run_plans().pop(run_id)


@bp.route("/runs/<id:run_id>/answer", methods=("POST",))
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
    assert checkpoint is not None  # it is the stage's checkpoint
    asked = _asked(stage)
    values = request.form.getlist("answer")
    try:
        given = read_answer(asked.question, values)
    except AnswerError as error:
        return _render(stage, 422, str(error), values)
    now = datetime.now(UTC)
    shown = run.shown_at or now
    attempt = Attempt(run_id=run.id, user_id=run.user_id, checkpoint=checkpoint, question=asked.question.to_json(),
                      question_type=asked.question.type, suit=asked.question.suit, expected=asked.question.answer,
                      given=given, correct=asked.question.grade(given),
                      ms=max(0, round((now - shown).total_seconds() * 1000)), position=str(asked.position),
                      seat=run.seat, deal_pk=run.deal_pk, created=now)
    db = get_session()
    db.add(attempt)
    try:
        with write_lock().held():
            db.commit()
    except sa.exc.IntegrityError:
        db.rollback()
    _passed(run.id, checkpoint + 1)
    stage = _stage(run, key)
    return _current(stage)


def _current(stage: Stage, shown: bool = False) -> Any:
    """After a POST that may have changed nothing: htmx gets the run where it stands, a form post
    is sent to the run page."""
    if not wants_fragment():
        return go(url_for("drills.run_page", run_id=stage.run.id))
    return _render(stage, shown=shown)


@bp.route("/runs/<id:run_id>/finish", methods=("POST",))
@login_required
def finish(run_id: int) -> Any:
    """End a run early; the summary counts the checkpoints answered."""
    run, _key = _load(run_id)
    _finish(run.id, run)
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


@bp.route("/runs/<id:run_id>/summary")
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
