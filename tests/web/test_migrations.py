"""The schema comes from the alembic migrations, and they match the SQLModel models exactly."""
from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlmodel import SQLModel

import trainer.web.models  # noqa: F401  (every table on the metadata)
from trainer.web.db import alembic_config, make_engine, upgrade


def _differences(engine: sa.Engine) -> list:
    with engine.connect() as connection:
        return compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)


def test_migrations_from_empty_match_the_models_on_sqlite(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'empty.sqlite'}")
    upgrade(engine, str(tmp_path))
    assert set(sa.inspect(engine).get_table_names()) == set(SQLModel.metadata.tables) | {"alembic_version"}
    assert _differences(engine) == []
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    assert sa.inspect(engine).get_table_names() == ["alembic_version"]
    upgrade(engine, str(tmp_path))
    upgrade(engine, str(tmp_path))  # at head: nothing to do
    assert _differences(engine) == []
    engine.dispose()


def test_the_app_database_matches_the_models(app) -> None:
    """On SQLite a fresh file; with DATABASE_URL, the PostgreSQL schema the session migrated from empty."""
    assert _differences(app.extensions["jipai_engine"]) == []


def test_one_head() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert len(script.get_heads()) == 1
