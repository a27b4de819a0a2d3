"""A text picture of a Splash & Bash position for a terminal, and sentences for its events.

Everything here works from what one seat may see (:meth:`BashState.view`, a JSON document)
and the course's geometry, never from the state itself, so a picture cannot show a hand
that its reader may not see.  :func:`public_view` strips a view down to what every team
may see (the shared screen of referee mode).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.text import Text

from splash.core.i18n import N_, Message, message
from splash.games.bash.board import TEAM_LETTERS, piece_name
from splash.games.bash.config import LANES
from splash.games.bash.events import card_hidden_from
from splash.games.bash.geometry import HELMSMAN, Course
from splash.games.bash.names import name

View = Mapping[str, Any]
"""A view document (:meth:`BashState.view`)."""

CELL = 3
"""Columns per square: two for its content, one to separate it from the next."""
WIDTH = 120
"""The widest line of a picture, by default."""
PUBLIC_SEAT = -1
"""The seat of nobody: what it may see, every team may see."""

TEAM_STYLES = ("bold red", "bold yellow", "bold green", "bold magenta")
DECK_STYLES = {"low_tide": "cyan", "high_tide": "blue"}
EMPTY, OBSTACLE, LINE = "··", "##", "S"

_DIRECTIONS = {
    "forward": N_("{piece} bumps into {target} at {where}: {target} is pushed forward."),
    "backward": N_("{piece} bumps into {target} at {where}: {target} is pushed backward."),
    "inward": N_("{piece} bumps into {target} at {where}: {target} is pushed toward the pool."),
    "outward": N_("{piece} bumps into {target} at {where}: {target} is pushed outward."),
}


def public_view(view: View) -> dict[str, Any]:
    """``view`` without anything private to its seat: no hand, no legal actions, no card
    drawn from the high tide deck or stolen, no options of a pending question."""
    public = dict(view)
    public["seat"] = None
    public["hand"] = None
    public["legal_actions"] = []
    public["events"] = [
        {k: v for k, v in e.items() if k != "card"} if card_hidden_from(e, PUBLIC_SEAT) else e
        for e in view.get("events", [])
    ]
    awaiting = view.get("awaiting")
    if isinstance(awaiting, Mapping):
        public["awaiting"] = {k: v for k, v in awaiting.items() if k != "options"}
    return public


def team_name(team: int) -> str:
    """The team's letter (``A`` for seat 0)."""
    return TEAM_LETTERS[team]


def lap_of(course: Course, lane: int, s: int) -> int:
    """The lap (from 1) that position ``s`` of ``lane`` lies in."""
    return s // course.length(lane) + 1


def where(course: Course, lane: int, s: int) -> Message:
    """A readable position: ``Outer 12 (lap 2)``, or the start line."""
    if s == 0:
        return message("the start line ({lane})", lane=name(LANES[lane]))
    return message(
        "{lane} {square} (lap {lap})",
        lane=name(LANES[lane]),
        square=course.physical(lane, s),
        lap=lap_of(course, lane, s),
    )


def card_count(count: int) -> Message:
    """``1 card``, ``2 cards``."""
    if count == 1:
        return message("{count} card", count=count)
    return message("{count} cards", count=count)


def _names(ids: Iterable[str]) -> str:
    return ", ".join(name(i).render() for i in ids)


# ----- the picture -------------------------------------------------------------------------


