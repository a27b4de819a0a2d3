"""Seeded Splash! playouts with reported outcomes, and the piece count of T01 on documents.

The count reads the JSON documents the engine gives out (never the engine's own lists): the
pile, every reserve, the gift in hand, the tower, the table and the box.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from splash.core import CHANCE, Action, GameRecord, RandomOutcomes, State
from splash.core.actions import Json
from splash.core.outcomes import OutcomeProvider, RefereeOutcomes
from splash.core.protocol import ChanceEvent
from splash.games.tower import TowerGame, TowerState, referee, rules
from splash.games.tower.scenario import position


def piece_names(doc: Mapping[str, object]) -> list[str]:
    """Every piece named in the places of a state or view document, as often as named."""
    names: list[str] = []
    for key in ("pile", "box"):
        names += _strings(doc[key])
    reserves = doc["reserves"]
    assert isinstance(reserves, list)
    for reserve in reserves:
        names += _strings(reserve)
    if doc["gift"] is not None:
        names.append(str(doc["gift"]))
    for key in ("tower", "table"):
        records = doc[key]
        assert isinstance(records, list)
        names += [str(record["piece"]) for record in records]
    return names


def _strings(value: object) -> list[str]:
    assert isinstance(value, list)
    return [str(item) for item in value]


def assert_every_piece_once(doc: Mapping[str, object], pieces: Sequence[str], what: str) -> None:
    """T01 on ``doc``: each of ``pieces`` exactly once, nothing else."""
    names = piece_names(doc)
    if sorted(names) != sorted(pieces):
        count = Counter(names)
        wrong = {p: n for p, n in count.items() if n != 1 or p not in pieces}
        missing = [p for p in pieces if p not in count]
        raise AssertionError(f"{what}: twice or unknown {wrong}, missing {missing}")


def check_views(state: TowerState, what: str) -> None:
    """T01 on every seat's view."""
    pieces = state.tower_game.catalogue.piece_ids
    for seat in range(state.players):
        assert_every_piece_once(state.view(seat), pieces, f"{what}: view({seat})")


def check_documents(state: TowerState, what: str) -> None:
    """T01 on the state's document and on every seat's view."""
    assert_every_piece_once(
        state.to_json(), state.tower_game.catalogue.piece_ids, f"{what}: to_json"
    )
    check_views(state, what)


def check_saved(state: TowerState, rng: np.random.Generator, what: str) -> None:
    """T01 on the saved game (the record, written and read back as JSON, replayed to the
    end and to a random step) and on the state document read back."""
    game = state.tower_game
    pieces = game.catalogue.piece_ids
    record = GameRecord.from_json(json.loads(json.dumps(GameRecord.of(state).to_json())))
    replayed = record.replay(game)
    assert replayed.to_json() == state.to_json(), what
    step = int(rng.integers(len(record.actions) + 1))
    partial = record.replay(game, step)
    assert isinstance(partial, TowerState)
    check_documents(partial, f"{what}: replayed to step {step}")
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state, what
    assert_every_piece_once(again.to_json(), pieces, f"{what}: read back")


def _descendants(
    stack: list[str],
    rested: Mapping[str, str | None],
    order: Sequence[str],
    rng: np.random.Generator,
    keep: float,
) -> list[str]:
    """``stack`` (its base) grown with the pieces that rested on it, each kept with
    probability ``keep`` (a piece is kept only with its support)."""
    for piece in order:
        if piece not in stack and rested.get(piece) in stack and rng.random() < keep:
            stack.append(piece)
    return stack


