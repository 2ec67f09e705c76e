"""Drill cursors written behind (`trainer.web.cursors`): a step answers at once, the database has the
cursor within the delay, at the next read of the run, and when the process exits; the cursor never
moves back; a run finished elsewhere stops the steps of a process that still remembers it."""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import sqlalchemy as sa

from trainer.web.cursors import CursorWriter
from trainer.web.db import WriteLock
from trainer.web.models import Attempt, DrillRun

from .drilling import HX, at_value, run_row, start


def _stored_cursor(app, run_id: int) -> int:
    """The cursor as the database has it now, without asking the app to write anything first."""
    with app.extensions["jipai_engine"].connect() as connection:
        return connection.execute(sa.select(DrillRun.cursor).where(DrillRun.id == run_id)).scalar_one()


def _sign_in(client, name: str = "alice") -> None:
    response = client.post("/auth/register", data={"username": name, "password": "correct horse",
                                                   "confirm": "correct horse"})
    if response.status_code != 303:
        response = client.post("/auth/login", data={"username": name, "password": "correct horse"})
    assert response.status_code == 303, response.text


def _drilling(make_app, delay: float):
    """An app writing cursors `delay` seconds behind, a signed-in client, and a run started."""
    app = make_app(CURSOR_WRITE_DELAY=delay)
    client = app.test_client()
    _sign_in(client)
    return app, client, start(client, "trumps")


def test_a_step_answers_before_the_database_has_its_cursor(make_app) -> None:
    app, client, run_id = _drilling(make_app, 60)
    for at in range(3):
        assert at_value(client.post(f"/runs/{run_id}/step?at={at}", headers=HX).text) == at + 1
    assert _stored_cursor(app, run_id) == 0  # still pending
    page = client.get(f"/runs/{run_id}", headers=HX)  # a read of the run writes what is pending first
    assert at_value(page.text) == 3 and _stored_cursor(app, run_id) == 3


def test_the_cursor_reaches_the_database_within_the_delay(make_app) -> None:
    app, client, run_id = _drilling(make_app, 0.05)
    client.post(f"/runs/{run_id}/step?at=0", headers=HX)
    deadline = time.monotonic() + 5
    while _stored_cursor(app, run_id) != 1:
        assert time.monotonic() < deadline, "the cursor was not written"
        time.sleep(0.02)


def test_with_no_delay_every_step_is_written_before_it_answers(make_app) -> None:
    app, client, run_id = _drilling(make_app, 0)
    client.post(f"/runs/{run_id}/step?at=0", headers=HX)
    assert _stored_cursor(app, run_id) == 1


def test_a_step_without_javascript_is_written_before_the_redirect(make_app) -> None:
    """The page it is sent to may be served by another process, which must find the cursor there."""
    app, client, run_id = _drilling(make_app, 60)
    assert client.post(f"/runs/{run_id}/step", data={"at": 0}).status_code == 303
    assert _stored_cursor(app, run_id) == 1


def test_an_older_tab_does_not_move_the_run_back(app, alice) -> None:
    run_id = start(alice, "trumps")
    for at in range(5):
        alice.post(f"/runs/{run_id}/step?at={at}", headers=HX)
    older = alice.post(f"/runs/{run_id}/step?at=1", headers=HX)  # a tab left at play 1
    assert older.status_code == 200 and at_value(older.text) == 2  # that tab goes on from where it was
    assert run_row(app, run_id).cursor == 5
    assert at_value(alice.get(f"/runs/{run_id}", headers=HX).text) == 5  # the run resumes at the furthest play


