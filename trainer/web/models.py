"""The web app's tables (SQLModel): users, deals, drill runs and their attempts, the daily training's
skills, sessions, position ratings and practice days, and the starter library's load log. Schema
changes go through `migrations/` (alembic).

Every table the app uses is defined here (or imported here), so that `SQLModel.metadata` — which
the migrations compare against — sees them all. New tables: add the model, then
`alembic revision --autogenerate -m "…"` (see README, "The web app").
"""
from __future__ import annotations

import secrets
import unicodedata
from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import JSON, Field, SQLModel

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Named constraints, so that later migrations (batch mode on SQLite) can find and alter them."""
SQLModel.metadata.naming_convention = NAMING_CONVENTION


def utcnow() -> datetime:
    """Now, in UTC (SQLModel stores aware datetimes and returns them in UTC)."""
    return datetime.now(UTC)


def name_key(name: str) -> str:
    """The form of a user name that names are compared in: Unicode NFKC, case folded (NFKC_Casefold),
    so that `Émile`, `émile` and `ÉMILE` (composed or not, full width or not) are one name.

    >>> name_key("Émile") == name_key("E\u0301MILE") == name_key("éｍｉｌｅ")
    True
    >>> name_key("Straße")
    'strasse'
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def new_session_token() -> str:
    """A fresh random session token (see `User.session_token`)."""
    return secrets.token_urlsafe(24)


NAME_KEY_LENGTH = 160
"""The longest `name_key` stored (NFKC can make a 40-character name longer)."""


class User(SQLModel, table=True):
    """An account: a unique name, a password hash (werkzeug.security), the session token every signed
    session of the account carries, and the count of failed logins (the per-account login limit).

    `username` is shown as typed (NFC); `name_key` (`name_key()` of it) is what is unique and looked
    up. `session_token` changes when the user logs out or changes the password, which ends every
    session that carries the old one. `failed_logins` counts failures since `failed_login_at` minus
    the window (`LOGIN_ACCOUNT_WINDOW`), reset by a successful login.
    """

    __tablename__ = "users"

    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(sa_type=sa.String(40), unique=True)
    name_key: str = Field(sa_type=sa.String(NAME_KEY_LENGTH), unique=True, index=True)
    password_hash: str = Field(sa_type=sa.String(255))
    session_token: str = Field(default_factory=new_session_token, sa_type=sa.String(64))
    failed_logins: int = 0
    failed_login_at: datetime | None = None
    created: datetime = Field(default_factory=utcnow)


class Deal(SQLModel, table=True):
    """A deal record (`jipai-deal/1`) in the library, with the metadata the list filters on.

    `id` is the record's id (records.md: its `id` field or its content hash) and is what URLs
    show; `pk` is the row's own key, for other tables to refer to. The same record may be in
    several users' private libraries (`owner_id`), so `id` is unique per owner; the shared
    starter library (`owner_id` NULL) holds each id once. A deal deleted while runs refer to it is
    `hidden` instead: it leaves the library and is never drilled again, and its history stays whole.
    """

    __tablename__ = "deals"
    __table_args__ = (
        sa.UniqueConstraint("owner_id", "id"),
        sa.Index("uq_deals_shared_id", "id", unique=True,
                 sqlite_where=sa.text("owner_id IS NULL"), postgresql_where=sa.text("owner_id IS NULL")),
        sa.Index("ix_deals_owner_id_hidden_pk", "owner_id", "hidden", "pk"),
    )

    pk: int | None = Field(default=None, primary_key=True)
    id: str = Field(sa_type=sa.String(64), index=True)
    owner_id: int | None = Field(default=None, foreign_key="users.id", ondelete="CASCADE")
    record: dict[str, Any] = Field(sa_type=JSON)
    game: str = Field(default="shengji", sa_type=sa.String(16), sa_column_kwargs={"server_default": "shengji"},
                      description="shengji (升级) or gouji (够级)")
    rules: str = Field(sa_type=sa.String(40), description="the rules preset name")
    custom_rules: bool = Field(default=False, description="options set over the preset")
    decks: int = Field(default=2, sa_column_kwargs={"server_default": "2"}, description="1, 2, 3 or 4 decks")
    level: str = Field(sa_type=sa.String(2))
    trump: str = Field(sa_type=sa.String(4), description="S, H, C, D or none")
    banker: int
    complete: bool
    tricks: int
    attackers_score: int | None = Field(default=None, description="null for an unfinished deal")
    source_kind: str = Field(sa_type=sa.String(32), description="the record's source.kind, or 'import'")
    created: datetime = Field(default_factory=utcnow)
    hidden: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()},
                         description="deleted by its owner but kept for the runs on it")

    @property
    def shared(self) -> bool:
        """True for the starter library everybody sees."""
        return self.owner_id is None


