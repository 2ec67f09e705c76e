"""The daily training through the views: `/today` with and without htmx, a whole session within its
budget, ratings and FSRS ratings kept on the attempts, mistakes and skills coming back on schedule
over simulated weeks (a frozen clock), the streak, retrying a mistake from the review, isolation."""
from __future__ import annotations

import re
import shutil
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, func, select

from trainer.drills.daily import OVERALL, grade, phase_of, skill_name
from trainer.drills.lookalike import lookalike_renaming, rename_card
from trainer.drills.questions import Question
from trainer.engine import Card
from trainer.engine.cards import Suit
from trainer.engine.errors import MalformedError
from trainer.records import parse_record
from trainer.web.models import Attempt, DailySession, Deal, DrillRun, UserSkill

from .conftest import Accounts
from .daily_helpers import answer_item, install_clock, run_id_of
from .drilling import HX, run_row, session


def _session_items(app, user_id: int = 1) -> list[tuple[DrillRun, Attempt | None]]:
    with session(app) as db:
        return list(db.exec(select(DrillRun, Attempt).join(Attempt, col(Attempt.run_id) == DrillRun.id, isouter=True)
                            .where(DrillRun.user_id == user_id, col(DrillRun.daily_id).is_not(None))
                            .order_by(col(DrillRun.id))).all())


def _play_day(client, app, clock, right, seconds: float = 60, headers=None) -> list[int]:
    """Start today's session and answer every item (`right(run)` says how: a bool, or one per checkpoint
    index) until the day's result."""
    response = client.post("/today/start", data={"tz": "Europe/Paris"}, headers=headers or {})
    asked = []
    while (run_id := run_id_of(response)) is not None:
        asked.append(run_id)
        response = answer_item(client, app, run_id, right(run_row(app, run_id)), clock, seconds, headers)
        assert len(asked) < 60, "the session does not end"
    assert (response.headers.get("HX-Redirect") or response.headers.get("Location")) == "/today"
    return asked


def _check_item(run: DrillRun, answers: list[Attempt]) -> None:
    """A daily item replays one deal from one seat from the start and asks at 3–6 checkpoints, one skill each."""
    assert run.cursor == 0 or run.status == "done"
    assert run.question is None and run.asks is not None and len(run.asks) == len(run.checkpoints)
    assert 3 <= len(run.checkpoints) <= 6 and run.checkpoints == sorted(set(run.checkpoints))
    assert [a.checkpoint for a in answers] == list(range(len(run.checkpoints)))
    skills = [a.skill for a in answers]
    assert len(set(skills)) == len(skills)  # different skills along one replay
    for attempt, ask in zip(answers, run.asks, strict=True):
        question = Question.from_json(ask["question"])
        assert attempt.question_type == question.type and attempt.expected == question.answer
        assert attempt.seat == run.seat and attempt.deal_pk == run.deal_pk


