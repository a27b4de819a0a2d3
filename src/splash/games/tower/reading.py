"""Reading a ``splash/tower/1`` state document, every field checked.

A document that is not one is refused with a :class:`~splash.core.errors.DocumentError`
naming the field (``tower[3].support``) and the value found there; so is a document that
names a piece the game does not have, that puts a piece in two places or in none (T01), or
whose phase lacks what it needs (a ``result`` phase without the piece being placed, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from splash.core.actions import Action
from splash.core.documents import Field, check_format
from splash.core.errors import DocumentError, MalformedActionError
from splash.core.i18n import message
from splash.games.tower.places import piece_places, places_problem
from splash.games.tower.records import (
    PHASES,
    BoxedEvent,
    DropEvent,
    GiveEvent,
    Phase,
    PieceEvent,
    PlacementRecord,
    TowerEvent,
    TurnCapEvent,
    WinEvent,
)
from splash.games.tower.reports import piece_problem
from splash.games.tower.tower import Tower, TowerPiece
from splash.games.tower.view import STATE_KIND

if TYPE_CHECKING:
    from splash.games.tower.game import TowerGame
    from splash.games.tower.state import TowerState

EVENTS = (
    "take",
    "give",
    "stood",
    "fell",
    "spontaneous",
    "knocked",
    "drop",
    "returned",
    "base",
    "keep",
    "boxed",
    "win",
    "turn_cap",
)


def read_document(state: TowerState, doc: object) -> None:
    """Fill the bare ``state`` from ``doc``, a ``splash/tower/1`` document; raises
    :class:`DocumentError` when ``doc`` is not one, or not a state of ``state``'s game."""
    check_format(doc, STATE_KIND)
    read_state(state, doc)


def read_state(state: TowerState, doc: object) -> None:
    """Fill the bare ``state`` from ``doc`` (a document of the right format); raises
    :class:`DocumentError` when ``doc`` is not a state of ``state``'s game (module docs)."""
    game = state.tower_game
    root = Field.root(doc)
    seats = game.options.players - 1
    phase_field = root["phase"]
    found = phase_field.one_of(PHASES)
    phase: Phase = next(p for p in PHASES if p == found)
    reserves = root["reserves"]
    if len(reserves.as_list()) != game.options.players:
        reserves.fail(message("one reserve per seat is expected here"))
    state.phase = phase
    state.reserves = [_pieces(game, r) for r in reserves.as_list()]
    state.pile = _pieces(game, root["pile"])
    state.box = _pieces(game, root["box"])
    state.tower = _tower(game, root["tower"])
    drops = root["drops"]
    if len(drops.as_list()) != game.options.players:
        drops.fail(message("one count of drops per seat is expected here"))
    state.drops = [d.int_in(0, game.options.drop_supply) for d in drops.as_list()]
    state.giver = root["giver"].int_in(0, seats)
    state.gift = _optional_piece(game, root["gift"])
    state.gift_from = _optional_seat(root["gift_from"], seats)
    state.placement = _placement(root["placement"])
    state.placements = root["placements"].int_in(0, game.options.turn_cap)
    state.chooser = _optional_seat(root["chooser"], seats)
    state.table = tuple(_piece(game, item) for item in root["table"].as_list())
    state.candidates = tuple(_pieces(game, root["candidates"]))
    state.stacks = {base: tuple(_pieces(game, stack)) for base, stack in root["stacks"].members()}
    state.keep_left = root["keep_left"].int_in(0, game.options.take_back)
    state.drafted = root["drafted"].int_in(0, len(game.catalogue.piece_ids))
    winner = root["winner"]
    state.winner = None if winner.is_null() else winner.int_in(0, len(game.teams) - 1)
    state.events = [_event(item) for item in root["events"].as_list()]
    state._history = [_action(game, item) for item in root["history"].as_list()]
    _check_phase(state, root)
    _check_places(state, root)


def _piece_id(game: TowerGame, field: Field) -> str:
    piece = field.as_str()
    problem = piece_problem(game.catalogue, piece)
    if problem is not None:
        field.fail(problem)
    return piece


def _pieces(game: TowerGame, field: Field) -> list[str]:
    return [_piece_id(game, item) for item in field.as_list()]


def _optional_piece(game: TowerGame, field: Field) -> str | None:
    return None if field.is_null() else _piece_id(game, field)


def _optional_seat(field: Field, last: int) -> int | None:
    return None if field.is_null() else field.int_in(0, last)


def _piece(game: TowerGame, field: Field) -> TowerPiece:
    _piece_id(game, field["piece"])
    piece = TowerPiece.read(field)
    problem = piece_problem(game.catalogue, piece.piece, piece.face)
    if problem is not None:
        field["face"].fail(problem)
    return piece


