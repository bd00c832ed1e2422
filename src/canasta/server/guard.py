"""What keeps a public server up and quiet: its limits, the per-address table budget, the response
headers, request bodies bounded before they are read, and errors answered without leaking (docs/security.md).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from limits import RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from .protocol import ProtocolError

log = logging.getLogger("canasta.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
     b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class TableBudget:
    """How many tables each client address may create per minute (a moving window, from the ``limits``
    library): in this process's memory, or with several processes in the broker's Redis (``broker``, its
    keys starting with ``prefix``), so that the site's processes share one budget per address. A broker
    that does not answer lets the request through (logged): the other limits still hold."""

    def __init__(self, per_minute: int, broker: str | None = None, prefix: str = "canasta") -> None:
        self.item = RateLimitItemPerMinute(per_minute)
        storage: Storage = MemoryStorage() if broker is None else \
            RedisStorage(broker.replace("redis", "async+redis", 1), implementation="redispy",
                         key_prefix=f"{prefix}:limits")
        self.limiter = MovingWindowRateLimiter(storage)

    async def spend(self, address: str) -> bool:
        try:
            return await self.limiter.hit(self.item, "create", address)
        except Exception as exc:
            log.error("table budget unavailable: %s", type(exc).__name__)
            return True

    async def retry_after(self, address: str) -> int:
        try:
            reset = (await self.limiter.get_window_stats(self.item, "create", address)).reset_time
        except Exception:
            return 60
        return max(1, int(reset - time.time()) + 1)


def error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": code, "message": message}).encode()


def database_failed(exc: BaseException) -> bool:
    """A database that cannot be reached or written (the server answers 503 and tries again later)."""
    return isinstance(exc, SQLAlchemyError | OSError)


class Shield:
    """The outermost ASGI layer: refuses an HTTP body over ``body_bytes`` before reading it (by its
    Content-Length, or once a chunked body passes the limit), adds the security headers to every answer,
    and turns any error that escaped the app into the documented error body, logged by class only (an
    exception's text can hold SQL parameters, i.e. a position and its deck)."""

    def __init__(self, app: ASGIApp, body_bytes: int) -> None:
        self.app = app
        self.body_bytes = body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            try:
                await self.app(scope, receive, send)
            except Exception as exc:
                log.error("websocket %s failed: %s", scope.get("path", ""), type(exc).__name__)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        async def answer(status: int, code: str, message: str) -> None:
            body = error_body(code, message)
            await guarded_send({"type": "http.response.start", "status": status,
                                "headers": [(b"content-type", b"application/json"),
                                            (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})

        too_large = f"a request body is at most {self.body_bytes} bytes"
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.body_bytes):
            await answer(413, "TOO_LARGE", too_large)
            return
        seen = 0

        async def bounded_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.body_bytes:
                    raise BodyTooLarge
            return message

        try:
            await self.app(scope, bounded_receive, guarded_send)
        except BodyTooLarge:
            if not started:
                await answer(413, "TOO_LARGE", too_large)
        except Exception as exc:
            log.error("%s %s failed: %s", scope.get("method"), scope.get("path", ""), type(exc).__name__)
            if not started:
                if database_failed(exc):
                    await answer(503, "UNAVAILABLE", "the database cannot be reached: try again shortly")
                else:
                    await answer(500, "INTERNAL", "the server failed to answer this request")


class BodyTooLarge(HTTPException):
    """Raised while a body streams in past the limit (an HTTP error, so the app's body parser passes it on)."""

    def __init__(self) -> None:
        super().__init__(413)


class Unavailable(ProtocolError):
    """The database cannot be reached or written: nothing was changed; try again shortly."""

    def __init__(self) -> None:
        super().__init__("UNAVAILABLE", "the database cannot be reached: nothing was changed, try again shortly")


class TableLimit(Exception):
    """A table that may not be created now: ``status`` and ``code`` for the HTTP answer."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

