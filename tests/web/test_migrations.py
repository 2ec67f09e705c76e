"""The schema comes from the alembic migrations, and they match the SQLModel models exactly; migrations
keep the data they find (0003: accounts whose names differ only in case)."""
from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlmodel import SQLModel
from werkzeug.security import generate_password_hash

import trainer.web.models  # noqa: F401  (every table on the metadata)
from trainer.web.db import MIGRATIONS, alembic_config, make_engine, upgrade

from .conftest import new_schema


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


@pytest.fixture
def blank_database(tmp_path: Path, server_database: str | None) -> Iterator[str]:
    """An empty database of this test's own: a SQLite file, or (with DATABASE_URL) a new PostgreSQL schema."""
    if not server_database:
        yield f"sqlite:///{tmp_path / 'blank.sqlite'}"
        return
    with new_schema(server_database, "jipai_migrate") as url:
        yield url


LEGACY_USERS = ["Dupe", "dupe", "Émile", "émile", "DUPE", "bob"]
"""Accounts made before migration 0003, in id order: near-duplicates that `lower()` let through on
SQLite (non-ASCII) or that registered at the same moment (ASCII)."""


def test_0003_keeps_every_account_of_names_equal_but_for_case(blank_database: str, make_app) -> None:
    engine = make_engine(blank_database)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0002")
        for name in LEGACY_USERS:
            connection.execute(sa.text("INSERT INTO users (username, password_hash, created) VALUES (:name, :hash, :now)"),
                               {"name": name, "hash": generate_password_hash(f"{name} horse", "pbkdf2:sha256:1000"),
                                "now": "2026-11-30 12:00:00"})
        user_ids = dict(connection.execute(sa.text("SELECT username, id FROM users")).all())
        connection.execute(sa.text(
            "INSERT INTO deals (id, owner_id, record, rules, custom_rules, level, trump, banker, complete, tricks,"
            " source_kind, created) VALUES ('0123456789abcdef', :owner, '{}', 'standard', false, '2', 'S', 0, true,"
            " 25, 'import', '2026-11-30 12:00:00')"), {"owner": user_ids["dupe"]})
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "head")
    assert _differences(engine) == []
    with engine.connect() as connection:
        rows = connection.execute(sa.text("SELECT id, username, name_key, session_token FROM users ORDER BY id")).all()
        deals = connection.execute(sa.text("SELECT owner_id FROM deals WHERE owner_id IS NOT NULL")).all()
    ids = {name: user_ids[name] for name in LEGACY_USERS}
    assert [row.name_key for row in rows] == ["dupe", f"dupe#{ids['dupe']}", "émile", f"émile#{ids['émile']}",
                                              f"dupe#{ids['DUPE']}", "bob"]
    assert len({row.session_token for row in rows}) == len(rows) and all(len(row.session_token) >= 32 for row in rows)
    assert deals == [(ids["dupe"],)]  # no table was rebuilt (a rebuild of users would cascade-delete deals)
    engine.dispose()

    client = make_app(DATABASE_URL=blank_database).test_client()
    for name in LEGACY_USERS:  # every account logs in by its exact name
        login = client.post("/auth/login", data={"username": name, "password": f"{name} horse"})
        assert login.status_code == 303, name
        assert f'<span class="who">{name}</span>' in client.get("/").text
        client.post("/auth/logout")
    assert client.post("/auth/login", data={"username": "dUPE", "password": "Dupe horse"}).status_code == 303
    client.post("/auth/logout")  # another spelling reaches the oldest account
    taken = client.post("/auth/register", data={"username": "ÉMILE", "password": "correct horse",
                                                "confirm": "correct horse"})
    assert taken.status_code == 422


def test_0003_goes_down_and_up_again(blank_database: str) -> None:
    engine = make_engine(blank_database)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "head")
        connection.execute(sa.text("INSERT INTO users (username, name_key, password_hash, session_token, failed_logins,"
                                   " created) VALUES ('Ann', 'ann', 'x', 'token', 0, '2026-12-01 12:00:00')"))
        command.downgrade(alembic_config(connection), "0002")
    assert {column["name"] for column in sa.inspect(engine).get_columns("users")} == \
        {"id", "username", "password_hash", "created"}
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "head")
    assert _differences(engine) == []
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT name_key FROM users")).scalar() == "ann"
    engine.dispose()