def test_a_session_asks_several_questions_per_replay_within_its_budget_and_shows_the_result(app, alice,
                                                                                             monkeypatch) -> None:
    clock = install_clock(monkeypatch)
    asked = _play_day(alice, app, clock, lambda run: lambda index: (run.id + index) % 3 != 0, seconds=20)
    items = _session_items(app)
    runs = list({run.id: run for run, _a in items}.values())
    assert [run.id for run in runs] == asked and len(runs) >= 2
    answers = [a for _r, a in items if a is not None]
    for run in runs:
        _check_item(run, sorted((a for r, a in items if r.id == run.id), key=lambda a: a.checkpoint))
    assert {ask["kind"] for run in runs for ask in run.asks} <= {"new", "practice"}
    with session(app) as db:
        tricks = dict(db.exec(select(Deal.pk, Deal.tricks)).all())
    for run, attempt in items:
        trick = int(attempt.position.partition(".")[0])
        assert attempt.skill == skill_name(attempt.question_type, phase_of(trick, tricks[run.deal_pk]))
        assert attempt.rating_before is not None and attempt.rating_after is not None
        assert (attempt.rating_after > attempt.rating_before) == attempt.correct
        assert attempt.fsrs_rating == int(grade(attempt.question_type, attempt.correct, attempt.ms))
        assert (attempt.due is not None) == (not attempt.correct)  # each miss is a mistake card
    # the budget counts watching and answering: ten minutes spent, the last item begun within them
    spent = [(_last(items, run) - run.started).total_seconds() for run in runs]
    answering = sum(a.ms for a in answers) / 1000
    assert sum(spent) >= 600 and sum(spent[:-1]) < 600 and answering == 20 * len(answers)
    watched = sum(spent) - answering
    assert watched == pytest.approx(sum(run.checkpoints[-1] / run.pace for run in runs), abs=0.01)
    page = alice.get("/today").text
    wrong = sum(1 for a in answers if not a.correct)
    assert f'<dd class="asked">{len(answers)}</dd>' in page and f'<dd class="right">{len(answers) - wrong}</dd>' in page
    assert f'<dd class="replays">{len(runs)}</dd>' in page
    assert f'<dd class="watched">{watched:.0f} 秒</dd>' in page and f'<dd class="answering">{answering:.0f} 秒</dd>' in page
    assert 'id="retry-misses"' in page and "2027-03-02" in page  # misses come back tomorrow
    with session(app) as db:
        daily = db.exec(select(DailySession)).one()
        assert daily.day == date(2027, 3, 1) and daily.finished is not None and daily.streak == 1
    # one click retries every miss, one after another, then back to the day
    response = alice.post("/today/retry")
    retried = []
    while (run_id := run_id_of(response)) is not None:
        run = run_row(app, run_id)
        assert run.retry_of is not None and run.cursor == run.checkpoints[0] - (run.checkpoints[0] - 1) % 4 - 1
        retried.append(run.retry_of)
        response = answer_item(alice, app, run_id, True, clock)
    assert retried == [a.id for a in answers if not a.correct]


def plays_of(attempt: Attempt) -> int:
    """The plays made at a 升级 attempt's position (four plays a trick)."""
    trick, _dot, plays = attempt.position.partition(".")
    return (int(trick) - 1) * 4 + int(plays)


def _last(items, run: DrillRun) -> datetime:
    return max(a.created for r, a in items if r.id == run.id and a is not None)


def _renamed(value, renaming):
    """A question's answer or subject with its cards and suit letters renamed (lists sorted)."""
    if isinstance(value, list):
        return sorted(_renamed(v, renaming) for v in value)
    if value in ("S", "H", "C", "D"):
        return renaming[Suit.parse(value)].letter
    if isinstance(value, str) and "," in value:  # a tractor: its cards
        return ",".join(_renamed(part, renaming) for part in value.split(","))
    try:
        return str(rename_card(Card.parse(value), renaming)) if isinstance(value, str) else value
    except MalformedError:  # a word (trump, yes, no) or a number
        return value


