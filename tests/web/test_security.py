"""Web security defaults: sessions that end on log-out and password change, security headers on every
answer, user names compared in Unicode, the login limit per account, passwords hard to guess, and a
private instance folder."""
from __future__ import annotations

import os
import re
import stat
import threading
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from trainer.web.db import make_engine
from trainer.web.models import User, utcnow

from .conftest import Accounts
from .drilling import HX, start

TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
NEW_PASSWORD = "purple monkey dishwasher"


def _users(app) -> list[User]:
    with Session(app.extensions["jipai_engine"]) as db:
        return list(db.exec(select(User).order_by(User.id)).all())


def _thief(app, captured: str):
    """A new client carrying a captured session cookie."""
    thief = app.test_client()
    thief.set_cookie("session", captured)
    return thief


# Sessions end on log-out and on a password change

def test_a_cookie_captured_before_logout_opens_nothing(app, client, accounts) -> None:
    accounts.sign_up("alice")
    run_id = start(client, "trumps")
    assert client.post(f"/runs/{run_id}/step?at=0", headers=HX).status_code == 200
    assert client.get("/deals").status_code == 200  # the cookie is verified and remembered by now
    captured = client.get_cookie("session").value
    accounts.logout()
    thief = _thief(app, captured)
    away = thief.get("/deals")
    assert away.status_code == 303 and away.headers["Location"].startswith("/auth/login")
    assert 'class="who"' not in thief.get("/").text
    step = thief.post(f"/runs/{run_id}/step?at=1", headers=HX)  # the hot path, from memory before
    assert step.headers["HX-Redirect"].startswith("/auth/login")
    assert thief.get(f"/runs/{run_id}").status_code == 303


def test_a_captured_cookie_with_its_csrf_token_is_refused_after_logout(make_app) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    token = TOKEN.search(client.get("/auth/register").text).group(1)
    client.post("/auth/register", data={"username": "alice", "password": "correct horse",
                                        "confirm": "correct horse", "csrf_token": token})
    token = TOKEN.search(client.get("/deals/new").text).group(1)
    made = client.post("/deals/generate", data={"rules": "standard", "count": "1"}, headers={**HX, "X-CSRFToken": token})
    assert made.status_code == 200  # token and cookie now remembered as valid
    captured = client.get_cookie("session").value
    client.post("/auth/logout", headers={"X-CSRFToken": token})
    again = _thief(app, captured).post("/deals/generate", data={"rules": "standard", "count": "1"},
                                       headers={**HX, "X-CSRFToken": token})
    assert again.headers["HX-Redirect"].startswith("/auth/login")


def test_logging_out_ends_every_session_of_the_account(app, client, accounts) -> None:
    accounts.sign_up("alice")
    phone = app.test_client()
    assert Accounts(phone).login().status_code == 303
    assert phone.get("/deals").status_code == 200
    accounts.logout()
    assert phone.get("/deals").status_code == 303
    assert Accounts(phone).login().status_code == 303  # logging in again works
    assert phone.get("/deals").status_code == 200


def test_changing_the_password_ends_every_other_session(app, client, accounts) -> None:
    accounts.sign_up("alice")
    other = app.test_client()
    assert Accounts(other).login().status_code == 303
    assert 'id="password-form"' in client.get("/account/password").text
    changed = client.post("/account/password", data={"current": "correct horse", "password": NEW_PASSWORD,
                                                     "confirm": NEW_PASSWORD})
    assert changed.status_code == 303
    assert "密码已修改" in client.get("/deals").text  # this session goes on
    assert other.get("/deals").status_code == 303
    assert Accounts(other).login("alice", "correct horse").status_code == 422
    assert Accounts(other).login("alice", NEW_PASSWORD).status_code == 303


def test_password_change_refusals_are_in_words(client, accounts) -> None:
    away = client.get("/account/password")
    assert away.status_code == 303 and away.headers["Location"] == "/auth/login?next=/account/password"
    accounts.sign_up("alice")
    cases = (({"current": "wrong horse", "password": NEW_PASSWORD, "confirm": NEW_PASSWORD}, "这不是你现在的密码"),
             ({"current": "correct horse", "password": "password1", "confirm": "password1"}, "太容易被猜到"),
             ({"current": "correct horse", "password": NEW_PASSWORD, "confirm": "other"}, "两次输入的密码不一样"))
    for data, words in cases:
        refused = client.post("/account/password", data=data, headers=HX)
        assert refused.status_code == 422 and words in refused.text and "<html" not in refused.text, words
    assert accounts.logout().status_code == 303
    assert accounts.login().status_code == 303  # the password is unchanged


