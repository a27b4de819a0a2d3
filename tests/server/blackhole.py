"""A loopback TCP proxy that can *blackhole*: stop forwarding in both directions without
closing either socket, as a cut network does (the peers' kernels still acknowledge what was
sent; nothing arrives), then forward again what waited.

It runs its own event loop in a thread, so that a test drives it from anywhere::

    with BlackholeProxy("127.0.0.1", 5432) as proxy:
        url = ...port=proxy.port...
        proxy.blackhole()
        proxy.restore()
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from types import TracebackType

from tests.server.process import free_port

CHUNK = 65536


class BlackholeProxy:
    """Forwards ``127.0.0.1:port`` to ``host:target_port`` until :meth:`close`."""

    def __init__(self, host: str, target_port: int) -> None:
        self.host = host
        self.target_port = target_port
        self.port = free_port()
        self._loop = asyncio.new_event_loop()
        self._open = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> BlackholeProxy:
        """Listen (forwarding)."""
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(timeout=10)
        return self

    async def _listen(self) -> None:
        self._open.set()
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.target_port)
        except OSError:
            writer.close()
            return
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pump(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while True:
                await self._open.wait()
                data = await source.read(CHUNK)
                # Read while open; held (with the end of the stream) while blackholed.
                await self._open.wait()
                if not data:
                    break
                sink.write(data)
                await sink.drain()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                sink.close()

    def blackhole(self) -> None:
        """Stop forwarding, in both directions, without closing anything."""
        self._loop.call_soon_threadsafe(self._open.clear)

    def restore(self) -> None:
        """Forward again (what waited first)."""
        self._loop.call_soon_threadsafe(self._open.set)

    def close(self) -> None:
        """Close every connection and stop listening."""

        async def shut() -> None:
            if self._server is not None:
                self._server.close()
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shut(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    def __enter__(self) -> BlackholeProxy:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


__all__ = ["BlackholeProxy"]
