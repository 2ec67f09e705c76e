"""What the fast paths remember never changes what is allowed: remembered CSRF tokens and session
cookies, the write lock, the header's user name, /healthz, and the rate limiter's hooks, which run
only where it limits; a drill step checks the run's owner and state on every request."""
from __future__ import annotations

import re
import threading
import time
from datetime import timedelta

import flask
import pytest
from flask_limiter.util import get_remote_address

from trainer.web.db import WriteLock
from trainer.web.extensions import ViewLimiter

from .drilling import HX, at_value, run_row, start

TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def _signed_up(client, name: str) -> str:
    """Register `name` with CSRF on; the session's token."""
    token = TOKEN.search(client.get("/auth/register").text).group(1)
    response = client.post("/auth/register", data={"username": name, "password": "correct horse",
                                                   "confirm": "correct horse", "csrf_token": token})
    assert response.status_code == 303
    return TOKEN.search(client.get("/drills").text).group(1)


def test_a_remembered_token_opens_nothing_else(make_app) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    alice, bob = app.test_client(), app.test_client()
    alice_token, bob_token = _signed_up(alice, "alice"), _signed_up(bob, "bob")
    run_id = int(alice.post("/drills/trumps/start", data={"csrf_token": alice_token})
                 .headers["Location"].rsplit("/", 1)[1])
    for _ in range(2):  # the second time a stale step: it changes nothing
        assert alice.post(f"/runs/{run_id}/step?at=0", headers={**HX, "X-CSRFToken": alice_token}).status_code == 200
    forged = alice_token[:-2] + ("AA" if not alice_token.endswith("AA") else "BB")
    assert alice.post(f"/runs/{run_id}/step?at=1", headers={**HX, "X-CSRFToken": forged}).status_code == 400
    assert alice.post(f"/runs/{run_id}/step?at=1", headers={**HX, "X-CSRFToken": bob_token}).status_code == 400
    assert bob.post("/drills/trumps/start", data={"csrf_token": alice_token}).status_code == 400
    assert run_row(app, run_id).cursor == 1


def test_a_remembered_cookie_is_still_checked(app, alice) -> None:
    cookie = alice.get_cookie("session").value
    assert alice.get("/drills").status_code == 200 and alice.get("/drills").status_code == 200
    tampered = cookie[:-3] + ("xyz" if not cookie.endswith("xyz") else "abc")
    alice.set_cookie("session", tampered)
    assert alice.get("/drills").headers["Location"].startswith("/auth/login")
    alice.set_cookie("session", cookie)
    assert alice.get("/drills").status_code == 200
    app.permanent_session_lifetime = timedelta(seconds=1)
    time.sleep(2.1)
    assert alice.get("/drills").headers["Location"].startswith("/auth/login")


def test_a_step_checks_the_owner_and_the_state(app, client, accounts) -> None:
    accounts.sign_up("alice")
    run_id = start(client, "trumps")
    assert at_value(client.post(f"/runs/{run_id}/step?at=0", headers=HX).text) == 1
    accounts.logout()
    accounts.sign_up("bob")
    assert client.post(f"/runs/{run_id}/step?at=1", headers=HX).status_code == 404
    assert run_row(app, run_id).cursor == 1
    accounts.logout()
    accounts.login("alice")
    assert client.post(f"/runs/{run_id}/finish", data={"confirm": "yes"}).status_code == 303
    done = client.post(f"/runs/{run_id}/step?at=1", headers=HX)
    assert done.headers["HX-Redirect"] == f"/runs/{run_id}/summary" and run_row(app, run_id).cursor == 1


def test_the_write_lock_lets_one_writer_in_at_a_time(tmp_path) -> None:
    lock = WriteLock(str(tmp_path / ".write.lock"))
    inside, most = [0], [0]

    def write() -> None:
        for _ in range(200):
            with lock.held():
                inside[0] += 1
                most[0] = max(most[0], inside[0])
                inside[0] -= 1

    threads = [threading.Thread(target=write) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 1
    with WriteLock(None).held():  # PostgreSQL: no lock
        pass


def test_the_header_names_the_user_of_this_app(make_app, tmp_path) -> None:
    """Two apps in one process (on two databases) may both have a user 1: names are kept per app."""
    names = []
    for number, name in enumerate(("carol", "dave")):
        app = make_app(DATABASE_URL=f"sqlite:///{tmp_path / f'app{number}.sqlite'}",
                       INSTANCE_PATH=str(tmp_path / f"instance{number}"))
        client = app.test_client()
        client.post("/auth/register", data={"username": name, "password": "correct horse",
                                            "confirm": "correct horse"})
        names.append(re.search(r'<span class="who">([^<]*)</span>', client.get("/drills").text).group(1))
    assert names == ["carol", "dave"]


def test_healthz_says_ok(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.text == "ok" and response.mimetype == "text/plain"


def test_a_step_carries_no_rate_limit_work(make_app) -> None:
    """The limiter's hooks run only for the views it limits: a login answer says the limit, a step not."""
    app = make_app(RATELIMIT_ENABLED=True, LOGIN_RATE_LIMIT="5 per minute")
    client = app.test_client()
    login = client.post("/auth/login", data={"username": "nobody", "password": "wrong"})
    assert login.status_code == 422 and login.headers["X-RateLimit-Limit"] == "5"
    client.post("/auth/register", data={"username": "carol", "password": "correct horse",
                                       "confirm": "correct horse"})
    run_id = start(client, "trumps")
    step = client.post(f"/runs/{run_id}/step?at=0", headers=HX)
    assert step.status_code == 200 and "X-RateLimit-Limit" not in step.headers
    for _ in range(5):
        client.post("/auth/login", data={"username": "nobody", "password": "wrong"})
    limited = client.post("/auth/login", data={"username": "nobody", "password": "wrong"})
    assert limited.status_code == 429 and "Retry-After" in limited.headers


def test_the_limiter_refuses_limits_it_would_not_check() -> None:
    """App-wide and blueprint limits need the per-request hook `ViewLimiter` drops: they are refused."""
    with pytest.raises(TypeError, match="default_limits"):
        ViewLimiter(get_remote_address, default_limits=["1 per day"])
    with pytest.raises(TypeError, match="blueprints"):
        ViewLimiter(get_remote_address).limit("1 per day")(flask.Blueprint("b", __name__))
