"""The web app (Flask + htmx + SQLModel): `create_app()` builds it; `trainer serve` runs it.

Config comes from defaults, then the environment (`DATABASE_URL`, `SECRET_KEY`, and any
`FLASK_*` variable), then `test_config`. On start the database is migrated to head and the
shared starter library is loaded (`trainer.web.library`): in a thread of its own by default, so that
the app answers at once (`LIBRARY_LOAD = "background"`), or before `create_app` returns
(`"sync"`, the default under `TESTING`).
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, Response, render_template
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from trainer.paths import PROJECT_ROOT, instance_folder, private_folder
from trainer.web import db, inputs
from trainer.web.extensions import (
    SECURITY_HEADERS,
    add_security_headers,
    add_vary,
    babel,
    csrf,
    htmx,
    limiter,
    select_locale,
)

LANGUAGES = ("zh", "en")


def default_database_url(instance_path: str) -> str:
    """The SQLite file in the instance folder."""
    return f"sqlite:///{os.path.join(instance_path, 'jipai.sqlite')}"


def _secret_key(instance_path: str) -> str:
    """The secret kept in the instance folder, generated on first use."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_hex(32))
    return path.read_text().strip()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: config, database (migrated), extensions, blueprints, error pages."""
    test_config = dict(test_config or {})
    instance_path = test_config.pop("INSTANCE_PATH", None) or instance_folder()
    app = Flask(__name__, instance_path=instance_path, instance_relative_config=True,
                template_folder=str(PROJECT_ROOT / "templates"), static_folder=str(PROJECT_ROOT / "static"))
    app.config.from_mapping(
        DATABASE_URL=None,
        SECRET_KEY=None,
        MIGRATE_ON_START=True,
        LOAD_STARTER_LIBRARY=True,
        LIBRARY_LOAD=None,
        STARTER_DEALS_DIR=str(PROJECT_ROOT / "drills" / "deals"),
        STARTER_GENERATE_COUNT=12,
        UPLOAD_LIMIT=512 * 1024,
        MAX_CONTENT_LENGTH=None,
        MAX_DEALS_PER_USER=2000,
        GENERATE_RATE_LIMIT="30 per hour; 200 per day",
        IMPORT_RATE_LIMIT="60 per hour; 500 per day",
        PASSWORD_HASH_METHOD="scrypt",
        LOGIN_RATE_LIMIT="10 per minute; 60 per hour",
        LOGIN_ACCOUNT_FAILURES=10,
        LOGIN_ACCOUNT_WINDOW=15 * 60,
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_KEY_PREFIX="jipai",
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
        RATELIMIT_SWALLOW_ERRORS=True,
        RATELIMIT_HEADERS_ENABLED=True,
        LANGUAGES=LANGUAGES,
        BABEL_DEFAULT_LOCALE="zh",
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,
        PROXY_FIX=0,
        DEALS_PER_PAGE=50,
        SECURITY_HEADERS=SECURITY_HEADERS,
    )
    app.config.from_prefixed_env()
    for name in ("DATABASE_URL", "SECRET_KEY", "RATELIMIT_STORAGE_URI"):
        if os.environ.get(name):
            app.config[name] = os.environ[name]
    app.config.from_mapping(test_config)
    private_folder(app.instance_path)
    if not app.config["DATABASE_URL"]:
        app.config["DATABASE_URL"] = default_database_url(app.instance_path)
    if not app.config["MAX_CONTENT_LENGTH"]:  # the file and the form around it
        app.config["MAX_CONTENT_LENGTH"] = int(app.config["UPLOAD_LIMIT"]) + 64 * 1024
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    _trust_proxies(app)

    from trainer.web.auth import Globals
    from trainer.web.extensions import RememberingSessionInterface

    app.app_ctx_globals_class = Globals
    app.session_interface = RememberingSessionInterface()
    from trainer.web import auth, daily, deals, drills, home, review, sigquiz, stats

    drills.init_app(app)
    sigquiz.init_app(app)  # before the database: a malformed convention file stops the start right away
    db.init_app(app)
    csrf.init_app(app)
    htmx.init_app(app)
    limiter.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    inputs.init_app(app)

    app.register_blueprint(home.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(deals.bp)
    app.register_blueprint(drills.bp)
    app.register_blueprint(review.bp)
    app.register_blueprint(sigquiz.bp)
    daily.init_app(app)
    app.register_blueprint(daily.bp)
    app.register_blueprint(stats.bp)

    _register_error_pages(app)
    app.after_request(_vary_on_htmx)
    app.after_request(add_security_headers)

    if app.config["LOAD_STARTER_LIBRARY"]:
        _load_starter_library(app)
    return app


def _trust_proxies(app: Flask) -> None:
    """With PROXY_FIX = N, take the client's address, scheme and host from the `X-Forwarded-*`
    headers as the N proxies in front of the app set them (werkzeug's ProxyFix), and warn: without
    that many proxies of ours in front, a client writes the header itself and each forged address
    gets a login limit of its own."""
    hops = int(app.config["PROXY_FIX"] or 0)
    if hops <= 0:
        return
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    app.logger.warning("PROXY_FIX=%d: client addresses come from X-Forwarded-For, as %d trusted proxies in front "
                       "set it; without that many proxies in front, a forged X-Forwarded-For skips the login limit",
                       hops, hops)


LIBRARY_LOADS = ("background", "sync")


def _load_starter_library(app: Flask) -> None:
    """Load the starter library as `LIBRARY_LOAD` says: in the background (`StarterLoad`, kept as the app's
    `STARTER_LOAD` extension; pages say that it is loading until it is done) or now."""
    from trainer.web.library import STARTER_LOAD, StarterLoad, load_starter_library

    mode = app.config["LIBRARY_LOAD"] or ("sync" if app.testing else "background")
    if mode not in LIBRARY_LOADS:
        raise ValueError(f"LIBRARY_LOAD is {mode!r}, not one of {', '.join(LIBRARY_LOADS)}")
    if mode == "background":
        app.logger.info("starter library: loading in the background")
        app.extensions[STARTER_LOAD] = StarterLoad(app).start()
        return
    with app.app_context():
        load_starter_library(app)


HTMX_HEADERS = ("HX-Request", "HX-History-Restore-Request", "HX-Request-Type")


def _vary_on_htmx(response: Response) -> Response:
    """Every answer depends on whether htmx asked (fragment or page): say so to caches."""
    add_vary(response, HTMX_HEADERS)
    return response


def _register_error_pages(app: Flask) -> None:
    """Errors as pages in words, never a traceback (an unhandled exception reaches the 500 handler
    outside tests); htmx gets the same message as a fragment."""
    from trainer.web.messages import error_message
    from trainer.web.responses import wants_fragment

    def handle(error: HTTPException) -> tuple[str, int]:
        code = error.code or 500
        template = "errors/_error.html" if wants_fragment() else "errors/error.html"
        return render_template(template, code=code, message=error_message(error)), code

    app.register_error_handler(HTTPException, handle)
