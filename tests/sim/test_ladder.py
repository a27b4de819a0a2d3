"""``splash ladder``: a round robin between bots, its tables, its JSON and its refusals."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from splash.cli.main import app
from splash.core.errors import DocumentError, OptionError, UnsupportedFormatError
from splash.sim.backends import LocalProcesses, Sequential
from splash.sim.ladder import LADDER_FORMAT, Ladder, LadderSpec, game_seed, play_ladder
from splash.sim.runner import FAST

runner = CliRunner()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp("ladder") / "ladder.json"
    args = ["ladder", "bash", "--bots", "random,greedy", "--games", "6", "--workers", "1"]
    result = runner.invoke(app, [*args, "--seed", "3", "--out", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output, out


def test_the_tiny_ladder_prints_its_tables(tiny: tuple[str, Path]) -> None:
    output, _ = tiny
    assert "Round robin: 6 games per pair, seed 3" in output
    assert "95 % Wilson interval" in output
    assert "Elo 95 % interval" in output
    assert "p-value" in output
    assert "greedy against" in output


def test_greedy_beats_random(tiny: tuple[str, Path]) -> None:
    ladder = Ladder.from_json(json.loads(tiny[1].read_text(encoding="utf-8")))
    random_line, greedy_line = ladder.table()
    assert (random_line.bot, greedy_line.bot) == ("random", "greedy")
    assert random_line.games == greedy_line.games == 6
    assert greedy_line.wins > random_line.wins
    assert greedy_line.elo > random_line.elo
    (step,) = ladder.steps()
    assert (step.higher, step.lower, step.games) == ("greedy", "random", 6)
    assert step.wins >= 5
    assert step.p_value <= 7 / 64


def test_the_json_round_trip(tiny: tuple[str, Path]) -> None:
    doc = json.loads(tiny[1].read_text(encoding="utf-8"))
    assert doc["format"] == LADDER_FORMAT
    assert len(doc["games"]) == 6
    ladder = Ladder.from_json(doc)
    assert ladder.to_json() == doc
    # ``--engine auto`` plays random against greedy on the compiled core.
    spec = replace(LadderSpec.of("bash", [], ["random", "greedy"], 6, 3), engine=FAST)
    assert ladder.spec.engine == FAST
    assert ladder == play_ladder(spec, Sequential())


def test_seats_alternate_and_seeds_are_derived() -> None:
    spec = LadderSpec.of("bash", [], ["random", "greedy", "ismcts:iterations=5"], 3, 7)
    fixtures = spec.fixtures()
    assert [(f.low, f.high) for f in fixtures[:4]] == [(0, 1), (0, 1), (0, 1), (0, 2)]
    assert [f.seats for f in fixtures[:3]] == [(0, 1), (1, 0), (0, 1)]
    assert fixtures[4].seed == game_seed(7, 0, 2, 1)
    assert len({f.seed for f in fixtures}) == len(fixtures) == 9
    longer = LadderSpec.of("bash", [], ["random", "greedy", "ismcts:iterations=5"], 5, 7)
    assert longer.fixtures()[5].seed == fixtures[3].seed


def test_local_processes_give_the_same_ladder() -> None:
    spec = LadderSpec.of("bash", [], ["random", "greedy"], 2, 11)
    backend = LocalProcesses(2)
    try:
        assert play_ladder(spec, backend) == play_ladder(spec, Sequential())
    finally:
        backend.close()


def test_a_tower_ladder_has_two_players() -> None:
    spec = LadderSpec.of("tower", [], ["random", "random:spread=0.5"], 1)
    assert json.loads(spec.options) == {"options.players": 2}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--bots", "random"], "a ladder needs two bots or more"),
        (["--bots", "random,nobody"], "unknown bot 'nobody'"),
        (["--bots", "random,greedy", "--games", "0"], "--games=0: must be a whole number >= 1"),
        (["--bots", "random,random"], "a bot is named twice"),
        (["--bots", "random,greedy", "--set", "options.teams=3"], "2 bots for 3 seats"),
    ],
)
def test_wrong_inputs_exit_2(args: list[str], expected: str) -> None:
    result = runner.invoke(app, ["ladder", "bash", "--workers", "1", *args])
    assert result.exit_code == 2
    assert expected in result.output


def test_the_spec_refuses_what_the_command_refuses() -> None:
    with pytest.raises(OptionError) as caught:
        LadderSpec.of("bash", [], ["greedy"], 4)
    assert caught.value.value == "greedy"
    with pytest.raises(OptionError, match="--games"):
        LadderSpec.of("bash", [], ["random", "greedy"], -1)


def test_a_document_of_another_kind_is_refused() -> None:
    with pytest.raises(UnsupportedFormatError):
        Ladder.from_json({"format": "splash/record/1"})
    with pytest.raises(DocumentError):
        Ladder.from_json({"format": LADDER_FORMAT, "game": "bash"})
