"""The planner bot of Splash!: placements and gifts chosen by simulating them (TD13, TD14).

Candidate placements are ruled with the physics itself (:func:`~splash.physics.ruling.rule`),
with tremors from the bot's *own* seeded generator (never the outcome provider's).
Parameters: ``samples`` (rulings per candidate pose, default 8), ``candidates`` (legal poses
weighed per placement, default 12), ``steadiness`` (the bot's own hand: anything with
``position_mm``, ``angle_deg``, ``height_mm``, or such a triple; default the seat's,
``options.steadiness_of(seat)``), ``settings`` (default: a quick :class:`RulingSettings`
capped at :data:`DURATION_S` simulated seconds, stopping at a fall's verdict, with the
game's fall thresholds), ``ruling``
(``simulation``, the default, or ``statics``: the static check of
:func:`~splash.physics.static_outcomes.rule_statically`, no dynamics, several times cheaper).
A ruling counts as standing when it is ``stood`` and settled before the cap (a cylinder still
rolling at the cap counts as a fall) or ``spontaneous`` (nobody's fault: from ruling
version 3 on, the tower falling before the placed piece touched anything; a piece that drops
past its target's edge is a fall, where version 2 called it spontaneous).

**Placement.**  Candidates: the steadiest pose of every face and turn of the placement map
(:mod:`splash.physics.placement_map`: the pose of the safe region with the largest static
margin), the ``candidates`` steadiest of them.  Without a map (no recorded poses, a forced
gift, or ``from_map=False``): the geometric fit's pose (:meth:`GeometricFit.pose_for`), the
centred pose on every face turned 0 and 90 degrees, then random poses (face, turn, a point
of the target's top pulled :data:`OFFSET_SPREAD` towards its centre), keeping the first
``candidates`` that ``state.why_illegal`` accepts.  ``samples`` tremors are drawn once per
decision and shared by every candidate.  Preference order: the pose that stood most often;
ties go to the smaller free top left to the next placer (a ridge or a lying cylinder leaves
none), then to the larger static margin (without a map: the pose nearer the centre), then to
the bot's random order.  Every candidate
is first ruled :data:`FIRST_ROUND` times (one that never stands is dropped; when all are,
the most preferred is taken; these first rulings of all candidates run in one batch,
:mod:`splash.physics.batch`); the others are then ruled to ``samples`` in preference order,
each stopping once it cannot beat the best so far, the search once one always stood.  When
a standing tower would make another team win at once (T14, TD09) and a fall would not, the
bot looks for a fall instead.  On the table: centred, on the face with the largest top.

**Gift.**  Each legal gift (T07, T08) is valued (once per shape and target) by the
receiver's chance of a fall, ruled with the *receiver's* steadiness over the centred pose
on each face plus :data:`GIFT_RANDOM_POSES` random poses, ``max(1, samples // 8)`` times
each: half from the best pose (a careful receiver), half from the average (a careless one).
Minus :data:`SPOIL_PENALTY` times the chance that the gift stands on a face with no free
top (the bot would place next on a ridge); plus the chance that it stands when it is the
bot's last piece (the bot wins); minus it when it empties another team's reserve (T08, that
player wins); plus :data:`PLAYABLE_BONUS` when the bot still holds a piece matching the gift
or another uncovered piece (it can keep giving its own pieces, T07).  Best value wins.

**Draft** (T03): the piece adding most new shapes and colours (the Czech rules' advice).
**Base** (T11): the stack with most pieces, then a free top, the largest top, the tallest.
**Keep** (T12): the piece matching most uncovered pieces of the tower, then most pieces.
Every tie goes to the bot's random order: the bot is deterministic for a seed.  Without
recorded poses (referee mode) it places the first legal candidate and takes falls as 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

import numpy as np

from splash.bots.tower_random import RandomTowerBot, Seed, random_point
from splash.core.actions import Action, Json
from splash.core.errors import ActionError, OptionError, SplashError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.games.tower import TowerState, rules
from splash.games.tower.geometry import polygon_area
from splash.games.tower.tops import GeometricFit, rests_of_tower
from splash.games.tower.tower import TABLE, TowerPiece
from splash.physics.batch import shared_pool
from splash.physics.judge import Thresholds
from splash.physics.model import TowerModel
from splash.physics.placement import Placement, Steadiness, Tremor, release
from splash.physics.placement_map import placement_map
from splash.physics.provider import rests_of, shared_model
from splash.physics.ruling import RulingSettings, rule
from splash.physics.settings import RULINGS
from splash.physics.static_outcomes import RULING as RULING_STATICS
from splash.physics.static_outcomes import rule_statically

OFFSET_SPREAD = 0.5
"""How far towards the edge of the target's top a random candidate may lie (1: anywhere)."""
GIFT_RANDOM_POSES = 2
"""Random poses of a gift, besides its centred poses, that stand for a careless receiver."""
PLAYABLE_BONUS = 0.15
"""The value of still holding a piece that matches the tower after a gift."""
FIRST_ROUND = 2
"""Rulings of every candidate pose first; a pose that fails them all is dropped."""
DURATION_S = 0.6
"""Simulated seconds a ruling of the planner runs at most (the game's rulings: 3 s); a
"stood" that has not settled by then (a rolling cylinder) counts as a fall."""
SPOIL_PENALTY = 0.3
"""How much a gift loses for the chance that the receiver leaves no free top (a ridge, a
lying cylinder), on which the bot would have to place next."""
TRIES_PER_CANDIDATE = 4
"""Random poses drawn at most per candidate wanted."""

