"""Drills: the curriculum (`/drills`), starting a run, and the run loop (`/runs/<id>`).

A run stands at its stored cursor (`DrillRun.cursor`, plays made). Between two checkpoints the page
holds the table at the cursor and every play up to the next checkpoint (`templates/drills/_table.html`);
`static/drill.js` reveals them at the drill's pace and then posts a step to the checkpoint, which
stores the cursor there and answers with the question. The answer is stored (an `Attempt`, unique per
checkpoint) and answered with the feedback and the next stretch. Without JavaScript the Next button
posts a step of one play. GETs write nothing; a run resumes at its last stored point.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, Flask, abort, current_app, flash, g, render_template, request, url_for
from flask_babel import gettext as _
from sqlmodel import Session, col, func, select

from trainer.drills.daily import DAILY_ID, daily_drill
from trainer.drills.definitions import DRILLS_DIR, Drill, load_drills
from trainer.drills.modes import mode_of
from trainer.drills.questions import Question
from trainer.drills.runs import asked_again, summarise
from trainer.engine.rules import PRESETS
from trainer.gouji.rules import PRESETS as GOUJI_PRESETS
from trainer.signals.quiz import SignalDrill
from trainer.tracking.tracker import Snapshot
from trainer.web.auth import login_required
from trainer.web.db import get_session, store, writing
from trainer.web.dealdata import DealCache, DealData, DealKey, deal_cache, plays_at
from trainer.web.display import preset_label
from trainer.web.extensions import limiter
from trainer.web.library import _visible, starter_progress
from trainer.web.models import Attempt, Deal, DrillRun, DrillSettings, utcnow
from trainer.web.modes import answered_rows, flash_state, page_context, stopped
from trainer.web.quiz import AnswerError, answer_text, lang, read_answer
from trainer.web.responses import go, render_page, wants_fragment

bp = Blueprint("drills", __name__)

DONE = "done"
ACTIVE = "active"
GRADINGS = 2
"""How many times an answer is graded: again when another user's first answer at the position made its rating
row meanwhile (then it is graded on that row)."""


@dataclass(frozen=True, slots=True)
class RunHooks:
    """What another part of the app (the daily training) adds to the run loop: `answered` gives the
    rows to store with a new attempt (it gets what the seat knew then; called inside the answer's write
    transaction, `db.writing()`, so what it reads stays as read until the attempt and its rows commit);
    `finished` gives where a run that has just ended goes instead of its summary (None: the
    summary)."""

    answered: Callable[[DrillRun, Attempt, DealData, Snapshot], list[Any]]
    finished: Callable[[DrillRun], str | None]


NO_HOOKS = RunHooks(lambda run, attempt, data, snap: [], lambda run: None)


def init_app(app: Flask) -> None:
    """Load the curriculum (`DRILLS_DIR`), make the app's deal cache and the daily items' drill."""
    app.extensions["jipai_drills"] = load_drills(Path(app.config.get("DRILLS_DIR") or DRILLS_DIR))
    app.extensions["jipai_deal_cache"] = DealCache(app.config.get("DEAL_CACHE_SIZE", 512))
    app.extensions["jipai_daily_drill"] = daily_drill()


def hooks() -> RunHooks:
    """The run loop's hooks (`RunHooks`; none registered: no rows added, the summary after a run)."""
    return current_app.extensions.get("jipai_run_hooks", NO_HOOKS)


def run_drill(drill_id: str) -> Drill | None:
    """The drill a run of `drill_id` runs as: a curriculum drill, or the daily items' one."""
    if drill_id == DAILY_ID:
        return current_app.extensions["jipai_daily_drill"]
    return drills().get(drill_id)


def drills() -> dict[str, Drill]:
    """The app's curriculum by id, in order."""
    return current_app.extensions["jipai_drills"]


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
                       finished=finished, lang=lang(), loading=starter_progress(db))


CANDIDATES = 8
"""How many deals starting a run reads, to find one whose plan has a checkpoint."""


