"""drill runs and attempts

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('drill_runs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('drill_id', sa.String(length=40), nullable=False),
    sa.Column('deal_pk', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('checkpoints', sa.JSON(), nullable=False),
    sa.Column('cursor', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('shown_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('started', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('finished', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['deal_pk'], ['deals.pk'], name=op.f('fk_drill_runs_deal_pk_deals'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_drill_runs_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_drill_runs'))
    )
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_drill_runs_deal_pk'), ['deal_pk'], unique=False)
        batch_op.create_index('ix_drill_runs_user_id_started', ['user_id', 'started'], unique=False)

    op.create_table('attempts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('checkpoint', sa.Integer(), nullable=False),
    sa.Column('question', sa.JSON(), nullable=False),
    sa.Column('question_type', sa.String(length=32), nullable=False),
    sa.Column('suit', sa.String(length=8), nullable=True),
    sa.Column('expected', sa.JSON(), nullable=False),
    sa.Column('given', sa.JSON(), nullable=False),
    sa.Column('correct', sa.Boolean(), nullable=False),
    sa.Column('ms', sa.Integer(), nullable=False),
    sa.Column('position', sa.String(length=8), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('deal_pk', sa.Integer(), nullable=False),
    sa.Column('created', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['deal_pk'], ['deals.pk'], name=op.f('fk_attempts_deal_pk_deals'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['run_id'], ['drill_runs.id'], name=op.f('fk_attempts_run_id_drill_runs'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_attempts_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_attempts')),
    sa.UniqueConstraint('run_id', 'checkpoint', name=op.f('uq_attempts_run_id_checkpoint'))
    )
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_attempts_deal_pk'), ['deal_pk'], unique=False)
        batch_op.create_index('ix_attempts_user_id_correct_created', ['user_id', 'correct', 'created'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.drop_index('ix_attempts_user_id_correct_created')
        batch_op.drop_index(batch_op.f('ix_attempts_deal_pk'))

    op.drop_table('attempts')
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.drop_index('ix_drill_runs_user_id_started')
        batch_op.drop_index(batch_op.f('ix_drill_runs_deal_pk'))

    op.drop_table('drill_runs')
