"""An information-set Monte Carlo tree search bot for Splash & Bash (SO-ISMCTS).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) builds one tree over the
information sets of the team to act (the *observer*).  Each iteration:

1. **Determinize**: :func:`~splash.games.bash.hidden.resample` deals the other teams'
   hands again from the cards the observer cannot see, so the search never reads another
   team's hand.
2. **Select**: walk down the tree.  A node is reached by what the observer sees happen
   from the root: every decision (of any team; discards and plays are public) and every
   chance outcome, except another team's high tide draw or a steal the observer takes no
   part in, which lead to one node whatever the card.  Chance outcomes are drawn from
   ``chance_outcomes()`` with the bot's own generator.  At a decision, the actions legal in
   this determinization are scored with UCB using *availability* counts (how often each
   was legal when its node was visited) in place of the parent's visits; each team picks
   the action best for itself.
3. **Expand** the first action of the node never tried yet (drawn at random among them).
4. **Roll out**: random actions (``rollout="random"``), or none (``rollout="none"``),
   until the game ends or ``max_depth`` actions have been applied in the iteration.
5. **Back up** each team's value into the statistics of the actions it chose on the path.

A finished game scores ``state.returns()``.  A game stopped by ``max_depth`` is scored by
the *progress heuristic*: a team's progress is the share of its whole race already run
(each pawn's ``s`` over its finishing ``s``, a finished pawn counting whole, the helmsman's
lap weighed like a pawn's lap), its *lead* is its progress less the best other team's, and
its value is ``clip(progress_scale * (lead - lead at the root), -1, 1)``: what the moves
since the root gained, in [-1, 1].  The bot plays the root action visited most (ties: the
better mean value, then the lower id).

The search applies actions it took from the same state's ``legal_actions()`` or
``chance_outcomes()``, so it skips the legality check of :meth:`State.apply` (and the
history of the throwaway determinizations).
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Hashable
from dataclasses import dataclass, field

import numpy as np

from splash.bots.bash_greedy import GreedyBashBot
from splash.core.actions import Action
from splash.core.errors import ActionError, OptionError
from splash.core.i18n import N_, message
from splash.core.protocol import CHANCE, TERMINAL, State
from splash.games.bash.config import HAND_DECK
from splash.games.bash.hidden import resample
from splash.games.bash.records import AwaitSteal
from splash.games.bash.state import BashState
from splash.games.bash.summary import team_progress

ROLLOUTS = ("random", "none")
"""The rollout policies: uniform random actions, or an evaluation right after expansion."""

EVALUATIONS = ("progress", "greedy")
"""How a game stopped by ``max_depth`` is scored: the progress heuristic, or the greedy
bot's heuristic (:meth:`GreedyBashBot.evaluate`)."""

GREEDY_SCALE = 3.0
"""Team turns of the greedy heuristic's gain that make a value of ``tanh(1)``."""


@dataclass(slots=True)
class _Stats:
    """What the tree knows of one action at one node."""

    visits: int = 0
    total: float = 0.0
    available: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass(slots=True)
class _Node:
    """An information set of the observer: action statistics and the nodes below."""

    stats: dict[int, _Stats] = field(default_factory=dict)
    children: dict[Hashable, _Node] = field(default_factory=dict)

    def child(self, key: Hashable) -> _Node:
        found = self.children.get(key)
        if found is None:
            found = self.children[key] = _Node()
        return found


def team_leads(state: BashState) -> list[float]:
    """Each team's progress less the best progress among the other teams."""
    progress = team_progress(state)
    return [
        p - max(q for other, q in enumerate(progress) if other != team)
        for team, p in enumerate(progress)
    ]