def _candidates(db: Session, drill: Drill, seed: int) -> list[DealKey]:
    """The cache keys of the complete deals visible to the user under the drill's rules (not hidden)
    that they have drilled least, ties in an order drawn from `seed` (a rotation of a fixed
    shuffle): one query, reading `CANDIDATES` rows; the user's runs are counted per deal by index."""
    custom = drill.rules != (GOUJI_PRESETS if drill.game == "gouji" else PRESETS).get(drill.rules.preset)
    runs = (select(func.count()).select_from(DrillRun)
            .where(DrillRun.user_id == g.user.id, DrillRun.deal_pk == Deal.pk).scalar_subquery())
    shuffle = (sa.cast(col(Deal.pk), sa.BigInteger) * 2654435761 + seed) % 2147483647
    query = (select(Deal.pk, Deal.id, Deal.created)
             .where(_visible(g.user.id), col(Deal.complete).is_(True), Deal.rules == drill.rules.preset,
                    col(Deal.custom_rules).is_(custom), Deal.game == drill.game)
             .order_by(runs, shuffle).limit(CANDIDATES))
    return [(pk, deal_id, created) for pk, deal_id, created in db.exec(query).all() if pk is not None]


START_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,32}")
"""What a Start form's token looks like (`start_token`); anything else is no token."""


@bp.app_template_global()
def start_token() -> str:
    """A new token for a Start form (its hidden `start_token` field): the form posted twice makes one run."""
    return secrets.token_urlsafe(16)


def open_run(run: DrillRun) -> Any:
    """Store a new run (its `start_token` the form's, when it sent one) and go to it. A Start form posted again
    (a double click: two requests at once) makes no second run: the token is unique per user, so the second
    store is refused and goes to the run the first made."""
    token = request.form.get("start_token", "")
    run.start_token = token if START_TOKEN.fullmatch(token) else None
    if not store(run):
        made = get_session().exec(select(DrillRun.id).where(DrillRun.user_id == run.user_id,
                                                            DrillRun.start_token == run.start_token)).first()
        if run.start_token is None or made is None:
            flash(_("Something went wrong on our side. Please try again."))  # the deal went meanwhile
            return go(url_for("drills.index"))
        return go(url_for("drills.run_page", run_id=made))
    return go(url_for("drills.run_page", run_id=run.id))


@bp.route("/drills/<drill_id>/start", methods=("POST",))
@login_required
def start(drill_id: str) -> Any:
    """Start a run: a deal the user has drilled least (ties broken by the run's seed), the viewer
    seat and the checkpoints from the same seed (`open_run`: one run per Start form posted)."""
    drill = drills().get(drill_id)
    if drill is None:
        abort(404)
    db = get_session()
    if isinstance(drill, SignalDrill):  # a signal quiz draws from its pool by the player's conventions and seed
        from trainer.web.sigquiz import start_run  # it imports the run loop

        return start_run(drill)
    seed = secrets.randbelow(2**31)
    for key in _candidates(db, drill, seed):
        data = deal_cache().get(db, key)
        if drill.rules != data.record.rules:
            continue
        plan = data.plan(drill, seed)
        if not plan.checkpoints:
            continue
        return open_run(DrillRun(user_id=g.user.id, drill_id=drill.id, deal_pk=key[0], seat=plan.seat, seed=seed,
                                 checkpoints=plan.checkpoints))
    if starter_progress(db) is not None:
        flash(_("The starter library is still loading; try this drill again in a moment."))
    else:
        flash(_("No complete deal under the %(rules)s rules in your library to drill on. Generate some in the deal "
                "library first.", rules=preset_label(drill.rules.preset)))
    return go(url_for("drills.index"))


# -- a run -------------------------------------------------------------------------------------------

SPEEDS = (50, 75, 100, 150, 200, 300)
"""The reveal speeds a player may choose, in percent of the drill's pace."""


def settings() -> DrillSettings:
    """The signed-in user's drill settings (the defaults when none are stored; read with the run)."""
    if "drill_settings" not in g:
        g.drill_settings = get_session().get(DrillSettings, g.user.id) or DrillSettings(user_id=g.user.id)
    return g.drill_settings


