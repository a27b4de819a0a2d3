"""The anchor of ``server_load.py``: a bare FastAPI WebSocket server that stores each action
with one SQLite insert and one commit, then acknowledges it.

It has no rules, no rooms, no bots: what any WebSocket server with a durable log costs at
least when it commits once per action.  SQLite is set as the play server sets it (write-ahead
log, full syncs).  Each message ``{"type": "act", "game": g, "index": i}`` gets
``{"type": "ack", "index": i}`` once its row is committed.

    .venv/bin/python bench/server_anchor.py --db /tmp/anchor.db --port 8765
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import threading

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect


def create_app(path: str) -> FastAPI:
    """The anchor application, storing into the SQLite file ``path``."""
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute(
        "CREATE TABLE IF NOT EXISTS actions (game INTEGER, idx INTEGER, action TEXT,"
        " created_at REAL, PRIMARY KEY (game, idx))"
    )
    lock = threading.Lock()

    def store(game: int, index: int, action: str) -> None:
        with lock:
            db.execute("BEGIN")
            db.execute(
                "INSERT INTO actions VALUES (?, ?, ?, julianday('now'))", (game, index, action)
            )
            db.execute("COMMIT")

    app = FastAPI()

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.websocket("/ws")
    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            while True:
                doc = json.loads(await websocket.receive_text())
                await asyncio.to_thread(store, int(doc["game"]), int(doc["index"]), json.dumps(doc))
                await websocket.send_text(json.dumps({"type": "ack", "index": doc["index"]}))
        except WebSocketDisconnect:
            return

    return app


def main() -> None:
    """Serve the anchor on 127.0.0.1 until stopped."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="SQLite file")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(
        create_app(args.db),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        ws_max_size=65536,
        ws_per_message_deflate=False,
    )


if __name__ == "__main__":
    main()
