"""The web application: the browser client, the JSON API and the websockets (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from ..record import replay
from ..rummy import RummyRules, rummy_key
from .catalog import catalog
from .games import AnyState
from .lobby import Lobby
from .pads import router as pads_router
from .protocol import MAX_NAME, RATE_PER_SECOND, ProtocolError, RateLimit, clean_name, read_frame
from .room import Client, Room, seat_url
from .spec import TableSpec, TableSpecError
from .stats import player_stats
from .storage import Store
from .workers import BotPool

WEB = Path(__file__).with_name("web")
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


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def serve(app: FastAPI, host: str, port: int, ready: Callable[[], None]) -> None:
    """Run ``app`` on uvicorn; ``ready`` is called once every unfinished table is loaded and the port is open."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                ready()

    # No per-message compression: it cost 8% of the server's time under load and frames are a few kB.
    Server(uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=65536,
                          ws_per_message_deflate=False)).run()


def create_app(database: str = "sqlite:///canasta.db", *, workers: int | None = None, grace: float = 60.0,
               rate: float = RATE_PER_SECOND) -> FastAPI:
    """The server's app. ``workers``: processes for computer players (0: one thread); ``grace``: seconds
    before a computer player stands in for a player who dropped; ``rate``: frames a second a connection
    may send on average (bursts of twice that)."""
    replays: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database)
        pool = BotPool(workers)
        lobby = app.state.lobby = Lobby(store, pool, grace)
        await lobby.resume_all()
        try:
            yield
        finally:
            await lobby.close()
            pool.close()
            store.close()

    app = FastAPI(title="Canasta", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def lobby_of(request: Request | WebSocket) -> Lobby:
        return request.app.state.lobby  # type: ignore[no-any-return]

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return error(400, "BAD_REQUEST", f"{where}: {first.get('msg', 'invalid request')}")

    app.include_router(pads_router)  # the score pad (pads.py)

    for path, page in (("/", "index.html"), ("/stats", "stats.html"), ("/replay/{table_id}", "replay.html")):
        app.add_api_route(path, _page(page), methods=["GET"], include_in_schema=False)

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str, request: Request) -> FileResponse:
        """The table's page: the rummy family has its own (rummy.html); an unknown table gets the Canasta
        page, which says so."""
        lobby = lobby_of(request)
        room = lobby.rooms.get(table_id)
        if room is not None:
            rummy = isinstance(room.rules, RummyRules)
        else:  # read the row, not the room: a page view starts no table's computer players
            row = await lobby.db(lobby.store.load_table, table_id) if len(table_id) <= 64 else None
            rummy = row is not None and rummy_key(str(row.rules.get("variant", ""))) is not None
        return FileResponse(WEB / ("rummy.html" if rummy else "table.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/api/variants")
    async def variants(family: str = "all") -> Response:
        """The presets of a family: ``all`` (the default, as ``variant_names()``: Canasta's, then the rummy
        family's), ``canasta`` or ``rummy``."""
        if family not in FAMILIES:
            return error(400, "BAD_FAMILY", f"'family' is one of {', '.join(FAMILIES)}, got {family[:40]!r}")
        return JSONResponse([e for e in catalog() if family in ("all", e["family"])])

    @app.post("/api/tables")
    async def create_table(body: TableRequest, request: Request) -> Response:
        try:
            spec = TableSpec.parse(body.variant, body.options, body.seats, body.names, body.player, body.delay,
                                   body.turn_seconds)
        except TableSpecError as exc:
            return error(400, "BAD_TABLE", str(exc))
        room, tokens = await lobby_of(request).create(spec)
        return JSONResponse({"table": room.id, "watch_url": f"/t/{room.id}",
                             "seats": [{"seat": s, "token": t, "url": seat_url(room.id, t)}
                                       for s, t in sorted(tokens.items())]})

    async def find(request: Request, table_id: str) -> Room | JSONResponse:
        room = await lobby_of(request).room(table_id)
        return room if room is not None else error(404, "NO_TABLE", f"no table {table_id!r}")

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str, request: Request) -> Response:
        room = await find(request, table_id)
        return room if isinstance(room, JSONResponse) else JSONResponse(room.public())

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> Response:
        room = await find(request, table_id)
        if isinstance(room, JSONResponse):
            return room
        if room.status != "over":
            return error(409, "GAME_NOT_OVER", "the record is given once the game is over")
        return JSONResponse(room.record(),
                            headers={"Content-Disposition": f'attachment; filename="canasta-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay/{number}")
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

    @app.get("/api/players/{player}/stats")
    async def stats(player: str, request: Request) -> Response:
        if not 1 <= len(player) <= 64:
            return error(400, "BAD_PLAYER", "a player id is 1 to 64 characters")
        lobby = lobby_of(request)
        games = await lobby.db(lobby.store.player_games, player)
        return JSONResponse(player_stats(player, games))

    @app.websocket("/ws/tables/{table_id}")
    async def websocket(ws: WebSocket, table_id: str, token: str | None = None, player: str | None = None,
                        name: str | None = None) -> None:
        await ws.accept()
        lobby = lobby_of(ws)
        room = await lobby.room(table_id)
        if room is None:
            await _refuse(ws, "NO_TABLE", f"no table {table_id!r}", 4404)
            return
        seat = room.seat_for(token) if token else None
        if token and seat is None:
            await _refuse(ws, "BAD_TOKEN", "this token opens no seat at this table", 4401)
            return
        client = Client(seat, token, clean_name(name[:MAX_NAME * 4] if name else None),
                        player[:64] if player else None)
        writer = asyncio.create_task(_write(ws, client))
        await room.join(client)
        limit = RateLimit(rate, 2 * rate)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                try:
                    frame = read_frame(data)
                    if not limit.allow():
                        raise ProtocolError("RATE_LIMITED", f"too many frames: at most {rate:g} a second",
                                            frame.get("id"))
                    await room.handle(client, frame)
                except ProtocolError as exc:
                    client.send(exc.frame())
        except WebSocketDisconnect:
            pass
        finally:
            client.close()
            await room.leave(client)
            with contextlib.suppress(Exception):
                await writer

    return app


def _page(name: str) -> Any:
    async def page() -> FileResponse:
        return FileResponse(WEB / name, headers={"Cache-Control": "no-cache"})
    return page


async def _write(ws: WebSocket, client: Client) -> None:
    while True:
        text = await client.queue.get()
        if text is None:  # closed: the connection ended, or fell too far behind (then it reconnects and syncs)
            with contextlib.suppress(Exception):
                await ws.close(code=1013)
            return
        try:
            await ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError):
            return


async def _refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    await ws.send_text(json.dumps({"type": "error", "id": None, "code": code, "message": message}))
    await ws.close(code=close_code)


def _positions(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every position of a finished game, face up (the deal itself left out: it is the next hands' order)."""
    out: list[dict[str, Any]] = []

    def keep(state: AnyState) -> None:
        d = state.to_dict()
        d.pop("deal", None)
        d.pop("seed", None)
        out.append(d)

    def on_move(_number: int, before: AnyState, _move: Any, after: AnyState) -> None:
        if not out:
            keep(before)
        keep(after)

    replay(record, on_move)
    return out