# The run loop's queries, built once (a statement built per request costs more than its SQL on SQLite).
RUN = (select(DrillRun, Deal.id, Deal.created, DrillSettings).join(Deal, col(Deal.pk) == DrillRun.deal_pk)
       .outerjoin(DrillSettings, col(DrillSettings.user_id) == DrillRun.user_id)
       .where(DrillRun.id == sa.bindparam("run"), DrillRun.user_id == sa.bindparam("user")))
ANSWERED = select(Attempt).where(Attempt.run_id == sa.bindparam("run"), Attempt.checkpoint == sa.bindparam("at"))


def _load(run_id: int) -> tuple[DrillRun, Drill, DealData]:
    """The signed-in user's run (another's is a 404), its drill and its deal, parsed (and their settings)."""
    found = get_session().exec(RUN, params={"run": run_id, "user": g.user.id}).first()
    drill = run_drill(found[0].drill_id) if found is not None else None
    if found is None or drill is None:
        abort(404)
    run, deal_id, created, mine = found
    g.drill_settings = mine or DrillSettings(user_id=run.user_id)
    return run, drill, deal_cache().get(get_session(), (run.deal_pk, deal_id, created))


def _answered(run: DrillRun) -> Attempt | None:
    """The attempt at the checkpoint the run's cursor is on, if it is on one and it is answered."""
    if run.cursor not in run.checkpoints:
        return None
    return get_session().exec(ANSWERED, params={"run": run.id, "at": run.checkpoints.index(run.cursor)}).first()


def _next_checkpoint(run: DrillRun) -> int | None:
    """The first checkpoint after the cursor (None after the last)."""
    return next((at for at in run.checkpoints if at > run.cursor), None)


def _render(run: DrillRun, drill: Drill, data: DealData, attempt: Attempt | None, status: int = 200,
            error: str | None = None, given: Sequence[str] = ()) -> Any:
    """The run where it stands, a page or (for htmx) its `#run` section: a question at an unanswered
    checkpoint; else the table with the plays to the next checkpoint, after the feedback if the
    checkpoint at the cursor is answered (`attempt`, from `_answered`). The question asked for by the
    `#reach` form (htmx targeting `#stage`) comes alone: the table on screen stays as revealed."""
    asking = run.cursor in run.checkpoints and attempt is None
    end = None if asking or stopped(drill, attempt) else _next_checkpoint(run)
    mine = settings()
    language = lang()
    fragment = wants_fragment()
    to_stage = fragment and request.headers.get("HX-Target", "").endswith("#stage")
    context: dict[str, Any] = {
        "run": run, "drill": drill, "lang": language, "error": error, "given": set(given), "end": end,
        "settings": mine, "speeds": SPEEDS, "number": len(run.checkpoints), "fragment": fragment,
        "delay": round(1000 / _pace(run, drill)),
        "phase": "question" if asking else "feedback" if attempt is not None else "play", "mode": mode_of(drill),
        **page_context(get_session(), run, drill, data, attempt, end)}
    if asking:
        context["question"] = _question(run, drill, data).question
        if to_stage:
            return render_template("runs/_stage.html", **context), status, {"Vary": "HX-Target"}
    elif attempt is not None:
        context.update(feedback(attempt, data, language, explain=mode_of(drill) != "flash"))
        context["shown_trick"] = _shown_trick(attempt, data)
    context["table"] = data.table(run.seat, run.cursor, end if end is not None else run.cursor, drill)
    headers = {"Vary": "HX-Target", **({"HX-Retarget": "#run", "HX-Reswap": "outerHTML"} if to_stage else {})}
    return render_template("runs/_run.html" if fragment else "runs/show.html", **context), status, headers


def _shown_trick(attempt: Attempt, data: DealData) -> tuple[int, Any] | None:
    """The trick `?show=N` asks to see beside the feedback (a deciding play's link: training.md §3), as
    the seat saw it when it answered (never a play after the question); None when none is asked or it
    had not begun then."""
    number = request.args.get("show", type=int)
    if number is None:
        return None
    plays = data.shown_trick(attempt.seat, number, plays_at(data, attempt.position))
    return (number, plays) if plays else None


