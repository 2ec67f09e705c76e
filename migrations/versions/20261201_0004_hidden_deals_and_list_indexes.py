"""hidden deals and the indexes of the lists and of starting a run

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hidden', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.drop_index('ix_deals_owner_id_created')
        batch_op.create_index('ix_deals_owner_id_hidden_pk', ['owner_id', 'hidden', 'pk'], unique=False)
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.create_index('ix_drill_runs_user_id_deal_pk', ['user_id', 'deal_pk'], unique=False)
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.create_index('ix_attempts_user_id_correct_id', ['user_id', 'correct', 'id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.drop_index('ix_attempts_user_id_correct_id')
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.drop_index('ix_drill_runs_user_id_deal_pk')
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.drop_index('ix_deals_owner_id_hidden_pk')
        batch_op.create_index('ix_deals_owner_id_created', ['owner_id', 'created'], unique=False)
        batch_op.drop_column('hidden')
