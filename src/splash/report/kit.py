"""The playtest kit of Splash & Bash: a PDF to print for a game at a real pool.

Drawn with matplotlib's object API and its PDF backend (no pyplot state, no display), with
the fonts embedded as TrueType so that the text can be searched and extracted. The pages:

1. the board (A4 landscape): the three lanes as rings of numbered squares around the pool,
   the start/finish line and the checkpoint lines, each team's start squares ringed in its
   colour (BV03's staggered squares when ``options.start_stagger`` is set), and a legend;
2. what the settings change from the designed rules (A4 portrait, more pages when the list
   is long): each setting with its rule, the draft's value and the kit's, and its meaning;
3. the cards to cut out (A4 portrait), nine a page at the size of a playing card
   (63 by 88 mm), every copy of every card of the low tide deck and then of the high tide
   deck, each with its deck, name, effect, timing, copy number and id.

The draft's kit has 7 pages: the board, the changes, 3 pages of low tide cards (24) and 2
of high tide cards (18).
"""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Iterator, Mapping, Sequence

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Polygon, Rectangle, Wedge

from splash.core.i18n import message
from splash.games.bash.board import TEAM_LETTERS
from splash.games.bash.card_text import card_sentences
from splash.games.bash.changes import Change, changes
from splash.games.bash.config import DECKS, LANES, BashConfig, CardSpec
from splash.games.bash.geometry import Course
from splash.games.bash.names import name

A4 = (8.27, 11.69)
"""An A4 page, portrait, in inches."""
CARD = (63 / 25.4, 88 / 25.4)
"""A card, in inches: the size of a playing card."""
GRID = (3, 3)
"""Cards a page: columns and rows."""
TEAM_COLOURS = ("#d62828", "#f2b705", "#2a9d3f", "#8e44ad")
"""The teams' colours, as on the web page's pool."""
LANE_FILL = {"outer": "#fbe3b0", "centre": "#2f6f9f", "high_tide": "#9fd3ec"}
"""Each lane's colour, as on the web page's pool: neighbouring lanes contrast 3:1."""
DECK_FILL = {"low_tide": "#eef8fc", "high_tide": "#cde9f6"}
"""The face of each deck's cards."""
RADII = (210.0, 168.0, 126.0)
"""Radius of each lane's ring, outer first, in the board's units."""
HALF = 200.0
"""Half the length of the pool's straight sides, in the board's units."""
POOL = 92.0
SQUARE = 15.0
RING = 5.0
"""Width of the ring that marks a team's start square."""


def kit_pdf(config: BashConfig, *, source: str | None = None) -> bytes:
    """The kit of ``config`` as the bytes of a PDF; ``source`` names the folder its board
    and decks were read from (``--data``), if not the shipped one."""
    buffer = io.BytesIO()
    metadata = {"Title": "Splash & Bash", "Creator": "splash", "CreationDate": None}
    with matplotlib.rc_context({"pdf.fonttype": 42}), PdfPages(buffer, metadata=metadata) as pdf:
        for figure in kit_pages(config, source=source):
            pdf.savefig(figure)
    return buffer.getvalue()


def kit_pages(config: BashConfig, *, source: str | None = None) -> Iterator[Figure]:
    """The figures of the kit, page by page (see the module's docstring)."""
    yield board_page(config)
    yield from changes_pages(changes(config), source=source)
    for deck in DECKS:
        yield from card_pages(deck, config.decks[deck].cards)


def _page(size: tuple[float, float]) -> tuple[Figure, Axes]:
    """A page and axes over all of it, in inches from its lower left corner."""
    figure = Figure(figsize=size)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, size[0])
    axes.set_ylim(0, size[1])
    axes.set_axis_off()
    return figure, axes


# The board -------------------------------------------------------------------------------


def stadium(radius: float, distance: float) -> tuple[float, float]:
    """The point at ``distance`` along the stadium of ``radius``, clockwise from the middle
    of its top side (y upward), as the web page draws the pool."""
    arc = math.pi * radius
    perimeter = 4 * HALF + 2 * arc
    t = distance % perimeter
    if t < HALF:
        return t, radius
    t -= HALF
    if t < arc:
        angle = t / radius
        return HALF + radius * math.sin(angle), radius * math.cos(angle)
    t -= arc
    if t < 2 * HALF:
        return HALF - t, -radius
    t -= 2 * HALF
    if t < arc:
        angle = t / radius
        return -HALF - radius * math.sin(angle), -radius * math.cos(angle)
    t -= arc
    return -HALF + t, radius


def square_point(lane: int, square: int, length: int) -> tuple[float, float]:
    """The centre of ``square`` of ``lane`` (of ``length`` squares a lap) on the board."""
    radius = RADII[lane]
    return stadium(radius, (4 * HALF + 2 * math.pi * radius) * square / length)


def _outward(point: tuple[float, float], by: float) -> tuple[float, float]:
    """``point`` moved ``by`` away from the pool."""
    x, y = point
    if abs(x) <= HALF:
        return x, y + math.copysign(by, y)
    centre = math.copysign(HALF, x)
    norm = math.hypot(x - centre, y)
    return x + by * (x - centre) / norm, y + by * y / norm


