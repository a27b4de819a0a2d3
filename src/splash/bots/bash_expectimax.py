"""An expectimax bot for Splash & Bash: the greedy heuristic, averaged over the dice and
draws that follow a decision.

**What it may know.**  Like the greedy bot, each decision starts from ``state.view(seat)``
and from determinizations (:func:`splash.games.bash.hidden.resample`): copies of the state in
which the other teams' hands are dealt again from the cards the team cannot see.  With
``samples`` > 1 the values are averaged over that many deals.

**The search.**  Each candidate decision is applied to the determinization, and the game is
followed until ``turns`` team turns have ended (1, the default: the end of the bot's own
turn; 2: the end of the next team's turn as well), where the position is scored by the
greedy heuristic (:meth:`GreedyBashBot.evaluate`):

* at a chance event of the turn being decided (a roll, a draw, a steal) the value is the
  mean of the values of its outcomes, weighed by their exact probabilities
  (``chance_outcomes()``); in a later turn a roll is expanded alike, while a draw or a
  steal takes one outcome drawn with its probability, the same for every candidate of a
  deal;
* at a decision of the bot's team within the turn being decided, the value is the best
  value of the ``width`` actions the greedy bot scores highest;
* every other decision (another team's, or the bot's in a later turn) is the greedy bot's,
  as the bot expects it to be;
* a forced step (one legal action) is applied without a choice.

The candidates at the root are the ``width`` actions the greedy bot scores highest (all of
them when there are no more).  The placements before the first turn are the greedy bot's.
Ties are broken by the bot's own seeded generator, so a bot is deterministic for a seed.

**Cost.**  With ``turns=1`` a decision takes some 10 to 50 ms on one core, a card decision
before the roll (which expands the roll and the rest of the turn) up to a few tenths of a
second; ``turns=2`` costs ten to a hundred times more.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import numpy as np

from splash.bots.bash_clone import quick_clone
from splash.bots.bash_greedy import GreedyBashBot, seen_legal_actions
from splash.core.actions import Action
from splash.core.errors import ActionError, OptionError
from splash.core.i18n import message
from splash.core.protocol import CHANCE, TERMINAL, State
from splash.games.bash.hidden import resample
from splash.games.bash.records import AwaitRoll, StartLane
from splash.games.bash.state import BashState

_TIE = 1e-9


class ExpectimaxBashBot:
    """Greedy evaluation behind an exact expectation over the chance events of the next
    ``turns`` team turns (see the module's documentation).

    ``seed`` seeds the bot's own generator (deals of hidden hands, ties); ``turns`` is the
    horizon in team turns, ``samples`` the deals averaged per decision, ``width`` the most
    candidates searched at one of the team's own decisions; ``weights`` are the greedy
    heuristic's (:data:`splash.games.bash.greedy_weights.GREEDY_WEIGHTS`).
    """

    name = "expectimax"

    def __init__(
        self,
        seed: int | np.random.SeedSequence,
        *,
        turns: int = 1,
        samples: int = 1,
        width: int = 4,
        weights: Mapping[str, float | str] | None = None,
    ) -> None:
        for key, value in (("turns", turns), ("samples", samples), ("width", width)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise OptionError(
                    "bot", f"{key}={value}", message("must be a whole number, 1 or more")
                )
        self.seed = seed
        self.turns = turns
        self.samples = samples
        self.width = width
        self._rng = np.random.default_rng(seed)
        self._key = 0
        self._greedy = GreedyBashBot(seed, **cast(dict[str, Any], dict(weights or {})))

    @property
    def weights(self) -> dict[str, float]:
        """The greedy heuristic's weights the bot scores positions with."""
        return self._greedy.weights

    def act(self, state: State) -> Action:
        """The legal action of ``state.to_act()`` with the best expected value."""
        if not isinstance(state, BashState):
            raise ActionError(message("the expectimax bot plays Splash & Bash only"))
        seat = state.to_act()
        legal = seen_legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        if state.turns == 0 and isinstance(state.awaiting, StartLane):
            return self._greedy.act(state)
        totals = np.zeros(len(legal))
        for _ in range(self.samples):
            self._key = int(self._rng.integers(2**32))
            world = resample(state, seat, self._rng)
            totals += self._candidates(world, legal, seat, world.turns)
        best = float(totals.max())
        ties = [i for i, value in enumerate(totals) if value >= best - _TIE * self.samples]
        return legal[ties[int(self._rng.integers(len(ties)))]]

    # ----- the search -------------------------------------------------------------------

    def _candidates(
        self, world: BashState, legal: list[Action], seat: int, start: int
    ) -> np.ndarray:
        """The value of each of ``legal`` (``-inf`` for those left out by ``width``), in a
        search from turn ``start``."""
        values = np.full(len(legal), -np.inf)
        order = list(range(len(legal)))
        if len(legal) > self.width:
            scores = self._greedy.scores(world, legal, seat, 1)
            order = sorted(order, key=lambda i: -scores[i])[: self.width]
        for i in order:
            child = quick_clone(world)
            child.apply_legal(legal[i])
            values[i] = self._value(child, seat, start)
        return values

    def _sampled(self, world: BashState, outcomes: list[tuple[Action, Fraction]]) -> Action:
        """One outcome drawn with its probability, the same for every candidate of a deal."""
        draw = float(np.random.default_rng([self._key, world.turns, world.step]).random())
        for outcome, p in outcomes:
            draw -= float(p)
            if draw < 0:
                return outcome
        return outcomes[-1][0]

    def _value(self, world: BashState, seat: int, start: int) -> float:
        """The expected score of ``world`` for ``seat`` in a search from turn ``start``."""
        while True:
            actor = world.to_act()
            if actor == TERMINAL or world.turns >= start + self.turns:
                return self._greedy.evaluate(world, seat)
            if actor == CHANCE:
                outcomes = world.chance_outcomes()
                later = world.turns > start
                if later and not isinstance(world.awaiting, AwaitRoll):
                    world.apply_legal(self._sampled(world, outcomes))
                    continue
                total = 0.0
                for outcome, p in outcomes:
                    child = quick_clone(world)
                    child.apply_legal(outcome)
                    total += float(p) * self._value(child, seat, start)
                return total
            legal = world.legal_actions()
            if len(legal) == 1:
                world.apply_legal(legal[0])
                continue
            if actor == seat and world.turns == start:
                return float(self._candidates(world, legal, seat, start).max())
            scores = self._greedy.scores(world, legal, actor)
            world.apply_legal(legal[int(np.argmax(scores))])
