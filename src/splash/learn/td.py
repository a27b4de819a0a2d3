"""A value network for Splash & Bash after-states, learned by TD(λ) self-play (numpy only).

The network (:class:`ValueNet`) reads the features of an after-state
(:class:`~splash.games.bash.afterstate.AfterstateEncoding`: the deciding team's view only,
BD12) and gives that team's probability of winning: one hidden layer of ``tanh`` units and
a logistic output.

Self-play (:func:`train`): ``games_at_once`` games of the compiled core run side by side.
At every decision with two or more legal actions, the after-states of every waiting game
are made in one batch (:class:`~splash.fast.afterstate.FastAfterstates`) and valued in one
call of the network; each team takes the best (or, at rate ``epsilon``, a random one).  A
further choice of the same team (``Stop.AGAIN``) is valued as it is here, not searched
through.  Each team of each game keeps its eligibility trace: at its next decision, or at
the end, the TD error ``V(next) - V(previous)`` (the reward at the end: 1 to the winner, 0
to the others, ``1 / teams`` to every team at the turn cap) moves the weights along
``alpha`` times the trace, and the trace decays by ``lambda`` before the new gradient is
added.  The updates of one step of every game are summed in the order of the games, so the
result is a function of the seed and the settings.  Forced steps and chance are played by
the core (each game's own generator, seeded from the seed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from splash.core.errors import OptionError
from splash.core.i18n import message
from splash.fast import kernel as k
from splash.fast.afterstate import FastAfterstates
from splash.fast.errors import FastLimitError
from splash.fast.tables import Tables

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class TDSettings:
    """The learner's settings (module docs)."""

    hidden: int = 32
    """Hidden units of the network."""
    alpha: float = 0.01
    """The step size.  Larger steps drift under greedy play: the value of the best of many
    after-states is biased upwards, and the TD errors carry that bias back."""
    lam: float = 0.7
    """λ: how much of the trace each decision keeps."""
    epsilon: float = 0.1
    """The rate of random choices while learning (1: random play, whose values it then
    learns)."""
    games_at_once: int = 16
    """Games played side by side."""


class ValueNet:
    """``V(x) = sigmoid(w2 · tanh(W1 x + b1) + b2)``: the deciding team's probability of winning
    from after-state features ``x``.  The parameters are one flat vector (:attr:`params`);
    ``W1``, ``b1``, ``w2``, ``b2`` are views of it."""

    def __init__(self, inputs: int, hidden: int, rng: np.random.Generator) -> None:
        self.inputs = inputs
        self.hidden = hidden
        self.params: FloatArray = np.zeros(hidden * inputs + 2 * hidden + 1, np.float64)
        self.W1[:] = rng.normal(0.0, 1.0 / np.sqrt(inputs), (hidden, inputs))
        self.w2[:] = rng.normal(0.0, 1.0 / np.sqrt(hidden), hidden)

    @property
    def W1(self) -> FloatArray:
        """Input weights, ``(hidden, inputs)``."""
        return self.params[: self.hidden * self.inputs].reshape(self.hidden, self.inputs)

    @property
    def b1(self) -> FloatArray:
        """Hidden biases."""
        start = self.hidden * self.inputs
        return self.params[start : start + self.hidden]

    @property
    def w2(self) -> FloatArray:
        """Output weights."""
        start = self.hidden * self.inputs + self.hidden
        return self.params[start : start + self.hidden]

    @property
    def b2(self) -> FloatArray:
        """The output bias (one entry)."""
        return self.params[-1:]

    def values(self, features: npt.NDArray[np.floating]) -> FloatArray:
        """``V`` of each row of ``features``."""
        hidden = np.tanh(features @ self.W1.T + self.b1)
        return _sigmoid(hidden @ self.w2 + self.b2[0])

    def gradients(self, features: npt.NDArray[np.floating]) -> FloatArray:
        """``∂V/∂params`` of each row of ``features``, one row each."""
        x = np.asarray(features, np.float64)
        hidden = np.tanh(x @ self.W1.T + self.b1)
        value = _sigmoid(hidden @ self.w2 + self.b2[0])
        slope = value * (1.0 - value)
        back = slope[:, None] * self.w2[None, :] * (1.0 - hidden**2)
        rows = x.shape[0]
        out = np.empty((rows, self.params.size), np.float64)
        size = self.hidden * self.inputs
        out[:, :size] = (back[:, :, None] * x[:, None, :]).reshape(rows, size)
        out[:, size : size + self.hidden] = back
        out[:, size + self.hidden : size + 2 * self.hidden] = slope[:, None] * hidden
        out[:, -1] = slope
        return out


