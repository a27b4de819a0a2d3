"""Errors of the physics layer: placements that cannot be simulated, towers that make no sense."""

from __future__ import annotations

from collections.abc import Sequence

from splash.core.errors import ActionError, OutcomeError
from splash.core.i18n import Message, message


class PlacementError(ActionError):
    """A placement action the physics cannot carry out."""


class InvalidPlacementError(PlacementError):
    """A placement that names an unknown piece, face or target, or a piece already placed."""

    def __init__(self, placement: object, problem: Message) -> None:
        self.placement = placement
        self.problem = problem
        super().__init__(
            message(
                "invalid placement {placement}: {problem}", placement=placement, problem=problem
            )
        )


class PlacementRefusedError(PlacementError):
    """A chosen pose that breaks T06/TD13: it touches something other than its target
    (``touching`` names what, ``table`` for the table), or does not rest on its target."""

    def __init__(
        self, placement: object, touching: Sequence[str], *, on_target: bool = True
    ) -> None:
        self.placement = placement
        self.touching = tuple(touching)
        self.on_target = on_target
        if touching:
            text = message(
                "placement {placement} refused: it would touch {touching} besides its target",
                placement=placement,
                touching=", ".join(self.touching),
            )
        else:
            text = message(
                "placement {placement} refused: the piece would not rest on its target",
                placement=placement,
            )
        super().__init__(text)


class TowerStateError(OutcomeError):
    """Recorded tower poses that cannot be simulated (an unknown or repeated piece, a
    support that is not in the tower, a pose that is not finite)."""

    def __init__(self, piece: str, problem: Message) -> None:
        self.piece = piece
        self.problem = problem
        super().__init__(message("tower piece {piece!r}: {problem}", piece=piece, problem=problem))
