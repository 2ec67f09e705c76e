"""The app factory: config from the environment, the instance folder, first start, `trainer serve`."""
from __future__ import annotations

import json
import lzma
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from sqlmodel import Session, col, func, select

from trainer import cli
from trainer.gouji.records import is_gouji
from trainer.web import create_app
from trainer.web.models import Deal

HX = {"HX-Request": "true"}


def _shared_count(app: Flask) -> int:
    with Session(app.extensions["jipai_engine"]) as session:
        return session.exec(select(func.count()).select_from(Deal).where(col(Deal.owner_id).is_(None))).one()


def test_defaults_sqlite_wal_and_a_kept_secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    instance = tmp_path / "instance"
    app = create_app({"INSTANCE_PATH": str(instance), "LOAD_STARTER_LIBRARY": False})
    assert app.config["DATABASE_URL"] == f"sqlite:///{instance / 'jipai.sqlite'}"
    secret = app.config["SECRET_KEY"]
    assert len(secret) == 64 and (instance / "secret_key").stat().st_mode & 0o077 == 0
    with app.extensions["jipai_engine"].connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    app.extensions["jipai_engine"].dispose()
    again = create_app({"INSTANCE_PATH": str(instance), "LOAD_STARTER_LIBRARY": False})
    assert again.config["SECRET_KEY"] == secret
    again.extensions["jipai_engine"].dispose()


def test_environment_sets_database_and_secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SECRET_KEY", "from the environment")
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance"), "LOAD_STARTER_LIBRARY": False})
    assert app.config["DATABASE_URL"] == url
    assert app.config["SECRET_KEY"] == "from the environment"
    assert not (tmp_path / "instance" / "secret_key").exists()
    assert (tmp_path / "elsewhere.sqlite").exists()
    app.extensions["jipai_engine"].dispose()


def test_first_start_loads_the_starter_library_once(make_app, starter_dir: Path) -> None:
    files = len(list(starter_dir.glob("*.json")))
    assert _shared_count(make_app()) == files == 3
    assert _shared_count(make_app()) == files


def test_an_empty_starter_folder_generates_twelve_deals(make_app, tmp_path: Path) -> None:
    app = make_app(STARTER_DEALS_DIR=str(tmp_path / "no deals here"))
    assert _shared_count(app) == 12
    with Session(app.extensions["jipai_engine"]) as session:
        kinds = set(session.exec(select(Deal.source_kind)).all())
    assert kinds == {"generated"}


def test_a_bad_starter_record_is_left_out_not_fatal(make_app, tmp_path: Path, starter_dir: Path) -> None:
    folder = tmp_path / "starter"
    folder.mkdir()
    for path in starter_dir.glob("*.json"):
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "broken.json").write_text('{"format": "jipai-deal/1"}')
    assert _shared_count(make_app(STARTER_DEALS_DIR=str(folder))) == 3


def test_every_response_varies_on_hx_request(alice) -> None:
    for path in ("/", "/deals", "/deals/new", "/auth/login", "/no/such/page"):
        for headers in ({}, HX):
            assert "HX-Request" in alice.get(path, headers=headers).headers.get("Vary", ""), path


def test_error_pages_are_words_not_tracebacks(client) -> None:
    page = client.get("/no/such/page")
    assert page.status_code == 404
    assert "<html" in page.text and "Traceback" not in page.text
    fragment = client.get("/no/such/page", headers=HX)
    assert fragment.status_code == 404 and "<html" not in fragment.text
    assert "这里什么也没有" in fragment.text


def test_an_unexpected_error_is_a_page_in_words(make_app) -> None:
    app = make_app(TESTING=False, LIBRARY_LOAD="sync")  # no background load left running after the test

    @app.route("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert "secret internals" not in response.text and "Traceback" not in response.text
    assert "服务器出了点问题" in response.text


def test_postgres_urls_use_psycopg() -> None:
    from trainer.web.db import normalise_url

    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.sqlite") == "sqlite:///x.sqlite"


def test_htmx_is_vendored_not_fetched(client) -> None:
    page = client.get("/")
    assert '<script src="/static/htmx.min.js"' in page.text and "https://" not in page.text
    script = client.get("/static/htmx.min.js")
    assert script.status_code == 200 and b"htmx" in script.data
    script.close()
    notes = (Path(__file__).parents[2] / "static" / "README.md").read_text()
    assert "4.0.1" in notes and "0BSD" in notes


def test_serve_runs_the_app_on_the_given_address(monkeypatch: pytest.MonkeyPatch, make_app) -> None:
    app = make_app()
    calls = {}
    monkeypatch.setattr("trainer.web.create_app", lambda: app)
    monkeypatch.setattr(Flask, "run", lambda self, **kwargs: calls.update(kwargs))
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "8123"]) == 0
    assert calls == {"host": "0.0.0.0", "port": 8123, "threaded": True}


