"""Time the placement map of Splash! in random 6-player games, and check it against T06.

On one core, plays ``--games`` games (seeds ``--seed``, ``--seed + 1``, ...) of six random
bots with the physics ruling every placement (as ``tower_game.py`` does); at every placement
it computes the placer's map (:func:`splash.physics.placement_map.placement_map`) and times
it, then checks ``--samples`` poses drawn uniformly over the +-60 mm square and over every
face and turn of the map with the server's T06 check (``PoseProbe.check``): a pose inside the
safe region must pass, one farther than 0.25 mm outside the T06 region must fail, one in the
band between may do either.

It also times the maps of ``--tall`` placements of the stored corpus on 25 to 30 pieces
(``tower_corpus.py``).  The last line is
``maps=N empty=K forced=F map_p95_ms=P agree=A/B band=C``: ``N`` placements, ``K`` of them
not forced whose safe regions are all empty, ``F`` forced (no map needed), ``P`` the 95th
percentile of the CPU time of one map (not forced) in ms, ``A`` of the ``B`` sampled poses
outside the band agreeing with the check, ``C`` in the band.  The maps are also timed with
``confirm=False`` (the steadiest poses' margins from the search, not the static ruling).

    python bench/tower_map.py [--games 20] [--seed 0] [--samples 10] [--tall 30]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

import numpy as np  # noqa: E402
import shapely  # noqa: E402

from splash.bots.tower_random import RandomTowerBot  # noqa: E402
from splash.core.outcomes import RandomOutcomes, RoutedOutcomes  # noqa: E402
from splash.games.tower import TowerState  # noqa: E402
from splash.games.tower.catalogue import load_catalogue  # noqa: E402
from splash.games.tower.rules import forced, target_of  # noqa: E402
from splash.physics.errors import PlacementError, PlacementRefusedError  # noqa: E402
from splash.physics.model import TowerModel  # noqa: E402
from splash.physics.placement import Placement, PoseProbe  # noqa: E402
from splash.physics.placement_map import SAFE_MM, PlacementMap, as_geometry, placement_map  # noqa: E402
from splash.physics.poses import TABLE, PieceRest  # noqa: E402
from splash.physics.provider import PhysicsOutcomes, physics_game, rests_of  # noqa: E402

LIMIT_MM = 60.0


@dataclass
class Figures:
    """What the games gave: map times by shape, counts, and the checked poses."""

    cpu_ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    wall_ms: list[float] = field(default_factory=list)
    unconfirmed_ms: list[float] = field(default_factory=list)
    maps: int = 0
    empty: int = 0
    forced: int = 0
    agree: int = 0
    decisive: int = 0
    band: int = 0
    inside: int = 0
    wrong: list[str] = field(default_factory=list)
    heights: Counter[int] = field(default_factory=Counter)


def timed_map(
    model: TowerModel, tower: Sequence[PieceRest], piece: str, target: str, *, confirm: bool = True
) -> tuple[PlacementMap, float, float]:
    """The map and its CPU and wall times in ms."""
    cpu, wall = time.process_time(), time.perf_counter()
    found = placement_map(model, tower, piece, target, confirm=confirm)
    return found, (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000


def check(
    model: TowerModel,
    tower: Sequence[PieceRest],
    found: PlacementMap,
    piece: str,
    *,
    rng: np.random.Generator,
    samples: int,
    figures: Figures,
) -> None:
    """Check ``samples`` poses drawn uniformly over the square and the map's cells."""
    cells = [(f, t, c) for f, turns in found.faces.items() for t, c in turns.items()]
    probe = PoseProbe(model, tower)
    shapes: dict[tuple[str, int], tuple[object, object]] = {}
    for _ in range(samples):
        face, turn, cell = cells[int(rng.integers(len(cells)))]
        if (face, turn) not in shapes:
            shapes[(face, turn)] = (as_geometry(cell.safe), as_geometry(cell.region))
        safe, region = shapes[(face, turn)]
        x, y = (float(v) for v in rng.uniform(-LIMIT_MM, LIMIT_MM, 2))
        inside = bool(shapely.contains_xy(safe, x, y))
        outside = (
            bool(shapely.is_empty(region))
            or float(shapely.distance(region, shapely.Point(x, y))) > SAFE_MM
        )
        if not inside and not outside:
            figures.band += 1
            continue
        placement = Placement(piece, face, float(turn), (x / 1000, y / 1000), found.target)
        try:
            probe.check(placement)
            passed = True
        except PlacementRefusedError:
            passed = False
        figures.decisive += 1
        figures.inside += inside
        if passed == inside:
            figures.agree += 1
        else:
            side = "inside the safe region" if inside else "outside the T06 region"
            figures.wrong.append(f"{placement} ({side}), tower of {len(tower)}")


def one_game(game_seed: int, model: TowerModel, samples: int, figures: Figures) -> None:
    """Play one game, mapping and checking every placement."""
    game = physics_game([("options.players", 6)])
    children = np.random.SeedSequence(game_seed).spawn(3 + game.num_seats)
    outcomes = RoutedOutcomes(
        {"placement": PhysicsOutcomes(children[0])}, RandomOutcomes(children[1])
    )
    rng = np.random.default_rng(children[2])
    bots = [RandomTowerBot(children[3 + seat]) for seat in range(game.num_seats)]
    state = game.new_initial_state()
    try:
        while not state.is_terminal():
            if isinstance(state, TowerState) and state.phase == "place" and state.gift:
                place(state, model, rng, samples, figures)
            if state.is_chance():
                state.apply(outcomes.outcome(state))
            else:
                state.apply(bots[state.to_act()].act(state))
    except PlacementError:
        pass


