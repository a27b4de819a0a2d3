"""Bots: programs that take a seat's decisions.

A bot is named on the command line by a *spec*: a name, and ``name:key=value,...`` for bots
with parameters (``greedy:depth=2,rival=1.5``).  :func:`make_bot` turns a spec into a bot.

- ``random`` — either game: a uniform choice among the legal actions (a Splash! placement:
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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from splash.bots.bash_expectimax import ExpectimaxBashBot
from splash.bots.bash_greedy import DEFAULT_WEIGHTS, GreedyBashBot
from splash.bots.ismcts import IsmctsBot
from splash.bots.random_bot import RandomBot
from splash.bots.tower_planner import TowerPlannerBot
from splash.bots.tower_random import RandomTowerBot
from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.core.play import Agent

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


def _only_keys(params: dict[str, str], known: set[str]) -> None:
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

_ISMCTS_KEYS = {"iterations", "exploration", "rollout", "max_depth", "progress_scale", "evaluation"}
_FAST_ISMCTS_KEYS = {"epsilon", "widening", "rollout_depth"}


def _ismcts(params: dict[str, str], seed: Seed) -> Agent:
    engine = params.pop("engine", "reference")
    if engine not in ENGINES:
        raise OptionError(
            "bot",
            f"engine={engine}",
            message("must be one of {choices}", choices=", ".join(ENGINES)),
        )
    fast = engine == "fast"
    _only_keys(params, _ISMCTS_KEYS | (_FAST_ISMCTS_KEYS if fast else set()) | {"engine"})
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
    _only_keys(params, {"turns", "samples", "width", *DEFAULT_WEIGHTS})
    options = {
        key: _whole(key, params.pop(key)) for key in ("turns", "samples", "width") if key in params
    }
    return ExpectimaxBashBot(seed, **options, weights=params)


def _ppo(params: dict[str, str], seed: Seed) -> Agent:
    _only_keys(params, {"path", "deterministic"})
    # Imported here: the policy's libraries (PyTorch) are loaded only by a game that uses it.
    from splash.bots.ppo import make_ppo

    return make_ppo(params, seed)


def _planner(params: dict[str, str], seed: Seed) -> Agent:
    _only_keys(params, {"samples", "candidates", "steadiness", "ruling"})
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


_FACTORIES: dict[str, Callable[[dict[str, str], Seed], Agent]] = {
    "random": lambda params, seed: RandomBot(seed),
    "greedy": _greedy,
    "ismcts": _ismcts,
    "expectimax": _expectimax,
    "planner": _planner,
    "ppo": _ppo,
}
_TAKES_PARAMETERS: frozenset[str] = frozenset({"greedy", "ismcts", "expectimax", "planner", "ppo"})

PLAYS: dict[str, frozenset[str]] = {
    "bash": frozenset({"random", "greedy", "ismcts", "expectimax", "ppo"}),
    "tower": frozenset({"random", "planner"}),
}
"""The bots that play each game (``bash``: Splash & Bash, ``tower``: Splash!)."""


def known_bots() -> list[str]:
    """The names of the bots :func:`make_bot` knows."""
    return sorted(_FACTORIES)


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
    a bot that does not play ``game`` (the message lists those that do), or for parameters
    given to a bot that takes none.
    """
    bot_name, params = parse_spec(spec)
    if game is not None and bot_name in _FACTORIES and bot_name not in PLAYS.get(game, ()):
        raise OptionError(
            "bot",
            spec,
            message(
                "this bot does not play {game} (known: {known})",
                game=game,
                known=", ".join(sorted(PLAYS.get(game, ()))),
            ),
        )
    factory = _FACTORIES.get(bot_name)
    if factory is None:
        raise OptionError(
            "bot",
            spec,
            message(
                "unknown bot {name!r} (known: {known})",
                name=bot_name,
                known=", ".join(known_bots()),
            ),
        )
    if params and bot_name not in _TAKES_PARAMETERS:
        raise OptionError("bot", spec, message("the {name} bot takes no parameters", name=bot_name))
    return factory(params, seed)


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
    "PLAYS",
    "ExpectimaxBashBot",
    "GreedyBashBot",
    "RandomBot",
    "RandomTowerBot",
    "known_bots",
    "make_bot",
    "parse_spec",
    "split_specs",
]
