"""Reaction windows held open: how a person's pass tells the other seats nothing.

At some decisions a seat may always pass, and what else it may do depends on what only it
knows (:meth:`~splash.core.protocol.State.hidden_pass`: a Splash & Bash team with no
playable card in its hand has a lone "Pass").  Were such a pass sent on at once, or a lone
pass played automatically at once, the time the window took would tell the others whether
the team could play.  So, in play mode, every such window of a person's seat lasts at least
the room's ``pass_hold_s``, the same for every seat and every window:

- a pass chosen before then is held, and played when the window's time is up;
- a seat with nothing but the pass is passed for at that moment, unless a person of the
  seat asked to be asked every time (``prefer`` with ``ask_always``);
- a card played is played at once: the card itself is public;
- a decision taken after the window's time shows when it is taken, as at a real table.

Whatever the other seats receive, and when, then depends only on public information and on
decisions taken after the window's time.  Bots' windows are not held.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from splash.core.actions import Action
from splash.core.protocol import State

PASS_HOLD_S: Final = 1.5
"""The least time a window of a person's seat stays open, by default (seconds): about what
a person takes to read the choices and pass, so that holding a quick pass costs little;
four windows of a team turn add at most 6 s to it."""

Ack = Callable[[int], Awaitable[None]]
"""Tells the connection that sent an action its index, once it is stored."""


@dataclass(frozen=True)
class HeldPass:
    """A pass a person chose before its window's time was up: the action and its ``ack``."""

    action: Action
    ack: Ack | None


@dataclass
class Window:
    """The reaction window open at action ``index`` for ``seat``: it may close at ``due``
    (the runtime's clock), with ``pass_action`` if nothing else is chosen."""

    index: int
    seat: int
    due: float
    pass_action: Action
    held: HeldPass | None = None


def open_window(
    state: State, *, index: int, person: bool, hold_s: float, now: float
) -> Window | None:
    """The window to hold for ``state`` at action ``index`` (``person``: whether the seat
    to act is a person's), or ``None`` when nothing is held: not such a decision, a bot's,
    or holding turned off (``hold_s`` 0)."""
    if hold_s <= 0 or not person:
        return None
    seat = state.to_act()
    if seat < 0:
        return None
    pass_action = state.hidden_pass()
    if pass_action is None:
        return None
    return Window(index, seat, now + hold_s, pass_action)


def lone_pass(state: State, window: Window) -> bool:
    """Whether the window's pass is the only thing its seat may do."""
    return state.legal_actions() == [window.pass_action]