def _question(run: DrillRun, drill: Drill, data: DealData) -> Any:
    """The question at the checkpoint the cursor is on (a pure function of the run and the deal; the
    run's own when it has one, or the daily item's of that checkpoint, `DrillRun.asks`)."""
    index = run.checkpoints.index(run.cursor)
    fixed = run.asks[index]["question"] if run.asks else run.question
    if fixed is not None:
        return asked_again(Question.from_json(fixed), data.record, run.seat, run.cursor, data.events)
    if isinstance(drill, SignalDrill):  # asked under the run's conventions
        from trainer.web.sigquiz import question_at  # it imports the run loop

        return question_at(run, drill, data, index)
    return data.question(drill, run.seat, run.checkpoints, run.seed, index)


def _pace(run: DrillRun, drill: Drill) -> float:
    """The cards per second a run's plays are revealed at: the run's pace (else the drill's) at the player's speed."""
    return (run.pace or drill.cards_per_second) * settings().speed / 100


def feedback(attempt: Attempt, data: DealData, language: str, explain: bool = True) -> dict[str, Any]:
    """What the feedback (and the review) shows about an attempt: the question, both answers in
    words, the explanation from the tracker (unless not `explain`: a flash's is the trick itself), the time."""
    question = Question.from_json(attempt.question)
    return {"attempt": attempt, "question": question, "seconds": attempt.ms / 1000,
            "expected_text": answer_text(question, attempt.expected, language),
            "given_text": answer_text(question, attempt.given, language),
            "explanation": data.explanation(question, attempt.seat, plays_at(data, attempt.position), language)
            if explain else None}


def _current(run: DrillRun, drill: Drill, data: DealData, attempt: Attempt | None) -> Any:
    """After a POST: htmx gets the run where it stands (`_render`), a form post is sent to the run page."""
    if run.status == DONE:
        return go(url_for("drills.summary", run_id=run.id))
    if not wants_fragment():
        return go(url_for("drills.run_page", run_id=run.id))
    return _render(run, drill, data, attempt)


@bp.route("/runs/<id:run_id>")
@login_required
def run_page(run_id: int) -> Any:
    """A run where it stands (an interrupted run resumes at its last stored point); a finished run
    shows its summary. It writes nothing."""
    run, drill, data = _load(run_id)
    if run.status == DONE:
        return go(url_for("drills.summary", run_id=run.id))
    return _render(run, drill, data, _answered(run))


@bp.route("/runs/<id:run_id>/step", methods=("POST",))
@limiter.exempt
@login_required
def step(run_id: int) -> Any:
    """Move the run from play `at` (the cursor the page showed) to play `to` (one more by default: the
    Next button without JavaScript; the checkpoint, after drill.js revealed the plays): never past an
    unanswered checkpoint. Reaching a checkpoint starts its answer time. Past the last answered
    checkpoint the run ends, and goes where the hooks say (`RunHooks.finished`). A stale `at` changes
    nothing; on a run that has ended it goes where its end went (the last Continue sent twice at once: the
    second sees the run ended by the first, and both go to the daily session's next item)."""
    run, drill, data = _load(run_id)
    at = request.args.get("at", type=int, default=request.form.get("at", type=int))
    to = request.args.get("to", type=int, default=(at or 0) + 1)
    target = _next_checkpoint(run)
    attempt = _answered(run)
    if run.status == ACTIVE and (at != run.cursor or (run.cursor in run.checkpoints and attempt is None)):
        return _current(run, drill, data, attempt)
    if run.status == ACTIVE:
        if target is None or stopped(drill, attempt):  # the last checkpoint passed, or a running count's miss
            run.status, run.finished = DONE, utcnow()
        elif run.cursor < to <= target:  # a play not reached before: no answer there yet
            run.cursor, run.shown_at, attempt = to, utcnow() if to == target else run.shown_at, None
        store(run)
    after = hooks().finished(run) if run.status == DONE else None
    return go(after) if after else _current(run, drill, data, attempt)


