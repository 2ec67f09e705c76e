"""the player's signal convention set, and the set a signal drill's run grades against

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('drill_settings') as batch:
        batch.add_column(sa.Column('signals', sa.String(length=40), server_default='basic_89JQ', nullable=False))
    with op.batch_alter_table('drill_runs') as batch:
        batch.add_column(sa.Column('signals', sa.String(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('drill_runs') as batch:
        batch.drop_column('signals')
    with op.batch_alter_table('drill_settings') as batch:
        batch.drop_column('signals')
