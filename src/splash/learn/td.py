"""A value network for Splash & Bash after-states, learned by TD(λ) self-play (numpy only).

The network (:class:`ValueNet`) reads the features of an after-state
(:class:`~splash.games.bash.afterstate.AfterstateEncoding`: the deciding team's view only,
BD12) and gives that team's probability of winning: one hidden layer of ``tanh`` units and
a logistic output.

Self-play (:func:`train`, :func:`play_block`): games of the compiled core run side by side.
At every decision with two or more legal actions, the ply-1 leaves of every waiting game
(:meth:`splash.learn.search.Search.leaves`: its after-states, searched through where the
team decides again with no chance between) are made in one batch and valued in one call of
the network; each team takes the best (or, at rate ``epsilon``, a random one) and plays its
first action.  Each team of each game keeps its eligibility trace: at its next decision, or
at the end, the TD error ``V(next) - V(previous)`` (the reward at the end: 1 to the winner,
0 to the others, ``1 / teams`` to every team at the turn cap) moves the weights along
``alpha`` times the trace, and the trace decays by ``lambda`` before the new gradient is
added.  The updates of one step of every game are summed in the order of the games.
Forced steps and chance are played by the core (each game's own generator, seeded from the
run's seed and the game's index: :func:`game_seed`).

Games are played in *rounds* (:func:`blocks`): each of ``workers`` workers plays a block of
``games_at_once`` consecutive games from the parameters the round starts with, and the
blocks' changes are added in the order of the blocks (:func:`merge`).  The result is
therefore a function of the seed, the workers, the games and the settings, however many
processes play the blocks; a run stopped at a round's end goes on to the same result.
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
from splash.games.bash.afterstate import Stop
from splash.learn.search import Search

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
        """``V`` of each row of ``features``, computed in their precision (float32 features,
        the after-states', are valued in float32: twice as fast)."""
        kind = np.float64 if features.dtype == np.float64 else np.float32
        x = np.asarray(features, kind)
        hidden = np.tanh(x @ self.W1.T.astype(kind) + self.b1.astype(kind))
        return _sigmoid((hidden @ self.w2.astype(kind)).astype(np.float64) + self.b2[0])

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
class Block:
    """What one worker learned from one block of games (:func:`play_block`)."""

    update: FloatArray
    """The change of the parameters over the block, to add to those it started from."""
    games: int = 0
    """Games played to the end."""
    decisions: int = 0
    """Decisions with a choice taken by the learner."""
    errors: list[float] = field(default_factory=list)
    """The mean absolute TD error of each game, in the order the games ended."""


@dataclass
class TrainResult:
    """What :func:`train` learned and played."""

    net: ValueNet
    games: int
    """Games played to the end."""
    decisions: int
    """Decisions with a choice taken by the learner."""
    errors: list[float] = field(default_factory=list)
    """The mean absolute TD error of each game, block by block."""


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


def game_seed(seed: int, index: int) -> int:
    """The core's seed of game ``index`` of a training run seeded with ``seed``."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0])


def initial_net(inputs: int, seed: int, settings: TDSettings) -> ValueNet:
    """The network a training run seeded with ``seed`` starts from."""
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    return ValueNet(inputs, settings.hidden, rng)


def blocks(played: int, games: int, workers: int, settings: TDSettings) -> list[tuple[int, int]]:
    """The blocks of the next round, one per worker that has games to play: ``(first game,
    count)``.  A round gives each worker ``games_at_once`` consecutive games."""
    out: list[tuple[int, int]] = []
    first = played
    for _ in range(workers):
        count = min(settings.games_at_once, games - first)
        if count <= 0:
            break
        out.append((first, count))
        first += count
    return out


def play_block(  # noqa: PLR0917
    search: Search,
    params: FloatArray,
    seed: int,
    first: int,
    count: int,
    settings: TDSettings,
) -> Block:
    """Play games ``first`` to ``first + count - 1`` of the run seeded with ``seed`` side
    by side from the parameters ``params`` (module docs), learning as they go; the change
    of the parameters is :attr:`Block.update`.  A function of its arguments alone."""
    tables = search.fast.tables
    net = ValueNet(search.net.inputs, search.net.hidden, np.random.default_rng(0))
    net.params[:] = params
    search = Search(search.fast, net)
    rng = np.random.default_rng(np.random.SeedSequence([seed, first, count]))
    teams = int(tables.T[k.T_TEAMS])
    work = _Work(tables)
    block = Block(np.zeros_like(params))
    playing = [_Game(tables, game_seed(seed, first + i), params.size) for i in range(count)]
    while playing:
        update = np.zeros_like(params)
        waiting: list[_Game] = []
        for game in playing:
            if _to_decision(game, tables, work):
                waiting.append(game)
            else:
                _finish(game, teams, settings, update, block)
        playing = waiting
        if waiting:
            _decide(waiting, search, settings, rng, update, block, work)
        net.params += update
    block.update = net.params - params
    return block


def train(
    tables: Tables,
    games: int,
    seed: int,
    settings: TDSettings | None = None,
    *,
    workers: int = 1,
) -> TrainResult:
    """Learn a :class:`ValueNet` from ``games`` games of self-play (module docs), in rounds
    of ``workers`` blocks (:func:`blocks`) played here one after the other; the result is
    the one ``splash train bash`` gives with the same seed, workers and games."""
    settings = settings or TDSettings()
    if games < 1:
        raise OptionError("games", games, message("must be a positive whole number"))
    fast = FastAfterstates(tables)
    net = initial_net(fast.encoding.size, seed, settings)
    search = Search(fast, net)
    result = TrainResult(net, 0, 0)
    while result.games < games:
        found = [
            play_block(search, net.params, seed, first, count, settings)
            for first, count in blocks(result.games, games, workers, settings)
        ]
        merge(net, found, result)
    return result


def merge(net: ValueNet, found: list[Block], result: TrainResult) -> None:
    """Add the blocks' updates to ``net`` in the order of the blocks, and count them."""
    for block in found:
        net.params += block.update
        result.games += block.games
        result.decisions += block.decisions
        result.errors += block.errors


def _finish(
    game: _Game, teams: int, settings: TDSettings, update: FloatArray, block: Block
) -> None:
    rewards = _rewards(game.G, teams)
    for team in range(teams):
        if not np.isnan(game.last[team]):
            error = rewards[team] - game.last[team]
            update += settings.alpha * error * game.traces[team]
            game.errors.append(abs(error))
    block.games += 1
    block.errors.append(float(np.mean(game.errors)) if game.errors else 0.0)


def _decide(  # noqa: PLR0917
    waiting: list[_Game],
    search: Search,
    settings: TDSettings,
    rng: np.random.Generator,
    update: FloatArray,
    block: Block,
    work: _Work,
) -> None:
    """One decision in each waiting game: the best ply-1 leaf (or a random one), its TD
    step, and its first action applied.  A leaf at the end is worth its reward and adds no
    gradient."""
    seats = np.array([k.to_act(game.G) for game in waiting], np.int64)
    leaves = search.leaves(np.stack([game.G for game in waiting]), seats)
    rows = leaves.best()
    for b in range(len(waiting)):
        if rng.random() < settings.epsilon:
            start, stop = int(leaves.offsets[b]), int(leaves.offsets[b + 1])
            rows[b] = start + int(rng.integers(stop - start))
    learned = leaves.stops[rows] != int(Stop.END)
    gradients = np.zeros((len(waiting), update.size), np.float64)
    if learned.any():
        gradients[learned] = search.net.gradients(leaves.features(rows[learned]))
    for b, game in enumerate(waiting):
        team = int(seats[b])
        value = float(leaves.values[rows[b]])
        if not np.isnan(game.last[team]):
            error = value - game.last[team]
            update += settings.alpha * error * game.traces[team]
            game.errors.append(abs(error))
        game.traces[team] = settings.lam * game.traces[team] + gradients[b]
        game.last[team] = value
        work.apply(search.fast.tables, game.G, int(leaves.first[rows[b]]))
        block.decisions += 1


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