class IsmctsBot:
    """Single-observer information-set MCTS for Splash & Bash, seeded and deterministic.

    >>> from splash.games.bash import BashGame
    >>> state = BashGame().new_initial_state()
    >>> IsmctsBot(7, iterations=10).act(state).kind
    'start_lane'
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | np.random.SeedSequence,
        *,
        iterations: int = 200,
        exploration: float = 0.7,
        rollout: str = "random",
        max_depth: int = 12,
        progress_scale: float = 20.0,
        evaluation: str = "progress",
    ) -> None:
        _check(iterations >= 1, "iterations", iterations, N_("must be a whole number, 1 or more"))
        _check(max_depth >= 1, "max_depth", max_depth, N_("must be a whole number, 1 or more"))
        _check(
            math.isfinite(exploration) and exploration >= 0,
            "exploration",
            exploration,
            N_("must be a finite number >= 0"),
        )
        _check(
            math.isfinite(progress_scale) and progress_scale > 0,
            "progress_scale",
            progress_scale,
            N_("must be a finite number > 0"),
        )
        for key, value, choices in (
            ("rollout", rollout, ROLLOUTS),
            ("evaluation", evaluation, EVALUATIONS),
        ):
            if value not in choices:
                raise OptionError(
                    key, value, message("must be one of {choices}", choices=", ".join(choices))
                )
        self.seed = seed
        self.iterations = iterations
        self.exploration = exploration
        self.rollout = rollout
        self.max_depth = max_depth
        self.progress_scale = progress_scale
        self.evaluation = evaluation
        self._greedy = GreedyBashBot(0) if evaluation == "greedy" else None
        self._rng = np.random.default_rng(seed)
        self._outcomes: dict[Hashable, tuple[list[Action], list[float]]] = {}

    def act(self, state: State) -> Action:
        """The action the search prefers for the team to act in ``state`` (a :class:`BashState`).

        A single legal action is returned without a search.
        """
        if not isinstance(state, BashState):
            raise ActionError(message("the ismcts bot plays Splash & Bash only"))
        seat = state.to_act()
        legal = state.legal_actions() if seat >= 0 else []
        if not legal:
            raise ActionError(message("no decision to take in {state}", state=state.describe()))
        if len(legal) == 1:
            return legal[0]
        root = _Node()
        self._outcomes.clear()
        baseline = team_leads(state)
        for _ in range(self.iterations):
            world = resample(state, seat, self._rng)
            if self._greedy is not None:
                baseline = self._greedy_scores(world)
            self._iterate(world, root, seat, baseline)
        return max(legal, key=lambda a: (*_preference(root.stats.get(a.id)), -a.id))

    # ----- one iteration ----------------------------------------------------------------

    def _iterate(self, world: BashState, root: _Node, seat: int, baseline: list[float]) -> None:
        node: _Node | None = root
        path: list[tuple[_Stats, int]] = []
        for _ in range(self.max_depth):
            actor = world.to_act()
            if actor == TERMINAL:
                break
            if actor == CHANCE:
                outcome = self._chance(world)
                if node is not None:
                    node = node.child(_observed(world, outcome, seat))
                world.apply_legal(outcome)
                continue
            legal = world.legal_actions()
            if node is None:
                if self.rollout == "none":
                    break
                action = legal[int(self._rng.integers(len(legal)))]
            else:
                action, stats = self._select(node, legal)
                path.append((stats, actor))
                node = None if stats.visits == 0 else node.child(action.id)
            world.apply_legal(action)
        values = self._values(world, baseline)
        for stats, team in path:
            stats.visits += 1
            stats.total += values[team]

    def _chance(self, world: BashState) -> Action:
        """An outcome of ``world``'s chance event, drawn with its probability.

        ``chance_outcomes()`` depends only on the event and the cards it draws from, so its
        cumulative probabilities are kept for the rest of the search.
        """
        event = world.chance_event()
        if event is None:
            raise ActionError(message("no chance event in {state}", state=world.describe()))
        key: Hashable
        if event.kind == "draw":
            deck = str(event.params["deck"])
            key = (event.kind, deck, tuple(world.board.decks[deck].items()))
        elif event.kind == "steal":
            victim = int(str(event.params["team"]))
            key = (event.kind, tuple(world.board.hands[victim]))
        else:
            key = (event.kind, tuple(sorted(event.params.items())))
        entry = self._outcomes.get(key)
        if entry is None:
            outcomes = world.chance_outcomes()
            cumulative = list(itertools.accumulate(float(p) for _, p in outcomes))
            entry = self._outcomes[key] = ([a for a, _ in outcomes], cumulative)
        actions, cumulative = entry
        index = bisect.bisect_right(cumulative, float(self._rng.random()) * cumulative[-1])
        return actions[min(index, len(actions) - 1)]

    def _select(self, node: _Node, legal: list[Action]) -> tuple[Action, _Stats]:
        """The action to follow at ``node`` (a new one if any is untried) and its statistics."""
        untried = []
        for action in legal:
            stats = node.stats.get(action.id)
            if stats is None:
                untried.append(action)
            else:
                stats.available += 1
        if untried:
            action = untried[int(self._rng.integers(len(untried)))]
            stats = node.stats[action.id] = _Stats(available=1)
            return action, stats
        best: tuple[Action, _Stats] | None = None
        best_score = -math.inf
        for action in legal:
            stats = node.stats[action.id]
            if stats.visits == 0:
                # Tried in an iteration still running (a node met twice on one path).
                return action, stats
            score = stats.mean + self.exploration * math.sqrt(
                math.log(stats.available) / stats.visits
            )
            if score > best_score:
                best, best_score = (action, stats), score
        assert best is not None
        return best

    def _values(self, world: BashState, baseline: list[float]) -> list[float]:
        """Each team's value of where the iteration stopped, in [-1, 1]."""
        if world.to_act() == TERMINAL:
            return world.returns()
        if self._greedy is not None:
            return [
                math.tanh((score - base) / GREEDY_SCALE)
                for score, base in zip(self._greedy_scores(world), baseline, strict=True)
            ]
        leads = team_leads(world)
        return [
            max(-1.0, min(1.0, self.progress_scale * (lead - base)))
            for lead, base in zip(leads, baseline, strict=True)
        ]

    def _greedy_scores(self, world: BashState) -> list[float]:
        """Each team's score of ``world`` by the greedy bot's heuristic (in team turns)."""
        assert self._greedy is not None
        return [self._greedy.evaluate(world, team) for team in range(len(world.board.pieces))]


def _check(ok: bool, key: str, value: object, problem: str) -> None:
    """Refuse a parameter ``key=value`` that is not ``ok``, saying what it must be."""
    if not ok:
        raise OptionError(key, value, message(problem))


def _observed(world: BashState, outcome: Action, seat: int) -> Hashable:
    """What ``seat`` sees of a chance outcome: the outcome, or only that a card changed hands."""
    if outcome.kind == "draw" and outcome.param("deck") == HAND_DECK and world.team != seat:
        return ("draw", HAND_DECK)
    if isinstance(world.awaiting, AwaitSteal) and seat not in (world.team, world.awaiting.victim):
        return ("steal",)
    return outcome.id


def _preference(stats: _Stats | None) -> tuple[int, float]:
    """How a root action ranks: visits, then mean value."""
    if stats is None:
        return (0, -math.inf)
    return (stats.visits, stats.mean)
