"""Reports of placements are checked for what people can really see (TD04, TD07, TD08,
T11): a report that cannot be is refused with an error that names the piece and says why,
and the state stays exactly as it was."""

from __future__ import annotations

from dataclasses import replace

import pytest

from splash.core import IllegalActionError
from splash.core.actions import Action, Json
from splash.games.tower import TowerGame, TowerState, referee
from splash.games.tower.scenario import position
from splash.games.tower.tower import Tower
from tests.games.tower.playouts import placing

Doc = dict[str, Json]


def _placing(game: TowerGame, tower: str = "red-prism red-beam red-arch") -> TowerState:
    """red-cube given by seat 0, placed by seat 1 on red-arch (the highest red piece)."""
    return placing(game, tower, covered="red-prism red-beam")


def _outcome(action: Action) -> Doc:
    doc = action.param("outcome")
    assert isinstance(doc, dict)
    return doc


def _tower(doc: Doc) -> list[Json]:
    """The outcome's list of pieces (to edit in place)."""
    tower = doc["tower"]
    assert isinstance(tower, list)
    return tower


def _record(doc: Doc, index: int) -> dict[str, Json]:
    """One piece of the outcome (to edit in place)."""
    record = _tower(doc)[index]
    assert isinstance(record, dict)
    return record


def _refused(state: TowerState, outcome: Doc, *words: str) -> None:
    """``outcome`` is refused with a message holding ``words``; nothing changed."""
    before = state.to_json()
    with pytest.raises(IllegalActionError) as error:
        state.apply({"kind": "result", "outcome": outcome})
    for word in words:
        assert word in str(error.value)
    assert state.to_json() == before


@pytest.mark.rule("TD08", "TD04")
def test_TD08_a_stood_report_cannot_move_a_standing_piece(game: TowerGame) -> None:
    state = _placing(game)
    moved = _outcome(referee.stood(state))
    _record(moved, 1)["support"] = None
    _refused(state, moved, "red-beam still stands where it was: its support cannot change")
    higher = _outcome(referee.stood(state))
    _record(higher, 0)["height_mm"] = 80.0
    _refused(state, higher, "red-prism still stands where it was: its height_mm", "80.0")
    turned = _outcome(referee.stood(state))
    _record(turned, 1)["face"] = "end"
    _refused(state, turned, "red-beam still stands where it was: its face")
    posed = _outcome(referee.stood(state))
    _record(posed, 0)["pose"] = {"position": [0.0, 0.0, 0.01], "quaternion": [1, 0, 0, 0]}
    _refused(state, posed, "red-prism still stands where it was: its pose")
    freed = _outcome(referee.stood(state))
    _record(freed, 0)["uncovered"] = True
    _refused(state, freed, "red-prism still stands where it was: its uncovered")


@pytest.mark.rule("TD08")
def test_TD08_a_stood_report_cannot_remove_or_reorder_pieces(game: TowerGame) -> None:
    state = _placing(game)
    removed = _outcome(referee.stood(state))
    del _tower(removed)[1]
    _refused(state, removed, "red-beam is missing: the report accounts for exactly")
    swapped = _outcome(referee.stood(state))
    records = _tower(swapped)
    records[0], records[1] = records[1], records[0]
    _refused(state, swapped, "red-beam is out of its place")
    added = _outcome(referee.stood(state))
    _tower(added).append({**_record(added, 0), "piece": "blue-cube", "face": "bottom"})
    _refused(state, added, "blue-cube is not one of the pieces the report accounts for")
    twice = _outcome(referee.stood(state))
    _tower(twice).append(_record(twice, 0))
    _refused(state, twice, "red-prism is named twice in the report")


@pytest.mark.rule("TD08", "TD04")
def test_TD08_only_the_new_piece_and_its_target_free_top_are_new(game: TowerGame) -> None:
    state = _placing(game)
    elsewhere = _outcome(referee.stood(state))
    _record(elsewhere, -1)["support"] = "red-beam"
    _refused(state, elsewhere, "the placed piece must rest on its target red-arch")
    state.apply(referee.stood(state, room_left=True))  # the target's free top may change
    assert state.tower.ids() == ("red-prism", "red-beam", "red-arch", "red-cube")
    assert state.tower.get("red-arch").uncovered


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("piece", "unicorn", "unicorn is not a piece of this game"),
        ("face", "wing", "red-cube has no face 'wing'"),
        ("height_mm", 0.0, "red-cube: outcome.tower[3].height_mm: a height of 0.0 mm"),
        ("height_mm", 2000.5, "(above 0, at most 2000.0 mm)"),
        ("height_mm", "tall", "red-cube: outcome.tower[3].height_mm must be a finite number"),
        (
            "pose",
            {"position": [0.0, 21.0, 0.1], "quaternion": [1, 0, 0, 0]},
            "at most 20.0 m from its centre across",
        ),
        ("pose", {"position": [0.0, 0.0, -0.1], "quaternion": [1, 0, 0, 0]}, "above it"),
    ],
)
def test_TD08_numbers_and_names_are_within_reach_of_the_table(
    game: TowerGame, field: str, value: Json, words: str
) -> None:
    state = _placing(game)
    outcome = _outcome(referee.stood(state))
    _record(outcome, -1)[field] = value
    _refused(state, outcome, words)


