"""The verification can fail: a fast log or record that differs is reported, typed."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pytest

from splash.fast import kernel as k
from splash.fast.batch import FastLimitError, play_games, playouts
from splash.fast.errors import LIMITS
from splash.fast.verify import Difference, replay
from splash.sim.fast_engine import fast_tables
from splash.sim.runner import GameSpec


def test_a_changed_legal_set_is_reported_with_its_seed_and_step() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    games = play_games(tables, [7], verify=True)
    assert replay(tables, games, 0)[1] == []
    start, end = int(games.legal_offsets[5]), int(games.legal_offsets[6])
    games.legal[start:end] = games.legal[start:end][::-1].copy() + 1
    _, differences = replay(tables, games, 0)
    assert len(differences) == 1
    assert isinstance(differences[0], Difference)
    assert (differences[0].seed, differences[0].step, differences[0].what) == (
        7,
        5,
        "legal actions",
    )


def test_a_changed_final_state_is_reported() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    games = play_games(tables, [3], verify=True)
    games.finals[0, -1] += 1
    games.finals[0, 0] += 1
    _, differences = replay(tables, games, 0)
    assert [d.what for d in differences] == ["final state"]
    assert differences[0].step == -1


def test_each_game_is_played_to_its_end_and_logged() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    games = play_games(tables, [1, 2, 3])
    lengths = np.diff(games.action_offsets)
    assert (lengths > 100).all()
    assert games.actions.shape[0] == int(lengths.sum())


def test_a_seventeenth_answer_within_one_movement_is_refused_not_written() -> None:
    # A movement replays its answers from the start; the core keeps at most MAXANS of them.
    tables = fast_tables(GameSpec.of("bash"))
    G = tables.initial.copy()
    G[k.S_PEND] = 1
    G[k.S_NANS] = k.MAXANS
    G[k.S_QKIND] = k.Q_LIFEBUOY
    size = k.scratch_size(tables.lmax)
    scratch = np.zeros(size, np.int64)
    events = np.zeros(k.EV_BUFFER, np.int64)
    frames = np.zeros((k.MAXFR, k.FRW), np.int64)
    before = G.copy()
    k.apply(G, tables.T, events, frames, int(tables.T[k.T_A_PASS]), scratch)
    assert G[k.S_ERR] == k.ERR_ANSWERS
    assert G[k.S_NANS] == k.MAXANS
    assert G[k.S_QKIND] == k.Q_LIFEBUOY  # the slot after the answers is untouched
    changed = np.flatnonzero(before != G).tolist()
    assert changed == [k.S_ERR, k.BOARD + k.B_EVLEN] or changed == [k.S_ERR]


@dataclass(frozen=True)
class _Start:
    T: npt.NDArray[np.int64]
    initial: npt.NDArray[np.int64]


def test_a_game_that_broke_a_limit_is_refused_with_its_seed() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    broken = tables.initial.copy()
    broken[k.S_ERR] = k.ERR_ANSWERS
    with pytest.raises(FastLimitError) as raised:
        play_games(_Start(tables.T, broken), [40, 41])
    assert raised.value.seed == 40
    assert "40" in str(raised.value)


def test_the_limit_error_names_the_limit_and_its_value() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    broken = tables.initial.copy()
    broken[k.S_ERR] = k.ERR_ANSWERS
    with pytest.raises(FastLimitError) as raised:
        play_games(_Start(tables.T, broken), [40, 41])
    assert raised.value.code == k.ERR_ANSWERS
    assert raised.value.limit is not None and raised.value.limit.most == 16
    assert str(raised.value) == (
        "the game of seed 40 broke a limit of the fast core, which needs "
        "at most 16 answers within one movement"
    )
    assert raised.value.localized("fr") == (
        "la partie de graine 40 a dépassé une limite du moteur rapide, qui exige "
        "au plus 16 réponses au sein d'un même mouvement"
    )


def test_a_playout_that_broke_a_limit_names_it() -> None:
    tables = fast_tables(GameSpec.of("bash"))
    broken = tables.initial.copy()
    broken[k.S_ERR] = k.ERR_EVENTS
    with pytest.raises(FastLimitError) as raised:
        playouts(tables, broken, [5, 6])
    assert (raised.value.seed, raised.value.code) == (5, k.ERR_EVENTS)
    assert "at most 1024 events in one action" in str(raised.value)


@pytest.mark.parametrize("code", sorted(LIMITS))
@pytest.mark.parametrize("locale", ["fr", "cs", "it"])
def test_each_limit_is_named_in_each_locale(code: int, locale: str) -> None:
    error = FastLimitError(9, code)
    text = error.localized(locale)
    assert text != str(error)
    assert "9" in text
    limit = LIMITS[code]
    if limit.most:
        assert str(limit.most) in text


def test_an_undocumented_code_still_names_the_seed() -> None:
    error = FastLimitError(12, 99)
    assert error.limit is None
    assert str(error) == "the fast core hit one of its limits in the game of seed 12"
