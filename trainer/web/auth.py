"""Accounts: register, log in (rate-limited), log out; `login_required` and `g.user` (loaded on first use,
`Globals`) for the others."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, current_app, g, has_request_context, request, session, url_for
from flask.ctx import _AppCtxGlobals
from flask_babel import gettext as _
from sqlmodel import select
from werkzeug.security import check_password_hash, generate_password_hash

from trainer.web.db import get_session
from trainer.web.extensions import limiter
from trainer.web.forms import LoginForm, RegisterForm
from trainer.web.memo import Memo
from trainer.web.models import User
from trainer.web.responses import go, render_page, safe_next

bp = Blueprint("auth", __name__, url_prefix="/auth")



@functools.cache
def _dummy_hash(method: str) -> str:
    """Checked against when the name is unknown, so a wrong name costs as long as a wrong password."""
    return generate_password_hash("not a password", method=method)


def hash_password(password: str) -> str:
    """The password's hash, by PASSWORD_HASH_METHOD (werkzeug: scrypt by default)."""
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


class Globals(_AppCtxGlobals):
    """Flask's `g`, with `g.user` (the signed-in `User`, or None) loaded from the database on first
    use: a request that never looks at it (a drill step, a static file) makes no query for it."""

    @property
    def user(self) -> User | None:
        """The signed-in user, or None."""
        if "_user" not in self.__dict__:
            user_id = current_user_id()
            self.__dict__["_user"] = get_session().get(User, user_id) if user_id is not None else None
        return self.__dict__["_user"]

    @user.setter
    def user(self, value: User | None) -> None:
        self.__dict__["_user"] = value


def current_user_id() -> int | None:
    """The signed-in user's id, from the signed session cookie (no query)."""
    if not has_request_context():
        return None
    user_id = session.get("user_id")
    return user_id if isinstance(user_id, int) else None


USER_NAMES = 10_000
"""How many user names each app process remembers (names never change)."""


def current_user_name() -> str | None:
    """The signed-in user's name for the page header (a template global), remembered per app
    process: a page whose view needs no user row makes no query for it."""
    user_id = current_user_id()
    if user_id is None:
        return None
    names: Memo[int, str] = current_app.extensions["jipai_user_names"]
    name = names.get(user_id)
    if name is None:
        user = g.user
        if user is None:
            return None
        name = user.username
        names.put(user_id, name)
    return name


@bp.record_once
def _register_template_globals(state: Any) -> None:
    state.app.extensions["jipai_user_names"] = Memo(USER_NAMES)
    state.app.jinja_env.globals["current_user_name"] = current_user_name


def login_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Send anonymous visitors to the login page, coming back here afterwards."""
    @functools.wraps(view)
    def wrapped(**kwargs: Any) -> Any:
        if g.user is None:
            return _to_login()
        return view(**kwargs)
    return wrapped


def signed_in(view: Callable[..., Any]) -> Callable[..., Any]:
    """Like `login_required`, but trusting the signed session's user id without loading the user:
    for hot paths whose every query is scoped to `current_user_id()` (a stale id finds nothing)."""
    @functools.wraps(view)
    def wrapped(**kwargs: Any) -> Any:
        if current_user_id() is None:
            return _to_login()
        return view(**kwargs)
    return wrapped


def _to_login() -> Any:
    back = request.full_path if request.method == "GET" else request.path
    return go(url_for("auth.login", next=back.rstrip("?")))


def _sign_in(user: User) -> None:
    language = session.get("lang")
    session.clear()
    session["user_id"] = user.id
    if language:
        session["lang"] = language


@bp.route("/register", methods=("GET", "POST"))
@limiter.limit(lambda: current_app.config["LOGIN_RATE_LIMIT"], methods=["POST"])
def register() -> Any:
    """A new account; signed in at once."""
    form = RegisterForm(next=request.args.get("next"))
    if form.validate_on_submit():
        db = get_session()
        name = form.username.data.strip()
        taken = db.exec(select(User).where(sa.func.lower(User.username) == name.lower())).first()
        if taken is None:
            user = User(username=name, password_hash=hash_password(form.password.data))
            db.add(user)
            try:
                db.commit()
            except sa.exc.IntegrityError:
                db.rollback()
            else:
                _sign_in(user)
                return go(safe_next(form.next.data, url_for("deals.index")))
        form.username.errors.append(_("That name is taken."))
    status = 422 if form.is_submitted() else 200
    return render_page("auth/register.html", "auth/_register_form.html", status, form=form)


@bp.route("/login", methods=("GET", "POST"))
@limiter.limit(lambda: current_app.config["LOGIN_RATE_LIMIT"], methods=["POST"])
def login() -> Any:
    """Log in; at most LOGIN_RATE_LIMIT attempts per client address."""
    form = LoginForm(next=request.args.get("next"))
    error = None
    if form.validate_on_submit():
        name = form.username.data.strip()
        user = get_session().exec(select(User).where(sa.func.lower(User.username) == name.lower())).first()
        if user is not None and check_password_hash(user.password_hash, form.password.data):
            _sign_in(user)
            return go(safe_next(form.next.data, url_for("deals.index")))
        if user is None:
            check_password_hash(_dummy_hash(current_app.config["PASSWORD_HASH_METHOD"]), form.password.data)
        error = _("Wrong name or password.")
    status = 422 if form.is_submitted() else 200
    return render_page("auth/login.html", "auth/_login_form.html", status, form=form, error=error)


@bp.route("/logout", methods=("POST",))
def logout() -> Any:
    """Log out (a POST, so it carries the CSRF token); the language choice stays."""
    language = session.get("lang")
    session.clear()
    if language:
        session["lang"] = language
    return go(url_for("home.index"))