def picture(view: View, course: Course, *, width: int = WIDTH) -> Group:
    """The course with every piece, obstacle and checkpoint, then the roll, hands and decks.

    ``view`` is one seat's view (its own hand is listed) or a :func:`public_view` (hand
    sizes only).  No line is wider than ``width``; a lane longer than fits is wrapped.
    """
    lines: list[Text] = [_header(view)]
    per_row = max(1, width // CELL)
    pieces = _pieces(view)
    for lane in range(len(LANES)):
        lines += _lane_rows(view, course, lane, pieces, per_row)
    lines += _lists(view, course, pieces)
    lines += _hands_and_decks(view)
    lines.append(
        Text(
            message(
                "▼ checkpoint · {obstacle} obstacle · {line}n: n pieces on the start/finish line"
                " · the figure under a piece is its lap",
                obstacle=OBSTACLE,
                line=LINE,
            ).render(),
            style="dim",
        )
    )
    return Group(*lines)


def _pieces(view: View) -> list[tuple[int, int, Mapping[str, Any]]]:
    return [
        (team, index, piece)
        for team, team_pieces in enumerate(view["pieces"])
        for index, piece in enumerate(team_pieces)
    ]


def _header(view: View) -> Text:
    if view.get("terminal"):
        winner = view.get("winner")
        if winner is None:
            text = message("Game over: the turn cap is reached, no team wins.")
        else:
            text = message("Game over: team {team} wins!", team=team_name(int(winner)))
        return Text(text.render(), style="bold")
    parts = [
        message(
            "Turn {turn} · team {team} plays with {piece}",
            turn=view["turn"],
            team=team_name(int(view["team"])),
            piece=view["active"],
        )
    ]
    dice = [int(d) for d in view.get("dice") or []]
    if dice:
        detail = " + ".join(str(d) for d in dice)
        if len(dice) == 1 and sum(dice) == view["roll"]:
            parts.append(message("roll {roll}", roll=view["roll"]))
        else:
            parts.append(message("roll {roll} (dice {dice})", roll=view["roll"], dice=detail))
    rerolled = [int(d) for d in view.get("rerolled") or []]
    if rerolled:
        parts.append(message("second roll {roll}", roll=" + ".join(str(d) for d in rerolled)))
    if view.get("free_lane"):
        parts.append(message("the lane change is free"))
    if view.get("skip_move"):
        parts.append(message("the pawn does not move this turn"))
    return Text(" · ".join(p.render() for p in parts), style="bold")


def _lane_rows(
    view: View,
    course: Course,
    lane: int,
    pieces: Sequence[tuple[int, int, Mapping[str, Any]]],
    per_row: int,
) -> list[Text]:
    length = course.length(lane)
    deck = course.colours[lane]
    style = DECK_STYLES.get(deck, "white")
    checkpoints = set(course.checkpoints[lane])
    title = message(
        "{lane} lane · {deck} deck · {length} squares a lap · checkpoints {checkpoints}",
        lane=name(LANES[lane]),
        deck=name(deck),
        length=length,
        checkpoints=" ".join(str(c) for c in sorted(checkpoints)),
    )
    rows = [Text(title.render(), style=f"bold {style}")]
    here: dict[int, list[tuple[int, int, int]]] = {}
    for team, index, piece in pieces:
        if piece["lane"] == lane and not piece["finished"]:
            s = int(piece["s"])
            here.setdefault(course.physical(lane, s), []).append((team, index, s))
    obstacles = {int(sq) for ln, sq in view.get("obstacles", []) if int(ln) == lane}
    active = None if view.get("terminal") else view.get("active")
    for start in range(0, length, per_row):
        end = min(length, start + per_row)
        rows.append(_ruler(start, end, checkpoints))
        cells, laps = Text(), Text()
        for square in range(start, end):
            cell, lap = _cell(
                course,
                lane,
                square,
                occupants=here.get(square, []),
                obstacles=obstacles,
                active=active,
            )
            if square in checkpoints:
                cell.stylize("underline")
            cells.append(cell)
            cells.append(" ")
            laps.append(lap.ljust(CELL))
        cells.rstrip()
        rows.append(cells)
        if laps.plain.strip():
            rows.append(Text(laps.plain.rstrip(), style="dim"))
    return rows


def _ruler(start: int, end: int, checkpoints: set[int]) -> Text:
    chars = [" "] * ((end - start) * CELL)
    cursor = 0
    for square in range(start, end):
        if square % 5 and square not in checkpoints:
            continue
        mark = ("▼" if square in checkpoints else "") + str(square)
        column = (square - start) * CELL
        if column < cursor or column + len(mark) > len(chars):
            continue
        chars[column : column + len(mark)] = mark
        cursor = column + len(mark) + 1
    return Text("".join(chars).rstrip(), style="dim")


def _cell(
    course: Course,
    lane: int,
    square: int,
    *,
    occupants: Sequence[tuple[int, int, int]],
    obstacles: set[int],
    active: object,
) -> tuple[Text, str]:
    if square == 0:
        count = len(occupants)
        label = LINE + (str(count) if count < 10 else "+") if count else LINE + " "
        return Text(label, style="bold"), ""
    if not occupants:
        if square in obstacles:
            return Text(OBSTACLE, style="bold red on white"), ""
        return Text(EMPTY, style="dim"), ""
    team, index, s = occupants[0]
    label = piece_name(team, index)
    style = TEAM_STYLES[team % len(TEAM_STYLES)]
    if label == active:
        style += " reverse"
    if square in obstacles:
        style += " underline"
    return Text(label, style=style), str(lap_of(course, lane, s))


def _lists(
    view: View, course: Course, pieces: Sequence[tuple[int, int, Mapping[str, Any]]]
) -> list[Text]:
    on_line: list[str] = []
    finished: list[str] = []
    waiting: list[str] = []
    for team, index, piece in pieces:
        label = piece_name(team, index)
        if piece["finished"]:
            finished.append(label)
        elif piece["lane"] is None:
            waiting.append(label)
        elif course.on_line(int(piece["lane"]), int(piece["s"])):
            lane, s = int(piece["lane"]), int(piece["s"])
            lap = lap_of(course, lane, s)
            on_line.append(
                message("{piece} ({lane})", piece=label, lane=name(LANES[lane])).render()
                if lap == 1
                else message(
                    "{piece} ({lane}, lap {lap})", piece=label, lane=name(LANES[lane]), lap=lap
                ).render()
            )
    lines = []
    if on_line:
        lines.append(message("On the start/finish line: {pieces}", pieces=", ".join(on_line)))
    if finished:
        lines.append(message("Finished: {pieces}", pieces=", ".join(finished)))
    if waiting:
        lines.append(message("Not on the course yet: {pieces}", pieces=", ".join(waiting)))
    return [Text(line.render()) for line in lines]


def _hands_and_decks(view: View) -> list[Text]:
    seat = view.get("seat")
    hand = view.get("hand")
    parts = []
    for team, size in enumerate(view.get("hand_sizes", [])):
        if hand is not None and team == seat:
            cards = _names(hand) if hand else message("no card").render()
            parts.append(message("team {team} (you): {cards}", team=team_name(team), cards=cards))
        else:
            parts.append(
                message("team {team}: {count}", team=team_name(team), count=card_count(int(size)))
            )
    hands = message("Hands: {hands}", hands=" · ".join(p.render() for p in parts))
    decks = [
        message(
            "{deck} deck: {left} left, {discarded} discarded",
            deck=name(deck),
            left=int(left),
            discarded=sum(int(n) for n in view.get("discards", {}).get(deck, {}).values()),
        ).render()
        for deck, left in view.get("deck_sizes", {}).items()
    ]
    return [Text(hands.render()), Text(" · ".join(decks), style="dim")]


# ----- sentences ---------------------------------------------------------------------------

_SENTENCES = {
    "roll": N_("The die shows {face}."),
    "play": N_("Team {team} plays {card}."),
    "discard": N_("Team {team} discards {card}."),
    "slip": N_("{piece} slips on the obstacle at {where}."),
    "fall": N_("{piece} falls into the pool at {where}!"),
    "restart": N_("{piece} restarts from {where}."),
    "saved": N_("{piece} is saved by {card} and stays at {where}."),
    "chain_undone": N_(
        "The chain of bumps is undone: everything goes back to where it was before it."
    ),
    "finish": N_("{piece} crosses the finish line!"),
    "obstacle": N_("An obstacle is put on {lane} {square}."),
    "obstacle_lost": N_("No square is free: the obstacle is lost."),
    "enter": N_("{piece} enters the course in the {lane} lane."),
    "reshuffle": N_("The {deck} deck is made again from its discards."),
    "no_card": N_("The {deck} deck is empty: no card is drawn."),
    "turn_cap": N_(
        "The turn cap is reached after {turns} team turns: the game ends with no winner."
    ),
}


def _event_params(event: Mapping[str, Any], course: Course) -> dict[str, object]:
    params: dict[str, object] = {}
    for key, value in event.items():
        if key in ("card", "deck", "lane"):
            params[key] = name(str(value))
        elif key in ("team", "from"):
            params["team" if key == "team" else "victim"] = team_name(int(value))
        else:
            params[key] = value
    if isinstance(event.get("lane"), str) and isinstance(event.get("s"), int):
        params["where"] = where(course, LANES.index(event["lane"]), int(event["s"]))
    return params


def event_sentences(events: Iterable[Mapping[str, Any]], course: Course) -> list[Message]:
    """One readable sentence for each event of a view (``view["events"]``)."""
    return [event_sentence(event, course) for event in events]


def event_sentence(event: Mapping[str, Any], course: Course) -> Message:
    """A readable sentence for one view event."""
    kind = event.get("event")
    params = _event_params(event, course)
    hidden = "card" not in event
    if kind == "draw":
        if hidden:
            return message("Team {team} draws a card from the {deck} deck.", **params)
        return message("Team {team} draws {card} from the {deck} deck.", **params)
    if kind == "steal":
        if hidden:
            return message("Team {team} takes a card from team {victim}.", **params)
        return message("Team {team} takes {card} from team {victim}.", **params)
    if kind == "bump":
        msgid = _DIRECTIONS.get(str(event.get("direction")), _DIRECTIONS["forward"])
        return message(msgid, **params)
    if kind == "bounce":
        if event.get("squares") == 1:
            return message(
                "{piece} overshoots the finish line and walks back {squares} square.", **params
            )
        return message(
            "{piece} overshoots the finish line and walks back {squares} squares.", **params
        )
    if isinstance(kind, str) and kind in _SENTENCES:
        return message(_SENTENCES[kind], **params)
    return message("{event}", event=dict(event))


def movement_sentences(before: View, after: View, course: Course) -> list[Message]:
    """Where each piece that moved between two views must now stand.

    A pawn put on the start line says so; a piece that moved on the course says from where
    to where (the events tell why); a finish and a helmsman's entry are told by events.
    """
    sentences = []
    for team, (old_team, new_team) in enumerate(
        zip(before["pieces"], after["pieces"], strict=True)
    ):
        for index, (old, new) in enumerate(zip(old_team, new_team, strict=True)):
            if new["finished"] or new["lane"] is None or old == new:
                continue
            label = piece_name(team, index)
            lane, s = int(new["lane"]), int(new["s"])
            if old["lane"] is None:
                if index != HELMSMAN:
                    sentences.append(
                        message(
                            "{piece} takes its place on the start line in the {lane} lane.",
                            piece=label,
                            lane=name(LANES[lane]),
                        )
                    )
                continue
            sentences.append(
                message(
                    "{piece} goes from {start} to {end}.",
                    piece=label,
                    start=where(course, int(old["lane"]), int(old["s"])),
                    end=where(course, lane, s),
                )
            )
    return sentences