class DrillRun(SQLModel, table=True):
    """One run of a drill by one user on one deal, watched from `seat`.

    `checkpoints` are the play counts where the run stops to ask (ascending); `cursor` is how many
    plays have been shown. Everything a run needs to go on is here, so a run resumes after the tab
    or the server went away. `shown_at` is when the current checkpoint's question was last shown
    (the answer time counts from it). `status` is `active` or `done`. A daily item's place in its
    session (`daily_seq`) is unique, and so is the active retry from the review of one mistake: the same
    "make the next thing" POST sent twice at once makes one run. So is the token of the Start form that made
    a run (`start_token`, per user): the form posted twice (a double click) makes one run.
    """

    __tablename__ = "drill_runs"
    __table_args__ = (sa.Index("ix_drill_runs_user_id_started", "user_id", "started"),
                      sa.Index("ix_drill_runs_user_id_deal_pk", "user_id", "deal_pk"),
                      sa.UniqueConstraint("daily_id", "daily_seq"),
                      sa.UniqueConstraint("user_id", "start_token"),
                      sa.Index("uq_drill_runs_active_retry_of", "retry_of", unique=True,
                               sqlite_where=sa.text("daily_id IS NULL AND status = 'active'"),
                               postgresql_where=sa.text("daily_id IS NULL AND status = 'active'")))

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    drill_id: str = Field(sa_type=sa.String(40))
    deal_pk: int = Field(foreign_key="deals.pk", ondelete="CASCADE", index=True)
    seat: int
    seed: int = Field(sa_type=sa.BigInteger)
    checkpoints: list[int] = Field(sa_type=JSON)
    cursor: int = 0
    status: str = Field(default="active", sa_type=sa.String(12))
    shown_at: datetime | None = None
    started: datetime = Field(default_factory=utcnow)
    finished: datetime | None = None
    signals: str | None = Field(default=None, sa_type=sa.String(40),
                                description="a signal drill's convention set (the player's at the start)")
    daily_id: int | None = Field(default=None, foreign_key="daily_sessions.id", ondelete="CASCADE", index=True,
                                 description="the daily session this one-question run is an item of")
    daily_kind: str | None = Field(default=None, sa_type=sa.String(8), description="mistake, skill or new")
    daily_seq: int | None = Field(default=None, description="the item's place in its daily session (0, 1, …): "
                                                            "unique, so that two requests make one next item")
    retry_of: int | None = Field(default=None, index=True,
                                 description="the wrong attempt this run asks again (no foreign key: attempts "
                                             "refer to runs)")
    question: dict[str, Any] | None = Field(default=None, sa_type=JSON,
                                            description="the question asked at the only checkpoint, when fixed")
    asks: list[dict[str, Any]] | None = Field(
        default=None, sa_type=JSON,
        description="a daily item's questions, one per checkpoint: {question, kind, retry_of} (trainer.web.daily.Ask)")
    pace: float | None = Field(default=None, description="cards per second, instead of the drill's")
    start_token: str | None = Field(default=None, sa_type=sa.String(32),
                                    description="the token of the Start form that made the run (unique per user)")


