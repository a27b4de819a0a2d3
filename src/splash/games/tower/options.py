"""The rule options of Splash! (T02, T05, TD02, TD03, TD07, TD11, TD14)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Steadiness(_Strict):
    """The size of a placer's tremor (TD14): standard deviations of the executed pose."""

    position_mm: Annotated[float, Field(ge=0.0, le=20.0)] = 0.5
    angle_deg: Annotated[float, Field(ge=0.0, le=45.0)] = 1.0
    height_mm: Annotated[float, Field(ge=0.0, le=20.0)] = 0.5


class TowerOptions(_Strict):
    """Every option of a Splash! game."""

    players: Annotated[int, Field(ge=2, le=6)] = 4
    placement: Literal["highest-matching", "top"] = "highest-matching"
    deal: Literal["draft", "random"] = "draft"
    first_player: Annotated[int, Field(ge=0, le=5)] = 0
    teams: Literal[0, 2, 3] = 0
    """0: everyone for themselves; 2 or 3 teams with 4 or 6 players (T16, TD11)."""
    drops_to_win: Annotated[int, Field(ge=1, le=14)] = 3
    drop_supply: Annotated[int, Field(ge=1, le=100)] = 14
    take_back: Annotated[int, Field(ge=0, le=30)] = 3
    fall_distance_mm: Annotated[float, Field(gt=0.0, le=100.0)] = 5.0
    fall_angle_deg: Annotated[float, Field(gt=0.0, le=90.0)] = 10.0
    height_tolerance_mm: Annotated[float, Field(ge=0.0, le=20.0)] = 2.0
    steadiness: Steadiness = Steadiness()
    seat_steadiness: list[Steadiness] = Field(default_factory=list)
    """Per-seat steadiness; seats beyond the list use ``steadiness``."""
    turn_cap: Annotated[int, Field(ge=1, le=100_000)] = 1000
    """Placements before a game ends without a winner (a safety net; real games end first)."""
    placement_aid: Literal["region", "odds"] = "region"
    """What a play page shows a person who places: where the piece may go with room to
    spare and where it stands steadiest (``region``), and with ``odds`` also the chance
    that the pose shown stands under this seat's tremor. It changes no rule."""

    @model_validator(mode="after")
    def _consistent(self) -> TowerOptions:
        if self.first_player >= self.players:
            raise ValueError("first_player must be a seat of the game")
        if self.teams and self.players not in (4, 6):
            raise ValueError("teams are played with 4 or 6 players")
        if self.teams == 3 and self.players != 6:
            raise ValueError("three teams need 6 players")
        if len(self.seat_steadiness) > self.players:
            raise ValueError("more seat_steadiness entries than players")
        return self

    def steadiness_of(self, seat: int) -> Steadiness:
        """The steadiness of ``seat``'s hand."""
        if seat < len(self.seat_steadiness):
            return self.seat_steadiness[seat]
        return self.steadiness

    def team_seats(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each team (TD11); each player alone without teams."""
        n = self.players
        if not self.teams:
            return tuple((seat,) for seat in range(n))
        return tuple(tuple(range(t, n, self.teams)) for t in range(self.teams))