def _sigmoid(z: FloatArray) -> FloatArray:
    out: FloatArray = 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))
    return out


@dataclass
class TrainResult:
    """What :func:`train` learned and played."""

    net: ValueNet
    games: int
    """Games played to the end."""
    decisions: int
    """Decisions with a choice taken by the learner."""
    errors: list[float] = field(default_factory=list)
    """The mean absolute TD error of each game, in the order the games ended."""


class _Game:
    """One game being played: its state array, generator and each team's trace."""

    def __init__(self, tables: Tables, seed: int, params: int) -> None:
        teams = int(tables.T[k.T_TEAMS])
        self.G = tables.initial.copy()
        self.seed = seed
        self.R = np.zeros(1, np.uint64)
        k.seed_rng(self.R, np.uint64(seed))
        self.traces = np.zeros((teams, params), np.float64)
        self.last = np.full(teams, np.nan)
        self.errors: list[float] = []


class _Work:
    """The core's work arrays, allocated once."""

    def __init__(self, tables: Tables) -> None:
        size = k.scratch_size(tables.lmax)
        self.ids = np.zeros(size, np.int64)
        self.weights = np.zeros(size, np.int64)
        self.scratch = np.zeros(size, np.int64)
        self.events = np.zeros(k.EV_BUFFER, np.int64)
        self.frames = np.zeros((k.MAXFR, k.FRW), np.int64)

    def apply(self, tables: Tables, state: IntArray, action: int) -> None:
        """Apply ``action`` to the state array ``state``."""
        k.apply(state, tables.T, self.events, self.frames, action, self.scratch)


def _to_decision(game: _Game, tables: Tables, work: _Work) -> bool:
    """Play chance and forced steps until a team has a choice (``True``) or the end."""
    ids, weights, scratch = work.ids, work.weights, work.scratch
    state = game.G
    while True:
        if state[k.S_ERR] != 0:
            raise FastLimitError(game.seed, int(state[k.S_ERR]))
        actor = k.to_act(state)
        if actor == k.TERMINAL:
            return False
        n = k.legal(state, tables.T, ids, weights, scratch)
        if actor == k.CHANCE:
            action = k.choose(game.R, ids, weights, n, True)
        elif n == 1:
            action = ids[0]
        else:
            return True
        work.apply(tables, state, int(action))


def _rewards(state: IntArray, teams: int) -> FloatArray:
    winner = int(state[k.BOARD + k.B_WIN])
    if winner < 0:
        return np.full(teams, 1.0 / teams)
    out = np.zeros(teams)
    out[winner] = 1.0
    return out


def train(tables: Tables, games: int, seed: int, settings: TDSettings | None = None) -> TrainResult:
    """Learn a :class:`ValueNet` from ``games`` games of self-play (module docs)."""
    settings = settings or TDSettings()
    if games < 1:
        raise OptionError("games", games, message("must be a positive whole number"))
    fast = FastAfterstates(tables)
    sequence = np.random.SeedSequence(seed)
    rng = np.random.default_rng(sequence.spawn(1)[0])
    net = ValueNet(fast.encoding.size, settings.hidden, rng)
    game_seeds = sequence.generate_state(games, np.uint64)
    teams = int(tables.T[k.T_TEAMS])
    work = _Work(tables)
    result = TrainResult(net, 0, 0)
    started = 0
    playing: list[_Game] = []
    while result.games < games:
        while len(playing) < settings.games_at_once and started < games:
            playing.append(_Game(tables, int(game_seeds[started]), net.params.size))
            started += 1
        update = np.zeros_like(net.params)
        waiting: list[_Game] = []
        for game in playing:
            if _to_decision(game, tables, work):
                waiting.append(game)
            else:
                _finish(game, teams, settings, update, result)
        playing = waiting
        if waiting:
            _decide(waiting, fast, net, settings, rng, update, result, work)
        net.params += update
    return result


