"""The web application: the browser client, the JSON API and the websockets (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from http import HTTPStatus
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi import Path as PathParameter
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.websockets import WebSocketDisconnect

from ..play.family import CANASTA, PlayFamily, play_family
from ..play.family import FAMILIES as PLAY_FAMILIES
from ..play.record import replay
from ..presets import game_rules
from .answers import ERRORS, TABLE_ERRORS, ErrorBody
from .catalog import catalog
from .cluster import LocalCluster, RedisCluster
from .config import Limits, tune_collector
from .games import AnyState
from .guard import Shield, TableBudget, TableLimit, Unavailable
from .help_pages import MAX_MOVES, LessonError, lesson_step, rules_record
from .lobby import Lobby
from .pads import router as pads_router
from .pages import TABLE_PAGE, WEB, load_pages, page
from .protocol import MAX_NAME, RATE_PER_SECOND, ProtocolError, RateLimit, clean_name, read_frame
from .room import PROTOCOLS, RECONNECT, Client, Room, seat_url
from .spec import TableSpec, TableSpecError
from .stats import player_stats
from .storage import Store, database_url
from .workers import BotPool

REPLAY_CACHE = 16
FAMILIES = ("canasta", "rummy", "all")


class TableRequest(BaseModel):
    variant: str = Field("classic", max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[str] | None = Field(None, max_length=8)
    names: list[str | None] | None = Field(None, max_length=8)
    player: str | None = Field(None, max_length=64)
    delay: float = 0.8
    turn_seconds: float | None = None


class LessonRequest(BaseModel):
    moves: list[Annotated[str, Field(max_length=64)]] = Field(default_factory=list, max_length=MAX_MOVES)



def error(status: int, code: str, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


def serve(app: FastAPI, host: str, port: int, ready: Callable[[], None], drain_seconds: float = 0.0) -> None:
    """Run ``app`` on uvicorn; ``ready`` is called once every unfinished table is loaded and the port is open.

    The first SIGTERM or SIGINT drains the process (``Lobby.drain``: ``/readyz`` answers 503, the tables
    go to other processes, and ``drain_seconds`` later every websocket is told to reconnect) and then
    stops it; a second one stops it at once. Logging is the caller's (``logs.configure``)."""
    import uvicorn

    class Server(uvicorn.Server):
        draining: asyncio.Task[None] | None = None

        async def startup(self, sockets: Any = None) -> None:
            self.loop = asyncio.get_running_loop()
            await super().startup(sockets)
            if self.started:
                ready()

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.draining is not None or not self.started:
                super().handle_exit(sig, frame)
            else:  # runs between two steps of the loop's own thread: schedule the drain on the loop
                self.loop.call_soon_threadsafe(self.drain, sig)

        def drain(self, sig: int) -> None:
            pause = drain_seconds if sig == signal.SIGTERM else 0.0  # Ctrl-C in a terminal: no balancer to tell
            self.draining = self.loop.create_task(app.state.lobby.drain(pause))
            self.draining.add_done_callback(lambda _: setattr(self, "should_exit", True))

    tune_collector()
    # No per-message compression: it cost 8% of the server's time under load and frames are a few kB. No
    # access log: a websocket's address carries its seat token.
    Server(uvicorn.Config(app, host=host, port=port, log_level="warning", log_config=None, access_log=False,
                          ws_max_size=65536, ws_per_message_deflate=False, server_header=False,
                          timeout_graceful_shutdown=10)).run()


