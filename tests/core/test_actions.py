"""Actions and their fixed enumeration."""

from __future__ import annotations

import pytest

from splash.core import ActionSpace, MalformedActionError, make_action


@pytest.fixture
def space() -> ActionSpace:
    return ActionSpace(
        [make_action(0, "pass"), make_action(1, "roll", face=1), make_action(2, "roll", face=2)]
    )


def test_json_forms_and_ids_round_trip(space: ActionSpace) -> None:
    for action in space:
        assert space.from_json(action.to_json()) == action
        assert space[action.id] == action
    assert space.find("roll", face=2).id == 2
    assert space.find("pass") is space[0]
    assert str(space[1]) == "roll(face=1)"


def test_find_says_what_is_wrong_like_from_json(space: ActionSpace) -> None:
    for kind, params, needle in (
        ("jump", {}, "unknown action kind 'jump'"),
        ("roll", {"face": 9}, "no 'roll' action has these parameters"),
        ("roll", {"face": [1]}, "no 'roll' action"),
        ("roll", {}, "no 'roll' action"),
    ):
        with pytest.raises(MalformedActionError) as error:
            space.find(kind, **params)
        assert needle in str(error.value)


@pytest.mark.parametrize(
    ("payload", "needle"),
    [
        ({"kind": "jump"}, "unknown action kind 'jump'"),
        ({"kind": "roll", "face": 9}, "no 'roll' action has these parameters"),
        ({"face": 1}, "no 'kind'"),
        (7, "no action has id 7"),
        ("roll", "an action is an object"),
        (True, "an action is an object"),
        ({"kind": "roll", "face": [1]}, "no 'roll' action"),
        ({"kind": "roll", "face": True}, "parameter 'face' must be an integer, not True"),
        ({"kind": "roll", "face": 1.0}, "parameter 'face' must be an integer, not 1.0"),
    ],
)
def test_malformed_actions_say_what_is_wrong(
    space: ActionSpace, payload: object, needle: str
) -> None:
    with pytest.raises(MalformedActionError) as error:
        space.from_json(payload)
    assert needle in str(error.value)
    assert error.value.payload == payload


def test_ids_must_follow_the_enumeration() -> None:
    with pytest.raises(ValueError):
        ActionSpace([make_action(1, "pass")])
