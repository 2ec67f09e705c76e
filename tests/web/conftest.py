"""Fixtures for the web app: an app on a temporary database, a client, and an account helper.

Without `DATABASE_URL` every test gets its own SQLite file. With `DATABASE_URL` (PostgreSQL) the
session makes a schema of its own (so concurrent runs do not collide), every app migrates it (the
first from empty), and the tables are emptied after each test; the schema is dropped at the end.
"""
from __future__ import annotations

import json
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import SQLModel

from trainer.bots.generate import generate_records
from trainer.engine.rules import Rules
from trainer.records import record_id
from trainer.web import create_app
from trainer.web.db import normalise_url

SERVER_URL = os.environ.get("DATABASE_URL")


@pytest.fixture(scope="session")
def starter_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small starter library (three generated standard deals) instead of drills/deals/."""
    folder = tmp_path_factory.mktemp("starter")
    for record in generate_records(Rules(), seed=5, count=3):
        (folder / f"{record_id(record)}.json").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return folder


@contextmanager
def new_schema(url: str, prefix: str) -> Iterator[str]:
    """A new PostgreSQL schema on the server of `url` (dropped afterwards): the URL that uses it."""
    base = sa.make_url(normalise_url(url))
    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(base)
    with admin.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="session")
def server_database() -> Iterator[str | None]:
    """A fresh PostgreSQL schema's URL when DATABASE_URL is set, else None."""
    if not SERVER_URL:
        yield None
        return
    with new_schema(SERVER_URL, "jipai_test") as url:
        yield url


def _empty_tables(url: str) -> None:
    engine = sa.create_engine(url)
    names = ", ".join(f'"{table.name}"' for table in SQLModel.metadata.sorted_tables)
    with engine.begin() as connection:
        connection.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    engine.dispose()


@pytest.fixture
def database_url(tmp_path: Path, server_database: str | None) -> str:
    """The database this test's apps use."""
    return server_database or f"sqlite:///{tmp_path / 'jipai.sqlite'}"


def _test_settings(instance: Path, database_url: str, starter_dir: Path) -> dict[str, Any]:
    """The app config of the web tests."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test secret",
        "INSTANCE_PATH": str(instance),
        "DATABASE_URL": database_url,
        "STARTER_DEALS_DIR": str(starter_dir),
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
        "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
    }


STARTING_KEYS = {"DATABASE_URL", "MIGRATE_ON_START", "LOAD_STARTER_LIBRARY", "STARTER_DEALS_DIR",
                 "STARTER_GENERATE_COUNT", "LIBRARY_LOAD"}
"""Config keys that change what the app's start leaves in the database: a test setting one starts
from an empty file, not from the template."""


@pytest.fixture(scope="session")
def template_database(tmp_path_factory: pytest.TempPathFactory, server_database: str | None,
                      starter_dir: Path) -> Path | None:
    """SQLite only: a database file as an app's first start leaves it (migrated, the starter library
    loaded), built once a session and copied for each test instead of migrating and loading again."""
    if server_database:
        return None
    folder = tmp_path_factory.mktemp("template")
    path = folder / "jipai.sqlite"
    app = create_app(_test_settings(folder / "instance", f"sqlite:///{path}", starter_dir))
    app.extensions["jipai_engine"].dispose()
    return path


@pytest.fixture
def make_app(tmp_path: Path, database_url: str, server_database: str | None, starter_dir: Path,
             template_database: Path | None) -> Iterator[Callable[..., Flask]]:
    """Build apps on this test's database; keyword arguments override the test config. On SQLite the
    first app of a test starts from a copy of `template_database` unless the test sets one of the
    `STARTING_KEYS`."""
    apps: list[Flask] = []

    def make(**config: Any) -> Flask:
        settings = _test_settings(tmp_path / "instance", database_url, starter_dir)
        settings.update(config)
        fresh = tmp_path / "jipai.sqlite"
        if template_database and not apps and not STARTING_KEYS & config.keys() and not fresh.exists():
            shutil.copyfile(template_database, fresh)
        app = create_app(settings)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["jipai_engine"].dispose()
    if server_database:
        _empty_tables(server_database)


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """The app with test settings (CSRF and rate limits off unless a test turns them on)."""
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of `app`."""
    return app.test_client()


class Accounts:
    """Register, log in and log out through the views, as a browser would."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def register(self, username: str = "alice", password: str = "correct horse", **extra: str) -> Any:
        """Register (which also logs in)."""
        data = {"username": username, "password": password, "confirm": password, **extra}
        return self.client.post("/auth/register", data=data)

    def login(self, username: str = "alice", password: str = "correct horse") -> Any:
        """Log in."""
        return self.client.post("/auth/login", data={"username": username, "password": password})

    def logout(self) -> Any:
        """Log out."""
        return self.client.post("/auth/logout")

    def sign_up(self, username: str = "alice", password: str = "correct horse") -> None:
        """Register and be logged in, or fail the test."""
        response = self.register(username, password)
        assert response.status_code == 303, response.text


@pytest.fixture
def accounts(client: FlaskClient) -> Accounts:
    """The account helper for `client`."""
    return Accounts(client)


@pytest.fixture
def alice(client: FlaskClient, accounts: Accounts) -> FlaskClient:
    """`client`, registered and logged in as alice."""
    accounts.sign_up("alice")
    return client
