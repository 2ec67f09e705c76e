"""The daily training (`/today`): skills and mistakes as FSRS review cards, Glicko-2 ratings per skill,
overall and per position, the daily session with its time budget, the streak, and retrying a mistake.

A daily item is a one-question drill run (`DrillRun` with `daily_id`, the question fixed on the run) and
goes through the drills' run loop; `answered` (a `RunHooks` hook) grades each new attempt of any run —
skill, ratings before and after, the FSRS rating, a mistake's card — and `finished` moves a session on.
Every query is scoped to the signed-in user.
"""
from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from flask import Blueprint, Flask, abort, current_app, g, request, url_for
from flask_babel import gettext as _
from fsrs import Card, Rating
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, func, select

from trainer.drills.daily import (
    DAILY_ID,
    DIFFICULTIES,
    OVERALL,
    all_skills,
    estimate,
    introduction_order,
    grade,
    pace_of,
    phase_of,
    scheduler,
    skill_name,
    split_skill,
)
from trainer.drills.causes import mistake_cause
from trainer.drills.lookalike import carried_question, lookalike, lookalike_renaming
from trainer.drills.glicko import Glicko, after_game, play
from trainer.drills.questions import Question, QuestionKey, make_question, question_key
from trainer.records import DealRecord, replay
from trainer.drills.runs import position_after, snapshot_after, snapshots_after, table_at
from trainer.signals.quiz import QUESTION_TYPES as SIGNAL_TYPES
from trainer.tracking.facts import facts_json
from trainer.tracking.tracker import Snapshot
from trainer.web import models
from trainer.web.auth import login_required
from trainer.web.db import get_session, store
from trainer.web.dealdata import DealData, deal_cache, plays_at
from trainer.web.drills import ACTIVE, RunHooks
from trainer.web.gouji import GoujiDealData
from trainer.web.library import Checked, deal_row
from trainer.web.models import (
    Attempt,
    DailySession,
    DailySettings,
    Deal,
    DrillRun,
    PositionRating,
    PracticeDay,
    User,
    UserSkill,
)
from trainer.web.quiz import lang, question_label
from trainer.web.responses import go, render_page
from trainer.web.sigquiz import fresh_question

bp = Blueprint("daily", __name__)

MINUTES = (5, 10, 15, 20, 30)
"""The daily session lengths a player may choose."""
NEW_PER_DAY = 8
"""How many new skills a session introduces at most (then it practises the skills met)."""
FRESH_DAYS = 30
"""A deal drilled within this many days is not drawn again while others are left."""
CANDIDATE_DEALS = 6
"""How many deals choosing a position looks at."""
TRIES = 12
"""How many positions (nearest the target first) are tried for an informative question."""
ROUNDS = 3
"""How many draws of candidate deals are tried before a skill is left for another day."""


def utcnow() -> datetime:
    """Now in UTC (the daily training's clock; tests set it)."""
    return models.utcnow()


def init_app(app: Flask) -> None:
    """Hook the daily training into the run loop."""
    app.extensions["jipai_run_hooks"] = RunHooks(answered, finished)


# -- settings and days -------------------------------------------------------------------------------

def settings(user_id: int) -> DailySettings:
    """A user's daily settings (the defaults when none are stored)."""
    return get_session().get(DailySettings, user_id) or DailySettings(user_id=user_id)


def zone(name: str | None) -> ZoneInfo:
    """The time zone named `name` (UTC when none or unknown)."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_day(now: datetime, timezone: str | None) -> date:
    """The date in `timezone` at `now`."""
    return now.astimezone(zone(timezone)).date()


def aware(moment: datetime) -> datetime:
    """A stored datetime as an aware UTC one (SQLite gives it back naive)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# -- grading an answer -------------------------------------------------------------------------------

def card_of(data: dict[str, Any] | None, now: datetime) -> Card:
    """An FSRS card from its JSON; when none, a new card made `now` (its id the epoch milliseconds of
    `now`, as fsrs numbers a card, without the millisecond fsrs sleeps to keep ids apart: no card is
    looked up by its id, each lives in its own row)."""
    if data:
        return Card.from_dict(data)  # type: ignore[arg-type]
    return Card(card_id=int(now.timestamp() * 1000), due=now)


def review(card: dict[str, Any] | None, rating: Rating, now: datetime) -> tuple[dict[str, Any], datetime]:
    """The card after a review with `rating` at `now`: its JSON and when it is due."""
    reviewed, _log = scheduler().review_card(card_of(card, now), rating, now)
    return dict(reviewed.to_dict()), reviewed.due


SUIT_TALLY = "suit:"
"""The practice-day key prefix of a suit's tally (`suit:S` … `suit:trump`)."""
TYPE_TALLY = "type:"
"""The practice-day key prefix of a question type's tally (`type:voids`)."""


def _skill_row(db: Session, user_id: int, skill: str) -> UserSkill:
    return db.get(UserSkill, (user_id, skill)) or UserSkill(user_id=user_id, skill=skill)


# The grading hook's statements, built once (a statement built per request costs more than its SQL on SQLite;
# fixed parameters rather than an expanding IN, which is rendered anew on every execution).
POSITION_WHERE = sa.and_(col(PositionRating.deal_pk) == sa.bindparam("deal"),
                         col(PositionRating.seat) == sa.bindparam("seat"),
                         col(PositionRating.plays) == sa.bindparam("plays"),
                         col(PositionRating.question_type) == sa.bindparam("type"))
LOCKS = select(select(User.id).where(User.id == sa.bindparam("user")).with_for_update(key_share=True)
               .scalar_subquery(),
               select(PositionRating.id).where(POSITION_WHERE).with_for_update().scalar_subquery())
