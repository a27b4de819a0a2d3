"""The physics as an outcome provider of Splash! placements (TD08, TD13-TD15).

:class:`PhysicsOutcomes` answers the ``placement`` chance events of a
:class:`~splash.games.tower.TowerGame`: it draws the placer's tremor from its own seeded
generator, rules the placement with MuJoCo and reports the outcome as the rules read it,
with every settled pose (a replay needs no physics).  :func:`physics_game` builds a game
whose placements are checked against T06 before any simulation.

The physics layer has settings of its own (:mod:`splash.physics.settings`), given like the
game's (``--set KEY=VALUE``) and kept out of the rules engine: :func:`physics_game` accepts
them beside the game's; :func:`splash.physics.games.placement_outcomes` builds the provider
they name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from splash.core.actions import Action, Json
from splash.core.errors import OutcomeError, SplashError
from splash.core.i18n import Message, message
from splash.core.protocol import State
from splash.games.tower import TowerGame, TowerState
from splash.games.tower.catalogue import Catalogue
from splash.games.tower.outcome import OUTCOME_FORMAT
from splash.games.tower.rules import forced, target_of
from splash.games.tower.tops import GeometricFit, Rest, free_tops, height_mm
from splash.games.tower.tower import TABLE, TowerPiece
from splash.physics.batch import ModelPool
from splash.physics.judge import Thresholds
from splash.physics.model import TowerModel
from splash.physics.outcome import RulingOutcome
from splash.physics.placement import Placement, PoseProbe, Steadiness, Tremor, release
from splash.physics.poses import PieceRest, Pose
from splash.physics.ruling import RulingSettings, rule
from splash.physics.settings import game_assignments, physics_settings


@lru_cache(maxsize=4)
def shared_model(catalogue: Catalogue) -> TowerModel:
    """One MuJoCo model per catalogue, reused (its state is restored before each use)."""
    return TowerModel(catalogue)


def rests_of(state: TowerState) -> list[PieceRest]:
    """The tower's recorded poses, base first."""
    rests = []
    for piece in state.tower.pieces:
        if piece.pose is None:
            raise OutcomeError(
                message("{piece} has no recorded pose: the physics cannot rule", piece=piece.piece)
            )
        rests.append(
            PieceRest(
                piece.piece,
                piece.face,
                piece.support,
                Pose.of(piece.pose["position"], piece.pose["quaternion"]),
            )
        )
    return rests


def placement_of(state: TowerState, action: Action | None = None) -> Placement:
    """The placement the placer chose (a centred pose on the first face when none was given)."""
    assert state.gift is not None
    return _placement_on(state, action, target_of(state, state.gift))


def _placement_on(state: TowerState, action: Action | None, target: TowerPiece | None) -> Placement:
    assert state.gift is not None
    params: dict[str, Any] = (
        dict(action.params) if action is not None else dict(state.placement or {})
    )
    face = params.get("face") or next(iter(state.tower_game.catalogue.shape_of(state.gift).faces))
    return Placement(
        piece=state.gift,
        face=str(face),
        rotation_deg=float(params.get("rotation_deg", 0.0)),
        offset=(float(params.get("x_mm", 0.0)) / 1000.0, float(params.get("y_mm", 0.0)) / 1000.0),
        target=target.piece if target is not None else TABLE,
    )


def pose_check(state: State, action: Action) -> Message | None:
    """What the chosen pose would touch besides its target (T06, TD13), before simulating."""
    if not isinstance(state, TowerState):
        return message("not a Splash! state")
    catalogue = state.tower_game.catalogue
    if state.gift is not None and forced(state, state.gift):
        return None
    try:
        release(shared_model(catalogue), rests_of(state), placement_of(state, action))
    except SplashError as error:
        return error.text
    return None


def pose_checks(state: State, actions: Iterable[Action]) -> list[Message | None]:
    """:func:`pose_check` of each of ``actions`` (placements of the gift), found at once:
    whether the placement is forced, the tower's poses and the target once, the tower loaded
    into the model once, each further pose only moved there (:class:`PoseProbe`)."""
    chosen = list(actions)
    if not isinstance(state, TowerState) or state.gift is None:
        return [pose_check(state, action) for action in chosen]
    if forced(state, state.gift):
        return [None] * len(chosen)
    try:
        tower = rests_of(state)
    except SplashError as error:
        return [error.text] * len(chosen)
    target = target_of(state, state.gift)
    placements = [_placement_on(state, action, target) for action in chosen]
    try:
        probe = PoseProbe(shared_model(state.tower_game.catalogue), tower)
    except SplashError as error:
        return [error.text] * len(chosen)
    verdicts: list[Message | None] = []
    for placement in placements:
        try:
            probe.check(placement)
        except SplashError as error:
            verdicts.append(error.text)
        else:
            verdicts.append(None)
    return verdicts


def physics_game(assignments: Iterable[tuple[str, Any]] = (), **kwargs: Any) -> TowerGame:
    """A Splash! game whose placements are checked by the physics (T06), and whose targets
    are pieces on which the gift has a pose that touches nothing else (TD04).

    ``assignments`` may hold the physics layer's settings (``physics.*``): they are checked
    (:func:`physics_settings`) and not passed to the rules engine."""
    given = list(assignments)
    physics_settings(given)
    game = TowerGame.from_settings(game_assignments(given), pose_check=pose_check, **kwargs)
    game.fits = GeometricFit(game.catalogue)
    return game


