"""A Splash & Bash state document read back: bad fields are refused by path and value."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from splash.core import RandomOutcomes
from splash.core.actions import Json
from splash.core.errors import DocumentError
from splash.games.bash import BashGame, BashState
from splash.games.bash.scenario import play_moves, position

Doc = dict[str, Json]


def _played(game: BashGame, steps: int = 300) -> BashState:
    state = game.new_initial_state()
    outcomes = RandomOutcomes(4)
    while not state.is_terminal() and len(state.history) < steps:
        if state.is_chance():
            state.apply(outcomes.outcome(state))
        else:
            state.apply(state.legal_actions()[0])
    return state


def _pending(game: BashGame) -> BashState:
    state = position(game, pieces="A1:c10 B1:o12", hands="B:shove,undertow")
    play_moves(state, "draw calm_water", "roll 2", "lane outer")
    assert state.pending is not None
    return state


def test_a_document_round_trips_midgame_and_with_a_pending_question(game: BashGame) -> None:
    for state in (_played(game), _pending(game)):
        doc = state.to_json()
        again = BashState.from_json(game, doc)
        assert again.to_json() == doc
        assert again.legal_actions() == state.legal_actions()


def _child(node: Json, key: str | int) -> Json:
    if isinstance(key, int):
        assert isinstance(node, list)
        return node[key]
    assert isinstance(node, dict)
    return node[key]


def _set(path: tuple[str | int, ...], value: Json) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        node: Json = doc
        for key in path[:-1]:
            node = _child(node, key)
        last = path[-1]
        if isinstance(last, int):
            assert isinstance(node, list)
            node[last] = value
        else:
            assert isinstance(node, dict)
            node[last] = value

    return change


BROKEN = [
    (_set(("team",), 7), r"team: 7 is not between 0 and 1"),
    (_set(("team",), True), r"team must be an integer, not True"),
    (_set(("over",), "no"), r"over must be true or false, not 'no'"),
    (_set(("board", "pieces", 1, 2, "s"), 1.5), r"board\.pieces\[1\]\[2\]\.s must be an integer"),
    (
        _set(("board", "pieces", 0, 0, "lane"), 5),
        r"board\.pieces\[0\]\[0\]\.lane: 5 is not between",
    ),
    (_set(("board", "pieces", 0), []), r"board\.pieces\[0\]: 0 entries, expected 4"),
    (_set(("board", "hands", 0), ["joker"]), r"board\.hands\[0\]\[0\]: 'joker' is not one of"),
    (
        _set(("board", "decks", "low_tide", "calm_water"), -1),
        r"calm_water: a count cannot be negative",
    ),
    (
        _set(("board", "decks", "low_tide", "calm_water"), 9),
        r"the deck low_tide has \d+ of calm_water in all, not 8",
    ),
    (_set(("board", "decks", "low_tide", "joker"), 1), r"joker is not a card of the deck low_tide"),
    (_set(("board", "obstacles"), [[1]]), r"board\.obstacles\[0\]: 1 entries, expected 2"),
    (_set(("awaiting",), {"kind": "dance"}), r"awaiting\.kind: 'dance' is not one of"),
    (_set(("awaiting",), {"kind": "roll", "dice": 1}), r"awaiting\.purpose is missing"),
    (_set(("effects",), [["high_tide", "slide"]]), r"effects\[0\]: a card effect is"),
    (_set(("history", 0), {"kind": "fly"}), r"history\[0\]: unknown action kind 'fly'"),
    (_set(("turn", "dice"), "six"), r"turn\.dice must be a list"),
    (lambda doc: doc.pop("board"), r"board is missing"),
]


@pytest.mark.parametrize(("change", "expected"), BROKEN)
def test_a_broken_document_is_refused_by_path(
    game: BashGame, change: Callable[[Doc], None], expected: str
) -> None:
    doc = copy.deepcopy(_played(game).to_json())
    change(doc)
    with pytest.raises(DocumentError, match=expected):
        BashState.from_json(game, doc)


def test_a_broken_pending_question_is_refused_by_path(game: BashGame) -> None:
    doc = copy.deepcopy(_pending(game).to_json())
    _set(("pending", "question", "kind"), "bribe")(doc)
    with pytest.raises(DocumentError, match=r"pending\.question\.kind: 'bribe' is not one of"):
        BashState.from_json(game, doc)
    doc = copy.deepcopy(_pending(game).to_json())
    _set(("pending", "op", "op"), "teleport")(doc)
    with pytest.raises(DocumentError, match=r"pending\.op\.op: 'teleport' is not one of"):
        BashState.from_json(game, doc)


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        ({"event": "dance"}, r"board\.events\[0\]\.event: 'dance' is not one of"),
        ({"event": "roll", "face": "six"}, r"board\.events\[0\]\.face must be an integer"),
        ({"event": "roll", "mood": 1}, r"board\.events\[0\]\.mood: an event has no key 'mood'"),
    ],
)
def test_a_broken_event_is_refused_by_path(game: BashGame, event: Json, expected: str) -> None:
    doc = copy.deepcopy(_played(game).to_json())
    _set(("board", "events"), [event])(doc)
    with pytest.raises(DocumentError, match=expected):
        BashState.from_json(game, doc)