"""PostgreSQL: lock the user's row (`FOR NO KEY UPDATE`: rows referring to it may still be added) and the
position's rating row (when stored) until the grading commits. Every grading of the user's answers takes the
first, so they run one at a time; every grading at the position takes the second. One statement, before the
reads (a lock waited for in the statement that reads would leave the joined rows as they were before)."""
GRADING = (select(DailySettings.timezone, UserSkill, PositionRating).select_from(User)
           .outerjoin(DailySettings, col(DailySettings.user_id) == User.id)
           .outerjoin(UserSkill, sa.and_(col(UserSkill.user_id) == User.id,
                                         col(UserSkill.skill).in_([sa.bindparam("skill"), OVERALL])))
           .outerjoin(PositionRating, POSITION_WHERE)
           .where(User.id == sa.bindparam("user"))
           .execution_options(populate_existing=True))
"""In one query, what grading an answer reads: the user's time zone, their stored rows of the `skill` and of
`overall`, and the position's stored rating (one result row per skill row, or one with none)."""
MISTAKE = (select(Attempt).where(Attempt.id == sa.bindparam("attempt"), Attempt.user_id == sa.bindparam("user"))
           .execution_options(populate_existing=True))
"""The user's attempt (the mistake a retry reviews)."""


def _tally_upsert(dialect: Any) -> Any:
    table = PracticeDay.__table__
    upsert = dialect.insert(table)
    return upsert.on_conflict_do_update(
        index_elements=list(table.primary_key.columns),
        set_={"asked": table.c.asked + 1, "right": table.c.right + upsert.excluded.right,
              "ms": table.c.ms + upsert.excluded.ms, "rating": upsert.excluded.rating})


TALLY = {"sqlite": _tally_upsert(sqlite), "postgresql": _tally_upsert(postgresql)}
"""By dialect: one more answer in a user's practice day under a key (its rating the one given), the row made
when missing: `asked = asked + 1` in the database, so no answer's count is lost, whatever runs at once."""


@dataclass(frozen=True, slots=True)
class Graded:
    """What grading an answer updates, as stored (new rows when none): the player's skill and overall
    ratings, the position's rating (None when not rated yet), and the player's time zone."""

    skill: UserSkill
    overall: UserSkill
    position: PositionRating | None
    timezone: str | None


def graded_rows(db: Session, run: DrillRun, attempt: Attempt, plays: int) -> Graded:
    """The rows grading `attempt` (its `skill` already set) at `plays` of `run`'s deal updates, locked (`LOCKS`,
    on PostgreSQL; SQLite's write transaction keeps every other writer out) and then read in one query
    (`GRADING`). Call it inside `db.writing()`."""
    params = {"user": run.user_id, "skill": attempt.skill, "deal": run.deal_pk, "seat": run.seat, "plays": plays,
              "type": attempt.question_type}
    if db.get_bind().dialect.name == "postgresql":
        db.execute(LOCKS, params)
    found = db.exec(GRADING, params=params).all()
    stored = {row.skill: row for _zone, row, _position in found if row is not None}
    return Graded(stored.get(attempt.skill) or UserSkill(user_id=run.user_id, skill=attempt.skill),
                  stored.get(OVERALL) or UserSkill(user_id=run.user_id, skill=OVERALL),
                  found[0][2] if found else None, found[0][0] if found else None)


def answered(run: DrillRun, attempt: Attempt, data: DealData, snap: Snapshot) -> list[Any]:
    """Grade a new attempt (of any run): its skill and the ratings before and after (Glicko-2, the player
    against the position, overall too), the FSRS rating; a daily skill item reviews the skill's card, a
    retry reviews its mistake's card, any other wrong answer becomes a mistake card; a wrong answer
    gets its cause (`causes.mistake_cause`). The rows to store with the attempt. A 够级 answer is not graded
    here: the daily skills, positions and retries are 升级 ones. Called inside the answer's write transaction
    (`db.writing()`): it locks and reads what it updates (`graded_rows`), a retry's mistake too, and adds
    the answer to the day's tallies itself (`TALLY`, one statement)."""
    if isinstance(data, GoujiDealData):
        return []
    db, now = get_session(), aware(attempt.created)
    plays = plays_at(data, attempt.position)
    trick = position_after(data.record, plays).trick
    attempt.skill = skill_name(attempt.question_type, phase_of(trick, len(data.record.tricks)))
    graded = graded_rows(db, run, attempt, plays)
    skill, overall = graded.skill, graded.overall
    position = graded.position or PositionRating(
        deal_pk=run.deal_pk, seat=run.seat, plays=plays, question_type=attempt.question_type,
        rating=estimate(attempt.question_type, plays, run.pace or pace_of(skill.rating)))
    against = Glicko(position.rating, position.deviation, position.volatility)
    player, rated = play(Glicko(skill.rating, skill.deviation, skill.volatility), against, attempt.correct)
    total = after_game(Glicko(overall.rating, overall.deviation, overall.volatility), against, attempt.correct)
    attempt.rating_before, attempt.rating_after = skill.rating, player.rating
    for row, value in ((skill, player), (overall, total), (position, rated)):
        row.rating, row.deviation, row.volatility = value.rating, value.deviation, value.volatility
        row.answers += 1
    skill.right, overall.right = skill.right + attempt.correct, overall.right + attempt.correct
    rating = grade(attempt.question_type, attempt.correct, attempt.ms)
    attempt.fsrs_rating = int(rating)
    rows: list[Any] = [skill, overall, position]
    kind, retry_of = ask_at(run, attempt.checkpoint)
    if retry_of is not None:
        mistake = db.exec(MISTAKE, params={"attempt": retry_of, "user": run.user_id}).first()
        if mistake is not None and mistake.card is not None and mistake.learned is None:
            mistake.card, mistake.due = review(mistake.card, rating, now)
            rows.append(mistake)
    elif not attempt.correct:
        attempt.card, attempt.due = review(None, Rating.Again, now)
    if not attempt.correct:
        attempt.cause = mistake_cause(Question.from_json(attempt.question), attempt.given, snap, data.events[:plays])
    if kind in ("skill", "new"):
        skill.card, skill.due = review(skill.card, rating, now)
    tallies = {attempt.skill: player.rating, OVERALL: total.rating, f"{TYPE_TALLY}{attempt.question_type}": 0.0}
    if attempt.suit:
        tallies[f"{SUIT_TALLY}{attempt.suit}"] = 0.0
    day = local_day(now, graded.timezone)
    db.execute(TALLY[db.get_bind().dialect.name], [
        {"user_id": run.user_id, "day": day, "skill": key, "asked": 1, "right": int(attempt.correct),
         "ms": attempt.ms, "rating": value} for key, value in tallies.items()])
    return rows


