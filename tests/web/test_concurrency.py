"""Concurrent requests on a real threaded server (`servers.serving`), their starts lined up by a barrier: no
grading update is lost — one player answering in two runs at once, several players answering one position at
once: every tally equals its attempts and every rating chain goes on from the value stored before — and every
"make the next thing" POST sent several times at once (Start, today's start, the last Continue, Try again,
a review's retry) makes one thing, every request going to it."""
from __future__ import annotations

import re
import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
import sqlalchemy as sa
from flask import Flask
from sqlmodel import col, select

from trainer.drills.daily import OVERALL
from trainer.web.daily import SUIT_TALLY, TYPE_TALLY, aware, local_day
from trainer.web.models import Attempt, DailySession, DailySettings, DrillRun, PositionRating, PracticeDay, UserSkill

from .daily_helpers import answer_item, answer_only, install_clock, run_id_of
from .drilling import HX, drive, run_row, session, start
from .servers import Answer, Browser, Host, serving

T = TypeVar("T")
WAIT = 120
"""Seconds a thread waits at the barrier for the others (then the test fails: one of them is stuck)."""
TABS = 2
"""Runs one player answers in at once."""
ANSWERS = 12
"""Answers given in each tab (a run of `everything` has 8 at most: a tab starts another when one ends)."""
TAB_DRILLS = ("everything", "points")
"""The drill each tab runs."""
PLAYERS = 3
"""Players answering one position at once."""
TWICE = 3
"""How many times at once a "make the next thing" POST is sent."""
SIGNAL_DEALS = Path(__file__).resolve().parents[2] / "drills" / "deals" / "signals"


@pytest.fixture
def served(make_app: Callable[..., Flask]) -> Iterator[tuple[Flask, str]]:
    """The test app served on a loopback port: (the app, its URL)."""
    app = make_app()
    with serving(app) as base:
        yield app, base


def signed_up(base: str, name: str) -> Host:
    """A new browser at `base`, registered (and so signed in) as `name`."""
    host = Browser().on(base)
    password = "correct horse"
    answer = host.post("/auth/register", data={"username": name, "password": password, "confirm": password})
    assert answer.status_code == 303, answer.text[:300]
    return host


def in_threads(count: int, call: Callable[[int], T], barrier: threading.Barrier | None = None) -> list[T]:
    """`call(0)` … `call(count - 1)`, each in a thread of its own, all released at once by `barrier` (a new
    one when none is given; a call may wait at it again); their results, the first error raised."""
    barrier = barrier or threading.Barrier(count, timeout=WAIT)
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = call(index)
        except BaseException as error:  # noqa: BLE001 (raised in the test's thread below)
            errors.append(error)
            barrier.abort()  # the others stop waiting for this one

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


