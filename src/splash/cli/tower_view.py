"""The text view of a Splash! game in the terminal, and the sentences that tell its events.

The view shows the tower as the rules engine knows it (each piece with what it rests on, its
estimated height and whether its top is free, TD04), every reserve with its drops, whose turn
it is, and which gifts are legal with the piece each must go on (T07, T08, TD04).  Seats are
numbered from 0 as in the rules (TD03); teams are lettered from A.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from splash.core.i18n import Message, message
from splash.games.tower import TowerState, rules
from splash.games.tower.tower import TowerPiece

TEAM_LETTERS = "ABC"
"""The letters of the teams of the team variant (T16, TD11)."""


def seat_name(seat: int) -> Message:
    """``seat 2``."""
    return message("seat {seat}", seat=seat)


def seat_title(seat: int) -> Message:
    """``Seat 2``, to start a sentence."""
    return message("Seat {seat}", seat=seat)


def drop_count(count: int) -> Message:
    """``1 drop``, ``2 drops``."""
    if count == 1:
        return message("{count} drop", count=count)
    return message("{count} drops", count=count)


def piece_count(count: int) -> Message:
    """``1 piece``, ``2 pieces``."""
    if count == 1:
        return message("{count} piece", count=count)
    return message("{count} pieces", count=count)


def pieces_text(pieces: Iterable[str]) -> str:
    """``red-cube, blue-beam``, or ``none``."""
    listed = ", ".join(pieces)
    return listed or message("none").render()


def team_text(state: TowerState, seat: int) -> Message:
    """The team of ``seat`` with its seats: ``team A (seats 0, 2)``."""
    team = state.tower_game.team_of(seat)
    return message(
        "team {team} (seats {seats})",
        team=TEAM_LETTERS[team.id],
        seats=", ".join(str(s) for s in team.seats),
    )


def target_text(target: TowerPiece | None) -> Message:
    """Where a piece goes: ``on red-beam`` or ``on the table``."""
    if target is None:
        return message("on the table")
    return message("on {piece}", piece=target.piece)


def gift_targets(state: TowerState, pieces: Sequence[str]) -> str:
    """``red-cube → on red-beam; blue-cube (seat 2) → on red-prism``: each legal gift and
    where it must go (TD04); a piece from another reserve names its owner (T08)."""
    parts = []
    for piece in pieces:
        owner = next(s for s, reserve in enumerate(state.reserves) if piece in reserve)
        label = piece if owner == state.giver else f"{piece} ({seat_name(owner).render()})"
        parts.append(f"{label} → {target_text(rules.target_of(state, piece)).render()}")
    return "; ".join(parts)


def stacks_of(state: TowerState) -> dict[str, list[str]]:
    """The standing stacks of a fall, by base piece (while the new base is chosen)."""
    doc: Mapping[str, Any] = state.to_json()
    stacks: Mapping[str, Any] = doc.get("stacks") or {}
    return {str(base): [str(p) for p in pieces] for base, pieces in stacks.items()}


# ----- the view ---------------------------------------------------------------------------


def tower_lines(state: TowerState) -> list[Message]:
    """The tower, base first: support, estimated height, free top; the top piece marked."""
    tower = state.tower
    if not tower.pieces:
        return [message("Tower: none yet — the next piece goes on the table.")]
    top = tower.top(state.tower_game.options.height_tolerance_mm)
    lines = [
        message("Tower ({count}, base first, estimated heights):", count=piece_count(len(tower)))
    ]
    for piece in tower.pieces:
        support = message("the table") if piece.support is None else piece.support
        free = message("top free") if piece.uncovered else message("top covered")
        line = message(
            "  {piece}: on {support}, {height} mm, {free}",
            piece=piece.piece,
            support=support,
            height=round(piece.height_mm),
            free=free,
        )
        if top is not None and piece.piece == top.piece:
            line = message("{line} — the top piece", line=line)
        lines.append(line)
    return lines


def reserve_lines(state: TowerState) -> list[Message]:
    """Every reserve, open to all (TD03), with the drops of its seat."""
    teams = state.tower_game.options.teams
    lines = [message("Reserves:")]
    for seat, reserve in enumerate(state.reserves):
        who = seat_name(seat)
        if teams:
            who = message(
                "{seat} (team {team})",
                seat=who,
                team=TEAM_LETTERS[state.tower_game.team_of(seat).id],
            )
        lines.append(
            message(
                "  {seat}: {pieces} · {drops}",
                seat=who,
                pieces=pieces_text(reserve),
                drops=drop_count(state.drops[seat]),
            )
        )
    return lines


def turn_lines(state: TowerState) -> list[Message]:
    """Whose turn it is and what they may do."""
    phase = state.phase
    giver, placer = state.giver, state.placer
    if phase in ("draft", "deal"):
        lines = [
            message("Pile ({count}): {pieces}", count=len(state.pile), pieces=", ".join(state.pile))
        ]
        if phase == "draft":
            lines.append(message("{seat} takes a piece.", seat=seat_title(state.drafting_seat())))
        else:
            lines.append(
                message("{seat} is dealt a piece.", seat=seat_title(state.drafting_seat()))
            )
        return lines
    if phase == "give":
        lines = [
            message(
                "{giver} gives, {placer} places.", giver=seat_title(giver), placer=seat_name(placer)
            )
        ]
        legal = rules.legal_gifts(state)
        own = state.reserves[giver]
        if not state.tower.pieces and own:
            lines.append(
                message(
                    "Any piece of {seat}'s reserve may be given: it goes on the table (TD06).",
                    seat=seat_name(giver),
                )
            )
        elif any(p in own for p in legal):
            lines.append(message("Legal gifts (T07): {gifts}", gifts=gift_targets(state, legal)))
        elif any(rules.placeable(state, p) for p in legal):
            lines.append(
                message(
                    "{seat} holds no playable piece and takes one from another reserve (T08):"
                    " {gifts}",
                    seat=seat_title(giver),
                    gifts=gift_targets(state, legal),
                )
            )
        else:
            lines.append(
                message(
                    "Nobody holds a playable piece: any piece may be given (T08): {gifts}",
                    gifts=gift_targets(state, legal),
                )
            )
        return lines
    if phase in ("place", "result") and state.gift is not None:
        return [
            message(
                "{placer} places {piece} (given by {giver}) {target}.",
                placer=seat_title(placer),
                piece=state.gift,
                giver=seat_name(giver),
                target=target_text(rules.target_of(state, state.gift)),
            )
        ]
    if phase in ("base", "keep") and state.chooser is not None:
        return _collapse_lines(state, state.chooser)
    return []


def _collapse_lines(state: TowerState, chooser: int) -> list[Message]:
    lines = [message("On the table: {pieces}", pieces=pieces_text(p.piece for p in state.table))]
    if state.phase == "base":
        stacks = stacks_of(state)
        options = [
            f"{c} ({' '.join(stacks[c])})" if len(stacks.get(c, [])) > 1 else c
            for c in state.candidates
        ]
        lines.append(
            message(
                "{seat} chooses the new base (T11) among: {candidates}",
                seat=seat_title(chooser),
                candidates=", ".join(options),
            )
        )
    else:
        lines.append(
            message(
                "{seat} takes back exactly {count} of them; the rest go to the box (T12).",
                seat=seat_title(chooser),
                count=state.keep_left,
            )
        )
    return lines


def _tower_stands(state: TowerState) -> bool:
    """Whether there is a tower to show: not before play, nor while the pieces of a fall
    lie on the table, nor after a game ended by a fall."""
    if state.phase in ("draft", "deal", "base"):
        return False
    if state.phase == "over":
        return not any(e.get("event") in ("fell", "knocked") for e in state.events)
    return True


def view_lines(state: TowerState) -> list[Message]:
    """The whole text view of ``state``: tower, reserves and drops, box, turn."""
    lines: list[Message] = []
    if _tower_stands(state):
        lines += tower_lines(state)
    lines += reserve_lines(state)
    if state.box:
        lines.append(message("Box: {pieces}", pieces=piece_count(len(state.box))))
    if state.phase == "over":
        lines.append(result_line(state))
    else:
        lines += turn_lines(state)
    return lines


def result_line(state: TowerState) -> Message:
    """Who won, and how; or that the game stopped without a winner."""
    win = state.win_event()
    if state.winner is None:
        return message("The game is over without a winner.")
    seat = int(str(win["seat"])) if win is not None else state.winner
    how = str(win["by"]) if win is not None else "pieces"
    if how == "drops":
        text = message(
            "{seat} wins with {drops} (T15).",
            seat=seat_title(seat),
            drops=drop_count(state.drops[seat]),
        )
    else:
        text = message(
            "{seat} wins: the last piece of their reserve was placed and stood (T14, TD09).",
            seat=seat_title(seat),
        )
    if state.tower_game.options.teams:
        return message("{text} The winners: {team}.", text=text, team=team_text(state, seat))
    return text


# ----- what happened ----------------------------------------------------------------------


def _knocker(state: TowerState) -> int | None:
    history = state.history
    if not history or history[-1].kind != "result":
        return None
    outcome = history[-1].param("outcome")
    knocker = outcome.get("knocker") if isinstance(outcome, Mapping) else None
    return knocker if isinstance(knocker, int) else None


def event_sentences(state: TowerState, events: Sequence[Mapping[str, Any]]) -> list[Message]:
    """What the last actions did, in order (``events`` as the state lists them)."""
    said: list[Message] = []
    kept: dict[int, list[str]] = {}
    dealt = state.tower_game.options.deal == "random"
    for event in events:
        kind = str(event.get("event"))
        seat = int(str(event.get("seat", 0)))
        piece = str(event.get("piece", ""))
        if kind == "take":
            if dealt:
                said.append(message("{seat} receives {piece}.", seat=seat_title(seat), piece=piece))
            else:
                said.append(message("{seat} takes {piece}.", seat=seat_title(seat), piece=piece))
        elif kind == "give":
            said.append(_give_sentence(state, seat, piece, int(str(event.get("from")))))
        elif kind == "stood":
            support = state.tower.get(piece).support if piece in state.tower else None
            where = (
                message("on the table") if support is None else message("on {piece}", piece=support)
            )
            said.append(
                message("The tower stands: {piece} rests {where}.", piece=piece, where=where)
            )
        elif kind == "fell":
            said.append(message("Splash! The tower fell."))
        elif kind == "spontaneous":
            said.append(
                message(
                    "The tower fell by itself (T17): its pieces go to the box and nobody gets a"
                    " drop; {seat} now places {piece} on the table.",
                    seat=seat_name(seat),
                    piece=piece,
                )
            )
        elif kind == "knocked":
            knocker = _knocker(state)
            said.append(
                message(
                    "{seat} knocked the tower over (T18): no drop; {knocker} proceeds as the"
                    " placer whose tower fell.",
                    seat=seat_title(knocker if knocker is not None else seat),
                    knocker=seat_name(knocker if knocker is not None else seat),
                )
            )
        elif kind == "returned":
            said.append(
                message("{piece} goes back to {seat}'s reserve.", piece=piece, seat=seat_name(seat))
            )
        elif kind == "drop":
            said.append(
                message(
                    "{seat} gets a water drop (T10): {drops} now.",
                    seat=seat_title(seat),
                    drops=drop_count(int(str(event.get("drops")))),
                )
            )
        elif kind == "base":
            said.append(
                message(
                    "The new base (T11): {piece}; the tower: {pieces}.",
                    piece=piece,
                    pieces=" ".join(state.tower.ids()) or piece,
                )
            )
        elif kind == "keep":
            kept.setdefault(seat, []).append(piece)
        elif kind == "boxed":
            pieces = [str(p) for p in event.get("pieces") or []]
            said.append(message("Into the box: {pieces}.", pieces=pieces_text(pieces)))
        elif kind == "turn_cap":
            said.append(
                message(
                    "The game stops after {count} placements (options.turn_cap).",
                    count=state.placements,
                )
            )
    for seat, pieces in kept.items():
        said.append(
            message(
                "{seat} takes back (T12): {pieces}.",
                seat=seat_title(seat),
                pieces=pieces_text(pieces),
            )
        )
    if any(e.get("event") == "base" for e in events) and state.phase == "give":
        said.append(message("{seat} gives next (T13).", seat=seat_title(state.giver)))
    return said


def _give_sentence(state: TowerState, giver: int, piece: str, owner: int) -> Message:
    if owner == giver:
        return message(
            "{giver} gives {piece} to {placer}.",
            giver=seat_title(giver),
            piece=piece,
            placer=seat_name(state.placer),
        )
    return message(
        "{giver} takes {piece} from {owner}'s reserve and gives it to {placer} (T08).",
        giver=seat_title(giver),
        piece=piece,
        owner=seat_name(owner),
        placer=seat_name(state.placer),
    )
