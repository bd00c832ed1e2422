"""The score pad's routes (docs/protocol.md "Score pads"): games played with real cards, kept in the database
for the browser's player id, each with a read-only link to share.

The owner sends the browser's player id in the ``X-Canasta-Player`` header; a pad answers only its owner, and
its share link only reads. Every body is bounded and checked by ``canasta.pad``; a refusal is the documented
error shape ``{"error": CODE, "message": ...}`` and changes nothing.
"""

from __future__ import annotations

import functools
import json
import re
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..pad import Pad, PadError, from_csv, load_pad, new_pad, to_csv
from .answers import TABLE_ERRORS
from .lobby import Lobby
from .pages import page

router = APIRouter(responses={**TABLE_ERRORS})
MAX_BODY = 256 * 1024  # bytes of one request: a whole pad of 200 hands imported as JSON or CSV fits
MAX_PADS = 200  # a player's pads
PLAYER = re.compile(r"^[0-9a-f]{32,64}$")
HANDLE = re.compile(r"^[A-Za-z0-9_-]{8,32}$")


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


class Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.response = _error(status, code, message)


def _lobby(request: Request) -> Lobby:
    return request.app.state.lobby  # type: ignore[no-any-return]


def _player(request: Request) -> str:
    player = request.headers.get("x-canasta-player", "")
    if not PLAYER.match(player):
        raise Refused(422, "BAD_PLAYER", "send the browser's player id (32 to 64 hex digits) in X-Canasta-Player")
    return player


