"""Seat connections, for every process's lobby.

How many connections each seat has open on the process that serves its room, so that the
lobby of any process can mark who is there.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``seats.connections`` (``NULL``: none, as in every room stored before)."""
    op.add_column("seats", sa.Column("connections", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop ``seats.connections``."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("connections")
