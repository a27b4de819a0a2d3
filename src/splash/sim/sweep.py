"""Variant sweeps: every combination of some varied settings, each played with the same seeds.

A :class:`SweepPlan` is a game, its fixed ``--set`` assignments, the bots and the varied
settings (``--vary KEY=V1,V2,...``, parsed by :func:`parse_vary`).  Its combinations are the
full factorial of the varied values, in the order the keys were given, the first key
changing slowest (``itertools.product``); each combination is a :class:`GameSpec` of its own.

A :class:`Sweep` plays a plan in a folder: the games of seeds ``S … S+N-1`` of every
combination, each combination stored by a :class:`~splash.sim.store.ResultStore` in its own
Parquet file named from its assignments (:func:`file_stem`), so a stopped sweep started again
plays only the games not yet stored.  The folder holds a ``sweep.json`` document
(``{"format": "splash/sweep/1", "game": ..., "options": ..., "bots": [...], "vary": [...]}``);
a folder holding the sweep of another game, other fixed settings or other bots is refused.
Changing the varied values is allowed: the combinations already stored are reused.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from splash.core.documents import check_format, format_tag
from splash.core.errors import ConfigError, DocumentError, OptionError
from splash.core.i18n import Message, message
from splash.core.settings import parse_assignment, parse_value
from splash.sim.backends import Backend
from splash.sim.engines import EngineChoice, choose_engines
from splash.sim.resume import check_same_run
from splash.sim.runner import GameSpec

if TYPE_CHECKING:
    import pandas as pd

    from splash.sim.store import ResultStore

MAX_COMBINATIONS = 64
"""The most combinations a sweep plays unless told otherwise (``--max-combinations``)."""

FORMAT_KIND = "sweep"
MANIFEST = "sweep.json"
"""The document in a sweep's folder that says which game, settings and bots it holds."""

RESULT_COLUMNS: tuple[str, ...] = ("seed", "winner", "winner_team", "turns", "turn_cap")
"""The columns :meth:`Sweep.results` reads (any other column of the files is left out)."""

_SAFE = re.compile(r"[^A-Za-z0-9._=-]+")
_MAX_STEM = 180


@dataclass(frozen=True)
class Variable:
    """One varied setting: its key and its values (as typed, and as the game reads them)."""

    key: str
    texts: tuple[str, ...]

    @property
    def values(self) -> tuple[Any, ...]:
        """The values read as TOML, as ``--set`` reads them."""
        return tuple(parse_value(text) for text in self.texts)


