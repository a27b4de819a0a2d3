"""The ``td`` bot: Splash & Bash played by a value network learned by TD(λ) self-play.

``td:path=agent.npz,ply=2`` loads the agent file (:mod:`splash.learn.agent`, written by
``splash train bash``; without ``path``, the agent shipped with splash) once per file and
process, and chooses by ply 1 or ply 2 (:mod:`splash.learn.search`, ``ply=1`` by default)
on the compiled core.  It reads only what its team may see (BD12): every after-state is
made on the canonical deal of the team's view, and chance is weighed by the cards the team
cannot see.  It has no random choice of its own: the seed is kept, and the same position
always gives the same move.  It plays the configurations the compiled core can express
with the team count its agent learned.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from splash.core.actions import Action
from splash.core.errors import ActionError, DocumentError, OptionError
from splash.core.i18n import message
from splash.core.protocol import Game, State
from splash.fast.afterstate import FastAfterstates
from splash.fast.convert import to_arrays
from splash.fast.tables import build_tables
from splash.games.bash import BashGame, BashState
from splash.learn.agent import AgentFile, read_agent, shipped_agent
from splash.learn.search import Search

PLIES = (1, 2)
"""The depths the bot searches."""
_CACHED = 16
"""How many (agent, game) searches are kept per process."""

_AGENTS: dict[Path | None, AgentFile] = {}
_SEARCHES: dict[tuple[Path | None, int], tuple[BashGame, Search]] = {}


def load_agent(path: str | None) -> tuple[Path | None, AgentFile]:
    """The agent file at ``path`` (``None``: the shipped one), read once per process, with
    its key; an :class:`OptionError` naming the file when it cannot be read as an agent."""
    if path is None:
        if None not in _AGENTS:
            _AGENTS[None] = shipped_agent()
        return None, _AGENTS[None]
    file = Path(path).expanduser()
    try:
        key = file.resolve()
    except OSError:
        key = file
    if key not in _AGENTS:
        try:
            _AGENTS[key] = read_agent(file)
        except DocumentError as error:
            raise OptionError("bot", f"path={path}", error.text) from None
    return key, _AGENTS[key]


class TDBot:
    """Plays the seat to act with a learned value network and a ply-1 or ply-2 search
    (module docs)."""

    name = "td"

    def __init__(
        self, seed: int | np.random.SeedSequence, path: str | None = None, *, ply: int = 1
    ) -> None:
        if ply not in PLIES:
            raise OptionError(
                "bot", f"ply={ply}", message("must be one of {choices}", choices="1, 2")
            )
        self.seed = seed
        self.path = path
        self.ply = ply
        self.key, self.agent = load_agent(path)

    def search_for(self, game: BashGame) -> Search:
        """The search of this bot's agent on ``game``'s compiled core, made once per game;
        an :class:`OptionError` when the agent was trained for another table."""
        found = _SEARCHES.get((self.key, id(game)))
        if found is not None and found[0] is game:
            return found[1]
        fast = FastAfterstates(build_tables(game))
        spec = "td" if self.path is None else f"path={self.path}"
        if self.agent.teams != game.num_seats or self.agent.net.inputs != fast.encoding.size:
            raise OptionError(
                "bot",
                spec,
                message(
                    "the agent learned {trained} teams ({inputs} inputs); this game has "
                    "{teams} teams ({size} inputs)",
                    trained=self.agent.teams,
                    inputs=self.agent.net.inputs,
                    teams=game.num_seats,
                    size=fast.encoding.size,
                ),
            )
        search = Search(fast, self.agent.net)
        while len(_SEARCHES) >= _CACHED:
            del _SEARCHES[next(iter(_SEARCHES))]
        _SEARCHES[(self.key, id(game))] = (game, search)
        return search

    def check_table(self, game: Game) -> None:
        """Nothing when the agent learned on ``game``'s table; an :class:`OptionError` that
        names both tables otherwise (a game of another kind: the td bot plays Splash & Bash
        only)."""
        if not isinstance(game, BashGame):
            raise OptionError("bot", "td", message("the td bot plays Splash & Bash only"))
        self.search_for(game)

    def act(self, state: State) -> Action:
        """The action the search prefers for the team to act in ``state``; a single legal
        action is returned without a search."""
        if not isinstance(state, BashState):
            raise ActionError(message("the td bot plays Splash & Bash only"))
        seat = state.to_act()
        legal = state.legal_actions() if seat >= 0 else []
        if not legal:
            raise ActionError(message("no decision to take in {state}", state=state.describe()))
        if len(legal) == 1:
            return legal[0]
        search = self.search_for(state._bash)
        arrays = to_arrays(search.fast.tables, state)
        chosen = search.ply1(arrays, seat) if self.ply == 1 else search.ply2(arrays, seat)
        for action in legal:
            if action.id == chosen:
                return action
        raise ActionError(
            message("no decision to take in {state}", state=state.describe())
        )  # pragma: no cover - the core's legal actions are the reference's


def make_td(params: dict[str, str], seed: int | np.random.SeedSequence) -> TDBot:
    """The ``td`` bot of a spec's parameters (their keys checked by the caller): ``path``
    (default: the shipped agent), ``ply`` (1 or 2, default 1)."""
    path = params.get("path", "").strip() or None
    text = params.get("ply", "1").strip()
    if text not in {"1", "2"}:
        raise OptionError("bot", f"ply={text}", message("must be one of {choices}", choices="1, 2"))
    return TDBot(seed, path, ply=int(text))


__all__ = ["PLIES", "TDBot", "load_agent", "make_td"]