def _finish(
    game: _Game, teams: int, settings: TDSettings, update: FloatArray, result: TrainResult
) -> None:
    rewards = _rewards(game.G, teams)
    for team in range(teams):
        if not np.isnan(game.last[team]):
            error = rewards[team] - game.last[team]
            update += settings.alpha * error * game.traces[team]
            game.errors.append(abs(error))
    result.games += 1
    result.errors.append(float(np.mean(game.errors)) if game.errors else 0.0)


def _decide(  # noqa: PLR0917
    waiting: list[_Game],
    fast: FastAfterstates,
    net: ValueNet,
    settings: TDSettings,
    rng: np.random.Generator,
    update: FloatArray,
    result: TrainResult,
    work: _Work,
) -> None:
    """One decision in each waiting game: the best after-state (or a random one), its TD
    step, and the action applied."""
    batch = fast(np.stack([game.G for game in waiting]))
    values = net.values(batch.features)
    rows = []
    for b in range(len(waiting)):
        span = batch.rows(b)
        if rng.random() < settings.epsilon:
            rows.append(span.start + int(rng.integers(span.stop - span.start)))
        else:
            rows.append(span.start + int(np.argmax(values[span])))
    gradients = net.gradients(batch.features[rows])
    for b, game in enumerate(waiting):
        team = int(k.to_act(game.G))
        value = values[rows[b]]
        if not np.isnan(game.last[team]):
            error = value - game.last[team]
            update += settings.alpha * error * game.traces[team]
            game.errors.append(abs(error))
        game.traces[team] = settings.lam * game.traces[team] + gradients[b]
        game.last[team] = value
        action = int(batch.actions[rows[b]])
        work.apply(fast.tables, game.G, action)
        result.decisions += 1


@dataclass(frozen=True)
class Positions:
    """After-states met in games of random play, for measuring a network: the features of
    each after-state chosen at a decision with a choice, and its team's reward at the end
    (1 for a win, 0 for a loss, ``1 / teams`` for everyone at the turn cap)."""

    features: npt.NDArray[np.float32]
    outcomes: FloatArray


def random_positions(tables: Tables, games: int, seed: int) -> Positions:
    """The after-states of uniformly random games (:class:`Positions`)."""
    fast = FastAfterstates(tables)
    teams = int(tables.T[k.T_TEAMS])
    sequence = np.random.SeedSequence(seed)
    rng = np.random.default_rng(sequence.spawn(1)[0])
    game_seeds = sequence.generate_state(games, np.uint64)
    work = _Work(tables)
    rows: list[npt.NDArray[np.float32]] = []
    outcomes: list[float] = []
    for n in range(games):
        game = _Game(tables, int(game_seeds[n]), 0)
        seen: list[int] = []
        while _to_decision(game, tables, work):
            batch = fast(game.G)
            row = int(rng.integers(batch.actions.size))
            rows.append(batch.features[row])
            seen.append(int(k.to_act(game.G)))
            work.apply(tables, game.G, int(batch.actions[row]))
        rewards = _rewards(game.G, teams)
        outcomes += [float(rewards[team]) for team in seen]
    return Positions(np.stack(rows), np.array(outcomes))


def log_loss(net: ValueNet, positions: Positions) -> float:
    """The mean log loss of ``net``'s values against the outcomes of ``positions``."""
    values = np.clip(net.values(positions.features), 1e-6, 1.0 - 1e-6)
    won = positions.outcomes
    return float(-np.mean(won * np.log(values) + (1.0 - won) * np.log(1.0 - values)))
