"""Reading what people type in a refereed Splash! game: pieces, stacks, seats, yes or no.

A piece is named by its id (``red-cube``) or by its colour and shape words (``red cube``,
``Cube Red``), in any case.  A list of pieces is separated by spaces or commas; a list of
stacks by ``;``.  Every function raises :class:`~splash.cli.choices.EntryError` saying what
was wrong and what is accepted; nothing is applied here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from splash.cli.choices import EntryError, normalise
from splash.cli.tower_view import pieces_text, seat_name
from splash.core.i18n import Message, message
from splash.games.tower import TowerState, rules
from splash.games.tower.catalogue import Catalogue

YES = frozenset({"y", "yes", "o", "oui", "a", "ano", "s", "si", "sì"})
NO = frozenset({"n", "no", "non", "ne"})
NONE_WORDS = frozenset({"none", "nothing", "-", "0"})
RESULT_WORDS: Mapping[str, str] = {
    "stood": "stood",
    "stands": "stood",
    "stand": "stood",
    "fell": "fell",
    "fall": "fell",
    "fallen": "fell",
    "splash": "fell",
    "spontaneous": "spontaneous",
    "knocked": "knocked",
    "knock": "knocked",
}
"""What people may type for each outcome of a placement (TD08)."""


def parse_result(entry: str) -> str:
    """The outcome ``entry`` names: ``stood``, ``fell``, ``spontaneous`` or ``knocked``."""
    result = RESULT_WORDS.get(normalise(entry))
    if result is None:
        raise EntryError(
            entry,
            message(
                "type stood, fell, spontaneous (it fell by itself, T17) or knocked (someone"
                " knocked it over, T18)"
            ),
        )
    return result


def piece_names(catalogue: Catalogue) -> dict[str, str]:
    """Every typed form of every piece (normalised) and the piece id it names."""
    names: dict[str, str] = {}
    for piece in catalogue.pieces:
        names[normalise(piece.id)] = piece.id
        names[normalise(f"{piece.colour} {piece.shape}")] = piece.id
        names[normalise(f"{piece.shape} {piece.colour}")] = piece.id
    return names


def _unknown(entry: str, words: str) -> EntryError:
    return EntryError(
        entry,
        message(
            "{words!r} names no piece: type an id such as red-cube, or a colour and a shape"
            " such as red cube",
            words=words,
        ),
    )


def parse_pieces(catalogue: Catalogue, entry: str) -> list[str]:
    """The pieces ``entry`` names, in order (``red-prism red beam, yellow-cube``)."""
    names = piece_names(catalogue)
    longest = max(len(name.split()) for name in names)
    words = normalise(entry.replace(",", " ")).split()
    found: list[str] = []
    start = 0
    while start < len(words):
        for end in range(min(len(words), start + longest), start, -1):
            piece = names.get(" ".join(words[start:end]))
            if piece is not None:
                found.append(piece)
                start = end
                break
        else:
            raise _unknown(entry, " ".join(words[start : start + 2]))
    return found


def parse_piece(catalogue: Catalogue, entry: str) -> str:
    """The one piece ``entry`` names."""
    pieces = parse_pieces(catalogue, entry)
    if len(pieces) != 1:
        if not pieces:
            raise _unknown(entry, entry)
        raise EntryError(
            entry,
            message("type one piece, such as red-cube; this names {count}", count=len(pieces)),
        )
    return pieces[0]


def parse_yes_no(entry: str) -> bool:
    """``y``/``yes`` or ``n``/``no`` (and their French, Czech and Italian words)."""
    text = normalise(entry)
    if text in YES:
        return True
    if text in NO:
        return False
    raise EntryError(entry, message("type y (yes) or n (no)"))


def parse_seat(entry: str, players: int) -> int:
    """A seat number from 0 to ``players - 1`` (``2`` or ``seat 2``)."""
    text = normalise(entry).removeprefix("seat ").strip()
    if text.isdigit() and int(text) < players:
        return int(text)
    raise EntryError(entry, message("type a seat number from 0 to {last}", last=players - 1))


def parse_stacks(entry: str, catalogue: Catalogue) -> list[list[str]]:
    """Stacks, each base first, separated by ``;`` (``none`` for no stack)."""
    if normalise(entry) in NONE_WORDS:
        return []
    stacks = [parse_pieces(catalogue, part) for part in re.split(r"[;|]", entry)]
    return [stack for stack in stacks if stack]


# ----- where a piece is, and why it may not be used ----------------------------------------


def where_is(state: TowerState, piece: str) -> Message:
    """Where ``piece`` lies now: ``it is in the tower``, ``it is in seat 2's reserve``..."""
    for seat, reserve in enumerate(state.reserves):
        if piece in reserve:
            return message("it is in {seat}'s reserve", seat=seat_name(seat))
    if piece in state.tower:
        return message("it is in the tower")
    if piece == state.gift:
        return message("it is the piece being placed")
    if any(p.piece == piece for p in state.table):
        return message("it lies on the table")
    if piece in state.pile:
        return message("it is still in the pile")
    return message("it is in the box")


