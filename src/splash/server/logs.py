"""The play server's log: its lines as text or as JSON objects, and what no line may hold.

``splash serve --log-format json`` writes every line, the server's, uvicorn's and the
tracebacks, as one JSON object: ``time``, ``level``, ``event`` (the message), ``logger``,
``room`` and ``seat`` (``null`` where none applies; a log call gives them with
``extra=about(room, seat)``), ``instance`` (the process's ``--instance`` name) and, where there
is one, ``traceback``.  :func:`log_config` is the whole configuration, handed to uvicorn so
that its loggers use the same handler.

A line never holds a token, a hand, a deck or a seed.  The server logs an action by its
index and kind only, and an exception raised while a game is played (its message may quote
the state, every hand included) by its type and frames: :func:`withheld` gives that
traceback, without the message.  At debug level the ``websockets`` library logs every
frame that uvicorn's socket sends or receives (a join carries a token, a welcome a hand):
:class:`NoFrames` drops those lines.

The JSON formatter is the 30 lines below rather than ``python-json-logger``: the fixed keys,
``null`` where a field is missing, the traceback without its message and the process's
name are what this server needs, and that library would have to be taught each of them.
"""

from __future__ import annotations

import json
import logging
import traceback
from datetime import UTC, datetime
from typing import IO, Any, Final

LOG_FORMATS: Final = ("text", "json")
"""The formats of ``splash serve --log-format``."""

TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""A text line: dated, its level and logger named."""

LOGGERS: Final = ("splash", "uvicorn", "uvicorn.error", "uvicorn.access")
"""The loggers :func:`log_config` sets up (``uvicorn.error`` writes through ``uvicorn``)."""


def about(room: str | None, seat: int | None = None) -> dict[str, Any]:
    """The ``extra`` of a log call about ``room`` (and ``seat``, a seat's number)."""
    return {"room": room, "seat": seat if seat is None or seat >= 0 else None}


def withheld(error: BaseException) -> dict[str, Any]:
    """The ``extra`` of a log call about ``error``, raised while a game was played: its
    traceback, its frames and the types of its chain of exceptions, every message and note
    left out (one may quote the state, with the hands).  Log with it, not ``exc_info``."""
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and all(current is not seen for seen in chain):
        chain.append(current)
        current = current.__cause__ or (
            None if current.__suppress_context__ else current.__context__
        )
    parts = []
    for each in reversed(chain):
        kind = type(each)
        name = (
            kind.__qualname__
            if kind.__module__ == "builtins"
            else f"{kind.__module__}.{kind.__qualname__}"
        )
        frames = "".join(traceback.format_tb(each.__traceback__))
        parts.append(f"Traceback (most recent call last):\n{frames}{name}: (message withheld)")
    return {"traceback": "\n\nthe exception above led to this one:\n\n".join(parts)}


def _traceback_of(formatter: logging.Formatter, record: logging.LogRecord) -> str | None:
    if record.exc_info:
        return formatter.formatException(record.exc_info)
    found = getattr(record, "traceback", None)
    return str(found) if found else None


class JsonFormatter(logging.Formatter):
    """Each record as one line of JSON (the keys: see the module's documentation)."""

    def __init__(self, instance: str | None = None) -> None:
        super().__init__()
        self.instance = instance

    def format(self, record: logging.LogRecord) -> str:
        """The line of ``record``."""
        doc: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "event": record.getMessage(),
            "logger": record.name,
            "room": getattr(record, "room", None),
            "seat": getattr(record, "seat", None),
            "instance": self.instance,
        }
        found = _traceback_of(self, record)
        if found is not None:
            doc["traceback"] = found
        if record.stack_info:
            doc["stack"] = self.formatStack(record.stack_info)
        return json.dumps(doc, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """Each record as a dated line of text (:data:`TEXT_FORMAT`), a traceback after it."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        """The line of ``record``, and its traceback's lines when it has one."""
        line = super().format(record)
        found = getattr(record, "traceback", None)
        if found and not record.exc_info:
            line = f"{line}\n{found}"
        return line


class NoFrames(logging.Filter):
    """Drops the debug lines of the ``websockets`` library (uvicorn's sockets log through
    ``uvicorn.error``): each quotes a frame, and a frame may carry a token or a hand."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` may be written."""
        if record.levelno >= logging.INFO:
            return True
        return "websockets" not in record.pathname.replace("\\", "/").split("/")


def log_config(
    log_format: str, level: str, instance: str | None = None, *, stream: IO[str] | None = None
) -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` configuration of ``splash serve``: the
    ``splash`` and ``uvicorn`` loggers write at ``level`` and above to the standard error
    (or ``stream``), in ``log_format`` (``text`` or ``json``, labelled with ``instance``)."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"unknown log format {log_format!r} (known: {', '.join(LOG_FORMATS)})")
    formatter: dict[str, Any] = (
        {"()": JsonFormatter, "instance": instance}
        if log_format == "json"
        else {"()": TextFormatter}
    )
    handler: dict[str, Any] = {
        "class": "logging.StreamHandler",
        "formatter": "splash",
        "filters": ["no_frames"],
        "stream": stream if stream is not None else "ext://sys.stderr",
    }
    upper = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"splash": formatter},
        "filters": {"no_frames": {"()": NoFrames}},
        "handlers": {"splash": handler},
        "loggers": {
            "splash": {"handlers": ["splash"], "level": upper, "propagate": False},
            "uvicorn": {"handlers": ["splash"], "level": upper, "propagate": False},
            "uvicorn.error": {"level": upper, "propagate": True},
            "uvicorn.access": {"handlers": ["splash"], "level": upper, "propagate": False},
        },
    }


__all__ = [
    "LOGGERS",
    "LOG_FORMATS",
    "TEXT_FORMAT",
    "JsonFormatter",
    "NoFrames",
    "TextFormatter",
    "about",
    "log_config",
    "withheld",
]
