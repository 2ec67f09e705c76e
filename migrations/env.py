"""Alembic environment: migrations compare against the SQLModel metadata of `trainer.web.models`.

The app runs these on its own connection at start (`trainer.web.db.upgrade`). From the shell
(`alembic upgrade head`, `alembic revision --autogenerate -m "…"`, with `alembic.ini` at the
repository root) the database is `DATABASE_URL`, or the app's default SQLite file.
"""
from __future__ import annotations

import os

from alembic import context
from sqlmodel import SQLModel

import trainer.web.models  # noqa: F401  (registers every table on SQLModel.metadata)
from trainer.web.db import make_engine, migrating

target_metadata = SQLModel.metadata


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    """`sqlalchemy.url` if set, else DATABASE_URL, else the app's default (SQLite in the instance folder)."""
    url = context.config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL")
    if url:
        return url
    from trainer.web import create_app

    return create_app({"MIGRATE_ON_START": False, "LOAD_STARTER_LIBRARY": False}).config["DATABASE_URL"]


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    engine = make_engine(_url())
    with engine.connect() as connection, migrating(connection):
        _run(connection)
    engine.dispose()
