"""A position of Splash!: reserves, the tower, drops, and whose move it is (T03-T18).

Phases: ``draft`` (a seat takes a piece), ``deal`` (chance: a random deal), ``give``,
``place``, ``result`` (chance: the placement's outcome, from the physics or from people),
``base`` (the new base after a fall), ``keep`` (the pieces taken back), ``over``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from splash.core.actions import Action, Json
from splash.core.documents import check_format, format_tag
from splash.core.i18n import Message, message
from splash.core.protocol import CHANCE, TERMINAL, ChanceEvent, State
from splash.games.tower import rules
from splash.games.tower.outcome import PlacementOutcome, check
from splash.games.tower.tower import TABLE, Tower, TowerPiece, stack_height

if TYPE_CHECKING:
    from splash.games.tower.game import TowerGame

STATE_KIND = "tower"


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
        self.placement: dict[str, Json] | None = None
        self.placements = 0
        self.chooser: int | None = None
        self.table: tuple[TowerPiece, ...] = ()
        self.candidates: tuple[str, ...] = ()
        self.keep_left = 0
        self.winner: int | None = None
        self.events: list[dict[str, Json]] = []
        self.drafted = 0
        self.phase = "draft" if options.deal == "draft" else "deal"
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
        if self.phase == "over":
            return TERMINAL
        if self.phase in ("deal", "result"):
            return CHANCE
        if self.phase == "draft":
            return self.drafting_seat()
        if self.phase == "give":
            return self.giver
        if self.phase == "place":
            return self.placer
        assert self.chooser is not None
        return self.chooser

    def legal_actions(self) -> list[Action]:
        """Legal decisions (or, for a deal, the possible pieces), sorted by id."""
        space = self._tower_game.action_space
        if self.phase == "draft":
            return sorted((space.find("take", piece=p) for p in self.pile), key=lambda a: a.id)
        if self.phase == "deal":
            return [a for a, _ in self.chance_outcomes()]
        if self.phase == "give":
            return sorted(
                (space.find("give", piece=p) for p in rules.legal_gifts(self)), key=lambda a: a.id
            )
        if self.phase == "place":
            return [space.find("place")]
        if self.phase == "base":
            return sorted(
                (space.find("base", piece=p) for p in self.candidates), key=lambda a: a.id
            )
        if self.phase == "keep":
            return sorted(
                (space.find("keep", piece=p.piece) for p in self.table), key=lambda a: a.id
            )
        return []

    def chance_event(self) -> ChanceEvent | None:
        """The deal of a piece, or a placement's outcome."""
        if self.phase == "deal":
            return ChanceEvent("deal", {"seat": self.drafting_seat()})
        if self.phase == "result":
            assert self.gift is not None
            target = rules.target_of(self, self.gift)
            return ChanceEvent(
                "placement",
                {
                    "piece": self.gift,
                    "target": target.piece if target is not None else TABLE,
                    "placer": self.placer,
                    "placement": self.placement,
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
            return rules.placement_problem(self, action)
        if action.kind == "result" and self.phase == "result":
            parsed = PlacementOutcome.parse(
                dict(action.params).get("outcome") and action.param("outcome")
            )
            if isinstance(parsed, Message):
                return parsed
            assert self.gift is not None
            target = rules.target_of(self, self.gift)
            return check(
                parsed,
                before=self.tower.ids(),
                gift=self.gift,
                target=target.piece if target is not None else None,
                players=self.players,
            )
        return super()._illegal_reason(action)

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
        getattr(self, f"_on_{action.kind}")(action)

    # ----- set-up -----------------------------------------------------------------------

    def _on_take(self, action: Action) -> None:
        self._deal_to(self.drafting_seat(), str(action.param("piece")))

    def _on_deal(self, action: Action) -> None:
        self._deal_to(self.drafting_seat(), str(action.param("piece")))

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

    def _on_give(self, action: Action) -> None:
        piece = str(action.param("piece"))
        owner = next(seat for seat, reserve in enumerate(self.reserves) if piece in reserve)
        self.reserves[owner].remove(piece)
        self.gift, self.gift_from = piece, owner
        self.events.append({"event": "give", "seat": self.giver, "piece": piece, "from": owner})
        self.phase = "place"

    def _on_place(self, action: Action) -> None:
        self.placement = {k: v for k, v in action.to_json().items() if k != "kind"}
        self.phase = "result"

    def _on_result(self, action: Action) -> None:
        outcome = PlacementOutcome.parse(action.param("outcome"))
        assert isinstance(outcome, PlacementOutcome) and self.gift is not None
        self.placements += 1
        self.events.append({"event": outcome.result, "seat": self.placer, "piece": self.gift})
        if outcome.result == "stood":
            self._stood(outcome)
        elif outcome.result == "fell":
            self._fell(outcome)
        elif outcome.result == "spontaneous":
            self.box.extend(self.tower.ids())
            self.tower = Tower()
            self.placement = None
            self.phase = "place"
        else:
            self._knocked(outcome)
        if self.phase != "over" and self.placements >= self._tower_game.options.turn_cap:
            self.phase = "over"
            self.events.append({"event": "turn_cap"})

    def _stood(self, outcome: PlacementOutcome) -> None:
        assert self.gift is not None and self.gift_from is not None
        order = self.tower.next_order()
        old = {p.piece: p.order for p in self.tower.pieces}
        self.tower = Tower(
            tuple(
                TowerPiece(
                    p.piece,
                    p.support,
                    p.face,
                    p.height_mm,
                    p.uncovered,
                    old.get(p.piece, order),
                    p.pose,
                )
                for p in outcome.tower
            )
        )
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
        options = self._tower_game.options
        if sum(self.drops) < options.drop_supply:
            self.drops[giver] += 1
            self.events.append({"event": "drop", "seat": giver, "drops": self.drops[giver]})
            if self.drops[giver] >= options.drops_to_win:
                self._win(giver, "drops")
                return
        self._after_collapse(outcome, chooser=placer)

    def _knocked(self, outcome: PlacementOutcome) -> None:
        assert self.gift is not None and self.gift_from is not None and outcome.knocker is not None
        self.reserves[self.gift_from].append(self.gift)
        self.events.append({"event": "returned", "seat": self.gift_from, "piece": self.gift})
        self._clear_gift()
        self._after_collapse(outcome, chooser=outcome.knocker)

    def _clear_gift(self) -> None:
        self.gift, self.gift_from, self.placement = None, None, None

    def _after_collapse(self, outcome: PlacementOutcome, *, chooser: int) -> None:
        """T11-T13: the new base, the pieces taken back, then the chooser gives."""
        self.chooser = chooser
        self.table = outcome.tower
        tolerance = self._tower_game.options.height_tolerance_mm
        by_id = {p.piece: p for p in outcome.tower}
        stacks = [tuple(by_id[p] for p in stack) for stack in outcome.stacks]
        tallest = max((stack_height(s) for s in stacks), default=0.0)
        top = [s for s in stacks if stack_height(s) >= tallest - tolerance]
        if top and all(len(s) > 1 for s in top):
            self.candidates = tuple(s[0].piece for s in top)
        else:
            self.candidates = tuple(p.piece for p in outcome.tower)
        self._stacks = {s[0].piece: tuple(p.piece for p in s) for s in stacks}
        if len(self.candidates) == 1:
            self._choose_base(self.candidates[0])
        else:
            self.phase = "base"

    def _on_base(self, action: Action) -> None:
        self._choose_base(str(action.param("piece")))

    def _choose_base(self, base: str) -> None:
        stack = self._stacks.get(base, (base,)) if base in self.candidates else (base,)
        by_id = {p.piece: p for p in self.table}
        pieces = []
        for order, piece in enumerate(stack):
            p = by_id[piece]
            support = p.support if piece != base else None
            pieces.append(
                TowerPiece(
                    piece,
                    support,
                    p.face,
                    p.height_mm,
                    p.uncovered or piece == stack[-1],
                    order,
                    p.pose,
                )
            )
        self.tower = Tower(tuple(pieces))
        self.events.append({"event": "base", "seat": self.chooser, "piece": base})
        self.table = tuple(p for p in self.table if p.piece not in stack)
        take_back = self._tower_game.options.take_back
        if len(self.table) <= take_back:
            self._keep_all()
        else:
            self.keep_left = take_back
            self.phase = "keep"

    def _on_keep(self, action: Action) -> None:
        piece = str(action.param("piece"))
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
        self._stacks = {}
        self.phase = "give"

    def _win(self, seat: int, how: str) -> None:
        self.winner = self._tower_game.team_of(seat).id
        self.events.append({"event": "win", "seat": seat, "team": self.winner, "by": how})
        self.phase = "over"

    # ----- documents --------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Json]:
        """Everything is open in Splash! (reserves included, TD03): the whole state."""
        doc = self.to_json()
        doc["format"] = format_tag("tower-view", 1)
        doc["seat"] = seat
        doc["to_act"] = self.to_act()
        doc["legal_actions"] = (
            [a.to_json() for a in self.legal_actions()] if self.to_act() == seat else []
        )
        if self.phase in ("place", "result") and self.gift is not None:
            target = rules.target_of(self, self.gift)
            doc["target"] = target.piece if target is not None else "table"
        del doc["history"]
        return doc

    def describe(self) -> str:
        """A one-line public description."""
        if self.phase == "over":
            return "game over" + (f": team {self.winner} won" if self.winner is not None else "")
        who = "chance" if self.to_act() == CHANCE else f"seat {self.to_act()}"
        return f"placement {self.placements + 1}, {who} to act: {self.phase}"

    def to_json(self) -> dict[str, Json]:
        """The whole state, format ``splash/tower/1``."""
        return {
            "format": format_tag(STATE_KIND, 1),
            "config": self._tower_game.config(),
            "phase": self.phase,
            "reserves": [list(r) for r in self.reserves],
            "pile": list(self.pile),
            "box": list(self.box),
            "tower": self.tower.to_json(),
            "drops": list(self.drops),
            "giver": self.giver,
            "gift": self.gift,
            "gift_from": self.gift_from,
            "placement": self.placement,
            "placements": self.placements,
            "chooser": self.chooser,
            "table": [p.to_json() for p in self.table],
            "candidates": list(self.candidates),
            "stacks": {k: list(v) for k, v in getattr(self, "_stacks", {}).items()},
            "keep_left": self.keep_left,
            "drafted": self.drafted,
            "winner": self.winner,
            "events": list(self.events),
            "history": [a.to_json() for a in self._history],
        }

    @classmethod
    def from_json(cls, game: TowerGame, doc: Mapping[str, Any]) -> TowerState:
        """The state a :meth:`to_json` document describes."""
        check_format(doc, STATE_KIND)
        state = cls.__new__(cls)
        State.__init__(state, game)
        state._tower_game = game
        state.phase = str(doc["phase"])
        state.reserves = [[str(p) for p in r] for r in doc["reserves"]]
        state.pile = [str(p) for p in doc["pile"]]
        state.box = [str(p) for p in doc["box"]]
        state.tower = Tower.from_json(doc["tower"])
        state.drops = [int(d) for d in doc["drops"]]
        state.giver = int(doc["giver"])
        state.gift = doc["gift"]
        state.gift_from = doc["gift_from"]
        state.placement = doc["placement"]
        state.placements = int(doc["placements"])
        state.chooser = doc["chooser"]
        state.table = tuple(TowerPiece.from_json(p) for p in doc["table"])
        state.candidates = tuple(str(p) for p in doc["candidates"])
        state._stacks = {str(k): tuple(v) for k, v in doc["stacks"].items()}
        state.keep_left = int(doc["keep_left"])
        state.drafted = int(doc["drafted"])
        state.winner = doc["winner"]
        state.events = list(doc["events"])
        state._history = [game.parse_action(a) for a in doc["history"]]
        return state
