"""After-states of a team's decision: legal steps only, the stops of their definition, and
nothing the team cannot see (BD12)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from splash.core import CHANCE, TERMINAL
from splash.core.errors import OptionError
from splash.games.bash import BashGame, BashState
from splash.games.bash.afterstate import (
    TEAM_BLOCKS,
    AfterstateEncoding,
    Stop,
    afterstates,
    canonical_deal,
)
from splash.games.bash.hidden import resample, unseen_cards
from tests.bots.bash_positions import has_choice, random_decisions


def pending(state: BashState) -> bool:
    """A question in the middle of a movement, with a choice, is asked of the team."""
    return state.pending is not None and has_choice(state)


def positions(teams: int, seeds: range, *, questions: int = 2) -> list[BashState]:
    """Decisions with a choice of seeded random games, and questions in mid-movement."""
    found: list[BashState] = []
    for seed in seeds:
        found += random_decisions(seed, teams=teams, every=9, limit=6, keep=has_choice)
        found += random_decisions(seed, teams=teams, every=1, limit=questions, keep=pending)
    return found


@pytest.fixture(scope="module")
def sample() -> list[BashState]:
    return positions(2, range(6)) + positions(3, range(100, 103)) + positions(4, range(200, 202))


def encodings(states: list[BashState]) -> dict[int, AfterstateEncoding]:
    games = {state.game.num_seats: state.game for state in states}
    return {n: AfterstateEncoding(game) for n, game in games.items() if isinstance(game, BashGame)}


@pytest.mark.rule("BD12")
def test_BD12_the_features_do_not_change_when_the_hidden_cards_are_dealt_again(
    sample: list[BashState],
) -> None:
    by_teams = encodings(sample)
    questions = 0
    for n, state in enumerate(sample):
        seat = state.to_act()
        encoding = by_teams[state.game.num_seats]
        found = afterstates(state, seat, encoding)
        questions += state.pending is not None
        for attempt in range(2):
            other = resample(state, seat, np.random.default_rng(1000 * n + attempt))
            again = afterstates(other, seat, encoding)
            assert [a.action for a in again] == [a.action for a in found]
            assert [a.stop for a in again] == [a.stop for a in found]
            for first, second in zip(found, again, strict=True):
                assert np.array_equal(first.features, second.features), state.describe()
    assert questions >= 10


@pytest.mark.rule("BD12")
def test_BD12_the_canonical_deal_keeps_what_the_team_sees(sample: list[BashState]) -> None:
    for state in sample:
        seat = state.to_act()
        dealt = canonical_deal(state, seat)
        assert dealt.view(seat) == state.view(seat)
        assert dealt.legal_actions() == state.legal_actions()
        assert unseen_cards(dealt, seat) == unseen_cards(state, seat)


def test_after_states_are_reached_by_legal_actions_and_stop_as_defined(
    sample: list[BashState],
) -> None:
    by_teams = encodings(sample)
    stops: Counter[Stop] = Counter()
    for state in sample:
        seat = state.to_act()
        root = canonical_deal(state, seat)
        found = afterstates(state, seat, by_teams[state.game.num_seats])
        assert [a.action for a in found] == root.legal_actions()
        for after in found:
            replay = canonical_deal(state, seat)
            steps = list(after.state.history)
            assert steps[0] == after.action
            replay.apply(steps[0])
            for step in steps[1:]:
                assert replay.to_act() >= 0 and replay.legal_actions() == [step]
                replay.apply(step)
            assert replay.to_json() == after.state.to_json()
            actor = replay.to_act()
            expected = {TERMINAL: Stop.END, CHANCE: Stop.CHANCE, seat: Stop.AGAIN}
            assert after.stop == expected.get(actor, Stop.OTHER)
            if actor >= 0:
                assert len(replay.legal_actions()) >= 2
            stops[after.stop] += 1
    assert stops[Stop.CHANCE] and stops[Stop.AGAIN] and stops[Stop.OTHER]


def test_the_features_count_teams_from_the_deciding_one(sample: list[BashState]) -> None:
    by_teams = encodings(sample)
    for state in sample[::3]:
        seat = state.to_act()
        encoding = by_teams[state.game.num_seats]
        teams = encoding.teams
        for after in afterstates(state, seat, encoding):
            plain = encoding.encoding.observation(after.state, seat)
            features = after.features
            assert features.shape == (encoding.size,) and features.dtype == np.float32
            for name in TEAM_BLOCKS:
                block = encoding.layout[name]
                width = block.size // teams
                for team in range(teams):
                    turned = features[block.start + team * width :][:width]
                    source = block.start + ((team + seat) % teams) * width
                    assert np.array_equal(turned, plain[source : source + width])
            assert features[encoding.layout["seat"].start] == 1.0
            unseen = Counter(unseen_cards(after.state, seat))
            cards = encoding.encoding.hand_cards
            copies = np.array(encoding.layout["unseen"].scales)
            seen = features[encoding.layout["unseen"].slice]
            assert np.allclose(seen * copies, [unseen[card] for card in cards], atol=1e-5)


def test_a_team_that_is_not_to_decide_is_refused(game: BashGame) -> None:
    state = game.new_initial_state()
    with pytest.raises(OptionError, match="not the team to decide"):
        afterstates(state, 1)


def test_the_documented_feature_size_is_the_built_one(game: BashGame) -> None:
    doc = Path(__file__).resolve().parents[3] / "docs" / "envs.md"
    size = AfterstateEncoding(game).size
    assert f"`encoding.size` entries, {size} with two teams" in doc.read_text(encoding="utf-8")