# -- the queue ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Due:
    """What is due for a user now: how many mistakes and the first of them, the skills (lowest
    retrievability first), the new skills left."""

    mistake_count: int
    mistakes: list[int]
    skills: list[str]
    new: list[str]


DUE_MISTAKES = 64
"""How many due mistakes (the oldest due) the queue reads; a session asks fewer."""


def day_end(day: date, timezone: str | None) -> datetime:
    """When the player's day `day` ends (midnight in their time zone), in UTC."""
    return datetime.combine(day + timedelta(days=1), datetime.min.time(), zone(timezone)).astimezone(UTC)


def due_now(db: Session, user_id: int, now: datetime, until: datetime | None = None) -> Due:
    """The user's mistakes and skills due by `until` (now when not given; the daily session passes the end of
    the player's day: a session is once a day, so what falls due later today is due in it): the mistakes'
    count and the `DUE_MISTAKES` oldest due, the skills (lowest retrievability now first), and the skills
    not met yet (`introduction_order`)."""
    until = until or now
    due_mistake = (Attempt.user_id == user_id, col(Attempt.due).is_not(None), col(Attempt.due) <= until)
    count = db.exec(select(func.count()).select_from(Attempt).where(*due_mistake)).one()
    mistakes = db.exec(select(Attempt.id).where(*due_mistake).order_by(col(Attempt.due), col(Attempt.id))
                       .limit(DUE_MISTAKES)).all()
    rows = db.exec(select(UserSkill.skill, UserSkill.card, UserSkill.due).where(UserSkill.user_id == user_id)).all()
    fsrs = scheduler()
    due = [(fsrs.get_card_retrievability(card_of(card, now), now), skill)
           for skill, card, when in rows if card is not None and when is not None and aware(when) <= until]
    met = {skill for skill, card, _when in rows if card is not None}
    return Due(count, [m for m in mistakes if m is not None], [skill for _r, skill in sorted(due)],
               [skill for skill in introduction_order(all_skills()) if skill not in met])


@dataclass(frozen=True, slots=True)
class Chosen:
    """A position chosen for a skill: the deal, the seat, the plays made, the question, its rating (and for
    a signal quiz, the convention set it is graded against)."""

    deal_pk: int
    seat: int
    plays: int
    question: Question
    rating: float
    signals: str | None = None


def drilled_presets(db: Session, user_id: int) -> list[str]:
    """The 升级 rules presets (deck counts) the daily session draws from: the standard one, and every other
    the user has drilled (a curriculum run on a deal of that preset)."""
    drilled = db.exec(select(Deal.rules).join(DrillRun, col(DrillRun.deal_pk) == Deal.pk)
                      .where(DrillRun.user_id == user_id, DrillRun.drill_id != DAILY_ID, Deal.game == "shengji",
                             col(Deal.custom_rules).is_(False)).distinct()).all()
    return sorted({"standard", *drilled})


