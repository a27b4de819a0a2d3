"""Bots: programs that take a seat's decisions.

A bot is named on the command line by a *spec*: a name, and ``name:key=value,...`` for bots
with parameters (``greedy:depth=2,rival=1.5``).  :func:`make_bot` turns a spec into a bot.
:data:`BOTS` declares every bot once (:class:`BotSpec`): its name, how it is made, the
parameter keys it takes, the games it plays and whether it is light enough for the play
server to run on its event loop; :data:`PLAYS` and the server read it from there.

- ``random`` — every game: a uniform choice among the legal actions (a Splash! placement:
  a random pose over the target's top that the game accepts).
- ``greedy`` — Splash & Bash: the heuristic of :mod:`splash.bots.bash_greedy`; parameters
  ``samples``, ``depth`` and the heuristic's weights.
- ``ismcts`` — Splash & Bash: information-set Monte Carlo tree search
  (:mod:`splash.bots.ismcts`); parameters ``iterations``, ``exploration``, ``rollout``
  (``random`` or ``none``), ``max_depth``, ``progress_scale``, ``evaluation``
  (``progress`` or ``greedy``: the score where a search stops).  ``engine=fast`` runs the
  search in the compiled core (:mod:`splash.bots.fast_ismcts`, default 1,000 iterations),
  which also takes ``rollout=greedy`` (rollouts played by the compiled greedy), ``epsilon``
  (its rate of random actions), ``rollout_depth`` (its look-ahead, 1 to 3) and ``widening``
  (progressive widening).
- ``expectimax`` — Splash & Bash: the greedy heuristic behind an exact expectation over the
  dice and draws of the rest of the turn (:mod:`splash.bots.bash_expectimax`); parameters
  ``turns``, ``samples``, ``width`` and the heuristic's weights.
- ``planner`` — Splash!: gifts and placements chosen by ruling candidate poses with the
  physics and the bot's own tremor (:mod:`splash.bots.tower_planner`); parameters
  ``samples``, ``candidates``, ``steadiness`` (``S`` for S mm, 2·S degrees and S mm, or
  ``P/A/H`` for position mm, angle degrees and release height mm) and ``ruling``
  (``simulation`` or ``statics``: the bot's own estimates by the static check, no dynamics).
- ``ppo`` — Splash & Bash: a policy learned by sb3-contrib's ``MaskablePPO``
  (:mod:`splash.bots.ppo`, ``examples/train_ppo.py``); parameters ``path`` (the saved
  policy, required) and ``deterministic`` (``true``, the default: the most probable legal
  action; ``false``: drawn from the policy).  It needs the optional extra ``rl``.
- ``td`` — Splash & Bash: a value network learned by TD(λ) self-play
  (:mod:`splash.bots.td`, ``splash train bash``) choosing by a ply-1 or ply-2 search on the
  compiled core; parameters ``path`` (an agent file; default: the agent shipped with
  splash) and ``ply`` (``1``, the default, or ``2``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from splash.bots.bash_expectimax import ExpectimaxBashBot
from splash.bots.bash_greedy import GreedyBashBot
from splash.bots.ismcts import IsmctsBot
from splash.bots.random_bot import RandomBot
from splash.bots.tower_planner import TowerPlannerBot
from splash.bots.tower_random import RandomTowerBot
from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.core.play import Agent
from splash.core.protocol import Game
from splash.games import GAMES
from splash.games.bash.greedy_weights import GREEDY_WEIGHTS

Seed = int | np.random.SeedSequence


def _whole(spec_key: str, value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise OptionError(
            "bot", f"{spec_key}={value}", message("must be a whole number, 1 or more")
        )
    return number


def _greedy(params: dict[str, str], seed: Seed) -> Agent:
    samples = _whole("samples", params.pop("samples", "1"))
    depth = _whole("depth", params.pop("depth", "3"))
    weights: dict[str, float | str] = dict(params)
    return GreedyBashBot(seed, samples=samples, depth=depth, **weights)


def _number(spec_key: str, value: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise OptionError("bot", f"{spec_key}={value}", message("must be a number")) from None


def _only_keys(params: Mapping[str, str], known: Set[str]) -> None:
    """Refuse a parameter the bot does not take, listing those it does."""
    unknown = sorted(set(params) - known)
    if unknown:
        raise OptionError(
            "bot",
            unknown[0],
            message(
                "unknown key {part!r} (known here: {known})",
                part=unknown[0],
                known=", ".join(sorted(known)),
            ),
        )


ENGINES = ("reference", "fast")
"""Where the ismcts bot searches: the rules engine, or the compiled core."""

_ISMCTS_KEYS = frozenset(
    {"iterations", "exploration", "rollout", "max_depth", "progress_scale", "evaluation", "engine"}
)
_FAST_ISMCTS_KEYS = frozenset({"epsilon", "widening", "rollout_depth"})


def _ismcts(params: dict[str, str], seed: Seed) -> Agent:
    engine = params.pop("engine", "reference")
    if engine not in ENGINES:
        raise OptionError(
            "bot",
            f"engine={engine}",
            message("must be one of {choices}", choices=", ".join(ENGINES)),
        )
    fast = engine == "fast"
    if not fast:  # the compiled search's own keys are refused for the reference engine
        _only_keys(params, _ISMCTS_KEYS)
    options: dict[str, Any] = {}
    for key in ("iterations", "max_depth", "rollout_depth"):
        if key in params:
            options[key] = _whole(key, params[key])
    for key in ("exploration", "progress_scale", "epsilon", "widening"):
        if key in params:
            options[key] = _number(key, params[key])
    for key in ("rollout", "evaluation"):
        if key in params:
            options[key] = params[key]
    if fast:
        # Imported here: the compiled core (numba) is loaded only by a command that uses it.
        from splash.bots.fast_ismcts import FastIsmctsBot

        return FastIsmctsBot(seed, **options)
    return IsmctsBot(seed, **options)


def _expectimax(params: dict[str, str], seed: Seed) -> Agent:
    options = {
        key: _whole(key, params.pop(key)) for key in ("turns", "samples", "width") if key in params
    }
    return ExpectimaxBashBot(seed, **options, weights=params)


def _ppo(params: dict[str, str], seed: Seed) -> Agent:
    # Imported here: the policy's libraries (PyTorch) are loaded only by a game that uses it.
    from splash.bots.ppo import make_ppo

    return make_ppo(params, seed)


def _td(params: dict[str, str], seed: Seed) -> Agent:
    # Imported here: the compiled core (numba) is loaded only by a command that uses it.
    from splash.bots.td import make_td

    return make_td(params, seed)


def _planner(params: dict[str, str], seed: Seed) -> Agent:
    hand: tuple[float, float, float] | None = None
    if "steadiness" in params:
        parts = [_number("steadiness", part) for part in params["steadiness"].split("/")]
        if len(parts) == 1:
            hand = (parts[0], 2 * parts[0], parts[0])
        elif len(parts) == 3:
            hand = (parts[0], parts[1], parts[2])
        else:
            raise OptionError("bot", params["steadiness"], message("must be three numbers"))
    return TowerPlannerBot(
        seed,
        samples=_whole("samples", params.get("samples", "8")),
        candidates=_whole("candidates", params.get("candidates", "12")),
        steadiness=hand,
        ruling=params.get("ruling", "simulation"),
    )


ANY_GAME = "*"
"""In :attr:`BotSpec.games`: the bot plays every game of :data:`splash.games.GAMES`."""


@dataclass(frozen=True)
class BotSpec:
    """One bot of :data:`BOTS`: its name in a spec, how it is made, what it takes and plays."""

    name: str
    """The bot's name, the part of a spec before ``:`` (``greedy``)."""
    factory: Callable[[dict[str, str], Seed], Agent]
    """The bot made from a spec's parameters (checked against :attr:`parameters`) and a
    seed."""
    parameters: frozenset[str]
    """The parameter keys the bot takes (none: a bare name only); any other key is refused
    with the known ones listed."""
    games: frozenset[str]
    """The ids of the games it plays; :data:`ANY_GAME` for every game."""
    light: bool = False
    """Whether a decision costs so little that the play server takes it on its event loop
    rather than in a worker thread."""

    def plays(self, game: str) -> bool:
        """Whether the bot plays the game ``game`` (an id of :data:`splash.games.GAMES`)."""
        return ANY_GAME in self.games or game in self.games