def random_fall(
    state: TowerState, rng: np.random.Generator, *, with_gift: bool
) -> tuple[list[list[str]], list[str]]:
    """Standing stacks that people could see after a fall — the base with some of what it
    carried, and now and then a part that landed upright elsewhere — and the rest lying."""
    rested: dict[str, str | None] = {p.piece: p.support for p in state.tower.pieces}
    order = list(state.tower.ids())
    if with_gift and state.gift is not None:
        target = rules.target_of(state, state.gift)
        rested[state.gift] = target.piece if target is not None else None
        order.append(state.gift)
    stacks: list[list[str]] = []
    if order and rng.random() < 0.7:
        stacks.append(_descendants([order[0]], rested, order, rng, 0.8))
    while rng.random() < 0.3:
        free = [p for p in order if not any(p in s for s in stacks)]
        if not free:
            break
        root = free[int(rng.integers(len(free)))]
        stacks.append(_descendants([root], rested, free, rng, 0.6))
    standing = {p for s in stacks for p in s}
    if len(standing) == len(order) and stacks and len(stacks[0]) == len(order):
        stacks[0].pop()  # something fell: the last piece lies on the table
        stacks = [s for s in stacks if s]
        standing = {p for s in stacks for p in s}
    lying = [p for p in order if p not in standing]
    rng.shuffle(lying)
    return stacks, lying


def random_report(
    state: State, event: ChanceEvent, possible: list[Action], rng: np.random.Generator
) -> Action:
    """What people at the table might report of a placement."""
    assert isinstance(state, TowerState) and state.gift is not None
    draw = rng.random()
    if draw < 0.8 or (not state.tower.pieces and draw < 0.9):
        return referee.stood(state, room_left=bool(rng.random() < 0.3))
    if draw < 0.94:
        return referee.fell(state, *random_fall(state, rng, with_gift=True))
    if draw < 0.97 and state.tower.pieces:
        return referee.spontaneous(state)
    if state.tower.pieces:
        knocker = int(rng.integers(state.players))
        return referee.knocked(state, knocker, *random_fall(state, rng, with_gift=False))
    return referee.stood(state)


def reported_outcomes(seed: int) -> OutcomeProvider:
    """People's reports of placements (through the referee provider), a seeded deal."""
    rng = np.random.default_rng([seed, 1])

    def ask(state: State, event: ChanceEvent, possible: list[Action]) -> Action:
        return random_report(state, event, possible, rng)

    return RefereeOutcomes(ask, delegate={"deal": RandomOutcomes(seed)})


def placing(
    game: TowerGame,
    tower: str = "red-prism red-beam",
    covered: str = "",
    pose: Mapping[str, Json] | None = None,
) -> TowerState:
    """red-cube given by seat 0 and placed by seat 1 (with ``pose``, or by hand) on a
    ``tower`` (:func:`~splash.games.tower.scenario.position`), its outcome awaited."""
    state = position(
        game, reserves={0: "red-cube blue-cube", 1: "green-beam"}, tower=tower, covered=covered
    )
    state.apply({"kind": "give", "piece": "red-cube"})
    state.apply({"kind": "place", **(pose or {})})
    return state


def random_placement(state: TowerState, rng: np.random.Generator) -> Action:
    """A placement by hand, or now and then with a face of the gift chosen (TD13)."""
    if state.gift is None or rng.random() < 0.5:
        return state.game.parse_action({"kind": "place"})
    faces = list(state.tower_game.catalogue.shape_of(state.gift).faces)
    face = faces[int(rng.integers(len(faces)))]
    return state.game.parse_action(
        {"kind": "place", "face": face, "rotation_deg": 0.0, "x_mm": 0.0, "y_mm": 0.0}
    )


def play_checked(
    game: TowerGame,
    seed: int,
    outcomes: OutcomeProvider,
    check: Callable[[TowerState, str], None],
    decide: Callable[[TowerState, np.random.Generator], Action] | None = None,
) -> TowerState:
    """A seeded game to its end, ``check`` after every action."""
    rng = np.random.default_rng([seed, 0])
    state = game.new_initial_state()
    check(state, f"seed {seed}, start")
    while not state.is_terminal():
        if state.to_act() == CHANCE:
            action = outcomes.outcome(state)
        elif decide is not None:
            action = decide(state, rng)
        elif state.phase == "place":
            action = random_placement(state, rng)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        state.apply(action)
        check(state, f"seed {seed}, action {len(state.history)} ({action.kind})")
    return state