def candidate_deals(db: Session, user_id: int, now: datetime, rng: random.Random) -> list[tuple[int, str, datetime,
                                                                                               int]]:
    """Up to `CANDIDATE_DEALS` complete 升级 deals the user may drill (shared or their own) under the presets they
    drill (`drilled_presets`), from a random place in the library on, those not drilled in the last `FRESH_DAYS`
    days first:
    (pk, id, created, tricks). Each query walks one owner's deals in key order from that place
    (index `ix_deals_owner_id_hidden_pk`) and stops after a few rows, however large the library."""
    since = now - timedelta(days=FRESH_DAYS)
    recent = set(db.exec(select(DrillRun.deal_pk).where(DrillRun.user_id == user_id,
                                                        col(DrillRun.started) >= since)).all())
    top = db.exec(select(func.max(Deal.pk))).one() or 0
    start = rng.randint(0, top)
    presets = drilled_presets(db, user_id)
    found: dict[int, Any] = {}
    unseen: set[int] = set()
    for fresh in (col(Deal.pk).not_in(recent) if recent else sa.true(), sa.true()):
        for owner in (col(Deal.owner_id).is_(None), Deal.owner_id == user_id):
            mine: list[Any] = []
            for place in (col(Deal.pk) >= start, col(Deal.pk) < start):
                if len(mine) < CANDIDATE_DEALS:
                    mine += db.exec(select(Deal.pk, Deal.id, Deal.created, Deal.tricks)
                                    .where(owner, col(Deal.hidden).is_(False), col(Deal.complete).is_(True),
                                           Deal.game == "shengji", col(Deal.rules).in_(presets),
                                           col(Deal.custom_rules).is_(False), fresh, place)
                                    .order_by(col(Deal.pk)).limit(CANDIDATE_DEALS - len(mine))).all()
            found.update((row[0], row) for row in mine if row[0] not in found)
        if len(found) >= CANDIDATE_DEALS:
            break
        unseen = set(found)
    nearest = sorted(found, key=lambda pk: (pk not in unseen, (pk - start) % (top + 1)))[:CANDIDATE_DEALS]
    return [found[pk] for pk in nearest]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A position that may be asked for a skill: its deal's cache key, the seat, the plays made, its
    rating (stored, or estimated from its features)."""

    key: tuple[int, str, datetime]
    seat: int
    plays: int
    rating: float


def nearest_positions(db: Session, user_id: int, skill: str, target: float, pace: float, now: datetime,
                      rng: random.Random) -> list[Candidate]:
    """The positions of `skill` (the trick ends of its phase) in a few candidate deals, each watched from
    a seat drawn by `rng`, nearest `target` first (ties in random order): two queries, no deal parsed."""
    kind, phase = split_skill(skill)
    deals = candidate_deals(db, user_id, now, rng)
    seats = {pk: rng.randrange(4) for pk, *_rest in deals}
    stored = {(row.deal_pk, row.plays): row.rating for row in db.exec(select(PositionRating).where(
        col(PositionRating.deal_pk).in_(list(seats)), PositionRating.question_type == kind)).all()
        if row.seat == seats[row.deal_pk]} if seats else {}
    options = [Candidate((pk, deal_id, created), seats[pk], trick * 4,
                         stored.get((pk, trick * 4), estimate(kind, trick * 4, pace)))
               for pk, deal_id, created, tricks in deals for trick in range(1, tricks)
               if phase_of(trick, tricks) == phase]
    return [option for _distance, _tie, option in sorted(((abs(o.rating - target), rng.random(), o) for o in options),
                                                        key=lambda item: item[:2])]


def choose_position(db: Session, user_id: int, skill: str, target: float, pace: float, now: datetime,
                    rng: random.Random) -> Chosen | None:
    """A fresh position for `skill` near `target` (`nearest_positions`): the first, nearest first, with an
    informative question of the skill's type (the tracker replays the deal from the seat) that the player did not
    meet at that deal and seat in the last `REPEAT_DAYS` days (`recent_keys`); up to
    `ROUNDS` draws of candidate deals, else None. A signal quiz kind is planned as the signal quizzes plan
    a run of that kind (`sigquiz.fresh_question`), under the player's convention set."""
    kind = split_skill(skill)[0]
    if kind in SIGNAL_TYPES:
        found = fresh_question(kind, rng.randrange(2**31))
        if found is None:
            return None
        planned, question = found
        plays = planned.checkpoints[0]
        return Chosen(planned.deal[0], planned.seat, plays, question, estimate(kind, plays, pace), planned.signals)
    for _round in range(ROUNDS):
        for option in nearest_positions(db, user_id, skill, target, pace, now, rng)[:TRIES]:
            data = deal_cache().get(db, option.key)
            if option.plays >= data.total:
                continue
            snap = snapshot_after(data.record, option.seat, option.plays, data.events)
            opening = facts_json(snapshot_after(data.record, option.seat, 0, data.events),
                                 str(position_after(data.record, 0)))
            question = make_question(kind, facts_json(snap, str(position_after(data.record, option.plays))), snap,
                                     rng, opening, table_at(data.record, option.plays),
                                     recent_keys(db, user_id, option.key[0], option.seat, now))
            if question is not None:
                return Chosen(option.key[0], option.seat, option.plays, question, option.rating)
    return None


def session_runs(db: Session, daily: DailySession) -> list[tuple[DrillRun, Attempt | None]]:
    """A daily session's items in order, each with its answers (one row per answer; None while none)."""
    return list(db.exec(select(DrillRun, Attempt).join(Attempt, col(Attempt.run_id) == DrillRun.id, isouter=True)
                        .where(DrillRun.daily_id == daily.id, DrillRun.user_id == daily.user_id)
                        .order_by(col(DrillRun.id), col(Attempt.checkpoint))).all())


def runs_of(items: Sequence[tuple[DrillRun, Attempt | None]]) -> list[DrillRun]:
    """A session's items (`session_runs`), each once, in order."""
    return list({run.id: run for run, _a in items}.values())


def pending_runs(items: Sequence[tuple[DrillRun, Attempt | None]]) -> list[DrillRun]:
    """The items of a session (`session_runs`) still going on: active, with a checkpoint not answered yet."""
    answers = Counter(run.id for run, attempt in items if attempt is not None)
    return [run for run in runs_of(items) if run.status == ACTIVE and answers[run.id] < len(run.checkpoints)]


def spent_ms(items: Sequence[tuple[DrillRun, Attempt | None]]) -> int:
    """Time a session's items took (training.md §4: watching and answering): from each item's start to its
    last answer."""
    last: dict[int | None, datetime] = {}
    started = {run.id: aware(run.started) for run, _a in items}
    for run, attempt in items:
        if attempt is not None:
            last[run.id] = max(last.get(run.id, aware(attempt.created)), aware(attempt.created))
    return sum(max(0, round((moment - started[run_id]).total_seconds() * 1000)) for run_id, moment in last.items())


@dataclass(frozen=True, slots=True)
class Ask:
    """One question of a daily item (`DrillRun.asks`, one per checkpoint): the question (JSON), why it is
    asked (`mistake`, `skill`, `new` or `practice`) and the mistake it reviews (an attempt's id, or None)."""

    question: dict[str, Any]
    kind: str
    retry_of: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The ask as stored on the run."""
        return {"question": self.question, "kind": self.kind, "retry_of": self.retry_of}


def ask_at(run: DrillRun, checkpoint: int) -> tuple[str | None, int | None]:
    """Why `run` asks at checkpoint `checkpoint` and the mistake it reviews there: a daily item's own
    (`DrillRun.asks`), else the run's (`daily_kind`, `retry_of`: a retry, or none for a curriculum run)."""
    if run.asks:
        ask = run.asks[checkpoint]
        return ask["kind"], ask.get("retry_of")
    return run.daily_kind, run.retry_of


def retries_of(run: DrillRun) -> list[int]:
    """The mistakes a run reviews (a daily item's at its checkpoints, or a retry's one)."""
    if run.asks:
        return [ask["retry_of"] for ask in run.asks if ask.get("retry_of") is not None]
    return [run.retry_of] if run.retry_of is not None else []


