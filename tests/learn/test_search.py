"""Ply 1 and ply 2 of the learned agent: they search through the team's own consecutive
decisions, weigh chance as the team sees it, and choose the same move whatever the hidden
cards are (BD12)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import numpy.typing as npt
import pytest

from splash.fast import kernel as k
from splash.fast.afterstate import FastAfterstates
from splash.fast.convert import to_arrays
from splash.fast.tables import Tables, build_tables
from splash.games.bash import BashGame, BashState
from splash.games.bash.afterstate import Stop
from splash.games.bash.config import HAND_DECK
from splash.games.bash.hidden import resample, unseen_cards
from splash.learn.search import AGAIN_WIDTH, Search
from splash.learn.td import TDSettings, _Game, _to_decision, _Work, initial_net
from tests.games.bash.test_afterstate import positions


def search_for(game: BashGame, seed: int = 5) -> Search:
    """A search with an untrained network whose values differ from one after-state to the
    next (its weights scaled up)."""
    fast = FastAfterstates(build_tables(game))
    net = initial_net(fast.encoding.size, seed, TDSettings(hidden=16))
    net.params *= 3.0
    return Search(fast, net)


@pytest.fixture(scope="module")
def sample() -> list[BashState]:
    return positions(2, range(30), questions=2) + positions(3, range(300, 306), questions=1)


def test_ply_1_searches_through_the_teams_own_decisions() -> None:
    game = BashGame()
    search = search_for(game)
    state = game.new_initial_state()
    leaves = search.leaves(np.atleast_2d(to_arrays(search.fast.tables, state)), np.array([0]))
    # three pieces placed one after the other, three lanes each, no chance between
    assert leaves.offsets.tolist() == [0, 27]
    assert int(Stop.AGAIN) not in leaves.stops.tolist()
    assert Counter(leaves.first.tolist()) == {first: 9 for first in set(leaves.first.tolist())}
    assert search.ply1(to_arrays(search.fast.tables, state), 0) == int(
        leaves.first[leaves.best()[0]]
    )


def unseen_of(tables: Tables, state: npt.NDArray[np.int64], seat: int) -> npt.NDArray[np.int64]:
    """The copies of each high tide card ``seat`` cannot see in the state array ``state``:
    the deck file's less the discards and its own hand."""
    copies = tables.T[k.T_CCOUNT + k.HAND * k.MAXC :][: k.MAXC]
    discards = state[k.BOARD + k.B_DISC + k.HAND * k.MAXC :][: k.MAXC]
    hand = state[k.BOARD + k.B_HAND + seat * k.MAXC :][: k.MAXC]
    unseen: npt.NDArray[np.int64] = copies - discards - hand
    return unseen


@pytest.mark.rule("BD12")
def test_a_draw_is_weighed_by_the_cards_the_team_cannot_see(sample: list[BashState]) -> None:
    game = sample[0]._bash
    search = search_for(game)
    tables = search.fast.tables
    names = list(game.settings.decks[HAND_DECK].cards)
    checked = Counter[str]()
    for state in sample:
        if state._bash is not game:
            continue
        seat = state.to_act()
        batch = search.fast(to_arrays(tables, state), [seat])
        found = [(batch.states[row], 0) for row in np.flatnonzero(batch.stops == int(Stop.CHANCE))]
        unseen = unseen_of(tables, to_arrays(tables, state), seat)
        assert {names[c]: int(n) for c, n in enumerate(unseen) if n} == Counter(
            unseen_cards(state, seat)
        )
        for after, depth in found:
            outcomes = search.fast.chance(after, seat)
            assert outcomes.probabilities.sum() == pytest.approx(1.0)
            if depth < 2:  # chance events further on: often another team's draw
                found += [
                    (outcomes.states[row], depth + 1)
                    for row in np.flatnonzero(outcomes.stops == int(Stop.CHANCE))
                ]
            if after[k.S_AW] == k.AW_ROLL:
                faces = int(tables.T[k.T_FACES]) ** int(after[k.S_AWA])
                assert np.allclose(outcomes.probabilities, 1.0 / faces)
                checked["roll"] += 1
            elif after[k.S_AW] == k.AW_DRAW and after[k.S_AWA] == k.HAND:
                unseen = unseen_of(tables, after, seat)
                expected = unseen[unseen > 0] / unseen.sum()
                assert outcomes.probabilities == pytest.approx(expected)
                deck = after[k.BOARD + k.B_DECK + k.HAND * k.MAXC :][: k.MAXC]
                # the deal's deck is not what the team cannot see: another hand holds cards
                checked["high tide draw"] += int(deck.sum() < unseen.sum())
    assert checked["roll"] >= 10 and checked["high tide draw"] >= 5, checked


@pytest.mark.rule("BD12")
def test_BD12_the_choice_does_not_change_when_the_hidden_cards_are_dealt_again(
    sample: list[BashState],
) -> None:
    assert len(sample) >= 200  # 281: 239 of two teams, 42 of three
    searches = {state.game.num_seats: search_for(state._bash) for state in sample}
    changed = Counter[int]()
    for n, state in enumerate(sample):
        seat = state.to_act()
        search = searches[state.game.num_seats]
        tables = search.fast.tables
        other = resample(state, seat, np.random.default_rng(n))
        mine, theirs = to_arrays(tables, state), to_arrays(tables, other)
        hidden = [h for t, h in enumerate(state.board.hands) if t != seat]
        changed[int(hidden != [h for t, h in enumerate(other.board.hands) if t != seat])] += 1
        assert search.ply1(mine, seat) == search.ply1(theirs, seat)
        assert search.ply2(mine, seat) == search.ply2(theirs, seat)
    assert changed[1] >= 100  # the hidden hands did change in most positions


def test_ply_2_prunes_to_the_best_leaves_of_ply_1() -> None:
    game = BashGame()
    search = search_for(game)
    state = game.new_initial_state()
    arrays = to_arrays(search.fast.tables, state)
    leaves = search.leaves(np.atleast_2d(arrays), np.array([0]))
    # a width of one keeps the best leaf of ply 1 alone
    assert search.ply2(arrays, 0, width=1) == int(leaves.first[leaves.best()[0]])


def test_ply_1_goes_through_the_best_of_many_further_decisions() -> None:
    game = BashGame()
    search = search_for(game)
    tables = search.fast.tables
    work = _Work(tables)
    played = _Game(tables, 0, 0)
    rng = np.random.default_rng(0)
    for _ in range(31):  # decision 31 of this random game: 91 squares for an obstacle
        assert _to_decision(played, tables, work)
        actions = search.fast(played.G).actions
        work.apply(tables, played.G, int(actions[rng.integers(actions.size)]))
    assert _to_decision(played, tables, work)
    seat = int(k.to_act(played.G))
    leaves = search.leaves(np.atleast_2d(played.G), np.array([seat]))
    first = leaves.batches[0]
    again = np.flatnonzero(first.stops == int(Stop.AGAIN))
    assert again.size > AGAIN_WIDTH
    values = search.net.values(first.features[again])
    best = again[np.argsort(-values, kind="stable")[:AGAIN_WIDTH]]
    assert leaves.batches[1].offsets.size - 1 == AGAIN_WIDTH
    assert set(leaves.first[leaves.levels >= 1].tolist()) == set(first.actions[best].tolist())