def start_squares(config: BashConfig) -> list[tuple[int, int, int]]:
    """The square of each lane where each team's pawns start: the start line, or BV03's
    staggered square (a second pawn of the team in the same lane stands behind it, BD04)."""
    course = Course(config.board, config.options)
    return [
        (
            course.stagger_square(team, 0),
            course.stagger_square(team, 1),
            course.stagger_square(team, 2),
        )
        for team in range(config.options.teams)
    ]


def board_page(config: BashConfig) -> Figure:
    """The board: lanes, numbered squares, checkpoint lines, start squares and a legend."""
    course = Course(config.board, config.options)
    width, height = A4[1], A4[0]
    figure = Figure(figsize=(width, height))
    figure.text(
        0.5,
        0.955,
        message("Splash & Bash: the board").render(),
        ha="center",
        fontsize=16,
        weight="bold",
    )
    axes = figure.add_axes((0.03, 0.27, 0.94, 0.65))
    axes.set_aspect("equal")
    axes.set_axis_off()
    reach = HALF + RADII[0] + 95
    axes.set_xlim(-reach, reach)
    axes.set_ylim(-RADII[0] - 45, RADII[0] + 45)
    water = [stadium(POOL, d) for d in range(0, int(4 * HALF + 2 * math.pi * POOL) + 1, 4)]
    axes.add_patch(Polygon(water, closed=True, facecolor="#7fc3e6", edgecolor="#3a8fbf"))
    axes.text(0, 0, message("Pool").render(), ha="center", va="center", fontsize=14)
    for index, cps in enumerate(zip(*course.checkpoints, strict=True)):
        line = [square_point(lane, cps[lane], course.lengths[lane]) for lane in range(3)]
        xs, ys = zip(*line, strict=True)
        axes.plot(xs, ys, color="black", linewidth=2.2, zorder=1)
        label = (
            message("Start and finish")
            if index == 0
            else message("Checkpoint {number}", number=index)
        )
        lx, ly = _outward(line[0], 36 if abs(line[0][0]) <= HALF else 22)
        side = "center" if abs(lx) <= HALF else "left" if lx > 0 else "right"
        axes.text(lx, ly, label.render(), ha=side, va="center", fontsize=8, weight="bold")
    starts = start_squares(config)
    for lane, lane_id in enumerate(LANES):
        length = course.lengths[lane]
        checkpoints = set(course.checkpoints[lane])
        dark = lane_id == "centre"
        for square in range(length):
            x, y = square_point(lane, square, length)
            marked = square in checkpoints
            axes.add_patch(
                Circle(
                    (x, y),
                    SQUARE,
                    facecolor=LANE_FILL[lane_id],
                    edgecolor="black",
                    linewidth=1.8 if marked else 0.5,
                    zorder=2,
                )
            )
            teams = [team for team, squares in enumerate(starts) if squares[lane] == square]
            for place, team in enumerate(teams):
                share = 360 / len(teams)
                axes.add_patch(
                    Wedge(
                        (x, y),
                        SQUARE + RING,
                        90 + place * share,
                        90 + (place + 1) * share,
                        width=RING,
                        facecolor=TEAM_COLOURS[team % len(TEAM_COLOURS)],
                        edgecolor="none",
                        zorder=3,
                    )
                )
            axes.text(
                x,
                y,
                str(square),
                ha="center",
                va="center",
                fontsize=7,
                color="white" if dark else "black",
                weight="bold" if marked else "normal",
                zorder=4,
            )
    _board_legend(figure, config, course, starts)
    return figure


def _board_legend(
    figure: Figure, config: BashConfig, course: Course, starts: Sequence[tuple[int, int, int]]
) -> None:
    lines: list[tuple[str, str | None]] = []
    for lane, lane_id in enumerate(LANES):
        text = message(
            "{lane} lane · {deck} deck · {length} squares a lap · checkpoints {checkpoints}",
            lane=name(lane_id),
            deck=name(course.colours[lane]),
            length=course.lengths[lane],
            checkpoints=" ".join(str(square) for square in course.checkpoints[lane]),
        )
        lines.append((text.render(), LANE_FILL[lane_id]))
    for team, squares in enumerate(starts):
        where = ", ".join(
            f"{name(lane_id).render()} {squares[lane]}" for lane, lane_id in enumerate(LANES)
        )
        text = message(
            "Team {team} starts on {squares} (ringed in its colour)",
            team=TEAM_LETTERS[team],
            squares=where,
        )
        lines.append((text.render(), TEAM_COLOURS[team % len(TEAM_COLOURS)]))
    lines.append(
        (
            message(
                "{laps} laps; squares are numbered in the direction of the race; a bold square"
                " is on a checkpoint line.",
                laps=config.board.laps,
            ).render(),
            None,
        )
    )
    if config.options.start_stagger:
        lines.append(
            (message("A helmsman enters on the start line, not ahead (BV03).").render(), None)
        )
    top, step = 0.235, 0.028
    for row, (line, colour) in enumerate(lines):
        y = top - row * step
        if colour is not None:
            figure.patches.append(
                Rectangle(
                    (0.06, y - 0.008),
                    0.018,
                    0.018,
                    facecolor=colour,
                    edgecolor="black",
                    linewidth=0.5,
                    transform=figure.transFigure,
                    figure=figure,
                )
            )
        figure.text(0.09, y, line, va="center", fontsize=9)


