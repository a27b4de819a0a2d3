"""``splash bash simulate``: seeded bot games and their summary."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from typer.testing import Result

from splash.cli import simulate
from splash.games.bash import BashGame

Splash = Callable[..., Result]


def test_five_games_print_the_summary(splash: Splash) -> None:
    result = splash("bash", "simulate", "--games", "5", "--seed", "7")
    assert result.exit_code == 0
    out = result.output
    assert "5 games, seeds 7 to 11" in out
    assert "Wins of team A (random)" in out
    assert "Wins of team B (random)" in out
    assert "Turn cap hit (no winner)" in out
    assert "Game length in team turns (mean ± sd)" in out
    assert "Actions per game" in out


def test_turn_cap_is_counted(splash: Splash) -> None:
    result = splash("bash", "simulate", "--games", "3", "--set", "options.turn_cap=4")
    assert result.exit_code == 0
    assert "Turn cap hit (no winner)" in result.output
    assert "3 (100.0 %)" in result.output


def test_game_i_uses_seed_s_plus_i() -> None:
    game = BashGame.from_settings([("options.teams", 3)])
    specs = simulate.seat_specs(["random"], game.num_seats)
    console = Console(quiet=True)
    results = simulate.run(console, game, games=3, seed=20, specs=specs)
    assert [r.seed for r in results] == [20, 21, 22]
    assert results[1] == simulate.play_game(game, 21, specs)
    assert len({(r.turns, r.actions) for r in results}) > 1
    for result in results:
        assert result.winner in (0, 1, 2)
        assert result.decisions < result.actions


def test_seat_specs_repeat_the_last() -> None:
    assert simulate.seat_specs([], 3) == ["random"] * 3
    assert simulate.seat_specs(["a", "b"], 4) == ["a", "b", "b", "b"]


def test_unknown_bot_exits_2(splash: Splash) -> None:
    result = splash("bash", "simulate", "--games", "1", "--bots", "random,clever:depth=2")
    assert result.exit_code == 2
    assert "unknown bot 'clever'" in result.output
