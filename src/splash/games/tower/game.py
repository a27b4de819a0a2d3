"""The Splash! game: options, the piece catalogue, the action enumeration."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import ValidationError

from splash.core.actions import Action, ActionSpace
from splash.core.errors import OptionError
from splash.core.i18n import Message, message
from splash.core.protocol import Game, Team
from splash.core.settings import apply_assignments
from splash.games.tower.actions import action_text, build_action_space, parse
from splash.games.tower.catalogue import DEFAULT_FILE, catalogue_from_tree, read_catalogue
from splash.games.tower.options import TowerOptions
from splash.games.tower.reading import read_document
from splash.games.tower.reports import outcome_problem
from splash.games.tower.rules import legal_gifts, placement_problem, target_of
from splash.games.tower.state import TowerRulebook, TowerState
from splash.games.tower.tower import Tower, TowerPiece
from splash.games.tower.view import state_json, view_json

if TYPE_CHECKING:
    from splash.core.protocol import State

Fit = Callable[[Tower, str, TowerPiece], bool]
"""Whether a piece has a pose on a target that touches nothing else (T06, TD04)."""
PoseCheck = Callable[["State", Action], Message | None]
"""What a placement's pose would touch besides its target (TD13), before any outcome."""


RULEBOOK = TowerRulebook(
    legal_gifts=legal_gifts,
    target_of=target_of,
    placement_problem=placement_problem,
    outcome_problem=outcome_problem,
    view=view_json,
    document=state_json,
    read=read_document,
)
"""The rules and documents of Splash!, which its states reach through their game."""


def free_top(tower: Tower, piece: str, target: TowerPiece) -> bool:
    """The fit of referee mode: any uncovered piece can take any piece (people judge)."""
    return target.uncovered


class TowerGame(Game):
    """Splash! with its options and catalogue fixed.

    ``fits`` and ``pose_check`` come from whoever judges placements: by default people at a
    real table (any uncovered piece fits, no pose to check); the physics layer supplies
    geometric ones.
    """

    id = "tower"
    rulebook: ClassVar[TowerRulebook] = RULEBOOK
    """What acts on the states of this game (:class:`~splash.games.tower.state.TowerRulebook`)."""

    def __init__(
        self,
        options: TowerOptions | None = None,
        catalogue_tree: Mapping[str, Any] | None = None,
        *,
        catalogue_name: str = DEFAULT_FILE,
        fits: Fit = free_top,
        pose_check: PoseCheck | None = None,
    ) -> None:
        self.options = options if options is not None else TowerOptions()
        if catalogue_tree is None:
            catalogue_tree, catalogue_name = read_catalogue()
        self.catalogue_tree = dict(catalogue_tree)
        self.catalogue = catalogue_from_tree(self.catalogue_tree, catalogue_name)
        self.fits = fits
        self.pose_check = pose_check

    @classmethod
    def from_settings(
        cls,
        assignments: Iterable[tuple[str, Any]] = (),
        *,
        catalogue_path: Path | None = None,
        fits: Fit = free_top,
        pose_check: PoseCheck | None = None,
    ) -> TowerGame:
        """Default options and the shipped catalogue (or ``catalogue_path``'s) with ``--set``
        style assignments (keys ``options.*`` and ``catalogue.*``)."""
        raw, name = read_catalogue(catalogue_path)
        changes = list(assignments)
        tree = apply_assignments(
            {"options": TowerOptions().model_dump(), "catalogue": raw}, changes
        )
        if any(key.startswith("catalogue.") for key, _ in changes):
            name += " (with --set)"
        return cls.from_config(tree, catalogue_name=name, fits=fits, pose_check=pose_check)

    @classmethod
    def from_config(
        cls,
        tree: Mapping[str, Any],
        *,
        catalogue_name: str = DEFAULT_FILE,
        fits: Fit = free_top,
        pose_check: PoseCheck | None = None,
    ) -> TowerGame:
        """The game a :meth:`config` tree describes (the shipped catalogue if it has none)."""
        try:
            options = TowerOptions.model_validate(tree.get("options", {}))
        except ValidationError as error:
            first = error.errors()[0]
            key = "options." + ".".join(str(p) for p in first["loc"]) if first["loc"] else "options"
            raise OptionError(
                key, first.get("input"), message("{problem}", problem=first["msg"])
            ) from None
        catalogue = tree.get("catalogue")
        if catalogue is not None and not isinstance(catalogue, Mapping):
            raise OptionError("catalogue", catalogue, message("the catalogue must be a table"))
        return cls(
            options, catalogue, catalogue_name=catalogue_name, fits=fits, pose_check=pose_check
        )

    @property
    def num_seats(self) -> int:
        """One seat per player."""
        return self.options.players

    @property
    def teams(self) -> tuple[Team, ...]:
        """The teams of the team variant, or each player alone (T16, TD11)."""
        return tuple(Team(t, seats) for t, seats in enumerate(self.options.team_seats()))

    @cached_property
    def action_space(self) -> ActionSpace:
        """The fixed enumeration of actions."""
        return build_action_space(self.catalogue.piece_ids)

    def parse_action(self, doc: object) -> Action:
        """Discrete actions by id or JSON; placements and results with their parameters."""
        return parse(self.action_space, doc)

    def new_initial_state(self) -> TowerState:
        """Before the draft (or the deal)."""
        return TowerState(self)

    def config(self) -> dict[str, Any]:
        """Options and catalogue as one tree (the keys ``--set`` addresses)."""
        return {"options": self.options.model_dump(mode="json"), "catalogue": self.catalogue_tree}

    def state_from_json(self, doc: object) -> TowerState:
        """The state a ``splash/tower/1`` document describes; :class:`DocumentError` naming
        the field and its value when it is not one."""
        return TowerState.from_json(self, doc)

    def action_text(self, action: Action) -> Message:
        """A readable form of ``action``."""
        return action_text(action)
