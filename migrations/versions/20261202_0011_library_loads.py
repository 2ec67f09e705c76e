"""the starter library's load log: the digest of the shipped files each load read, its progress, what it stored

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('library_loads',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('records', sa.Integer(), nullable=True),
    sa.Column('checked', sa.Integer(), nullable=False),
    sa.Column('added', sa.Integer(), nullable=False),
    sa.Column('left_out', sa.Integer(), nullable=False),
    sa.Column('started', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('finished', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_library_loads'))
    )


def downgrade() -> None:
    op.drop_table('library_loads')