Pose = dict[str, Json]
"""A placement action's document: ``kind``, ``face``, ``rotation_deg``, ``x_mm``, ``y_mm``."""


class Hand(Protocol):
    """A steadiness (TD14): standard deviations of position, turn and release height."""

    @property
    def position_mm(self) -> float: ...
    @property
    def angle_deg(self) -> float: ...
    @property
    def height_mm(self) -> float: ...


def _steadiness(hand: Hand | Sequence[float]) -> Steadiness:
    if isinstance(hand, Sequence):
        if len(hand) != 3:
            raise OptionError("steadiness", hand, message("must be three numbers"))
        return Steadiness(float(hand[0]), float(hand[1]), float(hand[2]))
    return Steadiness(float(hand.position_mm), float(hand.angle_deg), float(hand.height_mm))


def _pose(face: str, turn: float, x: float, y: float) -> Pose:
    return {"kind": "place", "face": face, "rotation_deg": turn, "x_mm": x, "y_mm": y}


def _offset(pose: Pose) -> float:
    return math.hypot(float(str(pose["x_mm"])), float(str(pose["y_mm"])))


def top_area(state: TowerState, piece: str, face: str) -> float:
    """The area (square metres) of the tops of ``piece`` resting on ``face``."""
    shape = state.tower_game.catalogue.shape_of(piece)
    return sum(abs(polygon_area(top)) for top in shape.resting(face).top_surfaces)


