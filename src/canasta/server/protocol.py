"""The websocket protocol's client frames: reading, checking and the stable error codes (docs/protocol.md)."""

from __future__ import annotations

import json
import time
from typing import Any

MAX_FRAME_BYTES = 4096
MAX_ID_LENGTH = 64
MAX_CHAT = 300
MAX_NAME = 24
RATE_PER_SECOND = 20.0
RATE_BURST = 40.0

# type: {field: (accepted Python types, required)}
FIELDS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "move": {"id": ((str, int), True), "version": ((int,), True), "move": ((str,), True)},
    "sync": {"version": ((int,), True)},
    "hint": {"id": ((str, int), False), "level": ((str,), False)},
    "chat": {"text": ((str,), True)},
    "start": {},
    "rematch": {},
    "continue": {"hand": ((int,), False)},
    "explain": {"id": ((str, int), False), "move": ((str,), True)},
}


class ProtocolError(Exception):
    """A frame refused with a stable ``code``; ``frame_id`` is the frame's ``id`` when it had one."""

    def __init__(self, code: str, message: str, frame_id: Any = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.frame_id = frame_id
        self.reason = reason

    def frame(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "id": self.frame_id, "code": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def read_frame(text: str | bytes) -> dict[str, Any]:
    """A client frame checked for size (in UTF-8 bytes), JSON, type and the type's fields; raises
    ``ProtocolError``."""
    size = len(text.encode(errors="surrogatepass") if isinstance(text, str) else text)
    if size > MAX_FRAME_BYTES:
        raise ProtocolError("FRAME_TOO_LARGE", f"a frame may be at most {MAX_FRAME_BYTES} bytes, got {size}")
    try:
        frame = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("BAD_FRAME", "a frame is a JSON object, e.g. {\"type\": \"sync\", \"version\": 0}") \
            from None
    if not isinstance(frame, dict):
        raise ProtocolError("BAD_FRAME", "a frame is a JSON object, e.g. {\"type\": \"sync\", \"version\": 0}")
    frame_id = frame.get("id")
    if isinstance(frame_id, bool) or not isinstance(frame_id, str | int | None) or \
            (isinstance(frame_id, str) and len(frame_id) > MAX_ID_LENGTH):
        raise ProtocolError("BAD_FRAME", f"'id' is a string or number of at most {MAX_ID_LENGTH} characters")
    kind = frame.get("type")
    fields = FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ProtocolError("UNKNOWN_TYPE", f"unknown frame type {kind!r}; valid types: {', '.join(FIELDS)}",
                            frame_id)
    for name, (types, required) in fields.items():
        value = frame.get(name)
        if value is None:
            if required:
                raise ProtocolError("BAD_FRAME", f"a {kind} frame needs '{name}'", frame_id)
            continue
        if isinstance(value, bool) or not isinstance(value, types):
            want = " or ".join("number" if t is int else "string" for t in types)
            raise ProtocolError("BAD_FRAME", f"'{name}' must be a {want}, got {value!r}", frame_id)
    token = frame.get("token")
    if token is not None and not isinstance(token, str):
        raise ProtocolError("BAD_TOKEN", "'token' must be a string", frame_id)
    return frame


class RateLimit:
    """A token bucket: ``RATE_PER_SECOND`` frames a second on average, bursts of ``RATE_BURST``."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def clean_name(name: str | None) -> str | None:
    """A display name: printable, trimmed, at most ``MAX_NAME`` characters; None when nothing is left."""
    if not name:
        return None
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME]
    return text or None