# Security headers

def _check_headers(response, what: str) -> None:
    headers = response.headers
    csp = headers.get("Content-Security-Policy", "")
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, what
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, what
    assert headers.get("X-Frame-Options") == "DENY", what
    assert headers.get("X-Content-Type-Options") == "nosniff", what
    assert headers.get("Referrer-Policy") == "same-origin", what


def test_every_answer_carries_the_security_headers(make_app) -> None:
    app = make_app(WTF_CSRF_ENABLED=True, PROPAGATE_EXCEPTIONS=False)
    app.add_url_rule("/boom", "boom", lambda: 1 // 0)
    client = app.test_client()
    answers = {
        "page": client.get("/"), "fragment": client.get("/auth/login", headers=HX),
        "stylesheet": client.get("/static/style.css"), "htmx": client.get("/static/htmx.min.js"),
        "missing static file": client.get("/static/nothing.js"), "404": client.get("/nowhere"),
        "405": client.get("/auth/logout"), "CSRF 400": client.post("/auth/login", data={"username": "a"}),
        "redirect": client.get("/deals"), "500": client.get("/boom"),
    }
    assert [answer.status_code for answer in answers.values()] == [200, 200, 200, 200, 404, 404, 405, 400, 303, 500]
    for what, answer in answers.items():
        _check_headers(answer, what)
        answer.close()  # (a static file's answer holds the file open)
    limited_client = make_app(RATELIMIT_ENABLED=True, LOGIN_RATE_LIMIT="1 per minute").test_client()
    limited_client.post("/auth/login", data={"username": "x", "password": "y"})
    limited = limited_client.post("/auth/login", data={"username": "x", "password": "y"})
    assert limited.status_code == 429
    _check_headers(limited, "429")


def test_templates_have_nothing_the_policy_forbids() -> None:
    """No inline script or style and nothing htmx would need eval for (hx-on, js: values)."""
    forbidden = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=|hx-on|[\"']js:|javascript:",
                           re.IGNORECASE)
    for path in TEMPLATES.rglob("*.html"):
        found = forbidden.search(path.read_text(encoding="utf-8"))
        assert found is None, f"{path.relative_to(TEMPLATES)}: {found.group(0) if found else ''}"


# User names compared in Unicode (NFKC, case folded)

def test_a_unicode_name_logs_in_again(client, accounts) -> None:
    accounts.sign_up("Émile")
    accounts.logout()
    for typed in ("Émile", "émile", "ÉMILE", "E\u0301mile", " Émile "):
        assert accounts.login(typed, "correct horse").status_code == 303, typed
        assert 'class="who"' in client.get("/").text and "Émile" in client.get("/").text
        accounts.logout()


def test_names_equal_but_for_case_or_form_are_one_name(app, client, accounts) -> None:
    accounts.sign_up("Émile")
    accounts.logout()
    for other in ("émile", "ÉMILE", "E\u0301mile", "éＭＩＬＥ"):
        taken = accounts.register(other, "correct horse")
        assert taken.status_code == 422 and "这个用户名已被占用" in taken.text, other
    assert [user.username for user in _users(app)] == ["Émile"]


def test_a_registration_race_makes_one_account_and_an_answer_in_words(app, monkeypatch) -> None:
    """Two registrations of one name (differing in case) checked at the same moment: the database's
    unique name key lets one in; the other is told the name is taken."""
    from trainer.web import auth

    barrier = threading.Barrier(2, timeout=20)
    hash_password = auth.hash_password

    def both_at_once(password: str) -> str:
        barrier.wait()  # both requests have passed every check made before the insert
        return hash_password(password)

    monkeypatch.setattr(auth, "hash_password", both_at_once)
    answers: dict[str, int] = {}

    def register(name: str) -> None:
        answers[name] = Accounts(app.test_client()).register(name, "correct horse").status_code

    threads = [threading.Thread(target=register, args=(name,)) for name in ("Dupe", "dupe")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(answers.values()) == [303, 422]
    assert len(_users(app)) == 1


def test_the_login_lookup_uses_an_index(app, accounts) -> None:
    """The query that finds the account of a typed name reads an index, not the whole table."""
    engine = app.extensions["jipai_engine"]
    seen: list[tuple[str, object]] = []

    def keep(_connection, _cursor, statement, parameters, _context, _many) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "FROM users" in statement:
            seen.append((statement, parameters))

    accounts.sign_up("alice")
    accounts.logout()
    sa.event.listen(engine, "before_cursor_execute", keep)
    try:
        assert accounts.login("ALICE", "wrong horse").status_code == 422
    finally:
        sa.event.remove(engine, "before_cursor_execute", keep)
    assert seen
    with engine.connect() as connection:
        for statement, parameters in seen:
            if engine.dialect.name == "sqlite":
                plan = " / ".join(row[-1] for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}",
                                                                               parameters))
                assert "SCAN" not in plan, plan
            else:
                connection.exec_driver_sql("SET enable_seqscan = off")  # a small table: ask for an index
                plan = " / ".join(row[0] for row in connection.exec_driver_sql(f"EXPLAIN {statement}", parameters))
                assert "Seq Scan" not in plan, plan


