"""The web app's tables (SQLModel): users and deals. Schema changes go through `migrations/` (alembic).

Every table the app uses is defined here (or imported here), so that `SQLModel.metadata` — which
the migrations compare against — sees them all. New tables: add the model, then
`alembic revision --autogenerate -m "…"` (see README, "The web app").
"""
from __future__ import annotations

from datetime import UTC, datetime
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


class User(SQLModel, table=True):
    """An account: a unique name and a password hash (werkzeug.security)."""

    __tablename__ = "users"

    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(sa_type=sa.String(40), unique=True)
    password_hash: str = Field(sa_type=sa.String(255))
    created: datetime = Field(default_factory=utcnow)


class Deal(SQLModel, table=True):
    """A deal record (`jipai-deal/1`) in the library, with the metadata the list filters on.

    `id` is the record's id (records.md: its `id` field or its content hash) and is what URLs
    show; `pk` is the row's own key, for other tables to refer to. The same record may be in
    several users' private libraries (`owner_id`), so `id` is unique per owner; the shared
    starter library (`owner_id` NULL) holds each id once.
    """

    __tablename__ = "deals"
    __table_args__ = (
        sa.UniqueConstraint("owner_id", "id"),
        sa.Index("uq_deals_shared_id", "id", unique=True,
                 sqlite_where=sa.text("owner_id IS NULL"), postgresql_where=sa.text("owner_id IS NULL")),
        sa.Index("ix_deals_owner_id_created", "owner_id", "created"),
    )

    pk: int | None = Field(default=None, primary_key=True)
    id: str = Field(sa_type=sa.String(64), index=True)
    owner_id: int | None = Field(default=None, foreign_key="users.id", ondelete="CASCADE")
    record: dict[str, Any] = Field(sa_type=JSON)
    rules: str = Field(sa_type=sa.String(40), description="the rules preset name")
    custom_rules: bool = Field(default=False, description="options set over the preset")
    level: str = Field(sa_type=sa.String(2))
    trump: str = Field(sa_type=sa.String(4), description="S, H, C, D or none")
    banker: int
    complete: bool
    tricks: int
    attackers_score: int | None = Field(default=None, description="null for an unfinished deal")
    source_kind: str = Field(sa_type=sa.String(32), description="the record's source.kind, or 'import'")
    created: datetime = Field(default_factory=utcnow)

    @property
    def shared(self) -> bool:
        """True for the starter library everybody sees."""
        return self.owner_id is None
