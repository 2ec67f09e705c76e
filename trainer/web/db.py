"""The database: one engine per app, one session per request, migrations to head at start.

`DATABASE_URL` picks the database (SQLite file in the instance folder by default, in WAL mode, with
`write_lock()` to queue writers; PostgreSQL through psycopg 3). Views call `get_session()`; the session closes when the request
ends. `upgrade(engine)` runs the alembic migrations in `migrations/` to head, holding a lock so
that several workers starting at once migrate once.
"""
from __future__ import annotations

import fcntl
import logging
import os
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app, g
from sqlmodel import Session

from trainer.paths import PROJECT_ROOT

MIGRATIONS = PROJECT_ROOT / "migrations"
START_LOCKS = {"migrate": 0x6A69_7061_6900, "library": 0x6A69_7061_6901}
"""The start-up locks by name ("jipai" and a number): PostgreSQL advisory lock keys; on SQLite the files
`.<name>.lock` in the instance folder. Migrating and loading the starter library have locks of their own,
so that a worker can migrate (and serve) while another loads the library."""
LOCK_POLL = 0.05
"""Seconds between tries for a start-up lock that another process holds."""


def normalise_url(url: str) -> str:
    """A SQLAlchemy URL with a driver we ship: `postgres://` and `postgresql://` use psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def private_sqlite_file(url: str) -> None:
    """Create the SQLite file of `url` (when missing and its folder exists) readable and writable by
    its owner only (0600: it holds the password hashes); SQLite gives its `-wal` and `-shm` files the
    database's mode. Files of an older start that others may read are made private (when ours)."""
    parsed = sa.make_url(url)
    path = parsed.database
    if not path or path == ":memory:" or parsed.query.get("uri") or not os.path.isdir(os.path.dirname(path) or "."):
        return
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))  # an empty file is a new database to SQLite
    for name in (path, f"{path}-wal", f"{path}-shm"):
        if os.path.exists(name):
            status = os.stat(name)
            if status.st_mode & 0o077 and status.st_uid == os.getuid():
                os.chmod(name, 0o600)


def make_engine(url: str, **options: Any) -> sa.Engine:
    """An engine for `url` (`options` for `create_engine`, e.g. the pool's size); SQLite connections
    get WAL, foreign keys and a busy timeout, and the file is private (`private_sqlite_file`)."""
    url = normalise_url(url)
    if url.startswith("sqlite"):
        private_sqlite_file(url)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 15}, **options)

        @sa.event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, **options)


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """The alembic config for `migrations/`; with a connection, migrations run on it."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


@contextmanager
def start_lock(engine: sa.Engine, lock_dir: str, name: str = "migrate") -> Iterator[sa.Connection]:
    """A connection held under the start-up lock `name` (`START_LOCKS`), which one process (or thread)
    at a time can hold. Waiting for it tries again every `LOCK_POLL` seconds with `time.sleep`, so
    that a gevent worker waiting for another's lock goes on serving its requests."""
    key = START_LOCKS[name]
    with engine.connect() as connection:
        if engine.dialect.name == "postgresql":
            while not connection.execute(sa.text("SELECT pg_try_advisory_lock(:key)"), {"key": key}).scalar():
                connection.commit()
                time.sleep(LOCK_POLL)
            connection.commit()
            try:
                yield connection
            finally:
                connection.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": key})
                connection.commit()
        else:
            os.makedirs(lock_dir, exist_ok=True)
            with open(os.path.join(lock_dir, f".{name}.lock"), "w") as lock:
                while True:
                    try:
                        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        time.sleep(LOCK_POLL)
                yield connection


@contextmanager
def migrating(connection: sa.Connection) -> Iterator[None]:
    """Run migrations on `connection` and commit them; on SQLite with foreign keys off meanwhile and
    checked before the commit.

    Alembic's batch mode changes a SQLite table by building a copy and dropping the original, and
    with foreign keys on the drop deletes, by cascade, every row that refers to it (a user's deals,
    runs and answers). Both the app's start (`upgrade`) and `alembic upgrade` from the shell
    (`migrations/env.py`) migrate through this."""
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # (outside a transaction, or it does nothing)
    try:
        yield
        if sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first() is not None:
            raise RuntimeError("the migrations left rows that refer to rows that do not exist")
        connection.commit()
    finally:
        if sqlite:
            connection.rollback()
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def upgrade(engine: sa.Engine, lock_dir: str, logger: logging.Logger | None = None) -> tuple[str | None, str | None]:
    """Run the migrations to head (a no-op when the schema is current), telling `logger` as they begin; the
    schema's revision before and after (None: an empty database)."""
    with start_lock(engine, lock_dir) as connection:
        before = MigrationContext.configure(connection).get_current_revision()
        connection.rollback()
        if logger is not None and before != ScriptDirectory(str(MIGRATIONS)).get_current_head():
            logger.info("database: %s, migrating from %s…", _shown_url(engine),
                        f"revision {before}" if before else "empty")
        with migrating(connection):
            command.upgrade(alembic_config(connection), "head")
        return before, MigrationContext.configure(connection).get_current_revision()


