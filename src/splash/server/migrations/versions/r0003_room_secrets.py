"""Room secrets and client seeds, for chance anyone can check.

A room's secret (hex; its commitment is shown from the start, the secret at the end) and
each seat's client seed (:mod:`splash.core.fairness`); ``NULL`` in every room stored
before, which keeps drawing from its 62-bit seed.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``rooms.secret`` and ``seats.client_seed``."""
    op.add_column("rooms", sa.Column("secret", sa.String(64), nullable=True))
    op.add_column("seats", sa.Column("client_seed", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop ``rooms.secret`` and ``seats.client_seed``."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("client_seed")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("secret")
