"""Accounts: register, log in (limited per address and per account), log out, change the password;
`login_required` and `g.user` (loaded on first use, `Globals`) for the others. A session is the signed
cookie's user id and session token, checked against the user's row on each request that asks who is
signed in (`current_user_id`)."""
from __future__ import annotations

import functools
import hmac
import math
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, current_app, flash, g, has_request_context, request, session, url_for
from flask.ctx import _AppCtxGlobals
from flask_babel import gettext as _
from sqlmodel import col, select
from werkzeug.security import check_password_hash, generate_password_hash

from trainer.web.db import get_connection, get_session, store, write_lock
from trainer.web.extensions import limiter
from trainer.web.forms import LoginForm, PasswordForm, RegisterForm
from trainer.web.memo import Memo
from trainer.web.models import User, name_key, new_session_token, utcnow
from trainer.web.responses import go, render_page, safe_next

bp = Blueprint("auth", __name__)


@functools.cache
def _dummy_hash(method: str) -> str:
    """Checked against when the name is unknown, so a wrong name costs as long as a wrong password."""
    return generate_password_hash("not a password", method=method)


def hash_password(password: str) -> str:
    """The password's hash, by PASSWORD_HASH_METHOD (werkzeug: scrypt by default)."""
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


class Globals(_AppCtxGlobals):
    """Flask's `g`, with `g.user` (the signed-in `User`, or None) loaded from the database on first
    use: a request that never looks at it (a drill step, a static file) makes no query for it.
    Loading it checks the session's token (see `current_user_id`), so it costs one query in all."""

    @property
    def user(self) -> User | None:
        """The signed-in user, or None."""
        if "_user" not in self.__dict__:
            claim = _session_claim()
            user = get_session().get(User, claim[0]) if claim is not None else None
            if claim is not None and user is not None and not hmac.compare_digest(user.session_token, claim[1]):
                user = None
            self.__dict__["_user"] = user
            if "_user_id" not in self.__dict__:
                self.__dict__["_user_id"] = _settle_claim(claim, user.id if user is not None else None)
        return self.__dict__["_user"]

    @user.setter
    def user(self, value: User | None) -> None:
        self.__dict__["_user"] = value
        self.__dict__["_user_id"] = value.id if value is not None else None

    def __setattr__(self, name: str, value: Any) -> None:
        """Set an attribute as Python does, so that `g.user = …` reaches the `user` setter (Flask's `g`
        writes every attribute straight into its `__dict__`, past any property)."""
        object.__setattr__(self, name, value)


def _session_claim() -> tuple[int, str] | None:
    """The user id and session token the signed session cookie claims (not yet checked)."""
    user_id, token = session.get("user_id"), session.get("session_token")
    return (user_id, token) if isinstance(user_id, int) and isinstance(token, str) else None


def _settle_claim(claim: tuple[int, str] | None, user_id: int | None) -> int | None:
    """`user_id` (the claim's user, if its token held); a claim that did not hold leaves the session."""
    if claim is not None and user_id is None:
        session.pop("user_id", None)
        session.pop("session_token", None)
    return user_id


SESSION_TOKEN = sa.select(User.session_token).where(User.id == sa.bindparam("user"))


def current_user_id() -> int | None:
    """The signed-in user's id: the signed session's user, if the session's token is still the
    user's (logging out or changing the password gives the account a new one, ending every session
    made before). One primary-key read per request, on the request's Core connection (none when
    `g.user` was loaded first)."""
    if not has_request_context():
        return None
    if "_user_id" in g.__dict__:
        return g.__dict__["_user_id"]
    claim = _session_claim()
    user_id = None
    if claim is not None:
        connection = get_connection()
        token = connection.execute(SESSION_TOKEN, {"user": claim[0]}).scalar()
        connection.commit()  # ends the read (a write later in the request starts afresh)
        if token is not None and hmac.compare_digest(token, claim[1]):
            user_id = claim[0]
    g.__dict__["_user_id"] = user_id = _settle_claim(claim, user_id)
    return user_id


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


def _to_login() -> Any:
    back = request.full_path if request.method == "GET" else request.path
    return go(url_for("auth.login", next=back.rstrip("?")))


def _sign_in(user: User) -> None:
    """Start a new session for `user` (keeping the language chosen)."""
    language = session.get("lang")
    session.clear()
    session["user_id"] = user.id
    session["session_token"] = user.session_token
    if language:
        session["lang"] = language
    g.user = user


def _update_user(user_id: int, **values: Any) -> None:
    """Write `values` to the user's row at once (queued behind other writers on SQLite)."""
    db = get_session()
    db.commit()  # ends the request's read, so the write starts afresh
    with write_lock().held():
        db.execute(sa.update(User).where(User.id == user_id).values(**values))
        db.commit()


