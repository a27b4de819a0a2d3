"""Where every piece is (T01): each piece of the catalogue in exactly one place.

The places are the pile (before the draft is over), a reserve, the hand (the piece given and
not yet placed), the tower, the table (after a fall) and the box.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from splash.core.i18n import Message, message


def piece_places(
    *,
    pile: Iterable[str],
    reserves: Sequence[Iterable[str]],
    gift: str | None,
    tower: Iterable[str],
    table: Iterable[str],
    box: Iterable[str],
) -> dict[str, list[str]]:
    """Every piece named, with each place it is named in (``reserve 2`` for seat 2's)."""
    places: dict[str, list[str]] = {}
    named: list[tuple[str, Iterable[str]]] = [
        ("pile", pile),
        *((f"reserve {seat}", reserve) for seat, reserve in enumerate(reserves)),
        ("hand", [gift] if gift is not None else []),
        ("tower", tower),
        ("table", table),
        ("box", box),
    ]
    for place, pieces in named:
        for piece in pieces:
            places.setdefault(piece, []).append(place)
    return places


def places_problem(pieces: Sequence[str], places: dict[str, list[str]]) -> Message | None:
    """Why ``places`` (from :func:`piece_places`) breaks T01 for the game's ``pieces``: a
    piece that is no piece of the game, in two places, or in none."""
    for piece, where in places.items():
        if piece not in pieces:
            return message("{piece} is not a piece of this game", piece=piece)
        if len(where) > 1:
            return message(
                "{piece} is in two places: {places} (T01)", piece=piece, places=", ".join(where)
            )
    for piece in pieces:
        if piece not in places:
            return message(
                "{piece} is nowhere: not in the pile, a reserve, the hand, the tower,"
                " the table or the box (T01)",
                piece=piece,
            )
    return None