class Attempt(SQLModel, table=True):
    """One answer at one checkpoint of a run: the question (JSON, with its exact answer), what was
    given, whether it was right, how long it took, and where in which deal from which seat.

    A checkpoint is answered once (unique per run), so a double submit stores one attempt.
    `question_type` and `suit` repeat the question's fields for the review filters.
    """

    __tablename__ = "attempts"
    __table_args__ = (
        sa.UniqueConstraint("run_id", "checkpoint"),
        sa.Index("ix_attempts_user_id_correct_created", "user_id", "correct", "created"),
        sa.Index("ix_attempts_user_id_correct_id", "user_id", "correct", "id"),
        sa.Index("ix_attempts_user_id_due", "user_id", "due"),
        sa.Index("ix_attempts_user_id_cause", "user_id", "cause"),
        sa.Index("ix_attempts_user_id_paced", "user_id", "created", "id", sqlite_where=sa.text("pace IS NOT NULL"),
                 postgresql_where=sa.text("pace IS NOT NULL")),
    )

    id: int | None = Field(default=None, primary_key=True)
    run_id: int = Field(foreign_key="drill_runs.id", ondelete="CASCADE")
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    checkpoint: int = Field(description="index into the run's checkpoints")
    question: dict[str, Any] = Field(sa_type=JSON)
    question_type: str = Field(sa_type=sa.String(32))
    suit: str | None = Field(default=None, sa_type=sa.String(8))
    expected: Any = Field(sa_type=JSON)
    given: Any = Field(sa_type=JSON)
    correct: bool
    ms: int = Field(description="milliseconds from the question shown to the answer")
    position: str = Field(sa_type=sa.String(8), description="T.K (records.md)")
    seat: int
    deal_pk: int = Field(foreign_key="deals.pk", ondelete="CASCADE", index=True)
    created: datetime = Field(default_factory=utcnow)
    skill: str | None = Field(default=None, sa_type=sa.String(40), description="question type:phase")
    rating_before: float | None = Field(default=None, description="the skill's rating before the answer")
    rating_after: float | None = None
    fsrs_rating: int | None = Field(default=None, description="the FSRS rating the answer gave (1 Again … 4 Easy)")
    card: dict[str, Any] | None = Field(default=None, sa_type=JSON, description="a mistake's FSRS card")
    due: datetime | None = Field(default=None, description="when a mistake comes back (null: right, or learned)")
    learned: datetime | None = Field(default=None, description="when a mistake was marked learned")
    cause: str | None = Field(default=None, sa_type=sa.String(16), description="why the answer was wrong")
    pace: float | None = Field(default=None, description="cards per second the reveal ran at before the question "
                                                         "(null: a flash, or an answer stored before it was kept)")
    flash_ms: int | None = Field(default=None, description="a flash's time F (ms) when its trick was shown")


class DrillSettings(SQLModel, table=True):
    """A user's drill settings: the reveal speed (percent of each drill's pace), whether the table
    offers a look at the last trick and shows the cards left in each hand, and the signal convention
    set the signal drills grade against (a `drills/signals/*.toml` name). No row: the defaults."""

    __tablename__ = "drill_settings"

    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    speed: int = Field(default=100, description="percent of the drill's cards per second")
    last_trick: bool = True
    hand_sizes: bool = True
    signals: str = Field(default="basic_89JQ", sa_type=sa.String(40),
                         sa_column_kwargs={"server_default": "basic_89JQ"})


class DailySettings(SQLModel, table=True):
    """A user's daily training settings: minutes a day, difficulty (easier, normal, harder) and time zone
    (None: the browser's, taken when a session starts). No row: the defaults."""

    __tablename__ = "daily_settings"

    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    minutes: int = 10
    difficulty: str = Field(default="normal", sa_type=sa.String(8))
    timezone: str | None = Field(default=None, sa_type=sa.String(64))


