"""``POST /api/rooms/{room}/requests/{kind}``: an extra request of a page, answered by the
function its game's declaration (or a layer above, for it) gives for ``kind``
(:attr:`~splash.games.registry.GameDeclaration.requests`): the server looks the request up
by its kind and never names the game.

The body is the request's JSON object; ``Authorization: Bearer SEAT_TOKEN`` asks as that
seat (without it, as a public screen).  The answer is ``{"kind": ..., "index": n,
"answer": ...}`` (``index``: the log's length it answers for).  404 ``room_not_found`` or
``unknown_request`` (the message lists the known kinds), 403 ``bad_token`` for a token that
opens no seat, 422 ``bad_request`` for a body the game cannot answer.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from splash.core.errors import OptionError, SplashError
from splash.core.i18n import message
from splash.server.api.deps import HubDep, LocaleDep, http_error, room_or_404
from splash.server.hub import token_hash
from splash.server.room import Room
from splash.server.rules import request_handler

router = APIRouter(tags=["requests"])

SeatCredentials = Annotated[
    HTTPAuthorizationCredentials | None,
    Depends(HTTPBearer(auto_error=False, description="A seat's token.")),
]


def seat_of(room: Room, token: str | None) -> int | None:
    """The seat ``token`` opens in ``room`` (``None`` without a token); a ``LookupError``
    for a token that opens none."""
    if token is None:
        return None
    digest = token_hash(token)
    for seat in room.seats:
        if seat.token and secrets.compare_digest(digest, seat.token):
            return seat.seat
    raise LookupError("no seat")


@router.post("/api/rooms/{room_id}/requests/{kind}")
async def answer_request(
    room_id: str,
    kind: str,
    *,
    hub: HubDep,
    lang: LocaleDep,
    credentials: SeatCredentials,
    body: Annotated[dict[str, Any] | None, Body()] = None,
) -> dict[str, Any]:
    """The answer of the room's game to the request ``kind`` for the room's current state."""
    room = await room_or_404(hub, room_id, lang)
    try:
        request_handler(room.row.game, kind, room.row.mode)
    except OptionError as error:
        raise http_error(404, "unknown_request", error.problem, lang) from None
    try:
        seat = seat_of(room, credentials.credentials if credentials else None)
    except LookupError:
        raise http_error(
            403, "bad_token", message("this token opens no seat of this room"), lang
        ) from None
    async with room.lock:
        index = room.index
        try:
            found = await room.answer(kind, seat, body or {})
        except SplashError as error:
            raise http_error(422, "bad_request", error.text, lang) from None
    return {"kind": kind, "index": index, "answer": found}
