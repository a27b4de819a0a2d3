"""The seeded choices of a golden playthrough: decisions, chance outcomes, Splash! reports.

Nothing here touches the physics.  One playthrough seed is split (``numpy``'s
``SeedSequence.spawn``) into three independent streams: the decisions, the chance outcomes
that can be enumerated (rolls, draws, deals: :class:`~splash.core.outcomes.RandomOutcomes`)
and the Splash! placement reports (:mod:`splash.games.tower.referee`).

- A decision is a uniformly random legal action.  A Splash! placement (TD13) has no list of
  legal actions: it is a random face of the gift turned a multiple of 15 degrees at a whole
  number of millimetres from the target's centre, or, now and then, no pose at all (both are
  legal in referee play).  The project's own random bot is not used, so that a change to the
  bots does not move these files: they pin the rules engines only.
- A placement's outcome is what people at a real table would report: it stood (now and then
  leaving room on its target, TD04), it fell (a standing stack climbing from the base along
  the supports, everything else on the table, the gift included), the tower fell by itself
  (T17), or someone other than the placer knocked it over (T18: at least one piece lies on
  the table).  The first piece always
  stands.  Its floats are rounded before it is applied (:func:`canonical`), so that the log
  replays to exactly the state that was recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

import numpy as np

from splash.core.actions import Action, Json
from splash.core.outcomes import RandomOutcomes
from splash.core.protocol import State
from splash.games.tower import TowerState
from splash.games.tower import referee as report

DECIMALS = 6
"""Floats are kept to 1e-6 (millimetres, degrees, utilities)."""

RESULTS = ("stood", "fell", "spontaneous", "knocked")


def canonical(value: Json) -> Json:
    """``value`` with the keys of every object sorted and every float rounded to
    :data:`DECIMALS` places (``-0.0`` written ``0.0``)."""
    match value:
        case bool() | int() | str() | None:
            return value
        case float():
            return round(value, DECIMALS) + 0.0
        case list():
            return [canonical(item) for item in value]
        case dict():
            return {key: canonical(value[key]) for key in sorted(value)}


@dataclass(frozen=True)
class Reports:
    """How often each placement outcome is reported (weights, normalised over the outcomes
    possible at the time: a fall of the tower needs a tower)."""

    stood: float = 0.70
    fell: float = 0.25
    spontaneous: float = 0.03
    knocked: float = 0.02
    room_left: float = 0.1
    """Of the placements that stood, the share that left room on their target (TD04)."""
    bare: float = 0.2
    """The share of placements made without a pose."""

    def to_json(self) -> dict[str, Json]:
        """The parameters, as the golden file records them."""
        return dict(asdict(self))

    @staticmethod
    def from_json(doc: Mapping[str, Json]) -> Reports:
        """The inverse of :meth:`to_json`."""
        weights: dict[str, float] = {}
        for name in asdict(Reports()):
            value = doc.get(name)
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise ValueError(f"placement report weight {name} must be a number: {value!r}")
            weights[name] = float(value)
        return Reports(**weights)


class SeededPlayer:
    """Chooses every action of one playthrough from ``seed``."""

    def __init__(self, seed: int, reports: Reports) -> None:
        decisions, chance, placements = np.random.SeedSequence(seed).spawn(3)
        self._rng = np.random.default_rng(decisions)
        self._chance = RandomOutcomes(chance)
        self._reports_rng = np.random.default_rng(placements)
        self._reports = reports

    def __call__(self, state: State) -> Action:
        """The action to apply to ``state`` (a decision or a chance outcome)."""
        if isinstance(state, TowerState) and state.phase == "result":
            return self._report(state)
        if state.is_chance():
            return self._chance.outcome(state)
        if isinstance(state, TowerState) and state.phase == "place":
            return self._place(state)
        legal = state.legal_actions()
        return legal[int(self._rng.integers(len(legal)))]

    def _place(self, state: TowerState) -> Action:
        game = state.tower_game
        if self._rng.random() < self._reports.bare or state.gift is None:
            return game.parse_action({"kind": "place"})
        faces = list(game.catalogue.shape_of(state.gift).faces)
        pose: dict[str, Json] = {
            "kind": "place",
            "face": faces[int(self._rng.integers(len(faces)))],
            "rotation_deg": float(15 * self._rng.integers(-12, 13)),
            "x_mm": float(self._rng.integers(-5, 6)),
            "y_mm": float(self._rng.integers(-5, 6)),
        }
        return game.parse_action(pose)

    def _report(self, state: TowerState) -> Action:
        rng, weights, gift = self._reports_rng, self._reports, state.gift
        if gift is None:
            raise ValueError(f"no piece is being placed: {state.describe()}")
        possible = ("stood",) if not state.tower.pieces else RESULTS
        weight = {
            "stood": weights.stood,
            "fell": weights.fell,
            "spontaneous": weights.spontaneous,
            "knocked": weights.knocked,
        }
        shares = np.array([weight[result] for result in possible])
        result = possible[int(rng.choice(len(possible), p=shares / shares.sum()))]
        action: Action
        match result:
            case "stood":
                action = report.stood(state, room_left=bool(rng.random() < weights.room_left))
            case "spontaneous":
                action = report.spontaneous(state)
            case "fell":
                standing = self._standing(state, rng)
                on_table = [p for p in (*state.tower.ids(), gift) if p not in standing]
                action = report.fell(state, [standing] if standing else [], on_table)
            case "knocked":
                standing = self._standing(state, rng)
                if len(standing) == len(state.tower):  # knocked over: not all of it stands
                    standing = standing[:-1]
                on_table = [p for p in state.tower.ids() if p not in standing]
                others = [seat for seat in range(state.players) if seat != state.placer]
                knocker = others[int(rng.integers(len(others)))]
                action = report.knocked(state, knocker, [standing] if standing else [], on_table)
            case _:
                raise ValueError(f"unknown placement result {result!r}")
        return state.tower_game.parse_action(canonical(action.to_json()))

    @staticmethod
    def _standing(state: TowerState, rng: np.random.Generator) -> list[str]:
        """The base and the first few pieces climbing from it, each on its support."""
        pieces = state.tower.pieces
        chain = [p.piece for p in pieces if p.support is None][:1]
        while chain:
            above = [p.piece for p in pieces if p.support == chain[-1]]
            if not above:
                break
            chain.append(above[0])
        return chain[: int(rng.integers(len(chain) + 1))]