def retry_run(db: Session, mistake: Attempt, now: datetime, daily_id: int | None = None,
              daily_seq: int | None = None) -> DrillRun:
    """A run that replays a mistake's deal from the start of its trick and asks its question again (a daily
    item when `daily_id` is given, at its place `daily_seq` in the session)."""
    run = db.get(DrillRun, mistake.run_id)
    plays = plays_at(deal_cache().get(db, _deal_key(db, mistake.deal_pk)), mistake.position)
    return DrillRun(user_id=mistake.user_id, drill_id=DAILY_ID, deal_pk=mistake.deal_pk, seat=mistake.seat,
                    seed=secrets.randbelow(2**31), checkpoints=[plays],
                    cursor=plays - int(mistake.position.partition(".")[2]), question=mistake.question,
                    pace=run.pace if run else None, daily_id=daily_id, started=now,
                    daily_kind="mistake" if daily_id is not None else None, retry_of=mistake.id, daily_seq=daily_seq)


def _deal_key(db: Session, deal_pk: int) -> tuple[int, str, datetime]:
    deal = db.exec(select(Deal.pk, Deal.id, Deal.created).where(Deal.pk == deal_pk)).one()
    return (deal[0], deal[1], deal[2])


ITEM_QUESTIONS = 5
"""How many questions a daily item asks along its replay when the deal has room (training.md §4: 3–6)."""
MAX_ITEM_QUESTIONS = 6
"""At most this many: due mistakes of one deal and seat beyond it wait for another item."""
PRACTICE_STEP = 200.0
"""Rating points each answer today adds to a skill when the practice queue orders the skills (`skill_queue`)."""
REPEAT_DAYS = 30
"""A player meets the same deal-seat-question at most once in this many days, but as a mistake's review."""


def item_rng(daily: DailySession, seq: int) -> random.Random:
    """The generator of a session's item `seq`: drawn anew for each, unless the app's `DAILY_SEED` is set
    (`trainer daily simulate`), then a pure function of it, the player, the day and the place."""
    seed = current_app.config.get("DAILY_SEED")
    if seed is None:
        return random.Random(secrets.randbits(64))
    return random.Random(f"{seed}:{daily.user_id}:{daily.day}:{seq}")


def skill_queue(db: Session, user_id: int, due: Due, counts: Counter[str], new_left: int,
                now: datetime) -> list[tuple[str, str]]:
    """The skills the session may ask next, the scheduler's order, as (skill, kind): the due skills not asked
    today (lowest retrievability first), up to `new_left` new skills (`introduction_order`: families in turn),
    then every skill met, the weakest first: by rating, each answer today counting `PRACTICE_STEP` points
    (so the weak skills come back more often, and no skill takes over a session), then lowest retrievability."""
    queue = [(skill, "skill") for skill in due.skills if skill not in counts]
    queue += [(skill, "new") for skill in due.new if skill not in counts][:max(new_left, 0)]
    met = db.exec(select(UserSkill.skill, UserSkill.card, UserSkill.rating)
                  .where(UserSkill.user_id == user_id, col(UserSkill.card).is_not(None))).all()
    fsrs = scheduler()
    queue += [(skill, "practice") for _weight, _r, skill in sorted(
        (rating + PRACTICE_STEP * counts[skill], fsrs.get_card_retrievability(card_of(card, now), now), skill)
        for skill, card, rating in met)]
    return queue


def recent_keys(db: Session, user_id: int, deal_pk: int, seat: int, now: datetime) -> set[QuestionKey]:
    """The questions the user met at this deal and seat in the last `REPEAT_DAYS` days (`question_key`)."""
    since = now - timedelta(days=REPEAT_DAYS)
    return {question_key(Question.from_json(question)) for question in db.exec(
        select(Attempt.question).where(Attempt.user_id == user_id, Attempt.deal_pk == deal_pk, Attempt.seat == seat,
                                       col(Attempt.created) >= since)).all()}


def fill_item(data: DealData, seat: int, taken: dict[int, Ask], queue: Sequence[tuple[str, str]],
              avoid: set[QuestionKey], rng: random.Random, want: int = ITEM_QUESTIONS) -> dict[int, Ask]:
    """More questions along one replay (training.md §4): for the skills of `queue` in order (one question a
    skill, none of those already `taken`, no signal quiz), a trick end of the skill's phase not taken, those
    the replay reaches anyway first (in an order drawn by `rng`), then the nearest after them, with an
    informative question not in `avoid`; until `want` are taken. `taken` maps plays to asks."""
    record, tricks = data.record, len(data.record.tricks)
    ends = [data.trick_starts[trick] for trick in range(1, tricks) if data.trick_starts[trick] < data.total]
    free = [plays for plays in ends if plays not in taken]
    if len(taken) >= want or not free:
        return taken
    snaps = dict(zip(free, snapshots_after(record, seat, free, data.events), strict=True))
    opening = data.opening(seat)
    have = {skill_of(Question.from_json(ask.question).type, record, plays) for plays, ask in taken.items()}
    for skill, kind in queue:
        kind_of_question, phase = split_skill(skill)
        if len(taken) >= want:
            break
        if skill in have or kind_of_question in SIGNAL_TYPES:
            continue
        reach = max(taken, default=0)
        spots = [plays for plays in free if plays not in taken
                 and phase_of(data.positions[plays].trick, tricks) == phase]
        rng.shuffle(spots)
        spots.sort(key=lambda plays: 0 if plays <= reach else plays)
        for plays in spots[:TRIES]:
            snap = snaps[plays]
            question = make_question(kind_of_question, facts_json(snap, str(data.positions[plays])), snap, rng,
                                     opening, table_at(record, plays), avoid)
            if question is not None:
                taken[plays] = Ask(question.to_json(), kind)
                have.add(skill)
                avoid.add(question_key(question))
                break
    return taken


def skill_of(question_type: str, record: Any, plays: int) -> str:
    """The skill a question of `question_type` asked after `plays` plays of `record` trains."""
    return skill_name(question_type, phase_of(position_after(record, plays).trick, len(record.tricks)))


