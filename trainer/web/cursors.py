"""Drill run cursors, written behind: a drill step moves its run's cursor in memory at once, and the
database catches up in one transaction for all the runs that moved, a fraction of a second later.

A run's cursor says how far the run has been shown: it only ever grows (`cursor < to`), so writes
may be late, batched and repeated without harm, and a step from an older tab cannot move a run back.
A step answers without waiting for the database; `flush()` writes what is pending now, and every
read of a run in this process writes that run's pending move first (`flush(run_id)`), so this
process never reads an older cursor than it wrote. What another process wrote reaches the database
within `delay` seconds. The pending moves
are written when the process exits normally (a graceful restart); a process killed outright loses at
most the last `delay` seconds of cursor moves — the run resumes that many plays earlier. With
`delay = 0` every move is written before the step answers.
"""
from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
import weakref
from collections.abc import Callable

import sqlalchemy as sa

from trainer.web.db import WriteLock
from trainer.web.models import DrillRun

log = logging.getLogger(__name__)

RUNS = DrillRun.__table__  # type: ignore[attr-defined]
MOVES_PER_STATEMENT = 500
"""Runs moved by one statement at most (four parameters each: well within SQLite's limit)."""


def moved(moves: list[tuple[int, tuple[int, int, int]]]) -> sa.Update:
    """One statement moving each run of `moves` (run id, (user, seed, to)) on to `to` (never back; a
    finished run stays where it ended) and returning the ids of the runs it moved: one round trip
    for the whole batch, so that a worker waiting on the database between other requests' turns
    waits once, not once per run. The owner and the seed are matched too: a run id freed by a
    deletion may be given to a new run, which a move recorded for the old one must not touch."""
    table = (sa.values(sa.column("run", RUNS.c.id.type), sa.column("user", RUNS.c.user_id.type),
                       sa.column("run_seed", RUNS.c.seed.type), sa.column("to", RUNS.c.cursor.type), name="moves")
             .data([(run_id, user_id, seed, to) for run_id, (user_id, seed, to) in moves]).cte("moves"))
    return (sa.update(RUNS)
            .where(RUNS.c.id == table.c.run, RUNS.c.user_id == table.c.user, RUNS.c.seed == table.c.run_seed,
                   RUNS.c.cursor < table.c.to, RUNS.c.status == "active")
            .values(cursor=table.c.to).returning(RUNS.c.id))


class CursorWriter:
    """The cursor moves of one app process not yet in the database, and the timer that writes them.

    The writer has an engine of its own (one connection is enough: its writes are one at a time), so
    that it never waits for the requests' pool while it holds the write lock that requests wait for.

    `move(run, user, seed, to)` records that run `run` (of user `user`, with seed `seed`) has been
    shown up to `to` plays; within `delay` seconds a
    timer thread writes every recorded move in one transaction (under the SQLite write lock).
    `on_stale(run)` is told of each run whose move changed nothing (finished meanwhile, or moved
    further by another process), so that what the process remembers of it can be dropped.
    """

    def __init__(self, engine: sa.Engine, lock: WriteLock, delay: float,
                 on_stale: Callable[[int], None] = lambda run: None) -> None:
        self.engine = engine
        self.lock = lock
        self.delay = delay
        self.on_stale = on_stale
        self._pending: dict[int, tuple[int, int, int]] = {}
        """run id: (user, seed, furthest play shown)"""
        self._writing: frozenset[int] = frozenset()
        self._guard = threading.Lock()
        self._flushing = threading.Lock()
        self._timer: threading.Timer | None = None
        self._pid = 0

    def move(self, run_id: int, user_id: int, seed: int, to: int) -> None:
        """Record that run `run_id` has been shown up to `to` plays; written at once when `delay` is 0."""
        if self.delay <= 0:
            self._write({run_id: (user_id, seed, to)})
            return
        with self._guard:
            known = self._pending.get(run_id)
            if known is None or known[:2] != (user_id, seed) or known[2] < to:
                self._pending[run_id] = (user_id, seed, to)
            if self._timer is None:
                if self._pid != os.getpid():  # first move in this process (gunicorn forks the workers)
                    self._pid = os.getpid()
                    atexit.register(_flush_at_exit, weakref.ref(self))
                self._timer = threading.Timer(self.delay, self._flush_from_timer)
                self._timer.daemon = True
                self._timer.start()

    def pending(self, run_id: int) -> int | None:
        """The cursor recorded for `run_id` and not yet written, if any."""
        with self._guard:
            known = self._pending.get(run_id)
        return known[2] if known is not None else None

    def drop(self, run_id: int) -> None:
        """Forget the pending move of `run_id` (the caller has just moved the run further itself)."""
        with self._guard:
            self._pending.pop(run_id, None)

    def flush(self, run_id: int | None = None) -> None:
        """Write the recorded moves now: all of them, or only `run_id`'s (a no-op when there are
        none). A flush waits for a write in progress, so that a move recorded before the call is in
        the database when it returns."""
        with self._guard:
            if run_id is not None and run_id not in self._pending and run_id not in self._writing:
                return
        with self._flushing:
            with self._guard:
                if run_id is None:
                    moves, self._pending = self._pending, {}
                else:
                    moves = {run_id: self._pending.pop(run_id)} if run_id in self._pending else {}
                self._writing = frozenset(moves)
            if not moves:
                return
            try:
                self._write(moves)
            except Exception:
                log.exception("could not write %d drill cursors; they will be tried again", len(moves))
                for moved, (user_id, seed, to) in moves.items():
                    self.move(moved, user_id, seed, to)
                raise
            finally:
                with self._guard:
                    self._writing = frozenset()

    def _flush_from_timer(self) -> None:
        with self._guard:
            self._timer = None
        with contextlib.suppress(Exception):  # logged by flush, and the moves are tried again later
            self.flush()

    def close(self) -> None:
        """Stop the timer, write what is pending and close the writer's connections (for an app
        being shut down)."""
        with self._guard:
            timer = self._timer
        if timer is not None:
            timer.cancel()
            if timer is not threading.current_thread():
                timer.join()
        self.flush()
        self.engine.dispose()

    def _write(self, moves: dict[int, tuple[int, int, int]]) -> None:
        ordered = sorted(moves.items())
        with self.engine.connect() as connection, self.lock.held():  # the connection first, as requests do
            changed = set()
            for start in range(0, len(ordered), MOVES_PER_STATEMENT):
                changed.update(connection.execute(moved(ordered[start:start + MOVES_PER_STATEMENT])).scalars())
            connection.commit()
        for run_id in sorted(moves.keys() - changed):
            self.on_stale(run_id)


def _flush_at_exit(ref: weakref.ref[CursorWriter]) -> None:
    """Write a live writer's pending moves as the process exits."""
    writer = ref()
    if writer is not None:
        with contextlib.suppress(Exception):  # logged by flush; nothing more can be done at exit
            writer.flush()
