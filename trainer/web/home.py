"""The home page and the language switch."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, g, request, session, url_for
from flask_babel import get_locale
from sqlmodel import col, func, select

from trainer.web.db import get_session
from trainer.web.display import trump_short
from trainer.web.messages import upload_limit_kb
from trainer.web.models import Deal
from trainer.web.responses import go, render_page, safe_next

bp = Blueprint("home", __name__)


@bp.route("/")
def index() -> Any:
    """What the trainer is, and where to start."""
    counts = None
    if g.user is not None:
        db = get_session()
        shared = db.exec(select(func.count()).select_from(Deal).where(col(Deal.owner_id).is_(None))).one()
        mine = db.exec(select(func.count()).select_from(Deal).where(Deal.owner_id == g.user.id,
                                                                    col(Deal.hidden).is_(False))).one()
        counts = {"shared": shared, "mine": mine}
    return render_page("home/index.html", counts=counts)


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
