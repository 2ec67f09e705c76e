"""Starting the app: what `trainer serve` prints on an empty and a warm start, the production server
answering while the shipped library loads (its parsing off the gevent loop), and gunicorn's control
socket in the instance folder."""
from __future__ import annotations

import json
import os
import runpy
import stat
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from bench.web import ROOT, free_port, production_server
from trainer.web.models import LibraryLoad

from .conftest import SERVER_URL, new_schema

ANSWER_WAIT = 10
"""Seconds a probe waits for its answer: generous, since what is tested is that it comes at all (the
start figures are `bench/start.py`'s)."""
SHIPPED = ROOT / "drills" / "deals"


@pytest.fixture
def fresh_database(tmp_path: Path) -> Iterator[str]:
    """A database no app has touched: a new PostgreSQL schema under `DATABASE_URL`, else a SQLite file."""
    if not SERVER_URL:
        yield f"sqlite:///{tmp_path / 'fresh.sqlite'}"
        return
    with new_schema(SERVER_URL, "jipai_start") as url:
        yield url


def _serve(instance: Path, url: str, starter: Path, port: int) -> tuple[int, list[str]]:
    """Run `trainer serve --port port` until `/` answers and the starter library is loaded (or found
    unchanged): the page's status and the lines printed."""
    env = {**os.environ, "JIPAI_INSTANCE_PATH": str(instance), "DATABASE_URL": url,
           "FLASK_STARTER_DEALS_DIR": str(starter), "PYTHONIOENCODING": "utf-8", "PYTHONUNBUFFERED": "1"}
    out = instance.parent / f"serve-{port}.out"
    with out.open("w") as sink:
        server = subprocess.Popen([sys.executable, "-m", "trainer", "serve", "--port", str(port)], cwd=ROOT, env=env,
                                  stdout=sink, stderr=subprocess.DEVNULL)
    try:
        status = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            printed = out.read_text(encoding="utf-8")
            if status is None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=ANSWER_WAIT) as answer:
                        status = answer.status
                except OSError:
                    assert server.poll() is None, printed
            elif "starter library: loaded" in printed or "nothing to read" in printed:
                break
            time.sleep(0.05)
    finally:
        server.terminate()
        server.wait(10)
    assert status is not None, out.read_text(encoding="utf-8")
    return status, out.read_text(encoding="utf-8").splitlines()


def test_trainer_serve_prints_each_step_of_an_empty_and_a_warm_start(tmp_path: Path, fresh_database: str,
                                                                        starter_dir: Path) -> None:
    instance, port = tmp_path / "instance", free_port()
    status, empty = _serve(instance, fresh_database, starter_dir, port)
    assert status == 200
    steps = [line for line in empty if line.startswith(("database:", "starter library:", "Jipai"))]
    assert steps[0].startswith("database: ") and steps[0].endswith("migrating from empty…")
    assert steps[1].startswith("database: ") and "migrated from empty to revision" in steps[1]
    assert steps[2] == "starter library: loading in the background"
    assert steps[3] == f"Jipai 记牌: listening on http://127.0.0.1:{port}/"
    assert f"starter library: reading {starter_dir}" in steps[4:]
    assert any(line.startswith("starter library: loaded 3 deals (3 new, 0 left out)") for line in steps[4:])

    status, warm = _serve(instance, fresh_database, starter_dir, port)
    assert status == 200
    steps = [line for line in warm if line.startswith(("database:", "starter library:", "Jipai"))]
    assert "schema current" in steps[0] and not any("migrat" in line for line in steps)
    assert steps[1:3] == ["starter library: loading in the background",
                          f"Jipai 记牌: listening on http://127.0.0.1:{port}/"]
    assert steps[3].startswith("starter library: unchanged since it was loaded") and len(steps) == 4


def test_the_parsing_of_the_library_lets_a_gevent_workers_other_greenlets_run() -> None:
    script = """
import json, sys
from gevent import monkey
monkey.patch_all()
import gevent
from pathlib import Path
from trainer.web.library import off_the_loop, starter_records

ticks = []
def tick():
    while True:
        ticks.append(1)
        gevent.sleep(0.005)

gevent.spawn(tick)
gevent.sleep(0)
before = len(ticks)
records = off_the_loop(starter_records, Path(sys.argv[1]), 0)
print(json.dumps({"ticks": len(ticks) - before, "records": len(records)}))
"""
    done = subprocess.run([sys.executable, "-c", script, str(SHIPPED)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True)
    result = json.loads(done.stdout)
    # Read in the greenlet itself, the files would leave the ticking greenlet no turn at all (0 ticks).
    assert result["records"] > 4000 and result["ticks"] > 0, done.stderr


def test_the_production_server_answers_while_the_shipped_library_loads(tmp_path: Path, fresh_database: str) -> None:
    instance = tmp_path / "instance"
    engine = sa.create_engine(fresh_database)

    def loading() -> bool:
        with engine.connect() as connection:
            latest = connection.execute(sa.select(LibraryLoad.finished).order_by(LibraryLoad.id.desc())
                                        .limit(1)).first()
        return latest is None or latest[0] is None

    answered_while_loading = 0
    try:
        with production_server(instance, fresh_database) as (port, _workers):  # the shipped library, 4,000 deals
            socket_path = instance / "gunicorn.ctl"
            control_socket = socket_path.exists() and stat.S_ISSOCK(socket_path.stat().st_mode)
            for _ in range(20):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=ANSWER_WAIT) as answer:
                    assert answer.read() == b"ok"
                if not loading():
                    break
                answered_while_loading += 1
                time.sleep(0.1)
    finally:
        engine.dispose()
    assert answered_while_loading >= 10
    assert control_socket


def test_gunicorns_control_socket_is_off_when_the_instance_path_is_too_long_for_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JIPAI_INSTANCE_PATH", str(tmp_path / "i"))
    short = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert short["control_socket"] == str(tmp_path / "i" / "gunicorn.ctl") and not short["control_socket_disable"]
    assert (tmp_path / "i").is_dir() and stat.S_IMODE((tmp_path / "i").stat().st_mode) == 0o700
    monkeypatch.setenv("JIPAI_INSTANCE_PATH", str(tmp_path / ("x" * 100)))
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["control_socket_disable"]