def next_run(db: Session, daily: DailySession, now: datetime) -> DrillRun | None:
    """The session's next item, or None when its time is spent or nothing can be asked: a pending item; else
    one replay of one deal from one seat asking at several checkpoints (`ITEM_QUESTIONS`, `fill_item`): the
    due mistakes of the oldest due mistake's deal and seat, or a fresh position of the first skill of the
    queue (`skill_queue`: due skills, new ones up to `NEW_PER_DAY` a day, then practice), then more skills of
    the queue along the same replay. A skill's position is near the player's rating (moved by the
    difficulty setting), at a pace that rises with the rating. A new item takes the session's next place
    (`daily_seq`)."""
    items = session_runs(db, daily)
    pending = pending_runs(items)
    if pending:
        return pending[0]
    if daily.finished is not None or spent_ms(items) >= daily.budget_ms:
        return None
    runs = runs_of(items)
    asked = {mistake for run in runs for mistake in retries_of(run)}
    counts = Counter(a.skill for _r, a in items if a is not None and a.skill)
    new_today = sum(1 for run in runs for ask in run.asks or [] if ask["kind"] == "new")
    due = due_now(db, daily.user_id, now, day_end(daily.day, settings(daily.user_id).timezone))
    queue = skill_queue(db, daily.user_id, due, counts, NEW_PER_DAY - new_today, now)
    rng = item_rng(daily, len(runs))
    item = (_mistake_item(db, daily.user_id, [m for m in due.mistakes if m not in asked], rng)
            or _skill_item(db, daily.user_id, queue, now, rng))
    if item is None:
        return None
    avoid = recent_keys(db, daily.user_id, item.deal_pk, item.seat, now)
    avoid |= {question_key(Question.from_json(ask.question)) for ask in item.taken.values()}
    ordered = sorted(fill_item(item.data, item.seat, item.taken, queue, avoid, rng).items())
    return DrillRun(user_id=daily.user_id, drill_id=DAILY_ID, deal_pk=item.deal_pk, seat=item.seat,
                    seed=rng.randrange(2**31), checkpoints=[plays for plays, _ask in ordered], cursor=0,
                    asks=[ask.to_json() for _plays, ask in ordered], pace=item.pace, daily_id=daily.id,
                    daily_kind=ordered[0][1].kind, daily_seq=len(runs), started=now, signals=item.signals)


@dataclass(frozen=True, slots=True)
class Item:
    """A daily item being made: the deal it replays (key and data), the seat, its asks so far by plays, the
    pace (None: the drill's) and the convention set of a signal quiz among them."""

    deal_pk: int
    data: DealData
    seat: int
    taken: dict[int, Ask]
    pace: float | None
    signals: str | None = None


def _mistake_item(db: Session, user_id: int, mistakes: Sequence[int], rng: random.Random) -> Item | None:
    """The item of the oldest due mistake not asked today: its deal and seat, asking it and the other due
    mistakes of that deal and seat at their own moments (up to `MAX_ITEM_QUESTIONS`, one a checkpoint), on
    a lookalike of the deal when one fits (`_lookalike_item`)."""
    rows = [m for m in (db.get(Attempt, mistake_id) for mistake_id in mistakes) if m is not None and m.user_id == user_id]
    if not rows:
        return None
    first = rows[0]
    data = deal_cache().get(db, _deal_key(db, first.deal_pk))
    taken: dict[int, Ask] = {}
    for mistake in rows:
        if (mistake.deal_pk, mistake.seat) != (first.deal_pk, first.seat) or len(taken) >= MAX_ITEM_QUESTIONS:
            continue
        taken.setdefault(plays_at(data, mistake.position), Ask(mistake.question, "mistake", mistake.id))
    run = db.get(DrillRun, first.run_id)
    return _lookalike_item(db, user_id, Item(first.deal_pk, data, first.seat, taken, run.pace if run else None), rng)


def _lookalike_item(db: Session, user_id: int, item: Item, rng: random.Random) -> Item:
    """A mistakes item moved to a lookalike of its 升级 deal (training.md §4, `drills.lookalike`): the
    lookalike stored as the user's hidden deal (out of the library, never drilled fresh), every question
    carried over to it with its answer recomputed; the item itself when no lookalike fits or a question
    cannot be carried (a 够级 deal, a signal quiz)."""
    if not isinstance(item.data, DealData):
        return item
    look = lookalike(item.data.record, rng.randrange(2**31))
    renaming = None if look is None else lookalike_renaming(look)
    if look is None or renaming is None:
        return item
    carried = {plays: carried_question(Question.from_json(ask.question), look, item.seat, plays, renaming, rng)
               for plays, ask in item.taken.items()}
    if any(question is None for question in carried.values()):
        return item
    deal_pk = _stored_lookalike(db, user_id, look)
    taken = {plays: Ask(question.to_json(), item.taken[plays].kind, item.taken[plays].retry_of)
             for plays, question in carried.items() if question is not None}
    return Item(deal_pk, deal_cache().get(db, _deal_key(db, deal_pk)), item.seat, taken, item.pace)


def _stored_lookalike(db: Session, user_id: int, look: DealRecord) -> int:
    """The pk of the user's hidden deal holding `look`, stored now when it is not there yet."""
    def stored() -> int | None:
        return db.exec(select(Deal.pk).where(Deal.owner_id == user_id, Deal.id == look.id)).first()
    found = stored()
    if found is None:
        row = deal_row(Checked(look.data, look, replay(look)), user_id)
        row.hidden = True
        store(row)
        found = stored()
    assert found is not None
    return found


def _skill_item(db: Session, user_id: int, queue: Sequence[tuple[str, str]], now: datetime,
                rng: random.Random) -> Item | None:
    """The item of the first skill of `queue` that has a fresh position (`choose_position`)."""
    mine = settings(user_id)
    for skill, kind in queue:
        rating = _skill_row(db, user_id, skill).rating
        pace = pace_of(rating)
        chosen = choose_position(db, user_id, skill, rating + DIFFICULTIES.get(mine.difficulty, 0), pace, now, rng)
        if chosen is not None:
            data = deal_cache().get(db, _deal_key(db, chosen.deal_pk))
            return Item(chosen.deal_pk, data, chosen.seat, {chosen.plays: Ask(chosen.question.to_json(), kind)},
                        pace, chosen.signals)
    return None


