"""The Flask extensions, created unbound here and bound to each app in `create_app`."""
from __future__ import annotations

import copy
import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from babel import Locale
from babel.support import NullTranslations, Translations
from flask import Blueprint, Flask, Request, Response, current_app, g, request, session
from flask.globals import _cv_app, request_ctx
from flask.logging import default_handler
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask_babel import Babel, Domain, _get_current_context
from flask_babel.speaklater import LazyString
from flask_htmx import HTMX
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect
from itsdangerous import BadSignature
from werkzeug.utils import cached_property

from trainer.web.memo import Memo


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
        self._valid: Memo[tuple[str, str, str], bool] = Memo(self.SIZE)
        self._exempt_endpoints: dict[str, bool] = {}

    def protect(self, apply_exemptions: bool = False) -> None:
        """Check the request's token (see the class)."""
        app, current = current_app._get_current_object(), request._get_current_object()  # type: ignore[attr-defined]
        config = app.config
        if current.method not in config["WTF_CSRF_METHODS"]:
            return  # as Flask-WTF: only state-changing methods carry a token
        if config["WTF_CSRF_TIME_LIMIT"] is not None or current.is_secure \
                or (apply_exemptions and (not current.endpoint or self._exempt_endpoint(current.endpoint))):
            super().protect(apply_exemptions)
            return
        environ = current.environ
        bodiless = environ.get("CONTENT_LENGTH") in (None, "", "0") and not environ.get("HTTP_TRANSFER_ENCODING")
        token = _header_token(config, current) if bodiless else self._get_csrf_token()
        secret = session.get(config["WTF_CSRF_FIELD_NAME"])
        key = (token, secret, str(config.get("WTF_CSRF_SECRET_KEY") or app.secret_key)) \
            if isinstance(token, str) and isinstance(secret, str) else None
        if key is not None and self._valid.get(key):
            g.csrf_valid = True
            return
        super().protect(apply_exemptions)  # raises (400) when the token is not valid
        if key is not None:
            self._valid.put(key, True)

    def _exempt_endpoint(self, endpoint: str) -> bool:
        """Flask-WTF's exemption of the endpoint's view (`csrf.exempt`), worked out once per endpoint
        (views and exemptions are set before the first request)."""
        found = self._exempt_endpoints.get(endpoint)
        if found is None:
            found = self._exempt_endpoints[endpoint] = self._is_exempt()
        return found


def _header_token(config: Any, current: Request) -> str | None:
    """The CSRF token of a request without a body (an htmx step), which can only be in a header:
    Flask-WTF's own lookup would parse the empty form first."""
    for name in config["WTF_CSRF_HEADERS"]:
        token = current.headers.get(name)
        if token:
            return token
    return None


class RememberingSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, remembering the cookies it has verified.

    A cookie's content depends only on the cookie and the secret keys, so a cookie once verified
    (HMAC, base64, JSON) is not verified again while it is younger than the session lifetime: the
    next request with it gets a fresh copy of the same data. A cookie never seen, a bad signature or
    an expired one goes through Flask's own check.
    """

    SIZE = 4096

    def __init__(self) -> None:
        self._seen: Memo[tuple[str, tuple[Any, ...]], tuple[dict[str, Any], float]] = Memo(self.SIZE)

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The request's session (see the class)."""
        if not app.secret_key:
            return super().open_session(app, request)
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        key = (value, (app.secret_key, *(app.config["SECRET_KEY_FALLBACKS"] or ())))
        max_age = app.permanent_session_lifetime.total_seconds()
        found = self._seen.get(key)
        if found is not None and time.time() - found[1] <= max_age:
            return self.session_class(fresh_copy(found[0]))
        serializer = self.get_signing_serializer(app)
        assert serializer is not None  # there is a secret key
        try:
            data, signed = serializer.loads(value, max_age=int(max_age), return_timestamp=True)
        except BadSignature:
            return self.session_class()
        self._seen.put(key, (data, signed.timestamp()))
        return self.session_class(fresh_copy(data))

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Flask's, without reading the cookie settings when there is nothing to write (a session
        neither changed nor to be refreshed: the usual case, a drill step)."""
        if session.modified or (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            super().save_session(app, session, response)
        elif session.accessed:
            add_vary(response, ("Cookie",))


SECURITY_HEADERS = {
    # Scripts, styles, images and requests from this site only: no inline script or style, no
    # eval (htmx runs without it as long as no template uses hx-on or js: values); no plugins, no
    # <base>; forms post here only; no page may frame ours (the one-click Log out, Delete and End
    # run buttons cannot be clickjacked).
    "Content-Security-Policy": "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers without CSP 2
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
"""The default `SECURITY_HEADERS`: the headers every answer carries (unless the view set its own)."""


def add_security_headers(response: Response) -> Response:
    """Put the app's `SECURITY_HEADERS` on `response` (pages, fragments, errors, static files)."""
    headers = response.headers
    for name, value in current_app.config["SECURITY_HEADERS"].items():
        headers.setdefault(name, value)
    return response