def _locked_for(user: User) -> int | None:
    """The minutes left before `user` may try to log in again, or None: after LOGIN_ACCOUNT_FAILURES
    failures in a row, each less than LOGIN_ACCOUNT_WINDOW seconds after the one before, the account
    waits that long after the last (whatever the address)."""
    config = current_app.config
    if user.failed_logins < config["LOGIN_ACCOUNT_FAILURES"] or user.failed_login_at is None:
        return None
    left = user.failed_login_at + timedelta(seconds=config["LOGIN_ACCOUNT_WINDOW"]) - utcnow()
    return math.ceil(left.total_seconds() / 60) if left.total_seconds() > 0 else None


def _count_failure(user: User) -> None:
    """One more failed login for `user` (a first one when the last was longer ago than the window),
    counted in the database, so that every process and host sees it."""
    now = utcnow()
    since = now - timedelta(seconds=current_app.config["LOGIN_ACCOUNT_WINDOW"])
    stale = sa.or_(col(User.failed_login_at).is_(None), col(User.failed_login_at) < since)
    _update_user(user.id, failed_logins=sa.case((stale, 1), else_=col(User.failed_logins) + 1), failed_login_at=now)


def _too_many(minutes: int) -> str:
    """The refusal of a locked account, in words."""
    return _("Too many failed attempts for this account. Try again in %(minutes)d minutes.", minutes=minutes)


@bp.route("/auth/register", methods=("GET", "POST"))
@limiter.limit(lambda: current_app.config["LOGIN_RATE_LIMIT"], methods=["POST"])
def register() -> Any:
    """A new account; signed in at once. The database's unique name key decides whether the name is
    free (two registrations of one name at once: the second is told it is taken)."""
    form = RegisterForm(next=request.args.get("next"))
    if form.validate_on_submit():
        name = form.username.data
        user = User(username=name, name_key=name_key(name), password_hash=hash_password(form.password.data))
        if store(user):
            _sign_in(user)
            return go(safe_next(form.next.data, url_for("home.index")))
        form.username.errors.append(_("That name is taken."))
    status = 422 if form.is_submitted() else 200
    return render_page("auth/register.html", "auth/_register_form.html", status, form=form)


def _find_user(name: str) -> User | None:
    """The account a name (`clean_name`d) logs in to: the one of exactly that name, else the one
    whose name key it has (accounts that shared a key before migration 0003 log in by their exact
    names)."""
    found = get_session().exec(select(User).where(sa.or_(User.name_key == name_key(name),
                                                         User.username == name))).all()
    return next((user for user in found if user.username == name), found[0] if found else None)


@bp.route("/auth/login", methods=("GET", "POST"))
@limiter.limit(lambda: current_app.config["LOGIN_RATE_LIMIT"], methods=["POST"])
def login() -> Any:
    """Log in; at most LOGIN_RATE_LIMIT attempts per client address, and LOGIN_ACCOUNT_FAILURES
    failures in a row per account (see `_locked_for`)."""
    form = LoginForm(next=request.args.get("next"))
    error, status = None, 200
    if form.validate_on_submit():
        user = _find_user(form.username.data)
        locked = _locked_for(user) if user is not None else None
        if user is not None and locked is None and check_password_hash(user.password_hash, form.password.data):
            if user.failed_logins:
                _update_user(user.id, failed_logins=0, failed_login_at=None)
            _sign_in(user)
            return go(safe_next(form.next.data, url_for("home.index")))
        if locked is not None:
            error, status = _too_many(locked), 429
        else:
            if user is None:
                check_password_hash(_dummy_hash(current_app.config["PASSWORD_HASH_METHOD"]), form.password.data)
            else:
                _count_failure(user)
            error = _("Wrong name or password.")
    if form.is_submitted() and status == 200:
        status = 422
    return render_page("auth/login.html", "auth/_login_form.html", status, form=form, error=error)


@bp.route("/auth/logout", methods=("POST",))
def logout() -> Any:
    """Log out (a POST, so it carries the CSRF token): the account gets a new session token, which
    ends this session and every other one of the account; the language choice stays."""
    user_id = current_user_id()
    if user_id is not None:
        _update_user(user_id, session_token=new_session_token())
    language = session.get("lang")
    session.clear()
    if language:
        session["lang"] = language
    return go(url_for("home.index"))


@bp.route("/account/password", methods=("GET", "POST"))
@login_required
def password() -> Any:
    """Change the password, given the current one (failures count towards the account's login
    limit); every other session of the account ends, this one goes on."""
    user = g.user
    form = PasswordForm(user.username)
    error, status = None, 200
    if form.validate_on_submit():
        locked = _locked_for(user)
        if locked is not None:
            error, status = _too_many(locked), 429
        elif not check_password_hash(user.password_hash, form.current.data):
            _count_failure(user)
            form.current.errors.append(_("That is not your current password."))
        else:
            token = new_session_token()
            _update_user(user.id, password_hash=hash_password(form.password.data), session_token=token,
                         failed_logins=0, failed_login_at=None)
            session["session_token"] = token
            flash(_("Password changed. Every other session of this account is logged out."))
            return go(url_for("deals.index"))
    if form.is_submitted() and status == 200:
        status = 422
    return render_page("auth/password.html", "auth/_password_form.html", status, form=form, error=error)
