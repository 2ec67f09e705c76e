"""Slow clients cannot stop the production server: with 64 connections trickling their headers and 16
trickling a POST's body, the README's production command (gunicorn reading `gunicorn.conf.py`)
still answers `/healthz`, a drill run's page and a drill step, and the step's cursor still reaches
the database."""
from __future__ import annotations

import re
import time
from pathlib import Path

import sqlalchemy as sa

from bench.slow_clients import Probe, SlowClients
from bench.web import SECRET, production_server
from trainer.web.models import DrillRun

from .drilling import at_value, start

ANSWER_WAIT = 10
"""Seconds a probe waits for its answer: generous, since what is tested is that it comes at all
(the figure, within 1 s, is `bench/slow_clients.py`'s)."""


def test_slow_clients_do_not_stop_the_production_server(make_app, tmp_path: Path) -> None:
    app = make_app(SECRET_KEY=SECRET)  # the secret the production server is started with
    client = app.test_client()
    registered = client.post("/auth/register", data={"username": "alice", "password": "correct horse",
                                                     "confirm": "correct horse"})
    assert registered.status_code == 303, registered.text
    run_id = start(client, "everything")
    page = client.get(f"/runs/{run_id}").text
    shown = at_value(page)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    cookie = client.get_cookie("session")
    assert token and cookie
    engine = app.extensions["jipai_engine"]

    def stored_cursor() -> int:
        with engine.connect() as connection:
            return connection.execute(sa.select(DrillRun.cursor).where(DrillRun.id == run_id)).scalar_one()

    starter = {"FLASK_STARTER_DEALS_DIR": app.config["STARTER_DEALS_DIR"]}  # the same 3 deals: nothing to load
    with production_server(tmp_path / "instance", app.config["DATABASE_URL"], env=starter) as (port, _workers):
        probe = Probe(port, f"session={cookie.value}", token.group(1), run_id, ANSWER_WAIT)
        with SlowClients(port, headers=64, bodies=16) as slow:
            slow.wait(2)  # every slow client has had two turns to send: each holds what it can on the server
            answers = probe.round()
            deadline = time.monotonic() + ANSWER_WAIT
            while stored_cursor() != probe.at and time.monotonic() < deadline:
                time.sleep(0.05)
            cursor = stored_cursor()
    assert {kind: status for kind, (status, _seconds) in answers.items()} == {"healthz": 200, "page": 200, "step": 200}
    assert probe.at == shown + 1 and cursor == probe.at
    assert all(sock is None or sock.fileno() == -1 for sock in slow.sockets)
