"""The static ruling of Splash! placements against the simulation: agreement and speed.

**Agreement.**  Plays Splash! games between random bots (seeds ``--seed``, ``--seed + 1``,
...; ``--players`` players, the default steadiness) in which the simulation rules every
placement; each placement is also ruled statically with the same tremor sample
(:func:`splash.physics.static_outcomes.rule_statically`), until ``--placements``
placements were compared.  Prints how often the two agree on the result (``stood``
against ``fell``; a ``spontaneous`` fall counts as a fall), the table of both results, and,
where both say ``fell``, how often they agree on which pieces fell.

**Speed.**  For centred towers of 5, 15 and 30 pieces (the last one being the placement
timed; the towers are built by the simulation), the median time of a static ruling and of
the simulation's quick ruling of the same placements with the same tremors, and their
ratio.  Runs on one core; times are the process's CPU time (``time.process_time``), so
that other work on a shared machine does not inflate them.

    python bench/tower_static.py [--placements 500] [--seed 0] [--players 4] [--repeats 15]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

import numpy as np  # noqa: E402

from centred_towers import timed_placements  # noqa: E402
from splash.bots.tower_random import RandomTowerBot  # noqa: E402
from splash.core.actions import Action  # noqa: E402
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes  # noqa: E402
from splash.core.play import play  # noqa: E402
from splash.core.protocol import State  # noqa: E402
from splash.games.tower import TowerState  # noqa: E402
from splash.games.tower.catalogue import load_catalogue  # noqa: E402
from splash.games.tower.rules import forced  # noqa: E402
from splash.physics.errors import PlacementError  # noqa: E402
from splash.physics.judge import Thresholds  # noqa: E402
from splash.physics.model import TowerModel  # noqa: E402
from splash.physics.outcome import RulingOutcome  # noqa: E402
from splash.physics.placement import Placement, Steadiness, Tremor  # noqa: E402
from splash.physics.poses import PieceRest  # noqa: E402
from splash.physics.provider import (  # noqa: E402
    outcome_document,
    physics_game,
    placement_of,
    rests_of,
    shared_model,
)
from splash.physics.ruling import RulingSettings, rule  # noqa: E402
from splash.physics.static_outcomes import rule_statically  # noqa: E402

HEIGHTS = (5, 15, 30)
HAND = Steadiness(position_mm=0.5, angle_deg=1.0, height_mm=0.5)


@dataclass
class Comparing:
    """An outcome provider of placements that rules each one both ways with one tremor
    and answers with the simulation's outcome; it stops the game (``StopIteration``) once
    ``limit`` placements were compared."""

    seed: int
    limit: int
    results: Counter[tuple[str, str]] = field(default_factory=Counter)
    same_fallen: int = 0
    both_fell: int = 0
    rolling: Counter[tuple[str, str]] = field(default_factory=Counter)
    times: dict[str, list[float]] = field(default_factory=lambda: {"sim": [], "static": []})

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)

    def outcome(self, state: State) -> Action:
        """The simulation's outcome of the placement ``state`` waits for."""
        assert isinstance(state, TowerState) and state.gift is not None
        if sum(self.results.values()) >= self.limit:
            raise StopIteration
        options = state.tower_game.options
        hand = options.steadiness_of(state.placer)
        tremor = Steadiness(hand.position_mm, hand.angle_deg, hand.height_mm).sample(self.rng)
        model = shared_model(state.tower_game.catalogue)
        settings = RulingSettings(
            thresholds=Thresholds(options.fall_distance_mm, options.fall_angle_deg)
        )
        tower, placement = rests_of(state), placement_of(state)
        is_forced = forced(state, state.gift)
        start = time.process_time()
        simulated = rule(model, tower, placement, tremor, settings, forced=is_forced)
        middle = time.process_time()
        static = rule_statically(model, tower, placement, tremor, forced=is_forced)
        end = time.process_time()
        self.times["sim"].append(middle - start)
        self.times["static"].append(end - middle)
        sim_result = "stood" if simulated.result == "stood" else "fell"
        self.results[sim_result, static.result] += 1
        if placement.face == "side" and placement.piece.endswith("-cylinder") and tower:
            self.rolling[sim_result, static.result] += 1
        if sim_result == static.result == "fell":
            self.both_fell += 1
            self.same_fallen += set(simulated.on_table) == set(static.on_table)
        doc = outcome_document(state, simulated)
        return state.game.parse_action({"kind": "result", "outcome": doc})