# The login limit per account, and passwords hard to guess

def test_failed_logins_are_limited_per_account_across_processes_and_addresses(make_app) -> None:
    first, second = make_app(LOGIN_ACCOUNT_FAILURES=3), make_app(LOGIN_ACCOUNT_FAILURES=3)  # two processes
    Accounts(first.test_client()).sign_up("alice")
    for number, app in enumerate((first, second, first)):
        wrong = app.test_client().post("/auth/login", data={"username": "ALICE", "password": "wrong horse"},
                                       environ_base={"REMOTE_ADDR": f"203.0.113.{number}"})
        assert wrong.status_code == 422
    for app in (first, second):
        locked = Accounts(app.test_client()).login("alice", "correct horse")
        assert locked.status_code == 429 and "这个账号失败的尝试太多。请 15 分钟后再试" in locked.text
    assert Accounts(first.test_client()).login("alice", "correct horse").status_code == 429  # waiting counts nothing
    with Session(first.extensions["jipai_engine"]) as db:
        db.execute(sa.update(User).values(failed_login_at=utcnow() - timedelta(minutes=16)))
        db.commit()
    assert Accounts(second.test_client()).login("alice", "correct horse").status_code == 303
    assert _users(first)[0].failed_logins == 0


def test_failures_far_apart_do_not_add_up(make_app) -> None:
    app = make_app(LOGIN_ACCOUNT_FAILURES=2)
    Accounts(app.test_client()).sign_up("alice")
    for _ in range(3):
        assert Accounts(app.test_client()).login("alice", "wrong horse").status_code == 422
        with Session(app.extensions["jipai_engine"]) as db:
            db.execute(sa.update(User).values(failed_login_at=utcnow() - timedelta(minutes=16)))
            db.commit()
    assert _users(app)[0].failed_logins == 1
    assert Accounts(app.test_client()).login().status_code == 303


@pytest.mark.parametrize("password", ["password", "12345678", "password1", "qwertyuiop", "iloveyou",
                                      "11111111", "abcd1234", "1q2w3e4r5t"])
def test_common_passwords_are_refused(client, accounts, password) -> None:
    refused = accounts.register("alice", password)
    assert refused.status_code == 422 and "这个密码太容易被猜到" in refused.text
    assert accounts.register("alice", "correct horse").status_code == 303


def test_the_name_is_not_a_password(client, accounts) -> None:
    for password in ("walterwhite99", "WalterWhite99"):
        refused = accounts.register("walterwhite99", password)
        assert refused.status_code == 422 and "密码不能是你的用户名" in refused.text
    refused = accounts.register("walterwhite99", "walterwhite99!")
    assert refused.status_code == 422 and "太容易被猜到" in refused.text


# Files: the instance folder, the SQLite database and the secret key are private

def test_the_instance_folder_database_and_secret_are_private(make_app, tmp_path) -> None:
    instance = tmp_path / "new" / "instance"
    old_umask = os.umask(0o022)
    try:
        app = make_app(INSTANCE_PATH=str(instance), DATABASE_URL=None, SECRET_KEY=None)
        Accounts(app.test_client()).sign_up("alice")  # a write: the WAL and shared-memory files exist
    finally:
        os.umask(old_umask)
    assert app.config["DATABASE_URL"] == f"sqlite:///{instance / 'jipai.sqlite'}"
    modes = {path.name: stat.S_IMODE(path.stat().st_mode) for path in (instance, *instance.iterdir())}
    assert modes["instance"] == 0o700
    for name in ("jipai.sqlite", "jipai.sqlite-wal", "jipai.sqlite-shm", "secret_key"):
        assert modes[name] == 0o600, (name, oct(modes[name]))


def test_a_database_others_could_read_is_made_private(tmp_path) -> None:
    path = tmp_path / "old.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.execute(sa.text("CREATE TABLE t (x INTEGER)"))
    engine.dispose()
    path.chmod(0o644)
    make_engine(f"sqlite:///{path}").dispose()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
