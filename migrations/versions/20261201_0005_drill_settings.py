"""a user's drill settings: reveal speed, last-trick look, hand sizes

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'drill_settings',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('speed', sa.Integer(), nullable=False),
        sa.Column('last_trick', sa.Boolean(), nullable=False),
        sa.Column('hand_sizes', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('user_id'),
    )


def downgrade() -> None:
    op.drop_table('drill_settings')
