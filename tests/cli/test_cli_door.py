"""The command line's door: a bad invocation of every subcommand, one or more per kind of
option (a path, a URL, a bot spec, a ``--set`` key and value, a ``--data`` folder, a number
out of range, a seed), ends with a one-line error (or Typer's usage box) that names the bad
input, a non-zero exit and no traceback; a database URL's password is never shown."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import Result

BAD: list[tuple[list[str], list[str]]] = [
    (["simulate", "bash", "--games", "0"], ["--games"]),
    (["simulate", "bash", "--seed", "-1"], ["--seed"]),
    (["simulate", "bash", "--bots", "wizard,random"], ["'wizard'", "known: "]),
    (["simulate", "bash", "--set", "board.lanes.outr=3"], ["outr", "outer"]),
    (["simulate", "bash", "--set", "board.lanes.outer=banana"], ["outer", "integer"]),
    (["simulate", "bash", "--set", "_deck_meta=1"], ["'_deck_meta'", "board, decks, options)"]),
    (["simulate", "bash", "--data", "bad.toml"], ["--data", "bad.toml", "is a file"]),
    (["simulate", "bash", "--data", "nosuchdir"], ["--data", "nosuchdir", "does not exist"]),
    (["simulate", "bash", "--scheduler", "nosuch://host:1"], ["--scheduler", "nosuch"]),
    (["simulate", "chess"], ["'chess'"]),
    (["ladder", "bash", "--bots", "random,wizard", "--games", "2"], ["'wizard'"]),
    (["ladder", "bash", "--bots", "random", "--games", "2"], ["--bots", "two bots"]),
    (["ladder", "bash", "--games", "-3"], ["--games=-3"]),
    (["sweep", "bash", "--vary", "board.lanes.outr=3,4"], ["outr"]),
    (["sweep", "bash", "--vary", "nonsense"], ["--vary='nonsense'"]),
    (["tune", "bash", "--target", "nonsense", "--vary", "options.hand_limit=1..3"], ["nonsense"]),
    (
        [
            "tune",
            "bash",
            "--target",
            "team_win_rate_0<=0.5",
            "--vary",
            "options.hand_limit=zero..3",
        ],
        ["--vary", "zero"],
    ),
    (["report", "nosuch.parquet"], ["nosuch.parquet", "does not exist"]),
    (["report", "bad.parquet"], ["bad.parquet", "not a Parquet file"]),
    (["compare", "nosuch.parquet", "bad.parquet"], ["nosuch.parquet"]),
    (["serve", "--db", "nosuchdb://x"], ["--db", "nosuchdb"]),
    (["serve", "--db", "sqlite:////nonexistent/dir/x.db"], ["--db", "/nonexistent/dir"]),
    (["serve", "--db", "postgresql+psycopg://bob:secret@nohost/db"], ["--db", "bob:***@nohost"]),
    (["serve", "--db", "::::"], ["--db", "not a database URL"]),
    (["serve", "--port", "70000"], ["--port"]),
    (["serve", "--turn-timer", "0"], ["--turn-timer"]),
    (["db", "check", "--db", "sqlite:////nonexistent/dir/x.db"], ["--db", "/nonexistent/dir"]),
    (["db", "check", "--db", "sqlite:///nosuch.db"], ["--db", "no store at", "nosuch.db"]),
    (["db", "upgrade", "--db", "nosuchdb://x"], ["--db", "nosuchdb"]),
    (
        ["db", "upgrade", "--db", "postgresql+psycopg://bob:secret@nohost/db"],
        ["--db", "bob:***@nohost"],
    ),
    (["db", "backup", "out.db", "--db", "sqlite:///nosuch.db"], ["--db", "nosuch.db"]),
    (["db", "backup", "out.db", "--db", "postgresql+psycopg://bob:secret@h/db"], ["pg_dump"]),
    (["db", "backup"], ["Missing argument 'file'"]),
    (["db", "restore", "nosuch.db"], ["nosuch.db", "no such file"]),
    (["db", "restore", "bad.toml"], ["bad.toml", "not a database"]),
    (["bash", "play", "--team", "Z"], ["--team='Z'"]),
    (["bash", "play", "--teams", "9"], ["options.teams=9"]),
    (["bash", "play", "--resume", "nosuch.json"], ["nosuch.json"]),
    (["bash", "play", "--resume", "bad.toml"], ["bad.toml", "not JSON"]),
    (["bash", "referee", "--data", "bad.toml"], ["--data", "bad.toml"]),
    (["bash", "referee", "--seed", "banana"], ["--seed"]),
    (["bash", "simulate", "--bots", "greedy:depth=zero"], ["depth=zero"]),
    (["bash", "print", "--set", "options.turn_order=zigzag"], ["options.turn_order='zigzag'"]),
    (["bash", "print", "--data", "bad.toml"], ["--data", "bad.toml", "is a file"]),
    (["bash", "print", "-o", "nosuchdir/kit.pdf"], ["--out", "nosuchdir"]),
    (["bash", "print", "-o", "."], ["--out", "cannot write", "Is a directory"]),
    (["tower", "play", "--players", "9"], ["options.players=9"]),
    (["tower", "play", "--seat", "7"], ["--seat=7"]),
    (["tower", "play", "--bots", "planner:samples=-1"], ["samples=-1"]),
    (["tower", "referee", "--set", "options.deal=sideways"], ["'sideways'"]),
    (["tower", "referee", "--resume", "nosuch.json"], ["nosuch.json"]),
    (["tower", "simulate", "--set", "physics.ruling=magic"], ["'magic'"]),
]
"""Each bad invocation, with words its error must hold."""


@pytest.mark.parametrize(("args", "said"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_bad_invocation_names_the_bad_input_without_a_traceback(
    splash: Callable[..., Result], tmp_path: Path, args: list[str], said: list[str]
) -> None:
    (tmp_path / "bad.toml").write_text("x = [\n")
    (tmp_path / "bad.parquet").write_text("not parquet\n")
    result = splash(*args)
    output = " ".join(result.output.split())  # Typer's box wraps long lines
    flat = output.replace("│", " ")
    flat = " ".join(flat.split())
    assert result.exit_code != 0, output
    assert "Traceback" not in result.output
    assert "secret" not in result.output
    for words in said:
        assert words in flat, (words, flat)


def test_every_subcommand_has_a_bad_invocation_in_the_table() -> None:
    tried = {
        tuple(args[:2]) if args[0] in ("bash", "tower", "db") else (args[0],) for args, _ in BAD
    }
    assert tried >= {
        ("simulate",),
        ("ladder",),
        ("sweep",),
        ("tune",),
        ("report",),
        ("compare",),
        ("serve",),
        ("db", "upgrade"),
        ("db", "backup"),
        ("db", "restore"),
        ("db", "check"),
        ("bash", "play"),
        ("bash", "referee"),
        ("bash", "simulate"),
        ("bash", "print"),
        ("tower", "play"),
        ("tower", "referee"),
        ("tower", "simulate"),
    }


def test_the_rl_module_names_its_extra_when_it_is_missing() -> None:
    import importlib.util

    if importlib.util.find_spec("stable_baselines3") is not None:
        pytest.skip("the rl extra is installed here")
    with pytest.raises(ImportError, match=r"optional extra 'rl'.*splash-games\[rl\]"):
        import splash.envs.sb3  # noqa: F401
