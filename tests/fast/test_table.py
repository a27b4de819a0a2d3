"""The fast results table has the simulator's schema, column by column."""

from __future__ import annotations

import pytest

from splash.sim import runner
from splash.sim.fast_engine import fast_table
from splash.sim.runner import GameSpec
from splash.sim.schema import arrow_schema


def test_the_table_has_exactly_the_schema_of_the_store() -> None:
    spec = GameSpec.of("bash", ["options.teams=3", "options.turn_cap=30"])
    table = fast_table(spec, [5, 6, 7, 8])
    assert table.schema.equals(arrow_schema(spec), check_metadata=True)
    rows = table.to_pylist()
    assert [r["seed"] for r in rows] == [5, 6, 7, 8]
    for r in rows:
        assert (r["winner"] is None) == r["turn_cap"]
        assert r["winner"] == r["winner_team"]
        assert len(r["trace"]) == r["moves"] + 1
        assert all(len(row) == 3 for row in r["trace"])
        assert r["decisions"] < r["actions"]


@pytest.mark.rule("BD14")
def test_a_turn_cap_game_has_no_winner_and_zero_utilities() -> None:
    spec = GameSpec.of("bash", ["options.turn_cap=2"])
    row = fast_table(spec, [1]).to_pylist()[0]
    assert row["turn_cap"] is True and row["winner"] is None
    assert row["turns"] == 2
    assert row["trace"][-1] == [0.0, 0.0]


def test_the_engine_column_is_filled_with_fast() -> None:
    spec = GameSpec.of("bash")
    table = fast_table(spec, [1, 2])
    assert table.schema.names.index("engine") == table.schema.names.index("bots") + 1
    assert table.column("engine").to_pylist() == ["fast", "fast"]


def test_an_unknown_column_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "COMMON_COLUMNS", {**runner.COMMON_COLUMNS, "mystery": "int64"})
    with pytest.raises(KeyError, match="mystery"):
        fast_table(GameSpec.of("bash"), [1])
