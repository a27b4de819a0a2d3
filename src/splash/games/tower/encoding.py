"""The fixed-size encoding of Splash!: action indices and observation vectors.

Indices ``0 .. S - 1`` are the game's own action ids (``S`` = the size of its enumeration:
``take``, ``give``, ``base``, ``keep`` and the chance outcome ``deal``, one per piece, then
``place`` and the chance outcome ``result``).  The id of ``place`` is the *fallback* of the
placement grid; indices ``S ..`` are the cells of the grid (:mod:`splash.games.tower.placement_grid`).
Everything in Splash! is open (TD03): an observation holds the whole position.  Every entry
lies in ``[0, 1]`` or ``[-1, 1]``: counts are divided by their maxima from the options,
positions and heights by :data:`REACH_MM` (clipped to it), angles by 180 degrees.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from splash.core.actions import Action
from splash.core.encoding import Encoding, Layout, Mask, Vector
from splash.core.errors import MalformedActionError
from splash.core.i18n import message
from splash.core.protocol import State
from splash.games.tower import rules
from splash.games.tower.game import TowerGame
from splash.games.tower.placement_grid import Accept, PlaceChoices, PlacementGrid, one_by_one
from splash.games.tower.state import TowerState

PHASES = ("draft", "deal", "give", "place", "result", "base", "keep", "over")
PLACES = ("pile", "gift", "tower", "table", "box")
"""Where a piece can be besides a reserve, after the reserves in the ``location`` block."""
SLOT_FEATURES = (
    "in_tower",
    "on_table",
    "x_mm",
    "y_mm",
    "z_mm",
    "qw",
    "qx",
    "qy",
    "qz",
    "height_mm",
    "uncovered",
    "order",
    "base_candidate",
)
"""The features of one piece's slot before its face one-hot."""
REACH_MM = 1000.0
"""Positions and heights are clipped to ±this (a piece that rolled far off the table)."""
PLACEMENT_MM = 180.0
"""The pose chosen is clipped to ±this (mm and degrees)."""


