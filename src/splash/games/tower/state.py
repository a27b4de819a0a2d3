"""A position of Splash!: reserves, the tower, drops, and whose move it is (T03-T18).

Phases (:data:`~splash.games.tower.records.Phase`): ``draft`` (a seat takes a piece),
``deal`` (chance: a random deal), ``give``, ``place``, ``result`` (chance: the placement's
outcome, from the physics or from people), ``base`` (the new base after a fall), ``keep``
(the pieces taken back), ``over``.

Every piece is in exactly one place after every action (T01): the pile, a reserve, the hand
(``gift``, between giving and the outcome), the tower, the table or the box.  After a fall
the pieces lie on the table (``table``, with the standing ``stacks``) until the new base
leaves it for the tower; a fall that ends the game (T15) leaves them there.

The state is the record the rest of the package acts on: the rules (:mod:`.rules`), the
outcome reports (:mod:`.reports`), the documents (:mod:`.view`, :mod:`.reading`) import it,
never the other way round.  Its protocol methods reach them through its game's
:class:`TowerRulebook` (:attr:`TowerGame.rulebook <splash.games.tower.game.TowerGame.rulebook>`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from splash.core.actions import Action, Json
from splash.core.errors import DocumentError, IllegalActionError
from splash.core.i18n import Message, message
from splash.core.protocol import CHANCE, TERMINAL, ChanceEvent, State
from splash.games.tower.outcome import PlacementOutcome
from splash.games.tower.records import (
    Phase,
    PlacementRecord,
    TowerEvent,
    WinEvent,
    record_json,
)
from splash.games.tower.tower import TABLE, Tower, TowerPiece, stack_height

if TYPE_CHECKING:
    from splash.games.tower.game import TowerGame


@dataclass(frozen=True, slots=True)
class TowerRulebook:
    """What acts on a :class:`TowerState`, handed to it by its game: each function lives in
    a module that imports the state (the state imports none of them)."""

    legal_gifts: Callable[[TowerState], list[str]]
    """The pieces the giver may give (:func:`splash.games.tower.rules.legal_gifts`)."""
    target_of: Callable[[TowerState, str], TowerPiece | None]
    """Where a piece must go, ``None`` for the table (:func:`~splash.games.tower.rules.target_of`)."""
    placement_problem: Callable[[TowerState, Action], Message | None]
    """What is wrong with a placement's pose (:func:`~splash.games.tower.rules.placement_problem`)."""
    outcome_problem: Callable[[TowerState, PlacementOutcome], Message | None]
    """What makes an outcome impossible (:func:`~splash.games.tower.reports.outcome_problem`)."""
    view: Callable[[TowerState, int], dict[str, Json]]
    """A seat's view (:func:`~splash.games.tower.view.view_json`)."""
    document: Callable[[TowerState], dict[str, Json]]
    """The whole state (:func:`~splash.games.tower.view.state_json`)."""
    read: Callable[[TowerState, object], None]
    """Fill a bare state from a document (:func:`~splash.games.tower.reading.read_document`)."""