@dataclass
class Together:
    """A host whose answers wait at a barrier for the other threads' answers, so that they reach the server
    at once (`drive` plays on it)."""

    host: Host
    barrier: threading.Barrier

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        """GET `path`."""
        return self.host.get(path, headers)

    def post(self, path: str, data: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> Answer:
        """POST `path`; an answer once every thread is about to answer."""
        if path.endswith("/answer"):
            self.barrier.wait()
        return self.host.post(path, data, headers)


def assert_nothing_lost(app: Flask) -> dict[str, int]:
    """Every stored tally equals its attempts and every rating chain is whole; what was counted.

    Per player: `overall` and each skill count every attempt (answers, right); each practice-day key (the
    skill, `overall`, the question type, the suit) counts the day's attempts (asked, right, time), the
    skill's and overall's day rating the stored one. Each position's rating counts its attempts. Each skill's
    attempts keep the rating before and after: starting at 1500, each update starts from the value the
    previous one stored (two from the same value: a lost update), and the last is the stored rating."""
    with session(app) as db:
        tried = list(db.exec(select(Attempt).order_by(col(Attempt.id))).all())
        runs = {run.id: run for run in db.exec(select(DrillRun)).all()}
        skills = {(row.user_id, row.skill): row for row in db.exec(select(UserSkill)).all()}
        days = {(row.user_id, row.day, row.skill): row for row in db.exec(select(PracticeDay)).all()}
        positions = {(row.deal_pk, row.seat, row.plays, row.question_type): row
                     for row in db.exec(select(PositionRating)).all()}
        assert not db.exec(select(DailySettings)).all()  # every day in UTC
    per_skill: dict[tuple[int, str], list[Attempt]] = defaultdict(list)
    per_day: dict[tuple[Any, ...], list[Attempt]] = defaultdict(list)
    per_position: Counter[tuple[int, int, int, str]] = Counter()
    for attempt in tried:
        assert attempt.skill is not None
        for skill in (attempt.skill, OVERALL):
            per_skill[attempt.user_id, skill].append(attempt)
        day = local_day(aware(attempt.created), None)
        keys = [attempt.skill, OVERALL, f"{TYPE_TALLY}{attempt.question_type}"]
        keys += [f"{SUIT_TALLY}{attempt.suit}"] if attempt.suit else []
        for key in keys:
            per_day[attempt.user_id, day, key].append(attempt)
        run = runs[attempt.run_id]
        per_position[run.deal_pk, run.seat, run.checkpoints[attempt.checkpoint], attempt.question_type] += 1
    assert set(skills) == set(per_skill) and set(days) == set(per_day) and set(positions) == set(per_position)
    for key, counted in per_skill.items():
        assert (skills[key].answers, skills[key].right) == (len(counted), sum(a.correct for a in counted)), key
        if key[1] != OVERALL:
            assert chain_end(counted) == skills[key].rating, key
    for (user_id, day, key), counted in per_day.items():
        row = days[user_id, day, key]
        assert (row.asked, row.right, row.ms) == (len(counted), sum(a.correct for a in counted),
                                                  sum(a.ms for a in counted)), key
        if not key.startswith((TYPE_TALLY, SUIT_TALLY)) and len({d for u, d, k in per_day if u == user_id}) == 1:
            assert row.rating == skills[user_id, key].rating, key
    for key, count in per_position.items():
        assert positions[key].answers == count, key
    return {"attempts": len(tried), "skill chains": sum(1 for _u, skill in per_skill if skill != OVERALL),
            "practice-day tallies": len(per_day), "positions": len(per_position),
            "overall answers": sum(row.answers for (_u, skill), row in skills.items() if skill == OVERALL),
            "most answers at a position": max(row.answers for row in positions.values())}


def chain_end(updates: list[Attempt]) -> float:
    """The rating a skill's updates end at, walked from 1500 by each one's rating before and after; fails
    when two start from the same value or one does not start from the value the previous one stored."""
    by_before: dict[float, Attempt] = {}
    for attempt in updates:
        assert attempt.rating_before not in by_before, f"two updates start from {attempt.rating_before}: one is lost"
        assert attempt.rating_before is not None and attempt.rating_after is not None
        by_before[attempt.rating_before] = attempt
    rating = 1500.0
    while rating in by_before:
        rating = by_before.pop(rating).rating_after or 0.0
    assert not by_before, f"updates that start from no stored value: {sorted(by_before)}"
    return rating


def test_one_player_answering_in_two_runs_at_once_loses_no_update(served) -> None:
    app, base = served
    player = signed_up(base, "alice")
    barrier = threading.Barrier(TABS, timeout=WAIT)

    def tab(number: int) -> int:
        together, answered = Together(player, barrier), 0
        while answered < ANSWERS:
            run_id = start(player, TAB_DRILLS[number])
            answered += len(drive(together, app, run_id, right=lambda index: (index + number) % 3 != 0,
                                  stop_after=ANSWERS - answered))
        return answered

    assert in_threads(TABS, tab, barrier) == [ANSWERS] * TABS
    counted = assert_nothing_lost(app)
    print("one player, two runs at once:", counted)
    assert counted["attempts"] == counted["overall answers"] == TABS * ANSWERS


def test_players_answering_one_position_at_once_lose_no_update(served) -> None:
    app, base = served
    players = [signed_up(base, f"player{number}") for number in range(PLAYERS)]
    run_ids = [start(player, "trumps") for player in players]
    first = run_row(app, run_ids[0])
    with session(app) as db:  # every player's run on the first one's deal, seat and questions
        db.execute(sa.update(DrillRun).where(col(DrillRun.id).in_(run_ids[1:]))
                   .values(deal_pk=first.deal_pk, seat=first.seat, seed=first.seed, checkpoints=first.checkpoints))
        db.commit()
    barrier = threading.Barrier(PLAYERS, timeout=WAIT)
    answered = in_threads(PLAYERS, lambda number: len(drive(Together(players[number], barrier), app, run_ids[number],
                                                            right=lambda index: (index + number) % 2 == 0)),
                          barrier)
    assert answered == [len(first.checkpoints)] * PLAYERS
    counted = assert_nothing_lost(app)
    print("players at one position at once:", counted)
    assert counted["positions"] == len(first.checkpoints)
    assert counted["most answers at a position"] == PLAYERS


def _same_run(answers: list[Answer]) -> int:
    """The one run every answer goes to."""
    run_ids = {run_id_of(answer) for answer in answers}
    assert len(run_ids) == 1 and None not in run_ids, [(answer.status_code, dict(answer.headers)) for answer in answers]
    return run_ids.pop()


def _runs(app: Flask, **where: Any) -> list[DrillRun]:
    with session(app) as db:
        query = select(DrillRun).order_by(col(DrillRun.id))
        for name, value in where.items():
            query = query.where(getattr(DrillRun, name) == value)
        return list(db.exec(query).all())


def _start_form(host: Host, drill_id: str) -> dict[str, str]:
    """The fields of the drill's Start form on the drills page (its token)."""
    page = host.get("/drills").text
    form = re.search(rf'action="/drills/{drill_id}/start">(.*?)</form>', page, re.S)
    assert form, page[:300]
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(1)))