def test_a_run_finished_by_another_process_stops_its_steps(make_app) -> None:
    """Process A remembers the run and steps it from memory; process B ends it. A's next cursor write
    changes nothing, so A forgets the run, and its next step finds the run over."""
    first = make_app(CURSOR_WRITE_DELAY=60)
    second = make_app(CURSOR_WRITE_DELAY=60)
    a, b = first.test_client(), second.test_client()
    _sign_in(a)
    _sign_in(b)
    run_id = start(a, "trumps")
    a.post(f"/runs/{run_id}/step?at=0", headers=HX)
    assert b.post(f"/runs/{run_id}/finish").status_code == 303
    shown = a.post(f"/runs/{run_id}/step?at=1", headers=HX)  # from memory: A cannot know yet
    assert at_value(shown.text) == 2
    first.extensions["jipai_cursors"].flush()  # the write finds the run finished: A forgets it
    over = a.post(f"/runs/{run_id}/step?at=2", headers=HX)
    assert over.headers["HX-Redirect"] == f"/runs/{run_id}/summary"
    assert run_row(first, run_id).status == "done"


def test_a_run_id_given_again_is_not_moved_or_ended_by_what_was_remembered_of_the_old_run(make_app) -> None:
    """SQLite gives the highest run id again once its run is deleted (with its deal or its user). A
    process that remembers the old run, and an old tab stepping it, must not touch the new one."""
    first, second = make_app(CURSOR_WRITE_DELAY=60), make_app(CURSOR_WRITE_DELAY=60)
    alice, bob = first.test_client(), second.test_client()
    _sign_in(alice)
    _sign_in(bob, "bob")
    run_id = start(alice, "trumps")
    checkpoints = run_row(first, run_id).checkpoints
    for at in range(checkpoints[0]):
        alice.post(f"/runs/{run_id}/step?at={at}", headers=HX)
    page = alice.get(f"/runs/{run_id}", headers=HX).text
    index = re.search(r'name="checkpoint" value="(\d+)"', page).group(1)
    answer = "0" if 'type="number"' in page else re.search(r'name="answer" value="([^"]*)"', page).group(1)
    assert 'class="verdict"' in alice.post(f"/runs/{run_id}/answer", data={"checkpoint": index, "answer": answer},
                                           headers=HX).text
    first.extensions["jipai_cursors"].flush()
    with first.extensions["jipai_engine"].begin() as connection:  # as deleting the deal does
        connection.execute(sa.delete(Attempt).where(Attempt.run_id == run_id))
        connection.execute(sa.delete(DrillRun).where(DrillRun.id == run_id))
    given = start(bob, "trumps")
    if given != run_id:  # PostgreSQL never gives an id twice: make it so, as SQLite does
        with second.extensions["jipai_engine"].begin() as connection:
            connection.execute(sa.update(DrillRun).where(DrillRun.id == given).values(id=run_id))
    bobs = run_row(second, run_id)
    for at in (checkpoints[0], checkpoints[-1]):  # alice's old tab: a step, then Continue at the end
        alice.post(f"/runs/{run_id}/step?at={at}", headers=HX)
    first.extensions["jipai_cursors"].flush()
    after = run_row(second, run_id)
    assert (after.user_id, after.cursor, after.status) == (bobs.user_id, 0, "active")
    assert alice.post(f"/runs/{run_id}/step?at=0", headers=HX).status_code == 404  # alice has no run there now


def test_a_failed_write_is_tried_again(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'cursors.sqlite'}")
    writer = CursorWriter(engine, WriteLock(None), delay=60)
    writer.move(7, 1, 1234, 3)
    try:
        writer.flush()  # no table yet
    except sa.exc.OperationalError:
        pass
    else:
        raise AssertionError("the write should have failed")
    assert writer.pending(7) == 3
    DrillRun.__table__.create(engine)  # type: ignore[attr-defined]
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO drill_runs (id, user_id, drill_id, deal_pk, seat, seed, checkpoints, "
                                   "cursor, status, started) VALUES (7, 1, 'trumps', 1, 0, 1234, '[9]', 0, 'active', "
                                   "CURRENT_TIMESTAMP)"))
    writer.close()
    assert writer.pending(7) is None
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT cursor FROM drill_runs WHERE id = 7")).scalar_one() == 3
    engine.dispose()


