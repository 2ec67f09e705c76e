"""counting modes: each answer's reveal pace (indexed per user for the count speed) and flash time, the best running-count streak per quantity, the
flash time and level per player (training.md §5)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PACED = "pace IS NOT NULL"
"""The answers the count speed reads (/stats: a user's last ones, by time)."""


def upgrade() -> None:
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('pace', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('flash_ms', sa.Integer(), nullable=True))
        batch_op.create_index('ix_attempts_user_id_paced', ['user_id', 'created', 'id'], unique=False,
                              sqlite_where=sa.text(PACED), postgresql_where=sa.text(PACED))
    op.create_table(
        'running_bests',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('quantity', sa.String(length=32), nullable=False),
        sa.Column('best', sa.Integer(), nullable=False),
        sa.Column('reached', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('user_id', 'quantity'),
    )
    op.create_table(
        'flash_levels',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('ms', sa.Integer(), nullable=False),
        sa.Column('in_row', sa.Integer(), nullable=False),
        sa.Column('level', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('user_id'),
    )


def downgrade() -> None:
    op.drop_table('flash_levels')
    op.drop_table('running_bests')
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.drop_index('ix_attempts_user_id_paced')
        batch_op.drop_column('flash_ms')
        batch_op.drop_column('pace')