def pile_problem(state: TowerState, piece: str) -> Message | None:
    """Why ``piece`` cannot be taken from the pile now (draft or deal)."""
    if piece in state.pile:
        return None
    return message("{piece} is not in the pile: {where}", piece=piece, where=where_is(state, piece))


def gift_problem(state: TowerState, piece: str) -> Message | None:
    """Why the giver may not give ``piece`` (T07, T08, TD05); ``None`` when they may."""
    legal = rules.legal_gifts(state)
    if piece in legal:
        return None
    gifts = ", ".join(legal)
    owner = next((s for s, r in enumerate(state.reserves) if piece in r), None)
    giver = state.giver
    if owner is None:
        return message(
            "{piece} cannot be given: {where}; legal gifts: {gifts}",
            piece=piece,
            where=where_is(state, piece),
            gifts=gifts,
        )
    if owner != giver and any(p in legal for p in state.reserves[giver]):
        return message(
            "{piece} is in {owner}'s reserve, but {giver} holds a playable piece and gives one"
            " of their own (T07, T08); legal gifts: {gifts}",
            piece=piece,
            owner=seat_name(owner),
            giver=seat_name(giver),
            gifts=gifts,
        )
    if not rules.placeable(state, piece):
        tolerance = state.tower_game.options.height_tolerance_mm
        top = state.tower.top(tolerance)
        if state.tower_game.options.placement == "top" and top is not None:
            return message(
                "{piece} has neither the shape nor the colour of the top piece {top} (T05, T07);"
                " legal gifts: {gifts}",
                piece=piece,
                top=top.piece,
                gifts=gifts,
            )
        return message(
            "{piece} has the shape or the colour of no uncovered piece of the tower (T07);"
            " legal gifts: {gifts}",
            piece=piece,
            gifts=gifts,
        )
    return message("{piece} cannot be given now; legal gifts: {gifts}", piece=piece, gifts=gifts)


def check_stacks(
    state: TowerState, stacks: Sequence[Sequence[str]], *, with_gift: bool
) -> Message | None:
    """What is wrong with the standing ``stacks`` reported after a fall (or a knock, without
    the piece being placed); ``None`` when each names pieces of the tower, once, base first."""
    allowed = [*state.tower.ids(), *([state.gift] if with_gift and state.gift else [])]
    supports: dict[str, str | None] = {p.piece: p.support for p in state.tower.pieces}
    if with_gift and state.gift is not None:
        target = rules.target_of(state, state.gift)
        supports[state.gift] = target.piece if target is not None else None
    seen: set[str] = set()
    for stack in stacks:
        for index, piece in enumerate(stack):
            if piece not in allowed:
                if piece == state.gift:
                    return message(
                        "{piece} was being passed and goes back to {seat}'s reserve; the tower"
                        " holds: {pieces}",
                        piece=piece,
                        seat=seat_name(state.gift_from if state.gift_from is not None else 0),
                        pieces=pieces_text(allowed),
                    )
                return message(
                    "{piece} is not in the tower; name pieces among: {pieces}",
                    piece=piece,
                    pieces=pieces_text(allowed),
                )
            if piece in seen:
                return message("{piece} is named twice", piece=piece)
            seen.add(piece)
            if index and supports[piece] not in stack[:index]:
                return message(
                    "{piece} did not rest on a piece below it in this stack (it rested on"
                    " {support}): name each stack base first, with the pieces that still rest"
                    " on it",
                    piece=piece,
                    support=supports[piece] or message("the table"),
                )
    return None


def stacks_text(stacks: Sequence[Sequence[str]]) -> str:
    """``red-prism red-beam; yellow-cube``, or ``none``."""
    return "; ".join(" ".join(stack) for stack in stacks) or message("none").render()


def parse_base(catalogue: Catalogue, entry: str, candidates: Sequence[str]) -> str:
    """The new base ``entry`` names, one of the ``candidates`` (T11)."""
    piece = parse_piece(catalogue, entry)
    if piece not in candidates:
        raise EntryError(
            entry,
            message(
                "{piece} cannot be the new base; the candidates are: {candidates} (T11)",
                piece=piece,
                candidates=", ".join(candidates),
            ),
        )
    return piece


def parse_take_back(
    catalogue: Catalogue, entry: str, table: Sequence[str], count: int
) -> list[str]:
    """Exactly ``count`` different pieces of those left on the ``table`` (T12)."""
    pieces = parse_pieces(catalogue, entry)
    for piece in pieces:
        if piece not in table:
            raise EntryError(
                entry,
                message(
                    "{piece} is not on the table; the pieces left there are: {pieces}",
                    piece=piece,
                    pieces=pieces_text(table),
                ),
            )
    if len(set(pieces)) != len(pieces) or len(pieces) != count:
        raise EntryError(
            entry,
            message(
                "take back exactly {count} different pieces of: {pieces}",
                count=count,
                pieces=pieces_text(table),
            ),
        )
    return pieces
