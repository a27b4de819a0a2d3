"""Specs and single games: bots per seat, refused input, a Splash! game with the physics."""

from __future__ import annotations

import pytest

from splash.core.errors import OptionError
from splash.sim import GameSpec, run_one
from splash.sim.runner import seed_children


def test_the_last_bot_repeats_for_the_remaining_seats() -> None:
    spec = GameSpec.of("bash", ["options.teams=3"], [])
    assert spec.bots == ("random", "random", "random")
    assert spec.seats == 3
    assert spec.options == '{"options.teams": 3}'


@pytest.mark.parametrize(
    ("game", "settings", "bots", "key"),
    [
        ("chess", [], [], "GAME"),
        ("bash", [], ["random", "random", "random"], "--bots"),
        ("bash", [], ["nobody"], "bot"),
        ("bash", ["options.nothing=1"], [], "options.nothing"),
    ],
)
def test_bad_input_is_refused(game: str, settings: list[str], bots: list[str], key: str) -> None:
    with pytest.raises(OptionError) as caught:
        GameSpec.of(game, settings, bots)
    assert caught.value.key == key


def test_a_negative_seed_is_refused() -> None:
    with pytest.raises(OptionError, match="--seed"):
        seed_children(-1, 2)


def test_a_record_has_the_columns_of_its_spec() -> None:
    spec = GameSpec.of("bash", ["options.turn_cap=5"])
    record = run_one(spec, 0)
    assert list(record) == list(spec.columns())
    assert record["turn_cap"] is True
    assert record["winner"] is None
    assert int(str(record["turns"])) >= 5


def test_two_player_tower_games_run_with_the_physics() -> None:
    spec = GameSpec.of("tower", ["options.players=2"])
    assert spec.bots == ("random", "random")
    for seed in (0, 1):
        record = run_one(spec, seed)
        assert list(record) == list(spec.columns())
        assert record["seed"] == seed
        placements = int(str(record["placements_s0"])) + int(str(record["placements_s1"]))
        assert placements == record["turns"]
        if record["winner"] is not None:
            assert record["won_by"] in ("pieces", "drops")
