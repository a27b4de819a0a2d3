"""What the play server counts for Prometheus (``GET /metrics``, the text format).

Each application has its own :class:`Metrics`, with a registry of its own (never the
process-wide one of ``prometheus_client``), made by :func:`~splash.server.app.create_app`
and handed to what counts: the writer, the rooms (through their
:class:`~splash.server.room.Runtime`), the hub and the play socket.  Every series carries
the label :data:`INSTANCE_LABEL`, the process's name among the processes of its database
(``--instance``): the scraper owns the label ``instance`` itself.

No label holds anything a player sent or may not see: an error's label is its code, a
request's its kind among those its game answers, a bot's its name (``greedy``), never its
spec with parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import choose_encoder

from splash.bots import bot_named, parse_spec
from splash.core.errors import OptionError

INSTANCE_LABEL: Final = "splash_instance"
"""The label of every series: the server process's ``--instance`` name."""

WRITE_BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Bounds (seconds) of the histograms of storage writes: a commit takes milliseconds."""

BOT_BUCKETS: Final = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Bounds (seconds) of the histogram of bot decisions: from the ``random`` bot's
microseconds to a search bot's seconds."""

OTHER_BOT: Final = "other"
"""The bot label of a spec that names no known bot."""


@lru_cache(maxsize=256)
def bot_label(spec: str) -> str:
    """The label of bot ``spec``: its name alone (``ismcts`` for ``ismcts:iterations=200``),
    or :data:`OTHER_BOT` when it names no known bot."""
    try:
        name, _ = parse_spec(spec)
    except OptionError:
        return OTHER_BOT
    return name if bot_named(name) is not None else OTHER_BOT


@dataclass(frozen=True)
class Metrics:
    """The instruments of one server process; :meth:`create` makes them.

    The fields without extra labels are bound to the process's :data:`INSTANCE_LABEL`
    already (``metrics.checks.inc()``); the others are counted through the methods below.
    """

    instance: str
    registry: CollectorRegistry
    actions_committed: Counter
    """Actions of games (people's, bots', chance draws) committed to the log."""
    commit_seconds: Histogram
    """From a room handing actions to the writer to their commit: what an action waits
    for storage."""
    transaction_seconds: Histogram
    """The writer's transactions (one group commit each), retries included."""
    connections: Gauge
    """WebSocket connections open now."""
    connections_opened: Counter
    """WebSocket connections accepted."""
    rooms_open: Gauge
    """Rooms of the database whose game has not ended, counted at each scrape (the figure
    that ``max_open_rooms`` limits; the same on every process of one database)."""
    rooms_owned: Gauge
    """Rooms this process holds in memory and serves (with ``--cluster``, it holds their
    leases)."""
    lease_takeovers: Counter
    """Rooms in play taken over from a process that died or stalled."""
    checks: Counter
    """``check`` messages received."""
    _handovers: Counter
    _errors: Counter
    _requests: Counter
    _bot_seconds: Histogram

    @classmethod
    def create(cls, instance: str) -> Metrics:
        """The instruments of the process ``instance``, in a registry of their own."""
        registry = CollectorRegistry(auto_describe=True)
        label = (INSTANCE_LABEL,)

        def counter(name: str, doc: str, *labels: str) -> Counter:
            return Counter(name, doc, (*label, *labels), registry=registry)

        def histogram(name: str, doc: str, buckets: tuple[float, ...], *labels: str) -> Histogram:
            return Histogram(name, doc, (*label, *labels), registry=registry, buckets=buckets)

        def gauge(name: str, doc: str) -> Gauge:
            return Gauge(name, doc, label, registry=registry)

        return cls(
            instance=instance,
            registry=registry,
            actions_committed=counter(
                "splash_actions_committed", "Actions of games committed to the log."
            ).labels(instance),
            commit_seconds=histogram(
                "splash_commit_seconds",
                "Seconds from a room handing actions to the writer to their commit.",
                WRITE_BUCKETS,
            ).labels(instance),
            transaction_seconds=histogram(
                "splash_transaction_seconds",
                "Seconds of each transaction of the writer (one group commit).",
                WRITE_BUCKETS,
            ).labels(instance),
            connections=gauge("splash_websocket_connections", "WebSocket connections open.").labels(
                instance
            ),
            connections_opened=counter(
                "splash_websocket_connections_opened", "WebSocket connections accepted."
            ).labels(instance),
            rooms_open=gauge(
                "splash_rooms_open", "Rooms of the database whose game has not ended."
            ).labels(instance),
            rooms_owned=gauge(
                "splash_rooms_owned", "Rooms this process holds in memory and serves."
            ).labels(instance),
            lease_takeovers=counter(
                "splash_lease_takeovers", "Rooms in play taken over from a dead process."
            ).labels(instance),
            checks=counter("splash_checks", "Check messages received.").labels(instance),
            _handovers=counter(
                "splash_lease_handovers",
                "Rooms handed over to another process (released on request, or lease lost).",
                "reason",
            ),
            _errors=counter(
                "splash_errors_sent",
                "Errors sent to clients, by code, over the socket (ws) or HTTP.",
                "code",
                "transport",
            ),
            _requests=counter(
                "splash_requests", "Extra requests of the games answered, by kind.", "request"
            ),
            _bot_seconds=histogram(
                "splash_bot_decision_seconds",
                "Seconds a bot took to decide, by bot name.",
                BOT_BUCKETS,
                "bot",
            ),
        )

    def handed_over(self, *, released: bool) -> None:
        """Count a room handed over: ``released`` on another process's request, or its
        lease lost."""
        self._handovers.labels(self.instance, "released" if released else "lost").inc()

    def error_sent(self, code: str, transport: str = "ws") -> None:
        """Count an error of ``code`` sent to a client over ``transport`` (``ws``, ``http``)."""
        self._errors.labels(self.instance, code, transport).inc()

    def request_answered(self, kind: str) -> None:
        """Count an extra request of ``kind`` (``placements``): a kind its game answers."""
        self._requests.labels(self.instance, kind).inc()

    def bot_decided(self, spec: str, seconds: float) -> None:
        """Count a decision of bot ``spec`` that took ``seconds`` (labelled by its name)."""
        self._bot_seconds.labels(self.instance, bot_label(spec)).observe(seconds)

    def watch_rooms(self, owned: Callable[[], int]) -> None:
        """Read :attr:`rooms_owned` from ``owned`` at each scrape."""
        self.rooms_owned.set_function(owned)

    def render(self, accept: str | None = None) -> tuple[bytes, str]:
        """The exposition of every series, in the format ``accept`` (an ``Accept`` header)
        asks for (the Prometheus text format by default), and its content type."""
        encode, content_type = choose_encoder(accept or "")
        return encode(self.registry), content_type


__all__ = ["INSTANCE_LABEL", "OTHER_BOT", "Metrics", "bot_label"]