def go_on(db: Session, daily: DailySession, now: datetime) -> str:
    """Where the session goes on: its next item (`next_run`, stored when new), or, when there is none, the
    day's result (the session closed). Of two requests at once, one stores the next item (the place in
    the session is unique), the other goes to it."""
    for _making in range(2):
        following = next_run(db, daily, now)
        if following is None:
            if daily.finished is None:
                close(db, daily, now)
                store(daily)
            return url_for("daily.today")
        if following.id is not None or store(following):
            return url_for("drills.run_page", run_id=following.id)
    return url_for("daily.today")  # both places taken meanwhile: the page shows where the session stands


def close(db: Session, daily: DailySession, now: datetime) -> None:
    """End a session: its finish time and the streak it makes (yesterday's done: one more)."""
    before = db.exec(select(DailySession.streak).where(DailySession.user_id == daily.user_id,
                                                       DailySession.day == daily.day - timedelta(days=1),
                                                       col(DailySession.finished).is_not(None))).first()
    daily.finished, daily.streak = now, (before or 0) + 1


def streak(db: Session, user_id: int, today: date) -> int:
    """The user's streak: days in a row with the session done, up to today (or yesterday, while today's
    is not done yet); a missed day ends it."""
    last = db.exec(select(DailySession.day, DailySession.streak).where(DailySession.user_id == user_id,
                                                                       col(DailySession.finished).is_not(None))
                   .order_by(col(DailySession.day).desc()).limit(1)).first()
    return last[1] if last is not None and last[0] >= today - timedelta(days=1) else 0


def finished(run: DrillRun) -> str | None:
    """Where a finished daily item or retry goes: the session's next item (made now), or the day's
    result; a retry from the review goes back to its mistake."""
    if run.daily_id is None:
        return url_for("review.show", attempt_id=run.retry_of) if run.retry_of is not None else None
    db, now = get_session(), utcnow()
    daily = db.get(DailySession, run.daily_id)
    if daily is None or daily.user_id != run.user_id:
        return None
    return go_on(db, daily, now)


# -- pages -------------------------------------------------------------------------------------------

def today_session(db: Session, user_id: int, day: date) -> DailySession | None:
    """The user's session of `day`, if started."""
    return db.exec(select(DailySession).where(DailySession.user_id == user_id, DailySession.day == day)).first()


@dataclass(frozen=True, slots=True)
class SkillChange:
    """A skill's rating over a session, and when it comes back."""

    skill: str
    label: str
    before: float
    after: float
    due: datetime | None


@dataclass(frozen=True, slots=True)
class DayResult:
    """A session's result: asked, right, the time answering and watching (seconds), the replays, rating changes,
    what comes back when, the misses."""

    asked: int
    right: int
    seconds: float
    watched: float
    replays: int
    changes: list[SkillChange]
    misses: list[int]
    mistakes_due: list[tuple[str, datetime]]


def skill_labels(skills: Sequence[str]) -> dict[str, str]:
    """Skills in words: the question type and the phase (each word translated once)."""
    phases = {"early": _("early"), "middle": _("middle game"), "late": _("late")}
    kinds = {kind: question_label(kind) for kind in {split_skill(skill)[0] for skill in skills}}
    return {skill: " · ".join([kinds[kind], *([phases.get(phase, phase)] if phase else [])])
            for skill in skills for kind, phase in [split_skill(skill)]}


def day_result(db: Session, daily: DailySession, items: Sequence[tuple[DrillRun, Attempt | None]]) -> DayResult:
    """What a session did (its items with their attempts, `session_runs`; the skills' and mistakes'
    next due dates)."""
    answers = [a for _r, a in items if a is not None]
    firsts: dict[str, tuple[float, float]] = {}
    for attempt in answers:
        if attempt.skill and attempt.rating_before is not None and attempt.rating_after is not None:
            first = firsts.get(attempt.skill, (attempt.rating_before, attempt.rating_after))
            firsts[attempt.skill] = (first[0], attempt.rating_after)
    dues = dict(db.exec(select(UserSkill.skill, UserSkill.due).where(UserSkill.user_id == daily.user_id,
                                                                     col(UserSkill.skill).in_(list(firsts)))).all())
    retried = {mistake for run in runs_of(items) for mistake in retries_of(run)}
    originals = {a.id: a for a in db.exec(select(Attempt).where(
        Attempt.user_id == daily.user_id, col(Attempt.id).in_(sorted(retried)))).all()}
    language = lang()
    comes_back = [(Question.from_json(a.question).prompt[language], aware(a.due)) for a in originals.values() if a.due]
    comes_back += [(Question.from_json(a.question).prompt[language], aware(a.due)) for a in answers
                   if a.due is not None and a.card is not None]
    labels = skill_labels(list(firsts))
    answering = sum(a.ms for a in answers)
    return DayResult(len(answers), sum(a.correct for a in answers), answering / 1000,
                     max(0, spent_ms(items) - answering) / 1000, len({r.id for r, a in items if a is not None}),
                     [SkillChange(s, labels[s], b, e, aware(dues[s]) if dues.get(s) else None)
                      for s, (b, e) in firsts.items()],
                     [a.id for a in answers if not a.correct and a.id is not None], comes_back)


@dataclass(frozen=True, slots=True)
class Today:
    """What the home page and `/today` show of the daily training."""

    day: date
    due: Due
    streak: int
    session: DailySession | None
    rating: float

    @property
    def done(self) -> bool:
        """True when today's session is done."""
        return self.session is not None and self.session.finished is not None


