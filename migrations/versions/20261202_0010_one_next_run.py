"""one next run: a daily item's place in its session (unique per session) and one active review retry
per mistake, so that a "make the next thing" POST sent twice at once makes one run

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE_REVIEW_RETRY = "daily_id IS NULL AND status = 'active'"


def upgrade() -> None:
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('daily_seq', sa.Integer(), nullable=True))
    # the items stored so far get their places in order; of two active review retries of one mistake (made
    # before this), all but the newest end
    op.execute("UPDATE drill_runs SET daily_seq = (SELECT count(*) FROM drill_runs AS earlier "
               "WHERE earlier.daily_id = drill_runs.daily_id AND earlier.id < drill_runs.id) "
               "WHERE daily_id IS NOT NULL")
    op.execute("UPDATE drill_runs SET status = 'done' WHERE daily_id IS NULL AND status = 'active' "
               "AND retry_of IS NOT NULL AND id < (SELECT max(newer.id) FROM drill_runs AS newer "
               "WHERE newer.retry_of = drill_runs.retry_of AND newer.daily_id IS NULL AND newer.status = 'active')")
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.create_unique_constraint(batch_op.f('uq_drill_runs_daily_id_daily_seq'), ['daily_id', 'daily_seq'])
        batch_op.create_index('uq_drill_runs_active_retry_of', ['retry_of'], unique=True,
                              sqlite_where=sa.text(ACTIVE_REVIEW_RETRY),
                              postgresql_where=sa.text(ACTIVE_REVIEW_RETRY))


def downgrade() -> None:
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.drop_index('uq_drill_runs_active_retry_of', sqlite_where=sa.text(ACTIVE_REVIEW_RETRY),
                            postgresql_where=sa.text(ACTIVE_REVIEW_RETRY))
        batch_op.drop_constraint(batch_op.f('uq_drill_runs_daily_id_daily_seq'), type_='unique')
        batch_op.drop_column('daily_seq')
