"""The baseline: rooms, seats, action logs and room leases.

The schema as the last version without revisions left it.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

from alembic import op

from splash.server.migrate import baseline_metadata

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the baseline's tables."""
    baseline_metadata().create_all(op.get_bind())


def downgrade() -> None:
    """Drop every table of the store."""
    baseline_metadata().drop_all(op.get_bind())