@bp.route("/runs/<id:run_id>/answer", methods=("POST",))
@login_required
def answer(run_id: int) -> Any:
    """Grade the answer to the current checkpoint against the tracker, store it (with what the grading hook
    updates, in one write transaction), then show the feedback and the next plays. A second submit of the
    same checkpoint stores nothing and shows the same feedback."""
    run, drill, data = _load(run_id)
    checkpoint = request.form.get("checkpoint", type=int)
    attempt = _answered(run)
    if (run.status != ACTIVE or run.cursor not in run.checkpoints or checkpoint != run.checkpoints.index(run.cursor)
            or attempt is not None):
        return _current(run, drill, data, attempt)
    asked = _question(run, drill, data)
    values = request.form.getlist("answer")
    try:
        given = read_answer(asked.question, values)
    except AnswerError as error:
        return _render(run, drill, data, None, 422, str(error), values)
    now = utcnow()
    shown = run.shown_at.replace(tzinfo=UTC) if run.shown_at else now
    attempt = Attempt(run_id=run.id, user_id=run.user_id, checkpoint=checkpoint,
                      question=asked.question.to_json(), question_type=asked.question.type, suit=asked.question.suit,
                      expected=asked.question.answer, given=given, correct=asked.question.grade(given),
                      position=str(asked.position), seat=run.seat, deal_pk=run.deal_pk, created=now,
                      ms=max(0, round((now - shown).total_seconds() * 1000)))
    if mode_of(drill) == "flash":  # the time its trick was flashed for; a flash has no reveal pace
        attempt.flash_ms = flash_state(get_session(), run.user_id)[1].ms
    else:
        attempt.pace = _pace(run, drill)
    stored = None
    for _grading in range(GRADINGS):
        try:
            with writing() as db, db.no_autoflush:  # the hook's reads and the writes: one transaction
                graded = hooks().answered(run, attempt, data, asked.snapshot) if mode_of(drill) == "replay" else []
                db.add_all([attempt, *graded, *answered_rows(db, run, drill, attempt)])
        except sa.exc.IntegrityError:
            stored = _answered(run)
            if stored is not None:  # answered meanwhile, by another request
                break
        else:
            stored = attempt
            break
    return _current(run, drill, data, stored)


@bp.route("/runs/<id:run_id>/finish", methods=("GET", "POST"))
@login_required
def finish(run_id: int) -> Any:
    """End a run early, once confirmed (a POST with `confirm=yes`; the GET asks); the summary counts
    the checkpoints answered."""
    run, drill, _data = _load(run_id)
    if run.status == ACTIVE and not (request.method == "POST" and request.form.get("confirm") == "yes"):
        return render_page("runs/finish.html", "runs/_finish.html", run=run, drill=drill)
    if run.status == ACTIVE:
        run.status, run.finished = DONE, utcnow()
        store(run)
    return go(url_for("drills.summary", run_id=run.id))


@bp.route("/drills/settings", methods=("POST",))
@login_required
def save_settings() -> Any:
    """Store the user's reveal speed and table toggles (one of them per post); htmx gets no content,
    a form post goes back to the run (`run`) or the drills."""
    mine = settings()
    speed = request.form.get("speed", type=int)
    if speed in SPEEDS:
        mine.speed = speed
    for name in ("last_trick", "hand_sizes"):
        if name in request.form:
            setattr(mine, name, request.form[name] == "1")
    store(mine)
    if wants_fragment():
        return "", 204
    run = request.form.get("run", type=int)
    return go(url_for("drills.run_page", run_id=run) if run else url_for("drills.index"))


@bp.route("/runs/<id:run_id>/summary")
@login_required
def summary(run_id: int) -> Any:
    """A run's result: accuracy per question type, total and mean time, each answer."""
    run, drill, data = _load(run_id)
    if run.status != DONE:
        return go(url_for("drills.run_page", run_id=run.id))
    attempts = get_session().exec(select(Attempt).where(Attempt.run_id == run.id)
                                  .order_by(col(Attempt.checkpoint))).all()
    per_type, total = summarise(attempts)
    answers = [(a, Question.from_json(a.question)) for a in attempts]
    return render_page("runs/summary.html", run=run, drill=drill, per_type=per_type, total=total, answers=answers,
                       lang=lang(), answer_text=answer_text, unanswered=len(run.checkpoints) - len(attempts),
                       mode=mode_of(drill), **page_context(get_session(), run, drill, data, None, None))
