"""deals: the game of each record (shengji or gouji), so the library filters and drills pick by game

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('deals') as batch:
        batch.add_column(sa.Column('game', sa.String(length=16), nullable=False, server_default='shengji'))


def downgrade() -> None:
    with op.batch_alter_table('deals') as batch:
        batch.drop_column('game')
