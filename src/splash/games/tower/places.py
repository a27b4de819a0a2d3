"""Where every piece is (T01): each piece of the catalogue in exactly one place.

The places are the pile (before the draft is over), a reserve, the hand (the piece given and
not yet placed), the tower, the table (after a fall) and the box.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from splash.core.i18n import Message, message

PILE, HAND, TOWER, TABLE, BOX = (
    message("the pile"),
    message("the hand"),
    message("the tower"),
    message("the table"),
    message("the box"),
)


def piece_places(
    *,
    pile: Iterable[str],
    reserves: Sequence[Iterable[str]],
    gift: str | None,
    tower: Iterable[str],
    table: Iterable[str],
    box: Iterable[str],
) -> dict[str, list[Message]]:
    """Every piece named, with each place it is named in."""
    places: dict[str, list[Message]] = {}
    named: list[tuple[Message, Iterable[str]]] = [
        (PILE, pile),
        *(
            (message("the reserve of seat {seat}", seat=seat), reserve)
            for seat, reserve in enumerate(reserves)
        ),
        (HAND, [gift] if gift is not None else []),
        (TOWER, tower),
        (TABLE, table),
        (BOX, box),
    ]
    for place, pieces in named:
        for piece in pieces:
            places.setdefault(piece, []).append(place)
    return places


def places_problem(
    pieces: Sequence[str], places: dict[str, list[Message]], *, all_named: bool = True
) -> Message | None:
    """Why ``places`` (from :func:`piece_places`) breaks T01 for the game's ``pieces``: a
    piece that is no piece of the game, in two places, or (``all_named``) in none."""
    for piece, where in places.items():
        if piece not in pieces:
            return message("{piece} is not a piece of this game", piece=piece)
        if len(where) > 1 and where[0] == where[1]:
            return message("{piece} is twice in {place} (T01)", piece=piece, place=where[0])
        if len(where) > 1:
            return message(
                "{piece} is in two places: {first} and {second} (T01)",
                piece=piece,
                first=where[0],
                second=where[1],
            )
    for piece in pieces if all_named else ():
        if piece not in places:
            return message(
                "{piece} is nowhere: not in the pile, a reserve, the hand, the tower,"
                " the table or the box (T01)",
                piece=piece,
            )
    return None
