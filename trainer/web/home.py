"""The start page (home), the language switch, and the helpers and filters every template may use."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, g, request, session, url_for
from flask_babel import get_locale
from sqlalchemy.orm import load_only
from sqlmodel import col, func, select

from trainer.web.daily import today_of
from trainer.web.db import get_session
from trainer.web.display import (as_card_view, preset_label, pretty, source_label, spoken, text_parts, trump_short,
                                 viewer_label)
from trainer.web.drills import ACTIVE, drills
from trainer.web.messages import upload_limit_kb
from trainer.web.models import Attempt, Deal, DrillRun
from trainer.web.quiz import lang, question_label
from trainer.web.responses import go, render_page, safe_next

bp = Blueprint("home", __name__)


@bp.route("/")
def index() -> Any:
    """The player's start page: today's session (what is due, the streak), runs in progress, the
    mistakes to review, the drills and the deal library (a visitor: what the trainer is, and register or log in)."""
    if g.user is None:
        return render_page("home/index.html", "home/_start.html")
    return render_page("home/index.html", "home/_start.html", start=start_page(g.user.id), lang=lang(),
                       drills=list(drills().values()), today=today_of(g.user.id))


@dataclass(frozen=True, slots=True)
class RunInProgress:
    """A run not finished: its id, its drill's name, when it started, questions answered and asked."""

    id: int
    name: str
    started: datetime
    answered: int
    questions: int


@dataclass(frozen=True, slots=True)
class StartPage:
    """What the start page shows a player: runs in progress, the latest mistakes and how many there
    are in all, and the deal library's size."""

    runs: list[RunInProgress]
    mistakes: list[tuple[int, str]]
    mistake_count: int
    shared_deals: int
    own_deals: int


START_RUNS = 5
"""The most runs in progress the start page lists (the drills page lists them all)."""
START_MISTAKES = 3
"""The latest mistakes the start page names."""


def start_page(user_id: int) -> StartPage:
    """The start page of user `user_id`, in a handful of indexed queries."""
    db = get_session()
    language = lang()
    curriculum = drills()
    runs = db.exec(select(DrillRun).options(load_only(*RUN_COLUMNS, raiseload=True))
                   .where(DrillRun.user_id == user_id, DrillRun.status == ACTIVE)
                   .order_by(col(DrillRun.started).desc(), col(DrillRun.id).desc()).limit(START_RUNS)).all()
    wrong = (Attempt.user_id == user_id, col(Attempt.correct).is_(False))
    mistakes = db.exec(select(Attempt.id, Attempt.question).where(*wrong)
                       .order_by(col(Attempt.id).desc()).limit(START_MISTAKES)).all()
    count = db.exec(select(func.count()).select_from(Attempt).where(*wrong)).one()
    shared = db.exec(select(func.count()).select_from(Deal).where(col(Deal.owner_id).is_(None))).one()
    own = db.exec(select(func.count()).select_from(Deal).where(Deal.owner_id == user_id,
                                                               col(Deal.hidden).is_(False))).one()
    return StartPage(
        [RunInProgress(run.id, curriculum[run.drill_id].name[language] if run.drill_id in curriculum else run.drill_id,
                       run.started, sum(1 for point in run.checkpoints if point < run.cursor), len(run.checkpoints))
         for run in runs],
        [(attempt_id, question["prompt"][language]) for attempt_id, question in mistakes], count, shared, own)


RUN_COLUMNS = (DrillRun.id, DrillRun.drill_id, DrillRun.started, DrillRun.checkpoints, DrillRun.cursor)
"""The columns of a run the start page reads."""


@bp.route("/healthz")
def healthz() -> Response:
    """A trivial answer for load balancers and the web benchmark: the app is up."""
    return Response("ok", mimetype="text/plain")


@bp.route("/lang", methods=("POST",))
def set_language() -> Any:
    """Keep the chosen language (zh or en) in the session and go back."""
    language = request.form.get("lang", "")
    if language not in current_app.config["LANGUAGES"]:
        abort(400)
    session["lang"] = language
    return go(safe_next(_same_site_referrer() or request.form.get("next"), url_for("home.index")))


def _same_site_referrer() -> str | None:
    """The page the form was sent from, when it is on this site (it follows htmx's pushed URLs)."""
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc != request.host:
        return None
    return referrer.path + (f"?{referrer.query}" if referrer.query else "")


@bp.app_context_processor
def template_helpers() -> dict[str, Any]:
    """Names every template may use: the locale, short trump names, the upload limit."""
    return {"locale": str(get_locale() or current_app.config["BABEL_DEFAULT_LOCALE"]),
            "trump_short": trump_short, "upload_limit_kb": upload_limit_kb}


for _helper in (as_card_view, spoken, text_parts, preset_label, source_label, viewer_label):
    bp.add_app_template_global(_helper)
bp.add_app_template_filter(question_label)
bp.add_app_template_filter(pretty)