@pytest.mark.rule("TD07", "TD08")
def test_TD07_a_measured_tower_may_slide_a_little_but_keeps_its_supports(
    game: TowerGame,
) -> None:
    state = position(game, reserves={0: "red-cube blue-cube"}, tower="red-prism red-beam")
    pose = {"position": (0.0, 0.0, 0.02), "quaternion": (1.0, 0.0, 0.0, 0.0)}
    state.tower = Tower(tuple(replace(p, pose=pose) for p in state.tower.pieces))
    state.apply({"kind": "give", "piece": "red-cube"})
    state.apply({"kind": "place"})
    slid = _outcome(referee.stood(state))
    for index in range(len(_tower(slid))):
        record = _record(slid, index)
        record["pose"] = {"position": [0.002, 0.0, 0.02], "quaternion": [1.0, 0.0, 0.0, 0.0]}
        record["height_mm"] = float(str(record["height_mm"])) + 0.4
        record["uncovered"] = True
    after = state.clone()
    after.apply({"kind": "result", "outcome": slid})
    beam = state.tower.get("red-beam").height_mm
    assert after.tower.get("red-beam").height_mm == pytest.approx(beam + 0.4)
    _record(slid, 1)["support"] = None
    _refused(state, slid, "red-beam still stands where it was: its support")


@pytest.mark.rule("TD07", "T11")
def test_TD07_a_standing_stack_is_a_part_of_the_tower_as_it_was(game: TowerGame) -> None:
    state = _placing(game)  # red-prism red-beam red-arch, and red-cube on red-arch
    skipped = referee.fell(state, [["red-prism", "red-arch"]], ["red-beam", "red-cube"])
    _refused(
        state,
        _outcome(skipped),
        "red-arch rested on red-beam, which is not in its stack: a standing stack keeps each"
        " piece on the piece it rested on (TD07)",
    )
    on_base = referee.fell(state, [["red-prism", "red-cube"]], ["red-beam", "red-arch"])
    _refused(state, _outcome(on_base), "red-cube rested on red-arch, which is not in its stack")
    carried = referee.fell(state, [["red-cube", "red-arch"]], ["red-prism", "red-beam"])
    _refused(state, _outcome(carried), "red-arch rested on red-beam")
    upside = _outcome(referee.fell(state, [["red-prism", "red-beam"]], ["red-arch", "red-cube"]))
    stacks = upside["stacks"]
    assert isinstance(stacks, list)
    stacks[0] = ["red-beam", "red-prism"]
    _record(upside, 0)["support"], _record(upside, 1)["support"] = "red-prism", None
    _refused(state, upside, "red-prism rested on the table, which is not in its stack")
    reordered = _outcome(referee.fell(state, [["red-prism", "red-beam"]], ["red-arch", "red-cube"]))
    reordered["stacks"] = [["red-prism", "red-arch", "red-beam"]]
    reordered["on_table"] = ["red-cube"]
    _refused(state, reordered, "red-arch is named before red-beam, which it rests on")


@pytest.mark.rule("TD07", "TD08")
def test_TD07_the_base_stack_did_not_move_and_the_rest_lies_on_the_table(
    game: TowerGame,
) -> None:
    state = _placing(game)
    grown = _outcome(referee.fell(state, [["red-prism", "red-beam"]], ["red-arch", "red-cube"]))
    _record(grown, 1)["height_mm"] = 90.0
    _refused(state, grown, "red-beam still stands where it was: its height_mm cannot change")
    hanging = _outcome(referee.fell(state, [["red-prism", "red-beam"]], ["red-arch", "red-cube"]))
    _record(hanging, 2)["support"] = "red-beam"
    _refused(state, hanging, "red-arch lies on the table: it has no support")
    both = _outcome(referee.fell(state, [["red-prism", "red-beam"]], ["red-arch", "red-cube"]))
    both["on_table"] = ["red-beam", "red-arch", "red-cube"]
    _refused(state, both, "red-beam is named twice in the report")
    lost = _outcome(referee.fell(state, [["red-prism", "red-beam"]], ["red-arch", "red-cube"]))
    lost["on_table"] = ["red-arch"]
    _refused(state, lost, "red-cube is neither in a standing stack nor lying on the table")
    whole = referee.fell(state, [["red-prism", "red-beam", "red-arch", "red-cube"]], [])
    _refused(state, _outcome(whole), "nothing fell: every piece still stands where it was")


@pytest.mark.rule("T11", "TD07")
def test_T11_a_part_that_landed_upright_is_a_standing_stack(game: TowerGame) -> None:
    state = _placing(game)
    state.apply(referee.fell(state, [["red-beam", "red-arch", "red-cube"]], ["red-prism"]))
    # The only stack is the new base; its pieces keep resting as they did (T11, T12).
    assert state.tower.ids() == ("red-beam", "red-arch", "red-cube")
    assert state.tower.get("red-arch").support == "red-beam"
    assert state.reserves[1] == ["green-beam", "red-prism"]


@pytest.mark.rule("T18", "TD12")
def test_T18_a_knocked_tower_is_reported_without_the_piece_being_passed(
    game: TowerGame,
) -> None:
    state = _placing(game)
    with_gift = referee.knocked(state, 2, [["red-prism"]], ["red-beam", "red-arch", "red-cube"])
    _refused(state, _outcome(with_gift), "red-cube is not one of the pieces")
    nobody = _outcome(referee.knocked(state, 2, [["red-prism"]], ["red-beam", "red-arch"]))
    nobody["knocker"] = 4
    _refused(state, nobody, "a knocked tower needs the seat of the knocker")
    intact = referee.knocked(state, 2, [["red-prism", "red-beam", "red-arch"]], [])
    _refused(state, _outcome(intact), "nothing fell")
