"""The action log of a game, from which the state is rebuilt exactly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from splash.core.actions import Json
from splash.core.documents import Field, check_format, format_tag
from splash.core.errors import ActionError, DocumentError
from splash.core.i18n import message
from splash.core.protocol import Game, State

RECORD_KIND = "record"


@dataclass
class GameRecord:
    """A game's id, its configuration and every action applied, chance outcomes included."""

    game: str
    config: dict[str, Any]
    actions: list[Json] = field(default_factory=list)
    meta: dict[str, Json] = field(default_factory=dict)

    @classmethod
    def of(cls, state: State, **meta: Json) -> GameRecord:
        """The record of ``state``'s game so far."""
        return cls(
            game=state.game.id,
            config=state.game.config(),
            actions=[a.to_json() for a in state.history],
            meta=dict(meta),
        )

    def to_json(self) -> dict[str, Json]:
        """The document: ``{"format": "splash/record/1", ...}``."""
        return {
            "format": format_tag(RECORD_KIND, 1),
            "game": self.game,
            "config": self.config,
            "actions": list(self.actions),
            "meta": dict(self.meta),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> GameRecord:
        """The record a :meth:`to_json` document holds; :class:`DocumentError` naming the
        field when it is not one."""
        check_format(doc, RECORD_KIND)
        root = Field.root(doc)
        meta = root.get("meta", {})
        return cls(
            game=root["game"].as_str(),
            config=dict(root["config"].as_object()),
            actions=cast(list[Json], [a.value for a in root["actions"].as_list()]),
            meta=cast(dict[str, Json], dict(meta.as_object())),
        )

    def replay(self, game: Game, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all of them by default)."""
        if game.id != self.game:
            raise DocumentError(
                message(
                    "this record is a {found} game, not {expected}",
                    found=self.game,
                    expected=game.id,
                )
            )
        state = game.new_initial_state()
        for index, action in enumerate(self.actions[:upto]):
            try:
                if not isinstance(action, int | dict):
                    Field(action, f"actions[{index}]").as_object()
                state.apply(action)
            except RecursionError:
                raise DocumentError(
                    message("{what} is nested too deeply", what=f"actions[{index}]"),
                    path=f"actions[{index}]",
                ) from None
            except ActionError as error:
                raise DocumentError(
                    message(
                        "action {index} of the record cannot be replayed: {error}",
                        index=index,
                        error=error.text,
                    )
                ) from error
        return state
