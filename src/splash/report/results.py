"""Results files of ``splash simulate`` read for a report: :func:`load_results`.

A results file is Parquet whose schema metadata holds, under ``splash``, the document
``{"format": "splash/sim-results/1", "game": ..., "options": ..., "bots": [...]}``.  Several
files of one game (at different options, say) are read together into one table, each row
keeping the options and bots of its game.  A file written before the evaluation traces were
recorded has no ``trace`` column: it still gives a report, without the state-evaluation
metrics.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from splash.core.errors import DocumentError
from splash.core.i18n import message
from splash.core.protocol import Game
from splash.games import GAMES
from splash.games.bash import BashGame
from splash.games.tower import TowerGame

REQUIRED = ("seed", "game", "options", "seats", "bots", "winner", "winner_team", "turns")
"""The columns a report cannot do without."""


@dataclass(frozen=True)
class Run:
    """One results file: its path, game, options (JSON text), bots and number of games, and
    the data files its games were played with."""

    path: Path
    game: str
    options: str
    bots: tuple[str, ...]
    games: int
    data: str | None = None
    """The JSON text of the data files (the ``data`` column, or the ``--data`` of the file's
    document when it has no such column); ``None`` when neither says: the shipped files."""
    given_data: bool = False
    """Whether the games were played with ``--data``."""


def _read_document(path: Path) -> tuple[dict[str, Any], Any]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from splash.sim.store import results_document

    if not path.exists():
        raise DocumentError(message("{file} does not exist", file=str(path)))
    if path.is_dir():
        raise DocumentError(message("{file} is a folder, not a results file", file=str(path)))
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as error:
        raise DocumentError(
            message("{file} is not a Parquet file: {error}", file=str(path), error=str(error))
        ) from None
    doc = results_document(path, table.schema)
    missing = [c for c in REQUIRED if c not in table.column_names]
    if missing:
        raise DocumentError(
            message(
                "{file} lacks the columns {columns}", file=str(path), columns=", ".join(missing)
            ),
            doc,
        )
    if doc.get("game") not in GAMES:
        raise DocumentError(
            message(
                "{file} holds games of an unknown game {game!r}",
                file=str(path),
                game=doc.get("game"),
            ),
            doc,
        )
    return doc, table


@dataclass(frozen=True)
class Results:
    """The games of one or more results files of one game."""

    game: str
    seats: int
    runs: tuple[Run, ...]
    frame: pd.DataFrame

    @property
    def games(self) -> int:
        """How many games in all."""
        return len(self.frame)

    @property
    def has_traces(self) -> bool:
        """Whether every game carries its evaluation trace."""
        return "trace" in self.frame.columns and bool(self.frame["trace"].notna().all())

    @cached_property
    def bash_game(self) -> BashGame:
        """The Splash & Bash game of the first run (decks, cards), with its data files."""
        run = self.runs[0]
        data = json.loads(run.data) if run.data else None
        return BashGame.from_settings(sorted(json.loads(run.options).items()), data=data)

    def tower_game(self, options: str) -> TowerGame:
        """The Splash! game of ``options`` (JSON text), without the physics."""
        return _tower_game(options)

    def team_seats(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each team of the first run's game (every seat alone but in the
        Splash! team variant)."""
        game = _game(self.game, self.runs[0].options, self.runs[0].data)
        return tuple(team.seats for team in game.teams)

    def traces(self) -> list[Trace]:
        """Each game's trace as a ``(T + 1, players)`` array (no trace: an empty list)."""
        if not self.has_traces:
            return []
        return list(self.frame["trace"])


Trace = np.ndarray[Any, np.dtype[np.float64]]
"""One game's evaluations: a ``(T + 1, players)`` array."""