def _carried_over(app, mistake: Attempt, run: DrillRun, ask: dict) -> int:
    """Check a mistake's review: on the same deal the same question, or on the user's hidden lookalike of it
    the same type at the same moment about the renamed subject, with the original's answer renamed (what
    the tracker gives on the renamed deal, facts being the same up to the renaming); 1 for a lookalike."""
    asked, original = Question.from_json(ask["question"]), Question.from_json(mistake.question)
    if run.deal_pk == mistake.deal_pk:
        assert asked == original
        return 0
    with session(app) as db:
        deal, source = db.get(Deal, run.deal_pk), db.get(Deal, mistake.deal_pk)
    look = parse_record(deal.record)
    renaming = lookalike_renaming(look)
    assert deal.hidden and deal.owner_id == run.user_id and deal.record["source"]["of"] == source.id
    assert look.id == deal.id != source.id and deal.level == source.level
    assert (asked.type, asked.fact, asked.kind) == (original.type, original.fact, original.kind)
    assert (asked.suit, asked.card) == (_renamed(original.suit, renaming), _renamed(original.card, renaming))
    assert _renamed(asked.answer, tuple(Suit)) == _renamed(original.answer, renaming)
    return 1


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "plain"])
def test_a_mistake_comes_back_on_a_lookalike_graded_by_the_tracker(app, alice, monkeypatch, headers) -> None:
    clock = install_clock(monkeypatch)
    alice.post("/today/settings", data={"minutes": "5"})
    first = run_id_of(alice.post("/today/start", data={"tz": "Europe/Paris"}, headers=headers))
    answer_item(alice, app, first, False, clock, headers=headers)
    with session(app) as db:
        mistakes = db.exec(select(Attempt).where(Attempt.run_id == first).order_by(col(Attempt.id))).all()
    clock.advance(days=1)
    review = run_row(app, run_id_of(alice.post("/today/start", data={"tz": "Europe/Paris"}, headers=headers)))
    reviewed = {ask["retry_of"]: ask for ask in review.asks if ask["retry_of"]}
    assert reviewed and set(reviewed) <= {m.id for m in mistakes}
    looked = [_carried_over(app, m, review, reviewed[m.id]) for m in mistakes if m.id in reviewed]
    assert looked and all(looked)
    with session(app) as db:
        source, look = db.get(Deal, mistakes[0].deal_pk), db.get(Deal, review.deal_pk)
    answer_item(alice, app, review.id, True, clock, headers=headers)
    with session(app) as db:
        answers = db.exec(select(Attempt).where(Attempt.run_id == review.id).order_by(col(Attempt.checkpoint))).all()
        assert all(a.correct for a in answers) and all(a.deal_pk == review.deal_pk for a in answers)
        for mistake in mistakes:
            if mistake.id in reviewed:  # answered right on the lookalike: its card moves on
                assert db.get(Attempt, mistake.id).due.replace(tzinfo=UTC) > clock.now + timedelta(days=1)
    library = alice.get("/deals")  # the lookalike is no deal of her library
    assert library.status_code == 200 and source.id in library.text and look.id not in library.text


def test_skills_and_mistakes_come_back_on_schedule_over_weeks(app, alice, monkeypatch) -> None:
    clock = install_clock(monkeypatch, datetime(2027, 3, 1, 8, tzinfo=UTC))
    alice.post("/today/settings", data={"minutes": "5"})
    looked = 0
    for day in range(21):
        end_of_day = datetime(2027, 3, 1, 23, tzinfo=UTC) + timedelta(days=day)  # Paris midnight
        with session(app) as db:
            due_mistakes = set(db.exec(select(Attempt.id).where(col(Attempt.due) <= end_of_day)).all())
            due_skills = {s for s, when in db.exec(select(UserSkill.skill, UserSkill.due)).all()
                          if when is not None and when.replace(tzinfo=UTC) <= end_of_day}
            mistakes = {a.id: a for a in db.exec(select(Attempt).where(col(Attempt.id).in_(due_mistakes))).all()}
        before = len({run.id for run, _a in _session_items(app)})
        _play_day(alice, app, clock, lambda run: lambda index: (run.id + index + day) % 4 != 0, seconds=10)
        today = _session_items(app)
        runs = list({run.id: run for run, _a in today}.values())[before:]
        with_mistakes = [run for run in runs if any(ask["retry_of"] for ask in run.asks)]
        # items of due mistakes first; each asks the due mistakes of one deal and seat, at their own moments
        assert runs[:len(with_mistakes)] == with_mistakes
        retried = [ask["retry_of"] for run in with_mistakes for ask in run.asks if ask["retry_of"]]
        assert set(retried) <= due_mistakes and len(set(retried)) == len(retried)
        for run in with_mistakes:
            for plays, ask in zip(run.checkpoints, run.asks, strict=True):
                if ask["retry_of"]:
                    mistake = mistakes[ask["retry_of"]]
                    assert ask["kind"] == "mistake"
                    assert (mistake.seat, plays_of(mistake)) == (run.seat, plays)
                    looked += _carried_over(app, mistake, run, ask)
        if len(with_mistakes) < len(runs):  # other items only once every due mistake was asked
            assert set(retried) == due_mistakes
        reviewed = [a.skill for run, a in today if a is not None and run.id in {r.id for r in runs}
                    and run.asks[a.checkpoint]["kind"] == "skill"]
        assert set(reviewed) <= due_skills and len(set(reviewed)) == len(reviewed)
        for run in runs:
            assert 1 <= len(run.checkpoints) <= 6 and run.cursor == run.checkpoints[-1] and run.status == "done"
        clock.advance(days=1)
    with session(app) as db:
        sessions = db.exec(select(DailySession).order_by(col(DailySession.day))).all()
        assert [s.streak for s in sessions] == list(range(1, 22))
        kinds = [ask["kind"] for run in db.exec(select(DrillRun)).all() for ask in run.asks or []]
        assert kinds.count("skill") > 0 and kinds.count("mistake") > 0 and kinds.count("practice") > 0
    assert looked > 0