class TowerPlannerBot:
    """Placements and gifts chosen by ruling candidates with the physics (module docs).

    >>> from splash.physics.provider import physics_game
    >>> state = physics_game([("options.players", 2)]).new_initial_state()
    >>> TowerPlannerBot(7).act(state).kind
    'take'
    """

    name = "planner"

    def __init__(
        self,
        seed: Seed,
        *,
        samples: int = 8,
        candidates: int = 12,
        steadiness: Hand | Sequence[float] | None = None,
        settings: RulingSettings | None = None,
        ruling: str = "simulation",
        from_map: bool = True,
    ) -> None:
        for key, value in (("samples", samples), ("candidates", candidates)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise OptionError(key, value, message("must be a whole number, 1 or more"))
        if ruling not in RULINGS:
            raise OptionError(
                "ruling", ruling, message("must be one of {choices}", choices=", ".join(RULINGS))
            )
        self.ruling = ruling
        self.seed = seed
        self.samples = samples
        self.candidates = candidates
        self.steadiness = None if steadiness is None else _steadiness(steadiness)
        self.settings = settings
        self.from_map = from_map
        self._rng = np.random.default_rng(seed)
        self.last: list[tuple[Pose, float]] = []
        """The last placement's candidates with their estimated chance of standing (those
        ruled to the end; pruned ones are left out)."""
        self.gift_values: dict[str, float] = {}
        """The last gift decision's value of each legal gift."""

    # ----- dispatch ---------------------------------------------------------------------

    def act(self, state: State) -> Action:
        """The planner's decision for the seat to act in ``state``."""
        if not isinstance(state, TowerState):
            raise ActionError(message("the planner plays Splash! only"))
        legal = state.legal_actions()
        if not legal:
            raise ActionError(
                message("no legal action to choose in {state}", state=state.describe())
            )
        if state.phase == "place":
            return state.game.parse_action(self.placement(state))
        if state.phase == "give":
            return state.game.parse_action({"kind": "give", "piece": self.gift(state)})
        pieces = [str(a.param("piece")) for a in legal]
        if state.phase == "draft":
            chosen = self._best(pieces, lambda p: (self._variety(state, p),))
        elif state.phase == "base":
            chosen = self._best(pieces, lambda p: self._base_value(state, p))
        elif state.phase == "keep":
            chosen = self._best(pieces, lambda p: self._keep_value(state, p))
        else:
            return legal[int(self._rng.integers(len(legal)))]
        return next(a for a in legal if a.param("piece") == chosen)

    def _best(self, items: Sequence[str], value: Callable[[str], tuple[float, ...]]) -> str:
        """The item of highest ``value``; ties go to the bot's random order."""
        order = [int(i) for i in self._rng.permutation(len(items))]
        return items[max(order, key=lambda i: value(items[i]))]

    # ----- simple choices ---------------------------------------------------------------

    def _variety(self, state: TowerState, piece: str) -> int:
        catalogue = state.tower_game.catalogue
        mine = [catalogue.piece(p) for p in state.reserves[state.drafting_seat()]]
        new = catalogue.piece(piece)
        return int(all(p.shape != new.shape for p in mine)) + int(
            all(p.colour != new.colour for p in mine)
        )

    def _base_value(self, state: TowerState, piece: str) -> tuple[float, ...]:
        stacks = state.to_json()["stacks"]
        found = stacks.get(piece) if isinstance(stacks, dict) else None
        stack = [str(p) for p in found] if isinstance(found, list) and found else [piece]
        by_id = {p.piece: p for p in state.table}
        top = by_id.get(str(stack[-1]), by_id[piece])
        free = int(top.uncovered) if len(stack) > 1 else 1
        area = top_area(state, top.piece, top.face)
        return len(stack), free if area > 0 else 0, area, top.height_mm

    def _keep_value(self, state: TowerState, piece: str) -> tuple[float, ...]:
        tower = state.tower.pieces
        return (
            sum(rules.matches(state, piece, p.piece) for p in tower if p.uncovered),
            sum(rules.matches(state, piece, p.piece) for p in tower),
        )

    # ----- rulings ----------------------------------------------------------------------

    def _ruling_settings(self, state: TowerState) -> RulingSettings:
        options = state.tower_game.options
        thresholds = Thresholds(options.fall_distance_mm, options.fall_angle_deg)
        base = self.settings or RulingSettings(duration_s=DURATION_S, verdict_only=True)
        return replace(base, thresholds=thresholds)

    def _tremors(self, hand: Hand, count: int) -> list[Tremor]:
        steady = _steadiness(hand)
        return [steady.sample(self._rng) for _ in range(count)]

    def _rulable(self, state: TowerState) -> bool:
        return bool(state.tower.pieces) and rests_of_tower(state.tower) is not None

    def _placement(self, state: TowerState, gift: str, pose: Pose) -> Placement:
        target = rules.target_of(state, gift)
        return Placement(
            piece=gift,
            face=str(pose["face"]),
            rotation_deg=float(str(pose["rotation_deg"])),
            offset=(float(str(pose["x_mm"])) / 1000.0, float(str(pose["y_mm"])) / 1000.0),
            target=target.piece if target is not None else TABLE,
        )

    def _successes(
        self,
        state: TowerState,
        gift: str,
        pose: Pose,
        tremors: Sequence[Tremor],
        *,
        want_fall: bool = False,
        need: int = 0,
    ) -> list[bool]:
        """For each tremor, whether the ruling went the wanted way (the tower stood, a
        ``spontaneous`` fall included, or it fell when ``want_fall``); stops early once
        fewer than ``need`` successes remain possible."""
        model = shared_model(state.tower_game.catalogue)
        judge = self._judge(state, gift, want_fall=want_fall)
        results: list[bool] = []
        for tremor in tremors:
            results.append(judge(model, (pose, tremor)))
            if need > 0 and sum(results) + len(tremors) - len(results) < need:
                break
        return results

    def _judge(
        self, state: TowerState, gift: str, *, want_fall: bool
    ) -> Callable[[TowerModel, tuple[Pose, Tremor]], bool]:
        """Whether the ruling of a pose with a tremor went the wanted way (module docs),
        on the model given: for one ruling after another, or a batch of them."""
        rests = rests_of(state)
        is_forced = rules.forced(state, gift)
        settings = self._ruling_settings(state)

        def judge(model: TowerModel, job: tuple[Pose, Tremor]) -> bool:
            pose, tremor = job
            placement = self._placement(state, gift, pose)
            try:
                if self.ruling == RULING_STATICS:
                    ruling = rule_statically(model, rests, placement, tremor, forced=is_forced)
                else:
                    ruling = rule(model, rests, placement, tremor, settings, forced=is_forced)
            except SplashError:
                return want_fall
            fell = ruling.result == "fell" or (
                ruling.result == "stood" and ruling.simulated_s >= settings.duration_s - 1e-6
            )
            return fell == want_fall

        return judge

    def _openings(
        self,
        state: TowerState,
        gift: str,
        poses: Sequence[Pose],
        tremors: Sequence[Tremor],
        *,
        want_fall: bool,
    ) -> list[list[bool]]:
        """:meth:`_successes` of every pose of ``poses`` with every tremor, ruled in one
        batch (:mod:`splash.physics.batch`)."""
        jobs = [(pose, tremor) for pose in poses for tremor in tremors]
        judged = shared_pool(state.tower_game.catalogue).map(
            self._judge(state, gift, want_fall=want_fall), jobs
        )
        width = len(tremors)
        return [judged[i * width : (i + 1) * width] for i in range(len(poses))]

    # ----- placement --------------------------------------------------------------------

    def candidate_poses(self, state: TowerState, gift: str, count: int) -> list[Pose]:
        """Up to ``count`` distinct poses of ``gift`` over its target (not checked): the
        fit's pose, the centred poses, then random poses pulled towards the centre."""
        catalogue = state.tower_game.catalogue
        faces = list(catalogue.shape_of(gift).faces)
        target = rules.target_of(state, gift)
        poses: list[Pose] = []
        fits = state.tower_game.fits
        if target is not None and isinstance(fits, GeometricFit):
            found = fits.pose_for(state.tower, gift, target)
            if found is not None:
                poses.append(_pose(*found))
        poses += [_pose(face, turn, 0.0, 0.0) for face in faces for turn in (0.0, 90.0)]
        for _ in range(count * TRIES_PER_CANDIDATE):
            poses.append(self._random_pose(state, gift, faces, target))
        unique: list[Pose] = []
        for pose in poses:
            if pose not in unique:
                unique.append(pose)
        return unique

    def steadiest_poses(self, state: TowerState, gift: str) -> list[tuple[float, Pose]]:
        """The steadiest pose of every face and turn of the placement map
        (:mod:`splash.physics.placement_map`), with its static margin (mm), steadiest
        first; empty without recorded poses, on the table, for a forced gift (every pose is
        accepted: no map), or where no face and turn has a safe pose."""
        if not state.tower.pieces or not self._rulable(state) or rules.forced(state, gift):
            return []
        target = rules.target_of(state, gift)
        found = placement_map(
            shared_model(state.tower_game.catalogue),
            rests_of(state),
            gift,
            TABLE if target is None else target.piece,
            confirm=False,
        )
        poses: list[tuple[float, Pose]] = []
        for face, turns in found.faces.items():
            for turn, cell in turns.items():
                if cell.steadiest is None:
                    continue
                pose = _pose(face, float(turn), cell.steadiest.x_mm, cell.steadiest.y_mm)
                if state.why_illegal(pose) is None:
                    poses.append((cell.steadiest.margin_mm, pose))
        poses.sort(key=lambda entry: -entry[0])
        return poses

    def _random_pose(
        self, state: TowerState, gift: str, faces: list[str], target: TowerPiece | None
    ) -> Pose:
        face = faces[int(self._rng.integers(len(faces)))]
        turn = round(float(self._rng.uniform(-180.0, 180.0)), 1)
        x = y = 0.0
        if target is not None:
            shape = state.tower_game.catalogue.shape_of(target.piece)
            x, y = random_point(shape.resting(target.face).top_surfaces, self._rng)
        limit = rules.MAX_OFFSET_MM
        scale = 1000.0 * OFFSET_SPREAD
        return _pose(
            face,
            turn,
            min(limit, max(-limit, round(x * scale, 2))),
            min(limit, max(-limit, round(y * scale, 2))),
        )

    def placement(self, state: TowerState) -> Pose:
        """The legal pose with the best estimated outcome (module docs)."""
        self.last = []
        gift = state.gift
        if gift is None:
            return {"kind": "place"}
        faces = state.tower_game.catalogue.shape_of(gift).faces
        if not state.tower.pieces:
            face = max(faces, key=lambda f: (top_area(state, gift, f), -faces[f].height))
            table = _pose(face, 0.0, 0.0, 0.0)
            return table if state.why_illegal(table) is None else {"kind": "place"}
        margins: list[float] = []
        steadiest = self.steadiest_poses(state, gift) if self.from_map else []
        if steadiest:
            margins = [margin for margin, _ in steadiest[: self.candidates]]
            legal = [pose for _, pose in steadiest[: self.candidates]]
        else:
            legal = []
            for pose in self.candidate_poses(state, gift, self.candidates):
                if state.why_illegal(pose) is None:
                    legal.append(pose)
                    if len(legal) >= self.candidates:
                        break
        if not legal:
            fallback = RandomTowerBot(self._rng).placement(state)
            return {key: value for key, value in fallback.items() if isinstance(value, str | float)}
        if not self._rulable(state):
            return legal[0]
        order = self._rng.permutation(len(legal))
        ranked = sorted(
            (
                top_area(state, gift, str(legal[i]["face"])),
                -margins[i] if margins else _offset(legal[i]),
                rank,
                int(i),
            )
            for rank, i in enumerate(order)
        )
        hand = self.steadiness or state.tower_game.options.steadiness_of(state.placer)
        tremors = self._tremors(hand, self.samples)
        want_fall = self._standing_loses(state)
        first = min(FIRST_ROUND, len(tremors))
        indices = [index for *_, index in ranked]
        opening = dict(
            zip(
                indices,
                self._openings(
                    state, gift, [legal[i] for i in indices], tremors[:first], want_fall=want_fall
                ),
                strict=True,
            )
        )
        best, best_score = ranked[0][3], 0
        for *_, index in ranked:
            done = opening[index]
            if not any(done):
                continue
            rest = self._successes(
                state,
                gift,
                legal[index],
                tremors[first:],
                want_fall=want_fall,
                need=best_score + 1 - sum(done),
            )
            score = sum(done) + sum(rest)
            if len(done) + len(rest) == len(tremors):
                self.last.append((legal[index], score / len(tremors)))
            if score > best_score:
                best, best_score = index, score
            if best_score == len(tremors):
                break
        return legal[best]

    def _standing_loses(self, state: TowerState) -> bool:
        """Whether a standing tower would make another team win at once (TD09) while a
        fall would not (the giver's drops, T15)."""
        game = state.tower_game
        mine = game.team_of(state.placer).id
        giver, owner = state.giver, state.gift_from
        winner = None
        if not state.reserves[giver]:
            winner = giver
        elif owner is not None and owner != giver and not state.reserves[owner]:
            winner = owner
        if winner is None or game.team_of(winner).id == mine:
            return False
        drops = state.drops[giver] + 1
        return drops < game.options.drops_to_win or game.team_of(giver).id == mine

    # ----- gift -------------------------------------------------------------------------

    def fall_chance(self, state: TowerState, gift: str) -> tuple[float, float]:
        """The receiver's estimated chance of a fall with ``gift``, and of a tower that
        stands with the gift leaving no free top (module docs)."""
        if not self._rulable(state):
            return 0.0, 0.0
        catalogue = state.tower_game.catalogue
        target = rules.target_of(state, gift)
        model = shared_model(catalogue)
        rests = rests_of(state)
        is_forced = rules.forced(state, gift)
        faces = list(catalogue.shape_of(gift).faces)
        poses = [_pose(face, 0.0, 0.0, 0.0) for face in faces]
        poses += [self._random_pose(state, gift, faces, target) for _ in range(GIFT_RANDOM_POSES)]
        hand = state.tower_game.options.steadiness_of(state.placer)
        tremors = self._tremors(hand, max(1, self.samples // 8))
        rates: list[float] = []
        spoiled: list[float] = []
        for pose in poses:
            if not is_forced:
                try:
                    release(model, rests, self._placement(state, gift, pose))
                except SplashError:
                    continue
            stood = self._successes(state, gift, pose, tremors)
            rates.append(sum(stood) / len(stood))
            spoiler = top_area(state, gift, str(pose["face"])) <= 0.0
            spoiled.append(rates[-1] if spoiler else 0.0)
        if not rates:
            return 1.0, 0.0
        fall = 1.0 - (max(rates) + sum(rates) / len(rates)) / 2.0
        return fall, sum(spoiled) / len(spoiled)

    def gift(self, state: TowerState) -> str:
        """The legal gift of highest value (module docs)."""
        gifts = [str(a.param("piece")) for a in state.legal_actions()]
        catalogue = state.tower_game.catalogue
        memo: dict[tuple[str, str, bool], tuple[float, float]] = {}
        values: dict[str, float] = {}
        for gift in gifts:
            target = rules.target_of(state, gift)
            key = (
                catalogue.piece(gift).shape,
                target.piece if target is not None else TABLE,
                rules.forced(state, gift),
            )
            if key not in memo:
                memo[key] = self.fall_chance(state, gift)
            values[gift] = self._gift_value(state, gift, *memo[key])
        self.gift_values = values
        return self._best(gifts, lambda g: (values[g],))

    def _gift_value(self, state: TowerState, gift: str, fall: float, spoil: float) -> float:
        game = state.tower_game
        me = state.giver
        owner = next(s for s, r in enumerate(state.reserves) if gift in r)
        left = [p for p in state.reserves[me] if p != gift]
        value = fall - SPOIL_PENALTY * spoil
        if owner == me and not left:
            value += 1.0 - fall
        elif (
            owner != me
            and state.reserves[owner] == [gift]
            and game.team_of(owner).id != game.team_of(me).id
        ):
            value -= 1.0 - fall
        target = rules.target_of(state, gift)
        tops = [gift] + [
            p.piece for p in state.tower.uncovered() if target is None or p.piece != target.piece
        ]
        if any(rules.matches(state, p, t) for p in left for t in tops):
            value += PLAYABLE_BONUS
        return value