def _trace_arrays(column: Any, players: int) -> list[Trace | None]:
    """The ``trace`` column as one array per game (``None`` where a game has none), read
    from the Arrow offsets rather than through Python lists."""
    import pyarrow as pa

    games = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if len(games) == 0:
        return []
    rows = games.flatten()
    values = rows.flatten().to_numpy(zero_copy_only=False).astype(np.float64)
    game_offsets = games.offsets.to_numpy()
    row_offsets = rows.offsets.to_numpy()
    found: list[Trace | None] = []
    for index in range(len(games)):
        if not games[index].is_valid:
            found.append(None)
            continue
        start = row_offsets[game_offsets[index]]
        end = row_offsets[game_offsets[index + 1]]
        found.append(values[start:end].reshape(-1, players))
    return found


_NULLABLE: dict[Any, Any] = {}
_TOWER_GAMES: dict[str, TowerGame] = {}


def _tower_game(options: str) -> TowerGame:
    if options not in _TOWER_GAMES:
        _TOWER_GAMES[options] = TowerGame.from_settings(sorted(json.loads(options).items()))
    return _TOWER_GAMES[options]


@cache
def _game(game: str, options: str, data: str | None = None) -> Game:
    """The rules engine of ``game`` with ``options`` and the data files ``data`` (JSON texts;
    only Splash & Bash reads data files), without the physics."""
    settings = sorted(json.loads(options).items())
    if data:
        return BashGame.from_settings(settings, data=json.loads(data))
    return GAMES[game].from_settings(settings)


def _recorded_data(frame: pd.DataFrame, doc: dict[str, Any]) -> str | None:
    """The data files of a file's games: its ``data`` column, else its document's."""
    if "data" in frame.columns and len(frame) and not pd.isna(frame["data"].iloc[0]):
        return str(frame["data"].iloc[0])
    data = doc.get("data")
    return str(data) if data else None


def results_frame(table: Any) -> pd.DataFrame:
    """The frame of an Arrow table of results: nullable integers and booleans, and the
    ``trace`` of each game as a ``(T + 1, players)`` array."""
    import pyarrow as pa

    _NULLABLE.update({pa.int64(): pd.Int64Dtype(), pa.bool_(): pd.BooleanDtype()})
    traced = "trace" in table.column_names
    plain = table.drop_columns(["trace"]) if traced else table
    frame = plain.to_pandas(types_mapper=_NULLABLE.get)
    if traced:
        players = int(frame["seats"].iloc[0]) if len(frame) else 0
        arrays = _trace_arrays(table.column("trace"), players)
        frame["trace"] = pd.Series(arrays, dtype=object, index=frame.index)
    return frame


def load_results(paths: Sequence[Path]) -> Results:
    """The games of ``paths``, checked: every file a results file of the same game with the
    same number of seats, and at least one game in all.  Raises :class:`DocumentError`."""
    if not paths:
        raise DocumentError(message("no results file given"))
    runs: list[Run] = []
    frames: list[pd.DataFrame] = []
    seen_seats: set[int] = set()
    for path in paths:
        doc, table = _read_document(path)
        frame = results_frame(table)
        run = Run(
            path,
            str(doc["game"]),
            str(doc.get("options", "{}")),
            tuple(doc.get("bots", ())),
            len(frame),
            _recorded_data(frame, doc),
            bool(doc.get("data")),
        )
        if runs and run.game != runs[0].game:
            raise DocumentError(
                message(
                    "{file} holds {found} games, {first} holds {expected} games: one game per report",
                    file=str(path),
                    found=run.game,
                    first=str(runs[0].path),
                    expected=runs[0].game,
                ),
                doc,
            )
        seats = {int(v) for v in frame["seats"].unique()} | seen_seats
        if len(seats) > 1:
            raise DocumentError(
                message("{file} holds games with another number of seats", file=str(path)), doc
            )
        seen_seats |= seats
        frame["run"] = len(runs)
        runs.append(run)
        frames.append(frame)
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    if not len(frame):
        raise DocumentError(
            message("no game in {files}: nothing to report", files=", ".join(str(p) for p in paths))
        )
    if "trace" in frame.columns and frame["trace"].isna().any():
        frame = frame.drop(columns=["trace"])
    return Results(runs[0].game, int(frame["seats"].iloc[0]), tuple(runs), frame)
