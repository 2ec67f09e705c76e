"""The Flask extensions, created unbound here and bound to each app in `create_app`."""
from __future__ import annotations

from flask import current_app, session
from flask_babel import Babel
from flask_htmx import HTMX
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
htmx = HTMX()
limiter = Limiter(key_func=get_remote_address)
babel = Babel()


def select_locale() -> str:
    """The language chosen in the session (`/lang`), else the default (简体中文)."""
    chosen = session.get("lang")
    if chosen in current_app.config["LANGUAGES"]:
        return chosen
    return current_app.config["BABEL_DEFAULT_LOCALE"]
