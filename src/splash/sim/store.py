"""Results of a run as Parquet: one row per game, written in batches, resumed after a stop.

While a run goes on, finished games are written in batches to part files in a folder next
to the results file (``RESULTS.parquet.parts/part-00000.parquet``, …; each part is written
under a temporary name and renamed, so a crash never leaves half a part).  At the end the
results file and the parts are merged into ``RESULTS.parquet`` (sorted by seed, one row per
seed) and the parts are removed.  A run started again with the same ``--out`` reads the
seeds already played (in the results file and in the parts) and plays only the others; the
game, its options and its bots must be those of the stored games, else :class:`OptionError`.

Every file carries, in its schema metadata under ``splash``, the document
``{"format": "splash/sim-results/1", "game": ..., "options": ..., "bots": [...],
"engine": ...}``.

Columns (``int64`` unless said; ``_t<k>`` is team ``k`` from 0 = team A, ``_s<k>`` seat ``k``):

Every game:
    ``seed``; ``game`` (string: ``bash`` or ``tower``); ``options`` (string: the JSON object of
    the ``--set`` assignments, keys sorted); ``data`` (string: the JSON object of the data
    files played with, ``--data``'s or the shipped ones; null for a game without data files);
    ``seats``; ``bots`` (string: the JSON list of the bot specs, in seat order); ``engine``
    (string: ``reference`` or ``fast``, the engine that played the game); ``winner``
    (the winning seat, null without a winner); ``winner_team`` (its team, null without a
    winner); ``turns`` (a turn is one team's turn: team turns in Splash & Bash, the winning
    one included; in Splash!, one placement each); ``actions`` (every action, chance
    included); ``decisions`` (the seats' actions); ``turn_cap`` (bool: stopped by the turn
    cap); ``events`` (string: the JSON object of the number of events of each kind).
Every game, last: ``moves`` (the seats' actions after set-up, ``T``), ``trace``
    (``list<list<float32>>``: the evaluation of every player at ``s_0 … s_T``, see
    :mod:`splash.sim.traces`).
Splash & Bash, for each team ``k``:
    ``lane_outer_t<k>``, ``lane_centre_t<k>``, ``lane_high_tide_t<k>`` (team turns started in
    that lane); ``bumps_made_t<k>``, ``bumps_suffered_t<k>``, ``chains_t<k>`` (chains (B15) of two
    bumps or more started by the team), ``pool_falls_t<k>``,
    ``obstacle_hits_t<k>``; ``drawn_<deck>_<card>_t<k>`` (cards drawn, each card of each
    deck); ``played_<card>_t<k>`` (cards played, each card of the high-tide deck); then
    ``longest_chain`` (the most bumps in one chain).
Splash!:
    ``won_by`` (string: ``pieces`` or ``drops``, null without a winner); ``stopped`` (bool:
    no pose of a gift was accepted, T06); ``spontaneous`` (spontaneous collapses);
    ``boxed`` (pieces in the box at the end); for each seat ``k``: ``drops_s<k>`` (drops
    held at the end), ``falls_caused_s<k>`` (placements that fell or knocked the tower),
    ``pieces_placed_s<k>`` (placements that stood), ``placements_s<k>``; then
    ``falls_height_0_4``, ``falls_height_5_9``, ``falls_height_10_14``,
    ``falls_height_15_plus`` (collapses by the pieces standing when the piece was placed).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from splash.core.documents import check_format
from splash.core.errors import DocumentError, OptionError
from splash.core.i18n import message
from splash.sim.resume import check_same_run
from splash.sim.runner import FAST, GameSpec, Record, run_one
from splash.sim.schema import FORMAT_KIND, META_KEY, arrow_schema, run_document

PART_PREFIX = "part-"
PART_COMPRESSION = "none"
"""Compression of the part files (the merged results file has Parquet's default)."""

FAST_BATCH = 2048
"""Games the compiled core plays per batch (a batch is one task of a backend)."""


def batch_size(spec: GameSpec) -> int:
    """How many games of ``spec`` one task of a backend plays: one on the reference engine
    (seconds each), :data:`FAST_BATCH` on the compiled core."""
    return FAST_BATCH if spec.engine == FAST else 1


def play_batch(spec: GameSpec, seeds: Sequence[int]) -> Any:
    """The records of the games of ``seeds`` on the engine of ``spec``, as one Arrow table
    of :func:`arrow_schema` (built column by column on the compiled core)."""
    if spec.engine == FAST:
        from splash.sim.fast_engine import fast_table

        return fast_table(spec, seeds)
    return pa.Table.from_pylist([run_one(spec, seed) for seed in seeds], schema=arrow_schema(spec))


def parts_dir(path: Path) -> Path:
    """The folder of the part files of the results file ``path``."""
    return path.with_name(path.name + ".parts")


def _unreadable(path: Path, error: Exception) -> DocumentError:
    return DocumentError(message("cannot read {file}: {error}", file=str(path), error=str(error)))


def results_document(path: Path, schema: Any) -> dict[str, Any]:
    """The ``splash/sim-results`` document in the metadata of the Parquet ``schema`` read from
    ``path``; a :class:`DocumentError` naming the file when there is none, or of another
    format or version."""
    raw = (schema.metadata or {}).get(META_KEY)
    try:
        doc = json.loads(raw) if raw is not None else None
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        raise DocumentError(message("{file} holds no results of splash simulate", file=str(path)))
    check_format(doc, FORMAT_KIND)
    return doc


def _check_file(path: Path, spec: GameSpec, expected: Any) -> None:
    """Refuse a file that holds the results of another game, options or bots."""
    try:
        schema = pq.read_schema(path)
    except (OSError, pa.ArrowException) as error:
        raise _unreadable(path, error) from None
    doc = results_document(path, schema)
    mine = run_document(spec)
    if doc.get("data") != mine.get("data"):
        raise OptionError(
            "--data",
            str(path),
            message(
                "{file} holds games played with other data files: give the same --data to "
                "resume, or another --out",
                file=str(path),
            ),
        )
    check_same_run(
        doc,
        mine,
        lambda what, found: message(
            "{file} holds games with {what} {found}: give the same to resume, or another --out",
            file=str(path),
            what=what,
            found=found,
        ),
    )
    if schema.names != expected.names:
        raise DocumentError(
            message("{file} has other columns: it was written by another version", file=str(path))
        )


class ResultStore:
    """The results file of one spec at ``path``, with its part files; see the module.

    Records are buffered by :meth:`add` (one) and :meth:`add_table` (a batch) and written as
    a part when ``batch_size`` of them are waiting or ``flush_seconds`` have passed since the
    last part; :meth:`finish` writes the last part and merges everything into ``path``.
    """

    def __init__(
        self, path: Path, spec: GameSpec, *, batch_size: int = 256, flush_seconds: float = 10.0
    ) -> None:
        if path.is_dir():
            raise DocumentError(message("{file} is a folder, not a results file", file=str(path)))
        self.path = path
        self.spec = spec
        self.schema = arrow_schema(spec)
        self.batch_size = batch_size
        self.flush_seconds = flush_seconds
        self.written = 0
        """Records written to parts by this store (the buffered ones not included)."""
        self._buffer: list[Record] = []
        self._tables: list[Any] = []
        self._buffered = 0
        self._last_flush = time.monotonic()
        for file in self._files():
            _check_file(file, spec, self.schema)

    def _parts(self) -> list[Path]:
        folder = parts_dir(self.path)
        if not folder.is_dir():
            return []
        return sorted(folder.glob(f"{PART_PREFIX}*.parquet"))

    def _files(self) -> list[Path]:
        return ([self.path] if self.path.is_file() else []) + self._parts()

    def done_seeds(self) -> set[int]:
        """The seeds whose games are stored (in the results file or in a part)."""
        seeds: set[int] = set()
        for file in self._files():
            try:
                column = pq.read_table(file, columns=["seed"]).column("seed")
            except (OSError, pa.ArrowException) as error:
                raise _unreadable(file, error) from None
            seeds.update(int(s) for s in column.to_pylist())
        return seeds

    def add(self, record: Record) -> None:
        """Keep ``record``; write a part when the batch is full or old enough."""
        self._buffer.append(record)
        self._buffered += 1
        self._flush_when_due()

    def add_table(self, table: Any) -> None:
        """Keep the records of ``table`` (an Arrow table of this store's columns, as
        :func:`play_batch` gives); write a part when the batch is full or old enough."""
        if table.schema.names != self.schema.names:
            raise DocumentError(
                message("a batch of games has other columns than {file}", file=str(self.path))
            )
        self._tables.append(table.cast(self.schema))
        self._buffered += table.num_rows
        self._flush_when_due()

    def _flush_when_due(self) -> None:
        due = time.monotonic() - self._last_flush >= self.flush_seconds
        if self._buffered >= self.batch_size or due:
            self.flush()

    def flush(self) -> None:
        """Write the buffered records as a new part file (nothing when none is buffered)."""
        self._last_flush = time.monotonic()
        if not self._buffered:
            return
        folder = parts_dir(self.path)
        folder.mkdir(parents=True, exist_ok=True)
        numbers = [
            int(p.stem[len(PART_PREFIX) :])
            for p in self._parts()
            if p.stem[len(PART_PREFIX) :].isdigit()
        ]
        target = folder / f"{PART_PREFIX}{max(numbers, default=-1) + 1:05d}.parquet"
        temporary = folder / f".{target.name}.tmp"
        tables = [*self._tables]
        if self._buffer:
            tables.append(pa.Table.from_pylist(self._buffer, schema=self.schema))
        # A part is read once more by the merge, then removed: it is not worth compressing.
        pq.write_table(pa.concat_tables(tables), temporary, compression=PART_COMPRESSION)
        os.replace(temporary, target)
        self.written += self._buffered
        self._buffer = []
        self._tables = []
        self._buffered = 0

    def read(self, columns: Sequence[str] | None = None) -> Any:
        """Every stored game as one Arrow table, one row per seed, sorted by seed (with
        ``columns`` only, when given: a summary need not load the traces)."""
        schema = self.schema
        if columns is not None:
            schema = pa.schema([schema.field(name) for name in columns if name in schema.names])
        tables = []
        for file in self._files():
            try:
                tables.append(pq.read_table(file, columns=schema.names, schema=schema))
            except (OSError, pa.ArrowException) as error:
                raise _unreadable(file, error) from None
        if not tables:
            return schema.empty_table()
        table = pa.concat_tables(tables)
        seeds = table.column("seed").to_numpy()
        _, first = np.unique(seeds, return_index=True)
        return table.take(pa.array(first))

    def finish(self) -> None:
        """Write what is buffered, merge the results file and the parts into the results
        file, sorted by seed, one row per seed, and remove the parts.

        The merge streams: it holds the seeds of every stored game and a few row groups at a
        time, never the whole table (100,000 games with their traces would take gigabytes).
        """
        self.flush()
        parts = self._parts()
        if not parts and self.path.is_file():
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(f".{self.path.name}.tmp")
        _merge(self._files(), self.schema, temporary)
        os.replace(temporary, self.path)
        shutil.rmtree(parts_dir(self.path), ignore_errors=True)


MERGE_ROWS = 4096
"""Rows per row group of a merged results file, and per step of the merge."""
MERGE_CACHE = 16
"""Row groups the merge keeps loaded at once."""


def _merge(files: Sequence[Path], schema: Any, target: Path) -> None:
    """Write the rows of ``files`` to ``target`` sorted by seed, the first row of each seed
    (in the order of ``files``) only, reading one row group of a file at a time."""
    groups: list[tuple[Path, int]] = []
    seeds: list[Any] = []
    for file in files:
        try:
            reader = pq.ParquetFile(file)
            for group in range(reader.num_row_groups):
                groups.append((file, group))
                seeds.append(reader.read_row_group(group, columns=["seed"]).column(0).to_numpy())
        except (OSError, pa.ArrowException) as error:
            raise _unreadable(file, error) from None
    all_seeds = np.concatenate(seeds) if seeds else np.zeros(0, dtype=np.int64)
    group_of = np.repeat(np.arange(len(groups)), [len(s) for s in seeds])
    row_of = np.concatenate([np.arange(len(s)) for s in seeds]) if seeds else group_of
    _, first = np.unique(all_seeds, return_index=True)

    @lru_cache(maxsize=MERGE_CACHE)
    def load(index: int) -> Any:
        file, group = groups[index]
        try:
            return pq.ParquetFile(file).read_row_group(group).cast(schema)
        except (OSError, pa.ArrowException) as error:
            raise _unreadable(file, error) from None

    with pq.ParquetWriter(target, schema) as writer:
        if not len(first):
            writer.write_table(schema.empty_table())
        for start in range(0, len(first), MERGE_ROWS):
            chosen = first[start : start + MERGE_ROWS]
            pieces = []
            indices, firsts = np.unique(group_of[chosen], return_index=True)
            for index in indices[np.argsort(firsts)]:  # the groups in the order of their seeds
                rows = row_of[chosen[group_of[chosen] == index]]
                pieces.append(_rows_of(load(int(index)), rows))
            step = pa.concat_tables(pieces)
            seeds_step = step.column("seed").to_numpy()
            if len(seeds_step) > 1 and not bool(np.all(seeds_step[1:] > seeds_step[:-1])):
                step = step.take(pa.array(np.argsort(seeds_step, kind="stable")))
            writer.write_table(step, row_group_size=MERGE_ROWS)


def _rows_of(table: Any, rows: Any) -> Any:
    """The ``rows`` of ``table``, in that order: a slice, without a copy, when they are
    consecutive (a batch of consecutive seeds), else a ``take``."""
    if len(rows) and bool(np.all(np.diff(rows) == 1)):
        return table.slice(int(rows[0]), len(rows))
    return table.take(pa.array(rows))


def records_of(
    table: Any, seeds: Iterable[int], columns: Sequence[str] | None = None
) -> list[Record]:
    """The rows of ``table`` whose seed is in ``seeds``, as records (with ``columns`` only,
    when given), in the table's order."""
    import pyarrow.compute as pc

    if columns is not None:
        table = table.select([c for c in columns if c in table.column_names])
    mask = pc.is_in(table.column("seed"), value_set=pa.array(sorted(set(seeds)), pa.int64()))
    rows: list[Record] = table.filter(mask).to_pylist()
    return rows


def _json_trace(trace: Any) -> str | None:
    if trace is None:
        return None
    return json.dumps([[round(float(v), 4) for v in row] for row in trace])


def write_csv(table: Any, path: Path) -> None:
    """Write the rows of ``table`` (a results table) to ``path`` as CSV with a header: the
    same columns in the same order, the ``trace`` as its JSON text (the other JSON columns
    are text already), a null as an empty field.  A :class:`DocumentError` naming the file
    when it cannot be written."""
    import pyarrow.csv as pcsv

    if "trace" in table.column_names:
        index = table.column_names.index("trace")
        texts = pa.array([_json_trace(t) for t in table.column("trace").to_pylist()], pa.string())
        table = table.set_column(index, "trace", texts)
    try:
        pcsv.write_csv(table, path)
    except (OSError, pa.ArrowException) as error:
        raise DocumentError(
            message("cannot write {file}: {error}", file=str(path), error=str(error))
        ) from None
