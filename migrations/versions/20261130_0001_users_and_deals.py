"""users and deals

Revision ID: 0001
Revises: 
Create Date: 2026-11-30
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('users',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('username', sa.String(length=40), nullable=False),
    sa.Column('password_hash', sa.String(length=255), nullable=False),
    sa.Column('created', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_users')),
    sa.UniqueConstraint('username', name=op.f('uq_users_username'))
    )
    op.create_table('deals',
    sa.Column('pk', sa.Integer(), nullable=False),
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('owner_id', sa.Integer(), nullable=True),
    sa.Column('record', sa.JSON(), nullable=False),
    sa.Column('rules', sa.String(length=40), nullable=False),
    sa.Column('custom_rules', sa.Boolean(), nullable=False),
    sa.Column('level', sa.String(length=2), nullable=False),
    sa.Column('trump', sa.String(length=4), nullable=False),
    sa.Column('banker', sa.Integer(), nullable=False),
    sa.Column('complete', sa.Boolean(), nullable=False),
    sa.Column('tricks', sa.Integer(), nullable=False),
    sa.Column('attackers_score', sa.Integer(), nullable=True),
    sa.Column('source_kind', sa.String(length=32), nullable=False),
    sa.Column('created', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['owner_id'], ['users.id'], name=op.f('fk_deals_owner_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('pk', name=op.f('pk_deals')),
    sa.UniqueConstraint('owner_id', 'id', name=op.f('uq_deals_owner_id_id'))
    )
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deals_id'), ['id'], unique=False)
        batch_op.create_index('ix_deals_owner_id_created', ['owner_id', 'created'], unique=False)
        batch_op.create_index('uq_deals_shared_id', ['id'], unique=True, sqlite_where=sa.text('owner_id IS NULL'), postgresql_where=sa.text('owner_id IS NULL'))



def downgrade() -> None:
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.drop_index('uq_deals_shared_id', sqlite_where=sa.text('owner_id IS NULL'), postgresql_where=sa.text('owner_id IS NULL'))
        batch_op.drop_index('ix_deals_owner_id_created')
        batch_op.drop_index(batch_op.f('ix_deals_id'))

    op.drop_table('deals')
    op.drop_table('users')
