"""The scripted and the referee providers take placement results as they take rolls: a
continuous outcome is checked by the state's own legality check (TD08)."""

from __future__ import annotations

import pytest

from splash.core import OutcomeError, ScriptedOutcomes
from splash.core.actions import Action, Json
from splash.core.outcomes import RefereeOutcomes
from splash.core.protocol import ChanceEvent, State
from splash.games.tower import TowerGame, TowerState, referee
from tests.games.tower.playouts import placing


def _moved(state: TowerState) -> dict[str, Json]:
    """A stood report that moves red-beam onto the table."""
    doc = referee.stood(state).to_json()
    outcome = doc["outcome"]
    assert isinstance(outcome, dict) and isinstance(outcome["tower"], list)
    beam = outcome["tower"][1]
    assert isinstance(beam, dict)
    beam["support"] = None
    return doc


@pytest.mark.rule("TD08")
def test_TD08_scripted_placement_results_are_checked_by_the_state(game: TowerGame) -> None:
    state = placing(game, covered="red-prism")
    good = ScriptedOutcomes([referee.stood(state).to_json()])
    action = good.outcome(state)
    assert action.kind == "result" and good.remaining == 0
    before = state.to_json()
    with pytest.raises(OutcomeError) as error:
        ScriptedOutcomes([_moved(state)]).outcome(state)
    assert "red-beam still stands where it was: its support cannot change" in str(error.value)
    assert state.to_json() == before
    state.apply(action)
    assert state.tower.ids() == ("red-prism", "red-beam", "red-cube")


@pytest.mark.rule("TD08")
def test_TD08_a_person_reports_a_placement_result(game: TowerGame) -> None:
    state = placing(game, covered="red-prism")
    reports = [_moved(state), referee.stood(state, room_left=True).to_json()]

    def ask(state: State, event: ChanceEvent, possible: list[Action]) -> Action:
        assert event.kind == "placement" and possible == []
        return state.game.parse_action(reports.pop(0))

    people = RefereeOutcomes(ask)
    before = state.to_json()
    with pytest.raises(OutcomeError) as error:
        people.outcome(state)
    assert "is not a possible outcome of placement: red-beam still stands" in str(error.value)
    assert state.to_json() == before
    state.apply(people.outcome(state))
    assert state.tower.get("red-beam").uncovered


def test_a_discrete_outcome_is_still_one_of_the_possible_ones() -> None:
    game = TowerGame.from_settings([("options.deal", "random")])
    state = game.new_initial_state()
    state.apply({"kind": "deal", "piece": "red-cube"})
    with pytest.raises(OutcomeError) as error:
        ScriptedOutcomes([{"kind": "deal", "piece": "red-cube"}]).outcome(state)
    assert "is not possible for deal" in str(error.value)