_BASH = frozenset({"bash"})
_TOWER = frozenset({"tower"})
_WEIGHTS = frozenset(GREEDY_WEIGHTS)

BOTS: tuple[BotSpec, ...] = (
    BotSpec(
        "random",
        lambda params, seed: RandomBot(seed),
        parameters=frozenset(),
        games=frozenset({ANY_GAME}),
        light=True,
    ),
    BotSpec("greedy", _greedy, parameters=frozenset({"samples", "depth"}) | _WEIGHTS, games=_BASH),
    BotSpec("ismcts", _ismcts, parameters=_ISMCTS_KEYS | _FAST_ISMCTS_KEYS, games=_BASH),
    BotSpec(
        "expectimax",
        _expectimax,
        parameters=frozenset({"turns", "samples", "width"}) | _WEIGHTS,
        games=_BASH,
    ),
    BotSpec(
        "planner",
        _planner,
        parameters=frozenset({"samples", "candidates", "steadiness", "ruling"}),
        games=_TOWER,
    ),
    BotSpec("ppo", _ppo, parameters=frozenset({"path", "deterministic"}), games=_BASH),
    BotSpec("td", _td, parameters=frozenset({"path", "ply"}), games=_BASH),
)
"""Every bot, once: the one registry that :func:`make_bot`, :data:`PLAYS` and the play
server read."""


