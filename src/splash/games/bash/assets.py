"""What the Splash & Bash page draws with: the course and the names of its lanes, decks,
cards and pieces in the reader's language (the server's own translations), and each card's
timing and effects, from which a page tells what any deck's cards do."""

from __future__ import annotations

from typing import Any, cast

from splash.core.actions import Json
from splash.core.protocol import Game
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.config import LANES
from splash.games.bash.game import BashGame
from splash.games.bash.names import name

BOARD = "board"
"""The name of the one asset: the course and its names."""


def bash_board(game: BashGame, locale: str) -> dict[str, Any]:
    """The course and the names of a Splash & Bash game, in ``locale``."""
    course = game.course
    lanes = [
        {
            "id": lane,
            "name": name(lane).render(locale),
            "length": course.length(index),
            "deck": course.colours[index],
            "checkpoints": list(course.checkpoints[index]),
        }
        for index, lane in enumerate(LANES)
    ]
    decks = {
        deck: {
            "name": name(deck).render(locale),
            "cards": {
                card: {
                    "name": name(card).render(locale),
                    "count": spec.count,
                    "timing": spec.timing,
                    "effects": [effect.model_dump(mode="json") for effect in spec.effects],
                }
                for card, spec in deck_spec.cards.items()
                if spec.count > 0
            },
        }
        for deck, deck_spec in game.settings.decks.items()
    }
    options = game.settings.options
    return {
        "game": game.id,
        "locale": locale,
        "teams": list(TEAM_LETTERS[: options.teams]),
        "lanes": lanes,
        "laps": course.laps,
        "helmsman_laps": course.helmsman_laps,
        "die_faces": options.die_faces,
        "tail_wind": options.tail_wind,
        "decks": decks,
        "pieces": {
            "pawn": name("pawn").render(locale),
            "helmsman": name("helmsman").render(locale),
        },
    }


def assets(game: Game, locale: str) -> dict[str, Json]:
    """The assets of a Splash & Bash page: ``{"board": ...}`` (:func:`bash_board`)."""
    if not isinstance(game, BashGame):
        raise TypeError(f"not a Splash & Bash game: {type(game).__name__}")
    return {BOARD: cast(Json, bash_board(game, locale))}
