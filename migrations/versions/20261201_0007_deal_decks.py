"""the deck count of every deal, for the library's filter (one, two, three or four decks)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # every deal stored before this revision is a two-deck deal: the library accepted no other
    with op.batch_alter_table('deals') as batch:
        batch.add_column(sa.Column('decks', sa.Integer(), server_default='2', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('deals') as batch:
        batch.drop_column('decks')