def _rest(piece: PieceRest) -> Rest:
    return Rest(piece.piece, piece.face, piece.support, piece.pose.position, piece.pose.quaternion)


def _tower_pieces(
    catalogue: Catalogue, pieces: Sequence[PieceRest], previous: dict[str, bool], changed: set[str]
) -> list[TowerPiece]:
    rests = [_rest(p) for p in pieces]
    recompute = [p.piece for p in pieces if p.piece in changed or p.piece not in previous]
    tops = {**previous, **free_tops(catalogue, rests, recompute)}
    return [
        TowerPiece(
            p.piece,
            p.support,
            p.face,
            height_mm(catalogue, r),
            tops[p.piece],
            index,
            {"position": p.pose.position, "quaternion": p.pose.quaternion},
        )
        for index, (p, r) in enumerate(zip(pieces, rests, strict=True))
    ]


def outcome_document(
    state: TowerState, ruling: RulingOutcome, extra: dict[str, Json] | None = None
) -> dict[str, Json]:
    """The outcome of ``ruling`` as the rules read it (``splash/tower-outcome/1``), with
    ``extra`` added to its ``details`` (the provider's record, never read by the rules)."""
    catalogue = state.tower_game.catalogue
    previous = {p.piece: p.uncovered for p in state.tower.pieces}
    supports = {p.piece: p.support for p in state.tower.pieces}
    now = {p.piece: p.support for p in ruling.pieces}
    changed = {p for p in now if now[p] != supports.get(p)} | {
        s for s in (*now.values(), *supports.values()) if s
    }
    changed |= {p for p in previous if p not in now}
    details: dict[str, Any] = {
        "tremor": dict(ruling.tremor.to_json()),
        "release": ruling.release.to_json(),
        "simulated_s": ruling.simulated_s,
        "placement": ruling.placement.to_json(),
        **(extra or {}),
    }
    doc: dict[str, Json] = {"format": OUTCOME_FORMAT, "result": ruling.result, "details": details}
    if ruling.result == "spontaneous":
        return doc
    pieces = ruling.tower() if ruling.result == "stood" else ruling.pieces
    doc["tower"] = [p.to_json() for p in _tower_pieces(catalogue, pieces, previous, changed)]
    if ruling.result == "fell":
        doc["stacks"] = [list(s) for s in ruling.stacks]
        doc["on_table"] = list(ruling.on_table)
    return doc


class PhysicsOutcomes:
    """Placement outcomes from the simulation, with the placer's seeded tremor (TD14, TD15)."""

    def __init__(
        self, seed: int | np.random.SeedSequence, *, settings: RulingSettings | None = None
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.settings = settings

    def outcome(self, state: State) -> Action:
        """The ruled outcome of the placement ``state`` waits for."""
        (action,) = placement_outcomes_at_once(state, [self], pool=None)
        return action

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
        """The ruling of one placement with its tremor sample and the game's fall
        ``thresholds`` (TD07), and what to add to the outcome's ``details`` (here the
        ruling's method and version, and the executed pose's static margin in mm)."""
        settings = replace(self.settings or RulingSettings(), thresholds=thresholds)
        ruling = rule(model, tower, placement, tremor, settings, forced=forced)
        return ruling, {"method": ruling.method, "margin_mm": ruling.margin_mm}


@dataclass(frozen=True)
class _Asked:
    """What one provider rules: its tremor sample of the placement."""

    provider: PhysicsOutcomes
    tremor: Tremor


def placement_outcomes_at_once(
    state: State, providers: Sequence[PhysicsOutcomes], pool: ModelPool | None = None
) -> list[Action]:
    """The outcome each of ``providers`` gives the placement ``state`` waits for, ruled in
    one batch on ``pool`` (one after another on the shared model when ``None``): each
    provider draws its tremor from its own generator, as :meth:`PhysicsOutcomes.outcome`
    does, so the outcomes are the ones the providers give one by one."""
    event = state.chance_event()
    if not isinstance(state, TowerState) or event is None or event.kind != "placement":
        raise OutcomeError(message("the physics rules placements only"))
    options = state.tower_game.options
    hand = options.steadiness_of(state.placer)
    steadiness = Steadiness(hand.position_mm, hand.angle_deg, hand.height_mm)
    asked = [_Asked(provider, steadiness.sample(provider.rng)) for provider in providers]
    thresholds = Thresholds(options.fall_distance_mm, options.fall_angle_deg)
    assert state.gift is not None
    tower, placement = rests_of(state), placement_of(state)
    is_forced = forced(state, state.gift)

    def work(model: TowerModel, ask: _Asked) -> tuple[RulingOutcome, dict[str, Json]]:
        return ask.provider.rule(
            model, tower, placement, ask.tremor, forced=is_forced, thresholds=thresholds
        )

    catalogue = state.tower_game.catalogue
    if pool is None:
        ruled = [work(shared_model(catalogue), ask) for ask in asked]
    else:
        ruled = pool.map(work, asked)
    return [
        state.game.parse_action(
            {"kind": "result", "outcome": outcome_document(state, ruling, extra)}
        )
        for ruling, extra in ruled
    ]