def test_a_missed_day_ends_the_streak(app, alice, monkeypatch) -> None:
    clock = install_clock(monkeypatch, datetime(2027, 3, 1, 8, tzinfo=UTC))
    alice.post("/today/settings", data={"minutes": "5"})
    for _ in range(2):
        _play_day(alice, app, clock, lambda run: True, seconds=100)
        clock.advance(days=1)
    assert "2 天" in alice.get("/").text and "2 天" in alice.get("/today").text
    clock.advance(days=1)  # a day missed
    assert "0 天" in alice.get("/today").text
    _play_day(alice, app, clock, lambda run: True, seconds=100)
    assert "1 天" in alice.get("/today").text


def test_the_day_follows_the_players_time_zone(app, alice, monkeypatch) -> None:
    install_clock(monkeypatch, datetime(2027, 3, 1, 20, tzinfo=UTC))  # already 2 March in Shanghai
    alice.post("/today/settings", data={"timezone": "Asia/Shanghai"})
    alice.post("/today/start")
    with session(app) as db:
        assert db.exec(select(DailySession.day)).one() == date(2027, 3, 2)
    alice.post("/today/settings", data={"timezone": "Not/AZone"})  # refused: the zone stays
    assert 'value="Asia/Shanghai"' in alice.get("/today").text


def test_try_again_from_the_review_and_mark_learned(app, alice, accounts, monkeypatch) -> None:
    clock = install_clock(monkeypatch)
    run_id = run_id_of(alice.post("/today/start"))
    answer_item(alice, app, run_id, False, clock)
    with session(app) as db:
        mistake = db.exec(select(Attempt).order_by(col(Attempt.id))).first()
    page = alice.get(f"/review/{mistake.id}").text
    assert f'action="/review/{mistake.id}/retry"' in page and "/learned" not in page
    response = alice.post(f"/review/{mistake.id}/retry")
    retry = run_id_of(response)
    assert run_row(app, retry).retry_of == mistake.id and run_row(app, retry).question == mistake.question
    response = answer_item(alice, app, retry, True, clock, seconds=3)
    assert response.headers["HX-Redirect"] == f"/review/{mistake.id}"
    with session(app) as db:
        again = db.get(Attempt, mistake.id)
        assert again.due.replace(tzinfo=UTC) > mistake.due.replace(tzinfo=UTC)  # reviewed: comes back later
    page = alice.get(f"/review/{mistake.id}").text
    assert f'action="/review/{mistake.id}/learned"' in page
    alice.post(f"/review/{mistake.id}/learned")
    with session(app) as db:
        learned = db.get(Attempt, mistake.id)
        assert learned.learned is not None and learned.due is None
    # a right answer is no mistake: nothing to retry
    right = _right_answer(app, alice, clock)
    assert alice.post(f"/review/{right}/retry").status_code == 404
    # another player can neither retry nor mark it
    accounts.logout()
    accounts.sign_up("bob")
    assert alice.post(f"/review/{mistake.id}/retry").status_code == 404
    assert alice.post(f"/review/{mistake.id}/learned").status_code == 404


def _right_answer(app, client, clock) -> int:
    """Answer the next daily item right; the attempt's id."""
    answer_item(client, app, run_id_of(client.post("/today/start")), True, clock)
    with session(app) as db:
        return db.exec(select(Attempt.id).where(col(Attempt.correct).is_(True))).first()


