"""Pictures of a position for the environments' ``render()``: text (``ansi``) and images
(``rgb_array``, ``(height, width, 3)`` of ``uint8``, drawn headless with matplotlib's Agg
canvas); :data:`splash.envs.games.ENVIRONMENTS` names each game's.

Splash & Bash is drawn from the public view (no hand is shown); Splash! is open (TD03).
"""

from __future__ import annotations

import io

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.image import imread
from numpy.typing import NDArray
from rich.console import Console

from splash.core.i18n import message
from splash.games.bash.board import TEAM_LETTERS, piece_name
from splash.games.bash.config import LANES
from splash.games.bash.names import name
from splash.games.bash.render import picture, public_view
from splash.games.bash.state import BashState
from splash.games.tower.state import TowerState

Image = NDArray[np.uint8]
TEAM_COLOURS = ("#d62828", "#f2c230", "#2a9d3f", "#7b2cbf")
TEXT_WIDTH = 120


def bash_text(state: BashState) -> str:
    """The course, the roll, the hands' sizes and the decks, as every team may see them."""
    out = io.StringIO()
    console = Console(file=out, width=TEXT_WIDTH, color_system=None, force_terminal=False)
    console.print(picture(public_view(state.view(0)), state._bash.course, width=TEXT_WIDTH))
    return out.getvalue()


def bash_image(state: BashState) -> Image:
    """The three lanes as rows of squares, each piece a labelled dot on its square."""
    course = state._bash.course
    longest = max(course.lengths)
    figure = Figure(figsize=(10.0, 3.0), dpi=80)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for lane, length in enumerate(course.lengths):
        row = len(LANES) - 1 - lane
        widths = np.full(length, longest / length)
        lefts = np.arange(length) * widths
        axes.barh(row, widths, left=lefts, height=0.8, color="#e8f1f8", edgecolor="#7fa7c9")
        for line in course.checkpoints[lane]:
            axes.plot([line * widths[0]] * 2, [row - 0.45, row + 0.45], color="#1d4ed8")
        for obstacle_lane, square in state.board.obstacles:
            if obstacle_lane == lane:
                axes.plot(lefts[square] + widths[0] / 2, row, marker="x", color="black")
    for team, pieces in enumerate(state.board.pieces):
        for piece in pieces:
            if not piece.on_course or piece.lane is None:
                continue
            length = course.length(piece.lane)
            x = (course.physical(piece.lane, piece.s) + 0.5) * longest / length
            y = len(LANES) - 1 - piece.lane + 0.25 * (team - 1.5) / 1.5
            axes.plot(x, y, marker="o", markersize=9, color=TEAM_COLOURS[team])
            axes.annotate(piece_name(team, piece.index), (x, y), fontsize=6, ha="center")
    axes.set_yticks(range(len(LANES)), [name(lane).render() for lane in reversed(LANES)])
    axes.set_xlim(0, longest)
    axes.set_title(state.describe())
    figure.tight_layout()
    return _pixels(figure)


def _pixels(figure: Figure) -> Image:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return _decode(buffer.getvalue())


def _decode(png: bytes) -> Image:
    pixels = imread(io.BytesIO(png), format="png")
    return np.asarray(np.round(pixels[:, :, :3] * 255), dtype=np.uint8)


def tower_text(state: TowerState) -> str:
    """Whose move, the tower (base first), the pieces on the table, reserves and drops."""
    lines = [state.describe()]
    if state.gift is not None:
        lines.append(
            message("Seat {seat} places {piece}.", seat=state.placer, piece=state.gift).render()
        )
    if not state.tower.pieces:
        lines.append(message("Tower: none yet — the next piece goes on the table.").render())
    for piece in state.tower.pieces:
        support = message("the table") if piece.support is None else piece.support
        free = message("top free") if piece.uncovered else message("top covered")
        lines.append(
            message(
                "  {piece}: on {support}, {height} mm, {free}",
                piece=piece.piece,
                support=support,
                height=round(piece.height_mm),
                free=free,
            ).render()
        )
    if state.table:
        lines.append(
            message(
                "On the table: {pieces}", pieces=", ".join(p.piece for p in state.table)
            ).render()
        )
    for seat, reserve in enumerate(state.reserves):
        lines.append(
            message(
                "  seat {seat}: {pieces} · drops: {drops}",
                seat=seat,
                pieces=", ".join(reserve) or "-",
                drops=state.drops[seat],
            ).render()
        )
    return "\n".join(lines) + "\n"


def tower_image(state: TowerState) -> Image:
    """A side view of the tower (and of the pieces on the table after a fall)."""
    from splash.physics.poses import PieceRest, Pose
    from splash.physics.render import side_view_png

    rests = [
        PieceRest(p.piece, p.face, p.support, Pose.of(p.pose["position"], p.pose["quaternion"]))
        for p in (*state.tower.pieces, *state.table)
        if p.pose is not None
    ]
    png = side_view_png(
        state.tower_game.catalogue, rests, size_in=(4.0, 5.0), dpi=80, title=state.describe()
    )
    return _decode(png)


__all__ = ["TEAM_LETTERS", "bash_image", "bash_text", "tower_image", "tower_text"]