def place(
    state: TowerState, model: TowerModel, rng: np.random.Generator, samples: int, figures: Figures
) -> None:
    """Map and check the placement ``state`` waits for."""
    assert state.gift is not None
    figures.maps += 1
    if forced(state, state.gift):
        figures.forced += 1
        return
    tower = rests_of(state)
    found_target = target_of(state, state.gift)
    target = TABLE if found_target is None else found_target.piece
    found, cpu, wall = timed_map(model, tower, state.gift, target)
    figures.cpu_ms[model.catalogue.piece(state.gift).shape].append(cpu)
    figures.wall_ms.append(wall)
    figures.unconfirmed_ms.append(timed_map(model, tower, state.gift, target, confirm=False)[1])
    figures.heights[len(tower)] += 1
    if not any(cell.safe for turns in found.faces.values() for cell in turns.values()):
        figures.empty += 1
    check(model, tower, found, state.gift, rng=rng, samples=samples, figures=figures)


def tall(model: TowerModel, count: int, seed: int) -> tuple[list[float], list[float]]:
    """CPU times (ms) of the maps of ``count`` corpus placements on 25 to 30 pieces, with
    and without the static ruling's confirmation of the steadiest poses."""
    from tower_corpus import load

    records = [r for r in load() if 25 <= len(r.tower) + 1 <= 30]
    rng = np.random.default_rng(seed)
    chosen = rng.choice(len(records), size=min(count, len(records)), replace=False)
    times, unconfirmed = [], []
    for index in chosen:
        record = records[int(index)]
        placement = record.placement
        _, cpu, _ = timed_map(model, record.tower, placement.piece, placement.target)
        times.append(cpu)
        args = (model, record.tower, placement.piece, placement.target)
        unconfirmed.append(timed_map(*args, confirm=False)[1])
    return times, unconfirmed


def main() -> None:
    """Run the benchmark and print its figures, the summary line last."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="6-player random games")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--samples", type=int, default=10, help="poses checked per map")
    parser.add_argument("--tall", type=int, default=30, help="corpus maps on 25-30 pieces")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    model = TowerModel(load_catalogue())
    placement_map(model, [], "red-arch", TABLE)
    figures = Figures()
    start = time.perf_counter()
    for index in range(args.games):
        one_game(args.seed + index, model, args.samples, figures)
    seconds = time.perf_counter() - start
    cpu = np.array([t for times in figures.cpu_ms.values() for t in times])
    print(
        f"{args.games} games of 6 random players, seeds {args.seed} to "
        f"{args.seed + args.games - 1}, one core, {seconds:.0f} s"
    )
    print(
        f"maps (not forced)      {len(cpu):6d}  towers of {min(figures.heights)} to "
        f"{max(figures.heights)} pieces (median {int(np.median(list(figures.heights.elements())))})"
    )
    print(
        f"map CPU ms             median {np.median(cpu):6.1f}  p95 {np.percentile(cpu, 95):6.1f}"
        f"  max {cpu.max():6.1f}"
    )
    wall = np.array(figures.wall_ms)
    print(
        f"map wall ms            median {np.median(wall):6.1f}  p95 {np.percentile(wall, 95):6.1f}"
        f"  max {wall.max():6.1f}"
    )
    fast = np.array(figures.unconfirmed_ms)
    print(
        f"  not confirmed        median {np.median(fast):6.1f}  p95 {np.percentile(fast, 95):6.1f}"
        f"  max {fast.max():6.1f}  (steadiest margins from the search, confirm=False)"
    )
    for shape, times in sorted(figures.cpu_ms.items()):
        print(
            f"  {shape:10s} {len(times):4d} maps  median {np.median(times):6.1f}"
            f"  p95 {np.percentile(times, 95):6.1f} ms"
        )
    if args.tall:
        confirmed, unconfirmed = (np.array(t) for t in tall(model, args.tall, args.seed))
        print(
            f"corpus, 25-30 pieces   {len(confirmed):6d} maps  median "
            f"{np.median(confirmed):6.1f}  p95 {np.percentile(confirmed, 95):6.1f}  max "
            f"{confirmed.max():6.1f} ms CPU"
        )
        print(
            f"  not confirmed        median {np.median(unconfirmed):6.1f}  p95 "
            f"{np.percentile(unconfirmed, 95):6.1f}  max {unconfirmed.max():6.1f}"
        )
    print(
        f"poses checked          {figures.decisive + figures.band:6d}  ({figures.inside} inside "
        f"safe regions, {figures.band} in the band)"
    )
    for line in figures.wrong[:10]:
        print(f"  disagrees: {line}")
    print(
        f"maps={figures.maps} empty={figures.empty} forced={figures.forced} "
        f"map_p95_ms={np.percentile(cpu, 95):.1f} agree={figures.agree}/{figures.decisive} "
        f"band={figures.band}"
    )


if __name__ == "__main__":
    main()