REBUILD_USERS = """from alembic import op
import sqlalchemy as sa

revision = "9999"
down_revision = {head!r}


def upgrade() -> None:
    with op.batch_alter_table("users", recreate="always") as batch_op:
        batch_op.alter_column("username", existing_type=sa.String(length=40), nullable=False)
"""


@pytest.mark.parametrize("run_from", ["start", "shell"])
def test_a_migration_that_rebuilds_users_keeps_their_deals(tmp_path: Path, monkeypatch, run_from: str) -> None:
    """SQLite: a batch-mode rebuild of `users` drops the table; a migration run — at the app's start,
    or `alembic upgrade` from the shell through migrations/env.py — keeps foreign keys off meanwhile,
    so the drop deletes no deal by cascade."""
    url = f"sqlite:///{tmp_path / 'rebuild.sqlite'}"
    engine = make_engine(url)
    upgrade(engine, str(tmp_path))
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO users (username, name_key, password_hash, session_token, failed_logins,"
                                   " created) VALUES ('ann', 'ann', 'x', 'token', 0, '2026-12-01 12:00:00')"))
        connection.execute(sa.text(
            "INSERT INTO deals (id, owner_id, record, rules, custom_rules, level, trump, banker, complete, tricks,"
            " source_kind, created) VALUES ('0123456789abcdef', 1, '{}', 'standard', 0, '2', 'S', 0, 1, 25,"
            " 'import', '2026-12-01 12:00:00')"))
    migrations = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, migrations, ignore=shutil.ignore_patterns("__pycache__"))
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    (migrations / "versions" / "9999_rebuild_users.py").write_text(REBUILD_USERS.format(head=head))
    monkeypatch.setattr("trainer.web.db.MIGRATIONS", migrations)
    if run_from == "start":
        upgrade(engine, str(tmp_path))
    else:
        shell_config = alembic_config()
        shell_config.set_main_option("sqlalchemy.url", url)
        command.upgrade(shell_config, "head")
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "9999"
        assert connection.execute(sa.text("SELECT count(*) FROM deals WHERE owner_id = 1")).scalar() == 1
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1  # on again for the app
    engine.dispose()


def test_0012_keeps_the_runs_and_makes_a_start_token_unique_per_user(blank_database: str) -> None:
    engine = make_engine(blank_database)
    run = ("INSERT INTO drill_runs (user_id, drill_id, deal_pk, seat, seed, checkpoints, cursor, status,"
           " started{token}) VALUES (:user, 'trumps', 1, 0, 7, '[4, 8]', 0, 'active', '2026-12-02 12:00:00'{value})")
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0011")
        for name in ("ann", "bob"):
            connection.execute(sa.text("INSERT INTO users (username, name_key, password_hash, session_token,"
                                       " failed_logins, created) VALUES (:name, :name, 'x', :name, 0,"
                                       " '2026-12-02 12:00:00')"), {"name": name})
        connection.execute(sa.text(
            "INSERT INTO deals (id, owner_id, record, rules, custom_rules, level, trump, banker, complete, tricks,"
            " source_kind, created) VALUES ('0123456789abcdef', NULL, '{}', 'standard', false, '2', 'S', 0, true,"
            " 25, 'import', '2026-12-02 12:00:00')"))
        connection.execute(sa.text(run.format(token="", value="")), {"user": 1})
        command.upgrade(alembic_config(connection), "0012")
    assert "start_token" in {column["name"] for column in sa.inspect(engine).get_columns("drill_runs")}
    tokened = run.format(token=", start_token", value=", :token")
    with engine.begin() as connection:
        assert connection.execute(sa.text("SELECT id, start_token FROM drill_runs")).all() == [(1, None)]
        connection.execute(sa.text(run.format(token="", value="")), {"user": 1})  # no token: as many as made
        connection.execute(sa.text(tokened), {"user": 1, "token": "t" * 22})
        connection.execute(sa.text(tokened), {"user": 2, "token": "t" * 22})  # another's form: their own run
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as connection:
        connection.execute(sa.text(tokened), {"user": 1, "token": "t" * 22})  # the same form again: refused
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0011")
    assert "start_token" not in {column["name"] for column in sa.inspect(engine).get_columns("drill_runs")}
    with engine.begin() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM drill_runs")).scalar() == 4
        command.upgrade(alembic_config(connection), "head")
    assert _differences(engine) == []
    engine.dispose()


