"""What a game is, declared once: :class:`GameDeclaration`, after OpenSpiel's ``GameType``
and ``GameInfo``.

Each game package declares itself (``splash.games.bash.declaration``,
``splash.games.tower.declaration``); :data:`splash.games.GAMES` maps every game id to its
declaration.  The layers above look a game up there and ask it, never naming it: how to
build its rules engine, its seats and their names, its information structure (each seat's
view, the public one, who sees each action whole: :class:`Screens`), the referee's side
(:class:`RefereeSide`), its end summary, what the lobby offers (:class:`Lobby`), the assets
its page draws with, and the extra requests it answers (:data:`Request`).  A declaration
builds rules engines only: the physics, the bots and everything above add themselves in
their own layers (:func:`with_requests`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from splash.core.actions import Action, Json
from splash.core.errors import OptionError
from splash.core.i18n import Message, message
from splash.core.protocol import ChanceEvent, Game, State


class Information(enum.Enum):
    """What the seats know of a state (OpenSpiel's ``GameType.Information``)."""

    PERFECT = "perfect"
    """Every seat sees the whole state; chance outcomes are public."""
    IMPERFECT = "imperfect"
    """Some of the state is hidden from some seats (cards in a hand, say)."""


class SeatKind(enum.Enum):
    """Who sits at a seat."""

    TEAM = "team"
    """A seat is a team, which takes all its decisions (Splash & Bash)."""
    PLAYER = "player"
    """A seat is one player; players may play in teams of seats (the Splash! team variant)."""


Assignments = Iterable[tuple[str, Any]]
"""``--set`` style assignments: ``[("options.teams", 3), ("board.lanes.outer", 36)]``."""
View = Callable[[State, int], dict[str, Json]]
"""What a seat may know of a state: ``view(state, seat)``."""
PublicView = Callable[[State, Sequence[int]], dict[str, Json]]
"""What a spectator or a referee screen may see of a state, with the hands that these seats
revealed: ``public_view(state, revealed)``."""
Audience = Callable[[State, Action], frozenset[int] | None]
"""The seats that may see an action (a decision or a chance outcome) whole, applied to a
state: ``audience(state, action)``; ``None``: every seat and every screen."""
Conceal = Callable[[Action], dict[str, Json]]
"""The JSON form of an action as a seat outside its audience sees it."""
Summary = Callable[[State], dict[str, Json]]
"""The end summary of a game, replayed from its history: public counts only."""
ReportParser = Callable[[State, Mapping[str, Any]], Action]
"""The chance outcome that people at a real table report: ``parse(state, report)``; raises
:class:`~splash.core.errors.OutcomeError` for a report that does not fit the state."""
Assets = Callable[[Game, str], dict[str, Json]]
"""What a game's page draws with (board labels, the piece catalogue), for a game and a
locale, keyed by asset name: ``assets(game, locale)``."""
Request = Callable[[State, int | None, Mapping[str, Any]], Json]
"""The answer to an extra request of a page: ``request(state, seat, body)`` (``seat``:
``None`` for a public screen); raises a :class:`~splash.core.errors.SplashError` for a body
it cannot answer."""


def everyone(state: State, action: Action) -> frozenset[int] | None:
    """Every seat sees every action whole: the audience of a game that hides nothing."""
    return None


def whole(action: Action) -> dict[str, Json]:
    """The whole JSON form of ``action``: a game that conceals nothing of an action."""
    return action.to_json()


def open_view(state: State, revealed: Sequence[int] = ()) -> dict[str, Json]:
    """The public view of a game that hides nothing: any seat's view, with no seat and
    every legal action of the seat to act (``revealed`` changes nothing)."""
    to_act = state.to_act()
    view = state.view(max(to_act, 0))
    view["seat"] = None
    view["legal_actions"] = [a.to_json() for a in state.legal_actions()] if to_act >= 0 else []
    return view


def listed(event: ChanceEvent) -> bool:
    """Every chance event's outcomes may be listed on a referee screen."""
    return True


def nothing_automatic(state: State) -> Action | None:
    """A referee room plays no decision by itself."""
    return None


@dataclass(frozen=True)
class Screens:
    """The information structure of a game, beyond each seat's own view
    (:attr:`GameDeclaration.view`)."""

    public_view: PublicView = open_view
    """What a spectator or a referee screen may see."""
    audience: Audience = everyone
    """Who sees an action whole; the others see :attr:`conceal`'s form of it."""
    conceal: Conceal = whole
    """An action as a seat outside its audience sees it."""


@dataclass(frozen=True)
class RefereeSide:
    """How a game is played at a real table, a referee entering what happens there."""

    digital: frozenset[str] = frozenset()
    """The kinds of chance event a referee room may ask the server to draw itself (digital
    cards, a random deal); the referee enters every other outcome."""
    listed: Callable[[ChanceEvent], bool] = listed
    """Whether a referee screen lists the possible outcomes of a chance event (listing them
    may reveal a hand, or they may not be enumerable)."""
    report: ReportParser | None = None
    """The parser of a report of what happened at the table, for chance outcomes that people
    describe rather than pick from a list (``None``: the game takes no report)."""
    automatic: Callable[[State], Action | None] = nothing_automatic
    """The decision a referee room plays by itself, when the state leaves no real choice
    (``None``: the referee enters it)."""


@dataclass(frozen=True)
class SeatNaming:
    """How people name a seat: ``Team A`` or ``Player 1``.

    >>> SeatNaming("Team {team}", "team", ("A", "B")).name(1).render("en")
    'Team B'
    """

    label: str
    """The ``msgid`` of a seat's name, with one placeholder (``Team {team}``)."""
    placeholder: str
    """The placeholder's name (``team``)."""
    names: tuple[str, ...]
    """What the placeholder takes, seat by seat (``A``, ``B``, ... or ``1``, ``2``, ...)."""
    count_label: str
    """The ``msgid`` of the number of seats, as a form labels it (``Teams``)."""

    def name(self, seat: int) -> Message:
        """The name of ``seat``, a message for people."""
        return Message(self.label, {self.placeholder: self.names[seat]})

    def to_json(self, locale: str) -> dict[str, Json]:
        """The naming, its labels rendered in ``locale``, with each seat's name."""
        return {
            "label": self.label,
            "placeholder": self.placeholder,
            "names": list(self.names),
            "seats": [self.name(seat).render(locale) for seat in range(len(self.names))],
            "count_label": Message(self.count_label).render(locale),
            "count_msgid": self.count_label,
        }


@dataclass(frozen=True)
class Choice:
    """An option the lobby offers: a ``--set`` key and the values it may take, the first
    being the default."""

    key: str
    """The ``--set`` key (``options.deal``)."""
    label: str
    """The ``msgid`` of its label (``Deal``)."""
    values: tuple[str, ...]
    """The values offered, the default first."""
    value_labels: tuple[str, ...] = ()
    """The ``msgid`` of each value's name, in the order of :attr:`values` (none: the values
    are shown as they are, numbers for instance)."""
    variant: bool = False
    """Whether the option is a variant of the rules, not part of the game as designed: the
    lobby shows it under "Variants"."""

    def __post_init__(self) -> None:
        if self.value_labels and len(self.value_labels) != len(self.values):
            raise ValueError(f"{self.key}: {len(self.value_labels)} labels for {self.values}")

    @property
    def default(self) -> str:
        """The value a room gets when the lobby's choice is left alone."""
        return self.values[0]

    def to_json(self, locale: str) -> dict[str, Json]:
        """The option, its label rendered in ``locale``."""
        return {
            "key": self.key,
            "label": Message(self.label).render(locale),
            "msgid": self.label,
            "values": list(self.values),
            "default": self.default,
            "value_labels": [Message(label).render(locale) for label in self.value_labels],
            "value_msgids": list(self.value_labels),
            "variant": self.variant,
        }


@dataclass(frozen=True)
class Level:
    """A bot level a page offers: a translatable label, a bot spec, a rank (easiest
    first)."""

    label: str
    """The ``msgid`` of its name (``Master``)."""
    spec: str
    """The bot it plays, as a spec string (``ismcts:iterations=200``)."""
    order: int
    """Its rank among the game's levels, the easiest lowest."""

    def to_json(self, locale: str) -> dict[str, Json]:
        """The level, its label rendered in ``locale`` (and its ``msgid``, which a page
        translates again when its language changes)."""
        return {
            "label": Message(self.label).render(locale),
            "msgid": self.label,
            "spec": self.spec,
            "order": self.order,
        }


@dataclass(frozen=True)
class Lobby:
    """What the lobby offers for a game, and the pages that play and replay it."""

    page: str | None
    """The page of the game, in the static folder (``bash.html``); ``None``: the game has no
    page of its own, and the pages say so rather than open another game's."""
    default_seats: int
    """The number of seats a new room starts with."""
    replay: str | None = None
    """The module of the replay page that draws the game, in the static ``js`` folder
    (``replay-bash.js``); ``None``: the replay page cannot draw it."""
    choices: tuple[Choice, ...] = ()
    """The options offered beside the number of seats."""
    levels: tuple[Level, ...] = ()
    """The bot levels offered (:meth:`ordered` gives them easiest first)."""

    def ordered(self) -> tuple[Level, ...]:
        """The levels, easiest first."""
        return tuple(sorted(self.levels, key=lambda level: level.order))


Observation = Callable[[State, int], Sequence[float]]
"""What a seat knows of a state as numbers in ``[0, 1]``, always as many:
``observation(state, seat)``, built from ``state.view(seat)`` only."""


@dataclass(frozen=True)
class Variant:
    """A configuration of a game that the game-wide checks play: a name and ``--set``
    assignments."""

    name: str
    """Its name among the game's variants (``3-top-random-deal``)."""
    settings: tuple[tuple[str, Any], ...] = ()
    """The assignments (``(("options.players", 3),)``); none: the default game."""


@dataclass(frozen=True)
class GameDeclaration:
    """One game, as the layers above the rules engines see it.

    >>> from splash.games import GAMES
    >>> bash = GAMES["bash"]
    >>> bash.name, bash.information.value, (bash.min_seats, bash.max_seats)
    ('Splash & Bash', 'imperfect', (2, 4))
    >>> bash.from_settings([("options.teams", 3)]).num_seats
    3
    """

    id: str
    """The game's id on the command line, in documents and in every table (``bash``)."""
    name: str
    """The game's name, as titles give it (``Splash & Bash``)."""
    from_settings: Callable[[Assignments], Game]
    """The rules engine with the shipped data and these ``--set`` assignments; raises
    :class:`~splash.core.errors.ConfigError` (naming the key) for a bad one."""
    from_config: Callable[[Mapping[str, Any]], Game]
    """The rules engine a ``Game.config()`` tree describes (a saved game's, say)."""
    seat: SeatKind
    """Who sits at a seat: a team or a player."""
    seats_key: str
    """The ``--set`` key that sets the number of seats (``options.teams``)."""
    min_seats: int
    """The fewest seats the game is played with."""
    max_seats: int
    """The most seats the game is played with."""
    information: Information
    """Whether anything is hidden from a seat."""
    chance_kinds: frozenset[str]
    """The kinds of chance event its states ask for (``ChanceEvent.kind``)."""
    view: View
    """What a seat may know of a state (``State.view`` does the same)."""
    state_format: str
    """The kind of its state documents, as format tags name it (``splash/<kind>/1``)."""
    summary: Summary
    """The end summary (places and each seat's counts); the same for every seat and screen."""
    seat_naming: SeatNaming
    """How people name a seat."""
    lobby: Lobby
    """What the lobby offers, and the page that plays the game."""
    assets: Assets
    """What the game's page draws with, for a built game and a locale."""
    screens: Screens = Screens()
    """The public view, and who sees each action whole."""
    referee: RefereeSide = RefereeSide()
    """The referee's side: the chance a referee room may have drawn, reports, listings."""
    requests: Mapping[str, Request] = field(default_factory=lambda: MappingProxyType({}))
    """The extra requests a page may make, by kind (a layer above adds its own:
    :func:`with_requests`)."""
    variants: tuple[Variant, ...] = ()
    """The configurations every game-wide check plays (the conformance suite's random
    playouts); none: the game with no assignment (:meth:`checked_variants`)."""
    observation: Observation | None = None
    """What a seat knows of a state as a vector of numbers in ``[0, 1]``, always of the same
    length, for the AI interfaces of a game that has no encoding of its own (``None``: those
    interfaces observe nothing but the legal actions)."""

    def checked_variants(self) -> tuple[Variant, ...]:
        """The configurations to check: :attr:`variants`, or the default one."""
        return self.variants or (Variant("default"),)


def with_requests(declaration: GameDeclaration, **requests: Request) -> GameDeclaration:
    """``declaration`` answering ``requests`` too (a request of the same kind replaced): how
    a layer above the games adds a request that needs it (the physics, say)."""
    merged = {**declaration.requests, **requests}
    return dataclasses.replace(declaration, requests=MappingProxyType(merged))


def registry(*declarations: GameDeclaration) -> Mapping[str, GameDeclaration]:
    """The declarations keyed by id, in the order given; an id declared twice (a game of
    ``SPLASH_GAMES`` that is already known, say) is an :class:`OptionError` naming it."""
    games: dict[str, GameDeclaration] = {}
    for declaration in declarations:
        if declaration.id in games:
            raise OptionError(
                "game",
                declaration.id,
                message("the game {game!r} is declared twice", game=declaration.id),
            )
        games[declaration.id] = declaration
    return games


def unknown_game(games: Mapping[str, GameDeclaration], game_id: object) -> Message:
    """What is wrong with ``game_id``, not a game of ``games``: the known ones are listed."""
    return message(
        "unknown {kind} {name!r} (known: {known})",
        kind="game",
        name=game_id,
        known=", ".join(games),
    )


def declaration_of(
    games: Mapping[str, GameDeclaration], game_id: object, key: str = "game"
) -> GameDeclaration:
    """The declaration of ``game_id``; an :class:`OptionError` naming ``key`` and listing the
    known games for anything else."""
    found = games.get(game_id) if isinstance(game_id, str) else None
    if found is None:
        raise OptionError(key, game_id, unknown_game(games, game_id))
    return found
