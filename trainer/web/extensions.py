"""The Flask extensions, created unbound here and bound to each app in `create_app`."""
from __future__ import annotations

import copy
import threading
import time
from collections import OrderedDict
from typing import Any

from flask import Flask, Request, current_app, g, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_babel import Babel
from flask_htmx import HTMX
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect
from itsdangerous import BadSignature


class RememberingCSRFProtect(CSRFProtect):
    """Flask-WTF's CSRF protection, remembering the tokens it has found valid.

    With `WTF_CSRF_TIME_LIMIT = None` (tokens last the session) a token's validity depends only on
    the token, the session's CSRF secret and the app's secret key, so a token once checked need not
    be checked again (a drill step posts the same token every half second). Anything else — a new
    token, a failure, HTTPS (whose referrer checks differ per request), a time limit — goes through
    Flask-WTF's own check.
    """

    SIZE = 4096

    def __init__(self) -> None:
        super().__init__()
        self._valid: OrderedDict[tuple[str, str, str], bool] = OrderedDict()
        self._lock = threading.Lock()

    def protect(self, apply_exemptions: bool = False) -> None:
        """Check the request's token (see the class)."""
        config = current_app.config
        if config["WTF_CSRF_TIME_LIMIT"] is not None or request.is_secure \
                or request.method not in config["WTF_CSRF_METHODS"] \
                or (apply_exemptions and (not request.endpoint or self._is_exempt())):
            super().protect(apply_exemptions)
            return
        token = self._get_csrf_token()
        secret = session.get(config["WTF_CSRF_FIELD_NAME"])
        key = (token, secret, str(config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key)) \
            if isinstance(token, str) and isinstance(secret, str) else None
        if key is not None:
            with self._lock:
                if key in self._valid:
                    self._valid.move_to_end(key)
                    g.csrf_valid = True
                    return
        super().protect(apply_exemptions)  # raises (400) when the token is not valid
        if key is not None:
            with self._lock:
                self._valid[key] = True
                while len(self._valid) > self.SIZE:
                    self._valid.popitem(last=False)


class RememberingSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, remembering the cookies it has verified.

    A cookie's content depends only on the cookie and the secret keys, so a cookie once verified
    (HMAC, base64, JSON) is not verified again while it is younger than the session lifetime: the
    next request with it gets a fresh copy of the same data. A cookie never seen, a bad signature or
    an expired one goes through Flask's own check.
    """

    SIZE = 4096

    def __init__(self) -> None:
        self._seen: OrderedDict[tuple[str, tuple[Any, ...]], tuple[dict[str, Any], float]] = OrderedDict()
        self._lock = threading.Lock()

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The request's session (see the class)."""
        serializer = self.get_signing_serializer(app)
        value = request.cookies.get(self.get_cookie_name(app))
        if serializer is None or not value:
            return super().open_session(app, request)
        key = (value, (app.secret_key, *(app.config["SECRET_KEY_FALLBACKS"] or ())))
        max_age = app.permanent_session_lifetime.total_seconds()
        with self._lock:
            found = self._seen.get(key)
        if found is not None and time.time() - found[1] <= max_age:
            return self.session_class(copy.deepcopy(found[0]))
        try:
            data, signed = serializer.loads(value, max_age=int(max_age), return_timestamp=True)
        except BadSignature:
            return self.session_class()
        with self._lock:
            self._seen[key] = (data, signed.timestamp())
            while len(self._seen) > self.SIZE:
                self._seen.popitem(last=False)
        return self.session_class(copy.deepcopy(data))


csrf = RememberingCSRFProtect()
htmx = HTMX()
limiter = Limiter(key_func=get_remote_address)
babel = Babel()


def select_locale() -> str:
    """The language chosen in the session (`/lang`), else the default (简体中文)."""
    chosen = session.get("lang")
    if chosen in current_app.config["LANGUAGES"]:
        return chosen
    return current_app.config["BABEL_DEFAULT_LOCALE"]