class WriteLock:
    """One writer at a time on a SQLite database, across threads and processes, queued by the kernel.

    SQLite lets one connection write at a time; the others wait in its busy handler, which sleeps
    1, 2, 5, 10, 15 … ms between tries, so under load a write that should wait 0.1 ms waits 10 or
    100. Holding this lock (a thread lock, then `flock` on a file in the instance folder, opened
    once per process) around a short write transaction makes writers queue and wake as soon as the
    lock is free. PostgreSQL needs none: the lock is a no-op there.
    """

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._thread_lock = threading.Lock()
        self._fd = -1
        self._pid = 0

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the lock for the block."""
        if self.path is None:
            yield
            return
        with self._thread_lock:
            if self._pid != os.getpid():  # opened after a fork, so that processes do not share it
                self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
                self._pid = os.getpid()
                weakref.finalize(self, os.close, self._fd)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)


def write_lock() -> WriteLock:
    """The current app's write lock (see `WriteLock`): `with write_lock().held(): …write, commit…`."""
    return current_app.extensions["jipai_write_lock"]


def get_engine() -> sa.Engine:
    """The current app's engine."""
    return current_app.extensions["jipai_engine"]


def get_session() -> Session:
    """The request's session, opened on first use and closed when the request ends."""
    if "db_session" not in g:
        g.db_session = Session(get_engine(), expire_on_commit=False)
    return g.db_session


def store(*rows: Any) -> bool:
    """Add `rows` to the request's session and commit under the write lock; whether stored (what a unique
    constraint refuses is rolled back)."""
    session = get_session()
    session.add_all(rows)
    try:
        with write_lock().held():
            session.commit()
    except sa.exc.IntegrityError:
        session.rollback()
        return False
    return True


BEGIN_IMMEDIATE = sa.text("BEGIN IMMEDIATE")


@contextmanager
def writing() -> Iterator[Session]:
    """A write transaction on the request's session, begun before the block reads anything and committed at
    its end, under the write lock: for a read-modify-write that no concurrent request may interleave (grading
    an answer). On SQLite it is `BEGIN IMMEDIATE` (every other writer waits until the commit; what the block
    reads stays true); on PostgreSQL the block locks the rows it reads (`SELECT … FOR UPDATE`) before reading
    them. The request's read so far ends first. An error (what a unique constraint refuses) rolls back and
    is raised."""
    session = get_session()
    session.commit()  # ends the request's read: the transaction starts afresh
    with write_lock().held():
        try:
            if session.get_bind().dialect.name == "sqlite":
                session.execute(BEGIN_IMMEDIATE)
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def get_connection() -> sa.Connection:
    """The request's Core connection (no ORM), opened on first use and closed when the request
    ends: for hot paths such as a drill step, which read and write a row or two."""
    if "db_connection" not in g:
        g.db_connection = get_engine().connect()
    return g.db_connection


def close_session(_error: BaseException | None = None) -> None:
    """Close the request's session and connection (a teardown; an uncommitted transaction rolls back)."""
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
    connection = g.pop("db_connection", None)
    if connection is not None:
        connection.close()


def init_app(app: Flask) -> None:
    """Create the engine, migrate to head when `MIGRATE_ON_START`, and close sessions after requests."""
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["jipai_engine"] = engine
    sqlite = engine.dialect.name == "sqlite"
    app.extensions["jipai_write_lock"] = WriteLock(os.path.join(app.instance_path, ".write.lock") if sqlite else None)
    app.teardown_appcontext(close_session)
    if app.config["MIGRATE_ON_START"]:
        before, after = upgrade(engine, app.instance_path, app.logger)
        if before == after:
            app.logger.info("database: %s, schema current (revision %s)", _shown_url(engine), after)
        else:
            app.logger.info("database: %s, migrated from %s to revision %s", _shown_url(engine),
                            f"revision {before}" if before else "empty", after)


def _shown_url(engine: sa.Engine) -> str:
    """The database's URL as the log shows it (no password)."""
    return engine.url.render_as_string(hide_password=True)