def bots_for(game: str) -> list[str]:
    """The names of the bots that play ``game``, sorted."""
    return sorted(bot.name for bot in BOTS if bot.plays(game))


PLAYS: Mapping[str, frozenset[str]] = {
    game: frozenset(bots_for(game))
    for game in dict.fromkeys([*GAMES, *(g for bot in BOTS for g in bot.games if g != ANY_GAME)])
}
"""The bots that play each game (``bash``: Splash & Bash, ``tower``: Splash!), from
:data:`BOTS`: every game of :data:`splash.games.GAMES`, and any other game a bot names."""


def known_bots() -> list[str]:
    """The names of the bots :func:`make_bot` knows."""
    return sorted(bot.name for bot in BOTS)


def bot_named(name: str) -> BotSpec | None:
    """The bot of :data:`BOTS` called ``name`` (``None`` for no bot)."""
    return next((bot for bot in BOTS if bot.name == name), None)


def is_light(spec: str) -> bool:
    """Whether the bot ``spec`` names is light (:attr:`BotSpec.light`); ``False`` for a spec
    that names no bot."""
    try:
        bot_name, _ = parse_spec(spec)
    except OptionError:
        return False
    found = bot_named(bot_name)
    return found is not None and found.light


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``("name", {"key": "value"})`` from ``"name:key=value,..."`` (or a bare name)."""
    bot_name, _, rest = spec.strip().partition(":")
    bot_name = bot_name.strip().lower()
    params: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(
                "bot",
                spec,
                message("a bot parameter is written key=value, not {item!r}", item=item),
            )
        params[key.strip()] = value.strip()
    return bot_name, params


def make_bot(spec: str, seed: Seed, *, game: str | None = None) -> Agent:
    """The bot ``spec`` names, seeded with ``seed``; with ``game`` (``bash`` or ``tower``),
    one that plays that game.

    Raises :class:`OptionError` for an unknown name (the message lists the known ones), for
    a bot that does not play ``game`` (the message lists those that do), for parameters
    given to a bot that takes none, or for a parameter key the bot does not take (the
    message lists those it does).
    """
    bot_name, params = parse_spec(spec)
    bot = bot_named(bot_name)
    if bot is None:
        raise OptionError(
            "bot",
            spec,
            message(
                "unknown bot {name!r} (known: {known})",
                name=bot_name,
                known=", ".join(known_bots()),
            ),
        )
    if game is not None and not bot.plays(game):
        raise OptionError(
            "bot",
            spec,
            message(
                "this bot does not play {game} (known: {known})",
                game=game,
                known=", ".join(bots_for(game)),
            ),
        )
    if params and not bot.parameters:
        raise OptionError("bot", spec, message("the {name} bot takes no parameters", name=bot_name))
    _only_keys(params, bot.parameters)
    return bot.factory(params, seed)


@runtime_checkable
class FitsTable(Protocol):
    """A bot that plays some tables of its game only (a learned agent: the table it learned
    on) and can say so before the game starts."""

    def check_table(self, game: Game) -> None:
        """Nothing when this bot can play ``game``; otherwise an :class:`OptionError` that
        says why."""


def check_table(bot: Agent, game: Game) -> None:
    """Nothing when ``bot`` can play ``game`` (a bot that plays every table of its game
    always can); an :class:`OptionError` that says why otherwise."""
    if isinstance(bot, FitsTable):
        bot.check_table(game)


def split_specs(values: list[str]) -> list[str]:
    """Bot specs from ``--bots`` values: ``"random,greedy:depth=2,x=3"`` is two specs.

    A comma separates specs, except before ``key=value``, which belongs to the spec before.
    """
    specs: list[str] = []
    for value in values:
        for part in (p.strip() for p in value.split(",")):
            if not part:
                continue
            if specs and "=" in part and ":" not in part:
                specs[-1] += "," + part
            else:
                specs.append(part)
    return specs


__all__ = [
    "ANY_GAME",
    "BOTS",
    "PLAYS",
    "BotSpec",
    "ExpectimaxBashBot",
    "FitsTable",
    "GreedyBashBot",
    "RandomBot",
    "RandomTowerBot",
    "bot_named",
    "bots_for",
    "check_table",
    "is_light",
    "known_bots",
    "make_bot",
    "parse_spec",
    "split_specs",
]