def test_a_wrong_retry_keeps_the_mistake_due_soon_and_cannot_be_marked(app, alice, monkeypatch) -> None:
    clock = install_clock(monkeypatch)
    answer_item(alice, app, run_id_of(alice.post("/today/start")), False, clock)
    with session(app) as db:
        mistake = db.exec(select(Attempt).order_by(col(Attempt.id))).first()
    answer_item(alice, app, run_id_of(alice.post(f"/review/{mistake.id}/retry")), False, clock)
    alice.post(f"/review/{mistake.id}/learned")
    with session(app) as db:
        again = db.get(Attempt, mistake.id)
        assert again.learned is None and again.due.replace(tzinfo=UTC) <= clock.now + timedelta(days=2)


def _alice_on(make_app, tmp_path, monkeypatch, shipped: str):
    """An app whose starter library is the shipped deals matching `shipped` and two standard ones, Alice signed
    up, the clock frozen: (app, her client, the clock)."""
    deals = Path(__file__).parents[2] / "drills" / "deals"
    folder = tmp_path / "starter"
    folder.mkdir()
    for path in [*deals.glob(shipped), *sorted(deals.glob("deal-2026-*.json"))[:2]]:
        shutil.copy(path, folder / path.name)
    app = make_app(STARTER_DEALS_DIR=str(folder))
    client = app.test_client()
    Accounts(client).sign_up("alice")
    return app, client, install_clock(monkeypatch)


def test_the_daily_queue_draws_no_gouji_deal(make_app, tmp_path, monkeypatch) -> None:
    """Gouji deals share the preset name `standard`: the daily positions are 升级 deals all the same."""
    app, client, clock = _alice_on(make_app, tmp_path, monkeypatch, "gouji-2026-*.json")
    asked = _play_day(client, app, clock, lambda run: True, seconds=60)
    with session(app) as db:
        games = {db.get(Deal, run_row(app, run_id).deal_pk).game for run_id in asked}
        assert db.exec(select(func.count()).select_from(Deal).where(Deal.game == "gouji")).one() == 12
    assert asked and games == {"shengji"}


def test_an_answer_graded_while_another_player_rated_its_position_is_graded_again(app, alice, database_url) -> None:
    """Two players' first answers at one position at once. On PostgreSQL the first to commit makes the
    position's rating row, the other's insert of it fails, and that answer is graded again on the stored
    row, never lost. On SQLite no other writer can commit while an answer is graded (its write transaction
    is taken before it reads)."""
    from sqlalchemy.exc import OperationalError

    from trainer.web.drills import RunHooks
    from trainer.web.models import PositionRating

    from .drilling import start

    sqlite = database_url.startswith("sqlite")
    run_id = start(alice, "trumps")
    first = run_row(app, run_id).checkpoints[0]
    page = alice.post(f"/runs/{run_id}/step?at=0&to={first}", headers=HX).text
    index = int(re.search(r'name="checkpoint" value="(\d+)"', page).group(1))
    hooks = app.extensions["jipai_run_hooks"]
    calls = []

    def answered_while_another_grades(run, attempt, data, snap):
        rows = hooks.answered(run, attempt, data, snap)
        if not calls:  # another player's answer at the position stores its rating row meanwhile
            mine = next(row for row in rows if isinstance(row, PositionRating))
            theirs = PositionRating(deal_pk=mine.deal_pk, seat=mine.seat, plays=mine.plays,
                                    question_type=mine.question_type, rating=1400.0, answers=5)
            other = sa.create_engine(database_url, connect_args={"timeout": 0} if sqlite else {})
            with Session(other) as db:
                db.add(theirs)
                if sqlite:
                    with pytest.raises(OperationalError, match="locked"):
                        db.commit()
                else:
                    db.commit()
            other.dispose()
        calls.append(attempt.checkpoint)
        return rows

    app.extensions["jipai_run_hooks"] = RunHooks(answered_while_another_grades, hooks.finished)
    response = alice.post(f"/runs/{run_id}/answer", data={"checkpoint": index, "answer": "0"}, headers=HX)
    assert response.status_code == 200 and 'class="verdict"' in response.text
    assert calls == ([index] if sqlite else [index, index])
    with session(app) as db:
        assert db.exec(select(func.count()).select_from(Attempt)).one() == 1
        assert db.exec(select(PositionRating.answers)).one() == (1 if sqlite else 6)
        assert db.get(UserSkill, (1, OVERALL)).answers == 1


