"""What the outcome of a placement may say of the position it follows (TD04, TD07, TD08, T11).

An outcome names pieces of the game, each once, on faces of its shape (the numbers it gives
are checked when it is read: :mod:`splash.games.tower.tower`), and accounts for exactly the
pieces of the tower and the placed piece (without it for a knocked tower, with no pieces for
a tower that fell by itself).  Beyond that:

- **stood**: the pieces already standing stay where they were — listed as before, base
  first, on the same supports and faces, with the same heights, poses and free tops — and the
  placed piece comes last, on its target.  Only the target's free top may change (TD04).
  An outcome that measures the settled tower (the physics: a pose for every piece, before
  and after) may give measured heights, poses and free tops: the tower may slide a little
  without falling (TD07); supports, faces and order still never change.
- **fell** and **knocked**: every standing stack is a part of the tower as it was, named
  base first: its base stands on the table, and every other piece rests on the piece it
  rested on before (the placed piece on its target), with the same face.  The stack of the
  tower's own base did not move: its pieces keep heights and poses too (unless measured, as
  above).  A stack that fell as a whole and landed upright elsewhere keeps its supports and
  faces above its base.  Every other piece lies on the table, with no support.  An outcome in
  which every piece still stands where it was is not a fall.

Each problem is a :class:`Message` that names the piece and says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from splash.core.i18n import Message, message
from splash.games.tower import rules
from splash.games.tower.catalogue import Catalogue
from splash.games.tower.outcome import PlacementOutcome
from splash.games.tower.tower import TABLE, TowerPiece

if TYPE_CHECKING:
    from splash.games.tower.state import TowerState


def piece_problem(catalogue: Catalogue, piece: str, face: str | None = None) -> Message | None:
    """Why ``piece`` (resting on ``face``, when given) is no piece of this game."""
    if piece not in catalogue.piece_ids:
        return message("{piece} is not a piece of this game", piece=piece)
    faces = catalogue.shape_of(piece).faces
    if face is not None and face not in faces:
        return message(
            "{piece} has no face {face!r} (faces: {faces})",
            piece=piece,
            face=face,
            faces=", ".join(faces),
        )
    return None


def first_repeat(pieces: Sequence[str]) -> str | None:
    """The first piece named a second time in ``pieces``."""
    seen: set[str] = set()
    for piece in pieces:
        if piece in seen:
            return piece
        seen.add(piece)
    return None


def outcome_problem(state: TowerState, outcome: PlacementOutcome) -> Message | None:
    """What makes ``outcome`` impossible for the placement ``state`` waits for (module docs);
    ``None`` when it is consistent."""
    gift = state.gift
    if gift is None:
        return message("no placement is waiting for its outcome")
    catalogue = state.tower_game.catalogue
    named = [p.piece for p in outcome.tower]
    for record in outcome.tower:
        problem = piece_problem(catalogue, record.piece, record.face)
        if problem is not None:
            return problem
    for piece in (*(p for s in outcome.stacks for p in s), *outcome.on_table):
        problem = piece_problem(catalogue, piece)
        if problem is not None:
            return problem
    twice = first_repeat(named)
    if twice is not None:
        return message("{piece} is named twice in the report", piece=twice)
    if outcome.result in ("spontaneous", "knocked") and not state.tower.pieces:
        return message("there is no tower to fall")
    if outcome.result == "spontaneous":
        return None
    if outcome.result == "knocked" and (
        outcome.knocker is None or not 0 <= outcome.knocker < state.players
    ):
        return message("a knocked tower needs the seat of the knocker")
    placed = outcome.result != "knocked"
    expected = [*state.tower.ids(), *([gift] if placed else [])]
    problem = _accounted(named, expected)
    if problem is not None:
        return problem
    target = rules.target_of(state, gift)
    if outcome.result == "stood":
        return _stood_problem(state, outcome, gift, target)
    return _fall_problem(state, outcome, expected, gift if placed else None, target)


def _accounted(named: Sequence[str], expected: Sequence[str]) -> Message | None:
    pieces = ", ".join(sorted(expected))
    extra = next((p for p in named if p not in expected), None)
    if extra is not None:
        return message(
            "{piece} is not one of the pieces the report accounts for: {pieces}",
            piece=extra,
            pieces=pieces,
        )
    missing = next((p for p in expected if p not in named), None)
    if missing is None:
        return None
    return message(
        "{piece} is missing: the report accounts for exactly the pieces {pieces}",
        piece=missing,
        pieces=pieces,
    )


def _unmoved(old: TowerPiece, new: TowerPiece, *, free_top: bool = False) -> Message | None:
    """Why ``new`` is not ``old`` left where it was; ``free_top``: its free top may change.
    A piece measured before and after (a pose in both) may have a measured height, pose and
    free top (TD07: it may slide a little)."""
    measured = old.pose is not None and new.pose is not None
    changes: list[tuple[str, object, object]] = [
        ("support", old.support, new.support),
        ("face", old.face, new.face),
    ]
    if not measured:
        changes += [("height_mm", old.height_mm, new.height_mm), ("pose", old.pose, new.pose)]
        if not free_top:
            changes.append(("uncovered", old.uncovered, new.uncovered))
    for name, before, after in changes:
        if before != after:
            return message(
                "{piece} still stands where it was: its {field} cannot change (it was {before},"
                " the report says {after})",
                piece=old.piece,
                field=name,
                before=_shown(before),
                after=_shown(after),
            )
    return None


def _shown(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _stood_problem(
    state: TowerState, outcome: PlacementOutcome, gift: str, target: TowerPiece | None
) -> Message | None:
    before = state.tower.pieces
    for old, new in zip(before, outcome.tower, strict=False):
        if new.piece != old.piece:
            return message(
                "{piece} is out of its place: a tower that stood lists its pieces as before,"
                " base first, and the placed piece last",
                piece=new.piece,
            )
    placed = outcome.tower[-1]
    if placed.support != (target.piece if target is not None else None):
        return message(
            "the placed piece must rest on its target {target}",
            target=target.piece if target is not None else TABLE,
        )
    for old, new in zip(before, outcome.tower, strict=False):
        free_top = target is not None and old.piece == target.piece
        problem = _unmoved(old, new, free_top=free_top)
        if problem is not None:
            return problem
    return None


def _fall_problem(
    state: TowerState,
    outcome: PlacementOutcome,
    expected: Sequence[str],
    gift: str | None,
    target: TowerPiece | None,
) -> Message | None:
    """A fall (``gift``: the placed piece, ``None`` for a knocked tower)."""
    by_id = {p.piece: p for p in outcome.tower}
    old = {p.piece: p for p in state.tower.pieces}
    rested: dict[str, str | None] = {p.piece: p.support for p in state.tower.pieces}
    if gift is not None:
        rested[gift] = target.piece if target is not None else None
    base = state.tower.pieces[0].piece if state.tower.pieces else gift
    in_stacks = [p for stack in outcome.stacks for p in stack]
    twice = first_repeat([*in_stacks, *outcome.on_table])
    if twice is not None:
        return message("{piece} is named twice in the report", piece=twice)
    for piece in expected:
        if piece not in in_stacks and piece not in outcome.on_table:
            return message(
                "{piece} is neither in a standing stack nor lying on the table", piece=piece
            )
    for stack in outcome.stacks:
        problem = _stack_problem(stack, by_id, old, rested, unmoved=stack[:1] == (base,))
        if problem is not None:
            return problem
    for piece in outcome.on_table:
        if by_id[piece].support is not None:
            return message("{piece} lies on the table: it has no support", piece=piece)
    if len(outcome.stacks) == 1 and len(outcome.stacks[0]) == len(expected):
        return message(
            "nothing fell: every piece still stands where it was; report that the tower stood"
        )
    return None


def _stack_problem(
    stack: Sequence[str],
    by_id: dict[str, TowerPiece],
    old: dict[str, TowerPiece],
    rested: dict[str, str | None],
    *,
    unmoved: bool,
) -> Message | None:
    """What is wrong with one standing stack; ``unmoved``: it stands on the tower's base."""
    if not stack or by_id[stack[0]].support is not None:
        return message("a standing stack starts with a piece on the table")
    for index, piece in enumerate(stack):
        record, before = by_id[piece], old.get(piece)
        if index:
            support = rested[piece]
            if support is None or support not in stack:
                return message(
                    "{piece} rested on {support}, which is not in its stack: a standing stack"
                    " keeps each piece on the piece it rested on (TD07)",
                    piece=piece,
                    support=support or message("the table"),
                )
            if support not in stack[:index]:
                return message(
                    "{piece} is named before {support}, which it rests on: name a standing"
                    " stack base first",
                    piece=piece,
                    support=support,
                )
            if record.support != support:
                return message(
                    "{piece} still stands where it was: its {field} cannot change (it was"
                    " {before}, the report says {after})",
                    piece=piece,
                    field="support",
                    before=support,
                    after=_shown(record.support),
                )
        if before is None:
            continue
        if unmoved:
            problem = _unmoved(before, record, free_top=True)
        elif index and record.face != before.face:
            problem = _unmoved(before, record)
        else:
            problem = None
        if problem is not None:
            return problem
    return None