class TowerState(State):
    """One position of a Splash! game (seats are players)."""

    def __init__(self, game: TowerGame) -> None:
        super().__init__(game)
        self._tower_game = game
        options = game.options
        n = options.players
        self.reserves: list[list[str]] = [[] for _ in range(n)]
        self.pile: list[str] = list(game.catalogue.piece_ids)
        self.box: list[str] = []
        self.tower = Tower()
        self.drops = [0] * n
        self.giver = options.first_player
        self.gift: str | None = None
        self.gift_from: int | None = None
        self.placement: PlacementRecord | None = None
        """The pose the placer chose (empty: by hand); ``None`` before the placement."""
        self.placements = 0
        self.chooser: int | None = None
        self.table: tuple[TowerPiece, ...] = ()
        """The pieces on the table after a fall, outside the tower."""
        self.stacks: dict[str, tuple[str, ...]] = {}
        """The standing stacks among them, by base (T11)."""
        self.candidates: tuple[str, ...] = ()
        self.keep_left = 0
        self.winner: int | None = None
        self.events: list[TowerEvent] = []
        self.drafted = 0
        self.phase: Phase = "draft" if options.deal == "draft" else "deal"
        self._finish_deal_if_done()

    # ----- protocol ---------------------------------------------------------------------

    @property
    def tower_game(self) -> TowerGame:
        """The game, with its options and catalogue."""
        return self._tower_game

    @property
    def players(self) -> int:
        """How many players sit at the table."""
        return self._tower_game.options.players

    @property
    def placer(self) -> int:
        """The giver's left neighbour, who places the gift (T04)."""
        return (self.giver + 1) % self.players

    def drafting_seat(self) -> int:
        """Who takes the next piece of the draft or the deal (first player first, T03)."""
        return (self._tower_game.options.first_player + self.drafted) % self.players

    def to_act(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""
        match self.phase:
            case "over":
                return TERMINAL
            case "deal" | "result":
                return CHANCE
            case "draft":
                return self.drafting_seat()
            case "give":
                return self.giver
            case "place":
                return self.placer
            case "base" | "keep":
                assert self.chooser is not None
                return self.chooser

    def legal_actions(self) -> list[Action]:
        """Legal decisions (or, for a deal, the possible pieces), sorted by id."""
        space = self._tower_game.action_space
        match self.phase:
            case "draft":
                return _by_id(space.find("take", piece=p) for p in self.pile)
            case "deal":
                return [a for a, _ in self.chance_outcomes()]
            case "give":
                return _by_id(
                    space.find("give", piece=p) for p in self._tower_game.rulebook.legal_gifts(self)
                )
            case "place":
                return [space.find("place")]
            case "base":
                return _by_id(space.find("base", piece=p) for p in self.candidates)
            case "keep":
                return _by_id(space.find("keep", piece=p.piece) for p in self.table)
            case "result" | "over":
                return []

    def chance_event(self) -> ChanceEvent | None:
        """The deal of a piece, or a placement's outcome."""
        if self.phase == "deal":
            return ChanceEvent("deal", {"seat": self.drafting_seat()})
        if self.phase == "result":
            assert self.gift is not None
            target = self._tower_game.rulebook.target_of(self, self.gift)
            return ChanceEvent(
                "placement",
                {
                    "piece": self.gift,
                    "target": target.piece if target is not None else TABLE,
                    "placer": self.placer,
                    "placement": self._placement_json(),
                },
            )
        return None

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """A deal's pieces, each equally likely; a placement's outcomes are not enumerable."""
        if self.phase != "deal":
            return []
        space = self._tower_game.action_space
        chance = Fraction(1, len(self.pile))
        return sorted(
            ((space.find("deal", piece=p), chance) for p in self.pile), key=lambda x: x[0].id
        )

    def _illegal_reason(self, action: Action) -> Message | None:
        if self.phase == "over":
            return message("the game is over")
        if action.kind == "place" and self.phase == "place":
            return self._tower_game.rulebook.placement_problem(self, action)
        if action.kind == "result" and self.phase == "result":
            try:
                parsed = PlacementOutcome.parse(action.param("outcome"))
            except DocumentError as error:
                return error.text
            return self._tower_game.rulebook.outcome_problem(self, parsed)
        return super()._illegal_reason(action)

    def win_event(self) -> WinEvent | None:
        """The ``win`` event, when the last action won the game (T14, T15)."""
        for event in self.events:
            if event["event"] == "win":
                return event
        return None

    def returns(self) -> list[float]:
        """+1 for each seat of the winning team, -1/(teams-1) for the others."""
        teams = self._tower_game.teams
        if self.winner is None:
            return [0.0] * self.players
        winners = teams[self.winner].seats
        losing = -1.0 / (len(teams) - 1)
        return [1.0 if seat in winners else losing for seat in range(self.players)]

    def _apply(self, action: Action) -> None:
        self.events = []
        match action.kind:
            case "take" | "deal":
                self._deal_to(self.drafting_seat(), str(action.param("piece")))
            case "give":
                self._give(str(action.param("piece")))
            case "place":
                self._place(action)
            case "result":
                self._result(PlacementOutcome.parse(action.param("outcome")))
            case "base":
                self._choose_base(str(action.param("piece")))
            case "keep":
                self._keep(str(action.param("piece")))
            case _:
                raise IllegalActionError(str(action), self.describe())

    # ----- set-up -----------------------------------------------------------------------

    def _deal_to(self, seat: int, piece: str) -> None:
        self.pile.remove(piece)
        self.reserves[seat].append(piece)
        self.drafted += 1
        self.events.append({"event": "take", "seat": seat, "piece": piece})
        self._finish_deal_if_done()

    def _finish_deal_if_done(self) -> None:
        share = len(self._tower_game.catalogue.piece_ids) // self.players
        if self.drafted >= share * self.players:
            self.box.extend(sorted(self.pile))
            self.pile = []
            self.phase = "give"

    # ----- a turn -----------------------------------------------------------------------

    def _give(self, piece: str) -> None:
        owner = next(seat for seat, reserve in enumerate(self.reserves) if piece in reserve)
        self.reserves[owner].remove(piece)
        self.gift, self.gift_from = piece, owner
        self.events.append({"event": "give", "seat": self.giver, "piece": piece, "from": owner})
        self.phase = "place"

    def _place(self, action: Action) -> None:
        pose = dict(action.params)
        self.placement = (
            PlacementRecord(
                face=pose["face"],
                rotation_deg=pose["rotation_deg"],
                x_mm=pose["x_mm"],
                y_mm=pose["y_mm"],
            )
            if pose
            else PlacementRecord()
        )
        self.phase = "result"

    def _placement_json(self) -> Json:
        return None if self.placement is None else record_json(self.placement)

    def _result(self, outcome: PlacementOutcome) -> None:
        assert self.gift is not None
        self.placements += 1
        self.events.append({"event": outcome.result, "seat": self.placer, "piece": self.gift})
        match outcome.result:
            case "stood":
                self._stood(outcome)
            case "fell":
                self._fell(outcome)
            case "spontaneous":
                self.box.extend(self.tower.ids())
                self.tower = Tower()
                self.placement = None
                self.phase = "place"
            case "knocked":
                self._knocked(outcome)
        if self.phase != "over" and self.placements >= self._tower_game.options.turn_cap:
            self.phase = "over"
            self.events.append({"event": "turn_cap"})

    def _stood(self, outcome: PlacementOutcome) -> None:
        assert self.gift is not None and self.gift_from is not None
        order = self.tower.next_order()
        old = {p.piece: p.order for p in self.tower.pieces}
        self.tower = Tower(tuple(replace(p, order=old.get(p.piece, order)) for p in outcome.tower))
        giver, owner = self.giver, self.gift_from
        self._clear_gift()
        if not self.reserves[giver]:
            self._win(giver, "pieces")
        elif owner != giver and not self.reserves[owner]:
            self._win(owner, "pieces")
        else:
            self.giver = self.placer
            self.phase = "give"

    def _fell(self, outcome: PlacementOutcome) -> None:
        giver, placer = self.giver, self.placer
        self._clear_gift()
        self._to_table(outcome)
        options = self._tower_game.options
        if sum(self.drops) < options.drop_supply:
            self.drops[giver] += 1
            self.events.append({"event": "drop", "seat": giver, "drops": self.drops[giver]})
            if self.drops[giver] >= options.drops_to_win:
                self._win(giver, "drops")  # T15 at once: the pieces stay on the table
                return
        self._after_collapse(chooser=placer)

    def _knocked(self, outcome: PlacementOutcome) -> None:
        assert self.gift is not None and self.gift_from is not None and outcome.knocker is not None
        self.reserves[self.gift_from].append(self.gift)
        self.events.append({"event": "returned", "seat": self.gift_from, "piece": self.gift})
        self._clear_gift()
        self._to_table(outcome)
        self._after_collapse(chooser=outcome.knocker)

    def _clear_gift(self) -> None:
        self.gift, self.gift_from, self.placement = None, None, None

    def _to_table(self, outcome: PlacementOutcome) -> None:
        """The fallen tower: every piece on the table, the standing stacks noted (T11)."""
        self.tower = Tower()
        self.table = outcome.tower
        self.stacks = {stack[0]: stack for stack in outcome.stacks}

    def _after_collapse(self, *, chooser: int) -> None:
        """T11-T13: the new base, the pieces taken back, then the chooser gives."""
        self.chooser = chooser
        tolerance = self._tower_game.options.height_tolerance_mm
        by_id = {p.piece: p for p in self.table}
        stacks = [tuple(by_id[p] for p in stack) for stack in self.stacks.values()]
        tallest = max((stack_height(s) for s in stacks), default=0.0)
        top = [s for s in stacks if stack_height(s) >= tallest - tolerance]
        if top and all(len(s) > 1 for s in top):
            self.candidates = tuple(s[0].piece for s in top)
        else:
            self.candidates = tuple(p.piece for p in self.table)
        if len(self.candidates) == 1:
            self._choose_base(self.candidates[0])
        else:
            self.phase = "base"

    def _choose_base(self, base: str) -> None:
        stack = self.stacks.get(base, (base,)) if base in self.candidates else (base,)
        by_id = {p.piece: p for p in self.table}
        pieces = []
        for order, piece in enumerate(stack):
            p = by_id[piece]
            pieces.append(
                replace(
                    p,
                    support=p.support if piece != base else None,
                    uncovered=p.uncovered or piece == stack[-1],
                    order=order,
                )
            )
        self.tower = Tower(tuple(pieces))
        assert self.chooser is not None
        self.events.append({"event": "base", "seat": self.chooser, "piece": base})
        self.table = tuple(p for p in self.table if p.piece not in stack)
        take_back = self._tower_game.options.take_back
        if len(self.table) <= take_back:
            self._keep_all()
        else:
            self.keep_left = take_back
            self.phase = "keep"

    def _keep(self, piece: str) -> None:
        assert self.chooser is not None
        self.reserves[self.chooser].append(piece)
        self.events.append({"event": "keep", "seat": self.chooser, "piece": piece})
        self.table = tuple(p for p in self.table if p.piece != piece)
        self.keep_left -= 1
        if self.keep_left == 0:
            self.box.extend(p.piece for p in self.table)
            self.events.append({"event": "boxed", "pieces": [p.piece for p in self.table]})
            self._end_collapse()

    def _keep_all(self) -> None:
        assert self.chooser is not None
        for p in self.table:
            self.reserves[self.chooser].append(p.piece)
            self.events.append({"event": "keep", "seat": self.chooser, "piece": p.piece})
        self._end_collapse()

    def _end_collapse(self) -> None:
        assert self.chooser is not None
        self.giver = self.chooser
        self.chooser, self.table, self.candidates, self.keep_left = None, (), (), 0
        self.stacks = {}
        self.phase = "give"

    def _win(self, seat: int, how: Literal["pieces", "drops"]) -> None:
        self.winner = self._tower_game.team_of(seat).id
        self.events.append({"event": "win", "seat": seat, "team": self.winner, "by": how})
        self.phase = "over"

    # ----- documents --------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Json]:
        """Everything is open in Splash! (reserves included, TD03): the whole state but its
        history, with the seat's legal actions (:class:`~splash.games.tower.view.TowerView`)."""
        return self._tower_game.rulebook.view(self, seat)

    def describe(self) -> str:
        """A one-line public description."""
        if self.phase == "over":
            return "game over" + (f": team {self.winner} won" if self.winner is not None else "")
        who = "chance" if self.to_act() == CHANCE else f"seat {self.to_act()}"
        return f"placement {self.placements + 1}, {who} to act: {self.phase}"

    def to_json(self) -> dict[str, Json]:
        """The whole state, format ``splash/tower/1``
        (:class:`~splash.games.tower.view.TowerDocument`)."""
        return self._tower_game.rulebook.document(self)

    @classmethod
    def from_json(cls, game: TowerGame, doc: object) -> TowerState:
        """The state a :meth:`to_json` document describes; :class:`DocumentError` naming the
        field (``tower[3].support``) and its value, or the piece that is in two places or in
        none (T01), when it is not one."""
        state = cls.__new__(cls)
        State.__init__(state, game)
        state._tower_game = game
        game.rulebook.read(state, doc)
        return state


def _by_id(actions: Iterable[Action]) -> list[Action]:
    return sorted(actions, key=lambda a: a.id)
