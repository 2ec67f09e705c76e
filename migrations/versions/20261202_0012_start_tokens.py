"""start tokens: the token of the Start form that made a run, unique per user, so that the form posted twice
at once (a double click) makes one run

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('start_token', sa.String(length=32), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_drill_runs_user_id_start_token'), ['user_id', 'start_token'])


def downgrade() -> None:
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_drill_runs_user_id_start_token'), type_='unique')
        batch_op.drop_column('start_token')