def add_vary(response: Response, names: tuple[str, ...]) -> None:
    """Add the request headers `names` to the response's `Vary`, those it does not name yet (without
    parsing a header set: this runs on every answer)."""
    vary = ", ".join(response.headers.getlist("Vary"))  # (a missing header raises nothing here)
    if not vary:
        response.headers["Vary"] = ", ".join(names)
        return
    named = {name.strip().lower() for name in vary.split(",")}
    missing = [name for name in names if name.lower() not in named]
    if missing:
        response.headers["Vary"] = ", ".join((vary, *missing))


def fresh_copy(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of session data that the request may change without touching `data`: shallow when
    every value is immutable (the usual session: a user id, a CSRF secret, a language)."""
    if all(isinstance(value, str | int | float | bool | None) for value in data.values()):
        return dict(data)
    return copy.deepcopy(data)


class ViewLimiter(Limiter):
    """Flask-Limiter for limits set on views only (`@limiter.limit`: log in, register).

    Such a limit is checked by its decorator when the view is called. Flask-Limiter's hook before
    every request looks for app-wide limits (default, application, meta): with none configured it is
    dropped. Its hooks after a request (rate-limit headers) and at teardown run only for a request
    the limiter has met (it then keeps its state on the request context), so that a drill step,
    which has no limit, pays nothing for them.
    """

    APP_WIDE = ("RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION", "RATELIMIT_META")

    def __init__(self, key_func: Callable[[], str], **options: Any) -> None:
        for name in ("default_limits", "application_limits", "meta_limits"):
            if options.get(name):  # they would need the hook this class drops
                raise TypeError(f"ViewLimiter takes limits on views only, not {name} (set RATELIMIT_* instead)")
        super().__init__(key_func, **options)

    def limit(self, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Flask-Limiter's limit, as a decorator of one view (a limit on a blueprint would need the
        hook this class drops, so it is refused)."""
        route_limit = super().limit(*args, **kwargs)

        def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
            if isinstance(view, Blueprint):
                raise TypeError("ViewLimiter limits views, not blueprints")
            return route_limit(view)
        return decorate

    def init_app(self, app: Flask) -> None:
        """Bind to `app`; without app-wide limits, no work in requests that have no limit."""
        kinds: tuple[dict[Any, list[Any]], ...] = (app.before_request_funcs, app.after_request_funcs,
                                                   app.teardown_request_funcs)
        before = [list(hooks.get(None, [])) for hooks in kinds]
        super().init_app(app)
        if not logging.getLogger().handlers and default_handler not in self.logger.handlers:
            self.logger.addHandler(default_handler)  # its warnings shown, as the app's are (not only a NullHandler)
        if any(app.config.get(name) for name in self.APP_WIDE):
            return
        for hooks, old in zip(kinds, before, strict=True):
            if None in hooks:
                hooks[None] = old + [_when_limited(hook) for hook in hooks[None][len(old):]
                                     if hooks is not app.before_request_funcs]


def _when_limited(hook: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`hook` (after a request, or at teardown) run only when the limiter has met the request."""
    @functools.wraps(hook)
    def run(value: Any) -> Any:
        if hasattr(request_ctx, "_limiter_request_context"):
            return hook(value)
        return value
    return run


REDIS_TIMEOUTS = {"socket_connect_timeout": 1.0, "socket_timeout": 1.0}
"""The Redis store's default socket timeouts (seconds): a store that does not answer costs a login at
most this long before the limiter falls back to its own memory (redis-py waits for the system's
connect timeout, minutes, by default)."""


class ViewLimits:
    """The rate limits views declare (`@limiter.limit`, `@limiter.exempt`), checked by a `ViewLimiter`
    of each app's own (`init_app`).

    Flask-Limiter keeps its store, its fallback state (store unreachable) and its settings on the
    extension object, so one object bound to two apps of one process (tests; two "hosts" in one test)
    would mix them: the last app's store would count for both. Each app's limiter is configured by
    its own `RATELIMIT_*` keys; `RATELIMIT_STORAGE_URI=redis://…` shares the counts between workers and
    hosts, and a store that cannot be reached falls back to per-process limits (Flask-Limiter's
    `RATELIMIT_IN_MEMORY_FALLBACK_ENABLED`, on by default here) with a logged warning.
    """

    def __init__(self, key_func: Callable[[], str]) -> None:
        self._key_func = key_func
        self._limited: list[tuple[Callable[..., Any], str | Callable[[], str], dict[str, Any]]] = []
        self._exempt: list[Callable[..., Any]] = []

    def limit(self, limit_value: str | Callable[[], str],
              **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Flask-Limiter's limit as a decorator of one view (see `ViewLimiter.limit`), checked where it
        stands among the view's decorators by the limiter of the app serving the request."""
        def declare(view: Callable[..., Any]) -> Callable[..., Any]:
            if isinstance(view, Blueprint):
                raise TypeError("ViewLimiter limits views, not blueprints")
            index = len(self._limited)
            self._limited.append((view, limit_value, options))

            @functools.wraps(view)
            def limited(*args: Any, **kwargs: Any) -> Any:
                return current_app.extensions["jipai_limited_views"][index](*args, **kwargs)
            return limited
        return declare

    def exempt(self, view: Callable[..., Any]) -> Callable[..., Any]:
        """Declare a view exempt from the limiter's app-wide limits."""
        self._exempt.append(view)
        return view

    def init_app(self, app: Flask) -> ViewLimiter:
        """Give `app` a limiter of its own (`app.extensions["jipai_limiter"]`) and the declared views
        as that limiter checks them."""
        config = app.config
        if not config.get("RATELIMIT_STORAGE_OPTIONS") and str(config.get("RATELIMIT_STORAGE_URI")).startswith("redis"):
            config["RATELIMIT_STORAGE_OPTIONS"] = dict(REDIS_TIMEOUTS)
        own = ViewLimiter(self._key_func)
        for view in self._exempt:
            own.exempt(view)
        app.extensions["jipai_limited_views"] = [own.limit(limit_value, **options)(view)
                                                 for view, limit_value, options in self._limited]
        own.init_app(app)
        app.extensions["jipai_limiter"] = own
        return own


csrf = RememberingCSRFProtect()
htmx = HTMX()
limiter = ViewLimits(key_func=get_remote_address)


class RequestDomain(Domain):
    """Flask-Babel's message domain, finding a request's translations once: Flask-Babel looks up the
    locale and its catalogue for every string (a drill step translates about a hundred), this keeps
    them on the request's babel context (where `force_locale` sets and restores them)."""

    def get_translations(self) -> Translations | NullTranslations:
        """The current request's translations (looked up on first use in the request)."""
        app_ctx = _cv_app.get(None)  # (Flask-Babel's own lookup goes through `g`'s proxy three times)
        babel_ctx = getattr(app_ctx.g, "_flask_babel", None) if app_ctx is not None else None
        translations = getattr(babel_ctx, "babel_translations", None)
        if translations is None:
            ctx = _get_current_context()
            if ctx is None:
                return NullTranslations()
            translations = ctx.babel_translations = super().get_translations()
        return translations


class RequestBabel(Babel):
    """Flask-Babel, with the default domain a `RequestDomain`."""

    @cached_property
    def domain_instance(self) -> RequestDomain:
        """The default message domain."""
        return RequestDomain(domain=self.domain)

    def init_app(self, app: Flask, *args: Any, **kwargs: Any) -> None:
        """Flask-Babel's set-up, then templates' gettext functions that go to the default domain
        straight (Flask-Babel's look the domain up for every string)."""
        super().init_app(app, *args, **kwargs)
        app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
            gettext=lambda s: self.domain_instance.get_translations().ugettext(s),
            ngettext=lambda s, p, n: self.domain_instance.get_translations().ungettext(s, p, n),
            pgettext=lambda c, s: self.domain_instance.get_translations().upgettext(c, s),
            npgettext=lambda c, s, p, n: self.domain_instance.get_translations().unpgettext(c, s, p, n),
            newstyle=True)


babel = RequestBabel()


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's `gettext` without its domain lookup (the drill table translates tens of words a
    request: seats, suits, kinds of lead)."""
    if _cv_app.get(None) is None:  # outside an app: untranslated, as Flask-Babel's
        translated = string
    else:
        translated = babel.domain_instance.get_translations().ugettext(string)
    return translated % variables if variables else translated


def lazy_gettext(string: str, **variables: Any) -> LazyString:
    """Flask-Babel's `lazy_gettext`, translated by `gettext` above when used."""
    return LazyString(gettext, string, **variables)


def select_locale() -> Locale:
    """The language chosen in the session (`/lang`), else the default (简体中文)."""
    chosen, config = session.get("lang"), current_app.config
    if chosen not in config["LANGUAGES"]:
        chosen = config["BABEL_DEFAULT_LOCALE"]
    return _locale(chosen)


@functools.cache
def _locale(code: str) -> Locale:
    """The babel `Locale` of a language code, parsed once."""
    return Locale.parse(code)
