"""Prometheus metrics of one server process (docs/deploy.md, "Metrics"), served on a port of their own
(``canasta serve --metrics HOST:PORT``; off by default) so that a reverse proxy in front of the game never
exposes them.

Counts that change on every move (moves, acknowledgement latency) are kept as they happen; the rest
(tables, connections, the computer players' queue, leases) is read from the lobby when Prometheus asks.
Each app has its own registry: several servers in one Python process (the tests) never mix their figures.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from .lobby import Lobby

# acknowledgement latency: the target is a p99 under 0.1 s (docs/server-load.md)
ACK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """One process's registry: the counters a room and the websocket handler update, the lobby's gauges."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.moves = Counter("canasta_moves", "Moves applied by this process, by who made them "
                             "(human, bot, stand-in, timer)", ["by"], registry=self.registry)
        self.ack_seconds = Histogram("canasta_ack_seconds", "Seconds from a move frame's arrival to its ack "
                                     "(stored in the database)", buckets=ACK_BUCKETS, registry=self.registry)
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def watch(self, lobby: Lobby) -> None:
        """Read the lobby's tables, connections and queues whenever metrics are asked for."""
        self.registry.register(LobbyCollector(lobby))

    def moved(self, by: str) -> None:
        self.moves.labels(by=by).inc()

    def serve(self, address: str) -> None:
        """Serve ``GET /metrics`` on ``address`` (``HOST:PORT``) from a thread of its own."""
        host, port = split_address(address)
        self.server, self.thread = start_http_server(port, addr=host, registry=self.registry)

    def close(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9100`` for IPv6) to (host, port); raises ``ValueError``."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--metrics is HOST:PORT, e.g. 127.0.0.1:9100, got {address!r}")
    return host.strip("[]") or "0.0.0.0", int(port)


class LobbyCollector(Collector):
    """The gauges, read from the lobby at each scrape, on the metrics thread: it only reads, and copies each
    of the event loop's containers whole (``list()`` of a dict, set or deque is one step under the GIL)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    def collect(self) -> Iterator[GaugeMetricFamily]:
        lobby = self.lobby
        rooms = list(lobby.rooms.values())
        tables = GaugeMetricFamily("canasta_tables", "Tables in this process's memory, by status", labels=["status"])
        for status in ("waiting", "playing", "over", "expired"):
            tables.add_metric([status], sum(1 for r in rooms if r.status == status))
        yield tables
        yield GaugeMetricFamily("canasta_tables_run", "Tables whose computer players and timer this process runs "
                                "(it holds their lease; every open table with one process)",
                                value=sum(1 for r in rooms if r.status in ("waiting", "playing")
                                          and lobby.cluster.owns(r.id)))
        connections = GaugeMetricFamily("canasta_connections", "Websockets open at this process",
                                        labels=["kind"])
        clients = [c for r in rooms for c in list(r.clients)]  # (list() copies in one step: the loop changes them)
        connections.add_metric(["player"], sum(1 for c in clients if c.seat is not None))
        connections.add_metric(["spectator"], sum(1 for c in clients if c.seat is None))
        yield connections
        queue = GaugeMetricFamily("canasta_bot_queue", "Computer players' decisions waiting for a worker, by "
                                  "priority (urgent: a person sits at the table)", labels=["priority"])
        running = GaugeMetricFamily("canasta_bot_running", "Computer players' decisions being made",
                                    labels=["priority"])
        for priority, waiting, busy in lobby.pool.load():
            queue.add_metric([priority], waiting)
            running.add_metric([priority], busy)
        yield queue
        yield running
        yield GaugeMetricFamily("canasta_draining", "1 while the process is stopping (SIGTERM: no new tables)",
                                value=1 if lobby.draining else 0)