@pytest.mark.parametrize("drill_id", ["trumps", "signal-respond"])
def test_a_start_form_posted_several_times_at_once_makes_one_run(make_app, drill_id: str) -> None:
    app = make_app(STARTER_DEALS_DIR=str(SIGNAL_DEALS))
    with serving(app) as base:
        player = signed_up(base, "alice")
        form = _start_form(player, drill_id)
        assert re.fullmatch(r"[\w-]{16,32}", form["start_token"])
        run_id = _same_run(in_threads(TWICE, lambda _n: player.post(f"/drills/{drill_id}/start", data=form)))
        assert [run.id for run in _runs(app)] == [run_id]
        assert run_row(app, run_id).start_token == form["start_token"]
        again = _start_form(player, drill_id)  # the page shown again: a new form, a new run
        assert again["start_token"] != form["start_token"]
        second = run_id_of(player.post(f"/drills/{drill_id}/start", data=again))
        assert second is not None and second != run_id
        assert run_id_of(player.post(f"/drills/{drill_id}/start", data=form)) == run_id  # the first form: its run
        other = signed_up(base, "bob")  # a token is the player's own: another's run is never reached by it
        theirs = run_id_of(other.post(f"/drills/{drill_id}/start", data=form))
        assert theirs not in (None, run_id, second)
        assert len(_runs(app)) == 3


def test_todays_start_sent_several_times_at_once_makes_one_session_and_one_item(served) -> None:
    app, base = served
    player = signed_up(base, "alice")
    run_id = _same_run(in_threads(TWICE, lambda _n: player.post("/today/start", data={"tz": "UTC"})))
    with session(app) as db:
        assert len(db.exec(select(DailySession)).all()) == 1
    assert [run.id for run in _runs(app)] == [run_id]


def test_the_last_continue_sent_several_times_at_once_makes_one_next_item(served) -> None:
    app, base = served
    player = signed_up(base, "alice")
    run_id = run_id_of(player.post("/today/start"))
    at = answer_only(player, app, run_id, right=False)
    next_id = _same_run(in_threads(TWICE, lambda _n: player.post(f"/runs/{run_id}/step?at={at}", headers=HX)))
    items = _runs(app, daily_id=run_row(app, run_id).daily_id)
    assert [run.id for run in items] == [run_id, next_id] and [run.daily_seq for run in items] == [0, 1]


def test_try_again_and_a_review_retry_sent_several_times_at_once_make_each_retry_once(served, monkeypatch) -> None:
    app, base = served
    player = signed_up(base, "alice")
    clock = install_clock(monkeypatch)
    assert player.post("/today/settings", data={"minutes": "5"}).status_code == 303
    response, asked = player.post("/today/start"), []
    while (run_id := run_id_of(response)) is not None:
        asked.append(run_id)
        response = answer_item(player, app, run_id, False, clock, seconds=100)
        assert len(asked) < 20, "the session does not end"
    daily_id = run_row(app, asked[0]).daily_id
    before = len(_runs(app, daily_id=daily_id))
    retried = _same_run(in_threads(TWICE, lambda _n: player.post("/today/retry")))
    made = _runs(app, daily_id=daily_id)[before:]
    misses = sum(len(run_row(app, run_id).checkpoints) for run_id in asked)  # every answer wrong
    assert len(made) == misses and made[0].id == retried  # each miss once, not once per POST
    assert all(run.retry_of is not None for run in made)
    mistake = made[0].retry_of
    from_review = _same_run(in_threads(TWICE, lambda _n: player.post(f"/review/{mistake}/retry")))
    assert [run.id for run in _runs(app, retry_of=mistake) if run.daily_id is None] == [from_review]
