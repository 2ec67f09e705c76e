"""user name keys, session tokens, failed logins

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Adds to `users`: `name_key` (the NFKC-casefolded name, unique), `session_token` (ends sessions on
log-out and password change) and the per-account login limit's `failed_logins` / `failed_login_at`.

Existing names that fold to the same key (possible before: on SQLite `lower()` folds only ASCII,
and two registrations at once could both pass the check) keep their accounts: the oldest account
(lowest id) gets the key, each later one the key followed by `#<id>` (`#` is not allowed in a
name, so no new name can take it); those later accounts still log in by their exact name.

Only columns are added and an index created, never a table rebuilt: on SQLite a rebuild of `users`
(alembic's batch mode) would drop the table with foreign keys on, deleting every user's deals,
runs and answers by cascade. So the new NOT NULL columns are added with a default, which SQLite
keeps (the app always sets them); PostgreSQL drops it.
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

from trainer.web.models import NAME_KEY_LENGTH, name_key, new_session_token

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NEW_COLUMNS = (
    sa.Column('name_key', sa.String(length=NAME_KEY_LENGTH), nullable=False, server_default=''),
    sa.Column('session_token', sa.String(length=64), nullable=False, server_default=''),
    sa.Column('failed_logins', sa.Integer(), nullable=False, server_default='0'),
    sa.Column('failed_login_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
)


def upgrade() -> None:
    for column in NEW_COLUMNS:
        op.add_column('users', column)
    users = sa.table('users', sa.column('id', sa.Integer()), sa.column('username', sa.String()),
                     sa.column('name_key', sa.String()), sa.column('session_token', sa.String()))
    connection = op.get_bind()
    taken: set[str] = set()
    rows = connection.execute(sa.select(users.c.id, users.c.username).order_by(users.c.id)).all()
    for user_id, username in rows:
        key = name_key(username)
        if key in taken or len(key) > NAME_KEY_LENGTH:
            key = f"{key[:NAME_KEY_LENGTH - 24]}#{user_id}"
        taken.add(key)
        connection.execute(sa.update(users).where(users.c.id == user_id)
                           .values(name_key=key, session_token=new_session_token()))
    op.create_index(op.f('ix_users_name_key'), 'users', ['name_key'], unique=True)
    if connection.dialect.name != 'sqlite':
        for column in NEW_COLUMNS[:3]:
            op.alter_column('users', column.name, server_default=None)


def downgrade() -> None:
    op.drop_index(op.f('ix_users_name_key'), table_name='users')
    for column in reversed(NEW_COLUMNS):
        op.drop_column('users', column.name)
