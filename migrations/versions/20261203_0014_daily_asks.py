"""daily asks: a daily item asks several questions along one replay, one per checkpoint, each with its kind
(mistake, skill, new, practice) and the mistake it reviews

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('asks', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.drop_column('asks')
