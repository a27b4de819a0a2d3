"""What the server sends one connection, queued: nobody waits on a slow reader.

Every message for a connection goes through its :class:`Outbox`, a bounded queue that one
task empties onto the socket in order.  A room sends to each of its connections without
waiting for any of them; a client that stops reading fills its queue and is dropped (closed
with :data:`CLOSE_TOO_SLOW`) instead of being buffered without end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final

from starlette.websockets import WebSocket

from splash.core.actions import Json
from splash.server.protocol import encode

log = logging.getLogger("splash.server")

CLOSE_TOO_SLOW: Final = 4408
"""The close code of a connection dropped because it did not read its messages."""
CLOSE_TIMEOUT_S: Final = 5.0
"""How long a close may take on a socket that does not drain before it is abandoned."""


class ConnectionGoneError(ConnectionError):
    """The connection was closed (by the client, or dropped): nothing more reaches it."""


class Outbox:
    """The queue of one WebSocket's messages; at most ``limit`` waiting at once."""

    def __init__(self, websocket: WebSocket, limit: int) -> None:
        self.websocket = websocket
        self.limit = limit
        self.gone = False
        self._queue: asyncio.Queue[str | int] = asyncio.Queue()
        self._task = asyncio.create_task(self._write(), name="outbox")

    async def send(self, doc: dict[str, Json] | str) -> None:
        """Queue ``doc`` (or its JSON text, sent as it is); raises :class:`ConnectionGoneError` once the connection is gone,
        or when the queue is full (the connection is dropped then)."""
        if self.gone:
            raise ConnectionGoneError
        if self._queue.qsize() >= self.limit:
            log.warning("a connection that does not read its messages is dropped")
            self.gone = True
            self._task.cancel()
            self._task = asyncio.create_task(self._close_now(CLOSE_TOO_SLOW), name="outbox-drop")
            raise ConnectionGoneError
        self._queue.put_nowait(doc if isinstance(doc, str) else encode(doc))

    async def close(self, code: int) -> None:
        """Close the connection with ``code`` once the messages queued before are sent."""
        if not self.gone:
            self.gone = True
            self._queue.put_nowait(code)

    async def finish(self, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """Wait (at most ``timeout`` seconds) until what was queued is sent, then stop."""
        self.gone = True
        self._queue.put_nowait(-1)
        with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
            await asyncio.wait_for(self._task, timeout)

    async def _write(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, int):
                    if item >= 0:
                        await self.websocket.close(item)
                    return
                await self.websocket.send_text(item)
        except asyncio.CancelledError:
            raise
        except Exception:  # the client left: its transport raises whatever it raises
            self.gone = True

    async def _close_now(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.websocket.close(code), CLOSE_TIMEOUT_S)


__all__ = ["CLOSE_TIMEOUT_S", "CLOSE_TOO_SLOW", "ConnectionGoneError", "Outbox"]