def test_a_batch_larger_than_one_statement_moves_every_run_it_may_and_names_the_rest(tmp_path: Path) -> None:
    """1,201 moves (three statements' worth): each run moves on unless it is finished, another
    user's, reseeded or already further; those are the ones reported stale."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'cursors.sqlite'}")
    DrillRun.__table__.create(engine)  # type: ignore[attr-defined]
    runs = range(1, 1202)
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO drill_runs (id, user_id, drill_id, deal_pk, seat, seed, checkpoints, "
                                   "cursor, status, started) VALUES (:id, 1, 'trumps', 1, 0, :seed, '[99]', :cursor, "
                                   ":status, CURRENT_TIMESTAMP)"),
                           [{"id": run, "seed": 10 * run, "cursor": 9 if run % 7 == 0 else 0,
                             "status": "finished" if run % 5 == 0 else "active"} for run in runs])
    stale: list[int] = []
    writer = CursorWriter(engine, WriteLock(None), delay=60, on_stale=stale.append)
    for run in runs:
        writer.move(run, 2 if run % 11 == 0 else 1, 10 * run + (run % 13 == 0), 5)
    writer.close()
    blocked = [run for run in runs if run % 5 == 0 or run % 7 == 0 or run % 11 == 0 or run % 13 == 0]
    assert stale == blocked
    with engine.connect() as connection:
        cursors = dict(connection.execute(sa.text("SELECT id, cursor FROM drill_runs")).all())
    assert cursors == {run: (9 if run % 7 == 0 else 0) if run in blocked else 5 for run in runs}
    engine.dispose()


def test_pending_moves_are_written_when_the_process_exits(make_app, tmp_path: Path, database_url: str,
                                                          starter_dir: Path) -> None:
    """A graceful restart loses nothing: the moves still pending are written at exit."""
    make_app()  # the schema, and the tables emptied after the test
    script = textwrap.dedent(f"""
        from trainer.web import create_app
        app = create_app({{"TESTING": True, "SECRET_KEY": "exit test", "INSTANCE_PATH": {str(tmp_path / "exit")!r},
                          "DATABASE_URL": {database_url!r}, "STARTER_DEALS_DIR": {str(starter_dir)!r},
                          "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                          "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000", "CURSOR_WRITE_DELAY": 600}})
        client = app.test_client()
        client.post("/auth/register", data={{"username": "exiter", "password": "correct horse",
                                            "confirm": "correct horse"}})
        run_id = int(client.post("/drills/trumps/start").headers["Location"].rsplit("/", 1)[1])
        for at in range(4):
            client.post(f"/runs/{{run_id}}/step?at={{at}}", headers={{"HX-Request": "true"}})
        print(run_id)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False,
                          cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr
    run_id = int(done.stdout.split()[-1])
    engine = sa.create_engine(database_url)
    with engine.connect() as connection:
        assert connection.execute(sa.select(DrillRun.cursor).where(DrillRun.id == run_id)).scalar_one() == 4
    engine.dispose()


def test_a_step_on_a_deal_deleted_since_is_a_404_not_an_error(app, alice) -> None:
    """The run is remembered, but its deal is gone from the database and from the process's deals."""
    run_id = start(alice, "trumps")
    alice.post(f"/runs/{run_id}/step?at=0", headers=HX)
    plan = app.extensions["jipai_run_plans"].get(run_id).plan
    app.extensions["jipai_cursors"].flush()
    with app.extensions["jipai_engine"].begin() as connection:  # a shared deal, so straight in the database
        connection.execute(sa.delete(Attempt).where(Attempt.run_id == run_id))
        connection.execute(sa.delete(DrillRun).where(DrillRun.id == run_id))
        connection.execute(sa.text("DELETE FROM deals WHERE pk = :pk"), {"pk": plan.deal_pk})
    app.extensions["jipai_deal_cache"]._items.pop(plan.deal_key)
    assert alice.post(f"/runs/{run_id}/step?at=1", headers=HX).status_code == 404