async def _body(request: Request) -> dict[str, Any]:
    data = await request.body()
    if len(data) > MAX_BODY:
        raise Refused(413, "TOO_LARGE", f"a request holds at most {MAX_BODY} bytes")
    try:
        body = json.loads(data or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise Refused(422, "BAD_REQUEST", "the body is not JSON") from None
    if not isinstance(body, dict):
        raise Refused(422, "BAD_REQUEST", "the body is a JSON object")
    return body


async def _owned(request: Request, pad_id: str) -> tuple[dict[str, Any], Pad]:
    """The row and pad of ``pad_id`` when the caller owns it."""
    player = _player(request)
    row = None
    if HANDLE.match(pad_id):
        lobby = _lobby(request)
        row = await lobby.db(lobby.store.load_pad, pad_id)
    if row is None or row["player"] != player:
        raise Refused(404, "NO_PAD", f"no score pad {pad_id[:40]!r} for this browser")
    return row, load_pad(row["pad"])


def _view(row: dict[str, Any], pad: Pad, owner: bool) -> dict[str, Any]:
    out = {"share": row["share"], "updated": row["updated"], **pad.summary(), "entries": list(pad.hands)}
    if owner:
        out["pad"] = row["id"]
    else:
        out["can_undo"] = False
    return out


async def _store(request: Request, row: dict[str, Any], pad: Pad) -> JSONResponse:
    lobby = _lobby(request)
    updated = await lobby.db(lobby.store.save_pad, row["id"], row["share"], row["player"], pad.to_dict())
    return JSONResponse(_view({**row, "updated": updated}, pad, True))


async def _create(request: Request, player: str, pad: Pad) -> JSONResponse:
    lobby = _lobby(request)
    mine = await lobby.db(lobby.store.player_pads, player, MAX_PADS)
    if len(mine) >= MAX_PADS:
        raise Refused(409, "TOO_MANY_PADS", f"a browser keeps at most {MAX_PADS} score pads: delete an old one")
    row = {"id": secrets.token_urlsafe(12), "share": secrets.token_urlsafe(12), "player": player, "updated": 0.0}
    return await _store(request, row, pad)


def _guard(handler: Any) -> Any:
    """Answer ``Refused`` and ``PadError`` with the documented error shape."""
    @functools.wraps(handler)
    async def wrapped(*args: Any, **kwargs: Any) -> Response:
        try:
            return await handler(*args, **kwargs)  # type: ignore[no-any-return]
        except Refused as exc:
            return exc.response
        except PadError as exc:
            return _error(422, "BAD_PAD", str(exc))
    return wrapped


@router.get("/pad", include_in_schema=False)
@router.get("/pad/view/{share}", include_in_schema=False)
async def pad_page(request: Request) -> Response:
    """The pad's page: the owner's pads at /pad, one pad read-only at /pad/view/SHARE."""
    return page(request, "pad.html")


@router.post("/api/pads")
@_guard
async def create_pad(request: Request) -> Response:
    """A new pad: ``{"variant", "options", "names"}``; or ``{"import": TEXT}`` with a pad's JSON or CSV."""
    player = _player(request)
    body = await _body(request)
    if "import" in body:
        text = body["import"]
        if not isinstance(text, str):
            raise Refused(422, "BAD_REQUEST", "import: the pad's JSON or CSV as text")
        pad = load_pad(text) if text.lstrip().startswith("{") else from_csv(text)
    else:
        unknown = set(body) - {"variant", "options", "names"}
        if unknown:
            raise Refused(422, "BAD_REQUEST", f"unknown field(s) {', '.join(sorted(unknown))[:80]}; "
                          "valid: variant, options, names, import")
        pad = new_pad(body.get("variant", "classic"), body.get("options") or {}, body.get("names"))
    return await _create(request, player, pad)


@router.get("/api/pads")
@_guard
async def list_pads(request: Request) -> Response:
    """The caller's pads, the latest changed first."""
    player = _player(request)
    lobby = _lobby(request)
    rows = await lobby.db(lobby.store.player_pads, player, MAX_PADS)
    out = []
    for row in rows:
        data = row["pad"]
        hands = data.get("hands") or []
        out.append({"pad": row["id"], "share": row["share"], "variant": data.get("variant"),
                    "names": data.get("names"), "hands": len(hands), "updated": row["updated"]})
    return JSONResponse(out)


@router.get("/api/pads/{pad_id}")
@_guard
async def get_pad(pad_id: str, request: Request) -> Response:
    row, pad = await _owned(request, pad_id)
    return JSONResponse(_view(row, pad, True))


@router.post("/api/pads/{pad_id}/hands")
@_guard
async def add_hand(pad_id: str, request: Request) -> Response:
    """One more hand: the body is the hand as the pad's JSON holds it."""
    row, pad = await _owned(request, pad_id)
    return await _store(request, row, pad.add(await _body(request)))


@router.put("/api/pads/{pad_id}/hands/{number}")
@_guard
async def correct_hand(pad_id: str, number: int, request: Request) -> Response:
    row, pad = await _owned(request, pad_id)
    return await _store(request, row, pad.correct(number, await _body(request)))


@router.post("/api/pads/{pad_id}/undo")
@_guard
async def undo(pad_id: str, request: Request) -> Response:
    row, pad = await _owned(request, pad_id)
    return await _store(request, row, pad.undo())


@router.delete("/api/pads/{pad_id}")
@_guard
async def delete_pad(pad_id: str, request: Request) -> Response:
    row, _pad = await _owned(request, pad_id)
    lobby = _lobby(request)
    await lobby.db(lobby.store.delete_pad, row["id"])
    return JSONResponse({"deleted": row["id"]})


@router.get("/api/pads/{pad_id}/export")
@_guard
async def export(pad_id: str, request: Request, format: str = "json") -> Response:
    """The pad as its JSON or as a CSV score sheet, to download."""
    _row, pad = await _owned(request, pad_id)
    if format not in ("json", "csv"):
        raise Refused(422, "BAD_FORMAT", "format is json or csv")
    name = f"canasta-pad-{pad.variant}.{format}"
    body, kind = (pad.to_json(), "application/json") if format == "json" else (to_csv(pad), "text/csv")
    return Response(body, media_type=kind, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/shared/pads/{share}")
@_guard
async def shared(share: str, request: Request) -> Response:
    """A pad read through its share link: everything shown, nothing that changes it."""
    row = None
    if HANDLE.match(share):
        lobby = _lobby(request)
        row = await lobby.db(lobby.store.load_pad, None, share)
    if row is None:
        raise Refused(404, "NO_PAD", "no score pad at this link")
    return JSONResponse(_view(row, load_pad(row["pad"]), False))