def _tower(game: TowerGame, field: Field) -> Tower:
    tower = Tower(tuple(_piece(game, item) for item in field.as_list()))
    ids = tower.ids()
    for index, piece in enumerate(tower.pieces):
        if piece.support is not None and piece.support not in ids:
            field[index]["support"].fail(
                message(
                    "{piece} rests on {support}, which is not in the tower",
                    piece=piece.piece,
                    support=piece.support,
                )
            )
    if tower.pieces and sum(p.support is None for p in tower.pieces) != 1:
        field.fail(message("a tower stands on exactly one base"))
    return tower


def _placement(field: Field) -> PlacementRecord | None:
    if field.is_null():
        return None
    members = dict(field.members())
    if not members:
        return PlacementRecord()
    if sorted(members) != ["face", "rotation_deg", "x_mm", "y_mm"]:
        field.fail(message("a placement gives face, rotation_deg, x_mm and y_mm (or nothing)"))
    return PlacementRecord(
        face=members["face"].as_str(),
        rotation_deg=_number(members["rotation_deg"]),
        x_mm=_number(members["x_mm"]),
        y_mm=_number(members["y_mm"]),
    )


def _number(field: Field) -> float:
    """A finite number, kept as written (an integer stays one)."""
    number = field.as_float()
    return field.value if isinstance(field.value, int) else number


def _event(field: Field) -> TowerEvent:
    kind = field["event"].one_of(EVENTS)
    match kind:
        case "take" | "stood" | "fell" | "spontaneous" | "knocked" | "returned" | "base" | "keep":
            done: PieceEvent = {"event": kind, "seat": _int(field, "seat"), "piece": _str(field)}
            return done
        case "give":
            give: GiveEvent = {
                "event": kind,
                "seat": _int(field, "seat"),
                "piece": _str(field),
                "from": _int(field, "from"),
            }
            return give
        case "drop":
            drop: DropEvent = {
                "event": kind,
                "seat": _int(field, "seat"),
                "drops": _int(field, "drops"),
            }
            return drop
        case "boxed":
            boxed: BoxedEvent = {
                "event": kind,
                "pieces": [item.as_str() for item in field["pieces"].as_list()],
            }
            return boxed
        case "win":
            how = field["by"].one_of(("pieces", "drops"))
            win: WinEvent = {
                "event": kind,
                "seat": _int(field, "seat"),
                "team": _int(field, "team"),
                "by": "pieces" if how == "pieces" else "drops",
            }
            return win
        case _:
            cap: TurnCapEvent = {"event": "turn_cap"}
            return cap


def _int(field: Field, key: str) -> int:
    return field[key].as_int()


def _str(field: Field) -> str:
    return field["piece"].as_str()


def _action(game: TowerGame, field: Field) -> Action:
    try:
        return game.parse_action(field.value)
    except MalformedActionError as error:
        raise DocumentError(
            message("{path}: {problem}", path=field.where, problem=error.text),
            path=field.path,
            value=field.value,
        ) from None
    except RecursionError:
        raise DocumentError(
            message("{what} is nested too deeply", what=field.where), path=field.path
        ) from None


def _check_places(state: TowerState, root: Field) -> None:
    """T01: every piece of the game in exactly one place."""
    places = piece_places(
        pile=state.pile,
        reserves=state.reserves,
        gift=state.gift,
        tower=state.tower.ids(),
        table=[p.piece for p in state.table],
        box=state.box,
    )
    problem = places_problem(state.tower_game.catalogue.piece_ids, places)
    if problem is not None:
        root.fail(problem)
    # After the base is chosen (phase keep) the stacks and candidates still name its pieces.
    fallen = [p.piece for p in state.table] + list(state.tower.ids())
    for base, stack in state.stacks.items():
        for piece in (base, *stack):
            if piece not in fallen:
                root["stacks"].fail(
                    message("{piece} is in a standing stack but not on the table", piece=piece)
                )
        if not stack or stack[0] != base:
            root["stacks"].fail(message("a standing stack starts with a piece on the table"))
    # While the placer keeps pieces (T12), a candidate it kept is in its reserve.
    kept = {p for reserve in state.reserves for p in reserve} if state.phase == "keep" else set()
    for piece in state.candidates:
        if piece not in fallen and piece not in kept:
            root["candidates"].fail(
                message("{piece} is a candidate base but not on the table", piece=piece)
            )


def _check_phase(state: TowerState, root: Field) -> None:
    """What each phase needs: the piece in hand while it is placed, a chooser after a fall."""
    placing = state.phase in ("place", "result")
    needs = {
        "gift": placing,
        "gift_from": placing,
        "placement": state.phase == "result",
        "chooser": state.phase in ("base", "keep"),
    }
    values = {
        "gift": state.gift,
        "gift_from": state.gift_from,
        "placement": state.placement,
        "chooser": state.chooser,
    }
    for key, needed in needs.items():
        if needed and values[key] is None:
            root[key].fail(message("the phase {phase} needs a value here", phase=state.phase))
    if state.gift is not None and not (placing or state.phase == "over"):
        root["gift"].fail(message("a piece is in hand only while it is placed"))
    if state.phase == "base" and not state.candidates:
        root["candidates"].fail(message("the phase {phase} needs a value here", phase=state.phase))