def today_of(user_id: int) -> Today:
    """The user's day: what is due, the streak, today's session, the overall rating."""
    db, now = get_session(), utcnow()
    timezone = settings(user_id).timezone
    day = local_day(now, timezone)
    overall = db.get(UserSkill, (user_id, OVERALL))
    return Today(day, due_now(db, user_id, now, day_end(day, timezone)), streak(db, user_id, day),
                 today_session(db, user_id, day), overall.rating if overall else 1500.0)


@bp.route("/today")
@login_required
def today() -> Any:
    """The daily session: what is due and the start button; in progress, where it stands and Continue;
    done, the day's result and one click to retry every miss."""
    db = get_session()
    state = today_of(g.user.id)
    context: dict[str, Any] = {"state": state, "settings": settings(g.user.id), "minutes": MINUTES,
                               "difficulties": DIFFICULTIES, "lang": lang()}
    if state.session is not None:
        items = session_runs(db, state.session)
        context.update(spent=spent_ms(items) / 1000, answered=sum(1 for _r, a in items if a),
                       result=day_result(db, state.session, items) if state.done else None,
                       pending=pending_runs(items))
    return render_page("today/index.html", "today/_today.html", **context)


@bp.route("/today/start", methods=("POST",))
@login_required
def start() -> Any:
    """Start (or go on with) today's session: its budget from the settings, the browser's time zone kept
    when none is set; then its next item."""
    db, now = get_session(), utcnow()
    mine = settings(g.user.id)
    if mine.timezone is None and request.form.get("tz"):
        mine.timezone = request.form["tz"] if zone(request.form["tz"]).key == request.form["tz"] else None
        store(mine)
    day = local_day(now, mine.timezone)
    daily = today_session(db, g.user.id, day)
    if daily is None:
        daily = DailySession(user_id=g.user.id, day=day, budget_ms=mine.minutes * 60_000, started=now)
        if not store(daily):  # started meanwhile, by another request
            daily = today_session(db, g.user.id, day)
            assert daily is not None
    return go(go_on(db, daily, now))


@bp.route("/today/retry", methods=("POST",))
@login_required
def retry_misses() -> Any:
    """Retry every miss of today's session, one after another (while a retry or another item is pending,
    go on with it: the same POST sent twice makes the retries once)."""
    db = get_session()
    state = today_of(g.user.id)
    if state.session is None:
        return go(url_for("daily.today"))
    for _making in range(2):
        items = session_runs(db, state.session)
        pending = next(iter(pending_runs(items)), None)
        if pending is not None:
            return go(url_for("drills.run_page", run_id=pending.id))
        misses = [attempt for run, attempt in items if attempt is not None and not attempt.correct]
        runs = [retry_run(db, miss, utcnow(), state.session.id, len(runs_of(items)) + place)
                for place, miss in enumerate(misses)]
        if not runs:
            break
        if store(*runs):
            return go(url_for("drills.run_page", run_id=runs[0].id))
        # made meanwhile, by the same POST sent again: the next round goes on with the first of them
    return go(url_for("daily.today"))


@bp.route("/today/settings", methods=("POST",))
@login_required
def save_settings() -> Any:
    """Store the daily session's length, the difficulty and the time zone."""
    mine = settings(g.user.id)
    minutes = request.form.get("minutes", type=int)
    if minutes in MINUTES:
        mine.minutes = minutes
    if request.form.get("difficulty") in DIFFICULTIES:
        mine.difficulty = request.form["difficulty"]
    timezone = request.form.get("timezone", "").strip()
    if timezone and zone(timezone).key == timezone:
        mine.timezone = timezone
    store(mine)
    return go(url_for("daily.today"))


@bp.route("/review/<id:attempt_id>/retry", methods=("POST",))
@login_required
def retry(attempt_id: int) -> Any:
    """Try a mistake again now: its deal's trick replayed up to the moment, the same question; while a retry of
    it from the review is not done, that one goes on (one at a time: the POST sent twice makes one)."""
    db = get_session()
    mistake = _mistake(db, attempt_id)
    for _making in range(2):
        active = db.exec(ACTIVE_RETRY, params={"attempt": mistake.id, "user": mistake.user_id}).first()
        if active is not None:
            return go(url_for("drills.run_page", run_id=active))
        run = retry_run(db, mistake, utcnow())
        if store(run):
            return go(url_for("drills.run_page", run_id=run.id))
    return go(url_for("review.show", attempt_id=attempt_id))


ACTIVE_RETRY = select(DrillRun.id).where(DrillRun.retry_of == sa.bindparam("attempt"),
                                         DrillRun.user_id == sa.bindparam("user"), col(DrillRun.daily_id).is_(None),
                                         DrillRun.status == ACTIVE)
"""The retry of a mistake from the review that is not done yet (at most one: `uq_drill_runs_active_retry_of`)."""


@bp.route("/review/<id:attempt_id>/learned", methods=("POST",))
@login_required
def learned(attempt_id: int) -> Any:
    """Mark a mistake learned (after a right retry): it no longer comes back."""
    db = get_session()
    mistake = _mistake(db, attempt_id)
    if last_retry(db, mistake) is True:
        mistake.learned, mistake.due = utcnow(), None
        store(mistake)
    return go(url_for("review.show", attempt_id=attempt_id))


def _mistake(db: Session, attempt_id: int) -> Attempt:
    """The signed-in user's wrong answer `attempt_id` (anything else is a 404)."""
    mistake = db.exec(select(Attempt).where(Attempt.id == attempt_id, Attempt.user_id == g.user.id,
                                            col(Attempt.correct).is_(False))).first()
    if mistake is None:
        abort(404)
    return mistake


def last_retry(db: Session, mistake: Attempt) -> bool | None:
    """Whether the latest retry of a mistake was right (None: never retried)."""
    return db.exec(select(Attempt.correct).join(DrillRun, col(DrillRun.id) == Attempt.run_id)
                   .where(DrillRun.retry_of == mistake.id, DrillRun.user_id == mistake.user_id)
                   .order_by(col(Attempt.id).desc()).limit(1)).first()