def test_0013_keeps_the_answers_and_adds_the_counting_modes(blank_database: str) -> None:
    """Answers stored before keep their values (no pace, no flash time); the best streaks and flash levels are
    per user (a second row for the same user and quantity is refused); down and up again."""
    engine = make_engine(blank_database)
    attempt = ("INSERT INTO attempts (run_id, user_id, checkpoint, question, question_type, expected, given, correct,"
               " ms, position, seat, deal_pk, created) VALUES (1, 1, 0, '{}', 'trumps_unseen', '3', '3', true, 900,"
               " '2.4', 0, 1, '2026-12-02 12:00:00')")
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0012")
        connection.execute(sa.text("INSERT INTO users (username, name_key, password_hash, session_token,"
                                   " failed_logins, created) VALUES ('ann', 'ann', 'x', 'ann', 0, '2026-12-02 12:00:00')"))
        connection.execute(sa.text(
            "INSERT INTO deals (id, owner_id, record, rules, custom_rules, level, trump, banker, complete, tricks,"
            " source_kind, created) VALUES ('0123456789abcdef', NULL, '{}', 'standard', false, '2', 'S', 0, true,"
            " 25, 'import', '2026-12-02 12:00:00')"))
        connection.execute(sa.text("INSERT INTO drill_runs (user_id, drill_id, deal_pk, seat, seed, checkpoints, cursor,"
                                   " status, started) VALUES (1, 'trumps', 1, 0, 7, '[4]', 4, 'active',"
                                   " '2026-12-02 12:00:00')"))
        connection.execute(sa.text(attempt))
        command.upgrade(alembic_config(connection), "0013")
    assert [d[0] for d in _differences(engine)] == ["add_column"]  # 0014's daily asks, to come
    best = "INSERT INTO running_bests (user_id, quantity, best, reached) VALUES (1, 'trumps_unseen', 4, '2026-12-03')"
    with engine.begin() as connection:
        assert connection.execute(sa.text("SELECT ms, pace, flash_ms FROM attempts")).all() == [(900, None, None)]
        connection.execute(sa.text(best))
        connection.execute(sa.text("INSERT INTO flash_levels (user_id, ms, in_row, level) VALUES (1, 1200, 2, NULL)"))
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as connection:
        connection.execute(sa.text(best))
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0012")
    assert not {"running_bests", "flash_levels"} & set(sa.inspect(engine).get_table_names())
    assert {"pace", "flash_ms"}.isdisjoint(column["name"] for column in sa.inspect(engine).get_columns("attempts"))
    with engine.begin() as connection:
        assert connection.execute(sa.text("SELECT ms, correct FROM attempts")).all() == [(900, True)]
        command.upgrade(alembic_config(connection), "head")
    assert _differences(engine) == []
    engine.dispose()


def test_0014_adds_the_daily_asks_and_keeps_the_runs(blank_database: str) -> None:
    engine = make_engine(blank_database)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0013")
        connection.execute(sa.text("INSERT INTO users (username, name_key, password_hash, session_token,"
                                   " failed_logins, created) VALUES ('ann', 'ann', 'x', 'ann', 0, '2026-12-03 12:00:00')"))
        connection.execute(sa.text(
            "INSERT INTO deals (id, owner_id, record, rules, custom_rules, level, trump, banker, complete, tricks,"
            " source_kind, created) VALUES ('0123456789abcdef', NULL, '{}', 'standard', false, '2', 'S', 0, true,"
            " 25, 'import', '2026-12-03 12:00:00')"))
        connection.execute(sa.text("INSERT INTO drill_runs (user_id, drill_id, deal_pk, seat, seed, checkpoints, cursor,"
                                   " status, started) VALUES (1, 'daily', 1, 0, 7, '[4, 8]', 0, 'active',"
                                   " '2026-12-03 12:00:00')"))
        command.upgrade(alembic_config(connection), "0014")
    assert _differences(engine) == []
    asks = '[{"question": {}, "kind": "new", "retry_of": null}]'
    with engine.begin() as connection:
        assert connection.execute(sa.text("SELECT id, asks FROM drill_runs")).all() == [(1, None)]
        connection.execute(sa.text("UPDATE drill_runs SET asks = :asks"), {"asks": asks})
        assert connection.execute(sa.text("SELECT count(*) FROM drill_runs WHERE asks IS NOT NULL")).scalar() == 1
        command.downgrade(alembic_config(connection), "0013")
    assert "asks" not in {column["name"] for column in sa.inspect(engine).get_columns("drill_runs")}
    with engine.begin() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM drill_runs")).scalar() == 1
        command.upgrade(alembic_config(connection), "head")
    assert _differences(engine) == []
    engine.dispose()
