"""``splash tower play``: one person plays a seat of Splash! against bots, the physics ruling.

The person types the pieces they take, give, choose as the new base or take back, and each
placement as ``place FACE ROTATION X Y`` (TD13): the resting face, the turn about the
vertical in degrees, and the offset of the piece's centre from the centre of the target's
top, in millimetres, in the target's frame (``place`` alone: centred, on the first face).
A pose that would touch anything but the target (T06) is refused with the engine's reason
and nothing changes.  The executed pose gets the seat's tremor (TD14) and the physics rules
what happened (TD07, TD08); after each placement the program tells the outcome, shows the
tower, the reserves and the drops, and draws a side view of the tower into a PNG file.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from splash.cli.choices import EntryError
from splash.cli.common import error_line, say
from splash.cli.prompt import Quit
from splash.cli.tower_entries import gift_problem, parse_piece
from splash.cli.tower_referee import TowerReferee
from splash.cli.tower_view import seat_name, seat_title, target_text
from splash.core.actions import Json
from splash.core.i18n import Message, message
from splash.core.outcomes import OutcomeProvider
from splash.core.play import Agent
from splash.games.tower import TowerGame, TowerState, rules
from splash.games.tower.options import Steadiness
from splash.games.tower.tower import TowerPiece
from splash.physics.errors import PlacementError
from splash.physics.poses import PieceRest, Pose
from splash.physics.render import save_side_view


def _num(value: float, digits: int = 1) -> str:
    """A number rounded for people: ``1.5``, ``-2``, ``30``."""
    return f"{round(value, digits) + 0.0:g}"


def steadiness_text(hand: Steadiness) -> Message:
    """``position 0.5 mm, angle 1°, release height 0.5 mm`` (TD14)."""
    return message(
        "position {position} mm, angle {angle}°, release height {height} mm",
        position=_num(hand.position_mm, 2),
        angle=_num(hand.angle_deg, 2),
        height=_num(hand.height_mm, 2),
    )


def pose_text(pose: Mapping[str, Any]) -> Message:
    """A placement as people read it: ``on face flat, turned 30°, at (1.5, -2) mm``."""
    if "face" not in pose:
        return message("centred, on its first face")
    return message(
        "on face {face}, turned {rotation}°, at ({x}, {y}) mm",
        face=pose["face"],
        rotation=_num(float(pose["rotation_deg"])),
        x=_num(float(pose["x_mm"])),
        y=_num(float(pose["y_mm"])),
    )


def placement_lines(state: TowerState) -> list[Message]:
    """What the placer needs to type a pose: the gift's faces, the target's top, the hand."""
    gift = state.gift
    if gift is None:
        return []
    catalogue = state.tower_game.catalogue
    shape = catalogue.shape_of(gift)
    faces = ", ".join(
        message("{face} ({height} mm high)", face=face, height=_num(pose.height * 1000)).render()
        for face, pose in shape.faces.items()
    )
    lines = [message("Faces of {piece}: {faces}.", piece=gift, faces=faces)]
    target = rules.target_of(state, gift)
    if target is None:
        lines.append(message("It goes on the table: x and y move it from the middle of the table."))
    else:
        tops = catalogue.shape_of(target.piece).resting(target.face).top_surfaces
        areas = [
            message(
                "x from {x0} to {x1} mm, y from {y0} to {y1} mm",
                x0=_num(float(top.reshape(-1, 2)[:, 0].min()) * 1000),
                x1=_num(float(top.reshape(-1, 2)[:, 0].max()) * 1000),
                y0=_num(float(top.reshape(-1, 2)[:, 1].min()) * 1000),
                y1=_num(float(top.reshape(-1, 2)[:, 1].max()) * 1000),
            ).render()
            for top in tops
            if len(top.reshape(-1, 2)) >= 3
        ]
        lines.append(
            message(
                "The top of {target} (resting on {face}): {areas}.",
                target=target.piece,
                face=target.face,
                areas="; ".join(areas) or message("none").render(),
            )
        )
    hand = state.tower_game.options.steadiness_of(state.placer)
    lines.append(message("Your hand (steadiness, TD14): {hand}.", hand=steadiness_text(hand)))
    return lines


def parse_pose(entry: str, faces: Sequence[str]) -> dict[str, Json]:
    """The placement ``entry`` types: ``place FACE ROTATION X Y`` (missing numbers are 0;
    ``place`` alone is the centre, on the first face); the rotation is brought into
    [-180, 180)."""
    words = entry.replace(",", " ").split()
    if words and words[0].lower() == "place":
        words = words[1:]
    usage = message(
        "type place FACE ROTATION X Y, such as place {face} 30 1.5 -2, or place alone for the"
        " centre on {face}",
        face=faces[0],
    )
    if not words:
        return {"kind": "place", "face": faces[0], "rotation_deg": 0.0, "x_mm": 0.0, "y_mm": 0.0}
    face = words[0].lower()
    if face not in faces:
        raise EntryError(
            entry,
            message(
                "the piece has no face {face!r} (faces: {faces}); {usage}",
                face=words[0],
                faces=", ".join(faces),
                usage=usage,
            ),
        )
    if len(words) > 4:
        raise EntryError(entry, usage)
    numbers: list[float] = []
    for word in words[1:]:
        try:
            value = float(word)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise EntryError(
                entry, message("{word!r} is not a number; {usage}", word=word, usage=usage)
            )
        numbers.append(value)
    rotation, x, y = (*numbers, 0.0, 0.0, 0.0)[:3]
    rotation = (rotation + 180.0) % 360.0 - 180.0
    return {"kind": "place", "face": face, "rotation_deg": rotation, "x_mm": x, "y_mm": y}


def outcome_rests(outcome: Mapping[str, Any]) -> list[PieceRest]:
    """The pieces of a placement's outcome document that carry a pose, to draw them."""
    rests = []
    for doc in outcome.get("tower") or []:
        piece = TowerPiece.from_json(doc)
        if piece.pose is not None:
            pose = Pose.of(piece.pose["position"], piece.pose["quaternion"])
            rests.append(PieceRest(piece.piece, piece.face, piece.support, pose))
    return rests