def agreement(placements: int, seed: int, players: int) -> tuple[Comparing, int]:
    """Compare ``placements`` placements of random games; the provider and the games
    played."""
    game = physics_game([("options.players", players)])
    comparing = Comparing(seed, placements)
    games = 0
    while sum(comparing.results.values()) < placements:
        children = np.random.SeedSequence(seed + games).spawn(2 + players)
        outcomes = RoutedOutcomes({"placement": comparing}, RandomOutcomes(children[1]))
        bots = [RandomTowerBot(children[2 + seat]) for seat in range(players)]
        games += 1
        try:
            play(game.new_initial_state(), bots, outcomes)
        except (StopIteration, PlacementError):
            continue
    return comparing, games


def speed(repeats: int, seed: int) -> None:
    """Print the median times of both rulings at each height of :data:`HEIGHTS`."""
    model = TowerModel(load_catalogue())
    rng = np.random.default_rng(seed)
    print("pieces  static median CPU (ms)  simulation median CPU (ms)  ratio")
    for height, tower, placement in timed_placements(model, HEIGHTS):
        tremors = [HAND.sample(rng) for _ in range(repeats)]
        static = _time(rule_statically, model, tower, placement, tremors)
        simulated = _time(rule, model, tower, placement, tremors)
        s, q = statistics.median(static), statistics.median(simulated)
        print(f"{height:6d}  {s * 1000:22.2f}  {q * 1000:26.2f}  {q / s:5.1f}x")


def _time(
    ruling: Callable[[TowerModel, list[PieceRest], Placement, Tremor], RulingOutcome],
    model: TowerModel,
    tower: list[PieceRest],
    placement: Placement,
    tremors: list[Tremor],
) -> list[float]:
    """Seconds of each ruling of ``placement`` with each tremor (after one untimed)."""
    ruling(model, tower, placement, tremors[0])
    times = []
    for tremor in tremors:
        start = time.process_time()
        ruling(model, tower, placement, tremor)
        times.append(time.process_time() - start)
    return times


def main() -> None:
    """Run both measures and print their figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--placements", type=int, default=500, help="placements compared")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--players", type=int, default=4, help="players (options.players)")
    parser.add_argument("--repeats", type=int, default=15, help="timed rulings per height")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    comparing, games = agreement(args.placements, args.seed, args.players)
    results = comparing.results
    total = sum(results.values())
    agree = results["stood", "stood"] + results["fell", "fell"]
    print(
        f"{total} placements of {games} random {args.players}-player games "
        f"(seeds {args.seed} to {args.seed + games - 1})"
    )
    print(f"agreement on the result   {agree}/{total} = {agree / total:.1%}")
    print("simulation \\ statics     stood    fell")
    for sim in ("stood", "fell"):
        print(f"{sim:23s}  {results[sim, 'stood']:6d}  {results[sim, 'fell']:6d}")
    rolling = comparing.rolling
    lying = sum(rolling.values())
    if lying:
        same = rolling["stood", "stood"] + rolling["fell", "fell"]
        print(
            f"  of which cylinders laid on their side on a piece: {lying}, agreement {same}, "
            f"the simulation kept {rolling['stood', 'stood'] + rolling['stood', 'fell']} up"
        )
    if comparing.both_fell:
        print(
            f"same pieces fell          {comparing.same_fallen}/{comparing.both_fell} "
            "of the placements both call a fall"
        )
    sim_ms = statistics.median(comparing.times["sim"]) * 1000
    static_ms = statistics.median(comparing.times["static"]) * 1000
    print(
        f"median CPU per ruling in these games: static {static_ms:.2f} ms, "
        f"simulation {sim_ms:.2f} ms, ratio {sim_ms / static_ms:.1f}x"
    )
    speed(args.repeats, args.seed)


if __name__ == "__main__":
    main()
