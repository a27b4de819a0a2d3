"""The static ruling as an outcome provider: ``physics.ruling=statics``
(:func:`~splash.physics.games.placement_outcomes`; the ruling itself and what it models:
:mod:`splash.physics.static_ruling`)."""

from __future__ import annotations

from collections.abc import Sequence

from splash.core.actions import Json
from splash.physics.judge import Thresholds
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, Tremor
from splash.physics.poses import PieceRest
from splash.physics.provider import PhysicsOutcomes
from splash.physics.static_ruling import RULING, rule_statically, rule_with_margin

__all__ = ["RULING", "StaticOutcomes", "rule_statically"]


class StaticOutcomes(PhysicsOutcomes):
    """Placement outcomes from the static check (module docs), with the placer's seeded
    tremor drawn exactly as :class:`~splash.physics.provider.PhysicsOutcomes` draws it: the
    same seed gives the same tremors, placement after placement."""

    def rule(
        self,
        model: TowerModel,
        tower: Sequence[PieceRest],
        placement: Placement,
        tremor: Tremor,
        *,
        forced: bool,
        thresholds: Thresholds,
    ) -> tuple[RulingOutcome, dict[str, Json]]:
        """The static ruling, and the record of it for the outcome's ``details`` (the
        static check has no use for the TD07 ``thresholds``: module docs)."""
        outcome, _ = rule_with_margin(model, tower, placement, tremor, forced=forced)
        return outcome, {"ruling": RULING, "margin_mm": outcome.margin_mm, "method": outcome.method}
