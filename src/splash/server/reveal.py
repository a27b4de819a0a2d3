"""What a finished game's replay reveals of its chance (``meta.fairness``): the room's
secret with the commitment shown before play, the seats' client seeds, and whatever else a
checker needs to re-derive every draw, ruling and bot decision (``splash verify``).

Nothing here is sent before the game is over or the room closed: the replay of a running
game is refused (409 ``game_running``).
"""

from __future__ import annotations

import platform
from collections.abc import Sequence
from importlib import metadata

import numpy as np

from splash.core.fairness import DERIVATION, SEED_DERIVATION, Reveal, SeatRecord, commitment
from splash.server.options import RoomOptions, Seat
from splash.server.storage import RoomRow

DISTRIBUTION = "splash-games"
"""The name splash is installed under."""


def software_versions() -> dict[str, str]:
    """The versions of splash, numpy, MuJoCo and Python that serve here (``unknown`` for
    one this install lacks)."""
    try:
        splash = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        splash = "unknown"
    try:
        import mujoco

        physics = str(mujoco.__version__)
    except ImportError:
        physics = "unknown"
    return {
        "splash": splash,
        "numpy": np.__version__,
        "mujoco": physics,
        "python": platform.python_version(),
    }


def reveal(row: RoomRow, seats: Sequence[Seat], options: RoomOptions) -> Reveal:
    """The reveal of room ``row`` with its ``seats`` and ``options``, once its game ended."""
    secret = bytes.fromhex(row.secret) if row.secret is not None else None
    return Reveal(
        derivation=DERIVATION if secret is not None else SEED_DERIVATION,
        commitment=commitment(secret) if secret is not None else None,
        secret=row.secret,
        seed=None if secret is not None else row.seed,
        mode=row.mode,
        settings=tuple(row.settings),
        timer_bot=options.timer_bot,
        digital=tuple(options.digital),
        seats=tuple(SeatRecord(s.seat, s.kind, s.bot, s.client_seed) for s in seats),
        versions=software_versions(),
        machine=platform.machine(),
    )


__all__ = ["DISTRIBUTION", "reveal", "software_versions"]