def create_app(database: str = "sqlite:///canasta.db", *, workers: int | None = None, grace: float = 60.0,
               rate: float = RATE_PER_SECOND, limits: Limits | None = None, allow_origins: Iterable[str] = (),
               api_docs: bool = False, broker: str | None = None, broker_prefix: str = "canasta",
               metrics: str | None = None) -> FastAPI:
    """The server's app. ``workers``: processes for computer players (0: one thread); ``grace``: seconds
    before a computer player stands in for a player who dropped; ``rate``: frames a second a connection
    may send on average (bursts of twice that); ``limits``: the resource limits (docs/security.md);
    ``allow_origins``: web origins besides the server's own whose pages may open its websockets
    (``https://example.org``); ``api_docs``: serve the OpenAPI schema and its page under /api/;
    ``broker``: a ``redis://`` URL, for several processes on one PostgreSQL database (docs/deploy.md), their
    channels' names starting with ``broker_prefix``; ``metrics``: ``HOST:PORT`` to serve Prometheus metrics
    on (docs/deploy.md; default none)."""
    limits = limits if limits is not None else Limits()
    if broker is not None and not database_url(database).startswith("postgresql"):
        raise ValueError("several processes (--broker) need a PostgreSQL database")
    origins = {origin.rstrip("/").lower() for origin in allow_origins}
    budget = TableBudget(limits.tables_per_minute, broker, broker_prefix)
    replays: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database)
        pool = BotPool(workers)
        cluster = RedisCluster(broker, broker_prefix) if broker is not None else LocalCluster()
        lobby = app.state.lobby = Lobby(store, pool, grace, limits, cluster=cluster)
        if metrics is not None:
            lobby.metrics.serve(metrics)
        await cluster.start(lobby)
        await lobby.resume_all()
        lobby.start_sweeping()
        try:
            yield
        finally:
            lobby.metrics.close()
            await lobby.close()
            pool.close()
            store.close()

    app = FastAPI(title="Canasta", lifespan=lifespan, docs_url="/api/docs" if api_docs else None,
                  redoc_url=None, openapi_url="/api/openapi.json" if api_docs else None)
    app.add_middleware(Shield, body_bytes=limits.body_bytes)
    load_pages(tuple(f.web_plugin for f in PLAY_FAMILIES))

    @app.get("/static/{name}.html", include_in_schema=False)
    def page_source(name: str) -> Response:
        """A page's source (its include lines not filled in) is not a page: each page has its own address."""
        return Response(status_code=HTTPStatus.NOT_FOUND)

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def lobby_of(request: Request | WebSocket) -> Lobby:
        return request.app.state.lobby  # type: ignore[no-any-return]

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return error(422, "BAD_REQUEST", f"{where}: {first.get('msg', 'invalid request')}"[:300])

    app.include_router(pads_router)  # the score pad (pads.py)

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        phrase = HTTPStatus(exc.status_code).phrase
        if exc.status_code == 413:
            return error(413, "TOO_LARGE", f"a request body is at most {limits.body_bytes} bytes")
        if exc.status_code == 400:  # a body that is no JSON text at all: refused as any malformed request
            return error(422, "BAD_REQUEST", "the request body is not JSON text (UTF-8)")
        return error(exc.status_code, phrase.upper().replace(" ", "_"), phrase.lower(), exc.headers)

    @app.exception_handler(Unavailable)
    async def unavailable(_request: Request, exc: Unavailable) -> JSONResponse:
        return error(503, exc.code, exc.message, {"Retry-After": "5"})

    @app.get("/healthz", responses=ERRORS)
    async def healthz() -> Response:
        """Liveness: the process answers (a balancer or orchestrator restarts it when it does not)."""
        return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})

    @app.get("/readyz", responses=ERRORS)
    async def readyz(request: Request) -> Response:
        """Readiness: the database answers, and the broker when there is one (else 503 NOT_READY: a
        balancer sends this process no new connections until it is ready again)."""
        lobby: Lobby | None = getattr(request.app.state, "lobby", None)
        if lobby is None:
            return error(503, "NOT_READY", "the server is starting", {"Retry-After": "5"})
        if lobby.draining:
            return error(503, "NOT_READY", "the server is stopping", {"Retry-After": "5"})
        try:
            await asyncio.wait_for(lobby.db(lobby.store.ping), 5.0)
        except (Unavailable, TimeoutError):
            return error(503, "NOT_READY", "the database does not answer", {"Retry-After": "5"})
        try:
            await lobby.cluster.check()
        except Unavailable:
            return error(503, "NOT_READY", "the broker does not answer", {"Retry-After": "5"})
        return JSONResponse({"status": "ready", "database": "ok", "broker": "ok" if lobby.cluster.shared else None},
                            headers={"Cache-Control": "no-store"})

    for path, name in (("/", "index.html"), ("/stats", "stats.html"), ("/replay/{table_id}", "replay.html"),
                       ("/rules", "rules.html"), ("/help", "help.html"), ("/learn", "learn.html")):
        app.add_api_route(path, _page(name), methods=["GET"], include_in_schema=False)

    @app.get("/rules/{variant}", include_in_schema=False)
    async def rules_page(variant: str, request: Request) -> Response:
        """A preset's rules page; an unknown name gets the same page with 404 (it says so and lists them)."""
        known = len(variant) <= 64 and _known_variant(variant)
        return page(request, "rules.html", status=200 if known else 404)

    @app.get("/api/rules/{variant}", responses={**ERRORS, 404: {"model": ErrorBody}})
    async def rules_of(variant: str) -> Response:
        """A preset's rules page as data: the same pieces as ``canasta rules NAME`` (docs/protocol.md)."""
        if len(variant) > 64 or not _known_variant(variant):
            return error(404, "UNKNOWN_VARIANT", f"no variant {variant[:64]!r}: GET /api/variants lists them")
        return JSONResponse(rules_record(variant))

    @app.post("/api/learn", responses=ERRORS)
    async def learn(body: LessonRequest) -> Response:
        """The "How to play" walk-through after the learner's moves so far (docs/protocol.md)."""
        try:
            return JSONResponse(lesson_step(body.moves))
        except LessonError as exc:
            return error(422, "NOT_THE_LESSON", str(exc))

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str, request: Request) -> Response:
        """The table page with the table's family's plug-in; an unknown table gets Canasta's, which says so."""
        lobby = lobby_of(request)
        room = lobby.rooms.get(table_id)
        if room is not None:
            family = play_family(room.rules)
        else:  # read the row, not the room: a page view starts no table's computer players
            row = await lobby.db(lobby.store.load_table, table_id) if len(table_id) <= 64 else None
            family = _family_of(row.rules if row is not None else None)
        return page(request, TABLE_PAGE, plugin=family.web_plugin)

    @app.get("/api/variants", responses=ERRORS)
    async def variants(family: str = Query("all", json_schema_extra={"enum": list(FAMILIES)})) -> Response:
        """The presets of a family: ``all`` (the default, as ``variant_names()``: Canasta's, then the rummy
        family's), ``canasta`` or ``rummy``."""
        if family not in FAMILIES:
            return error(422, "BAD_FAMILY", f"'family' is one of {', '.join(FAMILIES)}, got {family[:40]!r}")
        return JSONResponse([e for e in catalog() if family in ("all", e["family"])])

    @app.post("/api/tables", responses=ERRORS)
    async def create_table(body: TableRequest, request: Request) -> Response:
        address = request.client.host if request.client else "unknown"
        if lobby_of(request).draining:  # (a balancer that follows /readyz sends nothing here by now)
            return error(503, "DRAINING", "this server is stopping: try again", {"Retry-After": "1"})
        if not await budget.spend(address):
            return error(429, "RATE_LIMITED", f"at most {limits.tables_per_minute} tables a minute per address",
                         {"Retry-After": str(await budget.retry_after(address))})
        try:
            spec = TableSpec.parse(body.variant, body.options, body.seats, body.names, body.player, body.delay,
                                   body.turn_seconds)
        except TableSpecError as exc:
            return error(422, "BAD_TABLE", str(exc))
        try:
            room, tokens = await lobby_of(request).create(spec, owner=address)
        except TableLimit as exc:
            return error(exc.status, exc.code, exc.message, {"Retry-After": "60"})
        return JSONResponse({"table": room.id, "watch_url": f"/t/{room.id}",
                             "seats": [{"seat": s, "token": t, "url": seat_url(room.id, t)}
                                       for s, t in sorted(tokens.items())]})

    async def find(request: Request, table_id: str) -> Room | JSONResponse:
        room = await lobby_of(request).room(table_id) if len(table_id) <= 64 else None
        return room if room is not None else error(404, "NO_TABLE", f"no table {table_id[:64]!r}")

    @app.get("/api/tables/{table_id}", responses=TABLE_ERRORS)
    async def table(table_id: str, request: Request) -> Response:
        room = await find(request, table_id)
        return room if isinstance(room, JSONResponse) else JSONResponse(room.public())

    @app.get("/api/tables/{table_id}/record", responses=TABLE_ERRORS)
    async def record(table_id: str, request: Request) -> Response:
        room = await find(request, table_id)
        if isinstance(room, JSONResponse):
            return room
        if room.status != "over":
            return error(409, "GAME_NOT_OVER", "the record is given once the game is over")
        return JSONResponse(room.record(),
                            headers={"Content-Disposition": f'attachment; filename="canasta-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay/{number}", responses=TABLE_ERRORS)
    async def replay_step(table_id: str, number: int, request: Request) -> Response:
        room = await find(request, table_id)
        if isinstance(room, JSONResponse):
            return room
        if room.status != "over":
            return error(409, "GAME_NOT_OVER", "a game can be replayed once it is over")
        positions = replays.get(table_id)
        if positions is None:
            positions = replays[table_id] = await asyncio.to_thread(_positions, room.record())
            while len(replays) > REPLAY_CACHE:
                replays.popitem(last=False)
        if not 0 <= number < len(positions):
            return error(404, "NO_MOVE", f"moves are numbered 0 to {len(positions) - 1}")
        moves = room.record()["moves"]
        return JSONResponse({"move": number, "moves": len(positions) - 1,
                             "entry": moves[number - 1] if number else None, "state": positions[number]})

    @app.get("/api/players/{player}/stats", responses=ERRORS)
    async def stats(request: Request, player: str = PathParameter(json_schema_extra={"minLength": 1, "maxLength": 64})
                    ) -> Response:
        if not 1 <= len(player) <= 64:
            return error(422, "BAD_PLAYER", "a player id is 1 to 64 characters")
        lobby = lobby_of(request)
        games = await lobby.db(lobby.store.player_games, player)
        return JSONResponse(player_stats(player, games))

    @app.websocket("/ws/tables/{table_id}")
    async def websocket(ws: WebSocket, table_id: str, token: str | None = None, player: str | None = None,
                        name: str | None = None, since: int | None = None, protocol: str = "1") -> None:
        await ws.accept()
        if not _same_origin(ws, origins):
            await _refuse(ws, "BAD_ORIGIN", "pages of another site may not open this server's tables", 4403)
            return
        if protocol not in {str(p) for p in PROTOCOLS}:
            await _refuse(ws, "BAD_PROTOCOL", f"protocol is one of {', '.join(map(str, PROTOCOLS))}, "
                          f"got {protocol[:16]!r}", 4400)
            return
        lobby = lobby_of(ws)
        if lobby.draining:  # stopping: the client reconnects at once, through the balancer to another process
            await ws.send_text(json.dumps({"type": "reconnect"}))
            await ws.close(code=RECONNECT)
            return
        try:
            room = await lobby.room(table_id[:64])
        except Unavailable as exc:
            await _refuse(ws, exc.code, exc.message, 1013)
            return
        if room is None:
            await _refuse(ws, "NO_TABLE", f"no table {table_id[:64]!r}", 4404)
            return
        if room.status == "expired":
            await _refuse(ws, "EXPIRED", "nobody took a seat at this table in time: it is closed", 4410)
            return
        seat = room.seat_for(token) if token else None
        if token and seat is None:
            await _refuse(ws, "BAD_TOKEN", "this token opens no seat at this table", 4401)
            return
        client = Client(seat, token, clean_name(name[:MAX_NAME * 4] if name else None),
                        player[:64] if player else None, int(protocol))
        writer = asyncio.create_task(_write(ws, client))
        limit = RateLimit(rate, 2 * rate)
        try:
            try:
                await room.join(client, since)
            except Unavailable as exc:  # the database is down: the client tries again (close code 1013)
                client.send(exc.frame())
                client.close()
                return
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                frame: dict[str, Any] = {}
                received = time.perf_counter()
                allowed = limit.allow()  # before reading: malformed frames count too
                try:
                    try:
                        frame = read_frame(data)  # (its size checked first: a flood costs little)
                    except ProtocolError:
                        if allowed:
                            raise
                    if not allowed:  # with the frame's id, so the client knows which move was refused
                        raise ProtocolError("RATE_LIMITED", f"too many frames: at most {rate:g} a second")
                    await room.handle(client, frame)
                    if frame["type"] == "move":  # acknowledged (a refused move raised)
                        lobby.metrics.ack_seconds.observe(time.perf_counter() - received)
                except ProtocolError as exc:
                    if exc.frame_id is None:
                        exc.frame_id = frame.get("id")
                    client.send(exc.frame())
        except WebSocketDisconnect:
            pass
        finally:
            client.close()
            await room.leave(client)
            with contextlib.suppress(Exception):
                await writer

    return app


def _known_variant(name: str) -> bool:
    try:
        rules_record(name)
    except (ValueError, TypeError):
        return False
    return True


def _page(name: str) -> Any:
    async def serve_page(request: Request) -> Response:
        return page(request, name)
    return serve_page


async def _write(ws: WebSocket, client: Client) -> None:
    while True:
        text = await client.queue.get()
        if text is None:  # closed: the connection ended, fell too far behind (it reconnects and syncs) or was replaced
            with contextlib.suppress(Exception):
                await ws.close(code=client.close_code)
            return
        try:
            await ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError):
            return


def _same_origin(ws: WebSocket, allowed: set[str]) -> bool:
    """Is the page that opens this websocket the server's own (its address as the browser reached it) or
    one of ``--allow-origin``? A client that is not a browser sends no Origin and is let in: Origin only
    stops other sites' pages from using a visitor's browser against this server."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    return origin in allowed or urlsplit(origin).netloc == ws.headers.get("host", "").lower()


async def _refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    await ws.send_text(json.dumps({"type": "error", "id": None, "code": code, "message": message}))
    await ws.close(code=close_code)


def _family_of(spec: Mapping[str, Any] | None) -> PlayFamily:
    """The family of a stored table's rules (``{"variant": ..., "options": ...}``); Canasta when there is none
    (its table page says the table is unknown)."""
    try:
        return play_family(game_rules(str((spec or {}).get("variant", ""))))
    except (TypeError, ValueError):
        return CANASTA


def _positions(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every position of a finished game, face up (the deal itself left out: it is the next hands' order); a
    rummy meld carries its name in notation too (``label``, as in a seat's view), for the page to name it."""
    out: list[dict[str, Any]] = []

    def keep(state: AnyState) -> None:
        d = play_family(state).face_up(state)
        d.pop("deal", None)
        d.pop("seed", None)
        out.append(d)

    def on_move(_number: int, before: AnyState, _move: Any, after: AnyState) -> None:
        if not out:
            keep(before)
        keep(after)

    replay(record, on_move)
    return out