def test_command_line_without_web_imports() -> None:
    code = ("import sys, trainer.cli; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'sqlmodel', 'sqlalchemy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_one_session_per_request_is_closed_afterwards(app) -> None:
    from flask import g

    from trainer.web.db import get_session

    with app.test_request_context("/"):
        session = get_session()
        assert get_session() is session
        session.exec(sa.select(1)).one()
    with app.app_context():
        assert "db_session" not in g


def test_the_shipped_starter_library_loads(make_app) -> None:
    folder = Path(__file__).parents[2] / "drills" / "deals"
    files = list(folder.glob("*.json")) + list(folder.glob("*/*.json"))  # the signal deals in signals/ too
    shipped = 0
    # 1,000 complete deals for every preset the curriculum drills (the Gouji drills play its standard rules)
    for name, game, rules in (("standard", "shengji", "standard"), ("three-deck", "shengji", "three-deck"),
                              ("four-deck", "shengji", "four-deck"), ("gouji", "gouji", "standard")):
        records = json.loads(lzma.decompress((folder / f"library-{name}.json.xz").read_bytes()))
        assert len(records) == 1000 and {record["rules"] for record in records} == {rules}
        assert {is_gouji(record) for record in records} == {game == "gouji"}
        shipped += len(records)
    for path in folder.glob("signal-pool-*.json.xz"):  # the signal quizzes' pools, one per convention set
        shipped += len(json.loads(lzma.decompress(path.read_bytes())))
    app = make_app(STARTER_DEALS_DIR=str(folder))
    assert _shared_count(app) == len(files) + shipped > 4000
    with Session(app.extensions["jipai_engine"]) as db:
        complete = {(game, rules): count for game, rules, count in db.exec(
            select(Deal.game, Deal.rules, func.count()).where(col(Deal.complete)).group_by(Deal.game, Deal.rules)).all()}
    curriculum = {(drill.game, drill.rules.preset) for drill in app.extensions["jipai_drills"].values()}
    assert curriculum <= set(complete) and all(complete[preset] >= 1000 for preset in curriculum)


def test_gunicorn_reads_the_workers_settings_from_the_project_folder(tmp_path: Path) -> None:
    """gunicorn started in the project folder, as the README runs it, takes `gunicorn.conf.py`: gevent
    workers, a listening socket per worker (`SO_REUSEPORT`), connections kept alive as nginx keeps them
    (75 s) and room for them. (It builds the app to print them: on a database of its own.)"""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    env = {**{name: value for name, value in os.environ.items() if name != "DATABASE_URL"},
           "JIPAI_INSTANCE_PATH": str(tmp_path / "instance")}
    printed = subprocess.run([str(gunicorn), "--print-config", "trainer.web:create_app()"], cwd=Path(__file__).parents[2],
                             env=env, capture_output=True, text=True, timeout=60, check=True).stdout
    settings = {name.strip(): value.strip() for name, _, value in (line.partition(" = ") for line in printed.splitlines())}
    assert (settings["worker_class"], settings["reuse_port"]) == ("gevent", "True")
    assert (settings["keepalive"], settings["worker_connections"]) == ("75", "4000")


def _gunicorn_settings() -> Any:
    """`gunicorn.conf.py`, imported."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gunicorn_conf", Path(__file__).parents[2] / "gunicorn.conf.py")
    assert spec is not None and spec.loader is not None
    settings = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(settings)
    return settings


def test_gunicorn_workers_put_what_they_built_at_start_out_of_the_collectors_sight() -> None:
    """`gunicorn.conf.py`'s worker hook freezes a worker's start-up objects."""
    import gc

    assert gc.get_freeze_count() == 0
    _gunicorn_settings().post_worker_init(None)
    try:
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_after_each_answer_the_workers_other_ready_greenlets_run_first() -> None:
    """`gunicorn.conf.py`'s request hook lets a greenlet that is ready run before the connection just
    answered goes on."""
    import gevent

    hook, order = _gunicorn_settings().post_request, []

    def answered() -> None:
        hook(None, None, {}, None)
        order.append("answered connection")

    def other() -> None:
        order.append("other connection")

    gevent.joinall([gevent.spawn(answered), gevent.spawn(other)])
    assert order == ["other connection", "answered connection"]
