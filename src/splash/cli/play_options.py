"""What the play and referee commands of both games share: ``--resume``, ``--bots`` for the
seats a person does not play, and the bot each of those seats gets."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from splash.core.errors import OptionError
from splash.core.i18n import N_, message

ResumeOption = Annotated[
    Path | None, typer.Option("--resume", help=N_("Go on with a game saved in this file."))
]
OtherBotsOption = Annotated[
    list[str] | None,
    typer.Option(help=N_("Bots for the other seats, in seat order: random,... (last repeats).")),
]


def bots_per_seat(specs: Sequence[str], seats: Sequence[int]) -> dict[int, str]:
    """The bot of each of ``seats``, in order: the specs given (``random`` when none), the
    last one repeated; :class:`OptionError` when there are more specs than seats."""
    given = list(specs) or ["random"]
    if len(given) > len(seats):
        raise OptionError(
            "--bots",
            ",".join(given),
            message("{given} bots for {seats} seats", given=len(given), seats=len(seats)),
        )
    return {seat: given[min(i, len(given) - 1)] for i, seat in enumerate(seats)}
