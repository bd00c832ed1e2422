"""Score pads: games played with real cards, kept for the browser that started them (docs/pad.md).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "score_pads",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("share", sa.String(32), nullable=False, unique=True),
        sa.Column("player", sa.String(64), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("pad", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("score_pads")
