"""Two app instances, as two hosts run them: two `create_app()` apps, each served by a real server on
a loopback port, on one database (PostgreSQL with `DATABASE_URL`, else one SQLite file) and one Redis
(the limiter's store, under a key prefix of this test's own). What one host knows the other does: the
login limit counts attempts made on both, logging out on one ends the account's sessions on both,
and a drill run started on one is answered on the other. Redis must answer at `JIPAI_TEST_REDIS_URL`
(default 127.0.0.1:6379; `.ci/run` starts it): without it these tests fail, saying so.

Also here: the limiter's fallback when its store cannot be reached, and PROXY_FIX's start warning."""
from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask

from .drilling import attempts, drive, run_row
from .servers import Browser, serving

REDIS_URL = os.environ.get("JIPAI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
WRONG = {"username": "nobody", "password": "not the password"}
ALICE = {"username": "alice", "password": "correct horse"}


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix for this test's limits in the shared Redis (its keys are deleted afterwards);
    the test fails when Redis does not answer."""
    store = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        store.ping()
    except redis.RedisError as error:
        pytest.fail(f"Redis does not answer at {REDIS_URL} ({error}): these tests need it — start redis-server "
                    "(.ci/run does) or point JIPAI_TEST_REDIS_URL at one")
    prefix = f"jipai-test-{uuid.uuid4().hex}"
    yield prefix
    keys = list(store.scan_iter(match=f"*{prefix}*"))
    if keys:
        store.delete(*keys)
    store.close()


@pytest.fixture
def two_hosts(make_app: Callable[..., Flask], tmp_path: Path,
              redis_prefix: str) -> Iterator[tuple[Flask, str, Flask, str]]:
    """Two apps, each with an instance folder of its own, on this test's database and one Redis,
    served: (app A, its URL, app B, its URL)."""
    shared = {"RATELIMIT_ENABLED": True, "RATELIMIT_STORAGE_URI": REDIS_URL, "RATELIMIT_KEY_PREFIX": redis_prefix,
              "LOGIN_RATE_LIMIT": "4 per hour"}
    first = make_app(INSTANCE_PATH=str(tmp_path / "host-a"), **shared)
    second = make_app(INSTANCE_PATH=str(tmp_path / "host-b"), **shared)
    assert first.config["DATABASE_URL"] == second.config["DATABASE_URL"]
    with serving(first) as first_url, serving(second) as second_url:
        yield first, first_url, second, second_url


def test_the_login_limit_counts_the_attempts_on_both_hosts(two_hosts) -> None:
    _first, first_url, _second, second_url = two_hosts
    browser = Browser()
    for base in (first_url, second_url, first_url, second_url):  # 4 per hour: two on each
        assert browser.on(base).post("/auth/login", data=WRONG).status_code == 422
    for base in (first_url, second_url):  # each host has seen two, the limit four: both refuse
        refused = browser.on(base).post("/auth/login", data=WRONG)
        assert refused.status_code == 429 and "尝试次数太多" in refused.text
        assert refused.headers["X-RateLimit-Limit"] == "4"


def test_logging_out_on_one_host_ends_the_sessions_on_both(two_hosts) -> None:
    _first, first_url, _second, second_url = two_hosts
    here, there = Browser(), Browser()
    assert here.on(first_url).post("/auth/register", data={**ALICE, "confirm": ALICE["password"]}).status_code == 303
    assert there.on(second_url).post("/auth/login", data=ALICE).status_code == 303
    for browser in (here, there):
        for base in (first_url, second_url):
            assert browser.on(base).get("/account/password").status_code == 200
    copied = Browser()  # the first session's cookie, kept by someone else
    for cookie in here.cookies:
        copied.cookies.set_cookie(cookie)
    assert here.on(first_url).post("/auth/logout").status_code == 303
    for browser in (here, there, copied):
        for base in (first_url, second_url):
            answer = browser.on(base).get("/account/password")
            assert answer.status_code == 303 and "/auth/login" in answer.headers["Location"]


def test_a_run_started_on_one_host_is_answered_on_the_other(two_hosts) -> None:
    first, first_url, second, second_url = two_hosts
    browser = Browser()
    assert browser.on(first_url).post("/auth/register",
                                      data={**ALICE, "confirm": ALICE["password"]}).status_code == 303
    started = browser.on(first_url).post("/drills/trumps/start")
    assert started.status_code == 303
    run_id = int(started.headers["Location"].rsplit("/", 1)[1])
    on_second = drive(browser.on(second_url), second, run_id, right=lambda _index: True, stop_after=1)
    on_first = drive(browser.on(first_url), first, run_id, right=lambda _index: False, stop_after=1)
    stored = attempts(first, run_id)
    assert [(attempt.checkpoint, attempt.correct) for attempt in stored] == [(on_second[0][0], True),
                                                                              (on_first[0][0], False)]
    assert on_first[0][0] == on_second[0][0] + 1
    assert run_row(second, run_id).cursor == run_row(first, run_id).checkpoints[on_first[0][0]]


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port bound but not listening (a connection to it is refused), held for the test."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


def test_an_unreachable_store_falls_back_to_limits_per_process(make_app, closed_port: int, caplog) -> None:
    app = make_app(RATELIMIT_ENABLED=True, RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{closed_port}/0",
                   LOGIN_RATE_LIMIT="2 per hour")
    client = app.test_client()
    registered = client.post("/auth/register", data={**ALICE, "confirm": ALICE["password"]})
    assert registered.status_code == 303
    assert "Rate limit storage unreachable - falling back to in-memory storage" in caplog.text
    assert any(record.levelno == logging.WARNING for record in caplog.records if record.name == "flask-limiter")
    client.post("/auth/logout")
    assert client.post("/auth/login", data=ALICE).status_code == 303  # logged in: no 500
    assert client.post("/auth/login", data=WRONG).status_code == 422
    assert client.post("/auth/login", data=WRONG).status_code == 429  # the limit holds, in this process


def test_proxy_fix_warns_at_start_and_trusts_that_many_proxies(make_app, caplog) -> None:
    app = make_app(RATELIMIT_ENABLED=True, LOGIN_RATE_LIMIT="1 per hour", PROXY_FIX=2)
    warnings = [record.getMessage() for record in caplog.records
                if record.levelno == logging.WARNING and record.name == app.logger.name]
    assert warnings == ["PROXY_FIX=2: client addresses come from X-Forwarded-For, as 2 trusted proxies in front set "
                        "it; without that many proxies in front, a forged X-Forwarded-For skips the login limit"]
    client = app.test_client()

    def login(forwarded_for: str) -> int:
        return client.post("/auth/login", data=WRONG, headers={"X-Forwarded-For": forwarded_for}).status_code

    # the address two proxies back is the client's: what a client writes before it is not believed
    assert login("198.51.100.7, 203.0.113.1, 10.0.0.1") == 422
    assert login("198.51.100.8, 203.0.113.1, 10.0.0.2") == 429
    assert login("203.0.113.2, 10.0.0.1") == 422


def test_without_proxy_fix_nothing_is_trusted_or_warned(make_app, caplog) -> None:
    app = make_app(RATELIMIT_ENABLED=True, LOGIN_RATE_LIMIT="1 per hour")
    assert not [record for record in caplog.records
                if record.name == app.logger.name and record.levelno >= logging.WARNING]
    client = app.test_client()
    assert client.post("/auth/login", data=WRONG, headers={"X-Forwarded-For": "203.0.113.1"}).status_code == 422
    assert client.post("/auth/login", data=WRONG, headers={"X-Forwarded-For": "203.0.113.2"}).status_code == 429