class TowerEncoding(Encoding):
    """Splash! for the AI interfaces (module docs); ``accept`` checks the grid's poses
    (:class:`~splash.games.tower.placement_grid.PlacementGrid`)."""

    def __init__(self, game: TowerGame, accept: Accept = one_by_one) -> None:
        self.tower_game = game
        self.grid = PlacementGrid(game, accept)
        self.pieces = game.catalogue.piece_ids
        self.players = game.options.players
        self.base_size = game.action_space.size
        self.fallback_index = game.action_space.find("place").id
        self.result_index = game.action_space.find("result").id
        n, p, f = len(self.pieces), self.players, self.grid.face_slots
        self.slot_size = len(SLOT_FEATURES) + f
        layout = Layout()
        layout.add("seat", p, 0, 1, "one-hot: the observing seat")
        layout.add("to_act", p, 0, 1, "one-hot: the seat to decide now (all 0 at chance, end)")
        layout.add("phase", len(PHASES), 0, 1, "one-hot: " + ", ".join(PHASES))
        layout.add("giver", p, 0, 1, "one-hot: the seat giving this turn")
        layout.add("placer", p, 0, 1, "one-hot: the seat placing this turn (the giver's left)")
        layout.add("chooser", p, 0, 1, "one-hot: the seat choosing the new base, taking back")
        layout.add("gift_from", p, 0, 1, "one-hot: whose reserve the gift came from")
        layout.add(
            "location",
            n * (p + len(PLACES)),
            0,
            1,
            "per piece (catalogue order), one-hot: in seat 0 .. P-1's reserve, "
            + ", ".join(PLACES),
        )
        supply, cap = game.options.drop_supply, game.options.turn_cap
        layout.add(
            "drops",
            p,
            0,
            1,
            "water drops of each seat",
            scale=supply,
            scale_doc=f"{supply} (the drop supply)",
        )
        layout.add(
            "keep_left",
            1,
            0,
            1,
            "pieces still to take back",
            scale=n,
            scale_doc=f"{n} (the pieces)",
        )
        layout.add(
            "placements",
            1,
            0,
            1,
            "placements so far",
            scale=cap,
            scale_doc=f"{cap} (the turn cap)",
        )
        layout.add(
            "target",
            n + 1,
            0,
            1,
            "one-hot: where the gift must go (a piece, or the last entry: the table)",
        )
        slot_scales = [1.0] * self.slot_size
        slot_scales[2:5] = (REACH_MM,) * 3
        slot_scales[9] = REACH_MM
        slot_scales[11] = cap
        layout.add(
            "slots",
            n * self.slot_size,
            -1,
            1,
            "per piece (catalogue order): in_tower, on_table (lying after a fall), its body "
            "position x, y, z (mm) and quaternion w, x, y, z, height of its top (mm), "
            "uncovered, order of placing, base_candidate, then a one-hot over its face slot; "
            "zeros for a piece neither in the tower nor on the table",
            scale=slot_scales * n,
            scale_doc=f"x, y, z and height ÷ {REACH_MM:g} mm, order ÷ {cap} (the turn cap); "
            "the rest 1",
            clipped=True,
        )
        placement_scales = [1.0] * (4 + f)
        placement_scales[1:4] = (PLACEMENT_MM,) * 3
        layout.add(
            "placement",
            4 + f,
            -1,
            1,
            "the pose chosen, awaiting its result: chosen, rotation_deg, x_mm, y_mm, face one-hot",
            scale=placement_scales,
            scale_doc=f"rotation_deg, x_mm and y_mm ÷ {PLACEMENT_MM:g}; the rest 1",
            clipped=True,
        )
        layout.add("won", p, 0, 1, "1 for each seat of the winning team")
        layout.add("terminal", 1, 0, 1, "the game is over")
        super().__init__(game, layout)

    # ----- actions ----------------------------------------------------------------------

    @property
    def num_actions(self) -> int:
        """The game's enumeration, then the cells of the placement grid."""
        return self.base_size + self.grid.size

    def _tower_state(self, state: State) -> TowerState:
        if not isinstance(state, TowerState):
            raise TypeError(f"not a Splash! state: {state!r}")
        return state

    def _choices(self, state: TowerState) -> PlaceChoices:
        return self.grid.choices(state)

    def legal_mask(self, state: State) -> Mask:
        """Discrete decisions at their ids; in the ``place`` phase the accepted cells (or the
        fallback when none is)."""
        tower = self._tower_state(state)
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        if tower.to_act() < 0:
            return mask
        if tower.phase == "place":
            choices = self._choices(tower)
            mask[self.base_size :] = choices.legal
            if choices.fallback is not None:
                mask[self.fallback_index] = True
            return mask
        mask[tower.legal_action_ids()] = True
        return mask

    def action_of(self, state: State, index: int) -> Action:
        """The action ``index`` stands for: a discrete action, or a placement's pose."""
        tower = self._tower_state(state)
        index = self.check_index(index)
        if tower.to_act() < 0:
            raise self.refuse(tower, index, message("no seat is to decide now"))
        if tower.phase != "place":
            if index >= self.base_size:
                raise self.refuse(tower, index, message("there is no piece to place now"))
            action = self.tower_game.action_space[index]
            reason = tower.why_illegal(action)
            if reason is not None:
                raise self.refuse(tower, index, reason)
            return action
        choices = self._choices(tower)
        if index == self.fallback_index:
            if choices.fallback is None:
                raise self.refuse(
                    tower, index, message("the fallback placement is for when no cell is legal")
                )
            return self.tower_game.parse_action(choices.fallback)
        if index < self.base_size:
            raise self.refuse(tower, index, message("a piece is to be placed now"))
        cell = index - self.base_size
        placement = choices.poses[cell]
        if placement is None:
            raise self.refuse(tower, index, message("the gift has no such face"))
        if not choices.legal[cell]:
            reason = tower.why_illegal(placement)
            raise self.refuse(tower, index, reason or message("not one of the legal actions"))
        return self.tower_game.parse_action(placement)

    def index_of(self, state: State, action: Action) -> int:
        """The index of a discrete action (its id) or of a placement on the grid."""
        tower = self._tower_state(state)
        if action.kind != "place":
            space = self.tower_game.action_space
            if not 0 <= action.id < space.size or space[action.id] != action:
                raise MalformedActionError(action.to_json(), message("the id does not match"))
            return action.id
        if tower.phase != "place":
            raise MalformedActionError(action.to_json(), message("there is no piece to place now"))
        choices = self._choices(tower)
        if choices.fallback is not None and self.grid.same(action, choices.fallback):
            return self.fallback_index
        for cell, placement in enumerate(choices.poses):
            if placement is not None and self.grid.same(action, placement):
                return self.base_size + cell
        raise MalformedActionError(
            action.to_json(), message("the placement is not on the placement grid")
        )

    # ----- observations -----------------------------------------------------------------

    def observation(self, state: State, seat: int) -> Vector:
        """Seat ``seat``'s view as a vector (layout: :attr:`layout`)."""
        tower = self._tower_state(state)
        view = tower.view(seat)
        target: str | None = None
        gift = view.get("gift")
        if isinstance(gift, str) and view["phase"] in ("place", "result"):
            # The target follows from the open position (TD03): the view holds all of it.
            found = rules.target_of(tower, gift)
            target = found.piece if found is not None else "table"
        return self.encode_view(view, target)

    def encode_view(self, view: Mapping[str, Any], target: str | None = None) -> Vector:
        """A view document (:meth:`TowerState.view`) as a vector; ``target`` is the gift's
        target (a piece id or ``"table"``), when a gift is being placed."""
        out = self.layout.zeros()
        p, n = self.players, len(self.pieces)
        index = {piece: i for i, piece in enumerate(self.pieces)}

        def put(name: str, offset: int, value: float = 1.0) -> None:
            out[self.layout[name].start + offset] = value

        put("seat", int(view["seat"]))
        to_act = int(view["to_act"])
        if to_act >= 0:
            put("to_act", to_act)
        phase = str(view["phase"])
        put("phase", PHASES.index(phase))
        giver = int(view["giver"])
        put("giver", giver)
        put("placer", (giver + 1) % p)
        if view.get("chooser") is not None:
            put("chooser", int(view["chooser"]))
        if view.get("gift_from") is not None:
            put("gift_from", int(view["gift_from"]))
        width = p + len(PLACES)

        def locate(piece: str, column: int) -> None:
            put("location", index[piece] * width + column)

        for seat, reserve in enumerate(cast(list[list[str]], view["reserves"])):
            for piece in reserve:
                locate(piece, seat)
        for place in ("pile", "box"):
            for piece in cast(list[str], view[place]):
                locate(piece, p + PLACES.index(place))
        if isinstance(view.get("gift"), str):
            locate(str(view["gift"]), p + PLACES.index("gift"))
        candidates = set(cast(list[str], view.get("candidates", [])))
        for place in ("tower", "table"):
            for doc in cast(list[dict[str, Any]], view[place]):
                locate(str(doc["piece"]), p + PLACES.index(place))
                start = self.layout["slots"].start + index[str(doc["piece"])] * self.slot_size
                out[start : start + self.slot_size] = self._slot(doc, place, candidates)
        for seat, drops in enumerate(cast(list[int], view["drops"])):
            put("drops", seat, float(drops))
        put("keep_left", 0, float(view["keep_left"]))
        put("placements", 0, float(view["placements"]))
        if target is not None:
            put("target", index.get(target, n))
        placement = view.get("placement")
        if isinstance(placement, Mapping) and placement and isinstance(view.get("gift"), str):
            put("placement", 0)
            put("placement", 1, float(placement.get("rotation_deg", 0.0)))
            put("placement", 2, float(placement.get("x_mm", 0.0)))
            put("placement", 3, float(placement.get("y_mm", 0.0)))
            faces = list(self.tower_game.catalogue.shape_of(str(view["gift"])).faces)
            if placement.get("face") in faces:
                put("placement", 4 + faces.index(str(placement["face"])))
        winner = view.get("winner")
        if winner is not None:
            for seat in self.tower_game.teams[int(winner)].seats:
                put("won", seat)
        put("terminal", 0, float(phase == "over"))
        return self.layout.normalise(out)

    def _slot(self, doc: Mapping[str, Any], place: str, candidates: set[str]) -> Vector:
        features = np.zeros(self.slot_size, dtype=np.float32)
        features[0 if place == "tower" else 1] = 1.0
        pose = doc.get("pose")
        if isinstance(pose, Mapping):
            position = np.clip(
                np.asarray(pose["position"], dtype=float) * 1000.0, -REACH_MM, REACH_MM
            )
            features[2:5] = position
            features[5:9] = np.asarray(pose["quaternion"], dtype=float)
        features[9] = float(np.clip(float(doc["height_mm"]), -REACH_MM, REACH_MM))
        features[10] = float(bool(doc["uncovered"]))
        features[11] = float(doc["order"])
        features[12] = float(str(doc["piece"]) in candidates)
        faces = list(self.tower_game.catalogue.shape_of(str(doc["piece"])).faces)
        if doc["face"] in faces:
            features[len(SLOT_FEATURES) + faces.index(str(doc["face"]))] = 1.0
        return features