# What the settings change -----------------------------------------------------------------

ROWS_PER_PAGE = 16


def changes_pages(found: Sequence[Change], *, source: str | None = None) -> Iterator[Figure]:
    """The pages that list ``found``: one, saying the designed rules are unchanged when the
    list is empty, or as many as the list needs."""
    chunks = [found[i : i + ROWS_PER_PAGE] for i in range(0, len(found), ROWS_PER_PAGE)] or [[]]
    for chunk in chunks:
        figure, axes = _page(A4)
        axes.text(
            0.6,
            A4[1] - 0.8,
            message("What this kit changes from the draft").render(),
            fontsize=16,
            weight="bold",
        )
        y = A4[1] - 1.3
        if source is not None:
            axes.text(
                0.6,
                y,
                message("Board and decks read from {folder}.", folder=source).render(),
                fontsize=10,
            )
            y -= 0.35
        if not found:
            axes.text(0.6, y, message("The designed rules, unchanged.").render(), fontsize=12)
        for change in chunk:
            y = _change_row(axes, change, y)
        yield figure


def _change_row(axes: Axes, change: Change, y: float) -> float:
    """Draw one change from height ``y`` down; the height below it."""
    head = f"{' '.join(change.rules)}   {change.key}"
    axes.text(0.6, y, head, fontsize=10, weight="bold", family="monospace")
    y -= 0.22
    values = message("draft: {draft} → this kit: {value}", draft=change.draft, value=change.value)
    for line in textwrap.wrap(values.render(), 95):
        axes.text(0.8, y, line, fontsize=9)
        y -= 0.18
    for line in textwrap.wrap(change.meaning.render(), 95):
        axes.text(0.8, y, line, fontsize=9, style="italic")
        y -= 0.18
    return y - 0.12


# The cards ---------------------------------------------------------------------------------


def card_copies(cards: Mapping[str, CardSpec]) -> list[tuple[str, CardSpec, int]]:
    """Every copy of every card of a deck, in the deck file's order: (id, card, copy
    number from 1)."""
    return [(card_id, card, n) for card_id, card in cards.items() for n in range(1, card.count + 1)]


def card_pages(deck: str, cards: Mapping[str, CardSpec]) -> Iterator[Figure]:
    """The pages of one deck's cards, :data:`GRID` a page, with dashed lines to cut along."""
    copies = card_copies(cards)
    columns, rows = GRID
    per_page = columns * rows
    left = (A4[0] - columns * CARD[0]) / 2
    bottom = (A4[1] - rows * CARD[1]) / 2 - 0.15
    for first in range(0, len(copies), per_page):
        page = copies[first : first + per_page]
        figure, axes = _page(A4)
        header = message(
            "{deck} deck: cards {first} to {last} of {total}. Cut along the dashed lines.",
            deck=name(deck),
            first=first + 1,
            last=first + len(page),
            total=len(copies),
        )
        axes.text(left, A4[1] - 0.45, header.render(), fontsize=10)
        for place, (card_id, card, copy) in enumerate(page):
            row, column = divmod(place, columns)
            x = left + column * CARD[0]
            y = bottom + (rows - 1 - row) * CARD[1]
            _card(axes, (x, y), deck=deck, card_id=card_id, card=card, copy=copy)
        yield figure


def _card(
    axes: Axes, corner: tuple[float, float], *, deck: str, card_id: str, card: CardSpec, copy: int
) -> None:
    x, y = corner
    w, h = CARD
    axes.add_patch(
        Rectangle(
            (x, y),
            w,
            h,
            facecolor=DECK_FILL.get(deck, "white"),
            edgecolor="black",
            linewidth=0.6,
            linestyle=(0, (4, 3)),
        )
    )
    pad = 0.14
    axes.text(
        x + pad, y + h - pad, name(deck).render().upper(), fontsize=7, va="top", color="#2f6f9f"
    )
    axes.text(x + pad, y + h - 0.42, name(card_id).render(), fontsize=13, weight="bold", va="top")
    text_y = y + h - 0.85
    for sentence in card_sentences(card):
        for line in textwrap.wrap(sentence.render(), 30):
            axes.text(x + pad, text_y, line, fontsize=9, va="top")
            text_y -= 0.17
        text_y -= 0.06
    copies = message("copy {copy} of {count}", copy=copy, count=card.count).render()
    axes.text(x + pad, y + pad, copies, fontsize=7, va="bottom")
    axes.text(
        x + w - pad, y + pad, card_id, fontsize=7, va="bottom", ha="right", family="monospace"
    )
