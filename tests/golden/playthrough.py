"""Golden playthroughs: whole games of both engines written down step by step.

In the spirit of python-chess's perft counts and OpenSpiel's playthrough files: a file of
``tests/golden/`` holds what generated a game (game id, ``--set`` settings, seed, policy),
a summary (its length, each seat's return, how often each kind of event happened), one line
per step and the final state.  A step records who acts (a seat, or ``"chance"``), ``legal``
(the number of legal actions), ``chance`` (the number of chance outcomes, 0 at a decision),
``p`` (the exact probability of the outcome drawn, when the outcomes can be enumerated) and
the action taken, in its JSON form.  A Splash! placement, whose pose is continuous, counts
instead the targets times the faces offered (the rules fix one ``target`` per gift, TD04:
recorded too); its outcome, a continuous chance outcome, is recorded as the action.

The final state is ``state.to_json()`` without its ``history``, which is the action log of
the steps.  Every object inside the header, a step or the final state is written with its
keys sorted, and every float rounded to 1e-6, so that a Splash! file does not move with
floating point.  Regenerating a file from its header and
replaying its action log alone must both give back the file, byte for byte.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypedDict

from splash.core.actions import Action, Json, JsonScalar
from splash.core.protocol import CHANCE, Game, State
from splash.games.bash import BashGame, BashState
from splash.games.tower import TowerGame, TowerState, rules
from tests.golden.policy import Reports, SeededPlayer, canonical

FORMAT = "splash/golden/1"
DIRECTORY = Path(__file__).parent
"""Where the golden files live (next to this module)."""
MAX_STEPS = 20_000
"""A playthrough longer than this is refused (a game that does not end)."""
REGENERATE = "python scripts/golden.py --write"
DIFF_LINES = 40

GameId = Literal["bash", "tower"]
Settings = tuple[tuple[str, JsonScalar], ...]
Chooser = Callable[[State], Action]


class GoldenError(ValueError):
    """A golden file that cannot be read, or a playthrough that cannot be recorded."""


@dataclass(frozen=True)
class Playthrough:
    """What generates one golden game."""

    name: str
    """The file's stem."""
    game: GameId
    settings: Settings = ()
    seed: int = 0
    reports: Reports = field(default_factory=Reports)
    """How Splash! placements are reported (unused by Splash & Bash)."""

    @property
    def path(self) -> Path:
        """The golden file."""
        return DIRECTORY / f"{self.name}.json"

    def build(self) -> Game:
        """The game its settings describe."""
        match self.game:
            case "bash":
                return BashGame.from_settings(self.settings)
            case "tower":
                return TowerGame.from_settings(self.settings)

    def policy(self) -> dict[str, Json]:
        """The policy, as the file's header records it."""
        doc: dict[str, Json] = {"name": "uniform", "chance": "random-outcomes"}
        if self.game == "tower":
            doc["placements"] = self.reports.to_json()
        return doc

    def header(self) -> dict[str, Json]:
        """Everything needed to regenerate the playthrough."""
        return {
            "format": FORMAT,
            "name": self.name,
            "game": self.game,
            "settings": [[key, value] for key, value in self.settings],
            "seed": self.seed,
            "policy": self.policy(),
        }

    @staticmethod
    def from_header(doc: dict[str, Json]) -> Playthrough:
        """The playthrough a golden file's header describes."""
        if doc.get("format") != FORMAT:
            raise GoldenError(f"not a {FORMAT} document: format {doc.get('format')!r}")
        name, game, seed = doc.get("name"), doc.get("game"), doc.get("seed")
        settings, policy = doc.get("settings"), doc.get("policy")
        if not isinstance(name, str) or game not in ("bash", "tower"):
            raise GoldenError(f"a golden file names itself and its game: {name!r}, {game!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise GoldenError(f"{name}: the seed must be an integer, not {seed!r}")
        if (
            not isinstance(policy, dict)
            or policy.get("name") != "uniform"
            or policy.get("chance") != "random-outcomes"
        ):
            raise GoldenError(f"{name}: unknown policy {policy!r}")
        placements = policy.get("placements", {})
        if not isinstance(placements, dict):
            raise GoldenError(f"{name}: unknown placement reports {placements!r}")
        pairs: list[tuple[str, JsonScalar]] = []
        if not isinstance(settings, list):
            raise GoldenError(f"{name}: settings are a list of [key, value] pairs: {settings!r}")
        for pair in settings:
            match pair:
                case [str() as key, bool() | int() | float() | str() | None as value]:
                    pairs.append((key, value))
                case _:
                    raise GoldenError(f"{name}: a setting is a [key, plain value] pair: {pair!r}")
        reports = Reports.from_json(placements) if game == "tower" else Reports()
        return Playthrough(name, "bash" if game == "bash" else "tower", tuple(pairs), seed, reports)


@dataclass
class Record:
    """A playthrough written down."""

    playthrough: Playthrough
    steps: list[dict[str, Json]]
    tally: Counter[str]
    returns: list[float]
    final: dict[str, Json]

    def summary(self) -> dict[str, Json]:
        """Its length, each seat's return and how often each kind of event happened."""
        return {
            "steps": len(self.steps),
            "returns": [float(r) for r in self.returns],
            "events": dict(sorted(self.tally.items())),
        }

    def render(self) -> str:
        """The golden file's text: one line per step, the final state pretty-printed."""
        lines = ["{"]
        header = {**self.playthrough.header(), "summary": self.summary()}
        lines += [f" {json.dumps(key)}: {_dumps(value)}," for key, value in header.items()]
        lines.append(' "steps": [')
        lines += [f"  {_step_line(step)}," for step in self.steps]
        if self.steps:
            lines[-1] = lines[-1].removesuffix(",")
        lines.append(" ],")
        lines.append(' "final": ' + _pretty(canonical(self.final), " "))
        lines.append("}")
        return "\n".join(lines) + "\n"


STEP_KEYS = ("actor", "legal", "chance", "p", "target", "action")
"""The order of a step's keys on its line: who acts and the counts first, then the action."""


def _dumps(value: Json) -> str:
    return json.dumps(canonical(value), ensure_ascii=False)


def _step_line(step: dict[str, Json]) -> str:
    ordered = {key: step[key] for key in STEP_KEYS if key in step}
    return "{" + ", ".join(f"{json.dumps(k)}: {_dumps(v)}" for k, v in ordered.items()) + "}"


def _pretty(value: Json, indent: str) -> str:
    """``value`` as indented JSON, one key a line, a list of plain values on one line."""
    inner = indent + " "
    match value:
        case dict() if value:
            items = [f"{inner}{json.dumps(k)}: {_pretty(v, inner)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + indent + "}"
        case list() if any(isinstance(item, list | dict) for item in value):
            items = [inner + _pretty(item, inner) for item in value]
            return "[\n" + ",\n".join(items) + "\n" + indent + "]"
        case _:
            return json.dumps(value, ensure_ascii=False)


def _events(state: State) -> Iterator[str]:
    """The kinds of the events that the last action caused."""
    events: Sequence[Mapping[str, object]] = []
    match state:
        case BashState():
            events = state.board.events
        case TowerState():
            events = state.events
    for event in events:
        yield str(event.get("event"))


def _observe(state: State, action: Action) -> dict[str, Json]:
    """The step: who acts in ``state``, the counts, and ``action`` (not applied yet)."""
    actor = state.to_act()
    step: dict[str, Json] = {"actor": "chance" if actor == CHANCE else actor}
    outcomes = state.chance_outcomes()
    if isinstance(state, TowerState) and state.phase == "place" and state.gift is not None:
        target = rules.target_of(state, state.gift)
        faces = state.tower_game.catalogue.shape_of(state.gift).faces
        targets = 1  # the rules fix the target of a gift (TD04)
        step["legal"] = targets * len(faces)
        step["chance"] = 0
        step["target"] = target.piece if target is not None else "table"
    else:
        step["legal"] = len(state.legal_actions())
        step["chance"] = len(outcomes)
    for outcome, probability in outcomes:
        if outcome == action:
            step["p"] = str(probability)
    step["action"] = action.to_json()
    return step


def record(playthrough: Playthrough, choose: Chooser | None = None) -> Record:
    """Play ``playthrough`` to its end with its seeded policy (or with ``choose``)."""
    chooser = choose or SeededPlayer(playthrough.seed, playthrough.reports)
    state = playthrough.build().new_initial_state()
    steps: list[dict[str, Json]] = []
    tally: Counter[str] = Counter()
    while not state.is_terminal():
        if len(steps) >= MAX_STEPS:
            raise GoldenError(f"{playthrough.name}: no end after {MAX_STEPS} steps")
        action = chooser(state)
        steps.append(_observe(state, action))
        state.apply(action)
        tally.update(_events(state))
    final = state.to_json()
    final.pop("history", None)
    return Record(playthrough, steps, tally, state.returns(), final)


class Log:
    """Chooses the actions of a stored action log, in order (no policy, no generator)."""

    def __init__(self, actions: Sequence[Json]) -> None:
        self._actions = list(actions)
        self._next = 0

    def __call__(self, state: State) -> Action:
        """The next stored action."""
        if self._next >= len(self._actions):
            raise GoldenError(f"the action log ends before the game, in {state.describe()}")
        action = state.game.parse_action(self._actions[self._next])
        self._next += 1
        return action


def read(path: Path) -> tuple[Playthrough, list[Json]]:
    """A golden file's playthrough and its action log."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise GoldenError(f"{path.name}: {error}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("steps"), list):
        raise GoldenError(f"{path.name}: a golden file is an object with its steps")
    steps = doc["steps"]
    if not all(isinstance(step, dict) and "action" in step for step in steps):
        raise GoldenError(f"{path.name}: every step records its action")
    return Playthrough.from_header(doc), [step["action"] for step in steps]


def replay(path: Path) -> Record:
    """The playthrough of ``path`` rebuilt from its action log alone."""
    playthrough, actions = read(path)
    return record(playthrough, Log(actions))


class Difference(TypedDict):
    """Where a golden file and its regeneration part."""

    name: str
    diff: str


def difference(name: str, expected: str, actual: str) -> Difference | None:
    """The first :data:`DIFF_LINES` lines of a unified diff of the file (``expected``) and
    what the engines give now (``actual``); ``None`` when they agree."""
    if expected == actual:
        return None
    lines = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            fromfile=f"tests/golden/{name}.json",
            tofile=f"{name} (now)",
            lineterm="",
            n=1,
        )
    )
    shown = lines[:DIFF_LINES]
    if len(lines) > DIFF_LINES:
        shown.append(f"... ({len(lines) - DIFF_LINES} more lines of diff)")
    shown.append(f"If the change is intended, regenerate the files: {REGENERATE}")
    return Difference(name=name, diff="\n".join(shown))
