"""Reading documents: a state, a tower piece, a tower and a placement outcome that are not
what they should be are refused with a DocumentError naming the field and the value found,
never a bare KeyError, TypeError or RecursionError; a state that breaks T01 is refused too."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable

import pytest

from splash.core import DocumentError
from splash.core.actions import Json
from splash.core.errors import UnsupportedFormatError
from splash.games.tower import TowerGame, TowerState, referee
from splash.games.tower.outcome import PlacementOutcome
from splash.games.tower.tower import Tower, TowerPiece
from tests.games.tower.playouts import placing

Doc = dict[str, Json]
Edit = Callable[[Doc], None]


def _placing(game: TowerGame) -> TowerState:
    """red-cube given by seat 0, placed by seat 1 on red-beam, its outcome awaited."""
    pose: dict[str, Json] = {"face": "bottom", "rotation_deg": 0, "x_mm": 1.5, "y_mm": 0}
    return placing(game, pose=pose)


def _doc(game: TowerGame) -> Doc:
    doc = json.loads(json.dumps(_placing(game).to_json()))
    assert isinstance(doc, dict)
    return doc


def _deep(depth: int) -> Json:
    value: Json = 1
    for _ in range(depth):
        value = [value]
    return value


def _node(doc: Doc, keys: list[str]) -> Json:
    """The value that ``keys`` (object keys and list indexes) lead to."""
    node: Json = doc
    for key in keys:
        if isinstance(node, list):
            node = node[int(key)]
        else:
            assert isinstance(node, dict), key
            node = node[key]
    return node


def _set(path: str, value: Json) -> Edit:
    """An edit that puts ``value`` at ``path`` (keys and indexes separated by dots)."""

    def edit(doc: Doc) -> None:
        *parents, last = path.split(".")
        node = _node(doc, parents)
        if isinstance(node, list):
            node[int(last)] = value
        else:
            assert isinstance(node, dict)
            node[last] = value

    return edit


def _drop(path: str) -> Edit:
    def edit(doc: Doc) -> None:
        *parents, last = path.split(".")
        node = _node(doc, parents)
        assert isinstance(node, dict)
        del node[last]

    return edit


def _append(path: str, value: Json) -> Edit:
    def edit(doc: Doc) -> None:
        target = doc[path]
        assert isinstance(target, list)
        target.append(value)

    return edit


BROKEN: list[tuple[str, Edit, str, str]] = [
    # (name, edit, expected path, words of the message)
    ("phase unknown", _set("phase", "flying"), "phase", "'flying' is not one of"),
    ("reserves not a list", _set("reserves", 5), "reserves", "must be a list"),
    ("a reserve short", _set("reserves", [[], []]), "reserves", "one reserve per seat"),
    ("a piece not a string", _set("reserves.0.0", 7), "reserves[0][0]", "must be a string"),
    ("an unknown piece", _set("box.0", "unicorn"), "box[0]", "unicorn is not a piece"),
    ("support a number", _set("tower.1.support", 5), "tower[1].support", "must be a string"),
    ("support elsewhere", _set("tower.1.support", "blue-arch"), "tower[1].support", "blue-arch"),
    ("two bases", _set("tower.1.support", None), "tower", "exactly one base"),
    ("height a word", _set("tower.1.height_mm", "high"), "tower[1].height_mm", "red-beam"),
    ("height too far", _set("tower.1.height_mm", 1e9), "tower[1].height_mm", "within reach"),
    ("height zero", _set("tower.0.height_mm", 0), "tower[0].height_mm", "within reach"),
    ("height NaN", _set("tower.0.height_mm", math.nan), "tower[0].height_mm", "finite"),
    ("uncovered 1", _set("tower.0.uncovered", 1), "tower[0].uncovered", "true or false"),
    ("order true", _set("tower.0.order", True), "tower[0].order", "an integer"),
    ("no piece id", _drop("tower.0.piece"), "tower[0].piece", "missing"),
    ("an unknown face", _set("tower.0.face", "wing"), "tower[0].face", "no face 'wing'"),
    (
        "pose short",
        _set("tower.0.pose", {"position": [0.0, 0.0], "quaternion": [1.0, 0.0, 0.0, 0.0]}),
        "tower[0].pose.position",
        "3 numbers",
    ),
    (
        "pose far away",
        _set("tower.0.pose", {"position": [30.0, 0.0, 0.01], "quaternion": [1.0, 0, 0, 0]}),
        "tower[0].pose.position",
        "within reach",
    ),
    (
        "pose not a rotation",
        _set("tower.0.pose", {"position": [0.0, 0.0, 0.01], "quaternion": [2.0, 0, 0, 0]}),
        "tower[0].pose.quaternion",
        "length 1",
    ),
    ("pose extra key", _set("tower.0.pose", {"spin": 1}), "tower[0].pose", "exactly a position"),
    ("drops true", _set("drops.0", True), "drops[0]", "an integer"),
    ("drops negative", _set("drops.1", -1), "drops[1]", "not between"),
    ("giver 1.0", _set("giver", 1.0), "giver", "an integer"),
    ("giver no seat", _set("giver", 9), "giver", "not between 0 and 3"),
    ("no gift to place", _set("gift", None), "gift", "needs a value"),
    ("gift from nobody", _set("gift_from", None), "gift_from", "needs a value"),
    ("placement key", _set("placement.spin", 3), "placement", "face, rotation_deg"),
    ("placement NaN", _set("placement.x_mm", math.nan), "placement.x_mm", "finite"),
    ("no placement", _set("placement", None), "placement", "needs a value"),
    ("placements -1", _set("placements", -1), "placements", "not between"),
    ("stacks a list", _set("stacks", []), "stacks", "must be an object"),
    ("an unknown event", _set("events", [{"event": "explode"}]), "events[0].event", "explode"),
    ("event seat", _set("events", [{"event": "give", "seat": "0"}]), "events[0].seat", "integer"),
    ("no history", _drop("history"), "history", "missing"),
    ("a strange action", _set("history", [{"kind": "teleport"}]), "history[0]", "teleport"),
    (
        "a deep action",
        _set("history", [{"kind": "result", "outcome": _deep(5000)}]),
        "history[0]",
        "nested too deeply",
    ),
    ("winner no team", _set("winner", 7), "winner", "not between"),
    ("table a word", _set("table", ["red-cube"]), "table[0]", "must be an object"),
]


@pytest.mark.rule("T01")
@pytest.mark.parametrize(
    ("edit", "path", "words"), [pytest.param(*case[1:], id=case[0]) for case in BROKEN]
)
def test_a_broken_state_document_is_refused_naming_the_field(
    game: TowerGame, edit: Edit, path: str, words: str
) -> None:
    doc = _doc(game)
    edit(doc)
    with pytest.raises(DocumentError) as error:
        game.state_from_json(doc)
    assert error.value.path == path
    assert path in str(error.value) and words in str(error.value)


BREAKING_T01: list[tuple[str, Edit, str]] = [
    ("twice", _append("box", "red-prism"), "red-prism is in two places: the tower and the box"),
    ("twice in one place", _append("box", "purple-arch"), "purple-arch is twice in the box"),
    ("the gift twice", _append("reserves", []), "one reserve per seat"),
    ("nowhere", _set("box", []), "is nowhere"),
    ("the gift in a reserve", _append("pile", "red-cube"), "red-cube is in two places"),
]


@pytest.mark.rule("T01")
@pytest.mark.parametrize(
    ("edit", "words"), [pytest.param(*case[1:], id=case[0]) for case in BREAKING_T01]
)
def test_T01_a_state_with_a_piece_twice_or_nowhere_is_refused(
    game: TowerGame, edit: Edit, words: str
) -> None:
    doc = _doc(game)
    edit(doc)
    with pytest.raises(DocumentError) as error:
        game.state_from_json(doc)
    assert words in str(error.value)


def test_a_state_document_reads_back_as_it_was(game: TowerGame) -> None:
    state = _placing(game)
    doc = _doc(game)
    again = game.state_from_json(copy.deepcopy(doc))
    assert again == state and again.to_json() == doc
    assert again.placement == {"face": "bottom", "rotation_deg": 0, "x_mm": 1.5, "y_mm": 0}


def test_not_a_state_document(game: TowerGame) -> None:
    with pytest.raises(DocumentError):
        game.state_from_json([])
    with pytest.raises(UnsupportedFormatError):
        game.state_from_json({"format": "splash/bash/1"})


PIECE = {"piece": "red-cube", "support": None, "face": "bottom", "height_mm": 25.0}


@pytest.mark.parametrize(
    ("doc", "path", "words"),
    [
        pytest.param([], "", "must be an object", id="a list"),
        pytest.param({**PIECE}, "uncovered", "uncovered is missing", id="no free top"),
        pytest.param(
            {**PIECE, "uncovered": True, "height_mm": -2}, "height_mm", "red-cube: ", id="low"
        ),
        pytest.param({**PIECE, "piece": 3, "uncovered": True}, "piece", "string", id="piece id"),
    ],
)
def test_a_broken_tower_piece_is_refused(doc: object, path: str, words: str) -> None:
    with pytest.raises(DocumentError) as error:
        TowerPiece.from_json(doc)
    assert error.value.path == path and words in str(error.value)


def test_a_broken_tower_is_refused() -> None:
    with pytest.raises(DocumentError) as error:
        Tower.from_json([{**PIECE, "uncovered": True}, {"piece": "red-beam"}])
    assert error.value.path == "tower[1].face"
    with pytest.raises(DocumentError) as error:
        Tower.from_json({"red-cube": PIECE})
    assert error.value.path == "tower"


STOOD = {"piece": "red-cube", "support": None, "face": "bottom", "uncovered": True}


@pytest.mark.parametrize(
    ("doc", "path", "words"),
    [
        pytest.param("stood", "outcome", "must be an object", id="a word"),
        pytest.param({"result": "collapsed"}, "outcome.result", "not one of", id="result"),
        pytest.param(
            {"format": "splash/x/1", "result": "stood"}, "outcome.format", "format", id="format"
        ),
        pytest.param(
            {"result": "knocked", "knocker": True}, "outcome.knocker", "integer", id="knocker"
        ),
        pytest.param(
            {"result": "stood", "tower": [{**STOOD, "height_mm": 2500}]},
            "outcome.tower[0].height_mm",
            "red-cube: outcome.tower[0].height_mm: a height of 2500.0 mm is not within reach",
            id="height",
        ),
        pytest.param(
            {"result": "fell", "stacks": [[1]]}, "outcome.stacks[0][0]", "string", id="stack"
        ),
        pytest.param(
            {"result": "fell", "on_table": "red-cube"}, "outcome.on_table", "list", id="table"
        ),
        pytest.param(
            {"result": "stood", "details": {"deep": _deep(5000)}},
            "outcome.details",
            "nested too deeply",
            id="deep details",
        ),
    ],
)
def test_a_broken_outcome_is_refused(doc: object, path: str, words: str) -> None:
    with pytest.raises(DocumentError) as error:
        PlacementOutcome.parse(doc)
    assert error.value.path == path and words in str(error.value)


def test_an_outcome_reads_back_as_it_was(game: TowerGame) -> None:
    state = _placing(game)
    outcome = referee.fell(state, [["red-prism", "red-beam"]], ["red-cube"]).param("outcome")
    parsed = PlacementOutcome.parse(outcome)
    assert parsed.to_json() == {**outcome, "knocker": None}
    assert parsed.stacks == (("red-prism", "red-beam"),) and parsed.on_table == ("red-cube",)