def value_text(value: Any) -> str:
    """The canonical text of a setting's value: a string as is, anything else as JSON
    (``36``, ``0.5``, ``true``, ``[0.0,0.5]``)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def split_values(text: str) -> list[str]:
    """``text`` split at the commas outside brackets, braces and quotes."""
    pieces: list[str] = []
    depth = 0
    quote: str | None = None
    current: list[str] = []
    for char in text:
        if quote is not None:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            pieces.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    pieces.append("".join(current).strip())
    return pieces


def parse_vary(text: str) -> Variable:
    """The variable of ``--vary KEY=V1,V2,...`` (values are TOML; a list value keeps its
    brackets: ``board.checkpoints.fractions=[0.0, 0.5],[0.0, 0.25, 0.5, 0.75]``).

    Raises :class:`OptionError` for a text without ``=``, without a key, without values, with
    an empty value or with a value given twice.
    """
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise OptionError("--vary", text, message("expected KEY=VALUE,VALUE,..."))
    if any(not part for part in key.split(".")):
        raise OptionError("--vary", text, message("a key is a dotted path such as options.teams"))
    if not raw.strip():
        raise OptionError("--vary", text, message("no values to try for {key}", key=key))
    texts = split_values(raw)
    if any(not piece for piece in texts):
        raise OptionError("--vary", text, message("an empty value in the list"))
    seen: dict[str, str] = {}
    for piece in texts:
        canonical = value_text(parse_value(piece))
        if canonical in seen:
            raise OptionError(
                "--vary", text, message("the value {value} is given twice", value=piece)
            )
        seen[canonical] = piece
    return Variable(key, tuple(texts))


def check_varied(keys: Sequence[str], settings: Sequence[str]) -> None:
    """Refuse a key varied twice, or both varied and fixed by ``settings`` (``KEY=VALUE``):
    an :class:`OptionError` of ``--vary`` naming the key."""
    fixed = {parse_assignment(text)[0] for text in settings}
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise OptionError("--vary", key, message("{key} is varied twice", key=key))
        if key in fixed:
            raise OptionError(
                "--vary", key, message("{key} is both --set and --vary'd: give it once", key=key)
            )
        seen.add(key)


def file_stem(assignments: Sequence[tuple[str, Any]]) -> str:
    """A safe file name (without extension) for a combination's assignments.

    ``board.lanes.outer=36__decks.high_tide.undertow=0``: each ``key=value`` with the
    characters other than letters, digits, ``. _ = -`` replaced by ``_``; when a character
    was replaced or the name is long, a short hash of the exact assignments is appended, so
    two combinations never share a name.
    """
    exact = "__".join(f"{key}={value_text(value)}" for key, value in assignments)
    safe = _SAFE.sub("_", exact).strip("_.") or "combination"
    if safe == exact and len(safe) <= _MAX_STEM:
        return safe
    digest = hashlib.sha256(exact.encode("utf-8")).hexdigest()[:10]
    return f"{safe[:_MAX_STEM]}-{digest}"


@dataclass(frozen=True)
class Combination:
    """One combination of the varied values: its place in the plan, its assignments (in
    the order of the variables) and the spec of its games."""

    index: int
    assignments: tuple[tuple[str, Any], ...]
    spec: GameSpec

    @property
    def stem(self) -> str:
        """Its file name without extension (:func:`file_stem`)."""
        return file_stem(self.assignments)

    @property
    def label(self) -> str:
        """``board.lanes.outer=36, decks.high_tide.undertow=0``."""
        return ", ".join(f"{key}={value_text(value)}" for key, value in self.assignments)

    @property
    def teams(self) -> int:
        """How many teams its game has (each seat alone when there are no teams)."""
        return len(self.spec.build().teams)


def _refused(key: str, text: str, error: ConfigError) -> OptionError:
    return OptionError(
        key, text, message("the game refuses this value: {problem}", problem=error.text)
    )


@dataclass(frozen=True)
class SweepPlan:
    """What a sweep plays: build one with :meth:`of`, which checks everything."""

    base: GameSpec
    settings: tuple[str, ...]
    variables: tuple[Variable, ...]
    combinations: tuple[Combination, ...]

    @classmethod
    def of(
        cls,
        game: str,
        settings: Sequence[str],
        bots: Sequence[str],
        vary: Sequence[str],
        *,
        max_combinations: int = MAX_COMBINATIONS,
        data_dir: Path | None = None,
    ) -> SweepPlan:
        """The plan of ``game`` with the fixed ``settings`` (``KEY=VALUE``), ``bots`` (in
        seat order, the last one repeated) and the varied settings ``vary``
        (``KEY=V1,V2,...``); every combination is played with the data files of
        ``data_dir`` when given (Splash & Bash's ``--data``).

        Raises :class:`OptionError` for no ``--vary``, a malformed one, a key varied twice or
        also ``--set``, a value the game refuses (naming the key and the value) and more
        combinations than ``max_combinations``; :class:`ConfigError` for bad fixed settings
        or bots, as ``splash simulate`` does.
        """
        base = GameSpec.of(game, settings, bots, data_dir=data_dir)
        if not vary:
            raise OptionError("--vary", None, message("give at least one --vary KEY=V1,V2,..."))
        variables = [parse_vary(text) for text in vary]
        check_varied([v.key for v in variables], settings)
        count = math.prod(len(variable.texts) for variable in variables)
        if count > max_combinations:
            raise OptionError(
                "--vary",
                " ".join(vary),
                message(
                    "{count} combinations, more than {limit}: vary fewer values "
                    "or raise --max-combinations",
                    count=count,
                    limit=max_combinations,
                ),
            )
        for variable in variables:
            for text in variable.texts:
                try:
                    GameSpec.of(
                        game, [*settings, f"{variable.key}={text}"], bots, data_dir=data_dir
                    )
                except ConfigError as error:
                    raise _refused(variable.key, text, error) from None
        combinations = []
        choices = [list(zip(v.texts, v.values, strict=True)) for v in variables]
        for index, chosen in enumerate(itertools.product(*choices)):
            assigned = [f"{v.key}={text}" for v, (text, _) in zip(variables, chosen, strict=True)]
            try:
                spec = GameSpec.of(game, [*settings, *assigned], bots, data_dir=data_dir)
            except ConfigError as error:
                raise _refused("--vary", ", ".join(assigned), error) from None
            assignments = tuple(
                (v.key, value) for v, (_, value) in zip(variables, chosen, strict=True)
            )
            combinations.append(Combination(index, assignments, spec))
        return cls(base, tuple(settings), tuple(variables), tuple(combinations))

    def on_engine(self, choice: EngineChoice | str) -> tuple[SweepPlan, Message | None]:
        """This plan with every combination on the engine ``choice`` names (all on the same
        one, :func:`~splash.sim.engines.choose_engines`), and the note saying why the
        reference engine plays them when ``auto`` could not take the compiled core."""
        decision = choose_engines([self.base, *(c.spec for c in self.combinations)], choice)
        base, *specs = decision.specs
        combinations = tuple(
            replace(c, spec=spec) for c, spec in zip(self.combinations, specs, strict=True)
        )
        return replace(self, base=base, combinations=combinations), decision.note

    @property
    def keys(self) -> tuple[str, ...]:
        """The varied keys, in the order given."""
        return tuple(v.key for v in self.variables)

    def document(self) -> dict[str, Any]:
        """The ``sweep.json`` document of this plan (with ``data``, the JSON text of the data
        files, when they are not the shipped ones)."""
        doc: dict[str, Any] = {
            "format": format_tag(FORMAT_KIND, 1),
            "game": self.base.game,
            "options": self.base.options,
            "bots": list(self.base.bots),
            "engine": self.base.engine,
            "vary": [{"key": v.key, "values": list(v.texts)} for v in self.variables],
        }
        if self.base.data:
            doc["data"] = self.base.data
        return doc


@dataclass(frozen=True)
class CombinationResults:
    """The stored games of one combination for the sweep's seeds, sorted by seed: a pandas
    frame with the columns of :data:`RESULT_COLUMNS`."""

    combination: Combination
    frame: pd.DataFrame


def run_manifest(
    directory: Path, manifest: str, kind: str, not_one: Callable[[str], Message]
) -> dict[str, Any] | None:
    """The document ``manifest`` of the run folder ``directory`` (a sweep's, a tuning
    run's), of the format ``kind``; ``None`` for a folder that does not exist or is empty.
    A :class:`DocumentError` for a file, a folder holding other things, or a document that
    cannot be read or is not one (``not_one`` of the file's name says so)."""
    if directory.exists() and not directory.is_dir():
        raise DocumentError(message("{file} is a file, not a folder", file=str(directory)))
    path = directory / manifest
    if not path.is_file():
        if directory.is_dir() and any(directory.iterdir()):
            raise DocumentError(
                message(
                    "{folder} is not empty and holds no {manifest}: give another --out",
                    folder=str(directory),
                    manifest=manifest,
                )
            )
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DocumentError(
            message("cannot read {file}: {error}", file=str(path), error=str(error))
        ) from None
    if not isinstance(doc, dict):
        raise DocumentError(not_one(str(path)))
    check_format(doc, kind)
    return doc


def check_folder(directory: Path, plan: SweepPlan) -> None:
    """Refuse a ``directory`` that is a file, that holds other things than a sweep, or that
    holds the sweep of another game, other fixed settings or other bots."""
    stored = run_manifest(
        directory,
        MANIFEST,
        FORMAT_KIND,
        lambda file: message("{file} is not a sweep document", file=file),
    )
    if stored is None:
        return
    check_same_run(
        stored,
        plan.document(),
        lambda what, found: message(
            "{folder} holds a sweep with {what} {found}: give the same to resume, or another --out",
            folder=str(directory),
            what=what,
            found=found,
        ),
    )


class Sweep:
    """A plan played in ``directory`` with the seeds ``seed … seed + games - 1``.

    Opening checks the folder (:func:`check_folder`) and the stored files of every
    combination; :meth:`play` writes ``sweep.json`` and plays the games not yet stored.
    """

    def __init__(self, plan: SweepPlan, directory: Path, *, games: int, seed: int) -> None:
        from splash.sim.store import ResultStore

        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise OptionError("--games", games, message("must be a whole number >= 1"))
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise OptionError("--seed", seed, message("a seed is a whole number, 0 or more"))
        check_folder(directory, plan)
        self.plan = plan
        self.directory = directory
        self.seeds = list(range(seed, seed + games))
        self.stores: list[ResultStore] = [
            ResultStore(self.path(c), c.spec) for c in plan.combinations
        ]
        self._todo = [self._missing(store) for store in self.stores]

    def path(self, combination: Combination) -> Path:
        """The results file of ``combination``."""
        return self.directory / f"{combination.stem}.parquet"

    def _missing(self, store: ResultStore) -> list[int]:
        done = store.done_seeds()
        return [s for s in self.seeds if s not in done]

    @property
    def total(self) -> int:
        """Every game of the sweep."""
        return len(self.seeds) * len(self.stores)

    @property
    def done(self) -> int:
        """The games already stored when the sweep was opened."""
        return self.total - sum(len(todo) for todo in self._todo)

    def write_manifest(self) -> None:
        """Write ``sweep.json`` (the folder is created when needed)."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            text = json.dumps(self.plan.document(), indent=1, ensure_ascii=False) + "\n"
            (self.directory / MANIFEST).write_text(text, encoding="utf-8")
        except OSError as error:
            raise DocumentError(
                message("cannot write {file}: {error}", file=str(self.directory), error=str(error))
            ) from None

    def play(self, backend: Backend, on_games: Callable[[int], None] | None = None) -> int:
        """Play the missing games combination after combination, storing each; returns how
        many were played.  ``on_games`` is called with the count of each batch of games
        played (one game on the reference engine).  The backend stays open."""
        self.write_manifest()
        played = 0
        for index, (store, todo) in enumerate(zip(self.stores, self._todo, strict=True)):
            if not todo:
                continue
            try:
                for table in backend.tables(store.spec, todo):
                    store.add_table(table)
                    played += table.num_rows
                    if on_games is not None:
                        on_games(table.num_rows)
            finally:
                store.flush()
            store.finish()
            self._todo[index] = []
        return played

    def results(self) -> list[CombinationResults]:
        """The stored games of the sweep's seeds, one entry per combination, in plan order."""
        import pandas as pd
        import pyarrow as pa
        import pyarrow.compute as pc

        nullable = {pa.int64(): pd.Int64Dtype(), pa.bool_(): pd.BooleanDtype()}
        out = []
        for combination, store in zip(self.plan.combinations, self.stores, strict=True):
            table = store.read(RESULT_COLUMNS)
            wanted = pa.array(self.seeds, pa.int64())
            table = table.filter(pc.is_in(table.column("seed"), value_set=wanted))
            frame = table.to_pandas(types_mapper=nullable.get)
            out.append(CombinationResults(combination, frame.reset_index(drop=True)))
        return out