class TowerPlay(TowerReferee):
    """The loop of a game against bots: show, ask the person or let a bot choose, rule each
    placement with the physics, tell what happened, draw the tower, save.

    The prompts, the saves and the commands are those of the referee; ``why PIECE`` is added.
    """

    def __init__(
        self,
        console: Console,
        game: TowerGame,
        state: TowerState,
        *,
        person: int,
        bots: Mapping[int, Agent],
        outcomes: OutcomeProvider,
        png: Path,
        save_path: Path | None,
        meta: dict[str, Json],
    ) -> None:
        super().__init__(console, game, state, digital=outcomes, save_path=save_path, meta=meta)
        self.person = person
        self.bots = dict(bots)
        self.outcomes = outcomes
        self.png = png
        self.prompter.commands["why"] = self._why
        self.prompter.commands["view"] = self._view

    def run(self) -> int:
        """Play until the game ends or the person quits; the exit code."""
        return self.run_until_end(self.step, self.show)

    def step(self) -> None:
        """One action: a deal, a ruling, a bot's choice or the person's."""
        state = self.state
        if state.phase == "deal":
            while state.phase == "deal":
                state.apply(self.outcomes.outcome(state))
            say(self.console, message("The pieces are dealt at random (TD02)."), "bold")
            self.apply([])
            return
        if state.phase == "result":
            self.rule()
            return
        seat = state.to_act()
        if seat != self.person:
            action = self.bots[seat].act(state)
            if action.kind == "place" and state.gift is not None:
                say(
                    self.console,
                    message(
                        "{seat} places {piece} {pose}.",
                        seat=seat_title(seat),
                        piece=state.gift,
                        pose=pose_text(dict(action.params)),
                    ),
                )
            self.apply([action])
            return
        self.show()
        steps: dict[str, Callable[[], None]] = {
            "draft": self._take,
            "give": self._give,
            "place": self._pose,
            "base": self._base,
            "keep": self._keep,
        }
        steps[state.phase]()

    def rule(self) -> None:
        """Let the physics rule the placement, then tell it, draw it and show the game."""
        try:
            action = self.outcomes.outcome(self.state)
        except PlacementError as error:
            # A placement without a pose is checked only here (the engine lets it through):
            # when even the centred pose is refused, no placement can be made.
            error_line(self.console, error)
            say(self.console, message("No placement can be ruled: the game stops here."))
            raise Quit from None
        outcome = action.param("outcome")
        if not isinstance(outcome, Mapping):
            outcome = {}
        tremor = (outcome.get("details") or {}).get("tremor")
        if isinstance(tremor, Mapping):
            say(
                self.console,
                message(
                    "The hand shook by ({x}, {y}) mm and {angle}°, and let go {lift} mm high.",
                    x=_num(float(tremor["dx"]) * 1000, 2),
                    y=_num(float(tremor["dy"]) * 1000, 2),
                    angle=_num(float(tremor["rotation_deg"]), 2),
                    lift=_num(float(tremor["lift"]) * 1000, 2),
                ),
                "dim",
            )
        self.apply([action])
        self.picture(outcome)
        self.show(force=True)

    def picture(self, outcome: Mapping[str, Any]) -> None:
        """Draw what the placement left on the table into the PNG file, and say where."""
        title = message(
            "Placement {count}: {result}",
            count=self.state.placements,
            result=str(outcome.get("result")),
        )
        try:
            save_side_view(
                self.png, self.game.catalogue, outcome_rests(outcome), title=title.render()
            )
        except OSError as error:
            error_line(
                self.console,
                message("cannot write {file}: {error}", file=str(self.png), error=str(error)),
            )
            return
        say(self.console, message("The side view is in {file}.", file=str(self.png.resolve())))

    # ----- the person's steps ------------------------------------------------------------

    def _take(self) -> None:
        piece = self.ask(
            message("Which piece do you take?"),
            self._from_pile,
            message("Type a piece of the pile, such as red-cube or red cube (T03, TD02)."),
        )
        self.apply([{"kind": "take", "piece": piece}])

    def _give(self) -> None:
        piece = self.ask(
            message("Which piece do you give to {placer}?", placer=seat_name(self.state.placer)),
            self._gift,
            message(
                "Type one of the legal gifts the view lists (T07, T08); why PIECE says why a"
                " piece may or may not be given."
            ),
        )
        self.apply([{"kind": "give", "piece": piece}])

    def _pose(self) -> None:
        state = self.state
        gift = state.gift
        if gift is None:
            return
        for line in placement_lines(state):
            say(self.console, line)
        faces = list(self.game.catalogue.shape_of(gift).faces)
        hint = message(
            "place FACE ROTATION X Y: the face the piece rests on, its turn about the vertical"
            " in degrees, and the offset of its centre from the centre of the target's top in"
            " millimetres, in the target's frame: x along its forward direction (a beam's"
            " length), y across it (TD13). A pose that touches anything but the target is"
            " refused (T06) and changes nothing."
        )
        while True:
            pose = self.ask(
                message("Your placement of {piece}:", piece=gift),
                lambda entry: parse_pose(entry, faces),
                hint,
            )
            problem = state.why_illegal(pose)
            if problem is None:
                break
            error_line(
                self.console,
                message("{problem} — nothing changed: try another pose", problem=problem),
            )
        self.apply([pose])

    # ----- commands ----------------------------------------------------------------------

    def _view(self, rest: str) -> None:
        self.show(force=True)
        if self.state.phase == "place" and self.state.placer == self.person:
            for line in placement_lines(self.state):
                say(self.console, line)

    def _why(self, rest: str) -> None:
        state = self.state
        if state.phase != "give":
            error_line(
                self.console, message("why explains the gifts: ask it when a piece is given")
            )
            return
        try:
            piece = parse_piece(self.game.catalogue, rest)
        except EntryError as error:
            error_line(self.console, error)
            return
        problem = gift_problem(state, piece)
        if problem is None:
            problem = message(
                "{piece} may be given: it goes {target}.",
                piece=piece,
                target=target_text(rules.target_of(state, piece)),
            )
        say(self.console, problem)
