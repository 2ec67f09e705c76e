"""daily training: skills (FSRS cards and Glicko-2 ratings), daily sessions and settings, position
ratings, practice days; attempts keep skill, ratings, FSRS rating and a mistake's card; runs their daily item

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('daily_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('budget_ms', sa.Integer(), nullable=False),
    sa.Column('started', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('finished', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('streak', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_daily_sessions_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_daily_sessions')),
    sa.UniqueConstraint('user_id', 'day', name=op.f('uq_daily_sessions_user_id_day'))
    )
    op.create_table('daily_settings',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('minutes', sa.Integer(), nullable=False),
    sa.Column('difficulty', sa.String(length=8), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_daily_settings_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', name=op.f('pk_daily_settings'))
    )
    op.create_table('practice_days',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('skill', sa.String(length=40), nullable=False),
    sa.Column('asked', sa.Integer(), nullable=False),
    sa.Column('right', sa.Integer(), nullable=False),
    sa.Column('ms', sa.Integer(), nullable=False),
    sa.Column('rating', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_practice_days_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'day', 'skill', name=op.f('pk_practice_days'))
    )
    with op.batch_alter_table('practice_days', schema=None) as batch_op:
        batch_op.create_index('ix_practice_days_user_id_skill_day', ['user_id', 'skill', 'day'], unique=False)

    op.create_table('user_skills',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('skill', sa.String(length=40), nullable=False),
    sa.Column('rating', sa.Float(), nullable=False),
    sa.Column('deviation', sa.Float(), nullable=False),
    sa.Column('volatility', sa.Float(), nullable=False),
    sa.Column('card', sa.JSON(), nullable=True),
    sa.Column('due', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('answers', sa.Integer(), nullable=False),
    sa.Column('right', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_user_skills_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'skill', name=op.f('pk_user_skills'))
    )
    with op.batch_alter_table('user_skills', schema=None) as batch_op:
        batch_op.create_index('ix_user_skills_user_id_due', ['user_id', 'due'], unique=False)

    op.create_table('position_ratings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('deal_pk', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('plays', sa.Integer(), nullable=False),
    sa.Column('question_type', sa.String(length=32), nullable=False),
    sa.Column('rating', sa.Float(), nullable=False),
    sa.Column('deviation', sa.Float(), nullable=False),
    sa.Column('volatility', sa.Float(), nullable=False),
    sa.Column('answers', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['deal_pk'], ['deals.pk'], name=op.f('fk_position_ratings_deal_pk_deals'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_position_ratings')),
    sa.UniqueConstraint('deal_pk', 'seat', 'plays', 'question_type', name=op.f('uq_position_ratings_deal_pk_seat_plays_question_type'))
    )
    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('skill', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('rating_before', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('rating_after', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('fsrs_rating', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('card', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('due', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('learned', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('cause', sa.String(length=16), nullable=True))
        batch_op.create_index('ix_attempts_user_id_cause', ['user_id', 'cause'], unique=False)
        batch_op.create_index('ix_attempts_user_id_due', ['user_id', 'due'], unique=False)

    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('daily_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('daily_kind', sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column('retry_of', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('question', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('pace', sa.Float(), nullable=True))
        batch_op.create_index(batch_op.f('ix_drill_runs_daily_id'), ['daily_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_drill_runs_retry_of'), ['retry_of'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_drill_runs_daily_id_daily_sessions'), 'daily_sessions', ['daily_id'], ['id'], ondelete='CASCADE')



def downgrade() -> None:
    with op.batch_alter_table('drill_runs', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_drill_runs_daily_id_daily_sessions'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_drill_runs_retry_of'))
        batch_op.drop_index(batch_op.f('ix_drill_runs_daily_id'))
        batch_op.drop_column('pace')
        batch_op.drop_column('question')
        batch_op.drop_column('retry_of')
        batch_op.drop_column('daily_kind')
        batch_op.drop_column('daily_id')

    with op.batch_alter_table('attempts', schema=None) as batch_op:
        batch_op.drop_index('ix_attempts_user_id_due')
        batch_op.drop_index('ix_attempts_user_id_cause')
        batch_op.drop_column('cause')
        batch_op.drop_column('learned')
        batch_op.drop_column('due')
        batch_op.drop_column('card')
        batch_op.drop_column('fsrs_rating')
        batch_op.drop_column('rating_after')
        batch_op.drop_column('rating_before')
        batch_op.drop_column('skill')

    op.drop_table('position_ratings')
    with op.batch_alter_table('user_skills', schema=None) as batch_op:
        batch_op.drop_index('ix_user_skills_user_id_due')

    op.drop_table('user_skills')
    with op.batch_alter_table('practice_days', schema=None) as batch_op:
        batch_op.drop_index('ix_practice_days_user_id_skill_day')

    op.drop_table('practice_days')
    op.drop_table('daily_settings')
    op.drop_table('daily_sessions')
