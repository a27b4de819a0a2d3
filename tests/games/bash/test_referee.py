"""Referee mode: outcomes typed by people at the pool (BD17)."""

from __future__ import annotations

import pytest

from splash.core import (
    Action,
    ChanceEvent,
    OutcomeError,
    RandomOutcomes,
    RefereeOutcomes,
    State,
    step,
)
from splash.games.bash import BashGame
from splash.games.bash.scenario import position, where


class Pool:
    """People at the pool: they read the real die and, with printed cards, the card drawn."""

    def __init__(self, typed: list[str]) -> None:
        self.typed = typed
        self.asked: list[str] = []

    def __call__(self, state: State, event: ChanceEvent, possible: list[Action]) -> Action:
        self.asked.append(event.kind)
        text = self.typed.pop(0)
        if event.kind == "roll":
            return state.game.action_space.find("roll", face=int(text))
        return state.game.action_space.find("draw", deck=str(event.params["deck"]), card=text)


class Decides:
    def __init__(self, moves: list[dict[str, object]]) -> None:
        self.moves = moves

    def act(self, state: State) -> Action:
        return state.game.parse_action(self.moves.pop(0))


@pytest.mark.rule("BD17")
def test_BD17_people_type_the_roll_and_the_card(game: BashGame) -> None:
    people = Pool(["breeze", "3"])
    state = position(game, pieces="A1:c5 B1:c9")
    provider = RefereeOutcomes(people)
    team = Decides([{"kind": "stay"}])
    step(state, [team, team], provider)
    step(state, [team, team], provider)
    step(state, [team, team], provider)
    assert people.asked == ["draw", "roll"]
    assert [where(state, p) for p in ("A1", "B1")] == ["c9", "c11"]  # 3 + breeze, a bump


def test_BD17_digital_cards_with_a_real_die(game: BashGame) -> None:
    people = Pool(["6"])
    state = position(game, pieces="A1:c5")
    provider = RefereeOutcomes(people, delegate={"draw": RandomOutcomes(3)})
    state.apply(provider.outcome(state))
    assert people.asked == []
    while (event := state.chance_event()) is None or event.kind != "roll":
        state.apply(state.legal_actions()[0])
    state.apply(provider.outcome(state))
    assert people.asked == ["roll"]
    assert state.dice == [6]


def test_BD17_an_impossible_entry_changes_nothing(game: BashGame) -> None:
    state = position(game, pieces="A1:c5", decks={"low_tide": {"breeze": 1}})
    before = state.to_json()

    def says_calm_water(state: State, event: ChanceEvent, possible: list[Action]) -> Action:
        return state.game.action_space.find("draw", deck="low_tide", card="calm_water")

    with pytest.raises(OutcomeError) as error:
        RefereeOutcomes(says_calm_water).outcome(state)
    assert "calm_water" in str(error.value)
    assert state.to_json() == before