class UserSkill(SQLModel, table=True):
    """One user's skill (question type:phase) as a review card and a rating: the FSRS card (JSON), when
    it is due, and the Glicko-2 rating. The row `overall` holds the overall rating (no card)."""

    __tablename__ = "user_skills"
    __table_args__ = (sa.Index("ix_user_skills_user_id_due", "user_id", "due"),)

    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    skill: str = Field(sa_type=sa.String(40), primary_key=True)
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    card: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    due: datetime | None = None
    answers: int = 0
    right: int = 0


class DailySession(SQLModel, table=True):
    """One user's daily session on one day (the user's own date): its time budget, whether it is
    done, and the streak it makes (consecutive days done, counting this one)."""

    __tablename__ = "daily_sessions"
    __table_args__ = (sa.UniqueConstraint("user_id", "day"),)

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE")
    day: date
    budget_ms: int
    started: datetime = Field(default_factory=utcnow)
    finished: datetime | None = None
    streak: int = 0


class PositionRating(SQLModel, table=True):
    """A drill position's difficulty (Glicko-2): a question type asked from one seat after some plays of
    one deal; estimated from its features until answers rate it."""

    __tablename__ = "position_ratings"
    __table_args__ = (sa.UniqueConstraint("deal_pk", "seat", "plays", "question_type"),)

    id: int | None = Field(default=None, primary_key=True)
    deal_pk: int = Field(foreign_key="deals.pk", ondelete="CASCADE")
    seat: int
    plays: int
    question_type: str = Field(sa_type=sa.String(32))
    rating: float
    deviation: float = 350.0
    volatility: float = 0.06
    answers: int = 0


class PracticeDay(SQLModel, table=True):
    """One user's answers of one day (the user's date) under one key — a skill, `overall`, a question
    type (`type:voids`) or a suit (`suit:S`) — kept as they come for the dashboard: how many, how many
    right, their time, and the key's rating at the end of the day (the skill's, the overall one; 0
    for a type or a suit)."""

    __tablename__ = "practice_days"
    __table_args__ = (sa.Index("ix_practice_days_user_id_skill_day", "user_id", "skill", "day"),)

    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    day: date = Field(primary_key=True)
    skill: str = Field(sa_type=sa.String(40), primary_key=True)
    asked: int = 0
    right: int = 0
    ms: int = 0
    rating: float = 1500.0


class LibraryLoad(SQLModel, table=True):
    """One load of the shipped starter library (`trainer.web.library.load_starter_library`): the digest of
    the files it read, how far it has come while it runs (records checked of those read) and what it
    stored. A finished load of the files' present digest tells a later start that it has nothing to read;
    an unfinished one is a load under way (or one that was cut off, which the next load replaces)."""

    __tablename__ = "library_loads"

    id: int | None = Field(default=None, primary_key=True)
    digest: str = Field(sa_type=sa.String(64))
    records: int | None = Field(default=None, description="the records in the files; null until they are read")
    checked: int = 0
    added: int = 0
    left_out: int = Field(default=0, description="invalid records, logged and not stored")
    started: datetime = Field(default_factory=utcnow)
    finished: datetime | None = None


class RunningBest(SQLModel, table=True):
    """A user's best streak of exact answers in running counts (连续数) of one quantity (the question type kept:
    `trumps_unseen`, `attackers_score`, `points_unplayed`), and when it was reached."""

    __tablename__ = "running_bests"

    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    quantity: str = Field(sa_type=sa.String(32), primary_key=True)
    best: int = 0
    reached: datetime = Field(default_factory=utcnow)


class FlashLevel(SQLModel, table=True):
    """A user's flash (闪记): the time F (ms) the next trick is shown for, the right answers in a row at it
    since it last changed, and the flash level (the shortest F kept at ≥ 80 % over the last 10 flashes; null
    while unclear). No row: a new player's (`modes.FlashState()`)."""

    __tablename__ = "flash_levels"

    user_id: int = Field(foreign_key="users.id", ondelete="CASCADE", primary_key=True)
    ms: int
    in_row: int = 0
    level: int | None = None