def test_grading_an_answer_reads_in_one_query_and_makes_a_mistake_card_without_sleeping(app, alice, monkeypatch,
                                                                                        database_url) -> None:
    """The grading hook reads what it updates in one query (the time zone, the skill's, overall and the
    position's ratings), on PostgreSQL after one that locks the user's and the position's rows, and adds
    the answer to the day's tallies in one statement (an upsert that counts in the database); a wrong
    answer's new FSRS card takes its id from the answer's time, so fsrs never sleeps its millisecond."""
    import fsrs.card

    from trainer.web.drills import RunHooks

    from .drilling import attempts, drive, start, statements

    def no_sleep(_seconds: float) -> None:
        raise AssertionError("fsrs slept to number a new card")

    monkeypatch.setattr(fsrs.card, "time", SimpleNamespace(sleep=no_sleep))
    hooks = app.extensions["jipai_run_hooks"]
    hook_sql = []

    def answered_recorded(run, attempt, data, snap):
        with statements(app) as seen:
            rows = hooks.answered(run, attempt, data, snap)
        hook_sql.append(seen)
        return rows

    app.extensions["jipai_run_hooks"] = RunHooks(answered_recorded, hooks.finished)
    run_id = start(alice, "trumps")
    drive(alice, app, run_id, lambda index: False, stop_after=3)
    assert len(hook_sql) == 3  # the first answer makes the rows, the next ones update them
    sqlite = database_url.startswith("sqlite")
    for seen in hook_sql:
        assert [sql.split()[0] for sql in seen] == (["SELECT", "INSERT"] if sqlite else ["SELECT", "SELECT", "INSERT"])
        assert sqlite or ("FOR NO KEY UPDATE" in seen[0] and "FOR UPDATE" in seen[0])
        assert "INTO practice_days" in seen[-1] and "ON CONFLICT" in seen[-1]
    stored = attempts(app, run_id)
    assert len(stored) == 3 and all(not a.correct and a.card is not None for a in stored)
    for attempt in stored:
        assert attempt.card["card_id"] == int(attempt.created.replace(tzinfo=UTC).timestamp() * 1000)


def test_the_daily_queue_draws_every_deck_count_the_player_drills(make_app, tmp_path, monkeypatch) -> None:
    """Standard deals only for a new player; once they drill three-deck deals, those come into the session
    too, replayed and graded like the others."""
    app, client, clock = _alice_on(make_app, tmp_path, monkeypatch, "three-deck-2026-*.json")
    first = _play_day(client, app, clock, lambda run: True, seconds=30)
    with session(app) as db:
        assert {db.get(Deal, run_row(app, run_id).deal_pk).rules for run_id in first} == {"standard"}
        wide = db.exec(select(Deal).where(Deal.rules == "three-deck")).first()
        db.add(DrillRun(user_id=1, drill_id="08-triples", deal_pk=wide.pk, seat=0, seed=1, checkpoints=[4],
                        started=clock.now))
        db.commit()
    clock.advance(days=1)
    second = _play_day(client, app, clock, lambda run: True, seconds=30)
    with session(app) as db:
        rules = {db.get(Deal, run_row(app, run_id).deal_pk).rules for run_id in second}
        graded = db.exec(select(Attempt).join(DrillRun, col(DrillRun.id) == Attempt.run_id)
                         .join(Deal, col(Deal.pk) == DrillRun.deal_pk)
                         .where(Deal.rules == "three-deck", col(DrillRun.daily_id).is_not(None))).all()
    assert "three-deck" in rules and rules <= {"standard", "three-deck"}
    assert graded and all(a.skill and a.rating_after is not None and a.correct for a in graded)
