"""``/api/rooms/{room_id}/replay``: the action log of a finished game, and any step of it.

A game still running has no replay (409 ``game_running``): its log names the cards in the
teams' hands.  Spectators follow a running game over the WebSocket, with the public view.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from splash.core.i18n import message
from splash.server.api.deps import HubDep, LocaleDep, http_error
from splash.server.hub import GameRunningError, RoomNotFoundError
from splash.server.schemas import ReplayStep

router = APIRouter(prefix="/api/rooms/{room_id}/replay", tags=["replays"])


def _refusal(room_id: str, lang: str, error: Exception) -> Exception:
    if isinstance(error, RoomNotFoundError):
        return http_error(404, "room_not_found", message("no room {room!r}", room=room_id), lang)
    return http_error(
        409,
        "game_running",
        message("the game has not ended: its replay is shown after the end"),
        lang,
    )


@router.get("")
async def read_record(room_id: str, hub: HubDep, lang: LocaleDep) -> dict[str, Any]:
    """The whole action log (``splash/record/1``), chance outcomes included."""
    try:
        record = await hub.record(room_id)
    except (RoomNotFoundError, GameRunningError) as error:
        raise _refusal(room_id, lang, error) from None
    return record.to_json()


@router.get("/{index}")
async def read_step(room_id: str, index: int, hub: HubDep, lang: LocaleDep) -> ReplayStep:
    """The state and every seat's view after the first ``index`` actions."""
    try:
        step = await hub.step(room_id, index)
    except (RoomNotFoundError, GameRunningError) as error:
        raise _refusal(room_id, lang, error) from None
    except IndexError:
        raise http_error(
            404, "no_step", message("no step {index} in this replay", index=index), lang
        ) from None
    return ReplayStep.model_validate(step)
